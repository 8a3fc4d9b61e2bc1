"""User play policies (jitted functions from a user's script) in Spades and Dummy.

A user policy that calls the built-in random policy must give exactly the rows of the built-in
``random`` run: the kernels compiled around it (``simcore.games.base.UserKernels``) run the
same engine, and the user's seats draw from the same policy stream.  (Trump Friend, Euchre
and Gin Rummy test theirs in their own files: each compile of a game's engine around a user
policy takes seconds to tens of seconds, so each game compiles one, for all its tests.)
"""

from __future__ import annotations

import numba as nb
import pytest

import simcore
from simcore.errors import SimcoreError
from simcore.games.dummy import policies as dummy
from simcore.games.gin_rummy import policies as gin
from simcore.games.spades import policies as spades

DEALS = 300
SPADES_RANDOM = spades.PLAY_POLICIES["random"]
GIN_RANDOM = gin.PLAY_POLICIES["random"]
DUMMY_RANDOM = dummy.PLAY_POLICIES["random"]


@nb.njit
def spades_random(seat, hand, legal, view, st):
    """Random play, except that seat 3 answers a card that does not exist (one function,
    so one compile, serves both tests below)."""
    if seat == 3:
        return 52
    return spades.builtin_play(SPADES_RANDOM, seat, hand, legal, view, st)


@nb.njit
def dummy_random(kind, seat, hand, view, acts, n, st):
    return dummy.builtin_play(DUMMY_RANDOM, kind, seat, hand, view, acts, n, st)


@nb.njit
def gin_other(kind, seat, hand, view, st):
    return 0


@nb.njit
def gin_random(kind, seat, hand, view, st):  # never compiled: the run is refused before
    return gin.builtin_play(GIN_RANDOM, kind, seat, hand, view, st)


def rows(game, policy):
    return simcore.simulate(game, DEALS, seed=6, policy=policy).hands().collect()


@pytest.mark.parametrize("game, fn", [("spades", spades_random), ("dummy", dummy_random)])
def test_user_policy_calling_builtin_random_gives_the_random_rows(game, fn):
    # Spades bids by each seat's play policy unless told: pin the bid so only play differs
    pinned = {"bid": "random"} if game == "spades" else {}
    user = {1: fn, 0: "random", 2: "random", 3: "random"} if game == "spades" else {1: fn, 0: "random"}
    if game == "dummy":  # four players by default
        user |= {2: "random", 3: "random"}
    builtin = {s: "random" for s in user}
    assert rows(game, user | pinned).equals(rows(game, builtin | pinned))


def test_user_policy_illegal_card_is_one_clear_error():
    with pytest.raises(SimcoreError, match="illegal"):
        rows("spades", {3: spades_random})


def test_two_different_user_policies_in_one_run_are_refused():
    with pytest.raises(SimcoreError, match="one user play policy per run"):
        rows("gin-rummy", {0: gin_random, 1: gin_other})
