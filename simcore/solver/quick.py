"""Quick tricks (DDS's QuickTricks): sure winners that bound a node before any search.

:func:`quick_tricks` counts the tricks the leader takes by cashing its top cards at a trick
boundary; :func:`second_hand_cut` settles a node in second hand when its side surely wins the
trick and needs no more (DDS's QuickTricksSecondHand).  Both count tricks (no card points) and
return the cards their count relied on, which decide how widely the node's table entry applies.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from simcore.cards import bit, highest_bit, popcount
from simcore.solver.context import (
    C_CONST, C_MAX, C_NEXT, C_NSEATS, C_TRUMP, T_CTX, T_HANDS, T_RELEVANT, T_STACK,
)
from simcore.solver.position import (
    kth_highest, leader_view, suit_bits, suit_field, top_count, upper_bound,
)


@nb.njit(cache=True, _nrt=False)
def quick_tricks(ctx, hands, leader, broken, need):
    """(tricks the leader can take by cashing top cards, keeping the lead, whatever the others
    do, counted up to ``need``; the cards that count depends on).

    Per suit: the leader's cards above every other seat's (all of them when nobody else holds
    the suit).  A side suit counts only as far as every other seat still holding trumps can
    follow it, so nobody ruffs, and the partner never takes the lead either; such a seat follows
    every counted suit, so cashing one suit never makes another fail.  Beyond suit lengths (in
    every table key), the count depends only on the leader holding the top cards it counts: the
    lowest of them is the card it relies on (DDS's winRanks).  Relying on the others' best card
    below them instead made the entries above match less, so that quick tricks cost more nodes
    than they saved (80 full Spades deals: 601k mean, 443k without them, 413k now).  Counting
    stops at ``need`` tricks (DDS's cutoff), the suits nobody else holds first (they rely on no
    card).  (Cashing the top trumps first to draw the others', as DDS's QuickTricks does, cut
    more often but cost more nodes: 591k against 558k mean on 40 full Spades deals.)
"""
    trump = ctx[C_TRUMP]
    h = hands[leader]
    others, banned = leader_view(ctx, hands, leader, broken)
    total = 0
    relevant = np.uint64(0)
    if trump >= 0 and trump != banned:
        total = min(top_count(h, others, trump), max(need, 0))
        if total > 0 and suit_field(others, trump):
            relevant = kth_highest(h, trump, total)
    for cheap in (True, False):
        for s in range(4):
            if total >= need:
                return total, relevant
            os_ = suit_field(others, s)
            if s == trump or (os_ == 0) != cheap or s == banned:
                continue
            k = top_count(h, others, s)
            if trump >= 0:
                for t in range(ctx[C_NSEATS]):
                    if k > 0 and t != leader and (hands[t] & suit_bits(trump)):
                        k = min(k, popcount(hands[t] & suit_bits(s)))
            k = min(k, need - total)
            if k > 0:
                total += k
                if os_:
                    relevant |= kth_highest(h, s, k)
    return total, relevant


@nb.njit(cache=True, _nrt=False)
def _second_hand_wins(ctx, hands, lead, leader):
    """(does the second hand's side surely win the trick led by ``lead``?; the card that relies
    on), four seats in two partnerships (DDS's QuickTricksSecondHand).  Yes when second or
    fourth hand can ruff and third hand must follow or holds no trump (it cannot overruff a
    ruff of second hand, and fourth hand plays last), or when their side's best card of the
    suit beats the lead and all of third hand's cards and third hand cannot ruff."""
    trump = ctx[C_TRUMP]
    s = lead >> 4
    p2 = ctx[C_NEXT + leader]
    p3 = ctx[C_NEXT + p2]
    p4 = ctx[C_NEXT + p3]
    f3 = suit_field(hands[p3], s)
    third_ruffs = trump >= 0 and s != trump and f3 == 0 and suit_field(hands[p3], trump) != 0
    if trump >= 0 and s != trump:
        for t in (p2, p4):
            if suit_field(hands[t], s) == 0 and suit_field(hands[t], trump) != 0:
                return not third_ruffs, np.uint64(0)
    ours = suit_field(hands[p2], s) | suit_field(hands[p4], s)
    if third_ruffs or ours <= ((np.uint64(1) << np.uint64(lead & 15)) | f3):
        return False, np.uint64(0)
    return True, bit(16 * s + highest_bit(ours))


@nb.njit(inline="always", cache=True, _nrt=False)
def second_hand_cut(tab, depth, leader, mover, target):
    """1 or 0 when second hand's side needs only the current trick and surely wins it (see
    _second_hand_wins), the cards relied on in relevant[depth]; else -1."""
    ctx = tab[T_CTX]
    hands = tab[T_HANDS]
    maxi = ctx[C_MAX]
    p4 = ctx[C_NEXT + ctx[C_NEXT + mover]]
    side = (maxi >> mover) & 1
    if ((maxi >> p4) & 1) != side or (side and target > ctx[C_CONST]):
        return -1
    if not side and upper_bound(ctx, hands, tab[T_STACK], depth - 1, 1) - ctx[C_CONST] >= target:
        return -1
    wins, rel = _second_hand_wins(ctx, hands, tab[T_STACK][depth - 1], leader)
    if not wins:
        return -1
    tab[T_RELEVANT][depth] = rel
    return side
