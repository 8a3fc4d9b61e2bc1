"""simcore.melds.can_partition (added for Dummy) against a brute-force oracle.

The oracle (tests/reference/dummy_ref.partitions) tries every meld holding the lowest card;
Dummy's run order is the public order (2 ... A, ace high only, DM-6), so the kernel takes public
masks unchanged.
"""

import random

from reference import dummy_ref as ref
from simcore.cards import parse_hand
from simcore.melds import can_partition


def _mask(cards):
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def test_examples():
    assert can_partition(0)
    assert can_partition(parse_hand("QS KS AS"))
    assert not can_partition(parse_hand("AS 2S 3S"))
    assert can_partition(parse_hand("7C 7D 7H JS QS KS AS"))
    assert can_partition(parse_hand("2C 3C 4C 5C 5D 5H"))
    assert not can_partition(parse_hand("2C 3C 4C 5C 5D"))
    assert can_partition(parse_hand("9C 9D 9H 9S"))
    assert not can_partition(parse_hand("9C 9D 9H 9S TS"))
    assert can_partition(parse_hand("8S 9S TS 9C 9D 9H"))  # 9S must go to the set or the run
    assert can_partition(parse_hand("2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH"))


def test_random_hands_against_brute_force():
    rng = random.Random(5)
    checked = positives = 0
    for _ in range(4000):
        # dense hands in few suits and ranks, so that melds are common
        suits = rng.sample(range(4), rng.randint(1, 4))
        lo = rng.randint(0, 8)
        pool = [13 * s + r for s in suits for r in range(lo, min(13, lo + rng.randint(3, 7)))]
        cards = rng.sample(pool, min(len(pool), rng.randint(3, 12)))
        want = ref.partitions(cards)
        assert can_partition(_mask(cards)) == want, sorted(cards)
        checked += 1
        positives += want
    assert positives > 200 and checked - positives > 200


def test_large_hands():
    # a whole suit and a big pile take: the search stack stays bounded
    rng = random.Random(9)
    for _ in range(12):
        cards = rng.sample(range(52), rng.randint(20, 32))
        assert can_partition(_mask(cards)) == ref.partitions(cards)
    assert can_partition((1 << 52) - 1)
