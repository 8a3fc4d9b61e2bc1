"""Trump Friend engine vs the plain-Python reference (tests/reference/trump_friend.py).

Every row of random runs is replayed card by card: legality (TF-6, TF-7, TF-9), trick winners
(TF-8), points (TF-9, TF-11) and score changes (TF-12, TF-13, TF-5.3, TF-5.4) must agree with the
engine exactly; whole games must agree on running totals, their end and their winners
(TF-14 ... TF-18).
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from reference import trump_friend as ref
from simcore.cards import cards_of_hand
from simcore.games import get
from simcore.games.trump_friend.rules import Rules

GAME = get("trump-friend")
SEATS = range(5)

# Policy mixes: random play explores odd situations (discards, trumping, kitty friends, no
# friend); heuristic play makes realistic rounds; mixed seats check per-seat dispatch.
POLICY_MIXES = [
    ["random", "trump=random", "friend=random"],
    ["heuristic"],
    ["heuristic", "trump=strongest", "friend=none"],
    ["random", "trump=notrump", "friend=highest"],
    ["random", "1=heuristic", "3=heuristic", "trump=random", "friend=random"],
    ["heuristic", "0=random", "trump=longest", "friend=random"],
]


def seat_values(row, stem):
    return [int(row[f"{stem}{s}"]) for s in SEATS]


def hands_of(row):
    return [int(row[f"hand{s}"]) for s in SEATS]


def check_row_invariants(row):
    """What must hold for any row, plays logged or not."""
    hands = hands_of(row)
    ref.check_deal(hands, row["kitty"])  # TF-2, TF-4: 10/10/10/10/10/2, the whole deck
    points = seat_values(row, "points")
    kitty_points = ref.cards_points(cards_of_hand(row["kitty"]))
    assert sum(points) == ref.DECK_POINTS - kitty_points  # TF-4, TF-11
    assert row["declarer_team_points"] + row["defender_points"] == ref.DECK_POINTS - kitty_points
    holder = ref.friend_holder(hands, row["friend_card"])
    assert row["friend_seat"] == holder
    assert row["friend_own"] == (row["friend_card"] >= 0 and holder == row["declarer"])
    expected = ref.score_round(points, row["declarer"], row["friend_card"], holder)  # TF-11..13
    assert row["declarer_team_points"] == expected.declarer_points
    assert row["defender_points"] == expected.defender_points
    assert seat_values(row, "delta") == expected.delta
    assert row["declarer_won"] == (expected.declarer_points > expected.defender_points)


def check_row_replay(row):
    """The reference replays the logged plays and must agree on everything."""
    check_row_invariants(row)
    replay = ref.replay_round(hands_of(row), row["kitty"], row["declarer"], row["trump"],
                              row["friend_card"], row["plays"])
    assert list(row["trick_winners"]) == replay.trick_winners
    assert seat_values(row, "points") == replay.points
    assert row["friend_seat"] == replay.friend_seat
    assert row["friend_own"] == replay.friend_own
    assert row["declarer_team_points"] == replay.score.declarer_points
    assert row["defender_points"] == replay.score.defender_points
    assert seat_values(row, "delta") == replay.score.delta


def run(seed, start, count, specs, log_plays=True, **rules):
    return GAME.run_hands(seed, start, count, Rules(**rules), GAME.policies_from_specs(specs),
                          log_plays=log_plays)


# ---------------------------------------------------------------- hands mode


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**64 - 1),
    start=st.integers(0, 2**40),
    mix=st.sampled_from(POLICY_MIXES),
    first=st.sampled_from(["random", "0", "2", "4"]),
)
def test_reference_replay_agrees_on_random_deals(seed, start, mix, first):
    df = run(seed, start, 150, mix, first_declarer=first)
    assert df.height == 150
    assert df["deal"].to_list() == list(range(start, start + 150))
    assert set(df["seed"].to_list()) == {seed}
    for row in df.iter_rows(named=True):
        check_row_replay(row)


@pytest.fixture(scope="module")
def large_batches():
    """Thousands of deals for each of three policy mixes, every declarer seat."""
    return {i: run(20261130, 0, 2000, POLICY_MIXES[i], first_declarer="random") for i in range(3)}


@pytest.mark.parametrize("mix", range(3))
def test_reference_replay_agrees_on_a_large_batch(large_batches, mix):
    for row in large_batches[mix].iter_rows(named=True):
        check_row_replay(row)


def test_large_batches_cover_the_special_cases(large_batches):
    """The cross-check is only as good as the cases it meets: kitty friends, no-friend rounds
    won and lost, D = O ties and No Trump must all occur in it."""
    import polars as pl

    df = pl.concat(list(large_batches.values()))
    kitty_friend = (df["friend_card"] >= 0) & (df["friend_seat"] < 0)
    no_friend = df["friend_card"] < 0
    d, o = df["declarer_team_points"], df["defender_points"]
    assert kitty_friend.sum() > 20
    assert (no_friend & (d > o)).sum() > 20
    assert (no_friend & (d < o)).sum() > 20
    assert (d == o).sum() > 20
    assert ((d == o) & ~no_friend).sum() > 5
    assert (df["trump"] == 4).sum() > 100
    assert df["declarer"].n_unique() == 5


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**64 - 1), mix=st.sampled_from(POLICY_MIXES))
def test_row_invariants_without_play_log(seed, mix):
    df = run(seed, 0, 2000, mix, log_plays=False, first_declarer="random")
    assert "plays" not in df.columns
    for row in df.iter_rows(named=True):
        check_row_invariants(row)


def test_same_deal_without_play_log_gives_same_row():
    with_log = run(7, 100, 300, POLICY_MIXES[0])
    without = run(7, 100, 300, POLICY_MIXES[0], log_plays=False)
    assert with_log.drop("plays", "trick_winners").equals(without)


# ---------------------------------------------------------------- game mode


GAME_CASES = [
    (dict(losing_line=50), ["heuristic"]),
    (dict(losing_line=30, end_at="exceed", first_declarer="random"),
     ["random", "trump=random", "friend=random"]),
    (dict(losing_line=100, first_declarer="3"), ["heuristic", "2=random", "friend=none"]),
    (dict(losing_line=20, end_at="reach", first_declarer="random"),
     ["random", "friend=random"]),
]


@pytest.mark.parametrize("rules,mix", GAME_CASES)
def test_reference_game_agrees(rules, mix):
    r = Rules(**rules)
    hands, games = GAME.run_games(11, 5, 80, r, GAME.policies_from_specs(mix), log_plays=True)
    assert games.height == 80
    assert games["game"].to_list() == list(range(5, 85))
    assert hands.height == games["hands"].sum()
    by_game = {g: df.sort("hand_no") for (g,), df in hands.group_by("game")}
    first_declarers = set()
    for game in games.iter_rows(named=True):
        rows = list(by_game[game["game"]].iter_rows(named=True))
        assert [row["hand_no"] for row in rows] == list(range(game["hands"]))
        assert len({row["deal"] for row in rows}) == len(rows)
        for row in rows:
            check_row_replay(row)
        first = rows[0]["declarer"]
        if r.first_declarer != "random":
            assert first == int(r.first_declarer)  # TF-15
        first_declarers.add(first)
        replay = ref.replay_game([seat_values(row, "delta") for row in rows], first,
                                 r.losing_line, r.end_at)
        assert [row["declarer"] for row in rows] == replay.declarers  # TF-16
        assert [seat_values(row, "total") for row in rows] == replay.totals  # TF-14
        assert seat_values(game, "final") == replay.finals  # TF-17
        assert list(game["winners"]) == replay.winners  # TF-18
        assert game["winner"] == (replay.winners[0] if len(replay.winners) == 1 else -1)
    if r.first_declarer == "random":
        assert len(first_declarers) == 5
