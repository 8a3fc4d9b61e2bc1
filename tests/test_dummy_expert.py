"""Dummy ``expert`` play policy (simcore/games/dummy/expert.py).

Hand-made positions check its documented behaviours (takes that knock or open cheaply, declining
a costly take late, knocking with the cheapest card, discards that do not feed the next
player's known picks, the penalty options); engine runs check that it only uses what its seat
may see, that it plays only legal actions in every configuration, and that its rows are
reproducible.  Its strength is measured by scripts/strength_dummy.py (docs/games/dummy.md).
"""

from __future__ import annotations

import numba
import numpy as np
import pytest

from simcore.cards import parse_card, parse_hand
from simcore.games.dummy import GAME, engine, layout, run_games, run_hands
from simcore.games.dummy import expert
from simcore.games.dummy.rules import Rules, rules_vector

L = layout
EXPERT = GAME.play_policies["expert"]
ALL_OPTIONS = dict(speto_knock_100=True, head_card_bonus=True, head_feed_penalty=True,
                   layoff_discard_penalty=True, full_discard_penalty=True,
                   speto_feed_penalty=True, speto_discard_penalty=True)


def mask(text):
    return parse_hand(text)


def view_for(seat=0, players=2, hand="", pile="", table=(), opened=0, counts=None, picks=None,
             discards=None, stock=20, penalties=0, final=0, direction=1):
    """A view as the engine fills it (layout.V_*) for a hand-made position."""
    v = np.zeros(L.VIEW_SIZE, np.int64)
    v[L.V_SEAT], v[L.V_PLAYERS], v[L.V_DIR], v[L.V_STOCK] = seat, players, direction, stock
    cards = [parse_card(c) for c in pile.split()]
    v[L.V_HEAD] = cards[0] if cards else 0
    v[L.V_HEAD_IN_PILE] = 1 if cards else 0
    v[L.V_N_PILE] = len(cards)
    for i, c in enumerate(cards):
        v[L.V_PILE0 + i] = c
    v[L.V_PILE_MASK] = mask(pile) if pile else 0
    v[L.V_N_MELDS] = len(table)
    for j, m in enumerate(table):
        v[L.V_MELD0 + j] = mask(m)
        v[L.V_TABLE_MASK] |= mask(m)
    v[L.V_OPENED], v[L.V_FINAL], v[L.V_PENALTIES] = opened, final, penalties
    v[L.V_LAYOFFS_LEFT] = 2
    for s in range(players):
        v[L.V_COUNT0 + s] = (counts or {}).get(s, 11)
        v[L.V_PICKS0 + s] = mask((picks or {}).get(s, "")) if (picks or {}).get(s) else 0
        v[L.V_DISCARDS0 + s] = mask((discards or {}).get(s, "")) if (discards or {}).get(s) else 0
    v[L.V_COUNT0 + seat] = len(hand.split())
    return v


def ask(kind, hand, view, acts, seat=0):
    acts = np.array(acts, np.int64)
    st = np.zeros(1, np.uint64)
    i = expert.expert_play(kind, seat, np.uint64(mask(hand)), view, acts, len(acts), st,
                           expert.PARAMS)
    assert 0 <= i < len(acts)
    return int(acts[i])


def discard(hand, view, seat=0):
    return ask(L.K_DISCARD, hand, view, [parse_card(c) for c in hand.split()], seat)


# ---- taking (DM-12, DM-15)

def test_takes_a_pile_meld_after_which_it_can_knock():
    hand = "7H 8H 3C 4C 5C KD"
    view = view_for(hand=hand, pile="KS 9H", opened=1)
    take = L.take_code(1, mask("7H 8H 9H"))
    assert ask(L.K_ACQUIRE, hand, view, [L.DRAW, take]) == take


def test_opens_with_a_cheap_take():
    hand = "4D 4S 9C JH KS 2H 6C"
    view = view_for(players=4, hand=hand, pile="8S 4H", opened=0, counts={1: 7, 2: 7, 3: 7})
    take = L.take_code(1, mask("4D 4S 4H"))
    assert ask(L.K_ACQUIRE, hand, view, [L.DRAW, take]) == take


def test_declines_a_deep_take_of_dead_high_cards_late():
    # the take's meld is worth 15; it drags QS KD AC JH 2C TC into a hand where none of them
    # melds, while the opponent holds two cards (it may knock any turn)
    hand = "3C 3D 8S 6H"
    pile = "9D 3H QS KD AC JH 2C TC"
    take = L.take_code(1, mask("3C 3D 3H"))
    late = view_for(hand=hand, pile=pile, opened=1, counts={1: 2}, stock=4)
    assert ask(L.K_ACQUIRE, hand, late, [L.DRAW, take]) == L.DRAW
    # the same take weighs less early (full stock, the opponent far from knocking)
    early = view_for(hand=hand, pile=pile, opened=1, counts={1: 11}, stock=29)
    h = np.uint64(mask(hand))
    assert (expert.take_score(0, h, early, take, expert.PARAMS)
            > expert.take_score(0, h, late, take, expert.PARAMS))


# ---- playing (DM-15 ... DM-19)

def test_knocks_keeping_its_cheapest_card():
    hand = "9C TC JC QC"
    view = view_for(hand=hand, opened=1)
    acts = [L.STOP, L.meld_code(mask("9C TC JC")), L.meld_code(mask("TC JC QC")),
            L.knock_code(parse_card("9C")), L.knock_code(parse_card("QC"))]
    assert ask(L.K_PLAY, hand, view, acts) == L.knock_code(parse_card("9C"))


def test_lays_melds_before_lay_offs():
    hand = "5C 6C 7C 9D 4H"
    view = view_for(hand=hand, opened=1, table=("TD JD QD",))
    acts = [L.STOP, L.meld_code(mask("5C 6C 7C")), L.layoff_code(0, parse_card("9D"))]
    assert ask(L.K_PLAY, hand, view, acts) == L.meld_code(mask("5C 6C 7C"))


# ---- discarding (DM-13, DM-32 ... DM-34)

def test_does_not_feed_the_next_players_known_picks():
    hand = "KH QC 5S 5D 5C"
    # without picks KH goes (a queen has more run windows than a king)
    assert discard(hand, view_for(hand=hand, pile="2D", opened=1)) == parse_card("KH")
    # the next player took KS and KD from the pile: KH would give it a set
    view = view_for(hand=hand, pile="2D", opened=1, picks={1: "KS KD"})
    assert discard(hand, view) == parse_card("QC")


def test_the_next_player_is_the_one_in_the_deals_direction():
    hand = "KH QC 5S 5D 5C"
    # seat 2 of 3 took the kings; with direction -1 seat 0's next player is seat 2, with +1 seat 1
    picks = {2: "KS KD"}
    ahead = view_for(players=3, hand=hand, pile="2D", opened=1, picks=picks, direction=-1,
                     counts={1: 9, 2: 7})
    behind = view_for(players=3, hand=hand, pile="2D", opened=1, picks=picks, direction=1,
                      counts={1: 9, 2: 7})
    assert discard(hand, ahead) == parse_card("QC")
    assert discard(hand, behind) == parse_card("KH")


def test_keeps_a_speto_and_its_melds():
    hand = "2C 7S 8S 9S 4D"
    assert discard(hand, view_for(hand=hand, pile="KH", opened=0)) == parse_card("4D")


def test_lets_a_dead_speto_go_late_at_three_or_four_players_only():
    hand = "QS 4C 5C 6C 8D"  # the speto QS melds with nothing in hand, on the table or pile
    late4 = view_for(players=4, hand=hand, pile="KH", opened=1, counts={1: 3, 2: 7, 3: 7}, stock=10)
    early4 = view_for(players=4, hand=hand, pile="KH", opened=1, counts={1: 7, 2: 7, 3: 7}, stock=23)
    late2 = view_for(players=2, hand=hand, pile="KH", opened=1, counts={1: 3}, stock=10)
    assert discard(hand, late4) == parse_card("QS")
    assert discard(hand, early4) == parse_card("8D")
    assert discard(hand, late2) == parse_card("8D")
    # a speto with a meld partner in hand is kept however late
    partnered = "QS QD 5C 6C 8D"
    view = view_for(players=4, hand=partnered, pile="KH", opened=1, counts={1: 3, 2: 7, 3: 7}, stock=10)
    assert discard(partnered, view) != parse_card("QS")


def test_penalty_options_are_counted_only_when_in_force():
    view = view_for(hand="9C", pile="9D 9S", opened=1, table=("4H 5H 6H",))
    assert expert.penalty_risk(parse_card("9C"), view) == 0
    assert expert.penalty_risk(parse_card("7H"), view) == 0
    view[L.V_PENALTIES] = L.PEN_FULL | L.PEN_LAYOFF
    assert expert.penalty_risk(parse_card("9C"), view) == 50   # DM-33: melds with 9D 9S
    assert expert.penalty_risk(parse_card("7H"), view) == 50   # DM-32: lays off on 4H 5H 6H
    assert expert.penalty_risk(parse_card("2D"), view) == 0


def test_next_player_chances_follow_what_the_seat_sees():
    hand = "KH QC 5S"
    view = view_for(hand=hand, pile="2D 7C", opened=1, table=("4H 5H 6H",), picks={1: "KS"},
                    counts={1: 6})
    prob = np.zeros(52)
    assert expert.next_player_chances(0, np.uint64(mask(hand)), view, prob) == 1
    assert prob[parse_card("KS")] == 1.0                      # a pick it still holds
    for seen in "KH QC 5S 2D 7C 4H 5H 6H".split():            # own cards, pile, table
        assert prob[parse_card(seen)] == 0.0
    unseen = 52 - 3 - 2 - 3 - 1
    assert prob[parse_card("AS")] == pytest.approx(5 / unseen)  # 6 cards, one of them known


# ---- the seat's information only, legality, reproducibility

def _first_turn(deck, dealer, cfg, policies):
    ok, info, _, _, log, _ = engine.play_logged(deck, dealer, (dealer + 1) % 2, 1, cfg, policies,
                                                np.uint64(1), True, np.zeros(0, np.int64))
    assert ok
    starter = (dealer + 1) % 2
    first = []
    for seat, kind, action, n in log:
        if seat != starter:
            break
        first.append((int(kind), int(action), int(n)))
    return first


def test_the_same_information_gives_the_same_choices():
    """Deals that differ only in cards the starter cannot see (the other hand and the stock
    below its first draw) get the same first-turn decisions from the starter."""
    cfg = rules_vector(Rules(players=2))
    policies = np.array([EXPERT] * 4, np.int64)
    rng = np.random.default_rng(15)
    hs, compared = 11, 0
    for _ in range(150):
        deck = rng.permutation(52).astype(np.int64)
        dealer = 1  # seat 0 starts and receives cards 0, 2, 4, ...
        hidden = [i for i in range(2 * hs) if i % 2 == 1] + list(range(2 * hs + 2, 52))
        other = deck.copy()
        other[hidden] = rng.permutation(deck[hidden])
        a, b = _first_turn(deck, dealer, cfg, policies), _first_turn(other, dealer, cfg, policies)
        assert a == b
        compared += len(a)
    assert compared >= 300


@pytest.mark.parametrize("players", [2, 3, 4])
def test_only_legal_actions_in_every_configuration(players):
    for rules in (Rules(players=players),
                  Rules(players=players, layoff_limit="none", dark_knock_layoffs=True,
                        qka_closed=True, may_discard_taken_card=False, **ALL_OPTIONS)):
        for spec in (["expert"], ["random", "0=expert"], ["heuristic", "1=expert"]):
            rows = run_hands(3, 0, 300, rules, GAME.policies_from_specs(spec))  # raises if illegal
            assert rows.height == 300 and rows["turns"].min() >= 1


def test_rows_are_reproducible_across_threads_and_chunks():
    rules, choice = Rules(players=3), GAME.policies_from_specs(["expert", "0=heuristic"])
    whole = run_hands(9, 0, 600, rules, choice)
    assert whole.equals(run_hands(9, 0, 600, rules, choice))
    parts = run_hands(9, 0, 250, rules, choice).vstack(run_hands(9, 250, 350, rules, choice))
    assert whole.equals(parts)
    threads = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = run_hands(9, 0, 600, rules, choice)
    finally:
        numba.set_num_threads(threads)
    assert whole.equals(one)
    hands, games = run_games(9, 0, 20, Rules(players=2), GAME.policies_from_specs(["expert"]))
    again = run_games(9, 0, 20, Rules(players=2), GAME.policies_from_specs(["expert"]))
    assert hands.equals(again[0]) and games.equals(again[1])
