"""Table entries across point counts (simcore.search._counts_gap, _points_gap; docs/solving.md
"Entries across point counts"): a single Trump Friend solve may settle a position with an
entry whose point cards sit differently, its bounds widened by the points that differ.  The
values must be exactly those of the exact keys (the search policies' tables) and of the plain
oracle."""

from __future__ import annotations

import random

import numpy as np
import pytest

import simcore
from reference import open_hand as oracle
from simcore import search
from simcore.games.trump_friend import solver as tf

BITS = 16


def _field(seat: int, suit: int, ones: int, two: int) -> int:
    """One seat's and suit's point counts in a K_COUNTS word."""
    return (ones | two << 2) << (3 * (4 * seat + suit))


def test_equal_counts_leave_the_entry_as_it_is():
    w = np.uint64(_field(0, 1, 2, 1) | _field(3, 2, 1, 0))
    assert search._counts_gap(w, w) == (0, 0)


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
    assert search._counts_gap(a, b) == gap
    assert search._counts_gap(b, a) == gap[::-1]


def _random_position(rng: random.Random, per_seat: int):
    """Five hands, a trick of 0-4 cards played legally, trump 0-4, a solo or two-seat team."""
    deck = list(range(52))
    rng.shuffle(deck)
    hands = [deck[per_seat * i:per_seat * (i + 1)] for i in range(5)]
    leader = rng.randrange(5)
    trick = []
    for k in range(rng.randrange(5)):
        seat = (leader + k) % 5
        cards = hands[seat]
        if trick:
            cards = [c for c in cards if c // 13 == trick[0] // 13] or cards
        c = rng.choice(cards)
        hands[seat].remove(c)
        trick.append(c)
    declarer = rng.randrange(5)
    team = 1 << declarer
    if rng.random() < 0.6:
        team |= 1 << rng.choice([s for s in range(5) if s != declarer])
    masks = np.array([sum(1 << c for c in h) for h in hands], np.uint64)
    tr = np.zeros(5, np.int64)
    tr[:len(trick)] = trick
    return masks, leader, tr, len(trick), rng.randrange(5), team


def test_values_equal_those_of_exact_keys():
    """Single-solve tables (the cut-move memory, so C_GAP) against tables without (exact keys)
    on random positions of 6-8 cards a seat: the same value every time, fewer nodes overall."""
    exact = search.table_of(search.new_tables(1, BITS), 0)
    wide = search.table_of(search.new_tables(1, BITS, True), 0)
    rng = random.Random(17)
    nodes = [0, 0]
    for _ in range(60):
        masks, leader, trick, tlen, trump, team = _random_position(rng, rng.choice((6, 7, 8)))
        v0 = tf.solve_value(masks, leader, trick, tlen, trump, team, exact)
        nodes[0] += search.nodes(exact)
        v1 = tf.solve_value(masks, leader, trick, tlen, trump, team, wide)
        nodes[1] += search.nodes(wide)
        assert v1 == v0
    assert exact[search.T_CTX][search.C_GAP] == 0 and wide[search.T_CTX][search.C_GAP] == 1
    assert nodes[1] < nodes[0]


def test_four_card_endings_match_the_oracle():
    """Four cards a seat: the three-card boundaries reuse entries across point counts within a
    solve (a wrong widening showed here in 5% of such endings)."""
    n, problems = oracle.sweep(simcore.solve, "trump-friend", 4, 300, seed=17)
    assert not problems, oracle.sweep_message("trump-friend", 4, n, problems)
