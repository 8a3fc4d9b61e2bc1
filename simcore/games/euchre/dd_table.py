"""Euchre's open-hand table of a batch of deals (``simcore solve euchre``).

Per deal and trump suit t: ``dd_t{t}`` = tricks won by seats 0+2 with nobody alone, and
``dd_alone{s}_t{t}`` = tricks won by seat s playing alone (partner out, both defenders in),
leaders by EU-13; with t = the upcard's suit the dealer has picked the upcard up and discarded
the card best for the dealer's side (see :func:`simcore.games.euchre.solver.deal_table`).  The
deals are those of ``simcore simulate euchre`` with the same seed and rules.
"""

from __future__ import annotations

import numba as nb
import numpy as np
import polars as pl

from simcore import solver as search
from simcore.games.base import PolicyChoice, solve_tables
from simcore.games.euchre import solver

COLUMNS = [f"dd_t{t}" for t in range(4)] + [f"dd_alone{s}_t{t}" for s in range(4) for t in range(4)]


@nb.njit(parallel=True, cache=True, nogil=True)
def _table_kernel(hands, dealer, upcard, tables, out):
    for i in nb.prange(hands.shape[0]):
        tab = search.table_of(tables, nb.get_thread_id())
        row = np.zeros(solver.N_TABLE, np.int64)
        solver.deal_table(hands[i], dealer[i], upcard[i], tab, row)
        out[:, i] = row


# The kernels get writable copies of the deal columns (polars hands out read-only views,
# which Numba would compile a second specialisation for).
def solve_hands(game, seed: int, start: int, count: int, rules, choice: PolicyChoice,
                deal_filter=None) -> pl.DataFrame:
    """The DD rows of deals start .. start+count-1."""
    deals = game.run_hands(seed, start, count, rules, choice, False, deal_filter=deal_filter)
    hands = np.array(deals.select([f"hand{s}" for s in range(4)]).to_numpy(), np.uint64, order="C")
    rows = hands.shape[0]
    out = np.zeros((solver.N_TABLE, rows), np.int8)  # one contiguous row per column
    _table_kernel(hands, np.array(deals["dealer"].to_numpy()), np.array(deals["upcard"].to_numpy()),
                  solve_tables(solver.new_tables), out)
    frame = deals.select("seed", "deal", *(f"hand{s}" for s in range(4)), "dealer", "upcard")
    frame = frame.with_columns(*(pl.Series(name, out[k]) for k, name in enumerate(COLUMNS)))
    if "attempts" in deals.columns:
        frame = frame.with_columns(deals["attempts"])
    return frame
