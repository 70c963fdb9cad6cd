"""Knarr's fixed action and observation encodings for reinforcement learning (``sim.rl.codec``).

Actions (``Discrete(ACTIONS)``): one block per option kind (``state.Option``), laid end to end in this order:

- recruit: Viking card id x board slot taken + 1 (0: none), factored (A.5 Recruit);
- explore0..explore7: one block per destination slot (0-2 Trading Lands, 3-5 Lands of Influence, 6-7
  reserved), each bounded: an Explore's place in its slot's block is its rank among that slot's legal
  Explores in the game's order (payments, then the crew Vikings given up, ruling R4), below EXPLORE_BOUND;
- trade (bracelets 1-3), develop (display slot), renew (display slots as a bit mask), end, pass, skip,
  discard (the crew Viking discarded, by card id), reserve (destination slot), swap (board slot) and
  cover (own destination index): factored.

Bounds, measured with ``python -m tools.option_bounds --only knarr --games 100 --scripted 20`` (1,800
games, 166,898 decisions: 100 random and 20 scripted games -- each a random lineup of greedy, collector,
trader, hoarder, architect -- at 2, 3 and 4 players under each of five rule configurations: default,
``skali``, ``artifacts``, both, and both with ``helmet=cover``, ``ship=advanced``,
``skali_end=final_raid``).  The Explores at one slot are the payments from the crew times the Vikings
given up, which the rules do not bound (a crew keeps growing), so EXPLORE_BOUND is measured, not proven:
the most seen was 228 (slot 3, 4 players, ``skali``, scripted), so the cap was raised from 512 (2.2x) to
1024 (4.5x).  ``cover`` (own destination index, Helmet with ``helmet=cover``): at most index 4 seen of 16.
The other factored blocks are exact (card ids, slots).  The most options at one decision: 441 (4 players,
``artifacts``).  Observation room: every part is sized by the data or the player count (artifacts in play:
at most 2 seen of 16).  Passing a cap raises a one-line ``SkaldError`` naming the game, kind and cap.

Observation (float32, ``SHAPE``), from the seat's ``KnarrView`` only; seats beyond the player count -1:
"""

from __future__ import annotations

import numpy as np

from sim.games.knarr.game import GAME
from sim.games.knarr.state import Option
from sim.games.knarr.view import KnarrView
from sim.rl.codec import Actions, Block, Layout, Part, counts, padded, seat_onehot

_DATA = GAME.load_data(None)
V = len(_DATA.viking_colour)
D = len(_DATA.destinations)
B = len(_DATA.buildings)
ASSETS = max(_DATA.viking_asset) + 1
COLOURS = 5
P = GAME.max_players
EXPLORE_BOUND = 1024  # measured, not proven (module docstring)
BONUS = ("explore", "recruit", "reserve", "swap", "cover")


def _kind(option: Option) -> str:
    return f"explore{option[1]}" if option[0] == "explore" else option[0]


ACTION_CODEC = Actions("knarr", [
    Block("recruit", V * 6, lambda o, v: o[1] * 6 + o[2] + 1 if 0 <= o[1] < V and -1 <= o[2] < 5 else -1),
    *(Block(f"explore{slot}", EXPLORE_BOUND) for slot in range(8)),
    Block("trade", 3, lambda o, v: o[1] - 1),
    Block("develop", 4, lambda o, v: o[1]),
    Block("renew", 16, lambda o, v: sum(1 << s for s in o[3]) if all(0 <= s < 4 for s in o[3]) else -1),
    Block("end", 1, lambda o, v: 0),
    Block("pass", 1, lambda o, v: 0),
    Block("skip", 1, lambda o, v: 0),
    Block("discard", V, lambda o, v: o[2]),
    Block("reserve", 6, lambda o, v: o[1]),
    Block("swap", 5, lambda o, v: o[1]),
    Block("cover", 16, lambda o, v: o[1]),
], _kind)
ACTIONS = ACTION_CODEC.n

LAYOUT = Layout("knarr", [
    Part("seat", P, "1 at the observing seat"),
    Part("header", 9, "player count, phase (0 turn, 1 discard, 2 bonus), round, current seat, acted, traded, "
         "developed, end triggered, pending bonuses"),
    Part("bonus", len(BONUS), "pending artifact decisions by kind (counts)"),
    Part("hand", V, "own hand (counts per Viking card id)"),
    Part("discard", V, "the discard pile (counts per Viking card id)"),
    Part("table", 5 + 6 + 2 + 1, "board slots, visible destinations (ids, -1 empty), cards left in the two "
         "destination decks, Viking deck size"),
    Part("crews", P * COLOURS * ASSETS, "per seat, colour and asset: Vikings in the crew zone"),
    Part("owned", P * D, "per seat and destination id: 1 owned"),
    Part("covered", P * D, "per seat and destination id: 1 covered (Helmet)"),
    Part("reserved", P * 2, "per seat: reserved destination ids (-1 none)"),
    Part("tracks", P * 7, "per seat: hand size, VP, reputation, recruits, bracelets, coins, raids"),
    Part("raid", 2, "raid board, raid reserve"),
    Part("skali", 4 + 1 + P * B + P, "building display (ids), building deck size, buildings per seat and id, "
         "renewal token per seat"),
    Part("artifacts", 16, "artifacts in play (ids, -1 none)"),
])
SHAPE = LAYOUT.shape
__doc__ = (__doc__ or "") + "\n" + ACTION_CODEC.doc() + "\n\n" + LAYOUT.doc()


def encode(options: list[Option], view: KnarrView) -> np.ndarray:
    """The action number of each option (blocks above)."""
    return ACTION_CODEC.encode(options, view)


def _per_seat(view: KnarrView, rows: tuple, size: int) -> np.ndarray:
    out = np.full((P, size), -1, dtype=np.float32)
    for s, ids in enumerate(rows):
        out[s] = counts("knarr", ids, size)
    return out


def observe(view: KnarrView) -> np.ndarray:
    """The observation of ``view`` (layout in the module docstring)."""
    crews = np.full((P, COLOURS, ASSETS), -1, dtype=np.float32)
    for s, crew in enumerate(view.crews):
        for c, column in enumerate(crew):
            crews[s, c] = counts("knarr", [_DATA.viking_asset[card] for card in column], ASSETS)
    tracks = [view.hand_sizes, view.vp, view.rep, view.recruits, view.bracelets, view.coins, view.raids]
    buildings = _per_seat(view, view.buildings, B) if view.buildings else np.full((P, B), -1, np.float32)
    return LAYOUT.pack({
        "seat": seat_onehot(view.seat, P),
        "header": (view.n_players, view.phase, view.round, view.current, view.acted, view.traded,
                   view.developed, view.end_triggered, len(view.bonus)),
        "bonus": counts("knarr", [BONUS.index(b) for b in view.bonus], len(BONUS)),
        "hand": counts("knarr", view.hand, V),
        "discard": counts("knarr", view.discard, V),
        "table": np.concatenate([padded("knarr", view.board, (5,)), padded("knarr", view.visible, (6,)),
                                 view.dest_left, [view.deck_size]]),
        "crews": crews,
        "owned": _per_seat(view, view.owned, D),
        "covered": _per_seat(view, view.covered, D),
        "reserved": padded("knarr", view.reserved, (P, 2)),
        "tracks": padded("knarr", [list(t) for t in zip(*tracks, strict=True)], (P, 7)),
        "raid": (view.raid_board, view.raid_reserve),
        "skali": np.concatenate([padded("knarr", view.display, (4,)), [view.building_deck_size],
                                 buildings.ravel(), padded("knarr", view.renewal, (P,))]),
        "artifacts": padded("knarr", view.artifacts, (16,)),
    })
