"""Euchre open-hand solver: public cards onto the generic search of :mod:`simcore.solver`.

Cards go public -> base -> trump order (:mod:`simcore.games.euchre.deck`), where the right and
left bowers are strengths 7 and 6 of the trump suit (EU-3, EU-4: the left bower is a trump for
following, leading and winning), then to solver ids ``16 * suit + strength``.  A lone player's
partner holds nothing and sits out (EU-12), so the trick has three cards.

:func:`deal_table` computes the 20 DD columns of a deal: ``dd_t{t}`` (tricks of seats 0+2,
nobody alone) and ``dd_alone{s}_t{t}`` (tricks of lone seat s), leaders by EU-13, and, when t is
the upcard's suit, the dealer's pickup with the discard best for the dealer's side.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from simcore import solver as search
from simcore.cards import bit, highest_bit, lowest_bit
from simcore.errors import SimcoreError
from simcore.games import solving
from simcore.games.euchre.deck import public_to_base, to_trump, trump_card_to_public

NO_POINTS = np.zeros(64, np.int64)
NO_TRICK = np.zeros(1, np.int64)
TABLE_BITS = 14
N_TABLE = 20  # dd_t0..3, dd_alone{s}_t{t}


def new_tables(n: int = 1, log2_size: int = TABLE_BITS):
    return search.new_tables(n, log2_size)


@nb.njit(cache=True)
def to_solver(mask, trump):
    """A public hand as solver ids in trump order."""
    return search.widen(to_trump(public_to_base(mask), trump))


@nb.njit(cache=True)
def _active(alone):
    if alone < 0:
        return 0b1111
    return 0b1111 & ~(1 << ((alone + 2) % 4))


@nb.njit(cache=True)
def _setup(hands, leader, trick, trick_len, trump, alone, count, tab):
    active = _active(alone)
    search.setup(tab, 4, active, trump, -1, count, count, 1, NO_POINTS)
    h = tab[search.T_HANDS]
    for s in range(4):
        if (active >> s) & 1:  # a lone player's partner lays its hand down (EU-12)
            h[s] = to_solver(hands[s], trump)
    stack = tab[search.T_STACK]
    for i in range(trick_len):
        stack[i] = lowest_bit(to_solver(bit(trick[i]), trump))


# The solver's entry points are thin inlined wrappers that pass every number on as a run-time
# int64 (and every flag as a bool): Numba compiles a function once per argument type and per
# literal constant, and each compile of an entry point optimises the whole search linked into
# it again, so callers passing -1, 0 or an int8 read from a view would each cost a full copy.


@nb.njit(inline="always", cache=True)
def solve_value(hands, leader, trick, trick_len, trump, alone, tab):
    """Tricks won by seats 0+2 from here on (current trick included)."""
    return _solve_value(hands, np.int64(leader), trick, np.int64(trick_len), np.int64(trump),
                        np.int64(alone), tab)


@nb.njit(cache=True)
def _solve_value(hands, leader, trick, trick_len, trump, alone, tab):
    _setup(hands, leader, trick, trick_len, trump, alone, 0b0101, tab)
    return search.value_of(tab, trick_len, leader, False, False)  # no card points


@nb.njit(inline="always", cache=True)
def solve_moves(hands, leader, trick, trick_len, trump, alone, tab, cards_out, values_out):
    """Every legal card of the player to move (public ids) and its value; returns how many
    (-1 when the table's node budget ran out: simcore.solver.set_budget)."""
    return _solve_moves(hands, np.int64(leader), trick, np.int64(trick_len), np.int64(trump),
                        np.int64(alone), tab, cards_out, values_out)


@nb.njit(cache=True)
def _solve_moves(hands, leader, trick, trick_len, trump, alone, tab, cards_out, values_out):
    _setup(hands, leader, trick, trick_len, trump, alone, 0b0101, tab)
    k = search.move_values_of(tab, trick_len, leader, False, cards_out, values_out, False)
    for i in range(k):
        cards_out[i] = trump_card_to_public(search.narrow_card(cards_out[i]), trump)
    return k


@nb.njit(cache=True)
def _with_pickup(tab, dealer, upcard_solver, leader, dealer_maximises):
    """Value after the dealer picks up the upcard and discards the best of its six cards.

    Discarding a card next to a lower one of the six (no other card in play between them)
    leaves a position equivalent to discarding that lower one, so it is skipped.
    The first discard is solved exactly; each other one is only tested against the best so far
    (one boolean search), and solved exactly only when it beats it.  The table is shared by the
    six: their positions are all of the same game, so every stored bound stays true.
    """
    h = tab[search.T_HANDS]
    six = h[dealer] | np.uint64(1) << np.uint64(upcard_solver)
    inplay = six
    for s in range(4):
        inplay |= h[s]
    best = -1
    m = six
    while m:
        low = m & (~m + np.uint64(1))
        m ^= low
        below = inplay & (low - np.uint64(1)) & (np.uint64(0xFFFF) << np.uint64(16 * (lowest_bit(low) >> 4)))
        if below and (six >> np.uint64(highest_bit(below))) & np.uint64(1):
            continue  # keeps the same cards as discarding the dealer's card just below it
        h[dealer] = six ^ low
        hi = search.position_bound(tab, 0)
        if best < 0:
            best = search.value_between_of(tab, 0, leader, False, 0, hi, False)
        elif dealer_maximises:
            if best < hi and search.at_least_of(tab, 0, leader, False, best + 1, False) == 1:
                best = search.value_between_of(tab, 0, leader, False, best + 1, hi, False)
        elif best > 0 and search.at_least_of(tab, 0, leader, False, best, False) != 1:
            best = search.value_between_of(tab, 0, leader, False, 0, best - 1, False)
    h[dealer] = six ^ np.uint64(1) << np.uint64(upcard_solver)  # leave the dealt hand
    return best


@nb.njit(inline="always", cache=True)
def _table_entry(hands, dealer, upcard, trump, alone, tab):
    """One DD column: nobody alone (alone = -1, tricks of 0+2) or seat ``alone`` alone."""
    return _table_entry_of(hands, np.int64(dealer), np.int64(upcard), np.int64(trump),
                           np.int64(alone), tab)


@nb.njit(cache=True)
def _table_entry_of(hands, dealer, upcard, trump, alone, tab):
    count = 0b0101 if alone < 0 else 1 << alone
    leader = (dealer + 1) % 4 if alone < 0 else (alone + 1) % 4
    _setup(hands, leader, NO_TRICK, 0, trump, alone, count, tab)
    dealer_out = alone >= 0 and (alone + 2) % 4 == dealer
    if upcard // 13 != trump or dealer_out:
        return search.value_of(tab, 0, leader, False, False)
    up = lowest_bit(to_solver(bit(upcard), trump))
    return _with_pickup(tab, dealer, up, leader, ((count >> dealer) & 1) == 1)


@nb.njit(cache=True)
def deal_table(hands, dealer, upcard, tab, out):
    """The 20 DD values of a deal into out: out[t] = dd_t{t}, out[4 + 4 * s + t] = dd_alone{s}_t{t}."""
    for t in range(4):
        out[t] = _table_entry(hands, dealer, upcard, t, -1, tab)
    for s in range(4):
        for t in range(4):
            out[4 + 4 * s + t] = _table_entry(hands, dealer, upcard, t, s, tab)


def solve_position(hands, leader, trick, rules, state) -> solving.Solution:
    """``simcore.solve("euchre", ...)``: ``trump`` (0-3) and ``alone`` (the seat playing
    alone, whose partner holds no cards; -1 or None for nobody)."""
    if "trump" not in state:
        raise SimcoreError("euchre needs trump=SUIT (0-3)")
    trump = solving.trump_suit(state["trump"], 3)
    alone = state.get("alone", -1)
    alone = -1 if alone is None or alone == -1 else solving.seat(alone, 4, "alone")
    active = 0b1111
    if alone >= 0:
        partner = (alone + 2) % 4
        if hands[partner]:
            raise SimcoreError(f"seat {alone} plays alone, so its partner {partner} must hold no cards")
        active &= ~(1 << partner)
    order = solving.check_sizes("euchre", POSITION.hand_size, hands, leader, trick, active)
    mover = order[len(trick)]
    cards, values = solving.move_buffers()
    k = solve_moves(np.array(hands, np.uint64), leader, solving.trick_array(trick), len(trick),
                    trump, alone, solving.table(new_tables), cards, values)
    return solving.moves_solution(k, cards, values, 0b0101 >> mover & 1)


POSITION = solving.PositionSolver(hand_size=5, state=("trump", "alone"), solve=solve_position)
