"""The cut-move memory (card points, single solves): a killer move keyed by the trick so far
and the mover's hand.

The memory is a killer move keyed more narrowly than by depth: by the trick so far (its leader
and the cards played into it, a search frame's ``F_MEMO``) and the mover's whole hand, but not
the other hands.  The card that last settled a node of that key is likely to settle the next
one (a sibling line one trick up, or the same trick under another threshold); it is tried first
when the table remembers no best card.  Only the move order depends on it, so values never do;
entries carry the solve's serial, so node counts do not depend on earlier solves on the table
either.  A table has it when made with ``new_tables(..., cut_memory=True)``.
"""

from __future__ import annotations

import numba as nb
import numpy as np
from simcore.solver.context import F_MEMO, N_SERIAL, T_COUNTERS, T_CUTS, T_FRAMES, T_HANDS



@nb.njit(inline="always", cache=True)
def _mix(x):
    """A 64-bit finaliser (MurmurHash3's fmix64)."""
    x ^= x >> np.uint64(33)
    x *= np.uint64(0xFF51AFD7ED558CCD)
    x ^= x >> np.uint64(33)
    x *= np.uint64(0xC4CEB9FE1A85EC53)
    return x ^ (x >> np.uint64(33))


@nb.njit(inline="always", cache=True)
def has_memory(tab):
    """Was the table made with the cut-move memory?"""
    return tab[T_CUTS].shape[0] > 1


@nb.njit(inline="always", cache=True)
def memo_root(leader):
    """F_MEMO of a trick that ``leader`` is about to lead."""
    return np.int64(_mix(np.uint64(leader + 1)))


@nb.njit(inline="always", cache=True)
def memo_after(trick_key, c, place):
    """F_MEMO after card c is played at ``place`` (0 = the lead) of the trick whose F_MEMO is
    ``trick_key``."""
    return np.int64(np.uint64(trick_key)
                    ^ _mix(np.uint64((c << 3) + place + 1) * np.uint64(0x9E3779B97F4A7C15)))


@nb.njit(inline="always", cache=True)
def _slot(tab, depth, mover):
    """The memory's slot for the node of frame ``depth`` and the entry it should hold, less
    the card: the frame's trick key and the mover's hand, hashed; the tag carries the solve's
    serial, so an entry of an earlier solve never matches."""
    h = np.uint64(tab[T_FRAMES][depth][F_MEMO]) ^ _mix(tab[T_HANDS][mover]
                                                       + np.uint64(0x2545F4914F6CDD1D))
    slot = h & np.uint64(tab[T_CUTS].shape[0] - 1)
    tag = (h & ~np.uint64((1 << 26) - 1)) | (np.uint64(tab[T_COUNTERS][N_SERIAL]) << np.uint64(6))
    return slot, tag


@nb.njit(inline="always", cache=True)
def recall(tab, depth, mover):
    """The card that last settled a node of this key in this solve, or -1."""
    slot, tag = _slot(tab, depth, mover)
    entry = tab[T_CUTS][slot]
    if (entry & ~np.uint64(63)) == tag:
        return np.int64(entry & np.uint64(63))
    return -1


@nb.njit(inline="always", cache=True)
def remember(tab, depth, mover, c):
    """Card c settled the node of frame ``depth``."""
    slot, tag = _slot(tab, depth, mover)
    tab[T_CUTS][slot] = tag | np.uint64(c)
