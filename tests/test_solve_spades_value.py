"""Spades' trick count through ``solve_value`` (its first search at a guess of the value,
``spades.solver._first_target``) against the plain-Python oracle and against DDS; simcore.solve
goes through ``solve_moves`` and does not reach that start."""

from __future__ import annotations

import random

import numpy as np

from reference import open_hand as oracle
from simcore.cards import hand_from_cards
from simcore.games.spades import solver
from simcore.solver import table_of

GAME = "spades"
TAB = table_of(solver.new_tables(1), 0)


def value_of(hands, leader, trick=(), must_break=True, broken=False):
    masks = np.array([int(oracle.as_mask(h)) for h in hands], np.uint64)
    cards = np.zeros(4, np.int64)
    cards[:len(trick)] = trick
    return int(solver.solve_value(masks, leader, cards, len(trick), broken, must_break, -1, TAB))


def test_trick_count_of_random_endings_matches_the_oracle():
    """2-4 cards a seat, partial tricks, must_break_spades on and off, broken or not."""
    rng = random.Random(31)
    for _ in range(400):
        p = oracle.random_ending(GAME, rng, rng.randrange(2, 5))
        if p.state.get("nil", -1) >= 0:
            continue
        must_break = (p.rules or {}).get("must_break_spades", True)
        broken = p.state.get("broken", False)
        value, _ = oracle.solve(GAME, p.hands, p.leader, p.trick, p.rules, broken=broken)
        got = value_of(p.hands, p.leader, p.trick, must_break, broken)
        assert got == value, str(p)


def test_trick_count_of_full_deals_matches_dds():
    rng = random.Random(25)
    for _ in range(8):
        cards = rng.sample(range(52), 52)
        hands = [hand_from_cards(cards[13 * s:13 * s + 13]) for s in range(4)]
        leader = rng.randrange(4)
        value, _ = oracle.dds_solve(hands, leader)
        assert value_of(hands, leader, must_break=False) == value, (hands, leader)
