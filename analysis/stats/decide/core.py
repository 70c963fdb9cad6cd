"""The decision core: quantities decided against a margin δ, with three outcomes.

A *quantity* is one seat's deviation of its win share from an even share, the change of that deviation
between two sides, or a difference between two variants.  Each comes with a block-aware standard error
and degrees of freedom (``Effects``); ``decide`` turns them into tests at once for many replicates (the
arrays broadcast over leading axes), and ``build`` into one ``Decision``.  The methods are those of
reference/decisive-verdicts.md sections 1-2 and 5 and reference/analysis-methods.md sections 2 and 5:

* **equivalence** ("fair within δ", "holds", "same"): every quantity's (1 − 2α) interval (t_{1−α} on its
  degrees of freedom) lies inside (−δ, δ).  This is the intersection-union of one TOST per quantity
  (Schuirmann 1987); its level is α with no multiplicity correction (Berger 1982), and its p value is
  the largest of the quantities' TOST p values.
* **difference** ("unfair", "changes", "differs"): a two-sided t test of "no deviation" per quantity,
  Holm over the family (Holm 1979); a family of one where two seats' deviations are each other's
  negatives (two positions).  Each quantity's interval is the simultaneous (Bonferroni) (1 − α) one
  (t_{1−α/(2F)}): the first step of Holm, so the decisive quantity's interval excludes 0 exactly when
  its Holm p is below α.
* the tests are Wald t tests on the quantity's SE, or, for a rate's deviation (a seat's win share),
  score tests whose SE is taken at the hypothesised rate (``Effects.se_at``); each interval is the
  inversion of its tests (``Effects.bounds``: estimate ± t·SE, or Wilson's at n_eff).
* **undecided**: neither.  Where both are shown (a real difference smaller than δ) equivalence is the
  outcome: the designer said gaps below δ do not matter; ``difference_p`` still records the difference.

Under a stopping rule (``analysis.stats.sequential``) a look decides at its own level α_j instead of α; its p
values are reported on α's scale (p · α / α_j, at most 1), so "p < α" still reads as "shown", and its
intervals are the look's (1 − α_j) ones.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy import stats as sps

from analysis.stats.estimates import Array
from analysis.stats.multiplicity import ALPHA
from analysis.stats.stats import wilson_interval

#: the outcomes: an equivalence shown, a difference shown, neither
FAIR, UNFAIR, UNDECIDED = "fair", "unfair", "undecided"
HOLDS, CHANGES = "holds", "changes"
SAME, DIFFERS = "same", "differs"
#: per question, the words for (undecided, equivalence shown, difference shown): ``Tests.outcome`` indexes it
OUTCOMES: dict[str, tuple[str, str, str]] = {
    "seats": (UNDECIDED, FAIR, UNFAIR),
    "change": (UNDECIDED, HOLDS, CHANGES),
    "difference": (UNDECIDED, SAME, DIFFERS),
}

#: The default margin for seat (start position, draft pick, tribe) win shares: 5 points.  The methods
#: note's example, and a gap a designer acts on: one game in 20 moved from one seat to another, a fifth
#: of an even share at 4 players (25%), 15% of it at 3 and a quarter of it at 5.  Gaps that small are
#: already below what a group sees over a season (the sd of one seat's share over 20 four-player games
#: is about 10 points), so a smaller δ asks for games no designer would act on.
SEAT_MARGIN = 0.05
#: the default margin for a difference of two rates (the share of close games, a first-player rate)
SHARE_MARGIN = 0.05


@dataclass(frozen=True)
class Effects:
    """Quantities with block-aware standard errors: ``estimate``, ``se`` and ``df`` have the quantities on
    the last axis (``df`` broadcasts to them); ``blocks`` and ``games`` count what went in (leading axes
    only).  ``fallback`` marks a standard error that the data could not give (see ``seat_effects``).

    Where ``n_eff`` and ``expected`` are given the quantity is a rate's deviation from ``expected`` and
    its tests are score tests (``se_at``): the standard error at the hypothesised rate r is
    √(r(1 − r)/n_eff), n_eff = n / DEFF, and the intervals are Wilson's at n_eff with the t quantile,
    as ``analysis.stats.estimates.cluster_proportion``'s.  Otherwise they are Wald t tests on ``se``."""

    estimate: Array
    se: Array
    df: Array
    blocks: Array
    games: Array
    fallback: Array
    test: str
    n_eff: Array | None = None
    expected: Array | None = None

    def se_at(self, deviation: float) -> Array:
        """The standard error of the estimate where the true value is ``deviation``: the score test's,
        at the rate expected + deviation, or the Wald ``se``."""
        if self.n_eff is None or self.expected is None:
            return np.asarray(self.se, dtype=float)
        r = np.asarray(self.expected, dtype=float) + deviation
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.sqrt(np.clip(r * (1 - r), 0.0, None) / self.n_eff)

    def bounds(self, quantile: Array) -> tuple[Array, Array]:
        """The interval with ``quantile`` (a t quantile per quantity): Wilson's at n_eff minus the
        expected rate (the inversion of the score tests), or estimate ± quantile · se."""
        est = np.asarray(self.estimate, dtype=float)
        if self.n_eff is None or self.expected is None:
            half = quantile * np.asarray(self.se, dtype=float)
            return est - half, est + half
        e = np.asarray(self.expected, dtype=float)
        with np.errstate(invalid="ignore"):
            low, high = wilson_interval((est + e) * self.n_eff, self.n_eff, quantile)
        return low - e, high - e


@dataclass(frozen=True)
class Tests:
    """The tests of ``decide``, with p values on α's scale.  Per quantity (last axis): ``tost_p`` (the
    TOST's, "outside ±δ"), ``eq_low``/``eq_high`` (the (1 − 2α) interval), ``raw_p`` (two-sided, "no
    deviation"), ``adjusted_p`` (Holm over the family), ``low``/``high`` (the simultaneous (1 − α)
    interval).  Per decision: ``equivalence_p`` (intersection-union: the largest ``tost_p``),
    ``difference_p`` (the smallest ``adjusted_p``) and ``outcome`` (0 undecided, 1 equivalence shown,
    2 difference shown)."""

    tost_p: Array
    eq_low: Array
    eq_high: Array
    raw_p: Array
    adjusted_p: Array
    low: Array
    high: Array
    equivalence_p: Array
    difference_p: Array
    outcome: Array


def holm_last_axis(p: Array, family: int) -> Array:
    """Holm's adjusted p values along the last axis (Holm 1979; the same numbers as
    ``analysis.stats.multiplicity.holm``, for many replicates at once).  ``family == 1``: no correction, for
    quantities that are one up to sign (two seats' deviations).  nan sorts last and stays nan."""
    p = np.asarray(p, dtype=float)
    if family == 1 or p.shape[-1] == 1:
        return p
    q = p.shape[-1]
    order = np.argsort(p, axis=-1, kind="stable")
    ranked = np.take_along_axis(p, order, axis=-1) * np.arange(q, 0, -1)
    stepped = np.minimum(np.maximum.accumulate(ranked, axis=-1), 1.0)
    out = np.empty_like(stepped)
    np.put_along_axis(out, order, stepped, axis=-1)
    return out


def _on_alpha_scale(p: Array, alpha: float, level: float) -> Array:
    """A look's p value on α's scale: p · α / α_j, at most 1 (nan stays nan)."""
    return np.minimum(np.asarray(p, dtype=float) * (alpha / level), 1.0)


def decide(
    effects: Effects, margin: float, family: int, alpha: float = ALPHA, level: float | None = None
) -> Tests:
    """The equivalence and difference tests of ``effects`` against ``margin`` (module docstring), at
    ``level`` (α, or a look's α_j; default α) with p values reported on α's scale.  Each test uses the
    standard error at its hypothesis (``Effects.se_at``: −δ and +δ for the TOST, 0 for the difference)
    and the intervals are those tests' inversions (``Effects.bounds``).  A quantity without a positive
    finite SE or a degree of freedom gets nan tests, and its decision is undecided."""
    level = alpha if level is None else level
    est, se = np.asarray(effects.estimate, float), np.asarray(effects.se, float)
    df = np.broadcast_to(np.asarray(effects.df, float), est.shape)
    ok = np.isfinite(se) & (se > 0) & (df >= 1) & np.isfinite(est)
    dfs = np.where(ok, df, 1.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        below = (est + margin) / effects.se_at(-margin)
        above = (margin - est) / effects.se_at(margin)
        tost = np.where(ok, np.maximum(sps.t.sf(below, dfs), sps.t.sf(above, dfs)), np.nan)
        raw = np.where(ok, 2 * sps.t.sf(np.abs(est) / effects.se_at(0.0), dfs), np.nan)
    adjusted = holm_last_axis(raw, family)
    tost_a, raw_a, adjusted_a = (_on_alpha_scale(x, alpha, level) for x in (tost, raw, adjusted))
    equivalence_p = np.where(ok.all(axis=-1), tost_a.max(axis=-1), np.nan)
    difference_p = np.where(ok.any(axis=-1), np.min(np.where(ok, adjusted_a, np.inf), axis=-1), np.nan)
    outcome = np.where(equivalence_p < alpha, 1, np.where(difference_p < alpha, 2, 0))
    eq_low, eq_high = _masked(effects.bounds(sps.t.ppf(1 - level, dfs)), ok)
    low, high = _masked(effects.bounds(sps.t.ppf(1 - level / (2 * family), dfs)), ok)
    return Tests(tost_a, eq_low, eq_high, raw_a, adjusted_a, low, high, equivalence_p, difference_p, outcome)


def _masked(bounds: tuple[Array, Array], ok: Array) -> tuple[Array, Array]:
    return np.where(ok, bounds[0], np.nan), np.where(ok, bounds[1], np.nan)


def blocks_to_decide(effects: Effects, margin: float, level: float, family: int) -> float:
    """The blocks that would decide one verdict if every estimate held and each standard error shrank as
    1/√B (decisive-verdicts section 5): the fewer of those that put every (1 − 2α) interval inside ±δ
    (needs every |estimate| < δ; the SE at ±δ) and those that put one simultaneous interval clear of 0
    (needs an estimate other than 0; the SE at 0).  The t quantile is taken on the new blocks − 1
    degrees of freedom (a few fixed-point steps from the current ones).  inf where neither can happen;
    nan without an SE."""
    est = np.abs(np.asarray(effects.estimate, float))
    blocks = int(effects.blocks)
    at_margin = np.maximum(effects.se_at(-margin), effects.se_at(margin))
    at_zero = effects.se_at(0.0)
    if blocks < 2 or not (np.all(np.isfinite(at_margin)) and np.all(at_margin > 0) and np.all(at_zero > 0)):
        return math.nan
    with np.errstate(divide="ignore"):
        fair = float(np.max(at_margin / (margin - est))) if np.all(est < margin) else math.inf
        diff = float(np.min(at_zero / est))
    needed = [
        _fixed_point(ratio, blocks, lambda d, p=p: float(sps.t.ppf(1 - p, d)))
        for ratio, p in ((fair, level), (diff, level / (2 * family)))
    ]
    return min(needed)


def _fixed_point(ratio: float, blocks: int, quantile: Any) -> float:
    """B' = B · (q(B' − 1) · ratio)², iterated from q on B − 1 df (q falls as B' grows, so it converges
    from above in a few steps); inf for an infinite ratio."""
    if not math.isfinite(ratio):
        return math.inf
    needed = float(blocks)
    for _ in range(8):
        needed = blocks * (quantile(max(needed, 2.0) - 1) * ratio) ** 2
    return needed


@dataclass(frozen=True)
class Decision:
    """One verdict decided against a margin.

    * ``question`` ("seats", "change", "difference") and ``decision``: one of ``OUTCOMES[question]``;
      ``margin`` (δ, in the estimates' unit), ``alpha`` (the error rate each claim keeps) and ``level``
      (what this decision was made at: α, or a look's α_j under ``stopping``).
    * per position (``labels``): ``expected`` (the even share, or 0), ``estimates`` (the deviation from
      it, the change or the difference), ``intervals`` with ``p_values`` (the simultaneous (1 − α)
      interval and the Holm-adjusted two-sided p of "no deviation": one statistic), and
      ``equivalence_intervals`` with ``equivalence_p_values`` (the (1 − 2α) interval and its TOST p).
    * ``equivalence_p`` (intersection-union), ``difference_p`` (the smallest adjusted p), ``decisive``
      (the position the verdict's sentence is about: the worst TOST where equivalence is shown or
      nothing is, the smallest adjusted p where a difference is), ``beyond_margin`` (a difference shown
      whose interval lies wholly beyond ±δ: True; wholly inside: False; else None).
    * ``half_width``: the widest (1 − 2α) interval's half-width; ``blocks_needed`` / ``games_needed``:
      for an undecided verdict, about how many more blocks (and games: blocks × games per block) would
      decide it if the estimates held (None otherwise, and where no number would).
    * ``blocks``, ``games``, ``df``, ``test``, ``correction`` with ``family`` (the difference test's),
      ``stopping`` (the stopping rule and look; empty for a fixed sample)."""

    question: str
    decision: str
    margin: float
    alpha: float
    level: float
    labels: tuple[str, ...]
    expected: tuple[float, ...]
    estimates: tuple[float, ...]
    intervals: tuple[tuple[float, float], ...]
    p_values: tuple[float, ...]
    equivalence_intervals: tuple[tuple[float, float], ...]
    equivalence_p_values: tuple[float, ...]
    equivalence_p: float
    difference_p: float
    decisive: int
    beyond_margin: bool | None
    half_width: float
    blocks_needed: int | None
    games_needed: int | None
    blocks: int
    games: float
    df: float
    test: str
    correction: str
    family: int
    stopping: str = ""

    @property
    def shown(self) -> str:
        """Which claim the decision rests on: "equivalence", "difference" or "" (undecided)."""
        words = OUTCOMES[self.question]
        return {words[1]: "equivalence", words[2]: "difference"}.get(self.decision, "")

    @property
    def estimate(self) -> float:
        """The decisive position's estimate."""
        return self.estimates[self.decisive]

    @property
    def interval(self) -> tuple[float, float]:
        """The decisive statistic's interval: the simultaneous one for a difference shown, else the
        (1 − 2α) one of the equivalence test."""
        pick = self.intervals if self.shown == "difference" else self.equivalence_intervals
        return pick[self.decisive]

    @property
    def p_value(self) -> float:
        """The decisive statistic's p value, the dual of ``interval``: the Holm-adjusted p for a difference
        shown, else the intersection-union p of the equivalence test."""
        return self.difference_p if self.shown == "difference" else self.equivalence_p

    def to_finding(self) -> dict[str, Any]:
        """The verdict as plain data, with ``analysis.present.findings.Finding``'s field names for the
        decisive statistic (``estimate``, ``low``, ``high``, ``p_value``, ``p_adjusted``, ``test``, ``games``,
        ``clusters``, ``correction``, ``family``, ``unit``, ``expected``) and the decision's own
        (``decision``, ``margin``, ``alpha``, ``level``, ``position``, ``beyond_margin``, ``half_width``,
        ``blocks_needed``, ``games_needed``, ``stopping``).  No nan: missing numbers are None."""
        low, high = self.interval
        difference = self.shown == "difference"
        return {
            "decision": self.decision,
            "question": self.question,
            "margin": _plain(self.margin),
            "alpha": _plain(self.alpha),
            "level": _plain(self.level),
            "position": self.labels[self.decisive],
            "estimate": _plain(self.estimate),
            "low": _plain(low),
            "high": _plain(high),
            "p_value": _plain(self.p_value),
            "p_adjusted": _plain(self.p_value),
            "test": self.test,
            "games": _plain(self.games),
            "clusters": self.blocks,
            "correction": self.correction if difference else "intersection-union (no correction needed)",
            "family": self.family if difference else len(self.labels),
            "unit": "difference",
            "expected": 0.0,
            "beyond_margin": self.beyond_margin,
            "half_width": _plain(self.half_width),
            "blocks_needed": self.blocks_needed,
            "games_needed": self.games_needed,
            "stopping": self.stopping,
        }

    def rows(self) -> list[dict[str, Any]]:
        """One plain row per position: ``position``, ``expected``, ``estimate``, ``low``/``high`` with
        ``p_adjusted`` (the simultaneous interval and Holm's p) and ``eq_low``/``eq_high`` with
        ``p_equivalence`` (the (1 − 2α) interval and its TOST p)."""
        return [
            {
                "position": label,
                "expected": _plain(self.expected[i]),
                "estimate": _plain(self.estimates[i]),
                "low": _plain(self.intervals[i][0]),
                "high": _plain(self.intervals[i][1]),
                "p_adjusted": _plain(self.p_values[i]),
                "eq_low": _plain(self.equivalence_intervals[i][0]),
                "eq_high": _plain(self.equivalence_intervals[i][1]),
                "p_equivalence": _plain(self.equivalence_p_values[i]),
            }
            for i, label in enumerate(self.labels)
        ]


def _plain(x: Any) -> float | None:
    """A float for JSON, None for nan and inf."""
    if x is None:
        return None
    value = float(x)
    return value if math.isfinite(value) else None


@dataclass(frozen=True)
class Frame:
    """What ``build`` needs besides the numbers: the question, labels, expected values, the margin, α
    and the level, the correction's family, the test's and correction's names, the stopping rule, and
    the level an undecided verdict's games are counted at (the next look's, else ``level``)."""

    question: str
    labels: tuple[str, ...]
    expected: tuple[float, ...]
    margin: float
    alpha: float
    level: float
    family: int
    correction: str
    stopping: str = ""
    next_level: float | None = None


def build(effects: Effects, tests: Tests, frame: Frame) -> Decision:
    """One ``Decision`` from ``decide``'s arrays for one verdict (no leading axes)."""
    outcome = int(tests.outcome)
    decision = OUTCOMES[frame.question][outcome]
    decisive = _decisive(tests, outcome)
    blocks, games = int(effects.blocks), float(effects.games)
    needed_blocks = needed_games = None
    if outcome == 0:
        level = frame.level if frame.next_level is None else frame.next_level
        more = blocks_to_decide(effects, frame.margin, level, frame.family)
        if math.isfinite(more):
            needed_blocks = max(1, math.ceil(more - blocks - 1e-9))
            needed_games = math.ceil(needed_blocks * games / blocks - 1e-9)
    return Decision(
        question=frame.question,
        decision=decision,
        margin=frame.margin,
        alpha=frame.alpha,
        level=frame.level,
        labels=frame.labels,
        expected=frame.expected,
        estimates=_floats(effects.estimate),
        intervals=tuple(zip(_floats(tests.low), _floats(tests.high), strict=True)),
        p_values=_floats(tests.adjusted_p),
        equivalence_intervals=tuple(zip(_floats(tests.eq_low), _floats(tests.eq_high), strict=True)),
        equivalence_p_values=_floats(tests.tost_p),
        equivalence_p=float(tests.equivalence_p),
        difference_p=float(tests.difference_p),
        decisive=decisive,
        beyond_margin=_beyond(tests, decisive, frame.margin) if outcome == 2 else None,
        half_width=_half_width(tests),
        blocks_needed=needed_blocks,
        games_needed=needed_games,
        blocks=blocks,
        games=games,
        df=float(np.min(np.broadcast_to(effects.df, np.shape(effects.estimate)))),
        test=effects.test,
        correction=frame.correction,
        family=frame.family,
        stopping=frame.stopping,
    )


def _floats(values: Array) -> tuple[float, ...]:
    return tuple(float(v) for v in np.atleast_1d(values))


def _decisive(tests: Tests, outcome: int) -> int:
    """The position a verdict's sentence is about: the smallest adjusted p where a difference is shown,
    else the largest TOST p (the position furthest from showing equivalence); the first on a tie."""
    if outcome == 2:
        return int(np.nanargmin(tests.adjusted_p))
    tost = np.where(np.isnan(tests.tost_p), np.inf, tests.tost_p)
    return int(np.argmax(tost))


def _beyond(tests: Tests, i: int, margin: float) -> bool | None:
    """Whether the simultaneous interval of position ``i`` lies wholly beyond ±δ (True), wholly inside
    (False), or straddles δ (None)."""
    low, high = float(tests.low[i]), float(tests.high[i])
    if low > margin or high < -margin:
        return True
    if -margin < low and high < margin:
        return False
    return None


def _half_width(tests: Tests) -> float:
    half = (np.asarray(tests.eq_high, float) - np.asarray(tests.eq_low, float)) / 2
    return float(np.max(half)) if np.all(np.isfinite(half)) else math.nan
