"""Graenaland's fixed action and observation encodings for reinforcement learning (``sim.rl.codec``).

Actions (``Discrete(ACTIONS)``), one block per option type (``options``), in this order:

- Move: (hero + 1) * 9 + direction + 1 (hero -1 and direction -1: stay, graenaland.txt:76), factored;
- NoProposal (line 90), then Propose: bounded, a division's rank among all the legal divisions in the
  game's order (territory by territory; within one, a mixed-radix count over the face-up resource groups
  and the face-down cards, ``distribution``), below PROPOSE_BOUND = 2**19 = 524,288 -- every division of
  up to 8 face-down cards among 5 voters (5**8 = 390,625) fits;
- Vote, Decide: no / yes; Fee: the resource (line 203); Action: kind (``ACTION_KINDS``) x territory + 1
  x index + 1, factored;
- Pay and Contribute (line 210): bounded, an option's rank among the legal ones in the game's order.

Bounds, measured with ``python -m tools.option_bounds --only graenaland --games 40 --scripted 10`` (600
games, 381,874 decisions: 40 random and 10 scripted games -- a random lineup of greedy, cooperative,
rival, warlord, planner -- at 3, 4 and 5 players under each of four rule configurations: default, the
advanced rules ``custom_start, victory_cards, five_player_offer``, and ``three_player_adjustments`` on and
off).  The rules do not bound the cards on a territory (they pile up while proposals fail: 11 seen, with
the face-down start cards), so no bound here is proven.  The most divisions at one decision: 160,970 (5
players, advanced rules), past the first pass's 16,384 per territory: the nine per-territory blocks were
merged into one block and the cap raised to 2**19 (3.3x).  Pay: 342 (5 players), cap raised from 512
(1.5x) to 1024 (3.0x); Contribute 36 of 256 (7.1x).  Observation room: CARDS_MAX raised from 8 (filled)
to 16 (11 seen); the victory card parts were too small (8 and 24 for 15 and 45 numbers: every observation
with ``victory_cards`` failed) and are now sized from the data.  Passing a cap raises a one-line
``SkaldError`` naming the game, kind and cap.

Observation (float32, ``SHAPE``), from the seat's ``GraenalandView`` only (own cards, never another's
face-down cards); seats beyond the player count and territories beyond the board -1.  The proposal
history is not encoded (the votes and board carry the standing of each territory):
"""

from __future__ import annotations

import numpy as np

from sim.games.graenaland.game import GAME
from sim.games.graenaland.options import ACTION_KINDS, Action, Propose
from sim.games.graenaland.view import GraenalandView
from sim.rl.codec import Actions, Block, Layout, Part, mixed, padded, seat_onehot

P = GAME.max_players
T = 9  # territories on the largest board (5 players)
_DATA = GAME.load_data(None)
CARDS_MAX = 16  # room for a territory's cards in the observation (not bounded by the rules: see above)
PROPOSE_BOUND = 1 << 19  # bounded blocks (measured, not proven: module docstring)
PAY_BOUND = 1024
CONTRIBUTE_BOUND = 256
VC = max(sum(len(levels) for levels in card.levels) for card in _DATA.victory_cards)  # 5 goals x 3 levels
R = 5  # resources


def _kind(o: object) -> str:
    if type(o) is Propose:
        return "Propose" if o.territory >= 0 else "NoProposal"
    return type(o).__name__


def _action(o: Action, view: GraenalandView) -> int:
    return mixed((ACTION_KINDS.index(o.kind), o.territory + 1, o.index + 1), (len(ACTION_KINDS), T + 1, 9))


ACTION_CODEC = Actions("graenaland", [
    Block("Move", 36, lambda o, v: mixed((o.hero + 1, o.direction + 1), (4, 9))),
    Block("NoProposal", 1, lambda o, v: 0),
    Block("Propose", PROPOSE_BOUND),
    Block("Vote", 2, lambda o, v: int(o.yes)),
    Block("Decide", 2, lambda o, v: int(o.yes)),
    Block("Fee", R, lambda o, v: o.resource),
    Block("Action", len(ACTION_KINDS) * (T + 1) * 9, _action),
    Block("Pay", PAY_BOUND),
    Block("Contribute", CONTRIBUTE_BOUND),
], _kind)
ACTIONS = ACTION_CODEC.n

LAYOUT = Layout("graenaland", [
    Part("seat", P, "1 at the observing seat"),
    Part("header", 8, "player count, round, phase, main player, builder, final round, three-player rules, "
         "supply deck size"),
    Part("territories", T * (P + 3 + 4 + CARDS_MAX + P), "per territory: villages by seat, fortress/"
         "church/hall owners, road/yield/market/palisade, its cards (resource, -1 face down, -2 none), "
         "votes by seat"),
    Part("heroes", P * 6, "per seat: warrior, priest, skald territory, then the waiting ones (-1 none)"),
    Part("seats", P * 5, "per seat: army, houses, hand size, supply cards, deck size"),
    Part("goals", P * 5, "goal values per seat (victory.goal_values)"),
    Part("own", R + R * R, "own cards per resource; own supply cards per resource pair (i, j), i <= j"),
    Part("supply_row", 8 * 2, "face-up supply cards as resource pairs (-1 none)"),
    Part("tokens", 8, "tokens (-1 none)"),
    Part("proposal", 2 + CARDS_MAX + P, "proposer, territory, receivers (-1), vote weight per voting seat"),
    Part("build", 8 + 3 + 8 + 1, "pending build (kind, territory, index, cost...), supply taken, joint used, "
         "markets, palisade fee queue, announcer"),
    Part("advanced", T + 4 * VC, "draft cards per territory, own victory card levels (goal by goal), the "
         "three offered"),
])
SHAPE = LAYOUT.shape
__doc__ = (__doc__ or "") + "\n" + ACTION_CODEC.doc() + "\n\n" + LAYOUT.doc()


def encode(options: list, view: GraenalandView) -> np.ndarray:
    """The action number of each option (blocks above)."""
    return ACTION_CODEC.encode(options, view)


def _flat(value: object) -> list[float]:
    """Numbers of a nested tuple in order (a kind name as its ``ACTION_KINDS`` index)."""
    if isinstance(value, str):
        return [float(ACTION_KINDS.index(value)) if value in ACTION_KINDS else -1.0]
    if isinstance(value, (tuple, list)):
        return [x for item in value for x in _flat(item)]
    return [-1.0 if value is None else float(value)]  # type: ignore[arg-type]


def _territories(view: GraenalandView) -> np.ndarray:
    g, n = "graenaland", len(view.villages)
    out = np.full((T, P + 3 + 4 + CARDS_MAX + P), -1, dtype=np.float32)
    for t in range(n):
        out[t] = np.concatenate([
            padded(g, view.villages[t], (P,)), view.buildings[t], view.public[t],
            padded(g, view.cards[t], (CARDS_MAX,), fill=-2), padded(g, view.votes[t], (P,)),
        ])
    return out


def observe(view: GraenalandView) -> np.ndarray:
    """The observation of ``view`` (layout in the module docstring)."""
    g = "graenaland"
    heroes = [list(h) + list(w) for h, w in zip(view.heroes, view.waiting, strict=True)]
    seats = [list(x) for x in zip(view.army, view.houses, view.hand_sizes, view.supply_counts,
                                  view.deck_sizes, strict=False)]
    pairs = np.zeros((R, R), dtype=np.float32)
    for i, j in view.supplies:
        pairs[i, j] += 1
    weights = np.full(P, -1, dtype=np.float32)
    for s, w in zip(view.voters, view.vote_weights, strict=True):
        weights[s] = w
    proposal = view.proposal or (-1, -1, ())
    return LAYOUT.pack({
        "seat": seat_onehot(view.seat, P),
        "header": (view.n_players, view.round, view.phase, view.main, view.builder, view.final, view.three,
                   view.supply_deck_size),
        "territories": _territories(view),
        "heroes": padded(g, heroes, (P, 6)),
        "seats": padded(g, seats, (P, 5)),
        "goals": padded(g, view.goals, (P, 5)),
        "own": np.concatenate([view.hand_counts, pairs.ravel()]),
        "supply_row": padded(g, view.supply_row, (8, 2)),
        "tokens": padded(g, view.tokens, (8,)),
        "proposal": np.concatenate([proposal[:2], padded(g, proposal[2], (CARDS_MAX,)), weights]),
        "build": np.concatenate([padded(g, _flat(view.pending or ()), (8,)),
                                 (view.supply_taken, view.joint_used, view.markets),
                                 padded(g, view.fee_to, (8,)), [view.announcer]]),
        "advanced": np.concatenate([padded(g, view.draft_cards, (T,)),
                                    padded(g, _flat(view.victory_card or ()), (VC,)),
                                    padded(g, _flat(view.victory_offer), (3 * VC,))]),
    })
