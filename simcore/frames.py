"""Card expressions for polars, and hands tables as one row per seat.

Hands are ``u64`` masks of public card ids in Parquet (``card = 13 * suit + rank``, suits
clubs 0, diamonds 1, hearts 2, spades 3, ranks 2 -> 0 … A -> 12; ``simcore.cards``).  Importing
simcore registers a ``cards`` namespace on polars expressions that reads them::

    import polars as pl, simcore
    hands = simcore.load("data/run")
    hands.select(
        pl.col("hand0").cards.length("S"),            # spades held (letter, name, symbol or index)
        pl.col("hand0").cards.has("AS"),              # holds the ace of spades
        pl.col("hand0").cards.count(["AS", "KS"]),    # how many of these cards
        pl.col("hand0").cards.high_card_points(),     # A 4, K 3, Q 2, J 1
        pl.col("hand0").cards.points("trump-friend"), # a game's card points (TF-11)
        pl.col("hand0").cards.text(),                 # "♠AK5 ♥Q3 ♦T9 ♣—"
    )

and :func:`seat_rows` turns a hands table into one row per seat, so "the declarer's hand" is a
filter on ``seat == declarer`` instead of a chain of ``when``/``then`` over the seats::

    seats = simcore.seat_rows(hands)                  # deal, …, seat, hand, points, delta, …
    declarer = seats.filter(pl.col("seat") == pl.col("declarer"))

Everything is a polars expression over whole columns (bit masks and popcounts): no Python runs
per row.
"""

from __future__ import annotations

import re

import polars as pl

from simcore.cards import RANKS, SUIT_SYMBOLS, SUITS, parse_card
from simcore.errors import SimcoreError

SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")
SUIT_BITS = (1 << 13) - 1
# bridge order for text: spades, hearts, diamonds, clubs, each from the ace down
TEXT_SUITS = (3, 2, 1, 0)
_ACE, _KING, _QUEEN, _JACK, _TEN = 12, 11, 10, 9, 8


def _rank_values(values: dict[int, int]) -> dict[int, int]:
    """{card id: value} for every suit from {rank: value}."""
    return {13 * s + r: v for s in range(4) for r, v in values.items()}


# A game's card points, by public card id (cards not listed count 0).
GAME_POINTS = {
    # TF-11: A 2, K Q J 1
    "trump-friend": _rank_values({_ACE: 2, _KING: 1, _QUEEN: 1, _JACK: 1}),
    # GR-2 (deadwood values): A 1, 2-10 face value, J Q K 10
    "gin-rummy": _rank_values({r: min(r + 2, 10) for r in range(12)} | {_ACE: 1}),
    # DM-7: 2-9 5, 10 J Q K 10, A 15, the spetos 2♣ and Q♠ 50 (in place of their rank's value)
    "dummy": _rank_values({r: 5 for r in range(_TEN)} | {r: 10 for r in range(_TEN, _ACE)} | {_ACE: 15})
    | {0: 50, 13 * 3 + _QUEEN: 50},
}
HIGH_CARD_POINTS = _rank_values({_ACE: 4, _KING: 3, _QUEEN: 2, _JACK: 1})


def suit_index(suit) -> int:
    """0-3 from a suit letter (``"S"``), symbol (``"♠"``), name (``"spades"``) or index."""
    if isinstance(suit, bool):
        raise SimcoreError(f"unknown suit {suit!r}: use C D H S, ♣ ♦ ♥ ♠, a name or 0-3")
    if isinstance(suit, int):
        if 0 <= suit < 4:
            return suit
    elif isinstance(suit, str):
        text = suit.strip()
        if text.upper() in SUITS and len(text) == 1:
            return SUITS.index(text.upper())
        if text in SUIT_SYMBOLS and len(text) == 1:
            return SUIT_SYMBOLS.index(text)
        singular = [n[:-1] for n in SUIT_NAMES]
        if text.lower() in SUIT_NAMES or text.lower() in singular:
            return singular.index(text.lower().removesuffix("s"))
    raise SimcoreError(f"unknown suit {suit!r}: use C D H S, ♣ ♦ ♥ ♠, a name or 0-3")


def card_id(card) -> int:
    """A public card id from ``"AS"``, ``"10h"``, ``"T♥"`` or an id 0-51."""
    if isinstance(card, bool):
        raise SimcoreError(f"not a card: {card!r}")
    if isinstance(card, int):
        if 0 <= card < 52:
            return card
        raise SimcoreError(f"card id {card} is outside 0..51")
    if isinstance(card, str):
        return parse_card(card)
    raise SimcoreError(f"not a card: {card!r} (use text like 'AS' or an id 0-51)")


def card_mask(cards) -> int:
    """The mask of a card or list of cards (text or ids; a comma/space-separated string)."""
    if isinstance(cards, str):
        parts = [p for p in cards.replace(",", " ").split() if p]
        return sum(1 << c for c in {card_id(p) for p in parts})
    if isinstance(cards, int) and not isinstance(cards, bool):
        return 1 << card_id(cards)
    return sum(1 << c for c in {card_id(c) for c in cards})


def _u64(value: int) -> pl.Expr:
    return pl.lit(value, dtype=pl.UInt64)


def bit_of(card: pl.Expr) -> pl.Expr:
    """``1 << card`` for a column of card ids (polars has no shift by a column: a 64-entry
    look-up; ids outside 0-63 give null)."""
    return card.cast(pl.Int64).replace_strict(list(range(64)), [1 << i for i in range(64)],
                                              default=None, return_dtype=pl.UInt64)


def _count(hand: pl.Expr, mask: int) -> pl.Expr:
    return (hand.cast(pl.UInt64) & _u64(mask)).bitwise_count_ones().cast(pl.Int8)


def _weighted(hand: pl.Expr, values: dict[int, int]) -> pl.Expr:
    """Σ value over the cards held: one popcount per distinct value."""
    by_value: dict[int, int] = {}
    for c, v in values.items():
        if v:
            by_value[v] = by_value.get(v, 0) | 1 << c
    total = pl.lit(0, dtype=pl.Int16)
    for v, mask in sorted(by_value.items()):
        total = total + _count(hand, mask).cast(pl.Int16) * v
    return total


@pl.api.register_expr_namespace("cards")
class CardsNamespace:
    """``pl.col("hand0").cards.…``: questions about a column of u64 hand masks."""

    def __init__(self, expr: pl.Expr):
        self._hand = expr

    def length(self, suit) -> pl.Expr:
        """Cards held in one suit (Int8); the suit by letter, symbol, name or index (0-3), or
        an expression giving the index per row."""
        if isinstance(suit, pl.Expr):
            shift = bit_of(suit.cast(pl.Int64) * 13)
            return ((self._hand.cast(pl.UInt64) // shift) & _u64(SUIT_BITS)).bitwise_count_ones().cast(pl.Int8)
        return _count(self._hand, SUIT_BITS << (13 * suit_index(suit)))

    def has(self, card) -> pl.Expr:
        """Whether the hand holds ``card`` (text like ``"AS"``, an id, or an expression of ids)."""
        if isinstance(card, pl.Expr):
            return (self._hand.cast(pl.UInt64) & bit_of(card)) > 0
        return (self._hand.cast(pl.UInt64) & _u64(1 << card_id(card))) > 0

    def count(self, cards) -> pl.Expr:
        """How many of ``cards`` the hand holds (Int8): a list of cards (text or ids) or a
        string ``"AS KS"``."""
        return _count(self._hand, card_mask(cards))

    def count_mask(self, mask: int) -> pl.Expr:
        """How many cards of the bit ``mask`` the hand holds (Int8)."""
        return _count(self._hand, int(mask))

    def high_card_points(self) -> pl.Expr:
        """Milton Work points: A 4, K 3, Q 2, J 1 (Int16)."""
        return _weighted(self._hand, HIGH_CARD_POINTS)

    def points(self, game: str) -> pl.Expr:
        """The card points a game counts for the cards held (Int16): ``trump-friend`` (TF-11:
        A 2, K Q J 1), ``gin-rummy`` (GR-2 deadwood values: A 1, 2-10 face, J Q K 10) or
        ``dummy`` (DM-7: 2-9 5, 10-K 10, A 15, the spetos 2♣ Q♠ 50)."""
        if game not in GAME_POINTS:
            raise SimcoreError(f"{game!r} counts no card points here; known: {', '.join(GAME_POINTS)}")
        return _weighted(self._hand, GAME_POINTS[game])

    def text(self) -> pl.Expr:
        """The hand as text, spades first, each suit from the ace down, ``—`` for a void:
        ``"♠AK5 ♥Q3 ♦T98 ♣—"``."""
        hand = self._hand.cast(pl.UInt64)
        suits = []
        for s in TEXT_SUITS:
            ranks = [pl.when((hand & _u64(1 << (13 * s + r))) > 0).then(pl.lit(RANKS[r])).otherwise(pl.lit(""))
                     for r in range(12, -1, -1)]
            held = pl.concat_str(ranks)
            suits.append(pl.concat_str([pl.lit(SUIT_SYMBOLS[s]),
                                        pl.when(held == "").then(pl.lit("—")).otherwise(held)]))
        return pl.concat_str(suits, separator=" ")


def seat_value(prefix: str, seat, n_seats: int) -> pl.Expr:
    """Column ``{prefix}{seat}`` where the seat is itself a column (``seat_value("hand",
    pl.col("declarer"), 5)``: the declarer's hand), as one list look-up per row; null when
    the seat is outside 0 … ``n_seats`` − 1."""
    if not isinstance(seat, pl.Expr):
        seat = pl.lit(int(seat))
    seat = seat.cast(pl.Int64)
    return pl.when(seat >= 0).then(pl.concat_list([pl.col(f"{prefix}{s}") for s in range(n_seats)]).list.get(
        seat, null_on_oob=True))


_SEAT_COLUMN = re.compile(r"^(.*\D)(\d+)$")


def seat_columns(names, n_seats: int) -> dict[str, list[str]]:
    """``{prefix: [prefix0, …]}`` for every prefix that has a column for each seat 0 …
    ``n_seats`` − 1 (``hand0`` … ``hand4``, ``bid0`` … ``bid3``); side columns (``score0``,
    ``score1`` of a four-seat game) are not seat columns."""
    found: dict[str, set[int]] = {}
    for name in names:
        m = _SEAT_COLUMN.match(name)
        if m:
            found.setdefault(m.group(1), set()).add(int(m.group(2)))
    return {p: [f"{p}{s}" for s in range(n_seats)] for p, seats in found.items()
            if set(range(n_seats)) <= seats and max(seats) == n_seats - 1}


def seat_rows(hands, n_seats: int | None = None, columns=None):
    """One row per (row of ``hands``, seat): ``seat`` (Int8), and for every per-seat column
    ``X0`` … ``Xn`` one column ``X`` holding that seat's value (``hand``, ``bid``, ``tricks``,
    ``points``, ``delta`` …); the other columns (``deal``, ``dealer``, ``declarer``, ``option``
    …) are kept as they are.  Rows stay in order, the seats of a row together.

    ``n_seats``: the seats of the table (default: the number of ``hand{s}`` columns);
    ``columns``: the per-seat prefixes to turn (default: every prefix with a column per seat).
    With a ``players`` column (Dummy: 2-4 players in 4 seat columns) the seats a row does not
    have are dropped.  Works on a DataFrame or a LazyFrame and returns the same kind."""
    lazy = hands.lazy()
    names = lazy.collect_schema().names()
    if n_seats is None:
        n_seats = sum(1 for s in range(10) if f"hand{s}" in names)
        if n_seats == 0:
            raise SimcoreError("no hand0, hand1 … columns: give n_seats")
    groups = seat_columns(names, n_seats)
    if columns is not None:
        missing = [c for c in columns if c not in groups]
        if missing:
            raise SimcoreError(f"no per-seat columns {', '.join(f'{c}0…{c}{n_seats - 1}' for c in missing)}")
        groups = {c: groups[c] for c in columns}
    clash = [p for p in groups if p in names or p == "seat"]
    if clash:
        raise SimcoreError(f"the table already has a column named {', '.join(clash)}")
    per_seat = {c for cols in groups.values() for c in cols}
    kept = [c for c in names if c not in per_seat]
    out = lazy.select(
        *kept,
        pl.int_ranges(0, n_seats, dtype=pl.Int8).alias("seat"),
        *[pl.concat_list(cols).alias(prefix) for prefix, cols in groups.items()],
    ).explode(["seat", *groups])
    if "players" in names:
        out = out.filter(pl.col("seat") < pl.col("players"))
    return out if isinstance(hands, pl.LazyFrame) else out.collect()
