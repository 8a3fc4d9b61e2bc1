"""Spades open-hand solver: public cards onto the generic search of :mod:`simcore.solver`.

Spades are trump (SP-2, SP-10); with ``must_break`` (rules option ``must_break_spades``, SP-7)
spades may not be led until broken unless the leader holds only spades, and any spade played
breaks them (SP-9: a spade played off-suit, or led because the leader holds nothing else; a spade
that follows a spade lead was only possible once broken).  The solver id of public card
``13 * suit + rank`` is ``16 * suit + rank``.

Objectives: ``nil = -1`` counts the tricks of seats 0+2 (both sides play their best);
``nil = s`` counts the tricks of seat s, which s and its partner minimise and the opponents
maximise.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from simcore import solver as search
from simcore.cards import lowest_bit
from simcore.games import solving

SPADES = 3
NO_POINTS = np.zeros(64, np.int64)
TABLE_BITS = 18
GUESS_HONOUR = 0.2  # tricks per honour point over the other side's (see _first_target)
GUESS_SPADE = 0.575  # ... per spade over theirs


def new_tables(n: int = 1, log2_size: int = TABLE_BITS):
    return search.new_tables(n, log2_size)


@nb.njit(cache=True)
def _setup(hands, leader, trick, trick_len, broken, must_break, nil, tab):
    """Load the position into tab; returns the broken flag including the current trick."""
    if nil < 0:
        count = 0b0101
        maxi = 0b0101
    else:
        count = 1 << nil
        maxi = (1 << ((nil + 1) % 4)) | (1 << ((nil + 3) % 4))
    search.setup(tab, 4, 0b1111, SPADES, SPADES if must_break else -1, count, maxi, 1, NO_POINTS)
    h = tab[search.T_HANDS]
    for s in range(4):
        h[s] = search.widen(hands[s])
    stack = tab[search.T_STACK]
    for i in range(trick_len):
        c = trick[i]
        stack[i] = 16 * (c // 13) + c % 13
        if c // 13 == SPADES:
            broken = True
    return broken


# The solver's entry points are thin inlined wrappers that pass every number on as a run-time
# int64 (and every flag as a bool): Numba compiles a function once per argument type and per
# literal constant, and each compile of an entry point optimises the whole search linked into
# it again, so callers passing -1, 0 or an int8 read from a view would each cost a full copy.


@nb.njit(inline="always", cache=True)
def solve_value(hands, leader, trick, trick_len, broken, must_break, nil, tab):
    """Tricks won by seats 0+2 from here on (nil = -1), or the nil value of seat ``nil``."""
    return _solve_value(hands, np.int64(leader), trick, np.int64(trick_len), np.bool_(broken),
                        np.bool_(must_break), np.int64(nil), tab)


@nb.njit(cache=True)
def _solve_value(hands, leader, trick, trick_len, broken, must_break, nil, tab):
    b = _setup(hands, leader, trick, trick_len, broken, must_break, nil, tab)
    if nil >= 0:
        return search.value_of(tab, trick_len, leader, b, False)  # no card points
    return search.value_from_of(tab, trick_len, leader, b, _first_target(hands, tab, trick_len),
                                 False)


@nb.njit(cache=True)
def _first_target(hands, tab, trick_len):
    """The first target of the trick count: a guess of what seats 0+2 take, half the tricks
    left moved by their honour points (A 4 ... J 1) and spades over the other side's (weights of
    a least-squares fit on 120 full deals; 1.1-1.4 tricks off the value, root mean square, on
    three sets of 40-80, against 2.9 for the middle).  Full deals,
    mean nodes against value's start at 5 of 13: 260k against 272k (80 deals), 182k against
    194k (40 others), 259k against 263k on 40 deals outside the fit."""
    honours = 0.0
    spades = 0.0
    for s in range(4):
        sign = 1.0 if s % 2 == 0 else -1.0
        m = np.uint64(hands[s])
        while m:
            c = np.int64(lowest_bit(m))
            m &= m - np.uint64(1)
            honours += sign * max(c % 13 - 8, 0)
            spades += sign * (c // 13 == SPADES)
    guess = search.position_bound(tab, trick_len) / 2 + GUESS_HONOUR * honours + \
        GUESS_SPADE * spades
    return np.int64(np.floor(guess + 0.5))


@nb.njit(inline="always", cache=True)
def nil_holds(hands, leader, trick, trick_len, broken, must_break, nil, tab):
    """1 if seat ``nil`` can be held to no trick from here with best play (its nil value is 0),
    0 if not, -1 when the table's node budget ran out: the one search "at least one trick?" of
    the nil value, without the further searches that count a failing nil's tricks (on full
    deals the count costs 10-100 times the answer)."""
    return _nil_holds(hands, np.int64(leader), trick, np.int64(trick_len), np.bool_(broken),
                      np.bool_(must_break), np.int64(nil), tab)


@nb.njit(cache=True)
def _nil_holds(hands, leader, trick, trick_len, broken, must_break, nil, tab):
    b = _setup(hands, leader, trick, trick_len, broken, must_break, nil, tab)
    r = search.at_least_of(tab, trick_len, leader, b, 1, False)
    return r if r < 0 else 1 - r


@nb.njit(inline="always", cache=True)
def solve_moves(hands, leader, trick, trick_len, broken, must_break, nil, tab, cards_out, values_out):
    """Every legal card of the player to move (public ids) and its value; returns how many
    (-1 when the table's node budget ran out: simcore.solver.set_budget)."""
    return _solve_moves(hands, np.int64(leader), trick, np.int64(trick_len), np.bool_(broken),
                        np.bool_(must_break), np.int64(nil), tab, cards_out, values_out)


@nb.njit(cache=True)
def _solve_moves(hands, leader, trick, trick_len, broken, must_break, nil, tab, cards_out,
                 values_out):
    b = _setup(hands, leader, trick, trick_len, broken, must_break, nil, tab)
    k = search.move_values_of(tab, trick_len, leader, b, cards_out, values_out, False)
    for i in range(k):
        cards_out[i] = search.narrow_card(cards_out[i])
    return k


def solve_position(hands, leader, trick, rules, state) -> solving.Solution:
    """``simcore.solve("spades", ...)``: ``broken`` (spades broken before this trick) and
    ``nil`` (the seat whose nil is solved: its tricks, which its side minimises)."""
    broken = solving.flag(state.get("broken", False), "broken")
    nil = state.get("nil", None)
    nil = -1 if nil is None else solving.seat(nil, 4, "nil")
    order = solving.check_sizes("spades", POSITION.hand_size, hands, leader, trick, 0b1111)
    mover = order[len(trick)]
    maximising = 0b0101 if nil < 0 else (1 << (nil + 1) % 4) | (1 << (nil + 3) % 4)
    must_break = bool(getattr(rules, "must_break_spades", True))
    cards, values = solving.move_buffers()
    k = solve_moves(np.array(hands, np.uint64), leader, solving.trick_array(trick), len(trick),
                    broken, must_break, nil, solving.table(new_tables), cards, values)
    return solving.moves_solution(k, cards, values, maximising >> mover & 1)


POSITION = solving.PositionSolver(hand_size=13, state=("broken", "nil"), solve=solve_position)
