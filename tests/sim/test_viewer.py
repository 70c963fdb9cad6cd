"""The replay viewer without a browser: ``skald replay RUN --game ID --html
FILE`` writes one self-contained, deterministic page whose frames rebuild every board exactly; a
300-decision game stays under about 1 MB; bad input is one line, exit 2, and no file.

The example game (examples/skald-tictactoe) is registered at run time, as tests/sim/test_example_game.py
does; Mainland's tests run once Mainland declares its picture."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import polars as pl
import pytest

import sim.games
from sim.frames import LineTable, decode, encode, record_frames
from sim.picture import ALL_SHOWN
from sim.viewer import Replay, write_viewer
from tests.cli_kit import cli
from tests.example_kit import register_example


@pytest.fixture
def tictactoe(monkeypatch: pytest.MonkeyPatch) -> str:
    return register_example(monkeypatch)


@pytest.fixture
def ttt_run(tictactoe: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    out = tmp_path / "ttt"
    code, _, err = cli(capsys, "run", tictactoe, "--players", "2", "--games", "4", "--jobs", "1",
                       "--strategies", "blocker,random", "--out", str(out), "--quiet")  # fmt: skip
    assert code == 0, err
    return out


def page_data(html: str) -> dict:
    found = re.search(r'<script type="application/json" id="replay-data">(.*?)</script>', html, re.S)
    assert found, "the page holds its frames as JSON"
    return json.loads(found.group(1))


def test_encode_and_decode_round_trip() -> None:
    frames = [[0, 1, 2, 3], [0, 1, 4, 2, 3], [0, 4, 3], [0, 4, 3], [], [5, 6]]
    encoded, previous = [], []
    for current in frames:
        encoded.append(encode(previous, current))
        previous = current
    assert decode(encoded) == frames
    assert encoded[3] == [[0, 3]], "an unchanged frame is one run kept from the previous one"
    table = LineTable()
    assert table.numbers("<svg>\n<a/>\n</svg>\n") == [0, 1, 2, 3]
    assert table.numbers("<svg>\n<b/>\n</svg>\n") == [0, 4, 2, 3] and len(table.lines) == 5


def test_the_frames_rebuild_every_board_of_the_game(ttt_run: Path) -> None:
    """One frame per decision point plus the final board; frame k is the picture of the state after the
    first k marks (rule 2), replayed here from the stored turns, in every view."""
    from skald_tictactoe.game import GAME
    from skald_tictactoe.picture import picture

    turns = pl.read_parquet(ttt_run / "turns")
    manifest = json.loads((ttt_run / "manifest.json").read_text())
    for game_id in range(4):
        frames = record_frames(ttt_run, game_id)
        rows = turns.filter(pl.col("game_id") == game_id).sort("turn")
        assert len(frames.captions) == rows.height + 1 == len(frames.scores)
        assert frames.views == [
            ALL_SHOWN,
            f"seat 0 ({frames.seat_texts[0]})",
            f"seat 1 ({frames.seat_texts[1]})",
        ]
        state = GAME.new_state(2, {"first": int(manifest["config"]["rules"].get("first", 0))}, None, 0)
        for k in range(rows.height + 1):
            for view, seat in enumerate((None, 0, 1)):
                assert frames.svg(k, view) == picture(state, seat), (game_id, k, seat)
            if k < rows.height:
                seat, cell = rows["seat"][k], rows["cell"][k]
                assert frames.captions[k] == [
                    f"seat {seat} ({frames.seat_texts[seat]}) marks {'XO'[seat]} at row {cell // 3 + 1},"
                    f" col {cell % 3 + 1} (cell {cell})"
                ]
                assert frames.scores[k + 1] == list(rows["scores"][k]), "the turns' scores after the mark"
                GAME.apply(state, {seat: cell})
        assert frames.captions[-1][-1].startswith(("end: scores ", "truncated"))


def test_the_page_is_self_contained_and_deterministic(ttt_run: Path, tmp_path: Path, capsys) -> None:
    first, second = tmp_path / "a.html", tmp_path / "b.html"
    for target in (first, second):
        code, out, err = cli(capsys, "replay", str(ttt_run), "--game", "1", "--html", str(target))
        assert code == 0, err
        assert out == f"replay viewer: {target}\n"
    text = first.read_text()
    assert first.read_bytes() == second.read_bytes(), "the page written twice is byte-identical"
    urls = set(re.findall(r"https?://[^\s\"'<>\\)]+", text))
    assert urls <= {"http://www.w3.org/2000/svg"}, f"URLs other than the SVG namespace: {urls}"
    assert "<link" not in text and not re.search(r"\ssrc\s*=", text), "nothing loaded from outside"
    data = page_data(text)
    assert data["views"][0] == ALL_SHOWN and data["game_id"] == 1
    assert len(data["frames"]) == 3 and all(len(v) == len(data["captions"]) for v in data["frames"])
    assert "Tic-tac-toe: game 1" in text and f"game seed {data['seed']}" in text
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == [], "no temporary file left"


def test_view_chooses_the_first_view_and_the_notebook_object(ttt_run: Path, tmp_path: Path, capsys) -> None:
    code, _, err = cli(capsys, "replay", str(ttt_run), "--game", "0", "--html", str(tmp_path / "v.html"),
                       "--view", "1")  # fmt: skip
    assert code == 0, err
    assert '<option value="2" selected>seat 1 (' in (tmp_path / "v.html").read_text()
    shown = Replay(ttt_run, 0)
    srcdoc = re.fullmatch(r'<iframe srcdoc="([^"]*)".*</iframe>', shown._repr_html_(), re.S)
    assert srcdoc and html.unescape(srcdoc.group(1)) == shown.html, "the page inlined in an iframe"
    assert str(shown.picture(0)) == shown.frames.svg(0)
    saved = shown.save(tmp_path / "n.html")
    assert saved.read_text() == write_viewer(ttt_run, 0, tmp_path / "w.html").read_text()


def test_the_text_replay_is_unchanged_without_html(ttt_run: Path, capsys) -> None:
    code, out, _ = cli(capsys, "replay", str(ttt_run), "--game", "2")
    assert code == 0 and out.splitlines()[-1].startswith("ok: game 2 matches its records")
    assert "turn    0  seat " in out and "mark cell=" in out


def test_bad_input_is_one_line_exit_2_and_no_file(
    ttt_run: Path, tmp_path: Path, capsys, registered: str
) -> None:
    toy = tmp_path / "toy"
    code, _, err = cli(capsys, "run", registered, "--players", "2", "--games", "2", "--jobs", "1",
                       "--strategies", "random", "--out", str(toy), "--quiet")  # fmt: skip
    assert code == 0, err
    target = tmp_path / "out.html"
    for run, args, message in (
        (ttt_run, ["--game", "9"], "--game must be a game id from 0 to 3, not 9"),
        (toy, ["--game", "0"], "game 'secretbid' declares no picture"),
        (ttt_run, ["--game", "0", "--view", "2"], "--view must be 'all' or a seat from 0 to 1, not 2"),
        (ttt_run, ["--game", "0", "--view", "x"], "--view must be 'all' or a seat number, not 'x'"),
        (tmp_path / "none", ["--game", "0"], "results folder"),
    ):
        code, out, err = cli(capsys, "replay", str(run), *args, "--html", str(target))
        assert code == 2 and err.count("\n") == 1 and message in err and out == "", (args, err)
        assert not target.exists()
    for bad in (tmp_path / "missing" / "x.html", tmp_path):
        code, _, err = cli(capsys, "replay", str(ttt_run), "--game", "0", "--html", str(bad))
        assert code == 2 and err.count("\n") == 1 and "error: " in err, err
    assert not (tmp_path / "missing").exists()
    assert [p for p in tmp_path.rglob("*") if "html" in p.name] == [], "nothing half-written"


def test_a_changed_record_fails_with_exit_1_and_no_page(ttt_run: Path, tmp_path: Path, capsys) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    path = ttt_run / "turns" / "part-00000.parquet"
    table = pq.read_table(path)
    cells = table["cell"].to_pylist()
    row = table["game_id"].to_pylist().index(0) + 1  # game 0's second mark
    cells[row] = (cells[row] + 1) % 9
    pq.write_table(table.set_column(table.schema.get_field_index("cell"), "cell", pa.array(cells)), path)
    target = tmp_path / "changed.html"
    code, _, err = cli(capsys, "replay", str(ttt_run), "--game", "0", "--html", str(target))
    assert code == 1 and "differs from its records" in err and not target.exists()


def mainland_pictured() -> bool:
    return sim.games.GAMES["mainland"].picture is not None


@pytest.mark.skipif(not mainland_pictured(), reason="Mainland declares no picture yet")
def test_a_four_player_mainland_game_stays_small(tmp_path: Path, capsys) -> None:
    """A 300-decision game stays under about 1 MB; the bound scales the measured page to 300
    decision points.  Each seat's view is the picture of that seat (sim.picture), compared with a second
    play of the game drawn directly."""
    out = tmp_path / "m"
    code, _, err = cli(capsys, "run", "mainland", "--players", "4", "--games", "4", "--jobs", "1",
                       "--strategies", "greedy,builder,random,greedy", "--out", str(out),
                       "--quiet")  # fmt: skip
    assert code == 0, err
    target = write_viewer(out, 0, tmp_path / "m0.html")
    size, points = target.stat().st_size, len(page_data(target.read_text())["captions"]) - 1
    assert size / points * 300 < 1_100_000, f"{size:,} bytes for {points} decision points"
    from sim.picture import picture
    from sim.replay import play_again, recorded

    frames = record_frames(out, 0)
    drawn: list[list[str]] = []
    play_again(recorded(out, 0), lambda state, _: drawn.append(
        [str(picture("mainland", state, seat)) for seat in (None, 0, 1, 2, 3)]))  # fmt: skip
    assert len(drawn) == len(frames.captions)
    for k in (0, len(drawn) // 2, len(drawn) - 1):
        assert [frames.svg(k, view) for view in range(5)] == drawn[k]


def test_an_errored_game_ends_on_its_error(tictactoe: str, tmp_path: Path, capsys) -> None:
    """A strategy that raises: the frames stop at the board where it raised, and the last caption says so."""
    out = tmp_path / "e"
    code, _, err = cli(capsys, "run", tictactoe, "--players", "2", "--games", "4", "--jobs", "1", "--quiet",
                       "--strategies", "random,tests.broken_strategy:Raiser:p=1",
                       "--out", str(out))  # fmt: skip
    assert code == 0, err
    games = pl.read_parquet(out / "games").sort("game_id")
    assert games["errored"][0]
    frames = record_frames(out, 0)
    assert len(frames.captions) == games["decisions"][0] + 1
    assert frames.captions[-1] == [f"errored at turn {games['error_turn'][0]}: {games['error'][0]}"]


def _public_after(game: str, rules: dict, decisions: int) -> bool:
    """``PublicScores`` sampled at every decision point of a seeded random 3-player game."""
    import numpy as np

    from sim.frames import PublicScores
    from sim.games import get_game

    rules_of = get_game(game)
    state = rules_of.new_state(3, rules, rules_of.load_data(None), 5)
    public, rng = PublicScores(rules_of, 3, [5, 0]), np.random.default_rng(5)
    for _ in range(decisions):
        for _ in range(4):  # sampled every SAMPLE_EVERY decision points: sample each one
            public.sample(state)
        moves = {}
        for seat in rules_of.to_move(state):
            options = rules_of.legal_options(state, seat)
            moves[seat] = options[int(rng.integers(len(options)))]
        rules_of.apply(state, moves)
    return public.public


def test_the_scores_are_public_unless_a_seat_cannot_know_them() -> None:
    """Knarr's VP are public (ruling R9); with Graenaland's victory point cards each player keeps its goals
    secret (graenaland.txt:255 'keep them secret from the other players', 283), so another seat's score
    is not: a one-seat view of the replay then charts only that seat's own score."""
    assert _public_after("knarr", {}, 60)
    assert not _public_after("graenaland", {"victory_cards": True}, 300)
    assert _public_after("graenaland", {}, 300)


def test_the_page_says_whether_the_scores_are_public(ttt_run: Path) -> None:
    """Tic-tac-toe hides nothing (and has no ``determinize``): its page's scores are public."""
    assert page_data(Replay(ttt_run, 0).html)["public_scores"] is True
