"""Trump Friend open-hand solver: public cards onto the generic search of :mod:`simcore.solver`.

Five seats, ranks 3-2-A-K-...-4 (TF-3: the internal strength is the public rank minus two,
mod 13), follow suit (TF-7), trump 0-3 or 4 = no trump, in which off-suit cards never win
(TF-8).  The value is card points (TF-11: A = 2, K/Q/J = 1) won by the seats of ``team``
(a seat bitmask: the declarer, plus the friend when a player holds the friend card); the team
maximises, everyone else minimises.  Kitty cards are in no hand and simply never play.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from simcore import solver as search
from simcore.errors import SimcoreError
from simcore.games import solving
from simcore.games.trump_friend.layout import NO_TRUMP, TO_PUBLIC

TABLE_BITS = 18  # the pimc kernels' tables (one per search policy's solve loop)
# Single solves (``simcore.solve``, the DD-table kernel of ``simcore solve trump-friend``, one
# table per thread, and scripts/bench_solve.py): 2**20 entries, 117 MiB a table (8 of them the
# cut-move memory).  A full deal
# stores many times 2**18 entries: on the bench's 100 full-deal calls 2**20 entries saved about a
# tenth of the nodes of 2**18, and 2**22 little more, not worth 436 MiB a table.
SOLVE_TABLE_BITS = 20
_J, _Q, _K, _A = 7, 8, 9, 10  # internal strengths of the point cards


def _points():
    p = np.zeros(64, np.int64)
    for s in range(4):
        for r in (_J, _Q, _K):
            p[16 * s + r] = 1
        p[16 * s + _A] = 2
    return p


POINTS = _points()


def new_tables(n: int = 1, log2_size: int = SOLVE_TABLE_BITS):
    """Tables for single exact solves: with the cut-move memory (see simcore.solver.new_tables;
    the pimc kernels allocate theirs without it, so their budgeted solves are unchanged)."""
    return search.new_tables(n, log2_size, True)


@nb.njit(cache=True)
def to_solver(mask):
    """A public hand as solver ids: within each suit, strength = rank - 2 mod 13 (TF-3)."""
    m = np.uint64(mask)
    out = np.uint64(0)
    for s in range(4):
        p = (m >> np.uint64(13 * s)) & np.uint64(0x1FFF)
        internal = (p >> np.uint64(2)) | ((p & np.uint64(3)) << np.uint64(11))
        out |= internal << np.uint64(16 * s)
    return out


@nb.njit(cache=True)
def card_to_public(c):
    return TO_PUBLIC[search.narrow_card(c)]


@nb.njit(cache=True)
def _setup(hands, leader, trick, trick_len, trump, team, tab):
    search.setup(tab, 5, 0b11111, -1 if trump == NO_TRUMP else trump, -1, team, team, 0, POINTS)
    h = tab[search.T_HANDS]
    for s in range(5):
        h[s] = to_solver(hands[s])
    stack = tab[search.T_STACK]
    for i in range(trick_len):
        c = trick[i]
        stack[i] = 16 * (c // 13) + (c % 13 + 11) % 13


# The solver's entry points are thin inlined wrappers that pass every number on as a run-time
# int64 (and every flag as a bool): Numba compiles a function once per argument type and per
# literal constant, and each compile of an entry point optimises the whole search linked into
# it again, so callers passing -1, 0 or an int8 read from a view would each cost a full copy.


@nb.njit(inline="always", cache=True)
def solve_value(hands, leader, trick, trick_len, trump, team, tab):
    """Card points won by the seats of ``team`` from here on (current trick included)."""
    return _solve_value(hands, np.int64(leader), trick, np.int64(trick_len), np.int64(trump),
                        np.int64(team), tab)


@nb.njit(cache=True)
def _solve_value(hands, leader, trick, trick_len, trump, team, tab):
    _setup(hands, leader, trick, trick_len, trump, team, tab)
    return search.value_of(tab, trick_len, leader, False, True)  # cards carry points


@nb.njit(inline="always", cache=True)
def solve_moves(hands, leader, trick, trick_len, trump, team, tab, cards_out, values_out):
    """Every legal card of the player to move (public ids) and its value; returns how many
    (-1 when the table's node budget ran out: simcore.solver.set_budget)."""
    return _solve_moves(hands, np.int64(leader), trick, np.int64(trick_len), np.int64(trump),
                        np.int64(team), tab, cards_out, values_out)


@nb.njit(cache=True)
def _solve_moves(hands, leader, trick, trick_len, trump, team, tab, cards_out, values_out):
    _setup(hands, leader, trick, trick_len, trump, team, tab)
    k = search.move_values_of(tab, trick_len, leader, False, cards_out, values_out, True)
    for i in range(k):
        cards_out[i] = card_to_public(cards_out[i])
    return k


def solve_position(hands, leader, trick, rules, state) -> solving.Solution:
    """``simcore.solve("trump-friend", ...)``: ``trump`` (0-3, 4 = no trump) and ``team`` (the
    seats of the declarer's side, which maximises its card points)."""
    for key in ("trump", "team"):
        if key not in state:
            raise SimcoreError(f"trump-friend needs {key}= (trump 0-4, 4 = no trump; team = seats)")
    trump = solving.trump_suit(state["trump"], 4)
    team = state["team"]
    if isinstance(team, (str, bytes)) or not hasattr(team, "__iter__"):
        raise SimcoreError("team must be the seats of the declarer's side, e.g. (0, 3)")
    team_mask = 0
    for s in team:
        team_mask |= 1 << solving.seat(s, 5, "a team seat")
    if team_mask == 0:
        raise SimcoreError("team must name at least the declarer's seat")
    order = solving.check_sizes("trump-friend", POSITION.hand_size, hands, leader, trick, 0b11111)
    mover = order[len(trick)]
    cards, values = solving.move_buffers()
    k = solve_moves(np.array(hands, np.uint64), leader, solving.trick_array(trick), len(trick),
                    trump, team_mask, solving.table(new_tables), cards, values)
    return solving.moves_solution(k, cards, values, team_mask >> mover & 1)


POSITION = solving.PositionSolver(hand_size=10, state=("trump", "team"), solve=solve_position)
