"""Run a check on the plain oracle and on ``simcore.solve`` alike (the solver tests' helpers)."""

import pytest

import simcore
from reference import open_hand as oracle


def fast(*args, **kwargs):
    return simcore.solve(*args, **kwargs)


def solved(solver, *args, **kwargs):
    """(value, {card: value}) from either solver."""
    if solver is oracle.solve:
        return oracle.solve(*args, **kwargs)
    sol = fast(*args, **kwargs)
    return int(sol.value), {int(c): int(v) for c, v in sol.moves.items()}


BOTH = pytest.mark.parametrize("solver", [oracle.solve, fast], ids=["oracle", "simcore"])
