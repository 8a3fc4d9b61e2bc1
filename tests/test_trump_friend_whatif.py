"""Trump Friend what-if runs (--what-if trump | friend) and constrained deals (--predeal,
--condition): the same deal once per option; fixed cards and conditions on every accepted deal."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest
from scipy import stats

import simcore
from simcore.cards import parse_card
from simcore.errors import SimcoreError

DEALS = 400
TRUMPS = ["clubs", "diamonds", "hearts", "spades", "notrump"]
DEALT = ["hand0", "hand1", "hand2", "hand3", "hand4", "kitty", "declarer"]


def hands(deals=DEALS, **kw):
    return simcore.simulate("trump-friend", deals, seed=21, **kw).hands().collect()


@pytest.fixture(scope="module")
def trump_rows():
    return hands(what_if="trump", policy=["random"])


def test_what_if_trump_rows_are_deal_major_one_per_option(trump_rows):
    assert trump_rows.height == 5 * DEALS
    assert trump_rows["option"].to_list()[:10] == TRUMPS * 2
    assert trump_rows["deal"].to_list()[:10] == [0] * 5 + [1] * 5
    # TF-5.1: the forced call is the call played
    assert (trump_rows["trump"] == trump_rows["option"].replace_strict(
        {t: i for i, t in enumerate(TRUMPS)}, return_dtype=pl.Int8)).all()


def test_what_if_rows_of_a_deal_share_every_card(trump_rows):
    per_deal = trump_rows.group_by("deal").agg(pl.col(c).n_unique() for c in DEALT)
    assert (per_deal.select(pl.exclude("deal")) == 1).to_numpy().all()


def test_what_if_option_consequences_differ_somewhere(trump_rows):
    per_deal = trump_rows.group_by("deal").agg(pl.col("delta0").n_unique(), pl.col("declarer_won").n_unique())
    assert (per_deal["delta0"] > 1).sum() > DEALS // 4


def test_what_if_row_equals_the_plain_run_when_the_policy_makes_that_call():
    """Forcing no trump is exactly the ``notrump`` policy; forcing the highest friend is the
    ``highest`` policy: every other random draw is held fixed."""
    what_if = hands(what_if="trump", policy=["random", "trump=notrump"])
    plain = hands(policy=["random", "trump=notrump"])
    assert what_if.filter(pl.col("option") == "notrump").drop("option").equals(plain)
    friend = hands(what_if="friend", policy=["random"])
    assert friend.filter(pl.col("option") == "highest").drop("option").equals(hands(policy=["random"]))
    no_friend = friend.filter(pl.col("option") == "none")
    assert (no_friend["friend_card"] == -1).all()  # TF-5.3


def test_what_if_is_the_same_for_any_chunking_and_threads(trump_rows):
    again = simcore.simulate("trump-friend", DEALS, seed=21, what_if="trump", policy=["random"],
                             chunk_size=70, threads=1).hands().collect()
    assert again.equals(trump_rows)


def test_what_if_unknown_decision_is_one_clear_error():
    with pytest.raises(SimcoreError, match="unknown what-if decision 'nil' for trump-friend; known: trump, friend"):
        hands(what_if="nil")


# ---------------------------------------------------------------- predeal and conditions


def holds(mask: int, text: str) -> bool:
    return all(int(mask) >> parse_card(c) & 1 for c in text.split(","))


def suit_lengths(mask: int) -> list[int]:
    return [bin(int(mask) >> (13 * s) & 0x1FFF).count("1") for s in range(4)]


def test_predeal_fixes_cards_and_the_rest_stay_uniform():
    rows = hands(4000, policy=["random"], predeal=["0=AS,KS,3H", "kitty=2C"])
    assert all(holds(h, "AS,KS,3H") for h in rows["hand0"])
    assert all(holds(k, "2C") for k in rows["kitty"])
    # the other 48 cards: each lands in seat 0's 7 free places, 10 of each other seat or the
    # kitty's 1 free place in proportion to the free places (a chi-square test per card)
    free = [c for c in range(52) if c not in {parse_card(t) for t in ("AS", "KS", "3H", "2C")}]
    places = np.array([7, 10, 10, 10, 10, 1]) / 48
    columns = [f"hand{s}" for s in range(5)] + ["kitty"]
    masks = rows.select(columns).to_numpy().astype(np.uint64)
    counts = np.array([[(masks[:, j] >> np.uint64(c) & np.uint64(1)).sum() for j in range(6)] for c in free])
    chi2 = stats.chisquare(counts.ravel(), (np.outer(np.ones(len(free)), places) * rows.height).ravel())
    assert chi2.pvalue > 1e-3
    assert "attempts" not in rows.columns  # no conditions, no rejection


def test_condition_on_the_declarer_holds_on_every_deal_and_attempts_are_recorded():
    run = simcore.simulate("trump-friend", 3000, seed=4, policy=["random"],
                           rules={"first_declarer": "random"},
                           conditions=["declarer:longest>=6", "declarer:points>=6"])
    rows = run.hands().collect()
    hands_ = rows.select([f"hand{s}" for s in range(5)]).to_numpy()
    for row, declarer in zip(hands_, rows["declarer"]):
        mask = int(row[declarer])
        assert max(suit_lengths(mask)) >= 6
        points = sum({"A": 2, "K": 1, "Q": 1, "J": 1}.get("23456789TJQKA"[c % 13], 0)
                      for c in range(52) if mask >> c & 1)
        assert points >= 6
    assert rows["attempts"].dtype == pl.UInt32 and rows["attempts"].min() >= 1
    assert rows["attempts"].mean() > 3  # a 6-card suit is rare: most deals need retries
    assert run.manifest["acceptance_rate"] == pytest.approx(rows.height / rows["attempts"].sum())
    assert 0 < run.manifest["acceptance_rate"] < 0.35


def test_conditional_rows_are_the_same_for_any_chunking_and_threads():
    kw = dict(seed=8, policy=["random"], conditions=["0:suit:S>=4"], predeal=["1=AH"])
    a = simcore.simulate("trump-friend", 900, chunk_size=900, threads=2, **kw).hands().collect()
    b = simcore.simulate("trump-friend", 900, chunk_size=130, threads=1, **kw).hands().collect()
    assert a.equals(b)
    assert all(suit_lengths(h)[3] >= 4 for h in a["hand0"])


def test_a_deal_meeting_the_conditions_at_once_is_the_unconditioned_deal():
    plain = hands(300, policy=["random"])
    conditioned = hands(300, policy=["random"], conditions=["0:longest>=0"])
    assert (conditioned["attempts"] == 1).all()
    assert conditioned.drop("attempts").equals(plain)


def test_conditions_hold_on_every_hand_of_a_game():
    run = simcore.simulate("trump-friend", 30, seed=2, mode="games", policy=["random"],
                           conditions=["declarer:suit:H>=3"])
    rows = run.hands().collect()
    for row in rows.iter_rows(named=True):
        assert suit_lengths(row[f"hand{row['declarer']}"])[2] >= 3


def test_what_if_works_on_constrained_deals():
    rows = hands(200, what_if="trump", policy=["random"], predeal=["0=3S,2S,AS,KS,QS"])
    assert rows.height == 1000
    assert all(holds(h, "3S,2S,AS,KS,QS") for h in rows["hand0"])


def test_impossible_conditions_fail_with_one_clear_line():
    with pytest.raises(SimcoreError, match="no deal met the conditions"):
        hands(5, predeal=["0=AS,KS,QS"], conditions=["1:has:AS>=1"])
    with pytest.raises(SimcoreError, match="unknown seat 'dealer'"):
        hands(5, conditions=["dealer:hcp>=10"])
