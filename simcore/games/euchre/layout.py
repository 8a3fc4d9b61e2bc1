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

N_SEATS = 4
N_TRICKS = 5
HAND_SIZE = 5
N_CARDS = 24
JACK = 2  # base strength of a jack
LEFT = 6  # trump-order strength of the left bower
RIGHT = 7  # trump-order strength of the right bower
INTERNAL_IDS = 48  # every internal id (either order) is below 13 * 3 + 8

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

# ---------------------------------------------------------------- row records
# Scalar columns only; per-seat columns (hand0..3, tricks0..3, points0..1, total0..1) live in
# (rows, k) arrays beside them (Numba does not reliably write nested record fields in prange).
_HAND_FIELDS = [
    ("dealer", np.int8),
    ("kitty", np.uint64),
    ("upcard", np.int8),
    ("trump", np.int8),
    ("maker", np.int8),
    ("bid_round", np.int8),
    ("picked_up", np.bool_),
    ("discard", np.int8),
    ("alone_maker", np.int8),
    ("alone_defender", np.int8),
    ("n_plays", np.int8),
]
HAND_ROW = np.dtype([("seed", np.uint64), ("deal", np.uint64)] + _HAND_FIELDS, align=True)
GAME_HAND_ROW = np.dtype(
    [("seed", np.uint64), ("deal", np.uint64), ("game", np.uint64), ("hand_no", np.uint16)]
    + _HAND_FIELDS,
    align=True,
)
GAME_ROW = np.dtype(
    [("seed", np.uint64), ("game", np.uint64), ("hands", np.uint16), ("winner", np.int8)],
    align=True,
)

HAND_COLUMNS = (
    ["seed", "deal", "game", "hand_no", "dealer"]
    + [f"hand{s}" for s in range(N_SEATS)]
    + ["kitty", "upcard", "trump", "maker", "bid_round", "picked_up", "discard",
       "alone_maker", "alone_defender"]
    + [f"tricks{s}" for s in range(N_SEATS)]
    + ["side_tricks0", "side_tricks1", "points0", "points1", "total0", "total1"]
)
GAME_COLUMNS = ["seed", "game", "hands", "final0", "final1", "winner"]
