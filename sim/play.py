"""The game loop: one game between strategies (``play_game``), and one game of a run by its index
(``play_indexed``: its seats and seed follow from the index), with what they return (``GameOutcome``,
``Played``) and how a game fails (``GameFailure``).

Nothing here writes: the rows of a game are appended to the ``TurnLog`` and ``GameRows`` buffers a caller
hands in (``sim.tables``).  ``sim.runner`` plays chunks of games with it and writes their records;
``sim.replay``, ``sim.frames``, ``sim.bench`` and ``sim.testing`` play single games.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from sim import seats as seating
from sim.errors import IllegalChoice, PlayError
from sim.game import Game, Result
from sim.plan import RunPlan
from sim.search import SearchContext
from sim.seeding import game_seed, state_seed, streams
from sim.signals import from_signal
from sim.specs import StrategySpec
from sim.tables import GameRows, TurnLog

#: ``play_game``'s ``observe``: (state, the decision point's choices, or None once the game is over)
Observer = Callable[[Any, "dict[int, Any] | None"], None]


@dataclass(slots=True)
class GameOutcome:
    """What ``play_game`` returns: the result and how the game ended."""

    seed: int
    decisions: int
    truncated: bool
    result: Result | None  # None only for a game that errored before it could be scored
    #: search telemetry by seat, for the seats whose strategy reports it (``Strategy.telemetry``):
    #: decisions searched, iterations, seconds spent searching
    search: dict[int, dict[str, float]] = field(default_factory=dict)


class GameFailure(PlayError):
    """A strategy raised, or chose an option the game refused, in one game.

    The message names the strategy spec, the seat, the game seed and the turn; the attributes
    say the same for the records: ``seat``, ``turn`` (decision index of the failing choice),
    ``strategy`` (spec text), ``seed`` (game seed), ``decisions`` (decisions completed before the
    failing decision point) and ``result`` (the game's scores when it stopped, or None).
    """

    seat: int | None = None
    turn: int = 0
    strategy: str | None = None
    seed: int = 0
    decisions: int = 0
    result: Result | None = None


def _failure(
    message: str,
    game: Game,
    state: Any,
    strategies: Sequence[StrategySpec],
    seat: int | None,
    turn: int,
    seed: int,
    decisions: int,
) -> GameFailure:
    exc = GameFailure(message)
    exc.seat, exc.turn, exc.seed, exc.decisions = seat, turn, seed, decisions
    exc.strategy = strategies[seat].text if seat is not None else None
    try:  # the scores when it stopped; a half-applied state may not score
        exc.result = game.result(state)
    except Exception:
        exc.result = None
    return exc


def _raised(exc: BaseException) -> str:
    """``Type: message`` of what a strategy raised; an exception outside ``Exception`` (``SystemExit``,
    ``KeyboardInterrupt``) without a message is named alone."""
    if not isinstance(exc, Exception) and not str(exc):
        return type(exc).__name__
    return f"{type(exc).__name__}: {exc}"


def _seated(
    game: Game, state: Any, strategies: Sequence[StrategySpec], rngs: Sequence[Any], seed: int
) -> list[Any]:
    """One player per seat; a search strategy is handed samples of its seat's information.  A strategy
    that raises while it is set up fails the game (``GameFailure``, turn 0), as one that raises in play."""
    players: list[Any] = []
    seat = 0
    try:
        for seat, spec in enumerate(strategies):
            players.append(spec.make(seat, rngs[seat]))
        for seat, player in enumerate(players):
            if getattr(player, "searches", False):
                player.attach(SearchContext(game, seat, state))
    except BaseException as exc:
        if from_signal(exc):
            raise
        raise _failure(
            f"strategy {strategies[seat].text!r} at seat {seat} raised {_raised(exc)} when it was set up"
            f" (game seed {seed}, turn 0)",
            game, state, strategies, seat, 0, seed, 0,
        ) from exc
    return players


def _telemetry(players: Sequence[Any]) -> dict[int, dict[str, float]]:
    """Each search strategy's telemetry at the end of its game (``Strategy.telemetry``), by seat."""
    found = {}
    for seat, player in enumerate(players):
        telemetry = getattr(player, "telemetry", None)
        report = telemetry() if telemetry is not None else None
        if report is not None:
            found[seat] = report
    return found


# size: the hot loop of every game, kept whole (no call per decision beyond the game's and the strategies')
def play_game(
    game: Game,
    n_players: int,
    rules: dict[str, Any],
    data: Any,
    seed: int,
    strategies: Sequence[StrategySpec],
    max_decisions: int,
    turns: TurnLog | None = None,
    observe: Observer | None = None,
    replicate: int = 0,
) -> GameOutcome:
    """Play one game from its game seed with ``strategies[seat]`` in each seat (replicate ``k > 0``: the
    same deal and chance, fresh strategy generators, ``sim.seeding.streams``).

    Every mover of a decision point chooses from a view and options taken before any
    choice is applied (a strategy whose ``reads_view`` is False gets ``None`` for the view);
    one decision point with k movers counts as k decisions.  The game
    stops (truncated) once ``max_decisions`` decisions were made (checked between decision
    points, so k simultaneous movers may pass the cap by up to k - 1).  With ``turns`` given,
    one row per decision is appended to it (``turns.tag`` is left to the caller).

    A strategy that raises, or whose choice the game cannot record or apply, raises
    ``GameFailure`` (a ``PlayError``); the rows of the failing decision point are then left
    half-logged in ``turns`` (``turns.trim`` drops them).  So does one that raises what ``Exception``
    does not cover (``sys.exit``, ``KeyboardInterrupt``, ``GeneratorExit``), in its constructor too;
    only the user's Ctrl-C or SIGTERM (``sim.signals.from_signal``) goes through as it is.

    ``observe`` (pictures and replays, never a run) is called with the state and the decision point's
    choices just before they are applied, and once more with the final state and None.
    """
    seq, rngs = streams(seed, n_players, replicate)
    state = game.new_state(n_players, rules, data, state_seed(seq))
    players = _seated(game, state, strategies, rngs, seed)
    reads_view = [getattr(player, "reads_view", True) for player in players]
    is_terminal, to_move, legal_options, view, apply = (
        game.is_terminal,
        game.to_move,
        game.legal_options,
        game.view,
        game.apply,
    )
    log = turns is not None
    if turns is not None:
        record, scores = game.record, game.scores
        add_seat, add_kind = turns.seat.append, turns.kind.append
        add_fields, add_scores = turns.flat_fields.extend, turns.flat_scores.extend
    decisions = 0
    truncated = False
    while not is_terminal(state):
        if decisions >= max_decisions:
            truncated = True
            break
        movers = to_move(state)
        if not movers:
            raise RuntimeError(f"{game.name}: no seat to move in a game that is not over (game seed {seed})")
        choices: dict[int, Any] = {}
        for seat in movers:
            turn = decisions + len(choices)
            seen = view(state, seat) if reads_view[seat] else None
            options = legal_options(state, seat)
            try:
                choice = choices[seat] = players[seat].choose(seen, options)
            except BaseException as exc:  # SystemExit, KeyboardInterrupt, ... from a strategy fail it too
                if from_signal(exc):
                    raise
                raise _failure(
                    f"strategy {strategies[seat].text!r} at seat {seat} raised {_raised(exc)}"
                    f" (game seed {seed}, turn {turn})",
                    game, state, strategies, seat, turn, seed, decisions,
                ) from exc
            if log:
                try:
                    kind, fields = record(state, seat, choice)
                except Exception as exc:
                    raise _failure(
                        f"strategy {strategies[seat].text!r} at seat {seat} chose an option the game cannot"
                        f" read (game seed {seed}, turn {turn}): {type(exc).__name__}: {exc}",
                        game, state, strategies, seat, turn, seed, decisions,
                    ) from exc
                add_seat(seat)
                add_kind(kind)
                add_fields(fields)
        if observe is not None:
            observe(state, choices)
        try:
            apply(state, choices)
        except Exception as exc:
            raise _refused(exc, game, state, movers, strategies, seed, decisions) from exc
        if log:
            after = scores(state)
            for _ in movers:
                add_scores(after)
        decisions += len(movers)
    if observe is not None:
        observe(state, None)
    return GameOutcome(seed=seed, decisions=decisions, truncated=truncated, result=game.result(state),
                       search=_telemetry(players))


def _refused(
    exc: Exception,
    game: Game,
    state: Any,
    movers: Sequence[int],
    strategies: Sequence[StrategySpec],
    seed: int,
    first_turn: int,
) -> GameFailure:
    """The ``GameFailure`` for a choice that ``Game.apply`` refused (``IllegalChoice``) or choked on."""
    seat = exc.seat if isinstance(exc, IllegalChoice) else None
    if seat is None and len(movers) == 1:
        seat = movers[0]
    if seat is not None:
        turn = first_turn + list(movers).index(seat) if seat in movers else first_turn
        who = f"strategy {strategies[seat].text!r} at seat {seat}"
    else:
        turn = first_turn
        who = "one of " + ", ".join(f"strategy {strategies[s].text!r} at seat {s}" for s in movers)
    if isinstance(exc, IllegalChoice):
        message = f"illegal choice by {who} (game seed {seed}, turn {turn}): {exc}"
    else:
        message = f"the game could not apply the choice of {who} (game seed {seed}, turn {turn}): " \
                  f"{type(exc).__name__}: {exc}"
    return _failure(message, game, state, strategies, seat, turn, seed, first_turn)



@dataclass
class Played:
    """One game of a run as ``play_indexed`` played it."""

    game_id: int
    base: int
    order: tuple[int, ...]  # strategy index per seat
    outcome: GameOutcome
    failure: GameFailure | None
    shares: list[float]


def play_indexed(
    plan: RunPlan,
    game: Game,
    game_id: int,
    turns: TurnLog | None,
    rows: GameRows | None,
    texts: Sequence[str],
    observe: Observer | None = None,
) -> Played:
    """Play global game ``game_id`` of ``plan`` (its seats and seed from the game index) and add its
    rows to ``turns`` and ``rows`` when given.

    A failing strategy gives an errored game (``failure`` set) under ``on_error == "continue"``
    and raises ``GameFailure`` under ``"stop"``.
    """
    n = plan.players
    base, order = seating.assign(plan.seats, n, plan.seed, game_id, texts, plan.replicates)
    replicate = seating.replicate_of(plan.seats, n, game_id, texts, plan.replicates)
    seed = game_seed(plan.seed, base)
    specs = [plan.specs[i] for i in order]
    failure: GameFailure | None = None
    try:
        outcome = play_game(
            game, n, plan.rules, plan.data, seed, specs, plan.max_decisions, turns, observe, replicate
        )
    except GameFailure as exc:
        if plan.on_error != "continue":
            raise
        failure = exc
        outcome = GameOutcome(seed=seed, decisions=exc.decisions, truncated=True, result=exc.result)
        if turns is not None:
            turns.trim(len(plan.action_fields), n)
    if rows is not None and turns is not None:
        turns.tag(game_id)
        shares = rows.add(
            game_id=game_id,
            base_game=base,
            game_seed=seed,
            rules_hash=plan.rules_hash,
            decisions=outcome.decisions,
            truncated=outcome.truncated,
            result=outcome.result,
            strategy_index=order,
            strategy_text=[texts[i] for i in order],
            error=None if failure is None else str(failure),
            error_seat=None if failure is None else failure.seat,
            error_turn=None if failure is None else failure.turn,
        )
    else:
        shares = [0.0] * n if failure is not None else _shares(outcome, n)
    return Played(game_id, base, order, outcome, failure, shares)


def _shares(outcome: GameOutcome, n: int) -> list[float]:
    winners = [] if outcome.truncated or outcome.result is None else list(outcome.result.winners)
    return [1.0 / len(winners) if seat in winners else 0.0 for seat in range(n)]
