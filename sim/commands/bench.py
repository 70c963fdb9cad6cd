"""``skald bench``: how fast a game plays, scales over workers, records and copies its state."""

from __future__ import annotations

import json
from typing import Annotated, Any

import typer
from rich.table import Table

from sim.commands.base import GameArg, GameCommand, app, default_players, err, int_list, note, out
from sim.games import get_game

AsJson = Annotated[bool, typer.Option("--json", help="One JSON object per line.")]
Players = Annotated[
    int | None, typer.Option("--players", "-p", help="Players per game (default: min(4, max players)).")
]
Games = Annotated[
    int | None, typer.Option("--games", "-g", help="Games per configuration (default: a time budget).")
]
Seconds = Annotated[float, typer.Option("--seconds", help="Time budget per configuration.")]
Seed = Annotated[int, typer.Option("--seed", help="Root seed.")]
Jobs = Annotated[
    str | None,
    typer.Option(
        "--jobs",
        "-j",
        metavar="N,...",
        help="Worker counts, comma-separated; -1 = all cores (default: 1, 2, all cores).",
    ),
]
Strategies = Annotated[
    str | None,
    typer.Option(
        "--strategies",
        "-s",
        metavar="SPEC,...",
        help="Strategies, comma-separated, each played in every seat (default: random and the game's best"
        " scripted strategy, e.g. random,greedy).",
    ),
]
Recording = Annotated[
    bool, typer.Option("--recording/--no-recording", help="Also time recording (games/s with records).")
]
Copying = Annotated[
    bool, typer.Option("--copy/--no-copy", help="Also time state copies (and to_dict/from_dict).")
]

#: (column, cell) of each table, the cell formatted from one row of ``sim.bench.bench``
SPEED = (
    ("strategy", lambda r: r["strategy"]),
    ("jobs", lambda r: str(r["jobs"])),
    ("games", lambda r: f"{r['games']:,}"),
    ("decisions", lambda r: f"{r['decisions']:,}"),
    ("seconds", lambda r: f"{r['seconds']:.2f}"),
    ("games/s", lambda r: f"{r['games_per_s']:,.1f}"),
    ("decisions/s", lambda r: f"{r['decisions_per_s']:,.0f}"),
    ("speedup", lambda r: f"{r['speedup']:.2f}x" if "speedup" in r else "-"),
    ("efficiency", lambda r: f"{r['efficiency']:.0%}" if "efficiency" in r else "-"),
)
#: the throughput table's columns for a search strategy (shown when one is benched)
SEARCH = (
    ("search ms/decision", lambda r: _search(r, "search_ms_per_decision", "{:,.1f}")),
    ("search iterations/s", lambda r: _search(r, "search_iterations_per_s", "{:,.0f}")),
    ("left the prior", lambda r: _search(r, "search_left_prior", "{:.1%}")),
)


def _search(row: dict[str, Any], key: str, form: str) -> str:
    """A search strategy's cost column ("-" for a scripted strategy)."""
    value = row.get(key)
    return "-" if value is None else form.format(value)
RECORDING = (
    ("strategy", lambda r: r["strategy"]),
    ("games", lambda r: f"{r['games']:,}"),
    ("games/s bare", lambda r: f"{r['games_per_s_without_records']:,.1f}"),
    ("games/s recorded", lambda r: f"{r['games_per_s']:,.1f}"),
    ("cost", lambda r: f"{r['recording_cost']:.1%}"),
    ("bytes/game", lambda r: f"{r['parquet_bytes_per_game']:,.0f}"),
    (
        "games/seats/turns bytes",
        lambda r: "/".join(
            f"{r['parquet_bytes_per_game_by_table'][t]:,.0f}" for t in ("games", "seats", "turns")
        ),
    ),
)
COPY = (
    ("states", lambda r: f"{r['states']:,}"),
    ("copy µs", lambda r: f"{r['copy_us']:,.1f}"),
    ("copies/s", lambda r: f"{r['copies_per_s']:,.0f}"),
    ("to_dict µs", lambda r: f"{r['to_dict_us']:,.1f}"),
    ("from_dict µs", lambda r: f"{r['from_dict_us']:,.1f}"),
    ("to_dict+from_dict µs", lambda r: f"{r['round_trip_us']:,.1f}"),
    ("copy speedup", lambda r: f"{r['copy_speedup']:,.1f}x"),
    ("determinize µs", lambda r: "-" if r.get("determinize_us") is None else f"{r['determinize_us']:,.1f}"),
)


def _table(title: str, columns: tuple[tuple[str, Any], ...], rows: list[dict[str, Any]]) -> Table:
    table = Table(title=title)
    for name, _ in columns:
        table.add_column(name, justify="left" if name == "strategy" else "right")
    for row in rows:
        table.add_row(*(cell(row) for _, cell in columns))
    return table


@app.command("bench", cls=GameCommand)
def bench_command(
    game: GameArg,
    as_json: AsJson = False,
    players: Players = None,
    games: Games = None,
    seconds: Seconds = 5.0,
    seed: Seed = 42,
    jobs: Jobs = None,
    strategies: Strategies = None,
    recording: Recording = True,
    copying: Copying = True,
) -> None:
    """Games/s per strategy and worker count, parallel efficiency, what recording costs and what a state
    copy costs."""
    from joblib import cpu_count

    from sim.backends import check_jobs
    from sim.bench import JOBS, bench
    from sim.runner import check_players, make_plan
    from sim.specs import default_strategies, parse_specs, split_specs

    spec = get_game(game)
    n = players if players is not None else default_players(spec)
    check_players(spec, n)
    given = JOBS if jobs is None else tuple(int_list(jobs, "--jobs"))
    notes = [check_jobs(count) for count in given]
    counts = tuple(cpu_count() if count == -1 else count for count in given)
    # by default random and the game's best scripted strategy (random alone for a game without its own)
    names = tuple(reversed(default_strategies(game)) if strategies is None else split_specs(strategies))
    parse_specs(names, spec.name)  # the errors of `skald run`, before anything is played
    for name in names:  # a search where the game cannot be searched, as `skald run` refuses it
        make_plan(game, n, [name], seats="fixed", seed=seed)
    for text in dict.fromkeys(notes):
        if text is not None:
            note(text)
    rows = bench(
        game,
        n,
        strategies=names,
        jobs=counts,
        seconds=seconds,
        games=games,
        seed=seed,
        recording=recording,
        copying=copying,
    )
    kept: dict[str, list[dict[str, Any]]] = {"throughput": [], "recording": [], "copy": []}
    for row in rows:
        if "skipped" in row and row.get("kind") == "copy":
            err.print(f"note: copy cost not measured: {row['skipped']}")
        elif "skipped" in row:
            err.print(f"note: skipped strategy {row['strategy']!r}: {row['skipped']}")
        elif as_json:
            print(json.dumps(row), flush=True)
        else:
            kind = str(row.get("kind"))
            kept[kind if kind in ("recording", "copy") else "throughput"].append(row)
    if as_json:
        return
    searched = any("search_ms_per_decision" in row for row in kept["throughput"])
    speed = (*SPEED, *SEARCH) if searched else SPEED
    engine = next((str(row["engine"]) for row in kept["throughput"] if "engine" in row), "python")
    title = f"{game} throughput, {n} players, no records, {engine} engine"
    out.print(_table(title, speed, kept["throughput"]))
    if recording:
        out.print(_table(f"{game} recording, {n} players, 1 worker", RECORDING, kept["recording"]))
    if copying:
        title = f"{game} state copies, {n} players, states of games with random choices"
        out.print(_table(title, COPY, kept["copy"]))
