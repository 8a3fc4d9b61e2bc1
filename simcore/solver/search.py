"""The boolean search (DDS's ABsearch): "can the maximising side get at least ``target`` from
here?", over an explicit stack of frames.

A zero-window alpha-beta without recursion: Numba's cache cannot relink recursive functions,
and a loop avoids the call overhead.  Frame ``d`` (words ``F_*`` of ``tab[T_FRAMES][d]``)
describes the node after ``d`` cards were played from the root position (``tab[T_STACK][:d]``
holds them, the current trick being the last ``F_TLEN``).  :func:`can_reach` drives each frame
through three states, kept in ``r``:

* ``ENTER``: open the frame (:func:`_enter`): settle it from bounds or the table (``r`` = 0/1),
  or generate its moves (``r`` = -1);
* ``r < 0``: play the frame's next move (skipping small cards already covered) and push the
  child frame in state ``ENTER``; with no move left, the frame fails for its mover's side;
* ``r`` = 0/1: the frame is decided; pop it, undo its parent's move and hand the result up: a
  result the parent's mover wants settles the parent (a cut), else the parent tries its next
  move.

Each frame also gathers the cards its result relied on (``tab[T_RELEVANT][d]``), which decide
how widely its table entry applies, and, counting card points, a fail-soft bound
(``F_BOUND``, see simcore.solver.points).
"""

from __future__ import annotations

import numba as nb
import numpy as np

from simcore.cards import bit, lowest_bit, popcount
from simcore.solver.context import (
    C_BUDGET, C_CONST, C_HASPTS, C_MAX, C_NACTIVE, C_NEXT, C_POINTS, C_QUICK, C_QUICK_POINTS,
    C_RESTRICT, F_BOUND, F_BROKEN, F_I, F_KILLER, F_LEADER, F_MAX, F_MEMO, F_MOVER, F_N, F_SMALL,
    F_TARGET, F_TLEN, N_ABORTED, N_ALL_MOVES, N_CUT_FIRST, N_HITS, N_NODES, N_PROBES, N_QUICK,
    N_QUICK_CUTS, T_COUNTERS, T_CTX, T_EQUIV, T_FRAMES, T_HANDS, T_KEYBUF, T_MOVES, T_RELEVANT,
    T_SCORES, T_STACK,
)
from simcore.solver.cut_memory import has_memory, memo_after, memo_root, recall, remember
from simcore.solver.keys import make_key, make_key_tricks
from simcore.solver.last_tricks import last_trick, last_trick_relevant, three_tricks, two_tricks
from simcore.solver.later import later_cut, most_trumps, sure_trumps
from simcore.solver.moves import gen_moves, representative
from simcore.solver.nil import nil_bounds, nil_mid, nil_seat
from simcore.solver.points import quick_points, sure_lower_points, sure_points
from simcore.solver.position import (
    SUIT_FIELD, cards_in_hands, points_of, resolve_trick, suit_bits, trick_relevant, upper_bound,
)
from simcore.solver.quick import quick_tricks, second_hand_cut
from simcore.solver.table import probe, rel_card, store

ENTER = -2  # can_reach: the frame is still to be opened by _enter


@nb.njit(inline="always", cache=True)
def _settle(f, relevant, d, r, bound, rel):
    """Settle a points node: result r, its fail-soft bound and the cards it relied on."""
    f[F_BOUND] = bound
    relevant[d] = rel
    return r


@nb.njit(inline="always", cache=True, _nrt=False)
def _enter_points(tab, d):
    """The trick-boundary part of :func:`_enter` when cards carry points: (0/1 with its bound
    in F_BOUND and the cards it relied on in relevant[d], or -1; the table's remembered best
    lead or -1)."""
    ctx = tab[T_CTX]
    hands = tab[T_HANDS]
    f = tab[T_FRAMES][d]
    relevant = tab[T_RELEVANT]
    leader = f[F_LEADER]
    target = f[F_TARGET]
    nactive = ctx[C_NACTIVE]
    u = cards_in_hands(ctx, hands)
    ncards = popcount(u)
    if ncards == 0:
        return _settle(f, relevant, d, 1 if target <= 0 else 0, 0, np.uint64(0)), -1
    if target <= 0:
        return _settle(f, relevant, d, 1, 0, np.uint64(0)), -1
    hi = points_of(ctx, u) + (ncards // nactive) * ctx[C_CONST]  # every point in play
    if target > hi:
        return _settle(f, relevant, d, 0, hi, np.uint64(0)), -1
    if ncards == nactive:
        v = last_trick(ctx, hands, leader)
        return _settle(f, relevant, d, 1 if v >= target else 0, v,
                       last_trick_relevant(ctx, hands, leader)), -1
    if ncards == 2 * nactive and nactive == 5:
        v, rel = two_tricks(ctx, hands, leader, target)
        return _settle(f, relevant, d, 1 if v >= target else 0, v, rel), -1
    if ctx[C_QUICK_POINTS]:
        q, rq = sure_points(ctx, hands, 1)
        if q >= target:
            return _settle(f, relevant, d, 1, q, rq), -1
        q0, rq0 = sure_points(ctx, hands, 0)
        if hi - q0 < target:
            return _settle(f, relevant, d, 0, hi - q0, rq0), -1
        q, rq = sure_lower_points(ctx, hands, 1, q, target)
        if q >= target:
            return _settle(f, relevant, d, 1, q, rq), -1
        q, rq = sure_lower_points(ctx, hands, 0, q0, hi - target + 1)
        if hi - q < target:
            return _settle(f, relevant, d, 0, hi - q, rq), -1
        q, rq = quick_points(ctx, hands, leader, f[F_BROKEN] != 0)
        tab[T_COUNTERS][N_QUICK] += 1
        if (ctx[C_MAX] >> leader) & 1:
            if q >= target:
                tab[T_COUNTERS][N_QUICK_CUTS] += 1
                return _settle(f, relevant, d, 1, q, rq), -1
        elif hi - q < target:
            tab[T_COUNTERS][N_QUICK_CUTS] += 1
            return _settle(f, relevant, d, 0, hi - q, rq), -1
    make_key(ctx, hands, leader, f[F_BROKEN] != 0, tab[T_KEYBUF][d])
    r, bound, rel, best = probe(tab, d, target)
    tab[T_COUNTERS][N_PROBES] += 1
    if r >= 0:
        tab[T_COUNTERS][N_HITS] += 1
        return _settle(f, relevant, d, r, bound, rel), best
    if ncards == 3 * nactive and nactive == 5:
        v, rel = three_tricks(ctx, hands, leader, target, tab[T_SCORES][d])
        r = 1 if v >= target else 0
        store(tab, d, r, v + 1 - r, 255, rel)
        return _settle(f, relevant, d, r, v, rel), -1
    return -1, best


@nb.njit(inline="always", cache=True, _nrt=False)
def _enter(tab, d, points):
    """Open the node of frame d: a result from bounds or the table (0/1, with the cards it
    relied on in relevant[d]), or -1 after generating its moves."""
    ctx = tab[T_CTX]
    hands = tab[T_HANDS]
    f = tab[T_FRAMES][d]
    relevant = tab[T_RELEVANT]
    relevant[d] = 0
    tab[T_COUNTERS][N_NODES] += 1
    tlen = f[F_TLEN]
    leader = f[F_LEADER]
    broken = f[F_BROKEN] != 0
    target = f[F_TARGET]
    best = -1
    if tlen == 0 and points:
        r, best = _enter_points(tab, d)
        if r >= 0:
            return r
        mover = leader
    elif tlen == 0:
        if target <= 0:
            return 1
        u = cards_in_hands(ctx, hands)
        ncards = popcount(u)
        if ncards == 0:
            return 0
        hi = upper_bound(ctx, hands, tab[T_STACK], d, 0)
        if target > hi:
            return 0
        if ncards == ctx[C_NACTIVE]:
            relevant[d] = last_trick_relevant(ctx, hands, leader)
            return 1 if last_trick(ctx, hands, leader) >= target else 0
        if ctx[C_QUICK]:
            maxing = (ctx[C_MAX] >> leader) & 1
            need = (target + ctx[C_CONST] - 1) // ctx[C_CONST] if maxing else \
                (hi - target) // ctx[C_CONST] + 1
            q, rq = quick_tricks(ctx, hands, leader, broken, need)
            q *= ctx[C_CONST]
            tab[T_COUNTERS][N_QUICK] += 1
            if maxing:
                if q >= target:
                    tab[T_COUNTERS][N_QUICK_CUTS] += 1
                    relevant[d] = rq
                    return 1
            elif hi - q < target:
                tab[T_COUNTERS][N_QUICK_CUTS] += 1
                relevant[d] = rq
                return 0
            need = (target + ctx[C_CONST] - 1) // ctx[C_CONST]
            if most_trumps(ctx, hands, 1) * ctx[C_CONST] >= target:  # else no cut-off
                q, rq = sure_trumps(ctx, hands, 1, need)
                if q * ctx[C_CONST] >= target:
                    relevant[d] = rq
                    return 1
            if hi - most_trumps(ctx, hands, 0) * ctx[C_CONST] < target:
                q, rq = sure_trumps(ctx, hands, 0, (hi - target) // ctx[C_CONST] + 1)
                if hi - q * ctx[C_CONST] < target:
                    relevant[d] = rq
                    return 0
            if ctx[C_NACTIVE] == 4:
                r = later_cut(tab, d, leader, target, hi)
                if r >= 0:
                    return r
        elif nil_seat(ctx) >= 0:
            r, rq = nil_bounds(ctx, hands, nil_seat(ctx), leader, target)
            tab[T_COUNTERS][N_QUICK] += 1
            if r >= 0:
                tab[T_COUNTERS][N_QUICK_CUTS] += 1
                relevant[d] = rq
                return r
        make_key_tricks(ctx, hands, leader, broken, tab[T_KEYBUF][d])
        r, _, rel, best = probe(tab, d, target)
        tab[T_COUNTERS][N_PROBES] += 1
        if r >= 0:
            tab[T_COUNTERS][N_HITS] += 1
            relevant[d] = rel
            return r
        mover = leader
    else:
        if nil_seat(ctx) >= 0:
            r, rq = nil_mid(ctx, hands, tab[T_STACK], d - tlen, tlen, leader, nil_seat(ctx),
                             target)
            if r >= 0:
                relevant[d] = rq
                return r
        mover = leader
        for _ in range(tlen):
            mover = ctx[C_NEXT + mover]
        if tlen == 1 and ctx[C_QUICK] and ctx[C_NACTIVE] == 4:
            r = second_hand_cut(tab, d, leader, mover, target)
            if r >= 0:
                return r
    f[F_MOVER] = mover
    f[F_MAX] = (ctx[C_MAX] >> mover) & 1
    f[F_BOUND] = -1 if f[F_MAX] else 1 << 20  # card points: the best bound of the moves tried
    if points and has_memory(tab):
        if tlen == 0:
            f[F_MEMO] = memo_root(leader)
        if best < 0:
            best = recall(tab, d, mover)
    n, equiv = gen_moves(ctx, hands, tab[T_STACK], d - tlen, tlen, leader, broken, mover,
                          tab[T_MOVES][d], tab[T_SCORES][d], best, f[F_KILLER], points)
    f[F_N] = n
    for s in range(4):
        f[F_SMALL + s] = 0
    tab[T_EQUIV][d] = equiv
    f[F_I] = 0
    return -1


@nb.njit(cache=True, _nrt=False)
def _with_groups(tab, d, rel):
    """Relevant cards of a node that tried every move, plus what its grouping of equivalent
    cards relied on: a group reaching the relevant top cards of its suit is only one group as
    long as its lowest card is a top card too.  A group wholly below them stays a group in
    every position the entry covers (those low cards never decide a trick)."""
    ctx = tab[T_CTX]
    hands = tab[T_HANDS]
    f = tab[T_FRAMES][d]
    tlen = f[F_TLEN]
    inplay = cards_in_hands(ctx, hands)
    for i in range(tlen):
        inplay |= bit(tab[T_STACK][d - tlen + i])
    eq = tab[T_EQUIV][d]
    out = rel
    while eq:
        c = lowest_bit(eq)
        eq &= eq - np.uint64(1)
        rs = rel & suit_bits(c >> 4)
        if rs and c >= lowest_bit(rs):
            out |= bit(representative(ctx, hands, f[F_MOVER], inplay, c))
    return out


@nb.njit(cache=True, _nrt=False)
def _small_limit(ctx, hands, s, rel):
    """After a move of suit s failed at a node: the rank below which every other card of s
    would fail the same way (DDS's "one small card per suit", Moves::MakeNext).  The node's
    results so far relied only on the cards of s at or above its lowest relevant card (in a
    points game, at or above its lowest point card too), so a card below both plays like the
    failed one.  16 when no card of s mattered."""
    rs = (rel >> np.uint64(16 * s)) & SUIT_FIELD
    if ctx[C_HASPTS]:
        m = cards_in_hands(ctx, hands) & suit_bits(s)
        while m:
            c = lowest_bit(m)
            m &= m - np.uint64(1)
            if ctx[C_POINTS + c]:
                rs |= bit(c & 15)
                break
    if rs == 0:
        return 16
    return lowest_bit(rs)


@nb.njit(cache=True, _nrt=False)
def can_reach(tab, tlen, leader, broken, target, depth, points):
    """Can the max side get at least ``target`` from here (current trick included)?

    The position is tab's hands and the trick stack[depth - tlen:depth].  An explicit stack of
    frames, one per card played, instead of recursion (Numba's cache cannot relink recursive
    functions, and the loop avoids call overhead): each node tries its moves in order and stops
    at the first whose result is the one its side wants.  Each frame also gathers the cards
    its result relied on (relevant[d]), which decide how widely its table entry applies.

    Counting card points, the search is fail-soft: frames[depth][F_BOUND] says more than the
    answer, the value is at least it when the answer is yes, at most it when no.  A node
    settled by a move takes that move's bound; a node whose moves all fail takes the best of
    their bounds for its side (the moves skipped as equivalent or as small cards would give
    the same, see _small_limit), and the table stores those bounds."""
    ctx = tab[T_CTX]
    hands = tab[T_HANDS]
    stack = tab[T_STACK]
    frames = tab[T_FRAMES]
    relevant = tab[T_RELEVANT]
    restrict = ctx[C_RESTRICT]
    nactive = ctx[C_NACTIVE]
    soft = points
    d = depth
    f = frames[d]
    f[F_TLEN] = tlen
    f[F_LEADER] = leader
    f[F_BROKEN] = 1 if broken else 0
    f[F_TARGET] = target
    if points:  # a root in the middle of a trick: the cut-move memory's key of its trick
        m = memo_root(leader)
        for k in range(tlen):
            m = memo_after(m, stack[d - tlen + k], k)
        f[F_MEMO] = m
    r = ENTER  # one call site of _enter, which is inlined (a call passed the whole table)
    while True:
        if r == ENTER:
            r = _enter(tab, d, points)
            if r < 0 and d > depth and ctx[C_BUDGET] > 0 and \
                    tab[T_COUNTERS][N_NODES] > ctx[C_BUDGET]:
                tab[T_COUNTERS][N_ABORTED] = 1
                for j in range(d - 1, depth - 1, -1):  # put the cards played back
                    hands[frames[j][F_MOVER]] ^= bit(tab[T_MOVES][j][frames[j][F_I]])
                return False
        elif r < 0:  # try the frame's next move, or close it when none is left
            f = frames[d]
            i = f[F_I]
            while i < f[F_N]:  # skip the small cards already covered (see _small_limit)
                c = tab[T_MOVES][d][i]
                if (c & 15) >= f[F_SMALL + (c >> 4)]:
                    break
                i += 1
            f[F_I] = i
            if i == f[F_N]:
                r = 1 - f[F_MAX]
                tab[T_COUNTERS][N_ALL_MOVES + 3 * (f[F_TLEN] > 0)] += 1
                if tab[T_EQUIV][d]:
                    relevant[d] = _with_groups(tab, d, relevant[d])
                if f[F_TLEN] == 0:
                    store(tab, d, r, f[F_BOUND] + 1 - r if soft else f[F_TARGET], 255,
                           relevant[d])
                continue
            c = tab[T_MOVES][d][i]
            hands[f[F_MOVER]] ^= bit(c)
            stack[d] = c
            g = frames[d + 1]
            g[F_BROKEN] = 1 if (f[F_BROKEN] != 0 or (c >> 4) == restrict) else 0
            if f[F_TLEN] + 1 == nactive:
                ws, v = resolve_trick(ctx, stack, d - f[F_TLEN], nactive, f[F_LEADER])
                g[F_TLEN] = 0
                g[F_LEADER] = ws
                g[F_TARGET] = f[F_TARGET] - v
            else:
                g[F_TLEN] = f[F_TLEN] + 1
                g[F_LEADER] = f[F_LEADER]
                g[F_TARGET] = f[F_TARGET]
                if points:
                    g[F_MEMO] = memo_after(f[F_MEMO], c, f[F_TLEN])
            d += 1
            r = ENTER
        else:  # frame d is decided: r; hand it to its parent
            if d == depth:
                return r == 1
            child = relevant[d]
            bound = frames[d][F_BOUND] - frames[d][F_TARGET]  # plus the target of the parent
            d -= 1
            f = frames[d]
            bound += f[F_TARGET]  # (the difference is the points of a trick just won)
            c = tab[T_MOVES][d][f[F_I]]
            if f[F_TLEN] + 1 == nactive:
                child |= trick_relevant(ctx, stack, d - f[F_TLEN], nactive)
            hands[f[F_MOVER]] ^= bit(c)
            if r == f[F_MAX]:  # the move settles the node: only its line matters
                tab[T_COUNTERS][N_CUT_FIRST + (f[F_I] > 0) + 3 * (f[F_TLEN] > 0)] += 1
                relevant[d] = child
                f[F_KILLER] = c
                f[F_BOUND] = bound
                if points and has_memory(tab):
                    remember(tab, d, f[F_MOVER], c)
                if f[F_TLEN] == 0:
                    store(tab, d, r, bound + 1 - r if soft else f[F_TARGET],
                           rel_card(hands, ctx, c), child)
            else:
                relevant[d] |= child
                f[F_BOUND] = max(f[F_BOUND], bound) if f[F_MAX] else min(f[F_BOUND], bound)
                s = c >> 4
                if f[F_SMALL + s] == 0:
                    low = _small_limit(ctx, hands, s, relevant[d])
                    if (c & 15) < low:
                        f[F_SMALL + s] = low
                f[F_I] += 1
                r = -1
