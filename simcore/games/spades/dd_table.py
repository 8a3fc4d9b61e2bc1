"""Spades' open-hand table of a batch of deals (``simcore solve spades``).

Per deal, from the hands as dealt with the dealer's left leading (no bidding, no exchange):
``dd_tricks`` = tricks won by seats 0+2 with best play by both sides, ``dd_nil{s}`` = the
fewest tricks seat s can be held to when s and its partner play to keep it low (0 = a nil that
holds) and ``dd_nil_safe{s}`` = whether that nil holds (``dd_nil{s}`` = 0).  The deals are those
of ``simcore simulate spades`` with the same seed and rules.

The solve option ``nil`` (``simcore solve spades --nil MODE``) chooses how much of the nil is
solved: ``exact`` (the default) counts every nil's tricks; ``safe`` asks only whether each nil
holds (one search: ``dd_nil{s}`` is 0 where it holds and null where it fails, its tricks not
counted), on full deals about 30 times cheaper than counting; ``none`` solves no nil (both columns
null), leaving ``dd_tricks``.
"""

from __future__ import annotations

import numba as nb
import numpy as np
import polars as pl

from simcore import solver as search
from simcore.games.base import PolicyChoice, solve_tables
from simcore.games.spades import solver

NO_TRICK = np.zeros(1, np.int64)


# The solve option nil, its default first.  Whether a nil holds is one boolean search a seat;
# counting a failing nil's tricks takes further searches that cost about 30 times as much on
# full deals, so the count is asked for by name.
NIL_MODES = ("safe", "exact", "none")
_KERNEL_MODE = {"exact": 0, "safe": 1, "none": 2}
NIL_DOC = ("how much of each seat's nil to solve: safe (the default: whether it holds, dd_nil{s} "
           "0 or null; about 1 s of CPU a full deal), exact (dd_nil{s} counts a failing nil's "
           "tricks; about 35 s of CPU a full deal), none (tricks only; 0.04 s a deal)")
NOT_SOLVED = -1  # dd_nil entries the mode leaves unsolved: null in the table


@nb.njit(parallel=True, cache=True, nogil=True)
def _table_kernel(hands, dealer, must_break, mode, tables, dd_tricks, dd_nil):
    for i in nb.prange(hands.shape[0]):
        tab = search.table_of(tables, nb.get_thread_id())
        leader = (dealer[i] + 1) % 4
        dd_tricks[i] = solver.solve_value(hands[i], leader, NO_TRICK, 0, False, must_break, -1, tab)
        for s in range(4):
            if mode == 0:
                dd_nil[i, s] = solver.solve_value(hands[i], leader, NO_TRICK, 0, False, must_break, s, tab)
            elif mode == 1:
                holds = solver.nil_holds(hands[i], leader, NO_TRICK, 0, False, must_break, s, tab)
                dd_nil[i, s] = 0 if holds == 1 else NOT_SOLVED
            else:
                dd_nil[i, s] = NOT_SOLVED


# The kernels get writable copies of the deal columns (polars hands out read-only views,
# which Numba would compile a second specialisation for).
def solve_hands(game, seed: int, start: int, count: int, rules, choice: PolicyChoice,
                deal_filter=None, options=None) -> pl.DataFrame:
    """The DD rows of deals start .. start+count-1 (``options``: {"nil": one of NIL_MODES})."""
    mode = _KERNEL_MODE[(options or {}).get("nil", NIL_MODES[0])]
    deals = game.run_hands(seed, start, count, rules, choice, False, deal_filter=deal_filter)
    hands = np.array(deals.select([f"dealt{s}" for s in range(4)]).to_numpy(), np.uint64, order="C")
    rows = hands.shape[0]
    dd_tricks = np.zeros(rows, np.int8)
    dd_nil = np.zeros((rows, 4), np.int8)
    _table_kernel(hands, np.array(deals["dealer"].to_numpy()), bool(rules.must_break_spades),
                  np.int64(mode), solve_tables(solver.new_tables), dd_tricks, dd_nil)
    frame = deals.select("seed", "deal", *(pl.col(f"dealt{s}").alias(f"hand{s}") for s in range(4)),
                         "dealer").with_columns(
        pl.Series("dd_tricks", dd_tricks),
        *(pl.Series(f"dd_nil{s}", np.ascontiguousarray(dd_nil[:, s])) for s in range(4)))
    frame = frame.with_columns(pl.when(pl.col(f"dd_nil{s}") != NOT_SOLVED).then(pl.col(f"dd_nil{s}"))
                               .alias(f"dd_nil{s}") for s in range(4))
    safe = [(pl.col(f"dd_nil{s}") == 0).fill_null(False) if mode < 2 else pl.lit(None, pl.Boolean)
            for s in range(4)]
    frame = frame.with_columns(c.alias(f"dd_nil_safe{s}") for s, c in enumerate(safe))
    if "attempts" in deals.columns:
        frame = frame.with_columns(deals["attempts"])
    return frame
