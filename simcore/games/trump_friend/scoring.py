"""Trump Friend scoring of table rows as polars expressions (TF-11 .. TF-13): card points of a
mask column and the declarer's score relative to the others from its team's points.  The
``simcore advise`` open-hand level and the trump-friend-dd analysis score the DD table with
them; the engine scores its hands in its kernels.
"""

from __future__ import annotations

import polars as pl

from simcore.frames import bit_of


def card_points(cards: pl.Expr) -> pl.Expr:
    """TF-11 card points of a mask: A 2, K Q J 1."""
    return cards.cards.points("trump-friend")


def relative_score(d: pl.Expr, in_play: pl.Expr, friend: str) -> pl.Expr:
    """The declarer's score change minus the mean change of the other four (TF-12, TF-13), from
    its team's points D and the points in play (20 − the kitty's).  ``friend``: "player" (the
    friend is another seat: the two share the result, so 0.75 (D − O)), "alone" (a with-friend
    round played alone, the card in the kitty or its own hand, TF-5.3/5.4: D − O) or "none"
    (no friend: 2D − O when it wins, TF-13, else D − O)."""
    margin = (2 * d - in_play).cast(pl.Float64)
    if friend == "player":
        return 0.75 * margin
    if friend == "alone":
        return margin
    return pl.when(margin > 0).then(margin + d.cast(pl.Float64)).otherwise(margin)


def friend_alone(t: int, hand: pl.Expr) -> pl.Expr:
    """The call-t friend card is nobody else's (none named, in the kitty or the declarer's hand)."""
    friend = pl.col(f"dd_friend{t}")
    held = pl.col("kitty") | hand
    return (friend < 0) | ((held & bit_of(friend.clip(0, 51))) > 0)
