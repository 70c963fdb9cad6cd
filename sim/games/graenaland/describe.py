"""Graenaland's choices in words (``sim.picture``'s protocol): ``describe(state, seat, option)``.

Called before the choice is applied, so it reads the state for names: territories by piece id and
terrain (``picture.territory_name``), resources, supply cards, building costs (data file), heroes.
Cards lying face down are never named (graenaland.txt:182), so the words show no more than the table
does.  One sentence per option kind of ``game.record`` (``action_kinds``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sim.games.graenaland.board import DIRECTIONS, Board, build_board
from sim.games.graenaland.data import PUBLIC, RESOURCES, GraenalandData
from sim.games.graenaland.options import Action, Contribute, Decide, Fee, Move, Pay, Propose, Vote
from sim.games.graenaland.picture import cost_words, pair_words, territory_name, victory_card_name
from sim.games.graenaland.state import HEROES_NAMES, PHASES, GraenalandState

Words = Callable[[GraenalandState, Board, GraenalandData, int, Any], str]


def describe(state: GraenalandState, seat: int, option: Any) -> str:
    """What ``seat`` does by choosing ``option`` in ``state``, as one sentence."""
    data: GraenalandData = state.data
    board = build_board(data, state.n_players)
    words = _WORDS.get(PHASES[state.phase])
    try:
        text = None if words is None else words(state, board, data, seat, option)
    except (TypeError, ValueError, IndexError, KeyError):
        text = None
    if text is None:
        return f"seat {seat} chooses {option!r} (phase {PHASES[state.phase]})"
    return f"seat {seat} {text}"


def _where(board: Board, data: GraenalandData, t: int) -> str:
    return territory_name(board, data, t)


def _noun(kind: str) -> str:
    """A build's name: "yield improvement" for the yield token (line 184), else the kind itself."""
    return "yield improvement" if kind == "yield" else kind


def _move(state: GraenalandState, board: Board, data: GraenalandData, seat: int, option: Any) -> str:
    """Hero movement (lines 74-84): the hero, the direction, from where to where; a swap (line 84)."""
    move = Move(*option)
    if move.hero < 0:
        return "keeps its heroes where they stand"
    hero = HEROES_NAMES[move.hero]
    origin = state.heroes[seat][move.hero]
    dest = board.moves[origin][move.direction] if origin >= 0 else -1
    if dest < 0:
        return f"moves its {hero} {DIRECTIONS[move.direction]}, off the board, so it stays (line 78)"
    text = (f"moves its {hero} {DIRECTIONS[move.direction]} from {board.pieces[origin]} to "
            f"{_where(board, data, dest)}")
    for other, pos in enumerate(state.heroes[seat]):
        if other != move.hero and pos == dest:
            text += f", swapping places with its {HEROES_NAMES[other]}"
    return text


def _card_words(state: GraenalandState, data: GraenalandData, t: int, i: int) -> str:
    if state.face_down[t][i]:
        return "a face-down card"
    return RESOURCES[data.card_resource[state.cards[t][i]]]


def _propose(state: GraenalandState, board: Board, data: GraenalandData, seat: int, option: Any) -> str:
    """A division of every card at one territory (lines 103-106); face-down cards unnamed (line 182)."""
    prop = Propose(*option)
    if prop.territory < 0:
        return "makes no proposal this round"
    t = prop.territory
    gets = []
    for p in sorted(set(prop.receivers)):
        cards = [_card_words(state, data, t, i) for i, r in enumerate(prop.receivers) if r == p]
        gets.append(f"seat {p} gets {', '.join(cards)}")
    where = _where(board, data, t)
    return f"proposes to divide the {len(prop.receivers)} cards at {where}: {'; '.join(gets)}"


def _vote(state: GraenalandState, board: Board, data: GraenalandData, seat: int, option: Any) -> str:
    """A vote on the proposal (lines 113-117), with the seat's votes there."""
    yes = bool(Vote(*option).yes)
    proposer, t, _receivers = state.proposal  # type: ignore[misc]
    weight = dict(zip(state.voters, state.vote_weights, strict=True)).get(seat, 0)
    votes = f"{weight} vote{'s' if weight != 1 else ''}"
    where = _where(board, data, t)
    return f"votes {'yes' if yes else 'no'} ({votes}) on seat {proposer}'s proposal for {where}"


def _build(state: GraenalandState, board: Board, data: GraenalandData, seat: int, option: Any) -> str:
    """A building-phase action (lines 122-212): what, where and what it costs."""
    act = Action(*option)
    kind = act.kind
    if kind == "supply":
        card = state.supply_row[act.index]
        return f"takes the supply card {pair_words(data.supply_cards[card])} (row place {act.index + 1})"
    if kind == "end":
        return "ends its building phase"
    if kind == "offer":
        return f"lets seat {act.index} build one thing instead of proposing a joint public building"
    if kind == "army":
        return f"raises its army strength from {state.army[seat]} to {state.army[seat] + 1}"
    where = _where(board, data, act.territory)
    if kind == "joint":
        name = PUBLIC[act.index]
        price = cost_words(data.costs[name])
        return f"proposes a joint {_noun(name)} at {where} (costs {price}; the others may contribute)"
    cost = board.village_cost[act.territory] if kind == "village" else data.costs[kind]
    article = "an" if kind[0] in "aeiou" else "a"
    return f"builds {article} {_noun(kind)} at {where} (costs {cost_words(cost)})"


def _pay(state: GraenalandState, board: Board, data: GraenalandData, seat: int, option: Any) -> str:
    """A payment (lines 125-137, 194-198): resource cards, supply cards and marketplaces used."""
    pay = Pay(*option)
    kind, t, k, _need = state.pending  # type: ignore[misc]
    what = f"the joint {_noun(PUBLIC[k])}" if kind == "joint" else (
        "army strength" if kind == "army" else f"the {_noun(kind)}")
    where = f" at {board.pieces[t]}" if t >= 0 and kind != "army" else ""
    used = [cost_words(pay.resources)] if any(pay.resources) else []
    used += [f"supply card {pair_words(s)}" for s in pay.supplies]
    if pay.markets:
        used.append(f"{pay.markets} marketplace{'s' if pay.markets != 1 else ''}")
    return f"pays for {what}{where} with {', '.join(used) or 'nothing'}"


def _fee(state: GraenalandState, board: Board, data: GraenalandData, seat: int, option: Any) -> str:
    """The palisade fee (line 203): one card to the next player settled there."""
    res = RESOURCES[Fee(*option).resource]
    to = state.fee_queue[0]
    t = state.pending[1] if state.pending else -1
    where = f" for the palisade at {board.pieces[t]}" if t >= 0 else ""
    return f"gives 1 {res} to seat {to} as the palisade fee{where}"


def _contribute(state: GraenalandState, board: Board, data: GraenalandData, seat: int, option: Any) -> str:
    """An offer towards the joint public building (lines 209-211)."""
    resources = Contribute(*option).resources
    _kind, t, k, _need = state.pending  # type: ignore[misc]
    target = f"the joint {_noun(PUBLIC[k])} at {board.pieces[t]}"
    if not any(resources):
        return f"offers nothing to {target}"
    return f"offers {cost_words(resources)} to {target}"


def _joint(state: GraenalandState, board: Board, data: GraenalandData, seat: int, option: Any) -> str:
    """Build the joint public building with what was offered, or not (line 211)."""
    _kind, t, k, need = state.pending  # type: ignore[misc]
    target = f"the joint {_noun(PUBLIC[k])} at {_where(board, data, t)}"
    if not Decide(*option).yes:
        return f"declines to build {target}; the others keep their cards"
    rest = f", paying the rest ({cost_words(need)}) itself" if any(need) else ""
    return f"builds {target} with the cards offered{rest}"


def _relocate(state: GraenalandState, board: Board, data: GraenalandData, seat: int, option: Any) -> str:
    """Move the priest or skald to the new church or hall (lines 157-158)."""
    hero, t = state.relocate  # type: ignore[misc]
    name = HEROES_NAMES[hero]
    building = "church" if name == "priest" else "hall"
    if Decide(*option).yes:
        return f"moves its {name} from {board.pieces[state.heroes[seat][hero]]} to its new {building} at " \
               f"{_where(board, data, t)}"
    return f"keeps its {name} at {board.pieces[state.heroes[seat][hero]]} (not to the new {building})"


def _settle(state: GraenalandState, board: Board, data: GraenalandData, seat: int, option: Any) -> str:
    """A start village of the custom draft (lines 270-275); the warrior comes with the first."""
    t = Action(*option).territory
    first = all(x < 0 for x in state.start_positions[seat]) if state.start_positions else True
    warrior = " with its warrior" if first else ""
    card = " and takes a card there" if state.draft_cards[t] else " (no card left there: crowded)"
    return f"places a start village{warrior} at {_where(board, data, t)}{card}"


def _anchor(state: GraenalandState, board: Board, data: GraenalandData, seat: int, option: Any) -> str:
    """Weigh anchor from a crowded territory, or stay (line 272)."""
    t = state.anchor[0]  # type: ignore[index]
    if len(option) == 1:
        return f"keeps its village at the crowded {board.pieces[t]}"
    u = Action(*option).territory
    where = _where(board, data, u)
    return f"weighs anchor: moves its village from {board.pieces[t]} to {where} and takes a card there"


def _keep_card(state: GraenalandState, board: Board, data: GraenalandData, seat: int, option: Any) -> str:
    """Keep one of the three victory point cards dealt (line 283)."""
    card = data.victory_cards[state.vp_offer[seat][Action(*option).index]]
    return f"keeps the victory point card {victory_card_name(data, card.levels)}"


def _announce(state: GraenalandState, board: Board, data: GraenalandData, seat: int, option: Any) -> str:
    """Announce reaching the victory points this round, or not (lines 311-315)."""
    if Decide(*option).yes:
        return f"announces victory: it can reach {state.claims[seat]} victory points with this round's builds"
    return "does not announce"


#: the words of each phase's choices, by its name in ``state.PHASES``
_WORDS: dict[str, Words] = {
    "heroes": _move, "propose": _propose, "vote": _vote, "build": _build, "pay": _pay, "fee": _fee,
    "contribute": _contribute, "joint": _joint, "relocate": _relocate, "draft": _settle, "anchor": _anchor,
    "choose_card": _keep_card, "announce": _announce,
}
