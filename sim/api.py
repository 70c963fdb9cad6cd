"""What a game or strategy author needs from Skald, in one place: import from here, nothing else of
``sim`` (the rest is internal and may change).

* **A game**: the ``Game`` protocol its rules object follows and the plain records it hands back
  (``Result``, ``RuleSwitch``), the helpers most games build on (``GameBase``, ``result_from_scores``,
  ``fields_doc``/``fields_of``, ``copy_state``/``copy_rng``), ``IllegalChoice`` for an illegal choice and
  ``SkaldError`` for bad input such as an unreadable data file;
* **what a game can do beyond the protocol**: ``CAPABILITIES`` (``determinize``, ``evaluate``,
  ``action_kinds``, the plug-in's ``picture`` ...), the protocols of the optional methods
  (``Determinizes``, ``Evaluates``) and ``has_capability``;
* **its declaration**: ``GamePlugin``, registered under the ``skald.games`` entry points;
* **a strategy**: the ``Strategy`` base class, its parameter declaration (``Params``: name -> (type,
  default)) and, for one that searches, the ``SearchContext`` it is handed;
* **pictures**: ``Svg``, ``element``, ``seat_colour``, ``text_width``, ``fit_lines`` and ``ALL_SHOWN``
  (``sim.picture`` describes the layout a picture keeps);
* **report sections** are the analysis's: ``analysis.api`` (``Section``, ``Table``, ``pct``);
* **checking it**: ``check_game`` (``ConformanceError`` at the first broken rule, else a ``Report``).
"""

from __future__ import annotations

from sim.errors import IllegalChoice, SkaldError
from sim.game import (
    CAPABILITIES,
    Capability,
    Determinizes,
    Evaluates,
    Game,
    GameBase,
    Result,
    RuleSwitch,
    capabilities,
    copy_rng,
    copy_state,
    fields_doc,
    fields_of,
    has_capability,
    ranks_from_scores,
    result_from_scores,
)
from sim.picture import ALL_SHOWN, Svg, element, fit_lines, seat_colour, text_width
from sim.plugin import GamePlugin
from sim.search import SearchContext
from sim.strategy import Params, Strategy
from sim.testing import ConformanceError, Report, check_game

__all__ = [
    "ALL_SHOWN",
    "CAPABILITIES",
    "Capability",
    "ConformanceError",
    "Determinizes",
    "Evaluates",
    "Game",
    "GameBase",
    "GamePlugin",
    "IllegalChoice",
    "Params",
    "Report",
    "Result",
    "RuleSwitch",
    "SearchContext",
    "SkaldError",
    "Strategy",
    "Svg",
    "capabilities",
    "check_game",
    "copy_rng",
    "copy_state",
    "element",
    "fields_doc",
    "fields_of",
    "fit_lines",
    "has_capability",
    "ranks_from_scores",
    "result_from_scores",
    "seat_colour",
    "text_width",
]
