"""Distributing resources: proposals and votes (graenaland.txt:88-121).

The options of a proposal are every territory where the proposer has a vote and cards lie,
times every division of *all* its cards among the seats with a vote there (lines 103-105).
Identical face-up cards are interchangeable, so a face-up resource counted c times is split
as a composition of c over the k voters; each face-down card is distinct (nobody knows what
it is, line 182). ``ProposalOptions`` is a lazy sequence: an index is decoded (mixed radix)
into a ``Propose`` without materialising the others.
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from functools import lru_cache
from itertools import combinations
from math import comb

from sim.errors import IllegalChoice
from sim.games.graenaland.data import GraenalandData
from sim.games.graenaland.options import NO_PROPOSAL, Propose
from sim.games.graenaland.state import GraenalandState, ProposalRecord
from sim.games.graenaland.votes import votes_by_territory


@lru_cache(maxsize=4096)
def compositions(total: int, parts: int) -> tuple[tuple[int, ...], ...]:
    """Every way to write ``total`` as ``parts`` ordered non-negative counts (stars and bars)."""
    out = []
    for bars in combinations(range(total + parts - 1), parts - 1):
        prev, counts = -1, []
        for b in bars:
            counts.append(b - prev - 1)
            prev = b
        counts.append(total + parts - 2 - prev)
        out.append(tuple(counts))
    return tuple(out)


class _Segment:
    """The divisions of one territory's cards among its voters."""

    __slots__ = ("territory", "voters", "groups", "hidden", "n_cards", "radices", "size")

    def __init__(self, territory: int, voters: tuple[int, ...], state: GraenalandState, data: GraenalandData):
        self.territory, self.voters = territory, voters
        by_res: dict[int, list[int]] = {}
        hidden: list[int] = []
        card_resource = data.card_resource
        pile = zip(state.cards[territory], state.face_down[territory], strict=True)
        for i, (card, down) in enumerate(pile):
            if down:
                hidden.append(i)
            else:
                group = by_res.get(card_resource[card])
                if group is None:
                    by_res[card_resource[card]] = [i]
                else:
                    group.append(i)
        self.hidden = hidden
        groups = [by_res[r] for r in sorted(by_res)]
        self.groups = groups
        self.n_cards = len(state.cards[territory])
        k = len(voters)
        size = k ** len(hidden)
        radices = []
        for g in groups:
            ways = comb(len(g) + k - 1, k - 1)  # len(compositions(len(g), k)): stars and bars
            radices.append(ways)
            size *= ways
        self.radices = radices + [k] * len(hidden)
        self.size = size

    def decode(self, index: int) -> Propose:
        receivers = [0] * self.n_cards
        k = len(self.voters)
        for g in self.groups:
            comp = compositions(len(g), k)
            index, digit = divmod(index, len(comp))
            pos = 0
            for v, count in enumerate(comp[digit]):
                for _ in range(count):
                    receivers[g[pos]] = self.voters[v]
                    pos += 1
        for i in self.hidden:
            index, digit = divmod(index, k)
            receivers[i] = self.voters[digit]
        return Propose(self.territory, tuple(receivers))


class ProposalOptions(Sequence):
    """Index 0 is "no proposal" (a player *may* propose, line 90); then each territory's divisions."""

    def __init__(self, segments: list[_Segment]):
        self.segments = segments
        self.starts = []
        total = 1
        for seg in segments:
            self.starts.append(total)
            total += seg.size
        self.total = total

    def __len__(self) -> int:
        return self.total

    def __getitem__(self, index):
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(self.total))]
        index = operator.index(index)  # any integer, a numpy one too, as a list takes it
        if index < 0:
            index += self.total
        if not 0 <= index < self.total:
            raise IndexError(index)
        if index == 0:
            return NO_PROPOSAL
        for start, seg in zip(reversed(self.starts), reversed(self.segments), strict=True):
            if index >= start:
                return seg.decode(index - start)
        raise IndexError(index)  # pragma: no cover

    def territories(self) -> list[tuple[int, tuple[int, ...]]]:
        """(territory, voters) of each segment: what a strategy may divide."""
        return [(s.territory, s.voters) for s in self.segments]


def voters_of(state: GraenalandState, t: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(seats with at least one vote on t, their votes)."""
    votes = votes_by_territory(state)[t]
    seats = tuple(p for p in range(state.n_players) if votes[p] > 0)
    return seats, tuple(votes[p] for p in seats)


def proposal_options(state: GraenalandState, data: GraenalandData, seat: int) -> ProposalOptions:
    votes = votes_by_territory(state)
    segments = []
    for t in range(len(state.cards)):
        if state.cards[t] and votes[t][seat] > 0:
            voters = tuple(p for p, v in enumerate(votes[t]) if v > 0)
            segments.append(_Segment(t, voters, state, data))
    return ProposalOptions(segments)


def can_propose(state: GraenalandState, seat: int) -> bool:
    """Whether ``proposal_options`` offers more than "no proposal": resources lie at a territory where
    the seat has a vote (line 103)."""
    votes = votes_by_territory(state)
    return any(state.cards[t] and votes[t][seat] > 0 for t in range(len(state.cards)))


def check_proposal(state: GraenalandState, seat: int, choice: object
                   ) -> tuple[Propose, tuple[int, ...], tuple[int, ...]]:
    """A proposal must name a territory where the proposer has a vote (line 103) and give every card
    there (line 105) to a seat with a vote there (line 105). Returns it with the seats that vote on it
    and their votes (``voters_of``; none for no proposal)."""
    if not isinstance(choice, tuple) or len(choice) != 2:
        raise _illegal(seat, choice, "a proposal is Propose(territory, receivers)")
    try:
        t, receivers = int(choice[0]), tuple(int(r) for r in choice[1])
    except (TypeError, ValueError):
        raise _illegal(seat, choice, "a proposal is Propose(territory, receivers) of integers") from None
    if t == -1 and not receivers:
        return NO_PROPOSAL, (), ()
    if not 0 <= t < len(state.cards) or not state.cards[t]:
        raise _illegal(seat, choice, "no resources lie at that territory")
    voters, weights = voters_of(state, t)
    if seat not in voters:
        raise _illegal(seat, choice, "the proposer needs a vote on the territory (line 103)")
    if len(receivers) != len(state.cards[t]):
        raise _illegal(seat, choice, "a proposal divides all the resources of the territory (line 105)")
    if any(r not in voters for r in receivers):
        raise _illegal(seat, choice, "resources go only to players with a vote there (line 105)")
    return Propose(t, receivers), voters, weights


def shares(n_players: int, receivers: tuple[int, ...]) -> tuple[int, ...]:
    counts = [0] * n_players
    for r in receivers:
        counts[r] += 1
    return tuple(counts)


def resolve_vote(state: GraenalandState, ballots: dict[int, bool]) -> bool:
    """Strictly more than half of the votes approve (lines 117-118); then the cards are handed out."""
    proposer, t, receivers = state.proposal  # type: ignore[misc]
    total = sum(state.vote_weights)
    yes = sum(w for seat, w in zip(state.voters, state.vote_weights, strict=True) if ballots[seat])
    approved = 2 * yes > total
    if approved:
        for card, seat in zip(state.cards[t], receivers, strict=True):
            state.hands[seat].append(card)
        state.cards[t] = []
        state.face_down[t] = []
    state.history.append(ProposalRecord(
        round=state.round, proposer=proposer, territory=t, shares=shares(state.n_players, receivers),
        yes=tuple(s for s in state.voters if ballots[s]), no=tuple(s for s in state.voters if not ballots[s]),
        approved=approved))
    return approved


def _illegal(seat: int, choice: object, why: str) -> IllegalChoice:
    return IllegalChoice(f"seat {seat} proposal {choice!r}: {why}", seat=seat)
