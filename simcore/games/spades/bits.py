"""A branch-free bit select for the random policy's hot path.

``simcore.cards.nth_bit`` clears low bits in a loop whose length is random, so every random
card costs a branch misprediction; this is Vigna's broadword select (byte sums, one compare
per byte, a 2 KB table for the last byte).  It lives here rather than in ``cards.py`` because
this package may not edit shared modules; it is a candidate to move there.
"""

import numba as nb
import numpy as np

from simcore.cards import popcount

_SELECT_IN_BYTE = np.zeros(256 * 8, np.uint8)
for _byte in range(256):
    for _rank, _pos in enumerate(i for i in range(8) if _byte >> i & 1):
        _SELECT_IN_BYTE[_byte | _rank << 8] = _pos

_ONES_8 = np.uint64(0x0101010101010101)
_MSBS_8 = np.uint64(0x8080808080808080)


@nb.njit(inline="always", cache=True)
def select_bit(x, k):
    """Index of the k-th (0-based, from the bottom) set bit of x; x must have more than k bits
    (and at most 127: true of any hand)."""
    x = np.uint64(x)
    s = x - ((x & np.uint64(0xAAAAAAAAAAAAAAAA)) >> np.uint64(1))
    s = (s & np.uint64(0x3333333333333333)) + ((s >> np.uint64(2)) & np.uint64(0x3333333333333333))
    s = (s + (s >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    s = s * _ONES_8  # byte i holds the number of set bits in bytes 0..i
    kk = np.uint64(k) * _ONES_8
    place = popcount(((kk | _MSBS_8) - s) & _MSBS_8) * 8  # bytes whose prefix sum is <= k
    rank = np.uint64(k) - (((s << np.uint64(8)) >> np.uint64(place)) & np.uint64(0xFF))
    byte = (x >> np.uint64(place)) & np.uint64(0xFF)
    return place + np.int64(_SELECT_IN_BYTE[np.int64(byte | (rank << np.uint64(8)))])
