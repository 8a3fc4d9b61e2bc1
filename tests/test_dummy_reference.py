"""Dummy engine vs the plain-Python reference (tests/reference/dummy_ref.py).

Random deals of hands mode are played by the engine with its decision log; the reference deals
the same deck, lists the legal actions of every decision itself (the engine must have offered
exactly as many, and chosen one of them), applies the decisions and scores the deal.  Every
deal's knocker, dark knock, fool, per-seat opened / T / H / penalties / lay-offs and score must
agree.  Random play explores odd corners (deep takes, lay-off chains, stock-outs); the heuristic
makes realistic deals; the last configurations turn every option on.
"""

from __future__ import annotations

import os

import numpy as np
import pytest

from reference import dummy_ref as ref
from simcore.games.dummy import GAME, engine, layout
from simcore.games.dummy.rules import Rules, rules_vector

ALL_OPTIONS = dict(speto_knock_100=True, head_card_bonus=True, head_feed_penalty=True,
                   layoff_discard_penalty=True, full_discard_penalty=True,
                   speto_feed_penalty=True, speto_discard_penalty=True)

# The reference costs about 15 ms a deal, so the suite replays 570 deals; DUMMY_REF_SCALE=10
# replays 5,700 (docs/games/dummy.md gives a measured run).
SCALE = int(os.environ.get("DUMMY_REF_SCALE", "1"))
CASES = [
    (Rules(players=2), "random", 50),
    (Rules(players=2), "heuristic", 60),
    (Rules(players=3), "random", 50),
    (Rules(players=3), "heuristic", 60),
    (Rules(players=4), "random", 50),
    (Rules(players=4), "heuristic", 80),
    (Rules(players=4), "mixed", 60),
    (Rules(players=2), "expert", 50),
    (Rules(players=3, **ALL_OPTIONS), "expert", 40),
    (Rules(players=4, **ALL_OPTIONS), "heuristic", 60),
    (Rules(players=3, **ALL_OPTIONS, layoff_limit="none", dark_knock_layoffs=True,
           qka_closed=True, may_discard_taken_card=False), "random", 40),
    (Rules(players=2, two_player_cut5=True, layoff_limit="1", layoff_limit_scope="table",
           knock_card_value=40, dark_knock_multiplier=3, unopened_multiplier=1,
           ngo_penalty=30, **ALL_OPTIONS), "heuristic", 60),
]


def _policies(name):
    if name == "mixed":
        return np.array([0, 1, 0, 1], np.int64)
    return np.array([GAME.play_policies[name]] * 4, np.int64)


@pytest.mark.parametrize("rules,policy,count", CASES,
                         ids=[f"{r.players}p-{p}-{i}" for i, (r, p, _) in enumerate(CASES)])
def test_engine_matches_reference(rules, policy, count):
    count *= SCALE
    cfg = rules_vector(rules)
    seed = 1000 + len(policy) + 7 * rules.players
    infos, seats, decks, dealers, logs = engine.replay_hands(np.uint64(seed), 0, count, cfg,
                                                             _policies(policy))
    rd = ref.rules_dict(rules)
    n = rules.players
    knocks = darks = fools = 0
    for i in range(count):
        n_log = infos[i, layout.R_N_LOG]
        assert n_log < logs.shape[1]
        dealer = int(dealers[i])
        got = ref.replay(decks[i], dealer, (dealer + 1) % n, 1, rd, logs[i, :n_log])
        msg = f"deal {i}"
        assert infos[i, layout.R_KNOCKER] == got["knocker"], msg
        assert bool(infos[i, layout.R_DARK]) == got["dark"], msg
        assert infos[i, layout.R_FOOL] == got["fool"], msg
        assert infos[i, layout.R_KNOCK_CARD] == got["knock_card"], msg
        assert infos[i, layout.R_TURNS] == got["turns"], msg
        for s in range(n):
            assert bool(seats[i, layout.S_OPENED, s]) == got["opened"][s], msg
            assert seats[i, layout.S_TABLE, s] == got["table"][s], msg
            assert seats[i, layout.S_INHAND, s] == got["inhand"][s], msg
            assert seats[i, layout.S_PENALTY, s] == got["penalty"][s], msg
            assert seats[i, layout.S_LAYOFFS, s] == got["layoffs"][s], msg
            assert seats[i, layout.S_SCORE, s] == got["score"][s], msg
        for s in range(n, 4):
            assert seats[i, layout.S_SCORE, s] == 0
        knocks += got["knocker"] >= 0
        darks += got["dark"]
        fools += got["fool"] >= 0
    assert knocks > 0  # the sample reaches knocks (and, with random play, stock-outs)
    if policy == "random":
        assert knocks < count
