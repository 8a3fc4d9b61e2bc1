"""The last tricks, solved without the search's frames and table.

:func:`last_trick` values the final trick.  Five seats counting card points (Trump Friend),
:func:`two_tricks` and :func:`three_tricks` search the last two or three tricks as boolean
searches over every line, cheaper than node by node through the table: they return a fail-soft
value (at least it when it reaches the target, at most it when not) and the cards they relied
on, as the search's nodes do.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from simcore.cards import bit, highest_bit, lowest_bit, popcount
from simcore.solver.context import (
    C_CONST, C_COUNT, C_MAX, C_NACTIVE, C_NEXT, C_NSEATS, C_POINTS, C_TRUMP,
)
from simcore.solver.moves import groups_relied, plays_like_lower
from simcore.solver.position import beats, cards_in_hands, points_of, suit_bits, suit_field


@nb.njit(cache=True, _nrt=False)
def last_trick(ctx, hands, leader):
    """Value of the final trick at a boundary where every seat in play holds one card."""
    trump = ctx[C_TRUMP]
    best = lowest_bit(hands[leader])
    ws = leader
    pts = ctx[C_POINTS + best]
    seat = leader
    for _ in range(1, ctx[C_NACTIVE]):
        seat = ctx[C_NEXT + seat]
        c = lowest_bit(hands[seat])
        pts += ctx[C_POINTS + c]
        if beats(c, best, trump):
            best = c
            ws = seat
    if (ctx[C_COUNT] >> ws) & 1:
        return ctx[C_CONST] + pts
    return 0


@nb.njit(cache=True, _nrt=False)
def last_trick_relevant(ctx, hands, leader):
    """The card whose rank decided the final trick (none when no other card shared its suit)."""
    trump = ctx[C_TRUMP]
    best = lowest_bit(hands[leader])
    seat = leader
    for _ in range(1, ctx[C_NACTIVE]):
        seat = ctx[C_NEXT + seat]
        c = lowest_bit(hands[seat])
        if beats(c, best, trump):
            best = c
    return _rank_winner(ctx, hands, best)


@nb.njit(cache=True, _nrt=False)
def _rank_winner(ctx, hands, best):
    for seat in range(ctx[C_NSEATS]):
        if hands[seat] & suit_bits(best >> 4) & ~bit(best):
            return bit(best)
    return np.uint64(0)


@nb.njit(inline="always", cache=True)
def _fold(g, r, v, rv, maxing, target):
    """A node of two_tricks given one more child (fail-soft value v, cards rv): (its value so
    far, its cards so far, settled?).  A child that gives the mover's side what it wants
    settles the node on that child's line alone; otherwise the node keeps the best value of
    its children for its side and the union of their cards, as the search does."""
    if (v >= target) if maxing else (v < target):
        return v, rv, True
    return (max(g, v) if maxing else min(g, v)), r | rv, False


@nb.njit(inline="always", cache=True)
def _trick_best(played, led, tb):
    """The winning card of a complete trick (the cards ``played``, a mask, led in suit
    ``led``; ``tb`` the trump suit's bits or 0): its highest trump, else its highest card of
    the led suit, whatever the order the cards came in (TF-8)."""
    tr = played & tb
    return highest_bit(tr) if tr else highest_bit(played & suit_bits(led))


@nb.njit(inline="always", cache=True)
def _won_on_rank(played, best):
    """The winning card ``best`` of the trick ``played`` if it won on rank over a card of its
    own suit, else nothing."""
    return bit(best) if popcount(played & suit_bits(best >> 4)) > 1 else np.uint64(0)


@nb.njit(inline="always", cache=True)
def _seat_of(c, h0, h1, h2, h3, h4, seats):
    """The seat (from ``seats``, 3 bits per play-order position) whose hand h0..h4 holds c."""
    b = bit(c)
    i = 0 if h0 & b else 1 if h1 & b else 2 if h2 & b else 3 if h3 & b else 4
    return (seats >> (3 * i)) & 7


@nb.njit(cache=True, _nrt=False)
def two_tricks(ctx, hands, leader, target):
    """The last two tricks of five seats (every seat holds two cards) as a boolean search for
    ``target`` over every line (at most 32): (a fail-soft value, at least it when it reaches
    ``target``, at most it when not; the cards it relied on).  A seat stops at its first card
    that gives its side what it wants, relying on that line's cards only (each trick's winning
    card when it won on rank over a card of its own suit); a seat without one relies on the
    union of its lines'.  Cheaper than searching these small trees node by node through the
    table, and cheaper still than valuing every line: the exact value of all 32 lines relied
    on the winners of every line, so the table entries above matched fewer positions.  Each
    line's tricks are read off masks (_trick_best: the highest trump, else the highest card of
    the led suit), the last trick being what the seats have left."""
    count = ctx[C_COUNT]
    maxi = ctx[C_MAX]
    const = ctx[C_CONST]
    trump = ctx[C_TRUMP]
    tb = suit_bits(trump) if trump >= 0 else np.uint64(0)
    s0 = leader
    s1 = ctx[C_NEXT + s0]
    s2 = ctx[C_NEXT + s1]
    s3 = ctx[C_NEXT + s2]
    s4 = ctx[C_NEXT + s3]
    seats = s0 | (s1 << 3) | (s2 << 6) | (s3 << 9) | (s4 << 12)
    h0 = hands[s0]
    h1 = hands[s1]
    h2 = hands[s2]
    h3 = hands[s3]
    h4 = hands[s4]
    u = h0 | h1 | h2 | h3 | h4
    ptot = points_of(ctx, u)
    m0 = (maxi >> s0) & 1
    m1 = (maxi >> s1) & 1
    m2 = (maxi >> s2) & 1
    m3 = (maxi >> s3) & 1
    m4 = (maxi >> s4) & 1
    zero = np.uint64(0)
    one = np.uint64(1)
    g0 = -1 if m0 else 1 << 20
    r0 = zero
    a0 = h0
    while a0:
        c0 = lowest_bit(a0)
        a0 &= a0 - one
        led = c0 >> 4
        p0 = bit(c0)
        g1 = -1 if m1 else 1 << 20
        r1 = zero
        a1 = _follow_set(h1, led)
        while a1:
            c1 = lowest_bit(a1)
            a1 &= a1 - one
            p1 = p0 | bit(c1)
            g2 = -1 if m2 else 1 << 20
            r2 = zero
            a2 = _follow_set(h2, led)
            while a2:
                c2 = lowest_bit(a2)
                a2 &= a2 - one
                p2 = p1 | bit(c2)
                g3 = -1 if m3 else 1 << 20
                r3 = zero
                a3 = _follow_set(h3, led)
                while a3:
                    c3 = lowest_bit(a3)
                    a3 &= a3 - one
                    p3 = p2 | bit(c3)
                    g4 = -1 if m4 else 1 << 20
                    r4 = zero
                    a4 = _follow_set(h4, led)
                    while a4:
                        c4 = lowest_bit(a4)
                        a4 &= a4 - one
                        played = p3 | bit(c4)
                        best = _trick_best(played, led, tb)
                        w = _seat_of(best, h0, h1, h2, h3, h4, seats)
                        pts = points_of(ctx, played)
                        v = pts + const if (count >> w) & 1 else 0
                        rest = u ^ played  # the last trick, led by w
                        best2 = _trick_best(rest, lowest_bit(hands[w] & rest) >> 4, tb)
                        w2 = _seat_of(best2, h0, h1, h2, h3, h4, seats)
                        if (count >> w2) & 1:
                            v += ptot - pts + const
                        rv = _won_on_rank(played, best) | _won_on_rank(rest, best2)
                        g4, r4, done = _fold(g4, r4, v, rv, m4, target)
                        if done:
                            break
                    g3, r3, done = _fold(g3, r3, g4, r4, m3, target)
                    if done:
                        break
                g2, r2, done = _fold(g2, r2, g3, r3, m2, target)
                if done:
                    break
            g1, r1, done = _fold(g1, r1, g2, r2, m1, target)
            if done:
                break
        g0, r0, done = _fold(g0, r0, g1, r1, m0, target)
        if done:
            break
    return g0, r0


@nb.njit(inline="always", cache=True)
def _follow_set(h, led):
    """The cards of hand h that may follow a trick led in suit ``led`` (TF-7: follow suit)."""
    same = h & suit_bits(led)
    return same if same else h


@nb.njit(inline="always", cache=True)
def _after_trick(ctx, hands, leader, target, v, hi):
    """(fail-soft value, cards relied on) of the last two tricks for ``target`` once a trick
    worth v to the count side has gone and ``hi`` points are left: what the search's trick
    boundary gives there (_enter_points)."""
    if target - v <= 0:
        return v, np.uint64(0)
    if target - v > hi:
        return v + hi, np.uint64(0)
    g, r = two_tricks(ctx, hands, leader, target - v)
    return v + g, r


@nb.njit(inline="always", cache=True)
def _insert(packed, c, sc, scores):
    """Insert card c with score sc into the packed move list (count in bits 0-3, the cards 8
    bits each from bit 8, best first); ``scores`` is a 4-slot scratch of the scores so far."""
    n = packed & 15
    j = n
    while j > 0 and scores[j - 1] < sc:
        scores[j] = scores[j - 1]
        j -= 1
    scores[j] = sc
    low = packed & ((1 << (8 + 8 * j)) - 1) & ~15
    high = (packed >> (8 + 8 * j)) << (16 + 8 * j)
    return high | (c << (8 + 8 * j)) | low | (n + 1)


@nb.njit(inline="always", cache=True)
def _lead_order(ctx, hands, mover, scores):
    """The leader's cards in the plain lead order of gen_moves (cash a master nobody can
    ruff, else low, keeping the point cards back), packed for three_tricks."""
    trump = ctx[C_TRUMP]
    maxi = ctx[C_MAX]
    h = hands[mover]
    u = cards_in_hands(ctx, hands)
    ruffable = 0
    if trump >= 0:
        for t in range(ctx[C_NSEATS]):
            ht = hands[t]
            if t != mover and ((maxi >> t) & 1) != ((maxi >> mover) & 1) \
                    and (ht & suit_bits(trump)):
                for s in range(4):
                    if (ht & suit_bits(s)) == 0:
                        ruffable |= 1 << s
    packed = 0
    equiv = np.uint64(0)
    m = h
    while m:
        c = lowest_bit(m)
        m &= m - np.uint64(1)
        if plays_like_lower(ctx, h, u, c):
            equiv |= bit(c)
            continue
        st = c >> 4
        strength = (c & 15) + (16 if st == trump else 0)
        pts = ctx[C_POINTS + c]
        above = u & suit_bits(st) & ~((bit(c) << np.uint64(1)) - np.uint64(1))
        if (above & ~h) == 0:
            sc = 6000 - 3000 * ((ruffable >> st) & 1) + 10 * pts
        else:
            sc = 3000 - strength - 40 * pts
        packed = _insert(packed, c, sc, scores)
    return packed, equiv


@nb.njit(inline="always", cache=True)
def _beaten_later(ctx, hands, led, wcard, winner, mover, k):
    """overtaken for three_tricks's order: can a seat of the other side still to play take
    the trick from ``winner`` (holding ``wcard``)?"""
    trump = ctx[C_TRUMP]
    count = ctx[C_COUNT]
    side = (count >> winner) & 1
    ws = wcard >> 4
    seat = mover
    for _ in range(4 - k):
        seat = ctx[C_NEXT + seat]
        if ((count >> seat) & 1) == side:
            continue
        ht = hands[seat]
        follow = suit_field(ht, led)
        if follow:
            if ws == led and (follow >> np.uint64(wcard & 15)) > np.uint64(1):
                return True
        elif trump >= 0:
            tr = suit_field(ht, trump)
            if tr and (ws != trump or (tr >> np.uint64(wcard & 15)) > np.uint64(1)):
                return True
    return False


@nb.njit(inline="always", cache=True)
def _follow_order(ctx, hands, legal, led, w, ws, mover, leader, k, u, scores):
    """The follower's legal cards in the plain follow order of gen_moves (Trump Friend),
    packed for three_tricks; w, ws: the trick's best card so far and its seat, k: the cards
    already in the trick."""
    trump = ctx[C_TRUMP]
    count = ctx[C_COUNT]
    mover_max = (ctx[C_MAX] >> mover) & 1
    last_hand = k == ctx[C_NACTIVE] - 1
    packed = 0
    equiv = np.uint64(0)
    h = hands[mover]
    m = legal
    while m:
        c = lowest_bit(m)
        m &= m - np.uint64(1)
        if plays_like_lower(ctx, h, u, c):
            equiv |= bit(c)
            continue
        strength = (c & 15) + (16 if (c >> 4) == trump else 0)
        pts = ctx[C_POINTS + c]
        wins = beats(c, w, trump)
        winner = mover if wins else ws
        wcard = c if wins else w
        ours = ((count >> winner) & 1) == mover_max
        safe = last_hand or not _beaten_later(ctx, hands, led, wcard, winner, mover, k)
        if ours and safe:
            sc = (8000 if not wins else 7000) - strength + 40 * pts
        elif ours and not last_hand:
            sc = 4500 + strength - 40 * pts
        elif ours:
            sc = 5000 - strength
        elif safe or last_hand:
            sc = 4000 - strength - 40 * pts
        else:
            sc = 3500 - strength - 40 * pts
        packed = _insert(packed, c, sc, scores)
    return packed, equiv


@nb.njit(cache=True, _nrt=False)
def three_tricks(ctx, hands, leader, target, scores):
    """The last three tricks of five seats (every seat holds three cards) as a boolean search
    for ``target`` over every line of the first of them, each followed by two_tricks: (a
    fail-soft value, at least it when it reaches ``target``, at most it when not; the cards it
    relied on), as two_tricks returns them.  One card of each group of equivalent cards is
    tried (no small-card skips), in the search's plain order, so each seat's result relies on
    what its lines relied on (the first trick's winning card when it won on rank over a card
    of its own suit, and the last two tricks' cards) and, when it tried every group, on what
    its grouping relied on (groups_relied).  ``hands`` is changed during the search
    and restored; ``scores`` is scratch (4 slots)."""
    count = ctx[C_COUNT]
    maxi = ctx[C_MAX]
    const = ctx[C_CONST]
    trump = ctx[C_TRUMP]
    s0 = leader
    s1 = ctx[C_NEXT + s0]
    s2 = ctx[C_NEXT + s1]
    s3 = ctx[C_NEXT + s2]
    s4 = ctx[C_NEXT + s3]
    seats = s0 | (s1 << 3) | (s2 << 6) | (s3 << 9) | (s4 << 12)
    m0 = (maxi >> s0) & 1
    m1 = (maxi >> s1) & 1
    m2 = (maxi >> s2) & 1
    m3 = (maxi >> s3) & 1
    m4 = (maxi >> s4) & 1
    zero = np.uint64(0)
    tb = suit_bits(trump) if trump >= 0 else np.uint64(0)
    h0 = hands[s0]
    h1 = hands[s1]
    h2 = hands[s2]
    h3 = hands[s3]
    h4 = hands[s4]
    u = h0 | h1 | h2 | h3 | h4
    total = points_of(ctx, u)
    done = False
    g0 = -1 if m0 else 1 << 20
    r0 = zero
    p0, q0 = _lead_order(ctx, hands, s0, scores)
    for i0 in range(p0 & 15):
        c0 = (p0 >> (8 + 8 * i0)) & 255
        led = c0 >> 4
        hands[s0] ^= bit(c0)
        g1 = -1 if m1 else 1 << 20
        r1 = zero
        p1, q1 = _follow_order(ctx, hands, _follow_set(hands[s1], led), led, c0, s0, s1, s0, 1,
                           u, scores)
        for i1 in range(p1 & 15):
            c1 = (p1 >> (8 + 8 * i1)) & 255
            hands[s1] ^= bit(c1)
            w1, ws1 = (c1, s1) if beats(c1, c0, trump) else (c0, s0)
            g2 = -1 if m2 else 1 << 20
            r2 = zero
            p2, q2 = _follow_order(ctx, hands, _follow_set(hands[s2], led), led, w1, ws1, s2, s0, 2,
                               u, scores)
            for i2 in range(p2 & 15):
                c2 = (p2 >> (8 + 8 * i2)) & 255
                hands[s2] ^= bit(c2)
                w2, ws2 = (c2, s2) if beats(c2, w1, trump) else (w1, ws1)
                g3 = -1 if m3 else 1 << 20
                r3 = zero
                p3, q3 = _follow_order(ctx, hands, _follow_set(hands[s3], led), led, w2, ws2, s3, s0,
                                   3, u, scores)
                for i3 in range(p3 & 15):
                    c3 = (p3 >> (8 + 8 * i3)) & 255
                    hands[s3] ^= bit(c3)
                    w3, ws3 = (c3, s3) if beats(c3, w2, trump) else (w2, ws2)
                    g4 = -1 if m4 else 1 << 20
                    r4 = zero
                    p4, q4 = _follow_order(ctx, hands, _follow_set(hands[s4], led), led, w3, ws3, s4,
                                       s0, 4, u, scores)
                    for i4 in range(p4 & 15):
                        c4 = (p4 >> (8 + 8 * i4)) & 255
                        hands[s4] ^= bit(c4)
                        played = bit(c0) | bit(c1) | bit(c2) | bit(c3) | bit(c4)
                        best = _trick_best(played, led, tb)
                        w = _seat_of(best, h0, h1, h2, h3, h4, seats)
                        p = points_of(ctx, played)
                        v = p + const if (count >> w) & 1 else 0
                        gv, rv = _after_trick(ctx, hands, w, target, v, total - p)
                        hands[s4] ^= bit(c4)
                        g4, r4, done = _fold(g4, r4, gv, rv | _won_on_rank(played, best), m4,
                                             target)
                        if done:
                            break
                    if not done:  # every group tried
                        r4 = groups_relied(ctx, hands, s4, u, q4, r4)
                    hands[s3] ^= bit(c3)
                    g3, r3, done = _fold(g3, r3, g4, r4, m3, target)
                    if done:
                        break
                if not done:  # every group tried
                    r3 = groups_relied(ctx, hands, s3, u, q3, r3)
                hands[s2] ^= bit(c2)
                g2, r2, done = _fold(g2, r2, g3, r3, m2, target)
                if done:
                    break
            if not done:  # every group tried
                r2 = groups_relied(ctx, hands, s2, u, q2, r2)
            hands[s1] ^= bit(c1)
            g1, r1, done = _fold(g1, r1, g2, r2, m1, target)
            if done:
                break
        if not done:  # every group tried
            r1 = groups_relied(ctx, hands, s1, u, q1, r1)
        hands[s0] ^= bit(c0)
        g0, r0, done = _fold(g0, r0, g1, r1, m0, target)
        if done:
            break
    if not done:
        r0 = groups_relied(ctx, hands, s0, u, q0, r0)
    return g0, r0
