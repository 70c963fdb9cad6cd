"""Scripted Knarr strategies: ``greedy``; archetypes ``collector``, ``trader``, ``hoarder``, ``architect``.

All of them see only their seat's view (``sim.games.knarr.view.KnarrView``) and rate every legal
option by one shared one-ply valuation: assets at fixed weights (reputation by the turns left to earn
income from it), trade-row columns by the trades expected in the rest of the game, crew cards by what
they add to later recruits and payments, Buildings by their rows times the expected activations.
Paying a cost or discarding (ruling R4: the player chooses the Vikings) gives up the Vikings whose assets
cost least: a Viking's asset is lost on every later recruit into its column.
The archetypes change the weights:

* ``collector``: races Lands of Influence; new colours in the crew and the cards visible Lands ask for.
* ``trader``: a trade-row engine; Trading Lands' rows count double, bracelets are banked to trade 3.
* ``hoarder`` (expansion): hoards raid tokens and buys Buildings with raid bonuses.
* ``architect`` (expansion): coins and Buildings first, a Building engine.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from sim.games.knarr.data import (
    BRACELET,
    COIN,
    COLOURS_COST,
    N_ASSETS,
    RAID,
    RECRUIT,
    REP,
    SAME,
    KnarrData,
)
from sim.games.knarr.state import HELMET, Option
from sim.games.knarr.view import KnarrView
from sim.strategy import Strategy

#: expected share of future actions per activation row (explore B, explore A, recruit old, recruit new)
ROW_SHARE = (0.15, 0.25, 0.4, 0.2)


class KnarrBase(Strategy):
    """One-ply valuation; parameters are the weights (see module doc)."""

    name = "knarr-base"
    games = ("knarr",)
    params: ClassVar[dict[str, tuple[type, Any]]] = {
        "bracelet": (float, 0.9),
        "recruit": (float, 0.8),
        "rep": (float, 0.12),
        "card": (float, 0.9),
        "coin": (float, 0.6),
        "raid": (float, 0.5),
        "row": (float, 1.0),
        "influence": (float, 1.0),
        "trading": (float, 1.0),
        "building": (float, 1.0),
        "new_colour": (float, 0.0),
        "trade_min": (int, 1),
        "need": (float, 0.0),
    }
    # the weights as instance attributes, set by ``Strategy.__init__`` from ``params`` (same names, types)
    bracelet: float
    recruit: float
    rep: float
    card: float
    coin: float
    raid: float
    row: float
    influence: float
    trading: float
    building: float
    new_colour: float
    trade_min: int
    need: float

    # ------------------------------------------------------------------ helpers
    def turns_left(self, v: KnarrView) -> float:
        lead = max(v.vp)
        return max(1.0, (40 - lead) / 3.0 + 1)

    def worth(self, v: KnarrView, g: Sequence[int]) -> float:
        rep = self.rep * self.turns_left(v)
        w = [1.0, self.bracelet, self.recruit, rep, self.card, self.coin, self.raid, 0.3]
        if v.bracelets[v.seat] >= 3:
            w[BRACELET] *= 0.3
        if v.recruits[v.seat] >= 3:
            w[RECRUIT] *= 0.3
        if v.rep[v.seat] >= 14:
            w[REP] = 0.0
        if not v.rules.get("skali"):
            w[COIN] = w[RAID] = 0.0
        elif v.coins[v.seat] >= 3:
            w[COIN] *= 0.3
        return sum(w[a] * g[a] for a in range(N_ASSETS) if g[a])

    def row_worth(self, v: KnarrView, row) -> float:
        trades = self.turns_left(v) / 2.5
        use = (1.0, 0.7, 0.45) if self.trade_min < 3 else (1.0, 1.0, 1.0)
        return self.row * trades * sum(u * self.worth(v, col) for u, col in zip(use, row, strict=True))

    def needed_colours(self, v: KnarrView, data: KnarrData) -> list[float]:
        need = [0.0] * 5
        for d in v.visible[3:]:
            if d >= 0 and data.destinations[d].cost_kind == COLOURS_COST:
                for c, n in enumerate(data.destinations[d].cost):
                    need[c] += n / 5
        return need

    def village(self, v: KnarrView, data: KnarrData, row: int) -> list[int]:
        if not v.rules.get("skali"):
            return [0] * N_ASSETS
        g = list(data.skali_rows[row])
        for b in v.buildings[v.seat]:
            g = [x + y for x, y in zip(g, data.buildings[b].rows[row], strict=True)]
        if v.n_players == 2:
            g = [x + y for x, y in zip(g, data.special_rows[row], strict=True)]
        return g

    def crew_card(self, v: KnarrView, data: KnarrData, colour: int) -> float:
        base = 0.7 + self.need * self.needed_colours(v, data)[colour]
        if not v.crews[v.seat][colour]:
            base += self.new_colour
        return base

    def column_uses(self, v: KnarrView, colour: int) -> float:
        """Expected later recruits into ``colour``: the hand's Vikings of that colour and a share of the
        turns left (A.5 Recruit step 2 gains every card of the column again)."""
        data: KnarrData = v.data
        hand = sum(data.viking_colour[x] == colour for x in v.hand)
        return 0.6 * hand + 0.05 * self.turns_left(v)

    def asset_loss(self, v: KnarrView, cards: Sequence[int]) -> float:
        """What discarding ``cards`` from the crew costs in later column gains (ruling R4)."""
        data: KnarrData = v.data
        total = 0.0
        for x in cards:
            g = [0] * N_ASSETS
            g[data.viking_asset[x]] = 1
            total += self.column_uses(v, data.viking_colour[x]) * self.worth(v, g)
        return total

    # ------------------------------------------------------------------ option values
    _memo: dict[Any, float] = {}
    _memo_view: KnarrView | None = None

    def explore_value(self, v: KnarrView, o: Option) -> float:
        """An Explore's value before the Vikings it gives up (shared by the options differing only in
        ``cards``, ruling R4)."""
        data: KnarrData = v.data
        d = data.destinations[o.b]
        val = self.worth(v, d.gain) + self.row_worth(v, d.row)
        val *= self.influence if d.deck == "B" else self.trading
        val += self.worth(v, self.village(v, data, 0 if d.deck == "B" else 1))
        val -= sum(o.pay[c] * self.crew_card(v, data, c) * 0.8 for c in range(5) if o.pay[c])
        val -= o.pay[5] * self.recruit
        if d.cost_kind == SAME:
            val += 0.5
        owned = v.owned[v.seat]
        if (
            HELMET in v.artifacts
            and d.deck == "B"
            and v.rules.get("helmet", "stack") == "stack"
            and owned
            and data.destinations[owned[-1]].deck == "A"
        ):
            val += 1.0  # ruling R16: an extra Recruit
        return val

    def value(self, v: KnarrView, o: Option) -> float:
        k = o.kind
        if k == "recruit":
            return self.recruit_value(v, o)
        if k == "explore":
            memo = self._memo if self._memo_view is v else {}
            key = (o.b, o.pay)
            if key not in memo:
                memo[key] = self.explore_value(v, o)
            for x in o.cards:
                if x not in memo:
                    memo[x] = self.asset_loss(v, (x,))
            return memo[key] - sum(memo[x] for x in o.cards)
        if k == "trade":
            return self.trade_value(v, o)
        if k == "develop":
            return self.develop_value(v, o)
        if k == "discard":
            return -1.0 + 0.1 * len(v.crews[v.seat][o.a]) - self.asset_loss(v, (o.b,))
        if k == "reserve":
            return 0.2 * self.worth(v, v.data.destinations[o.b].gain)
        if k == "cover":
            return 1.5 - self.row_worth(v, v.data.destinations[o.b].row)
        if k in ("renew", "swap"):
            return -0.05
        return 0.0  # end, pass, skip

    def recruit_value(self, v: KnarrView, o: Option) -> float:
        data: KnarrData = v.data
        me = v.seat
        c = data.viking_colour[o.a]
        g = [0] * N_ASSETS
        for x in (*v.crews[me][c], o.a):
            g[data.viking_asset[x]] += 1
        new = not v.crews[me][c]
        val = self.worth(v, g) + self.crew_card(v, data, c)
        val += self.worth(v, self.village(v, data, 3 if new else 2))
        if o.b >= 0:
            taken = v.board[o.b]
            val += 0.3 + 0.15 * len(v.crews[me][data.viking_colour[taken]])
            if o.b != c:
                val -= self.recruit
        return val

    def trade_value(self, v: KnarrView, o: Option) -> float:
        data: KnarrData = v.data
        me = v.seat
        if o.a < self.trade_min and v.bracelets[me] < 3:
            return -1.0
        rows = [data.ship[str(v.rules.get("ship", "normal"))]]
        rows += [data.destinations[d].row for d in v.owned[me] if d not in v.covered[me]]
        g = [0] * N_ASSETS
        for row in rows:
            for col in row[: o.a]:
                g = [x + y for x, y in zip(g, col, strict=True)]
        return self.worth(v, g) - o.a * self.bracelet * 0.8

    def develop_value(self, v: KnarrView, o: Option) -> float:
        b = v.data.buildings[v.display[o.a]]
        t = self.turns_left(v)
        val = sum(ROW_SHARE[r] * t * self.worth(v, b.rows[r]) for r in range(4))
        raids = self.worth(v, b.most_raid) * (1 + self.raid) + self.worth(v, b.fewest_raid)
        val += 0.25 * t / 3 * raids
        return self.building * val - b.cost * self.coin * 0.7

    def choose(self, view: KnarrView, options: Sequence[Option]) -> Option:
        self._memo, self._memo_view = {}, view  # one decision's Explore values (``explore_value``)
        best, best_v = [], -1e18
        for o in options:
            val = self.value(view, o)
            if val > best_v + 1e-9:
                best, best_v = [o], val
            elif val >= best_v - 1e-9:
                best.append(o)
        return best[int(self.rng.integers(len(best)))] if len(best) > 1 else best[0]


class GreedyStrategy(KnarrBase):
    """Takes the option worth most at once, at the default weights: assets at fixed values (reputation by
    the turns left to earn income from it), trade rows by the trades expected in the rest of the game, crew
    cards by what they add to later recruits and payments, Buildings by their rows times the expected
    activations; it pays with the Vikings whose assets it will miss least."""

    name = "greedy"


class CollectorStrategy(KnarrBase):
    """Races for Lands of Influence and keeps a broad crew of the colours they ask for; otherwise it plays
    like greedy."""

    name = "collector"
    params = KnarrBase.params | {
        "influence": (float, 1.5),
        "new_colour": (float, 0.6),
        "need": (float, 1.0),
        "trading": (float, 0.7),
    }


class TraderStrategy(KnarrBase):
    """Builds a trade-row engine: Trading Lands' rows count double and it saves bracelets to trade three
    at a time; otherwise it plays like greedy."""

    name = "trader"
    params = KnarrBase.params | {
        "row": (float, 2.0),
        "bracelet": (float, 1.2),
        "trade_min": (int, 3),
        "influence": (float, 0.8),
    }


class HoarderStrategy(KnarrBase):
    """For the expansion: hoards raid tokens to win raids and likes Buildings with raid bonuses; otherwise
    it plays like greedy."""

    name = "hoarder"
    params = KnarrBase.params | {"raid": (float, 1.6)}


class ArchitectStrategy(KnarrBase):
    """For the expansion: a Building engine, with coins and Buildings weighing more; otherwise it plays
    like greedy."""

    name = "architect"
    params = KnarrBase.params | {"coin": (float, 1.1), "building": (float, 1.8)}
