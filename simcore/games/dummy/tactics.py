"""Pieces the built-in Dummy policies share (``heuristic`` in policies.py, ``expert``)."""

import numba as nb
import numpy as np

from simcore.cards import bit, highest_bit, lowest_bit, popcount
from simcore.melds import can_partition, spread_ranks
from simcore.games.dummy.layout import (
    A_KNOCK, A_LAYOFF, A_MELD, A_SHIFT, SPETOS, V_HEAD, V_HEAD_IN_PILE, V_MELD0, V_N_MELDS,
    V_PILE_MASK, V_SPETO100, points,
)

_ONE = np.uint64(1)
_ALL = np.uint64((1 << 52) - 1)


@nb.njit(inline="always", cache=True)
def near(x):
    """DM-34's neighbourhood of card x."""
    r = x % 13
    m = spread_ranks(_ONE << np.uint64(r)) & ~bit(x)
    for d in (-2, -1, 1, 2):
        if 0 <= r + d <= 12:
            m |= bit(x + d)
    return m


@nb.njit(cache=True)
def feeding_pile_prizes(view):
    """Cards next to a speto or the head card lying in the pile (a discard there lets the next
    player take the prize with it)."""
    pile = np.uint64(view[V_PILE_MASK])
    m = np.uint64(0)
    if view[V_HEAD_IN_PILE]:
        m |= near(view[V_HEAD])
    sp = pile & SPETOS
    while sp:
        x = lowest_bit(sp)
        sp &= sp - _ONE
        m |= near(x)
    return m


@nb.njit(cache=True)
def fits_table(c, view):
    """DM-16: card c lays off onto a table meld."""
    for j in range(view[V_N_MELDS]):
        m = np.uint64(view[V_MELD0 + j])
        lo = lowest_bit(m)
        if (m & spread_ranks(_ONE << np.uint64(lo % 13))) == m:
            if popcount(m) == 3 and c % 13 == lo % 13:
                return True
        elif c // 13 == lo // 13:
            hi = highest_bit(m)
            if (c == lo - 1 and lo % 13 > 0) or (c == hi + 1 and hi % 13 < 12):
                return True
    return False


@nb.njit(cache=True)
def can_knock_after(rest):
    """Can every card of ``rest`` but one go down as new melds?"""
    if popcount(rest) <= 1:
        return True
    o = rest
    while o:
        c = lowest_bit(o)
        o &= o - _ONE
        if can_partition(rest & ~bit(c)):
            return True
    return False


@nb.njit(cache=True)
def choose_play(view, acts, n):
    """Knock whenever possible (keeping the cheapest card, a speto under speto_knock_100), else
    lay the highest-valued meld, else the highest-valued lay-off, one at a time."""
    best = 0
    best_score = -(1 << 30)
    for i in range(n):
        a = acts[i]
        typ = a >> A_SHIFT
        if typ == A_KNOCK:
            c = a & 255
            score = 100000 - points(bit(c))
            if view[V_SPETO100] and (bit(c) & SPETOS):
                score += 1000
        elif typ == A_MELD:
            score = 1000 + points(np.uint64(a) & _ALL)
        elif typ == A_LAYOFF:
            score = 500 + points(bit(a & 255))
        else:
            score = 0
        if score > best_score:
            best_score = score
            best = i
    return best
