"""Card ids, hand bitmasks, parsing and formatting.

A card is an integer 0-51: ``card = 13 * suit + rank`` with suits clubs 0, diamonds 1,
hearts 2, spades 3 and ranks 2 -> 0, 3 -> 1, ..., 10 -> 8, J -> 9, Q -> 10, K -> 11, A -> 12.
A hand is a ``uint64`` with bit ``card`` set.  This is the id used everywhere outside an
engine (Parquet, the Python API, text).

The bit helpers at the bottom are Numba-jitted and shared by every engine.
"""

from __future__ import annotations

import numba as nb
import numpy as np
from llvmlite import ir
from numba.core import types
from numba.extending import intrinsic

from simcore.errors import SimcoreError

SUITS = "CDHS"
SUIT_SYMBOLS = "♣♦♥♠"
RANKS = "23456789TJQKA"
N_CARDS = 52

_SUIT_OF_CHAR = {c: i for i, c in enumerate(SUITS)} | {c: i for i, c in enumerate(SUIT_SYMBOLS)}
_RANK_OF_TEXT = {c: i for i, c in enumerate(RANKS)} | {"10": 8}


def card(rank: int, suit: int) -> int:
    return 13 * suit + rank


def suit_of(c: int) -> int:
    return c // 13


def rank_of(c: int) -> int:
    return c % 13


def parse_card(text: str) -> int:
    """``'AS'``, ``'10h'``, ``'T♥'`` -> card id.  Raises SimcoreError on anything else."""
    t = text.strip().upper()
    if len(t) < 2:
        raise SimcoreError(f"malformed card {text!r}: expected rank then suit, e.g. AS, 10H, T♥")
    rank_text, suit_char = t[:-1], t[-1]
    if rank_text not in _RANK_OF_TEXT or suit_char not in _SUIT_OF_CHAR:
        raise SimcoreError(f"malformed card {text!r}: expected rank then suit, e.g. AS, 10H, T♥")
    return card(_RANK_OF_TEXT[rank_text], _SUIT_OF_CHAR[suit_char])


def parse_cards(text: str) -> list[int]:
    """Comma- or space-separated cards -> list of ids (duplicates rejected)."""
    parts = [p for p in text.replace(",", " ").split() if p]
    cards = [parse_card(p) for p in parts]
    if len(set(cards)) != len(cards):
        raise SimcoreError(f"duplicate card in {text!r}")
    return cards


def format_card(c: int) -> str:
    if not 0 <= c < N_CARDS:
        raise SimcoreError(f"card id {c} is outside 0..51")
    return RANKS[c % 13] + SUITS[c // 13]


def hand_from_cards(cards) -> int:
    mask = 0
    for c in cards:
        mask |= 1 << int(c)
    return mask


def cards_of_hand(mask: int) -> list[int]:
    mask = int(mask)
    return [c for c in range(N_CARDS) if mask >> c & 1]


def format_hand(mask: int) -> str:
    return " ".join(format_card(c) for c in cards_of_hand(mask))


def parse_hand(text: str) -> int:
    return hand_from_cards(parse_cards(text))


# ---------------------------------------------------------------- jitted bit helpers

SUIT_BITS = np.uint64(0x1FFF)


def _bit_intrinsic(op: str, zero_flag: bool):
    """The LLVM bit-count instruction ``op`` (ctpop, cttz, ctlz) on a uint64, as a Numba
    intrinsic; cttz and ctlz take the flag "zero input is undefined", here off."""
    def typer(typingctx, x):
        def codegen(context, builder, signature, args):
            flag = (ir.Constant(ir.IntType(1), 0),) if zero_flag else ()
            return getattr(builder, op)(args[0], *flag)

        return types.uint64(types.uint64), codegen

    typer.__name__ = typer.__qualname__ = f"_{op}"
    return intrinsic(typer)


_ctpop = _bit_intrinsic("ctpop", False)
_cttz = _bit_intrinsic("cttz", True)
_ctlz = _bit_intrinsic("ctlz", True)


@nb.njit(inline="always", cache=True)
def popcount(x):
    """Number of set bits of a uint64 (one POPCNT instruction)."""
    return np.int64(_ctpop(np.uint64(x)))


@nb.njit(inline="always", cache=True)
def lowest_bit(x):
    """Index of the lowest set bit of a non-zero uint64."""
    return np.int64(_cttz(np.uint64(x)))


@nb.njit(inline="always", cache=True)
def highest_bit(x):
    """Index of the highest set bit of a non-zero uint64."""
    return 63 - np.int64(_ctlz(np.uint64(x)))


def _select_in_byte_table():
    """``table[b | k << 8]``: position of the k-th set bit (0-based) of the byte b."""
    table = np.zeros(256 * 8, np.uint8)
    for b in range(256):
        for k, i in enumerate(i for i in range(8) if b >> i & 1):
            table[b | k << 8] = i
    return table


_SELECT_IN_BYTE = _select_in_byte_table()
_BYTES_ONE = np.uint64(0x0101010101010101)
_BYTES_HIGH = np.uint64(0x8080808080808080)


@nb.njit(inline="always", cache=True)
def nth_bit(x, n):
    """Index of the n-th (0-based, from the bottom) set bit of x; x must have > n bits.

    Branch-free (Vigna's broadword select): byte-wise popcounts, their running sums in one
    multiply, the byte holding the bit found by a parallel compare, then a table look-up
    within that byte.  A loop clearing the n lowest bits costs a mispredicted branch per
    call when n is random, which made it a quarter of a random-play kernel's time.
    """
    x = np.uint64(x)
    k = np.uint64(n)
    s = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555555))
    s = (s & np.uint64(0x3333333333333333)) + ((s >> np.uint64(2)) & np.uint64(0x3333333333333333))
    s = (s + (s >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    sums = s * _BYTES_ONE  # byte i: set bits in bytes 0..i
    past = (((k * _BYTES_ONE) | _BYTES_HIGH) - sums) & _BYTES_HIGH  # bytes whose sum <= k
    place = np.uint64(_ctpop(past) * np.uint64(8))
    below = ((sums << np.uint64(8)) >> place) & np.uint64(0xFF)  # set bits under that byte
    byte = (x >> place) & np.uint64(0xFF)
    return np.int64(place) + np.int64(_SELECT_IN_BYTE[np.int64(byte | ((k - below) << np.uint64(8)))])


@nb.njit(inline="always", cache=True)
def suit_mask(hand, suit):
    """The 13 bits of one suit of a hand, shifted down to bits 0-12."""
    return (np.uint64(hand) >> np.uint64(13 * suit)) & SUIT_BITS


@nb.njit(inline="always", cache=True)
def bit(c):
    return np.uint64(1) << np.uint64(c)
