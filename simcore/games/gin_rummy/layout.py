"""Gin Rummy row records, the observation a policy sees, and the decision kinds.

Hands are public-order uint64 masks (simcore.cards); the meld kernels (simcore.melds) convert
to their ace-low sequence order internally.
"""

import numba as nb
import numpy as np

from simcore.games.batches import game_row, hand_rows

N_SEATS = 2
DECK = 52
HAND = 10

# The kernels' settings ``cfg`` (int64): the rules as one slot per option
# (``rules.rules_vector``), then the two decisions the run fixes for every hand.
RULES_VECTOR = ("knock_limit", "gin_bonus", "undercut_bonus", "may_discard_taken_card",
                "void_at_stock", "target", "game_bonus", "box_bonus", "box_bonus_to",
                "shutout_doubles", "next_dealer", "first_dealer")
(C_KNOCK_LIMIT, C_GIN_BONUS, C_UNDERCUT_BONUS, C_MAY_DISCARD_TAKEN, C_VOID_AT_STOCK, C_TARGET,
 C_GAME_BONUS, C_BOX_BONUS, C_BOX_BOTH, C_SHUTOUT, C_NEXT_DEALER,
 C_FIRST_DEALER) = range(len(RULES_VECTOR))
C_KNOCK_AT = len(RULES_VECTOR)  # the ``knock`` decision's threshold (-1: knock_limit)
C_WHATIF_KNOCK = C_KNOCK_AT + 1  # what-if knock: the non-dealer knocks iff deadwood <= this (-1: off)
N_CFG = C_WHATIF_KNOCK + 1

# What a policy is asked (its ``kind`` argument) and what it answers.
K_UPCARD = 0   # GR-7: 1 = take the upcard, 0 = pass
K_DRAW = 1     # GR-8: 1 = take the top discard, 0 = draw from the stock
K_DISCARD = 2  # GR-8: a card of ``hand`` (11 cards); not view[V_TAKEN] if view[V_TAKEN_LOCKED]
K_KNOCK = 3    # GR-9: 1 = knock (asked only when deadwood after the discard <= knock_limit)

# The observation (int64 view).  Everything here is visible to the seat asked.
V_SEAT = 0
V_DEALER = 1
V_TOP = 2            # top card of the discard pile, -1 if empty
V_PILE = 3           # mask of the cards in the discard pile
V_OPP_PICKS = 4      # cards the opponent took from the pile and has not thrown back
V_OPP_DISCARDS = 5   # every card the opponent has discarded
V_STOCK = 6          # cards left in the stock
V_TURN = 7           # completed turns so far
V_KNOCK_LIMIT = 8    # rules.knock_limit
V_KNOCK_AT = 9       # the ``knock`` decision's threshold (-1 = knock_limit)
V_TAKEN = 10         # card taken from the pile this turn, -1 if none
V_TAKEN_LOCKED = 14  # 1 if V_TAKEN may not be discarded (GR-8, may_discard_taken_card=false)
V_DEADWOOD = 11      # K_KNOCK: deadwood of the 10 cards kept
V_DISCARD = 12       # K_KNOCK: the card being discarded
V_UPCARD = 13        # the first upcard
# The hand's public history, one entry a turn in order (GR-7, GR-8): entry j is
# view[V_HIST + j] for j < min(view[V_HIST_N], MAX_HIST); a longer history keeps its first
# MAX_HIST turns.  An entry is ``seat | offered << 1 | took << 2 | (discard + 1) << 3``:
# ``offered`` 1 when the seat was asked to take the upcard or the top discard, ``took`` 1 when
# it did (else it drew from the stock, or passed the upcard), ``discard`` the card it put on
# the pile (-1 for a passed upcard; a knock's face-down discard is not public and ends the
# history).  Together with the seat's own hand this is all the seat has seen.
V_HIST_N = 16
V_HIST = 17
MAX_HIST = 64
VIEW_SIZE = V_HIST + MAX_HIST


@nb.njit(inline="always", cache=True)
def hist_entry(seat, offered, took, discard):
    return seat | offered << 1 | took << 2 | (discard + 1) << 3

# The turn log of ``--log-plays`` rows (``turn_log``, one int16 entry a turn in play order,
# the upcard offers first): ``seat | source << 1 | (card + 1) << 3 | (discard + 1) << 9``.
# ``source`` is TURN_PASS (the seat passed the upcard: card and discard -1), TURN_PILE (it took
# the upcard or the top discard, ``card``) or TURN_STOCK (it drew ``card`` from the stock);
# ``discard`` is the card it let go: on the pile, or face down when the row's knocker knocked
# on that (last) turn.  The log is read from the public history after the hand
# (engine.history_log), so a hand longer than MAX_HIST turns keeps its first MAX_HIST.
TURN_PASS = 0
TURN_PILE = 1
TURN_STOCK = 2
LOG_TURNS = MAX_HIST + 1


@nb.njit(inline="always", cache=True)
def turn_entry(seat, source, card, discard):
    return seat | source << 1 | (card + 1) << 3 | (discard + 1) << 9


def read_turn(entry: int) -> tuple[int, int, int, int]:
    """A ``turn_log`` entry as (seat, source, card taken or -1, card let go or -1)."""
    entry = int(entry)
    return entry & 1, entry >> 1 & 3, (entry >> 3 & 63) - 1, (entry >> 9 & 63) - 1


# end column
END_VOID = 0
END_KNOCK = 1
END_GIN = 2

_HAND_FIELDS = [
    ("dealer", np.int8),
    ("upcard", np.int8),
    ("upcard_taker", np.int8),
    ("end", np.int8),
    ("knocker", np.int8),
    ("laid_off", np.uint64),
    ("turns", np.int16),
    ("winner", np.int8),
    ("points", np.int16),
]
HAND_ROW, GAME_HAND_ROW = hand_rows(_HAND_FIELDS)
GAME_ROW = game_row(("shutout", np.bool_))

_SEATS = range(N_SEATS)
HAND_COLUMNS = (
    ["seed", "deal", "game", "hand_no"]
    + [f"hand{s}" for s in _SEATS]
    + ["dealer", "upcard", "upcard_taker", "end", "knocker"]
    + [f"final{s}" for s in _SEATS]
    + [f"deadwood{s}" for s in _SEATS]
    + ["laid_off", "turns", "winner", "points"]
    + [f"total{s}" for s in _SEATS]
)
GAME_COLUMNS = (["seed", "game", "hands"] + [f"final{s}" for s in _SEATS]
                + [f"won{s}" for s in _SEATS] + ["winner", "shutout"])
