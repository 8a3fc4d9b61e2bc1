"""The transposition key of a position at a trick boundary.

An entry says: for every position with this *base* (leader, broken flag, each seat's suit
lengths, and in a points game the point pattern) whose top cards of each suit, down to the
entry's lowest relevant card, are held by the same seats (in relative ranks), the remaining
value lies in lo..hi.  The lower cards only count by their number: the search below the entry
never let one of them decide a trick (DDS's "winning ranks", Haglund).  Key words:
0-1 base, 2-3 the point pattern (which relative ranks carry points with bit 0 / bit 1 set)
masked to the top, 4-8 the seats' relative hands masked to the relevant top cards, 9 that top
mask, 10 (C_FEWPTS games) each seat's point cards by suit (points.point_counts).  The per-depth
key buffer holds the base, the unmasked pattern and hands, the hash (word 9) and the counts.

Card points: the lower cards count by their number and, when C_FEWPTS, by the points each seat
holds in them (word 10 with the top's pattern fixes them): the proof below the entry never let
a lower card decide a trick, so any position whose lower cards are the same seats' cards of
the same points, in whatever rank order, plays alike trick for trick, points included (Trump
Friend: which seat holds the K and which the Q below the top does not matter).  Without
C_FEWPTS the top reaches down to every point card in play (table.top_mask) and the pattern is
part of the hash.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from simcore.cards import bit, lowest_bit, popcount
from simcore.solver.context import (
    C_FEWPTS, C_GAP, C_NSEATS, C_POINTS, C_RESTRICT, K_COUNTS, K_HANDS, K_TOP,
)
from simcore.solver.points import point_counts
from simcore.solver.position import cards_in_hands, suit_bits, suit_field



@nb.njit(cache=True, _nrt=False)
def make_key(ctx, hands, leader, broken, keybuf):
    """Base and relative-rank hands of the position into keybuf; returns the hash of the base."""
    u = cards_in_hands(ctx, hands)
    p1 = np.uint64(0)
    p2 = np.uint64(0)
    lengths = np.uint64(0)
    lengths4 = np.uint64(0)
    for seat in range(5):
        rel = np.uint64(0)
        if seat < ctx[C_NSEATS]:
            m = hands[seat]
            for s in range(4):
                n_s = np.uint64(popcount(m & suit_bits(s)))
                if seat < 4:
                    lengths |= n_s << np.uint64(16 * seat + 4 * s)
                else:
                    lengths4 |= n_s << np.uint64(4 * s)
            while m:
                c = lowest_bit(m)
                low = m & (~m + np.uint64(1))
                s = c >> 4
                below = u & (low - np.uint64(1)) & suit_bits(s)
                rb = bit(16 * s + popcount(below))
                rel |= rb
                pts = ctx[C_POINTS + c]
                if pts & 1:
                    p1 |= rb
                if pts & 2:
                    p2 |= rb
                m ^= low
        keybuf[K_HANDS + seat] = rel
    return _key_base(ctx, hands, keybuf, lengths, lengths4, leader, broken, p1, p2)


@nb.njit(inline="always", cache=True)
def _key_base(ctx, hands, keybuf, lengths, lengths4, leader, broken, ones, twos):
    """The base words of a key into keybuf (seat lengths, leader and broken flag, points
    pattern) and its hash (also into keybuf[K_TOP]), returned."""
    meta = lengths4 | (np.uint64(leader) << np.uint64(16))
    if ctx[C_RESTRICT] >= 0 and broken:
        meta |= np.uint64(1) << np.uint64(20)
    keybuf[0] = lengths
    keybuf[1] = meta
    keybuf[2] = ones
    keybuf[3] = twos
    keybuf[K_COUNTS] = point_counts(ctx, hands) if ctx[C_FEWPTS] else np.uint64(0)
    hsh = np.uint64(0)
    for i in range(4):  # the pattern is not hashed when the counts stand for it (see above),
        w = keybuf[K_COUNTS] if (i == 2 and ctx[C_FEWPTS]) else keybuf[i]  # nor the counts
        if (i == 3 and ctx[C_FEWPTS]) or (i == 2 and ctx[C_GAP]):  # when entries apply
            w = np.uint64(0)  # across them (C_GAP, counts_gap)
        hsh = (hsh ^ w) * np.uint64(0x9E3779B97F4A7C15)
        hsh ^= hsh >> np.uint64(29)
    keybuf[K_TOP] = hsh
    return hsh


def _compress_table():
    """_COMPRESS[u, h]: the cards h of a 7-bit stretch u of a suit's cards in play, as
    relative ranks (the k-th lowest card of u is bit k)."""
    t = np.zeros((128, 128), np.uint8)
    for u in range(128):
        ranks = [b for b in range(7) if u >> b & 1]
        for k, b in enumerate(ranks):
            t[u, np.arange(128)[(np.arange(128) >> b) & 1 == 1]] |= np.uint8(1 << k)
    return t


_COMPRESS = _compress_table()
HIGH_STRENGTHS = np.uint64(0xC000C000C000C000)  # strengths 14-15: beyond _compress's two stretches


@nb.njit(inline="always", cache=True)
def _compress(cards, in_play):
    """The cards h (one suit field, within u, strengths 0-13) as relative ranks among u:
    two table look-ups instead of a loop over the cards."""
    ul = in_play & np.uint64(127)
    return np.uint64(_COMPRESS[ul, cards & np.uint64(127)]) | (
        np.uint64(_COMPRESS[(in_play >> np.uint64(7)) & np.uint64(127),
                            (cards >> np.uint64(7)) & np.uint64(127)])
        << np.uint64(popcount(ul)))


@nb.njit(cache=True, _nrt=False)
def make_key_tricks(ctx, hands, leader, broken, keybuf):
    """:func:`make_key` for four seats and no card points (Spades, Euchre), the same key:
    each seat's relative hand by table look-ups per suit (_compress), not card by card."""
    u = hands[0] | hands[1] | hands[2] | hands[3]
    if u & HIGH_STRENGTHS or ctx[C_NSEATS] != 4:
        return make_key(ctx, hands, leader, broken, keybuf)
    lengths = np.uint64(0)
    for seat in range(4):
        m = hands[seat]
        rel = np.uint64(0)
        for s in range(4):
            hs = suit_field(m, s)
            lengths |= np.uint64(popcount(hs)) << np.uint64(16 * seat + 4 * s)
            if hs:
                rel |= _compress(hs, suit_field(u, s)) << np.uint64(16 * s)
        keybuf[K_HANDS + seat] = rel
    keybuf[K_HANDS + 4] = 0
    return _key_base(ctx, hands, keybuf, lengths, np.uint64(0), leader, broken, np.uint64(0),
                     np.uint64(0))
