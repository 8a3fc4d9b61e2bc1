"""The polars card expressions (``pl.col(...).cards``) and ``seat_rows`` against plain Python
over random hand masks."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest

import simcore
from simcore.cards import RANKS, SUIT_SYMBOLS, cards_of_hand, parse_card
from simcore.errors import SimcoreError
from simcore.frames import GAME_POINTS, seat_rows

RNG = np.random.default_rng(38)


def random_hands(n: int = 500, size: int = 13) -> list[int]:
    hands = []
    for _ in range(n):
        k = int(RNG.integers(0, size + 1))
        hands.append(sum(1 << int(c) for c in RNG.choice(52, k, replace=False)))
    return hands + [0, (1 << 52) - 1]


HANDS = random_hands()
FRAME = pl.DataFrame({"hand": pl.Series(HANDS, dtype=pl.UInt64)})


def column(expr: pl.Expr) -> list:
    return FRAME.select(expr.alias("x"))["x"].to_list()


@pytest.mark.parametrize("suit, index", [("S", 3), ("s", 3), ("♠", 3), ("spades", 3), ("Spade", 3), (3, 3),
                                         ("C", 0), ("♦", 1), ("hearts", 2), (0, 0)])
def test_length_takes_a_suit_by_letter_symbol_name_or_index(suit, index):
    got = column(pl.col("hand").cards.length(suit))
    assert got == [sum(1 for c in cards_of_hand(h) if c // 13 == index) for h in HANDS]
    assert FRAME.select(pl.col("hand").cards.length(suit)).dtypes == [pl.Int8]


def test_length_by_a_suit_column():
    suits = RNG.integers(0, 4, len(HANDS))
    frame = FRAME.with_columns(pl.Series("suit", suits, dtype=pl.Int8))
    got = frame.select(pl.col("hand").cards.length(pl.col("suit")))["hand"].to_list()
    assert got == [sum(1 for c in cards_of_hand(h) if c // 13 == s) for h, s in zip(HANDS, suits)]


@pytest.mark.parametrize("card", ["AS", "2C", "10h", "T♥", "QD", 51, 0])
def test_has_a_card(card):
    cid = card if isinstance(card, int) else parse_card(card)
    assert column(pl.col("hand").cards.has(card)) == [bool(h >> cid & 1) for h in HANDS]


def test_has_a_card_column():
    cards = RNG.integers(0, 52, len(HANDS))
    frame = FRAME.with_columns(pl.Series("card", cards, dtype=pl.Int8))
    got = frame.select(pl.col("hand").cards.has(pl.col("card")))["hand"].to_list()
    assert got == [bool(h >> int(c) & 1) for h, c in zip(HANDS, cards)]


def test_count_a_list_of_cards():
    for cards in (["AS", "KS"], "AS, KS QS", [0, 13, 26, 39], ["2c"]):
        ids = {parse_card(c) if isinstance(c, str) else c
               for c in (cards.replace(",", " ").split() if isinstance(cards, str) else cards)}
        assert column(pl.col("hand").cards.count(cards)) == [sum(1 for c in ids if h >> c & 1) for h in HANDS]


def test_high_card_points():
    value = {"A": 4, "K": 3, "Q": 2, "J": 1}
    expected = [sum(value.get(RANKS[c % 13], 0) for c in cards_of_hand(h)) for h in HANDS]
    assert column(pl.col("hand").cards.high_card_points()) == expected
    assert expected[-1] == 40  # the whole deck


def test_game_points_follow_the_rules():
    tf = {"A": 2, "K": 1, "Q": 1, "J": 1}  # TF-11
    gin = {r: min(i + 2, 10) for i, r in enumerate(RANKS)} | {"A": 1}  # GR-2
    dummy = {r: 5 for r in "23456789"} | {r: 10 for r in "TJQK"} | {"A": 15}  # DM-7
    spetos = {parse_card("2C"), parse_card("QS")}
    for game, rank_value in (("trump-friend", tf), ("gin-rummy", gin), ("dummy", dummy)):
        def points(h):
            return sum(50 if game == "dummy" and c in spetos else rank_value.get(RANKS[c % 13], 0)
                       for c in cards_of_hand(h))

        assert column(pl.col("hand").cards.points(game)) == [points(h) for h in HANDS], game
    assert column(pl.col("hand").cards.points("trump-friend"))[-1] == 20  # TF-11: 20 points in the deck


def test_game_points_agree_with_the_engines_tables():
    from simcore.games.dummy.layout import points as card_points
    from simcore.games.trump_friend import _points_table
    from simcore.melds import GIN_VALUES

    assert {c: v for c, v in enumerate(_points_table(None)[0]) if v} == GAME_POINTS["trump-friend"]
    for c in range(52):
        assert card_points(np.uint64(1 << c)) == GAME_POINTS["dummy"][c]
        # GIN_VALUES is in ace-low order (A, 2, …, K); public ranks are 2 … K, A
        assert GAME_POINTS["gin-rummy"][c] == GIN_VALUES[(c % 13 + 1) % 13]


def test_text_lists_spades_first_high_cards_first_and_voids():
    got = column(pl.col("hand").cards.text())
    for h, text in zip(HANDS, got):
        parts = text.split(" ")
        assert [p[0] for p in parts] == ["♠", "♥", "♦", "♣"]
        for part, suit in zip(parts, (3, 2, 1, 0)):
            ranks = "".join(RANKS[c % 13] for c in sorted(cards_of_hand(h), reverse=True) if c // 13 == suit)
            assert part[1:] == (ranks or "—")
    one = pl.DataFrame({"h": pl.Series([simcore.cards.parse_hand("AS KS 5S QH 3H")], dtype=pl.UInt64)})
    assert one.select(pl.col("h").cards.text()).item() == f"{SUIT_SYMBOLS[3]}AK5 ♥Q3 ♦— ♣—"


def test_bad_suits_cards_and_games_are_one_clear_error():
    with pytest.raises(SimcoreError, match="unknown suit"):
        pl.col("hand").cards.length("X")
    with pytest.raises(SimcoreError, match="unknown suit"):
        pl.col("hand").cards.length(4)
    with pytest.raises(SimcoreError, match="malformed card"):
        pl.col("hand").cards.has("1Z")
    with pytest.raises(SimcoreError, match="counts no card points"):
        pl.col("hand").cards.points("spades")


def test_seat_rows_give_each_seat_its_own_columns():
    frame = pl.DataFrame({
        "deal": [0, 1], "dealer": [3, 0],
        "hand0": pl.Series([1, 2], dtype=pl.UInt64), "hand1": pl.Series([4, 8], dtype=pl.UInt64),
        "hand2": pl.Series([16, 32], dtype=pl.UInt64), "hand3": pl.Series([64, 128], dtype=pl.UInt64),
        "bid0": [1, 2], "bid1": [3, 4], "bid2": [5, 6], "bid3": [7, 8],
        "score0": [10, 20], "score1": [-10, -20],  # sides, not seats
    })
    rows = seat_rows(frame)
    assert rows.columns == ["deal", "dealer", "score0", "score1", "seat", "hand", "bid"]
    assert rows["seat"].to_list() == [0, 1, 2, 3] * 2
    assert rows["hand"].to_list() == [1, 4, 16, 64, 2, 8, 32, 128]
    assert rows["bid"].to_list() == [1, 3, 5, 7, 2, 4, 6, 8]
    assert rows["deal"].to_list() == [0] * 4 + [1] * 4
    lazy = seat_rows(frame.lazy(), columns=["hand"])
    assert isinstance(lazy, pl.LazyFrame) and "bid0" in lazy.collect_schema().names()
    # the dealer's hand is a filter, not a when/then chain
    dealer = rows.filter(pl.col("seat") == pl.col("dealer"))
    assert dealer["hand"].to_list() == [64, 2]
    with pytest.raises(SimcoreError, match="no hand0"):
        seat_rows(pl.DataFrame({"x": [1]}))


def test_seat_rows_of_a_simulated_run_and_dummy_table_sizes(tmp_path):
    run = simcore.simulate("trump-friend", 50, seed=3, out=tmp_path / "tf", quiet=True)
    hands = run.hands().collect()
    seats = seat_rows(hands)
    assert seats.height == 5 * hands.height
    declarer = seats.filter(pl.col("seat") == pl.col("declarer"))
    expected = [r[f"hand{r['declarer']}"] for r in hands.iter_rows(named=True)]
    assert declarer["hand"].to_list() == expected
    assert {"points", "delta", "hand"} <= set(seats.columns)
    frame = pl.DataFrame({"players": [2, 3], **{f"hand{s}": pl.Series([1 << s, 1 << s], dtype=pl.UInt64)
                                                for s in range(4)}})
    assert seat_rows(frame)["seat"].to_list() == [0, 1, 0, 1, 2]
