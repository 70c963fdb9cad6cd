"""Greenland's scores (reference B.2/B.3.7, scoring.toml) and the memo of them that the turn records read."""

from __future__ import annotations

from sim.games.greenland.data import GreenlandData
from sim.games.greenland.state import ALPHA_DEAD, POLY, GreenlandState


def scores(state: GreenlandState, data: GreenlandData) -> list[int]:
    """Every seat's score, reference B.2/B.3.7 (scoring.toml): population, plus Trophies (polytheist) or
    iron and ivory (monotheist); a dead tribe scores ``dead_tribe``. One pass over the seats: the turn
    records ask for it after every decision."""
    per_head, dead, trophy_scale, iron, ivory = data.points
    trophy, vp = data.trophy_of.__getitem__, data.icons["vp"].__getitem__
    pieces, valhalla, alpha, religion = state.pieces, state.valhalla, state.alpha, state.religion
    out = []
    for seat, alive in enumerate(state.alive):
        if not alive:
            out.append(dead)
            continue
        pts = (pieces[seat] - valhalla[seat] + (alpha[seat] != ALPHA_DEAD)) * per_head  # population()
        if religion[seat] == POLY:
            pts += sum(map(trophy, state.trophies[seat])) * trophy_scale
        else:
            pts += state.iron[seat] * iron + state.ivory[seat] * ivory + sum(map(vp, state.tableau[seat]))
        out.append(pts)
    return out


def rescore(state: GreenlandState) -> None:
    """A score input (population, Valhalla, the Alpha's death, Trophies, iron, ivory, the tableau, religion,
    a tribe's death) just changed: the scores ``current_scores`` remembers are stale. Every rule that
    changes one calls this; the random-playout invariant test checks the memo against ``scores``."""
    state.score_memo = None


def current_scores(state: GreenlandState, data: GreenlandData) -> list[float]:
    """``scores`` as floats, remembered until a rule calls ``rescore``: the turn records ask after every
    decision, and about seven decisions in eight change no score (random players; one in four calls
    ``rescore``, some of them for changes that cancel out). The list is shared: do not change it."""
    memo = state.score_memo
    if memo is None:
        memo = state.score_memo = [float(x) for x in scores(state, data)]
    return memo


def score(state: GreenlandState, data: GreenlandData, seat: int) -> int:
    """One seat's score (``scores``)."""
    return scores(state, data)[seat]
