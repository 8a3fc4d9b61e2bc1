"""The 24-card deck (EU-2) and the bower remap (EU-3, EU-4) between card orders.

Three orders (see :mod:`layout`): *public* ids of :mod:`simcore.cards` (9 = rank 7 ... A = 12),
*base* (strength 0-5 = 9 ... A) and *trump* (the bowers moved to strengths 6 and 7 of trump).
Public <-> base is one shift per hand; base <-> trump moves at most two bits.

These take and return scalars only, so they are ordinary (not Numba-inlined) functions: LLVM
inlines them into the kernels, and the kernels compile in seconds instead of minutes.
"""

import numba as nb
import numpy as np

from simcore.cards import bit
from simcore.games.euchre.layout import JACK, LEFT, RIGHT

BASE_DECK = np.uint64(sum(0x3F << (13 * s) for s in range(4)))  # the 24 cards, base order
_SHIFT = np.uint64(7)  # public rank of the 9


@nb.njit(cache=True)
def same_colour(suit):
    """The other suit of the same colour: clubs <-> spades, diamonds <-> hearts."""
    return 3 - suit


@nb.njit(cache=True)
def public_to_base(mask):
    return (np.uint64(mask) >> _SHIFT) & BASE_DECK


@nb.njit(cache=True)
def base_to_public(mask):
    return (np.uint64(mask) & BASE_DECK) << _SHIFT


@nb.njit(cache=True)
def base_card_to_public(c):
    return c + 7


@nb.njit(cache=True)
def to_trump(mask, trump):
    """A base-order hand in trump order: the two jacks become the bowers (EU-3, EU-4)."""
    right = bit(13 * trump + JACK)
    left = bit(13 * same_colour(trump) + JACK)
    m = np.uint64(mask)
    out = m & ~(right | left)
    if m & right:
        out |= bit(13 * trump + RIGHT)
    if m & left:
        out |= bit(13 * trump + LEFT)
    return out


@nb.njit(cache=True)
def from_trump(mask, trump):
    """Inverse of :func:`to_trump`."""
    right = bit(13 * trump + RIGHT)
    left = bit(13 * trump + LEFT)
    m = np.uint64(mask)
    out = m & ~(right | left)
    if m & right:
        out |= bit(13 * trump + JACK)
    if m & left:
        out |= bit(13 * same_colour(trump) + JACK)
    return out


@nb.njit(cache=True)
def card_to_trump(c, trump):
    """A base-order card id in trump order."""
    if c == 13 * trump + JACK:
        return 13 * trump + RIGHT
    if c == 13 * same_colour(trump) + JACK:
        return 13 * trump + LEFT
    return c


@nb.njit(cache=True)
def trump_card_to_public(c, trump):
    """A trump-order card id as a public id (0-51)."""
    r = c % 13
    if r == RIGHT:
        return 13 * trump + JACK + 7
    if r == LEFT:
        return 13 * same_colour(trump) + JACK + 7
    return c + 7


# ---------------------------------------------------------------- plain-Python conversions


def public_card_to_trump(c: int, trump: int) -> int:
    """Public id -> trump-order id (for tests and user policies written in Python)."""
    base = 13 * (c // 13) + c % 13 - 7
    if c % 13 < 7:
        raise ValueError(f"card {c} is not in the euchre deck (9 to A)")
    if base == 13 * trump + JACK:
        return 13 * trump + RIGHT
    if base == 13 * (3 - trump) + JACK:
        return 13 * trump + LEFT
    return base
