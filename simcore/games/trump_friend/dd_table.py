"""Trump Friend's open-hand table of a batch of deals (``simcore solve trump-friend``).

Per deal and call t (0-3 a suit, 4 no trump), the declarer's left leading (TF-6):
``dd_friend{t}`` = the friend card (public id, -1 none) the run's ``friend`` policy names for
call t, ``dd_points{t}`` = card points won by the declarer's team with that friend (the
declarer alone when the card is in the kitty or the declarer's own hand, TF-5.3/TF-5.4), and
``dd_solo{t}`` = the points the declarer wins with no friend.  The deals, declarers and friend
calls are those of ``simcore simulate trump-friend --what-if trump`` with the same seed, rules
and friend policy (so also of the plain run's rows, whose call is one of the five).
"""

from __future__ import annotations

import numba as nb
import numpy as np
import polars as pl

from simcore import solver as search
from simcore.games.base import PolicyChoice, solve_tables
from simcore.games.trump_friend import solver

NO_TRICK = np.zeros(1, np.int64)
CALLS = 5


@nb.njit(parallel=True, cache=True, nogil=True)
def _table_kernel(hands, declarer, friend_seat, tables, dd_points, dd_solo):
    """``friend_seat`` (rows, 5): the friend's seat under each call (-1 none)."""
    for i in nb.prange(hands.shape[0]):
        tab = search.table_of(tables, nb.get_thread_id())
        d = declarer[i]
        leader = (d + 1) % 5
        for t in range(CALLS):
            solo = 1 << d
            dd_solo[t, i] = solver.solve_value(hands[i], leader, NO_TRICK, 0, t, solo, tab)
            f = friend_seat[i, t]
            if f < 0 or f == d:
                dd_points[t, i] = dd_solo[t, i]
            else:
                dd_points[t, i] = solver.solve_value(hands[i], leader, NO_TRICK, 0, t,
                                                     solo | (1 << f), tab)


# The kernels get writable copies of the deal columns (polars hands out read-only views,
# which Numba would compile a second specialisation for).
def solve_hands(game, seed: int, start: int, count: int, rules, choice: PolicyChoice,
                deal_filter=None) -> pl.DataFrame:
    """The DD rows of deals start .. start+count-1."""
    calls = game.run_hands(seed, start, count, rules, choice, False, what_if="trump",
                           deal_filter=deal_filter)
    deals = calls.gather_every(CALLS)  # deal-major: the first of each deal's five rows
    hands = np.array(deals.select([f"hand{s}" for s in range(5)]).to_numpy(), np.uint64, order="C")
    rows = hands.shape[0]
    friend_card = calls["friend_card"].to_numpy().reshape(rows, CALLS)
    friend_seat = np.array(calls["friend_seat"].to_numpy().reshape(rows, CALLS))
    dd_points = np.zeros((CALLS, rows), np.int8)
    dd_solo = np.zeros((CALLS, rows), np.int8)
    _table_kernel(hands, np.array(deals["declarer"].to_numpy()), friend_seat,
                  solve_tables(solver.new_tables), dd_points, dd_solo)
    frame = deals.select("seed", "deal", *(f"hand{s}" for s in range(5)), "declarer", "kitty")
    columns = []
    for t in range(CALLS):
        columns += [pl.Series(f"dd_friend{t}", np.ascontiguousarray(friend_card[:, t])),
                    pl.Series(f"dd_points{t}", dd_points[t]), pl.Series(f"dd_solo{t}", dd_solo[t])]
    frame = frame.with_columns(columns)
    if "attempts" in deals.columns:
        frame = frame.with_columns(deals["attempts"])
    return frame
