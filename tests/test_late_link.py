"""simcore/_late_link.py: large callee libraries linked after the caller's own optimisation."""

import inspect

import numba as nb
import numpy as np
from numba.core.codegen import CPUCodeLibrary

import simcore  # noqa: F401  (applies the replacement on import)
from simcore import _late_link


def test_the_replacement_is_applied_or_numba_finalizes_differently():
    current = CPUCodeLibrary.finalize
    if _late_link.applied:
        assert current is _late_link._finalize
        source = inspect.getsource(_late_link.shipped)
        assert all(part in source for part in _late_link._EXPECTED)
    else:  # a Numba whose finalize differs is left as shipped
        source = inspect.getsource(current)
        assert any(source.count(part) != 1 for part in _late_link._EXPECTED)


@nb.njit
def _collatz_steps(n):
    """A callee large enough to be linked late (its loop unrolled into many blocks)."""
    steps = 0
    while n != 1:
        n = n // 2 if n % 2 == 0 else 3 * n + 1
        steps += 1
    return steps


@nb.njit
def _big(a):
    # enough straight-line work that the library is well above _late_link.LARGE
    out = np.zeros(a.shape[0], np.int64)
    for i in range(a.shape[0]):
        x = a[i]
        for k in range(8):
            x = (x * 1103515245 + 12345 + k) & 0x7FFFFFFF  # stays in int64
            out[i] += _collatz_steps(1 + (x % 97)) + (x >> 7) % (k + 3)
        out[i] += np.sort(a)[i % a.shape[0]] + int(np.median(a)) + np.argmax(a) - np.argmin(a)
    return out


@nb.njit
def _small(x):
    return x * 3 + 1


@nb.njit
def _caller(a):
    # one large callee (linked after this library's optimisation) and one small (inlined)
    return _big(a).sum() + _small(a[0])


def test_a_caller_of_a_large_and_a_small_callee_computes_what_python_computes():
    before = _late_link.linked_late
    rng = np.random.default_rng(3)
    for _ in range(10):
        a = rng.integers(0, 1000, rng.integers(1, 20))
        assert _caller(a) == _big.py_func(a).sum() + _small.py_func(a[0])
    big_library = _big.overloads[_big.signatures[0]].library
    assert _late_link.instructions(big_library) > _late_link.LARGE
    if _late_link.applied:
        assert _late_link.linked_late > before  # _caller linked _big's library late
