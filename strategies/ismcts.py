"""``ismcts``: information-set Monte Carlo tree search for every game that declares ``determinize``.

Single-observer ISMCTS (Cowling, Powley and Whitehouse 2012) for several players, through the game
protocol alone:

* **One tree over information sets.**  Every iteration draws a fresh determinization of the searcher's
  information (``SearchContext.sample``: never the true state) and descends the one shared tree while the
  children's options are legal in it, so no determinization is searched as if it were the truth
  (strategy fusion is what sharing the tree avoids).
* **Selection.**  UCB1 with availability counts: an arm's exploration term uses how often it was legal
  when its node was visited, not the node's visits.  Each seat to move selects by its own reward
  component, and the reward vector is backed up whole (max^n).
* **Simultaneous secret decisions** (several seats to move at once): decoupled UCT, each mover keeping
  its own bandit over its own options at the node; no mover's selection sees another's choice, and the
  child is the joint choice (Lanctot, Lisý and Winands 2013).
* **Large option lists**: progressive widening, a seat's arms at a node limited to
  ``ceil(widen * N ** alpha)`` for its N visits there; new arms are drawn at random among the legal
  options not tried yet (Coulom 2007).
* **A prior** (``prior``): the first arm a seat gets at a node (whenever none of its arms there is legal
  in the iteration's determinization) is the choice of a scripted strategy, so the search starts from
  the scripted move and leaves it only when the samples say so.  At the root the searcher's prior arm
  is that strategy's choice from the real view and options ``choose`` was given; everywhere else, and
  for the other seats, its choice from that seat's view of the determinized state (``game.view`` of
  the sample), never the true state.  ``prior=`` empty (the default) takes the game's best scripted
  strategy, its plug-in's first (``best_strategy``; none for a game without strategies);
  ``prior=none`` turns it off (every arm drawn at random); any other value is a strategy spec of the
  game.  The prior's players are made afresh for each decision, from the searcher's generator.
* **Paired root comparisons.**  The searcher's root arm is picked before the sample is drawn, and the
  j-th visit of every root arm draws the same determinization and chance (its generator is the j-th of
  the decision's seeds: common random numbers), so two root arms are compared on the same samples.
  ``keep`` (0: off) plays the prior's choice unless another arm's mean reward beats it by at least
  ``keep`` standard errors of the paired differences (``paired_gain``): the search leaves the scripted
  move only where the samples show a gain, not on noise.  ``width`` (0: no cap) caps the root's arms at
  the prior's first ``width`` choices (its ranking, as with ``rank``).
* **The tree's depth** (``tree``, 0: no cap): ``tree=1`` keeps the root only, so every iteration plays
  the searcher's arm and then the playout policy for everyone (a determinized rollout of the policy, one
  step of policy improvement on it: Tesauro and Galperin 1996), the cheapest strong search where the
  opponents are the playout policy.
* **Playouts**: ``depth`` decision points (0: to the end) of the ``playout`` policy (empty, the
  default: the game's best scripted strategy, as for the prior; ``random``; or any strategy spec of the
  game), its players made afresh for each iteration, each choice made at random instead with probability
  ``epsilon`` (epsilon-greedy), then ``sim.search.rewards`` of the state reached (the result at the
  end; the game's ``evaluate``, or its scores by rank, before it; with ``judge=learned`` the game's
  fitted judge before it, ``strategies.value_model``).

The budget is the iteration count, so a game with ``ismcts`` in it is a function of its seed like any
other.  ``ms=`` (milliseconds per decision, 0: off) replaces it with a time budget: as many iterations
as fit (at least one), so the games then depend on the machine's speed and load, and a run's manifest
marks them non-deterministic (``config.deterministic``).  Every iteration draws its own
determinization (no fixed determinization count).

The tree keys a node's children by the joint choice that led to them, opponents' included: an
opponent's choice the searcher cannot see (a secret assignment) is told apart below the root although
the searcher could not tell it apart, the known approximation of single-observer ISMCTS (the
multiple-observer variant removes it).  The choice made at the root, the only one played, is the
most visited arm among the searcher's real options (with ``keep``, the prior's unless it is beaten).

**The defaults** (40 iterations, ``tree=1``, ``width=4``, ``keep=1``, playouts of the best scripted
strategy to the end, ``reward=score``) are the strongest measured against the games' best scripted
players (docs/search.md has the figures): with those players as opponents a rollout of
their own policy predicts what they will do, and the paired comparison keeps the scripted move unless a
better one shows.  ``tree=0:width=0:keep=0:playout=random:depth=30:reward=win:iterations=100`` is the
classic open-tree ISMCTS of earlier versions.  A game's plug-in may set its own defaults for any of
these (``GamePlugin.search``, applied by ``sim.specs.parse_spec`` where a spec leaves a
parameter unset): Greenland's are 24 iterations and playouts cut at 60 decision points, its full playouts
being long (chosen for cost: at them the search plays about as well as greedy, docs/search.md).
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from typing import Any

import numpy as np

from sim.search import REWARDS, SearchContext, option_key, rewards
from sim.specs import best_strategy, parse_spec, scripted_names
from sim.strategy import Strategy
from strategies import value_model

#: an arm's visits, summed reward of its own seat, and availability (visits of its node while legal)
VISITS, TOTAL, AVAIL = 0, 1, 2


class Node:
    """One information set of the tree: each mover's arms and the children by joint choice."""

    __slots__ = ("arms", "children")

    def __init__(self) -> None:
        self.arms: dict[int, dict[Any, list[float]]] = {}
        self.children: dict[tuple[Any, ...], Node] = {}


class ISMCTSStrategy(Strategy):
    """Searches ahead by information-set Monte Carlo tree search: every iteration samples what its seat
    cannot see, tries one of the best scripted strategy's four favourite moves and plays the game on to
    the end with that strategy in every seat; it plays the scripted move unless another one scores better
    on the same samples by a clear margin. With tree=0 it grows a full search tree in which each seat picks
    by its own reward, seats that choose at the same time in secret keep separate counts, and long option
    lists are widened gradually. It plays every game that can sample its hidden information (one that
    declares determinize)."""

    name = "ismcts"
    games = ("*",)
    searches = True
    params = {
        "iterations": (int, 40),
        "c": (float, 0.7),
        "playout": (str, ""),  # empty: the game's best scripted strategy; random
        "depth": (int, 0),
        "reward": (str, "score"),
        "widen": (float, 2.0),
        "alpha": (float, 0.5),
        "ms": (float, 0.0),
        "prior": (str, ""),  # first arm at a node: empty = the game's best scripted strategy, none = off
        "epsilon": (float, 0.0),  # chance that a playout choice is made at random instead
        "rank": (int, 1),  # root arms in the prior's order (its choice, then its choice of the rest, ...)
        "width": (int, 4),  # most arms at the root (0: no cap); with a prior, its first `width` choices
        "tree": (int, 1),  # most decision points the tree keeps (0: no cap; 1: the root only)
        "keep": (float, 1.0),  # play the prior's choice unless beaten by `keep` paired standard errors
        "judge": (str, ""),  # a cut playout's judge: empty = the game's evaluate, learned = its fitted model
    }
    time_budget = "ms"
    iterations: int
    c: float
    playout: str
    depth: int
    reward: str
    widen: float
    alpha: float
    ms: float
    prior: str
    epsilon: float
    rank: int
    width: int
    tree: int
    keep: float
    judge: str

    def __init__(self, seat: int, rng: np.random.Generator, **params: Any) -> None:
        super().__init__(seat, rng, **params)
        for key, bounds in BOUNDS.items():
            check_bounds(key, getattr(self, key), bounds)
        if self.reward not in REWARDS:
            raise ValueError(f"reward must be one of {', '.join(REWARDS)}, not {self.reward!r}")
        if self.playout.split(":")[0] == self.name:
            raise ValueError("the playout policy cannot itself search (give random or a scripted strategy)")
        if self.prior.split(":")[0] == self.name:
            raise ValueError("the prior cannot itself search (give none or a scripted strategy)")
        if self.judge not in ("", "learned"):
            raise ValueError(f"judge takes learned or empty (the game's evaluate), not {self.judge!r}")
        self._learned: Any = None  # the fitted judge of judge=learned (strategies.value_model), loaded once
        self.context: SearchContext | None = None
        #: the prior's players by seat and the searcher's prior key at the root (set per decision)
        self._prior: list[Strategy] | None = None
        self._prior_spec: Any = False
        self._root_order: list[Any] = []
        #: iterations run and decisions searched in this game (telemetry for bench and summaries)
        self.iterations_run = 0
        self.decisions_searched = 0
        #: decisions searched whose move is not the prior's (how often search changed the scripted move)
        self.departures = 0
        #: the tree of the last decision searched (for inspection)
        self.last_root: Node | None = None
        self.seconds_searched = 0.0

    def check_game(self, game: str) -> None:
        """Refuse a ``playout`` or ``prior`` that is no strategy of ``game``, or one that searches, naming
        the values allowed (``sim.specs.parse_spec`` calls this when it parses a spec)."""
        from sim.errors import SkaldError

        if self.judge == "learned" and value_model.load(game) is None:
            raise ValueError(f"judge=learned needs a fitted judge of {game} (tools/fit_value.py makes one)")
        for key, off in (("playout", "random"), ("prior", "none")):
            text = getattr(self, key)
            if text in ("", off):
                continue
            try:
                spec = parse_spec(text, game)
                searches = getattr(spec.cls, "searches", False)
            except SkaldError:
                searches = None
            if searches is not False:
                scripted = ", ".join(n for n in scripted_names(game) if n != off)
                raise ValueError(
                    f"{key} takes {off}, empty (the game's best scripted strategy) or a strategy of {game}"
                    f" that does not search ({scripted}), not {text!r}"
                )

    def attach(self, context: SearchContext) -> None:
        """Receive the game's sampler and forward model (the runner calls this once per game)."""
        self.context = context

    def telemetry(self) -> dict[str, float]:
        """Decisions searched (those with more than one option), iterations run, seconds spent and
        departures: the decisions searched whose move differs from the prior's choice (none without a
        prior)."""
        return {
            "decisions": float(self.decisions_searched),
            "iterations": float(self.iterations_run),
            "seconds": self.seconds_searched,
            "departures": float(self.departures),
        }

    def root_samples(self) -> tuple[Any, dict[Any, list[float]]]:
        """The last decision's paired root samples: (the prior's choice, or None without a prior; each
        root arm's rewards in visit order, the j-th of every arm from the same determinization and
        chance), what ``keep`` judges by (``tools/search_budget.py`` reads them)."""
        first = self._root_order[0] if self._root_order else None
        return first, {key: list(rewards) for key, rewards in getattr(self, "_paired", {}).items()}

    # ----------------------------------------------------------------- the search

    def choose(self, view: Any, options: Sequence[Any]) -> Any:
        if len(options) == 1:
            return options[0]
        if self.context is None:
            raise RuntimeError("ismcts was not given a search context (the runner attaches one)")
        game = self.context.game
        root = Node()
        allowed = {option_key(o): i for i, o in enumerate(options)}
        self._spec = playout_spec(game, self.playout)
        self._start_prior(game, view, options)
        self._seeds: list[int] = []
        self._paired: dict[Any, list[float]] = {}
        start = time.perf_counter()
        if self.ms > 0:  # a time budget: as many iterations as fit, at least one
            deadline, done = start + self.ms / 1000.0, 0
            while done == 0 or time.perf_counter() < deadline:
                self._iterate(game, root, allowed, options)
                done += 1
        else:
            for _ in range(self.iterations):
                self._iterate(game, root, allowed, options)
            done = self.iterations
        self.seconds_searched += time.perf_counter() - start
        self.iterations_run += done
        self.decisions_searched += 1
        self.last_root = root
        key = self._final_choice(root, allowed)
        if self._root_order and key != self._root_order[0]:
            self.departures += 1
        return options[allowed[key]]

    def _final_choice(self, root: Node, allowed: dict[Any, int]) -> Any:
        """The key played: the most visited root arm (on a tie the prior's choice, then the best mean);
        with ``keep`` the prior's choice unless an arm beats it on paired samples (``paired_gain``)."""
        arms = root.arms.get(self.seat, {})
        first = self._root_order[0] if self._root_order else None
        best = max(
            (key for key in arms if key in allowed),
            key=lambda k: (arms[k][VISITS], k == first, arms[k][TOTAL] / max(arms[k][VISITS], 1),
                           -allowed[k]),
        )
        if self.keep <= 0 or first not in arms:
            return best
        gains = {k: paired_gain(self._paired.get(k, []), self._paired.get(first, []), self.keep)
                 for k in arms if k != first and k in allowed}
        winners = [k for k, gain in gains.items() if gain is not None]
        return max(winners, key=lambda k: (gains[k], -allowed[k])) if winners else first

    def _sample_rng(self, visit: int) -> np.random.Generator:
        """The generator of an iteration whose root arm is on its ``visit``-th visit: the j-th visit of
        every root arm sees the same determinization and chance (common random numbers), so root arms are
        compared on paired samples."""
        while len(self._seeds) <= visit:
            self._seeds.append(int(self.rng.integers(0, 2**63)))
        return np.random.default_rng(self._seeds[visit])

    def _iterate(self, game: Any, root: Node, allowed: dict[Any, int], real: Sequence[Any]) -> None:
        """One iteration: pick the searcher's root arm, determinize, select and expand, play out, back
        up."""
        assert self.context is not None
        _, root_key, _ = self._select(root, self.seat, real, allowed, None, self.rng)
        rng = self._sample_rng(int(root.arms[self.seat][root_key][VISITS]))
        state = self.context.sample(rng)
        n = len(game.scores(state))
        path: list[tuple[Node, list[tuple[int, Any]]]] = []
        node = root
        while not game.is_terminal(state):
            picks: list[tuple[int, Any]] = []
            choices: dict[int, Any] = {}
            expanded = False
            for seat in game.to_move(state):
                options = game.legal_options(state, seat)
                if node is root and seat == self.seat:
                    index, key, new = self._root_pick(root, options, allowed, root_key, state, rng)
                else:
                    index, key, new = self._select(node, seat, options, None, state, rng)
                choices[seat] = options[index]
                picks.append((seat, key))
                expanded = expanded or new
            path.append((node, picks))
            game.apply(state, choices)
            if self.tree and len(path) >= self.tree:
                break
            joint = tuple(key for _, key in picks)
            child = node.children.get(joint)
            if child is None:
                node.children[joint] = Node()
                break
            node = child
            if expanded:
                break
        reward = self._rewards(game, self._play_out(game, state, rng), n)
        for node, picks in path:
            for seat, key in picks:
                arm = node.arms[seat][key]
                arm[VISITS] += 1
                arm[TOTAL] += reward[seat]
                if node is root and seat == self.seat:
                    self._paired.setdefault(key, []).append(reward[seat])

    def _rewards(self, game: Any, state: Any, n: int) -> list[float]:
        """The reward vector of a playout's last state (``sim.search.rewards``); with ``judge=learned`` a
        playout cut before the end is judged by the game's fitted model (``strategies.value_model``: the
        chance to finish first for ``reward=win``, the expected rank utility otherwise)."""
        if not self.judge or game.is_terminal(state):
            return rewards(game, state, n, self.reward)
        if self._learned is None:
            self._learned = value_model.load(game.name)
        return self._learned.utilities(state, n, "win" if self.reward == "win" else "rank")

    def _root_pick(
        self, root: Node, options: Sequence[Any], allowed: dict[Any, int], key: Any, state: Any,
        rng: np.random.Generator,
    ) -> tuple[int, Any, bool]:
        """The searcher's root arm ``key`` (picked before the sample was drawn) among the sample's
        ``options``; should the sample not offer it, a fresh selection among those it offers."""
        for i, option in enumerate(options):
            if option_key(option) == key:
                return i, key, False
        return self._select(root, self.seat, options, allowed, state, rng)

    def _select(
        self, node: Node, seat: int, options: Sequence[Any], only: dict[Any, int] | None, state: Any,
        rng: np.random.Generator,
    ) -> tuple[int, Any, bool]:
        """(option index, its key, whether it is a new arm) for ``seat`` at ``node``: a new arm while
        progressive widening allows one (the prior's choice where no arm is legal yet, else one at
        random; at the root at most ``width`` arms), else UCB1 on the legal arms with availability
        counts."""
        arms = node.arms.setdefault(seat, {})
        keys = [option_key(o) for o in options]
        legal = [i for i, k in enumerate(keys) if (only is None or k in only)]
        tried = [i for i in legal if keys[i] in arms]
        visits = 0.0
        for i in tried:
            arm = arms[keys[i]]
            arm[AVAIL] += 1
            visits += arm[VISITS]
        untried = [i for i in legal if keys[i] not in arms]
        room = math.ceil(self.widen * max(visits, 1.0) ** self.alpha)
        if only is not None and self.width:
            room = min(room, self.width)
        if untried and (not tried or len(tried) < room):
            primed = only is not None or not tried  # the root's arms follow the prior's ranking
            index = self._prior_index(seat, options, keys, untried, only, state) if primed else None
            if index is None:
                index = untried[int(rng.integers(len(untried)))]
            arms[keys[index]] = [0.0, 0.0, 1.0]
            return index, keys[index], True
        best, best_value = tried[0], -math.inf
        for i in tried:
            arm = arms[keys[i]]
            if arm[VISITS] == 0:
                value = math.inf
            else:
                explore = self.c * math.sqrt(math.log(max(arm[AVAIL], 1.0)) / arm[VISITS])
                value = arm[TOTAL] / arm[VISITS] + explore
            if value > best_value:
                best, best_value = i, value
        return best, keys[best], False

    def _start_prior(self, game: Any, view: Any, options: Sequence[Any]) -> None:
        """Make the prior's players for this decision and rank the searcher's options at the root: the
        prior's choice from the real view and options, then its choice among the rest, up to ``rank``
        (or ``width``, the larger).  A scripted strategy need not cope with being offered only part of
        its options: should it fail on the rest, the ranking stops there and later arms come at random."""
        if self._prior_spec is False:  # parsed once per game
            self._prior_spec = prior_spec(game, self.prior)
        self._prior = self._players(game, self._prior_spec, self.rng)
        self._root_order = []
        if self._prior is None:
            return
        left = options
        while len(self._root_order) < min(max(self.rank, self.width), len(options)):
            try:
                key = option_key(self._prior[self.seat].choose(view, left))
            except Exception:  # a scripted strategy need not cope with part of its options: stop ranking
                if not self._root_order:
                    raise
                break
            self._root_order.append(key)
            keep = [i for i, o in enumerate(left) if option_key(o) != key]
            left = left[keep] if isinstance(left, np.ndarray) else [left[i] for i in keep]

    def _prior_index(
        self, seat: int, options: Sequence[Any], keys: list[Any], untried: list[int],
        only: dict[Any, int] | None, state: Any,
    ) -> int | None:
        """The index of the prior's choice among ``untried`` (None: no prior, or its choice is no new
        arm): at the root the searcher's from the real view, else ``seat``'s from its view of the
        determinized ``state``."""
        if self._prior is None:
            return None
        if only is not None:  # the searcher at the root: the next of the prior's ranked choices
            fresh = {keys[i]: i for i in untried}
            return next((fresh[k] for k in self._root_order if k in fresh), None)
        else:
            player = self._prior[seat]
            seen = self.context.game.view(state, seat) if player.reads_view else None  # type: ignore[union-attr]
            key = option_key(player.choose(seen, options))
        return next((i for i in untried if keys[i] == key), None)

    # ----------------------------------------------------------------- playouts

    def _players(self, game: Any, spec: Any, rng: np.random.Generator) -> list[Strategy] | None:
        """One player of ``spec`` per seat, seeded from ``rng`` (None for no spec)."""
        if spec is None:
            return None
        if getattr(spec.cls, "searches", False):
            raise ValueError("a playout policy or prior cannot itself search")
        seeds = rng.integers(0, 2**63, size=game.max_players)
        return [spec.make(seat, np.random.default_rng(int(s))) for seat, s in enumerate(seeds)]

    def _play_out(self, game: Any, state: Any, rng: np.random.Generator) -> Any:
        """Play ``state`` on for ``depth`` decision points (0: to the end, within the game's cap) with the
        ``playout`` policy, its players made afresh from the iteration's generator ``rng``."""
        policy = self._players(game, self._spec, rng)
        limit = self.depth or game.default_max_decisions
        steps = 0
        while steps < limit and not game.is_terminal(state):
            choices = {}
            for seat in game.to_move(state):
                options = game.legal_options(state, seat)
                if policy is None or (self.epsilon > 0 and rng.random() < self.epsilon):
                    choices[seat] = options[int(rng.integers(len(options)))]
                else:
                    player = policy[seat]
                    seen = game.view(state, seat) if player.reads_view else None
                    choices[seat] = player.choose(seen, options)
            game.apply(state, choices)
            steps += 1
        return state


#: the values each numeric parameter takes: (lowest, highest or None, whether the lowest itself is allowed)
BOUNDS: dict[str, tuple[float, float | None, bool]] = {
    "iterations": (1, None, True), "c": (0, None, True), "depth": (0, None, True), "widen": (0, None, False),
    "alpha": (0, 1, True), "ms": (0, None, True), "epsilon": (0, 1, True), "rank": (1, None, True),
    "width": (0, None, True), "tree": (0, None, True), "keep": (0, None, True),
}  # fmt: skip


def check_bounds(key: str, value: float, bounds: tuple[float, float | None, bool]) -> None:
    """Refuse ``value`` outside ``bounds`` (``BOUNDS``), or not a number at all (nan), naming the range."""
    low, high, inclusive = bounds
    above = value >= low if inclusive else value > low
    if not (above and (high is None or value <= high)):  # written so that nan fails too
        if high is not None:
            words = f"between {low:g} and {high:g}"
        else:
            words = f"at least {low:g}" if inclusive else f"above {low:g}"
        raise ValueError(f"{key} must be {words}, not {value}")


def paired_gain(arm: Sequence[float], prior: Sequence[float], z: float) -> float | None:
    """The mean reward gain of ``arm`` over the ``prior``'s arm on the samples both saw (the j-th reward
    of each came from the same determinization), or None unless it is positive and at least ``z``
    standard errors of the paired differences (at least two pairs)."""
    m = min(len(arm), len(prior))
    if m < 2:
        return None
    diffs = np.asarray(arm[:m], dtype=float) - np.asarray(prior[:m], dtype=float)
    mean, sd = float(diffs.mean()), float(diffs.std(ddof=1))
    return mean if mean > 0 and mean > z * sd / math.sqrt(m) else None


def playout_spec(game: Any, text: str) -> Any:
    """The playout policy's strategy spec for ``game`` (None: uniform random choices): ``text`` parsed,
    or for an empty ``text`` the game's best scripted strategy (random for a game without one)."""
    if text == "random":
        return None
    return prior_spec(game, text)


def prior_spec(game: Any, text: str) -> Any:
    """The prior's strategy spec for ``game`` (None: no prior): ``text`` parsed, or for an empty
    ``text`` the game's best scripted strategy (``sim.specs.best_strategy``)."""
    if text == "none":
        return None
    if not text:
        text = best_strategy(game.name) or ""
        if not text:
            return None
    return parse_spec(text, game.name)
