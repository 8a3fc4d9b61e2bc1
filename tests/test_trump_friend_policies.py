"""Trump Friend policies: the heuristic plays better than random, and decision policies do
what their names say."""

import numpy as np
import polars as pl

import simcore
from simcore.cards import parse_hand
from simcore.games.trump_friend import layout, policies

GAME = "trump-friend"


def test_heuristic_seats_lose_fewer_points_than_random_seats():
    hands = simcore.simulate(GAME, 40_000, seed=3, policy=["random", "0=heuristic", "2=heuristic"],
                             rules={"first_declarer": "random"}).hands().collect()
    heuristic = pl.concat([hands["delta0"], hands["delta2"]]).cast(pl.Float64)
    random = pl.concat([hands["delta1"], hands["delta3"], hands["delta4"]]).cast(pl.Float64)
    gap = heuristic.mean() - random.mean()
    se = np.sqrt(heuristic.var() / heuristic.len() + random.var() / random.len())
    assert gap > 5 * se, (gap, se)


def test_heuristic_wins_more_games_than_its_share():
    run = simcore.simulate(GAME, 600, seed=4, mode="games", policy=["random", "0=heuristic"],
                           rules={"losing_line": 50})
    games = run.games().collect()
    share = games["winners"].list.contains(0).mean()
    assert share > 0.27  # a fair share would be 1/5 (plus ties)


def _internal(text):
    from simcore.tricks import remap_hand

    return remap_hand(np.uint64(parse_hand(text)), layout.TO_INTERNAL)


def test_trump_calls_follow_their_definitions():
    st = np.zeros(1, np.uint64)
    # five clubs (low) and four spades (high): longest = clubs, strongest = spades
    hand = _internal("4C 5C 6C 7C 8C 3S 2S AS KS 9D")
    assert policies.choose_trump(0, hand, st) == 0
    assert policies.choose_trump(1, hand, st) == 3
    assert policies.choose_trump(2, hand, st) == layout.NO_TRUMP


def test_highest_friend_is_the_best_trump_not_held():
    st = np.zeros(1, np.uint64)
    hand = _internal("3S AS KS 4C 5C 6C 7C 8C 9D 10D")
    friend = policies.choose_friend(0, hand, 3, st)
    assert layout.TO_PUBLIC[friend] == simcore.cards.parse_card("2S")
    assert policies.choose_friend(1, hand, 3, st) == -1


# ---------------------------------------------------------------- bit-parallel helpers vs plain loops

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from simcore.tricks import beats  # noqa: E402


@given(st.integers(0, 51), st.integers(0, 4), st.integers(0, 2**52 - 1))
@settings(max_examples=300)
def test_beaters_are_the_cards_that_beat_the_best(best, trump, legal):
    expected = sum(1 << c for c in range(52) if legal >> c & 1 and beats(c, best, trump))
    assert int(np.uint64(legal) & policies._beaters(best, trump)) == expected


@given(st.integers(1, 2**52 - 1))
@settings(max_examples=300)
def test_lowest_rank_card_is_the_lowest_rank_then_lowest_suit(pool):
    cards = [c for c in range(52) if pool >> c & 1]
    assert policies.lowest_rank_card(np.uint64(pool)) == min(cards, key=lambda c: (c % 13, c // 13))


@given(st.integers(0, 2**13 - 1))
def test_rank_sum_adds_the_set_ranks(mask):
    assert policies.rank_sum(np.uint64(mask)) == sum(r for r in range(13) if mask >> r & 1)


@given(st.integers(0, 51))
def test_card_points_follow_tf11(c):
    rank = layout.TO_PUBLIC[c] % 13  # public rank: 2 -> 0 ... A -> 12
    assert policies.card_points(c) == {12: 2, 11: 1, 10: 1, 9: 1}.get(rank, 0)


@given(st.integers(0, 2**52 - 1), st.integers(0, 4))
@settings(max_examples=300)
def test_safe_cards_are_the_masters_nobody_can_trump(unseen, trump):
    def holds(c):  # the plain rule: top unseen card of its suit, and no unseen trump over it
        higher_unseen = any(unseen >> d & 1 for d in range(c + 1, 13 * (c // 13) + 13))
        trumps_out = trump != layout.NO_TRUMP and any(unseen >> (13 * trump + r) & 1 for r in range(13))
        return not higher_unseen and (c // 13 == trump or not trumps_out)

    # only cards outside ``unseen`` are asked about (held or played)
    expected = sum(1 << c for c in range(52) if holds(c) and not unseen >> c & 1)
    assert int(policies._safe_cards(np.uint64(unseen), trump)) & ~unseen == expected
