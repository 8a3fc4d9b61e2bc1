"""Trump Friend (ไพ่ทรัมพ์เฟรนด์): five players, a declarer, a trump and a secret friend.

Rules: docs/rules/trump_friend.md (TF-1 ... TF-18).  Columns: docs/schema.md.
"""

from __future__ import annotations

import dataclasses

import numba as nb
import numpy as np
import polars as pl

from simcore import dealing
from simcore.cards import RANKS
from simcore.errors import SimcoreError
from simcore.games.base import (Game, PolicyChoice, UserKernels, frame_from_records, padded_list,
                                with_attempts)
from simcore.games.batches import (check_illegal, check_running, columns, frame_from_columns,
                                   log_arrays, log_columns, record_fields, run_blocks,
                                   run_kernels, two_passes, what_if_rows)
from simcore.games.searching import is_search, searching
from simcore.games.trump_friend import advice, dd_table, layout, pimc, show, solver
from simcore.games.trump_friend.engine import games_kernel, hands_kernel, with_play
from simcore.games.trump_friend.policies import (FORCED_FRIEND, FORCED_TRUMP, FRIEND_POLICIES,
                                                 USER_POLICY, builtin_play)
from simcore.games.trump_friend.rules import Rules, rules_vector

_hands_kernel = nb.njit(parallel=True, cache=True, nogil=True)(hands_kernel)
_games_kernel = nb.njit(parallel=True, cache=True, nogil=True)(games_kernel)
_kernels = UserKernels(builtin_play, with_play, USER_POLICY, (_hands_kernel, _games_kernel))


def _searches(choice: PolicyChoice) -> bool:
    """Does a seat of the run search (pimc, dd), or a call (trump=pimc, friend=pimc)?"""
    return searching(choice) or any(is_search(choice.decisions[d]) for d in ("trump", "friend"))


def _kernel_pair(choice: PolicyChoice):
    """The run's kernels: with a search policy (pimc, dd; trump=pimc, friend=pimc) the search
    kernel set, compiled only then; else the built-in (or user-policy) kernels."""
    if _searches(choice) and choice.user and not searching(choice):
        raise SimcoreError("a user play policy and trump=pimc/friend=pimc cannot share a run yet")
    return run_kernels(choice, _searches(choice), pimc.kernels, _kernels)


def _blocks(count: int, choice: PolicyChoice) -> int:
    return run_blocks(count, _searches(choice))


def _common(rules: Rules, choice: PolicyChoice):
    """The kernels' rules vector, trump and friend call policies and play policies."""
    return (
        rules_vector(rules),
        pimc.TRUMP_CALLS[choice.decisions["trump"]],
        pimc.FRIEND_CALLS[choice.decisions["friend"]],
        GAME.policy_ids(choice, USER_POLICY),
    )


def _check(bad: np.ndarray):
    dealing.check_capped(bad[:, 2].max(initial=0).reshape(1))
    check_illegal(bad[:, 0].sum(), "a policy must return an internal card id from `legal`")
    check_running(bad[:, 1].sum(), "games", "rounds")


def _row_arrays(rows: int, game_mode: bool):
    """The kernels' hand-row outputs: ``small`` (int8), ``wide`` (uint64) and ``seat_values``
    (int16), each a (rows, ...) view of an array whose last axis is the row, so every column
    is contiguous and polars takes it without a copy (layout.WIDE_COLUMNS, SMALL_COLUMNS)."""
    small = columns(layout.N_SMALL, rows, np.int8)
    wide = columns(layout.N_WIDE, rows, np.uint64)
    seat_values = np.zeros((layout.N_SEAT_VALUES if game_mode else 2, 5, rows), np.int16)
    return small, wide, seat_values.transpose(2, 0, 1)


def _hand_frame(small, wide, seat_values, plays, winners, log_plays, game_mode):
    by_field = seat_values.transpose(1, 2, 0)  # (field, seat, row), C-contiguous
    seat_columns = {}
    for s in range(5):
        seat_columns[f"points{s}"] = by_field[layout.SV_POINTS, s].astype(np.int8)
        seat_columns[f"delta{s}"] = by_field[layout.SV_DELTA, s]
        if game_mode:
            seat_columns[f"total{s}"] = by_field[layout.SV_TOTAL, s]
    order = [c for c in layout.HAND_COLUMNS if game_mode or c not in ("game", "hand_no")]
    frame = frame_from_columns(((layout.SMALL_COLUMNS, small), (layout.WIDE_COLUMNS, wide)), order,
                               extra=seat_columns, bools=layout.BOOL_COLUMNS, u16=("hand_no",))
    return log_columns(frame, plays, winners, log_plays)


# What-if decisions: each deal is played once per option, the option forced for the declarer.
WHAT_IF = {
    "trump": ("clubs", "diamonds", "hearts", "spades", "notrump"),
    "friend": ("highest", "none"),
}
WHAT_IF_DOC = {
    "trump": "the declarer calls each of the five trumps (TF-5.1); the friend call follows the "
             "run's friend policy for that trump (a searching declarer's too)",
    "friend": "the declarer calls the highest trump not held (TF-5.2) or no friend (TF-5.3); "
              "the trump: the run's trump policy (a searching declarer's too)",
}


def _forced(common: tuple, what_if: str, option: int) -> tuple:
    rules, trump_policy, friend_policy, ids = common
    if what_if == "trump":
        trump_policy = FORCED_TRUMP + option
    else:
        friend_policy = FORCED_FRIEND + FRIEND_POLICIES[WHAT_IF["friend"][option]]
    return rules, trump_policy, friend_policy, ids


def run_hands(seed: int, start: int, count: int, rules: Rules, choice: PolicyChoice,
              log_plays: bool = False, *, what_if: str | None = None,
              deal_filter=None) -> pl.DataFrame:
    """Deals start .. start+count-1 of a run, one row each (hands mode).

    With ``what_if`` (a key of ``WHAT_IF``) every deal is played once per option, from the
    same deal and policy streams, and the rows come deal-major with an ``option`` column."""
    common = _common(rules, choice)
    if what_if is None:
        return _play_hands(seed, start, count, common, choice, log_plays, deal_filter)
    return what_if_rows(GAME, what_if, lambda k, _: _play_hands(
        seed, start, count, _forced(common, what_if, k), choice, log_plays, deal_filter))


def _play_hands(seed, start, count, common, choice, log_plays, deal_filter):
    hands_kernel, _ = _kernel_pair(choice)
    small, wide, seat_values = _row_arrays(count, False)
    plays, winners = log_arrays(count, log_plays, 50, 10)
    attempts = np.zeros(count, np.int64)
    bad = np.zeros((_blocks(count, choice), 3), np.int64)
    hands_kernel(np.uint64(seed), np.int64(start), small, wide, seat_values, *common, plays,
                 winners, *dealing.filter_arrays(LAYOUT, deal_filter), attempts, bad)
    _check(bad)
    frame = _hand_frame(small, wide, seat_values, plays, winners, log_plays, False)
    return with_attempts(frame, attempts, deal_filter)


def run_games(seed: int, start: int, count: int, rules: Rules, choice: PolicyChoice,
              log_plays: bool = False, *, deal_filter=None) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Games start .. start+count-1, played to the losing line: (hand rows, game rows).

    The kernel runs twice: once to learn each game's length, then to write every hand row at
    its offset.  Both runs play identical games (streams are keyed by seed, game, hand).
    """
    _, games_kernel = _kernel_pair(choice)
    games = np.zeros(count, layout.GAME_ROW)
    finals = np.zeros((count, 5), np.int16)
    blocks = _blocks(count, choice)
    bad = np.zeros((blocks, 3), np.int64)
    common = _common(rules, choice)
    filter_arrays = dealing.filter_arrays(LAYOUT, deal_filter)

    def play(rows, offsets, record, log):
        small, wide, seat_values = _row_arrays(rows, True)
        plays, winners = log_arrays(rows, log, 50, 10)
        attempts = np.zeros(rows, np.int64)
        games_kernel(np.uint64(seed), np.int64(start), games, finals, small, wide, seat_values,
                     offsets, record, *common, plays, winners, *filter_arrays,
                     attempts, bad)
        _check(bad)
        return small, wide, seat_values, plays, winners, attempts

    # at least two scratch rows: a one-row (k, 1) view is C- as well as F-contiguous, and
    # Numba would compile the games kernel a second time for that layout
    small, wide, seat_values, plays, winners, attempts = two_passes(play, games, count,
                                                                    max(blocks, 2), log_plays)
    hands = with_attempts(_hand_frame(small, wide, seat_values, plays, winners, log_plays, True),
                          attempts, deal_filter)
    top = finals.max(axis=1, keepdims=True)
    ranked = np.sort(np.where(finals == top, np.arange(5), 127), axis=1).astype(np.int8)
    game_frame = frame_from_records(games, {"final": finals}, order=layout.GAME_COLUMNS)
    game_frame = game_frame.drop("n_winners").with_columns(
        padded_list("winners", ranked, games["n_winners"])
    )
    return hands, game_frame


def _points_table(arg):
    if arg is not None:
        raise SimcoreError("the points feature takes no argument")
    table = np.zeros((4, 52), np.int64)
    for c in range(52):
        table[:, c] = {"A": 2, "K": 1, "Q": 1, "J": 1}.get(RANKS[c % 13], 0)
    return table


@dataclasses.dataclass(frozen=True)
class Choice(PolicyChoice):
    """A run's policies; the manifest's record adds ``own_calls``, the seats whose trump and
    friend calls are their own (a pimc or dd seat is a whole player), when there are any."""

    def to_dict(self) -> dict:
        record = super().to_dict()
        own = [s for s, name in enumerate(self.seats) if is_search(name)]
        if own:
            record["own_calls"] = own
        return record


class TrumpFriendGame(Game):
    def policies_from_specs(self, specs) -> Choice:
        if isinstance(specs, dict):  # a manifest's record (``Choice.to_dict``) read back
            specs = {k: v for k, v in specs.items() if k != "own_calls"}
        choice = super().policies_from_specs(specs)
        return Choice(choice.seats, choice.decisions, choice.user)


LAYOUT = dealing.DealLayout(
    game="trump-friend",
    n_seats=layout.N_SEATS,
    slots=tuple((str(s), 10) for s in range(layout.N_SEATS)) + (("kitty", 2),),
    deck_ids=np.arange(52, dtype=np.int64),
    engine_id=layout.TO_INTERNAL.astype(np.int64),
    shuffle=dealing.SHUFFLE_PAIRED,
    predeal_slots=tuple(str(s) for s in range(layout.N_SEATS)) + ("kitty",),
    roles=("declarer",),
    features={"points": dealing.Feature("card points held (TF-11: A 2, K Q J 1)", _points_table)},
)

GAME = TrumpFriendGame(
    name="trump-friend",
    title="Trump Friend",
    **record_fields(layout.N_SEATS, Rules, pimc, run_hands, run_games),
    decisions={"trump": pimc.TRUMP_CALLS, "friend": pimc.FRIEND_CALLS},
    default_decisions={"trump": "longest", "friend": "highest"},
    what_if=WHAT_IF,
    what_if_doc=WHAT_IF_DOC,
    deal_layout=LAYOUT,
    solve_hands=dd_table.solve_hands,
    solve_decisions={"friend": "the friend call of dd_friend{t}"},
    solve_chunk=10,  # ten solves a deal, ~50 s of CPU: a part is a few minutes on two cores
    solve_doc="declarer, kitty; per call t (0-3 suit, 4 no trump): dd_friend{t} (the friend "
              "policy's card), dd_points{t} (declarer's team points), dd_solo{t} (declarer alone)",
    position_solver=solver.POSITION,
    show=show.VIEW,
    advisor=advice.ADVISOR,
)
