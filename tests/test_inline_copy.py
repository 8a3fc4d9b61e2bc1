"""simcore/_inline_copy.py: Numba's inlining with one IR copy per inlined function."""

import inspect

import numba as nb
import numpy as np
from numba.core import inline_closurecall

import simcore  # noqa: F401  (applies the replacement on import)
from simcore import _inline_copy


def test_the_replacement_is_applied_or_numba_no_longer_copies_per_block():
    current = inline_closurecall.InlineWorker.inline_ir
    if _inline_copy.applied:
        assert current is not _inline_copy.shipped
        assert _inline_copy._COPY_PER_BLOCK in inspect.getsource(_inline_copy.shipped)
    else:  # a Numba whose inline_ir differs is left as shipped: it must not be the old code
        assert _inline_copy._COPY_PER_BLOCK not in inspect.getsource(current)


@nb.njit(inline="always")
def _clip(x, lo, hi):
    if x < lo:
        return lo
    if x > hi:
        return hi
    return x


@nb.njit(inline="always")
def _score(a, i):
    total = 0
    for j in range(i + 1):
        total += _clip(a[j], 0, 5) * (j + 1)  # inlined inside an inlined function
    return total


@nb.njit
def _scores(a):
    out = np.empty(a.shape[0], np.int64)
    for i in range(a.shape[0]):
        # the same callee inlined at three sites: each copy gets its own variables
        out[i] = _score(a, i) - _clip(a[i], 1, 3) + _clip(a[i], -2, 2)
    return out


def test_inlined_functions_compute_what_python_computes():
    rng = np.random.default_rng(7)
    for _ in range(20):
        a = rng.integers(-10, 10, rng.integers(1, 12))
        expect = [_score.py_func(a, i) - _clip.py_func(a[i], 1, 3) + _clip.py_func(a[i], -2, 2)
                  for i in range(len(a))]
        assert _scores(a).tolist() == expect
