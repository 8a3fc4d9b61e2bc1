"""Card points (Trump Friend): what the search needs beyond trick counting when cards carry
points.

Counting card points the boolean searches are *fail-soft* (the Skat solvers' way): a node
deciding "at least t?" also leaves a bound of its value beyond t (a lower bound when it
succeeds, an upper bound when it fails), from the bounds, table entries and last tricks its
proof rests on; the table stores those bounds and the target loop jumps past every threshold a
bound already decides (see simcore.solver.search and simcore.solver.interface).

This module holds the objective's own pieces:

* bounds at a trick boundary (:func:`point_bounds`): the points of a side's trumps above all
  of the other side's (:func:`sure_points`), its lower point trumps the other side cannot
  spoil (:func:`sure_lower_points`), the leader's cashing tricks (:func:`quick_points`);
* the table key's point counts (:func:`point_counts`, ``K_COUNTS`` in simcore.solver.keys)
  and how far an entry of other point counts may be used (:func:`counts_gap`,
  :func:`points_gap`).
"""

from __future__ import annotations

import numba as nb
import numpy as np

from simcore.cards import bit, highest_bit, lowest_bit, popcount
from simcore.solver.context import (
    C_CONST, C_MAX, C_NSEATS, C_PMASK, C_POINTS, C_TRUMP, K_COUNTS, K_HANDS, K_TOP, N_QUICK,
    N_QUICK_CUTS,
)
from simcore.solver.position import (
    SUIT_FIELD, kth_highest, leader_view, point_cards, points_of, suit_bits, suit_field, top_count,
)


@nb.njit(inline="always", cache=True)
def _side_trumps(ctx, hands, side, trump):
    """(the trumps of the seats with max-bit ``side``, those of the other seats), in place."""
    maxi = ctx[C_MAX]
    mine = np.uint64(0)
    other = np.uint64(0)
    for t in range(ctx[C_NSEATS]):
        if ((maxi >> t) & 1) == side:
            mine |= hands[t]
        else:
            other |= hands[t]
    return mine & suit_bits(trump), other & suit_bits(trump)


@nb.njit(cache=True, _nrt=False)
def sure_points(ctx, hands, side):
    """(points the seats with max-bit ``side`` win whatever happens, from a trick boundary on;
    the card that depends on): the points of their trumps above every trump of the other side.
    Whenever such a trump is played, the trick goes to the highest trump in it, which is the
    side's (TF-8.1).  It depends on the other side's highest trump (the cards above it and
    their holders)."""
    trump = ctx[C_TRUMP]
    if trump < 0:
        return 0, np.uint64(0)
    mine, ot = _side_trumps(ctx, hands, side, trump)
    if ot == 0:
        return points_of(ctx, mine), np.uint64(0)
    top = highest_bit(ot)
    return points_of(ctx, mine & ~((bit(top) << np.uint64(1)) - np.uint64(1))), bit(top)


@nb.njit(cache=True, _nrt=False)
def sure_lower_points(ctx, hands, side, sure, need):
    """(the points of :func:`sure_points`, ``sure``, plus those of the side's lower point trumps
    it surely wins; the card that depends on), when that can reach ``need`` (else ``sure`` and
    no card: the caller's node is not settled either way).

    A trump x of seat s wins its points for the side unless the trick x falls in holds a
    higher trump of the other side (the trick goes to its highest trump, the side's whenever
    no opposing trump beats x; TF-8.1).  Seat s plays one card a trick and every opposing trump
    is played in one trick, so the trumps of s that are lost can be matched, each to a
    different opposing trump above it: at worst the other side spoils a matchable set of s's
    point trumps of the most points.  A set x_1 > x_2 > ... of s's trumps is matchable exactly
    when at least j opposing trumps lie above x_j for every j (the trumps above x form a chain
    of sets, so Hall's condition needs checking on the j highest only), and matchable sets are
    the independent sets of a transversal matroid, so taking s's point trumps by falling points
    and keeping each that leaves the set matchable finds the most points spoilable.  Seat by
    seat (two seats of the side may lose trumps to the same opposing trump in one trick), the
    side wins at least the points of its trumps less those.  This relies on the lowest point
    trump of the side below the other side's highest: every trump above it, and its holder, is
    then fixed, and the key fixes each seat's point count."""
    trump = ctx[C_TRUMP]
    if trump < 0:
        return sure, np.uint64(0)
    maxi = ctx[C_MAX]
    mine, ot = _side_trumps(ctx, hands, side, trump)
    if ot == 0:
        return sure, np.uint64(0)
    lower = mine & (bit(highest_bit(ot)) - np.uint64(1)) & point_cards(ctx)
    if lower == 0 or sure + points_of(ctx, lower) < need:
        return sure, np.uint64(0)
    for t in range(ctx[C_NSEATS]):
        if ((maxi >> t) & 1) == side and hands[t] & lower:
            cand = hands[t] & lower
            sure += points_of(ctx, cand) - _most_spoiled(ctx, cand, ot)
    return sure, bit(lowest_bit(lower))


@nb.njit(cache=True, _nrt=False)
def _most_spoiled(ctx, cand, theirs):
    """The most points of one seat's trumps ``cand`` (each below some of ``theirs``) that the
    opposing trumps ``theirs`` can spoil, one each (see :func:`sure_lower_points`): greedy by
    points."""
    chosen = np.uint64(0)
    lost = 0
    while cand:
        best = -1
        pick = 0
        rest = cand
        while rest:  # the card of most points, the highest among equals
            c = highest_bit(rest)
            rest ^= bit(c)
            if ctx[C_POINTS + c] > best:
                best = ctx[C_POINTS + c]
                pick = c
        cand ^= bit(pick)
        trial = chosen | bit(pick)
        ok = True
        j = 0
        rest = trial
        while rest:  # the j-th highest chosen needs j opposing trumps above it
            c = highest_bit(rest)
            rest ^= bit(c)
            j += 1
            if popcount(theirs & ~((bit(c) << np.uint64(1)) - np.uint64(1))) < j:
                ok = False
                break
        if ok:
            chosen = trial
            lost += best
    return lost


@nb.njit(cache=True, _nrt=False)
def _lowest_points(ctx, cards, count):
    """The least points any k of ``cards`` (one suit, solver ids) carry."""
    total = 0
    for _ in range(count):
        least = -1
        pick = np.uint64(0)
        m = cards
        while m:
            c = lowest_bit(m)
            m &= m - np.uint64(1)
            if least < 0 or ctx[C_POINTS + c] < least:
                least = ctx[C_POINTS + c]
                pick = bit(c)
        if least < 0:
            break
        total += least
        cards &= ~pick
    return total


@nb.njit(cache=True, _nrt=False)
def quick_points(ctx, hands, leader, broken):
    """(the least the leader's side takes by cashing the leader's top cards, as counted by
    :func:`quick_tricks`; the cards that depends on), in a game whose cards carry points.

    The leader cashes its k top cards of a suit: those tricks are its side's, with the points
    of its k cards plus, from every other seat, the least points k cards of that suit in its
    hand can carry (it must follow while it holds the suit; a void seat may throw nothing of
    value).  It relies on the leader's k top cards of each suit counted (the lowest of them,
    as :func:`quick_tricks` does): above it every card is the leader's in every position an
    entry covers, and the key counts the points each seat holds below (K_COUNTS).  Relying on
    the others' highest card instead: 7 cards a seat 39,815 nodes mean against 39,425, 8 cards
    337,282 against 330,822."""
    trump = ctx[C_TRUMP]
    h = hands[leader]
    others, banned = leader_view(ctx, hands, leader, broken)
    tricks = 0
    pts = 0
    relevant = np.uint64(0)
    for s in range(4):
        hs = (h >> np.uint64(16 * s)) & SUIT_FIELD
        if hs == 0 or s == banned:
            continue
        os_ = suit_field(others, s)
        k = top_count(h, others, s)
        if k == 0:
            continue
        if trump >= 0 and s != trump:
            for t in range(ctx[C_NSEATS]):
                if t != leader and (hands[t] & suit_bits(trump)):
                    lt = popcount(hands[t] & suit_bits(s))
                    if lt < k:
                        k = lt
        if k == 0:
            continue
        if os_ != 0:  # the leader's k top cards, down to the lowest (as quick_tricks)
            relevant |= kth_highest(h, s, k)
        tricks += k
        top = hs
        for _ in range(popcount(hs) - k):  # the leader's k highest cards of the suit
            top &= top - np.uint64(1)
        pts += points_of(ctx, top << np.uint64(16 * s))
        for t in range(ctx[C_NSEATS]):
            if t != leader:
                held = hands[t] & suit_bits(s)
                pts += _lowest_points(ctx, held, min(k, popcount(held)))
    return tricks * ctx[C_CONST] + pts, relevant


@nb.njit(inline="always", cache=True, _nrt=False)
def point_bounds(ctx, hands, leader, broken, target, most, counters):
    """(1 or 0 when the sure and quick points settle ``target`` at a trick boundary, else -1;
    the node's fail-soft bound; the cards it relied on), ``most`` being every point in play.
    The max side's sure points first, then the other side's, each with its lower trumps, then
    the leader's cashing tricks (counted in ``counters``)."""
    q1, rel1 = sure_points(ctx, hands, 1)
    if q1 >= target:
        return 1, q1, rel1
    q0, rel0 = sure_points(ctx, hands, 0)
    if most - q0 < target:
        return 0, most - q0, rel0
    q, rel = sure_lower_points(ctx, hands, 1, q1, target)
    if q >= target:
        return 1, q, rel
    q, rel = sure_lower_points(ctx, hands, 0, q0, most - target + 1)
    if most - q < target:
        return 0, most - q, rel
    q, rel = quick_points(ctx, hands, leader, broken)
    counters[N_QUICK] += 1
    if (ctx[C_MAX] >> leader) & 1:
        if q >= target:
            counters[N_QUICK_CUTS] += 1
            return 1, q, rel
    elif most - q < target:
        counters[N_QUICK_CUTS] += 1
        return 0, most - q, rel
    return -1, 0, np.uint64(0)


@nb.njit(cache=True, _nrt=False)
def point_counts(ctx, hands):
    """Per seat and suit, its cards of 1 point (0-3, 2 bits) and of 2 (0-1, 1 bit), 3 bits
    each (C_FEWPTS games)."""
    ones = np.uint64(ctx[C_PMASK])
    twos = np.uint64(ctx[C_PMASK + 1])
    out = np.uint64(0)
    for seat in range(ctx[C_NSEATS]):
        h = hands[seat]
        for s in range(4):
            hs = h & suit_bits(s)
            v = np.uint64(popcount(hs & ones & ~twos)) | \
                (np.uint64(popcount(hs & twos)) << np.uint64(2))
            out |= v << np.uint64(3 * (4 * seat + s))
    return out


@nb.njit(inline="always", cache=True)
def _top_counts(keybuf, top, ones, twos):
    """The K_COUNTS word of the top cards alone: per seat and suit its 1-point cards among
    them (bits 0-1) and its 2-point card (bit 2)."""
    out = np.uint64(0)
    for seat in range(5):
        h = keybuf[K_HANDS + seat] & top
        if h == 0:
            continue
        for s in range(4):
            hs = h & suit_bits(s)
            v = np.uint64(popcount(hs & ones)) | (np.uint64(popcount(hs & twos)) << np.uint64(2))
            out |= v << np.uint64(3 * (4 * seat + s))
    return out


@nb.njit(inline="always", cache=True)
def counts_gap(position_counts, entry_counts):
    """How far the point counts of a position (K_COUNTS word a) are below and above those of
    an entry (b) that matches it but for them: (down, up).  Per seat and suit a count is 3
    bits, the 1-point cards in bits 0-1 and the 2-point card in bit 2.  The cards below an
    entry's top never decide a trick on rank, so a seat's lower cards of a suit are tokens that
    differ only in points: pair the position's tokens with the entry's, each sorted by points,
    and the entry's proof plays in the position with every trick won by the same side and the
    paired tokens' points exchanged.  The max side then loses at most the points by which the
    entry's tokens exceed their partners (``down``) and gains at most the points by which they
    fall short (``up``): the position's value is at least the entry's lower bound less down and
    at most its upper bound plus up.  Sorted, those sums are per seat and suit the excess of
    the 2s count and of the 2s-and-1s count (``counts_gap`` of equal counts is (0, 0): the
    entry's bounds as they are)."""
    down = 0
    up = 0
    x = position_counts
    y = entry_counts
    while x | y:
        fa = np.int64(x & np.uint64(7))
        fb = np.int64(y & np.uint64(7))
        ta, tb = fa >> 2, fb >> 2
        sa, sb = ta + (fa & 3), tb + (fb & 3)
        down += max(tb - ta, 0) + max(sb - sa, 0)
        up += max(ta - tb, 0) + max(sa - sb, 0)
        x >>= np.uint64(3)
        y >>= np.uint64(3)
    return down, up


@nb.njit(inline="always", cache=True)
def points_gap(keys, slot, keybuf):
    """counts_gap when the top cards' point patterns may differ as well: the top cards are
    the same cards in rank and holder (the key's hands match under the entry's top), so the
    entry's proof plays in the position card for card; each top card that is worth more in the
    entry adds its excess to ``down``, each worth less its shortfall to ``up``, and the lower
    cards count as tokens (counts_gap) by the counts left once the top cards' are taken out."""
    top = keys[slot, K_TOP]
    e1 = keys[slot, 2]
    e2 = keys[slot, 3]
    q1 = keybuf[2] & top
    q2 = keybuf[3] & top
    if e1 == q1 and e2 == q2:
        return counts_gap(keybuf[K_COUNTS], keys[slot, K_COUNTS])
    eq = ~(q1 | q2)
    ee = ~(e1 | e2)
    down = 2 * popcount(e2 & eq) + popcount(e2 & q1) + popcount(e1 & eq)
    up = 2 * popcount(q2 & ee) + popcount(q2 & e1) + popcount(q1 & ee)
    ld, lu = counts_gap(keybuf[K_COUNTS] - _top_counts(keybuf, top, q1, q2),
                        keys[slot, K_COUNTS] - _top_counts(keybuf, top, e1, e2))
    return down + ld, up + lu
