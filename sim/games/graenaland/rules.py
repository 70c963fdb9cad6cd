"""Graenaland's round as a phase machine: set-up, who decides, the options, and applying choices.

Rulebook: ../shared/rules/graenaland.txt. A round (line 56) is production (automatic), one
simultaneous hero-movement decision of every non-main player, the proposals clockwise from the
main player's left each followed by one simultaneous vote, the main player's building phase
(a sequence of actions, each paid by a separate payment decision), and the end of the round.
After the main player's building phase a player meeting three goals announces victory and the
others get one final building phase each (lines 221-241).
"""

from __future__ import annotations

import numpy as np

from sim.errors import IllegalChoice
from sim.games.graenaland import advanced, building, distribution, heroes
from sim.games.graenaland.board import Board, build_board
from sim.games.graenaland.data import PUBLIC, TERRAINS, GraenalandData
from sim.games.graenaland.options import NO_PROPOSAL, Action, Decide, Pay, Vote
from sim.games.graenaland.production import draw, produce
from sim.games.graenaland.state import (
    ANCHOR,
    ANNOUNCE,
    BUILD,
    CHOOSE_CARD,
    CONTRIBUTE,
    DRAFT,
    FEE,
    HEROES,
    JOINT,
    OVER,
    PAY,
    PHASES,
    PROPOSE,
    RELOCATE,
    STATS,
    VOTE,
    WARRIOR,
    GraenalandState,
    board_changed,
)
from sim.games.graenaland.victory import can_announce
from sim.games.graenaland.votes import settlements_on

VOTES = (Vote(False), Vote(True))
DECISIONS = (Decide(False), Decide(True))


def three_player_rules(rules: dict, n_players: int) -> bool:
    """``three_player_adjustments``: auto = on for three players (line 25), on, off."""
    value = rules.get("three_player_adjustments", "auto")
    return n_players == 3 if value == "auto" else value == "on"


def new_game(data: GraenalandData, n_players: int, rules: dict, seed: int) -> GraenalandState:
    """Set-up (lines 27-49): the layout, shuffled decks, four face-up supply cards, army 1, 14 houses;
    player i (seat i, clockwise from the starting player, seat 0) settles the spaces marked i with two
    settlements and the warrior and takes one card from each of the two terrains' decks."""
    board = build_board(data, n_players)
    rng = np.random.default_rng(np.random.SeedSequence(seed))
    decks = []
    for t in range(len(TERRAINS)):
        deck = [c for c, d in enumerate(data.card_deck) if d == t]
        rng.shuffle(deck)
        decks.append(deck)
    supply = list(range(len(data.supply_cards)))
    rng.shuffle(supply)
    row = [supply.pop() for _ in range(data.supply_row)]
    T = board.n
    state = GraenalandState(
        n_players=n_players, seed=seed, rules=dict(rules), three=three_player_rules(rules, n_players),
        villages=[[0] * n_players for _ in range(T)], buildings=[[-1, -1, -1] for _ in range(T)],
        public=[[False] * len(PUBLIC) for _ in range(T)], cards=[[] for _ in range(T)],
        face_down=[[] for _ in range(T)], heroes=[[-1, -1, -1] for _ in range(n_players)],
        waiting=[[-1, -1, -1] for _ in range(n_players)], army=[data.start_army] * n_players,
        hands=[[] for _ in range(n_players)], supplies=[[] for _ in range(n_players)], decks=decks,
        discards=[[] for _ in range(len(TERRAINS))], supply_deck=supply, supply_row=row, supply_discard=[],
        houses=[data.houses] * n_players, tokens=[data.tokens[k] for k in PUBLIC], rng=rng,
        stats={name: [0] * n_players for name in STATS},
    )
    state.vp_card = [-1] * n_players
    if rules.get("custom_start"):
        advanced.start_draft(state, board)  # lines 267-277
        state.phase = DRAFT
        return state
    for seat in range(n_players):
        first, second = board.start[seat]
        for t in (first, second):
            state.villages[t][seat] += 1
            state.houses[seat] -= 1
            board_changed(state, seat)
        state.heroes[seat][WARRIOR] = first
        state.start_positions.append((first, second))
    for seat in range(n_players):
        for t in board.start[seat]:
            card = draw(state, board.terrain[t])
            if card is not None:
                state.hands[seat].append(card)
    _after_setup(state, board, data)
    return state


def _after_setup(state: GraenalandState, board: Board, data: GraenalandData) -> None:
    """Victory point cards are chosen after the initial placement (line 281), then round 1 begins."""
    if state.rules.get("victory_cards"):
        advanced.deal_victory_cards(state, data)
        state.phase = CHOOSE_CARD
        return
    begin_round(state, board, data)


def begin_round(state: GraenalandState, board: Board, data: GraenalandData) -> None:
    state.stats["rounds_main"][state.main] += 1
    produce(state, board, data)
    state.phase = HEROES


# --------------------------------------------------------------------------- who decides, and on what


def to_move(state: GraenalandState) -> tuple[int, ...]:
    phase = state.phase
    if phase == HEROES:
        return heroes.movers(state)
    if phase == PROPOSE:
        return (state.proposers[0],)
    if phase == VOTE:
        return state.voters
    if phase == CONTRIBUTE:
        return state.contributors
    if phase == OVER:
        return ()
    if phase == DRAFT:
        return (state.draft_queue[0],)
    if phase == ANCHOR:
        return (state.anchor[1][0],)  # type: ignore[index]
    if phase == CHOOSE_CARD:
        return tuple(range(state.n_players))
    if phase == ANNOUNCE:
        return _eligible(state)
    return (state.builder,)


def _eligible(state: GraenalandState) -> tuple[int, ...]:
    """Players who can reach the winning victory points, clockwise from the main player (line 313)."""
    n = state.n_players
    points = state.data.victory_points
    return tuple(p for p in ((state.main + i) % n for i in range(n)) if state.claims[p] >= points)


def options(state: GraenalandState, board: Board, data: GraenalandData, seat: int):
    """The seat's options now (a list, or a lazy sequence for proposals)."""
    phase = state.phase
    if phase == HEROES:
        return heroes.move_options(state, board, seat)
    if phase == PROPOSE:
        return distribution.proposal_options(state, data, seat)
    if phase == VOTE:
        return list(VOTES)
    if phase == BUILD:
        return building.action_options(state, board, data, seat)
    if phase == PAY:
        return _pay_options(state, board, data, seat)
    if phase == FEE:
        return building.fee_options(state, data, seat)
    if phase == CONTRIBUTE:
        assert state.joint is not None  # the joint building being paid for (line 212)
        return building.contribution_options(state, data, seat, data.costs[PUBLIC[state.joint[0]]])
    if phase == JOINT:
        return [DECISIONS[0]] + ([DECISIONS[1]] if _joint_feasible(state, board, data) else [])
    if phase == RELOCATE or phase == ANNOUNCE:
        return list(DECISIONS)
    if phase == DRAFT:
        return advanced.draft_options(state, board, seat)
    if phase == ANCHOR:
        return advanced.anchor_options(state, board, seat, state.anchor[0])  # type: ignore[index]
    if phase == CHOOSE_CARD:
        return advanced.card_options(state, seat)
    return []


def _pay_options(state: GraenalandState, board: Board, data: GraenalandData, seat: int) -> list[Pay]:
    kind, t, _k, need = state.pending  # type: ignore[misc]
    if kind == "joint":
        return building.payment_options(state, board, data, seat, kind, t, tuple(need))
    return building.payment_options(state, board, data, seat, kind, t)


def _joint_feasible(state: GraenalandState, board: Board, data: GraenalandData) -> bool:
    _kind, t, _k, need = state.pending  # type: ignore[misc]
    if not any(need):
        return True
    return bool(building.payment_options(state, board, data, state.builder, "joint", t, tuple(need)))


# --------------------------------------------------------------------------- applying choices


def illegal(state: GraenalandState, seat: int, choice: object, why: str) -> IllegalChoice:
    return IllegalChoice(f"seat {seat} chose {choice!r} in phase {PHASES[state.phase]}: {why}", seat=seat)


def _member(state: GraenalandState, seat: int, choice: object, allowed: list, why: str):
    for option in allowed:
        if option == choice:
            return option
    raise illegal(state, seat, choice, why)


def apply(state: GraenalandState, board: Board, data: GraenalandData, choices: dict) -> None:
    """Apply the choices of every seat to move (validated first; nothing changes on an illegal one),
    through the phase's step in ``_APPLY``."""
    movers = to_move(state)
    if set(choices) != set(movers):
        missing = sorted(set(movers) - set(choices))
        extra = sorted(set(choices) - set(movers))
        seat = (extra or missing or [None])[0]
        raise IllegalChoice(f"phase {PHASES[state.phase]} needs choices from seats {list(movers)}, "
                            f"got {sorted(choices)}", seat=seat)
    _APPLY.get(state.phase, _apply_over)(state, board, data, movers, choices)


def _apply_heroes(state: GraenalandState, board: Board, data: GraenalandData, movers: tuple[int, ...],
                  choices: dict) -> None:
    """The simultaneous hero movement of the non-main players (lines 70-84), then the proposals."""
    moves = {seat: heroes.check_move(state, board, seat, c) for seat, c in choices.items()}
    heroes.apply_moves(state, board, moves)
    heroes.enter_waiting(state)
    state.proposers = [(state.main + i) % state.n_players for i in range(1, state.n_players)]
    _next_proposer(state, board, data)


def _apply_proposal(state: GraenalandState, board: Board, data: GraenalandData, movers: tuple[int, ...],
                    choices: dict) -> None:
    """A proposal (lines 90, 101-107): no proposal moves on to the next proposer, else everyone votes."""
    seat = movers[0]
    prop, voters, weights = distribution.check_proposal(state, seat, choices[seat])
    state.proposers.pop(0)
    if prop == NO_PROPOSAL:
        _next_proposer(state, board, data)
        return
    state.proposal = (seat, prop.territory, prop.receivers)
    state.voters, state.vote_weights = voters, weights
    state.stats["proposals"][seat] += 1
    state.phase = VOTE


def _apply_votes(state: GraenalandState, board: Board, data: GraenalandData, movers: tuple[int, ...],
                 choices: dict) -> None:
    """The simultaneous vote on a proposal (lines 113-119), then the next proposer."""
    ballots = {}
    for seat, c in choices.items():
        vote = _member(state, seat, c, list(VOTES), "a vote is Vote(True) or Vote(False)")
        ballots[seat] = bool(vote.yes)
    proposer, _t, receivers = state.proposal  # type: ignore[misc]
    approved = distribution.resolve_vote(state, ballots)
    t = state.proposal[1]  # type: ignore[index]
    for seat, weight in zip(state.voters, state.vote_weights, strict=True):
        state.stats["votes_cast"][seat] += 1
        state.stats["votes_yes"][seat] += ballots[seat]
        settled = settlements_on(state, t, seat)
        state.stats["votes_settlements"][seat] += settled
        state.stats["votes_heroes"][seat] += weight - settled
    if approved:
        state.stats["proposals_approved"][proposer] += 1
        for r in receivers:
            state.stats["cards_received"][r] += 1
    state.proposal, state.voters, state.vote_weights = None, (), ()
    _next_proposer(state, board, data)


def _apply_build(state: GraenalandState, board: Board, data: GraenalandData, movers: tuple[int, ...],
                 choices: dict) -> None:
    """One action of the builder's building phase (lines 123-212)."""
    seat = movers[0]
    action = building.action_allowed(state, board, data, seat, choices[seat])
    if action is None:
        raise illegal(state, seat, choices[seat], "not an action open to the builder now")
    _do_action(state, board, data, seat, action)


def _apply_pay(state: GraenalandState, board: Board, data: GraenalandData, movers: tuple[int, ...],
               choices: dict) -> None:
    """The payment for the build chosen (lines 126-128)."""
    seat = movers[0]
    option = _member(state, seat, choices[seat], _pay_options(state, board, data, seat),
                     "not a way to pay for this build")
    _do_pay(state, board, data, seat, option)


def _apply_fee(state: GraenalandState, board: Board, data: GraenalandData, movers: tuple[int, ...],
               choices: dict) -> None:
    """The palisade fee: one resource card to a player whose palisade guards the territory (line 203)."""
    seat = movers[0]
    option = _member(state, seat, choices[seat], building.fee_options(state, data, seat),
                     "the fee is one resource card from the hand (line 203)")
    card = building.remove_cards(state, data, seat, tuple(int(r == option.resource) for r in range(5)))
    state.hands[state.fee_queue.pop(0)].extend(card)
    if not state.fee_queue:
        _after_build(state)


def _apply_contributions(state: GraenalandState, board: Board, data: GraenalandData,
                         movers: tuple[int, ...], choices: dict) -> None:
    """The other players' simultaneous offers towards a joint public building (lines 205-212)."""
    cost = data.costs[PUBLIC[state.joint[0]]]  # type: ignore[index]
    offers = []
    for s in state.contributors:
        allowed = building.contribution_options(state, data, s, cost)
        offer = _member(state, s, choices[s], allowed, "not a possible contribution")
        offers.append((s, tuple(offer.resources)))
    _resolve_contributions(state, data, offers)


def _apply_joint(state: GraenalandState, board: Board, data: GraenalandData, movers: tuple[int, ...],
                 choices: dict) -> None:
    """The builder builds the joint public building with the contributions, or declines (line 211)."""
    seat = movers[0]
    option = _member(state, seat, choices[seat], options(state, board, data, seat),
                     "the joint building cannot be paid")
    if not option.yes:
        state.taken, state.pending = {}, None
        state.phase = BUILD
    elif not any(state.pending[3]):  # type: ignore[index]
        _finish_joint(state, board, data, seat)
    else:
        state.phase = PAY


def _apply_relocate(state: GraenalandState, board: Board, data: GraenalandData, movers: tuple[int, ...],
                    choices: dict) -> None:
    """Move the priest or skald to the new church or hall, or not (lines 157-158)."""
    seat = movers[0]
    option = _member(state, seat, choices[seat], list(DECISIONS), "a yes/no decision")
    if option.yes:
        hero, t = state.relocate  # type: ignore[misc]
        state.heroes[seat][hero] = t
    state.relocate = None
    _done_build(state)


def _apply_over(state: GraenalandState, board: Board, data: GraenalandData, movers: tuple[int, ...],
                choices: dict) -> None:
    seat = movers[0]
    raise illegal(state, seat, choices.get(seat), "the game is over")


def _apply_draft(state: GraenalandState, board: Board, data: GraenalandData, movers: tuple[int, ...],
                 choices: dict) -> None:
    """A village placed in the custom start draft (lines 267-277)."""
    seat = movers[0]
    option = _member(state, seat, choices[seat], advanced.draft_options(state, board, seat),
                     "not a coastal territory open to this village (lines 270-276)")
    advanced.settle(state, board, seat, option.territory)
    _continue_draft(state, board, data)


def _apply_anchor(state: GraenalandState, board: Board, data: GraenalandData, movers: tuple[int, ...],
                  choices: dict) -> None:
    """An earlier settler of a crowded territory stays or weighs anchor (line 272)."""
    seat = movers[0]
    t = state.anchor[0]  # type: ignore[index]
    option = _member(state, seat, choices[seat], advanced.anchor_options(state, board, seat, t),
                     "stay, or move to a less crowded coastal territory with a card left (line 272)")
    if option == advanced.STAY_ANCHORED:
        state.anchor[1].pop(0)  # type: ignore[index]
        if not state.anchor[1]:  # type: ignore[index]
            state.anchor = None
    else:
        advanced.weigh_anchor(state, seat, option.territory)
    _continue_draft(state, board, data)


def _apply_card(state: GraenalandState, board: Board, data: GraenalandData, movers: tuple[int, ...],
                choices: dict) -> None:
    """Every player keeps one of the three victory point cards dealt (line 283), then the first round."""
    kept = {}
    for seat in movers:
        option = _member(state, seat, choices[seat], advanced.card_options(state, seat),
                         "keep one of the three dealt cards (line 283)")
        kept[seat] = state.vp_offer[seat][option.index]
    for seat, card in kept.items():
        state.vp_card[seat] = card
    state.vp_offer = [[] for _ in range(state.n_players)]  # the others are set aside (line 283)
    begin_round(state, board, data)


def _apply_announce(state: GraenalandState, board: Board, data: GraenalandData, movers: tuple[int, ...],
                    choices: dict) -> None:
    """Announcements before the building phase (lines 311-316)."""
    yes = [seat for seat in movers
           if _member(state, seat, choices[seat], list(DECISIONS), "announce yes or no").yes]
    if not yes:
        _start_building(state, state.main, final=False)
        return
    best = max(state.claims[p] for p in yes)  # the most points first, then the closest (line 313)
    announcer = next(p for p in movers if p in yes and state.claims[p] == best)
    state.announcer = announcer
    n = state.n_players
    state.final_queue = [(announcer + i) % n for i in range(1, n)]
    _start_building(state, announcer, final=True)  # lines 315-316


#: per phase, the step that applies its choices (``apply``); any other phase: the game is over
_APPLY = {
    HEROES: _apply_heroes, PROPOSE: _apply_proposal, VOTE: _apply_votes, BUILD: _apply_build, PAY: _apply_pay,
    FEE: _apply_fee, CONTRIBUTE: _apply_contributions, JOINT: _apply_joint, RELOCATE: _apply_relocate,
    DRAFT: _apply_draft, ANCHOR: _apply_anchor, CHOOSE_CARD: _apply_card, ANNOUNCE: _apply_announce,
}


def _continue_draft(state: GraenalandState, board: Board, data: GraenalandData) -> None:
    if state.anchor is not None:
        state.phase = ANCHOR
    elif state.draft_queue:
        state.phase = DRAFT
    else:
        advanced.finish_draft(state, data)
        _after_setup(state, board, data)


def _next_proposer(state: GraenalandState, board: Board, data: GraenalandData) -> None:
    """The next non-main player in clockwise order that can propose (line 90); a player with no
    territory to divide is skipped (its only option would be no proposal). Then the building phase."""
    while state.proposers:
        if distribution.can_propose(state, state.proposers[0]):
            state.phase = PROPOSE
            return
        state.proposers.pop(0)
    if state.rules.get("victory_cards"):  # announcements before the building phase (lines 311-313)
        state.claims = [advanced.claim(state, board, data, p) for p in range(state.n_players)]
        if _eligible(state):
            state.phase = ANNOUNCE
            return
    _start_building(state, state.main, final=False)


def _start_building(state: GraenalandState, seat: int, final: bool) -> None:
    state.builder, state.final = seat, final
    state.supply_taken = state.joint_used = state.offer_active = False
    state.markets_used = []
    state.pending = state.joint = state.relocate = None
    state.phase = BUILD


def _do_action(state: GraenalandState, board: Board, data: GraenalandData, seat: int, action: Action) -> None:
    kind = action.kind
    if kind == "supply":  # line 132
        state.supplies[seat].append(state.supply_row.pop(action.index))
        state.supply_taken = True
        state.stats["supply_taken"][seat] += 1
    elif kind == "joint":  # lines 205-212
        state.joint_used = True
        state.joint = (action.index, action.territory)
        state.stats["joint_offered"][seat] += 1
        cost = data.costs[PUBLIC[action.index]]
        n = state.n_players
        order = [(seat + i) % n for i in range(1, n)]
        state.contributors = tuple(
            p for p in order if building.can_contribute(state, data, p, cost))
        state.pending = ("joint", action.territory, action.index, cost)
        if state.contributors:
            state.phase = CONTRIBUTE
        else:
            _resolve_contributions(state, data, [])
    elif kind == "offer":  # lines 298-304: instead of the joint proposal
        state.joint_used = True
        state.offer_active = True
        state.builder = action.index
    elif kind == "end":
        if state.offer_active:  # the designated player builds nothing (line 304)
            state.offer_active = False
            state.builder = state.main
        elif state.final:
            _next_final(state)
        else:
            _end_building(state, board, data)
    else:
        state.pending = (kind, action.territory, -1, None)
        state.phase = PAY


def _do_pay(state: GraenalandState, board: Board, data: GraenalandData, seat: int, option: Pay) -> None:
    kind, t, k, _need = state.pending  # type: ignore[misc]
    building.pay(state, data, seat, option)
    if kind == "joint":
        _finish_joint(state, board, data, seat)
        return
    fee = building.fee_recipients(state, t, seat) if kind == "village" else []
    state.relocate = building.place(state, board, data, seat, kind, t)
    if fee:
        state.fee_queue = fee
        state.phase = FEE
        return
    _after_build(state)


def _finish_joint(state: GraenalandState, board: Board, data: GraenalandData, seat: int) -> None:
    _kind, t, k, _need = state.pending  # type: ignore[misc]
    for contributor, cards in state.taken.items():
        building.discard(state, data, building.remove_cards(state, data, contributor, cards))
        state.stats["contributed"][contributor] += sum(cards)
    state.taken = {}
    building.place(state, board, data, seat, PUBLIC[k], t)
    state.relocate = None
    _done_build(state)


def _resolve_contributions(state: GraenalandState, data: GraenalandData, offers: list) -> None:
    _kind, t, k, cost = state.pending  # type: ignore[misc]
    taken, need = building.take_from_contributions(tuple(cost), offers)
    state.taken = taken
    state.pending = ("joint", t, k, need)
    state.contributors = ()
    state.phase = JOINT


def _after_build(state: GraenalandState) -> None:
    if state.relocate is not None:  # lines 157-158: may move the priest/skald to the new church/hall
        state.phase = RELOCATE
        return
    _done_build(state)


def _done_build(state: GraenalandState) -> None:
    state.pending = None
    state.phase = BUILD
    if state.offer_active:  # the designated player builds one thing (line 303)
        state.offer_active = False
        state.builder = state.main


def _end_building(state: GraenalandState, board: Board, data: GraenalandData) -> None:
    """After the main player's building phase: announce victory with three goals (line 221, a ruling:
    always announced when possible), or end the round (lines 216-217)."""
    main = state.main
    if not state.rules.get("victory_cards") and can_announce(state, data, main):
        state.announcer = main
        n = state.n_players
        state.final_queue = [(main + i) % n for i in range(1, n)]  # line 235
        _next_final(state)
        return
    state.main = (main + 1) % state.n_players
    _turn_supply(state, data)
    state.round += 1
    begin_round(state, board, data)


def _next_final(state: GraenalandState) -> None:
    if state.final_queue:
        _start_building(state, state.final_queue.pop(0), final=True)
    else:
        state.phase = OVER


def _turn_supply(state: GraenalandState, data: GraenalandData) -> None:
    """Turn over one supply card (line 217); an exhausted supply deck is its shuffled discards (ruling)."""
    if len(state.supply_row) >= data.supply_row:
        return
    if not state.supply_deck and state.supply_discard:
        pile = sorted(state.supply_discard)
        state.rng.shuffle(pile)
        state.supply_deck, state.supply_discard = pile, []
    if state.supply_deck:
        state.supply_row.append(state.supply_deck.pop())
