"""Records that combine safely: every table names its run
and game, every part carries its metadata, the manifest says what wrote it and with what, parts are
large enough to be worth a file, and DuckDB can join many runs' tables without mixing games or
counting a copied run twice.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pyarrow.parquet as pq
import pytest

import sim
from sim.cli import main
from sim.resume import RunInterrupted
from sim.runner import CODE_ROOT, MAX_CHUNK, MIN_PART, RunConfig, default_chunk_size, run
from sim.tables import SCHEMA_VERSION, TABLES
from tests.sim.test_scale_resume import stop_after
from tests.toy_game import toy_config, toy_run


def _parts(folder: Path, table: str) -> list[Path]:
    return sorted((folder / table).glob("*.parquet"))


def _mainland(out: Path, **overrides) -> RunConfig:
    fields = dict(
        game="mainland", players=2, games=6, strategies=["greedy", "random"], jobs=1, seed=5, out=out,
        progress=False,
    )
    fields.update(overrides)
    return RunConfig(**fields)


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``results/``: a Mainland run, a Knarr run, a Mainland run of another seed, and a copy of the first."""
    root = tmp_path_factory.mktemp("results")
    run(_mainland(root / "mainland-a"))
    run(RunConfig(game="knarr", players=2, games=4, strategies=["greedy", "random"], jobs=1, seed=5,
                  out=root / "knarr-a", progress=False))
    run(_mainland(root / "mainland-b", seed=6))
    shutil.copytree(root / "mainland-a", root / "mainland-a-copy")
    return root


def test_every_table_names_its_run_and_game_constant_per_part(runs: Path) -> None:
    """Every table carries ``run`` and ``game``; both are the same on every row of a part."""
    manifest = json.loads((runs / "mainland-a" / "manifest.json").read_text())
    for table in TABLES:
        for part in _parts(runs / "mainland-a", table):
            data = pq.read_table(part)
            assert data.column_names[:2] == ["run", "game"], f"{part}: key columns first"
            assert set(data["run"].to_pylist()) == {manifest["run"]}
            assert set(data["game"].to_pylist()) == {"mainland"}


def test_copies_of_one_run_share_their_run_and_other_seeds_do_not(runs: Path, tmp_path: Path) -> None:
    """``run`` identifies configuration and seed: a copy, or the same run played on two workers (other
    chunks), has the same; another seed has another."""
    ids = {name: json.loads((runs / name / "manifest.json").read_text())["run"] for name in
           ("mainland-a", "mainland-a-copy", "mainland-b", "knarr-a")}
    assert ids["mainland-a"] == ids["mainland-a-copy"]
    assert len({ids["mainland-a"], ids["mainland-b"], ids["knarr-a"]}) == 3
    again = run(_mainland(tmp_path / "again", jobs=2, chunk_size=2))
    assert again.manifest["run"] == ids["mainland-a"]


def test_every_part_carries_its_metadata(runs: Path) -> None:
    """Key-value metadata: the schema version, the table, the run, the game, the rules hash and the
    Skald version."""
    manifest = json.loads((runs / "knarr-a" / "manifest.json").read_text())
    for table in TABLES:
        for part in _parts(runs / "knarr-a", table):
            meta = {k.decode(): v.decode() for k, v in (pq.read_metadata(part).metadata or {}).items()}
            assert meta["skald.schema"] == str(SCHEMA_VERSION)
            assert meta["skald.table"] == table
            assert meta["skald.game"] == "knarr"
            assert meta["skald.run"] == manifest["run"]
            assert meta["skald.rules_hash"] == manifest["config"]["rules_hash"]
            assert meta["skald.version"] == sim.__version__


def test_manifest_names_the_command_the_code_and_the_data_without_machine_paths(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The manifest adds the command line, the code's identity and the data as given beside its sha1,
    and names no absolute path of the machine that wrote it (none was given)."""
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as done:
        main(["run", "mainland", "--players", "2", "--games", "2", "--strategies", "random", "--jobs", "1",
              "--out", "r", "--quiet"])
    assert done.value.code in (0, None)
    text = (tmp_path / "r" / "manifest.json").read_text()
    manifest = json.loads(text)
    assert manifest["command"].startswith("skald run mainland --players 2 --games 2")
    code = manifest["code"]
    assert code["skald"] == sim.__version__ and len(code["sources_sha1"]) == 40
    if (CODE_ROOT / ".git").exists():
        assert len(code["git_commit"]) == 40 and isinstance(code["git_dirty"], bool)
    data = manifest["config"]["data"]
    assert data["path"] is None and data["file"] == "sim/games/mainland/data/mainland.toml"
    assert len(data["sha1"]) == 40
    for machine in {str(tmp_path), str(CODE_ROOT), os.path.expanduser("~")}:
        assert machine not in text, f"the manifest names {machine!r}"


def test_data_given_by_the_user_is_kept_as_given(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    source = CODE_ROOT / "sim" / "games" / "mainland" / "data" / "mainland.toml"
    shutil.copy(source, tmp_path / "mine.toml")
    summary = run(_mainland(Path("r"), games=2, data="mine.toml"))
    data = summary.manifest["config"]["data"]
    assert data["path"] == "mine.toml" and data["file"] == "mine.toml"
    assert str(tmp_path) not in json.dumps(summary.manifest)


def test_default_parts_hold_at_least_100_games_unless_the_workers_need_more_chunks() -> None:
    """A 400-game run wrote 58 parts (chunk size 7); now a part holds at least ``MIN_PART`` games unless
    two chunks per worker need fewer, and at most ``MAX_CHUNK``."""
    assert default_chunk_size(400, 2) == 100  # 4 parts: two per worker
    assert default_chunk_size(400, 1) == 100
    assert default_chunk_size(400, 16) == 13  # 31 parts keep 16 workers busy
    assert default_chunk_size(200, 2) == 50
    assert default_chunk_size(12, 2) == 3
    assert default_chunk_size(10_000, 2) == 157  # 64 parts: resume and progress in 1/64 steps
    assert default_chunk_size(10**6, 2) == MAX_CHUNK
    for games in (1, 99, 5000):
        for workers in (1, 3):
            assert default_chunk_size(games, workers) >= min(MIN_PART, -(-games // (2 * workers)))


@pytest.mark.filterwarnings("ignore:.*tasks which were still being processed:UserWarning")
def test_resume_with_other_jobs_keeps_the_chunks_it_started_with(tmp_path: Path) -> None:
    """The default chunk size follows ``--jobs``; a resumed run takes the one it was started with, so
    ``--jobs`` may differ on resume and the parts are those of the uninterrupted run."""
    whole = toy_run(tmp_path / "whole", games=24, chunk_size=None, jobs=4)
    with pytest.raises(RunInterrupted):
        run(toy_config(tmp_path / "cut", games=24, chunk_size=None, jobs=4), on_chunk=stop_after(2))
    resumed = run(toy_config(tmp_path / "cut", games=24, chunk_size=None, jobs=1, resume=True))
    assert resumed.manifest["config"]["chunk_size"] == whole.manifest["config"]["chunk_size"] == 3
    for table in TABLES:
        assert [p.read_bytes() for p in _parts(tmp_path / "cut", table)] == [
            p.read_bytes() for p in _parts(tmp_path / "whole", table)
        ]
    notes: list[str] = []
    again = run(toy_config(tmp_path / "whole", games=24, chunk_size=None, jobs=1, resume=True),
                on_note=notes.append)
    assert again.already_complete and "already complete" in notes[0]


def test_duckdb_joins_games_seats_and_turns_across_runs(runs: Path) -> None:
    """One glob over many runs: the games stay apart by ``game``, a copied run is removed by
    ``DISTINCT`` and the three tables join on ``(run, game_id)``."""
    duckdb = pytest.importorskip("duckdb")
    con = duckdb.connect()
    glob = str(runs / "*" / "{}" / "*.parquet")
    for table in TABLES:
        source = f"read_parquet('{glob.format(table)}', union_by_name = true)"  # seats differ by game
        con.execute(f"CREATE VIEW all_{table} AS SELECT * FROM {source}")
        con.execute(f"CREATE VIEW {table} AS SELECT DISTINCT * FROM all_{table}")
    assert con.execute("SELECT count(*) FROM all_games").fetchone()[0] == 6 + 4 + 6 + 6
    by_game = dict(con.execute("SELECT game, count(*) FROM games GROUP BY game ORDER BY game").fetchall())
    assert by_game == {"knarr": 4, "mainland": 12}
    rows = con.execute(
        """
        SELECT g.game, s.strategy, count(*) AS seat_games, sum(s.win_share) AS wins,
               sum(t.decisions) AS decisions
        FROM games g
        JOIN seats s USING (run, game_id)
        JOIN (SELECT run, game_id, seat, count(*) AS decisions FROM turns GROUP BY ALL) t
             USING (run, game_id, seat)
        GROUP BY ALL ORDER BY ALL
        """
    ).fetchall()
    seat_games = {(game, strategy): n for game, strategy, n, _, _ in rows}
    assert seat_games == {("knarr", "greedy"): 4, ("knarr", "random"): 4,
                          ("mainland", "greedy"): 12, ("mainland", "random"): 12}
    decisions = con.execute("SELECT game, sum(decisions) FROM games GROUP BY game ORDER BY game").fetchall()
    assert [d for _, d in decisions] == [
        sum(r[4] for r in rows if r[0] == game) for game, _ in decisions
    ], "every decision joins back to one seat of one game"


def test_workers_note_the_games_done_within_a_chunk_for_the_progress_bar(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Parts of 100 games would leave the bar still for a whole chunk: workers note the games done in
    their chunk (``.progress/<chunk>``), the bar reads them between chunks, and nothing of it is left in
    the finished folder."""
    import threading
    import time

    from sim import runner
    from sim.resume import read_progress, write_progress

    monkeypatch.setattr(runner, "PROGRESS_SECONDS", 0.0)  # a note after every game
    plan = runner.prepare(toy_config(tmp_path / "x")).plan
    for table in TABLES:
        (tmp_path / table).mkdir()
    runner.simulate_chunk(plan, 5, 0, 4, tmp_path)
    assert read_progress(tmp_path) == {5: 4}  # noted after each of its 4 games
    write_progress(tmp_path, 6, 2)
    seen: list[int] = []
    finished = {5}
    monkeypatch.setattr(runner, "PROGRESS_SECONDS", 0.05)
    with runner._watch_progress(tmp_path, finished, threading.Lock(), seen.append, True):
        time.sleep(0.3)
    assert seen and set(seen) == {2}  # chunk 5 is finished: only chunk 6's games are still playing
    summary = toy_run(tmp_path / "run", games=24, chunk_size=6, progress=True)
    assert summary.games == 24 and not any(p.name == ".progress" for p in (tmp_path / "run").rglob("*"))
