"""Spades policies.

A play policy is a jitted function ``policy(seat, hand, legal, view, st) -> card``: ``hand``
and ``legal`` are uint64 masks of card ids, ``view`` the public state (``layout.V_*``: bids,
blind flags, tricks won, cards played and by whom, voids shown, running scores), ``st`` the
per-deal random stream.  It returns a card id from ``legal``.  No policy ever receives another
seat's hand.

Bidding is split into the decisions an analysis may vary on their own:

* ``blind_nil`` (before looking: gets the view but no hand): ``auto`` (as the seat's bid
  policy), ``never``, ``heuristic`` (trailing badly), ``always``;
* ``nil`` (after looking): ``auto``, ``never``, ``heuristic`` (weak hand), ``always``;
* ``bid`` (the number, 1-13, when not nil): ``seat`` (the seat's play policy name; user play
  policies bid ``heuristic``), ``heuristic`` (sure tricks and spade length), ``random``;
* ``exchange`` (the three cards a blind-nil bidder and partner give each other): ``auto``,
  ``heuristic``, ``random``.

The ``random`` bid policy (with ``auto`` nil and blind nil) is uniform over every legal bid:
blind nil (when allowed), nil, 1 ... 13.
"""

import numba as nb
import numpy as np

from simcore.cards import bit, highest_bit, lowest_bit, popcount, suit_mask
from simcore.rng import below
from simcore.tricks import is_master
from simcore.games.spades.bits import select_bit
from simcore.games.spades.layout import (ALL_CARDS, SPADE_CARDS, SPADES, V_BIDS, V_LEADER,
                                         V_NPLAYED, V_PLAYED, V_TARGET, V_TOTAL, V_TRICK,
                                         V_TRICK_CARDS, V_TRICKS, V_VOIDS)

PLAY_POLICIES = {"random": 0, "heuristic": 1}
USER_POLICY = -1
BID_POLICIES = {"seat": -1, "heuristic": 1, "random": 0}
NIL_POLICIES = {"auto": 0, "never": 1, "heuristic": 2, "always": 3}
BLIND_NIL_POLICIES = {"auto": 0, "never": 1, "heuristic": 2, "always": 3}
EXCHANGE_POLICIES = {"auto": 0, "heuristic": 1, "random": 2}

# modes[...] of the kernels
M_NIL = 0
M_BLIND_NIL = 1
M_EXCHANGE = 2
M_WHATIF_NIL = 3  # --what-if nil: 0 off, 1 the first bidder bids nil, 2 it bids a number
N_MODES = 4
WHATIF_NIL_OPTIONS = ("nil", "bid")  # option o sets modes[M_WHATIF_NIL] = o + 1

_AUTO, _NEVER, _HEURISTIC, _ALWAYS = 0, 1, 2, 3
_BID_RANDOM, _BID_HEURISTIC = 0, 1

_A, _K, _Q, _J, _T = 12, 11, 10, 9, 8


# ---------------------------------------------------------------- small card helpers


@nb.njit(inline="always", cache=True)
def random_card(mask, st):
    """A uniform card of ``mask`` (one draw, even for a single card: no branch)."""
    return select_bit(mask, below(st, popcount(mask)))


@nb.njit(cache=True)
def lowest_card(mask):
    """The lowest-ranked card of ``mask`` (a lower suit, so a non-spade, on equal rank)."""
    best = -1
    best_rank = 99
    for s in range(4):
        m = suit_mask(mask, s)
        if m:
            r = lowest_bit(m)
            if r < best_rank:
                best_rank = r
                best = 13 * s + r
    return best


@nb.njit(cache=True)
def most_dangerous(mask):
    """The card most likely to win a trick later: the highest spade, else the highest card."""
    sp = suit_mask(mask, SPADES)
    if sp:
        return 13 * SPADES + highest_bit(sp)
    best = -1
    best_rank = -1
    for s in range(3):
        m = suit_mask(mask, s)
        if m:
            r = highest_bit(m)
            if r > best_rank:
                best_rank = r
                best = 13 * s + r
    return best


@nb.njit(cache=True)
def weakest(mask):
    """The card to throw away: the lowest non-spade (from the shorter suit on equal rank),
    the lowest spade only when nothing else is left."""
    best = -1
    best_key = 1 << 30
    for s in range(3):
        m = suit_mask(mask, s)
        if m:
            key = lowest_bit(m) * 16 + popcount(m)
            if key < best_key:
                best_key = key
                best = 13 * s + lowest_bit(m)
    if best >= 0:
        return best
    return 13 * SPADES + lowest_bit(suit_mask(mask, SPADES))


@nb.njit(cache=True)
def beaters(legal, best):
    """Cards of ``legal`` that beat the trick's best card ``best`` (SP-10)."""
    bs = best // 13
    shift = np.uint64(best % 13 + 1)
    out = ((suit_mask(legal, bs) >> shift) << shift) << np.uint64(13 * bs)
    if bs != SPADES:
        out |= legal & SPADE_CARDS
    return out


@nb.njit(cache=True)
def current_best(view, n):
    """(position, card) of the card winning the current trick's first ``n`` cards."""
    best_pos = 0
    best = view[V_TRICK_CARDS]
    for i in range(1, n):
        c = view[V_TRICK_CARDS + i]
        cs = c // 13
        bs = best // 13
        if (cs == bs and c > best) or (cs == SPADES and bs != SPADES):
            best = c
            best_pos = i
    return best_pos, best


@nb.njit(cache=True)
def holds(c, unseen, leader, pos, voids):
    """Will card ``c``, played at trick position ``pos``, keep the trick against the players
    still to play?  It must be the top unseen card of its suit and, unless it is a spade,
    no later opponent may be known void (or likely void) while spades are out.  ``voids``
    packs the suits each seat has shown void in, 4 bits per seat."""
    if not is_master(c, unseen):
        return False
    s = c // 13
    if s == SPADES or (unseen & SPADE_CARDS) == 0:
        return True
    me = (leader + pos) & 3
    later_opponents = 0
    for i in range(pos + 1, 4):
        other = (leader + i) & 3
        if (other - me) & 1:
            later_opponents += 1
            if (voids >> (4 * other + s)) & 1:
                return False
    return popcount(suit_mask(unseen, s)) >= later_opponents


@nb.njit(cache=True)
def nil_alive(view, seat):
    return view[V_BIDS + seat] == 0 and view[V_TRICKS + seat] == 0


@nb.njit(cache=True)
def side_need(view, a):
    """Tricks side member ``a`` and partner still need for their contract (<= 0: made)."""
    b = (a + 2) & 3
    need = 0
    if view[V_BIDS + a] > 0:
        need += view[V_BIDS + a] - view[V_TRICKS + a]
    if view[V_BIDS + b] > 0:
        need += view[V_BIDS + b] - view[V_TRICKS + b]
    return need


# ---------------------------------------------------------------- play policies


@nb.njit(inline="always", cache=True)
def random_play(seat, hand, legal, view, st):
    return random_card(legal, st)


@nb.njit(cache=True)
def heuristic_play(seat, hand, legal, view, st):
    """Duck as a nil bidder; cover a nil partner; attack a nil opponent; otherwise win the
    contract cheaply with masters, then avoid bags unless the opponents can still be set."""
    if (legal & (legal - np.uint64(1))) == 0:
        return lowest_bit(legal)
    n = view[V_NPLAYED]
    partner = (seat + 2) & 3
    unseen = ALL_CARDS & ~(np.uint64(hand) | np.uint64(view[V_PLAYED]))
    best_pos = 0
    best = -1
    best_seat = -1
    winners = np.uint64(0)
    if n > 0:
        best_pos, best = current_best(view, n)
        best_seat = (view[V_LEADER] + best_pos) & 3
        winners = beaters(legal, best)
    if view[V_BIDS + seat] == 0:
        return _nil_play(legal, n, winners)
    if nil_alive(view, partner):
        partner_played = ((partner - view[V_LEADER]) & 3) < n
        if n == 0:
            return _cover_lead(legal, unseen)
        if not partner_played:
            return most_dangerous(winners) if winners else weakest(legal)
        if best_seat == partner:
            return lowest_card(winners) if winners else weakest(legal)
    # a live nil opponent: let them win what they are winning, lead low at them
    o1 = (seat + 1) & 3
    o2 = (seat + 3) & 3
    nil_threat = nil_alive(view, o1) or nil_alive(view, o2)
    if nil_threat:
        if n == 0:
            return lowest_card(legal)
        if nil_alive(view, best_seat) and best_seat != seat:
            duck = legal & ~winners
            if duck:
                return most_dangerous(duck)
    remaining = 13 - view[V_TRICK]
    leader = view[V_LEADER]
    voids = (view[V_VOIDS] | view[V_VOIDS + 1] << 4 | view[V_VOIDS + 2] << 8
             | view[V_VOIDS + 3] << 12)
    opp_need = side_need(view, o1)
    want_win = side_need(view, seat) > 0 or (opp_need > 0 and opp_need <= remaining)
    if n == 0:
        return _lead(legal, unseen, leader, voids, want_win)
    if not want_win:
        duck = legal & ~winners
        if duck:
            return most_dangerous(duck)
        return most_dangerous(legal) if n == 3 else lowest_card(winners)
    if best_seat == partner and (n == 3 or holds(best, unseen, leader, n, voids)):
        return weakest(legal)
    if winners:
        if n == 3:
            return lowest_card(winners)
        sure = np.uint64(0)
        m = winners
        while m:
            c = lowest_bit(m)
            m &= m - np.uint64(1)
            if holds(c, unseen, leader, n, voids):
                sure |= bit(c)
        if sure:
            return lowest_card(sure)
        if best_seat != partner and (n == 2 or (winners & SPADE_CARDS and best // 13 != SPADES
                                               and view[V_TRICK_CARDS] // 13 != SPADES)):
            return lowest_card(winners)  # third hand high, or ruff
    return weakest(legal)


@nb.njit(cache=True)
def _nil_play(legal, n, winners):
    if n == 0:
        return lowest_card(legal)
    duck = legal & ~winners
    if duck:
        return most_dangerous(duck)
    if n == 3:
        return most_dangerous(legal)  # the trick is lost anyway: shed the biggest card
    return lowest_card(winners)  # someone after may still overtake


@nb.njit(cache=True)
def _cover_lead(legal, unseen):
    """Lead for a nil partner: a master if any, else the highest card."""
    for s in range(4):
        m = suit_mask(legal, s)
        if m:
            c = 13 * s + highest_bit(m)
            if is_master(c, unseen):
                return c
    best = -1
    best_rank = -1
    for s in range(4):
        m = suit_mask(legal, s)
        if m and highest_bit(m) > best_rank:
            best_rank = highest_bit(m)
            best = 13 * s + best_rank
    return best


@nb.njit(cache=True)
def _lead(legal, unseen, leader, voids, want_win):
    if not want_win:
        return lowest_card(legal)
    for s in range(3):
        m = suit_mask(legal, s)
        if m:
            c = 13 * s + highest_bit(m)
            if holds(c, unseen, leader, 0, voids):
                return c
    sp = suit_mask(legal, SPADES)
    if sp and (unseen & SPADE_CARDS):
        c = 13 * SPADES + highest_bit(sp)
        if is_master(c, unseen):
            return c  # draw the opponents' spades
    best_suit = -1
    best_len = 0
    for s in range(3):
        length = popcount(suit_mask(legal, s))
        if length > best_len:
            best_len = length
            best_suit = s
    if best_suit >= 0:
        return 13 * best_suit + lowest_bit(suit_mask(legal, best_suit))
    return lowest_card(legal)


@nb.njit(inline="always", cache=True)
def builtin_play(policy, seat, hand, legal, view, st):
    if policy == 1:
        return heuristic_play(seat, hand, legal, view, st)
    return random_play(seat, hand, legal, view, st)


# ---------------------------------------------------------------- bidding


@nb.njit(cache=True)
def estimate_tricks(hand):
    """Expected tricks of a hand, in tenths: side aces and guarded kings, top spades, spade
    length beyond three, and ruffs from short side suits."""
    sp = suit_mask(hand, SPADES)
    n_sp = popcount(sp)
    t = 0
    if sp >> np.uint64(_A) & np.uint64(1):
        t += 10
    if sp >> np.uint64(_K) & np.uint64(1) and n_sp >= 2:
        t += 9
    if sp >> np.uint64(_Q) & np.uint64(1) and n_sp >= 3:
        t += 7
    if n_sp > 3:
        t += 10 * (n_sp - 3)
    ruffs = 0
    for s in range(3):
        m = suit_mask(hand, s)
        length = popcount(m)
        if m >> np.uint64(_A) & np.uint64(1):
            t += 10 if length <= 5 else 6
        if m >> np.uint64(_K) & np.uint64(1) and length >= 2:
            t += 8 if length <= 4 else 4
        if m >> np.uint64(_Q) & np.uint64(1) and 3 <= length <= 4:
            t += 3
        if length == 0:
            ruffs += 10
        elif length == 1:
            ruffs += 6
        elif length == 2:
            ruffs += 2
    spare = max(0, min(n_sp, 3) - (1 if sp >> np.uint64(_A) & np.uint64(1) else 0))
    t += min(ruffs, 10 * spare)
    return t


@nb.njit(cache=True)
def nil_hand(hand, partner_bid):
    """A hand that should make nil: short low spades and no side card likely to win."""
    if partner_bid == 0:
        return False  # one nil per side
    sp = suit_mask(hand, SPADES)
    n_sp = popcount(sp)
    if n_sp >= 4 or sp >> np.uint64(_J):
        return False
    if n_sp == 3 and sp >> np.uint64(_T):
        return False
    for s in range(3):
        m = suit_mask(hand, s)
        length = popcount(m)
        if m >> np.uint64(_A) & np.uint64(1):
            return False
        if m >> np.uint64(_K) & np.uint64(1) and length <= 3:
            return False
        high = popcount(m >> np.uint64(_J))
        low = popcount(m & np.uint64(0x3F))  # 2 ... 7
        if high > 0 and low < 2 * high:
            return False
    return True


@nb.njit(cache=True)
def choose_blind_nil(bid_policy, mode, seat, view, st):
    """Blind nil, decided before looking at the hand (SP-6): the view only."""
    if mode == _AUTO:
        mode = _HEURISTIC if bid_policy == _BID_HEURISTIC else -1
    if mode == _NEVER:
        return False
    if mode == _ALWAYS:
        return True
    if mode == -1:
        return below(st, 15) == 0  # one of 15 equally likely bids
    side = seat & 1
    if view[V_BIDS + ((seat + 2) & 3)] == 0:
        return False
    deficit = view[V_TOTAL + 1 - side] - view[V_TOTAL + side]
    return deficit >= 200 or (deficit >= 100 and view[V_TOTAL + 1 - side] >= view[V_TARGET] - 100)


@nb.njit(cache=True)
def choose_bid(bid_policy, nil_mode, seat, hand, view, st):
    """The bid, 0 (nil) ... 13, after looking (SP-4, SP-5)."""
    if nil_mode == _AUTO:
        nil_mode = _HEURISTIC if bid_policy == _BID_HEURISTIC else -1
    if nil_mode == _ALWAYS:
        return 0
    if nil_mode == -1:
        if below(st, 14) == 0:  # nil as one of 14 equally likely bids
            return 0
    elif nil_mode == _HEURISTIC and nil_hand(hand, view[V_BIDS + ((seat + 2) & 3)]):
        return 0
    if bid_policy != _BID_HEURISTIC:
        return 1 + below(st, 13)
    bid = (estimate_tricks(hand) + 5) // 10
    partner_bid = view[V_BIDS + ((seat + 2) & 3)]
    if partner_bid > 0:
        bid = min(bid, 13 - partner_bid)
    return max(1, min(13, bid))


@nb.njit(cache=True)
def choose_exchange(policy, hand, blind_bidder, st):
    """The three cards a seat gives its partner in a blind-nil exchange (SP-6).

    Heuristic: the blind-nil bidder gives its three most dangerous cards (top spades first),
    the partner its three lowest non-spades.
    """
    give = np.uint64(0)
    rest = np.uint64(hand)
    for _ in range(3):
        if policy == 2:
            c = random_card(rest, st)
        elif blind_bidder:
            c = most_dangerous(rest)
        else:
            c = weakest(rest)
        give |= bit(c)
        rest &= ~bit(c)
    return give
