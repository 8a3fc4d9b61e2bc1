"""Cards and hands in polars columns: card-mask expressions (``simcore.cards`` ids; a hand is
a ``UInt64`` column with bit ``card`` set).  The games' scoring of table rows and the analyses
use them; everything works on whole columns, never on single rows.
"""

from __future__ import annotations

import polars as pl


def u64(value: int) -> pl.Expr:
    return pl.lit(value, dtype=pl.UInt64)


def bit_of(card: pl.Expr) -> pl.Expr:
    """1 << card for a card column (polars has no variable shift: a 64-entry lookup)."""
    return card.cast(pl.Int64).replace_strict(list(range(64)), [1 << i for i in range(64)],
                                              return_dtype=pl.UInt64)


def count_in(hand: pl.Expr, mask: int) -> pl.Expr:
    """How many cards of ``mask`` the hand holds (Int16)."""
    return (hand & u64(mask)).bitwise_count_ones().cast(pl.Int16)


def rank_mask(ranks) -> int:
    """The mask of every card of the given ranks (0 = 2 … 12 = A), all four suits."""
    return sum(1 << (13 * s + r) for s in range(4) for r in ranks)
