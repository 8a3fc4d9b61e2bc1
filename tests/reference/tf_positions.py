"""Random Trump Friend positions for the solver's own checks (solver ids as the fast solver
takes them: public card masks, a trick array of five, its length)."""

from __future__ import annotations

import random

import numpy as np


def random_position(rng: random.Random, per_seat: int, max_trick: int = 3):
    """Five hands of ``per_seat`` public cards, a trick of 0..max_trick cards played legally
    from them (the leader any card, the others following suit when they can), trump 0-4 (4 =
    no trump), a solo or two-seat team: (masks, leader, trick, trick length, trump, team)."""
    deck = list(range(52))
    rng.shuffle(deck)
    hands = [deck[per_seat * i:per_seat * (i + 1)] for i in range(5)]
    leader = rng.randrange(5)
    trick = []
    for k in range(rng.randrange(max_trick + 1)):
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
