"""Euchre: four players in partnerships, 24 cards, bowers, ordering up and going alone.

Rules: docs/rules/euchre.md (EU-1 ... EU-20).  Columns and policies: docs/games/euchre.md.
"""

from __future__ import annotations

import numba as nb
import numpy as np
import polars as pl

from simcore.cards import cards_of_hand, parse_cards
from simcore.errors import SimcoreError
from simcore.games.base import Game, PolicyChoice, frame_from_records, padded_list
from simcore.games.euchre import layout
from simcore.games.euchre.engine import batch_kernel, with_play
from simcore.games.euchre.policies import (
    ALONE_POLICIES,
    AUTO,
    DECISION_ROWS,
    DISCARD_POLICIES,
    HEURISTIC,
    NAME_TRUMP_POLICIES,
    ORDER_UP_POLICIES,
    PICKUP_POLICIES,
    PLAY_POLICIES,
    RANDOM,
    USER_POLICY,
    builtin_play,
)
from simcore.games.euchre.rules import Rules

_batch_kernel = nb.njit(parallel=True, cache=True, nogil=True)(batch_kernel)
_user_kernels: dict[int, tuple] = {}  # id(policy) -> (policy, kernel): keeps the id valid

DECISIONS = {
    "order_up": ORDER_UP_POLICIES,
    "name_trump": NAME_TRUMP_POLICIES,
    "pickup": PICKUP_POLICIES,
    "discard": DISCARD_POLICIES,
    "alone": ALONE_POLICIES,
    "defend_alone": ALONE_POLICIES,
}


def _kernels(choice: PolicyChoice):
    """The cached built-in kernel, or a kernel compiled for this run's user play policy."""
    if not choice.user:
        return _batch_kernel
    if len({id(f) for f in choice.user.values()}) > 1:
        raise SimcoreError("one user play policy per run is supported (give it to several seats)")
    fn = next(iter(choice.user.values()))
    key = id(fn)  # the seats using it are in the policy ids, so one kernel serves any seats
    if key not in _user_kernels:

        @nb.njit(inline="always")  # per card, with arrays: inline (see engine.play_tricks)
        def play(policy, seat, hand, legal, view, st):
            if policy == USER_POLICY:
                return fn(seat, hand, legal, view, st)
            return builtin_play(policy, seat, hand, legal, view, st)

        _user_kernels[key] = (fn, nb.njit(parallel=True, nogil=True)(with_play(play)))
    return _user_kernels[key][1]


def decision_ids(choice: PolicyChoice) -> np.ndarray:
    """The (decision, seat) policy ids; ``auto`` bids like the seat plays (random seats
    randomly, heuristic and user seats heuristically)."""
    dec = np.empty((len(DECISION_ROWS), layout.N_SEATS), np.int64)
    for d, name in enumerate(DECISION_ROWS):
        pid = DECISIONS[name][choice.decisions[name]]
        for s in range(layout.N_SEATS):
            if pid == AUTO:
                dec[d, s] = RANDOM if choice.seats[s] == "random" else HEURISTIC
            else:
                dec[d, s] = pid
    return dec


def predeal_masks(predeal: dict | None) -> np.ndarray:
    """``{seat: cards, "upcard": card}`` -> the engine's five base-order masks (0 = not fixed).

    Cards may be text (``"JH JD AH KH QH"``), public ids, or (for seats) a public bitmask.
    """
    masks = np.zeros(5, np.uint64)
    taken: set[int] = set()
    for key, value in (predeal or {}).items():
        slot = 4 if key == "upcard" else int(key)
        if not 0 <= slot <= 4:
            raise SimcoreError(f"predeal seat {key!r} does not exist in euchre (0..3 or upcard)")
        if isinstance(value, str):
            cards = parse_cards(value)
        elif isinstance(value, (int, np.integer)):
            cards = [int(value)] if slot == 4 else cards_of_hand(int(value))
        else:
            cards = [int(c) for c in value]
        want = 1 if slot == 4 else layout.HAND_SIZE
        if len(cards) != want or len(set(cards)) != want:
            raise SimcoreError(f"predeal {key!r} needs {want} different card(s), got {cards}")
        if any(c % 13 < 7 for c in cards):
            raise SimcoreError(f"predeal {key!r}: euchre uses only 9, 10, J, Q, K, A")
        if taken & set(cards):
            raise SimcoreError(f"predeal {key!r}: a card is dealt twice")
        taken |= set(cards)
        masks[slot] = np.uint64(sum(1 << (13 * (c // 13) + c % 13 - 7) for c in cards))
    return masks


def _n_blocks(count: int) -> int:
    # Enough blocks to balance threads, few enough that per-block set-up is negligible.
    return max(1, min(count // 256, 4 * nb.get_num_threads() * 4))


def _common(rules: Rules, choice: PolicyChoice):
    first = -1 if rules.first_dealer == "random" else int(rules.first_dealer)
    return (
        first,
        rules.allow_turned_down_suit,
        rules.stick_the_dealer,
        rules.dealer_pickup_optional,
        decision_ids(choice),
        GAME.policy_ids(choice, USER_POLICY),
    )


def _log_arrays(rows: int, log_plays: bool):
    if log_plays:
        return np.zeros((rows, 20), np.uint8), np.zeros((rows, 5), np.int8)
    return np.zeros((0, 20), np.uint8), np.zeros((0, 5), np.int8)


def _check(bad: np.ndarray):
    if bad.sum():
        raise SimcoreError(
            f"a play policy returned an illegal card in {int(bad.sum())} hands "
            "(a policy must return a trump-order card id from `legal`)"
        )


def _hand_frame(out, dealt, seat_tricks, points, totals, plays, winners, log_plays):
    seat = {"hand": dealt, "tricks": seat_tricks, "points": points}
    if totals is not None:
        seat["total"] = totals
    frame = frame_from_records(out, seat)
    frame = frame.with_columns(
        (pl.col("tricks0") + pl.col("tricks2")).alias("side_tricks0"),
        (pl.col("tricks1") + pl.col("tricks3")).alias("side_tricks1"),
    )
    frame = frame.select([c for c in layout.HAND_COLUMNS if c in frame.columns])
    if log_plays:
        n_plays = out["n_plays"]
        n_tricks = np.where(out["trump"] >= 0, 5, 0)
        frame = frame.with_columns(padded_list("plays", plays, n_plays),
                                   padded_list("trick_winners", winners, n_tricks))
    return frame


def run_hands(seed: int, start: int, count: int, rules: Rules, choice: PolicyChoice,
              log_plays: bool = False, predeal: dict | None = None) -> pl.DataFrame:
    """Deals start .. start+count-1 of a run, one row each (hands mode).

    ``predeal`` fixes cards (see :func:`predeal_masks`); the rest are dealt at random.
    """
    kernel = _kernels(choice)
    out = np.zeros(count, layout.GAME_HAND_ROW)
    dealt = np.zeros((count, 4), np.uint64)
    seat_tricks = np.zeros((count, 4), np.int8)
    points = np.zeros((count, 2), np.int8)
    plays, winners = _log_arrays(count, log_plays)
    bad = np.zeros(_n_blocks(count), np.int64)
    unused = (np.zeros(0, layout.GAME_ROW), np.zeros((0, 2), np.int16), out, dealt, seat_tricks,
              points, np.zeros((0, 2), np.int16), np.zeros(0, np.int64))
    first, *opts = _common(rules, choice)
    kernel(True, np.uint64(seed), np.int64(start), *unused, False, first, np.int64(rules.target),
           *opts, plays, winners, predeal_masks(predeal), bad)
    _check(bad)
    frame = _hand_frame(out, dealt, seat_tricks, points, None, plays, winners, log_plays)
    return frame.drop("game", "hand_no")


def run_games(seed: int, start: int, count: int, rules: Rules, choice: PolicyChoice,
              log_plays: bool = False, predeal: dict | None = None
              ) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Games start .. start+count-1, played to the target: (hand rows, game rows).

    The kernel runs twice: once to learn each game's length, then to write every hand row at
    its offset.  Both runs play identical games (streams are keyed by seed, game, hand).
    """
    kernel = _kernels(choice)
    games = np.zeros(count, layout.GAME_ROW)
    finals = np.zeros((count, 2), np.int16)
    blocks = _n_blocks(count)
    bad = np.zeros(blocks, np.int64)
    first, *opts = _common(rules, choice)
    fixed = predeal_masks(predeal)

    def play(rows, offsets, record, log):
        out = np.zeros(rows, layout.GAME_HAND_ROW)
        dealt = np.zeros((rows, 4), np.uint64)
        seat_tricks = np.zeros((rows, 4), np.int8)
        points = np.zeros((rows, 2), np.int8)
        totals = np.zeros((rows, 2), np.int16)
        plays, winners = _log_arrays(rows, log)
        bad[:] = 0
        kernel(False, np.uint64(seed), np.int64(start), games, finals, out, dealt, seat_tricks,
               points, totals, offsets, record, first, np.int64(rules.target), *opts,
               plays, winners, fixed, bad)
        _check(bad)
        return out, dealt, seat_tricks, points, totals, plays, winners

    play(blocks, np.zeros(count, np.int64), False, False)
    if (games["winner"] < 0).any():
        raise SimcoreError("a euchre game did not reach the target in 65535 hands: with these "
                           "bidding policies (e.g. order_up=never name_trump=never) nobody scores")
    lengths = games["hands"].astype(np.int64)
    offsets = np.concatenate([[0], np.cumsum(lengths)[:-1]]).astype(np.int64)
    out, dealt, seat_tricks, points, totals, plays, winners = play(
        int(lengths.sum()), offsets, True, log_plays)
    hands = _hand_frame(out, dealt, seat_tricks, points, totals, plays, winners, log_plays)
    game_frame = frame_from_records(games, {"final": finals}, order=layout.GAME_COLUMNS)
    return hands, game_frame


GAME = Game(
    name="euchre",
    n_seats=layout.N_SEATS,
    rules_cls=Rules,
    play_policies=PLAY_POLICIES,
    default_play="heuristic",
    decisions=DECISIONS,
    default_decisions={name: "auto" for name in DECISIONS},
    run_hands=run_hands,
    run_games=run_games,
    hand_columns="docs/games/euchre.md",
    user_policy_doc=(
        "policy(seat, hand, legal, view, st) -> card: hand/legal are uint64 masks of trump-order "
        "ids (simcore.games.euchre.layout), view the public state (layout.V_*)"
    ),
)
