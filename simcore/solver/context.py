"""The solver's context, its table and the names of their slots.

A *table* is the tuple of preallocated arrays one thread solves with: the transposition
entries, the counters, the *context* (an int64 vector describing the game being solved: seats,
trump, who counts and who maximises, each card's points), the position (hands and the cards
played from the root), the move lists, keys and search frames per depth, and the cut-move
memory.  Nothing is allocated per node: a table is reused across solves, and each solve starts
a new generation, so stale entries are ignored, not cleared.  ``T_*`` name the tuple's arrays,
``C_*`` the context's slots, ``N_*`` the counters, ``F_*`` a search frame's words and ``V_*`` a
transposition entry's.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from simcore.cards import popcount

DEFAULT_BITS = 18  # 2**18 entries of 104 bytes: 27 MiB a table
MAX_DEPTH = 72  # cards played from the root (52 + a partial trick) plus slack
KEY_WORDS = 11  # a transposition key's uint64 words (see simcore.solver.keys)
BUCKET = 128  # entries a bucket holds (DDS keeps up to 125 a suit-length pattern); the
# entries of one base (leader, suit lengths...) share one bucket, as many as their top cards differ
# (at most 128: a full bucket's fill byte counts BUCKET + its next victim, see table._victim)
MEMO_SERIALS = (1 << 20) - 1  # a cut-move memory entry: card (6 bits), solve serial (20 bits),
# hash tag (38 bits)

# ---------------------------------------------------------------- the context (int64 vector)
C_NSEATS = 0
C_NACTIVE = 1
C_TRUMP = 2  # suit 0-3, or -1 for no trump
C_RESTRICT = 3  # suit that may not be led until broken, or -1
C_COUNT = 4  # seat bitmask whose tricks count
C_MAX = 5  # seat bitmask of the maximising seats
C_CONST = 6  # value of a trick won, before card points
C_HASPTS = 7
C_QUICK = 8  # quick tricks valid: count == max and no card points
C_NEXT = 9  # 5 slots: the next seat in play after each seat
C_BUDGET = 14  # most nodes a solve may search (0 = no limit); kept across solves, see set_budget
C_QUICK_POINTS = 15  # quick tricks with card points valid: count == max, cards carry points
C_POINTS = 16  # 64 slots: points of each solver card id
C_PMASK = C_POINTS + 64  # 4 slots: the cards whose points have bit k set (k = 0..3)
C_FEWPTS = C_PMASK + 4  # 1: cards of 0-2 points, a suit at most three 1s and one 2 (K_COUNTS)
C_GAP = C_FEWPTS + 1  # 1: C_FEWPTS and a table with the cut-move memory (single solves): entries
# apply across point counts (points.counts_gap)
CTX_SIZE = C_GAP + 1

# ---------------------------------------------------------------- the counters
# statistics of the last top-level solve, besides the generation and the serial
N_GEN = 0
N_NODES = 1
N_CUT_FIRST = 2  # trick-boundary nodes settled by their first move (+3: mid-trick nodes)
N_CUT_LATER = 3  # ... by a later move
N_ALL_MOVES = 4  # ... only after trying every move
N_PROBES = 8  # transposition-table look-ups
N_HITS = 9  # look-ups that settled the node
N_QUICK = 10  # quick-trick checks
N_QUICK_CUTS = 11  # ... that settled the node
N_ABORTED = 12  # 1 when the last solve ran out of its node budget
N_EVICT = 13  # stores that overwrote a live entry of the same solve
N_SEARCHES = 14  # boolean searches (thresholds tried)
N_SERIAL = 15  # solves set up on this table, modulo 2**20: the cut-move memory's generation

# ---------------------------------------------------------------- the table tuple, by position
T_KEYS, T_VALS, T_COUNTERS, T_CTX, T_HANDS, T_STACK, T_MOVES, T_SCORES, T_KEYBUF, T_SCRATCH, \
    T_FRAMES, T_RELEVANT, T_EQUIV, T_TAGS, T_FILL, T_CUTS = range(16)

# ---------------------------------------------------------------- a search frame's int64 words
# one frame per card played from the root (see simcore.solver.search)
F_TLEN, F_LEADER, F_BROKEN, F_TARGET, F_MOVER, F_MAX, F_N, F_I, F_KILLER = range(9)
F_SMALL = F_KILLER + 1  # 4 words: per suit, the rank below which the node's remaining moves
# are skipped
F_BOUND = F_SMALL + 4  # card points: the node's fail-soft bound of its value (see search)
F_MEMO = F_BOUND + 1  # card points: the trick so far and its leader, hashed (see cut_memory)
F_WORDS = F_MEMO + 1

# ---------------------------------------------------------------- a table key's uint64 words
# 0-1 the base, 2-3 the point pattern (see simcore.solver.keys)
K_HANDS = 4  # 5 words: each seat's hand in relative ranks
K_TOP = 9  # the mask of the entry's top cards (in the key buffer: the base's hash)
K_COUNTS = 10  # each seat's point cards by suit (see points.point_counts)

# ---------------------------------------------------------------- a table entry's int32 words
V_SIEVE, V_LO, V_HI, V_BEST = range(4)  # see simcore.solver.table


def new_tables(n_tables: int = 1, log2_size: int = DEFAULT_BITS, cut_memory: bool = False):
    """``n_tables`` solver tables (one per thread or block), as one tuple of arrays with that
    leading dimension.

    ``cut_memory``: card-point searches also order moves by the cut-move memory (simcore.solver.cut_memory;
    8 bytes an entry, as many entries as the table).  Off, its array has one entry and the node
    counts are those of the search without it (the search policies' budgeted solves keep them)."""
    size = 1 << log2_size
    return (
        np.zeros((n_tables, size, KEY_WORDS), np.uint64),
        np.zeros((n_tables, size, 4), np.int32),
        np.zeros((n_tables, 16), np.int64),
        np.zeros((n_tables, CTX_SIZE), np.int64),
        np.zeros((n_tables, 5), np.uint64),
        np.zeros((n_tables, MAX_DEPTH), np.int64),
        np.zeros((n_tables, MAX_DEPTH, 16), np.int64),
        np.zeros((n_tables, MAX_DEPTH, 16), np.int64),
        np.zeros((n_tables, MAX_DEPTH, KEY_WORDS), np.uint64),
        np.zeros((n_tables, 64), np.int64),
        np.zeros((n_tables, MAX_DEPTH, F_WORDS), np.int64),
        np.zeros((n_tables, MAX_DEPTH), np.uint64),
        np.zeros((n_tables, MAX_DEPTH), np.uint64),
        np.zeros((n_tables, size), np.uint64),  # each entry's hash and generation, probed first
        # per bucket: generation * 256 + entries
        np.zeros((n_tables, max(size // BUCKET, 1)), np.int64),
        np.zeros((n_tables, size if cut_memory else 1), np.uint64),  # the cut-move memory
    )


@nb.njit(cache=True)
def table_of(tables, i):
    """Table ``i`` of :func:`new_tables` (views, no copy)."""
    return (tables[0][i], tables[1][i], tables[2][i], tables[3][i], tables[4][i], tables[5][i],
            tables[6][i], tables[7][i], tables[8][i], tables[9][i], tables[10][i], tables[11][i],
            tables[12][i], tables[13][i], tables[14][i], tables[15][i])


@nb.njit(cache=True)
def nodes(tab):
    """Nodes searched by the last top-level solve on this table."""
    return tab[T_COUNTERS][N_NODES]


@nb.njit(cache=True)
def set_budget(tab, max_nodes):
    """Limit every later solve on this table to ``max_nodes`` nodes (0 = no limit).  A solve
    that runs out returns -1 (``value_of`` and the other entry points; ``move_values_of``
    returns -1 moves) and :func:`aborted` says so; the table stays valid.  Search policies use it to fall back to
    a cheaper evaluation on the rare positions whose solve would take seconds."""
    tab[T_CTX][C_BUDGET] = max_nodes


@nb.njit(cache=True)
def aborted(tab):
    """Did the last solve on this table run out of its node budget?"""
    return tab[T_COUNTERS][N_ABORTED] != 0


@nb.njit(cache=True)
def setup(tab, nseats, active, trump, restrict, count, maxi, trick_const, points):
    """Fill the table's context for a solve: seats in play (bitmask), trump (-1 none), the
    lead-restricted suit (-1 none), the count and max seat masks, the trick constant and the
    points of each solver card id (int64[64], 0-15 a card: they are counted by their four bit
    planes, ``C_PMASK``).  Starts a new table generation."""
    ctx = tab[T_CTX]
    ctx[C_NSEATS] = nseats
    ctx[C_NACTIVE] = popcount(np.uint64(active))
    ctx[C_TRUMP] = trump
    ctx[C_RESTRICT] = restrict
    ctx[C_COUNT] = count
    ctx[C_MAX] = maxi
    ctx[C_CONST] = trick_const
    has = 0
    for k in range(4):
        ctx[C_PMASK + k] = 0
    for c in range(64):
        ctx[C_POINTS + c] = points[c]
        if points[c] != 0:
            has = 1
            for k in range(4):
                if (points[c] >> k) & 1:
                    ctx[C_PMASK + k] |= np.int64(1) << np.int64(c)
    ctx[C_HASPTS] = has
    ctx[C_FEWPTS] = 1 if has and _few_points(points) else 0
    # the search policies' budgeted tables keep their exact keys (and so their rows)
    ctx[C_GAP] = 1 if ctx[C_FEWPTS] and tab[T_CUTS].shape[0] > 1 else 0
    ctx[C_QUICK] = 1 if (has == 0 and (count & active) == (maxi & active)) else 0
    ctx[C_QUICK_POINTS] = 1 if (has == 1 and (count & active) == (maxi & active)) else 0
    for s in range(5):
        ctx[C_NEXT + s] = -1
        if s < nseats:
            for k in range(1, nseats + 1):
                t = (s + k) % nseats
                if (active >> t) & 1:
                    ctx[C_NEXT + s] = t
                    break
    counters = tab[T_COUNTERS]
    counters[N_GEN] += 1
    if counters[N_GEN] >= 2**31 - 2**16:  # wrapped (the target loop adds some): clear once in 2e9 solves
        tab[T_VALS][:, V_SIEVE] = 0
        tab[T_TAGS][:] = 0
        tab[T_FILL][:] = 0
        counters[N_GEN] = 1
    counters[N_NODES] = 0
    for i in range(2, 15):
        counters[i] = 0
    counters[N_SERIAL] = (counters[N_SERIAL] + 1) & MEMO_SERIALS
    if counters[N_SERIAL] == 0:  # wrapped: clear the memory once in 2**20 solves
        tab[T_CUTS][:] = 0
        counters[N_SERIAL] = 1
    for s in range(5):
        tab[T_HANDS][s] = 0
    for d in range(MAX_DEPTH):  # no move ordering carries over: node counts never depend on history
        tab[T_FRAMES][d, F_KILLER] = -1


@nb.njit(cache=True)
def _few_points(points):
    """Do the cards carry 0-2 points, each suit at most three cards of 1 and one of 2 (Trump
    Friend: K/Q/J 1, A 2)?  Then a seat's point cards of a suit fit 3 bits (point_counts)."""
    for s in range(4):
        ones = 0
        twos = 0
        for r in range(16):
            p = points[16 * s + r]
            if p < 0 or p > 2:
                return False
            ones += p == 1
            twos += p == 2
        if ones > 3 or twos > 1:
            return False
    return True
