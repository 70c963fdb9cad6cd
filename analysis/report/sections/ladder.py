"""The skill-ladder section (any game whose records hold rungs: ``analysis.questions.ladder``): the win share
of budget 2k against budget k by k with its interval, the 1/2 line and the fitted trend, each rung's ms
per decision and cost, and whether skill still pays at the largest budget tried."""

from __future__ import annotations

import math

import numpy as np
import polars as pl

from analysis.data.runs import Runs
from analysis.present import charts
from analysis.present.blocks import Chart, Section, col, interval, num, pct, unavailable, variant_words
from analysis.present.findings import SKILL_LADDER, SKILL_TREND, Finding
from analysis.present.tables import findings_for, share_with_interval, stats_table
from analysis.questions import ladder

QUESTION = (
    "Does a doubled search budget still win more than its share of the games, and how does the edge change "
    "as the budget grows?"
)
NOTE = (
    "A rung is a run in which one search strategy plays at budget 2k (iterations per decision) against "
    "itself at budget k, seats rotated, so the budget is all that differs. The win share of the larger "
    "budget counts decided games (ties split fractionally); its 95% interval is Wilson's at the blocks' "
    "effective size with a t quantile on blocks - 1 df, the block being one deal played with the seats "
    "rotated. The trend is a weighted least-squares line of the share against log2 k, each rung weighted "
    "by 1/SE² with the variances taken as known, so the slope's interval is a normal one. Skill still "
    "pays at a budget when that rung's interval lies above the even share (1/2 at two players). ms per "
    "decision and CPU seconds are the run manifest's timings (timings.search, worker_seconds): they vary "
    "with the machine and its load."
)


def ladder_sections(runs: Runs, sid: str = "skill-ladder") -> list[Section]:
    """The ladder section of ``runs`` (one game's), or none where the records hold no rung; a section
    saying why where the records cannot answer (a reshaped column), so the rest of the report stands."""
    if not ladder.ladder_runs(runs):
        return []
    try:
        return [ladder_section(ladder.ladder_rows(runs), sid)]
    except Exception as exc:
        return [unavailable(sid, "Skill ladder", QUESTION, exc)]


def _trends(rows: pl.DataFrame) -> dict[tuple, ladder.Trend]:
    return {
        key: ladder.fit_trend(g["budget"].to_numpy(), g["win_rate"].to_numpy(), g["se"].to_numpy())
        for key, g in rows.group_by(["game", "players", "variant"], maintain_order=True)
    }


def _reading(rows: pl.DataFrame, trends: dict[tuple, ladder.Trend]) -> str:
    sentences = []
    for (game, players, variant), trend in trends.items():
        part = rows.filter(
            (pl.col("game") == game) & (pl.col("players") == players) & (pl.col("variant") == variant)
        ).sort("budget")
        top = part.row(part.height - 1, named=True)
        pays = ladder.skill_pays(top)
        slope = (
            f"the fitted share changes by {100 * trend.slope:+.1f} points per doubling "
            f"{interval(100 * trend.low, 100 * trend.high)}"
            if math.isfinite(trend.slope)
            else "one rung gives no trend"
        )
        verdict = "skill still pays" if pays else "the sample does not show that skill still pays"
        sentences.append(
            f"At the largest budget tried ({top['rung']} iterations, {players} players"
            f"{variant_words(variant)}), {verdict}: the larger budget wins {pct(top['win_rate'])} "
            f"{interval(top['ci_low'], top['ci_high'], as_pct=True)} of {top['games']:,} decided games "
            f"in {top['blocks']:,} blocks against an even {pct(top['expected'], 0)}; {slope}. The ladder "
            f"cost {num(float(part['cpu_seconds'].sum()), 0)} CPU seconds."
        )
    return " ".join(sentences)


def _chart(rows: pl.DataFrame, trends: dict[tuple, ladder.Trend]) -> bytes:
    """Win share of 2k against k by k (log2 axis), interval bars, the even share and the fitted line."""
    fig, axes = charts._facets(len(trends))
    for ax, ((game, players, variant), trend) in zip(axes, trends.items(), strict=False):
        part = rows.filter(
            (pl.col("game") == game) & (pl.col("players") == players) & (pl.col("variant") == variant)
        ).sort("budget")
        k = part["budget"].to_numpy().astype(float)
        rate = part["win_rate"].to_numpy() * 100
        err = charts._err(rate, part["ci_low"].to_numpy() * 100, part["ci_high"].to_numpy() * 100)
        ax.errorbar(k, rate, yerr=err, fmt="o", capsize=4, color=charts.COLORS[0], label="2k against k")
        ax.axhline(100 * float(part["expected"][0]), ls="--", color="grey", lw=1, label="even share")
        if math.isfinite(trend.slope):
            grid = np.geomspace(k.min(), k.max(), 50)
            ax.plot(grid, [100 * trend.at(x) for x in grid], color=charts.COLORS[1], label="fitted trend")
        ax.set_xscale("log", base=2)
        ax.set_xticks(k, [f"{int(2 * x)} vs {int(x)}" for x in k])
        charts._style(
            ax,
            f"{game}, {players} players{variant_words(variant)}",
            "budget (2k vs k iterations)",
            "win share of budget 2k (%)",
        )
        ax.set_ylim(0, 100)
    fig.suptitle(
        "Skill ladder: win share of budget 2k against budget k (95% intervals on blocks)", fontsize=11
    )
    fig.tight_layout()
    charts._shared_legend(fig, axes)
    return charts.png(fig)


def _findings(sid: str, rows: pl.DataFrame, trends: dict[tuple, ladder.Trend]) -> list[Finding]:
    groups = ("players", "variant", "budget", "larger")
    found = findings_for(section=sid, clusters="blocks")(
        rows,
        metric="larger budget win share",
        groups=groups,
        estimate="win_rate",
        low="ci_low",
        high="ci_high",
        games="games",
        unit="share",
        expected="expected",
    )
    shared = findings_for(section=sid, groups=groups, unit="ms")
    found += shared(rows, metric="ms per decision of the larger budget", estimate="ms_high")
    found += shared(rows, metric="ms per decision of the smaller budget", estimate="ms_low")
    found += findings_for(section=sid, groups=groups, unit="seconds")(
        rows, metric="rung CPU seconds", estimate="cpu_seconds", games="games"
    )
    for (game, players, variant), trend in trends.items():
        part = rows.filter(
            (pl.col("game") == game) & (pl.col("players") == players) & (pl.col("variant") == variant)
        ).sort("budget")
        top = part.row(part.height - 1, named=True)
        where = {"players": players, "variant": variant}
        found += [
            Finding(
                game,
                sid,
                "skill trend per doubling",
                where,
                trend.slope,
                trend.low,
                trend.high,
                p_value=trend.p_value,
                test=trend.method,
                games=int(part["games"].sum()),
                clusters=trend.rungs,
                unit="difference",
                expected=0.0,
                question=SKILL_TREND,
            ),
            Finding(
                game,
                sid,
                "skill pays at the largest budget",
                {**where, "budget": top["budget"]},
                top["win_rate"],
                top["ci_low"],
                top["ci_high"],
                games=top["games"],
                clusters=top["blocks"],
                test="pays" if ladder.skill_pays(top) else "not shown",
                unit="share",
                expected=top["expected"],
                question=SKILL_LADDER,
            ),
            Finding(
                game,
                sid,
                "ladder CPU seconds",
                where,
                float(part["cpu_seconds"].sum()),
                games=int(part["games"].sum()),
                unit="seconds",
            ),
        ]
    return found


def ladder_section(rows: pl.DataFrame, sid: str = "skill-ladder") -> Section:
    """The section of ``ladder.ladder_rows``."""
    trends = _trends(rows)
    table = stats_table(
        "Each rung: the larger budget against the smaller",
        rows,
        [
            "players",
            "variant",
            ("rung (iterations)", "rung"),
            ("decided games", "games"),
            "blocks",
            ("win share of 2k [95%]", share_with_interval("win_rate", "ci_low", "ci_high")),
            ("even share", col("expected", pct)),
            ("skill pays", lambda r: "yes" if ladder.skill_pays(r) else "not shown"),
            ("ms per decision, 2k", col("ms_high", lambda x: num(x, 1))),
            ("ms per decision, k", col("ms_low", lambda x: num(x, 1))),
            ("CPU seconds", col("cpu_seconds", lambda x: num(x, 0))),
        ],
    )
    return Section(
        sid,
        "Skill ladder",
        QUESTION,
        _reading(rows, trends),
        charts=[Chart(sid, _chart(rows, trends), "Win share of budget 2k against k, with the fitted trend")],
        tables=[table],
        findings=_findings(sid, rows, trends),
        notes=[NOTE],
    )
