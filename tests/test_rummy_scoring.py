"""The rummy games' scoring functions called directly, on cases worked by hand from the rules
(GR-10 ... GR-18, DM-21 ... DM-25, DM-30, DM-31).  The engines' rows are checked against the
same rules in tests/test_gin_rummy_rules.py and tests/test_dummy_rules.py."""

import numpy as np
import pytest

from simcore.cards import parse_card
from simcore.games.dummy.layout import SPETOS
from simcore.games.dummy.scoring import knock_points, seat_score, table_points
from simcore.games.gin_rummy.layout import END_GIN, END_KNOCK
from simcore.games.gin_rummy.scoring import game_result, hand_result


def mask(*cards):
    m = 0
    for c in cards:
        m |= 1 << parse_card(c)
    return np.uint64(m)


# ---------------------------------------------------------------- Gin Rummy

@pytest.mark.parametrize("knocker, defender, expected", [
    (0, 17, (END_GIN, True, 25 + 17)),     # GR-10, GR-15: gin, bonus and all defender deadwood
    (0, 0, (END_GIN, True, 25)),           # gin against gin: still the knocker's
    (4, 9, (END_KNOCK, True, 5)),          # GR-13: the difference
    (6, 6, (END_KNOCK, False, 0 + 25)),    # GR-14: a tie goes to the defender, with the bonus
    (8, 3, (END_KNOCK, False, 5 + 25)),    # GR-14: undercut, difference plus bonus
])
def test_gin_hand_result(knocker, defender, expected):
    assert hand_result(knocker, defender, 25, 25) == expected


def test_gin_hand_result_reads_the_bonuses():
    assert hand_result(0, 10, 31, 7)[2] == 41
    assert hand_result(9, 2, 31, 7)[2] == 14


def test_gin_game_result_bonuses_and_shutout():
    # GR-17: 100 for the game, 25 per hand won, to the winner only by default
    assert game_result(104, 60, 3, 2, True, 100, 25, False) == (0, 104 + 100 + 75, 60, False)
    # box bonus to both players
    assert game_result(104, 60, 3, 2, True, 100, 25, True) == (0, 279, 60 + 50, False)
    # GR-18: a shutout doubles the winner's hand points before the bonuses
    assert game_result(0, 110, 0, 4, True, 100, 25, False) == (1, 220 + 100 + 100, 0, True)
    assert game_result(0, 110, 0, 4, False, 100, 25, False) == (1, 110 + 100 + 100, 0, True)
    # a tie of totals goes to seat 0
    assert game_result(100, 100, 2, 2, True, 100, 25, False)[0] == 0


# ---------------------------------------------------------------- Dummy

def test_dummy_table_points_and_head_card():
    placed = mask("AH", "KH", "QH")  # DM-24, DM-7: 15 + 10 + 10
    assert table_points(placed, np.uint64(0), True) == 35
    # DM-31: the head card among them counts 50 instead of its face value
    assert table_points(placed, mask("KH"), True) == 35 - 10 + 50
    assert table_points(placed, mask("KH"), False) == 35
    # a speto as head card counts 100
    speto_meld = mask("QS", "KS", "AS")
    queen_spades = np.uint64(int(SPETOS) & int(mask("QS")))
    assert table_points(speto_meld, queen_spades, True) == 50 + 10 + 15 - 50 + 100


def test_dummy_knock_points():
    assert knock_points(mask("7D"), 50, True) == 50          # DM-21
    assert knock_points(mask("2C"), 50, True) == 100         # DM-30: a speto, speto_knock_100 on
    assert knock_points(mask("2C"), 50, False) == 50


@pytest.mark.parametrize("args, expected", [
    # (table, in hand, a knock?, this seat knocked?, opened?, knock value, dark?) -> score
    ((40, 25, False, False, True, 0, False), 15),    # DM-23: no knock, table minus hand
    ((40, 25, False, False, False, 0, False), 15),   # ... opened or not
    ((60, 0, True, True, True, 50, False), 110),     # DM-25: knocker, table plus knock card
    ((60, 0, True, True, True, 50, True), 220),      # DM-22: a dark knock doubles it
    ((40, 25, True, False, True, 50, False), 15),    # opened: table minus hand
    ((0, 25, True, False, False, 50, False), -50),   # DM-25: never opened, twice the hand lost
])
def test_dummy_seat_score(args, expected):
    assert seat_score(*args, 2, 2) == expected
