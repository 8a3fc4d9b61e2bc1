"""The transposition table (DDS's TransTable): entries, buckets, probe and store.

Entries live in buckets of ``BUCKET`` slots, one bucket per base hash (simcore.solver.keys);
each slot has a tag (its hash with the solve's generation folded in, so stale entries never
match), the key's words, and four int32 words: a *sieve* (checked before the key's row), the
lower and upper bounds of the remaining value, and the best move found with the entry's weight.
:func:`probe` looks a position up for a target, :func:`store` records what a search found.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from simcore.cards import bit, lowest_bit, popcount
from simcore.solver.context import (
    BUCKET, C_FEWPTS, C_GAP, C_HASPTS, C_NACTIVE, C_NSEATS, C_POINTS, K_COUNTS, K_HANDS, K_TOP,
    N_EVICT, N_GEN, T_COUNTERS, T_CTX, T_FILL, T_HANDS, T_KEYBUF, T_KEYS, T_TAGS, T_VALS, V_BEST,
    V_HI, V_LO, V_SIEVE,
)
from simcore.solver.points import points_gap
from simcore.solver.position import SUIT_FIELD, cards_in_hands, suit_bits, suit_field


@nb.njit(inline="always", cache=True)
def _tag(hsh, gen):
    """An entry's tag: its hash with the generation folded in, so stale entries never match."""
    return (hsh ^ (np.uint64(gen) * np.uint64(0xD6E8FEB86659FD93))) | np.uint64(1)


@nb.njit(inline="always", cache=True)
def _bucket(tab, hsh):
    """The bucket of a base hash: its number (for T_FILL) and its first slot.  Five seats: the
    positions of three cards a seat in the last quarter of the buckets, of four cards a seat in
    the quarter before it, the others in the first half, so the many cheap entries near the end
    of play do not evict the earlier ones."""
    buckets = np.uint64(tab[T_FILL].shape[0])
    ctx = tab[T_CTX]
    if ctx[C_NACTIVE] == 5 and buckets >= 8:
        quarter = buckets // np.uint64(4)
        n = popcount(cards_in_hands(ctx, tab[T_HANDS]))
        if n <= 15:
            b = np.int64(buckets - quarter + hsh % quarter)
        elif n <= 20:
            b = np.int64(buckets - 2 * quarter + hsh % quarter)
        else:
            b = np.int64(hsh % (buckets - 2 * quarter))
    else:
        b = np.int64(hsh % buckets)
    return b, b * BUCKET


@nb.njit(inline="always", cache=True)
def _filled(tab, bucket):
    """Entries of this solve in ``bucket`` (they fill it from its first slot on)."""
    fill = tab[T_FILL][bucket]
    return min(fill & 255, BUCKET) if (fill >> 8) == tab[T_COUNTERS][N_GEN] else 0


@nb.njit(cache=True, _nrt=False)
def _victim(tab, bucket, base, gen):
    """The slot a new entry takes in the full ``bucket``: the oldest (DDS's round robin,
    TransTableL::CreateOrUpdate).  Evicting the entry nearest the end of play instead chose the
    bucket's first slot over and over once one base filled it (all of equal weight), so that
    base's new entries kept evicting each other while its stale ones stayed: after the search
    for one target the next one thrashed (a full 13-card deal: 5.9M nodes for "at least 2"
    alone, 56M after "at least 3").  A full bucket's fill counts on past BUCKET."""
    k = (tab[T_FILL][bucket] & 255) - BUCKET  # the low byte is BUCKET + k, k = 0..BUCKET-1
    tab[T_FILL][bucket] = gen * 256 + BUCKET + (k + 1) % BUCKET
    return base + k


@nb.njit(inline="always", cache=True)
def _top_holders(keybuf):
    """Per suit s (bits 4s..4s+3): the seats holding the suit's highest card in play (bits
    4s+2, 4s+3) and its second highest (bits 4s, 4s+1), from keybuf's relative hands of four
    seats."""
    out = 0
    for s in range(4):
        f0 = suit_field(keybuf[K_HANDS], s)
        f1 = suit_field(keybuf[K_HANDS + 1], s)
        f2 = suit_field(keybuf[K_HANDS + 2], s)
        n = popcount(f0 | f1 | f2 | suit_field(keybuf[K_HANDS + 3], s))
        for j in range(min(n, 2)):
            r = np.uint64(n - 1 - j)
            seat = 0 if (f0 >> r) & np.uint64(1) else 1 if (f1 >> r) & np.uint64(1) else \
                2 if (f2 >> r) & np.uint64(1) else 3
            out |= seat << (4 * s + 2 - 2 * j)
    return out


@nb.njit(inline="always", cache=True)
def _sieve(ctx, keybuf, top):
    """An entry's sieve (four seats; 0 = none): the holders of each suit's top two cards in
    play as far as the entry's top cards reach (_top_holders, 16 bits), under the mask of those
    bits (16 bits above).  A probe compares it with the position's holders before reading the
    entry's key: it sits beside the entry's bounds, while the key's row is one more cache miss
    (10 entries of the same base a probe on full Spades deals, nearly all of them not the
    position's)."""
    if ctx[C_NSEATS] != 4:
        return 0
    mask = 0
    for s in range(4):
        k = popcount(suit_field(top, s))
        if k >= 1:
            mask |= 0b1100 << (4 * s)
        if k >= 2:
            mask |= 0b0011 << (4 * s)
    return (mask << 16) | (_top_holders(keybuf) & mask)


@nb.njit(inline="always", cache=True)
def _matches_but_points(keys, slot, keybuf):
    """Does the entry in slot match the position of keybuf, its point counts and the point
    pattern of its top cards aside (see points_gap)?"""
    if keys[slot, 0] != keybuf[0] or keys[slot, 1] != keybuf[1]:
        return False
    top = keys[slot, K_TOP]
    for i in range(K_HANDS, K_HANDS + 5):
        if keys[slot, i] != (keybuf[i] & top):
            return False
    return True


@nb.njit(inline="always", cache=True)
def _matches(keys, slot, keybuf):
    """_matches_but_points, and the point counts and the top cards' point patterns equal."""
    if keys[slot, K_COUNTS] != keybuf[K_COUNTS] or not _matches_but_points(keys, slot, keybuf):
        return False
    top = keys[slot, K_TOP]
    return keys[slot, 2] == (keybuf[2] & top) and keys[slot, 3] == (keybuf[3] & top)


@nb.njit(cache=True, _nrt=False)
def _top_cards(hands, ctx, top):
    """The cards of the position at the relative top mask ``top`` (absolute solver ids)."""
    u = cards_in_hands(ctx, hands)
    out = np.uint64(0)
    for s in range(4):
        ts = (top >> np.uint64(16 * s)) & SUIT_FIELD
        if ts == 0:
            continue
        us = (u >> np.uint64(16 * s)) & SUIT_FIELD
        k = popcount(us) - popcount(ts)  # the lowest relevant card is the k-th lowest in play
        i = 0
        while us:
            b = lowest_bit(us)
            if i >= k:
                out |= bit(16 * s + b)
            us &= us - np.uint64(1)
            i += 1
    return out


@nb.njit(inline="always", cache=True, _nrt=False)
def probe(tab, depth, target):
    """(1 or 0 when a matching entry settles ``target``, else -1; the entry's bound that
    settles it, its lower bound when 1, its upper bound when 0; the settling entry's relevant
    cards; a remembered best card or -1) for the position whose key is in keybuf[depth]."""
    keys = tab[T_KEYS]
    vals = tab[T_VALS]
    keybuf = tab[T_KEYBUF][depth]
    tags = tab[T_TAGS]
    tag = _tag(keybuf[K_TOP], tab[T_COUNTERS][N_GEN])
    b, base = _bucket(tab, keybuf[K_TOP])
    best = -1
    held = _top_holders(keybuf) if tab[T_CTX][C_NSEATS] == 4 else 0
    gap = tab[T_CTX][C_GAP] != 0
    for j in range(_filled(tab, b)):
        slot = base + j
        if tags[slot] != tag:
            continue
        sieve = np.int64(vals[slot, V_SIEVE]) & 0xFFFFFFFF
        if (held & (sieve >> 16)) != (sieve & 0xFFFF):
            continue
        down = up = 0
        if gap:  # an entry of other point counts, its bounds widened (points_gap)
            if not _matches_but_points(keys, slot, keybuf):
                continue
            down, up = points_gap(keys, slot, keybuf)
        elif not _matches(keys, slot, keybuf):
            continue
        if vals[slot, V_LO] - down >= target:
            return 1, vals[slot, V_LO] - down, _top_cards(tab[T_HANDS], tab[T_CTX],
                                                          keys[slot, K_TOP]), best
        if vals[slot, V_HI] + up < target:
            return 0, vals[slot, V_HI] + up, _top_cards(tab[T_HANDS], tab[T_CTX],
                                                        keys[slot, K_TOP]), best
        rb = vals[slot, V_BEST] & 255
        if rb != 255 and best < 0:
            best = _abs_card(tab[T_HANDS], tab[T_CTX], rb)
    return -1, 0, np.uint64(0), best


@nb.njit(cache=True, _nrt=False)
def _top_mask(ctx, hands, relevant):
    """Relative top mask of the position: per suit, every card in play from the lowest
    relevant one up.  In a points game without C_FEWPTS the top also reaches down to every point
    card in play, so the cards left below it are all worth nothing and any of them plays like
    any other (with it, the key counts each seat's point cards instead: see K_COUNTS)."""
    u = cards_in_hands(ctx, hands)
    pointed = np.uint64(0)
    if ctx[C_HASPTS] and not ctx[C_FEWPTS]:
        m = u
        while m:
            c = lowest_bit(m)
            m &= m - np.uint64(1)
            if ctx[C_POINTS + c]:
                pointed |= bit(c)
    out = np.uint64(0)
    for s in range(4):
        us = (u >> np.uint64(16 * s)) & SUIT_FIELD
        if us == 0:
            continue
        rs = ((relevant | pointed) >> np.uint64(16 * s)) & SUIT_FIELD & us
        if rs == 0:
            continue
        n = popcount(us)
        k = popcount(us & (bit(lowest_bit(rs)) - np.uint64(1)))
        field = ((np.uint64(1) << np.uint64(n)) - np.uint64(1)) \
            & ~((np.uint64(1) << np.uint64(k)) - np.uint64(1))
        out |= field << np.uint64(16 * s)
    return out


@nb.njit(inline="always", cache=True, _nrt=False)
def store(tab, depth, result, target, best, relevant):
    """Record what the search of the boundary node of frame ``depth`` found for ``target``: into the
    entry with the same key and relevance, else over a stale or the lightest entry."""
    keys = tab[T_KEYS]
    vals = tab[T_VALS]
    ctx = tab[T_CTX]
    hands = tab[T_HANDS]
    keybuf = tab[T_KEYBUF][depth]
    gen = tab[T_COUNTERS][N_GEN]
    tags = tab[T_TAGS]
    tag = _tag(keybuf[K_TOP], gen)
    top = _top_mask(ctx, hands, relevant)
    b, base = _bucket(tab, keybuf[K_TOP])
    filled = _filled(tab, b)
    sieve = _sieve(ctx, keybuf, top)
    slot = -1
    for j in range(filled):
        t = base + j
        if tags[t] == tag and (np.int64(vals[t, V_SIEVE]) & 0xFFFFFFFF) == sieve \
                and keys[t, K_TOP] == top and _matches(keys, t, keybuf):
            slot = t
            break
    weight = popcount(cards_in_hands(ctx, hands))
    if slot < 0:
        if filled < BUCKET:
            slot = base + filled
            tab[T_FILL][b] = gen * 256 + filled + 1
        else:
            slot = _victim(tab, b, base, gen)
            tab[T_COUNTERS][N_EVICT] += 1
        tags[slot] = tag
        for i in range(2):
            keys[slot, i] = keybuf[i]
        for i in range(2, K_HANDS + 5):
            keys[slot, i] = keybuf[i] & top
        keys[slot, K_TOP] = top
        vals[slot, V_SIEVE] = sieve
        keys[slot, K_COUNTS] = keybuf[K_COUNTS]
        vals[slot, V_LO] = 0
        vals[slot, V_HI] = 1 << 20
    if result:
        vals[slot, V_LO] = max(vals[slot, V_LO], target)
    else:
        vals[slot, V_HI] = min(vals[slot, V_HI], target - 1)
    vals[slot, V_BEST] = (weight << 8) | best


@nb.njit(cache=True, _nrt=False)
def rel_card(hands, ctx, c):
    """c as (suit, relative rank among the cards in hands) for the table's best-move slot."""
    u = cards_in_hands(ctx, hands)
    s = c >> 4
    return 16 * s + popcount(u & (bit(c) - np.uint64(1)) & suit_bits(s))


@nb.njit(cache=True, _nrt=False)
def _abs_card(hands, ctx, rel):
    """Inverse of :func:`rel_card`, or -1."""
    u = cards_in_hands(ctx, hands)
    s = rel >> 4
    k = rel & 15
    us = (u >> np.uint64(16 * s)) & SUIT_FIELD
    i = 0
    while us:
        b = lowest_bit(us)
        if i == k:
            return 16 * s + b
        us &= us - np.uint64(1)
        i += 1
    return -1
