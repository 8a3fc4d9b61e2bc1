"""The trick-count table key built by look-ups (simcore.solver.keys.make_key_tricks) equals
the generic card-by-card key (keys.make_key) on random four-seat positions."""

import random

import numpy as np

from simcore import solver
from simcore.games.spades import solver as spades
from simcore.solver import keys
from simcore.solver.context import KEY_WORDS, T_CTX


def _random_position(rng, per_seat, top_strength):
    deck = [16 * s + r for s in range(4) for r in range(top_strength + 1)]
    rng.shuffle(deck)
    return np.array([sum(1 << c for c in deck[per_seat * i:per_seat * (i + 1)]) for i in range(4)],
                    np.uint64)


def test_make_key_tricks_equals_make_key():
    tab = solver.table_of(spades.new_tables(1, 10), 0)
    solver.setup(tab, 4, 0b1111, 3, 3, 0b0101, 0b0101, 1, np.zeros(64, np.int64))
    ctx = tab[T_CTX]
    rng = random.Random(5)
    fast = np.zeros(KEY_WORDS, np.uint64)
    slow = np.zeros(KEY_WORDS, np.uint64)
    for i in range(3000):
        per_seat = rng.randrange(0, 14) if i % 3 else rng.randrange(0, 17)
        top = 12 if i % 3 else 15  # strengths 14-15 take the generic path
        hands = _random_position(rng, min(per_seat, (top + 1)), top)
        leader, broken = rng.randrange(4), bool(rng.randrange(2))
        slow[:] = 0
        fast[:] = 7
        h_slow = keys.make_key(ctx, hands, leader, broken, slow)
        h_fast = keys.make_key_tricks(ctx, hands, leader, broken, fast)
        assert h_fast == h_slow
        assert list(fast) == list(slow), (i, hands)
