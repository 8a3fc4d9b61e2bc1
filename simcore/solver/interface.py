"""The solver's entry points (DDS's SolverIF): exact values by a loop over boolean searches.

The search (:func:`simcore.solver.search.can_reach`) answers "at least t?"; the target loop
:func:`_exact` finds the exact value from bounds lo..hi with a few of them: counting tricks, DDS's
way, from a first guess one trick at a time; counting card points, by a binary search that
jumps past every threshold a fail-soft bound already decides.

The entry points take ``points`` last: whether cards carry points (the table's context says so
at run time, ``ctx[C_HASPTS]``).  Pass it as a literal True or False: Numba compiles the search
loop once per literal (``can_reach``, ``_enter`` and ``gen_moves`` specialise on it), so a
game's solver compiles only its own version (Spades and Euchre False, Trump Friend True).
Compiling both cost every game solver about 40% more compile time.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from simcore.cards import bit, lowest_bit
from simcore.solver.context import (
    C_MAX, C_NACTIVE, C_RESTRICT, F_BOUND, N_ABORTED, N_GEN, N_SEARCHES, T_COUNTERS, T_CTX,
    T_FRAMES, T_HANDS, T_SCRATCH, T_STACK,
)
from simcore.solver.moves import representative
from simcore.solver.nil import nil_seat
from simcore.solver.position import (
    cards_in_hands, legal_cards, resolve_trick, seat_to_play, upper_bound,
)
from simcore.solver.search import can_reach


@nb.njit(cache=True)
def _exact(tab, tlen, leader, broken, depth, lo, hi, first, points):
    """Exact value of the position (bounds lo..hi known), by boolean searches "at least t?",
    the first at t = ``first`` (or the middle when it is outside lo+1..hi): counting tricks,
    DDS's way, from there one trick at a time; counting card points (``points``, a literal:
    see value_of), by a binary search.

    Counting tricks, a search after a failed one starts a new table generation: the failed
    search's entries (upper bounds) cannot settle the next, lower target where it matters, and
    keeping them cost a factor of 4 on some full deals (13 cards a seat, seed 21's deal 17:
    23.6M nodes against 6.0M; 40 such deals: 1.04M against 0.63M mean; 40 others 558k against
    570k).  After a success the entries stay: they order the next search's moves."""
    t = first if lo < first <= hi else (lo + hi + 1) // 2
    ok = True
    while lo < hi:
        if not points and not ok:  # after a failed search, a new generation (see above)
            tab[T_COUNTERS][N_GEN] += 1
        ok = can_reach(tab, tlen, leader, broken, t, depth, points)
        tab[T_COUNTERS][N_SEARCHES] += 1
        if tab[T_COUNTERS][N_ABORTED]:
            return -1
        b = tab[T_FRAMES][depth][F_BOUND]  # counting card points, a fail-soft bound beyond t
        if ok:
            lo = max(t, b) if points else t
        else:
            hi = min(t - 1, b) if points else t - 1
        t = (lo + hi + 1) // 2 if points else (t + 1 if ok else t - 1)
    return lo


@nb.njit(inline="always", cache=True)
def _exact_of(tab, tlen, leader, broken, depth, lo, hi, first, points):
    """``_exact`` with every number passed as a run-time int64 (and ``broken`` as a bool):
    Numba compiles a function once per literal argument, so callers passing constants such as
    0, -1 or False would otherwise compile the whole search again for each.  Only ``points``
    stays as the caller gives it (a literal: one search for each objective, see value_of)."""
    return _exact(tab, np.int64(tlen), np.int64(leader), np.bool_(broken), np.int64(depth),
                  np.int64(lo), np.int64(hi), np.int64(first), points)


# The public entry points below are inlined wrappers that pass every number on as a run-time
# int64 and ``broken`` as a bool (only ``points`` stays literal): each compile of an entry point
# optimises the whole search linked into it again, so one per literal constant or integer type
# of its callers would each cost a full copy.


@nb.njit(inline="always", cache=True)
def value_of(tab, tlen, leader, broken, points):
    """Exact value of the position set up in tab (see _value_of)."""
    return _value_of(tab, np.int64(tlen), np.int64(leader), np.bool_(broken), points)


@nb.njit(cache=True)
def _value_of(tab, tlen, leader, broken, points):
    """Exact value of the position set up in tab (hands in tab[T_HANDS], the trick in
    tab[T_STACK][:tlen], solver ids); ``points`` a literal (see above), true iff the position's
    cards carry points.

    Counting tricks, the first search asks for one trick less than half of them: searches that
    succeed keep their table entries for the next, one higher, and a failed one starts anew
    (see _exact), so starting below the value pays (full Spades deals, 13 tricks: 232k nodes
    mean from 5 against 252k from 7 on 40 deals, 259k against 264k on 40 others; a nil of 9
    cards 34k against 44k)."""
    ctx = tab[T_CTX]
    hi = upper_bound(ctx, tab[T_HANDS], tab[T_STACK], 0, tlen)
    if points:
        first = -1
    elif nil_seat(ctx) >= 0:
        first = 1  # a nil is worth 0-3 tricks: from "at least 1?" upwards
    else:
        first = hi // 2 - 1
    return _exact_of(tab, tlen, leader, broken, tlen, 0, hi, first, points)


@nb.njit(inline="always", cache=True)
def value_from_of(tab, tlen, leader, broken, first, points):
    """value_of with the first search at ``first`` (a guess of the game's below the value:
    see _value_of; outside 1..the most possible, value_of's start)."""
    return _value_from_of(tab, np.int64(tlen), np.int64(leader), np.bool_(broken),
                          np.int64(first), points)


@nb.njit(cache=True)
def _value_from_of(tab, tlen, leader, broken, first, points):
    ctx = tab[T_CTX]
    hi = upper_bound(ctx, tab[T_HANDS], tab[T_STACK], 0, tlen)
    if points or nil_seat(ctx) >= 0 or not 0 < first <= hi:
        return _value_of(tab, tlen, leader, broken, points)
    return _exact_of(tab, tlen, leader, broken, tlen, 0, hi, first, points)


@nb.njit(inline="always", cache=True)
def at_least_of(tab, tlen, leader, broken, target, points):
    """One boolean search of the position set up in tab (see _at_least_of)."""
    return _at_least_of(tab, np.int64(tlen), np.int64(leader), np.bool_(broken),
                        np.int64(target), points)


@nb.njit(cache=True)
def _at_least_of(tab, tlen, leader, broken, target, points):
    """One boolean search of the position set up in tab: 1 if the maximising side gets at
    least ``target`` from here with best play (a nil: if the nil seat can be made to take
    ``target`` tricks), 0 if not, -1 when the node budget ran out.  Far cheaper than the exact value
    when only a threshold matters: whether a nil holds (``target`` = 1), whether a side wins."""
    ok = can_reach(tab, np.int64(tlen), np.int64(leader), np.bool_(broken), np.int64(target),
                   np.int64(tlen), points)
    tab[T_COUNTERS][N_SEARCHES] += 1
    if tab[T_COUNTERS][N_ABORTED]:
        return -1
    return 1 if ok else 0


@nb.njit(inline="always", cache=True)
def value_between_of(tab, tlen, leader, broken, lo, hi, points):
    """Exact value of the position set up in tab when it is known to lie in lo..hi."""
    return _value_between_of(tab, np.int64(tlen), np.int64(leader), np.bool_(broken),
                             np.int64(lo), np.int64(hi), points)


@nb.njit(cache=True)
def _value_between_of(tab, tlen, leader, broken, lo, hi, points):
    return _exact_of(tab, tlen, leader, broken, tlen, lo, hi, -1, points)


@nb.njit(inline="always", cache=True)
def _around(value, hi, maxing):
    """(lo, hi, first threshold) for a card's value when the position is worth ``value`` and
    the card's value lies in 0..hi: at most that for a maximising mover, at least it otherwise."""
    if maxing:
        top = min(max(value, 0), hi)
        return 0, top, top
    low = min(max(value, 0), hi)
    return low, hi, low + 1


@nb.njit(inline="always", cache=True)
def move_values_of(tab, tlen, leader, broken, cards_out, values_out, points):
    """Every legal card of the player to move and its exact value (see _move_values_of)."""
    return _move_values_of(tab, np.int64(tlen), np.int64(leader), np.bool_(broken), cards_out,
                           values_out, points)


@nb.njit(cache=True)
def _move_values_of(tab, tlen, leader, broken, cards_out, values_out, points):
    """Every legal card of the player to move (solver ids) and the exact value after it; the
    number of cards, or -1 when the solve ran out of its node budget (see set_budget).

    The position's value v first: then no card is worth more than v to a maximising mover
    (less to a minimising one), so each card's value is searched from v on, one or two
    boolean searches for most cards, on the table entries v's search left (DDS finds every
    card's score the same way)."""
    ctx = tab[T_CTX]
    hands = tab[T_HANDS]
    stack = tab[T_STACK]
    cache = tab[T_SCRATCH]
    mover = seat_to_play(ctx, leader, tlen)
    root = _exact_of(tab, tlen, leader, broken, tlen, 0, upper_bound(ctx, hands, stack, 0, tlen),
                     1 if nil_seat(ctx) >= 0 else -1, points)
    if tab[T_COUNTERS][N_ABORTED]:
        return -1
    maxing = (ctx[C_MAX] >> mover) & 1
    legal = legal_cards(ctx, hands, stack, 0, tlen, mover, broken)
    inplay = cards_in_hands(ctx, hands)
    for i in range(tlen):
        inplay |= bit(stack[i])
    for c in range(64):
        cache[c] = -1
    k = 0
    m = legal
    restrict = ctx[C_RESTRICT]
    while m:
        c = lowest_bit(m)
        m &= m - np.uint64(1)
        rep = representative(ctx, hands, mover, inplay, c)
        if cache[rep] < 0:
            hands[mover] ^= bit(rep)
            stack[tlen] = rep
            nbroken = broken or (rep >> 4) == restrict
            if tlen + 1 == ctx[C_NACTIVE]:
                ws, v = resolve_trick(ctx, stack, 0, tlen + 1, leader)
                hi = upper_bound(ctx, hands, stack, tlen + 1, 0)
                lo, hi, first = _around(root - v, hi, maxing)
                cache[rep] = v + _exact_of(tab, 0, ws, nbroken, tlen + 1, lo, hi, first, points)
            else:
                hi = upper_bound(ctx, hands, stack, 0, tlen + 1)
                lo, hi, first = _around(root, hi, maxing)
                cache[rep] = _exact_of(tab, tlen + 1, leader, nbroken, tlen + 1, lo, hi, first,
                                       points)
            hands[mover] ^= bit(rep)
            if tab[T_COUNTERS][N_ABORTED]:
                return -1
        cards_out[k] = c
        values_out[k] = cache[rep]
        k += 1
    return k


@nb.njit(cache=True)
def position_bound(tab, tlen):
    """The most the count side could still get from the position set up in tab."""
    return upper_bound(tab[T_CTX], tab[T_HANDS], tab[T_STACK], 0, tlen)
