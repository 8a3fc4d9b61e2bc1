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
from simcore.games.base import (Game, PolicyChoice, UserKernels, frame_from_records,
                                interleave_options, n_blocks, padded_list, with_attempts)
from simcore.games.searching import check_choice, is_search, search_blocks, searching
from simcore.games.trump_friend import advice, dd_table, layout, pimc, show, solver
from simcore.games.trump_friend.engine import games_kernel, hands_kernel, with_play
from simcore.games.trump_friend.policies import (
    FORCED_FRIEND,
    FORCED_TRUMP,
    FRIEND_POLICIES,
    USER_POLICY,
    builtin_play,
)
from simcore.games.trump_friend.rules import Rules

_hands_kernel = nb.njit(parallel=True, cache=True, nogil=True)(hands_kernel)
_games_kernel = nb.njit(parallel=True, cache=True, nogil=True)(games_kernel)
_kernels = UserKernels(builtin_play, with_play, USER_POLICY, (_hands_kernel, _games_kernel))


def _searches(choice: PolicyChoice) -> bool:
    """Does a seat of the run search (pimc, dd), or a call (trump=pimc, friend=pimc)?"""
    return searching(choice) or any(is_search(choice.decisions[d]) for d in ("trump", "friend"))


def _kernel_pair(choice: PolicyChoice):
    """The run's kernels: with a search policy (pimc, dd; trump=pimc, friend=pimc) the search
    kernel set, compiled only then; else the built-in (or user-policy) kernels."""
    if _searches(choice):
        check_choice(choice)
        if choice.user:
            raise SimcoreError("a user play policy and trump=pimc/friend=pimc cannot share a run yet")
        return pimc.kernels()
    return _kernels(choice)


def _blocks(count: int, choice: PolicyChoice) -> int:
    return search_blocks(count) if _searches(choice) else n_blocks(count)


def _common(rules: Rules, choice: PolicyChoice):
    first = -1 if rules.first_declarer == "random" else int(rules.first_declarer)
    return (
        first,
        rules.allow_own_card,
        pimc.TRUMP_CALLS[choice.decisions["trump"]],
        pimc.FRIEND_CALLS[choice.decisions["friend"]],
        GAME.policy_ids(choice, USER_POLICY),
    )


def _log_arrays(rows: int, log_plays: bool):
    if log_plays:
        return np.zeros((rows, 50), np.uint8), np.zeros((rows, 10), np.int8)
    return np.zeros((0, 50), np.uint8), np.zeros((0, 10), np.int8)


def _check(bad: np.ndarray):
    dealing.check_capped(bad[:, 2].max(initial=0).reshape(1))
    if bad[:, 0].sum():
        raise SimcoreError(
            f"a play policy returned an illegal card in {int(bad[:, 0].sum())} hands "
            "(a policy must return an internal card id from `legal`)"
        )
    if bad[:, 1].sum():
        raise SimcoreError(f"{int(bad[:, 1].sum())} games were still running after 65,535 rounds")


def _row_arrays(rows: int, game_mode: bool):
    """The kernels' hand-row outputs: ``small`` (int8), ``wide`` (uint64) and ``seat_values``
    (int16), each a (rows, ...) view of an array whose last axis is the row, so every column
    is contiguous and polars takes it without a copy (layout.WIDE_COLUMNS, SMALL_COLUMNS)."""
    small = np.zeros((layout.N_SMALL, rows), np.int8).T
    wide = np.zeros((layout.N_WIDE, rows), np.uint64).T
    seat_values = np.zeros((layout.N_SEAT_VALUES if game_mode else 2, 5, rows), np.int16)
    return small, wide, seat_values.transpose(2, 0, 1)


def _hand_frame(small, wide, seat_values, plays, winners, log_plays, game_mode):
    by_field = seat_values.transpose(1, 2, 0)  # (field, seat, row), C-contiguous
    columns = {name: small[:, k] for k, name in enumerate(layout.SMALL_COLUMNS)}
    for name in layout.BOOL_COLUMNS:
        columns[name] = columns[name].view(np.bool_)
    columns |= {name: wide[:, k] for k, name in enumerate(layout.WIDE_COLUMNS)}
    if game_mode:
        columns["hand_no"] = columns["hand_no"].astype(np.uint16)
    else:
        del columns["game"], columns["hand_no"]
    for s in range(5):
        columns[f"points{s}"] = by_field[layout.SV_POINTS, s].astype(np.int8)
        columns[f"delta{s}"] = by_field[layout.SV_DELTA, s]
        if game_mode:
            columns[f"total{s}"] = by_field[layout.SV_TOTAL, s]
    frame = pl.DataFrame({name: columns[name] for name in layout.HAND_COLUMNS if name in columns})
    if log_plays:
        frame = frame.with_columns(pl.Series("plays", plays).cast(pl.List(pl.UInt8)),
                                   pl.Series("trick_winners", winners).cast(pl.List(pl.Int8)))
    return frame


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
    first, own, trump_policy, friend_policy, ids = common
    if what_if == "trump":
        trump_policy = FORCED_TRUMP + option
    else:
        friend_policy = FORCED_FRIEND + FRIEND_POLICIES[WHAT_IF["friend"][option]]
    return first, own, trump_policy, friend_policy, ids


def run_hands(seed: int, start: int, count: int, rules: Rules, choice: PolicyChoice,
              log_plays: bool = False, *, what_if: str | None = None,
              deal_filter=None) -> pl.DataFrame:
    """Deals start .. start+count-1 of a run, one row each (hands mode).

    With ``what_if`` (a key of ``WHAT_IF``) every deal is played once per option, from the
    same deal and policy streams, and the rows come deal-major with an ``option`` column."""
    common = _common(rules, choice)
    if what_if is None:
        return _play_hands(seed, start, count, common, choice, log_plays, deal_filter)
    options = GAME.what_if_options(what_if)
    frames = [_play_hands(seed, start, count, _forced(common, what_if, k), choice, log_plays,
                          deal_filter) for k in range(len(options))]
    return interleave_options(frames, options)


def _play_hands(seed, start, count, common, choice, log_plays, deal_filter):
    hands_kernel, _ = _kernel_pair(choice)
    small, wide, seat_values = _row_arrays(count, False)
    plays, winners = _log_arrays(count, log_plays)
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
    first, *decl = _common(rules, choice)
    filter_arrays = dealing.filter_arrays(LAYOUT, deal_filter)
    limit = (np.int64(rules.losing_line), rules.end_at == "exceed")

    def play(rows, offsets, record, log):
        small, wide, seat_values = _row_arrays(rows, True)
        plays, winners = _log_arrays(rows, log)
        attempts = np.zeros(rows, np.int64)
        games_kernel(np.uint64(seed), np.int64(start), games, finals, small, wide, seat_values,
                     offsets, record, first, *limit, *decl, plays, winners, *filter_arrays,
                     attempts, bad)
        _check(bad)
        return small, wide, seat_values, plays, winners, attempts

    # at least two scratch rows: a one-row (k, 1) view is C- as well as F-contiguous, and
    # Numba would compile the games kernel a second time for that layout
    play(max(blocks, 2), np.zeros(count, np.int64), False, False)
    lengths = games["hands"].astype(np.int64)
    offsets = np.concatenate([[0], np.cumsum(lengths)[:-1]]).astype(np.int64)
    small, wide, seat_values, plays, winners, attempts = play(int(lengths.sum()), offsets, True,
                                                              log_plays)
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
    n_seats=layout.N_SEATS,
    rules_cls=Rules,
    play_policies=pimc.PLAY_POLICIES,
    omniscient=pimc.OMNISCIENT,
    policy_notes=pimc.NOTES,
    default_play="heuristic",
    decisions={"trump": pimc.TRUMP_CALLS, "friend": pimc.FRIEND_CALLS},
    default_decisions={"trump": "longest", "friend": "highest"},
    run_hands=run_hands,
    run_games=run_games,
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
