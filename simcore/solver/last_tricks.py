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
from simcore.solver.context import C_CONST, C_COUNT, C_MAX, C_NACTIVE, C_NEXT, C_POINTS, C_TRUMP
from simcore.solver.moves import groups_relied, lead_context, one_per_run, plain_follow_score
from simcore.solver.position import beats, cards_in_hands, points_of, suit_bits


@nb.njit(cache=True, _nrt=False)
def last_trick(ctx, hands, leader):
    """(the value of the final trick for the count side, at a boundary where every seat in play
    holds one card; the card whose rank decided it, none when no other card shared its suit)."""
    trump = ctx[C_TRUMP]
    best = lowest_bit(hands[leader])
    winner = leader
    pts = ctx[C_POINTS + best]
    seat = leader
    for _ in range(1, ctx[C_NACTIVE]):
        seat = ctx[C_NEXT + seat]
        c = lowest_bit(hands[seat])
        pts += ctx[C_POINTS + c]
        if beats(c, best, trump):
            best = c
            winner = seat
    same_suit = cards_in_hands(ctx, hands) & suit_bits(best >> 4) & ~bit(best)
    relied = bit(best) if same_suit else np.uint64(0)
    return (ctx[C_CONST] + pts if (ctx[C_COUNT] >> winner) & 1 else 0), relied


NOT_YET = 1 << 20  # a minimising seat's value before its first line (a maximiser's: -1)


@nb.njit(inline="always", cache=True)
def _fold(value, relied, child, child_relied, maxing, target):
    """A node of these searches given one more child (fail-soft value ``child``, the cards it
    relied on): (the node's value so far, its cards so far, settled?).  A child that gives the
    mover's side what it wants settles the node on that child's line alone; otherwise the node
    keeps the best value of its children for its side and the union of their cards, as the
    search does."""
    if (child >= target) if maxing else (child < target):
        return child, child_relied, True
    return (max(value, child) if maxing else min(value, child)), relied | child_relied, False


@nb.njit(inline="always", cache=True)
def _play_order(ctx, leader):
    """The five seats from ``leader`` on, and the same packed 3 bits a seat (for _seat_of)."""
    s1 = ctx[C_NEXT + leader]
    s2 = ctx[C_NEXT + s1]
    s3 = ctx[C_NEXT + s2]
    s4 = ctx[C_NEXT + s3]
    return leader, s1, s2, s3, s4, leader | (s1 << 3) | (s2 << 6) | (s3 << 9) | (s4 << 12)


@nb.njit(inline="always", cache=True)
def _trick_best(played, led, trump_bits):
    """The winning card of a complete trick (the cards ``played``, a mask, led in suit
    ``led``; ``trump_bits`` the trump suit's bits or 0): its highest trump, else its highest
    card of the led suit, whatever the order the cards came in (TF-8)."""
    trumps = played & trump_bits
    return highest_bit(trumps) if trumps else highest_bit(played & suit_bits(led))


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


@nb.njit(inline="always", cache=True)
def _follow_set(hand, led):
    """The cards of ``hand`` that may follow a trick led in suit ``led`` (TF-7: follow suit)."""
    same = hand & suit_bits(led)
    return same if same else hand


@nb.njit(inline="always", cache=True)
def _two_trick_line(ctx, hands, played, led, h0, h1, h2, h3, h4, seats):
    """(the value for the count side of one line of the last two tricks, the first trick being
    ``played`` (led in suit ``led``) and the second what the seats have left; the cards the
    value relied on: each trick's winning card when it won on rank)."""
    count = ctx[C_COUNT]
    trump = ctx[C_TRUMP]
    trump_bits = suit_bits(trump) if trump >= 0 else np.uint64(0)
    left = (h0 | h1 | h2 | h3 | h4) ^ played
    best = _trick_best(played, led, trump_bits)
    winner = _seat_of(best, h0, h1, h2, h3, h4, seats)
    pts = points_of(ctx, played)
    v = pts + ctx[C_CONST] if (count >> winner) & 1 else 0
    best2 = _trick_best(left, lowest_bit(hands[winner] & left) >> 4, trump_bits)  # led by winner
    if (count >> _seat_of(best2, h0, h1, h2, h3, h4, seats)) & 1:
        v += points_of(ctx, left) + ctx[C_CONST]
    return v, _won_on_rank(played, best) | _won_on_rank(left, best2)


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
    maxi = ctx[C_MAX]
    s0, s1, s2, s3, s4, seats = _play_order(ctx, leader)
    h0 = hands[s0]
    h1 = hands[s1]
    h2 = hands[s2]
    h3 = hands[s3]
    h4 = hands[s4]
    m0 = (maxi >> s0) & 1
    m1 = (maxi >> s1) & 1
    m2 = (maxi >> s2) & 1
    m3 = (maxi >> s3) & 1
    m4 = (maxi >> s4) & 1
    zero = np.uint64(0)
    one = np.uint64(1)
    g0 = -1 if m0 else NOT_YET
    r0 = zero
    a0 = h0
    while a0:
        c0 = lowest_bit(a0)
        a0 &= a0 - one
        led = c0 >> 4
        g1 = -1 if m1 else NOT_YET
        r1 = zero
        a1 = _follow_set(h1, led)
        while a1:
            c1 = lowest_bit(a1)
            a1 &= a1 - one
            g2 = -1 if m2 else NOT_YET
            r2 = zero
            a2 = _follow_set(h2, led)
            while a2:
                c2 = lowest_bit(a2)
                a2 &= a2 - one
                g3 = -1 if m3 else NOT_YET
                r3 = zero
                a3 = _follow_set(h3, led)
                while a3:
                    c3 = lowest_bit(a3)
                    a3 &= a3 - one
                    played = bit(c0) | bit(c1) | bit(c2) | bit(c3)
                    g4 = -1 if m4 else NOT_YET
                    r4 = zero
                    a4 = _follow_set(h4, led)
                    while a4:
                        c4 = lowest_bit(a4)
                        a4 &= a4 - one
                        v, rv = _two_trick_line(ctx, hands, played | bit(c4), led, h0, h1, h2,
                                                h3, h4, seats)
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
def _after_trick(ctx, hands, leader, target, trick_value, most):
    """(fail-soft value, cards relied on) of the last two tricks for ``target`` once a trick
    worth v to the count side has gone and ``most`` points are left: what the search's trick
    boundary gives there."""
    if target - trick_value <= 0:
        return trick_value, np.uint64(0)
    if target - trick_value > most:
        return trick_value + most, np.uint64(0)
    g, r = two_tricks(ctx, hands, leader, target - trick_value)
    return trick_value + g, r


@nb.njit(inline="always", cache=True)
def _insert(packed, c, score, scores):
    """Insert card c with score sc into the packed move list (count in bits 0-3, the cards 8
    bits each from bit 8, best first); ``scores`` is a 4-slot scratch of the scores so far."""
    n = packed & 15
    j = n
    while j > 0 and scores[j - 1] < score:
        scores[j] = scores[j - 1]
        j -= 1
    scores[j] = score
    low = packed & ((1 << (8 + 8 * j)) - 1) & ~15
    high = (packed >> (8 + 8 * j)) << (16 + 8 * j)
    return high | (c << (8 + 8 * j)) | low | (n + 1)


@nb.njit(inline="always", cache=True)
def _lead_order(ctx, hands, mover, scores):
    """The leader's cards in a plain lead order (cash a master no opponent can ruff, else low,
    keeping the point cards back), packed for three_tricks; and the cards left out as
    equivalent to a lower one."""
    _, ruffable, _ = lead_context(ctx, hands, mover)
    trump = ctx[C_TRUMP]
    hand = hands[mover]
    left = cards_in_hands(ctx, hands)
    packed = 0
    m, equiv = one_per_run(ctx, hand, left, hand)
    while m:
        c = lowest_bit(m)
        m &= m - np.uint64(1)
        suit = c >> 4
        strength = (c & 15) + (16 if suit == trump else 0)
        pts = ctx[C_POINTS + c]
        above = left & suit_bits(suit) & ~((bit(c) << np.uint64(1)) - np.uint64(1))
        if (above & ~hand) == 0:
            sc = 6000 - 3000 * ((ruffable >> suit) & 1) + 10 * pts
        else:
            sc = 3000 - strength - 40 * pts
        packed = _insert(packed, c, sc, scores)
    return packed, equiv


@nb.njit(inline="always", cache=True)
def _follow_order(ctx, hands, led, win_card, win_seat, mover, tlen, inplay, scores):
    """The follower's legal cards in the plain follow order of gen_moves (card points), packed
    for three_tricks, the trick's best card so far ``win_card`` played by ``win_seat``, the
    trick holding ``tlen`` cards; and the cards left out as equivalent to a lower one."""
    packed = 0
    hand = hands[mover]
    m, equiv = one_per_run(ctx, hand, inplay, _follow_set(hand, led))
    while m:
        c = lowest_bit(m)
        m &= m - np.uint64(1)
        sc = plain_follow_score(ctx, hands, c, led, win_card, win_seat, mover, tlen, 1)
        packed = _insert(packed, c, sc, scores)
    return packed, equiv


@nb.njit(inline="always", cache=True)
def _fifth_hand(ctx, hands, seat, trick, led, win_card, win_seat, inplay, target, scores):
    """The last seat's cards of the first of three tricks (the four before it ``trick``, the
    best so far ``win_card`` of ``win_seat``), each followed by the last two tricks: (its value,
    the cards relied on), as the other seats of three_tricks fold theirs."""
    maxing = (ctx[C_MAX] >> seat) & 1
    trump = ctx[C_TRUMP]
    value = -1 if maxing else NOT_YET
    relied = np.uint64(0)
    total = points_of(ctx, inplay)
    packed, equiv = _follow_order(ctx, hands, led, win_card, win_seat, seat, 4, inplay, scores)
    for i in range(packed & 15):
        c = (packed >> (8 + 8 * i)) & 255
        hands[seat] ^= bit(c)
        played = trick | bit(c)
        best, winner = (c, seat) if beats(c, win_card, trump) else (win_card, win_seat)
        pts = points_of(ctx, played)
        v = pts + ctx[C_CONST] if (ctx[C_COUNT] >> winner) & 1 else 0
        gv, rv = _after_trick(ctx, hands, winner, target, v, total - pts)
        hands[seat] ^= bit(c)
        value, relied, done = _fold(value, relied, gv, rv | _won_on_rank(played, best), maxing,
                                    target)
        if done:
            return value, relied
    return value, groups_relied(ctx, hands, seat, inplay, equiv, relied)  # every group tried


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
    maxi = ctx[C_MAX]
    trump = ctx[C_TRUMP]
    s0, s1, s2, s3, s4, _ = _play_order(ctx, leader)
    m0 = (maxi >> s0) & 1
    m1 = (maxi >> s1) & 1
    m2 = (maxi >> s2) & 1
    m3 = (maxi >> s3) & 1
    zero = np.uint64(0)
    inplay = cards_in_hands(ctx, hands)
    done = False
    g0 = -1 if m0 else NOT_YET
    r0 = zero
    p0, q0 = _lead_order(ctx, hands, s0, scores)
    for i0 in range(p0 & 15):
        c0 = (p0 >> (8 + 8 * i0)) & 255
        led = c0 >> 4
        hands[s0] ^= bit(c0)
        g1 = -1 if m1 else NOT_YET
        r1 = zero
        p1, q1 = _follow_order(ctx, hands, led, c0, s0, s1, 1, inplay, scores)
        for i1 in range(p1 & 15):
            c1 = (p1 >> (8 + 8 * i1)) & 255
            hands[s1] ^= bit(c1)
            w1, ws1 = (c1, s1) if beats(c1, c0, trump) else (c0, s0)
            g2 = -1 if m2 else NOT_YET
            r2 = zero
            p2, q2 = _follow_order(ctx, hands, led, w1, ws1, s2, 2, inplay, scores)
            for i2 in range(p2 & 15):
                c2 = (p2 >> (8 + 8 * i2)) & 255
                hands[s2] ^= bit(c2)
                w2, ws2 = (c2, s2) if beats(c2, w1, trump) else (w1, ws1)
                g3 = -1 if m3 else NOT_YET
                r3 = zero
                p3, q3 = _follow_order(ctx, hands, led, w2, ws2, s3, 3, inplay, scores)
                for i3 in range(p3 & 15):
                    c3 = (p3 >> (8 + 8 * i3)) & 255
                    hands[s3] ^= bit(c3)
                    w3, ws3 = (c3, s3) if beats(c3, w2, trump) else (w2, ws2)
                    g4, r4 = _fifth_hand(ctx, hands, s4, bit(c0) | bit(c1) | bit(c2) | bit(c3),
                                         led, w3, ws3, inplay, target, scores)
                    hands[s3] ^= bit(c3)
                    g3, r3, done = _fold(g3, r3, g4, r4, m3, target)
                    if done:
                        break
                if not done:  # every group tried
                    r3 = groups_relied(ctx, hands, s3, inplay, q3, r3)
                hands[s2] ^= bit(c2)
                g2, r2, done = _fold(g2, r2, g3, r3, m2, target)
                if done:
                    break
            if not done:  # every group tried
                r2 = groups_relied(ctx, hands, s2, inplay, q2, r2)
            hands[s1] ^= bit(c1)
            g1, r1, done = _fold(g1, r1, g2, r2, m1, target)
            if done:
                break
        if not done:  # every group tried
            r1 = groups_relied(ctx, hands, s1, inplay, q1, r1)
        hands[s0] ^= bit(c0)
        g0, r0, done = _fold(g0, r0, g1, r1, m0, target)
        if done:
            break
    if not done:
        r0 = groups_relied(ctx, hands, s0, inplay, q0, r0)
    return g0, r0
