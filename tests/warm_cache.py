"""Fill Numba's on-disk cache for every game's kernels once, before the test workers start.

Both pytest-xdist workers would otherwise compile the same kernels at the same time (each
game's tests and the cross-game tests land on different workers), paying every compile twice.
Run by ``tests/conftest.py`` in the controlling process: a pool of two processes, one entry
of ``GAMES`` each at a time, so each kernel compiles exactly once per suite.

``python tests/warm_cache.py [ENTRY ...]`` does the same by hand.
"""

from __future__ import annotations

import concurrent.futures
import os
import subprocess
import sys
import time

# "solve:GAME" is a trick game's open-hand solver (a small solve and its DD-table kernel),
# "pimc:GAME" its search-policy kernel set (compiled only for a pimc/dd run), "GAME" its engine.
# The open-hand search itself (simcore/solver/) is one kernel per objective shared by every
# game: Euchre's solver compiles the trick-counting one, Trump Friend's the card-points one,
# side by side first, so that the search policies and Spades' solver load both from the cache
# instead of two processes compiling the same search at once.  Then the longest compile first,
# so the two processes finish together.
GAMES = ("solve:euchre", "solve:trump-friend", "pimc:euchre", "pimc:spades", "pimc:trump-friend",
         "pimc:gin-rummy", "solve:spades", "trump-friend", "gin-rummy", "dummy", "spades",
         "euchre")


# A two-card ending per trick game: compiles its open-hand solver (value and moves).
ENDINGS = {
    "spades": (["AS 2H", "KS 3H", "QS 4H", "JS 5H"], {}),
    "euchre": (["JH AH", "JD KH", "AS QH", "KS TH"], {"trump": 2}),
    "trump-friend": (["3S 2H", "2S 4H", "AS 5H", "KS 6H", "QS 7H"], {"trump": 3, "team": {0}}),
}


def warm(entry: str) -> None:
    """Compile an entry's kernels: ``GAME`` a tiny batch in hands and games mode,
    ``solve:GAME`` a small open-hand solve and the DD-table kernel (run on no deals),
    ``pimc:GAME`` a tiny batch with a searching seat."""
    import numpy as np

    import simcore
    from simcore import games

    kind, _, game = entry.rpartition(":")
    if kind == "pimc":
        if "pimc" in games.get(game).play_policies:  # a game without search policies yet: nothing
            simcore.simulate(game, 2, seed=1, policy=["0=pimc:2"])
    elif kind == "solve":
        hands, state = ENDINGS[game]
        simcore.solve(game, hands, leader=0, **state)
        _empty_table_kernel(games.get(game), np)
    else:
        simcore.simulate(game, 4, seed=1)
        simcore.simulate(game, 2, seed=1, mode="games")


def _empty_table_kernel(game, np) -> None:
    from simcore.games.base import solve_tables

    module = game.solve_hands.__module__
    dd = __import__(module, fromlist=["_table_kernel", "solver"])
    seats = game.n_seats
    hands = np.zeros((0, seats), np.uint64)
    small = np.zeros(0, np.int8)
    tables = solve_tables(dd.solver.new_tables)
    if game.name == "spades":
        dd._table_kernel(hands, small, True, np.int64(0), tables, small, np.zeros((0, 4), np.int8))
    elif game.name == "euchre":
        dd._table_kernel(hands, small, small, tables, np.zeros((20, 0), np.int8))
    else:
        dd._table_kernel(hands, small, np.zeros((0, 5), np.int8), tables,
                         np.zeros((5, 0), np.int8), np.zeros((5, 0), np.int8))


def _warm_in_subprocess(entry: str) -> tuple[str, float, int, str]:
    started = time.perf_counter()
    done = subprocess.run([sys.executable, __file__, "--one", entry], capture_output=True, text=True)
    return entry, time.perf_counter() - started, done.returncode, done.stderr[-2000:]


def warm_all(games=GAMES, processes: int = 2) -> list[tuple[str, float, int, str]]:
    with concurrent.futures.ThreadPoolExecutor(processes) as pool:
        return list(pool.map(_warm_in_subprocess, games))


if __name__ == "__main__":
    if sys.argv[1:2] == ["--one"]:
        warm(sys.argv[2])
        sys.exit(0)
    os.environ.setdefault("NUMBA_NUM_THREADS", "2")
    for game, seconds, code, err in warm_all(tuple(sys.argv[1:]) or GAMES):
        print(f"{game}: {seconds:.0f} s" + ("" if code == 0 else f" FAILED\n{err}"))
