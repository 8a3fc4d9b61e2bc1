"""Dummy row records, the observation a policy sees, the decisions and their action codes.

Cards are public ids (``13 * suit + rank``, 2 low, A high); hands are uint64 masks.  Dummy's
run order (DM-6: 2 ... A, ace high only) is the public order itself, so the shared meld kernels
(simcore.melds) work on these masks without conversion.
"""

import numba as nb
import numpy as np

from simcore.cards import popcount
from simcore.games.batches import game_row, hand_rows

N_SEATS = 4
DECK = 52
MAX_MELDS = 18      # 52 cards make at most 17 table melds
MAX_ACTS = 4096     # legal actions of one decision (a deep pile gives a few hundred at most)
LOG_MAX = 4096      # decisions of one deal kept by the debug log
# ``--log-plays`` rows keep a deal's first LOG_ROW decisions: ``decisions`` (the action codes
# below, a discard's card id), ``deciders`` (``seat << 2 | kind``) and ``stock`` (the stock in
# play, top first: the cards the DRAWs take, in order).  A deal takes about 100 decisions at
# most (random play); the kernel's buffer is LOG_ROW int64 a row, so it is kept near that.
LOG_ROW = 128

# The rules as the int64 vector the kernels read (``rules.rules_vector``), one slot per option.
RULES_VECTOR = ("players", "hand_size", "two_player_cut5", "layoff_cap", "layoff_limit_scope",
                "dark_knock_layoffs", "qka_closed", "knock_card_value", "dark_knock_multiplier",
                "unopened_multiplier", "ngo_penalty", "ngo_reverse", "target", "first_dealer",
                "may_discard_taken_card", "speto_knock_100", "head_card_bonus",
                "head_feed_penalty", "layoff_discard_penalty", "full_discard_penalty",
                "speto_feed_penalty", "speto_discard_penalty")
(C_PLAYERS, C_HAND, C_CUT5, C_LAYOFF_LIMIT, C_LIMIT_TABLE, C_DARK_LAYOFFS, C_QKA_CLOSED,
 C_KNOCK_VALUE, C_DARK_MULT, C_UNOPENED_MULT, C_NGO_PENALTY, C_NGO_REVERSE, C_TARGET,
 C_FIRST_DEALER, C_MAY_DISCARD_TAKEN, C_SPETO100, C_HEAD_BONUS, C_HEAD_FEED, C_LAYOFF_DISCARD,
 C_FULL_DISCARD, C_SPETO_FEED, C_SPETO_DISCARD) = range(len(RULES_VECTOR))
N_CFG = len(RULES_VECTOR)

# What a policy is asked (``kind``); it answers an index into ``acts[:n]``.
K_ACQUIRE = 0   # DM-11/12/23: DRAW, PASS (final turn only) or a take (target depth + meld)
K_PLAY = 1      # DM-15...19: STOP, lay a meld, lay off a card, or knock keeping one card
K_DISCARD = 2   # DM-11/13: the card to discard

# action codes (int64)
DRAW = -1                 # draw the top stock card
PASS = -2                 # final turn (DM-23): decline, the deal ends with no knocker
STOP = 0                  # K_PLAY: no more plays; discard next
SCRIPT = -2               # policy id of a scripted seat (tests: engine.play_logged)
A_SHIFT = 58              # K_PLAY: type in bits 58+
A_MELD = 1                # (1 << 58) | meld mask
A_LAYOFF = 2              # (2 << 58) | (table meld index << 8) | card
A_KNOCK = 3               # (3 << 58) | card kept face down (everything else goes down)
TAKE_SHIFT = 52           # K_ACQUIRE take: (target's depth in the pile, 0 = bottom) << 52 | meld
MASK52 = (1 << 52) - 1


def take_code(depth: int, meld: int) -> int:
    return (depth << TAKE_SHIFT) | meld


def meld_code(meld: int) -> int:
    return (A_MELD << A_SHIFT) | meld


def layoff_code(j: int, card: int) -> int:
    return (A_LAYOFF << A_SHIFT) | (j << 8) | card


def knock_code(card: int) -> int:
    return (A_KNOCK << A_SHIFT) | card


# The observation (int64 ``view``).  Everything here is public or the asked seat's own.
V_SEAT = 0
V_PLAYERS = 1
V_DEALER = 2
V_DIR = 3             # +1 or -1 (DM-27)
V_STOCK = 4           # cards left in the stock
V_TURN = 5            # turns begun so far
V_HEAD = 6            # the head card (DM-4)
V_HEAD_IN_PILE = 7    # 1 while the head card lies in the pile
V_OPENED = 8          # bit s set when seat s has opened
V_LAYOFFS_LEFT = 9    # lay-offs the asked seat may still make (DM-17)
V_FINAL = 10          # 1 on the stock-out final turn (DM-23)
V_N_PILE = 11         # cards in the discard pile
V_N_MELDS = 12        # table melds
V_TAKEN = 13          # mask of cards taken from the pile this turn (not yet on the table)
V_PILE_MASK = 14      # mask of the pile
V_TABLE_MASK = 15     # mask of every table card
V_SPETO100 = 16       # rules.speto_knock_100
V_HEAD_BONUS = 17     # rules.head_card_bonus
V_CAN_DISCARD_TAKEN = 18
V_DRAWN = 19          # 1 if the seat drew from the stock this turn
V_COUNT0 = 20         # cards in hand of seat 0..3 (public)
V_PILE0 = 24          # the pile, bottom (oldest) first: view[V_PILE0 + i], i < view[V_N_PILE]
V_MELD0 = V_PILE0 + DECK   # table meld masks: view[V_MELD0 + j], j < view[V_N_MELDS]
V_PICKS0 = V_MELD0 + MAX_MELDS  # seat s: cards it took from the pile into its hand and still holds
V_DISCARDS0 = V_PICKS0 + N_SEATS  # seat s: cards it discarded this deal
V_PENALTIES = V_DISCARDS0 + N_SEATS  # the optional discard penalties in force (PEN_* bits)
VIEW_SIZE = V_PENALTIES + 1

# bits of view[V_PENALTIES]
PEN_HEAD_FEED = 1       # DM-34 head_feed_penalty
PEN_LAYOFF = 2          # DM-32 layoff_discard_penalty
PEN_FULL = 4            # DM-33 full_discard_penalty
PEN_SPETO_FEED = 8      # DM-34 speto_feed_penalty
PEN_SPETO_DISCARD = 16  # DM-34 speto_discard_penalty

# per-deal integer results ``res[...]`` and per-seat results ``seat_res[row, seat]``
R_KNOCKER = 0
R_DARK = 1
R_FOOL = 2
R_KNOCK_CARD = 3
R_HEAD = 4
R_TURNS = 5
R_DIR = 6
R_STARTER = 7
R_N_LOG = 8
R_ILLEGAL = 9
R_SCRIPT = 10     # next entry of a test script
N_RES = 12
S_OPENED = 0
S_TABLE = 1
S_INHAND = 2
S_PENALTY = 3
S_SCORE = 4
S_LAYOFFS = 5
N_SEAT_RES = 6

_HAND_FIELDS = [
    ("players", np.int8),
    ("dealer", np.int8),
    ("starter", np.int8),
    ("direction", np.int8),
    ("head", np.int8),
    ("knocker", np.int8),
    ("dark_knock", np.bool_),
    ("knock_card", np.int8),
    ("fool", np.int8),
    ("turns", np.int16),
]
HAND_ROW, GAME_HAND_ROW = hand_rows(_HAND_FIELDS)
GAME_ROW = game_row()

_SEATS = range(N_SEATS)
HAND_COLUMNS = (
    ["seed", "deal", "game", "hand_no"]
    + [f"hand{s}" for s in _SEATS]
    + ["players", "dealer", "starter", "direction", "head", "knocker", "dark_knock",
       "knock_card", "fool", "turns"]
    + [f"opened{s}" for s in _SEATS]
    + [f"table{s}" for s in _SEATS]
    + [f"inhand{s}" for s in _SEATS]
    + [f"penalty{s}" for s in _SEATS]
    + [f"score{s}" for s in _SEATS]
    + [f"layoffs{s}" for s in _SEATS]
    + [f"total{s}" for s in _SEATS]
)
GAME_COLUMNS = ["seed", "game", "hands"] + [f"final{s}" for s in _SEATS] + ["winner"]


# DM-7 card values, as masks of public card ids.
SPETOS = np.uint64(1 | (1 << 49))  # 2♣ = 0, Q♠ = 49: 50 each


def _ranks(lo, hi):
    return sum(1 << (13 * s + r) for s in range(4) for r in range(lo, hi + 1))


_LOW = np.uint64(_ranks(0, 7)) & ~SPETOS    # 2-9: 5
_MID = np.uint64(_ranks(8, 11)) & ~SPETOS   # 10, J, Q, K: 10
_ACE = np.uint64(_ranks(12, 12))            # A: 15


@nb.njit(inline="always", cache=True)
def points(m):
    """DM-7: the value of a set of cards (2-9 5, 10-K 10, A 15, speto 50)."""
    m = np.uint64(m)
    return (5 * popcount(m & _LOW) + 10 * popcount(m & _MID) + 15 * popcount(m & _ACE)
            + 50 * popcount(m & SPETOS))
