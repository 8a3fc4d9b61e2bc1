"""Trump Friend's internal card order, the public view a policy sees, and the row records.

Internal card id = 13 * suit + strength, strength 0 = 4 (lowest) ... 10 = A, 11 = 2, 12 = 3
(TF-3), so within a suit a higher id is a stronger card.
"""

import numba as nb
import numpy as np

from simcore.games.batches import game_row
from simcore.tricks import RankOrder

ORDER = RankOrder("456789TJQKA23")  # TF-3, lowest first
TO_INTERNAL = ORDER.to_internal
TO_PUBLIC = ORDER.to_public
SUIT_TO_PUBLIC = ORDER.suit_to_public

# Internal strength = public rank - 2 (mod 13): within each suit's 13 bits, public ranks are the
# internal ones rotated up by two, so a whole hand converts with four bit operations.
_LOW11 = np.uint64(sum(0x7FF << (13 * s) for s in range(4)))
_TOP2 = np.uint64(sum(0x1800 << (13 * s) for s in range(4)))


@nb.njit(inline="always", cache=True)
def public_mask(mask):
    """A hand of internal card ids as a hand of public card ids (same as SUIT_TO_PUBLIC)."""
    return ((mask & _LOW11) << np.uint64(2)) | ((mask & _TOP2) >> np.uint64(11))


N_SEATS = 5
N_TRICKS = 10
NO_TRUMP = 4
TRUMP_OPTIONS = 5  # clubs, diamonds, hearts, spades, no trump

# The rules as the int64 vector the kernels read (``rules.rules_vector``), one slot per option.
RULES_VECTOR = ("losing_line", "end_at", "first_declarer", "allow_own_card")
R_LOSING_LINE, R_EXCEED, R_FIRST_DECLARER, R_OWN_CARD = range(len(RULES_VECTOR))

# Point cards (TF terms): A = 2, K/Q/J = 1, by internal strength within a suit.
_J, _Q, _K, _A = 7, 8, 9, 10
ONE_POINT = np.uint64(sum(1 << (13 * s + r) for s in range(4) for r in (_J, _Q, _K)))
TWO_POINTS = np.uint64(sum(1 << (13 * s + _A) for s in range(4)))
POINT_CARDS = ONE_POINT | TWO_POINTS

# The public view (TF-5.5): everything in it is known to every seat.
V_DECLARER = 0
V_TRUMP = 1
V_FRIEND_CARD = 2  # internal id, -1 = no friend
V_FRIEND_SEAT = 3  # seat that played the friend card, -1 until it falls
V_TRICK = 4  # tricks completed so far
V_LEADER = 5
V_NPLAYED = 6  # cards already in the current trick
V_PLAYED = 7  # int64 bitmask of every card played so far, current trick included
V_TRICK_CARDS = 8  # 5 slots, by position in the trick (0 = led)
V_POINTS = 13  # 5 slots: points won per seat in completed tricks
V_PLAYED_BY = 18  # 52 slots: seat that played each internal card, -1 if not yet played
VIEW_SIZE = V_PLAYED_BY + 52

# Hand rows are written column by column: ``wide[row, W_*]`` (uint64) and ``small[row, S_*]``
# (int8) are (rows, k) views of (k, rows) arrays, so every column is contiguous and the polars
# frame takes it without a copy (a serial copy of record fields capped 2-thread scaling).
WIDE_COLUMNS = tuple(f"hand{s}" for s in range(5)) + ("kitty", "seed", "deal", "game", "hand_no")
W_HANDS = 0  # hand0 .. hand4: 0 .. 4
W_KITTY = 5
W_SEED = 6
W_DEAL = 7
W_GAME = 8  # game mode only
W_HAND_NO = 9  # game mode only (a u16 column)
N_WIDE = len(WIDE_COLUMNS)
SMALL_COLUMNS = ("declarer", "trump", "friend_card", "friend_seat", "friend_own",
                 "declarer_team_points", "defender_points", "declarer_won")
S_DECLARER = 0
S_TRUMP = 1
S_FRIEND_CARD = 2
S_FRIEND_SEAT = 3
S_FRIEND_OWN = 4  # bool
S_TEAM_POINTS = 5
S_DEFENDER_POINTS = 6
S_WON = 7  # bool
N_SMALL = len(SMALL_COLUMNS)
BOOL_COLUMNS = ("friend_own", "declarer_won")
# seat_values[row, field, seat] of a hand row
SV_POINTS = 0
SV_DELTA = 1
SV_TOTAL = 2  # running score (game mode)
N_SEAT_VALUES = 3

GAME_ROW = game_row(("n_winners", np.int8))

_SEATS = range(N_SEATS)
HAND_COLUMNS = (
    ["seed", "deal", "game", "hand_no"]
    + [f"hand{s}" for s in _SEATS]
    + ["kitty", "declarer", "trump", "friend_card", "friend_seat", "friend_own"]
    + [f"points{s}" for s in _SEATS]
    + ["declarer_team_points", "defender_points"]
    + [f"delta{s}" for s in _SEATS]
    + ["declarer_won"]
    + [f"total{s}" for s in _SEATS]
)
GAME_COLUMNS = ["seed", "game", "hands"] + [f"final{s}" for s in _SEATS] + ["winner", "n_winners"]
