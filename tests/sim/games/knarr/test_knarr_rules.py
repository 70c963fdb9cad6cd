"""Knarr rules, each test quoting the rule it checks (knarr.md A.x; knarr-skali-expansion.txt:LINE)."""

from __future__ import annotations

from itertools import product

import pytest

from sim.errors import IllegalChoice, SkaldError
from sim.games.knarr import rules
from sim.games.knarr.data import BRACELET, CARD, COIN, N_ASSETS, RAID, RECRUIT, REP, VP, load
from sim.games.knarr.game import GAME
from sim.games.knarr.state import DISCARD, END, OVER, TURN, Option

DATA = GAME.load_data(None)


def new(n=3, seed=1, **rules_):
    return GAME.new_state(n, rules_, DATA, seed)


def g(**kw):
    out = [0] * N_ASSETS
    for k, v in kw.items():
        out[
            {
                "vp": VP,
                "bracelet": BRACELET,
                "recruit": RECRUIT,
                "rep": REP,
                "card": CARD,
                "coin": COIN,
                "raid": RAID,
            }[k]
        ] = v
    return tuple(out)


def cards_of(colour, asset, n=4):
    return [c for c in DATA.deck_for(n) if DATA.viking_colour[c] == colour and DATA.viking_asset[c] == asset]


def dest(id_):
    return next(i for i, d in enumerate(DATA.destinations) if d.id == id_)


def all_vikings(state):
    cards = state.deck + state.discard + [b for b in state.board if b >= 0]
    cards += [c for h in state.hands for c in h] + [c for crew in state.crews for col in crew for c in col]
    return sorted(cards)


# ------------------------------------------------------------------ data and set-up


def test_viking_counts_by_player_count():
    """A.2 'Deck size: 30 cards with 2 players, 40 with 3, 50 with 4.' and the colour table."""
    assert [len(DATA.deck_for(n)) for n in (2, 3, 4)] == [30, 40, 50]
    blue_rep = [len(cards_of(3, REP, n)) for n in (2, 3, 4)]
    assert blue_rep == [2, 2, 3]  # 'Blue ... Reputation 2/2/3'
    assert len(cards_of(1, RECRUIT, 2)) == 0  # 'Yellow ... Recruit 0/1/1'
    # 'In the base game, no Viking card gives the "card" asset.'
    assert not any(DATA.viking_asset[c] == CARD for c in DATA.deck_for(4))


def test_destination_and_building_data():
    """A.3: 20 Trading Lands and 15 Lands of Influence; A.8: 13 new destinations and 35 Buildings."""
    base = [d for d in DATA.destinations if not d.expansion]
    assert sum(d.deck == "A" for d in base) == 20 and sum(d.deck == "B" for d in base) == 15
    new_ = [d for d in DATA.destinations if d.expansion]
    assert sum(d.deck == "A" for d in new_) == 8 and sum(d.deck == "B" for d in new_) == 5  # lines 9-10
    assert len(DATA.buildings) == 35
    d27 = DATA.destinations[dest(27)]  # '27 | P3 R2 | 8 VP, card | – / – / VP'
    assert d27.cost == (2, 0, 0, 0, 3) and d27.gain == g(vp=8, card=1) and d27.row[2] == g(vp=1)
    b7 = DATA.buildings[6]  # '7 | 1 | – | −1 VP | – | +2 VP | – | −1 VP'
    assert b7.cost == 1 and b7.rows[1] == g(vp=-1) and b7.rows[3] == g(vp=2) and b7.fewest_raid == g(vp=-1)


def test_bad_data_file_is_one_line_error(tmp_path):
    bad = tmp_path / "k.toml"
    bad.write_text("[setup]\nhand_size = { value = 3 }\n")
    with pytest.raises(SkaldError, match="needs source"):
        load(bad)
    with pytest.raises(SkaldError, match="cannot read"):
        load(tmp_path / "none.toml")


@pytest.mark.parametrize("n", [2, 3, 4])
def test_setup(n):
    """A.4: 6 visible destinations, 5 slots, a crew of 2 different colours, a hand of 3, 1 recruit and
    1 bracelet."""
    s = new(n)
    assert all(v >= 0 for v in s.visible) and all(b >= 0 for b in s.board)
    for seat in range(n):
        assert sorted(len(c) for c in s.crews[seat]) == [0, 0, 0, 1, 1]
        assert len(s.hands[seat]) == 3 and s.recruits[seat] == 1 and s.bracelets[seat] == 1
    assert all_vikings(s) == DATA.deck_for(n)
    assert all(DATA.destinations[d].deck == "A" for d in s.visible[:3])
    assert all(DATA.destinations[d].deck == "B" for d in s.visible[3:])


def test_reputation_income():
    """A.5 step 1: 'reputation >=3 -> 1 VP; >=6 -> 2 VP; >=10 -> 3 VP; >=14 -> 5 VP', every turn."""
    for rep, vp in [(2, 0), (3, 1), (6, 2), (9, 2), (10, 3), (14, 5)]:
        s = new()
        s.rep[0] = rep
        rules.start_turn(s, DATA)
        assert s.vp[0] == vp


# ------------------------------------------------------------------ recruit


def _hand(s, seat, cards):
    """Put ``cards`` in the seat's hand (swapping them out of wherever they are)."""
    for c in cards:
        for pile in [s.deck, s.discard, *s.hands, *[col for crew in s.crews for col in crew]]:
            if c in pile:
                pile.remove(c)
        if c in s.board:
            s.board[s.board.index(c)] = s.deck.pop()
    s.deck.extend(s.hands[seat])
    s.hands[seat] = list(cards)


def test_recruit_gains_every_asset_of_the_column_and_takes_the_slot_of_its_colour():
    """A.5 Recruit: 'Gain the asset of every card in that column, including the new one' and 'Take ...
    the Viking in the board slot of the played card's colour'."""
    s = new(4)
    red_vp, red_br = cards_of(0, VP), cards_of(0, BRACELET)
    _hand(s, 0, [red_vp[0], red_br[0]])
    s.crews[0][0] = []
    s.crews[0][0].append(red_vp[1])
    s.deck.remove(red_vp[1]) if red_vp[1] in s.deck else None
    total = len(all_vikings(s))
    slot0 = s.board[0]
    opts = GAME.legal_options(s, 0)
    assert Option("recruit", red_br[0], 0) in opts
    before_vp, before_br = s.vp[0], s.bracelets[0]
    GAME.apply(s, {0: Option("recruit", red_br[0], 0)})
    assert s.vp[0] == before_vp + 1 and s.bracelets[0] == min(3, before_br + 1)
    assert slot0 in s.hands[0] and s.board[0] >= 0 and s.board[0] != slot0
    assert len(all_vikings(s)) == total


def test_recruit_any_slot_costs_a_recruit():
    """A.5 Recruit step 3: 'Alternatively, spend 1 recruit to take any of the 5 visible Vikings.'"""
    s = new(4)
    card = cards_of(2, VP)[0]
    _hand(s, 0, [card])
    s.recruits[0] = 1
    GAME.apply(s, {0: Option("recruit", card, 4)})
    assert s.recruits[0] == 0
    s = new(4)
    _hand(s, 0, [card])
    s.recruits[0] = 0
    s.crews[0][2] = []
    opts = GAME.legal_options(s, 0)
    assert Option("recruit", card, 2) in opts and Option("recruit", card, 4) not in opts
    with pytest.raises(IllegalChoice):
        GAME.apply(s, {0: Option("recruit", card, 4)})


def test_caps_of_three():
    """A.5 'Recruits and bracelets are capped at 3 each; any excess is lost.' Reputation caps at 14."""
    s = new()
    rules.gain(s, DATA, 0, g(recruit=5, bracelet=4, rep=20))
    assert (s.recruits[0], s.bracelets[0], s.rep[0]) == (3, 3, 14)


def test_card_asset_goes_to_the_crew_without_gains():
    """A.3 'card means: draw the top Viking card of the deck and place it straight into your crew zone,
    with no gains triggered.'"""
    s = new()
    top = s.deck[-1]
    vp, br = s.vp[0], s.bracelets[0]
    rules.gain(s, DATA, 0, g(card=1))
    assert top in s.crews[0][DATA.viking_colour[top]] and (s.vp[0], s.bracelets[0]) == (vp, br)


# ------------------------------------------------------------------ explore


def test_recruits_cover_missing_cards_one_for_one():
    """A.5 Explore: 'Each recruit you spend replaces any one required card.'"""
    d = dest(28)  # B2 R2
    pays = rules.payments(DATA, [1, 0, 0, 2, 0], 1, d)
    assert pays == [(1, 0, 0, 2, 0, 1)]
    assert rules.payments(DATA, [1, 0, 0, 1, 0], 1, d) == []
    diff = rules.payments(DATA, [1, 1, 0, 0, 0], 1, dest(1))  # diff3
    assert (1, 1, 0, 0, 0, 1) in diff and all(sum(p[:5]) + p[5] == 3 for p in diff)
    same = rules.payments(DATA, [0, 3, 0, 0, 0], 2, dest(21))  # same4
    assert same == [(0, 2, 0, 0, 0, 2), (0, 3, 0, 0, 0, 1)]


def test_explore_pays_gains_and_refills():
    """A.5 Explore: pay by discarding from the crew, gain the immediate assets, refill from the same deck."""
    s = new(4)
    s.crews[0] = [[], [], [], [], []]
    s.recruits[0] = 3
    s.visible[3] = dest(24)  # R1 Y1 G1 B1 P1: 4 VP, bracelet, recruit, rep, card
    s.deck_b.append(dest(22))
    opt = Option("explore", 3, dest(24), (0, 0, 0, 0, 0, 3))
    assert opt not in GAME.legal_options(s, 0)  # 5 cards needed, 3 recruits at most
    for c in range(5):
        s.crews[0][c].append(cards_of(c, VP)[0])
    paid = tuple(col[0] for col in s.crews[0])
    opt = Option("explore", 3, dest(24), (1, 1, 1, 1, 1, 0), paid)
    GAME.apply(s, {0: opt})
    assert s.vp[0] == 4 and s.rep[0] == 1 and s.visible[3] == dest(22) and dest(24) in s.owned[0]
    assert sum(len(c) for c in s.crews[0]) == 1 and len(s.discard) == 5  # the card asset drew one


def test_trade_columns():
    """A.5 step 3: 'k bracelets give you the assets in columns 1..k of every trade row'; 'Spending 1
    bracelet gives column 1 only.'"""
    s = new()
    s.owned[0] = [dest(15), dest(4)]  # Y2: VP/VP/VP; diff3: VP/rep/recruit; ship: -/recruit/-
    s.bracelets[0], s.recruits[0] = 3, 0
    rules.trade(s, DATA, 0, 1)
    assert (s.vp[0], s.rep[0], s.recruits[0], s.bracelets[0]) == (2, 0, 0, 2)
    s.traded = False
    s.bracelets[0] = 3
    rules.trade(s, DATA, 0, 3)
    assert (s.vp[0], s.rep[0], s.recruits[0], s.bracelets[0]) == (2 + 4, 1, 2, 0)


def test_trade_once_per_turn_before_or_after_the_action():
    """A.5 step 3 'optional, once per turn, either before or after the action'."""
    s = new()
    s.bracelets[0] = 2
    assert Option("trade", 2) in GAME.legal_options(s, 0)
    GAME.apply(s, {0: Option("trade", 1)})
    assert not any(o.kind == "trade" for o in GAME.legal_options(s, 0))


# ------------------------------------------------------------------ deck exhaustion and the end


def test_empty_deck_reshuffles_the_discard_pile():
    """A.5 'Empty Viking deck: shuffle the discard pile to form a new deck.'"""
    s = new()
    s.discard, s.deck = s.deck, []
    n = len(s.discard)
    card = rules.draw(s)
    assert card >= 0 and len(s.deck) == n - 1 and not s.discard


def test_empty_deck_and_discard_the_most_vikings_discard_one():
    """A.5 'If the discard pile is also empty, the player(s) with the most Vikings in front of them each
    discard one of their choice.'"""
    s = new(3)
    s.discard = []
    spare, s.deck = s.deck, []
    s.crews[1][0].extend(spare)  # seat 1 has the most Vikings
    card = s.hands[0][0]
    colour = DATA.viking_colour[card]
    GAME.apply(s, {0: Option("recruit", card, colour)})
    assert s.phase == DISCARD and GAME.to_move(s) == (1,)
    opts = GAME.legal_options(s, 1)
    assert all(o.kind == "discard" for o in opts)
    # ruling R4: one option per distinct Viking (colour and asset), the card of the player's choice
    assert len({(o.a, DATA.viking_asset[o.b]) for o in opts}) == len(opts)
    pick = opts[0]
    GAME.apply(s, {1: pick})
    assert pick.b not in s.crews[1][pick.a] and pick.b in s.board  # discarded, then drawn to refill
    assert s.phase != DISCARD and all(b >= 0 for b in s.board)
    assert sorted(all_vikings(s)) == DATA.deck_for(3)


def _crew(s, seat, columns):
    """Give ``seat`` a crew: colour -> assets in the order placed; the cards come from wherever they are."""
    s.crews[seat] = [[], [], [], [], []]
    for colour, assets in columns.items():
        used: list[int] = []
        for asset in assets:
            card = next(c for c in cards_of(colour, asset, s.n_players) if c not in used)
            used.append(card)
            for pile in [s.deck, s.discard, *s.hands, *[col for crew in s.crews for col in crew]]:
                if card in pile:
                    pile.remove(card)
            if card in s.board:
                s.board[s.board.index(card)] = s.deck.pop()
            s.crews[seat][colour].append(card)


def test_explore_the_player_chooses_which_vikings_pay():
    """A.5 Explore: 'pay its cost by discarding Vikings from your crew zone' (BGA PayDestination: 'must
    choose the cards to pay'); ruling R4: one option per column left behind, not the last card placed."""
    s = new(4)
    _crew(s, 0, {0: [VP, BRACELET, VP], 3: [REP, REP]})  # red: VP, bracelet, VP; blue: rep, rep
    s.recruits[0] = 0
    s.visible[3] = dest(28)  # B2 R2
    total = len(all_vikings(s))
    opts = [o for o in GAME.legal_options(s, 0) if o.kind == "explore" and o.a == 3]
    red, blue = list(s.crews[0][0]), list(s.crews[0][3])
    # red keeps one of {VP, bracelet} or {VP, VP}; blue's two reputation cards are interchangeable
    kept = sorted(sorted(DATA.viking_asset[c] for c in red if c not in o.cards) for o in opts)
    assert kept == [[VP], [BRACELET]] and all(set(blue) <= set(o.cards) for o in opts)
    keep_bracelet = next(o for o in opts if red[1] not in o.cards)
    assert keep_bracelet.cards[:2] == (red[0], red[2])  # both VP Vikings go
    GAME.apply(s, {0: keep_bracelet})
    assert [DATA.viking_asset[c] for c in s.crews[0][0]] == [BRACELET] and not s.crews[0][3]
    assert len(all_vikings(s)) == total and {red[0], red[2]} <= set(s.discard)


def test_column_choices_offer_only_distinct_outcomes():
    """Ruling R4: cards of one column with the same asset are interchangeable ('Gain the asset of every card
    in that column', A.5 Recruit step 2), so the choices are the multisets of assets discarded; the
    representative Vikings are the last placed of each asset."""
    s = new(4)
    _crew(s, 0, {1: [VP, REP, VP, BRACELET]})
    col = s.crews[0][1]
    two = rules.column_choices(DATA, col, 2)
    assets = [sorted(DATA.viking_asset[c] for c in ch) for ch in two]
    assert sorted(assets) == sorted([[VP, VP], [VP, BRACELET], [VP, REP], [BRACELET, REP]])
    assert (col[2],) in rules.column_choices(DATA, col, 1) and (col[0],) not in rules.column_choices(
        DATA, col, 1
    )
    assert rules.column_choices(DATA, col, 0) == [()] and rules.column_choices(DATA, col, 5) == []


def test_forty_vp_finishes_the_round_then_tiebreak():
    """A.6 'The end is triggered when a player reaches or passes 40 VP. The current round is finished';
    'Tie-break: the most recruits + silver bracelets remaining'."""
    s = new(3)
    s.current = 1
    s.vp = [39, 38, 0]
    rules.gain(s, DATA, 0, g(vp=1))
    rules.gain(s, DATA, 1, g(vp=2))
    s.acted = True
    GAME.apply(s, {1: END})
    assert s.end_triggered and s.phase == TURN and s.current == 2
    s.acted = True
    s.recruits, s.bracelets = [1, 3, 0], [1, 0, 0]
    GAME.apply(s, {2: END})
    assert s.phase == OVER and GAME.is_terminal(s)
    res = GAME.result(s)
    assert res.winners == [1] and res.ranks == [2, 1, 3]


def test_forty_vp_triggers_the_end_at_once_even_if_a_raid_takes_the_score_below():
    """A.6 'The end is triggered when a player reaches or passes 40 VP': the moment a score gets there
    (here reputation income, A.5 step 1), even when the same turn's raid loss (line 48 'apply all
    penalties shown in black') takes it below 40 again; the round is then finished."""
    s = new(3, skali=True)
    s.current, s.acted = 2, True
    s.rep[0], s.vp = 14, [36, 10, 10]  # '>=14 -> 5 VP' at the start of seat 0's turn
    s.buildings[0] = [5]  # Building 6: fewest -1 VP
    GAME.apply(s, {2: END})
    assert s.current == 0 and s.vp[0] == 41 and s.end_triggered
    s.raids, s.raid_board, s.raid_reserve = [0, 4, 3], 0, 1
    s.acted = True
    GAME.apply(s, {0: END})  # the raid: seat 0 has the fewest, -1 (skáli) -1 (Building 6)
    assert s.vp[0] == 39 and s.stats["raids_lost"][0] == 1
    for seat in (1, 2):
        s.acted = True
        GAME.apply(s, {seat: END})
    assert s.phase == OVER and s.round == 2


def test_forty_vp_reached_inside_one_gain_triggers_the_end():
    """A.6 'reaches or passes 40 VP': a +1 VP then a -1 VP Building row (knarr.md A.8) in one activation
    leaves 39, and the end is triggered."""
    s = new(3, skali=True)
    s.vp[1] = 39
    rules.gain(s, DATA, 1, g(vp=1))
    rules.gain(s, DATA, 1, DATA.buildings[6].rows[1])  # Building 7: '-1 VP'
    assert s.vp[1] == 39 and s.end_triggered


def test_seed_305_game_ends_with_the_round_in_which_a_score_reached_40():
    """A.6 'The end is triggered when a player reaches or passes 40 VP. The current round is finished.'
    Game seed 305, 3 players, expansion, greedy/random/random: seat 0 reaches 40 in round 13 with a
    trade and the raid at the end of its turn takes it to 38; round 14 must not be played."""
    from sim.play import play_game
    from sim.specs import parse_spec
    from sim.tables import TurnLog

    log = TurnLog()
    specs = [parse_spec(x, "knarr") for x in ("greedy", "random", "random")]
    outcome = play_game(GAME, 3, {"skali": True}, DATA, 305, specs, GAME.default_max_decisions, log)
    rounds = [f[0] for f in log.fields]
    first = next(i for i, sc in enumerate(log.scores) if max(sc) >= 40)
    assert log.seat[first] == 0 and rounds[first] == 13
    assert max(rounds) == 13 and outcome.result.scores[0] < 40


# ------------------------------------------------------------------ expansion


@pytest.mark.parametrize("n", [2, 3, 4])
def test_expansion_setup(n):
    """Lines 12-16: 1 coin in the skáli, 1 raid token each, players + 1 on the board, 1 beside it;
    2 players: a Renewal token on the ready side. Lines 9-10: the new destinations join the decks."""
    s = new(n, skali=True)
    assert s.coins == [1] * n and s.raids == [1] * n and s.raid_board == n + 1 and s.raid_reserve == 1
    assert len(s.display) == 4 and s.renewal == [n == 2] * n
    ids = {DATA.destinations[d].id for d in s.deck_a + s.deck_b + s.visible}
    assert len(ids) == 48
    assert len({DATA.destinations[d].id for d in new(n).deck_a + new(n).deck_b + new(n).visible}) == 35


def test_develop_once_per_turn_with_coins():
    """Line 20 'they may Develop their village once per turn'; line 28 'pays the cost ... using Coin tokens
    ... A new Building card is revealed to replace it.'"""
    s = new(3, skali=True)
    s.coins[0] = 3
    s.display[0] = 8  # Building 9 costs 3
    nxt = s.building_deck[-1]
    GAME.apply(s, {0: Option("develop", 0)})
    assert s.coins[0] == 0 and s.buildings[0] == [8] and s.display[0] == nxt
    assert not any(o.kind == "develop" for o in GAME.legal_options(s, 0))
    s2 = new(3, skali=True)
    s2.coins[0] = 1
    s2.display = [8, 2, 12, 13]  # costs 3, 3, 3, 3
    assert not any(o.kind == "develop" for o in GAME.legal_options(s2, 0))


def test_coins_capped_at_three():
    """Line 12: 3 Coin tokens each."""
    s = new(3, skali=True)
    rules.gain(s, DATA, 0, g(coin=5))
    assert s.coins[0] == 3


def test_activation_rows():
    """Lines 36-39: Land of Influence -> raid + bracelet; Trading Land -> raid; same colour -> nothing;
    new colour -> coin + raid. Plus every Building's row for that action (line 34)."""
    from sim.games.knarr.data import ROW_EXPLORE_A, ROW_EXPLORE_B, ROW_RECRUIT_NEW, ROW_RECRUIT_OLD

    cases = [
        (ROW_EXPLORE_B, (1, 0, 1)),
        (ROW_EXPLORE_A, (1, 0, 0)),
        (ROW_RECRUIT_OLD, (0, 0, 0)),
        (ROW_RECRUIT_NEW, (1, 1, 0)),
    ]
    for row, (raid, coin, bracelet) in cases:
        s = new(3, skali=True)
        s.bracelets[0] = s.coins[0] = 0
        rules.village_gain(s, DATA, 0, row)
        assert (s.raids[0] - 1, s.coins[0], s.bracelets[0]) == (raid, coin, bracelet)
    s = new(3, skali=True)
    s.buildings[0] = [8]  # Building 9: +1 VP on every row
    s.buildings[0].append(12)  # Building 13: +1 raid on explore B
    rules.village_gain(s, DATA, 0, ROW_EXPLORE_B)
    assert s.vp[0] == 1 and s.raids[0] == 1 + 2


def test_recruit_new_colour_activates_the_village():
    """Line 22 'After every action taken, a player must Activate their village'; line 39."""
    s = new(3, skali=True)
    card = s.hands[0][0]
    c = DATA.viking_colour[card]
    s.crews[0][c] = []
    GAME.apply(s, {0: Option("recruit", card, c if s.board[c] >= 0 else -1)})
    assert s.raids[0] == 2 and s.coins[0] == 2


def _raid_state(n, raids, **kw):
    s = new(n, skali=True, **kw)
    s.raids = list(raids)
    s.raid_board = 0
    s.raid_reserve = 2 * n + 2 - 0 - sum(raids)
    s.vp = [5] * n
    return s


def test_raid_three_players():
    """Lines 47-49: most gain the white assets and return all; fewest apply the black penalties and keep
    theirs; others return 1."""
    s = _raid_state(3, [4, 2, 1])
    s.buildings[1] = [5]  # Building 6: fewest -1 VP, not applied to a middle player
    rules.raid(s, DATA)
    assert s.vp == [7, 5, 4] and s.raids == [0, 1, 1] and s.raid_board == 5


def test_raid_four_players_ties_and_building_assets():
    """Line 47 'The player(s) with the most'; line 48 'The player(s) with the fewest'; Building raid rows."""
    s = _raid_state(4, [3, 3, 1, 1])
    s.buildings[0] = [3]  # Building 4: most +2 VP
    s.buildings[2] = [5]  # Building 6: fewest -1 VP
    rules.raid(s, DATA)
    assert s.vp == [9, 7, 3, 4] and s.raids == [0, 0, 1, 1] and s.raid_board == 6


def test_raid_vp_never_below_zero():
    """A.5 'VP never goes below 0. This only matters in the expansion.'"""
    s = _raid_state(3, [3, 2, 0])
    s.vp = [0, 0, 0]
    s.buildings[2] = [5]
    rules.raid(s, DATA)
    assert s.vp[2] == 0


def test_raid_two_players():
    """Line 51 '2-Player Raid Rules: The player with the fewest Raid tokens applies penalties and then must
    return 1 Raid token to the board. In a tie, both players apply bonuses and penalties and return their
    Raid tokens to the board.'"""
    s = _raid_state(2, [4, 2])
    rules.raid(s, DATA)
    assert s.vp == [7, 4] and s.raids == [0, 1] and s.raid_board == 5
    s = _raid_state(2, [3, 3])
    rules.raid(s, DATA)
    assert s.vp == [6, 6] and s.raids == [0, 0] and s.raid_board == 6


@pytest.mark.parametrize("n", [2, 3, 4])
def test_an_all_tied_raid_at_the_end_of_a_turn_needs_two_players(n):
    """Lines 13-15: '1 Raid token' each, '1 Raid token per player, plus 1 additional' on the board, '1
    additional Raid token beside the board'; line 45 'At the end of a turn, if no Raid tokens remain on the
    board, a raid is triggered'. The tokens are conserved (tests/sim/games/knarr/test_knarr_playout.py), so at
    such a raid the players hold all of them but the reserve: no split of those among 3 or 4 players is all
    tied, and the switch raid_all_tied (ruling R13) matters for them only at a final raid
    (skali_end=final_raid)."""
    setup = DATA.setup
    total = n * int(setup["raid_each"]) + n + int(setup["raid_board_extra"]) + int(setup["raid_reserve"])
    s = new(n, skali=True)
    assert sum(s.raids) + s.raid_board + s.raid_reserve == total == 2 * n + 2
    tied = [
        split
        for reserve in range(int(setup["raid_reserve"]) + 1)
        for split in product(range(total + 1), repeat=n)
        if sum(split) == total - reserve and len(set(split)) == 1
    ]
    assert tied == ([(3, 3)] if n == 2 else [])


@pytest.mark.parametrize("n", [3, 4])
def test_raid_all_tied_changes_no_game_ending_with_the_base_end(n):
    """Ruling R13: with 3-4 players and skali_end=base, raid_all_tied=most plays every game exactly as
    raid_all_tied=both (knarr-skali-expansion.txt:47-49: no all-tied raid at the end of a turn)."""
    from tests.sim.games.knarr.test_knarr_playout import playout

    for seed in range(2):
        both, _ = playout(n, {"skali": True, "raid_all_tied": "both"}, seed, check=False)
        most, _ = playout(n, {"skali": True, "raid_all_tied": "most"}, seed, check=False)
        assert both.raid_log and GAME.to_dict(both) | {"rules": None} == GAME.to_dict(most) | {"rules": None}


def test_raid_all_tied_at_a_final_raid():
    """Ruling R13 with R14's final_raid: three players with 2 tokens each (the board not empty at the end of
    the game) are all tied. both = 'In a tie, both players apply bonuses and penalties and return their Raid
    tokens to the board' (line 51) for everyone; most = everyone is a winner only (line 47)."""
    for rule, vp in (("both", [6, 6, 6]), ("most", [7, 7, 7])):
        s = new(3, skali=True, skali_end="final_raid", raid_all_tied=rule)
        s.raids, s.raid_board, s.raid_reserve, s.vp = [2, 2, 2], 1, 1, [5, 5, 5]
        rules.finish(s, DATA)
        assert s.vp == vp and s.raids == [0, 0, 0] and s.raid_board == 7


def test_raid_triggers_at_the_end_of_a_turn_when_the_board_is_empty():
    """Line 45 'At the end of a turn, if no Raid tokens remain on the board, a raid is triggered'."""
    s = new(3, skali=True)
    s.raid_board = 1
    rules.take_raid(s, 0)
    assert s.raid_board == 0 and s.raids[0] == 2
    s.acted = True
    GAME.apply(s, {0: END})
    assert s.raid_board > 0 and s.stats["raids_won"][0] == 1


def test_raid_token_from_the_reserve_when_the_board_is_empty():
    """Ruling R12 (line 15: one token beside the board)."""
    s = new(3, skali=True)
    s.raid_board = 0
    rules.take_raid(s, 1)
    assert s.raid_reserve == 0 and s.raids[1] == 2
    rules.take_raid(s, 1)
    assert s.raids[1] == 2


def test_two_player_renewal_and_special_building():
    """Line 30 'Renew 1 or 2 of the 4 face-up Building cards ... slide the chosen card(s) under the deck';
    line 41 'the Special Building card allows a player to flip their Renewal token back ... when they recruit
    a viking of the same color as one already held.'"""
    s = new(2, skali=True)
    old = s.display[1]
    GAME.apply(s, {0: Option("renew", pay=(1,))})
    assert s.building_deck[0] == old and s.display[1] != old and not s.renewal[0]
    assert not any(o.kind == "renew" for o in GAME.legal_options(s, 0))
    card = s.hands[0][0]
    c = DATA.viking_colour[card]
    if not s.crews[0][c]:
        s.crews[0][c].append(s.deck.pop())
    GAME.apply(s, {0: Option("recruit", card, c)})
    assert s.renewal[0]


def _short_building_deck(deck):
    s = new(2, skali=True)
    others = [b for b in range(len(DATA.buildings)) if b not in (0, 1, 3, 4, *deck)]
    s.display, s.building_deck, s.buildings[1] = [0, 1, 3, 4], list(deck), others
    return s


def test_renewal_with_a_short_building_deck():
    """Line 30 'Renew 1 or 2 of the 4 face-up Building cards ... slide the chosen card(s) under the deck, and
    reveal new cards to replace them' (ruling R19): new cards come from the deck as it stood before the
    renewed ones went under it, and no more cards are renewed than the deck holds, so a just-renewed card
    never comes straight back."""
    s = _short_building_deck([9])
    renewals = [o.pay for o in GAME.legal_options(s, 0) if o.kind == "renew"]
    assert renewals == [(0,), (1,), (2,), (3,)]  # a one-card deck: one card at a time
    GAME.apply(s, {0: Option("renew", pay=(1,))})
    assert s.display == [0, 9, 3, 4] and s.building_deck == [1]
    s = _short_building_deck([])
    assert not any(o.kind == "renew" for o in GAME.legal_options(s, 0))
    s = _short_building_deck([7, 9])  # 9 on top
    assert (0, 1) in [o.pay for o in GAME.legal_options(s, 0) if o.kind == "renew"]
    GAME.apply(s, {0: Option("renew", pay=(0, 1))})
    assert s.display == [9, 7, 3, 4] and sorted(s.building_deck) == [0, 1]


def test_expansion_end_switches():
    """Ruling R14: the text has no end scoring (line 55); final_raid and tiebreak_coins are switches."""
    s = _raid_state(3, [3, 1, 0], skali_end="final_raid")
    rules.finish(s, DATA)
    assert s.vp == [7, 5, 4]
    s = _raid_state(3, [3, 1, 0], skali_end="tiebreak_coins")
    s.coins = [0, 0, 3]
    assert rules.tiebreak(s)[2] == s.recruits[2] + s.bracelets[2] + 3


def test_artifact_silver_coins_and_amulet():
    """A.7 Silver Coins 'you recruit a Viking beyond the 3rd of one colour: +1 VP for each such Viking';
    Amulet 'you complete a line of 5 different colours: +1 bracelet, +1 recruit, +1 reputation'."""
    from sim.games.knarr.state import AMULET, SILVER_COINS

    s = new(4, artifacts=True)
    s.artifacts = (SILVER_COINS, AMULET)
    card = s.hands[0][0]
    c = DATA.viking_colour[card]
    s.crews[0] = [[], [], [], [], []]
    for col in range(5):
        if col != c:
            s.crews[0][col].append(s.deck.pop())
    for _ in range(3):
        s.crews[0][c].append(s.deck.pop())
    rep, vp = s.rep[0], s.vp[0]
    before = [DATA.viking_asset[x] for x in s.crews[0][c]] + [DATA.viking_asset[card]]
    GAME.apply(s, {0: Option("recruit", card, c)})
    assert s.vp[0] == vp + before.count(VP) + 1  # the 4th Viking: +1
    assert s.rep[0] == min(14, rep + before.count(REP)) + 0  # no new line: 4 of one colour, 1 of others


def test_artifact_cauldron_takes_any_viking_free_on_the_second_of_a_colour():
    """A.7 Cauldron: 'you recruit the 2nd Viking of one colour: take any visible Viking instead of the forced
    one'."""
    from sim.games.knarr.state import CAULDRON

    s = new(4, artifacts=True)
    s.artifacts = (CAULDRON,)
    card = s.hands[0][0]
    c = DATA.viking_colour[card]
    s.crews[0] = [[], [], [], [], []]
    s.crews[0][c].append(s.deck.pop())
    s.recruits[0] = 0
    other = (c + 1) % 5
    if DATA.viking_asset[card] == RECRUIT:
        return  # the card itself would pay; nothing to show
    assert Option("recruit", card, other) in GAME.legal_options(s, 0)
    GAME.apply(s, {0: Option("recruit", card, other)})
    assert s.recruits[0] == sum(DATA.viking_asset[x] == RECRUIT for x in s.crews[0][c])


def _helmet_explore(previous: int, **switches):
    """Seat 0 holds ``previous`` (a destination id), then explores Land of Influence 28 (B2 R2)."""
    from sim.games.knarr.state import HELMET

    s = new(3, artifacts=True, **switches)
    s.artifacts = (HELMET,)
    s.owned[0] = [dest(previous)]
    _crew(s, 0, {0: [VP, VP], 3: [REP, REP]})
    s.visible[3] = dest(28)
    opt = next(o for o in GAME.legal_options(s, 0) if o.kind == "explore" and o.a == 3)
    GAME.apply(s, {0: opt})
    return s


def test_helmet_land_of_influence_directly_onto_a_trading_land_gives_a_recruit():
    """A.7 'Helmet | you place a just-explored Land of Influence directly onto a Trading Land | an immediate
    extra Recruit action'; ruling R16 (BGA ArtifactManager handleEndExplore: the destination placed before
    it is a Trading Land; no trade row is covered)."""
    from sim.games.knarr.state import BONUS, SKIP

    s = _helmet_explore(15)  # Trading Land 15 (Y2), then Land of Influence 28
    assert s.phase == BONUS and s.bonus == ["recruit"] and not s.covered[0]
    opts = GAME.legal_options(s, 0)
    assert SKIP in opts and {o.kind for o in opts} == {"recruit", "skip"}
    assert DATA.destinations[dest(15)].row in rules.trade_rows(s, DATA, 0)  # still counts
    card = next(o for o in opts if o.kind == "recruit")
    GAME.apply(s, {0: card})
    assert s.stats["recruits_played"][0] == 1 and s.stats["explores"][0] == 1
    s = _helmet_explore(22)  # on top of a Land of Influence: no Helmet
    assert s.phase == TURN and not s.bonus


def test_helmet_cover_switch():
    """Ruling R16, ``--rule helmet=cover``: A.7 'place ... directly onto a Trading Land' read as covering
    any own Trading Land (its trade row stops counting), then the extra Recruit."""
    s = _helmet_explore(22, helmet="cover")
    s.owned[0].insert(0, dest(15))
    opts = GAME.legal_options(s, 0)
    cover = Option("cover", 0, dest(15))
    assert s.bonus == ["cover"] and cover in opts
    GAME.apply(s, {0: cover})
    assert s.covered[0] == [dest(15)] and s.bonus == ["recruit"]
    assert DATA.destinations[dest(15)].row not in rules.trade_rows(s, DATA, 0)


def _silver_fifth(**switches):
    """Seat 0 has 4 Vikings of colour 0 and recruits a 5th under the Silver Coins artifact; VP gained."""
    from sim.games.knarr.state import SILVER_COINS

    s = new(4, artifacts=True, **switches)
    s.artifacts = (SILVER_COINS,)
    _crew(s, 0, {0: [VP, VP, VP, VP], 1: [REP]})
    card = next(c for c in cards_of(0, REP) if c in s.deck)
    s.deck.remove(card)
    s.hands[0][0] = card
    vp = s.vp[0]
    GAME.apply(s, {0: Option("recruit", card, 0)})
    assert len(s.crews[0][0]) == 5
    return s.vp[0] - vp - 4  # less the column's four VP assets


def test_artifact_silver_coins_gives_one_vp_per_viking_recruited_beyond_the_third():
    """A.7 'Silver Coins | you recruit a Viking beyond the 3rd of one colour | +1 VP for each such Viking'
    (ruling R16; BGA ArtifactManager::checkArtifact gains `[VP => 1]`): the 5th Viking gives +1, not +2."""
    assert _silver_fifth() == 1
    # --rule silver_coins=column: +1 per Viking beyond the 3rd in the column (5th: +2).
    assert _silver_fifth(silver_coins="column") == 2


def test_artifact_setup_two_players_mead_cup_and_one_other():
    """A.7 'Reveal 1 random Artifact. With 2 players, the Mead Cup is also recommended.' (ruling R16; BGA
    ArtifactManager::setupArtifacts takes the Mead Cup out before the random draw): two Artifacts, always."""
    from sim.games.knarr.state import MEAD_CUP

    drawn = set()
    for seed in range(60):
        arts = new(2, seed=seed, artifacts=True).artifacts
        assert len(arts) == 2 and arts[1] == MEAD_CUP and arts[0] != MEAD_CUP
        drawn.add(arts[0])
        assert len(new(3, seed=seed, artifacts=True).artifacts) == 1
    assert len(drawn) == 6
