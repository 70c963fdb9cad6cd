"""Scripted Graenaland strategies: ``greedy``, ``cooperative``, ``rival``, ``warlord`` and ``planner``.

All of them see only their seat's view (``sim.games.graenaland.view.GraenalandView``) and share
the decision logic of ``GraenalandBase``; the archetypes differ in parameters (how generous
their proposals are, how they vote, whether they invest in public buildings and contribute to
joint ones, how much they value army) and in what they remember about the others.

* hero movement: the move that most raises the cards the seat can expect to win by vote,
  others assumed to stay (they move in secret, graenaland.txt:75-77);
* proposals: take everything where the seat alone holds a majority, else buy the minimal
  winning coalition with shares in proportion to the partners' votes (lines 103-105, 117);
* votes: accept when the share is at least what holding out is worth (the seat's vote share of
  the cards, discounted), adjusted by how the proposer treated the seat before;
* building: the action that advances the goals most (lines 223-231), taking the supply card
  that enables the best build first; payments: exact resources before gold and supply cards; in a
  final building phase with a victory point card, the builds, payments and fees of the sequence
  reaching the most points (``reach.most_points``, the search behind the announcement, line 311);
* ``focus`` (all archetypes, default 0): a goal planner. The seat estimates what each set of three
  goals would cost it in cards from where it stands (``goal_plan_costs``) and weighs the goals
  outside the cheapest set by ``1 - focus``: ``greedy:focus=0.8`` concentrates on its recipe
  (say Largest + Buildings + Army on one territory) instead of spreading over all five goals.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from functools import lru_cache
from typing import Any, ClassVar, cast

from sim.games.graenaland.board import DIRECTIONS
from sim.games.graenaland.building import Cost, Hand, army_costs, can_pay
from sim.games.graenaland.data import BUILDINGS, GOALS, GOLD, PUBLIC, GraenalandData
from sim.games.graenaland.options import (
    END,
    NO_PROPOSAL,
    NOTHING,
    STAY,
    Action,
    Contribute,
    Decide,
    Fee,
    Move,
    Pay,
    Propose,
    Vote,
)
from sim.games.graenaland.reach import Position, Step, most_points
from sim.games.graenaland.state import (
    ANCHOR,
    ANNOUNCE,
    BUILD,
    CHOOSE_CARD,
    CONTRIBUTE,
    DRAFT,
    FEE,
    HEROES,
    JOINT,
    PALISADE,
    PAY,
    PROPOSE,
    RELOCATE,
    VOTE,
)
from sim.games.graenaland.view import GraenalandView
from sim.games.graenaland.votes import tally
from sim.strategy import Strategy

GOAL_WEIGHT = 1.0  # a goal met
PROGRESS_WEIGHT = 1.0  # full progress towards one goal


def own_counts(view: GraenalandView) -> Hand:
    """The seat's cards per resource, five counts (``building.hand_counts``; the view's field is typed as
    a tuple of any length)."""
    return cast(Hand, view.hand_counts)


def proposal_voted(view: GraenalandView) -> tuple[int, int, tuple[int, ...]]:
    """(proposer, territory, receivers) of the proposal being voted on: set in the vote phase (line 115)."""
    proposal = view.proposal
    assert proposal is not None, "no proposal is being voted on"
    return proposal


def pending_build(view: GraenalandView) -> tuple[Any, ...]:
    """(kind, territory, index, remaining cost) of the build being paid: set while it is paid for, its
    fee given or contributions offered."""
    pending = view.pending
    assert pending is not None, "no build is being paid"
    return pending


class GraenalandBase(Strategy):
    """Shared logic; the archetypes below only change parameters."""

    games = ("graenaland",)
    params: ClassVar[dict[str, tuple[type, Any]]] = {
        "generosity": (float, 1.0),  # partner shares x this (proportional to votes at 1.0)
        "holdout": (float, 0.8),  # a vote is worth accepting at share >= holdout x vote share of the cards
        "grudge": (float, 0.5),  # extra cards demanded per card a proposer denied the seat before
        "public": (float, 0.0),  # value of a road/yield improvement where the seat is strong
        "contribute": (float, 0.0),  # share of a joint building's cost offered (0 = never)
        "army": (float, 1.0),  # weight of the Army goal
        "spread": (float, 1.0),  # weight of new territories
        "focus": (float, 0.0),  # weight taken off the goals outside the seat's cheapest three (0 = none)
    }
    _targets_key: tuple[Any, ...]  # (round, phase, goals) the remembered ``targets`` were listed for
    _targets: list[tuple[float, Cost]]
    # the parameters as instance attributes, set by ``Strategy.__init__`` from ``params`` (same names, types)
    generosity: float
    holdout: float
    grudge: float
    public: float
    contribute: float
    army: float
    spread: float
    focus: float

    def __init__(self, seat: int, rng, **params: Any) -> None:
        super().__init__(seat, rng, **params)
        self.seen_history = 0
        self.treated: dict[int, float] = {}  # seat -> cards given minus fair share (reputation)
        self._plan_key: tuple | None = None  # (round, own goal values) the remembered plan was made for
        self._plan: tuple[int, ...] = ()
        self._step: Step | None = None  # the planned build being paid in a final building phase
        self._fee: list[int] = []  # its palisade fee cards still to give
        self._standing_view: GraenalandView | None = None  # the view ``standing`` was worked out for
        self._standing: tuple[float, tuple[int, ...], int] = (0.0, (), 0)
        self._potentials: dict[tuple[int, ...], float] = {}  # goal values -> potential, for that view
        self._weights = (1.0, self.spread, 1.0, 1.0, self.army)  # per goal, in GOALS order
        self._targets_seen: dict[tuple[Any, ...], list[tuple[float, Cost]]] = {}  # ``targets`` by its inputs

    # ------------------------------------------------------------------ dispatch

    def choose(self, view: GraenalandView, options: Sequence[Any]) -> Any:
        self._remember(view)
        phase = view.phase
        if phase == HEROES:
            return self.move(view, options)
        if phase == PROPOSE:
            return self.propose(view, options)
        if phase == VOTE:
            return self.vote(view)
        if phase == BUILD:
            return self.act(view, options)
        if phase == PAY:
            return self.pay(view, options)
        if phase == FEE:
            return self.fee(view, options)
        if phase == CONTRIBUTE:
            return self.offer(view, options)
        if phase == JOINT:
            return options[-1]  # build when it can be paid (the last option is "yes" then)
        if phase == RELOCATE:
            return Decide(False)
        if phase == DRAFT:
            return self.draft(view, options)
        if phase == ANCHOR:
            return self.anchor(view, options)
        if phase == CHOOSE_CARD:
            return self.pick_card(view, options)
        if phase == ANNOUNCE:
            return Decide(True)  # an announcement can only help (lines 311-313)
        return options[0]

    # ------------------------------------------------------------------ advanced rules

    def draft(self, view: GraenalandView, options: Sequence[Action]) -> Action:
        """A coastal territory with a card left and few settlers; between equals, the strategy's draw."""
        def score(o: Action) -> float:
            t = o.territory
            return view.draft_cards[t] - 1.5 * sum(view.villages[t]) + 0.01 * self.rng.random()
        return max(options, key=score)

    def anchor(self, view: GraenalandView, options: Sequence[Any]) -> Any:
        """Weigh anchor to the least crowded territory offered (line 272)."""
        moves = [o for o in options if isinstance(o, Action)]
        if not moves:
            return options[0]
        return min(moves, key=lambda o: (sum(view.villages[o.territory]), o.territory))

    def pick_card(self, view: GraenalandView, options: Sequence[Action]) -> Action:
        """The victory point card with the most levels within typical end-of-game values, weighted by the
        strategy's taste (army, spread)."""
        typical = (8, 3, 5, 2, 3)
        weights = (1.0, self.spread, 1.0, 1.0, self.army)
        def score(o: Action) -> float:
            levels = view.victory_offer[o.index]
            return sum(w * sum(1 for x in lv if x <= v) - 0.05 * sum(lv)
                       for lv, v, w in zip(levels, typical, weights, strict=True))
        return max(options, key=score)

    # ------------------------------------------------------------------ memory

    def _remember(self, view: GraenalandView) -> None:
        """Reputation: after each vote, how the proposer treated this seat against its vote share."""
        for rec in view.history[self.seen_history:]:
            if rec.proposer == self.seat or rec.shares[self.seat] == 0 and self.seat not in rec.yes + rec.no:
                continue
            votes = None
            if self.seat in rec.yes + rec.no:
                votes = True
            if votes:
                fair = sum(rec.shares) / max(1, len(rec.yes) + len(rec.no))
                delta = rec.shares[self.seat] - fair
                self.treated[rec.proposer] = self.treated.get(rec.proposer, 0.0) + delta
        self.seen_history = len(view.history)

    # ------------------------------------------------------------------ votes and values

    def need(self, view: GraenalandView) -> list[float]:
        """How much the seat wants each resource: the costs of its next goal builds, less its hand."""
        want = [0.0] * 5
        for _value, cost in self.targets(view)[:2]:
            for r in range(4):
                want[r] += cost[r]
        for r in range(4):
            want[r] = max(0.0, want[r] - view.hand_counts[r]) + 0.2
        want[GOLD] = max(want) + 0.3  # wild
        return want

    def card_value(self, view: GraenalandView, resource: int, need: list[float]) -> float:
        if resource < 0:
            return 1.0  # face down: unknown
        return 0.7 + 0.3 * min(1.0, need[resource])

    def potential(self, view: GraenalandView, values: tuple[int, ...]) -> float:
        """Goal progress: each goal met counts GOAL_WEIGHT, partial progress up to PROGRESS_WEIGHT. With a
        victory point card: each level met counts GOAL_WEIGHT, progress to the next level up to 0.5."""
        data = view.data
        if view.victory_card is not None:
            total = 0.0
            for v, levels, w in zip(values, view.victory_card, self._weights, strict=True):
                met = sum(1 for x in levels if v >= x)
                total += w * GOAL_WEIGHT * met
                if met < len(levels):
                    total += w * 0.5 * min(v, levels[met]) / levels[met]
            return total
        thr = _thresholds(data)
        weights: tuple[float, ...] = self._weights
        if self.focus > 0.0:
            chosen = self.plan(view)
            weights = tuple(w if g in chosen else w * (1.0 - self.focus) for g, w in enumerate(weights))
        total = 0.0
        for v, t, w in zip(values, thr, weights, strict=True):
            total += w * (PROGRESS_WEIGHT * min(v, t) / t + (GOAL_WEIGHT if v >= t else 0.0))
        return total

    def plan(self, view: GraenalandView) -> tuple[int, ...]:
        """The three goals (indices into GOALS) the seat can complete for the fewest resource cards from
        where it stands (victory needs three of five, graenaland.txt:225), remembered until the round or
        the seat's goal values change. Ties go to the lower goal indices."""
        key = (view.round, view.goals[view.seat])
        if self._plan_key != key:
            costs = goal_plan_costs(view)
            self._plan_key, self._plan = key, min(costs, key=lambda combo: (costs[combo], combo))
        return self._plan

    def standing(self, view: GraenalandView) -> tuple[float, tuple[int, ...], int]:
        """(the potential of the seat's goal values, its settlements per territory, its buildings),
        worked out once per view (a view never changes); the potentials of other goal values are
        remembered for the view too (``_potentials``)."""
        if self._standing_view is not view:
            seat = view.seat
            built = [(f == seat) + (c == seat) + (h == seat) for f, c, h in view.buildings]
            per = tuple([row[seat] + b for row, b in zip(view.villages, built, strict=True)])
            owned = sum(built)
            now = self.potential(view, view.goals[seat])
            self._standing_view, self._standing, self._potentials = view, (now, per, owned), {}
        return self._standing

    def after(self, view: GraenalandView, kind: str, t: int, settled: tuple[int, ...], owned: int
              ) -> tuple[int, ...]:
        """Goal values after building ``kind`` (a village, a building or an army step) at ``t``
        (victory.goal_values, seen from the view): the seat's values now, with one more settlement at
        ``t`` (``settled``: its settlements per territory), one more building (``owned`` now) or one
        more army strength."""
        total, pairs, largest, counted, army = view.goals[view.seat]
        if kind == "army":
            return (total, pairs, largest, counted, army + 1)
        here = settled[t] + 1
        if kind in BUILDINGS:  # with the three-player adjustments the first building does not count
            counted = owned if view.three else owned + 1
        size = view.data.goals["territory_size"]
        return (total + 1, pairs + (here == size), max(largest, here), counted, army)

    def build_value(self, view: GraenalandView, kind: str, t: int) -> float:
        base, settled, owned = self.standing(view)
        if kind in ("village", "army") or kind in BUILDINGS:
            values = self.after(view, kind, t, settled, owned)
            value = self._potentials.get(values)
            if value is None:
                value = self._potentials[values] = self.potential(view, values)
            gain = value - base
            if kind == "village" and view.villages[t][view.seat] == 0 and all(
                    o != view.seat for o in view.buildings[t]):
                gain += 0.15 * self.spread  # a new territory produces and votes for the seat
            if kind == "army":
                gain += 0.1
            if kind in BUILDINGS:
                gain += 0.1
            return gain
        if kind in ("road", "yield"):
            votes = view.votes[t]
            mine = votes[view.seat]
            return self.public * (1.0 if 2 * mine > sum(votes) else 0.3)
        return 0.0

    def targets(self, view: GraenalandView) -> list[tuple[float, Cost]]:
        """Builds the seat would like (value, cost), best first, whether affordable or not."""
        if getattr(self, "_targets_key", None) == (view.round, view.phase, view.goals):
            return self._targets
        seat, board, data = view.seat, view.board, view.data
        # without the goal planner (focus 0) the list is a function of these alone: kept for the game
        content = None if self.focus > 0.0 else (view.goals[seat], view.villages, view.buildings,
                                                   view.houses[seat], view.army[seat], view.victory_card)
        known = self._targets_seen.get(content) if content is not None else None
        if known is not None:
            self._targets_key, self._targets = (view.round, view.phase, view.goals), known
            return known
        own = [t for t in range(board.n) if view.villages[t][seat] or seat in view.buildings[t]]
        near = set(own)
        for t in own:
            near |= board.adjacent[t]
        out: list[tuple[float, Cost]] = []
        if view.houses[seat] > 0:
            for t in near:
                out.append((self.build_value(view, "village", t) / sum(board.village_cost[t]),
                            board.village_cost[t]))
            for t in own:
                if view.villages[t][seat] and board.allows_buildings(t):
                    for b, name in enumerate(BUILDINGS):
                        if view.buildings[t][b] < 0:
                            cost = data.costs[name]
                            out.append((self.build_value(view, name, t) / sum(cost), cost))
        if view.army[seat] < data.army_max:
            value = self.build_value(view, "army", -1)
            out.extend((value / sum(cost), cost) for cost in army_costs(view.buildings, board, data, seat))
        out.sort(key=lambda x: -x[0])
        self._targets_key, self._targets = (view.round, view.phase, view.goals), out
        if content is not None:
            self._targets_seen[content] = out
        return out

    # ------------------------------------------------------------------ heroes

    def expected(self, view: GraenalandView, votes: Sequence[Sequence[int]], worth: Sequence[float]) -> float:
        """Cards the seat can expect to win: all where it holds a majority, a vote share elsewhere
        (``worth``: the cards each territory offers, ``card_worth``)."""
        seat = view.seat
        total = 0.0
        for t, cards in enumerate(worth):
            v = votes[t]
            if v[seat] == 0:
                continue
            share = 1.0 if 2 * v[seat] > sum(v) else 0.5 * v[seat] / sum(v)
            total += cards * share
        return total

    @staticmethod
    def card_worth(view: GraenalandView) -> list[float]:
        """The cards at each territory, and one more where it is settled (next round's production)."""
        return [len(view.cards[t]) + (1.0 if any(view.villages[t]) or any(o >= 0 for o in view.buildings[t])
                                      else 0.0) for t in range(view.board.n)]

    def move(self, view: GraenalandView, options: Sequence[Move]) -> Move:
        """A move changes the votes only where the seat's heroes leave or arrive (its territory and the
        destination, where an own hero may swap, line 84): the others keep the counts of staying."""
        board = view.board
        staying, worth = view.votes, self.card_worth(view)
        counted: dict[tuple, list[int]] = {}  # (territory, which own heroes stand there) -> its votes
        best, best_value = STAY, self.expected(view, staying, worth)
        for option in options:
            if option == STAY:
                continue
            mine = list(view.heroes[view.seat])
            origin = mine[option.hero]
            dest = board.moves[origin][option.direction]
            for other, pos in enumerate(mine):
                if pos == dest:
                    mine[other] = origin
            mine[option.hero] = dest
            heroes = list(view.heroes)
            heroes[view.seat] = tuple(mine)
            votes: list[Sequence[int]] = list(staying)
            for t in (origin, dest):
                here = (t, *(pos == t for pos in mine))  # the others' heroes stand still: only the seat's
                if here not in counted:  # heroes on t change its count
                    counted[here] = tally(t, view.villages[t], view.buildings[t], view.public[t][PALISADE],
                                          heroes, view.army, view.three)
                votes[t] = counted[here]
            value = self.expected(view, votes, worth) + 1e-3 * self.rng.random()
            if value > best_value + 1e-9:
                best, best_value = option, value
        return best

    # ------------------------------------------------------------------ proposals and votes

    def coalition(self, view: GraenalandView, t: int, voters: tuple[int, ...]) -> dict[int, int] | None:
        """Cards per seat for a proposal on t: everything if the seat alone holds a majority, else the
        minimal winning coalition (largest partners first, the friendliest first among equals)."""
        seat = view.seat
        votes = view.votes[t]
        total = sum(votes[v] for v in voters)
        n_cards = len(view.cards[t])
        mine = votes[seat]
        if 2 * mine > total:
            return {seat: n_cards}
        others = sorted((v for v in voters if v != seat),
                        key=lambda v: (-votes[v], -self.treated.get(v, 0.0), v))
        chosen, have = [], mine
        for v in others:
            if 2 * have > total:
                break
            chosen.append(v)
            have += votes[v]
        if 2 * have <= total:
            return None
        shares: dict[int, int] = {}
        left = n_cards
        for v in chosen:
            want = self.generosity * votes[v] / total * n_cards
            give = min(left, max(1, int(want + 0.999)))
            shares[v] = give
            left -= give
        shares[seat] = left
        return shares

    def propose(self, view: GraenalandView, options) -> Propose:
        need = self.need(view)
        best, best_value = NO_PROPOSAL, 0.0
        for t, voters in options.territories():
            shares = self.coalition(view, t, voters)
            if shares is None or shares.get(view.seat, 0) == 0:
                continue
            cards = view.cards[t]
            # the seat keeps the cards it needs most; partners get the rest
            order = sorted(range(len(cards)), key=lambda i: -self.card_value(view, cards[i], need))
            receivers = [view.seat] * len(cards)
            pos = shares[view.seat]
            for v, k in shares.items():
                if v == view.seat:
                    continue
                for i in order[pos:pos + k]:
                    receivers[i] = v
                pos += k
            value = sum(self.card_value(view, cards[i], need) for i in order[:shares[view.seat]])
            if len(shares) > 1:
                value *= 0.8  # partners may still refuse
            if value > best_value:
                best, best_value = Propose(t, tuple(receivers)), value
        return best

    def vote(self, view: GraenalandView) -> Vote:
        proposer, t, receivers = proposal_voted(view)
        if proposer == view.seat:
            return Vote(True)
        n_cards = len(receivers)
        got = sum(1 for r in receivers if r == view.seat)
        total = sum(view.vote_weights)
        mine = view.votes[t][view.seat]
        worth: float
        if 2 * mine > total:
            worth = float(n_cards)  # the seat could take everything itself
        else:
            worth = self.holdout * mine / total * n_cards
        worth += self.grudge * max(0.0, -self.treated.get(proposer, 0.0))
        return Vote(got >= worth - 1e-9 and (got > 0 or worth <= 0))

    # ------------------------------------------------------------------ building

    def act(self, view: GraenalandView, options: Sequence[Action]) -> Action:
        step = self.final_step(view)
        if step is not None and step.action in options:
            self._step, self._fee = step, list(step.fee)
            return step.action
        self._step, self._fee = None, []
        supply = [o for o in options if o.kind == "supply"]
        if supply:
            return self.pick_supply(view, supply)
        best, best_value = None, 0.0
        for option in options:
            if option.kind in ("supply", "end", "joint", "offer"):
                continue
            kind, t = option.kind, option.territory
            cost = self.cost_of(view, kind, t)
            value = self.build_value(view, kind, t) / max(1, sum(cost))
            if value > best_value + 1e-12:
                best, best_value = option, value
        if best is not None:
            return best
        joint = self.joint_choice(view, options)
        if joint is not None:
            return joint
        return END if END in options else options[0]

    def joint_choice(self, view: GraenalandView, options: Sequence[Action]) -> Action | None:
        if self.contribute <= 0 or self.public <= 0:
            return None
        best, best_value = None, 0.0
        for option in options:
            if option.kind == "joint" and PUBLIC[option.index] in ("road", "yield"):
                value = self.build_value(view, PUBLIC[option.index], option.territory)
                shared = sum(1 for p, v in enumerate(view.votes[option.territory]) if v and p != view.seat)
                value *= 1.0 if shared else 0.0
                if value > best_value:
                    best, best_value = option, value
        return best

    def cost_of(self, view: GraenalandView, kind: str, t: int) -> tuple[int, int, int, int]:
        if kind == "village":
            return view.board.village_cost[t]
        if kind == "army":  # the cheapest price the seat's fortresses allow (lines 165-168)
            return min(army_costs(view.buildings, view.board, view.data, view.seat), key=sum)
        return view.data.costs[kind]

    def pick_supply(self, view: GraenalandView, supply: Sequence[Action]) -> Action:
        """The face-up supply card that pays for the best target (or covers the most needed resources)."""
        need = self.need(view)
        best, best_value = supply[0], -1.0
        for option in supply:
            pair = view.supply_row[option.index]
            sup = tuple(sorted((*view.supplies, pair)))
            value = sum(need[r] for r in pair) * 0.01
            for target_value, cost in self.targets(view)[:4]:
                if can_pay(cost, own_counts(view), sup, view.markets):
                    value += max(0.0, target_value)
                    break
            if value > best_value:
                best, best_value = option, value
        return best

    def final_step(self, view: GraenalandView) -> Step | None:
        """In a final building phase with a victory point card, where only points count (lines 315-316),
        the first build of a sequence reaching the most points the seat can reach from its view
        (``reach.most_points``: the same search that decides whether it may announce, line 311)."""
        if not view.final or view.victory_card is None:
            return None
        seat = view.seat
        position = Position(seat=seat, villages=view.villages, buildings=view.buildings, public=view.public,
                            army=view.army[seat], houses=view.houses[seat], hand=own_counts(view),
                            supplies=view.supplies, markets=view.markets, three=view.three,
                            levels=view.victory_card)
        steps = most_points(position, view.board, view.data).steps
        return steps[0] if steps else None

    def pay(self, view: GraenalandView, options: Sequence[Pay]) -> Pay:
        """The planned payment of a final building phase's plan (``final_step``); else exact resources
        before gold, gold before supply cards, marketplaces nearly free."""
        step = self._step
        if step is not None and pending_build(view)[:2] == step.action[:2]:
            for option in options:
                if (option.resources, option.supplies) == (step.pay.resources, step.pay.supplies):
                    return option
        need = self.need(view)

        def spent(p: Pay) -> float:
            cost = sum(c * (0.5 + 0.1 * need[r]) for r, c in enumerate(p.resources[:4]))
            return cost + 2.5 * p.resources[GOLD] + 3.0 * len(p.supplies) + 0.2 * p.markets

        return min(options, key=spent)

    def fee(self, view: GraenalandView, options: Sequence[Fee]) -> Fee:
        if self._fee and Fee(self._fee[0]) in options:
            return Fee(self._fee.pop(0))
        need = self.need(view)
        return min(options, key=lambda f: (need[f.resource], f.resource))

    def offer(self, view: GraenalandView, options: Sequence[Contribute]) -> Contribute:
        """Contribute to a joint road/yield improvement where the seat has a vote, up to ``contribute`` of
        the cost, with the cards it needs least; never gold."""
        if self.contribute <= 0:
            return NOTHING
        _kind, t, k, need_cost = pending_build(view)
        if view.votes[t][view.seat] == 0 or PUBLIC[k] not in ("road", "yield"):
            return NOTHING
        limit = int(self.contribute * sum(view.data.costs[PUBLIC[k]]) + 0.5)
        need = self.need(view)
        best, best_key = NOTHING, (0, 0.0)
        for option in options:
            res = option.resources
            if res[GOLD] or sum(res) > limit:
                continue
            key = (sum(res), -sum(need[r] * c for r, c in enumerate(res)))
            if key > best_key:
                best, best_key = option, key
        return best


SETTLEMENTS, TERRITORIES, LARGEST, BUILDINGS_GOAL, ARMY = range(5)  # GOALS order


@lru_cache(maxsize=8)
def _thresholds(data: GraenalandData) -> tuple[int, ...]:
    """What each goal needs (graenaland.txt:226-231), in GOALS order."""
    return tuple(data.goals[name] for name in GOALS)


def goal_plan_costs(view: GraenalandView) -> dict[tuple[int, ...], float]:
    """Estimated resource cards to complete each set of three goals (GOALS indices) from the seat's
    position, counting one build towards every goal it serves: buildings placed on the territory grown
    for Largest (a building needs an own village there and a free slot, none in the mountains, lines
    151-153), villages of Largest towards the Territories' pairs, and every village or building towards
    Settlements; an army step at the cheapest price the seat's fortresses allow. A set that needs more
    houses than the seat has left, or an army past the maximum, costs infinity."""
    seat, board, data = view.seat, view.board, view.data
    goals = data.goals
    n = board.n
    per = [view.villages[t][seat] + sum(1 for o in view.buildings[t] if o == seat) for t in range(n)]
    values = view.goals[seat]
    own = [t for t in range(n) if per[t] > 0]
    reach = set(own)
    for t in own:
        reach |= board.adjacent[t]
    vcost = [sum(board.village_cost[t]) for t in range(n)]
    cheapest_village = min((vcost[t] for t in reach), default=math.inf)
    bcost = min(sum(data.costs[name]) for name in BUILDINGS)
    slots = [sum(1 for o in view.buildings[t] if o < 0) if board.allows_buildings(t) else 0 for t in range(n)]
    need_s = max(0, goals["settlements"] - values[SETTLEMENTS])
    need_b = max(0, goals["buildings"] - values[BUILDINGS_GOAL])
    need_a = max(0, goals["army"] - values[ARMY])
    if need_a and view.army[seat] + need_a > data.army_max:
        army_cards = math.inf
    else:
        army_cards = float(need_a * min(map(sum, army_costs(view.buildings, board, data, seat))))
    size, largest = goals["territory_size"], goals["largest"]
    out: dict[tuple[int, ...], float] = {}
    for combo in itertools.combinations(range(5), 3):
        cards, builds = 0.0, 0
        at = [0] * n  # builds planned per territory
        placed_b = 0
        if ARMY in combo:
            cards += army_cards
        if LARGEST in combo and values[LARGEST] < largest:
            best = None
            for t in own:
                d = largest - per[t]
                room = slots[t] if view.villages[t][seat] else 0
                b = min(d, room, need_b if BUILDINGS_GOAL in combo else 0)
                c = b * bcost + (d - b) * vcost[t]
                if best is None or c < best[0]:
                    best = (c, t, d, b)
            if best is None:
                cards = math.inf
            else:
                c, t, d, placed_b = best
                cards += c
                at[t] += d
                builds += d
        if BUILDINGS_GOAL in combo:
            rest = need_b - placed_b
            cards += rest * bcost
            builds += rest
        if TERRITORIES in combo and values[TERRITORIES] < goals["territories"]:
            gaps = sorted((max(0, size - per[t] - at[t]) * vcost[t], max(0, size - per[t] - at[t]))
                          for t in reach)[: goals["territories"]]
            cards += sum(c for c, _ in gaps)
            builds += sum(k for _, k in gaps)
        if SETTLEMENTS in combo:
            rest = max(0, need_s - builds)
            cards += rest * cheapest_village
            builds += rest
        if builds > view.houses[seat]:
            cards = math.inf
        out[combo] = cards
    return out


class GreedyStrategy(GraenalandBase):
    """Moves its heroes where it expects to win the most cards by vote; proposes to take everything where
    it alone holds a majority, and otherwise offers the smallest winning coalition shares in proportion to
    their votes; accepts a fair share; builds towards the goals that advance most; never pays for public
    works."""

    name = "greedy"


class CooperativeStrategy(GraenalandBase):
    """Plays the rulebook's cooperative tips: generous splits, accepts a little less, remembers who
    treated it unfairly, builds roads and yield improvements early and pays towards joint buildings."""

    name = "cooperative"
    params = {**GraenalandBase.params, "generosity": (float, 1.3), "holdout": (float, 0.6),
              "grudge": (float, 1.0), "public": (float, 0.25), "contribute": (float, 0.5)}


class RivalStrategy(GraenalandBase):
    """Plays the rulebook's rival tips: concentrates its force on few territories with a strong army,
    makes stingy splits, holds out for more and never helps pay for public buildings."""

    name = "rival"
    params = {**GraenalandBase.params, "generosity": (float, 0.7), "holdout": (float, 1.0),
              "grudge": (float, 1.0), "army": (float, 1.5), "spread": (float, 0.6)}


class WarlordStrategy(GraenalandBase):
    """A warrior-heavy player: it raises its army first and wins votes by force; otherwise it plays like
    greedy."""

    name = "warlord"
    params = {**GraenalandBase.params, "army": (float, 2.5), "holdout": (float, 0.9)}


class PlannerStrategy(GraenalandBase):
    """The greedy player with its goal planner on (focus 0.8): it works out which three of the five
    goals its position completes for the fewest cards, since victory needs three, and builds for those,
    weighing the other two at a fifth of their value."""

    name = "planner"
    params = {**GraenalandBase.params, "focus": (float, 0.8)}


__all__ = ["GreedyStrategy", "CooperativeStrategy", "RivalStrategy", "WarlordStrategy", "PlannerStrategy",
           "DIRECTIONS"]
