"""Scripted Greenland strategies: ``greedy``; archetypes ``spreader`` and ``elder``.

All of them see only their seat's view (``sim.games.greenland.view.GreenlandView``) and rate every legal
option by one shared valuation: a hunt by its chance of success (binomial over the dice, with the Alpha's
automatic hit and re-rolls counted as extra dice, at most one per rolled die) times the reward, less the
Hunters the bloody faces are expected to kill. Hunters are assigned by a planned hunt: sending a Hunter to a
card is worth the best gain per tribesman of sending the whole party there (k more Hunters at once, the Alpha
with them where it is still free, k up to the pool and what the Mariners can carry), so a card needing three
hits is valued by the party that can take it, not by a first die that alone never can. An elder is worth its
rank's use for the generations left; energy is worth a life while the fuel upkeep (ruling G16) is not
covered by the store and a prudent share of what the hunts under way are expected to bring in (``reserve``:
energy kept back over it); a promotion or a baby that would leave the upkeep short costs a life.
``convert_at``: the first generation in which the tribe converts to monotheism (and burns its elders for it)
when iron + ivory would outscore its Trophies; 99 = never, also under ``--rule conversion=any``. The
archetypes change the weights:

* ``spreader``: a hunter that spreads widely and takes risks: lives are cheap, every new card is worth a
  bonus, Mariners and colonists are sought, iron is never spent on a hunt; never converts.
* ``elder``: a cautious elder-builder: lives are dear, Hunters avoid bloody cards and spend iron, elders are
  promoted and their actions bank iron and ivory; from generation 6, once iron + ivory would outscore its
  Trophies, it burns its elders (Shaman) and converts to monotheism.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from math import comb
from typing import Any, ClassVar

from sim.games.greenland.data import GreenlandData
from sim.games.greenland.state import (
    ALPHA_POOL,
    ASSIGN,
    CARD,
    DOMESTIC,
    ELDER,
    HUNT,
    MARRY,
    NEGOTIATE,
    POLY,
    SUNSTONE,
    TPLACE,
    Option,
)
from sim.games.greenland.view import GreenlandView
from sim.strategy import Strategy

#: how much an elder of each rank is worth per generation left (Chief .. Mariner)
RANK_USE = (0.25, 0.3, 0.3, 0.3, 0.45, 0.35)
#: the most Hunters a planned hunt sends to one card at once
MAX_PARTY = 8
#: what the Alpha's automatic hit (line 55) is worth over an ordinary tribesman's die, in lives: lost for good
#: when the Alpha is promoted (an elder never hunts again)
ALPHA_EDGE = 0.5
#: the share of the hunts' expected energy counted on for the upkeep (rivals, withdrawals and bad rolls
#: take the rest: measured, the hunts bring in about two thirds of what the plan expects)
PRUDENCE = 0.65


@lru_cache(maxsize=4096)
def p_at_least(n: int, p: float, k: int) -> float:
    """P(at least k successes in n dice with success chance p)."""
    if k <= 0:
        return 1.0
    if n < k:
        return 0.0
    return sum(comb(n, i) * p**i * (1 - p) ** (n - i) for i in range(k, n + 1))


def _hunt_value(terms: tuple[float, float, int, int, float, float], n: int, alpha: bool, risk: float,
                life: float) -> float:
    """``GreenlandBase.hunt_value`` from a card's ``hunt_terms``: the chance that ``n`` dice (plus the
    Alpha's automatic hit) take it times the reward, less the Hunters its bloody faces are expected to
    kill (``risk`` and ``life`` the strategy's weights)."""
    if n == 0 and not alpha:
        return 0.0
    p, q, need, rr, factor, reward = terms
    return p_at_least(n + min(rr, n), p, need - alpha) * factor * reward - risk * n * q * life


class GreenlandBase(Strategy):
    """One-ply valuation; the parameters are its weights (see the module doc)."""

    name = "greenland-base"
    games = ("greenland",)
    params: ClassVar[dict[str, tuple[type, Any]]] = {
        "life": (float, 2.5),
        "energy": (float, 1.0),
        "ivory": (float, 0.8),
        "iron": (float, 0.8),
        "trophy": (float, 1.0),
        "spread": (float, 0.0),
        "risk": (float, 1.0),
        "elder": (float, 1.0),
        "colonist": (float, 0.6),
        "iron_hunt": (float, 1.0),
        "breed_margin": (int, 1),
        "convert_at": (int, 99),
        "stand": (float, 1.0),
        "reserve": (int, 0),
    }
    # the weights as instance attributes, set by ``Strategy.__init__`` from ``params`` (same names, types)
    life: float
    energy: float
    ivory: float
    iron: float
    trophy: float
    spread: float
    risk: float
    elder: float
    colonist: float
    iron_hunt: float
    breed_margin: int
    convert_at: int
    stand: float
    reserve: int

    _ew_for: Any = None
    _ew: float = 0.0
    _cards_for: Any = None
    _cards: dict[int, tuple[float, float, int, int, float]]
    _terms: dict[int, tuple[float, float, int, int, float, float]]
    _dice: dict[tuple[Any, ...], tuple[float, float, int, int]]
    _plans: dict[tuple[int, bool], float]
    _transport: dict[int, bool]

    def __init__(self, seat: int, rng: Any, **params: Any) -> None:
        super().__init__(seat, rng, **params)
        self._dice = {}  # a die's odds by what they depend on (card_info), for the whole game

    def _fresh(self, v: GreenlandView) -> None:
        """Start this decision's memos (what the helpers below compute from the view ``v``) if ``v`` is a
        new view: every one of them is a function of the view alone."""
        if self._cards_for is not v:
            self._cards, self._terms, self._plans, self._transport = {}, {}, {}, {}
            self._cards_for = v

    # ------------------------------------------------------------------ helpers
    def gens_left(self, v: GreenlandView) -> int:
        return v.events_left + 1

    def faces(self, v: GreenlandView, card: int) -> tuple[set[int], set[int], int, bool]:
        """(hits, bloody, need, cold) as rules.faces computes them, from the view."""
        d: GreenlandData = v.data
        if card >= TPLACE:  # a raid (line 70)
            t = d.tcards[card - TPLACE]
            return set(t.raid_hits), set(t.raid_bloody) - set(t.raid_hits), 1, False
        b = d.biomes[card]
        cold = card in v.cold[0] or card in v.cold[1]
        hits = set(d.die["cold_hits"] if cold else d.die["warm_hits"])
        hostile = card in v.hostile
        bloody = set(b.bloody_hostile if hostile else b.bloody)
        if cold:
            bloody |= set(d.die["cold_bloody"])
        hits |= {f for c in v.tableau[v.seat] for t, f in d.tcards[c].modifiers if t == b.type}
        return hits, bloody - hits, (b.need_hostile if hostile else b.need), cold

    def rerolls(self, v: GreenlandView, kind: str) -> int:
        d: GreenlandData = v.data
        n = sum(
            k for r, rank in enumerate(d.ranks) if v.elders[v.seat][r] for t, k in rank.rerolls if t == kind
        )
        return n + sum(k for c in v.tableau[v.seat] for t, k in d.tcards[c].rerolls if t == kind)

    def upkeep_due(self, v: GreenlandView, babies: int = 0) -> int:
        """The fuel upkeep (ruling G16) the tribe's living tribesmen (and ``babies`` more) will burn."""
        per = int(v.data.setup["upkeep_per"])
        if v.rules.get("upkeep", "fuel") != "fuel" or per <= 0:
            return 0
        s = v.seat
        pop = (
            v.pool[s]
            + sum(v.hunters[s].values())
            + sum(v.colonists[s].values())
            + sum(v.husbands[s].values())
            + sum(v.elders[s])
            + (v.alpha[s] >= ALPHA_POOL)  # a promoted or married Alpha is counted with the elders / Husbands
            + babies
        )
        return -(-pop // per)

    def income(self, v: GreenlandView) -> float:
        """Energy the tribe's hunts still to be rolled this generation are expected to bring in."""
        if v.phase not in (ASSIGN, SUNSTONE, NEGOTIATE, HUNT):
            return 0.0
        s = v.seat
        cards = set(v.hunters[s]) | set(v.colonists[s])
        if v.alpha[s] >= 0:
            cards.add(v.alpha[s])
        biomes = v.data.biomes
        total = 0.0
        for c in cards:
            if c >= TPLACE or not biomes[c].energy or (v.phase == HUNT and c not in v.cards_left):
                continue
            n, alpha = self.my_on(v, c), v.alpha[s] == c
            if n or alpha:
                total += self.success(v, c, n, alpha) * biomes[c].energy
        return total

    def energy_short(self, v: GreenlandView) -> float:
        """How much energy the upkeep still lacks (with ``reserve`` kept over it), expected hunts counted."""
        return self.upkeep_due(v) + self.reserve - v.energy[v.seat] - PRUDENCE * self.income(v)

    def energy_w(self, v: GreenlandView) -> float:
        """Energy's worth now: a life when the fuel upkeep is short (cached per decision)."""
        if self._ew_for is not v:
            # graded over the last energy before the upkeep is covered: an expected income is not a sure one
            short = min(1.0, max(0.0, self.energy_short(v) + 1.0))
            self._ew = self.energy + short * max(0.0, 0.9 * self.life - self.energy)
            self._ew_for = v
        return self._ew

    def mono_points(self, v: GreenlandView) -> int:
        s = v.seat
        return v.iron[s] + v.ivory[s] + sum(v.data.tcards[c].vp for c in v.tableau[s])

    def poly_points(self, v: GreenlandView) -> int:
        return sum(v.data.biomes[c].trophy for c in v.trophies[v.seat])

    def converting(self, v: GreenlandView) -> bool:
        return (
            v.religion[v.seat] == POLY
            and v.generation >= self.convert_at
            and self.mono_points(v) > self.poly_points(v) + 1
        )

    def reward(self, v: GreenlandView, card: int) -> float:
        b = v.data.biomes[card]
        life = self.life
        trophy = self.trophy * b.trophy if v.religion[v.seat] == POLY else 0.0
        babies = min(b.babies, v.valhalla[v.seat])
        iv = self.ivory * (1.3 if v.religion[v.seat] != POLY or self.converting(v) else 1.0)
        return (
            babies * life * 0.9
            + b.energy * self.energy_w(v)
            + b.ivory * iv
            + b.iron * self.iron
            + trophy
            + self.spread
        )

    def card_info(self, v: GreenlandView, card: int) -> tuple[float, float, int, int, float]:
        """(hit chance, death chance, hits needed, re-rolls, share of success left by rivals) of a die on
        ``card``, from the view (cached per decision)."""
        self._fresh(v)
        info = self._cards.get(card)
        if info is None:
            seat = v.seat
            # the die's odds, need and re-rolls depend only on these (faces, rerolls): kept for the game
            key = (card, card in v.cold[0] or card in v.cold[1], card in v.hostile, v.tableau[seat],
                   v.elders[seat])
            dice = self._dice.get(key)
            if dice is None:
                hits, bloody, need, _ = self.faces(v, card)
                dice = self._dice[key] = (len(hits) / 6, len(bloody) / 6, need,
                                          self.rerolls(v, v.data.biomes[card].type))
            others = any(
                v.hunters[s].get(card, 0) or v.alpha[s] == card for s in range(v.n_players) if s != seat
            )
            factor = 0.45 if others and not v.data.biomes[card].new_world else 1.0
            info = self._cards[card] = (*dice, factor)
        return info

    def success(self, v: GreenlandView, card: int, n: int, alpha: bool) -> float:
        """The chance that ``n`` dice (plus the Alpha's automatic hit) take ``card``: at least ``need``
        hits, re-rolls counted as extra dice (at most one per rolled die, line 71), less the rivals' share."""
        p, _, need, rr, factor = self.card_info(v, card)
        return p_at_least(n + min(rr, n), p, need - alpha) * factor

    def hunt_value(self, v: GreenlandView, card: int, n: int, alpha: bool) -> float:
        """Expected value of ``n`` dice (plus the Alpha's automatic hit) on ``card``: the chance of success
        times the reward, less the Hunters the bloody faces are expected to kill."""
        if n == 0 and not alpha:
            return 0.0
        return _hunt_value(self.hunt_terms(v, card), n, alpha, self.risk, self.life)

    def hunt_terms(self, v: GreenlandView, card: int) -> tuple[float, float, int, int, float, float]:
        """``card_info`` of ``card`` and its ``reward`` (cached per decision), what ``hunt_value`` needs."""
        self._fresh(v)
        terms = self._terms.get(card)
        if terms is None:
            terms = self._terms[card] = (*self.card_info(v, card), self.reward(v, card))
        return terms

    def needs_transport(self, v: GreenlandView, card: int) -> bool:
        """Lines 46-48 from the view: a Mariner outside the homeland (a sled will do in Greenland)."""
        self._fresh(v)
        known = self._transport.get(card)
        if known is None:
            known = self._transport[card] = self._needs_transport(v, card)
        return known

    def _needs_transport(self, v: GreenlandView, card: int) -> bool:
        d: GreenlandData = v.data
        my_home = d.tribes[v.tribe[v.seat]].home
        sled = any(d.tcards[c].sled for c in v.tableau[v.seat])
        if card >= TPLACE:
            other = next((s for s in range(v.n_players) if card - TPLACE in v.tableau[s]), -1)
            return other >= 0 and d.tribes[v.tribe[other]].home != my_home and not sled
        b = d.biomes[card]
        return b.new_world or (b.row != my_home and not sled)

    def room(self, v: GreenlandView, card: int) -> int:
        """How many more tribesmen (the Alpha included) the tribe can carry to ``card`` this generation
        (line 46, ruling G4: one Mariner per started group of ``mariner_capacity``)."""
        if not self.needs_transport(v, card):
            return MAX_PARTY
        d: GreenlandData = v.data
        cap = int(d.setup["mariner_capacity"])
        s = v.seat
        mariners = v.elders[s][5] + sum(d.tcards[c].transport for c in v.tableau[s])
        used = sum(-(-k // cap) for c, k in v.placed.items() if k > 0 and self.needs_transport(v, c))
        k = v.placed.get(card, 0)
        return max(0, (-k) % cap + (mariners - used) * cap)

    def plan_rate(self, v: GreenlandView, card: int, alpha_joins: bool) -> float:
        """A whole hunt planned on ``card``: the best gain per tribesman of sending j more Hunters at once
        (j = 1 .. what the pool and the transport allow; with ``alpha_joins`` the Alpha goes too and counts
        as one of them), so that a card needing three hits is valued by the party that can take it, not by
        its first die alone."""
        self._fresh(v)
        rate = self._plans.get((card, alpha_joins))
        if rate is None:
            rate = self._plans[card, alpha_joins] = self._plan_rate(v, card, alpha_joins)
        return rate

    def _plan_rate(self, v: GreenlandView, card: int, alpha_joins: bool) -> float:
        s = v.seat
        n, alpha = self.my_on(v, card), v.alpha[s] == card
        base = self.hunt_value(v, card, n, alpha)
        room = min(self.room(v, card), MAX_PARTY) - alpha_joins
        top = min(v.pool[s], room)
        best = -1e9
        terms, joined = self.hunt_terms(v, card), alpha or alpha_joins
        for j in range(0 if alpha_joins else 1, top + 1):
            rate = (_hunt_value(terms, n + j, joined, self.risk, self.life) - base) / (j + alpha_joins)
            if rate > best:
                best = rate
        return best

    def my_on(self, v: GreenlandView, card: int) -> int:
        return v.hunters[v.seat].get(card, 0) + v.colonists[v.seat].get(card, 0)

    def value(self, v: GreenlandView, o: Option) -> float:
        k = o.kind
        if k == "hunt":
            return self.hunt_option_value(v, o)
        if k == "alpha":
            return self.alpha_value(v, o.a)
        if k in ("raid", "guard"):
            return self.raid_value(v, o)
        if k == "promote":
            return self.promote_value(v, o)
        if k == "move":
            return self.move_value(v, o)
        return 0.0  # "done", and any kind this player does not weigh

    def hunt_option_value(self, v: GreenlandView, o: Option) -> float:
        gain = self.plan_rate(v, o.a, False)
        if v.data.biomes[o.a].new_world:  # a colonist stays and hunts every generation
            return gain * self.colonist * max(1, self.gens_left(v) // 2)
        if v.alpha[v.seat] == ALPHA_POOL:  # the Alpha is still to place
            gain = max(gain, self.plan_rate(v, o.a, True))
        return gain

    def promote_value(self, v: GreenlandView, o: Option) -> float:
        s = v.seat
        if self.converting(v):
            return -5.0
        use = RANK_USE[o.a] * self.elder * self.gens_left(v) / (1 + v.elders[s][o.a])
        if o.a == 5:  # a Mariner opens the other row and the New World
            use *= 1.0 + self.spread
        cost = int(v.data.setup["promotion_energy"])
        if v.energy[s] - cost < self.upkeep_due(v) + self.reserve:  # the fuel upkeep would take a life
            return use - cost * self.energy_w(v) - 1.2 * self.life
        return use - cost * self.energy_w(v) - 0.2 * self.life

    def move_value(self, v: GreenlandView, o: Option) -> float:
        """Line 54: the gain where the tribesman goes, less the loss where it was."""
        if o.a >= TPLACE:
            loss = self.raid_value(v, self.tableau_option(v, o.a))
        elif o.c == 1:
            n = self.my_on(v, o.a)
            loss = self.hunt_value(v, o.a, n, True) - self.hunt_value(v, o.a, n, False)
        else:
            n = self.my_on(v, o.a)
            alpha = v.alpha[v.seat] == o.a
            loss = self.hunt_value(v, o.a, n, alpha) - self.hunt_value(v, o.a, n - 1, alpha)
        if o.c == 1:
            gain = self.alpha_value(v, o.b, moved=True)
        elif o.b < 0:
            gain = self.value(v, Option("promote", -1 - o.b))
        elif o.b >= TPLACE:
            gain = self.raid_value(v, self.tableau_option(v, o.b))
        else:
            gain = self.value(v, Option("hunt", o.b))
        return gain - max(loss, 0.0) - 0.5

    def tableau_option(self, v: GreenlandView, place: int) -> Option:
        """A tribesman on a tableau card: a Guard on one's own card or a daughter one is married to, else a
        Raider (lines 52-53)."""
        t = place - TPLACE
        mine = t in v.tableau[v.seat] or v.husbands[v.seat].get(t, 0)
        return Option("guard" if mine else "raid", place)

    def alpha_value(self, v: GreenlandView, dest: int, moved: bool = False) -> float:
        """The Alpha sent to ``dest`` as a tribesman (line 55): a hunt with its automatic hit (a colonist's
        hunts for the generations left in the New World), a Guard or Raider, or a promotion, which gives up
        the automatic hit for good (``ALPHA_EDGE``). ``moved``: by the Sun Stone, after the assignment, where
        a hunt is worth what the Alpha adds to the Hunters already there."""
        if dest < 0:
            return self.value(v, Option("promote", -1 - dest)) - ALPHA_EDGE * self.life
        if dest >= TPLACE:
            return self.raid_value(v, self.tableau_option(v, dest))
        if moved:
            n = self.my_on(v, dest)
            gain = self.hunt_value(v, dest, n, True) - self.hunt_value(v, dest, n, False)
        else:
            gain = self.plan_rate(v, dest, True)
        if v.data.biomes[dest].new_world:  # a colonist stays and hunts every generation
            return gain * self.colonist * max(1, self.gens_left(v) // 2)
        return gain

    # ------------------------------------------------------------------ decisions
    def choose(self, view: Any, options: Sequence[Any]) -> Any:
        v: GreenlandView = view
        kind = options[0][0]
        if len(options) == 1:
            return options[0]
        if kind == "bid":
            want = 1 if v.data.tcards[v.offer].vp == 0 or v.religion[v.seat] != POLY else 0
            return options[min(want, len(options) - 1)]
        if kind == "roll":
            return self.hunt_roll(v, options)
        if kind in ("reroll", "keep"):
            return self.reroll(v, options)
        if kind == "casualty":  # spare one's own Alpha; a War Party's attacker takes the victim's
            mine = v.alpha[v.seat] == options[0][1]
            return next(o for o in options if o[2] == (0 if mine else 1))
        if kind == "pick":
            return max(options, key=lambda o: (self.my_on(v, o[1]) + (v.alpha[v.seat] == o[1]), -o[1]))
        if kind in ("stay", "withdraw"):
            return self.negotiate(v, options)
        if kind in ("accept", "refuse"):
            return self.answer(v, options)
        if kind == "attack":
            return max(options, key=lambda o: (v.hunters[o[2]].get(o[1], 0), -o[2]))
        if kind == "defend":
            dice = v.hunters[options[0][3]].get(options[0][1], 0) + 1
            expected = dice * len(v.data.die["attack_hits"]) / 6
            return options[1] if expected * self.life * self.iron_hunt > self.iron * 2 else options[0]
        if kind in ("breed", "pacify", "elder", "table", "convert", "done") and v.phase in (DOMESTIC, ELDER):
            return self.late(v, options)
        if kind == "animal":
            return max(options, key=lambda o: self.animal_value(v, o[1]))
        best, best_v = options[-1], 0.0
        for o in options:
            val = self.value(v, o if o.__class__ is Option else Option(*o))
            if val > best_v + 1e-9:
                best, best_v = o, val
        return best

    def strength(self, v: GreenlandView, seat: int, card: int) -> int:
        return v.hunters[seat].get(card, 0) + (v.alpha[seat] == card)

    def offer_value(self, v: GreenlandView, offer: int) -> float:
        """What a bribe is worth to the tribe it is offered to (line 59)."""
        if offer >= CARD:  # a hand or tableau card (line 59)
            t = v.data.tcards[offer - CARD]
            if t.kind == "animal":
                return self.animal_value(v, t.id) * min(4, self.gens_left(v)) / 2
            return 0.3 * self.gens_left(v)
        if offer >= MARRY:  # a bride: a Husband for good, and her children (ruling G23)
            t = v.data.tcards[offer - MARRY]
            return t.babies * self.life * 0.9 * min(4, self.gens_left(v)) / 2 - 0.5 * self.life
        worth = (self.energy_w(v), self.ivory, self.iron)[offer // 10]
        return worth * (offer % 10)

    def answer(self, v: GreenlandView, options: Sequence[Any]) -> Any:
        """An offer to leave (line 59): take it if it beats staying, else name the price that does (a
        counter-offer), else refuse; the briber takes a counter-offer costing under half the card's worth."""
        card, offer = options[0][1], options[0][3]
        if v.briber == v.seat:
            worth = self.stay_value(v, card) + self.rival(v, card) / 3 * self.life
            return options[0] if self.offer_value(v, offer) < 0.5 * worth else options[1]
        stay = self.stay_value(v, card)
        if self.offer_value(v, offer) >= stay:
            return options[0]
        counters = [o for o in options[2:] if self.offer_value(v, o[3]) >= stay + 0.5]
        if counters:
            return min(counters, key=lambda o: self.offer_value(v, o[3]))
        return options[1]

    def rival(self, v: GreenlandView, card: int) -> int:
        return max((self.strength(v, s, card) for s in range(v.n_players) if s != v.seat), default=0)

    def stay_value(self, v: GreenlandView, card: int) -> float:
        """Staying on a contested card: the hunt, less the attacks of stronger tribes."""
        mine = self.strength(v, v.seat, card)
        theirs = max(self.strength(v, s, card) for s in range(v.n_players) if s != v.seat)
        if card >= TPLACE:
            base = 0.5 * self.life
        else:
            base = max(0.0, self.hunt_value(v, card, self.my_on(v, card), v.alpha[v.seat] == card))
        return base - theirs / 3 * self.life * (1.0 if theirs > mine else 0.5)

    def negotiate(self, v: GreenlandView, options: Sequence[Any]) -> Any:
        """Stay when strong enough, buy the strongest rival off when the card is worth it, else withdraw."""
        card = options[0][1]
        mine = self.strength(v, v.seat, card)
        rivals = [s for s in range(v.n_players) if s != v.seat and self.strength(v, s, card)]
        theirs = max(self.strength(v, s, card) for s in rivals)
        if mine * self.stand < theirs:
            return options[1]
        worth = self.stay_value(v, card) + theirs / 3 * self.life
        strongest = max(rivals, key=lambda s: self.strength(v, s, card))
        bribes = [o for o in options[2:] if o[2] == strongest and not v.offers_made[v.seat]]
        if bribes and worth > 0:
            cheapest = min(bribes, key=lambda o: self.offer_value(v, o[3]))
            cost = self.offer_value(v, cheapest[3])
            if cost < 0.5 * worth and (cheapest[3] < MARRY or cheapest[3] >= CARD):
                return cheapest
        return options[0]

    def raid_value(self, v: GreenlandView, o: Option) -> float:
        """A Raider: the chance its die (line 70) adds to the raid, times the card's worth; a Guard: only
        where a Raider already stands."""
        place = o.a
        t = v.data.tcards[place - TPLACE]
        others = sum(v.hunters[s].get(place, 0) for s in range(v.n_players) if s != v.seat)
        if o.kind == "guard":
            return others * 0.5 * self.life - 0.3 * self.life
        n = v.hunters[v.seat].get(place, 0)
        h = len(t.raid_hits) / 6
        q = len(set(t.raid_bloody) - set(t.raid_hits)) / 6
        gain = (1 - h) ** n - (1 - h) ** (n + 1)
        worth = t.babies * self.life * 0.9 * min(4, self.gens_left(v)) / 2 + self.spread
        if others:
            gain *= 0.5
        return gain * worth - self.risk * q * self.life - 0.2 * self.life

    def animal_value(self, v: GreenlandView, card: int) -> float:
        t = v.data.tcards[card]
        return (
            t.babies * self.life * 0.9
            - t.energy * self.energy
            + 0.6 * t.sled * (1 + self.spread)
            + 0.4 * sum(k for _, k in t.rerolls)
        )

    def hunt_roll(self, v: GreenlandView, options: Sequence[Any]) -> Any:
        card = options[0][1]
        flags = {o[2] for o in options}
        alpha = 1 if 1 in flags else 0
        _, bloody, _, _ = self.faces(v, card)
        n = self.my_on(v, card)
        deaths = n * len(bloody) / 6
        use_iron = (alpha | 2) in flags and deaths * self.life * self.iron_hunt > self.iron * 2
        want = alpha | (2 if use_iron else 0)
        return next(o for o in options if o[2] == want)

    def reroll(self, v: GreenlandView, options: Sequence[Any]) -> Any:
        """Line 71: re-roll a die that would kill (unless iron was spent), else a miss while the hunt is
        short of its threshold, else keep the dice."""
        card = options[0][1]
        hits, bloody, need, _ = self.faces(v, card)
        have = sum(d in hits for d in v.dice) + (v.roll_flags & 1 and v.alpha[v.seat] == card)
        face = -1
        if not v.roll_flags & 2:
            face = next((d for d in v.dice if d in bloody), -1)
        if face < 0 and have < need:
            face = next((d for d in v.dice if d not in hits), -1)
        return next((o for o in options if o[0] == "reroll" and o[2] == face), options[-1])

    def late(self, v: GreenlandView, options: Sequence[Any]) -> Any:
        """Phases H and I: breed, pacify, elder actions, conversion."""
        s = v.seat
        d: GreenlandData = v.data
        spare = v.energy[s] - self.upkeep_due(v) - self.reserve
        best, best_v = options[-1], 0.0
        for raw in options:
            o = raw if raw.__class__ is Option else Option(*raw)
            val = 0.0
            if o.kind == "convert":  # only from generation ``convert_at`` on, and only when it pays
                pays = v.generation >= self.convert_at and self.mono_points(v) > self.poly_points(v)
                val = 10.0 if pays else -1.0
            elif o.kind == "breed":
                t = d.tcards[o.a]
                if v.valhalla[s]:
                    val = t.babies * self.life * 0.9
                    if o.c >= 0:  # an elder is spent (and dies)
                        keep = RANK_USE[o.c] * self.elder * self.gens_left(v) / v.elders[s][o.c]
                        val += 3.0 if self.converting(v) else -self.life - keep
                    if o.c < 0 or not t.either:  # the babies eat too (ruling G16)
                        fed = v.energy[s] - self.upkeep_due(v, t.babies) - self.reserve - t.energy
                        val = val - t.energy * self.energy if fed >= self.breed_margin - 1 else -1.0
            elif o.kind == "table":  # a hand card into the tableau (ruling G19)
                cost = int(d.setup["table_energy"])
                val = 0.3 * self.gens_left(v) - cost * self.energy_w(v) if spare >= cost else -1.0
            elif o.kind == "pacify":
                val = v.colonists[s].get(o.a, 0) * 0.6 * self.life - self.ivory
            elif o.kind == "elder":
                act = d.ranks[o.a].actions[o.b]
                iv = self.ivory * (1.3 if self.converting(v) or v.religion[s] != POLY else 1.0)
                ir = self.iron * (1.3 if self.converting(v) or v.religion[s] != POLY else 1.0)
                val = (
                    (act.gain_energy - act.energy) * self.energy_w(v)
                    + (act.gain_ivory - act.ivory) * iv
                    + (act.gain_iron - act.iron) * ir
                )
                if act.energy and spare - act.energy < 0:
                    val -= self.life
                if act.name == "domesticate":
                    val += d.tcards[o.c].babies * self.life * 0.3 * self.gens_left(v) / 2
                elif act.name == "invent":
                    val += 0.25 * self.gens_left(v)
                elif act.name == "burn_witch":
                    # burn the other elders first, the Shaman itself last
                    last = o.c != 1 or sum(v.elders[s]) == 1
                    val = 3.0 if self.converting(v) and last else -9.0
            if val > best_v + 1e-9:
                best, best_v = raw, val
        return best


class GreedyStrategy(GreenlandBase):
    """Rates every legal option at once: a hunt by its chance of success times the reward, less the
    Hunters the bloody faces are expected to kill; Hunters go where the whole party sent there gains most
    per tribesman; energy is worth a life while the fuel upkeep is not covered. Its weights are balanced: a
    dead Hunter comes back as a baby, so a life is worth 1.8 rather than a cautious 2.5, and a card of its
    own a little more. It never converts."""

    name = "greedy"
    params = {**GreenlandBase.params, "life": (float, 1.8), "spread": (float, 0.3)}


class SpreaderStrategy(GreenlandBase):
    """A hunter that spreads widely and takes risks: lives are cheap, every new card is worth a bonus,
    Mariners and colonists are sought and iron is never spent on a hunt; it never converts. Otherwise it
    rates the options as greedy does."""

    name = "spreader"
    params = {
        **GreenlandBase.params,
        "life": (float, 1.6),
        "risk": (float, 0.6),
        "spread": (float, 0.8),
        "colonist": (float, 1.0),
        "iron_hunt": (float, 0.0),
        "elder": (float, 0.7),
        "stand": (float, 1.5),
    }


class ElderStrategy(GreenlandBase):
    """A cautious elder-builder: lives are dear, its Hunters avoid bloody cards and spend iron, it
    promotes elders and their actions bank iron and ivory; from generation 6, once iron and ivory would
    outscore its Trophies, it burns its elders and converts to monotheism. Otherwise it rates the options
    as greedy does."""

    name = "elder"
    params = {
        **GreenlandBase.params,
        "life": (float, 2.4),
        "risk": (float, 1.25),
        "elder": (float, 1.8),
        "iron_hunt": (float, 1.5),
        "colonist": (float, 0.3),
        "convert_at": (int, 6),
        "stand": (float, 0.8),
        "iron": (float, 1.0),
        "ivory": (float, 1.0),
    }
