"""Hands per second of the Spades kernel on one thread, and of OpenSpiel's spades.

``python -m simcore.games.spades.bench [HANDS]`` prints the figures quoted in
docs/games/spades.md: the bare hands kernel (random and heuristic play, best of four runs,
wall and CPU time), ``run_hands`` with the polars frame, and ``pyspiel.evaluate_bots`` with
four uniform random bots (when OpenSpiel is installed).
"""

from __future__ import annotations

import sys
import time

import numba as nb
import numpy as np


def kernel_rate(policy: str, hands: int, repeats: int = 4) -> tuple[float, float]:
    """(hands/s wall, hands/s CPU) of the bare hands kernel, best of ``repeats``."""
    from simcore.dealing import filter_arrays
    from simcore.games.spades import GAME, LAYOUT, _hands_kernel, _row_arrays, policy_arrays
    from simcore.games.spades.rules import Rules, rules_vector

    choice = GAME.policies_from_specs([policy])
    rules = rules_vector(Rules())
    best_wall = best_cpu = 0.0
    for _ in range(repeats):
        arrays = _row_arrays(hands, False, False)
        bad = np.zeros(16, np.int64)
        wall, cpu = time.perf_counter(), time.process_time()
        _hands_kernel(np.uint64(7), np.int64(0), *arrays[:4], rules, *policy_arrays(choice),
                      *arrays[4:], *filter_arrays(LAYOUT, None), np.zeros(0, np.int64),
                      np.zeros(1, np.int64), bad)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        best_wall, best_cpu = max(best_wall, hands / wall), max(best_cpu, hands / cpu)
    return best_wall, best_cpu


def openspiel_rate(hands: int = 3000) -> tuple[float, float]:
    import pyspiel

    game = pyspiel.load_game("spades")
    bots = [pyspiel.make_uniform_random_bot(p, 1000 + p) for p in range(4)]
    wall, cpu = time.perf_counter(), time.process_time()
    for i in range(hands):
        pyspiel.evaluate_bots(game.new_initial_state(), bots, i)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    return hands / wall, hands / cpu


def main(argv: list[str]) -> None:
    hands = int(argv[0]) if argv else 500_000
    nb.set_num_threads(1)
    from simcore.games.spades import GAME
    from simcore.games.spades.rules import Rules

    GAME.run_hands(1, 0, 300, Rules(), GAME.policies_from_specs(["random"]))  # load / compile
    GAME.run_hands(1, 0, 300, Rules(), GAME.policies_from_specs(["heuristic"]))
    for policy in ("random", "heuristic"):
        wall, cpu = kernel_rate(policy, hands)
        print(f"{policy:9} kernel: {wall:12,.0f} hands/s wall {cpu:12,.0f} hands/s CPU (1 thread)")
        t = time.perf_counter()
        GAME.run_hands(7, 0, hands, Rules(), GAME.policies_from_specs([policy]))
        print(f"{policy:9} run_hands with the polars frame: {hands / (time.perf_counter() - t):,.0f} hands/s wall")
    try:
        wall, cpu = openspiel_rate()
    except ImportError:
        return
    print(f"openspiel evaluate_bots (uniform random): {wall:,.0f} hands/s wall {cpu:,.0f} hands/s CPU")


if __name__ == "__main__":
    main(sys.argv[1:])
