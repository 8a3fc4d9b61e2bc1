"""Gin Rummy: two players, melds, knocking, gin and undercuts.

Rules: docs/rules/gin_rummy.md (GR-1 ... GR-18).  Columns: docs/games/gin_rummy.md.
"""

from __future__ import annotations

import numba as nb
import numpy as np
import polars as pl

from simcore import dealing
from simcore.games.base import (Game, PolicyChoice, UserKernels, frame_from_records, padded_list,
                                with_attempts)
from simcore.games.batches import (check_illegal, check_running, record_fields, run_blocks,
                                   run_kernels, two_passes, what_if_rows)
from simcore.games.gin_rummy import engine, layout, pimc, show
from simcore.games.gin_rummy.engine import games_kernel, hands_kernel, with_play
from simcore.games.gin_rummy.policies import KNOCK_POLICIES, USER_POLICY, builtin_play
from simcore.games.gin_rummy.rules import Rules, rules_vector
from simcore.games.searching import searching

_hands_kernel = nb.njit(parallel=True, cache=True, nogil=True)(hands_kernel)
_games_kernel = nb.njit(parallel=True, cache=True, nogil=True)(games_kernel)
_user_kernels = UserKernels(builtin_play, with_play, USER_POLICY, (_hands_kernel, _games_kernel))


def _kernels(choice: PolicyChoice):
    """(hands kernel, games kernel): with a ``pimc`` seat the search kernels, compiled only
    then; else the built-in (or user-policy) kernels."""
    return run_kernels(choice, searching(choice), pimc.kernels, _user_kernels)


def _blocks(count: int, choice: PolicyChoice) -> int:
    return run_blocks(count, searching(choice))

USER_POLICY_DOC = """A Gin Rummy play policy is a jitted function
    policy(kind, seat, hand, view, st) -> int
kind: 0 take the upcard? (1/0), 1 take the top discard? (1/0), 2 which card to discard
(a public card id in hand; not view[10] when view[14] is 1), 3 knock? (1/0; asked only when legal).
See simcore.games.gin_rummy.layout for the view's fields."""




# --what-if knock: the non-dealer's knock decision, by threshold.  "now" knocks at the first
# chance (deadwood <= knock_limit), "atT" only at deadwood <= T (still within knock_limit),
# "gin" only with gin; the dealer keeps the run's knock policy.
WHATIF_KNOCK_OPTIONS = ("now", "at7", "at4", "at1", "gin")


def knock_threshold(label: str, rules: Rules) -> int:
    if label == "now":
        return rules.knock_limit
    if label == "gin":
        return 0
    return min(int(label[2:]), rules.knock_limit)


def config(rules: Rules, choice: PolicyChoice, knock_what_if: int = -1) -> np.ndarray:
    """The kernels' ``cfg``: the rules vector, then the run's knock policy and knock what-if."""
    decisions = [KNOCK_POLICIES[choice.decisions["knock"]], knock_what_if]
    return np.concatenate([rules_vector(rules), np.array(decisions, np.int64)])


def _check(bad: np.ndarray):
    check_illegal(bad[:, 0].sum(), "a discard must be a card of the hand other than the card "
                  "just taken", what="gave an illegal answer")
    if bad.shape[1] > 2:
        check_running(bad[:, 2].sum(), "games", "hands")


def _hand_frame(out, dealt, finals, deadwoods, turn_log, turn_n, totals=None):
    seat = {"hand": dealt, "final": finals, "deadwood": deadwoods}
    if totals is not None:
        seat["total"] = totals
    frame = frame_from_records(out, seat, order=layout.HAND_COLUMNS)
    if turn_log.shape[0]:  # --log-plays: every turn (layout.turn_entry), the first LOG_TURNS
        frame = frame.with_columns(padded_list(
            "turn_log", turn_log, np.minimum(turn_n, layout.LOG_TURNS)))
    return frame


def _hand_arrays(rows, log_plays):
    """The hand rows' per-seat arrays, and the turn log (no rows without ``log_plays``)."""
    logged = rows if log_plays else 0
    return (np.zeros((rows, 2), np.uint64), np.zeros((rows, 2), np.uint64),
            np.zeros((rows, 2), np.int8), np.zeros((logged, layout.LOG_TURNS), np.int16),
            np.zeros(logged, np.int64))


def run_hands(seed: int, start: int, count: int, rules: Rules, choice: PolicyChoice,
              log_plays: bool = False, *, what_if: str | None = None,
              deal_filter: dealing.DealFilter | None = None) -> pl.DataFrame:
    """Deals start .. start+count-1 of a run, one row each (hands mode).

    ``what_if="knock"``: every deal once per option of WHATIF_KNOCK_OPTIONS (``option``
    column, deal-major).  ``deal_filter``: predeal and conditions (:mod:`simcore.dealing`);
    with conditions the rows get ``attempts``.
    """
    if what_if is not None:
        return what_if_rows(GAME, what_if, lambda _, label: _hands(
            seed, start, count, rules, choice, deal_filter, knock_threshold(label, rules), log_plays))
    return _hands(seed, start, count, rules, choice, deal_filter, -1, log_plays)


def _hands(seed, start, count, rules, choice, deal_filter, knock_what_if, log_plays):
    kernel, _ = _kernels(choice)
    out = np.zeros(count, layout.HAND_ROW)
    arrays = _hand_arrays(count, log_plays)
    bad = np.zeros((_blocks(count, choice), 2), np.int64)
    attempts = np.zeros(count, np.int64)
    capped = np.zeros(1, np.int64)
    kernel(np.uint64(seed), np.int64(start), out, *arrays,
           config(rules, choice, knock_what_if), GAME.policy_ids(choice, USER_POLICY),
           *dealing.filter_arrays(LAYOUT, deal_filter), attempts, capped, bad)
    dealing.check_capped(capped)
    _check(bad)
    return with_attempts(_hand_frame(out, *arrays), attempts, deal_filter)


def run_games(seed: int, start: int, count: int, rules: Rules, choice: PolicyChoice,
              log_plays: bool = False, *, deal_filter: dealing.DealFilter | None = None
              ) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Games start .. start+count-1 played to the target: (hand rows, game rows).

    The kernel runs twice: once to learn each game's length, then to write every hand row at
    its offset (streams are keyed by seed, game, hand, so both runs play the same games)."""
    _, kernel = _kernels(choice)
    games = np.zeros(count, layout.GAME_ROW)
    scores = np.zeros((count, 4), np.int64)
    blocks = _blocks(count, choice)
    bad = np.zeros((blocks, 3), np.int64)
    cfg = config(rules, choice)
    ids = GAME.policy_ids(choice, USER_POLICY)
    constraints = dealing.filter_arrays(LAYOUT, deal_filter)

    def play(rows, offsets, record):
        out = np.zeros(rows, layout.GAME_HAND_ROW)
        dealt, finals, deadwoods, turn_log, turn_n = _hand_arrays(rows, log_plays and record)
        totals = np.zeros((rows, 2), np.int16)
        attempts = np.zeros(rows, np.int64)
        capped = np.zeros(1, np.int64)
        bad[:] = 0
        kernel(np.uint64(seed), np.int64(start), games, scores, out, dealt, finals, deadwoods,
               totals, turn_log, turn_n, offsets, record, cfg, ids, *constraints, attempts,
               capped, bad)
        dealing.check_capped(capped)
        _check(bad)
        return (out, dealt, finals, deadwoods, turn_log, turn_n, totals), attempts

    arrays, attempts = two_passes(play, games, count, blocks)
    hands = with_attempts(_hand_frame(*arrays), attempts, deal_filter)
    seat = {"final": scores[:, :2].astype(np.int32), "won": scores[:, 2:].astype(np.int16)}
    return hands, frame_from_records(games, seat, order=layout.GAME_COLUMNS)


LAYOUT = dealing.DealLayout(
    game="gin-rummy",
    n_seats=layout.N_SEATS,
    slots=(("0", layout.HAND), ("1", layout.HAND), ("upcard", 1),
           ("stock", layout.DECK - 2 * layout.HAND - 1)),
    deck_ids=engine.DECK_IDS,
    engine_id=np.arange(52, dtype=np.int64),
    shuffle=dealing.SHUFFLE_PAIRED,
    predeal_slots=("0", "1", "upcard"),
    roles=("dealer",),
)

GAME = Game(
    name="gin-rummy",
    title="Gin Rummy",
    **record_fields(layout.N_SEATS, Rules, pimc, run_hands, run_games),
    decisions={"knock": KNOCK_POLICIES},
    default_decisions={"knock": "limit"},
    user_policy_doc=USER_POLICY_DOC,
    what_if={"knock": WHATIF_KNOCK_OPTIONS},
    what_if_doc={"knock": "the non-dealer knocks at the first chance (now), only at deadwood "
                          "<= 7, 4, 1, or only with gin; the dealer keeps the run's policy"},
    deal_layout=LAYOUT,
    show=show.VIEW,
)
