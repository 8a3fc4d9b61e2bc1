"""Counter-based random streams.

Every random draw of deal k in a run with master seed S comes from a stream whose state is a
pure function of (S, k) (or (S, game, hand_no) in game mode), so results never depend on
thread count, chunking or machine.  A stream is SplitMix64: the state is a 64-bit counter
advanced by a fixed odd constant and each output is a strong mix of the counter.

Kernels keep a stream's state in ``st[0]`` of a small uint64 array they own (one per worker
block), so policies can draw from the same per-deal stream without any allocation.
"""

import numba as nb
import numpy as np

GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_TAG_A = np.uint64(0xD1B54A32D192ED03)
_TAG_B = np.uint64(0x8CB92BA72F3D8DD7)
_TAG_C = np.uint64(0xABC98388FB8FAC03)


@nb.njit(cache=True)
def mix64(z):
    z = np.uint64(z)
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@nb.njit(cache=True)
def stream_key(seed, a, b, c):
    """The starting state of the stream named by (seed, a, b, c)."""
    k = mix64(np.uint64(seed) + GOLDEN)
    k = mix64(k ^ (np.uint64(a) * _TAG_A))
    k = mix64(k ^ (np.uint64(b) * _TAG_B))
    return mix64(k ^ (np.uint64(c) * _TAG_C))


@nb.njit(cache=True)
def policy_key(deal_key):
    """The key of the policies' sibling stream of a deal.

    The sum of two different mixes of the deal key has no simple inverse, so the state a
    policy holds does not lead back to the deal's stream (and so to the other hands).  This
    guards against accidents, not adversaries: it is not cryptographic.
    """
    k = np.uint64(deal_key)
    return mix64(k ^ _TAG_A) + mix64(k + _TAG_C)


@nb.njit(inline="always", cache=True)
def next_u64(st):
    s = st[0] + GOLDEN
    st[0] = s
    return mix64(s)


@nb.njit(inline="always", cache=True)
def below(st, n):
    """A uniform integer in [0, n) for 0 < n < 2**32 (bias below 2**-32 * n)."""
    r = next_u64(st) >> np.uint64(32)
    return np.int64((r * np.uint64(n)) >> np.uint64(32))


@nb.njit(inline="always", cache=True)
def uniform(st):
    """A uniform float in [0, 1) with 53 random bits."""
    return np.float64(next_u64(st) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@nb.njit(inline="always", cache=True)
def shuffle(st, deck, n):
    """Fisher-Yates shuffle of deck[:n] in place (n < 2**16).

    Each 64-bit output serves two swaps, 32 random bits each (Lemire's multiply-shift; the
    bias is below n / 2**32).
    """
    i = n - 1
    while i > 0:
        r = next_u64(st)
        j = np.int64(((r >> np.uint64(32)) * np.uint64(i + 1)) >> np.uint64(32))
        t = deck[i]
        deck[i] = deck[j]
        deck[j] = t
        i -= 1
        if i > 0:
            j = np.int64(((r & np.uint64(0xFFFFFFFF)) * np.uint64(i + 1)) >> np.uint64(32))
            t = deck[i]
            deck[i] = deck[j]
            deck[j] = t
            i -= 1
