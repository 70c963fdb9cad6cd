"""Greenland's fixed action and observation encodings for reinforcement learning (``sim.rl.codec``).

Actions (``Discrete(ACTIONS)``): one block per option kind (``state.KINDS``), in the order listed below.
A *place* (a biome card 0-63, or ``TPLACE`` + a tableau card 0-63) is numbered 0-127 (``place``).
Factored blocks: animal, hunt, bid, pacify, table (``a``, 0-63); guard, raid, stay, withdraw, keep, pick
(the place ``a``); alpha (the place ``a``, or 128 + rank for a promotion ``-1 - rank``); promote (rank);
attack (place x target seat); defend (place x iron spent x attacker); roll (place x flags); reroll (place
x die face); casualty (place x Alpha among the dead); breed (card x elder rank + 1); elder (rank x action
x target + 1); done, convert.  Bounded blocks (an option's rank among the legal options of its kind, in
the game's order, below the bound): move (MOVE_BOUND), bribe and counter (BRIBE_BOUND each), accept and
refuse (ANSWER_BOUND).

Bounds, measured with ``python -m tools.option_bounds --only greenland --games 60 --scripted 10`` (630
games, 261,203 decisions: 60 random and 10 scripted games -- a random lineup of greedy, spreader, elder --
at 2, 3 and 4 players under each of three rule configurations: default, ``advanced=false``, and
``contest_success=all, conversion=any, elder_actions=per_rank, war_parties=none, upkeep=none``).  None
of these is proven by the rules (tribesmen multiply, tableaus grow), so all are measured: the most moves
at one decision 270 (3 players, scripted), so MOVE_BOUND was raised from 512 (1.9x) to 1024 (3.8x);
bribes 36 of 128 (3.6x), counters 13 of 128, accepts and refuses 1 of 8.  The most options at one
decision: 271.  Observation room ``_N``, raised from 16 to 32: the cards still to negotiate or hunt
filled all 16 (4 players), a tableau held 12, the dice 12, a row 7, the cards won 19 of 2 * _N.  Passing a
cap raises a one-line ``SkaldError`` naming the game, kind (or the room) and cap.

Observation (float32, ``SHAPE``), from the seat's ``GreenlandView`` only (no deck order, no other hand,
no secret bid); seats beyond the player count -1:
"""

from __future__ import annotations

import numpy as np

from sim.games.greenland.game import GAME
from sim.games.greenland.state import TPLACE, Option
from sim.games.greenland.view import GreenlandView
from sim.rl.codec import Actions, Block, Layout, Part, mixed, padded, seat_onehot

P = GAME.max_players
CARDS = 64
PLACES = 2 * CARDS
RANKS = 8
SEATS = P
MOVE_BOUND = 1024  # bounded blocks (measured, not proven: module docstring)
BRIBE_BOUND = 128
ANSWER_BOUND = 8


def place(v: int) -> int:
    """A place's number 0-127 (-1: not a place)."""
    if 0 <= v < CARDS:
        return v
    if TPLACE <= v < TPLACE + CARDS:
        return CARDS + v - TPLACE
    return -1


def _alpha(o: Option, view: GreenlandView) -> int:
    return place(o.a) if o.a >= 0 else (PLACES - 1 - o.a if -1 - o.a < RANKS else -1)


def _a(o: Option, view: GreenlandView) -> int:
    return o.a if 0 <= o.a < CARDS else -1


def _at(o: Option, view: GreenlandView) -> int:
    return place(o.a)


ACTION_CODEC = Actions("greenland", [
    Block("animal", CARDS, _a), Block("hunt", CARDS, _a), Block("guard", PLACES, _at),
    Block("raid", PLACES, _at), Block("alpha", PLACES + RANKS, _alpha),
    Block("promote", RANKS, lambda o, v: o.a), Block("done", 1, lambda o, v: 0), Block("move", MOVE_BOUND),
    Block("stay", PLACES, _at), Block("withdraw", PLACES, _at),
    Block("attack", PLACES * SEATS, lambda o, v: mixed((place(o.a), o.b), (PLACES, SEATS))),
    Block("defend", PLACES * 2 * SEATS, lambda o, v: mixed((place(o.a), o.b, o.c), (PLACES, 2, SEATS))),
    Block("roll", PLACES * 4, lambda o, v: mixed((place(o.a), o.b), (PLACES, 4))),
    Block("reroll", PLACES * 7, lambda o, v: mixed((place(o.a), o.b), (PLACES, 7))),
    Block("keep", PLACES, _at),
    Block("casualty", PLACES * 2, lambda o, v: mixed((place(o.a), o.b), (PLACES, 2))),
    Block("pick", PLACES, _at), Block("bribe", BRIBE_BOUND), Block("counter", BRIBE_BOUND),
    Block("accept", ANSWER_BOUND), Block("refuse", ANSWER_BOUND), Block("bid", CARDS, _a),
    Block("breed", CARDS * (RANKS + 1), lambda o, v: mixed((o.a, o.c + 1), (CARDS, RANKS + 1))),
    Block("pacify", CARDS, _a),
    Block("elder", RANKS * 4 * (CARDS + 1), lambda o, v: mixed((o.a, o.b, o.c + 1), (RANKS, 4, CARDS + 1))),
    Block("table", CARDS, _a), Block("convert", 1, lambda o, v: 0),
], lambda o: o.kind)
ACTIONS = ACTION_CODEC.n

_N = 32  # room for a row, a tableau, a hand, trophies, dice, cards left (measured: module docstring)
LAYOUT = Layout("greenland", [
    Part("seat", P, "1 at the observing seat"),
    Part("header", 8, "player count, generation, phase, event, seat to act (-1 auction), events left, "
         "import on offer (-1 none), Alpha moves"),
    Part("order", 2 * P, "tribe per seat, turn order"),
    Part("rows", 4 * _N + _N, "warm north, warm south, cold north, cold south rows, hostile cards (ids, -1)"),
    Part("decks", 2, "cards left in the two decks"),
    Part("tribes", 9 * P, "per seat: pool, Alpha, Valhalla, energy, ivory, iron, hand size, religion, alive"),
    Part("elders", P * 6, "elders per seat and rank"),
    Part("hunters", P * PLACES, "tribesmen per seat and place (hunters)"),
    Part("colonists", P * PLACES, "colonists per seat and place"),
    Part("husbands", P * PLACES, "husbands per seat and daughter card (as a place)"),
    Part("placed", PLACES, "own tribesmen sent this generation per place"),
    Part("tableau", P * 2 * _N, "per seat: tableau card ids, then trophies (-1 empty)"),
    Part("hand", _N, "own hand card ids (-1 empty)"),
    Part("turn", 2 * _N + 6 + 5 + P + _N, "won, own elder actions used per rank, the hunt (rerolls, flags, "
         "kills, briber, dice count), offers made per seat, dice"),
    Part("left", _N, "cards still to negotiate (phase F) or hunt (phase G)"),
])
SHAPE = LAYOUT.shape
__doc__ = (__doc__ or "") + "\n" + ACTION_CODEC.doc() + "\n\n" + LAYOUT.doc()


def encode(options: list[Option], view: GreenlandView) -> np.ndarray:
    """The action number of each option (blocks above)."""
    return ACTION_CODEC.encode(options, view)


def _by_place(rows: tuple[dict[int, int], ...]) -> np.ndarray:
    out = np.full((P, PLACES), -1, dtype=np.float32)
    for s, where in enumerate(rows):
        out[s] = 0
        for key, count in where.items():
            out[s, place(key)] = count
    return out


def observe(view: GreenlandView) -> np.ndarray:
    """The observation of ``view`` (layout in the module docstring)."""
    g = "greenland"
    tribes = [view.pool, view.alpha, view.valhalla, view.energy, view.ivory, view.iron, view.hand_sizes,
              view.religion, view.alive]
    placed = np.zeros(PLACES, dtype=np.float32)
    for key, count in view.placed.items():
        placed[place(key)] = count
    return LAYOUT.pack({
        "seat": seat_onehot(view.seat, P),
        "header": (view.n_players, view.generation, view.phase, view.event, view.to_act, view.events_left,
                   view.offer, view.moves),
        "order": np.concatenate([padded(g, view.tribe, (P,)), padded(g, view.order, (P,))]),
        "rows": np.concatenate([padded(g, [*view.warm, *view.cold], (4, _N)).ravel(),
                                padded(g, view.hostile, (_N,))]),
        "decks": view.decks_left,
        "tribes": padded(g, [list(t) for t in zip(*tribes, strict=True)], (P, 9)),
        "elders": padded(g, view.elders, (P, 6)),
        "hunters": _by_place(view.hunters),
        "colonists": _by_place(view.colonists),
        "husbands": _by_place(view.husbands),
        "placed": placed,
        "tableau": padded(g, [[t, r] for t, r in zip(view.tableau, view.trophies, strict=True)], (P, 2, _N)),
        "hand": padded(g, view.hand, (_N,)),
        "turn": np.concatenate([
            padded(g, view.won, (2 * _N,)), padded(g, view.used, (6,)),
            (view.rerolls, view.roll_flags, view.kills, view.briber, len(view.dice)),
            padded(g, view.offers_made, (P,)), padded(g, view.dice, (_N,)),
        ]),
        "left": padded(g, view.cards_left, (_N,)),
    })
