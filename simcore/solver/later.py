"""Later tricks (DDS's LaterTricks): tricks a side wins with its trumps, however play goes.

:func:`sure_trumps` counts the tricks one seat's trumps win whatever the opponents' trumps do;
:func:`later_cut` settles a boundary node when the side not on lead holds the top trumps
(DDS's LaterTricksMIN/MAX, trump cases).  Both count tricks and return the cards they relied on.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from simcore.cards import bit, highest_bit, lowest_bit, popcount
from simcore.solver.context import (
    C_CONST, C_MAX, C_NEXT, C_NSEATS, C_TRUMP, T_CTX, T_HANDS, T_RELEVANT,
)
from simcore.solver.position import (
    SUIT_FIELD, cards_in_hands, holder_of, kth_highest, suit_field, top_count,
)


@nb.njit(inline="always", cache=True)
def spoiled(mine, theirs):
    """How many of the trumps ``mine`` the trumps ``theirs`` (one suit field each) can spoil:
    match each of ``theirs``, lowest first, with the lowest unmatched trump of ``mine`` below it."""
    lost = 0
    free = mine
    while theirs and free:
        b = lowest_bit(theirs)
        theirs &= theirs - np.uint64(1)
        below = free & ((np.uint64(1) << np.uint64(b)) - np.uint64(1))
        if below:
            free ^= below & (~below + np.uint64(1))  # that trump is spoiled
            lost += 1
    return lost


@nb.njit(inline="always", cache=True)
def most_trumps(ctx, hands, side):
    """The most trumps one seat with max-bit ``side`` holds: sure_trumps counts no more."""
    trump = ctx[C_TRUMP]
    if trump < 0:
        return 0
    maxi = ctx[C_MAX]
    most = 0
    for t in range(ctx[C_NSEATS]):
        if ((maxi >> t) & 1) == side:
            most = max(most, popcount(suit_field(hands[t], trump)))
    return most


@nb.njit(cache=True, _nrt=False)
def sure_trumps(ctx, hands, side, need):
    """(tricks the seats with max-bit ``side`` win whatever happens; the card that depends on).

    Every card gets played, one a trick, and a seat's trump wins its trick for the side unless
    an opponent plays a higher trump into it; each opponent trump spoils one trick at most.  So
    a seat with k trumps wins at least k minus the most of its trumps the opponents' trumps can
    be matched above (greedy, from the lowest).  The count depends on the ranks of that seat's
    trumps and of the opponents' above its lowest (one below them all spoils nothing), so its
    lowest trump is the card it relies on.  When a
    seat's trumps above all of the opponents' already make ``need`` tricks, the count relies
    only on the lowest of those ``need`` (as in :func:`quick_tricks`)."""
    trump = ctx[C_TRUMP]
    if trump < 0:
        return 0, np.uint64(0)
    maxi = ctx[C_MAX]
    other = np.uint64(0)
    for t in range(ctx[C_NSEATS]):
        if ((maxi >> t) & 1) != side:
            other |= hands[t]
    ot = (other >> np.uint64(16 * trump)) & SUIT_FIELD
    if need > 0:
        for t in range(ctx[C_NSEATS]):
            if ((maxi >> t) & 1) == side and top_count(hands[t], other, trump) >= need:
                return need, kth_highest(hands[t], trump, need) if ot else np.uint64(0)
    best = 0
    best_low = np.uint64(0)
    for t in range(ctx[C_NSEATS]):
        if ((maxi >> t) & 1) != side:
            continue
        mine = (hands[t] >> np.uint64(16 * trump)) & SUIT_FIELD
        k = popcount(mine)
        if k <= best:
            continue
        lost = spoiled(mine, ot)
        if k - lost > best:
            best = k - lost
            best_low = mine  # an opponent trump below them all spoils none
    if best == 0 or ot == 0:
        return best, np.uint64(0)
    return best, bit(16 * trump + lowest_bit(best_low))


@nb.njit(cache=True, _nrt=False)
def _later_trumps(ctx, hands, leader):
    """(tricks the side not on lead surely wins with its top trumps, 0-2; the card that relies
    on), four seats in two partnerships (the trump cases of DDS's LaterTricksMIN/MAX that
    sure_trumps, which counts one hand at a time, misses).

    The side holds the two top trumps in play in two hands, one of them with another trump:
    2 (that hand plays its other trump when the partner's top trump falls).  The opponents hold
    the top trump and the side the next one, in a hand with another trump: 1 when that hand
    plays right after the top trump's holder, or when the side holds the third trump too."""
    trump = ctx[C_TRUMP]
    if trump < 0:
        return 0, np.uint64(0)
    ft = suit_field(cards_in_hands(ctx, hands), trump)
    if popcount(ft) < 2:
        return 0, np.uint64(0)
    maxi = ctx[C_MAX]
    side = 1 - ((maxi >> leader) & 1)
    a = 16 * trump + highest_bit(ft)
    ft &= ~(np.uint64(1) << np.uint64(highest_bit(ft)))
    k = 16 * trump + highest_bit(ft)
    ha = holder_of(hands, a)
    hk = holder_of(hands, k)
    if ((maxi >> hk) & 1) != side:
        return 0, np.uint64(0)
    long_k = popcount(suit_field(hands[hk], trump)) > 1
    if ((maxi >> ha) & 1) == side:
        if ha != hk and (long_k or popcount(suit_field(hands[ha], trump)) > 1):
            return 2, bit(k)
        return 0, np.uint64(0)  # one hand: sure_trumps counts it
    if not long_k:
        return 0, np.uint64(0)
    if ctx[C_NEXT + ha] == hk:
        return 1, bit(k)
    ft &= ~(np.uint64(1) << np.uint64(highest_bit(ft)))
    if ft:
        q = 16 * trump + highest_bit(ft)
        if ((maxi >> holder_of(hands, q)) & 1) == side:
            return 1, bit(q)
    return 0, np.uint64(0)


@nb.njit(inline="always", cache=True, _nrt=False)
def later_cut(tab, depth, leader, target, most):
    """1 or 0 when _later_trumps settles ``target`` at the boundary node of frame ``depth``
    (the cards relied on in relevant[depth]), else -1; ``most`` is what the count side could
    still get."""
    ctx = tab[T_CTX]
    k = ctx[C_CONST]
    maxing = (ctx[C_MAX] >> leader) & 1
    if (most - 2 * k >= target) if maxing else (2 * k < target):
        return -1  # the side not on lead needs more than the 2 tricks this can give
    q, rq = _later_trumps(ctx, tab[T_HANDS], leader)
    if q == 0 or ((most - q * k >= target) if maxing else (q * k < target)):
        return -1
    tab[T_RELEVANT][depth] = rq
    return 1 - maxing
