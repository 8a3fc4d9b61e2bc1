"""Fill Numba's on-disk cache for every game's kernels once, before the test workers start.

Both pytest-xdist workers would otherwise compile the same kernels at the same time (each
game's tests and the cross-game tests land on different workers), paying every compile twice.
Run by ``tests/conftest.py`` in the controlling process: a pool of two processes, one game
each at a time, longest compile first, so each kernel compiles exactly once per suite.

``python tests/warm_cache.py [GAME ...]`` does the same by hand.
"""

from __future__ import annotations

import concurrent.futures
import os
import subprocess
import sys
import time

# Longest compile first, so the two processes finish together.
GAMES = ("trump-friend", "spades", "gin-rummy", "dummy", "euchre")


def warm(game: str) -> None:
    """Compile ``game``'s kernels by running a tiny batch in hands and games mode."""
    import simcore

    simcore.simulate(game, 4, seed=1)
    simcore.simulate(game, 2, seed=1, mode="games")


def _warm_in_subprocess(game: str) -> tuple[str, float, int, str]:
    started = time.perf_counter()
    done = subprocess.run([sys.executable, __file__, "--one", game], capture_output=True, text=True)
    return game, time.perf_counter() - started, done.returncode, done.stderr[-2000:]


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
