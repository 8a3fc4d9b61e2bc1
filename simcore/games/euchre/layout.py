"""Euchre's card ids, the public view a policy sees, and the row records.

Engines use two internal card orders, both ``13 * suit + strength``:

* **base** (before trump is known): strength 0-5 = 9, 10, J, Q, K, A (EU-2).
* **trump** (once trump ``t`` is fixed, EU-3/EU-4): as base, except that the jack of trump
  moves to strength 7 (right bower) and the jack of the same-colour suit moves *into suit t*
  at strength 6 (left bower).  Suit t's strength 2 and the other jack's slot stay empty.

So within a suit a higher id is a stronger card and the left bower is simply a trump: the
shared kernels of :mod:`simcore.tricks` (``follow_mask``, ``trick_winner``) apply unchanged.
The conversions live in :mod:`simcore.games.euchre.deck`.
"""

import numpy as np

from simcore.games.batches import column_names, game_row

N_SEATS = 4
N_TRICKS = 5
HAND_SIZE = 5
N_CARDS = 24
JACK = 2  # base strength of a jack
LEFT = 6  # trump-order strength of the left bower
RIGHT = 7  # trump-order strength of the right bower
INTERNAL_IDS = 48  # every internal id (either order) is below 13 * 3 + 8

# The rules as the int64 vector the kernels read (``rules.rules_vector``), one slot per option.
RULES_VECTOR = ("allow_turned_down_suit", "stick_the_dealer", "dealer_pickup_optional", "target",
                "first_dealer")
R_TURNED_DOWN_SUIT, R_STICK_THE_DEALER, R_PICKUP_OPTIONAL, R_TARGET, R_FIRST_DEALER = range(
    len(RULES_VECTOR))

# ---------------------------------------------------------------- the public view (EU-12 ... EU-15)
# Everything in it is known to every seat: the deal's public facts, the lone players, and every
# card played and by whom.  Card ids are in trump order.
V_DEALER = 0
V_TRUMP = 1
V_MAKER = 2
V_UPCARD = 3  # trump-order id; with V_PICKED_UP = 0 it lies face down in the kitty
V_PICKED_UP = 4
V_ALONE_MAKER = 5  # seat or -1
V_ALONE_DEFENDER = 6  # seat or -1
V_ACTIVE = 7  # bitmask of the seats playing this hand (a lone player's partner sits out)
V_TRICK = 8  # tricks completed so far
V_LEADER = 9
V_NPLAYED = 10  # cards already in the current trick
V_PLAYED = 11  # int64 bitmask of every card played so far, current trick included
V_TRICK_CARDS = 12  # 4 slots, by position in the trick (0 = led)
V_TRICK_SEATS = 16  # 4 slots: the seat that played each of them
V_TRICKS = 20  # 4 slots: tricks won per seat so far
V_VOIDS = 24  # 4 slots: bitmask of suits (trump order) each seat has shown out of
V_PLAYED_BY = 28  # 48 slots: seat that played each internal card, -1 if not yet played
VIEW_SIZE = V_PLAYED_BY + INTERNAL_IDS

# ---------------------------------------------------------------- row columns
# Hand rows are written column by column into (rows, k) views of (k, rows) arrays, so every
# column is contiguous in its own type and the polars frame takes it without a copy (copying
# record fields was a serial step between the parallel kernels).
# wide[row, W_*] (uint64): the hands dealt (public ids); game mode adds game, hand_no (u16)
WIDE_COLUMNS = column_names(("hand", N_SEATS), "kitty", "seed", "deal", "game", "hand_no")
W_HAND, W_KITTY, W_SEED, W_DEAL, W_GAME, W_HAND_NO = (
    WIDE_COLUMNS.index(name) for name in ("hand0", "kitty", "seed", "deal", "game", "hand_no"))
N_WIDE_HANDS = W_GAME  # the hands-mode columns
N_WIDE = len(WIDE_COLUMNS)
# small[row, S_*] (int8): picked_up is a bool; side_tricks0, side_tricks1: tricks of seats
# 0+2, 1+3; n_plays: cards played (the length of the plays list; not a column)
SMALL_COLUMNS = column_names("dealer", "upcard", "trump", "maker", "bid_round", "picked_up",
                             "discard", "alone_maker", "alone_defender", ("tricks", N_SEATS),
                             ("side_tricks", 2), ("points", 2), "n_plays")
(S_DEALER, S_UPCARD, S_TRUMP, S_MAKER, S_BID_ROUND, S_PICKED_UP, S_DISCARD, S_ALONE_MAKER,
 S_ALONE_DEFENDER, S_TRICKS, S_SIDE_TRICKS, S_POINTS, S_N_PLAYS) = (
    SMALL_COLUMNS.index(name) for name in (
        "dealer", "upcard", "trump", "maker", "bid_round", "picked_up", "discard", "alone_maker",
        "alone_defender", "tricks0", "side_tricks0", "points0", "n_plays"))
N_SMALL = len(SMALL_COLUMNS)
# totals[row, side] (int16, game mode; hands mode passes a (rows, 0) array): running scores

GAME_ROW = game_row()

HAND_COLUMNS = (
    ["seed", "deal", "game", "hand_no", "dealer"]
    + [f"hand{s}" for s in range(N_SEATS)]
    + ["kitty", "upcard", "trump", "maker", "bid_round", "picked_up", "discard",
       "alone_maker", "alone_defender"]
    + [f"tricks{s}" for s in range(N_SEATS)]
    + ["side_tricks0", "side_tricks1", "points0", "points1", "total0", "total1"]
)
GAME_COLUMNS = ["seed", "game", "hands", "final0", "final1", "winner"]
