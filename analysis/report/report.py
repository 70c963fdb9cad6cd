"""The HTML report: one self-contained file (charts embedded as base64 PNG, no network) plus the
charts as PNG files beside it (``<stem>-NN-<section>.png``).

    from analysis.report.report import write_report
    write_report(["results/mainland-scores"], "results/mainland-scores/report.html")

Sections answer one question each, with a chart, tables and one sentence read off the numbers;
sections whose records are absent are left out (each game's own sections appear with its records).
They live in ``analysis.report.sections`` (any game's) and in each game's room, ``analysis.games.<game>``
(found through the game's plug-in), built of ``analysis.present.blocks`` (the charts, tables and number
formats they share); this module orders them and writes the file.
A run none of whose games finished is named in its game's first section (``sections.unfinished``) and
read by no other.
The head of the report lists every run's configuration and seed, package versions, and which
component data values are reconstructed rather than printed (and, where a sensitivity screen is in the
report, which of them could overturn its seat verdict).  A ``tune.json`` (``skald tune``) or
``sensitivity.json`` (``skald sensitivity``) under the folders joins its game's part with the section its
standalone page shows (``analysis.report.sections.tune``, ``analysis.report.sections.sensitivity``), its
findings and its verdicts; a folder holding only such a result gives a report too.  The template is
rendered by jinja2 with autoescaping on, so every name from the records (strategies, folders,
rule values) is escaped.

The same records give the same page, byte for byte, apart from its "Written" line (the time): every
resampling is seeded from the records' identity (``analysis.stats.stats.data_seed``), the frames keep the
records' order, and the sections are computed with polars' in-memory engine, whose aggregations do not depend
on how the work was split between threads (the streaming engine's sums and deviations differ in the
last bits from one call to the next, which moves chart pixels).  Folder paths appear only as the
tooltips of the runs table.
"""

from __future__ import annotations

import functools
import html
import json
import os
import re
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import jinja2
import polars as pl

from analysis.data.runs import RESULT_FILES, Runs, find_results, open_runs
from analysis.data.study_file import variant_labels
from analysis.present import decision_words
from analysis.present.blocks import Section
from analysis.present.findings import Finding, document, dumps, write_findings
from analysis.questions import stops
from analysis.questions.balance import seat_margin, with_margin
from analysis.report import verdicts
from analysis.report.sections import general, ladder, skill, spreads, stronger, unfinished
from analysis.report.sections import sensitivity as sensitivity_section
from analysis.report.sections import sequential as sequential_section
from analysis.report.sections import tune as tune_section
from analysis.report.sections.illustration import watch, write_pages
from sim.errors import SkaldError
from sim.games import GAMES, get_game
from sim.manifest import versions as installed
from sim.report import ShowStep, step_bar

TEMPLATES = Path(__file__).parent / "templates"
#: rows a long table shows before "Show all"
TOP_ROWS = 10

#: Every statistics term the page uses, in plain words (the page's glossary).
GLOSSARY = (
    (
        "Block",
        "The games that replay one deal under every seat shift (--seats rotate or exhaustive), or a single "
        "game otherwise. Games of one block are not independent, so intervals and tests count blocks.",
    ),
    (
        "Design effect",
        "How much the sharing of deals within blocks widens (above 1) or narrows (below 1) an interval "
        "compared with independent games; the effective sample size is the games divided by it.",
    ),
    (
        "95% interval",
        "The range that, over repeated samples, holds the true value 95% of the time. Win rates use "
        "Wilson's interval at the blocks' effective size; means use Student's t on the blocks.",
    ),
    (
        "p-value",
        "How often a difference at least this large would show by chance if there were none. Below 0.05 "
        "counts as a difference here.",
    ),
    (
        "Holm",
        "Holm's correction of several p-values tested together (which seat, which group, which metric), "
        "so that the chance of any false alarm among them stays at 5%.",
    ),
    (
        "Benjamini-Hochberg",
        "A correction of many p-values (for example one per card) that keeps the expected share of false "
        "alarms among the flagged ones at 5%.",
    ),
    (
        "Rao-Scott chi-square",
        "The chi-square test of equal chances, corrected for the blocks' design effect.",
    ),
    (
        "G-test",
        "A likelihood-ratio test of equal chances, like the chi-square; shown for independent games only.",
    ),
    (
        "Newcombe",
        "Newcombe's interval for the difference of two win rates, built from their Wilson intervals.",
    ),
    (
        "Cohen's h",
        "An effect size for a difference of two proportions (0.2 small, 0.5 medium, 0.8 large).",
    ),
    (
        "Cohen's d",
        "An effect size for a difference of two means in standard deviations (0.2 small, 0.8 large).",
    ),
    (
        "Bootstrap",
        "Resampling the blocks with replacement to see how much an estimate varies; seeded from the records, "
        "so the same records give the same interval.",
    ),
    (
        "Balance",
        "1 minus the largest gap between two positions' win rates (1 = even). Even a perfectly fair game "
        "shows less than 1 in a finite sample; the tables give what a fair game would show at that size.",
    ),
    (
        "Margin",
        "The smallest gap in win share a designer would act on (5 points unless --margin sets another). A "
        "verdict is fair within the margin, unfair, or undecided; an undecided one gives its half-width (how "
        "well the shares are known) and about how many more games would decide it if the estimates held.",
    ),
    (
        "Bradley-Terry rating",
        "A strength rating from who finished ahead of whom, on the Elo scale: 1500 is the average, +200 "
        "means finishing ahead about 76% of the time.",
    ),
)
#: the libraries the report adds to ``sim.runner.versions`` (which lists those that shape the records)
ANALYSIS_PACKAGES = ("scipy", "matplotlib", "jinja2")


@dataclass
class Part:
    """One game's part of the report (or, with ``game`` empty, the part comparing games)."""

    game: str
    title: str
    sections: list[Section]
    #: one-line notes in the contents (a game to watch that could not be played again)
    notes: list[str] = field(default_factory=list)

    @property
    def id(self) -> str:
        return f"game-{self.game}" if self.game else "across-games"

    @property
    def compared(self) -> bool:
        return self.game.endswith("-compared")


#: one step of the report: what it computes (for the progress line) and the sections it gives
Step = tuple[str, Callable[[], list[Section]]]


def game_steps(runs: Runs, game: str) -> list[Step]:
    """One game's sections in reading order as steps, each computed on that game's runs alone: the runs
    none of whose games finished, named (they are left out of every other section), then, on the runs
    with finished games, its seat balance (unless its plug-in's own sections cover seats), its plug-in's
    sections, how long each question played (runs of a study that played until decided), the seat
    verdict under stronger play and the skill ladder (where the records hold them), strategy strength,
    score curves and the rule variants its own sections do not compare."""
    own = runs.only(game=game)
    live, dead = own.finished(), own.unfinished()
    steps: list[Step] = []
    if dead:
        steps.append(
            ("runs with no finished game", lambda: [unfinished.section(own, dead, f"{game}-unfinished")])
        )
    if not len(live):
        return steps
    declared = GAMES.get(game)
    if declared is None or not declared.own_seats:
        steps.append(("seat balance", lambda: [general.seat_section(live, sid=f"{game}-seat-balance")]))
    build = declared.load_sections() if declared is not None else None
    if build is not None:
        steps.append(("its own sections", lambda: list(build(live))))
    if stops.sequences(own):  # a study that played until decided: where each run stopped
        steps.append(("looks", lambda: _present(sequential_section.section(own, sid=f"{game}-sequential"))))
    return steps + [
        ("stronger play", lambda: stronger.stronger_sections(live, sid=f"{game}-stronger-play")),
        ("skill ladder", lambda: ladder.ladder_sections(live, sid=f"{game}-skill-ladder")),
        ("skill matrix", lambda: skill.skill_sections(live, sid=f"{game}-skill")),
        ("strategy strength", lambda: [general.strength_section(live, sid=f"{game}-strength")]),
        ("score spreads", lambda: _present(spreads.spread_section(live, sid=f"{game}-score-spreads"))),
        ("score curves", lambda: [general.curves_section(live, sid=f"{game}-curves")]),
        ("rule variants", lambda: _present(general.variants_section(own, sid=f"{game}-variants"))),
    ]


def _present(section: Section | None) -> list[Section]:
    return [] if section is None else [section]


def game_sections(runs: Runs, game: str) -> list[Section]:
    """One game's sections in reading order (``game_steps``, computed)."""
    return [s for _, compute in game_steps(runs, game) for s in compute()]


@dataclass(frozen=True)
class Result:
    """A ``tune.json`` or ``sensitivity.json`` read from the folders: its kind (the file's stem) and
    document."""

    kind: str
    doc: dict[str, Any]

    @property
    def game(self) -> str:
        return str(self.doc["game"])

    def section(self) -> Section:
        """The section its standalone page shows (the one code path)."""
        shown = tune_section if self.kind == "tune" else sensitivity_section
        return shown.section(self.doc)

    def section_list(self) -> list[Section]:
        """``section`` as a report step's list."""
        return [self.section()]

    def meta(self) -> dict[str, Any]:
        """What ``report.json`` lists of it: kind, name, game, players, seed and games spent."""
        d = self.doc
        name = d.get(self.kind)
        return {"kind": self.kind, "name": name, "game": self.game, "players": d.get("players"),
                "seed": d.get("seed"), "games_spent": d.get("games_spent")}  # fmt: skip


def read_results(paths: str | Path | Sequence[str | Path]) -> list[Result]:
    """The tune and sensitivity results under ``paths`` (``analysis.data.runs.find_results``), tunes first."""
    paths = [paths] if isinstance(paths, (str, Path)) else list(paths)
    out = []
    for name in RESULT_FILES:
        for file in find_results(paths, name):
            try:
                out.append(Result(Path(name).stem, json.loads(file.read_text(encoding="utf-8"))))
            except (OSError, ValueError) as exc:
                raise SkaldError(f"cannot read {str(file)!r}: {exc}") from None
    return out


def plan_parts(runs: Runs, results: Sequence[Result] = ()) -> list[tuple[Part, list[Step]]]:
    """The report's parts, their sections still to compute, each with its steps: one per game in the
    records (``game_steps``, then a game to watch where its plug-in declares a picture:
    ``analysis.report.sections.illustration``) or in the tune and sensitivity results (their sections after
    the records'), then the comparison across games (of the runs with finished games)."""
    planned: list[tuple[Part, list[Step]]] = []
    for game in dict.fromkeys([*runs.games_played, *(r.game for r in results)]):
        part = Part(game, game_title(game), [])
        steps = []
        if game in runs.games_played:
            steps = game_steps(runs, game)
            if len(runs.only(game=game).finished()):
                steps.append(("a game to watch", functools.partial(_watched, runs, game, part.notes)))
        steps += [(f"the {r.kind} result", r.section_list) for r in results if r.game == game]
        planned.append((part, steps))
    live = runs.finished()
    if len(live):
        planned.append(
            (Part("", "Across games", []), [("sample size", lambda: [general.precision_section(live)])])
        )
    return planned


def _watched(runs: Runs, game: str, notes: list[str]) -> list[Section]:
    """The game to watch among ``game``'s finished runs; a note on why there is none goes to ``notes``."""
    watched, note = watch(runs.only(game=game).finished(), sid=f"{game}-game-to-watch")
    if note:
        notes.append(note)
    return _present(watched)


def compute_parts(
    planned: list[tuple[Part, list[Step]]], show: ShowStep | None = None, extra: int = 0
) -> list[Part]:
    """The planned parts with their sections computed, step by step; ``show`` (``sim.report.step_bar``)
    is told each step as it starts, and the steps in all (``extra`` more: the caller's own)."""
    total = sum(len(steps) for _, steps in planned) + extra
    for part, steps in planned:
        for what, compute in steps:
            if show is not None:
                show(f"{part.title}: {what}", total)
            part.sections += compute()
    return [part for part, _ in planned]


def build_parts(runs: Runs, results: Sequence[Result] = ()) -> list[Part]:
    """The report's parts with their sections (``plan_parts``, computed)."""
    return compute_parts(plan_parts(runs, results))


def game_title(game: str) -> str:
    """A game's name as its plug-in writes it (``Graenaland``)."""
    declared = GAMES.get(game)
    return declared.title if declared is not None else verdicts.game_title(game)


def check_comparable(runs: Runs) -> None:
    """A ``SkaldError`` unless the runs can be compared: two or more, of one game, sharing a player
    count with the first."""
    if len(runs) < 2:
        raise SkaldError(f"compare needs two or more runs, found {len(runs)}")
    games = runs.games_played
    if len(games) > 1:
        raise SkaldError(f"compare needs runs of one game, found {', '.join(games)}")
    first = list(runs)[0]
    apart = [r.label for r in runs if r.players != first.players]
    if apart:
        raise SkaldError(
            f"compare needs one player count: {first.label} has {first.players} players, {apart[0]} does not"
        )


def comparison_part(runs: Runs) -> Part:
    """The comparison of every run with the first given: each metric's difference, paired by block
    where the runs share seeds, Holm-adjusted over the metrics of each comparison; a run none of whose
    games finished is named and compared with nothing."""
    return compute_parts([plan_comparison(runs)])[0]


def plan_comparison(runs: Runs) -> tuple[Part, list[Step]]:
    """``comparison_part``, its section still to compute, with its step."""
    game = runs.games_played[0]
    first = list(runs)[0].label
    part = Part(f"{game}-compared", f"{game_title(game)}: runs compared with {first}", [])
    return part, [("runs compared", functools.partial(_compared, runs, first, game))]


def _compared(runs: Runs, first: str, game: str) -> list[Section]:
    return [general.comparison_section(runs, baseline=first, sid=f"{game}-comparison")]


def build_sections(runs: Runs) -> list[Section]:
    """Every section the records support, in reading order (the parts' sections, one after another)."""
    return [s for part in build_parts(runs) for s in part.sections]


# --------------------------------------------------------------------------- provenance


def versions() -> dict[str, str]:
    """Versions now: Skald's, Python's and the record libraries' (``sim.manifest.versions``, the one
    copy), then the libraries only the analysis uses (``ANALYSIS_PACKAGES``)."""
    return installed(ANALYSIS_PACKAGES)


def data_provenance(runs: Runs, findings: Sequence[Finding] = ()) -> list[dict[str, Any]]:
    """Per game and data file: path, sha1 and the reconstructed (not printed) component values; for a game
    with a sensitivity screen among the ``findings``, ``overturn``: per screen and seat verdict, the
    reconstructed values that could overturn it with their effect intervals, in words
    (``verdicts.screen_line``), on the game's first entry (an entry of its packaged data without runs)."""
    out = _run_provenance(runs)
    for margin, effects in verdicts.screens(findings):
        entry = next((e for e in out if e["game"] == margin.game), None)
        if entry is None:
            entry = _data_entry(margin.game, {}, own_sha1=True)
            out.append(entry)
        entry["overturn"].append(verdicts.screen_line(margin, effects))
    return out


def _data_entry(game: str, data: dict[str, Any], own_sha1: bool = False) -> dict[str, Any]:
    """One game and data file: its reconstructed values as the data file lists them now (``own_sha1``:
    and its sha1 now, for an entry no run names)."""
    entry: dict[str, Any] = {
        "game": game,
        "path": data.get("path") or "(packaged)",
        "file": data.get("file") or "",
        "sha1": data.get("sha1") or "",
        "runs": [],
        "reconstructed": [],
        "note": "",
        "overturn": [],
    }
    try:
        loaded = get_game(game).load_data(data.get("path"))
        entry["reconstructed"] = list(getattr(loaded, "reconstructed", ()) or ())
        now = getattr(loaded, "sha1", None)
        if now and data.get("sha1") and now != data.get("sha1"):
            entry["note"] = f"the data file has changed since the run (sha1 now {now})"
        if own_sha1 and now:
            entry["sha1"] = str(now)
        if not hasattr(loaded, "reconstructed"):
            entry["note"] = "this game's data object does not list reconstructed values"
    except Exception as exc:
        entry["note"] = f"could not load the data file: {exc}"
    return entry


def _run_provenance(runs: Runs) -> list[dict[str, Any]]:
    """The data entries of the runs, each with the runs that used it."""
    out = []
    seen = set()
    for run in runs:
        data = run.config.get("data") or {}
        key = (run.game, data.get("path"), data.get("sha1"))
        if key in seen:
            continue
        seen.add(key)
        out.append(_data_entry(run.game, data))
    for entry in out:
        entry["runs"] = [
            r.label
            for r in runs
            if r.game == entry["game"] and ((r.config.get("data") or {}).get("sha1") or "") == entry["sha1"]
        ]
    return out


def run_rows(runs: Runs) -> list[dict[str, str]]:
    rows = []
    for r in runs:
        c = r.config
        totals = r.manifest.get("totals", {})
        rules = ", ".join(f"{k}={v}" for k, v in (c.get("rules") or {}).items()) or "-"
        rows.append(
            {
                "run": r.label,
                "folder": str(r.path),
                "game": r.game,
                "players": str(r.players),
                "games": f"{r.games:,}",
                "strategies": ", ".join(c.get("strategies", [])),
                "seats": str(c.get("seats")),
                "seed": str(c.get("seed")),
                "rules": rules,
                "variant": r.variant,
                "rules_hash": str(c.get("rules_hash", ""))[:12],
                "truncated": str(totals.get("truncated", "-")),
                "skald": str(r.manifest.get("versions", {}).get("skald", "?")),
            }
        )
    return rows


# --------------------------------------------------------------------------- writing


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "chart"


def render(
    runs: Runs,
    parts: list[Part],
    title: str,
    study: dict[str, Any] | None = None,
    findings: list[Finding] | None = None,
    margin: float | None = None,
) -> str:
    """The page's HTML; ``margin`` (a share) is the one its seat verdicts were decided at."""
    findings = findings or []
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES), autoescape=True, undefined=jinja2.StrictUndefined
    )
    template = env.get_template("report.html.j2")
    found = verdicts.verdicts(findings, [s for p in parts for s in p.sections], variant_labels(runs))
    run_versions: dict[str, set[str]] = {}
    for r in runs:
        for k, v in (r.manifest.get("versions") or {}).items():
            run_versions.setdefault(k, set()).add(str(v))
    return template.render(
        title=title,
        created=datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        parts=parts,
        runs=run_rows(runs),
        duplicates=runs.duplicates,
        versions=versions(),
        run_versions={k: ", ".join(sorted(v)) for k, v in run_versions.items()},
        provenance=data_provenance(runs, findings),
        study=study,
        glossary=GLOSSARY,
        top_rows=TOP_ROWS,
        margin=decision_words.points(seat_margin() if margin is None else margin),
        verdicts=verdicts.by_game(found),
        page_rule=verdicts.page_rule(found),
    )


def check_output(out: str | Path) -> Path:
    """``out`` as a file the report can be written to, checked before any work: a one-line
    ``SkaldError`` for a name not ending in .html, a folder, or a place that cannot be written (a
    missing folder that cannot be made, no permission, a read-only filesystem).  Makes nothing."""
    out = Path(out)
    if out.suffix.lower() not in (".html", ".htm"):
        raise SkaldError(f"report file {str(out)!r} should end in .html")
    if out.is_dir():
        raise SkaldError(f"report file {str(out)!r} is a folder (give a file name ending in .html)")
    nearest = next(p for p in out.absolute().parents if p.exists())  # the folder to write, or to make it in
    try:
        if not nearest.is_dir():
            raise NotADirectoryError(20, f"{str(nearest)!r} is not a folder")
        with tempfile.NamedTemporaryFile(dir=nearest, prefix=f".{out.name}.", suffix=".tmp"):
            pass
    except OSError as exc:
        raise SkaldError(f"cannot write the report to {str(out)!r}: {exc.strerror or exc}") from None
    return out


def write_report(
    paths: str | Path | Sequence[str | Path],
    out: str | Path,
    title: str | None = None,
    study: dict[str, Any] | None = None,
    compare: bool = False,
    progress: bool = False,
    margin: float | None = None,
) -> Path:
    """Analyse the runs under ``paths`` and write ``out`` (HTML) and its charts as PNG files beside it;
    with ``compare``, the report of two or more runs of one game compared with the first
    (``comparison_part``) comes first.

    ``out`` is checked first (``check_output``), then every run's manifest and parts (``open_runs``);
    every file is written under a temporary name and renamed into place, so a report stopped halfway
    leaves the previous one whole.  With ``progress``, a line on stderr shows each step as it starts
    (``sim.report.step_bar``: only on a terminal); nothing of it goes into the files.  ``margin`` (a
    share, default ``analysis.stats.decide.SEAT_MARGIN``) is what the seat verdicts are decided against
    (``analysis.questions.balance.with_margin``); the page and ``report.json`` state it.
    """
    out = check_output(out)
    with step_bar("report", enabled=progress) as show, with_margin(margin):
        show("reading and checking the records")
        results = read_results(paths)
        runs = open_runs(paths, required=compare or not results)
        if compare:
            check_comparable(runs)
        with pl.Config(engine_affinity="in-memory"), stops.reading_stops(runs):  # runs played in looks
            planned = ([plan_comparison(runs)] if compare else []) + plan_parts(runs, results)
            parts = compute_parts(planned, show, extra=2)  # and reading the records, writing the page
        show("writing the page")
        return _write_files(runs, parts, results, out, title, study, compare)


def _write_files(
    runs: Runs,
    parts: list[Part],
    results: Sequence[Result],
    out: Path,
    title: str | None,
    study: dict[str, Any] | None,
    compare: bool,
) -> Path:
    """Write the report's charts, pages, findings and page (``write_report``)."""
    sections = [s for part in parts for s in part.sections]
    out.parent.mkdir(parents=True, exist_ok=True)
    number = 0
    for section in sections:
        for chart in section.charts:
            number += 1
            chart.file = f"{out.stem}-{number:02d}-{_slug(chart.name)}.png"
            _write_atomic(out.parent / chart.file, chart.png)
    write_pages(sections, out, _write_atomic)  # <stem>-games/<game>-game-<id>.html
    games = ", ".join(dict.fromkeys([*runs.games_played, *(r.game for r in results)]))
    title = title or (
        f"Skald comparison: {' against '.join(r.label for r in reversed(list(runs)))}"
        if compare
        else f"Skald balance report: {games}"
    )
    doc = findings_document(runs, sections, title, results, seat_margin())
    doc["page_rule"] = verdicts.page_rule(verdicts.verdicts(read_back(doc), sections, variant_labels(runs)))
    write_findings(findings_path(out), doc)
    text = render(runs, parts, title, study, read_back(doc), seat_margin())
    _write_atomic(out, text.encode("utf-8"))
    return out


def findings_path(out: str | Path) -> Path:
    """The findings file beside a report: ``report.html`` -> ``report.json``."""
    return Path(out).with_suffix(".json")


def findings_document(
    runs: Runs,
    sections: list[Section],
    title: str,
    results: Sequence[Result] = (),
    margin: float | None = None,
) -> dict[str, Any]:
    """``report.json``: the title, the margin the seat verdicts were decided at (a share), each run's
    label, game, players, variant, games and record identity, each tune or sensitivity result
    (``Result.meta``), each section's id and title, and every finding in the page's order (no time, no
    folder)."""
    return document(
        [f for s in sections for f in s.findings],
        title=title,
        margin=seat_margin() if margin is None else margin,
        runs=[
            {
                "label": r.label,
                "game": r.game,
                "players": r.players,
                "variant": r.variant,
                "games": r.games,
                "run": r.manifest.get("run"),
            }
            for r in runs
        ],
        **({"results": [r.meta() for r in results]} if results else {}),
        sections=[{"id": s.id, "title": s.title} for s in sections],
    )


def read_back(doc: dict[str, Any]) -> list[Finding]:
    """The findings exactly as ``report.json`` holds them (through JSON), for the page's verdicts."""
    rows = json.loads(dumps(doc))["findings"]
    return [Finding(**{k: v for k, v in row.items() if k != "id"}) for row in rows]


def _write_atomic(path: Path, data: bytes) -> None:
    """Write ``data`` to a temporary name beside ``path``, then rename it to ``path``."""
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    try:
        tmp.write_bytes(data)
        tmp.replace(path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def escape(text: str) -> str:
    """HTML-escape ``text`` (for callers composing HTML outside the template)."""
    return html.escape(text, quote=True)
