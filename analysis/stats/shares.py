"""Do positions or categories share the wins equally? (reference/analysis-methods.md sections 3 and 4)

* ``shares_test``: seat balance, the second-order Rao-Scott corrected chi-square on the blocks'
  win-share vectors (Hotelling's T² as the calibration's contrast), or the plain chi-square where
  every block is one game; ``one_per_game_test``: the same test where each category appears once per
  game.
* ``category_win_test`` / ``category_wins``: do categories (tribes, drafted territories) seated 0, 1
  or several times per game win equally often, one winner per game.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import polars as pl
from scipy import stats as sps

from analysis.stats.estimates import Array


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


def category_win_test(
    counts: np.ndarray, wins: np.ndarray, players: np.ndarray, blocks: np.ndarray | None = None
) -> tuple[float, float, int]:
    """(chi2, p, dof): do k categories (tribes, drafted territories) win equally often, where game g seats
    ``counts[g, i]`` players of category i (0, 1 or several), who win ``wins[g, i]`` summed shares, of
    ``players[g]`` seats?  (Methods section 4.)

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
