"""Spades' card ids, the public view a policy sees, the rules vector and the row records.

Spades ranks A (high) ... 2 (low) in every suit (SP-2), which is the public order of
:mod:`simcore.cards`, so the engine works on public card ids directly: no conversion at the
boundary.  Spades (suit 3) are always trump.
"""

import numpy as np

N_SEATS = 4
N_TRICKS = 13
SPADES = 3
SPADE_CARDS = np.uint64(0x1FFF << 39)
ALL_CARDS = np.uint64((1 << 52) - 1)

# The public view: everything in it is known to every seat (bids, blind flags, tricks won,
# cards played and by whom, voids shown, the running scores).  A seat's own hand is passed
# beside it; no other seat's hand ever is.
V_DEALER = 0
V_TRICK = 1  # tricks completed so far
V_LEADER = 2
V_NPLAYED = 3  # cards already in the current trick
V_PLAYED = 4  # int64 bitmask of every card played so far, current trick included
V_BROKEN = 5  # 1 once spades are broken (SP-9)
V_TRICK_CARDS = 6  # 4 slots, by position in the trick (0 = led)
V_BIDS = 10  # 4 slots, per seat: -1 not yet bid, 0 nil (or blind nil), 1-13
V_BLIND = 14  # 4 slots: 1 when the seat bid blind nil
V_TRICKS = 18  # 4 slots: tricks won per seat so far
V_VOIDS = 22  # 4 slots: bitmask of suits the seat has shown void in (failed to follow)
V_TOTAL = 26  # 2 slots: each side's running score before this hand (0 in hands mode)
V_BAGS = 28  # 2 slots: each side's carried bags before this hand
V_TARGET = 30
V_PLAYED_BY = 31  # 52 slots: seat that played each card, -1 if not yet played
VIEW_SIZE = V_PLAYED_BY + 52

# The rules as an int64 vector for the kernels (built from ``Rules`` by ``rules_vector``).
R_TARGET = 0
R_BAG_LIMIT = 1
R_BAG_PENALTY = 2
R_NIL_VALUE = 3
R_BLIND_NIL = 4
R_BLIND_NIL_VALUE = 5
R_BLIND_MIN_DEFICIT = 6
R_BLIND_BEFORE_BIDDING = 7  # blind_nil_timing: 0 own_turn, 1 before_bidding
R_MAX_HANDS = 8
R_MUST_BREAK = 9  # 1: SP-7 (no spade lead before spades are broken); 0: spades may be led any time
R_FIRST_DEALER = 10  # SP-3: the first dealer's seat, or -1: drawn from the game's seed
N_RULES = 11

# Hand rows are written column by column into (rows, k) views of (k, rows) arrays, so every
# column is contiguous and the polars frame takes it without a copy (a serial copy of record
# fields and of widened per-side values ran between the parallel kernels).
# wide[row, W_*] (uint64)
W_HAND = 0  # hand0 .. hand3: the hands played (after any blind-nil exchange)
W_DEALT = 4  # dealt0 .. dealt3: the hands dealt
W_PASSED = 8  # passed0 .. passed3: the three cards each seat gave its partner (0 = no exchange)
W_SEED = 12
W_DEAL = 13
N_WIDE_HANDS = 14  # the hands-mode columns; game mode adds:
W_GAME = 14
W_HAND_NO = 15  # a u16 column
N_WIDE = 16
# small[row, S_*] (int8)
S_DEALER = 0
S_BROKEN = 1  # spades_broken_trick
S_BID = 2  # bid0 .. bid3
S_BLIND = 6  # blind0 .. blind3 (bool)
S_TRICKS = 10  # tricks0 .. tricks3
S_CONTRACT = 14  # contract0, contract1: the sum of the side's non-nil bids
S_BAGS = 16  # bags0, bags1: bags taken this hand (overtricks + nil bidders' tricks)
N_SMALL = 18
# side16[row, D_*] (int16)
D_SCORE = 0  # score0, score1: hand points, bag penalty included
D_NIL_POINTS = 2  # net nil / blind nil points
D_BAG_PENALTY = 4  # -bag_penalty per time the running bags reached bag_limit (<= 0)
D_TOTAL_BAGS = 6  # bags carried after this hand (game mode)
N_SIDE16 = 8
# total[row, side] (int32, game mode; hands mode passes a (rows, 0) array): the running score
# after this hand (int32: a hopeless side can sink far)

GAME_ROW = np.dtype(
    [("seed", np.uint64), ("game", np.uint64), ("hands", np.uint16), ("winner", np.int8)],
    align=True,
)

_SEATS = range(N_SEATS)
_SIDES = range(2)
HAND_COLUMNS = (
    ["seed", "deal", "game", "hand_no", "dealer"]
    + [f"hand{s}" for s in _SEATS]
    + [f"dealt{s}" for s in _SEATS]
    + [f"passed{s}" for s in _SEATS]
    + [f"bid{s}" for s in _SEATS]
    + [f"blind{s}" for s in _SEATS]
    + [f"tricks{s}" for s in _SEATS]
    + [f"contract{p}" for p in _SIDES]
    + [f"score{p}" for p in _SIDES]
    + [f"bags{p}" for p in _SIDES]
    + [f"nil_points{p}" for p in _SIDES]
    + [f"bag_penalty{p}" for p in _SIDES]
    + ["spades_broken_trick"]
    + [f"total{p}" for p in _SIDES]
    + [f"total_bags{p}" for p in _SIDES]
)
GAME_COLUMNS = (
    ["seed", "game", "hands"]
    + [f"final{p}" for p in _SIDES]
    + ["winner"]
    + [f"final_bags{p}" for p in _SIDES]
)
