"""A tiny game implementing the full ``sim.game.Game`` protocol, for testing the core.

Secret bid: every player is dealt a hidden hand of numbered cards.  Each round all players
at once (simultaneous secret choices) play one card; the highest unique card scores its
value for its owner.  The game ends when the hands are empty (``rounds`` rounds), or never
with ``endless=true`` (played cards return to the hand), which tests truncation.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from sim.errors import IllegalChoice, SkaldError
from sim.game import Result, RuleSwitch, result_from_scores
from sim.runner import RunConfig, RunSummary, run
from sim.strategy import Strategy

DEFAULT_DECK = tuple(range(1, 13))


@dataclass
class BidState:
    n_players: int
    rules: dict[str, Any]
    hands: list[list[int]]
    points: list[float]
    round: int = 0
    last_bids: tuple[int, ...] = ()
    rounds_won: list[int] = field(default_factory=list)
    deck: tuple[int, ...] = ()  # every card of the game (public: the data)
    revealed: list[list[int]] = field(default_factory=list)  # the cards each seat has bid (public)


@dataclass(frozen=True)
class BidView:
    seat: int
    round: int
    hand: tuple[int, ...]  # own hand only (secret)
    hand_sizes: tuple[int, ...]  # everyone's hand size (public)
    points: tuple[float, ...]
    last_bids: tuple[int, ...]


class SecretBid:
    name = "secretbid"
    min_players = 2
    max_players = 4
    rule_switches = (
        RuleSwitch("rounds", 4, (2, 3, 4), "hand size = number of rounds"),
        RuleSwitch("endless", False, (True, False), "played cards go back to the hand: never ends"),
        RuleSwitch("bonus", 0.0, (), "points added to a round's winning card"),
    )
    action_fields = ("round", "bid")
    part_fields = ("rounds_won", "cards_left")
    default_max_decisions = 1000
    default_data_path = None  # no data file: the deck is built in

    def load_data(self, path: str | None) -> tuple[int, ...]:
        if path is None:
            return DEFAULT_DECK
        try:
            deck = tuple(int(x) for x in json.loads(Path(path).read_text())["deck"])
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise SkaldError(f"cannot read secret-bid data {path!r}: {exc}") from None
        return deck

    def new_state(self, n_players: int, rules: dict[str, Any], data: Any, seed: int) -> BidState:
        rng = np.random.default_rng(seed)
        deck = [int(x) for x in rng.permutation(np.array(data))]
        k = rules["rounds"]
        hands = [sorted(deck[i * k : (i + 1) * k]) for i in range(n_players)]
        return BidState(n_players, dict(rules), hands, [0.0] * n_players, rounds_won=[0] * n_players,
                        deck=tuple(int(x) for x in data), revealed=[[] for _ in range(n_players)])

    def to_move(self, state: BidState) -> Sequence[int]:
        return () if self.is_terminal(state) else tuple(range(state.n_players))

    def legal_options(self, state: BidState, seat: int) -> Sequence[int]:
        return tuple(state.hands[seat])

    def view(self, state: BidState, seat: int) -> BidView:
        return BidView(
            seat=seat,
            round=state.round,
            hand=tuple(state.hands[seat]),
            hand_sizes=tuple(len(h) for h in state.hands),
            points=tuple(state.points),
            last_bids=state.last_bids,
        )

    def apply(self, state: BidState, choices: dict[int, Any]) -> None:
        for seat, card in choices.items():
            if card not in state.hands[seat]:
                exc = IllegalChoice(f"card {card!r} is not in seat {seat}'s hand")
                exc.seat = seat
                raise exc
        bids = tuple(int(choices[s]) for s in range(state.n_players))
        unique = [b for b in bids if bids.count(b) == 1]
        if unique:
            best = max(unique)
            winner = bids.index(best)
            state.points[winner] += best + state.rules["bonus"]
            state.rounds_won[winner] += 1
        for seat, card in choices.items():
            if state.revealed:
                state.revealed[seat].append(int(card))
            if not state.rules["endless"]:
                state.hands[seat].remove(card)
        state.last_bids = bids
        state.round += 1

    def record(self, state: BidState, seat: int, option: Any) -> tuple[str, tuple[int, ...]]:
        return "bid", (state.round, int(option))

    def scores(self, state: BidState) -> list[float]:
        return list(state.points)

    def is_terminal(self, state: BidState) -> bool:
        return not state.rules["endless"] and all(not h for h in state.hands)

    def result(self, state: BidState) -> Result:
        parts = [
            {"rounds_won": float(state.rounds_won[s]), "cards_left": float(len(state.hands[s]))}
            for s in range(state.n_players)
        ]
        return result_from_scores(state.points, parts)

    def to_dict(self, state: BidState) -> dict[str, Any]:
        return {
            "n_players": state.n_players,
            "rules": state.rules,
            "hands": state.hands,
            "points": state.points,
            "round": state.round,
            "last_bids": list(state.last_bids),
            "rounds_won": state.rounds_won,
            "deck": list(state.deck),
            "revealed": state.revealed,
        }

    def from_dict(self, data: dict[str, Any]) -> BidState:
        return BidState(
            n_players=data["n_players"],
            rules=dict(data["rules"]),
            hands=[list(h) for h in data["hands"]],
            points=list(data["points"]),
            round=data["round"],
            last_bids=tuple(data["last_bids"]),
            rounds_won=list(data["rounds_won"]),
            deck=tuple(data.get("deck", ())),
            revealed=[list(r) for r in data.get("revealed", [])],
        )

    def determinize(self, state: BidState, seat: int, rng: np.random.Generator) -> BidState:
        """The other hands dealt again from the cards ``seat`` has not seen: not in its hand and not
        bid by anyone (in the endless game a card bid goes back to its owner's hand, so it stays there)."""
        endless = state.rules["endless"]
        seen = set(state.hands[seat]) | {c for cards in state.revealed for c in cards}
        unseen = [int(c) for c in rng.permutation(np.array(sorted(set(state.deck) - seen), dtype=np.int64))]
        hands = []
        for other, hand in enumerate(state.hands):
            if other == seat:
                hands.append(list(hand))
                continue
            known = sorted(set(state.revealed[other])) if endless else []
            drawn, unseen = unseen[: len(hand) - len(known)], unseen[len(hand) - len(known):]
            hands.append(sorted(known + drawn))
        revealed = [list(r) for r in state.revealed]
        return BidState(state.n_players, dict(state.rules), hands, list(state.points), state.round,
                        state.last_bids, list(state.rounds_won), state.deck, revealed)


GAME = SecretBid()


class HighBidder(Strategy):
    """Always plays its highest card."""

    name = "high"

    def choose(self, view: BidView, options: Sequence[int]) -> int:
        return max(options)


class Cheater(Strategy):
    """Plays a card it does not hold in round ``at`` (an illegal choice)."""

    name = "cheater"
    params = {"at": (int, 1)}

    def choose(self, view: BidView, options: Sequence[int]) -> int:
        return 999 if view.round == self.at else options[0]


class Crasher(Strategy):
    """Raises in round 2."""

    name = "crasher"

    def choose(self, view: BidView, options: Sequence[int]) -> int:
        if view.round == 2:
            raise RuntimeError("boom")
        return options[0]


class Recorder(Strategy):
    """Plays its lowest card and keeps every (view, options) it was given in ``SEEN``."""

    name = "recorder"
    SEEN: list[tuple[int, BidView, tuple[int, ...]]] = []

    def choose(self, view: BidView, options: Sequence[int]) -> int:
        Recorder.SEEN.append((self.seat, view, tuple(options)))
        return min(options)


class BlindRecorder(Recorder):
    """A ``Recorder`` that declares it never reads its view (``reads_view = False``)."""

    name = "blind-recorder"
    reads_view = False


HIGH = "tests.toy_game:HighBidder"


def toy_config(out: Path, **overrides: Any) -> RunConfig:
    """A run of the toy game with small defaults (``overrides`` replace fields)."""
    fields: dict[str, Any] = dict(
        game=GAME,
        players=3,
        games=12,
        strategies=[HIGH, "random", "random"],
        jobs=1,
        seed=7,
        out=out,
        chunk_size=4,
        progress=False,
    )
    fields.update(overrides)
    return RunConfig(**fields)


def toy_run(out: Path, **overrides: Any) -> RunSummary:
    """Run the toy game through ``sim.runner.run`` with small defaults (``overrides`` replace fields)."""
    return run(toy_config(out, **overrides))
