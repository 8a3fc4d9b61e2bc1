"""Cheap-to-compile building blocks for the inlined per-card code.

Numba re-runs its untyped pipeline for every call site of an ``inline="always"`` function,
nested calls included, so inlined code that calls inlined helpers (``simcore.rng.below`` ->
``next_u64`` -> ``mix64``, ``simcore.cards.bit``) compiles for minutes.  These helpers are
ordinary jitted functions on scalars, compiled once and inlined by LLVM, so they cost nothing
at run time.  ``below`` is the one that must touch the stream array: it is inlined but calls
no inlined helper, and it draws exactly what :func:`simcore.rng.below` draws.
"""

import numba as nb
import numpy as np

from simcore.cards import lowest_bit, nth_bit, popcount
from simcore.rng import GOLDEN, mix64


@nb.njit(cache=True)
def scaled(state, n):
    """The value :func:`simcore.rng.below` derives from the advanced stream state."""
    r = mix64(state) >> np.uint64(32)
    return np.int64((r * np.uint64(n)) >> np.uint64(32))


@nb.njit(inline="always", cache=True)
def below(st, n):
    """A uniform integer in [0, n), identical to :func:`simcore.rng.below`."""
    s = st[0] + GOLDEN
    st[0] = s
    return scaled(s, n)


@nb.njit(cache=True)
def card_bit(c):
    return np.uint64(1) << np.uint64(c)


@nb.njit(cache=True)
def count(mask):
    return popcount(mask)


@nb.njit(cache=True)
def lowest(mask):
    return lowest_bit(mask)


@nb.njit(cache=True)
def pick(mask, n):
    """The n-th (0-based) card of ``mask``."""
    return nth_bit(mask, n)
