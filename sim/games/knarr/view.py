"""What one Knarr seat may see: everything on the table, its own hand; no deck order, no other hand.

Crews, destinations, tokens, buildings and the board are face up (knarr.md A.5: Vikings are played
face-up into the crew zone); hands are secret; the discard pile is public (ruling R9).
``crews`` lists each colour column's Viking card ids in the order placed (``data.viking_asset`` names
each one's asset): an Explore's or a discard's option names the Vikings it gives up from them (ruling R4).
"""

from __future__ import annotations

from typing import NamedTuple

from sim.games.knarr.data import KnarrData
from sim.games.knarr.state import KnarrState


class KnarrView(NamedTuple):
    seat: int
    n_players: int
    phase: int
    round: int
    current: int
    acted: bool
    traded: bool
    developed: bool
    end_triggered: bool
    bonus: tuple[str, ...]
    hand: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    deck_size: int
    discard: tuple[int, ...]
    board: tuple[int, ...]
    visible: tuple[int, ...]
    dest_left: tuple[int, int]  # cards left in the Trading Land and Land of Influence decks
    crews: tuple[tuple[tuple[int, ...], ...], ...]
    owned: tuple[tuple[int, ...], ...]
    covered: tuple[tuple[int, ...], ...]
    reserved: tuple[tuple[int, ...], ...]
    vp: tuple[int, ...]
    rep: tuple[int, ...]
    recruits: tuple[int, ...]
    bracelets: tuple[int, ...]
    coins: tuple[int, ...]
    raids: tuple[int, ...]
    raid_board: int
    raid_reserve: int
    display: tuple[int, ...]
    building_deck_size: int
    buildings: tuple[tuple[int, ...], ...]
    renewal: tuple[bool, ...]
    artifacts: tuple[int, ...]
    rules: dict
    data: KnarrData


def view_of(state: KnarrState, data: KnarrData, seat: int) -> KnarrView:
    return KnarrView(
        seat=seat,
        n_players=state.n_players,
        phase=state.phase,
        round=state.round,
        current=state.current,
        acted=state.acted,
        traded=state.traded,
        developed=state.developed,
        end_triggered=state.end_triggered,
        bonus=tuple(state.bonus),
        hand=tuple(state.hands[seat]),
        hand_sizes=tuple(len(h) for h in state.hands),
        deck_size=len(state.deck),
        discard=tuple(state.discard),
        board=tuple(state.board),
        visible=tuple(state.visible),
        dest_left=(len(state.deck_a), len(state.deck_b)),
        crews=tuple(tuple(tuple(col) for col in crew) for crew in state.crews),
        owned=tuple(tuple(o) for o in state.owned),
        covered=tuple(tuple(o) for o in state.covered),
        reserved=tuple(tuple(o) for o in state.reserved),
        vp=tuple(state.vp),
        rep=tuple(state.rep),
        recruits=tuple(state.recruits),
        bracelets=tuple(state.bracelets),
        coins=tuple(state.coins),
        raids=tuple(state.raids),
        raid_board=state.raid_board,
        raid_reserve=state.raid_reserve,
        display=tuple(state.display),
        building_deck_size=len(state.building_deck),
        buildings=tuple(tuple(b) for b in state.buildings),
        renewal=tuple(state.renewal),
        artifacts=state.artifacts,
        rules=dict(state.rules),
        data=data,
    )
