"""Trump Friend (ไพ่ทรัมพ์เฟรนด์): five players, a declarer, a trump and a secret friend.

Rules: docs/rules/trump_friend.md (TF-1 ... TF-18).  Columns: docs/schema.md.
"""

from __future__ import annotations

import numba as nb
import numpy as np
import polars as pl

from simcore.errors import SimcoreError
from simcore.games.base import Game, PolicyChoice, frame_from_records, padded_list
from simcore.games.trump_friend import layout
from simcore.games.trump_friend.engine import games_kernel, hands_kernel, with_play
from simcore.games.trump_friend.policies import (
    FRIEND_POLICIES,
    PLAY_POLICIES,
    TRUMP_POLICIES,
    USER_POLICY,
    builtin_play,
)
from simcore.games.trump_friend.rules import Rules

_hands_kernel = nb.njit(parallel=True, cache=True, nogil=True)(hands_kernel)
_games_kernel = nb.njit(parallel=True, cache=True, nogil=True)(games_kernel)
_user_kernels: dict[tuple, tuple] = {}


def _kernels(choice: PolicyChoice):
    """The cached built-in kernels, or kernels compiled for this run's user policies."""
    if not choice.user:
        return _hands_kernel, _games_kernel
    key = tuple(sorted((s, id(f)) for s, f in choice.user.items()))
    if key not in _user_kernels:
        user = {s: f for s, f in choice.user.items()}
        if len({id(f) for f in user.values()}) > 1:
            raise SimcoreError("one user play policy per run is supported (give it to several seats)")
        fn = next(iter(user.values()))

        @nb.njit
        def play(policy, seat, hand, legal, view, st):
            if policy == USER_POLICY:
                return fn(seat, hand, legal, view, st)
            return builtin_play(policy, seat, hand, legal, view, st)

        _user_kernels[key] = tuple(nb.njit(parallel=True, nogil=True)(k) for k in with_play(play))
    return _user_kernels[key]


def _n_blocks(count: int) -> int:
    # Enough blocks to balance threads, few enough that per-block set-up is negligible.
    return max(1, min(count // 256, 4 * nb.get_num_threads() * 4))


def _common(rules: Rules, choice: PolicyChoice):
    first = -1 if rules.first_declarer == "random" else int(rules.first_declarer)
    return (
        first,
        rules.allow_own_card,
        TRUMP_POLICIES[choice.decisions["trump"]],
        FRIEND_POLICIES[choice.decisions["friend"]],
        GAME.policy_ids(choice, USER_POLICY),
    )


def _log_arrays(rows: int, log_plays: bool):
    if log_plays:
        return np.zeros((rows, 50), np.uint8), np.zeros((rows, 10), np.int8)
    return np.zeros((0, 50), np.uint8), np.zeros((0, 10), np.int8)


def _check(bad: np.ndarray):
    if bad[:, 0].sum():
        raise SimcoreError(
            f"a play policy returned an illegal card in {int(bad[:, 0].sum())} hands "
            "(a policy must return an internal card id from `legal`)"
        )
    if bad[:, 1].sum():
        raise SimcoreError(f"{int(bad[:, 1].sum())} games were still running after 65,535 rounds")


def _seat_arrays(rows: int, game_mode: bool):
    """Per-seat outputs, (rows, k) views of (k, rows) arrays: the kernels index them by row,
    and each seat's column is contiguous, so polars takes it without a copy."""
    dealt = np.zeros((5, rows), np.uint64).T
    seat_values = np.zeros((layout.N_SEAT_VALUES if game_mode else 2, 5, rows), np.int16)
    return dealt, seat_values.transpose(2, 0, 1)


def _hand_frame(out, dealt, seat_values, plays, winners, log_plays, game_mode):
    by_field = seat_values.transpose(1, 2, 0)  # (field, seat, row), C-contiguous
    seat = {"hand": dealt, "points": by_field[layout.SV_POINTS].astype(np.int8).T,
            "delta": by_field[layout.SV_DELTA].T}
    if game_mode:
        seat["total"] = by_field[layout.SV_TOTAL].T
    lists = {"plays": plays, "trick_winners": winners} if log_plays else None
    return frame_from_records(out, seat, lists, order=layout.HAND_COLUMNS)


def run_hands(seed: int, start: int, count: int, rules: Rules, choice: PolicyChoice,
              log_plays: bool = False) -> pl.DataFrame:
    """Deals start .. start+count-1 of a run, one row each (hands mode)."""
    hands_kernel, _ = _kernels(choice)
    out = np.zeros(count, layout.HAND_ROW)
    dealt, seat_values = _seat_arrays(count, False)
    plays, winners = _log_arrays(count, log_plays)
    bad = np.zeros((_n_blocks(count), 2), np.int64)
    hands_kernel(np.uint64(seed), np.int64(start), out, dealt, seat_values,
                 *_common(rules, choice), plays, winners, bad)
    _check(bad)
    return _hand_frame(out, dealt, seat_values, plays, winners, log_plays, False)


def run_games(seed: int, start: int, count: int, rules: Rules, choice: PolicyChoice,
              log_plays: bool = False) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Games start .. start+count-1, played to the losing line: (hand rows, game rows).

    The kernel runs twice: once to learn each game's length, then to write every hand row at
    its offset.  Both runs play identical games (streams are keyed by seed, game, hand).
    """
    _, games_kernel = _kernels(choice)
    games = np.zeros(count, layout.GAME_ROW)
    finals = np.zeros((count, 5), np.int16)
    blocks = _n_blocks(count)
    bad = np.zeros((blocks, 2), np.int64)
    first, *decl = _common(rules, choice)
    limit = (np.int64(rules.losing_line), rules.end_at == "exceed")

    def play(rows, offsets, record, log):
        out = np.zeros(rows, layout.GAME_HAND_ROW)
        dealt, seat_values = _seat_arrays(rows, True)
        plays, winners = _log_arrays(rows, log)
        games_kernel(np.uint64(seed), np.int64(start), games, finals, out, dealt, seat_values,
                     offsets, record, first, *limit, *decl, plays, winners, bad)
        _check(bad)
        return out, dealt, seat_values, plays, winners

    play(blocks, np.zeros(count, np.int64), False, False)
    lengths = games["hands"].astype(np.int64)
    offsets = np.concatenate([[0], np.cumsum(lengths)[:-1]]).astype(np.int64)
    out, dealt, seat_values, plays, winners = play(int(lengths.sum()), offsets, True, log_plays)
    hands = _hand_frame(out, dealt, seat_values, plays, winners, log_plays, True)
    top = finals.max(axis=1, keepdims=True)
    ranked = np.sort(np.where(finals == top, np.arange(5), 127), axis=1).astype(np.int8)
    game_frame = frame_from_records(games, {"final": finals}, order=layout.GAME_COLUMNS)
    game_frame = game_frame.drop("n_winners").with_columns(
        padded_list("winners", ranked, games["n_winners"])
    )
    return hands, game_frame


GAME = Game(
    name="trump-friend",
    n_seats=layout.N_SEATS,
    rules_cls=Rules,
    play_policies=PLAY_POLICIES,
    default_play="heuristic",
    decisions={"trump": TRUMP_POLICIES, "friend": FRIEND_POLICIES},
    default_decisions={"trump": "longest", "friend": "highest"},
    run_hands=run_hands,
    run_games=run_games,
)
