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
from numba.core import types
from numba.extending import overload

from simcore.cards import bit, lowest_bit, popcount
from simcore.solver.context import (
    C_BUDGET, C_CONST, C_HASPTS, C_MAX, C_NACTIVE, C_POINTS, C_QUICK, C_QUICK_POINTS, C_RESTRICT,
    F_BOUND, F_BROKEN, F_I, F_KILLER, F_LEADER, F_MAX, F_MEMO, F_MOVER, F_N, F_SMALL, F_TARGET,
    F_TLEN, N_ABORTED, N_ALL_MOVES, N_CUT_FIRST, N_HITS, N_NODES, N_PROBES, N_QUICK, N_QUICK_CUTS,
    T_COUNTERS, T_CTX, T_EQUIV, T_FRAMES, T_HANDS, T_KEYBUF, T_MOVES, T_RELEVANT, T_SCORES,
    T_STACK,
)
from simcore.solver.cut_memory import has_memory, memo_after, memo_root, recall, remember
from simcore.solver.keys import make_key, make_key_tricks
from simcore.solver.last_tricks import last_trick, three_tricks, two_tricks
from simcore.solver.later import later_cut, most_trumps, sure_trumps
from simcore.solver.moves import gen_moves, groups_relied
from simcore.solver.nil import nil_bounds, nil_mid, nil_seat
from simcore.solver.points import point_bounds
from simcore.solver.position import (
    SUIT_FIELD, cards_in_hands, points_of, resolve_trick, seat_to_play, suit_bits, trick_relevant,
    upper_bound,
)
from simcore.solver.quick import quick_tricks, second_hand_cut
from simcore.solver.table import probe, rel_card, store

ENTER = -2  # can_reach: the frame is still to be opened by _enter


@nb.njit(inline="always", cache=True)
def _settle(frame, relevant, depth, result, bound, rel):
    """Settle a points node: its result, its fail-soft bound and the cards it relied on."""
    frame[F_BOUND] = bound
    relevant[depth] = rel
    return result


@nb.njit(inline="always", cache=True, _nrt=False)
def _boundary_points(tab, depth, leader, broken, target):
    """Open a trick-boundary node when cards carry points: (0/1 with its bound in F_BOUND and
    the cards it relied on in relevant[depth], or -1; the table's remembered best lead or -1).
    The last two or three tricks of five seats are solved whole (simcore.solver.last_tricks),
    the three after the table missed (their result is stored)."""
    ctx = tab[T_CTX]
    hands = tab[T_HANDS]
    frame = tab[T_FRAMES][depth]
    relevant = tab[T_RELEVANT]
    nactive = ctx[C_NACTIVE]
    left = cards_in_hands(ctx, hands)
    ncards = popcount(left)
    if ncards == 0:
        return _settle(frame, relevant, depth, 1 if target <= 0 else 0, 0, np.uint64(0)), -1
    if target <= 0:
        return _settle(frame, relevant, depth, 1, 0, np.uint64(0)), -1
    most = points_of(ctx, left) + (ncards // nactive) * ctx[C_CONST]  # every point in play
    if target > most:
        return _settle(frame, relevant, depth, 0, most, np.uint64(0)), -1
    if ncards == nactive:
        v, rel = last_trick(ctx, hands, leader)
        return _settle(frame, relevant, depth, 1 if v >= target else 0, v, rel), -1
    if ncards == 2 * nactive and nactive == 5:
        v, rel = two_tricks(ctx, hands, leader, target)
        return _settle(frame, relevant, depth, 1 if v >= target else 0, v, rel), -1
    if ctx[C_QUICK_POINTS]:
        r, bound, rel = point_bounds(ctx, hands, leader, broken, target, most, tab[T_COUNTERS])
        if r >= 0:
            return _settle(frame, relevant, depth, r, bound, rel), -1
    make_key(ctx, hands, leader, broken, tab[T_KEYBUF][depth])
    r, bound, rel, best = probe(tab, depth, target)
    tab[T_COUNTERS][N_PROBES] += 1
    if r >= 0:
        tab[T_COUNTERS][N_HITS] += 1
        return _settle(frame, relevant, depth, r, bound, rel), best
    if ncards == 3 * nactive and nactive == 5:
        v, rel = three_tricks(ctx, hands, leader, target, tab[T_SCORES][depth])
        r = 1 if v >= target else 0
        store(tab, depth, r, v + 1 - r, 255, rel)
        return _settle(frame, relevant, depth, r, v, rel), -1
    return -1, best


@nb.njit(inline="always", cache=True, _nrt=False)
def _trick_bounds(tab, depth, leader, broken, target, most):
    """1 or 0 when quick tricks, sure trumps or later tricks settle ``target`` at a trick
    boundary (trick counting, count side = max side), the cards relied on in
    relevant[depth]; else -1.  ``most`` is what the count side could still get."""
    ctx = tab[T_CTX]
    hands = tab[T_HANDS]
    relevant = tab[T_RELEVANT]
    per_trick = ctx[C_CONST]
    maxing = (ctx[C_MAX] >> leader) & 1
    need = (target + per_trick - 1) // per_trick if maxing else (most - target) // per_trick + 1
    q, rel = quick_tricks(ctx, hands, leader, broken, need)
    q *= per_trick
    tab[T_COUNTERS][N_QUICK] += 1
    if maxing:
        if q >= target:
            tab[T_COUNTERS][N_QUICK_CUTS] += 1
            relevant[depth] = rel
            return 1
    elif most - q < target:
        tab[T_COUNTERS][N_QUICK_CUTS] += 1
        relevant[depth] = rel
        return 0
    need = (target + per_trick - 1) // per_trick
    if most_trumps(ctx, hands, 1) * per_trick >= target:  # else no cut-off
        q, rel = sure_trumps(ctx, hands, 1, need)
        if q * per_trick >= target:
            relevant[depth] = rel
            return 1
    if most - most_trumps(ctx, hands, 0) * per_trick < target:
        q, rel = sure_trumps(ctx, hands, 0, (most - target) // per_trick + 1)
        if most - q * per_trick < target:
            relevant[depth] = rel
            return 0
    if ctx[C_NACTIVE] == 4:
        return later_cut(tab, depth, leader, target, most)
    return -1


@nb.njit(inline="always", cache=True, _nrt=False)
def _boundary_tricks(tab, depth, leader, broken, target):
    """Open a trick-boundary node when cards carry no points: (0/1 with the cards it relied on
    in relevant[depth], or -1; the table's remembered best lead or -1)."""
    ctx = tab[T_CTX]
    hands = tab[T_HANDS]
    relevant = tab[T_RELEVANT]
    if target <= 0:
        return 1, -1
    ncards = popcount(cards_in_hands(ctx, hands))
    if ncards == 0:
        return 0, -1
    most = upper_bound(ctx, hands, tab[T_STACK], depth, 0)
    if target > most:
        return 0, -1
    if ncards == ctx[C_NACTIVE]:
        v, rel = last_trick(ctx, hands, leader)
        relevant[depth] = rel
        return 1 if v >= target else 0, -1
    if ctx[C_QUICK]:
        r = _trick_bounds(tab, depth, leader, broken, target, most)
        if r >= 0:
            return r, -1
    elif nil_seat(ctx) >= 0:
        r, rel = nil_bounds(ctx, hands, nil_seat(ctx), leader, target)
        tab[T_COUNTERS][N_QUICK] += 1
        if r >= 0:
            tab[T_COUNTERS][N_QUICK_CUTS] += 1
            relevant[depth] = rel
            return r, -1
    make_key_tricks(ctx, hands, leader, broken, tab[T_KEYBUF][depth])
    r, _, rel, best = probe(tab, depth, target)
    tab[T_COUNTERS][N_PROBES] += 1
    if r >= 0:
        tab[T_COUNTERS][N_HITS] += 1
        relevant[depth] = rel
    return r, best


def _boundary(tab, depth, leader, broken, target, points):
    """Open a trick-boundary node: _boundary_points or _boundary_tricks by ``points``."""
    if points:
        return _boundary_points(tab, depth, leader, broken, target)
    return _boundary_tricks(tab, depth, leader, broken, target)


@overload(_boundary, inline="always", prefer_literal=True)
def _boundary_typed(tab, depth, leader, broken, target, points):
    """With ``points`` a literal (as the search is compiled, see interface.py), only that
    objective's boundary is typed and compiled: the other's bounds and end-game solvers (three
    or two tricks of five seats; quick, sure and later tricks, the nil bounds) would otherwise
    be compiled into every search, where they are dead code."""
    if isinstance(points, types.BooleanLiteral):
        if points.literal_value:
            return lambda tab, depth, leader, broken, target, points: _boundary_points(
                tab, depth, leader, broken, target)
        return lambda tab, depth, leader, broken, target, points: _boundary_tricks(
            tab, depth, leader, broken, target)
    return _boundary


@nb.njit(inline="always", cache=True, _nrt=False)
def _mid_trick(tab, depth, tlen, leader, target):
    """Open a node in the middle of a trick: (0/1 when the nil bounds or second hand's sure
    trick settle it, the cards relied on in relevant[depth], else -1; the seat to play)."""
    ctx = tab[T_CTX]
    mover = seat_to_play(ctx, leader, tlen)
    if nil_seat(ctx) >= 0:
        r, rel = nil_mid(ctx, tab[T_HANDS], tab[T_STACK], depth - tlen, tlen, leader,
                         nil_seat(ctx), target)
        if r >= 0:
            tab[T_RELEVANT][depth] = rel
            return r, mover
    if tlen == 1 and ctx[C_QUICK] and ctx[C_NACTIVE] == 4:
        return second_hand_cut(tab, depth, leader, mover, target), mover
    return -1, mover


@nb.njit(inline="always", cache=True, _nrt=False)
def _open(tab, depth, mover, best, points):
    """Make frame ``depth``'s move list: ``best`` (the table's remembered card, or -1; counting
    points, else the cut-move memory's) first."""
    ctx = tab[T_CTX]
    frame = tab[T_FRAMES][depth]
    tlen = frame[F_TLEN]
    frame[F_MOVER] = mover
    frame[F_MAX] = (ctx[C_MAX] >> mover) & 1
    frame[F_BOUND] = -1 if frame[F_MAX] else 1 << 20  # card points: the moves' best bound
    if points and has_memory(tab):
        if tlen == 0:
            frame[F_MEMO] = memo_root(frame[F_LEADER])
        if best < 0:
            best = recall(tab, depth, mover)
    n, equiv = gen_moves(ctx, tab[T_HANDS], tab[T_STACK], depth - tlen, tlen, frame[F_LEADER],
                         frame[F_BROKEN] != 0, mover, tab[T_MOVES][depth], tab[T_SCORES][depth],
                         best, frame[F_KILLER], points)
    frame[F_N] = n
    for s in range(4):
        frame[F_SMALL + s] = 0
    tab[T_EQUIV][depth] = equiv
    frame[F_I] = 0


@nb.njit(inline="always", cache=True, _nrt=False)
def _enter(tab, depth, points):
    """Open the node of frame ``depth``: a result from bounds or the table (0/1, with the cards
    it relied on in relevant[depth]), or -1 after generating its moves."""
    frame = tab[T_FRAMES][depth]
    tab[T_RELEVANT][depth] = 0
    tab[T_COUNTERS][N_NODES] += 1
    leader = frame[F_LEADER]
    target = frame[F_TARGET]
    best = -1
    if frame[F_TLEN] == 0:
        r, best = _boundary(tab, depth, leader, frame[F_BROKEN] != 0, target, points)
        mover = leader
    else:
        r, mover = _mid_trick(tab, depth, frame[F_TLEN], leader, target)
    if r >= 0:
        return r
    _open(tab, depth, mover, best, points)
    return -1


@nb.njit(cache=True, _nrt=False)
def _with_groups(tab, depth, rel):
    """Relevant cards of a node that tried every move, plus what its grouping of equivalent
    cards relied on (see moves.groups_relied)."""
    ctx = tab[T_CTX]
    hands = tab[T_HANDS]
    frame = tab[T_FRAMES][depth]
    tlen = frame[F_TLEN]
    inplay = cards_in_hands(ctx, hands)
    for i in range(tlen):
        inplay |= bit(tab[T_STACK][depth - tlen + i])
    return groups_relied(ctx, hands, frame[F_MOVER], inplay, tab[T_EQUIV][depth], rel)


@nb.njit(cache=True, _nrt=False)
def _small_limit(ctx, hands, suit, rel):
    """After a move of ``suit`` failed at a node: the rank below which every other card of the
    suit would fail the same way (DDS's "one small card per suit", Moves::MakeNext).  The node's
    results so far relied only on the cards of the suit at or above its lowest relevant card
    (in a points game, at or above its lowest point card too), so a card below both plays like
    the failed one.  16 when no card of the suit mattered."""
    ranks = (rel >> np.uint64(16 * suit)) & SUIT_FIELD
    if ctx[C_HASPTS]:
        m = cards_in_hands(ctx, hands) & suit_bits(suit)
        while m:
            c = lowest_bit(m)
            m &= m - np.uint64(1)
            if ctx[C_POINTS + c]:
                ranks |= bit(c & 15)
                break
    if ranks == 0:
        return 16
    return lowest_bit(ranks)


@nb.njit(inline="always", cache=True, _nrt=False)
def _play_next(tab, depth, points):
    """State r < 0 of frame ``depth``: play its next move that is not a small card already
    covered and push the child frame, (ENTER, depth + 1); or, with no move left, close the
    frame: (the result against its mover, depth)."""
    frame = tab[T_FRAMES][depth]
    i = frame[F_I]
    while i < frame[F_N]:  # skip the small cards already covered (see _small_limit)
        c = tab[T_MOVES][depth][i]
        if (c & 15) >= frame[F_SMALL + (c >> 4)]:
            break
        i += 1
    frame[F_I] = i
    if i == frame[F_N]:
        return _close(tab, depth, points), depth
    _play(tab, depth, tab[T_MOVES][depth][i], points)
    return ENTER, depth + 1


@nb.njit(inline="always", cache=True, _nrt=False)
def _close(tab, depth, points):
    """Frame ``depth`` tried every move and none gave its mover's side what it wants: its
    result (against the mover), the cards it relied on with its grouping's, stored."""
    frame = tab[T_FRAMES][depth]
    relevant = tab[T_RELEVANT]
    r = 1 - frame[F_MAX]
    tab[T_COUNTERS][N_ALL_MOVES + 3 * (frame[F_TLEN] > 0)] += 1
    if tab[T_EQUIV][depth]:
        relevant[depth] = _with_groups(tab, depth, relevant[depth])
    if frame[F_TLEN] == 0:
        store(tab, depth, r, frame[F_BOUND] + 1 - r if points else frame[F_TARGET], 255,
              relevant[depth])
    return r


@nb.njit(inline="always", cache=True, _nrt=False)
def _play(tab, depth, c, points):
    """Frame ``depth``'s mover plays card c: the child frame's trick, leader, target and broken
    flag (a completed trick resolved, its value taken off the target)."""
    ctx = tab[T_CTX]
    stack = tab[T_STACK]
    frame = tab[T_FRAMES][depth]
    child = tab[T_FRAMES][depth + 1]
    tab[T_HANDS][frame[F_MOVER]] ^= bit(c)
    stack[depth] = c
    child[F_BROKEN] = 1 if (frame[F_BROKEN] != 0 or (c >> 4) == ctx[C_RESTRICT]) else 0
    nactive = ctx[C_NACTIVE]
    if frame[F_TLEN] + 1 == nactive:
        winner, v = resolve_trick(ctx, stack, depth - frame[F_TLEN], nactive, frame[F_LEADER])
        child[F_TLEN] = 0
        child[F_LEADER] = winner
        child[F_TARGET] = frame[F_TARGET] - v
    else:
        child[F_TLEN] = frame[F_TLEN] + 1
        child[F_LEADER] = frame[F_LEADER]
        child[F_TARGET] = frame[F_TARGET]
        if points:
            child[F_MEMO] = memo_after(frame[F_MEMO], c, frame[F_TLEN])


@nb.njit(inline="always", cache=True, _nrt=False)
def _hand_up(tab, depth, result, points):
    """Frame ``depth`` (not the root) is decided, ``result`` 0/1: undo the parent's move and hand
    it the result.  A result the parent's mover wants settles the parent: (result, depth - 1);
    else the parent gathers the child's cards and bound and tries its next move:
    (-1, depth - 1)."""
    ctx = tab[T_CTX]
    hands = tab[T_HANDS]
    frames = tab[T_FRAMES]
    relevant = tab[T_RELEVANT]
    nactive = ctx[C_NACTIVE]
    child = relevant[depth]
    bound = frames[depth][F_BOUND] - frames[depth][F_TARGET]  # plus the target of the parent
    depth -= 1
    frame = frames[depth]
    bound += frame[F_TARGET]  # (the difference is the points of a trick just won)
    c = tab[T_MOVES][depth][frame[F_I]]
    if frame[F_TLEN] + 1 == nactive:
        child |= trick_relevant(ctx, tab[T_STACK], depth - frame[F_TLEN], nactive)
    hands[frame[F_MOVER]] ^= bit(c)
    if result == frame[F_MAX]:  # the move settles the node: only its line matters
        tab[T_COUNTERS][N_CUT_FIRST + (frame[F_I] > 0) + 3 * (frame[F_TLEN] > 0)] += 1
        relevant[depth] = child
        frame[F_KILLER] = c
        frame[F_BOUND] = bound
        if points and has_memory(tab):
            remember(tab, depth, frame[F_MOVER], c)
        if frame[F_TLEN] == 0:
            store(tab, depth, result, bound + 1 - result if points else frame[F_TARGET],
                  rel_card(hands, ctx, c), child)
        return result, depth
    relevant[depth] |= child
    frame[F_BOUND] = max(frame[F_BOUND], bound) if frame[F_MAX] else min(frame[F_BOUND], bound)
    suit = c >> 4
    if frame[F_SMALL + suit] == 0:
        low = _small_limit(ctx, hands, suit, relevant[depth])
        if (c & 15) < low:
            frame[F_SMALL + suit] = low
    frame[F_I] += 1
    return -1, depth


@nb.njit(inline="always", cache=True, _nrt=False)
def _over_budget(tab, depth, root):
    """Has the solve searched more nodes than its budget?  Then it is marked aborted and the
    cards played from the root are put back."""
    budget = tab[T_CTX][C_BUDGET]
    if budget <= 0 or tab[T_COUNTERS][N_NODES] <= budget:
        return False
    tab[T_COUNTERS][N_ABORTED] = 1
    frames = tab[T_FRAMES]
    for j in range(depth - 1, root - 1, -1):
        tab[T_HANDS][frames[j][F_MOVER]] ^= bit(tab[T_MOVES][j][frames[j][F_I]])
    return True


@nb.njit(cache=True, _nrt=False)
def can_reach(tab, tlen, leader, broken, target, root, points):
    """Can the max side get at least ``target`` from here (current trick included)?

    The position is tab's hands and the trick stack[root - tlen:root]; frames from ``root`` on
    are this search's.  Each node tries its moves in order and stops at the first whose result
    is the one its side wants (see the module's docstring for the frame states).

    Counting card points (``points``, a literal), the search is fail-soft:
    frames[root][F_BOUND] says more than the answer, the value is at least it when the answer
    is yes, at most it when no.  A node settled by a move takes that move's bound; a node whose
    moves all fail takes the best of their bounds for its side (the moves skipped as equivalent
    or as small cards would give the same, see _small_limit), and the table stores those
    bounds."""
    frame = tab[T_FRAMES][root]
    frame[F_TLEN] = tlen
    frame[F_LEADER] = leader
    frame[F_BROKEN] = 1 if broken else 0
    frame[F_TARGET] = target
    if points:  # a root in the middle of a trick: the cut-move memory's key of its trick
        trick_key = memo_root(leader)
        for k in range(tlen):
            trick_key = memo_after(trick_key, tab[T_STACK][root - tlen + k], k)
        frame[F_MEMO] = trick_key
    depth = root
    r = ENTER  # one call site of _enter, which is inlined (a call passed the whole table)
    while True:
        if r == ENTER:
            r = _enter(tab, depth, points)
            if r < 0 and depth > root and _over_budget(tab, depth, root):
                return False
        elif r < 0:
            r, depth = _play_next(tab, depth, points)
        elif depth == root:
            return r == 1
        else:
            r, depth = _hand_up(tab, depth, r, points)
