"""The tune's report section, written as a standalone ``tune.html`` with the report's building blocks
(``analysis.sections.blocks``: a ``Section`` of charts and tables; charts by ``analysis.charts``).

It is standalone because the balance report is built from run folders' records, and a tune writes none
(its games are summarised in the state file): hooking it in would take a change to ``analysis.report``.
The section: the objective against games spent (every estimate of every rung, and each rung's best),
the finalists' confirmed values with intervals and the corrected tests, and what the winner changes.
"""

from __future__ import annotations

import html
import json
from pathlib import Path
from typing import Any

from analysis.charts import WIDTH, png
from analysis.sections.blocks import Chart, Section, Table
from sim.manifest import write_text_atomic


def _chart(doc: dict[str, Any]) -> Chart:
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(WIDTH, 3.6))
    spent, rung_best = [], []
    for rung in doc["rungs"]:
        at = _rung_spent(doc, rung)
        ax.scatter([at] * len(rung["objective"]), rung["objective"], s=10, alpha=0.5, color="tab:blue")
        spent.append(at)
        rung_best.append(min(rung["objective"]))
    ax.plot(spent, rung_best, marker="o", color="tab:orange", label="best of the rung")
    final = doc["confirmation"]["finalists"]
    total = doc["games_spent"]
    for row in final:
        ax.errorbar(
            [total],
            [row["objective"]],
            yerr=[[row["objective"] - row["low"]], [row["high"] - row["objective"]]],
            fmt="s",
            capsize=3,
            color="tab:green" if row["candidate"] == doc["winner"] else "tab:grey",
        )
    ax.set_xlabel("games spent")
    ax.set_ylabel("objective (lower is better)")
    ax.set_title(
        "Objective against games spent (squares: the finalists confirmed on fresh seeds)", fontsize=10
    )
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    return Chart("tune-objective", png(fig), "objective estimates of every candidate against games spent")


def _rung_spent(doc: dict[str, Any], rung: dict[str, Any]) -> int:
    """Games spent when the rung's estimates were taken (read from the history, in rung order)."""
    index = doc["rungs"].index(rung)
    sizes = [len(r["candidates"]) for r in doc["rungs"]]
    position = sum(sizes[: index + 1]) - 1
    return int(doc["history"][position]["games_spent"]) if position < len(doc["history"]) else 0


def _label(doc: dict[str, Any], cand: int) -> str:
    values = next(c["values"] for c in doc["candidates"] if c["candidate"] == cand)
    return f"#{cand}: " + "; ".join(f"{k} = {v}" for k, v in values.items())


def _p(value: float | None) -> str:
    return "-" if value is None else (f"{value:.3g}" if value >= 1e-4 else "<1e-4")


def section(doc: dict[str, Any]) -> Section:
    conf = doc["confirmation"]
    finalists = Table(
        f"Finalists re-measured on fresh seeds ({conf['games_per_run']:,} games per run,"
        f" seed {conf['seed']})",
        ["candidate", "objective (95% CI)", "p winner better (Holm)", "seat shares per population (p, Holm)"],
        [
            [
                _label(doc, row["candidate"]) + (" (winner)" if row["candidate"] == doc["winner"] else ""),
                f"{row['objective']:.4f} ({row['low']:.4f} to {row['high']:.4f})",
                f"{_p(row['p_winner_better'])} ({_p(row['p_holm'])})",
                "; ".join(
                    f"{'/'.join(run['strategies'])}: "
                    + "/".join(f"{x:.3f}" for x in run["seat_share"])
                    + f" (p {_p(run['equal_chances_p_holm'])})"
                    for run in row["runs"]
                ),
            ]
            for row in conf["finalists"]
        ],
    )
    changed = Table(
        "What the winner changes",
        ["parameter", "target", "before", "after"],
        [[c["parameter"], c["target"], _short(c["before"]), _short(c["after"])] for c in doc["changes"]],
    )
    ranked = sorted(
        (c for c in doc["candidates"] if c["objective"] is not None),
        key=lambda c: (-(c["games_per_run"] or 0), c["objective"]),
    )
    every = Table(
        "Every candidate: games spent and last estimate",
        ["candidate", "games", "games per run", "objective"],
        [
            [_label(doc, c["candidate"]), f"{c['games']:,}", str(c["games_per_run"]), f"{c['objective']:.4f}"]
            for c in ranked
        ],
    )
    moved = [c["parameter"] for c in doc["changes"] if c["changed"]]
    reading = (
        f"{len(doc['candidates'])} candidates, {doc['games_spent']:,} games; the winner"
        f" {_label(doc, doc['winner'])} changes {', '.join(moved) if moved else 'nothing'}"
        " against the base data and rules."
    )
    return Section(
        "tune",
        doc["title"],
        "Which configuration best meets the objective?",
        reading,
        charts=[_chart(doc)],
        tables=[finalists, changed, every],
        notes=[conf["test"], conf["seat_test"]],
    )


def _short(value: Any) -> str:
    text = value if isinstance(value, str) else json.dumps(value)
    return text if len(text) <= 160 else text[:159] + "…"


def write_html(doc: dict[str, Any], path: Path) -> None:
    footer = f"Run the winner: <code>{html.escape(doc['command'])}</code>"
    write_text_atomic(standalone(section(doc), footer), path)


def standalone(s: Section, footer: str = "") -> str:
    """A section as a standalone HTML page (charts embedded; ``footer``: HTML, already escaped)."""
    parts = [
        f"<!doctype html><html><head><meta charset='utf-8'><title>{html.escape(s.title)}</title>",
        "<style>body{font-family:sans-serif;max-width:60em;margin:2em auto}table{border-collapse:collapse}"
        "td,th{border:1px solid #ccc;padding:3px 6px;font-size:90%;vertical-align:top}</style></head><body>",
        f"<h1>{html.escape(s.title)}</h1><p><b>{html.escape(s.question)}</b> {html.escape(s.reading)}</p>",
    ]
    for chart in s.charts:
        parts.append(f"<img alt='{html.escape(chart.alt)}' src='{chart.data_uri}'>")
    for table in s.tables:
        parts.append(
            f"<h2>{html.escape(table.title)}</h2><table><tr>"
            + "".join(f"<th>{html.escape(h)}</th>" for h in table.headers)
            + "</tr>"
        )
        for row in table.rows:
            parts.append("<tr>" + "".join(f"<td>{html.escape(cell)}</td>" for cell in row) + "</tr>")
        parts.append("</table>")
    parts += [f"<p><small>{html.escape(n)}</small></p>" for n in s.notes]
    parts.append(f"<p><small>{footer}</small></p></body></html>")
    return "\n".join(parts) + "\n"
