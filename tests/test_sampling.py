"""simcore.sampling: worlds drawn uniformly among those consistent with an observation.

The reference is plain enumeration: every way to give the unseen cards to the holders with
each holder's count and allowed cards; the sampler's frequencies must fit the uniform
distribution over exactly that set (chi-square), never leave it, and repeat from the stream.
"""

from __future__ import annotations

import itertools
from collections import Counter

import numpy as np
import pytest

from simcore import sampling

scipy_stats = pytest.importorskip("scipy.stats")


def enumerate_worlds(unseen, need, allowed):
    """Every world as a tuple of per-holder masks (the obviously correct reference)."""
    cards = [c for c in range(64) if unseen >> c & 1]
    worlds = []
    for owners in itertools.product(range(len(need)), repeat=len(cards)):
        counts = Counter(owners)
        if any(counts[h] != need[h] for h in range(len(need))):
            continue
        if any(not allowed[h] >> c & 1 for c, h in zip(cards, owners)):
            continue
        masks = [0] * len(need)
        for c, h in zip(cards, owners):
            masks[h] |= 1 << c
        worlds.append(tuple(masks))
    return worlds


def sample(unseen, need, allowed, n, seed=1):
    sc = sampling.new_scratch(4096)
    need_a = np.array(need, np.int64)
    allowed_a = np.array(allowed, np.uint64)
    total = sampling.prepare(np.uint64(unseen), need_a, allowed_a, len(need), sc)
    st = np.array([seed], np.uint64)
    out = np.zeros(len(need), np.uint64)
    worlds = []
    for _ in range(n):
        sampling.draw(st, sc, out)
        worlds.append(tuple(int(m) for m in out))
    return total, worlds


# (unseen, need, allowed): seats with voids, a pile that takes anything, a card only one
# holder may have, classes of different sizes
POSITIONS = [
    # 6 cards, 3 holders, holder 0 void in the first suit (cards 0-2)
    (0b111111, [2, 2, 2], [0b111000, 0b111111, 0b111111]),
    # 7 cards, 4 holders (the last a kitty), two voids
    (0b1111111, [2, 2, 2, 1], [0b1111000, 0b0000111 | 0b1000000, 0b1111111, 0b1111111]),
    # 8 cards, 3 holders, nested masks (greedy dealing is visibly biased here)
    (0xFF, [4, 2, 2], [0xFF, 0x0F, 0xF3]),
    # card 5 can only be holder 2's
    (0b111111, [3, 1, 2], [0b011111, 0b011111, 0b111111]),
]


@pytest.mark.parametrize("position", POSITIONS)
def test_worlds_match_exact_enumeration(position):
    unseen, need, allowed = position
    worlds = enumerate_worlds(unseen, need, allowed)
    n = 400 * len(worlds)
    total, drawn = sample(unseen, need, allowed, n)
    assert total == len(worlds)
    counts = Counter(drawn)
    assert set(counts) <= set(worlds), "a sampled world contradicts the observation"
    observed = [counts[w] for w in worlds]
    result = scipy_stats.chisquare(observed)
    assert result.pvalue > 1e-4, (result, len(worlds))


def test_never_contradicts_an_observation_on_random_positions():
    rng = np.random.default_rng(5)
    for _ in range(40):
        n_cards = int(rng.integers(4, 9))
        holders = int(rng.integers(2, 5))
        unseen = (1 << n_cards) - 1
        need = list(rng.multinomial(n_cards, [1 / holders] * holders))
        allowed = [int(rng.integers(0, 1 << n_cards)) | (unseen if h == holders - 1 else 0)
                   for h in range(holders)]
        worlds = enumerate_worlds(unseen, need, allowed)
        total, drawn = sample(unseen, need, allowed, 50 if worlds else 0)
        assert total == len(worlds)
        assert set(drawn) <= set(worlds)


def test_reproducible_from_the_stream():
    unseen, need, allowed = POSITIONS[2]
    assert sample(unseen, need, allowed, 30, seed=9) == sample(unseen, need, allowed, 30, seed=9)
    assert sample(unseen, need, allowed, 30, seed=9) != sample(unseen, need, allowed, 30, seed=10)


def test_inconsistent_and_oversized_observations():
    # counts that do not add up, and a card nobody may hold: no world
    assert sample(0b111, [1, 1], [0b111, 0b111], 0)[0] == 0
    assert sample(0b111, [2, 1], [0b011, 0b011], 0)[0] == 0
    # more capacity states than the scratch holds: refused, not guessed
    sc = sampling.new_scratch(8)
    assert sampling.prepare(np.uint64(0xFF), np.array([4, 4], np.int64),
                            np.array([0xFF, 0xFF], np.uint64), 2, sc) == -1.0


def test_euchre_sized_counts_are_exact():
    # 19 unseen cards, three seats of 5 and a kitty of 4, each seat void in a different suit
    unseen = (1 << 19) - 1
    suits = [0x1F, 0x1F << 5, 0x1F << 10]
    allowed = [unseen & ~suits[0], unseen & ~suits[1], unseen & ~suits[2], unseen]
    total, drawn = sample(unseen, [5, 5, 5, 4], allowed, 200)
    for w in drawn:
        assert sum(bin(m).count("1") for m in w) == 19
        assert all(w[h] & ~allowed[h] == 0 for h in range(4))
        assert w[0] | w[1] | w[2] | w[3] == unseen
    assert total == float(int(total)) and total > 1e6


def test_resample_picks_in_proportion_to_the_weights_and_never_a_zero_weight():
    """Systematic resampling: over many streams each index is picked weights[i] / sum of
    the time, every count within one of its expectation, and a zero weight never."""
    weights = np.array([0.5, 0.0, 2.0, 1.0, 0.0, 0.25, 0.25])
    m = 10
    totals = np.zeros(len(weights))
    st = np.array([99], np.uint64)
    picks = np.zeros(m, np.int64)
    for _ in range(2000):
        sampling.resample(st, weights, len(weights), picks)
        counts = np.bincount(picks, minlength=len(weights))
        expected = m * weights / weights.sum()
        assert (np.abs(counts - expected) < 1 + 1e-9).all()
        assert counts[1] == 0 and counts[4] == 0
        assert (np.diff(picks) >= 0).all()
        totals += counts
    assert np.allclose(totals / totals.sum(), weights / weights.sum(), atol=0.003)
    sampling.resample(st, np.zeros(4), 4, picks)  # all zero: every index alike
    assert sorted(set(picks.tolist())) == [0, 1, 2, 3]


# ---------------------------------------------------------------- the fast paths against plain ones


def test_remainder_without_division_equals_the_modulo():
    """``_mod`` (float quotient, then put right) is ``%`` for every r <= 2**53, n <= 2**53."""
    rng = np.random.default_rng(3)
    edge = [1, 2, 3, 7, 13, 52, 63, 64, 2**26 + 1, 2**52 - 1, 2**52, 2**53 - 1, 2**53]
    ns = edge + [int(x) for x in rng.integers(1, 2**53, 300)] + list(range(1, 70))
    for n in ns:
        rs = [0, 1, n - 1, n, n + 1, 2 * n - 1, 2**53, 2**53 - 1, 2**53 - n, (2**53 // n) * n,
              (2**53 // n) * n - 1] + [int(x) for x in rng.integers(0, 2**53, 40)]
        for r in rs:
            if 0 <= r <= 2**53:
                assert sampling._mod(np.int64(r), np.int64(n)) == r % n, (r, n)


def _plain_splits(n, cap):
    """Every split of n cards with x[j] <= cap[j], in the odometer's order (x[0] fastest)."""
    m = len(cap)
    ranges = [range(c + 1) for c in cap[:-1]]
    out = []
    for head in itertools.product(*reversed(ranges)):
        x = list(reversed(head))
        last = n - sum(x)
        if 0 <= last <= cap[-1]:
            out.append(tuple(x) + (last,))
    return out if m > 1 else ([(n,)] if n <= cap[0] else [])


@pytest.mark.parametrize("n, cap", [(3, [1, 1, 1]), (19, [5, 5, 5, 4]), (39, [13, 13, 13]),
                                    (7, [6, 0, 3]), (5, [2, 2]), (4, [4]), (6, [4]),
                                    (10, [3, 9, 1, 4]), (0, [2, 2, 2])])
def test_splits_step_over_the_odometer_states_that_cannot_fit(n, cap):
    """``_first_split``/``_next_split`` give exactly the plain odometer's valid splits, in its
    order (the draw maps its random number along that order)."""
    m = len(cap)
    hs = np.arange(m, dtype=np.int64)
    cap_a = np.array(cap, np.int64)
    x = np.zeros(m, np.int64)
    got = []
    ok = sampling._first_split(n, hs, m, cap_a, x)
    while ok:
        got.append(tuple(int(v) for v in x))
        ok = sampling._next_split(n, hs, m, cap_a, x)
    assert got == _plain_splits(n, cap)


def test_draws_are_pinned():
    """The stream of worlds is part of every search policy's rows: a change to the draw that
    moves it must be deliberate (this pins the first worlds of a Spades-sized observation)."""
    unseen = (1 << 39) - 1
    allowed = [unseen & ~0x1FFF, unseen, unseen]  # holder 0 void in the first 13 cards
    _, drawn = sample(unseen, [13, 13, 13], allowed, 3, seed=11)
    assert drawn == PINNED


PINNED = [(246554312704, 8592272849, 294609228334), (345616793600, 191243487452, 12895532835),
          (288734461952, 120260241551, 140761110384)]


def _trump_friend_sized(allowed_1, seed):
    """Two worlds of a Trump Friend-sized observation (41 unseen cards, four seats and a
    kitty of two), holder 1 allowed ``allowed_1``."""
    unseen = (1 << 41) - 1
    need = np.array([10, 10, 10, 9, 2], np.int64)
    allowed = np.array([unseen, allowed_1 & unseen, unseen, unseen, unseen], np.uint64)
    sc = sampling.new_scratch(11 ** 4 * 3)
    assert sampling.prepare(np.uint64(unseen), need, allowed, 5, sc) > 0
    st = np.array([seed], np.uint64)
    out = np.zeros(5, np.uint64)
    drawn = []
    for _ in range(2):
        sampling.draw(st, sc, out)
        drawn.append(tuple(int(m) for m in out))
    return drawn


def test_the_last_class_takes_the_room_left_with_the_same_worlds():
    """The last class's split is the holders' room left, taken without the odometer; the
    worlds are those the odometer walk drew (pinned from it), with one class of cards (no
    voids) and with two."""
    assert _trump_friend_sized((1 << 64) - 1, 11) == [
        (1238963847269, 588435818648, 96637379586, 274983850752, 2359296),
        (554057600648, 18102624608, 1202591305749, 413534306306, 10737418240)]
    assert _trump_friend_sized(~0x1FFF, 12) == [
        (1378955036762, 768300056576, 34370052384, 17398109700, 129),
        (586403643397, 163311149056, 345501602560, 1099511891194, 4294969344)]
