"""Euchre: four players in partnerships, 24 cards, bowers, ordering up and going alone.

Rules: docs/rules/euchre.md (EU-1 ... EU-20).  Columns and policies: docs/games/euchre.md.
"""

from __future__ import annotations

import numba as nb
import numpy as np
import polars as pl

from simcore import dealing
from simcore.cards import cards_of_hand, parse_cards
from simcore.errors import SimcoreError
from simcore.games.base import (Game, PolicyChoice, UserKernels, frame_from_records, padded_list,
                                with_attempts)
from simcore.games.batches import (attempts_array, check_illegal, columns, frame_from_columns,
                                   log_arrays, record_fields, run_blocks, run_kernels, two_passes,
                                   what_if_rows)
from simcore.games.searching import searching
from simcore.games.euchre import advice, dd_table, layout, pimc, show, solver
from simcore.games.euchre.deck import BASE_DECK
from simcore.games.euchre.engine import DECK_IDS, batch_kernel, with_play
from simcore.games.euchre.policies import (ALONE_POLICIES, AUTO, DECISION_ROWS, DISCARD_POLICIES,
                                           HEURISTIC, NAME_TRUMP_POLICIES, ORDER_UP_POLICIES,
                                           PICKUP_POLICIES, PLAY_POLICIES, RANDOM, USER_POLICY,
                                           WHATIF_KINDS, WHATIF_OPTIONS, WHATIF_POSITION,
                                           builtin_play)
from simcore.games.euchre.rules import Rules, rules_vector

_batch_kernel = nb.njit(parallel=True, cache=True, nogil=True)(batch_kernel)
_kernels = UserKernels(builtin_play, with_play, USER_POLICY, _batch_kernel, inline=True)


def _kernel(choice: PolicyChoice):
    return run_kernels(choice, searching(choice), pimc.kernel, _kernels)


def _blocks(count: int, choice: PolicyChoice) -> int:
    return run_blocks(count, searching(choice))


# When every seat plays the built-in random policy the kernel takes a fast path that gives the
# same rows; tests switch it off to compare.
RANDOM_FAST_PATH = True

DECISIONS = {
    "order_up": ORDER_UP_POLICIES,
    "name_trump": NAME_TRUMP_POLICIES,
    "pickup": PICKUP_POLICIES,
    "discard": DISCARD_POLICIES,
    "alone": ALONE_POLICIES,
    "defend_alone": ALONE_POLICIES,
}



def decision_ids(choice: PolicyChoice, what_if: str | None = None, option: int = 0) -> np.ndarray:
    """The (decision, seat) policy ids; ``auto`` bids like the seat plays (random seats
    randomly, heuristic and user seats heuristically).  A searching seat (pimc, dd) makes
    every decision itself, whatever the decision policies say.  The last row (``D_WHATIF``)
    holds a what-if run's forced decision: (kind, option, seat position, 0)."""
    dec = np.zeros((len(DECISION_ROWS) + 1, layout.N_SEATS), np.int64)
    if what_if is not None:
        dec[-1, 0] = WHATIF_KINDS[what_if]
        dec[-1, 1] = option
        dec[-1, 2] = WHATIF_POSITION.get(what_if, 0)
    for d, name in enumerate(DECISION_ROWS):
        pid = DECISIONS[name][choice.decisions[name]]
        for s in range(layout.N_SEATS):
            if pimc.is_search(choice.seats[s]):
                dec[d, s] = pimc.search_id(choice.seats[s])
            elif pid == AUTO:
                dec[d, s] = RANDOM if choice.seats[s] == "random" else HEURISTIC
            else:
                dec[d, s] = pid
    return dec


def whole_hands_filter(predeal: dict | None) -> dealing.DealFilter | None:
    """The ``predeal=`` keyword of the worked examples: ``{seat: cards, "upcard": card}`` with
    whole hands (5 cards a seat, 1 upcard), as a simcore.dealing filter.

    Cards may be text (``"JH JD AH KH QH"``), public ids, or (for seats) a public bitmask.
    ``--predeal`` (a :class:`~simcore.dealing.DealFilter` via ``deal_filter=``) also takes
    partial hands.
    """
    if not predeal:
        return None
    for key, value in predeal.items():
        if isinstance(value, str):
            cards = parse_cards(value)
        elif isinstance(value, (int, np.integer)):
            cards = [int(value)] if key == "upcard" else cards_of_hand(int(value))
        else:
            cards = [int(c) for c in value]
        want = 1 if key == "upcard" else layout.HAND_SIZE
        if len(cards) != want:
            raise SimcoreError(f"predeal {key!r} needs {want} different card(s), got {cards}")
    return GAME.deal_filter(predeal)



def _common(rules: Rules, choice: PolicyChoice, what_if=None, option=0):
    """The kernel's rules vector, decision ids, play policies and fast-path flag."""
    policies = GAME.policy_ids(choice, USER_POLICY)
    return (
        rules_vector(rules),
        decision_ids(choice, what_if, option),
        policies,
        RANDOM_FAST_PATH and bool((policies == PLAY_POLICIES["random"]).all()),
    )


def _filter(predeal, deal_filter):
    if predeal and deal_filter is not None:
        raise SimcoreError("give either predeal= or deal_filter=, not both")
    return deal_filter if deal_filter is not None else whole_hands_filter(predeal)


def _check(bad: np.ndarray):
    check_illegal(bad.sum(), "a policy must return a trump-order card id from `legal`")


_NO_TOTALS = np.zeros((2, 2), np.int16).T


def _row_arrays(rows: int, game_mode: bool, log_plays: bool):
    """The kernel's hand-row outputs (wide, small, totals, plays, winners): each column array
    is a (rows, k) view of a (k, rows) array, so the kernel indexes it by row and every column
    is contiguous in its own type (``layout.W_*``, ``S_*``): the polars frame copies nothing.
    Hands mode has no game, hand_no or total columns."""
    wide = columns(layout.N_WIDE if game_mode else layout.N_WIDE_HANDS, rows, np.uint64)
    totals = columns(2 if game_mode else 0, rows, np.int16)
    return (wide, columns(layout.N_SMALL, rows, np.int8), totals,
            *log_arrays(rows, log_plays, 20, 5))


def _hand_frame(wide, small, totals, plays, winners, log_plays):
    frame = frame_from_columns(
        ((layout.WIDE_COLUMNS, wide), (layout.SMALL_COLUMNS, small),
         (("total0", "total1"), totals)),
        layout.HAND_COLUMNS, bools=("picked_up",), u16=("hand_no",))
    if log_plays:
        n_tricks = np.where(small[:, layout.S_TRUMP] >= 0, 5, 0)
        frame = frame.with_columns(padded_list("plays", plays, small[:, layout.S_N_PLAYS]),
                                   padded_list("trick_winners", winners, n_tricks))
    return frame


def run_hands(seed: int, start: int, count: int, rules: Rules, choice: PolicyChoice,
              log_plays: bool = False, predeal: dict | None = None, *,
              what_if: str | None = None, deal_filter: dealing.DealFilter | None = None
              ) -> pl.DataFrame:
    """Deals start .. start+count-1 of a run, one row each (hands mode).

    ``predeal`` fixes whole hands (see :func:`whole_hands_filter`); ``deal_filter`` is the
    general form (partial predeal and conditions, :mod:`simcore.dealing`; with conditions the
    rows get ``attempts``).  ``what_if="order-up"`` / ``"alone"`` plays every deal once per
    option (``option`` column, deal-major): see :func:`engine.make_trump` and
    :func:`engine.declare_alone`.
    """
    deal_filter = _filter(predeal, deal_filter)
    if what_if is not None:
        return what_if_rows(GAME, what_if, lambda k, _: _hands(
            seed, start, count, rules, choice, log_plays, deal_filter, what_if, k))
    return _hands(seed, start, count, rules, choice, log_plays, deal_filter, None, 0)


def _hands(seed, start, count, rules, choice, log_plays, deal_filter, what_if, option):
    kernel = _kernel(choice)
    wide, small, totals, plays, winners = _row_arrays(count, False, log_plays)
    bad = np.zeros(_blocks(count, choice), np.int64)
    unused = (np.zeros(0, layout.GAME_ROW), np.zeros((0, 2), np.int16))
    common = _common(rules, choice, what_if, option)
    attempts = attempts_array(count, deal_filter)
    capped = np.zeros(1, np.int64)
    # hands mode writes no totals: the kernel gets a (2, 2) F-ordered stand-in so that both
    # modes share one compiled layout (a zero-column view would count as C-contiguous)
    kernel(True, np.uint64(seed), np.int64(start), *unused, wide, small, _NO_TOTALS,
           np.zeros(0, np.int64), False, *common, plays, winners,
           *dealing.filter_arrays(LAYOUT, deal_filter), attempts, capped, bad)
    dealing.check_capped(capped)
    _check(bad)
    frame = _hand_frame(wide, small, totals, plays, winners, log_plays)
    return with_attempts(frame, attempts, deal_filter)


def run_games(seed: int, start: int, count: int, rules: Rules, choice: PolicyChoice,
              log_plays: bool = False, predeal: dict | None = None, *,
              deal_filter: dealing.DealFilter | None = None
              ) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Games start .. start+count-1, played to the target: (hand rows, game rows).

    The kernel runs twice: once to learn each game's length, then to write every hand row at
    its offset.  Both runs play identical games (streams are keyed by seed, game, hand).
    """
    kernel = _kernel(choice)
    games = np.zeros(count, layout.GAME_ROW)
    finals = np.zeros((count, 2), np.int16)
    blocks = _blocks(count, choice)
    bad = np.zeros(blocks, np.int64)
    common = _common(rules, choice)
    deal_filter = _filter(predeal, deal_filter)
    constraints = dealing.filter_arrays(LAYOUT, deal_filter)
    attempts = None

    def play(rows, offsets, record, log):
        arrays = _row_arrays(rows, True, log)
        bad[:] = 0
        nonlocal attempts
        attempts = attempts_array(rows, deal_filter)
        capped = np.zeros(1, np.int64)
        kernel(False, np.uint64(seed), np.int64(start), games, finals, *arrays[:3], offsets,
               record, *common, *arrays[3:], *constraints, attempts,
               capped, bad)
        dealing.check_capped(capped)
        _check(bad)
        return arrays

    def unfinished():
        if (games["winner"] < 0).any():
            raise SimcoreError("a euchre game did not reach the target in 65535 hands: with "
                               "these bidding policies (e.g. order_up=never name_trump=never) "
                               "nobody scores")

    # at least two scratch rows: a one-row (k, 1) view is C- as well as F-contiguous, and
    # Numba would compile the kernel a second time for that layout
    arrays = two_passes(play, games, count, max(blocks, 2), log_plays, check=unfinished)
    hands = with_attempts(_hand_frame(*arrays, log_plays), attempts, deal_filter)
    game_frame = frame_from_records(games, {"final": finals}, order=layout.GAME_COLUMNS)
    return hands, game_frame


def _engine_id() -> np.ndarray:
    ids = np.full(52, -1, np.int64)
    for c in range(52):
        if c % 13 >= 7:
            ids[c] = 13 * (c // 13) + c % 13 - 7
    return ids


_JACK = 9  # public rank of the jack


def _bowers_table(arg):
    """For each reference (upcard) suit t: the jacks of t and of its same-colour suit."""
    if arg is not None:
        raise SimcoreError("the bowers feature takes no argument")
    table = np.zeros((4, 52), np.int64)
    for t in range(4):
        table[t, 13 * t + _JACK] = 1
        table[t, 13 * (3 - t) + _JACK] = 1
    return table


def _trumps_table(arg):
    """For each reference (upcard) suit t: every card of t plus the left bower."""
    if arg is not None:
        raise SimcoreError("the trumps feature takes no argument")
    table = np.zeros((4, 52), np.int64)
    for t in range(4):
        table[t, 13 * t:13 * t + 13] = 1
        table[t, 13 * (3 - t) + _JACK] = 1
    return table


LAYOUT = dealing.DealLayout(
    game="euchre",
    n_seats=layout.N_SEATS,
    slots=tuple((str(s), layout.HAND_SIZE) for s in range(layout.N_SEATS))
    + (("upcard", 1), ("kitty", 3)),
    deck_ids=DECK_IDS,
    engine_id=_engine_id(),
    shuffle=dealing.SHUFFLE_SINGLE,
    predeal_slots=("0", "1", "2", "3", "upcard"),
    roles=("dealer",),
    ref_slot="upcard",
    features={
        "bowers": dealing.Feature("jacks of the upcard's suit and its same-colour suit (0-2)",
                                  _bowers_table, uses_ref=True),
        "trumps": dealing.Feature("cards that are trumps if the upcard's suit is ordered up "
                                  "(its suit plus the left bower)", _trumps_table, uses_ref=True),
    },
)

GAME = Game(
    name="euchre",
    title="Euchre",
    **record_fields(layout.N_SEATS, Rules, pimc, run_hands, run_games),
    decisions=DECISIONS,
    default_decisions={name: "auto" for name in DECISIONS},
    hand_columns="docs/games/euchre.md",
    what_if=dict(WHATIF_OPTIONS),
    what_if_doc={
        "order-up": "the first seat asked (dealer's left) orders the upcard up, or passes",
        "order-up-partner": "the dealer's partner orders the upcard up, or passes (deals where the dealer's "
                            "left passed: on the others both rows are the ordinary play)",
        "order-up-right": "the dealer's right orders the upcard up, or passes (deals where the two seats "
                          "before it passed)",
        "order-up-dealer": "the dealer picks the upcard up, or passes (deals where the other three passed)",
        "alone": "the maker goes alone, or plays with its partner (who is not asked)",
    },
    deal_layout=LAYOUT,
    solve_hands=dd_table.solve_hands,
    solve_chunk=20_000,
    solve_doc="dealer, upcard; dd_t{t} (tricks of seats 0+2 with trump t), dd_alone{s}_t{t} "
              "(tricks of seat s alone with trump t); the dealer picks up when t is the upcard's suit",
    position_solver=solver.POSITION,
    show=show.VIEW,
    advisor=advice.ADVISOR,
    deck=int(BASE_DECK) << 7,  # 9 to A of every suit, public ids (EU-1)
    deck_doc="9 to A",
    user_policy_doc=(
        "policy(seat, hand, legal, view, st) -> card: hand/legal are uint64 masks of trump-order "
        "ids (simcore.games.euchre.layout), view the public state (layout.V_*)"
    ),
)
