"""The cut-move memory (simcore.solver.cut_memory) orders moves only: Trump Friend solves with
and without it give the same values on random positions (trick boundaries and partial tricks),
and with it a solve searches the same nodes whatever the table solved before."""

from __future__ import annotations

import random

import pytest

from reference.tf_positions import random_position
from simcore import solver
from simcore.games.trump_friend import solver as tf
from simcore.solver.context import MEMO_SERIALS, N_SERIAL, T_COUNTERS, T_CUTS

BITS = 14


def _solve(tab, position):
    masks, leader, trick, tlen, trump, team = position
    v = tf.solve_value(masks, leader, trick, tlen, trump, team, tab)
    return int(v), int(solver.nodes(tab))


@pytest.fixture(scope="module")
def positions():
    rng = random.Random(16)
    return [random_position(rng, rng.choice((4, 5, 6))) for _ in range(120)]


def test_values_are_the_same_with_and_without_the_memory(positions):
    plain = solver.table_of(solver.new_tables(1, BITS), 0)
    memo = solver.table_of(solver.new_tables(1, BITS, True), 0)
    assert plain[T_CUTS].shape[0] == 1 and memo[T_CUTS].shape[0] == 1 << BITS
    fewer = 0
    for p in positions:
        v0, n0 = _solve(plain, p)
        v1, n1 = _solve(memo, p)
        assert v1 == v0, p
        fewer += n1 < n0
    assert fewer > 0  # the memory is used: some solve searches fewer nodes with it


def test_node_counts_do_not_depend_on_earlier_solves(positions):
    fresh = [_solve(solver.table_of(solver.new_tables(1, BITS, True), 0), p) for p in positions[:40]]
    tab = solver.table_of(solver.new_tables(1, BITS, True), 0)
    for p in positions[40:]:  # other solves first, leaving their entries in the memory
        _solve(tab, p)
    again = [_solve(tab, p) for p in positions[:40]]
    assert again == fresh


def test_the_memory_clears_when_its_solve_serial_wraps(positions):
    tab = solver.table_of(solver.new_tables(1, BITS, True), 0)
    first = _solve(tab, positions[0])
    _solve(tab, positions[1])
    tab[T_COUNTERS][N_SERIAL] = MEMO_SERIALS  # the next solve wraps to 0
    assert _solve(tab, positions[0]) == first
    assert tab[T_COUNTERS][N_SERIAL] == 1
