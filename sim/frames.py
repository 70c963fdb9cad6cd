"""The frames of one recorded game, for the replay viewer (``sim.viewer``): its pictures, captions and scores.

A recorded game is played again from its seed (``sim.replay.play_again``) with an observer that draws the
board just before every decision point's choices are applied, and once more at the end, in every view:
"all hidden information shown" and each seat's own (``sim.picture``'s protocol).  Each frame's caption is
the action of that decision point in words (the game's ``describe``), one line per seat that moves;
each frame's scores are every seat's score once the decision points before it were applied (the turns'
``scores``, from the ``TurnLog``).  The scores are public unless some seat cannot know another's: in a
state drawn for that seat (the game's ``determinize``, every ``SAMPLE_EVERY`` decision points and at the
end, from a generator seeded by the run's seed and the game's id) the other's score differs.  A game
without ``determinize`` has public scores.

Storage is compact (``sim.picture``: one top-level SVG element per line): every distinct line is stored
once in a table, and each frame of each view is encoded against the view's previous frame as a list of
items, a line number of the table (a line that is new here) or a pair ``[start, count]`` (``count`` lines
kept from the previous frame, from its line ``start`` on).  ``decode`` undoes it.
"""

from __future__ import annotations

import difflib
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sim.game import capability
from sim.picture import ALL_SHOWN, declared, declared_function
from sim.plan import resolve_game
from sim.replay import Recorded, Replayed, check, play_again, recorded

#: one encoded frame: line numbers of the table and [start, count] runs kept from the previous frame
Encoded = list[int | list[int]]
#: how often (in decision points) whether the scores are public is sampled (``PublicScores``)
SAMPLE_EVERY = 4


class LineTable:
    """Every distinct SVG line once, numbered in the order first seen."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self._index: dict[str, int] = {}

    def numbers(self, svg: str) -> list[int]:
        """The table's numbers of the lines of ``svg`` (added to the table when new)."""
        out = []
        for line in svg.split("\n"):
            number = self._index.get(line)
            if number is None:
                number = self._index[line] = len(self.lines)
                self.lines.append(line)
            out.append(number)
        return out


def encode(previous: Sequence[int], current: Sequence[int]) -> Encoded:
    """``current`` (a frame's line numbers) as runs kept from ``previous`` and new line numbers."""
    out: Encoded = []
    matcher = difflib.SequenceMatcher(None, previous, current, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            out.append([i1, i2 - i1])
        elif tag != "delete":
            out.extend(current[j1:j2])
    return out


def decode(encoded: Sequence[Encoded]) -> list[list[int]]:
    """Every frame's line numbers from the encoded frames of one view (``encode``'s inverse)."""
    frames: list[list[int]] = []
    previous: list[int] = []
    for items in encoded:
        current: list[int] = []
        for item in items:
            if isinstance(item, list):
                current.extend(previous[item[0] : item[0] + item[1]])
            else:
                current.append(item)
        frames.append(current)
        previous = current
    return frames


def svg_of(lines: Sequence[str], numbers: Sequence[int]) -> str:
    """A frame's SVG document from the table and its line numbers."""
    return "\n".join(lines[n] for n in numbers)


@dataclass
class Frames:
    """The frames of one game: ``views[v]`` labels view v (0: everything shown, then seat 0, 1, ...);
    ``encoded[v]`` its frames; ``captions[f]`` and ``turns[f]`` say what is decided at frame f (one line
    and the decision number of each mover; the last frame says how the game ended); ``scores[f]`` every
    seat's score at frame f; ``public_scores`` whether every seat can know them all (``PublicScores``)."""

    game: str
    title: str
    run: str
    game_id: int
    seed: int
    seat_texts: list[str]
    views: list[str]
    lines: list[str]
    encoded: list[list[Encoded]]
    captions: list[list[str]]
    turns: list[list[int]]
    scores: list[list[float]]
    ending: str = ""
    public_scores: bool = True

    def svg(self, frame: int, view: int = 0) -> str:
        """Frame ``frame``'s SVG in view ``view`` (decoded; for tests and notebooks)."""
        return svg_of(self.lines, decode(self.encoded[view][: frame + 1])[frame])

    def to_json(self) -> dict[str, Any]:
        """What the page's script reads."""
        return {
            "game": self.game, "title": self.title, "run": self.run, "game_id": self.game_id,
            "seed": self.seed, "seats": self.seat_texts, "views": self.views, "lines": self.lines,
            "frames": self.encoded, "captions": self.captions, "turns": self.turns, "scores": self.scores,
            "ending": self.ending, "public_scores": self.public_scores,
        }  # fmt: skip


@dataclass
class _Observer:
    """``play_game``'s ``observe``: every view's picture and every mover's action in words, per frame."""

    draw: Any
    say: Any
    players: int
    every_view: bool = True  # False: the all-shown view alone (a seat's view is one more picture a frame)
    table: LineTable = field(default_factory=LineTable)
    numbers: list[list[list[int]]] = field(default_factory=list)  # [view][frame] line numbers
    said: list[list[tuple[int, str]]] = field(default_factory=list)  # [frame] (seat, words)
    movers: list[int] = field(default_factory=list)
    state: Any = None
    ended: bool = False

    def __post_init__(self) -> None:
        self.numbers = [[] for _ in self.seats()]

    def seats(self) -> list[int | None]:
        """The views drawn: everything shown (None), then each seat's unless ``every_view`` is off."""
        return [None, *range(self.players)] if self.every_view else [None]

    def __call__(self, state: Any, choices: dict[int, Any] | None) -> None:
        self.state = state
        self.draw_frame(state)
        if choices is None:
            self.ended = True
            self.said.append([])
            return
        self.said.append([(seat, str(self.say(state, seat, option))) for seat, option in choices.items()])
        self.movers.append(len(choices))

    def draw_frame(self, state: Any) -> None:
        for view, seat in enumerate(self.seats()):
            self.numbers[view].append(self.table.numbers(self.draw(state, seat)))


@dataclass
class PublicScores:
    """Whether every seat can know every score: not when, in a state drawn for some seat
    (``determinize``: what that seat cannot see drawn again), another seat's score differs, sampled every
    ``SAMPLE_EVERY`` decision points and at the end.  A game without ``determinize`` has public scores."""

    rules: Any
    players: int
    seed: list[int]  # the run's seed and the game's id
    public: bool = True
    seen: int = 0

    def sample(self, state: Any, last: bool = False) -> None:
        """Compare ``state``'s scores with a state drawn for each seat (every ``SAMPLE_EVERY``-th call)."""
        import numpy as np

        determinize = capability(self.rules, "determinize")
        due, self.seen = self.seen % SAMPLE_EVERY == 0 or last, self.seen + 1
        if determinize is None or not due or not self.public:
            return
        scores = list(self.rules.scores(state))
        rng = np.random.default_rng([*self.seed, self.seen])
        for seat in range(self.players):
            drawn = list(self.rules.scores(determinize(state, seat, rng)))
            if any(drawn[q] != scores[q] for q in range(self.players) if q != seat):
                self.public = False
                return


def _functions(game: str) -> tuple[Any, Any]:
    """The game's ``picture`` and ``describe`` (a one-line error for a game that declares no picture)."""
    why = ": it has no replay viewer"
    return declared_function(game, "picture", why), declared_function(game, "describe", why)


def check_pictured(game: str) -> None:
    """Refuse, with a one-line ``SkaldError``, a game that declares no picture or no describe."""
    _functions(game)


def _ending(again: Replayed) -> str:
    played, texts = again.played, again.seat_texts
    result = played.outcome.result
    if played.failure is not None:
        return f"errored at turn {played.failure.turn}: {played.failure}"
    if played.outcome.truncated:
        return f"truncated after {played.outcome.decisions} decisions (no winner)"
    if result is None:
        return "the game ended"
    scores = "/".join(f"{v:g}" for v in result.scores)
    winners = ", ".join(f"seat {w} ({texts[w]})" for w in sorted(result.winners))
    return f"end: scores {scores}; won by {winners}"


def _scores(observer: _Observer, again: Replayed, start: list[float]) -> list[list[float]]:
    """Every frame's scores: the start's, then those after each decision point (the last row of its
    movers in the turns); a point without rows (an errored game's last) keeps the previous scores."""
    rows = again.turns.scores
    out, row = [start], 0
    for movers in observer.movers:
        row += movers
        out.append([float(v) for v in rows[row - 1]] if row <= len(rows) else out[-1])
    return out[: len(observer.said)]


def _action(seat: int, words: str) -> str:
    """``describe``'s words without a leading "seat N " (the caption names the seat and its strategy)."""
    prefix = f"seat {seat} "
    return words[len(prefix) :] if words.startswith(prefix) else words


def _captions(observer: _Observer, again: Replayed, ending: str) -> tuple[list[list[str]], list[list[int]]]:
    texts = again.seat_texts
    captions, turns, turn = [], [], 0
    for said in observer.said:
        captions.append([f"seat {seat} ({texts[seat]}) {_action(seat, words)}" for seat, words in said])
        turns.append(list(range(turn, turn + len(said))))
        turn += len(said)
    captions[-1] = [*captions[-1], ending] if captions[-1] else [ending]
    return captions, turns


def record_frames(folder: str | Path, game_id: int, every_view: bool = True) -> Frames:
    """The frames of game ``game_id`` of the run in ``folder``, played again and checked against its
    records (``sim.replay.ReplayMismatch`` when it differs)."""
    game = recorded(folder, game_id)
    return frames_of(game, every_view)


def frames_of(game: Recorded, every_view: bool = True) -> Frames:
    """The frames of the recorded ``game`` (see ``record_frames``), in every view or (``every_view``
    False: players + 1 times cheaper to draw) with everything shown alone."""
    plan = game.plan
    draw, say = _functions(plan.game_name)
    observer = _Observer(draw, say, plan.players, every_view)
    start: list[float] = []
    rules = resolve_game(plan.game_ref)
    public = PublicScores(rules, plan.players, [plan.seed, game.game_id])

    def observe(state: Any, choices: dict[int, Any] | None) -> None:
        if not start:
            start.extend(float(v) for v in rules.scores(state))  # the scores before the first decision
        public.sample(state, last=choices is None)
        observer(state, choices)

    again = play_again(game, observe)
    check(game, again)
    if not observer.ended and observer.state is not None:
        observer.draw_frame(observer.state)  # an errored game: the board where it stopped
        observer.said.append([])
    ending = _ending(again)
    captions, turns = _captions(observer, again, ending)
    texts = again.seat_texts
    return Frames(
        game=plan.game_name, title=declared(plan.game_name).title, run=plan.run_id, game_id=game.game_id,
        seed=again.played.outcome.seed, seat_texts=texts,
        views=[ALL_SHOWN, *(f"seat {s} ({t})" for s, t in enumerate(texts) if every_view)],
        lines=observer.table.lines,
        encoded=[_encoded(frames) for frames in observer.numbers],
        captions=captions, turns=turns, scores=_scores(observer, again, start), ending=ending,
        public_scores=public.public,
    )  # fmt: skip


def _encoded(frames: list[list[int]]) -> list[Encoded]:
    """One view's frames, each encoded against the one before."""
    out: list[Encoded] = []
    previous: list[int] = []
    for current in frames:
        out.append(encode(previous, current))
        previous = current
    return out
