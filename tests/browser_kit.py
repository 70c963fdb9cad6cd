"""Headless Chromium for the rendering tests (report, viewer, game to watch): where it is, the flags every
run uses, a screenshot, and a probe: a script run in the page whose findings come back as JSON."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest


def chromium() -> str | None:
    """The Chromium executable, or None where none is installed (the tests are then skipped)."""
    return shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")


#: the mark of a test (or, as ``pytestmark``, a module) that needs Chromium
needs_chromium = pytest.mark.skipif(
    chromium() is None, reason="no Chromium installed (apt-get install chromium)"
)

#: headless, no sandbox or GPU, and nothing that reaches the network on its own
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--hide-scrollbars",
]


def chromium_run(args: list[str], cwd: Path | None = None) -> subprocess.CompletedProcess:
    """Chromium with ``FLAGS`` and ``args`` in a fresh profile (two minutes at most)."""
    with tempfile.TemporaryDirectory() as profile:
        return subprocess.run(
            [chromium(), *FLAGS, f"--user-data-dir={profile}", *args],
            capture_output=True, text=True, timeout=120, cwd=cwd,
        )  # fmt: skip


def screenshot(url: str, out: Path, size: str = "1400,900") -> Path:
    """A screenshot of ``url`` in a window of ``size`` (width,height) written to ``out``."""
    chromium_run([f"--window-size={size}", f"--screenshot={out}", url], out.parent)
    return out


_RECORD_ERRORS = """<script>
window.__errors = [];
window.addEventListener("error", function (e) { window.__errors.push(String(e.message)); });
(function () { var err = console.error; console.error = function () {
  window.__errors.push(Array.prototype.join.call(arguments, " ")); err.apply(console, arguments); }; })();
window.addEventListener("load", function () {
"""
_LEAVE_OUT = """  var pre = document.createElement("pre"); pre.id = "probe";
  pre.textContent = JSON.stringify(out); document.body.appendChild(pre);
});
</script>"""


def probe_script(body: str) -> str:
    """A ``<script>`` for the top of ``<head>``: it records every error and ``console.error`` in
    ``window.__errors`` and at load runs ``body``, JavaScript that sets ``out`` (an object), which it
    leaves as JSON in ``<pre id="probe">`` for ``probe``."""
    return _RECORD_ERRORS + body + _LEAVE_OUT


def probe(page: Path, script: str, checked: Path, width: int = 1400) -> dict:
    """What ``script`` (``probe_script``'s) finds in ``page``, loaded as the copy ``checked`` with the
    script first in its ``<head>``, in a window ``width`` px wide."""
    checked.write_text(page.read_text().replace("<head>", "<head>" + script, 1))
    dom = chromium_run([f"--window-size={width},900", "--dump-dom", checked.as_uri()], checked.parent)
    found = re.search(r'<pre id="probe">(.*?)</pre>', dom.stdout, re.S)
    assert found, dom.stderr[-2000:]
    text = found.group(1).replace("&quot;", '"').replace("&lt;", "<").replace("&gt;", ">")
    return json.loads(text.replace("&amp;", "&"))
