"""A Mainland strategy that plays for the margin over the best opponent (the docs' worked example)."""

import numpy as np

from sim.api import Strategy
from sim.games.mainland.evaluate import evaluate, playable_cards
from sim.games.mainland.state import KEEP, PASS, REPLACE, START


class MarginStrategy(Strategy):
    """Places where its own score ends furthest ahead of the best opponent's; replaces a card that fits
    nowhere; passes only when nothing fits."""

    name = "margin"
    games = ("mainland",)

    def choose(self, view, options):
        kinds = options[:, 0]
        if view.phase == START:
            fits = playable_cards(view)
            for i in np.flatnonzero(kinds == REPLACE):
                if not fits[options[i, 1]]:
                    return options[i]  # a card that fits nowhere: swap it for a new one
            return options[np.flatnonzero(kinds == KEEP)[0]]
        ev = evaluate(view, options)  # camp and place rows; ev.rows index into options
        if len(ev.rows) == 0:
            return options[np.flatnonzero(kinds == PASS)[0]]
        after = ev.scores_after  # (placements, players): every seat's total score after it
        rivals = np.delete(after, view.seat, axis=1).max(axis=1)
        margin = after[:, view.seat] - rivals
        best = np.flatnonzero(margin >= margin.max() - 1e-9)
        return options[ev.rows[best[int(self.rng.integers(len(best)))]]]
