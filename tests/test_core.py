"""cards.py, rng.py and tricks.py against plain-Python oracles."""

import numba as nb
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from simcore import cards, rng, tricks
from simcore.errors import SimcoreError


# ---------------------------------------------------------------- cards


@pytest.mark.parametrize("text, card", [("2C", 0), ("AC", 12), ("10H", 34), ("TH", 34), ("T♥", 34),
                                        ("as", 51), ("Q♦", 23), (" kS ", 50)])
def test_parse_card_accepts_every_spelling(text, card):
    assert cards.parse_card(text) == card


@pytest.mark.parametrize("bad", ["", "1H", "AX", "11S", "A", "♥", "10"])
def test_parse_card_rejects_malformed_text(bad):
    with pytest.raises(SimcoreError, match="malformed card"):
        cards.parse_card(bad)


@given(st.sets(st.integers(0, 51)))
def test_hand_text_round_trip(card_set):
    mask = cards.hand_from_cards(card_set)
    assert cards.parse_hand(cards.format_hand(mask)) == mask
    assert cards.cards_of_hand(mask) == sorted(card_set)


def test_duplicate_cards_are_rejected():
    with pytest.raises(SimcoreError, match="duplicate"):
        cards.parse_cards("AS, as")


@nb.njit
def _bits(x, n):
    return cards.popcount(x), cards.lowest_bit(x), cards.highest_bit(x), cards.nth_bit(x, n)


@given(st.integers(1, 2**64 - 1), st.data())
def test_bit_helpers_match_python(x, data):
    ones = [i for i in range(64) if x >> i & 1]
    n = data.draw(st.integers(0, len(ones) - 1))
    assert _bits(np.uint64(x), n) == (len(ones), ones[0], ones[-1], ones[n])


# ---------------------------------------------------------------- rng


@nb.njit
def _draws(seed, a, k):
    st_ = np.zeros(1, np.uint64)
    st_[0] = rng.stream_key(seed, a, 0, 0)
    out = np.empty(k, np.int64)
    for i in range(k):
        out[i] = rng.below(st_, 52)
    return out


def test_streams_depend_only_on_their_name():
    assert np.array_equal(_draws(7, 3, 50), _draws(7, 3, 50))
    assert not np.array_equal(_draws(7, 3, 50), _draws(7, 4, 50))
    assert not np.array_equal(_draws(7, 3, 50), _draws(8, 3, 50))


def test_below_is_uniform():
    from scipy import stats

    counts = np.bincount(_draws(1, 0, 520_000), minlength=52)
    assert stats.chisquare(counts).pvalue > 1e-4


@nb.njit
def _shuffled_positions(n_deals):
    pos = np.zeros((52, 52), np.int64)  # pos[card, position]
    st_ = np.zeros(1, np.uint64)
    deck = np.empty(52, np.int64)
    for k in range(n_deals):
        st_[0] = rng.stream_key(5, k, 0, 0)
        for i in range(52):
            deck[i] = i
        rng.shuffle(st_, deck, 52)
        for i in range(52):
            pos[deck[i], i] += 1
    return pos


def test_shuffle_puts_every_card_anywhere_uniformly():
    from scipy import stats

    pos = _shuffled_positions(52 * 400)
    assert (pos.sum(axis=0) == 52 * 400).all()
    assert stats.chisquare(pos.ravel()).pvalue > 1e-4


# ---------------------------------------------------------------- tricks


def _winner_oracle(played, trump):
    """Highest trump if any, else highest card of the led suit (internal ids)."""
    led = played[0] // 13
    trumps = [c for c in played if c // 13 == trump]
    pool = trumps if trumps else [c for c in played if c // 13 == led]
    return played.index(max(pool))


@given(st.lists(st.integers(0, 51), min_size=1, max_size=6, unique=True), st.integers(-1, 4))
@settings(max_examples=500)
def test_trick_winner_matches_oracle(played, trump):
    arr = np.array(played, np.int64)
    assert tricks.trick_winner(arr, len(played), trump) == _winner_oracle(played, trump)


@given(st.integers(0, 2**52 - 1), st.integers(0, 3))
def test_follow_mask_is_the_led_suit_when_held(hand, led):
    suit_cards = hand & (0x1FFF << (13 * led))
    expected = suit_cards if suit_cards else hand
    assert tricks.follow_mask(np.uint64(hand), led) == expected


def test_rank_order_round_trips_and_orders_strength():
    order = tricks.RankOrder("456789TJQKA23")
    assert (order.to_public[order.to_internal] == np.arange(52)).all()
    three_of_spades = cards.parse_card("3S")
    four_of_spades = cards.parse_card("4S")
    assert order.to_internal[three_of_spades] == 13 * 3 + 12
    assert order.to_internal[four_of_spades] == 13 * 3


@given(st.integers(0, 2**52 - 1))
def test_remap_by_suit_equals_card_by_card_remap(mask):
    order = tricks.RankOrder("456789TJQKA23")
    expected = sum(1 << int(order.to_public[c]) for c in range(52) if mask >> c & 1)
    assert tricks.remap_by_suit(np.uint64(mask), order.suit_to_public) == expected
    assert tricks.remap_hand(np.uint64(mask), order.to_public) == expected


def test_is_master_sees_only_unseen_higher_cards():
    # internal ids: suit 0, ranks 5 and 9 unseen; card rank 7 is not master, rank 10 is
    unseen = np.uint64((1 << 5) | (1 << 9))
    assert not tricks.is_master(7, unseen)
    assert tricks.is_master(10, unseen)
