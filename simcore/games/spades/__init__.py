"""Spades: four players in two partnerships, bids, nil and blind nil, bags, games to 500.

Rules: docs/rules/spades.md (SP-1 ... SP-16).  Columns, policies and options:
docs/games/spades.md.
"""

from __future__ import annotations

import numba as nb
import numpy as np
import polars as pl

from simcore import dealing
from simcore.errors import SimcoreError
from simcore.games.base import Game, PolicyChoice, UserKernels, frame_from_records, with_attempts
from simcore.games.batches import (attempts_array, check_illegal, columns, frame_from_columns,
                                   log_arrays, log_columns, record_fields, run_blocks,
                                   run_kernels, two_passes, what_if_rows)
from simcore.games.searching import is_search, searching
from simcore.games.spades import advice, dd_table, layout, pimc, show, solver
from simcore.games.spades.engine import DECK_IDS, games_kernel, hands_kernel, with_play
from simcore.games.spades.policies import (BID_POLICIES, BLIND_NIL_POLICIES, EXCHANGE_POLICIES,
                                           M_BLIND_NIL, M_EXCHANGE, M_NIL, M_WHATIF_NIL, N_MODES,
                                           NIL_POLICIES, PLAY_POLICIES, USER_POLICY,
                                           WHATIF_NIL_OPTIONS, builtin_play)
from simcore.games.spades.rules import Rules, rules_vector

_hands_kernel = nb.njit(parallel=True, cache=True, nogil=True)(hands_kernel)
_games_kernel = nb.njit(parallel=True, cache=True, nogil=True)(games_kernel)
_kernels = UserKernels(builtin_play, with_play, USER_POLICY, (_hands_kernel, _games_kernel),
                       inline=True)
# When every seat plays the built-in random policy the kernels take a fast path that gives the
# same rows; tests switch it off to compare.
RANDOM_FAST_PATH = True


def _kernel_pair(choice: PolicyChoice):
    return run_kernels(choice, searching(choice), pimc.kernels, _kernels)


def _blocks(count: int, choice: PolicyChoice) -> int:
    return run_blocks(count, searching(choice))


def policy_arrays(choice: PolicyChoice):
    """(bid policy per seat, decision modes, play policy per seat, all seats random) as the
    kernels take them."""
    bid_policies = np.empty(layout.N_SEATS, np.int64)
    for s in range(layout.N_SEATS):
        name = choice.decisions["bid"]
        if name == "seat":
            name = "heuristic" if s in choice.user else choice.seats[s]
        # a searching seat (pimc, dd) bids itself, whatever the bid policy says
        bid_policies[s] = pimc.PLAY_POLICIES[choice.seats[s]] if is_search(
            choice.seats[s]) else BID_POLICIES[name]
    modes = np.zeros(N_MODES, np.int64)
    modes[M_NIL] = NIL_POLICIES[choice.decisions["nil"]]
    modes[M_BLIND_NIL] = BLIND_NIL_POLICIES[choice.decisions["blind_nil"]]
    modes[M_EXCHANGE] = EXCHANGE_POLICIES[choice.decisions["exchange"]]
    policies = GAME.policy_ids(choice, USER_POLICY)
    all_random = RANDOM_FAST_PATH and bool((policies == PLAY_POLICIES["random"]).all())
    return bid_policies, modes, policies, all_random


def _row_arrays(rows: int, game_mode: bool, log_plays: bool):
    """The kernels' output arrays (wide, small, side16, total, plays, winners): each column
    array is a (rows, k) view of a (k, rows) array, so the kernels index it by row and every
    column is contiguous in the column's own type: building the polars frame copies and
    converts nothing (a serial copy would cap 2-thread scaling).  ``layout.W_*``, ``S_*``,
    ``D_*``; hands mode has no game, hand_no or total columns."""
    wide = columns(layout.N_WIDE if game_mode else layout.N_WIDE_HANDS, rows, np.uint64)
    return (wide, columns(layout.N_SMALL, rows, np.int8), columns(layout.N_SIDE16, rows, np.int16),
            columns(2 if game_mode else 0, rows, np.int32), *log_arrays(rows, log_plays, 52, 13))


def _check(bad: np.ndarray):
    check_illegal(bad.sum(), "a policy must return a card id from `legal`")


def _hand_frame(wide, small, side16, total, plays, winners, log_plays, game_mode):
    order = [c for c in layout.HAND_COLUMNS if game_mode or c not in _GAME_MODE_ONLY]
    frame = frame_from_columns(
        ((layout.WIDE_COLUMNS, wide), (layout.SMALL_COLUMNS, small),
         (layout.SIDE16_COLUMNS, side16), (("total0", "total1"), total)),
        order, bools=[f"blind{s}" for s in range(layout.N_SEATS)], u16=("hand_no",))
    return log_columns(frame, plays, winners, log_plays)


_GAME_MODE_ONLY = ("game", "hand_no", "total0", "total1", "total_bags0", "total_bags1")


def run_hands(seed: int, start: int, count: int, rules: Rules, choice: PolicyChoice,
              log_plays: bool = False, *, what_if: str | None = None,
              deal_filter: dealing.DealFilter | None = None) -> pl.DataFrame:
    """Deals start .. start+count-1 of a run, one row each (hands mode: 0 points, 0 bags).

    ``what_if="nil"``: each deal twice, the first bidder (the dealer's left) bidding nil, then
    the number its bid policy gives; ``option`` says which.  ``deal_filter``: predeal and
    conditions (:mod:`simcore.dealing`); with conditions the rows get ``attempts``.
    """
    if what_if is not None:
        return what_if_rows(GAME, what_if, lambda k, _: _hands(
            seed, start, count, rules, choice, log_plays, deal_filter, k + 1))
    return _hands(seed, start, count, rules, choice, log_plays, deal_filter, 0)


def _hands(seed, start, count, rules, choice, log_plays, deal_filter, forced):
    hands_kernel, _ = _kernel_pair(choice)
    arrays = _row_arrays(count, False, log_plays)
    bad = np.zeros(_blocks(count, choice), np.int64)
    bid_policies, modes, policies, all_random = policy_arrays(choice)
    modes[M_WHATIF_NIL] = forced
    attempts = attempts_array(count, deal_filter)
    capped = np.zeros(1, np.int64)
    hands_kernel(np.uint64(seed), np.int64(start), *arrays[:4], rules_vector(rules), bid_policies,
                 modes, policies, all_random, *arrays[4:],
                 *dealing.filter_arrays(LAYOUT, deal_filter), attempts, capped, bad)
    dealing.check_capped(capped)
    _check(bad)
    return with_attempts(_hand_frame(*arrays, log_plays, False), attempts, deal_filter)


def run_games(seed: int, start: int, count: int, rules: Rules, choice: PolicyChoice,
              log_plays: bool = False, *, deal_filter: dealing.DealFilter | None = None
              ) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Games start .. start+count-1, played to the target: (hand rows, game rows).

    The kernel runs twice: once to learn each game's length, then to write every hand row at
    its offset.  Both runs play identical games (streams are keyed by seed, game, hand).
    """
    _, games_kernel = _kernel_pair(choice)
    games = np.zeros(count, layout.GAME_ROW)
    game_values = np.zeros((count, 2, 2), np.int32)
    blocks = _blocks(count, choice)
    bad = np.zeros(blocks, np.int64)
    args = (rules_vector(rules), *policy_arrays(choice))
    constraints = dealing.filter_arrays(LAYOUT, deal_filter)

    def play(rows, offsets, record, log):
        arrays = _row_arrays(rows, True, log)
        attempts = attempts_array(rows, deal_filter)
        capped = np.zeros(1, np.int64)
        games_kernel(np.uint64(seed), np.int64(start), games, game_values, *arrays[:4], offsets,
                     record, *args, *arrays[4:], *constraints, attempts, capped, bad)
        dealing.check_capped(capped)
        _check(bad)
        return arrays, attempts

    # at least two scratch rows: a one-row (k, 1) view is C- as well as F-contiguous, and
    # Numba would compile the games kernel a second time for that layout
    arrays, attempts = two_passes(play, games, count, max(blocks, 2), log_plays)
    hands = with_attempts(_hand_frame(*arrays, log_plays, True), attempts, deal_filter)
    game_frame = frame_from_records(
        games, {"final": game_values[:, 0], "final_bags": game_values[:, 1].astype(np.int16)},
        order=layout.GAME_COLUMNS,
    )
    return hands, game_frame


def _spades_table(arg):
    if arg is not None:
        raise SimcoreError("the spades feature takes no argument (use suit:S for other suits)")
    return dealing.suit_table(3)


LAYOUT = dealing.DealLayout(
    game="spades",
    n_seats=layout.N_SEATS,
    slots=tuple((str(s), 13) for s in range(layout.N_SEATS)),
    deck_ids=DECK_IDS,
    engine_id=np.arange(52, dtype=np.int64),
    shuffle=dealing.SHUFFLE_PAIRED,
    predeal_slots=tuple(str(s) for s in range(layout.N_SEATS)),
    roles=("dealer",),
    features={"spades": dealing.Feature("number of spades (trumps)", _spades_table)},
)

GAME = Game(
    name="spades",
    title="Spades",
    **record_fields(layout.N_SEATS, Rules, pimc, run_hands, run_games),
    decisions={
        "bid": BID_POLICIES,
        "nil": NIL_POLICIES,
        "blind_nil": BLIND_NIL_POLICIES,
        "exchange": EXCHANGE_POLICIES,
    },
    default_decisions={"bid": "seat", "nil": "auto", "blind_nil": "auto", "exchange": "auto"},
    hand_columns=", ".join(layout.HAND_COLUMNS),
    what_if={"nil": WHATIF_NIL_OPTIONS},
    what_if_doc={"nil": "the first bidder (dealer's left) bids nil, or the number its bid "
                        "policy gives (heuristic by default)"},
    deal_layout=LAYOUT,
    solve_hands=dd_table.solve_hands,
    solve_chunk=500,  # --nil none: 0.04 s a deal
    solve_chunk_by_option={("nil", "exact"): 20, ("nil", "safe"): 100},  # ~35 s and ~1 s of CPU a deal
    solve_doc="dealer; dd_tricks (tricks of seats 0+2, the dealer's left leading the hands as "
              "dealt), dd_nil{s} (the fewest tricks seat s can be held to; 0 = a nil that holds), "
              "dd_nil_safe{s} (the nil holds)",
    solve_options={"nil": (dd_table.NIL_MODES, dd_table.NIL_DOC)},
    position_solver=solver.POSITION,
    show=show.VIEW,
    advisor=advice.ADVISOR,
    user_policy_doc=(
        "play(seat, hand, legal, view, st) -> card id from `legal` (uint64 masks of public "
        "card ids; view: simcore.games.spades.layout.V_*)"
    ),
)
