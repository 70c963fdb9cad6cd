"""A fitted judge of a game's state for every game: the chance that one seat finishes ahead of another.

Each game that plugs in declares, in a ``value`` module beside its rules (``sim/games/<game>/value.py``):

* ``FEATURES``: the names of a few numbers per seat, the first the seat's score now;
* ``seat_features(state, seat)``: those numbers for ``seat`` in ``state`` (a tuple of floats);
* ``STAGES`` and ``stage(state)``: the stage of the game (a round, generation or score bucket,
  0 to ``STAGES - 1``), so that the weights can change as the game goes on.

The model is a pairwise logistic one (Bradley and Terry 1952, with the covariates of a logistic
regression): seat ``i`` finishes ahead of seat ``j`` with chance ``sigmoid(w . (x_i - x_j))``, where
``x`` are the seats' features and ``w`` the weights of the player count and stage.  It has no intercept,
so the chances of ``i`` ahead of ``j`` and of ``j`` ahead of ``i`` sum to 1, and it puts every seat on one
scale, its strength ``z_i = w . x_i``.  From the strengths: a seat's expected rank utility (``rank``: its
mean chance of finishing ahead of each other seat, 1 ahead of all, 0 behind all, the scale of the search's
``reward=rank``) and its chance to finish first (``win``: ``exp(z_i) / sum_j exp(z_j)``, the first place
of the Plackett-Luce model with these strengths; at two players the same as the pairwise chance).

``fit`` finds the weights of one player count and stage by Newton's method on the mean log loss of the
pairs with a light ridge penalty (a tie counts half: the outcome 0.5); the weights of a game are a small
JSON file per game in ``strategies/values/`` that says how it was fitted and how well it predicts held-out
games (``tools/fit_value.py`` writes it).  At decision time only the standard library is used.
"""

from __future__ import annotations

import importlib
import json
import math
import os
import re
import tempfile
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

#: where the packaged models lie, one ``<game>.json`` per game
FOLDER = Path(__file__).resolve().parent / "values"
#: the ridge penalty of ``fit``: half this times the squared weights is added to the mean log loss
RIDGE = 1e-3
#: a stage with fewer pairs than this takes the weights fitted on all stages of its player count
MIN_ROWS = 200
#: what a state is worth to a seat (``ValueModel.utilities``)
KINDS = ("win", "rank")


def feature_module(game: str) -> ModuleType | None:
    """The ``value`` module of ``game`` (a registered game's name): the package of its rules'
    module (``GamePlugin.game``) plus ``.value``; None where the game has no plug-in or no such module."""
    from sim.games import GAMES

    plugin = GAMES.get(game)
    if plugin is None:
        return None
    package = plugin.game.partition(":")[0].rpartition(".")[0]
    try:
        module = importlib.import_module(f"{package}.value")
    except ModuleNotFoundError:
        return None
    needed = ("FEATURES", "STAGES", "seat_features", "stage")
    return module if all(hasattr(module, name) for name in needed) else None


@dataclass(frozen=True)
class ValueModel:
    """The fitted weights of one game: ``weights[players][stage]`` is one weight per feature."""

    game: str
    features: tuple[str, ...]
    stages: int
    weights: dict[int, tuple[tuple[float, ...], ...]]
    #: how it was fitted and its held-out scores, as the JSON file says
    doc: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)
    #: the game's ``value`` module (``feature_module``)
    module: Any = field(default=None, compare=False, repr=False)

    def table(self, players: int) -> tuple[tuple[float, ...], ...]:
        """The weights of ``players`` (the nearest player count fitted, for one that was not)."""
        if players in self.weights:
            return self.weights[players]
        return self.weights[min(self.weights, key=lambda count: (abs(count - players), count))]

    def strengths(self, state: Any, players: int) -> list[float]:
        """Every seat's ``w . x``: seat ``i`` finishes ahead of ``j`` with chance ``sigmoid(z_i - z_j)``."""
        module = self.module
        w = self.table(players)[min(max(module.stage(state), 0), self.stages - 1)]
        return [
            sum(a * b for a, b in zip(w, module.seat_features(state, seat), strict=True))
            for seat in range(players)
        ]

    def ahead(self, state: Any, i: int, j: int, players: int) -> float:
        """The fitted chance that seat ``i`` finishes ahead of seat ``j``."""
        z = self.strengths(state, players)
        return sigmoid(z[i] - z[j])

    def utilities(self, state: Any, players: int, kind: str = "rank") -> list[float]:
        """Every seat's worth of ``state`` in [0, 1]: ``rank``, its mean chance of finishing ahead of each
        other seat; ``win``, its chance to finish first (the module docstring)."""
        return utilities_of(self.strengths(state, players), kind)


def sigmoid(z: float) -> float:
    """The logistic function, its argument clipped to [-40, 40]."""
    return 1.0 / (1.0 + math.exp(-max(-40.0, min(40.0, z))))


def utilities_of(z: list[float], kind: str) -> list[float]:
    """``ValueModel.utilities`` from the seats' strengths ``z``."""
    n = len(z)
    if n < 2:
        return [1.0] * n
    if kind == "win":
        top = max(z)
        e = [math.exp(max(v - top, -60.0)) for v in z]
        total = sum(e)
        return [v / total for v in e]
    return [sum(sigmoid(z[i] - z[j]) for j in range(n) if j != i) / (n - 1) for i in range(n)]


# --------------------------------------------------------------------------- the packaged files


def path_of(game: str) -> Path:
    """Where the packaged model of ``game`` lies."""
    return FOLDER / f"{game}.json"


def packaged_games() -> tuple[str, ...]:
    """The games with a packaged model, by name."""
    return tuple(sorted(p.stem for p in FOLDER.glob("*.json")))


def from_doc(doc: dict[str, Any], module: Any = None) -> ValueModel:
    """A ``ValueModel`` from its JSON document (``to_doc``), reading features with ``module``."""
    stages = int(doc["stages"])
    weights = {
        int(k): tuple(tuple(float(x) for x in row) for row in rows) for k, rows in doc["weights"].items()
    }
    for players, rows in weights.items():
        if len(rows) != stages or any(len(row) != len(doc["features"]) for row in rows):
            raise ValueError(
                f"model of {doc['game']}: {players} players: {stages} stages of "
                f"{len(doc['features'])} weights expected"
            )
    return ValueModel(doc["game"], tuple(doc["features"]), stages, weights, doc, module)


@lru_cache(maxsize=16)
def load(game: str, path: str = "") -> ValueModel | None:
    """The model of ``game`` from ``path`` (empty: the packaged file); None where there is no file or the
    game has no ``value`` module."""
    module = feature_module(game)
    where = Path(path) if path else path_of(game)
    if module is None or not where.is_file():
        return None
    model = from_doc(json.loads(where.read_text(encoding="utf-8")), module)
    if model.features != tuple(module.FEATURES) or model.stages != module.STAGES:
        raise ValueError(
            f"{where}: fitted on features {model.features} and {model.stages} stages, but "
            f"{game} reads {tuple(module.FEATURES)} and {module.STAGES} (refit it)"
        )
    return model


def dumps(doc: dict[str, Any]) -> str:
    """``doc`` as indented JSON with every innermost list (a row of weights) on one line."""
    text = json.dumps(doc, indent=1)
    return re.sub(r"\[([^\[\]{}]*)\]", lambda m: "[" + " ".join(m.group(1).split()) + "]", text) + "\n"


def save(path: Path, doc: dict[str, Any]) -> None:
    """Write ``doc`` to ``path`` as JSON: a temporary file beside it, then renamed over it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(dumps(doc))
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)  # mkstemp makes it private; a packaged file is read by all
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


# --------------------------------------------------------------------------- fitting


def fit(diffs: np.ndarray, ahead: np.ndarray, ridge: float = RIDGE, steps: int = 50) -> np.ndarray:
    """The weights ``w`` minimising the mean log loss of ``sigmoid(diffs @ w)`` for outcomes ``ahead``
    (1: the first seat of the pair finished ahead, 0.5 level, 0 behind) plus ``ridge / 2 * |w|^2``: Newton
    steps, halved while they do not lower the loss (the penalty keeps the weights finite where the
    differences separate the outcomes)."""
    x = np.asarray(diffs, dtype=float)
    y = np.asarray(ahead, dtype=float)
    m, d = x.shape
    w = np.zeros(d)
    if m == 0:
        return w

    def loss(v: np.ndarray) -> float:
        z = x @ v
        return float(np.mean(np.logaddexp(0.0, z) - y * z) + ridge / 2 * v @ v)

    current = loss(w)
    for _ in range(steps):
        p = 1.0 / (1.0 + np.exp(-np.clip(x @ w, -40, 40)))
        grad = x.T @ (p - y) / m + ridge * w
        hess = (x * (p * (1 - p))[:, None]).T @ x / m + ridge * np.eye(d)
        step = np.linalg.solve(hess, grad)
        size = 1.0
        while size > 1e-6:
            trial = w - size * step
            value = loss(trial)
            if value <= current:
                break
            size /= 2
        else:
            break
        w, done = trial, current - value < 1e-12
        current = value
        if done:
            break
    return w


def chances(diffs: np.ndarray, w: np.ndarray) -> np.ndarray:
    """The fitted chance that the first seat of each pair finishes ahead."""
    return 1.0 / (1.0 + np.exp(-np.clip(np.asarray(diffs, dtype=float) @ w, -40, 40)))


def scores_now(score_diffs: np.ndarray) -> np.ndarray:
    """The scores of the moment as chances: 1 for the seat ahead now, 0.5 level, 0 behind."""
    return np.where(score_diffs > 0, 1.0, np.where(score_diffs < 0, 0.0, 0.5))


def skill(p: np.ndarray, y: np.ndarray) -> dict[str, float]:
    """Brier score and log loss (chances clipped to [1e-6, 1 - 1e-6]) of chances ``p`` for outcomes ``y``."""
    q = np.clip(p, 1e-6, 1 - 1e-6)
    return {
        "brier": round(float(np.mean((p - y) ** 2)), 4),
        "log_loss": round(float(-np.mean(y * np.log(q) + (1 - y) * np.log(1 - q))), 4),
    }


def fit_stages(
    stages: np.ndarray, diffs: np.ndarray, ahead: np.ndarray, count: int, ridge: float = RIDGE
) -> list[list[float]]:
    """Weights for stages 0 to ``count - 1`` of one player count: each stage fitted on its own pairs, a
    stage with fewer than ``MIN_ROWS`` of them on the pairs of every stage."""
    pooled = fit(diffs, ahead, ridge)
    rows = []
    for s in range(count):
        mine = stages == s
        w = fit(diffs[mine], ahead[mine], ridge) if mine.sum() >= MIN_ROWS else pooled
        rows.append([round(float(v), 5) for v in w])
    return rows


def stage_chances(stages: np.ndarray, diffs: np.ndarray, table: list[list[float]]) -> np.ndarray:
    """The fitted chance of every pair under the weights of its stage."""
    w = np.asarray(table, dtype=float)[np.clip(stages.astype(int), 0, len(table) - 1)]
    z = np.einsum("ij,ij->i", np.asarray(diffs, dtype=float), w)
    return 1.0 / (1.0 + np.exp(-np.clip(z, -40, 40)))
