"""Spades' card ids, the public view a policy sees, the rules vector and the row records.

Spades ranks A (high) ... 2 (low) in every suit (SP-2), which is the public order of
:mod:`simcore.cards`, so the engine works on public card ids directly: no conversion at the
boundary.  Spades (suit 3) are always trump.
"""

import numpy as np

from simcore.games.batches import column_names, game_row

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

# The rules as an int64 vector for the kernels (built from ``Rules`` by ``rules_vector``): these
# options in this order, numbers as they are and booleans 0/1; blind_nil_timing 0 own_turn, 1
# before_bidding; must_break_spades 1: SP-7 (no spade lead before spades are broken);
# first_dealer (SP-3) the first dealer's seat, or -1: drawn from the game's seed.
RULES_VECTOR = ("target", "bag_limit", "bag_penalty", "nil_value", "blind_nil", "blind_nil_value",
                "blind_nil_min_deficit", "blind_nil_timing", "max_hands", "must_break_spades",
                "first_dealer")
(R_TARGET, R_BAG_LIMIT, R_BAG_PENALTY, R_NIL_VALUE, R_BLIND_NIL, R_BLIND_NIL_VALUE,
 R_BLIND_MIN_DEFICIT, R_BLIND_BEFORE_BIDDING, R_MAX_HANDS, R_MUST_BREAK,
 R_FIRST_DEALER) = range(len(RULES_VECTOR))
N_RULES = len(RULES_VECTOR)

# Hand rows are written column by column into (rows, k) views of (k, rows) arrays, so every
# column is contiguous and the polars frame takes it without a copy (a serial copy of record
# fields and of widened per-side values ran between the parallel kernels).
# wide[row, W_*] (uint64): the hands played (after any blind-nil exchange), the hands dealt,
# the three cards each seat gave its partner (0 = no exchange); game mode adds game, hand_no
WIDE_COLUMNS = column_names(("hand", 4), ("dealt", 4), ("passed", 4), "seed", "deal", "game",
                            "hand_no")
W_HAND, W_DEALT, W_PASSED, W_SEED, W_DEAL, W_GAME, W_HAND_NO = (
    WIDE_COLUMNS.index(name) for name in ("hand0", "dealt0", "passed0", "seed", "deal", "game",
                                          "hand_no"))
N_WIDE_HANDS = W_GAME  # the hands-mode columns
N_WIDE = len(WIDE_COLUMNS)
# small[row, S_*] (int8): blind (bool); contract, the sum of the side's non-nil bids; bags
# taken this hand (overtricks + nil bidders' tricks)
SMALL_COLUMNS = column_names("dealer", "spades_broken_trick", ("bid", 4), ("blind", 4),
                             ("tricks", 4), ("contract", 2), ("bags", 2))
S_DEALER, S_BROKEN, S_BID, S_BLIND, S_TRICKS, S_CONTRACT, S_BAGS = (
    SMALL_COLUMNS.index(name) for name in ("dealer", "spades_broken_trick", "bid0", "blind0",
                                           "tricks0", "contract0", "bags0"))
N_SMALL = len(SMALL_COLUMNS)
# side16[row, D_*] (int16): hand points (bag penalty included), net nil / blind nil points,
# -bag_penalty per time the running bags reached bag_limit (<= 0), bags carried after this
# hand (game mode)
SIDE16_COLUMNS = column_names(("score", 2), ("nil_points", 2), ("bag_penalty", 2),
                              ("total_bags", 2))
D_SCORE, D_NIL_POINTS, D_BAG_PENALTY, D_TOTAL_BAGS = (
    SIDE16_COLUMNS.index(f"{stem}0") for stem in ("score", "nil_points", "bag_penalty",
                                                  "total_bags"))
N_SIDE16 = len(SIDE16_COLUMNS)
# total[row, side] (int32, game mode; hands mode passes a (rows, 0) array): the running score
# after this hand (int32: a hopeless side can sink far)

GAME_ROW = game_row()

HAND_COLUMNS = list(column_names(
    "seed", "deal", "game", "hand_no", "dealer", ("hand", N_SEATS), ("dealt", N_SEATS),
    ("passed", N_SEATS), ("bid", N_SEATS), ("blind", N_SEATS), ("tricks", N_SEATS),
    ("contract", 2), ("score", 2), ("bags", 2), ("nil_points", 2), ("bag_penalty", 2),
    "spades_broken_trick", ("total", 2), ("total_bags", 2)))
GAME_COLUMNS = list(column_names("seed", "game", "hands", ("final", 2), "winner",
                                 ("final_bags", 2)))
