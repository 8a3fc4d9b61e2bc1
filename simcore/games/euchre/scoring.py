"""Euchre hand scoring (EU-16 ... EU-19) as pure functions: one hand's points in the
engine's kernels, and the makers' points of a tricks column for table rows."""

import numba as nb
import polars as pl


@nb.njit(cache=True)
def hand_points(maker_tricks, maker_alone, defender_alone):
    """(makers' points, defenders' points) for one hand.

    ``maker_alone`` / ``defender_alone``: did a player of that side go alone (EU-12)?
    """
    if maker_tricks == 5:
        return (4 if maker_alone else 2), 0  # EU-16, EU-18
    if maker_tricks >= 3:
        return 1, 0  # EU-16, EU-18
    if defender_alone and maker_tricks == 0:
        return 0, 4  # EU-19: the lone defender's side took all five
    return 0, 2  # EU-17, EU-18, EU-19 (3 or 4 tricks)


def maker_points(tricks: pl.Expr, march: int) -> pl.Expr:
    """The makers' net points for their tricks (EU-16 … EU-18): march points for 5, 1 for
    3–4, −2 when euchred (the defenders score 2)."""
    return (pl.when(tricks == 5).then(march).when(tricks >= 3).then(1).otherwise(-2)).cast(pl.Int8)
