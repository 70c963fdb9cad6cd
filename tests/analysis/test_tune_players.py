"""Tuned players: a tune's ``strategy`` parameters vary a declared parameter of its player, the ``win_share``
objective measures the player in one seat against a field, the result names the player as a runnable spec
with its confirmed win share, the one-step check compares the winner with its neighbours, and named specs
(``strategies/tuned.toml``) resolve by name."""

from __future__ import annotations

import json
import tomllib
from collections.abc import Sequence
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest

from analysis.tune import neighbours
from analysis.tune import objectives as obj
from analysis.tune.confirm import win_share
from analysis.tune.engine import run_tune
from analysis.tune.params import PLAYER, Parameter, player_spec, with_values
from analysis.tune.play import Candidate, check_player_runs, plan_for
from analysis.tune.spec import parse
from analysis.tune.state import State
from sim import specs
from sim.errors import SkaldError
from sim.strategy import Strategy
from tests.cli_kit import cli, refused

BIDDER = "tests.analysis.test_tune_players:Bidder"


class Bidder(Strategy):
    """Plays its highest card (less ``shift`` places) with chance ``bold``, else its lowest."""

    name = "bidder"
    games = ("secretbid",)
    params = {"bold": (float, 0.5), "shift": (int, 0)}
    bold: float
    shift: int

    def choose(self, view: Any, options: Sequence[int]) -> int:
        ordered = sorted(options)
        if self.rng.random() < self.bold:
            return ordered[max(0, len(ordered) - 1 - self.shift)]
        return ordered[0]


TOY = f"""
[tune]
name = "toy-player"
game = "secretbid"
players = 2
seed = 5
budget = 600
player = "{BIDDER}"
finalists = 2
confirm = 0.4

[[parameters]]
kind = "strategy"
param = "bold"
values = [0.0, 0.5, 1.0]

[[objective]]
kind = "win_share"
field = "random"
"""


# --------------------------------------------------------------------------- the tune file


BOLD = ("values = [0.0, 0.5, 1.0]",)
FIXED_SEATS = ("budget = 600", 'budget = 600\nseats = "fixed"')
LENGTH = 'kind = "game_length"\nstrategies = ["random"]\ntarget = 4'


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ((f'player = "{BIDDER}"\n', ""), "kind 'strategy' varies the tuned player: name it with [tune]"),
        (('param = "bold"', 'param = "boldness"'), "'boldness' is not a parameter of tests.analysis"),
        (('param = "bold"', 'param = "boldness"'), "(its parameters: bold, shift)"),
        ((*BOLD, 'values = ["high"]'), "values[0] 'high' is not a number"),
        ((*BOLD, "values = [true]"), "values[0] True is not a number"),
        (('param = "bold"\nvalues = [0.0, 0.5, 1.0]', 'param = "shift"\nvalues = [1.5]'),
         "values[0] 1.5 is not a whole number (tests.analysis.test_tune_players:Bidder's shift is of type"),
        (FIXED_SEATS, "win_share needs seats that put the player in every seat"),
        (FIXED_SEATS, "(tune.seats rotate or exhaustive, not 'fixed')"),
        ((f'"{BIDDER}"', '"nobody"'), "tune.player: unknown strategy 'nobody' for secretbid (allowed: r"),
        (('kind = "win_share"\nfield = "random"', LENGTH), "is never played: write 'player' in an objective"),
        (('field = "random"', 'field = "player"'), "field must be a strategy other than the tuned player"),
    ],
)  # fmt: skip
def test_bad_player_files_give_one_line_naming_what_is_allowed(
    registered: str, change: tuple[str, str], message: str
) -> None:
    text = TOY.replace(*change)
    assert text != TOY
    with pytest.raises(SkaldError) as info:
        parse(text, "t.toml")
    said = str(info.value)
    assert said.startswith("tune file t.toml: ") and "\n" not in said and message in said, said


def test_the_player_placeholder_needs_a_player(registered: str) -> None:
    text = TOY.replace(f'player = "{BIDDER}"\n', "").replace('kind = "strategy"', 'kind = "rule"')
    text = text.replace('param = "bold"\nvalues = [0.0, 0.5, 1.0]', 'rule = "rounds"')
    with pytest.raises(SkaldError, match=r"plays 'player', the tuned player: name it with \[tune\] player"):
        parse(text, "t.toml")


def test_a_bad_player_file_exits_2_with_one_line(registered: str, tmp_path: Path, capsys) -> None:
    err = refused(capsys, tmp_path, "tune", TOY.replace('param = "bold"', 'param = "nerve"'))
    assert "its parameters: bold, shift" in err, err


def test_a_candidate_spec_sets_the_values_on_the_base_spec() -> None:
    assert with_values("greedy", [("life", 2.4), ("energy", 1.0)]) == "greedy:life=2.4:energy=1.0"
    assert with_values("greedy:life=2:spread=0.3", [("life", 1.8)]) == "greedy:spread=0.3:life=1.8"
    assert with_values("pkg.mod:Class:a=1", [("b", True)]) == "pkg.mod:Class:a=1:b=true"
    params = [
        Parameter("life", "strategy", "life", (1.2, 1.8), ("1.2", "1.8")),
        Parameter("rounds", "rule", "rounds", (2, 3), ("2", "3")),
        Parameter("energy", "strategy", "energy", (0.5, 1.0), ("0.5", "1.0")),
    ]
    assert player_spec("greedy", params, (1, 0, 0)) == "greedy:life=1.8:energy=0.5"
    assert player_spec(None, params, (1, 0, 0)) is None


# --------------------------------------------------------------------------- a tune of the toy game


def test_a_toy_tune_plays_each_candidates_player_and_names_the_winner(
    registered: str, tmp_path: Path
) -> None:
    tune = parse(TOY, "toy")
    assert tune.terms[0].runs == ((PLAYER, "random"),)
    result = run_tune(tune, tmp_path / "t", progress=False)
    players = {c.index: str(c.player) for c in result.candidates}
    assert players == {i: f"{BIDDER}:bold={v}" for i, v in enumerate([0.0, 0.5, 1.0])}
    for cand in result.candidates:  # the planned tables: the candidate's player in the first seat
        plan = plan_for(tune, cand, result.runs[0], tune.seed)
        assert [s.text for s in plan.specs] == [cand.player, "random"]
        assert dict(plan.specs[0].params)["bold"] == str(cand.player).rsplit("=", 1)[1]
    doc = json.loads((tmp_path / "t" / "tune.json").read_text())
    winner = players[doc["winner"]]
    assert doc["player"]["spec"] == winner and doc["player"]["table"] == [winner, "random"]
    assert f"--strategies {winner},random" in doc["command"]
    share = doc["player"]["win_share"][0]
    assert share["field"] == "random" and share["low"] <= share["share"] <= share["high"]
    assert share["games"] == result.plan.confirm_games and share["deals"] == share["games"] // 2
    row = next(r for r in doc["confirmation"]["finalists"] if r["candidate"] == doc["winner"])
    assert row["objective"] == pytest.approx(0.5 - share["share"])  # the objective is 1/n - share
    mirrored = (0.5 - share["high"], 0.5 - share["low"])  # the same resamples of the deals
    assert (row["low"], row["high"]) == pytest.approx(mirrored)
    assert [c["parameter"] for c in doc["changes"]] == ["bold"] and doc["changes"][0]["before"] == 0.5
    assert doc["one_step"]["neighbours"] and "one-step neighbours" in doc["one_step"]["summary"]
    page = (tmp_path / "t" / "tune.html").read_text()
    assert "The tuned player" in page and "One-step check" in page and winner in page


def test_a_player_written_as_another_strategy_of_its_table_is_refused() -> None:
    cand = Candidate(0, (0,), {}, None, player="greedy:life=1.8")
    check_player_runs(cand, [(PLAYER, "greedy:life=1.8")])
    assert "also another strategy" in str(cand.invalid)
    fine = Candidate(1, (1,), {}, None, player="greedy:life=2.4")
    check_player_runs(fine, [(PLAYER, "greedy:life=1.8")])
    assert fine.invalid is None


# --------------------------------------------------------------------------- the win share


def _rows(player_wins: list[int], failed: list[int], players: int) -> np.ndarray:
    """Per-game rows of a win-share table (player, field): the player's win (1/0) and truncation flags."""
    unit = obj.scale(players)
    rows = []
    for won, cut in zip(player_wins, failed, strict=True):
        seat = [0] * players
        seat[0] = unit * won * (1 - cut)
        field = 0 if cut else unit * (1 - won)
        seat[1] = field
        rows.append([*seat, unit * won * (1 - cut), field, 100, cut])
    return np.asarray(rows, dtype=np.int64)


def test_the_win_share_objective_is_parity_less_share_over_completed_games() -> None:
    """30 wins in 100 completed games, 10 truncated: the share is 0.30, the objective 1/4 - 0.30."""
    wins = [1] * 30 + [0] * 70 + [1] * 10
    rows = _rows(wins, [0] * 100 + [1] * 10, 4)
    stats = obj.Stats.of(rows, 4, 2, obj.scale(4))
    term = obj.Term("win_share", 1.0, (obj.share_table(PLAYER, "greedy", 4),), strategies=(PLAYER, "greedy"))
    assert term.runs == ((PLAYER, "greedy", "greedy", "greedy"),)
    assert term.value({term.runs[0]: stats})[0] == pytest.approx(0.25 - 0.30)
    weights = np.vstack(
        [np.ones(110), np.r_[np.full(100, 2.0), np.zeros(10)], np.r_[np.zeros(30), np.ones(80)]]
    )
    boot = term.value({term.runs[0]: obj.Stats.of(rows, 4, 2, obj.scale(4), weights)})
    assert boot.shape == (3,)
    assert boot == pytest.approx([0.25 - 0.30, 0.25 - 0.30, 0.25 - 0.0])
    assert np.isnan(term.value({term.runs[0]: obj.Stats.of(rows[100:], 4, 2, obj.scale(4))})[0])
    deals = obj.Stats.of_deals(rows[:100], 4, 2, obj.scale(4), block=4)
    assert term.value({term.runs[0]: deals})[0] == pytest.approx(0.25 - 0.30)


def _deal_weights(deals: int, reps: int = 500) -> np.ndarray:
    rng = np.random.default_rng(0)
    return rng.multinomial(deals, np.full(deals, 1.0 / deals), size=reps).astype(float)


def test_the_confirmed_win_share_resamples_whole_deals_and_says_where_parity_lies() -> None:
    rng = np.random.default_rng(0)
    wins = (rng.random(800) < 0.4).astype(int).tolist()
    found = win_share(_rows(wins, [0] * 800, 4), players=4, block=4, weights=_deal_weights(200))
    assert found["share"] == pytest.approx(np.mean(wins)) and found["deals"] == 200
    assert found["low"] < found["share"] < found["high"] and found["verdict"] == "above parity"
    # the player wins once per deal of four (one seat of the deal wins): no deal differs, so resampling
    # deals gives no spread, where resampling games would
    even = win_share(_rows([1, 0, 0, 0] * 50, [0] * 200, 4), players=4, block=4, weights=_deal_weights(50))
    assert even["share"] == pytest.approx(0.25) and even["low"] == even["high"] == pytest.approx(0.25)
    assert even["verdict"] == "includes parity"
    low = win_share(_rows([0] * 200, [0] * 200, 4), players=4, block=4, weights=_deal_weights(50))
    assert low["share"] == 0 and low["verdict"] == "below parity"
    cut = win_share(_rows([1] * 8, [1] * 8, 4), players=4, block=4, weights=_deal_weights(2))
    assert cut["share"] is None and cut["verdict"] == "not measured" and cut["excluded"] == 8


# --------------------------------------------------------------------------- the one-step check


def _outcome(rates: dict[tuple[int, int], float], winner: tuple[int, int]) -> Any:
    """A finished two-player tune of two parameters (3 and 2 values) whose candidate c won ``rates[c]`` of
    its 400 search games against the field (common seeds), with the candidates of ``rates`` only."""
    params = [
        Parameter("bold", "strategy", "bold", (0.0, 0.5, 1.0), ("0.0", "0.5", "1.0")),
        Parameter("shift", "strategy", "shift", (0, 1), ("0", "1")),
    ]
    run = (PLAYER, "random")
    term = obj.Term("win_share", 1.0, (run,), strategies=(PLAYER, "random"))
    tune = SimpleNamespace(parameters=params, terms=[term], players=2, seats="rotate", seed=3)
    state = State({})
    candidates = []
    noise = np.random.default_rng(1).random(400)
    for index, (choice, rate) in enumerate(rates.items()):
        candidates.append(Candidate(index, choice, {}, None, player=f"b:{index}"))
        state.add((index, 0), 0, _rows((noise < rate).astype(int).tolist(), [0] * 400, 2))
    pick = list(rates).index(winner)
    return SimpleNamespace(
        tune=tune,
        candidates=candidates,
        runs=[run],
        state=state,
        finalists=[pick],
        confirmation={"winner": pick},
    )


def test_the_one_step_check_tells_worse_neighbours_from_unmeasured_ones() -> None:
    """The winner (bold 0.5, shift 0) wins 60%: bold 0.0 wins 30% (worse), bold 1.0 plays the same games
    (not clearly worse), shift 1 was never a candidate (not measured)."""
    result = _outcome({(1, 0): 0.6, (0, 0): 0.3, (2, 0): 0.6}, winner=(1, 0))
    check = neighbours.check(result)
    rows = {(r["parameter"], r["neighbour_value"]): r for r in check["neighbours"]}
    assert set(rows) == {("bold", "0.0"), ("bold", "1.0"), ("shift", "1")}
    worse = rows[("bold", "0.0")]
    assert worse["verdict"] == "worse" and worse["games_per_run"] == 400 and worse["low"] > 0
    assert worse["difference"] == pytest.approx(worse["neighbour"] - worse["winner"])
    same = rows[("bold", "1.0")]
    assert same["verdict"] == "not clearly worse" and same["difference"] == 0
    assert "the same objective in every resample" in same["words"]
    missing = rows[("shift", "1")]
    assert missing["verdict"] == "not measured" and "not among the candidates" in missing["words"]
    assert check["summary"] == (
        "of 3 one-step neighbours, 2 measured (1 worse, 1 not clearly worse) and 1 not measured"
    )
    better = neighbours.check(_outcome({(1, 0): 0.3, (0, 0): 0.7}, winner=(1, 0)))
    assert better["neighbours"][0]["verdict"] == "better" and "not a local optimum" in better["summary"]


# --------------------------------------------------------------------------- named specs


def _named_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, text: str) -> Path:
    path = tmp_path / "tuned.toml"
    path.write_text(text)
    monkeypatch.setattr(specs, "tuned_file", lambda: path)
    return path


def test_a_named_spec_resolves_to_its_spec_under_its_own_name(
    registered: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _named_file(tmp_path, monkeypatch, f'[secretbid.tuned]\nspec = "{BIDDER}:bold=0.9"\nmeasured = "m"\n')
    spec = specs.parse_spec("tuned", "secretbid")
    assert spec.text == "tuned" and spec.cls.__name__ == "Bidder"
    assert dict(spec.params) == {"bold": "0.9"}
    with pytest.raises(SkaldError) as info:
        specs.parse_spec("tunde", "secretbid")
    assert "unknown strategy 'tunde' for secretbid (allowed: random" in str(info.value)
    assert str(info.value).endswith(", tuned, or package.module:Class)"), str(info.value)
    with pytest.raises(
        SkaldError, match=r"tuned is a named spec \(.*Bidder:bold=0.9\) and takes no parameters"
    ):
        specs.parse_spec("tuned:bold=1", "secretbid")
    assert specs.named_specs("mainland") == {}


def test_a_bad_named_spec_file_is_one_line(
    registered: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _named_file(tmp_path, monkeypatch, '[secretbid.tuned]\nspec = "greedy"\nwhy = "x"\n')
    with pytest.raises(
        SkaldError, match=r"secretbid.tuned: unknown key 'why' \(allowed: measured, spec, tune\)"
    ):
        specs.parse_spec("tuned", "secretbid")
    _named_file(tmp_path, monkeypatch, '[secretbid.tuned]\nspec = "nobody"\n')
    with pytest.raises(SkaldError, match="named spec 'tuned' of secretbid .*unknown strategy 'nobody'"):
        specs.parse_spec("tuned", "secretbid")


@pytest.mark.parametrize("game", ["graenaland", "greenland", "knarr", "mainland"])
def test_the_packaged_tuned_players_parse_and_are_listed(
    game: str, capsys: pytest.CaptureFixture[str]
) -> None:
    named = specs.named_specs(game)["tuned"]
    spec = specs.parse_spec("tuned", game)
    assert spec.text == "tuned" and spec.params == specs.parse_spec(named.spec, game).params
    assert named.measured.startswith("win share ") and Path(named.tune).is_file()
    code, out, _ = cli(capsys, "strategies", game)
    assert code == 0 and f"tuned = {named.spec}" in out and "measured: win share" in out


def test_the_packaged_file_is_package_data() -> None:
    data = tomllib.loads(Path("pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]
    assert "tuned.toml" in data["strategies"]
    assert specs.tuned_file().resolve() == Path("strategies/tuned.toml").resolve()


def test_the_packaging_tool_sets_one_entry_and_keeps_the_others(tmp_path: Path) -> None:
    from tools.tuned_player import update

    path = tmp_path / "tuned.toml"
    update(path, "knarr", "tuned", {"spec": "greedy:rep=0.16", "tune": "k.toml", "measured": "a"})
    update(path, "mainland", "tuned", {"spec": "builder:climb=2.0", "tune": "m.toml", "measured": "b"})
    update(path, "knarr", "tuned", {"spec": "greedy:rep=0.08", "tune": "k.toml", "measured": "c"})
    doc = tomllib.loads(path.read_text())
    assert doc == {
        "knarr": {"tuned": {"spec": "greedy:rep=0.08", "tune": "k.toml", "measured": "c"}},
        "mainland": {"tuned": {"spec": "builder:climb=2.0", "tune": "m.toml", "measured": "b"}},
    }
    assert not list(tmp_path.glob(".*tmp*"))
