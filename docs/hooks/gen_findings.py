"""The questions a finding of ``report.json`` can answer (``report.md``), written from
``analysis.present.findings.QUESTIONS`` when the site is built, so the page lists every question the
verdicts select findings by, each with its meaning."""

from __future__ import annotations

from analysis.present.findings import QUESTIONS


def questions_section() -> str:
    """One list item per question: its name, as ``report.json`` writes it, and its meaning."""
    return "\n".join(f"- `{name}`: {meaning}" for name, meaning in QUESTIONS.items())
