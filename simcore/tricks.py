"""Shared trick-taking kernels: legal cards and trick winners.

Engines work on *internal* card ids: ``13 * suit + strength`` where, within a suit, a higher
bit is a stronger card under that game's rank order (Trump Friend's 3-2-A-K-...-4, Spades'
A-K-...-2, Euchre's bowers).  :class:`RankOrder` builds the permutation between the public ids of
:mod:`simcore.cards` and the internal ones, so a game converts once at its boundary and every
comparison inside the hot loop is a plain integer comparison.

``trump`` is a suit 0-3, or any other value (by convention 4 or -1) for no trump.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from simcore.cards import RANKS, SUIT_BITS, bit, highest_bit, suit_mask


class RankOrder:
    """A rank order within each suit, lowest first, e.g. ``"456789TJQKA23"``.

    ``to_internal[c]`` maps a public card id to the internal id, ``to_public`` back.
    """

    def __init__(self, low_to_high: str):
        if sorted(low_to_high) != sorted(RANKS):
            raise ValueError(f"rank order must use each of {RANKS} once")
        strength = {r: i for i, r in enumerate(low_to_high)}
        self.low_to_high = low_to_high
        self.to_internal = np.empty(52, np.int64)
        for c in range(52):
            self.to_internal[c] = 13 * (c // 13) + strength[RANKS[c % 13]]
        self.to_public = np.empty(52, np.int64)
        self.to_public[self.to_internal] = np.arange(52)
        # 13-bit suit pattern (internal order) -> the same cards as a public 13-bit pattern
        self.suit_to_public = np.zeros(1 << 13, np.uint64)
        perm = [self.to_public[r] for r in range(13)]  # internal rank -> public rank (suit 0)
        for pattern in range(1 << 13):
            self.suit_to_public[pattern] = sum(1 << perm[r] for r in range(13) if pattern >> r & 1)


@nb.njit(cache=True)
def remap_hand(mask, table):
    """Re-express a hand bitmask through a card-id permutation ``table``."""
    out = np.uint64(0)
    m = np.uint64(mask)
    while m:
        low = m & (~m + np.uint64(1))
        c = highest_bit(low)
        out |= bit(table[c])
        m ^= low
    return out


@nb.njit(inline="always", cache=True)
def remap_by_suit(mask, suit_table):
    """Re-express a hand through a per-suit rank permutation table (4 look-ups)."""
    out = np.uint64(0)
    for s in range(4):
        out |= suit_table[suit_mask(mask, s)] << np.uint64(13 * s)
    return out


@nb.njit(cache=True)
def follow_mask(hand, led_suit):
    """Legal cards when ``led_suit`` was led: that suit if held, otherwise the whole hand."""
    same = np.uint64(hand) & (SUIT_BITS << np.uint64(13 * led_suit))
    return same if same else np.uint64(hand)


@nb.njit(cache=True)
def beats(card, best, trump):
    """Does ``card`` beat the trick's current best card ``best`` (internal ids)?

    The led suit is implied: ``best`` is either of the led suit or a trump, so a card beats
    it only by being higher in the same suit, or a trump over a non-trump.
    """
    cs = card // 13
    bs = best // 13
    if cs == bs:
        return card > best
    return cs == trump


@nb.njit(cache=True)
def beating(cards, best, trump):
    """The cards of the mask ``cards`` that beat ``best`` (:func:`beats` on each at once):
    the higher cards of its suit, and every trump when it is not a trump."""
    bs = best // 13
    above = np.uint64(best % 13 + 1)
    out = ((suit_mask(cards, bs) >> above) << above) << np.uint64(13 * bs)
    if bs != trump:
        out |= suit_mask(cards, trump) << np.uint64(13 * trump)
    return out


@nb.njit(inline="always", cache=True)
def trick_winner_at(cards, start, n, trump):
    """Position (0..n-1) of the winning card among ``cards[start:start+n]``, the first led.

    Engines keep the current trick inside a larger state array; indexing at an offset avoids
    a slice, whose reference counting costs more than the comparison itself.  Branch-free:
    each card gets the key trump > led suit > other, then strength, with its position in the
    low bits, and the largest key wins (the same winner as comparing with ``beats``; the
    unpredictable compare-and-branch cost more than the rest of the trick).
    """
    led = cards[start] // 13
    best = np.int64(0)
    for i in range(n):
        c = cards[start + i]
        s = c // 13
        key = ((np.int64(s == trump) * 64 + np.int64(s == led) * 32 + c % 13) << 4) + i
        best = max(best, key)
    return best & 15


@nb.njit(inline="always", cache=True)
def trick_winner(cards, n, trump):
    """Position (0..n-1) of the winning card among ``cards[:n]``, ``cards[0]`` led."""
    return trick_winner_at(cards, 0, n, trump)


@nb.njit(cache=True)
def highest_in_suit(mask, suit):
    """Internal id of the strongest card of ``suit`` in ``mask`` (-1 if none)."""
    s = suit_mask(mask, suit)
    if s == 0:
        return -1
    return 13 * suit + highest_bit(s)


@nb.njit(cache=True)
def is_master(card, unseen):
    """True when no card in ``unseen`` (cards not played and not held) beats ``card`` in suit."""
    s = card // 13
    above = suit_mask(unseen, s) >> np.uint64(card % 13 + 1)
    return above == 0
