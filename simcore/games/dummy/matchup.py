"""Heuristic vs random in whole matches to 500 (DM-28): the heuristic's match win rate.

    python -m simcore.games.dummy.matchup N [SEED]

plays N matches at each table size (2, 3, 4 players); one seat is ``heuristic`` and the others
``random``, the heuristic's seat rotating through every seat (N / players matches each, on
disjoint match ids).  A fair share would be 1 / players.
"""

from __future__ import annotations

import math
import sys
import time


from simcore.games.dummy import GAME, run_games
from simcore.games.dummy.rules import Rules


def win_rate(players: int, matches: int, seed: int = 1, **rules) -> tuple[float, int, int]:
    """(win rate, wins, matches) of one heuristic seat against random opponents."""
    wins = played = 0
    per_seat = [matches // players + (1 if s < matches % players else 0) for s in range(players)]
    start = 0
    for seat, count in enumerate(per_seat):
        if count == 0:
            continue
        spec = {str(s): "random" for s in range(4)}
        spec[str(seat)] = "heuristic"
        _, games = run_games(seed, start, count, Rules(players=players, **rules),
                             GAME.policies_from_specs(spec))
        wins += int((games["winner"].to_numpy() == seat).sum())
        played += count
        start += count
    return wins / played, wins, played


def main(argv: list[str]) -> int:
    n = int(argv[0]) if argv else 10000
    seed = int(argv[1]) if len(argv) > 1 else 1
    print(f"heuristic vs random, {n} matches to 500 per table size (seed {seed})")
    print("players  fair share  heuristic wins  win rate  95% interval   seconds")
    for players in (2, 3, 4):
        t = time.perf_counter()
        rate, wins, played = win_rate(players, n, seed)
        half = 1.96 * math.sqrt(rate * (1 - rate) / played)
        print(f"{players:7d}  {1 / players:10.3f}  {wins:8d}/{played:<6d}  {rate:8.3f}  "
              f"{rate - half:.3f}-{rate + half:.3f}  {time.perf_counter() - t:8.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
