"""How often a heuristic partnership beats a random one over whole games.

``python -m simcore.games.spades.matchup 10000`` prints the figures quoted in
docs/games/spades.md.
"""

from __future__ import annotations

import sys

from simcore.games.spades import GAME
from simcore.games.spades.rules import Rules


def win_rate(seed: int = 1, games: int = 1000, bid: str = "seat", rules: Rules | None = None) -> float:
    """Share of games won by seats 0 and 2 (heuristic play) against seats 1 and 3 (random
    play).  ``bid="seat"``: each side also bids with its own policy; ``bid="heuristic"``:
    everyone bids heuristically, so only card play differs.  Unfinished games count as lost."""
    choice = GAME.policies_from_specs(
        {"0": "heuristic", "1": "random", "2": "heuristic", "3": "random", "bid": bid}
    )
    _, frame = GAME.run_games(seed, 0, games, rules or Rules(), choice)
    return float((frame["winner"] == 0).mean())


def main(argv: list[str]) -> None:
    games = int(argv[0]) if argv else 10_000
    for bid in ("seat", "heuristic"):
        print(f"heuristic vs random, bid={bid}: {win_rate(1, games, bid):.4f} of {games} games")


if __name__ == "__main__":
    main(sys.argv[1:])
