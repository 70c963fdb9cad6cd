"""Matplotlib charts (Agg backend, no display) for the report and the notebooks.

Every function takes the tidy frames of the analysis modules and returns a ``Figure`` with
labelled axes and units; intervals are drawn as error bars (or bands for curves).  ``png``
turns a figure into PNG bytes and closes it; ``plt`` is pyplot on the backend chosen here, for the
sections that draw their own charts.
"""

from __future__ import annotations

import io
import math
import textwrap
from typing import cast

import matplotlib

_backend = matplotlib.get_backend().lower()
if _backend != "agg" and not any(name in _backend for name in ("inline", "ipympl", "widget")):
    matplotlib.use("Agg")  # headless by default; notebooks keep their inline backend

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import polars as pl  # noqa: E402
from matplotlib.artist import Artist  # noqa: E402
from matplotlib.colors import ListedColormap  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

from sim import specs  # noqa: E402
from sim.games import GAMES  # noqa: E402

WIDTH = 8.5
DPI = 100
#: a colour as a listed colormap holds it: red, green and blue from 0 to 1
RGB = tuple[float, float, float]


def _listed(name: str) -> tuple[RGB, ...]:
    """The colours of the listed colormap ``name`` (``tab10``, ``tab20``): matplotlib holds them as a tuple
    of RGB tuples, which its types leave as any array or colour."""
    cmap = plt.get_cmap(name)
    if not isinstance(cmap, ListedColormap):
        raise TypeError(f"colormap {name!r} is not a listed colormap")
    return cast(tuple[RGB, ...], cmap.colors)


COLORS = _listed("tab10")
#: twenty distinct colours, for the strategies of every game (``strategy_colours``)
PALETTE = _listed("tab20")[0::2] + _listed("tab20")[1::2]


def known_strategies(own_only: bool = False) -> list[str]:
    """Every built-in strategy of every game (``own_only``: of Skald's own games), each once, in the
    registry's order: the order that gives each its colour.  Skald's own games come first, so another
    game's plug-in never moves their colours."""
    names: list[str] = []
    own = [g for g, plugin in GAMES.items() if plugin.game.startswith("sim.games.")]
    for game in own if own_only else [*own, *(g for g in GAMES if g not in own)]:
        for name in specs.builtin_names(game):
            if name not in names:
                names.append(name)
    return names


def strategy_colours(names: list[str]) -> dict[str, tuple[float, ...]]:
    """A colour per name, the same for a built-in strategy in every chart of every report (a strategy
    spec with options, ``builder:climb=2``, takes its strategy's colour unless that is taken in this
    chart), and unique within the chart: other names take the palette's unused colours in order, first
    those no strategy of Skald's own games holds, so that the same records give the same charts with or
    without another game's plug-in installed."""
    fixed = {name: PALETTE[i % len(PALETTE)] for i, name in enumerate(known_strategies())}
    own = {PALETTE[i % len(PALETTE)] for i in range(len(known_strategies(own_only=True)))}
    out: dict[str, tuple[float, ...]] = {}
    for name in dict.fromkeys(names):
        colour = fixed.get(str(name).split(":")[0])
        if colour is not None and colour not in out.values():
            out[name] = colour
    spare = [c for c in PALETTE if c not in out.values() and c not in own]
    spare += [c for c in PALETTE if c not in out.values() and c not in spare]
    for name in dict.fromkeys(names):
        if name not in out:
            out[name] = spare.pop(0) if spare else COLORS[len(out) % 10]
    return out


def _ordered(values: list) -> list:
    """Axis categories in order: numbers by value (-3 before -1), anything else as text."""
    if all(isinstance(v, int | float) and not isinstance(v, bool) for v in values):
        return sorted(values)
    return sorted(values, key=str)


def _wrapped(text: str, width: int) -> str:
    """A tick label on at most two lines of about ``width`` characters, so neighbours do not collide (a
    label that already holds its line breaks is kept)."""
    if "\n" in text:
        return text
    lines = textwrap.wrap(text, width)
    if len(lines) <= 2:
        return "\n".join(lines)
    return lines[0] + "\n" + _short(" ".join(lines[1:]), width)


def png(fig: Figure) -> bytes:
    """The figure as PNG bytes (and closed)."""
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=DPI, bbox_inches="tight")
    plt.close(fig)
    return buf.getvalue()


def _facets(n: int, height: float = 3.6, max_cols: int = 3) -> tuple[Figure, list]:
    cols = min(max(n, 1), max_cols)
    rows = math.ceil(max(n, 1) / cols)
    fig, axes = plt.subplots(rows, cols, figsize=(WIDTH, height * rows), squeeze=False)
    flat = list(axes.flat)
    for ax in flat[n:]:
        ax.set_visible(False)
    return fig, flat[: max(n, 1)]


def _style(ax, title: str | None = None, xlabel: str | None = None, ylabel: str | None = None) -> None:
    if title:
        ax.set_title(title, fontsize=10)
    if xlabel:
        ax.set_xlabel(xlabel)
    if ylabel:
        ax.set_ylabel(ylabel)
    ax.grid(alpha=0.3)
    ax.set_axisbelow(True)


def _shared_legend(fig: Figure, axes: list) -> None:
    """One legend below the panels, holding each distinct label once."""
    seen: dict[str, Artist] = {}
    for ax in axes:
        for handle, label in zip(*ax.get_legend_handles_labels(), strict=True):
            seen.setdefault(label, handle)
    if seen:
        fig.legend(
            list(seen.values()),
            list(seen),
            loc="upper center",
            bbox_to_anchor=(0.5, 0.0),
            ncol=min(len(seen), 4),
            fontsize=8,
            frameon=False,
        )


def _err(value: np.ndarray, low: np.ndarray, high: np.ndarray) -> np.ndarray:
    """Error-bar lengths (2 x n) from interval bounds: nan as 0, and never negative (rounding at 0 or 1,
    or a bootstrap interval that misses its estimate)."""
    return np.clip(np.nan_to_num(np.vstack([value - low, high - value])), 0.0, None)


def _short(text: str, n: int = 38) -> str:
    """``text`` cut to ``n`` characters, with ``$`` escaped so that no name is read as mathtext."""
    text = str(text)
    text = text if len(text) <= n else text[: n - 1] + "…"
    return text.replace("$", r"\$")


def win_rates(table: pl.DataFrame, position: str = "seat", title: str = "Win rate by seat") -> Figure:
    """Win rate (%) per position with 95% Wilson intervals, one panel per player count, one series per
    variant and strategy mix; a dashed line marks equal chances."""
    counts = sorted(table["players"].unique().to_list())
    # one colour per series across panels; mixes named only where a panel holds several
    several_mixes = any(table.filter(pl.col("players") == p)["mix"].n_unique() > 1 for p in counts)
    names = [
        f"{v}; {m}" if several_mixes else v
        for v, m in table.select("variant", "mix").unique(maintain_order=True).rows()
    ]
    colour = {name: COLORS[i % 10] for i, name in enumerate(dict.fromkeys(names))}
    show_legend = len(colour) > 1
    fig, axes = _facets(len(counts))
    for ax, players in zip(axes, counts, strict=False):
        part = table.filter(pl.col("players") == players)
        series = part.select("variant", "mix").unique(maintain_order=True).rows()
        width = 0.8 / max(len(series), 1)
        for i, (variant, mix) in enumerate(series):
            # two runs of one variant and mix share a series: their rows in one order, not the frame's
            ties = [c for c in ("run", "win_rate", "ci_low", "ci_high") if c in part.columns]
            s = part.filter((pl.col("variant") == variant) & (pl.col("mix") == mix)).sort(position, *ties)
            x = np.arange(s.height) + (i - (len(series) - 1) / 2) * width
            rate = s["win_rate"].to_numpy() * 100
            err = _err(rate, s["ci_low"].to_numpy() * 100, s["ci_high"].to_numpy() * 100)
            name = f"{variant}; {mix}" if several_mixes else variant
            label = _short(name, 60) if show_legend else None
            ax.errorbar(x, rate, yerr=err, fmt="o", capsize=4, color=colour[name], label=label)
            ax.set_xticks(np.arange(s.height), [str(v) for v in s[position].to_list()])
        ax.axhline(100 / players, ls="--", color="grey", lw=1, label="equal chances")
        _style(ax, f"{players} players", position.replace("_", " "), "win rate (%)")
        ax.set_ylim(bottom=0)
    fig.suptitle(title, fontsize=11)
    fig.tight_layout()
    _shared_legend(fig, axes)
    return fig


def score_boxes(
    seats: pl.DataFrame,
    by: str = "strategy",
    value: str = "score",
    ylabel: str = "final score (points)",
    title: str = "Final scores",
) -> Figure:
    """Box plots of ``value`` per ``by`` value, one panel per player count (boxes: quartiles, whiskers
    5-95%)."""
    counts = sorted(seats["players"].unique().to_list())
    fig, axes = _facets(len(counts))
    for ax, players in zip(axes, counts, strict=False):
        part = seats.filter(pl.col("players") == players)
        keys = sorted(part[by].unique().to_list(), key=str)
        data = [part.filter(pl.col(by) == k)[value].to_numpy() for k in keys]
        ax.boxplot(data, tick_labels=[_short(str(k), 14) for k in keys], whis=(5, 95), showfliers=False)
        means = [d.mean() if len(d) else np.nan for d in data]
        ax.plot(range(1, len(keys) + 1), means, "D", color=COLORS[1], ms=5, label="mean")
        _style(ax, f"{players} players", by.replace("_", " "), ylabel)
    fig.suptitle(title, fontsize=11)
    fig.tight_layout()
    _shared_legend(fig, axes)
    return fig


def histogram(frame: pl.DataFrame, value: str, xlabel: str, title: str, integer: bool = True) -> Figure:
    """Share of games (%) per value of ``value``, one series per player count."""
    fig, ax = plt.subplots(figsize=(WIDTH, 3.8))
    counts = sorted(frame["players"].unique().to_list())
    vmax = float(cast(float | None, frame[value].max()) or 0)
    bins = (np.arange(0, vmax + 2) - 0.5).tolist() if integer and vmax < 60 else 30
    for i, players in enumerate(counts):
        v = frame.filter(pl.col("players") == players)[value].to_numpy()
        ax.hist(
            v,
            bins=bins,
            weights=np.full(len(v), 100 / max(len(v), 1)),
            histtype="step",
            lw=2,
            color=COLORS[i % 10],
            label=f"{players} players (n={len(v)})",
        )
    _style(ax, title, xlabel, "share of games (%)")
    ax.legend(fontsize=8)
    fig.tight_layout()
    return fig


def grouped_means(table: pl.DataFrame, group: str, series: str, ylabel: str, title: str) -> Figure:
    """Mean (with 95% interval) per ``group`` (x axis) and ``series`` (colours), one panel per player
    count."""
    table = one_bar_each(table, group, series)
    counts = sorted(table["players"].unique().to_list()) if "players" in table.columns else [None]
    fig, axes = _facets(len(counts))
    # the series in one order whatever the frame's row order: the defaults first, then by name
    order = sorted(table[series].unique().to_list(), key=lambda v: (v != "defaults", str(v)))
    colour = strategy_colours(order)
    for ax, players in zip(axes, counts, strict=False):
        part = table if players is None else table.filter(pl.col("players") == players)
        groups = _ordered(part[group].unique().to_list())
        present = set(part[series].to_list())
        names = [v for v in order if v in present]
        width = 0.8 / max(len(names), 1)
        for i, name in enumerate(names):
            s = part.filter(pl.col(series) == name)
            lookup = {r[group]: r for r in s.iter_rows(named=True)}
            x = np.arange(len(groups)) + (i - (len(names) - 1) / 2) * width
            mean = np.array([lookup[g]["mean"] if g in lookup else np.nan for g in groups])
            low = np.array([lookup[g]["low"] if g in lookup else np.nan for g in groups])
            high = np.array([lookup[g]["high"] if g in lookup else np.nan for g in groups])
            err = _err(mean, low, high)
            ax.bar(
                x,
                mean,
                width=width,
                yerr=err,
                capsize=3,
                color=colour[name],
                alpha=0.85,
                label=_short(str(name), 30),
            )
        ax.set_xticks(np.arange(len(groups)), [_wrapped(str(g), 10) for g in groups], fontsize=8)
        _style(ax, f"{players} players" if players is not None else None, group.replace("_", " "), ylabel)
    fig.suptitle(title, fontsize=11)
    fig.tight_layout()
    _shared_legend(fig, axes)
    return fig


def one_bar_each(table: pl.DataFrame, group: str, series: str) -> pl.DataFrame:
    """``table`` with a series that two rows share in one panel and group (two runs of one variant and
    mix) numbered ("x", "(2) x": a legend cuts long names at their end), in the order of the rows'
    values, not the order the frame came in: a bar for each row, and the same chart from the same
    records."""
    keys = [k for k in ("players", group, series) if k in table.columns]
    if not table.height or not bool(table.select(keys).is_duplicated().any()):
        return table
    plain = [c for c, t in table.schema.items() if t.is_numeric() or t in (pl.String, pl.Boolean)]
    plain.sort(key=lambda c: c != "run")  # a run's bars share a number where the frame names the run
    rank = pl.int_range(pl.len()).over(keys)
    return table.sort(plain, nulls_last=True).with_columns(
        pl.when(rank > 0)
        .then("(" + (rank + 1).cast(pl.String) + ") " + pl.col(series).cast(pl.String))
        .otherwise(pl.col(series).cast(pl.String))
        .alias(series)
    )


def head_to_head(table: pl.DataFrame, title: str = "Head to head") -> Figure:
    """Heat map: row strategy finishes ahead of column strategy (% of meetings)."""
    names = sorted(set(table["strategy"].to_list()) | set(table["opponent"].to_list()))
    k = len(names)
    m = np.full((k, k), np.nan)
    idx = {n: i for i, n in enumerate(names)}
    for r in table.iter_rows(named=True):
        m[idx[r["strategy"]], idx[r["opponent"]]] = r["rate"] * 100
    fig, ax = plt.subplots(figsize=(min(WIDTH, 2.2 + 1.1 * k), min(WIDTH, 1.8 + 0.9 * k)))
    im = ax.imshow(m, cmap="RdBu", vmin=0, vmax=100)
    for i in range(k):
        for j in range(k):
            if not np.isnan(m[i, j]):
                ax.text(
                    j,
                    i,
                    f"{m[i, j]:.0f}%",
                    ha="center",
                    va="center",
                    fontsize=9,
                    color="white" if abs(m[i, j] - 50) > 30 else "black",
                )
    ax.set_xticks(range(k), [_short(n, 14) for n in names], rotation=30, ha="right")
    ax.set_yticks(range(k), [_short(n, 14) for n in names])
    ax.set_xlabel("opponent")
    ax.set_ylabel("strategy")
    ax.set_title(title, fontsize=10)
    fig.colorbar(im, ax=ax, label="finishes ahead of opponent (%)")
    fig.tight_layout()
    return fig


def ratings(table: pl.DataFrame, title: str = "Bradley-Terry rating") -> Figure:
    """Ratings (Elo scale) with 95% bootstrap intervals, one row per strategy."""
    t = table.sort("rating")
    fig, ax = plt.subplots(figsize=(WIDTH, 1.2 + 0.45 * t.height))
    y = np.arange(t.height)
    r = t["rating"].to_numpy()
    err = _err(r, t["rating_low"].to_numpy(), t["rating_high"].to_numpy())
    ax.errorbar(r, y, xerr=err, fmt="o", capsize=4, color=COLORS[0])
    ax.axvline(1500, ls="--", color="grey", lw=1)
    labels = [
        _short(f"{s} ({g})" if "game" in t.columns and len(set(t["game"])) > 1 else s, 30)
        for s, g in zip(t["strategy"], t["game"] if "game" in t.columns else t["strategy"], strict=True)
    ]
    ax.set_yticks(y, labels)
    _style(ax, title, "rating (Elo scale; 1500 = geometric mean)", None)
    fig.tight_layout()
    return fig


def curves(table: pl.DataFrame, ylabel: str = "score (points)", title: str = "Score by round") -> Figure:
    """Mean score per x (round) per strategy, 95% band, one panel per player count."""
    counts = sorted(table["players"].unique().to_list())
    fig, axes = _facets(len(counts))
    x_name = table["x_name"][0] if "x_name" in table.columns and table.height else "round"
    colour = strategy_colours(sorted(table["strategy"].unique().to_list()))
    for ax, players in zip(axes, counts, strict=False):
        part = table.filter(pl.col("players") == players)
        for name in sorted(part["strategy"].unique().to_list()):
            s = part.filter(pl.col("strategy") == name).sort("x")
            x = s["x"].to_numpy()
            ax.plot(x, s["mean"].to_numpy(), color=colour[name], label=_short(name, 20))
            ax.fill_between(x, s["low"].to_numpy(), s["high"].to_numpy(), color=colour[name], alpha=0.2)
        _style(ax, f"{players} players", x_name, ylabel)
    fig.suptitle(title, fontsize=11)
    fig.tight_layout()
    _shared_legend(fig, axes)
    return fig


def differences(table: pl.DataFrame, title: str = "Differences from the baseline") -> Figure:
    """Each comparison's difference (value - baseline) with its 95% interval, one panel per metric
    (each in its own unit); zero marked."""
    metrics = table["metric"].unique(maintain_order=True).to_list()
    heights = [0.9 + 0.35 * table.filter(pl.col("metric") == m).height for m in metrics]
    fig, axes = plt.subplots(
        len(metrics),
        1,
        figsize=(WIDTH, 0.6 + sum(heights)),
        squeeze=False,
        gridspec_kw={"height_ratios": heights},
    )
    for ax, metric in zip(axes[:, 0], metrics, strict=True):
        part = table.filter(pl.col("metric") == metric)
        y = np.arange(part.height)
        d = part["diff"].to_numpy()
        err = _err(d, part["diff_low"].to_numpy(), part["diff_high"].to_numpy())
        adjusted = part["p_adjusted"] if "p_adjusted" in part.columns else part["p_value"]
        for i, p in enumerate(adjusted.to_list()):
            colour = COLORS[3] if p is not None and p < 0.05 else COLORS[7]
            ax.errorbar(d[i], y[i], xerr=err[:, i : i + 1], fmt="o", capsize=4, color=colour)
        ax.axvline(0, color="grey", lw=1)
        labels = [
            _short(f"{r['players']}p: {r['value']} vs {r['base']}", 60) for r in part.iter_rows(named=True)
        ]
        ax.set_yticks(y, labels, fontsize=8)
        ax.set_ylim(-0.6, part.height - 0.4)
        _style(
            ax,
            None,
            f"{METRIC_LABELS.get(metric.split(' (')[0], metric)}: difference "
            f"{METRIC_UNITS.get(metric, '')}".rstrip(),
            None,
        )
    fig.suptitle(title + "  (red: Holm-adjusted p < 0.05)", fontsize=11)
    fig.tight_layout()
    return fig


METRIC_LABELS = {
    "balance_gap": "largest seat win-rate gap",
    "game_length": "game length",
    "truncated_rate": "share of truncated games",
}
METRIC_UNITS = {
    "balance_gap": "(proportion)",
    "game_length (rounds)": "(rounds)",
    "game_length (decisions)": "(decisions)",
    "truncated_rate": "(proportion)",
}


def precision(table: pl.DataFrame, title: str = "Interval half-width now and with 4x the games") -> Figure:
    """Half-width of each headline interval now and after 4x the games (half as wide)."""
    fig, ax = plt.subplots(figsize=(WIDTH, 1.2 + 0.4 * max(table.height, 1)))
    y = np.arange(table.height)
    now = table["halfwidth"].to_numpy()
    ax.barh(y + 0.2, now, height=0.4, color=COLORS[0], label="now")
    ax.barh(y - 0.2, now / 2, height=0.4, color=COLORS[2], label="with 4x the games")
    ax.set_yticks(y, [_short(e, 48) for e in table["estimate"].to_list()], fontsize=8)
    _style(ax, title, f"half-width of the 95% interval ({table['unit'][0] if table.height else ''})", None)
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    fig.tight_layout()
    return fig


# --------------------------------------------------------------------------- Graenaland


def goal_heatmap(
    table: pl.DataFrame,
    row: str,
    panel: str = "panel",
    title: str = "Goals met",
    row_label: str | None = None,
) -> Figure:
    """Share of seats (%) meeting each goal (columns, ``short``) per ``row`` value, one heat map per
    ``panel`` value (e.g. player count); each cell is labelled with its percentage."""
    panels = table[panel].unique(maintain_order=True).to_list()
    fig, axes = _facets(len(panels), height=2.2 + 0.28 * max(table[row].n_unique(), 3))
    image = None
    for ax, name in zip(axes, panels, strict=False):
        part = table.filter(pl.col(panel) == name)
        rows = sorted(part[row].unique().to_list(), key=lambda v: (str(type(v)), v))
        goals = part["short"].unique(maintain_order=True).to_list()
        m = np.full((len(rows), len(goals)), np.nan)
        for r in part.iter_rows(named=True):
            m[rows.index(r[row]), goals.index(r["short"])] = 100 * r["rate"]
        image = ax.imshow(m, cmap="Blues", vmin=0, vmax=100, aspect="auto")
        for i in range(len(rows)):
            for j in range(len(goals)):
                if not np.isnan(m[i, j]):
                    ax.text(
                        j,
                        i,
                        f"{m[i, j]:.0f}",
                        ha="center",
                        va="center",
                        fontsize=8,
                        color="white" if m[i, j] > 60 else "black",
                    )
        ax.set_xticks(range(len(goals)), [_short(g, 12) for g in goals], rotation=30, ha="right", fontsize=8)
        ax.set_yticks(range(len(rows)), [_short(str(v), 16) for v in rows], fontsize=8)
        ax.set_title(_short(str(name), 40), fontsize=10)
        ax.set_ylabel(row_label or row.replace("_", " "))
    fig.suptitle(title, fontsize=11)
    fig.tight_layout()
    if image is not None:
        fig.colorbar(image, ax=axes, label="seats meeting the goal (%)", shrink=0.8)
    return fig


def _rate_points(
    ax, frame: pl.DataFrame, x: str, labels: list[str], colour, label: str | None = None
) -> None:
    rate = frame["win_rate"].to_numpy() * 100
    err = _err(rate, frame["ci_low"].to_numpy() * 100, frame["ci_high"].to_numpy() * 100)
    ax.errorbar(np.arange(frame.height), rate, yerr=err, fmt="o", capsize=4, color=colour, label=label)
    ax.set_xticks(np.arange(frame.height), labels)


def draft_rates(
    order: pl.DataFrame, territory: pl.DataFrame, title: str = "The custom-start draft"
) -> Figure:
    """Win rate (%) with 95% Wilson intervals by draft order (left) and by the territory of the first
    village (right), one row of panels per player count; dashed: equal chances."""
    counts = sorted(order["players"].unique().to_list())
    fig, axes = plt.subplots(len(counts), 2, figsize=(WIDTH, 3.6 * len(counts)), squeeze=False)
    for (left, right), players in zip(axes, counts, strict=True):
        o = order.filter(pl.col("players") == players).sort("draft_order")
        _rate_points(left, o, "draft_order", [str(v) for v in o["draft_order"].to_list()], COLORS[0])
        t = territory.filter(pl.col("players") == players).sort("chosen_territory")
        names = [_short(str(n).replace(" (", "\n("), 22) for n in t["territory_name"].to_list()]
        _rate_points(right, t, "chosen_territory", names, COLORS[2])
        right.tick_params(axis="x", labelsize=8)
        for ax in (left, right):
            ax.axhline(100 / players, ls="--", color="grey", lw=1, label="equal chances")
            ax.set_ylim(bottom=0)
        _style(left, f"{players} players: by draft order", "draft order (1 = places first)", "win rate (%)")
        _style(right, f"{players} players: by first village's territory", None, "win rate (%)")
    fig.suptitle(title, fontsize=11)
    fig.tight_layout()
    _shared_legend(fig, list(axes.flat))
    return fig


def populations(
    table: pl.DataFrame,
    metrics: list[tuple[str, str, str, str, float]],
    label: str = "population",
    title: str = "Side by side",
) -> Figure:
    """One panel per metric ``(column, low column, high column, axis label, scale)``: each population's
    value (x axis, ``label``) with its 95% interval, scaled (100 for percentages)."""
    fig, axes = _facets(len(metrics), height=3.0, max_cols=min(len(metrics), 4))
    names = [_short(str(v), 16) for v in table[label].to_list()]
    x = np.arange(table.height)
    for ax, (column, low, high, ylabel, scale) in zip(axes, metrics, strict=False):
        v = table[column].cast(pl.Float64).to_numpy() * scale
        lo = table[low].cast(pl.Float64).to_numpy() * scale
        hi = table[high].cast(pl.Float64).to_numpy() * scale
        err = _err(v, lo, hi)
        for i in range(table.height):
            ax.errorbar(x[i], v[i], yerr=err[:, i : i + 1], fmt="o", capsize=4, color=COLORS[i % 10])
        ax.set_xticks(x, names, rotation=30, ha="right", fontsize=8)
        ax.set_xlim(-0.6, table.height - 0.4)
        _style(ax, None, None, ylabel)
        ax.yaxis.label.set_size(9)
        if scale == 100.0:
            ax.set_ylim(bottom=0)
    fig.suptitle(title, fontsize=11)
    fig.tight_layout()
    return fig


def goal_bars(
    table: pl.DataFrame, series: str = "population", title: str = "Goals the winners meet"
) -> Figure:
    """Share (%) of winners meeting each goal (x axis, ``short``), one bar per ``series`` value, with 95%
    Wilson intervals."""
    goals = table["short"].unique(maintain_order=True).to_list()
    names = table[series].unique(maintain_order=True).to_list()
    fig, ax = plt.subplots(figsize=(WIDTH, 3.6))
    width = 0.8 / max(len(names), 1)
    for i, name in enumerate(names):
        part = table.filter(pl.col(series) == name)
        lookup = {r["short"]: r for r in part.iter_rows(named=True)}
        x = np.arange(len(goals)) + (i - (len(names) - 1) / 2) * width
        rate = np.array([100 * lookup[g]["rate"] if g in lookup else np.nan for g in goals])
        low = np.array([100 * lookup[g]["ci_low"] if g in lookup else np.nan for g in goals])
        high = np.array([100 * lookup[g]["ci_high"] if g in lookup else np.nan for g in goals])
        ax.bar(
            x,
            rate,
            width=width,
            yerr=_err(rate, low, high),
            capsize=2,
            color=COLORS[i % 10],
            alpha=0.85,
            label=_short(str(name), 24),
        )
    ax.set_xticks(np.arange(len(goals)), goals)
    ax.set_ylim(0, 105)
    _style(ax, title, "goal", "winners meeting it (%)")
    ax.legend(
        fontsize=8, ncol=min(len(names), 4), loc="upper center", bbox_to_anchor=(0.5, -0.15), frameon=False
    )
    fig.tight_layout()
    return fig


def effects(table: pl.DataFrame, labels: dict[str, str], title: str = "Effect of the rule") -> Figure:
    """Forest plot of ``diff`` (value minus baseline) with its 95% interval per metric: proportions in
    percentage points in one panel, other units (``metric (unit)``) in their own panels; zero marked."""
    rows = table.to_dicts()
    units: dict[str, list[dict]] = {}
    for r in rows:
        unit = r["metric"].split(" (")[1].rstrip(")") if " (" in r["metric"] else "percentage points"
        units.setdefault(unit, []).append(r)
    heights = [0.7 + 0.32 * len(v) for v in units.values()]
    fig, axes = plt.subplots(
        len(units),
        1,
        figsize=(WIDTH, 0.8 + sum(heights)),
        squeeze=False,
        gridspec_kw={"height_ratios": heights},
    )
    for ax, (unit, part) in zip(axes[:, 0], units.items(), strict=True):
        scale = 100.0 if unit == "percentage points" else 1.0
        y = np.arange(len(part))[::-1]
        d = np.array([r["diff"] for r in part], dtype=float) * scale
        lo = np.array([r["diff_low"] for r in part], dtype=float) * scale
        hi = np.array([r["diff_high"] for r in part], dtype=float) * scale
        adjusted = [r.get("p_adjusted", r["p_value"]) for r in part]
        significant = np.array([(p if p is not None else 1.0) < 0.05 for p in adjusted])
        err = _err(d, lo, hi)
        for i in range(len(part)):
            ax.errorbar(
                d[i],
                y[i],
                xerr=err[:, i : i + 1],
                fmt="o",
                capsize=4,
                color=COLORS[3] if significant[i] else COLORS[7],
            )
        ax.axvline(0, color="grey", lw=1)
        names = [labels.get(r["metric"].split(" (")[0], r["metric"]) for r in part]
        multi = len({(r["players"], r.get("mix")) for r in part}) > 1
        if multi:
            names = [f"{r['players']}p: {n}" for r, n in zip(part, names, strict=True)]
        ax.set_yticks(y, [_short(n, 44) for n in names], fontsize=8)
        ax.set_ylim(-0.6, len(part) - 0.4)
        _style(ax, None, f"difference ({unit})", None)
    axes[0, 0].set_title(title + "  (red: Holm-adjusted p < 0.05)", fontsize=10)
    fig.tight_layout()
    return fig
