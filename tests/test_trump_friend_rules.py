"""Trump Friend: one or more tests per rule of docs/rules/trump_friend.md (TF-1 ... TF-18).

Three kinds of evidence:
- hand-worked scenarios on the jitted pieces (``tricks.trick_winner`` with internal ids,
  ``engine.score``), numbers taken from the rules text;
- real deals from ``run_hands`` / ``run_games`` that exhibit a situation (selected from the
  output), checked against the rule directly;
- a harness that runs the engine's own ``play_and_record`` with its play dispatcher and friend
  call swapped (``base.rebind``, the mechanism user policies use): it records what every
  policy call receives (TF-5.5) and lets the declarer name a card of their own hand (TF-5.4),
  which no built-in declaration policy does.
"""

from __future__ import annotations

import numba as nb
import numpy as np
import polars as pl
import pytest

from reference import trump_friend as ref
from simcore.cards import cards_of_hand, hand_from_cards, highest_bit, parse_card, suit_of
from simcore.errors import SimcoreError
from simcore.games import get
from simcore.games.base import rebind
from simcore.games.trump_friend import engine, layout
from simcore.games.trump_friend.policies import card_points, choose_friend, random_play
from simcore.games.trump_friend.rules import Rules
from simcore.rng import GOLDEN, stream_key
from simcore.tricks import follow_mask, trick_winner

GAME = get("trump-friend")
SEATS = range(5)
NO_TRUMP = 4
CLUBS, DIAMONDS, HEARTS, SPADES = range(4)
MASK64 = (1 << 64) - 1


# ---------------------------------------------------------------- helpers


def internal(text: str) -> int:
    return int(layout.TO_INTERNAL[parse_card(text)])


def winner_of(cards: str, trump: int) -> int:
    """Position (0 = led) of the engine's winner of a trick written as text."""
    ids = np.array([internal(c) for c in cards.split()], np.int64)
    return int(trick_winner(ids, len(ids), trump))


def engine_score(points, declarer, friend_seat=-1, no_friend=False):
    """engine.score: ``friend_seat`` -1 means the declarer's team is the declarer alone."""
    delta = np.zeros(5, np.int64)
    d, o = engine.score(np.array(points, np.int64), declarer, friend_seat, no_friend, delta)
    return int(d), int(o), delta.tolist()


def hands_of(row):
    return [int(row[f"hand{s}"]) for s in SEATS]


def seat_values(row, stem):
    return [int(row[f"{stem}{s}"]) for s in SEATS]


def owner(hands, card):
    return next(s for s in SEATS if hands[s] >> card & 1)


def tricks_of(row):
    plays = list(row["plays"])
    return [plays[5 * t: 5 * t + 5] for t in range(10)]


def leaders_of(row):
    """TF-6 then TF-9: left of the declarer, then each trick's winner."""
    return [(row["declarer"] + 1) % 5] + list(row["trick_winners"])[:9]


def assert_matches_reference(row):
    replay = ref.replay_round(hands_of(row), row["kitty"], row["declarer"], row["trump"],
                              row["friend_card"], row["plays"])
    assert list(row["trick_winners"]) == replay.trick_winners
    assert seat_values(row, "points") == replay.points
    assert row["friend_seat"] == replay.friend_seat
    assert row["friend_own"] == replay.friend_own
    assert (row["declarer_team_points"], row["defender_points"]) == (
        replay.score.declarer_points, replay.score.defender_points)
    assert seat_values(row, "delta") == replay.score.delta
    return replay


def run(seed, count, specs, log_plays=True, start=0, **rules):
    return GAME.run_hands(seed, start, count, Rules(**rules), GAME.policies_from_specs(specs),
                          log_plays=log_plays)


@pytest.fixture(scope="module")
def random_deals():
    """Random play, random trump and friend calls, every declarer seat."""
    return run(404, 3000, ["random", "trump=random", "friend=random"], first_declarer="random")


@pytest.fixture(scope="module")
def heuristic_deals():
    return run(405, 3000, ["heuristic", "trump=random", "friend=random"], first_declarer="random")


@pytest.fixture(scope="module")
def deal_rows(random_deals, heuristic_deals):
    return list(random_deals.iter_rows(named=True)) + list(heuristic_deals.iter_rows(named=True))


@pytest.fixture(scope="module")
def short_games():
    """Many short games (L = 20) of the default policies."""
    return GAME.run_games(77, 0, 1500, Rules(losing_line=20), GAME.policies_from_specs([]),
                          log_plays=True)


def game_rows(hands: pl.DataFrame, game: int):
    return list(hands.filter(pl.col("game") == game).sort("hand_no").iter_rows(named=True))


# ---------------------------------------------------------------- TF-1 players and direction


def test_tf1_five_seats():
    assert GAME.n_seats == 5
    with pytest.raises(SimcoreError):
        GAME.policies_from_specs(["5=random"])


def test_tf1_play_passes_to_the_left(deal_rows):
    """The i-th card of a trick comes from the seat i places left of the leader."""
    for row in deal_rows[:2000]:
        hands = hands_of(row)
        for trick, leader in zip(tricks_of(row), leaders_of(row)):
            assert [owner(hands, c) for c in trick] == [(leader + i) % 5 for i in range(5)]


# ---------------------------------------------------------------- TF-2 / TF-4 the deck and the deal


def test_tf2_one_standard_52_card_deck(deal_rows):
    for row in deal_rows:
        masks = hands_of(row) + [int(row["kitty"])]
        assert sum(bin(m).count("1") for m in masks) == 52
        everything = 0
        for m in masks:
            assert everything & m == 0
            everything |= m
        assert everything == (1 << 52) - 1


def test_tf4_ten_cards_each_and_a_kitty_of_two(deal_rows):
    for row in deal_rows:
        assert [bin(h).count("1") for h in hands_of(row)] == [10] * 5
        assert bin(int(row["kitty"])).count("1") == 2


def test_tf4_kitty_takes_no_part_in_play_and_its_points_count_for_nobody(deal_rows):
    with_kitty_points = 0
    for row in deal_rows:
        kitty = set(cards_of_hand(row["kitty"]))
        assert kitty.isdisjoint(row["plays"])
        kitty_points = ref.cards_points(kitty)
        with_kitty_points += kitty_points > 0
        assert sum(seat_values(row, "points")) == 20 - kitty_points
        assert row["declarer_team_points"] + row["defender_points"] == 20 - kitty_points
    assert with_kitty_points > 100


def test_tf4_every_round_is_a_fresh_shuffle_of_all_52_cards():
    """Over many deals every card lands in every seat and in the kitty about as often as a
    uniform shuffle says (10/52 per seat, 2/52 kitty); loose bounds, fixed seed."""
    df = run(406, 20000, ["random", "friend=none"], log_plays=False)
    n = df.height
    counts = np.zeros((6, 52))
    for s, col in enumerate([f"hand{s}" for s in SEATS] + ["kitty"]):
        bits = df[col].to_numpy().astype(np.uint64)
        for c in range(52):
            counts[s, c] = ((bits >> np.uint64(c)) & np.uint64(1)).sum()
    expected = np.array([10] * 5 + [2])[:, None] / 52 * n
    assert np.all(np.abs(counts - expected) < 6 * np.sqrt(expected))
    # consecutive deals are different deals
    assert df["hand0"].n_unique() == n


# ---------------------------------------------------------------- TF-3 rank order


TF3_LOW_TO_HIGH = ["4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2", "3"]


@pytest.mark.parametrize("suit", "CDHS")
def test_tf3_rank_order_three_two_ace_down_to_four(suit):
    for lo in range(13):
        for hi in range(lo + 1, 13):
            low, high = TF3_LOW_TO_HIGH[lo] + suit, TF3_LOW_TO_HIGH[hi] + suit
            for trump in (NO_TRUMP, "CDHS".index(suit), ("CDHS".index(suit) + 1) % 4):
                assert winner_of(f"{low} {high}", trump) == 1
                assert winner_of(f"{high} {low}", trump) == 0


def test_tf3_three_beats_two_beats_ace_in_a_full_trick():
    assert winner_of("AH 2H KH 3H QH", NO_TRUMP) == 3
    assert winner_of("AH 2H KH 4H QH", NO_TRUMP) == 1
    assert winner_of("4S 5S 10S JS 6S", NO_TRUMP) == 3


def test_tf3_internal_hands_convert_to_public_ids_card_by_card():
    """The engine converts whole hands from its TF-3 order with bit operations; each card
    must land on its public id."""
    rng = np.random.default_rng(3)
    for c in range(52):
        assert layout.public_mask(np.uint64(1) << np.uint64(layout.TO_INTERNAL[c])) == 1 << c
    for _ in range(2000):
        cards = rng.choice(52, size=rng.integers(0, 53), replace=False)
        internal = hand_from_cards(int(layout.TO_INTERNAL[c]) for c in cards)
        assert layout.public_mask(np.uint64(internal)) == hand_from_cards(int(c) for c in cards)


def test_point_cards_ace_two_kqj_one_total_twenty():
    expected = {"A": 2, "K": 1, "Q": 1, "J": 1}
    total = 0
    for c in range(52):
        rank = "23456789TJQKA"[c % 13]
        assert card_points(int(layout.TO_INTERNAL[c])) == expected.get(rank, 0)
        total += expected.get(rank, 0)
    assert total == 20


# ---------------------------------------------------------------- TF-5 declaration


def test_tf5_1_trump_is_a_suit_or_no_trump(random_deals):
    assert set(random_deals["trump"].unique().to_list()) == {0, 1, 2, 3, 4}
    notrump = run(407, 200, ["random", "trump=notrump"])
    assert notrump["trump"].to_list() == [NO_TRUMP] * 200


def test_tf5_2_friend_is_whoever_holds_the_named_card(deal_rows):
    seen = 0
    for row in deal_rows:
        if row["friend_card"] < 0:
            continue
        hands = hands_of(row)
        holders = [s for s in SEATS if hands[s] >> row["friend_card"] & 1]
        assert row["friend_seat"] == (holders[0] if holders else -1)
        if holders and holders[0] != row["declarer"]:
            seen += 1
            team = {row["declarer"], holders[0]}
            points = seat_values(row, "points")
            assert row["declarer_team_points"] == sum(points[s] for s in team)
            # the friend is the card's holder, known or not: they share the team's fate
            delta = seat_values(row, "delta")
            assert delta[row["declarer"]] == delta[holders[0]]
    assert seen > 4000


def test_tf5_2_no_friend_means_declarer_alone_against_four():
    df = run(408, 500, ["heuristic", "friend=none"], first_declarer="random")
    for row in df.iter_rows(named=True):
        assert row["friend_card"] == -1 and row["friend_seat"] == -1 and not row["friend_own"]
        points = seat_values(row, "points")
        assert row["declarer_team_points"] == points[row["declarer"]]
        assert_matches_reference(row)


def test_tf5_3_friend_card_in_kitty_is_a_with_friend_round_of_the_declarer_alone():
    """Hand-worked: declarer 12, defenders 8, friend card in the kitty.  The team is the
    declarer alone, but it is not a No-friend round: the defenders lose 12 - 8 = 4, not 16."""
    assert engine_score([12, 2, 2, 2, 2], 0, friend_seat=-1, no_friend=False) == (
        12, 8, [0, -4, -4, -4, -4])
    assert engine_score([3, 12, 2, 1, 0], 1, friend_seat=-1, no_friend=False) == (
        12, 6, [-6, 0, -6, -6, -6])
    assert ref.score_round([12, 2, 2, 2, 2], 0, friend_card=parse_card("3S"), holder=-1).delta == [
        0, -4, -4, -4, -4]


def test_tf5_3_friend_card_in_kitty_real_deals(deal_rows):
    kitty_rows = [r for r in deal_rows if r["friend_card"] >= 0 and r["kitty"] >> r["friend_card"] & 1]
    assert len(kitty_rows) > 30
    for row in kitty_rows:
        assert row["friend_seat"] == -1 and not row["friend_own"]
        assert row["friend_card"] not in row["plays"]
        points = seat_values(row, "points")
        d, o = points[row["declarer"]], sum(points) - points[row["declarer"]]
        assert (row["declarer_team_points"], row["defender_points"]) == (d, o)
        expected = [0] * 5
        for s in SEATS:
            if d > o and s != row["declarer"]:
                expected[s] = -(d - o)
            if d < o and s == row["declarer"]:
                expected[s] = -(o - d)
        assert seat_values(row, "delta") == expected


def test_tf5_3_kitty_friend_declarer_win_gets_no_bonus():
    """A real deal where the declarer alone (friend card in the kitty) beats the four."""
    df = run(409, 30000, ["heuristic", "friend=random"], log_plays=False, first_declarer="random")
    rows = df.filter(
        (pl.col("friend_card") >= 0) & (pl.col("friend_seat") == -1)
        & (pl.col("declarer_team_points") > pl.col("defender_points"))
    )
    assert rows.height > 0
    for row in rows.iter_rows(named=True):
        d, o = row["declarer_team_points"], row["defender_points"]
        assert seat_values(row, "delta") == [0 if s == row["declarer"] else -(d - o) for s in SEATS]


def test_tf5_4_declarer_naming_own_card_plays_alone_without_bonus():
    """Hand-worked: declarer 0 named a card of their own hand; D 12, O 8 -> defenders -4;
    D 7, O 13 -> the declarer alone loses 6 (nobody else is on the team)."""
    assert engine_score([12, 2, 2, 2, 2], 0, friend_seat=-1, no_friend=False) == (
        12, 8, [0, -4, -4, -4, -4])
    assert engine_score([7, 5, 4, 2, 2], 0, friend_seat=-1, no_friend=False) == (
        7, 13, [-6, 0, 0, 0, 0])
    own = parse_card("AS")
    assert ref.score_round([7, 5, 4, 2, 2], 0, own, holder=0).delta == [-6, 0, 0, 0, 0]


def test_tf5_4_default_policies_never_name_their_own_card(deal_rows):
    assert not any(row["friend_own"] for row in deal_rows)
    for row in deal_rows:
        if row["friend_card"] >= 0:
            assert not hands_of(row)[row["declarer"]] >> row["friend_card"] & 1


# ---------------------------------------------------------------- the harness (TF-5.4, TF-5.5)

OWN_CARD = 9  # harness friend-call id: the declarer names the strongest card of their own hand
SCRIBBLER = 7  # harness play-policy id: plays randomly, then uses its view as scratch space
RECORDER = 8  # harness play-policy id: plays randomly; any id but 0 (random) makes the engine keep the view
REC = 4 + layout.VIEW_SIZE  # one record per policy call: seat, hand, legal, stream state, view


@nb.njit
def _friend_or_own(policy, hand, trump, st):
    if policy == OWN_CARD:
        return highest_bit(hand)
    return choose_friend(policy, hand, trump, st)


@nb.njit
def _recording_play(policy, seat, hand, legal, view, st):
    """Records what a play policy receives (into st[2:], past the stream state), then plays
    a random legal card."""
    n = np.int64(st[1])
    base = 2 + n * REC
    st[base] = np.uint64(seat)
    st[base + 1] = hand
    st[base + 2] = legal
    st[base + 3] = st[0]
    for i in range(view.shape[0]):
        st[base + 4 + i] = np.uint64(view[i])
    st[1] = np.uint64(n + 1)
    card = random_play(seat, hand, legal, view, st)
    if policy == SCRIBBLER:
        for j in range(view[layout.V_NPLAYED]):  # e.g. sorting the trick in place
            view[layout.V_TRICK_CARDS + j] = 0
    return card


@pytest.fixture(scope="module")
def harness():
    """The engine's play_and_record around the recording policy and the own-card friend call
    (compiled once, ~6 s)."""
    round_fn = nb.njit(rebind(engine.play_round.py_func, play=_recording_play))
    # the declarer's calls go through the engine's ``declare`` hook (TF-5)
    declare_fn = nb.njit(rebind(engine.declare.py_func, choose_friend=_friend_or_own))
    record_fn = nb.njit(rebind(engine.play_and_record.py_func, play_round=round_fn,
                               declare=declare_fn))

    def play(seed, deal_id, declarer, friend_policy, allow_own=True, trump_policy=3,
             policies=(RECORDER,) * 5):
        deal_st = np.array([stream_key(np.uint64(seed), np.uint64(deal_id), 0, 0)], np.uint64)
        st = np.zeros(2 + 50 * REC, np.uint64)  # the policies' stream, then the records
        small = np.zeros((1, layout.N_SMALL), np.int8)
        wide = np.zeros((1, layout.N_WIDE), np.uint64)
        values = np.zeros((1, layout.N_SEAT_VALUES, 5), np.int16)
        plays = np.zeros((1, 50), np.uint8)
        winners = np.zeros((1, 10), np.int8)
        ok = record_fn(deal_st, st, np.zeros(52, np.int64), np.zeros(5, np.uint64),
                       np.zeros(5, np.int64), np.zeros(layout.VIEW_SIZE, np.int64), np.zeros(5, np.int64),
                       np.zeros(5, np.int64), np.uint64(seed), np.uint64(deal_id), declarer,
                       allow_own, trump_policy, friend_policy, np.array(policies, np.int64), small,
                       wide, values, 0, plays, winners, 0, False)
        assert ok
        row = {name: int(small[0, k]) for k, name in enumerate(layout.SMALL_COLUMNS)}
        row |= {name: bool(row[name]) for name in layout.BOOL_COLUMNS}
        row |= {name: int(wide[0, k]) for k, name in enumerate(layout.WIDE_COLUMNS)
                if name not in ("game", "hand_no")}
        for s in SEATS:
            row[f"points{s}"] = int(values[0, layout.SV_POINTS, s])
            row[f"delta{s}"] = int(values[0, layout.SV_DELTA, s])
        row["plays"] = plays[0].tolist()
        row["trick_winners"] = winners[0].tolist()
        calls = st[2:2 + int(st[1]) * REC].reshape(-1, REC)
        return row, calls

    return play


def internal_mask(cards) -> int:
    return hand_from_cards(int(layout.TO_INTERNAL[c]) for c in cards)


def test_tf5_4_declarer_may_name_own_card_team_is_declarer_alone(harness):
    for k in range(300):
        declarer = k % 5
        row, _ = harness(510, k, declarer, OWN_CARD)
        assert row["friend_own"]
        assert row["friend_seat"] == declarer
        assert hands_of(row)[declarer] >> row["friend_card"] & 1
        points = seat_values(row, "points")
        d, o = points[declarer], sum(points) - points[declarer]
        assert (row["declarer_team_points"], row["defender_points"]) == (d, o)
        # a with-friend round: the difference, never 2D - O
        expected = [0] * 5
        for s in SEATS:
            if d > o and s != declarer:
                expected[s] = -(d - o)
            if d < o and s == declarer:
                expected[s] = -(o - d)
        assert seat_values(row, "delta") == expected
        assert_matches_reference(row)


def test_option_allow_own_card_false_names_a_card_not_held(harness):
    for k in range(100):
        declarer = k % 5
        row, _ = harness(511, k, declarer, OWN_CARD, allow_own=False)
        assert not row["friend_own"]
        assert row["friend_card"] >= 0
        assert not hands_of(row)[declarer] >> row["friend_card"] & 1
        assert row["friend_seat"] != declarer
        assert_matches_reference(row)


def expected_view(row, k):
    """The view at the k-th play of a round, built from public information only (TF-5.5)."""
    plays = list(row["plays"])
    tricks, leaders, winners = tricks_of(row), leaders_of(row), list(row["trick_winners"])
    t, i = divmod(k, 5)
    played = plays[:k]
    hands = hands_of(row)
    played_by = {c: owner(hands, c) for c in played}
    view = {
        layout.V_DECLARER: row["declarer"],
        layout.V_TRUMP: row["trump"],
        layout.V_FRIEND_CARD: int(layout.TO_INTERNAL[row["friend_card"]]) if row["friend_card"] >= 0 else -1,
        layout.V_FRIEND_SEAT: played_by.get(row["friend_card"], -1),
        layout.V_TRICK: t,
        layout.V_LEADER: leaders[t],
        layout.V_NPLAYED: i,
        layout.V_PLAYED: internal_mask(played),
    }
    for j in range(i):
        view[layout.V_TRICK_CARDS + j] = int(layout.TO_INTERNAL[tricks[t][j]])
    for j in range(i, 5):  # slots not yet refilled still hold the last trick (public)
        if t > 0:
            view[layout.V_TRICK_CARDS + j] = int(layout.TO_INTERNAL[tricks[t - 1][j]])
    for s in SEATS:
        view[layout.V_POINTS + s] = sum(ref.cards_points(tricks[u]) for u in range(t) if winners[u] == s)
    for c in range(52):
        view[layout.V_PLAYED_BY + int(layout.TO_INTERNAL[c])] = played_by.get(c, -1)
    return view


def check_policy_inputs(row, calls):
    """Every policy call got its own seat's current hand and the public view, nothing else."""
    assert len(calls) == 50
    hands = hands_of(row)
    plays = list(row["plays"])
    leaders = leaders_of(row)
    for k, call in enumerate(calls):
        t, i = divmod(k, 5)
        seat = (leaders[t] + i) % 5
        assert int(call[0]) == seat
        mine = [c for c in cards_of_hand(hands[seat]) if c not in plays[:k]]
        assert int(call[1]) == internal_mask(mine)  # its own hand, as it stands
        led = suit_of(plays[5 * t]) if i else None
        assert int(call[2]) == internal_mask(ref.legal_cards(set(mine), led))
        view = call[4:].view(np.int64)
        for slot, value in expected_view(row, k).items():
            assert view[slot] == value, (k, slot)


def test_random_policy_rounds_skip_the_view_and_play_the_same_cards(harness):
    """With every seat on ``random`` (id 0) the engine plays ``play_round_random``: no view,
    no dispatch, branch-free winners and points; the cards played, winners and scores are
    exactly those of a view-keeping run with the same draws (every trump and friend call,
    the friend card in the kitty or the declarer's hand included)."""
    for k in range(300):
        friend_policy = [0, 1, 2, OWN_CARD][k % 4]
        kept, _ = harness(516, k, k % 5, friend_policy, trump_policy=k % 4)
        skipped, calls = harness(516, k, k % 5, friend_policy, trump_policy=k % 4,
                                 policies=(0,) * 5)
        assert skipped == kept, k
        assert calls.shape[0] == 0  # no policy was called, so nothing saw a view


def test_tf5_5_policy_receives_only_its_hand_and_public_information(harness):
    for k in range(60):
        row, calls = harness(512, k, k % 5, [0, 1, 2, OWN_CARD][k % 4])
        check_policy_inputs(row, calls)


def test_tf5_5_friend_seat_hidden_until_the_friend_card_is_played(harness):
    cases = {"other": 0, "kitty": 0, "own": 0}
    for k in range(400):
        row, calls = harness(513, k, k % 5, [0, 2, OWN_CARD][k % 3])
        if row["friend_card"] < 0:
            continue
        plays = list(row["plays"])
        when = plays.index(row["friend_card"]) if row["friend_card"] in plays else 50
        by = owner(hands_of(row), row["friend_card"]) if when < 50 else -1
        seen = [int(call[4:].view(np.int64)[layout.V_FRIEND_SEAT]) for call in calls]
        assert seen == ([-1] * 50 if when == 50 else [-1] * (when + 1) + [by] * (49 - when))
        kind = "kitty" if when == 50 else ("own" if by == row["declarer"] else "other")
        cases[kind] += 1
    assert min(cases.values()) > 0, cases


def test_tf5_5_policy_random_stream_does_not_reveal_other_hands(harness):
    """A policy also receives ``st``, the per-deal random stream.  It must not be able to
    learn another seat's hand from it.

    Currently it can: ``st[0]`` is the live SplitMix64 counter of the very stream that
    shuffled the deck, so stepping it back by k * GOLDEN and re-running ``engine.deal`` gives
    every hand and the kitty.  This test plays that "policy" with the inputs of the first
    lead and fails while the leak exists.
    """
    row, calls = harness(514, 0, 0, 0, trump_policy=0)
    seat, own_hand, state = int(calls[0][0]), int(calls[0][1]), int(calls[0][3])
    deck, hands = np.zeros(52, np.int64), np.zeros(5, np.uint64)
    recovered = None
    for back in range(200):
        st = np.array([(state - back * int(GOLDEN)) & MASK64], np.uint64)
        engine.deal(st, deck, hands)
        if int(hands[seat]) == own_hand:
            recovered = [int(h) for h in hands]
            break
    actual = [internal_mask(cards_of_hand(h)) for h in hands_of(row)]
    others = [s for s in SEATS if s != seat]
    assert recovered is None or [recovered[s] for s in others] != [actual[s] for s in others], (
        f"seat {seat}'s policy rebuilt every other hand from its random stream "
        f"(stepped back {back} draws)")


def test_tf8_policy_writing_to_its_view_cannot_change_trick_winners(harness):
    """A policy receives ``view`` as a writable array, and the engine then reads the trick's
    cards back from that same array (``view[V_TRICK_CARDS:]``) to find the winner and count
    the points.  A user policy that scribbles on its view (here: the seat-2 policy zeroes the
    slots of cards already in the trick) must not change who wins what; the logged plays
    are the truth.  Fails while the engine trusts the policy-writable view.
    """
    bad = 0
    for k in range(50):
        row, _ = harness(515, k, k % 5, 0, policies=(RECORDER, RECORDER, SCRIBBLER, RECORDER, RECORDER))
        try:
            replay = ref.replay_round(hands_of(row), row["kitty"], row["declarer"], row["trump"],
                                      row["friend_card"], row["plays"])
        except ref.RuleViolation:  # a wrong trick winner then leads the next trick (TF-9)
            bad += 1
            continue
        bad += (list(row["trick_winners"]) != replay.trick_winners
                or seat_values(row, "points") != replay.points)
    assert bad == 0, f"{bad} of 50 rounds scored from the policy's scribbles, not the plays"


# ---------------------------------------------------------------- TF-6 first leader


def test_tf6_left_of_declarer_leads_the_first_trick(deal_rows):
    declarers = set()
    for row in deal_rows:
        first = row["plays"][0]
        assert owner(hands_of(row), first) == (row["declarer"] + 1) % 5
        declarers.add(row["declarer"])
    assert declarers == set(SEATS)


def test_tf6_first_leader_in_every_round_of_a_game(short_games):
    hands, _ = short_games
    for row in hands.head(3000).iter_rows(named=True):
        assert owner(hands_of(row), row["plays"][0]) == (row["declarer"] + 1) % 5


# ---------------------------------------------------------------- TF-7 following suit


def test_tf7_must_follow_the_led_suit_when_able(deal_rows):
    for row in deal_rows:
        held = [set(cards_of_hand(h)) for h in hands_of(row)]
        for trick, leader in zip(tricks_of(row), leaders_of(row)):
            led = suit_of(trick[0])
            for i, card in enumerate(trick):
                seat = (leader + i) % 5
                if i and any(suit_of(c) == led for c in held[seat]):
                    assert suit_of(card) == led
                held[seat].remove(card)


def test_tf7_a_void_player_may_play_any_card_no_obligation_to_trump(random_deals):
    discarded_over_trump = 0
    trumped = 0
    for row in random_deals.iter_rows(named=True):
        trump = row["trump"]
        held = [set(cards_of_hand(h)) for h in hands_of(row)]
        for trick, leader in zip(tricks_of(row), leaders_of(row)):
            led = suit_of(trick[0])
            for i, card in enumerate(trick):
                seat = (leader + i) % 5
                void = all(suit_of(c) != led for c in held[seat])
                holds_trump = trump != NO_TRUMP and any(suit_of(c) == trump for c in held[seat])
                if i and void and holds_trump and led != trump:
                    if suit_of(card) == trump:
                        trumped += 1
                    else:
                        discarded_over_trump += 1
                held[seat].remove(card)
    assert discarded_over_trump > 100 and trumped > 100


def test_tf7_legal_cards_kernel():
    hand = internal_mask([parse_card(c) for c in "3H 4H 2S AC".split()])
    assert int(follow_mask(np.uint64(hand), HEARTS)) == internal_mask([parse_card("3H"), parse_card("4H")])
    assert int(follow_mask(np.uint64(hand), DIAMONDS)) == hand  # void: anything, trump or not


# ---------------------------------------------------------------- TF-8 trick winner


def test_tf8_1_highest_trump_wins():
    assert winner_of("3S 4H AS 2H KS", HEARTS) == 3
    assert winner_of("5H 3H 2H AH 4H", HEARTS) == 1


def test_tf8_1_any_trump_beats_the_best_card_of_the_led_suit():
    assert winner_of("3C 4D 2C AC KC", DIAMONDS) == 1
    assert winner_of("4D 3C 2C AC KC", DIAMONDS) == 0  # a trump led wins against non-trumps


def test_tf8_2_without_trumps_highest_card_of_led_suit_wins():
    assert winner_of("5H 3D 9H AC 6H", SPADES) == 2  # no spade played: hearts decide


def test_tf8_2_off_suit_cards_never_win_whatever_their_rank():
    assert winner_of("4C 3S 3H 3D 5C", NO_TRUMP) == 4
    assert winner_of("4C 3S 3H 3D 2D", NO_TRUMP) == 0  # everyone discards: the led 4 wins
    assert winner_of("4C 3S 3H 3D 2D", CLUBS) == 0


def test_tf8_no_trump_all_suits_equal():
    assert winner_of("KS AS 3H 2H 3C", NO_TRUMP) == 1
    for trump in (CLUBS, DIAMONDS, HEARTS, SPADES):
        assert winner_of("KS AS 3H 2H 3C", trump) == {CLUBS: 4, DIAMONDS: 1, HEARTS: 2, SPADES: 1}[trump]


def test_tf8_trick_winners_in_real_deals(deal_rows):
    """Every logged trick: the winning card is the highest trump if any, else the highest of
    the led suit; and the situations occur (trump over a led ace, no-trump rounds)."""
    trump_over_led = 0
    no_trump_tricks = 0
    for row in deal_rows:
        trump = row["trump"]
        for trick, leader, winner in zip(tricks_of(row), leaders_of(row), row["trick_winners"]):
            card = trick[(winner - leader) % 5]
            trumps = [c for c in trick if suit_of(c) == trump]
            pool = trumps or [c for c in trick if suit_of(c) == suit_of(trick[0])]
            assert card == max(pool, key=ref.strength)
            if trumps and suit_of(trick[0]) != trump:
                trump_over_led += 1
            no_trump_tricks += trump == NO_TRUMP
    assert trump_over_led > 1000 and no_trump_tricks > 1000


# ---------------------------------------------------------------- TF-9 / TF-10


def test_tf9_trick_winner_leads_next_and_keeps_the_point_cards(deal_rows):
    for row in deal_rows:
        hands = hands_of(row)
        tricks = tricks_of(row)
        winners = list(row["trick_winners"])
        for t in range(1, 10):
            assert owner(hands, tricks[t][0]) == winners[t - 1]
        points = [0] * 5
        for trick, w in zip(tricks, winners):
            points[w] += ref.cards_points(trick)
        assert seat_values(row, "points") == points


def test_tf10_ten_tricks_until_every_hand_is_empty(deal_rows):
    for row in deal_rows:
        assert len(row["plays"]) == 50 and len(row["trick_winners"]) == 10
        assert hand_from_cards(row["plays"]) == sum(hands_of(row))
        assert len(set(row["plays"])) == 50


# ---------------------------------------------------------------- TF-11 ... TF-13 scoring


def test_tf11_team_points_declarer_plus_friend():
    # declarer 1, friend 3: D = 5 + 4, O = 3 + 2 + 4 (2 points in the kitty)
    d, o, _ = engine_score([3, 5, 2, 4, 4], 1, friend_seat=3)
    assert (d, o) == (9, 9)
    d, o, _ = engine_score([3, 5, 2, 4, 6], 1, friend_seat=4)
    assert (d, o) == (11, 9)


def test_tf11_team_points_in_real_deals(deal_rows):
    for row in deal_rows:
        points = seat_values(row, "points")
        team = {row["declarer"]}
        if row["friend_seat"] >= 0:
            team.add(row["friend_seat"])
        assert row["declarer_team_points"] == sum(points[s] for s in team)
        assert row["defender_points"] == sum(points) - row["declarer_team_points"]


def test_tf12_every_member_of_losing_defence_loses_the_difference():
    # friend called (seat 2), team 13 vs 7: each of the three defenders -6
    assert engine_score([8, 3, 5, 2, 2], 0, friend_seat=2) == (13, 7, [0, -6, 0, -6, -6])


def test_tf12_winners_unchanged_losers_lose_difference_in_real_deals(deal_rows):
    for row in deal_rows:
        d, o = row["declarer_team_points"], row["defender_points"]
        team = {row["declarer"]} | ({row["friend_seat"]} if row["friend_seat"] >= 0 else set())
        delta = seat_values(row, "delta")
        if row["friend_card"] < 0 and d > o:
            continue  # TF-13
        for s in SEATS:
            losing = (s in team) == (d < o) and d != o
            assert delta[s] == (-abs(d - o) if losing else 0)


def test_tf12_tie_changes_nobodys_score():
    assert engine_score([10, 4, 2, 2, 2], 0, no_friend=True) == (10, 10, [0] * 5)
    assert engine_score([5, 4, 4, 3, 2], 0, friend_seat=1) == (9, 9, [0] * 5)
    assert engine_score([4, 2, 3, 5, 4], 2, friend_seat=-1) == (3, 15, [0, 0, -12, 0, 0])
    assert engine_score([4, 2, 9, 3, 0], 2, friend_seat=-1) == (9, 9, [0] * 5)  # 2 in the kitty


def test_tf12_tie_in_real_deals(deal_rows):
    ties = [r for r in deal_rows if r["declarer_team_points"] == r["defender_points"]]
    assert len(ties) > 50
    assert any(r["friend_card"] < 0 for r in ties) and any(r["friend_card"] >= 0 for r in ties)
    for row in ties:
        assert seat_values(row, "delta") == [0] * 5 and not row["declarer_won"]


def test_tf13_no_friend_declarer_win_doubles_points():
    """Rules example: No friend, declarer 12, defenders 8 -> each defender -(24 - 8) = -16."""
    assert engine_score([12, 2, 2, 2, 2], 0, no_friend=True) == (12, 8, [0, -16, -16, -16, -16])
    assert engine_score([1, 3, 2, 12, 2], 3, no_friend=True) == (12, 8, [-16, -16, -16, 0, -16])
    assert ref.score_round([12, 2, 2, 2, 2], 0, -1, -1).delta == [0, -16, -16, -16, -16]


def test_tf13_friend_called_team_loses_the_plain_difference():
    """Rules example: friend called, declarer + friend 7, defenders 13 -> both -6."""
    assert engine_score([4, 5, 3, 4, 4], 2, friend_seat=0) == (7, 13, [-6, 0, -6, 0, 0])
    assert ref.score_round([4, 5, 3, 4, 4], 2, parse_card("AH"), 0).delta == [-6, 0, -6, 0, 0]


def test_tf13_no_friend_declarer_loss_is_the_plain_difference():
    assert engine_score([8, 3, 3, 3, 3], 0, no_friend=True) == (8, 12, [-4, 0, 0, 0, 0])


def test_tf13_no_friend_bonus_in_real_deals():
    df = run(415, 3000, ["heuristic", "friend=none"], log_plays=False, first_declarer="random")
    wins = df.filter(pl.col("declarer_team_points") > pl.col("defender_points"))
    losses = df.filter(pl.col("declarer_team_points") < pl.col("defender_points"))
    assert wins.height > 50 and losses.height > 50
    for row in wins.iter_rows(named=True):
        d, o = row["declarer_team_points"], row["defender_points"]
        assert seat_values(row, "delta") == [0 if s == row["declarer"] else -(2 * d - o) for s in SEATS]
    for row in losses.iter_rows(named=True):
        d, o = row["declarer_team_points"], row["defender_points"]
        assert seat_values(row, "delta") == [-(o - d) if s == row["declarer"] else 0 for s in SEATS]


# ---------------------------------------------------------------- TF-14 ... TF-18 games


def test_tf14_everyone_starts_at_zero_and_scores_accumulate(short_games):
    hands, games = short_games
    for game in range(50):
        totals = [0] * 5
        for row in game_rows(hands, game):
            totals = [totals[s] + row[f"delta{s}"] for s in SEATS]
            assert seat_values(row, "total") == totals


def test_tf14_option_losing_line_sets_the_target():
    specs = GAME.policies_from_specs([])
    _, short = GAME.run_games(78, 0, 300, Rules(losing_line=20), specs)
    _, long = GAME.run_games(78, 0, 300, Rules(losing_line=200), specs)
    finals = lambda g: g.select(pl.min_horizontal([f"final{s}" for s in SEATS])).to_series()  # noqa: E731
    assert (finals(short) <= -20).all() and (finals(long) <= -200).all()
    assert long["hands"].mean() > 4 * short["hands"].mean()


def test_tf14_tf18_largest_losing_line_scores_and_winners_stay_exact():
    """Scores are 16-bit columns, so the losing line is capped at 30000 (a round moves a
    score by at most 40): at the cap, running scores, finals and winners are exact."""
    with pytest.raises(SimcoreError, match="at most 30000"):
        Rules(losing_line=30001)
    r = Rules(losing_line=30000)
    hands, games = GAME.run_games(79, 0, 1, r, GAME.policies_from_specs(["friend=none"]))
    game = games.row(0, named=True)
    deltas = hands.sort("hand_no").select([f"delta{s}" for s in SEATS]).to_numpy().astype(np.int64)
    totals = np.cumsum(deltas, axis=0)
    assert min(totals[-1]) <= -30000 < min(totals[-2])  # the game ended at the right hand
    true_winners = [s for s in SEATS if totals[-1][s] == totals[-1].max()]
    assert hands.sort("hand_no").select([f"total{s}" for s in SEATS]).to_numpy().tolist() == totals.tolist()
    assert seat_values(game, "final") == totals[-1].tolist()
    assert list(game["winners"]) == true_winners


def test_tf15_first_declarer_is_seat_zero_by_default(short_games):
    hands, _ = short_games
    assert set(hands.filter(pl.col("hand_no") == 0)["declarer"].to_list()) == {0}


@pytest.mark.parametrize("seat", ["0", "1", "2", "3", "4"])
def test_tf15_option_first_declarer_seat(seat):
    hands, _ = GAME.run_games(80, 0, 20, Rules(losing_line=20, first_declarer=seat),
                              GAME.policies_from_specs([]))
    assert set(hands.filter(pl.col("hand_no") == 0)["declarer"].to_list()) == {int(seat)}
    df = run(80, 50, [], log_plays=False, first_declarer=seat)
    assert set(df["declarer"].to_list()) == {int(seat)}  # hands mode: every hand


def test_tf15_option_first_declarer_random_is_drawn_from_the_seed():
    r = Rules(losing_line=20, first_declarer="random")
    specs = GAME.policies_from_specs([])
    a, _ = GAME.run_games(81, 0, 500, r, specs)
    b, _ = GAME.run_games(81, 0, 500, r, specs)
    firsts = a.filter(pl.col("hand_no") == 0)["declarer"]
    assert firsts.equals(b.filter(pl.col("hand_no") == 0)["declarer"])
    counts = firsts.value_counts()["count"].to_list()
    assert len(counts) == 5 and min(counts) > 60
    df = run(81, 2000, [], log_plays=False, first_declarer="random")
    assert min(df["declarer"].value_counts()["count"].to_list()) > 300


def test_tf16_declarer_passes_to_the_left_and_cards_are_reshuffled(short_games):
    hands, games = short_games
    long_games = games.filter(pl.col("hands") >= 3)["game"].to_list()[:100]
    assert long_games
    for game in long_games:
        rows = game_rows(hands, game)
        for prev, row in zip(rows, rows[1:]):
            assert row["declarer"] == (prev["declarer"] + 1) % 5
            assert hands_of(row) != hands_of(prev)
        ref.check_deal(hands_of(rows[-1]), rows[-1]["kitty"])


def _ends(rows, line, end_at):
    return [ref.game_over(seat_values(r, "total"), line, end_at) for r in rows]


def test_tf17_game_ends_after_the_first_round_reaching_minus_L(short_games):
    hands, games = short_games
    for game in range(200):
        rows = game_rows(hands, game)
        assert _ends(rows, 20, "reach") == [False] * (len(rows) - 1) + [True]
        assert min(seat_values(rows[-1], "total")) <= -20


def test_tf17_reach_stops_at_exactly_minus_L_but_exceed_plays_on(short_games):
    hands, games = short_games
    finals = games.select("game", pl.min_horizontal([f"final{s}" for s in SEATS]).alias("low"))
    exact = finals.filter(pl.col("low") == -20)["game"].to_list()
    assert exact, "no game ended exactly on the line"
    game = exact[0]
    reach_rows = game_rows(hands, game)
    h2, g2 = GAME.run_games(77, game, 1, Rules(losing_line=20, end_at="exceed"),
                            GAME.policies_from_specs([]), log_plays=True)
    exceed_rows = game_rows(h2, game)
    assert len(exceed_rows) > len(reach_rows)
    for a, b in zip(reach_rows, exceed_rows):  # the same rounds up to the reach end
        assert seat_values(a, "delta") == seat_values(b, "delta")
    assert _ends(exceed_rows, 20, "exceed") == [False] * (len(exceed_rows) - 1) + [True]
    assert min(g2.select([f"final{s}" for s in SEATS]).row(0)) < -20


def test_tf18_the_highest_score_wins(short_games):
    _, games = short_games
    for game in games.iter_rows(named=True):
        finals = seat_values(game, "final")
        best = max(finals)
        assert list(game["winners"]) == [s for s in SEATS if finals[s] == best]


def test_tf18_several_players_can_share_the_win(short_games):
    _, games = short_games
    shared = games.filter(pl.col("winners").list.len() > 1)
    assert shared.height > 0
    assert set(shared["winner"].to_list()) == {-1}
    single = games.filter(pl.col("winners").list.len() == 1)
    assert (single["winner"] == single["winners"].list.first()).all()


# ---------------------------------------------------------------- rules options


def test_options_defaults_match_the_rules_file():
    r = Rules()
    assert (r.losing_line, r.end_at, r.first_declarer, r.allow_own_card) == (100, "reach", "0", True)


@pytest.mark.parametrize("options", [
    {"losing_line": 0}, {"end_at": "never"}, {"first_declarer": "5"}, {"allow_own_card": "maybe"},
    {"no_such_option": 1},
])
def test_options_bad_values_are_rejected(options):
    with pytest.raises(SimcoreError):
        Rules.from_options(options)


def test_options_from_text():
    r = Rules.from_options({"losing-line": "50", "end-at": "exceed", "first-declarer": "random",
                            "allow-own-card": "no"})
    assert r == Rules(losing_line=50, end_at="exceed", first_declarer="random", allow_own_card=False)


# ---------------------------------------------------------------- a user play policy


@nb.njit
def highest_legal(seat, hand, legal, view, st):
    """A user policy: always the strongest legal card of the highest suit (internal ids)."""
    return highest_bit(legal)


@pytest.mark.slow  # compiles the kernels around the user's policy: about 30-60 s per process
def test_user_play_policy_is_obeyed():
    """A jitted policy written outside simcore, given to seats 0 and 3, decides their plays;
    the other seats keep the built-in heuristic."""
    choice = GAME.policies_from_specs({0: highest_legal, 3: highest_legal})
    df = GAME.run_hands(600, 0, 400, Rules(first_declarer="random"), choice, log_plays=True)
    mine = 0
    for row in df.iter_rows(named=True):
        assert_matches_reference(row)
        held = [set(cards_of_hand(h)) for h in hands_of(row)]
        for trick, leader in zip(tricks_of(row), leaders_of(row)):
            for i, card in enumerate(trick):
                seat = (leader + i) % 5
                if seat in (0, 3):
                    legal = ref.legal_cards(held[seat], suit_of(trick[0]) if i else None)
                    assert card == max(legal, key=lambda c: layout.TO_INTERNAL[c])
                    mine += 1
                held[seat].remove(card)
    assert mine == 400 * 20


def test_tf5_4_random_any_friend_call_names_own_cards_and_option_overrules_them():
    """``friend=random_any`` may name the declarer's own card (TF-5.4): such rounds are scored
    with the declarer alone; with ``allow_own_card=false`` no round names an own card."""
    choice = GAME.policies_from_specs(["random", "friend=random_any"])
    allowed = GAME.run_hands(91, 0, 4000, Rules(), choice, False)
    own = allowed.filter(pl.col("friend_own"))
    assert 500 < own.height < 1200  # about 10/53 of the rounds
    assert (own["friend_seat"] == own["declarer"]).all()
    for row in own.head(200).iter_rows(named=True):
        assert hands_of(row)[row["declarer"]] >> row["friend_card"] & 1
        points = seat_values(row, "points")
        assert row["declarer_team_points"] == points[row["declarer"]]
    refused = GAME.run_hands(91, 0, 4000, Rules(allow_own_card=False), choice, False)
    assert not refused["friend_own"].any()
    for row in refused.filter(pl.col("friend_card") >= 0).head(500).iter_rows(named=True):
        assert not hands_of(row)[row["declarer"]] >> row["friend_card"] & 1
