"""Advanced rules: the custom start draft (graenaland.txt:267-277) and victory point cards (279-316)."""

from __future__ import annotations

from sim.games.graenaland.board import Board
from sim.games.graenaland.building import hand_counts, supply_pairs
from sim.games.graenaland.data import GraenalandData
from sim.games.graenaland.options import Action, Decide
from sim.games.graenaland.production import discard, draw
from sim.games.graenaland.reach import Position, most_points
from sim.games.graenaland.state import MARKET, WARRIOR, GraenalandState, board_changed
from sim.games.graenaland.votes import settlements_on

STAY_ANCHORED = Decide(False)

# --------------------------------------------------------------------------- custom start draft


def start_draft(state: GraenalandState, board: Board) -> None:
    """Two face-down cards of the terrain at each coastal territory (line 269); settling order 1..n, then
    n..1 (line 273)."""
    state.draft_cards = [[] for _ in range(board.n)]
    state.settlers = [[] for _ in range(board.n)]
    for t in range(board.n):
        if board.coastal[t]:
            for _ in range(2):
                card = draw(state, board.terrain[t])
                if card is not None:
                    state.draft_cards[t].append(card)
    n = state.n_players
    state.draft_queue = list(range(n)) + list(reversed(range(n)))
    state.start_positions = [(-1, -1)] * n


def _first(state: GraenalandState, seat: int) -> int:
    return state.start_positions[seat][0]


def _last_village_ok(state: GraenalandState, cards_left: list[int]) -> bool:
    """Line 276: the player placing the last village must find a free card at a territory other than
    the one of their first village."""
    last = state.draft_queue[-1]
    return any(c > 0 for t, c in enumerate(cards_left) if t != _first(state, last))


def draft_options(state: GraenalandState, board: Board, seat: int) -> list[Action]:
    """Any coastal territory (lines 270-271), never the one of the seat's first village (275), and, for
    the second-to-last village, one that leaves the last placer a free card elsewhere (276)."""
    out = []
    for t in range(board.n):
        if not board.coastal[t] or t == _first(state, seat):
            continue
        if len(state.draft_queue) == 2:
            left = [len(c) for c in state.draft_cards]
            if left[t]:
                left[t] -= 1
            if not _last_village_ok(state, left):
                continue
        out.append(Action("settle", t))
    return out


def settle(state: GraenalandState, board: Board, seat: int, t: int) -> None:
    """Place the village (and in the first round the warrior, line 271) and take a card there if one is
    left; a crowded territory (no card left) lets earlier settlers weigh anchor (line 272)."""
    state.draft_queue.pop(0)
    first = _first(state, seat) < 0
    state.villages[t][seat] += 1
    state.houses[seat] -= 1
    board_changed(state, seat)
    if first:
        state.heroes[seat][WARRIOR] = t
        state.start_positions[seat] = (t, -1)
    else:
        state.start_positions[seat] = (state.start_positions[seat][0], t)
    earlier = list(state.settlers[t])
    state.settlers[t].append(seat)
    if state.draft_cards[t]:
        state.hands[seat].append(state.draft_cards[t].pop())
        state.anchor = None
    else:
        state.anchor = (t, [p for p in earlier if anchor_options(state, board, p, t)[1:]])
        if not state.anchor[1]:
            state.anchor = None


def anchor_options(state: GraenalandState, board: Board, seat: int, t: int) -> list:
    """Stay, or move the village from the crowded ``t`` to a less crowded coastal territory with a card left
    and not the seat's other village (lines 272, 275-276)."""
    out: list = [STAY_ANCHORED]
    crowd = sum(state.villages[t])
    other = [x for x in state.start_positions[seat] if x != t]
    for u in range(board.n):
        if u == t or not board.coastal[u] or not state.draft_cards[u] or u in other:
            continue
        if sum(state.villages[u]) >= crowd - 1:
            continue
        if state.draft_queue:
            left = [len(c) for c in state.draft_cards]
            left[u] -= 1
            if len(state.draft_queue) <= 1 and not _last_village_ok(state, left):
                continue
        out.append(Action("anchor", u))
    return out


def weigh_anchor(state: GraenalandState, seat: int, u: int) -> None:
    """The seat's village moves from the crowded territory to ``u`` and takes a card there (line 272); its
    warrior stays where it stands (ruling G23)."""
    t = state.anchor[0]  # type: ignore[index]
    state.villages[t][seat] -= 1
    state.villages[u][seat] += 1
    board_changed(state, seat)
    state.settlers[t].remove(seat)
    state.settlers[u].append(seat)
    a, b = state.start_positions[seat]
    state.start_positions[seat] = (u if a == t else a, u if b == t else b)
    state.hands[seat].append(state.draft_cards[u].pop())
    state.anchor = None


def finish_draft(state: GraenalandState, data: GraenalandData) -> None:
    """Cards left at the coast are set aside (line 277): back to their discard piles."""
    for pile in state.draft_cards:
        for card in pile:
            discard(state, data.card_deck[card], [card])
    state.draft_cards = []


# --------------------------------------------------------------------------- victory point cards


def deal_victory_cards(state: GraenalandState, data: GraenalandData) -> None:
    """Each player receives three victory point cards (line 283)."""
    cards = list(range(len(data.victory_cards)))
    state.rng.shuffle(cards)
    state.vp_offer = [sorted(cards[3 * p: 3 * p + 3]) for p in range(state.n_players)]
    state.vp_card = [-1] * state.n_players


def card_options(state: GraenalandState, seat: int) -> list[Action]:
    return [Action("keep_card", -1, i) for i in range(len(state.vp_offer[seat]))]


def claim(state: GraenalandState, board: Board, data: GraenalandData, seat: int) -> int:
    """The most victory points the seat can reach by any sequence of builds it can pay for in one
    building phase from its hand and supply cards, no supply card taken, each marketplace once (lines
    128, 311-313; ``reach.most_points``, ruling G25), when that is enough to win; else its points now
    (nothing to announce)."""
    return most_points(position(state, board, data, seat), board, data, at_least=data.victory_points).points


def position(state: GraenalandState, board: Board, data: GraenalandData, seat: int) -> Position:
    """What ``reach.most_points`` reads for ``seat`` before a building phase: no marketplace used yet."""
    markets = sum(1 for t in range(board.n) if state.public[t][MARKET] and settlements_on(state, t, seat))
    return Position(
        seat=seat, villages=state.villages, buildings=state.buildings, public=state.public,
        army=state.army[seat], houses=state.houses[seat], hand=hand_counts(state, data, seat),
        supplies=supply_pairs(state, data, seat), markets=markets, three=state.three,
        levels=data.victory_cards[state.vp_card[seat]].levels)
