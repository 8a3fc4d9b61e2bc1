"""Dummy (Thai rummy): 2-4 players, pile takes at any depth, opening, lay-offs, knocks, 500.

Rules: docs/rules/dummy.md (DM-1 ... DM-34).  Columns: docs/games/dummy.md.
"""

from __future__ import annotations

import numba as nb
import numpy as np
import polars as pl

from simcore.games.base import (Game, PolicyChoice, UserKernels, frame_from_records, n_blocks,
                                padded_list)
from simcore.games.batches import check_illegal, check_running, two_passes
from simcore.games.dummy import engine, layout, show
from simcore.games.dummy.engine import games_kernel, hands_kernel, with_play
from simcore.games.dummy.policies import PLAY_POLICIES, USER_POLICY, builtin_play
from simcore.games.dummy.rules import Rules, rules_vector

_hands_kernel = nb.njit(parallel=True, cache=True, nogil=True)(hands_kernel)
_games_kernel = nb.njit(parallel=True, cache=True, nogil=True)(games_kernel)
_kernels = UserKernels(builtin_play, with_play, USER_POLICY, (_hands_kernel, _games_kernel))

USER_POLICY_DOC = """A Dummy play policy is a jitted function
    policy(kind, seat, hand, view, acts, n, st) -> int
returning the index of its choice among the legal actions acts[:n].  kind: 0 acquire (draw -1,
pass -2, or a take: depth << 52 | meld), 1 play (0 stop, or a meld / lay-off / knock code),
2 discard (a card id).  See simcore.games.dummy.layout for the codes and the view's fields."""




def _check(bad: np.ndarray):
    check_illegal(bad[:, 0].sum(), "it must return an index below n, the number of legal actions",
                  what="gave an illegal answer", unit="deals")
    if bad.shape[1] > 2:
        check_running(bad[:, 2].sum(), "matches", "deals")


_SEAT_STEMS = {"opened": layout.S_OPENED, "table": layout.S_TABLE, "inhand": layout.S_INHAND,
               "penalty": layout.S_PENALTY, "score": layout.S_SCORE, "layoffs": layout.S_LAYOFFS}


def _hand_frame(out, dealt, seat_out, log, rules, totals=None):
    seat = {"hand": dealt}
    for stem, k in _SEAT_STEMS.items():
        values = seat_out[:, k, :]
        seat[stem] = values.astype(np.bool_) if stem == "opened" else (
            values.astype(np.int8) if stem == "layoffs" else values.astype(np.int16))
    if totals is not None:
        seat["total"] = totals
    frame = frame_from_records(out, seat, order=layout.HAND_COLUMNS)
    decisions, deciders, log_n, stock = log
    if decisions.shape[0]:  # --log-plays (layout.LOG_ROW)
        kept = np.minimum(log_n, layout.LOG_ROW)
        in_play = np.full(len(log_n), engine.stock_end(rules_vector(rules)) - rules.players
                          * rules.hand_size - 1)
        frame = frame.with_columns(padded_list("decisions", decisions, kept),
                                   padded_list("deciders", deciders, kept),
                                   padded_list("stock", stock, in_play))
    return frame


def _arrays(rows):
    return np.zeros((rows, 4), np.uint64), np.zeros((rows, layout.N_SEAT_RES, 4), np.int64)


def _log_arrays(rows, log_plays):
    """The ``--log-plays`` arrays of ``rows`` rows (none without ``log_plays``)."""
    logged = rows if log_plays else 0
    return (np.zeros((logged, layout.LOG_ROW), np.int64),
            np.zeros((logged, layout.LOG_ROW), np.int8), np.zeros(logged, np.int64),
            np.zeros((logged, layout.DECK), np.int8))


def run_hands(seed: int, start: int, count: int, rules: Rules, choice: PolicyChoice,
              log_plays: bool = False) -> pl.DataFrame:
    """Deals start .. start+count-1 of a run, one row each (hands mode)."""
    kernel, _ = _kernels(choice)
    out = np.zeros(count, layout.HAND_ROW)
    dealt, seat_out = _arrays(count)
    log = _log_arrays(count, log_plays)
    bad = np.zeros((n_blocks(count), 2), np.int64)
    kernel(np.uint64(seed), np.int64(start), out, dealt, seat_out, *log, rules_vector(rules),
           GAME.policy_ids(choice, USER_POLICY), bad)
    _check(bad)
    return _hand_frame(out, dealt, seat_out, log, rules)


def run_games(seed: int, start: int, count: int, rules: Rules, choice: PolicyChoice,
              log_plays: bool = False) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Matches start .. start+count-1 played to the target (DM-28): (deal rows, match rows).

    The kernel runs twice: once to learn each match's length, then to write every deal row at
    its offset (streams are keyed by seed, game, hand, so both runs play the same deals)."""
    _, kernel = _kernels(choice)
    games = np.zeros(count, layout.GAME_ROW)
    scores = np.zeros((count, 4), np.int64)
    blocks = n_blocks(count)
    bad = np.zeros((blocks, 3), np.int64)
    cfg = rules_vector(rules)
    ids = GAME.policy_ids(choice, USER_POLICY)

    def play(rows, offsets, record):
        out = np.zeros(rows, layout.GAME_HAND_ROW)
        dealt, seat_out = _arrays(rows)
        totals = np.zeros((rows, 4), np.int32)
        log = _log_arrays(rows, log_plays and record)
        bad[:] = 0
        kernel(np.uint64(seed), np.int64(start), games, scores, out, dealt, seat_out, totals,
               *log, offsets, record, cfg, ids, bad)
        _check(bad)
        return out, dealt, seat_out, log, rules, totals

    hands = _hand_frame(*two_passes(play, games, count, blocks))
    seat = {"final": scores.astype(np.int32)}
    return hands, frame_from_records(games, seat, order=layout.GAME_COLUMNS)


GAME = Game(
    name="dummy",
    title="Dummy",
    n_seats=layout.N_SEATS,
    rules_cls=Rules,
    play_policies=PLAY_POLICIES,
    default_play="heuristic",
    policy_notes=(
        "expert: takes worth their cost and opens early, knocks whenever it can, discards what "
        "the next player is least likely to meld (its known pile picks, the unseen cards) and "
        "what the penalty options would not charge (docs/games/dummy.md)",
    ),
    decisions={},
    default_decisions={},
    run_hands=run_hands,
    run_games=run_games,
    user_policy_doc=USER_POLICY_DOC,
    show=show.VIEW,
)
