"""Headless Chromium for the report's rendering tests: where it is and the flags every run uses."""

from __future__ import annotations

import shutil


def chromium() -> str | None:
    """The Chromium executable, or None where none is installed (the tests are then skipped)."""
    return shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")


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
