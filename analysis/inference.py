"""Inference that knows the design: the block is the independent unit (reference/analysis-methods.md).

Under ``--seats rotate`` and ``exhaustive`` the games of one block replay one deal under every seat
arrangement, so their outcomes are correlated; under ``random`` and ``fixed`` every game is its own
block (methods section 1).  Every function here works on *block totals*, with the blocks on the last
axis (and the positions after them where there are several), and broadcasts over any leading axes:
the analysis calls them on one group's blocks, the calibration suite (``tests/test_calibration.py``)
on a thousand replicates at once.

* ``seats_modes``, ``with_blocks``, ``design_seats``, ``design_games``: the ``block`` column, and the
  ``excluded`` flag of truncated and errored games.
* ``cluster_proportion`` / ``cluster_mean``: the ratio estimator with its block-total standard error,
  the design effect (DEFF), n_eff = n / DEFF, a Wilson-style interval on n_eff (proportions) or a t
  interval with B - 1 degrees of freedom (means); ``proportions_by`` applies it per group of a frame.
* ``paired_difference``: variants run on the same seeds and seats, paired by block (t on the
  per-block differences); ``cluster_difference``: two sets of different blocks.
* ``shares_test``: seat balance, the second-order Rao-Scott corrected chi-square on the blocks'
  win-share vectors (Hotelling's T² as the calibration's contrast), or the plain chi-square where
  every block is one game; the same test is the right one where each category appears once per game
  (methods section 4).
* ``category_win_test`` / ``category_wins``: do categories (tribes, drafted territories) seated 0, 1 or
  several times per game win equally often, one winner per game (methods section 4).
* ``adjust``: Holm or Benjamini-Hochberg over a named family of tests (statsmodels ``multipletests``).
* ``detectable_gap`` / ``games_needed``: power of the equal-chances chi-square at n_eff = n / DEFF.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import polars as pl
from scipy import optimize
from scipy import stats as sps
from statsmodels.stats.multitest import multipletests

from analysis import stats

if TYPE_CHECKING:
    from analysis.runs import Runs

#: seat modes whose games share a deal within a block of ``base_game``
BLOCK_MODES: tuple[str, ...] = ("rotate", "exhaustive")
#: what a manifest without ``config.seats`` ran under (``skald run``'s default)
DEFAULT_MODE = "rotate"
ALPHA = 0.05
METHODS = {"holm": "Holm", "fdr_bh": "Benjamini-Hochberg"}

Array = np.ndarray


# --------------------------------------------------------------------------- blocks


def block_key(seats_mode: str) -> str:
    """The column that names a game's block within its run (methods section 1): ``base_game`` under
    ``rotate``/``exhaustive`` (one deal replayed under every arrangement), ``game_id`` under ``random``
    and ``fixed`` (every game its own deal; there ``base_game`` equals ``game_id`` anyway)."""
    return "base_game" if seats_mode in BLOCK_MODES else "game_id"


def seats_modes(runs: Runs) -> dict[str, str]:
    """Each run's seat mode from its manifest (``config.seats``; ``rotate`` where a manifest lacks it)."""
    return {r.label: str(r.config.get("seats", DEFAULT_MODE)) for r in runs}


def with_blocks(frame: pl.LazyFrame, modes: Mapping[str, str]) -> pl.LazyFrame:
    """``frame`` (with ``run``, ``game_id`` and ``base_game``) with a ``block`` column: ``"<run>#<n>"``
    where n is the ``base_game`` or the ``game_id`` by the run's seat mode (``block_key``)."""
    blocked = [run for run, mode in modes.items() if block_key(mode) == "base_game"]
    number = pl.when(pl.col("run").is_in(blocked)).then(pl.col("base_game")).otherwise(pl.col("game_id"))
    return frame.with_columns(
        pl.concat_str([pl.col("run"), pl.lit("#"), number.cast(pl.String)]).alias("block")
    )


def _game_design(runs: Runs) -> pl.LazyFrame:
    """Per game: ``run``, ``game_id``, ``base_game``, ``block`` and ``excluded`` (truncated or errored;
    records before the error columns have ``truncated`` only, which counts errored games too)."""
    games = runs.raw("games")
    excluded = pl.col("truncated").fill_null(False)
    if "errored" in games.collect_schema().names():
        excluded = excluded | pl.col("errored").fill_null(False)
    frame = games.select("run", "game_id", "base_game", excluded.alias("excluded"))
    return with_blocks(frame, seats_modes(runs))


def design_seats(runs: Runs) -> pl.LazyFrame:
    """``Runs.seats()`` with the game's ``block``, ``base_game`` and ``excluded`` flag.

    Truncated and errored games have no winner: every rate leaves them out (``excluded``) and
    counts them beside the rate (issue 15, item 6)."""
    return runs.seats().join(_game_design(runs), on=["run", "game_id"], how="left", maintain_order="left")


def design_games(runs: Runs) -> pl.LazyFrame:
    """``Runs.games()`` with ``block`` and ``excluded`` (truncated or errored)."""
    design = _game_design(runs).drop("base_game")
    return runs.games().join(design, on=["run", "game_id"], how="left", maintain_order="left")


# --------------------------------------------------------------------------- rates and means


@dataclass(frozen=True)
class Estimate:
    """A proportion or mean from block totals, with its design effect and interval.

    ``low``/``high`` are nan where the interval is undefined (``fallback`` marks it); ``games`` and
    ``clusters`` (blocks) count what went in, ``excluded`` the truncated and errored games left out."""

    estimate: Array
    se: Array
    deff: Array
    n_eff: Array
    low: Array
    high: Array
    games: Array
    clusters: Array
    excluded: Array
    fallback: Array  # a degenerate sample: a rule of ``cluster_proportion`` or an undefined mean interval
    method: str


def _ratio(y: Array, m: Array) -> tuple[Array, Array, Array, Array]:
    """(estimate, se, n, B) of the ratio Σ y_b / Σ m_b over blocks with m_b > 0 (methods section 2):
    SE² = B/(B − 1) · Σ (y_b − p̂ m_b)² / (Σ m_b)²; nan se below two blocks."""
    y = np.asarray(y, dtype=float)
    m = np.asarray(m, dtype=float)
    n = m.sum(axis=-1)
    b = np.count_nonzero(m > 0, axis=-1)
    with np.errstate(divide="ignore", invalid="ignore"):
        est = np.where(n > 0, y.sum(axis=-1) / np.where(n > 0, n, 1), np.nan)
        resid = y - est[..., None] * m
        se2 = b / np.where(b > 1, b - 1, 1) * (resid**2).sum(axis=-1) / np.where(n > 0, n, 1) ** 2
    return est, np.sqrt(np.where(b > 1, se2, np.nan)), n, b


def _t95(blocks: Array) -> Array:
    """The two-sided 95% t quantile with B − 1 degrees of freedom (nan below two blocks)."""
    df = np.asarray(blocks, dtype=float) - 1
    return np.where(df >= 1, sps.t.ppf(0.975, np.where(df >= 1, df, 1)), np.nan)


def cluster_proportion(y: Array, m: Array, excluded: Array | int = 0) -> Estimate:
    """A rate from block totals: ``y`` the summed successes (win shares) and ``m`` the decided games
    of each block (last axis).

    * estimate and SE: the ratio estimator (methods section 2); DEFF = SE² / (p̂(1 − p̂)/n).
    * interval: Wilson's score interval at n_eff = n / DEFF with the t quantile on B − 1 df in place
      of z, since few blocks make the SE itself uncertain (section 2, "few blocks").
    * never zero width (``fallback``): where no block differs from p̂ (SE = 0, as when rotation forces
      every seat to win once per block) DEFF is taken as 1/m̄ (m̄ = games per block); an all-or-none
      rate (p̂ = 0 or 1) has no DEFF estimate and takes n_eff = B, one observation per block (as if
      the block's games were fully correlated), so its interval is Wilson's (near the rule of three)
      on B.
    * fewer than two blocks: the uninformative [0, 1].
    """
    est, se, n, b = _ratio(y, m)
    with np.errstate(divide="ignore", invalid="ignore"):
        naive = est * (1 - est) / np.where(n > 0, n, 1)
        extreme = (est <= 0) | (est >= 1)
        still = ~extreme & (se**2 <= 1e-12 * naive)  # DEFF 0 up to rounding
        deff = np.where(extreme, np.nan, np.where(still, b / np.where(n > 0, n, 1), se**2 / naive))
        n_eff = np.where(extreme, b, n / deff)
    t = _t95(b)
    low, high = stats.wilson_interval(est * n_eff, n_eff, np.where(np.isnan(t), 1.0, t))
    few = (b < 2) | np.isnan(est)
    return Estimate(
        est,
        np.where(still, np.sqrt(deff * naive), se),
        deff,
        n_eff,
        np.where(few, 0.0, low),
        np.where(few, 1.0, high),
        n,
        b,
        np.asarray(excluded),
        (extreme | still) & ~few,
        "cluster Wilson (t, B-1 df)",
    )


def cluster_mean(y: Array, m: Array, q: Array, excluded: Array | int = 0) -> Estimate:
    """A mean from block totals: ``y`` the summed values, ``m`` the games and ``q`` the summed squares
    of each block (last axis).

    The ratio estimator and its block-total SE (methods section 2), DEFF = SE² / (s²/n) with s² the
    games' sample variance, and a t interval with B − 1 df.  Where the SE is 0 (no block's mean differs,
    or no game differs: s² = 0) the interval is undefined (nan bounds, ``fallback``) rather than
    [x, x]; so it is below two blocks.
    """
    est, se, n, b = _ratio(y, m)
    q = np.asarray(q, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        s2 = (q.sum(axis=-1) - n * est**2) / (n - 1)
        scale = np.maximum(q.sum(axis=-1) / n, 1e-300)
        flat = (s2 <= 1e-12 * scale) | (se**2 <= 1e-24 * scale)  # rounding, not variation
        deff = np.where(flat, np.nan, se**2 / (s2 / n))
        half = np.where(flat, np.nan, _t95(b) * se)
    return Estimate(
        est,
        se,
        deff,
        n / deff,
        est - half,
        est + half,
        n,
        b,
        np.asarray(excluded),
        flat,
        "cluster t (B-1 df)",
    )


@dataclass(frozen=True)
class Difference:
    """A difference (b − a) with its 95% interval and two-sided p value; nan where undefined."""

    estimate: Array
    se: Array
    low: Array
    high: Array
    p_value: Array
    df: Array
    clusters: Array
    test: str


def _t_result(diff: Array, se: Array, df: Array, clusters: Array, test: str) -> Difference:
    with np.errstate(divide="ignore", invalid="ignore"):
        ok = (se > 0) & (df >= 1)
        dfs = np.where(ok, df, 1.0)
        t = np.where(ok, np.abs(diff) / np.where(ok, se, 1), np.nan)
        same = (se == 0) & (df >= 1) & (diff == 0)  # every block gave the same, zero, difference
        p = np.where(ok, 2 * sps.t.sf(t, dfs), np.where(same, 1.0, np.nan))
        half = np.where(ok, sps.t.ppf(0.975, dfs) * se, np.nan)
    return Difference(diff, se, diff - half, diff + half, p, df, clusters, test)


def paired_difference(a: Array, b: Array) -> Difference:
    """Paired comparison of two variants run on the same seeds and seats (methods section 2).

    ``a[..., i]`` and ``b[..., i]`` are the two variants' means (or rates) in matched block i (the
    same ``base_game``).  The estimate is the mean of d_i = b_i − a_i, with a t interval and test on
    B − 1 df.  The pairing removes the deal's variance.  Where every d_i is equal the SE is 0: the
    interval is undefined (nan) and p is 1 when that common difference is 0, nan otherwise."""
    d = np.asarray(b, dtype=float) - np.asarray(a, dtype=float)
    k = d.shape[-1]
    diff = d.mean(axis=-1)
    spread = d.max(axis=-1) - d.min(axis=-1)
    se = d.std(axis=-1, ddof=1) / math.sqrt(k) if k > 1 else np.full(diff.shape, np.nan)
    se = np.where(spread > 0, se, 0.0)  # equal differences: exactly 0, not rounding noise
    return _t_result(diff, se, np.asarray(k - 1.0), np.asarray(k), "paired t on block differences")


def cluster_difference(a: Estimate, b: Estimate) -> Difference:
    """``b − a`` for two estimates on *different* blocks: SE = √(SE_a² + SE_b²), a t reference with
    Welch-Satterthwaite degrees of freedom built from each side's B − 1."""
    va, vb = np.asarray(a.se, dtype=float) ** 2, np.asarray(b.se, dtype=float) ** 2
    with np.errstate(divide="ignore", invalid="ignore"):
        df = (va + vb) ** 2 / (va**2 / (a.clusters - 1) + vb**2 / (b.clusters - 1))
    diff = np.asarray(b.estimate, dtype=float) - np.asarray(a.estimate, dtype=float)
    return _t_result(
        diff, np.sqrt(va + vb), df, a.clusters + b.clusters, "cluster-robust t (Satterthwaite df)"
    )


# --------------------------------------------------------------------------- seat balance


@dataclass(frozen=True)
class SharesTest:
    """A test that k positions (seats, or categories present once per game) share the wins equally."""

    statistic: Array
    p_value: Array
    df_num: Array
    df_den: Array  # nan for the chi-square
    deff: Array  # Rao-Scott mean generalized design effect (1 for the chi-square on single games)
    games: Array
    clusters: Array
    test: str


def _share_cov(y: Array, m: Array) -> tuple[Array, Array, Array, Array]:
    """(clustered covariance of the first k − 1 shares, the shares, n, B) by the ratio estimator."""
    y = np.asarray(y, dtype=float)
    m = np.asarray(m, dtype=float)
    n = m.sum(axis=-1)
    b = np.count_nonzero(m > 0, axis=-1)
    with np.errstate(divide="ignore", invalid="ignore"):
        shares = y.sum(axis=-2) / n[..., None]
        resid = (y - shares[..., None, :] * m[..., None])[..., :-1]
        scale = b / np.where(b > 1, b - 1, 1) / n**2
        cov = np.einsum("...bi,...bj->...ij", resid, resid) * scale[..., None, None]
    return np.nan_to_num(cov), shares, n, b


def _deff_eigenvalues(cov: Array, n: Array, k: int) -> Array:
    """The generalized design effects (methods section 3): the eigenvalues of n · P0⁻¹ V, V the clustered
    covariance of the k − 1 free shares and P0 = diag(p0) − p0 p0' (p0 = 1/k) their multinomial one per
    game under equal chances; computed as the symmetric n · L⁻¹ V L⁻ᵀ with P0 = L Lᵀ."""
    p0 = np.full(k - 1, 1.0 / k)
    inv = np.linalg.inv(np.linalg.cholesky(np.diag(p0) - np.outer(p0, p0)))
    return np.linalg.eigvalsh(inv @ cov @ inv.T) * np.asarray(n, dtype=float)[..., None]


def _pearson(y: Array) -> tuple[Array, Array]:
    """(X², decided games): Pearson's statistic of the positions' summed win shares against equal chances."""
    wins = y.sum(axis=-2)
    total = wins.sum(axis=-1)
    with np.errstate(divide="ignore", invalid="ignore"):
        expected = total[..., None] / y.shape[-1]
        chi2 = ((wins - expected) ** 2 / expected).sum(axis=-1)
    return np.where(total > 0, chi2, np.nan), total


def shares_test(y: Array, m: Array, method: str = "rao-scott") -> SharesTest:
    """Do k positions win equal shares?  ``y[..., b, i]`` are block b's summed win shares of position
    i and ``m[..., b]`` its decided games.

    * Where every block is one game (``random``/``fixed`` seats, or one distinct arrangement), the
      Pearson chi-square goodness-of-fit test with k − 1 df (methods section 3, independent games).
    * Otherwise (``method="rao-scott"``) the second-order Rao-Scott corrected chi-square: with λ the
      generalized design effects (``_deff_eigenvalues``), δ̄ their mean and a² their squared coefficient
      of variation, X² / (δ̄ (1 + a²)) on d = (k − 1)/(1 + a²) df (Satterthwaite).  With two positions
      there is one λ and X²/δ̄ is the square of a t statistic: it is referred to F(1, B − 1).
    * ``method="hotelling"``: Hotelling's T² on the blocks' share vectors (the cluster-robust Wald
      statistic, F(k − 1, B − k + 1) reference).  The calibration suite keeps it as the contrast: with
      fewer than about 60 blocks it rejects too often (7.4% at 30 blocks of 4 games with a strong deal
      effect, 10.5% at 15; the Rao-Scott test 4.6% and 4.4%).

    Where the blocks never vary (δ̄ = 0) p is 1 if the shares are equal and nan otherwise; below two
    blocks, nan.  The same test answers "does the winning category follow 1/k" where every category
    is present once per game (tribes, drafted territories; methods section 4): a 2×k table of wins and
    losses (``stats.rates_independence_test``) is the wrong model there.
    """
    y = np.asarray(y, dtype=float)
    m = np.asarray(m, dtype=float)
    k = y.shape[-1]
    chi2, total = _pearson(y)
    if np.all(m <= 1):
        ones = np.ones(chi2.shape)
        return SharesTest(
            chi2, sps.chi2.sf(chi2, k - 1), (k - 1) * ones, np.nan * ones, ones, total, total, "chi-square"
        )
    cov, shares, n, b = _share_cov(y, m)
    ev = np.clip(_deff_eigenvalues(cov, n, k), 0.0, None)
    delta = ev.mean(axis=-1)
    with np.errstate(divide="ignore", invalid="ignore"):
        if method == "hotelling":
            stat, df_num, df_den, test = _hotelling(cov, shares[..., :-1] - 1.0 / k, b)
        elif method == "rao-scott":
            a2 = ((ev - delta[..., None]) ** 2).mean(axis=-1) / delta**2 if k > 2 else np.zeros(delta.shape)
            df_num = (k - 1) / (1 + a2)
            stat = chi2 / (delta * (1 + a2))
            df_den = (b - 1.0) if k == 2 else np.full(stat.shape, np.inf)
            test = "Rao-Scott chi-square (t², F(1, B-1))" if k == 2 else "Rao-Scott chi-square (2nd order)"
        else:
            raise ValueError(f"unknown seat test {method!r} (allowed: rao-scott, hotelling)")
        ok = (b >= 2) & (delta > 0) & np.isfinite(stat)
        p = np.where(ok, _f_or_chi2_sf(stat, df_num, df_den), np.nan)
    flat = (b >= 2) & (delta <= 0)
    p = np.where(flat, np.where(chi2 < 1e-12, 1.0, np.nan), p)
    return SharesTest(np.where(flat, 0.0, stat), p, df_num, df_den, delta, n, b, test)


def _f_or_chi2_sf(stat: Array, df_num: Array, df_den: Array) -> Array:
    """Upper tail of F(df_num, df_den) for ``stat`` / df_num, or of χ²(df_num) where df_den is infinite."""
    safe_num = np.where(np.isfinite(df_num) & (df_num > 0), df_num, 1.0)
    safe_den = np.where(np.isfinite(df_den) & (df_den > 0), df_den, 1.0)
    return np.where(
        np.isinf(df_den), sps.chi2.sf(stat, safe_num), sps.f.sf(stat / safe_num, safe_num, safe_den)
    )


def _hotelling(cov: Array, d: Array, b: Array) -> tuple[Array, Array, Array, str]:
    """(r·F, r, B − r, name): Hotelling's T² = d' V⁻¹ d over the r directions in which V varies, scaled
    to F(r, B − r) by (B − r)/((B − 1) r) and returned times r (``_f_or_chi2_sf`` divides by df_num)."""
    w, vec = np.linalg.eigh(cov)
    keep = w > 1e-10 * np.maximum(w.max(axis=-1, keepdims=True), 1e-300)
    proj = np.einsum("...ji,...j->...i", vec, d)
    wald = np.where(keep, proj**2 / np.where(keep, w, 1), 0.0).sum(axis=-1)
    r = keep.sum(axis=-1).astype(float)
    df_den = b - r
    return np.where(df_den > 0, wald * df_den / (b - 1), np.nan), r, df_den, "Hotelling T² on blocks (F)"


def one_per_game_test(wins: Sequence[float] | Array) -> SharesTest:
    """The test where each of k categories appears exactly once per game (methods section 4): the
    winning category is one multinomial draw per game, so a goodness-of-fit chi-square of the
    categories' summed win shares against 1/k with k − 1 df (``shares_test`` on single-game blocks).
    ``wins[..., i]``: category i's summed win shares over independent games."""
    w = np.asarray(wins, dtype=float)
    return shares_test(w[..., None, :], np.ones((*w.shape[:-1], 1)))


# --------------------------------------------------------------------------- two variants' seats


def _gap(y: Array, m: Array) -> Array:
    """The largest gap between the positions' win rates, Σ_b y_b / Σ_b m_b (blocks on axis −2)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        rates = np.asarray(y, dtype=float).sum(axis=-2) / np.asarray(m, dtype=float).sum(axis=-1)[..., None]
    return rates.max(axis=-1) - rates.min(axis=-1)


def _weighted_gap(y: Array, m: Array, weights: Array) -> Array:
    """``_gap`` of each bootstrap resample: ``weights[r, b]`` is how often resample r draws block b;
    the result has the resamples on the last axis."""
    with np.errstate(divide="ignore", invalid="ignore"):
        rates = np.einsum("...bk,rb->...rk", y, weights) / np.einsum("...b,rb->...r", m, weights)[..., None]
    return rates.max(axis=-1) - rates.min(axis=-1)


def _jackknife_gaps(y: Array, m: Array) -> Array:
    """``_gap`` with each block left out in turn (the blocks on the last axis of the result)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        rates = (y.sum(axis=-2, keepdims=True) - y) / (m.sum(axis=-1, keepdims=True) - m)[..., None]
    return rates.max(axis=-1) - rates.min(axis=-1)


def _jackknife_var(values: Array) -> Array:
    """The delete-one jackknife variance, (B − 1)/B · Σ (θ₋b − θ̄)², of values on the last axis."""
    b = values.shape[-1]
    return (b - 1) / b * ((values - values.mean(axis=-1, keepdims=True)) ** 2).sum(axis=-1)


@dataclass(frozen=True)
class GapDifference:
    """Two variants' largest seat win-rate gaps: the plain gaps (``base``, ``value``), the bias-corrected
    ones (``base_corrected``, ``corrected``) and their difference with its 95% interval."""

    base: Array
    value: Array
    base_corrected: Array
    corrected: Array
    estimate: Array
    se: Array
    low: Array
    high: Array
    df: Array
    clusters: Array
    test: str


def gap_difference(
    ya: Array, ma: Array, yb: Array, mb: Array, *, paired: bool, seed: int, resamples: int = 400
) -> GapDifference:
    """``b − a`` of the largest gap between k positions' win rates, knowing the design (issue 15, item 4).

    ``y[..., b, i]`` is block b's summed win shares of position i, ``m[..., b]`` its decided games.

    * A max − min of estimated rates is biased upwards (its noise always shows some spread), the more so
      the closer the rates: each side's gap is bias-corrected by a bootstrap of whole blocks,
      2·ĝ − mean(ĝ*), with ``resamples`` resamples drawn from ``seed``.  Resampling single games would
      break the rotation's balance (every strategy through every seat in a block).
    * ``paired`` (variants on the same seeds and seats: block b of a and of b hold one deal; the blocks
      must be in the same order): one resample draws the same pairs on both sides, and the SE is the
      delete-one-pair jackknife's, t on B − 1 df.  Otherwise each side is resampled and left out on its
      own blocks, SE² = SE_a² + SE_b², t on Welch-Satterthwaite df.

    The jackknife SE is wider than the bootstrap's for this non-smooth statistic, and that is what holds
    the interval's coverage (``tests/test_calibration_variants.py``); at exact ties (both variants fair)
    it covers 0 more often than 95%."""
    ya, yb = np.asarray(ya, dtype=float), np.asarray(yb, dtype=float)
    ma, mb = np.asarray(ma, dtype=float), np.asarray(mb, dtype=float)
    rng = np.random.default_rng(seed)
    blocks_a, blocks_b = ma.shape[-1], mb.shape[-1]
    wa = rng.multinomial(blocks_a, np.full(blocks_a, 1.0 / blocks_a), size=resamples).astype(float)
    wb = wa if paired else rng.multinomial(blocks_b, np.full(blocks_b, 1.0 / blocks_b), size=resamples)
    ga, gb = _gap(ya, ma), _gap(yb, mb)
    with np.errstate(invalid="ignore"):
        ca = 2 * ga - np.nanmean(_weighted_gap(ya, ma, wa), axis=-1)
        cb = 2 * gb - np.nanmean(_weighted_gap(yb, mb, np.asarray(wb, dtype=float)), axis=-1)
        if paired:
            var = _jackknife_var(_jackknife_gaps(yb, mb) - _jackknife_gaps(ya, ma))
            df = np.full(np.shape(var), blocks_a - 1.0)
            clusters = np.full(np.shape(var), blocks_a)
            test = "paired block bootstrap, bias-corrected; jackknife t (B-1 df)"
        else:
            va, vb = _jackknife_var(_jackknife_gaps(ya, ma)), _jackknife_var(_jackknife_gaps(yb, mb))
            var = va + vb
            df = var**2 / (va**2 / (blocks_a - 1) + vb**2 / (blocks_b - 1))
            clusters = np.full(np.shape(var), blocks_a + blocks_b)
            test = "block bootstrap, bias-corrected; jackknife t (Satterthwaite df)"
    result = _t_result(cb - ca, np.sqrt(var), df, clusters, test)
    return GapDifference(
        ga, gb, ca, cb, result.estimate, result.se, result.low, result.high, df, clusters, test
    )


@dataclass(frozen=True)
class HomogeneityTest:
    """Do two variants share one seat pattern?  The 2 × k chi-square of their seat wins, referred to its
    distribution over ``permutations`` relabellings of whole blocks."""

    statistic: Array
    p_value: Array
    clusters: Array
    permutations: int
    test: str


def _two_row_chi2(wa: Array, na: Array, wb: Array, nb: Array) -> Array:
    """Pearson's chi-square of the 2 × k table of win shares ``wa``/``wb`` (positions last) with row totals
    ``na``/``nb``; positions no side won leave the sum."""
    total = wa + wb
    n = na + nb
    with np.errstate(divide="ignore", invalid="ignore"):
        ea = total * (na / n)[..., None]
        eb = total * (nb / n)[..., None]
        cells = np.where(ea > 0, (wa - ea) ** 2 / ea, 0.0) + np.where(eb > 0, (wb - eb) ** 2 / eb, 0.0)
    return cells.sum(axis=-1)


def homogeneity_test(
    ya: Array, ma: Array, yb: Array, mb: Array, *, paired: bool, seed: int, permutations: int = 2000
) -> HomogeneityTest:
    """Do the seats' shares of the wins differ between two variants (issue 15, item 4: "the homogeneity
    test as the main test of a variant comparison")?  ``y[..., b, i]``: block b's win shares of position i,
    ``m[..., b]`` its decided games.

    The statistic is the chi-square of the 2 × k table of summed win shares; its reference distribution
    comes from relabelling whole blocks (methods section 2, "a permutation of whole blocks"), so it holds
    whatever the blocks' inner dependence: ``paired`` (the same seeds and seats: block b of a and of b
    share a deal, the blocks in the same order), each pair's two labels are swapped at random; otherwise
    the pooled blocks are split at random into two sets of the two sizes.  p = (1 + #{X²* ≥ X²}) / (1 +
    ``permutations``), the relabellings drawn from ``seed``.  A changed seat pattern shows here even where
    the largest gap stays the same."""
    ya, yb = np.asarray(ya, dtype=float), np.asarray(yb, dtype=float)
    ma, mb = np.asarray(ma, dtype=float), np.asarray(mb, dtype=float)
    rng = np.random.default_rng(seed)
    observed = _two_row_chi2(ya.sum(axis=-2), ma.sum(axis=-1), yb.sum(axis=-2), mb.sum(axis=-1))
    if paired:
        swap = (rng.random((permutations, ma.shape[-1])) < 0.5).astype(float)
        dy, dm = yb - ya, mb - ma
        shift_y = np.einsum("...bk,pb->...pk", dy, swap)
        shift_m = np.einsum("...b,pb->...p", dm, swap)
        wa = ya.sum(axis=-2)[..., None, :] + shift_y
        na = ma.sum(axis=-1)[..., None] + shift_m
        wb = yb.sum(axis=-2)[..., None, :] - shift_y
        nb = mb.sum(axis=-1)[..., None] - shift_m
        clusters, test = ma.shape[-1], f"chi-square, paired blocks' labels swapped ({permutations} times)"
    else:
        y = np.concatenate([ya, yb], axis=-2)
        m = np.concatenate([ma, mb], axis=-1)
        pooled = m.shape[-1]
        order = np.argsort(rng.random((permutations, pooled)), axis=-1)
        in_a = np.zeros((permutations, pooled))
        np.put_along_axis(in_a, order[:, : ma.shape[-1]], 1.0, axis=-1)
        wa = np.einsum("...bk,pb->...pk", y, in_a)
        na = np.einsum("...b,pb->...p", m, in_a)
        wb = y.sum(axis=-2)[..., None, :] - wa
        nb = m.sum(axis=-1)[..., None] - na
        clusters, test = pooled, f"chi-square, blocks permuted between the two ({permutations} times)"
    shuffled = _two_row_chi2(wa, na, wb, nb)
    p = (1 + np.count_nonzero(shuffled >= observed[..., None] * (1 - 1e-12), axis=-1)) / (1 + permutations)
    ok = (ma.sum(axis=-1) > 0) & (mb.sum(axis=-1) > 0)
    return HomogeneityTest(observed, np.where(ok, p, np.nan), np.asarray(clusters), permutations, test)


# --------------------------------------------------------------------------- many tests


@dataclass(frozen=True)
class Adjusted:
    """Adjusted p values of one family of tests, its size (tests with a p value) and the method."""

    p_adjusted: Array
    family: int
    method: str


def adjust(p_values: Sequence[float] | Array, method: str = "holm") -> Adjusted:
    """Holm (``"holm"``, family-wise error) or Benjamini-Hochberg (``"fdr_bh"``, false discovery rate)
    adjusted p values over one family (methods section 5), via statsmodels ``multipletests``.
    nan p values stay nan and are not counted in the family."""
    if method not in METHODS:
        raise ValueError(f"unknown correction {method!r} (allowed: {', '.join(METHODS)})")
    p = np.asarray(p_values, dtype=float)
    out = np.full(p.shape, np.nan)
    ok = ~np.isnan(p)
    if ok.any():
        out[ok] = multipletests(p[ok], alpha=ALPHA, method=method)[1]
    return Adjusted(out, int(ok.sum()), METHODS[method])


# --------------------------------------------------------------------------- power


def _lambda_needed(k: int, alpha: float, power: float) -> float:
    """The noncentrality at which the chi-square test on k − 1 df reaches ``power`` at level ``alpha``."""
    crit = sps.chi2.ppf(1 - alpha, k - 1)
    return float(optimize.brentq(lambda lam: sps.ncx2.sf(crit, k - 1, lam) - power, 1e-9, 1e4))


def _w2_per_gap2(k: int) -> float:
    """Cohen's w² per squared max−min gap for one seat up by δ, the rest down δ/(k − 1) each:
    w² = k²δ²/(k − 1) and gap = δ·k/(k − 1), so w² = (k − 1)·gap²."""
    return float(k - 1)


def detectable_gap(
    games: float, k: int, deff: float = 1.0, alpha: float = ALPHA, power: float = 0.8
) -> float:
    """The smallest max−min gap between seat win rates that the equal-chances chi-square finds with
    probability ``power`` (methods section 6): one seat up by δ, the rest down evenly, noncentral
    chi-square with λ = N·w², N replaced by n_eff = games / DEFF.  nan without games or seats."""
    if k < 2 or not games or games <= 0 or not deff or not math.isfinite(deff) or deff <= 0:
        return math.nan
    return math.sqrt(_lambda_needed(k, alpha, power) / (games / deff) / _w2_per_gap2(k))


def games_needed(gap: float, k: int, deff: float = 1.0, alpha: float = ALPHA, power: float = 0.8) -> float:
    """Decided games the equal-chances chi-square needs to find a max−min seat gap ``gap`` with
    probability ``power`` (the inverse of ``detectable_gap``, times DEFF)."""
    if k < 2 or gap <= 0:
        return math.nan
    return math.ceil(deff * _lambda_needed(k, alpha, power) / (_w2_per_gap2(k) * gap**2) - 1e-9)


# --------------------------------------------------------------------------- frames

#: the columns ``proportions_by`` adds after its keys
RATE_COLUMNS: dict[str, pl.DataType] = {
    "games": pl.Int64(),
    "wins": pl.Float64(),
    "win_rate": pl.Float64(),
    "ci_low": pl.Float64(),
    "ci_high": pl.Float64(),
    "se": pl.Float64(),
    "deff": pl.Float64(),
    "n_eff": pl.Float64(),
    "blocks": pl.Int64(),
    "interval_note": pl.String(),
}


def block_totals(frame: pl.DataFrame | pl.LazyFrame, keys: Sequence[str], value: str) -> pl.DataFrame:
    """Per ``keys`` and ``block``: ``y`` (sum of ``value``), ``m`` (rows) and ``q`` (sum of squares)."""
    return (
        frame.lazy()
        .group_by([*keys, "block"])
        .agg(
            pl.col(value).cast(pl.Float64).sum().alias("y"),
            pl.len().cast(pl.Float64).alias("m"),
            (pl.col(value).cast(pl.Float64) ** 2).sum().alias("q"),
        )
        .sort([*keys, "block"])
        .collect()
    )


def proportions_by(
    frame: pl.DataFrame | pl.LazyFrame, keys: Sequence[str], value: str = "win_share"
) -> pl.DataFrame:
    """Per ``keys``: ``cluster_proportion`` of ``value`` over the rows of ``frame`` (which must carry a
    ``block`` column and hold only decided games): games (rows), wins, win_rate, ci_low, ci_high, se,
    deff, n_eff, blocks and ``interval_note`` (empty unless a rule of ``cluster_proportion`` applied)."""
    totals = block_totals(frame, keys, value)
    rows = []
    for key, group in totals.group_by(list(keys), maintain_order=True):
        est = cluster_proportion(group["y"].to_numpy(), group["m"].to_numpy())
        p = float(est.estimate)
        note = ""
        if bool(est.fallback):
            note = "all or none: n_eff = blocks" if p in (0.0, 1.0) else "no block differs: DEFF taken as 1/m"
        rows.append(
            (
                *key,
                int(est.games),
                float(group["y"].sum()),
                p,
                float(est.low),
                float(est.high),
                float(est.se),
                float(est.deff),
                float(est.n_eff),
                int(est.clusters),
                note,
            )
        )
    schema = {**{k: totals.schema[k] for k in keys}, **RATE_COLUMNS}
    return pl.DataFrame(rows, schema=schema, orient="row")


# --------------------------------------------------------------------------- one winner per game


def category_win_test(
    counts: np.ndarray, wins: np.ndarray, players: np.ndarray, blocks: np.ndarray | None = None
) -> tuple[float, float, int]:
    """(chi2, p, dof): do k categories (tribes, drafted territories) win equally often, where game g seats
    ``counts[g, i]`` players of category i (0, 1 or several), who win ``wins[g, i]`` summed shares, of
    ``players[g]`` seats?  Issue 15, item 2 (methods section 4).

    Under equal chances the winner is one of a game's seats, each with chance 1/P_g: one multinomial draw
    per game.  So category i's wins have mean E_i = Σ_g c_gi/P_g and the categories' covariance is
    V = Σ_g (diag(c_g)/P_g − c_g c_gᵀ/P_g²); the test is the Wald statistic (W − E)ᵀ V⁺ (W − E) on the
    rank of V (k − 1 where the categories meet) degrees of freedom.  Where every category is seated once
    in every game it is ``one_per_game_test``'s chi-square; the 2×k table of wins and losses
    (``stats.rates_independence_test``) ignores that a game's wins sum to one and is k/(k − 1) times it.

    ``blocks[g]`` names game g's block: where blocks hold several games (rotation: one deal replayed),
    the games are not independent, and the statistic takes the second-order Rao-Scott correction (as
    ``shares_test``): with λ the eigenvalues of V⁻¹ V_B, V_B the covariance of the blocks' summed
    W − E, X² / (δ̄ (1 + a²)) on dof / (1 + a²) df.  Ties (shares of 1/k) make it conservative.  nan
    without two categories that meet.

    ``wins`` may be any yes/no outcome of the seats, several per game (Greenland's survival): given
    game g's total T_g, equal chances put its T_g successes on a random T_g of its P_g seats (a
    permutation among the seats of the game), so E_i = Σ_g T_g c_gi/P_g and game g's covariance is
    f_g = T_g (P_g − T_g)/(P_g − 1) times the one-winner one (multivariate hypergeometric); one winner
    per game is T_g = 1, f_g = 1, and a game where every seat or none succeeds (f_g = 0) says nothing."""
    c = np.asarray(counts, dtype=float)
    p = np.asarray(players, dtype=float)
    won = np.asarray(wins, dtype=float)
    total = won.sum(axis=1)
    f = np.where(p > 1, total * (p - total) / np.where(p > 1, p - 1, 1), 0.0)
    share = c / p[:, None]
    excess = won - total[:, None] * share
    diff = excess.sum(axis=0)
    values, vectors = np.linalg.eigh(np.diag(f @ share) - share.T @ (f[:, None] * share))
    keep = values > 1e-9 * max(float(values.max(initial=0.0)), 1e-300)
    dof = int(keep.sum())
    if dof == 0:
        return math.nan, math.nan, 0
    scale = vectors[:, keep] / np.sqrt(values[keep])
    chi2 = float(((scale.T @ diff) ** 2).sum())
    if blocks is None or len(np.unique(blocks)) == len(blocks):
        return chi2, float(sps.chi2.sf(chi2, dof)), dof
    _, index = np.unique(np.asarray(blocks), return_inverse=True)
    totals = np.zeros((index.max() + 1, c.shape[1]))
    np.add.at(totals, index, excess)
    b = len(totals)
    standard = totals @ scale
    ev = np.clip(np.linalg.eigvalsh(b / (b - 1) * standard.T @ standard), 0.0, None)
    delta = float(ev.mean())
    if delta <= 0:
        return 0.0, (1.0 if chi2 < 1e-12 else math.nan), dof
    a2 = float(((ev - delta) ** 2).mean() / delta**2)
    stat, df = chi2 / (delta * (1 + a2)), dof / (1 + a2)
    return stat, float(sps.chi2.sf(stat, df)), dof


def category_wins(frame: pl.DataFrame, category: str, value: str = "win_share") -> tuple[float, float, int]:
    """``category_win_test`` on the decided seats in ``frame`` (``run``, ``game_id``, ``players``,
    ``category`` and ``value``, one row per seat: ``win_share``, or a yes/no outcome such as
    ``survived``; with a ``block`` column, games of one block are not independent), games and
    categories in sorted order."""
    index = ["run", "game_id", "players", *(["block"] if "block" in frame.columns else [])]
    games = frame.select(index).unique().sort("run", "game_id")
    levels = frame[category].unique().sort().to_list()
    per = (
        frame.group_by("run", "game_id", category)
        .agg(pl.len().alias("_n"), pl.col(value).cast(pl.Float64).sum().alias("_w"))
        .join(games.with_row_index("_g"), on=["run", "game_id"])
        .with_columns(pl.col(category).replace_strict(levels, list(range(len(levels)))).alias("_c"))
    )
    counts = np.zeros((games.height, len(levels)))
    wins = np.zeros_like(counts)
    rows, cols = per["_g"].to_numpy(), per["_c"].to_numpy()
    counts[rows, cols] = per["_n"].to_numpy()
    wins[rows, cols] = per["_w"].to_numpy()
    blocks = games["block"].to_numpy() if "block" in games.columns else None
    return category_win_test(counts, wins, games["players"].to_numpy(), blocks)


# --------------------------------------------------------------------------- means per group, held cards


#: the columns ``means_by`` adds after its keys
MEAN_COLUMNS: dict[str, pl.DataType] = {
    "games": pl.Int64(),
    "mean": pl.Float64(),
    "low": pl.Float64(),
    "high": pl.Float64(),
    "se": pl.Float64(),
    "deff": pl.Float64(),
    "blocks": pl.Int64(),
}


def means_by(frame: pl.DataFrame | pl.LazyFrame, keys: Sequence[str], value: str) -> pl.DataFrame:
    """Per ``keys``: ``cluster_mean`` of ``value`` over the rows of ``frame`` (which must carry a
    ``block`` column): games (rows), mean, low, high (t on blocks - 1 df; nan where undefined), se,
    deff and blocks."""
    totals = block_totals(frame, keys, value)
    rows = []
    for key, group in totals.group_by(list(keys), maintain_order=True):
        est = cluster_mean(group["y"].to_numpy(), group["m"].to_numpy(), group["q"].to_numpy())
        rows.append(
            (
                *key,
                int(est.games),
                float(est.estimate),
                float(est.low),
                float(est.high),
                float(est.se),
                float(est.deff),
                int(est.clusters),
            )
        )
    return pl.DataFrame(rows, schema={**{k: totals.schema[k] for k in keys}, **MEAN_COLUMNS}, orient="row")


@dataclass(frozen=True)
class HeldTest:
    """Per card (last axis): the holders' observed mean, the mean their strata predict, the difference
    with its 95% interval and p value, the holders and the blocks it stands on."""

    observed: Array
    expected: Array
    estimate: Array
    se: Array
    low: Array
    high: Array
    p_value: Array
    holders: Array
    clusters: Array
    test: str


def held_vs_expected(held: Array, value: Array, stratum: Array, block: Array) -> HeldTest:
    """Do the rows holding each card do better than their stratum predicts?  ``held[i, c]`` is 1 where
    row i (a seat in a game) holds card c, ``value[i]`` its outcome (win share), ``stratum[i]`` its
    stratum (the strategy, within one players/variant/mix group) and ``block[i]`` its block, both as
    integer codes.

    The expected value of card c is the mean over its holders of their stratum's mean r_s (over all
    rows of the stratum); the estimate D_c = observed - expected = Σ_i u_ic / n_c with
    u_ic = (h_ic - π_sc)(v_i - r_s), π_sc the share of stratum s holding c, exactly (within a stratum
    Σ (v_i - r_s) = 0).  Estimating r and π has no first-order effect on Σ u (its derivatives in them
    are the strata's sums of residuals, 0).  The test is the one-sample t test of the block totals
    U_b = Σ_{i in b} u_ic against 0 on B - 1 df, over all B blocks of the group (a block without
    holders still counts: its non-holders are the comparison); the interval is D_c ± t · SE with
    SE = √B · sd(U_b) / n_c.  (The ratio estimator's residuals U_b - D_c H_b make it a Wald test of a
    mean of win shares, whose tails are too heavy: 6.3% false positives per card and 17% for
    Benjamini-Hochberg over 40 cards under a global null in ``tests/test_knarr_holdings.py``'s design,
    against 5.2% and 5.5% for the block totals.)  nan where no row holds the card or below two
    blocks.
    """
    h = np.asarray(held, dtype=float)
    v = np.asarray(value, dtype=float)
    s = np.asarray(stratum)
    b = np.asarray(block)
    strata = np.eye(int(s.max()) + 1)[s]  # rows x strata
    size = strata.sum(axis=0)
    rate = strata.T @ v / np.where(size > 0, size, 1)
    share = strata.T @ h / np.where(size > 0, size, 1)[:, None]  # strata x cards
    u = (h - share[s]) * (v - rate[s])[:, None]
    blocks = np.eye(int(b.max()) + 1)[b]
    n_blocks = int(np.count_nonzero(blocks.sum(axis=0)))
    totals = (blocks.T @ u)[blocks.sum(axis=0) > 0]
    n = h.sum(axis=0)
    with np.errstate(divide="ignore", invalid="ignore"):
        observed = h.T @ v / n
        expected = h.T @ rate[s] / n
        diff = u.sum(axis=0) / n
        spread = totals.std(axis=0, ddof=1) if n_blocks > 1 else np.full(n.shape, np.nan)
    se = np.where(n > 0, math.sqrt(n_blocks) * spread / np.where(n > 0, n, 1), np.nan)
    result = _t_result(diff, se, np.asarray(n_blocks - 1.0), np.full(n.shape, n_blocks), "")
    return HeldTest(
        observed,
        expected,
        diff,
        se,
        result.low,
        result.high,
        result.p_value,
        n,
        np.full(n.shape, n_blocks),
        "t on block totals (held minus strategy-expected)",
    )


def detectable_difference(
    se: Array | float, df: Array | float, alpha: float = ALPHA, power: float = 0.8
) -> Array:
    """The smallest true difference a two-sided t test with standard error ``se`` on ``df`` degrees of
    freedom finds with probability ``power``: (t_{1-α/2} + t_{power}) · se."""
    df = np.asarray(df, dtype=float)
    ok = df >= 1
    dfs = np.where(ok, df, 1.0)
    return np.where(
        ok, (sps.t.ppf(1 - alpha / 2, dfs) + sps.t.ppf(power, dfs)) * np.asarray(se, float), np.nan
    )
