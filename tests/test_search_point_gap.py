"""Table entries across point counts (simcore.solver.points.counts_gap, points_gap;
docs/solving.md "Entries across point counts"): a single Trump Friend solve may settle a position with an
entry whose point cards sit differently, its bounds widened by the points that differ.  The
values must be exactly those of the exact keys (the search policies' tables).  simcore.solve
solves on single-solve tables, so test_solve_trump_friend.py's oracle sweeps check the
widening against the plain oracle too."""

from __future__ import annotations

import random

import numpy as np
import pytest

from reference.tf_positions import random_position
from simcore import solver
from simcore.games.trump_friend import solver as tf
from simcore.solver.context import C_GAP, T_CTX
from simcore.solver.points import counts_gap

BITS = 16


def _field(seat: int, suit: int, ones: int, two: int) -> int:
    """One seat's and suit's point counts in a K_COUNTS word."""
    return (ones | two << 2) << (3 * (4 * seat + suit))


def test_equal_counts_leave_the_entry_as_it_is():
    w = np.uint64(_field(0, 1, 2, 1) | _field(3, 2, 1, 0))
    assert counts_gap(w, w) == (0, 0)


@pytest.mark.parametrize("position,entry,gap", [
    # one more 1-point card (seat 2, suit 0) than the entry: at most 1 more for the max side
    ((2, 0, 1, 0), (2, 0, 0, 0), (0, 1)),
    # the entry's 2-point card is a 1-point card here: 1 less at most
    ((1, 3, 1, 0), (1, 3, 0, 1), (1, 0)),
    # the entry's 2 is a 0 here and the position's two 1s were 0s: sorted (1, 1) against (2, 0)
    ((4, 1, 2, 0), (4, 1, 0, 1), (1, 1)),
])
def test_the_gap_pairs_the_tokens_sorted_by_points(position, entry, gap):
    a = np.uint64(_field(*position))
    b = np.uint64(_field(*entry))
    assert counts_gap(a, b) == gap
    assert counts_gap(b, a) == gap[::-1]


def test_values_equal_those_of_exact_keys():
    """Single-solve tables (the cut-move memory, so C_GAP) against tables without (exact keys)
    on random positions of 6-8 cards a seat: the same value every time, fewer nodes overall."""
    exact = solver.table_of(solver.new_tables(1, BITS), 0)
    wide = solver.table_of(solver.new_tables(1, BITS, True), 0)
    rng = random.Random(17)
    nodes = [0, 0]
    for _ in range(60):
        masks, leader, trick, tlen, trump, team = random_position(rng, rng.choice((6, 7, 8)), max_trick=4)
        v0 = tf.solve_value(masks, leader, trick, tlen, trump, team, exact)
        nodes[0] += solver.nodes(exact)
        v1 = tf.solve_value(masks, leader, trick, tlen, trump, team, wide)
        nodes[1] += solver.nodes(wide)
        assert v1 == v0
    assert exact[T_CTX][C_GAP] == 0 and wide[T_CTX][C_GAP] == 1
    assert nodes[1] < nodes[0]


def test_every_card_value_equals_that_of_exact_keys():
    """Every legal card's value (the moves' searches start from partial tricks and reuse
    entries across point counts at the three-card boundaries) on 300 positions of 4-5 cards a
    seat: the same as with exact keys.  A widening that fell back to the unwidened bounds gave
    a wrong card value in 5% of four-card endings."""
    exact = solver.table_of(solver.new_tables(1, BITS), 0)
    wide = solver.table_of(solver.new_tables(1, BITS, True), 0)
    rng = random.Random(18)
    cards = np.zeros((2, 16), np.int64)
    values = np.zeros((2, 16), np.int64)
    for _ in range(300):
        p = random_position(rng, rng.choice((4, 5)), max_trick=4)
        n0 = tf.solve_moves(*p, exact, cards[0], values[0])
        n1 = tf.solve_moves(*p, wide, cards[1], values[1])
        assert n0 == n1 and (cards[0, :n0] == cards[1, :n1]).all(), p
        assert (values[0, :n0] == values[1, :n1]).all(), p
