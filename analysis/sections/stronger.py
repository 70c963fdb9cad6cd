"""The stronger-play section (any game whose records hold a scripted and a search mirror match:
``analysis.stronger``): the seat verdict under search beside the scripted one, with HOLDS, CHANGES or
CANNOT BE TOLD and the smallest gap the search sample could detect."""

from __future__ import annotations

import polars as pl

from analysis import stronger
from analysis.findings import Finding
from analysis.runs import Runs
from analysis.sections.blocks import Section, gap_points, pct, pval, unavailable, variant_words
from analysis.sections.tables import findings_for, stats_table

QUESTION = (
    "Does the seat verdict of the scripted mirror match still hold when a search strategy plays every seat?"
)
NOTE = (
    "A mirror match plays one strategy in every seat with the seats rotated, so a position's edge is the "
    "position's. The scripted side is the game's scripted mirror match (its packaged study's), the search "
    "side a search strategy in every seat at the budget shown. Each side's test of equal chances is the "
    "design-aware one of the seat-balance section (Rao-Scott corrected chi-square on the blocks), "
    "Holm-corrected over its own family: the scripted groups, or the search groups. HOLDS: both find a "
    "seat effect favouring the same position, or neither does and the search sample detects gaps as "
    "small as the scripted one; CHANGES: an effect appears, moves, or goes where the search sample would "
    "have detected the scripted gap; CANNOT BE TOLD: the search sample could not detect the gap that "
    "matters. The smallest detectable gap is the max-min gap the test finds with 80% power "
    "(analysis.power, at the blocks' effective size)."
)


def stronger_sections(runs: Runs, sid: str = "stronger-play") -> list[Section]:
    """The section of ``runs`` (one game's), or none without both a scripted and a search mirror; a
    section saying why where the records cannot answer (a reshaped column)."""
    scripted, search = stronger.mirrors(runs)
    if not len(scripted) or not len(search):
        return []
    try:
        pairs, rates, position = stronger.comparison(runs)
        return [stronger_section(pairs, rates, position, sid)] if not pairs.is_empty() else []
    except Exception as exc:
        return [unavailable(sid, "Verdicts under stronger play", QUESTION, exc)]


def _shares(rates: pl.DataFrame, position: str, side: str, row: dict) -> str:
    mix = row[f"{'s' if side == 'scripted' else 'x'}_mix"]
    part = rates.filter(
        (pl.col("side") == side)
        & (pl.col("players") == row["players"])
        & (pl.col("variant") == row["variant"])
        & (pl.col("mix") == mix)
    ).sort(position)
    return ", ".join(f"{r[position]}: {pct(r['win_rate'], 0)}" for r in part.iter_rows(named=True))


def _reading(pairs: pl.DataFrame) -> str:
    counts = {o: pairs.filter(pl.col("outcome") == o).height for o in stronger.OUTCOMES}
    lines = [
        f"{r['players']} players{variant_words(r['variant'])}, {r['x_mix'].split(' + ')[0]} in every seat: "
        f"{r['outcome']} ({r['why']})"
        for r in pairs.iter_rows(named=True)
    ]
    summary = ", ".join(f"{n} {o}" for o, n in counts.items() if n)
    return f"Of {pairs.height} comparisons, {summary}. " + "; ".join(lines) + "."


def _findings(sid: str, pairs: pl.DataFrame, rates: pl.DataFrame, position: str) -> list[Finding]:
    keys = ("players", "variant")
    found: list[Finding] = []
    for prefix, name in (("s", "scripted"), ("x", "search")):
        side = pairs.unique(subset=[f"{prefix}_mix", *keys], maintain_order=True).rename(
            {f"{prefix}_mix": "mix"}
        )
        found += findings_for(section=sid, unit="difference", expected=0.0)(
            side,
            metric=f"{name} seat test",
            groups=(*keys, "mix"),
            estimate=f"{prefix}_max_gap",
            p_value=f"{prefix}_p_value",
            p_adjusted=f"{prefix}_p_adjusted",
            test=f"{prefix}_test",
            games=f"{prefix}_decided",
            clusters=f"{prefix}_blocks",
            correction=f"{prefix}_correction",
            family=f"{prefix}_family",
            detectable=f"{prefix}_detectable_gap",
            excluded=f"{prefix}_excluded",
        )
    found += findings_for(section=sid, unit="share")(
        rates,
        metric="position win rate",
        groups=("players", "variant", "mix", position),
        estimate="win_rate",
        low="ci_low",
        high="ci_high",
        games="games",
        clusters="blocks",
        expected="expected",
        excluded="excluded",
    )
    found += findings_for(section=sid, unit="difference")(
        pairs.rename({"x_mix": "search", "s_mix": "scripted"}),
        metric="verdict under stronger play",
        groups=("players", "variant", "scripted", "search"),
        estimate="x_max_gap",
        expected="s_max_gap",
        detectable="x_detectable_gap",
        p_value="x_p_value",
        p_adjusted="x_p_adjusted",
        correction="x_correction",
        family="x_family",
        test="outcome",
        games="x_decided",
        clusters="x_blocks",
    )
    return found


def stronger_section(pairs: pl.DataFrame, rates: pl.DataFrame, position: str, sid: str) -> Section:
    """The section of ``stronger.comparison``'s frames."""
    label = position.replace("_", " ")
    table = stats_table(
        f"The {label} verdict, scripted and under search",
        pairs,
        [
            "players",
            "variant",
            ("scripted", lambda r: r["s_mix"].split(" + ")[0]),
            (f"scripted {label} win shares", lambda r: _shares(rates, position, "scripted", r)),
            ("scripted Holm p", lambda r: pval(r["s_p_adjusted"])),
            ("scripted detectable gap (pp)", lambda r: gap_points(r["s_detectable_gap"])),
            ("search", lambda r: r["x_mix"].split(" + ")[0]),
            ("search decided games", "x_decided"),
            ("search blocks", "x_blocks"),
            (f"search {label} win shares", lambda r: _shares(rates, position, "search", r)),
            ("search p (design-aware)", lambda r: pval(r["x_p_value"])),
            ("search Holm p", lambda r: pval(r["x_p_adjusted"])),
            ("search detectable gap (pp)", lambda r: gap_points(r["x_detectable_gap"])),
            ("verdict", "outcome"),
            ("why", "why"),
        ],
    )
    return Section(
        sid,
        f"Verdicts under stronger play ({label}s)",
        QUESTION.replace("seat", label, 1),
        _reading(pairs),
        tables=[table],
        findings=_findings(sid, pairs, rates, position),
        notes=[NOTE],
    )
