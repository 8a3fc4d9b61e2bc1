"""Euchre hand scoring (EU-16 ... EU-19) as a pure function."""

import numba as nb


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
