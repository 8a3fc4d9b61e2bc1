"""Euchre rules EU-1 ... EU-20 (docs/rules/euchre.md), one or more tests per rule.

Hand-worked cases call the engine's own pieces (the bower remap with the shared trick kernels,
the leader rule, the scoring function, the bidding heuristics); rule properties that need whole
hands run the engine with forcing decision policies and read its rows.
"""

import numpy as np
import polars as pl
import pytest

import simcore.games.euchre as euchre
from reference import euchre as ref
from simcore.cards import parse_card, parse_hand
from simcore.games.euchre import deck
from simcore.games.euchre.engine import first_leader
from simcore.games.euchre.policies import best_discard, lone_hand
from simcore.games.euchre.rules import Rules
from simcore.games.euchre.scoring import hand_points
from simcore.rng import below, stream_key
from simcore.tricks import follow_mask, trick_winner

GAME = euchre.GAME
C, D, H, S = range(4)


def run(count=2000, seed=1, specs=("heuristic",), log=True, **rules):
    return GAME.run_hands(seed, 0, count, Rules(**rules), GAME.policies_from_specs(list(specs)), log)


def internal(text, trump):
    """A hand written as text, in the engine's trump order."""
    return deck.to_trump(deck.public_to_base(parse_hand(text)), trump)


def card(text, trump):
    return deck.public_card_to_trump(parse_card(text), trump)


def winner(texts, trump):
    cards = np.array([card(t, trump) for t in texts], np.int64)
    return trick_winner(cards, len(cards), trump)


def legal(hand_text, led_text, trump):
    led = card(led_text, trump) // 13
    mask = follow_mask(internal(hand_text, trump), led)
    out = deck.base_to_public(deck.from_trump(mask, trump))
    return {c for c in range(52) if int(out) >> c & 1}


# ---------------------------------------------------------------- players, deck, ranks


def test_eu1_partners_opposite_and_play_passes_left():
    df = run(500).filter(pl.col("alone_maker") < 0, pl.col("alone_defender") < 0,
                         pl.col("trump") >= 0)
    for row in df.iter_rows(named=True):
        hands = ref.playing_hands(row)
        seats = [next(s for s in range(4) if c in hands[s]) for c in row["plays"][:4]]
        assert seats == [(seats[0] + i) % 4 for i in range(4)]
    assert ((df["points0"] > 0) ^ (df["points1"] > 0)).all()  # one partnership scores a hand
    assert (df["side_tricks0"] == df["tricks0"] + df["tricks2"]).all()  # partners 0 & 2


def test_eu2_deck_is_nine_to_ace():
    for row in run(300).iter_rows(named=True):
        ref.check_deal(row)
        for s in range(4):
            assert all(c % 13 >= 7 for c in ref.cards_of(row[f"hand{s}"]))


def test_eu3_right_bower_beats_left_beats_ace():
    assert winner(["AH", "JD", "JH"], H) == 2  # right bower
    assert winner(["AH", "JD", "KH"], H) == 1  # left bower over the ace
    assert winner(["9H", "AH", "KH"], H) == 1
    assert winner(["QD", "AD", "KD"], H) == 1  # diamonds without their jack: A K Q 10 9
    assert winner(["TC", "JC", "AC"], S) == 1  # JC is the left bower of spades: it trumps


def test_eu4_left_bower_follows_trump():
    # Hearts trump, hearts led: the J of diamonds is a heart and must follow.
    assert legal("JD 9C AS", "AH", H) == {parse_card("JD")}
    # Diamonds led: the left bower is not a diamond, so a hand without other diamonds is free.
    assert legal("JD 9C AS", "KD", H) == {parse_card(t) for t in ("JD", "9C", "AS")}
    assert legal("JD TD AS", "KD", H) == {parse_card("TD")}
    # Leading the left bower leads trump: holders of trump must follow with trump.
    assert legal("9H AD KS", "JD", H) == {parse_card("9H")}
    assert winner(["JD", "AH"], H) == 0


def test_eu4_engine_plays_follow_the_left_bower_rule():
    df = run(1500, specs=("random",))
    led_left = 0
    for row in df.filter(pl.col("trump") >= 0).iter_rows(named=True):
        ref.replay(row)  # raises on any illegal play
        left = 13 * ref.same_colour(row["trump"]) + 9
        led_left += left in row["plays"][:: len(row["plays"]) // 5]
    assert led_left > 20


# ---------------------------------------------------------------- deal


def test_eu5_first_dealer_is_drawn_from_the_seed():
    df = run(400, seed=9, log=False)
    for k, dealer in enumerate(df["dealer"]):
        st = np.array([stream_key(9, k, 0, 1)], np.uint64)
        assert dealer == below(st, 4)
    assert set(df["dealer"]) == {0, 1, 2, 3}
    assert (run(50, log=False, first_dealer="2")["dealer"] == 2).all()


def test_eu5_deal_passes_left_in_games():
    rows, _ = GAME.run_games(2, 0, 40, Rules(), GAME.policies_from_specs(["random"]))
    for _, g in rows.sort("game", "hand_no").group_by("game"):
        dealers = g["dealer"].to_list()
        assert dealers == [(dealers[0] + i) % 4 for i in range(len(dealers))]


def test_eu6_five_cards_each_and_the_upcard_tops_the_kitty():
    df = run(300, log=False)
    for row in df.iter_rows(named=True):
        ref.check_deal(row)
        assert len(ref.cards_of(row["kitty"])) == 4
    assert df["upcard"].n_unique() == 24


# ---------------------------------------------------------------- making trump


def test_eu7_first_acceptance_ends_round_one():
    df = run(500, specs=("heuristic", "order_up=always"), log=False)
    assert (df["bid_round"] == 1).all()
    assert (df["maker"] == (df["dealer"] + 1) % 4).all()
    assert (df["trump"] == df["upcard"] // 13).all()


def test_eu8_dealer_who_takes_it_up_must_pick_up():
    df = run(3000, specs=("heuristic", "pickup=never"), log=False).filter(pl.col("bid_round") == 1)
    own = df.filter(pl.col("maker") == pl.col("dealer"))
    other = df.filter(pl.col("maker") != pl.col("dealer"))
    assert len(own) > 50 and own["picked_up"].all()
    assert len(other) > 50 and not other["picked_up"].any()  # optional when ordered up
    assert (other["discard"] == -1).all()


def test_eu8_pickup_is_mandatory_when_the_option_is_off():
    df = run(2000, specs=("heuristic", "pickup=never"), log=False, dealer_pickup_optional=False)
    r1 = df.filter(pl.col("bid_round") == 1)
    assert r1["picked_up"].all()
    for row in r1.iter_rows(named=True):  # the discard is one of the dealer's own five cards
        assert row[f"hand{row['dealer']}"] >> row["discard"] & 1
        assert row["discard"] != row["upcard"]


def test_eu8_heuristic_discard_voids_a_suit_and_keeps_aces():
    trump = H
    six = internal("JH AH KS TC 9C TH", trump)
    assert best_discard(six, card("TH", trump), trump) == card("KS", trump)  # void spades
    six = internal("JH AH AS TC 9C TH", trump)
    assert best_discard(six, card("TH", trump), trump) == card("9C", trump)  # keep the ace
    six = internal("JH JD AH KH QH TH", trump)
    assert best_discard(six, card("TH", trump), trump) == card("QH", trump)  # all trumps


def test_eu9_turned_down_suit_may_not_be_named():
    df = run(2000, specs=("heuristic", "order_up=never", "name_trump=always"), log=False)
    assert (df["bid_round"] == 2).all() and (df["maker"] == (df["dealer"] + 1) % 4).all()
    assert (df["trump"] != df["upcard"] // 13).all()
    rnd = run(2000, specs=("random", "order_up=never"), log=False)
    assert (rnd.filter(pl.col("trump") >= 0)["trump"] != rnd.filter(pl.col("trump") >= 0)["upcard"] // 13).all()
    allowed = run(2000, specs=("heuristic", "order_up=never", "name_trump=always"), log=False,
                  allow_turned_down_suit=True)
    assert (allowed["trump"] == allowed["upcard"] // 13).sum() > 100


def test_eu10_all_pass_twice_throws_the_hand_in():
    df = run(300, specs=("heuristic", "order_up=never", "name_trump=never"))
    assert (df["trump"] == -1).all() and (df["maker"] == -1).all() and (df["bid_round"] == -1).all()
    assert (df["points0"] == 0).all() and (df["points1"] == 0).all()
    assert (df["plays"].list.len() == 0).all() and (df["trick_winners"].list.len() == 0).all()


def test_eu10_redeal_in_game_mode_passes_the_deal_and_scores_nothing():
    rows, _ = GAME.run_games(4, 0, 3000, Rules(), GAME.policies_from_specs(["random"]))
    rows = rows.sort("game", "hand_no").with_columns(
        pl.col("dealer").shift(-1).over("game").alias("next_dealer"),
        pl.col("total0").shift(1).over("game").fill_null(0).alias("before0"),
        pl.col("total1").shift(1).over("game").fill_null(0).alias("before1"))
    thrown = rows.filter(pl.col("trump") == -1)
    assert len(thrown) > 0
    assert (thrown["total0"] == thrown["before0"]).all() and (thrown["total1"] == thrown["before1"]).all()
    later = thrown.filter(pl.col("next_dealer").is_not_null())
    assert (later["next_dealer"] == (later["dealer"] + 1) % 4).all()


def test_eu10_games_where_nobody_can_score_are_refused():
    from simcore.errors import SimcoreError
    with pytest.raises(SimcoreError, match="did not reach the target"):
        GAME.run_games(1, 0, 2, Rules(), GAME.policies_from_specs(
            ["heuristic", "order_up=never", "name_trump=never"]))


def test_eu10_stick_the_dealer():
    df = run(500, specs=("heuristic", "order_up=never", "name_trump=never"), log=False,
             stick_the_dealer=True)
    assert (df["maker"] == df["dealer"]).all() and (df["bid_round"] == 2).all()
    assert (df["trump"] != df["upcard"] // 13).all()
    rnd = run(3000, specs=("random",), log=False, stick_the_dealer=True)
    assert (rnd["trump"] >= 0).all()


def test_eu11_makers_are_the_side_of_the_maker():
    df = run(2000, log=False).filter(pl.col("trump") >= 0)
    side = df["maker"] % 2
    made = df.filter(side == 0)
    assert ((made["points0"] > 0) == (made["side_tricks0"] >= 3)).all()
    made = df.filter(side == 1)
    assert ((made["points1"] > 0) == (made["side_tricks1"] >= 3)).all()


# ---------------------------------------------------------------- going alone


def test_eu12_lone_player_partner_sits_out():
    df = run(1000, specs=("heuristic", "alone=always", "defend_alone=never")).filter(pl.col("trump") >= 0)
    # asked from the dealer's left: the first makers'-side seat in that order goes alone
    first_maker_side = [next((row["dealer"] + i) % 4 for i in range(1, 5)
                             if ((row["dealer"] + i) - row["maker"]) % 2 == 0)
                        for row in df.iter_rows(named=True)]
    assert df["alone_maker"].to_list() == first_maker_side
    assert (df["alone_defender"] == -1).all() and (df["plays"].list.len() == 15).all()
    for row in df.iter_rows(named=True):
        out = ref.playing_hands(row)[(row["alone_maker"] + 2) % 4]
        assert not set(out) & set(row["plays"])
        assert row[f"tricks{(row['alone_maker'] + 2) % 4}"] == 0


def test_eu12_one_lone_player_per_side_at_most_both_sides_allowed():
    df = run(1000, specs=("heuristic", "alone=always", "defend_alone=always"))
    df = df.filter(pl.col("trump") >= 0)
    assert (df["alone_maker"] >= 0).all() and (df["alone_defender"] >= 0).all()
    assert (df["plays"].list.len() == 10).all()
    assert ((df["alone_maker"] - df["maker"]) % 2 == 0).all()
    assert ((df["alone_defender"] - df["maker"]) % 2 == 1).all()


def test_eu12_heuristic_goes_alone_with_a_sure_march():
    assert lone_hand(internal("JH JD AH AS AC", H), H)
    assert lone_hand(internal("JH JD AH KH 9H", H), H)
    assert not lone_hand(internal("JH AH KH 9C TS", H), H)


# ---------------------------------------------------------------- play


@pytest.mark.parametrize("dealer, alone_maker, alone_defender, leader", [
    (0, -1, -1, 1),  # left of the dealer
    (0, 3, -1, 0),  # left of the lone maker
    (1, -1, 0, 1),  # left of the lone defender
    (2, 1, 2, 2),  # both alone: the lone defender
    (3, 2, 1, 1),
])
def test_eu13_leader(dealer, alone_maker, alone_defender, leader):
    assert first_leader(dealer, alone_maker, alone_defender) == leader
    assert ref.first_leader(dealer, alone_maker, alone_defender) == leader


def test_eu13_engine_first_lead_comes_from_the_right_seat():
    df = run(2000, specs=("heuristic", "alone=random", "defend_alone=random")).filter(pl.col("trump") >= 0)
    cases = set()
    for row in df.iter_rows(named=True):
        lead = ref.first_leader(row["dealer"], row["alone_maker"], row["alone_defender"])
        assert row["plays"][0] in ref.playing_hands(row)[lead]
        cases.add((row["alone_maker"] >= 0, row["alone_defender"] >= 0))
    assert len(cases) == 4


def test_eu14_must_follow_suit():
    assert legal("AC KC 9S", "TC", S) == {parse_card("AC"), parse_card("KC")}
    assert legal("AD KH 9S", "TC", S) == {parse_card(t) for t in ("AD", "KH", "9S")}


def test_eu15_highest_trump_else_highest_of_the_suit_led():
    assert winner(["AH", "9S", "KH", "TS"], S) == 3
    assert winner(["TH", "AD", "KH", "AC"], S) == 2  # off-suit aces do not win
    assert winner(["AH", "JC"], S) == 1  # the left bower trumps
    df = run(500)
    for row in df.filter(pl.col("trump") >= 0).iter_rows(named=True):
        assert sum(row[f"tricks{s}"] for s in range(4)) == 5
        assert ref.replay(row)["trick_winners"] == row["trick_winners"]


# ---------------------------------------------------------------- scoring


@pytest.mark.parametrize("tricks, maker_alone, defender_alone, expected", [
    (3, False, False, (1, 0)),  # EU-16
    (4, False, False, (1, 0)),
    (5, False, False, (2, 0)),  # march
    (2, False, False, (0, 2)),  # EU-17 euchre
    (0, False, False, (0, 2)),
    (5, True, False, (4, 0)),  # EU-18 lone march
    (3, True, False, (1, 0)),
    (1, True, False, (0, 2)),
    (2, False, True, (0, 2)),  # EU-19 lone defender, 3 tricks
    (0, False, True, (0, 4)),  # lone defender takes all five
    (0, True, True, (0, 4)),
    (4, False, True, (1, 0)),
])
def test_eu16_to_eu19_scoring(tricks, maker_alone, defender_alone, expected):
    assert hand_points(tricks, maker_alone, defender_alone) == expected
    assert ref.points(tricks, maker_alone, defender_alone) == expected


def test_eu18_lone_makers_march_scores_four_in_play():
    df = run(3000, specs=("heuristic", "alone=always", "defend_alone=never"))
    march = df.filter(pl.col("trump") >= 0, pl.col("alone_maker") >= 0)
    side = march["maker"] % 2
    marched = march.filter(pl.when(side == 0).then(pl.col("side_tricks0")).otherwise(pl.col("side_tricks1")) == 5)
    assert len(marched) > 20
    pts = pl.when(marched["maker"] % 2 == 0).then(marched["points0"]).otherwise(marched["points1"])
    assert (marched.select(pts)[:, 0] == 4).all()


def test_eu19_lone_defender_all_five_scores_four_in_play():
    df = run(3000, specs=("heuristic", "alone=never", "defend_alone=always", "order_up=random"))
    lone = df.filter(pl.col("alone_defender") >= 0)
    side_d = 1 - lone["maker"] % 2
    d_tricks = [row[f"side_tricks{s}"] for row, s in zip(lone.iter_rows(named=True), side_d)]
    d_points = [row[f"points{s}"] for row, s in zip(lone.iter_rows(named=True), side_d)]
    assert {(t, p) for t, p in zip(d_tricks, d_points)} >= {(5, 4), (3, 2), (4, 2), (0, 0)}
    assert all(p == (4 if t == 5 else 2 if t >= 3 else 0) for t, p in zip(d_tricks, d_points))


def test_eu20_first_side_to_the_target_wins():
    for target in (10, 5):
        rows, games = GAME.run_games(8, 0, 200, Rules(target=target), GAME.policies_from_specs(["heuristic"]))
        assert ((games["final0"] >= target) ^ (games["final1"] >= target)).all()
        before = rows.sort("game", "hand_no").group_by("game").agg(
            pl.col("total0").slice(0, pl.len() - 1).max().fill_null(0),
            pl.col("total1").slice(0, pl.len() - 1).max().fill_null(0))
        assert (before["total0"] < target).all() and (before["total1"] < target).all()


# ---------------------------------------------------------------- hand-worked deals
# Seat 0 deals; the cards named are fixed (predeal), the rest are dealt at random, and each
# assertion holds whatever the random cards are.


def worked(predeal, *specs, count=20, **rules):
    return GAME.run_hands(1, 0, count, Rules(first_dealer="0", **rules),
                          GAME.policies_from_specs(["heuristic", *specs]), True, predeal=predeal)


def seat_of(row, c):
    return next(s for s, h in enumerate(ref.playing_hands(row)) if c in h)


def test_worked_eu4_left_bower_must_follow_a_trump_lead():
    df = worked({1: "JH AH KH QH TH", 2: "JD 9C TC QC KC", "upcard": "9H"}, "order_up=always",
                "alone=never", "defend_alone=never", "2=random")
    for row in df.iter_rows(named=True):
        assert row["trump"] == H and row["maker"] == 1
        assert row["plays"][:2] == [parse_card("JH"), parse_card("JD")]  # the only legal card


def test_worked_eu18_lone_makers_march_scores_four():
    df = worked({1: "JH JD AH KH QH", "upcard": "9H"}, "order_up=always")
    for row in df.iter_rows(named=True):
        assert (row["maker"], row["alone_maker"], row["alone_defender"]) == (1, 1, -1)
        assert row["tricks1"] == 5 and (row["points0"], row["points1"]) == (0, 4)
        assert len(row["plays"]) == 15 and seat_of(row, row["plays"][0]) == 2  # EU-13
        assert not set(row["plays"]) & set(ref.cards_of(row["hand3"]))  # the partner sits out


def test_worked_eu19_lone_defender_takes_all_five_for_four():
    deal = {1: "9C TC 9S TS QD", 2: "JH JD AH KH QH", "upcard": "9H"}
    df = worked(deal, "order_up=always", "alone=never")
    for row in df.iter_rows(named=True):
        assert (row["maker"], row["alone_maker"], row["alone_defender"]) == (1, -1, 2)
        assert row["picked_up"] and row["tricks2"] == 5 and row["tricks0"] == 0  # dealer sits out
        assert (row["points0"], row["points1"]) == (4, 0)
        assert seat_of(row, row["plays"][0]) == 3  # EU-13: left of the lone player


def test_worked_eu17_euchre_scores_two_for_the_defenders():
    deal = {1: "9C TC 9S TS QD", 2: "JH JD AH KH QH", "upcard": "9H"}
    df = worked(deal, "order_up=always", "alone=never", "defend_alone=never")
    for row in df.iter_rows(named=True):
        assert row["side_tricks1"] < 3 and (row["points0"], row["points1"]) == (2, 0)
        assert seat_of(row, row["plays"][0]) == 1  # EU-13: left of the dealer


def test_worked_eu13_both_alone_the_lone_defender_leads():
    df = worked({1: "JH JD AH KH QH", "upcard": "9H"}, "order_up=always", "defend_alone=always")
    for row in df.iter_rows(named=True):
        assert (row["alone_maker"], row["alone_defender"]) == (1, 2)
        assert len(row["plays"]) == 10 and seat_of(row, row["plays"][0]) == 2


def test_worked_eu9_turned_down_suit_rule():
    deal = {1: "JH JD AH KH QH", "upcard": "9H"}
    banned = worked(deal, "order_up=never", "name_trump=always")
    assert (banned["maker"] == 1).all() and (banned["trump"] != H).all()
    allowed = worked(deal, "order_up=never", "name_trump=always", allow_turned_down_suit=True)
    assert (allowed["maker"] == 1).all() and (allowed["trump"] == H).all()


def test_worked_eu10_redeal_and_stick_the_dealer():
    deal = {0: "JS JC AS KS 9D", "upcard": "9H"}
    thrown = worked(deal, "order_up=never", "name_trump=never")
    assert (thrown["trump"] == -1).all() and (thrown["points0"] + thrown["points1"] == 0).all()
    stuck = worked(deal, "order_up=never", "name_trump=never", stick_the_dealer=True)
    assert (stuck["maker"] == 0).all() and (stuck["trump"] == S).all()
    assert (stuck["bid_round"] == 2).all()


def test_predeal_rejects_bad_cards():
    from simcore.errors import SimcoreError
    for bad in ({1: "2H JD AH KH QH"}, {1: "JH JD AH"}, {1: "JH JD AH KH QH", 2: "JH 9C TC QC KC"},
                {"upcard": "9H 9C"}, {5: "JH JD AH KH QH"}):
        with pytest.raises(SimcoreError):
            worked(bad)
