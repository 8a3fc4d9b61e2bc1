"""The solver's node budget (simcore.solver.set_budget): a solve that runs out says so, leaves
the position and the table intact, and a solve within the budget is exact."""

from __future__ import annotations

import random

import numpy as np

from simcore import solver
from simcore.games.spades import solver as spades

NO_TRICK = np.zeros(4, np.int64)


def deal(seed, per_seat):
    cards = list(range(52))
    random.Random(seed).shuffle(cards)
    return np.array([sum(1 << c for c in cards[per_seat * i:per_seat * (i + 1)]) for i in range(4)],
                    np.uint64)


def test_a_solve_that_runs_out_returns_minus_one_and_keeps_the_position():
    tab = solver.table_of(spades.new_tables(1, 14), 0)
    hands = deal(3, 7)
    exact = spades.solve_value(hands, 0, NO_TRICK, 0, False, False, -1, tab)
    needed = solver.nodes(tab)
    assert needed > 50 and not solver.aborted(tab)

    solver.set_budget(tab, 20)
    assert spades.solve_value(hands, 0, NO_TRICK, 0, False, False, -1, tab) == -1
    assert solver.aborted(tab)
    # the hands the search plays on were put back: the table's position is the dealt one
    loaded = [solver.widen(h) for h in hands]
    assert list(tab[solver.T_HANDS][:4]) == loaded
    cards, values = np.zeros(16, np.int64), np.zeros(16, np.int64)
    assert spades.solve_moves(hands, 0, NO_TRICK, 0, False, False, -1, tab, cards, values) == -1

    solver.set_budget(tab, needed * 50)  # enough: exact, and not flagged
    assert spades.solve_value(hands, 0, NO_TRICK, 0, False, False, -1, tab) == exact
    assert not solver.aborted(tab)

    solver.set_budget(tab, 0)  # no limit again; the same value after the aborted solves
    fresh = solver.table_of(spades.new_tables(1, 14), 0)
    for seed in range(4):
        h = deal(10 + seed, 5)
        assert spades.solve_value(h, 1, NO_TRICK, 0, False, True, -1, tab) == \
            spades.solve_value(h, 1, NO_TRICK, 0, False, True, -1, fresh)
