"""Euchre policies: card play and the bidding decisions (EU-7 ... EU-12).

A **play policy** is a jitted ``policy(seat, hand, legal, view, st) -> card``: ``hand`` and
``legal`` are uint64 masks of trump-order card ids (see ``layout``), ``view`` the public state
(``layout.V_*``: trump, maker, lone players, every card played and by whom), ``st`` the
per-deal random stream.  It returns a card of ``legal``.  A policy never receives another
seat's hand.

**Decision policies** are chosen per decision and (with ``auto``) per seat; each sees only its
own hand, the upcard and the public actions so far:

* ``order_up(policy, seat, dealer, hand, upcard, st, ctx)`` round one (EU-7); hand and upcard
  in base order.  Every earlier seat passed (that is what reaching this seat means).
* ``name_trump(policy, seat, dealer, hand, banned, stuck, st, ctx)`` round two (EU-9, EU-10):
  a suit or -1 to pass; ``banned`` is the turned-down suit (-1 if it may be named),
  ``stuck`` is true for a dealer under stick-the-dealer.
* ``pickup(policy, hand, upcard, trump, st, view, ctx)`` the dealer's optional pick-up (EU-8).
* ``discard(policy, hand, upcard, trump, st, view, ctx)`` the dealer's discard from the six
  cards (never the upcard itself: leaving it is what ``pickup`` decides).
* ``go_alone(policy, seat, hand, view, st, ctx)`` EU-12, for the makers' side (decision
  ``alone``) and the defenders' side (decision ``defend_alone``); ``view`` holds trump, maker,
  dealer, upcard, pick-up and the lone players declared so far (pick-up and discard see trump,
  maker, dealer and upcard in it too).

``ctx`` is the kernel's search context (``engine.search_context``): the built-in policies
ignore it; the search policies (:mod:`simcore.games.euchre.pimc`) find their solver table and
sampler scratch in it.

Policy ids: 0 heuristic, 1 always, 2 never, 3 random, ``THRESHOLD + T`` = the heuristic's
hand-strength test with threshold T at every seat (names ``min20`` ... ``min100``).

The functions called per decision are ``inline="always"`` (they take the stream array) and
call only ordinary jitted functions on scalars (see :mod:`draws` for why).
"""

import numba as nb
import numpy as np

from simcore.cards import SUIT_BITS, bit, highest_bit, lowest_bit, popcount, suit_mask
from simcore.tricks import beating, beats, is_master
from simcore.games.euchre.deck import BASE_DECK, card_to_trump, to_trump
from simcore.games.euchre.draws import below, count, pick
from simcore.games.euchre.layout import (V_ACTIVE, V_MAKER, V_NPLAYED, V_PICKED_UP, V_PLAYED,
                                         V_TRICK_CARDS, V_TRICK_SEATS, V_TRUMP, V_UPCARD)

PLAY_POLICIES = {"random": 0, "heuristic": 1}
USER_POLICY = -1

HEURISTIC = 0
ALWAYS = 1
NEVER = 2
RANDOM = 3
THRESHOLD = 1000
AUTO = -1  # resolved per seat by the game package: random seats bid randomly, others heuristically
ORDER_UP_THRESHOLD = 55  # see docs/games/euchre.md
# The dealer's left orders up only at 70: it gives the upcard to the opponents and its order-up
# lost points on the hands scoring 55 to 69 (the order-up what-if, docs/games/euchre.md).
FIRST_SEAT_ORDER_UP_THRESHOLD = 70
NAME_TRUMP_THRESHOLD = 50

_THRESHOLDS = {f"min{t}": THRESHOLD + t for t in range(20, 105, 5)}
ORDER_UP_POLICIES = {"auto": AUTO, "heuristic": HEURISTIC, "always": ALWAYS, "never": NEVER,
                     "random": RANDOM, **_THRESHOLDS}
NAME_TRUMP_POLICIES = dict(ORDER_UP_POLICIES)
PICKUP_POLICIES = {"auto": AUTO, "heuristic": HEURISTIC, "always": ALWAYS, "never": NEVER,
                   "random": RANDOM}
DISCARD_POLICIES = {"auto": AUTO, "heuristic": HEURISTIC, "random": RANDOM}
ALONE_POLICIES = {"auto": AUTO, "heuristic": HEURISTIC, "always": ALWAYS, "never": NEVER,
                  "random": RANDOM}

# Rows of the (decision, seat) policy-id array the kernels receive.
D_ORDER_UP = 0
D_NAME_TRUMP = 1
D_PICKUP = 2
D_DISCARD = 3
D_ALONE = 4
D_DEFEND_ALONE = 5
DECISION_ROWS = ("order_up", "name_trump", "pickup", "discard", "alone", "defend_alone")
# Row D_WHATIF of the decision array holds a what-if run's forced decision: [kind, option, seat
# position, 0]; the position (1 = the dealer's left … 4 = the dealer) is the round-1 seat forced
D_WHATIF = 6
WHATIF_ORDER_UP = 1  # options: 0 "order" (the forced seat orders up), 1 "pass"
WHATIF_ALONE = 2  # options: 0 "alone" (the maker goes alone), 1 "partner" (the maker's side plays two)
# order-up what-ifs by the forced seat's position after the dealer: the earlier seats bid by
# their policies, so the forced seat decides only on deals where they all passed
WHATIF_POSITION = {"order-up": 1, "order-up-partner": 2, "order-up-right": 3, "order-up-dealer": 4}
WHATIF_OPTIONS = {**{name: ("order", "pass") for name in WHATIF_POSITION}, "alone": ("alone", "partner")}
WHATIF_KINDS = {**{name: WHATIF_ORDER_UP for name in WHATIF_POSITION}, "alone": WHATIF_ALONE}

# Hand-strength points of a trump by trump-order strength: 9, 10, (empty), Q, K, A, left, right.
_TRUMP_VALUE = np.array([12, 13, 0, 15, 17, 20, 25, 30], np.int64)
_TOP_DOWN = np.array([7, 6, 5, 4, 3, 1, 0], np.int64)
_OFF_ACE = 10
_VOID = 6
_ACE = 5


# ---------------------------------------------------------------- hand evaluation


@nb.njit(cache=True)
def hand_strength(hand, trump):
    """Bidding points of a trump-order hand: trumps by rank, off-suit aces, voids."""
    tm = suit_mask(hand, trump)
    n_trumps = popcount(tm)
    score = 0
    m = tm
    while m:
        score += _TRUMP_VALUE[lowest_bit(m)]
        m &= m - np.uint64(1)
    for s in range(4):
        if s == trump:
            continue
        sm = suit_mask(hand, s)
        if sm == 0:
            if n_trumps >= 2:
                score += _VOID
        elif sm >> np.uint64(_ACE):
            score += _OFF_ACE
    return score


@nb.njit(cache=True)
def top_trumps(hand, trump):
    """How many of the highest trumps (right bower down) the hand holds without a gap."""
    tm = suit_mask(hand, trump)
    n = 0
    for r in _TOP_DOWN:
        if not (tm >> np.uint64(r)) & np.uint64(1):
            break
        n += 1
    return n


@nb.njit(cache=True)
def lone_hand(hand, trump):
    """Strong enough to play alone: two top trumps and every card a trump or an ace,
    or five trumps with the right bower."""
    n_trumps = popcount(suit_mask(hand, trump))
    top = top_trumps(hand, trump)
    aces = 0
    for s in range(4):
        if s != trump and (suit_mask(hand, s) >> np.uint64(_ACE)):
            aces += 1
    return (top >= 2 and n_trumps + aces >= 5) or (top >= 1 and n_trumps == 5)


@nb.njit(cache=True)
def best_discard(hand, upcard, trump):
    """EU-8 discard: the weakest off-suit card, preferring to void a suit and to keep aces;
    the lowest trump only when every other card is a trump.  Never the upcard."""
    return _lowest_off_suit(hand & ~bit(upcard), trump, True)


@nb.njit(inline="always", cache=True)
def _lowest_off_suit(cards, trump, discard):
    """The lowest card of an off suit of ``cards``, the suits ranked by their lowest card and
    (``discard``) preferring a suit it voids and keeping aces, else preferring the shortest
    suit on ties; the lowest trump when ``cards`` holds nothing else."""
    best = -1
    best_key = 1 << 30
    for s in range(4):
        if s == trump:
            continue
        sm = suit_mask(cards, s)
        if sm:
            low = lowest_bit(sm)
            if discard:
                key = 100 * (low == _ACE) + 10 * (popcount(sm) != 1) + low
            else:
                key = 8 * low + popcount(sm)
            if key < best_key:
                best_key = key
                best = 13 * s + low
    if best >= 0:
        return best
    return 13 * trump + lowest_bit(suit_mask(cards, trump))


@nb.njit(cache=True)
def round_one_strength(seat, dealer, hand, upcard):
    """Strength of ordering up the upcard's suit, from ``seat``'s side of the table: the
    dealer counts the upcard in (after the discard), the dealer's partner half of it, the
    opponents lose half of it."""
    trump = upcard // 13
    h = to_trump(hand, trump)
    u = card_to_trump(upcard, trump)
    if seat == dealer:
        six = h | bit(u)
        return hand_strength(six & ~bit(best_discard(six, u, trump)), trump)
    value = _TRUMP_VALUE[u % 13] // 2
    if seat == (dealer + 2) % 4:
        return hand_strength(h, trump) + value
    return hand_strength(h, trump) - value


@nb.njit(cache=True)
def best_suit(hand, banned):
    """(suit, strength) of the strongest trump suit for a base-order hand, ``banned`` excluded."""
    best = -1
    best_score = -1
    for s in range(4):
        if s == banned:
            continue
        score = hand_strength(to_trump(hand, s), s)
        if score > best_score:
            best_score = score
            best = s
    return best, best_score


# ---------------------------------------------------------------- bidding decisions


@nb.njit(cache=True)
def _threshold(policy, default):
    return default if policy < THRESHOLD else policy - THRESHOLD


@nb.njit(inline="always", cache=True)
def order_up(policy, seat, dealer, hand, upcard, st, ctx):
    """EU-7: accept the upcard's suit as trump?"""
    if policy == RANDOM:
        return below(st, 2) == 1
    if policy == ALWAYS or policy == NEVER:
        return policy == ALWAYS
    threshold = _threshold(policy, ORDER_UP_THRESHOLD)
    if policy == HEURISTIC and seat == (dealer + 1) % 4:
        threshold = FIRST_SEAT_ORDER_UP_THRESHOLD
    return round_one_strength(seat, dealer, hand, upcard) >= threshold


@nb.njit(cache=True)
def _random_suit(k, banned):
    """The k-th suit other than ``banned``."""
    for s in range(4):
        if s == banned:
            continue
        if k == 0:
            return s
        k -= 1
    return -1


@nb.njit(inline="always", cache=True)
def name_trump(policy, seat, dealer, hand, banned, stuck, st, ctx):
    """EU-9, EU-10: a suit to name in round two, or -1 to pass (never -1 when ``stuck``)."""
    if policy == RANDOM:
        k = below(st, (0 if stuck else 1) + (3 if banned >= 0 else 4))
        if not stuck:
            k -= 1
        return _random_suit(k, banned) if k >= 0 else -1
    if policy == NEVER and not stuck:
        return -1
    suit, score = best_suit(hand, banned)
    if policy == ALWAYS or stuck or score >= _threshold(policy, NAME_TRUMP_THRESHOLD):
        return suit
    return -1


@nb.njit(cache=True)
def _pickup(policy, hand, upcard, trump):
    if policy == ALWAYS or policy == NEVER:
        return policy == ALWAYS
    # Taking it only hurts when the card to give up is a trump higher than the upcard.
    d = best_discard(hand | bit(upcard), upcard, trump)
    return d // 13 != trump or d < upcard


@nb.njit(inline="always", cache=True)
def pickup(policy, hand, upcard, trump, st, view, ctx):
    """EU-8: does the dealer (ordered up by another player) take the upcard?"""
    if policy == RANDOM:
        return below(st, 2) == 1
    return _pickup(policy, hand, upcard, trump)


@nb.njit(cache=True)
def _without(hand, c):
    return hand & ~bit(c)


@nb.njit(inline="always", cache=True)
def discard(policy, hand, upcard, trump, st, view, ctx):
    """EU-8: the dealer's discard from six cards (trump order), never the upcard."""
    if policy == RANDOM:
        pool = _without(hand, upcard)
        return pick(pool, below(st, count(pool)))
    return best_discard(hand, upcard, trump)


@nb.njit(inline="always", cache=True)
def go_alone(policy, seat, hand, view, st, ctx):
    """EU-12: does ``seat`` go alone?  (Asked only when its side has no lone player yet.)"""
    if policy == RANDOM:
        return below(st, 2) == 1
    if policy == ALWAYS or policy == NEVER:
        return policy == ALWAYS
    return lone_hand(hand, view[V_TRUMP])


# ---------------------------------------------------------------- play policies


@nb.njit(inline="always", cache=True)
def random_play(seat, hand, legal, view, st):
    return pick(legal, below(st, count(legal)))


@nb.njit(cache=True)
def weakest(legal, trump):
    """The card to throw: the lowest off-suit card (from the shortest suit on ties), else the
    lowest trump."""
    return _lowest_off_suit(legal, trump, False)


@nb.njit(cache=True)
def _holds(c, unseen, trump):
    """Will card c keep the trick against the cards still out?  It must be the top unseen
    card of its suit and, unless it is a trump, no trump may be left out."""
    if not is_master(c, unseen):
        return False
    return c // 13 == trump or suit_mask(unseen, trump) == 0


@nb.njit(cache=True)
def _lead(seat, hand, trump, unseen, maker):
    tm = suit_mask(hand, trump)
    if tm:
        top = 13 * trump + highest_bit(tm)
        if is_master(top, unseen) and suit_mask(unseen, trump):
            return top  # draw trumps with a certain winner
    for s in range(4):
        if s == trump:
            continue
        sm = suit_mask(hand, s)
        if sm:
            c = 13 * s + highest_bit(sm)
            if is_master(c, unseen):
                return c  # cash an off-suit master
    if tm and (seat - maker) % 2 == 0 and popcount(tm) >= 2:
        return 13 * trump + highest_bit(tm)  # makers pull trumps
    return weakest(hand, trump)


@nb.njit(cache=True)
def _follow(legal, trump, unseen, best, led, partner_winning, last, second_hand):
    if partner_winning and (last or _holds(best, unseen, trump)):
        return weakest(legal, trump)
    winners = beating(legal, best, trump)
    if winners == 0:
        return weakest(legal, trump)
    trumping_in = led != trump and ((winners >> np.uint64(13 * trump)) & SUIT_BITS) != 0
    if last or trumping_in:
        return lowest_bit(winners)  # the cheapest winner (trumping in: the lowest winning trump)
    safe = np.uint64(0)
    m = winners
    while m:
        c = lowest_bit(m)
        m &= m - np.uint64(1)
        if _holds(c, unseen, trump):
            safe |= bit(c)
    if safe:
        return lowest_bit(safe)
    if second_hand:
        return weakest(legal, trump)  # second hand low: the partner plays after us
    return highest_bit(winners)


@nb.njit(cache=True)
def heuristic_card(seat, hand, legal, trump, maker, n, played, in_kitty, active,
                   c0, c1, c2, c3, s0, s1, s2, s3):
    """The heuristic's card from scalars: the trick so far is c0.. (cards) and s0.. (seats)."""
    unseen = to_trump(BASE_DECK, trump) & ~(hand | np.uint64(played) | in_kitty)
    if n == 0:
        return _lead(seat, hand, trump, unseen, maker)
    best, best_seat = c0, s0
    if n > 1 and beats(c1, best, trump):
        best, best_seat = c1, s1
    if n > 2 and beats(c2, best, trump):
        best, best_seat = c2, s2
    partner = seat ^ 2
    second_hand = n == 1 and ((active >> partner) & 1) == 1 and s0 != partner
    return _follow(legal, trump, unseen, best, c0 // 13, best_seat == partner,
                   n == popcount(active) - 1, second_hand)


@nb.njit(inline="always", cache=True)
def heuristic_play(seat, hand, legal, view, st):
    """Draw trumps with masters, cash masters, win cheaply, never overtake a partner's sure
    winner, throw the weakest card otherwise."""
    in_kitty = np.uint64(0)
    if not view[V_PICKED_UP]:
        in_kitty = np.uint64(1) << np.uint64(view[V_UPCARD])  # the turned card lies in the kitty
    return heuristic_card(seat, hand, legal, view[V_TRUMP], view[V_MAKER], view[V_NPLAYED],
                          view[V_PLAYED], in_kitty, view[V_ACTIVE],
                          view[V_TRICK_CARDS], view[V_TRICK_CARDS + 1],
                          view[V_TRICK_CARDS + 2], view[V_TRICK_CARDS + 3],
                          view[V_TRICK_SEATS], view[V_TRICK_SEATS + 1],
                          view[V_TRICK_SEATS + 2], view[V_TRICK_SEATS + 3])


@nb.njit(inline="always", cache=True)
def builtin_play(policy, seat, hand, legal, view, st):
    if policy == 1:
        return heuristic_play(seat, hand, legal, view, st)
    return random_play(seat, hand, legal, view, st)
