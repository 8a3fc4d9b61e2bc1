"""Dummy scoring (DM-21 ... DM-25, DM-30, DM-31) as pure functions of cards and the options.

Jitted for the engine and callable from Python as they are (tests, analyses).
"""

import numba as nb
import numpy as np

from simcore.games.dummy.layout import SPETOS, points

_ZERO = np.uint64(0)


@nb.njit(cache=True)
def table_points(placed, head, head_bonus):
    """DM-24, DM-31: the points of the cards a seat placed on the table; with ``head_bonus``
    the head card among them counts 50 (100 if it is a speto) instead of its face value."""
    t = points(placed)
    if head_bonus and (placed & head) != _ZERO:
        t += (100 if (head & SPETOS) != _ZERO else 50) - points(head)
    return t


@nb.njit(cache=True)
def knock_points(knock_card, knock_value, speto_knock_100):
    """DM-21, DM-30: the knock card's value: ``knock_value``, or 100 for a speto under
    ``speto_knock_100``."""
    if speto_knock_100 and (knock_card & SPETOS) != _ZERO:
        return 100
    return knock_value


@nb.njit(cache=True)
def seat_score(table, in_hand, knocked, is_knocker, opened, knock_value, dark, dark_multiplier,
               unopened_multiplier):
    """DM-25 (DM-22, DM-23): a seat's base score, before the penalties of DM-26.

    Without a knock (stock exhaustion) every seat scores table minus hand.  The knocker scores
    table plus the knock card's value (``knock_value``), multiplied for a dark knock; a seat
    that opened scores table minus hand; one that never opened loses ``unopened_multiplier``
    times its hand."""
    if not knocked:
        return table - in_hand
    if is_knocker:
        base = table + knock_value
        return base * dark_multiplier if dark else base
    if opened:
        return table - in_hand
    return -unopened_multiplier * in_hand
