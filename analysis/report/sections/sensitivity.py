"""The screen's report section, from ``sensitivity.json`` alone: a standalone ``sensitivity.html`` (as
``tune.html`` is made: ``analysis.report.sections.tune.standalone``) and the section and findings
``skald report`` adds for a folder holding a screen (``analysis.report.report``).

The section: per measure, the values ranked by mu* (Morris) or total index (Sobol) with 95% intervals,
a chart of the first seat verdict's ranking against its margin and the no-effect dummy's band, and per
seat verdict the values that could overturn it (their effect interval reaches the verdict's margin and they
are told apart from noise) and those the screen cannot tell (their interval reaches it, but not apart from
noise).
"""

from __future__ import annotations

import html
from pathlib import Path
from typing import Any

from analysis.present.blocks import Chart, Section, Table
from analysis.present.charts import WIDTH, plt, png
from analysis.present.findings import SCREEN_EFFECT, SCREEN_MARGIN, SCREEN_TOTAL, Finding
from analysis.report.sections.tune import standalone
from sim.manifest import write_text_atomic

SECTION = "sensitivity"
#: the statistic of a screened value's effect on a measure, by the question its finding answers (the words
#: before the measure's name in the finding's metric, and in the verdict)
STATISTIC = {SCREEN_EFFECT: "Morris mu*", SCREEN_TOTAL: "Sobol total index"}


def _f(x: float | None, digits: int = 4) -> str:
    return "-" if x is None else f"{x:.{digits}g}"


def _span(row: dict[str, Any], key: str, digits: int = 4) -> str:
    return f"{_f(row[key], digits)} ({_f(row[key + '_low'], digits)} to {_f(row[key + '_high'], digits)})"


def _lead(doc: dict[str, Any]) -> dict[str, Any]:
    """The measure the chart and the verdict read: the first seat verdict, else the first measure."""
    return next((m for m in doc["measures"] if m["seat"]), doc["measures"][0])


def _chart(doc: dict[str, Any]) -> Chart:
    lead = _lead(doc)
    rows = doc["effects"][lead["name"]][:20]
    key = "mu_star" if doc["method"] == "morris" else "main_effect_range"
    fig, ax = plt.subplots(figsize=(WIDTH, 0.6 + 0.32 * max(len(rows), 1)))
    ys = list(range(len(rows)))[::-1]
    est = [r[key] or 0.0 for r in rows]
    ax.barh(ys, est, color="tab:blue", alpha=0.7)
    if doc["method"] == "morris":
        low = [max(0.0, e - (r["mu_star_low"] or e)) for e, r in zip(est, rows, strict=True)]
        high = [max(0.0, (r["mu_star_high"] or e) - e) for e, r in zip(est, rows, strict=True)]
        ax.errorbar(est, ys, xerr=[low, high], fmt="none", color="black", capsize=2)
    band = doc.get("noise", {}).get(lead["name"])
    if band and band["mu_star_high"] is not None:
        ax.axvspan(band["mu_star_low"] or 0.0, band["mu_star_high"], color="tab:gray", alpha=0.25,
                   label="a no-effect dummy's mu* (95% interval)")  # fmt: skip
    if lead["packaged"] is not None and lead["seat"]:
        ax.axvline(lead["packaged"], color="tab:red", ls="--", label="the verdict's margin (packaged values)")
    if band or lead["seat"]:
        ax.legend(fontsize=8)
    ax.set_yticks(ys, [r["value"] for r in rows], fontsize=7)
    ax.set_xlabel(
        f"{'mu* (95% interval)' if doc['method'] == 'morris' else 'main-effect range'}: {lead['name']}"
    )
    ax.grid(alpha=0.3, axis="x")
    return Chart("sensitivity-ranking", png(fig), f"values ranked by their effect on the {lead['name']}")


def _effects_table(doc: dict[str, Any], measure: dict[str, Any]) -> Table:
    rows = doc["effects"][measure["name"]]
    if doc["method"] == "morris":
        headers = ["rank", "value", "mu* (95% interval)", "mu", "sigma (95% interval)", "effects",
                   "apart from noise (Holm p)"]  # fmt: skip
        cells = [
            [
                str(r["rank"]),
                r["value"],
                _span(r, "mu_star"),
                _f(r["mu"]),
                _span(r, "sigma"),
                str(r["effects"]),
                _apart(r),
            ]
            for r in rows
        ]
        band = doc.get("noise", {}).get(measure["name"])
        if band:
            dummy = ["-", "(no-effect dummy)", _span(band, "mu_star"), "-", "-", str(band["effects"]), "-"]
            cells.append(dummy)
    else:
        headers = ["rank", "value", "total index (95%)", "first-order index (95%)", "main-effect range"]
        cells = [
            [
                str(r["rank"]),
                r["value"],
                _span(r, "total", 3),
                _span(r, "first", 3),
                _f(r["main_effect_range"]),
            ]
            for r in rows
        ]
    at = f"; {_f(measure['packaged'])} at the packaged values" if measure["packaged"] is not None else ""
    return Table(f"{measure['name']}: {measure['words']}{at}", headers, cells)


def _apart(row: dict[str, Any]) -> str:
    if "told_apart" not in row:
        return "-"
    return f"{'yes' if row['told_apart'] else 'no'} ({row['noise_p_holm']:.2g})"


def _some(values: list[str]) -> str:
    return ", ".join(values[:6]) + (f" and {len(values) - 6} more" if len(values) > 6 else "")


def reading(doc: dict[str, Any]) -> str:
    """One sentence: the top value of the lead measure, what could overturn the seat verdicts, what the
    screen cannot tell apart from noise, and the smallest effect it could detect."""
    lead = _lead(doc)
    top = doc["effects"][lead["name"]][0]
    band = doc.get("noise", {}).get(lead["name"])
    apart = "" if band is None or top.get("told_apart") else " (not told apart from noise)"
    words = [
        f"{len(doc['values'])} values, {doc['games_spent']:,} games ({doc['method']}):"
        f" the {lead['name']} hinges most on {top['value']}{apart}"
    ]
    for name, values in doc["could_overturn"].items():
        untold = doc.get("cannot_tell", {}).get(name, [])
        words.append(f"the {name} could be overturned by {_some(values)}" if values
                     else f"the {name} is overturned by none of them")  # fmt: skip
        if untold:
            words.append(
                f"{_some(untold)} {'reaches' if len(untold) == 1 else 'reach'} its margin but"
                f" {'is' if len(untold) == 1 else 'are'} not told apart from noise: this screen cannot tell"
                f" whether {'it' if len(untold) == 1 else 'they'} could overturn it"
            )
    if band is not None and band.get("can_tell") is False:
        words.append(
            f"with {doc['trajectories']} trajectories no value can be told apart from noise at all (the"
            f" signed-rank test's smallest p, {band['smallest_p']:.2g}, is above alpha {band['alpha']:g} over"
            f" {band['family']} values); {band['trajectories_to_tell']} trajectories are needed"
        )
    if band is not None and band["mu_star_high"] is not None:
        words.append(
            f"a value with no effect scores a mu* of {_f(band['mu_star'], 3)} (95% interval "
            f"{_f(band['mu_star_low'], 3)}-{_f(band['mu_star_high'], 3)}) on the {lead['name']} from noise"
            " alone, so smaller effects cannot be detected at this size"
        )
    return "; ".join(words) + "."


def section(doc: dict[str, Any]) -> Section:
    tables = [_effects_table(doc, m) for m in doc["measures"]]
    if doc["not_varied"]:
        tables.append(Table("Reconstructed values not varied", ["value", "path", "why"],
                            [[n["name"], n["path"], n["why"]] for n in doc["not_varied"]]))  # fmt: skip
    notes = [
        doc["why"],
        f"Every point plays the same {doc['games_per_point']} games per strategy table (seed {doc['seed']}:"
        " common seeds); a value could overturn a seat verdict when its effect interval reaches the"
        " verdict's margin (the seat measure at the packaged values) and it is told apart from noise.",
    ]
    if doc.get("noise"):
        band = next(iter(doc["noise"].values()))
        notes.append(
            "The no-effect dummy: each trajectory's first point is played again on fresh seeds, and the"
            " change over that replicate is scored as a value's elementary effect; a value is told apart from"
            f" noise when a {band['test']} is significant after Holm's correction over"
            f" the {band['family']} values (alpha {band['alpha']:g}), per measure."
        )
    return Section(
        section_id(doc),
        doc["title"],
        "Which reconstructed values do the verdicts hinge on?",
        reading(doc),
        charts=[_chart(doc)],
        tables=tables,
        notes=notes,
        findings=findings(doc),
    )


def section_id(doc: dict[str, Any]) -> str:
    """``sensitivity-<name>``: the section's anchor on the page and its findings' section."""
    return f"{SECTION}-" + "".join(c if c.isalnum() else "-" for c in str(doc["sensitivity"]).lower())


def findings(doc: dict[str, Any]) -> list[Finding]:
    """Per measure and value its effect with the interval (``report.json``); on a seat verdict's measure
    ``test`` is ``could overturn`` for the values ``sensitivity.json`` flags (their effect interval reaches
    the verdict's margin and they are told apart from noise), ``cannot tell`` for those that reach it
    without being told apart, else ``cannot overturn``; with a Morris screen the test against the dummy's
    Holm-adjusted p and the dummy's band per measure; per seat verdict its margin."""
    out = []
    for m in doc["measures"]:
        band = doc.get("noise", {}).get(m["name"])
        flagged = doc["could_overturn"].get(m["name"], [])
        untold = doc.get("cannot_tell", {}).get(m["name"], [])
        for r in doc["effects"][m["name"]]:
            morris = doc["method"] == "morris"
            question = SCREEN_EFFECT if morris else SCREEN_TOTAL
            out.append(
                Finding(
                    game=doc["game"],
                    section=section_id(doc),
                    metric=f"{STATISTIC[question]}: {m['name']}",
                    question=question,
                    subject=m["name"],
                    groups={
                        "screen": doc["sensitivity"],
                        "players": doc["players"],
                        "value": r["value"],
                        "rank": r["rank"],
                    },  # fmt: skip
                    estimate=r["mu_star" if morris else "total"],
                    low=r["mu_star_low" if morris else "total_low"],
                    high=r["mu_star_high" if morris else "total_high"],
                    test=_overturn(m, r["value"] in flagged, r["value"] in untold),
                    p_value=r.get("noise_p"),
                    p_adjusted=r.get("noise_p_holm"),
                    correction="Holm" if "noise_p_holm" in r else None,
                    detectable=band["mu_star_high"] if band else None,
                    family=len(doc["values"]) if "noise_p_holm" in r else None,
                    games=doc["games_spent"],
                    unit="decisions" if m["name"] == "game length" else "",
                    expected=0.0,
                )
            )
        if band:
            out.append(
                Finding(game=doc["game"], section=section_id(doc), metric=f"no-effect dummy mu*: {m['name']}",
                        groups={"screen": doc["sensitivity"], "players": doc["players"]},
                        estimate=band["mu_star"], low=band["mu_star_low"], high=band["mu_star_high"],
                        games=doc["games_spent"], unit="decisions" if m["name"] == "game length" else "")
            )  # fmt: skip
        if m["seat"]:
            out.append(
                Finding(game=doc["game"], section=section_id(doc), metric=f"margin: {m['name']}",
                        question=SCREEN_MARGIN, subject=m["name"],
                        groups={"screen": doc["sensitivity"], "players": doc["players"]},
                        estimate=m["packaged"], games=doc["games_per_point"] * len(doc["runs"]))
            )  # fmt: skip
    return out


def _overturn(measure: dict[str, Any], flagged: bool, untold: bool) -> str | None:
    if not measure["seat"]:
        return None
    return "could overturn" if flagged else "cannot tell" if untold else "cannot overturn"


def write_html(doc: dict[str, Any], path: Path) -> None:
    footer = f"Screen {html.escape(doc['sensitivity'])} of {html.escape(doc['game'])}, seed {doc['seed']}."
    write_text_atomic(standalone(section(doc), footer), path)
