"""The Dummy heuristic beats random players clearly at every table size.

A small run; ``python -m simcore.games.dummy.matchup 10000`` gives the reported figures
(docs/games/dummy.md)."""

import pytest

from simcore.games.dummy.matchup import win_rate


@pytest.mark.parametrize("players", [2, 3, 4])
def test_heuristic_beats_random(players):
    rate, wins, played = win_rate(players, 300, seed=3)
    assert played == 300
    # well above a fair share of 1/players (measured: about 0.68, 0.70, 0.80 at 2, 3, 4 players;
    # the margin of 0.08 is three standard errors at 300 matches)
    assert rate > 1 / players + 0.08
