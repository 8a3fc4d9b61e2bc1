"""Trump Friend policies.

A play policy is a jitted function ``policy(seat, hand, legal, view, st) -> card``:
``hand`` and ``legal`` are uint64 masks of internal card ids (see ``layout``), ``view`` is the
public state (TF-5.5: nothing in it is hidden from any seat), ``st`` the per-deal random
stream.  It returns an internal card id from ``legal``.  A policy never receives another
seat's hand, so a seat cannot see more than TF-5.5 allows.

Declaration policies choose the trump (``trump``: longest, strongest, notrump, random) and the
friend card (``friend``: highest, none, random) from the declarer's hand alone (the searching
calls, ``pimc``, are in ``pimc``).
"""

import numba as nb
import numpy as np

from simcore.cards import bit, highest_bit, lowest_bit, nth_bit, popcount, suit_mask
from simcore.rng import below
from simcore.tricks import is_master, trick_winner_at
from simcore.games.trump_friend.layout import (NO_TRUMP, N_SEATS, ONE_POINT, POINT_CARDS,
                                               TWO_POINTS, V_DECLARER, V_FRIEND_CARD,
                                               V_FRIEND_SEAT, V_LEADER, V_NPLAYED, V_PLAYED,
                                               V_TRICK_CARDS, V_TRUMP)

PLAY_POLICIES = {"random": 0, "heuristic": 1}
USER_POLICY = -1
TRUMP_POLICIES = {"longest": 0, "strongest": 1, "notrump": 2, "random": 3}
FORCED_TRUMP = 10  # internal trump "policy" FORCED_TRUMP + t always calls t (what-if runs)
FRIEND_POLICIES = {"highest": 0, "none": 1, "random": 2, "random_any": 3}
FORCED_FRIEND = 10  # internal friend "policy" FORCED_FRIEND + k: policy k, forced (what-if runs)

_ALL = np.uint64((1 << 52) - 1)
_SUIT = np.uint64(0x1FFF)


# ---------------------------------------------------------------- small card helpers


@nb.njit(inline="always", cache=True)
def card_points(c):
    """TF-11 points of a card (A 2, K Q J 1), without a branch."""
    return np.int64(((TWO_POINTS >> np.uint64(c)) & np.uint64(1)) * np.uint64(2)
                    + ((ONE_POINT >> np.uint64(c)) & np.uint64(1)))


# the ranks 0-12 whose index has bit k set, as 13-bit masks (for rank_sum)
_PLANE0, _PLANE1, _PLANE2, _PLANE3 = (np.uint64(sum(1 << r for r in range(13) if r >> k & 1))
                                      for k in range(4))


@nb.njit(inline="always", cache=True)
def rank_sum(m):
    """Sum of the ranks (bit positions 0-12) set in a 13-bit suit mask, without a loop."""
    return (popcount(m & _PLANE0) + 2 * popcount(m & _PLANE1) + 4 * popcount(m & _PLANE2)
            + 8 * popcount(m & _PLANE3))


@nb.njit(inline="always", cache=True)
def random_card(mask, st):
    return nth_bit(mask, below(st, popcount(mask)))


# one card of each suit at rank 0 (shift left by r for rank r)
_RANK_COLUMN = np.uint64(1 | 1 << 13 | 1 << 26 | 1 << 39)


@nb.njit(inline="always", cache=True)
def lowest_rank_card(pool):
    """The card of lowest rank in a non-empty ``pool``, the lowest suit among equal ranks."""
    ranks = (pool | (pool >> np.uint64(13)) | (pool >> np.uint64(26)) | (pool >> np.uint64(39))) & _SUIT
    return lowest_bit(pool & (_RANK_COLUMN << np.uint64(lowest_bit(ranks))))


@nb.njit(cache=True)
def weakest(mask, trump):
    """The card to throw away: a non-trump, non-point card of lowest rank if any,
    then a non-trump point card, then the lowest trump."""
    trumps = np.uint64(0)
    if trump != NO_TRUMP:
        trumps = _SUIT << np.uint64(13 * trump)
    for pool in (mask & ~trumps & ~POINT_CARDS, mask & ~trumps & ONE_POINT, mask & ~trumps, mask):
        if pool:
            return lowest_rank_card(pool)
    return lowest_bit(mask)


@nb.njit(cache=True)
def relation(me, other, hand, declarer, friend_card, friend_seat):
    """+1 known partner, -1 known opponent, 0 unknown, as seat ``me`` can tell (TF-5.5) from
    the view's declarer, friend card and friend seat.

    Scalars, not the view: an array argument of a function that is not inlined costs atomic
    reference-count updates on every call (``heuristic_play`` itself is inlined for that
    reason: around its calls they took a seventh of a heuristic round's time).
    """
    if me == other:
        return 1
    if friend_card < 0:  # no friend: declarer alone against four
        if me == declarer or other == declarer:
            return -1
        return 1
    i_hold = (hand & bit(friend_card)) != 0
    if me == declarer:
        if i_hold:  # own card named: the declarer's team is the declarer alone (TF-5.4)
            return -1
        if friend_seat >= 0:
            return 1 if other == friend_seat else -1
        return 0
    if i_hold or friend_seat == me:  # I am the friend
        return 1 if other == declarer else -1
    if other == declarer or other == friend_seat:
        return -1
    if friend_seat >= 0:
        return 1
    return 0


# ---------------------------------------------------------------- play policies


@nb.njit(inline="always", cache=True)
def random_play(seat, hand, legal, view, st):
    return random_card(legal, st)


@nb.njit(inline="always", cache=True)
def heuristic_play(seat, hand, legal, view, st):
    """Lead winners; win point tricks cheaply; feed a known partner; never feed opponents."""
    trump = view[V_TRUMP]
    n = view[V_NPLAYED]
    unseen = _ALL & ~(hand | np.uint64(view[V_PLAYED]))
    safe = _safe_cards(unseen, trump)
    if n == 0:
        return _lead(legal, trump, unseen, safe)
    best_pos = trick_winner_at(view, V_TRICK_CARDS, n, trump)
    best = view[V_TRICK_CARDS + best_pos]
    best_seat = (view[V_LEADER] + best_pos) % N_SEATS
    last = n == N_SEATS - 1
    trick_points = 0
    for i in range(n):
        trick_points += card_points(view[V_TRICK_CARDS + i])
    if relation(seat, best_seat, hand, view[V_DECLARER], view[V_FRIEND_CARD],
                view[V_FRIEND_SEAT]) == 1:
        if last or (safe >> np.uint64(best)) & np.uint64(1):
            feed = legal & POINT_CARDS
            if feed:
                return _most_points(feed)
        return weakest(legal, trump)
    winners = legal & _beaters(best, trump)
    if winners and (trick_points > 0 or last or (legal & POINT_CARDS) == legal):
        if last:
            return _cheapest_winner(winners)
        if winners & safe:
            return _cheapest_winner(winners & safe)
    return weakest(legal, trump)


@nb.njit(inline="always", cache=True)
def _safe_cards(unseen, trump):
    """Every card that would keep a trick once played: the top card of its suit among the
    ``unseen`` ones (not played, not held) and, unless it is a trump, only while nobody may
    still trump it (we assume they can while trumps are unseen).  Bit-parallel: per suit,
    the cards above the highest unseen one (all of it when none is unseen)."""
    masters = np.uint64(0)
    for s in range(4):
        top = highest_bit(suit_mask(unseen, s))  # -1 when none of the suit is unseen
        masters |= (_SUIT & ~(bit(top + 1) - np.uint64(1))) << np.uint64(13 * s)
    if trump != NO_TRUMP and suit_mask(unseen, trump) != 0:
        masters &= _SUIT << np.uint64(13 * trump)
    return masters


@nb.njit(inline="always", cache=True)
def _beaters(best, trump):
    """Every card that beats ``best``, the trick's winning card so far (as ``beats``): the
    higher cards of its suit, and every trump if it is not one."""
    bs = best // 13
    above = (_SUIT << np.uint64(13 * bs)) & ~((bit(best) << np.uint64(1)) - np.uint64(1))
    if trump != NO_TRUMP and bs != trump:
        above |= _SUIT << np.uint64(13 * trump)
    return above


@nb.njit(cache=True)
def _cheapest_winner(winners):
    """Lowest-ranked winning card, preferring ones that carry no points."""
    plain = winners & ~POINT_CARDS
    return lowest_rank_card(plain if plain else winners)


@nb.njit(cache=True)
def _most_points(mask):
    if mask & TWO_POINTS:
        return lowest_bit(mask & TWO_POINTS)
    return lowest_bit(mask & ONE_POINT)


@nb.njit(cache=True)
def _lead(legal, trump, unseen, safe):
    # Masters first: a side-suit master when trumps are gone or absent (the lowest suit's),
    # else a trump master.
    tops = np.uint64(0)
    for s in range(4):
        top = suit_mask(legal, s)
        if s != trump and top:
            tops |= bit(13 * s + highest_bit(top))
    if tops & safe:
        return lowest_bit(tops & safe)
    if trump != NO_TRUMP and suit_mask(legal, trump):
        c = 13 * trump + highest_bit(suit_mask(legal, trump))
        if is_master(c, unseen) and suit_mask(unseen, trump):
            return c
    # Otherwise a low card of the longest side suit (the lowest suit of equal length),
    # keeping points back.
    best = np.int64(-1)
    for s in range(4):
        if s != trump:
            best = max(best, popcount(suit_mask(legal, s)) * 4 + 3 - s)
    if best >= 4:  # a side suit with at least one card
        return weakest(legal & (_SUIT << np.uint64(13 * (3 - (best & 3)))), trump)
    return weakest(legal, trump)


@nb.njit(inline="always", cache=True)
def builtin_play(policy, seat, hand, legal, view, st):
    if policy == 1:
        return heuristic_play(seat, hand, legal, view, st)
    return random_play(seat, hand, legal, view, st)


# ---------------------------------------------------------------- declaration policies


@nb.njit(inline="always", cache=True)
def choose_trump(policy, hand, st):
    """Trump call (TF-5.1) from the declarer's hand: a suit 0-3 or NO_TRUMP."""
    if policy >= FORCED_TRUMP:
        return policy - FORCED_TRUMP
    if policy == 2:
        return NO_TRUMP
    if policy == 3:
        return below(st, 5)
    # longest: length first, rank total breaks ties; strongest: the rank total.  The lowest
    # suit wins a full tie: each key carries 3 - suit in its low bits, and the largest wins.
    length_weight = 1000 if policy == 0 else 1
    strength_weight = 1 if policy == 0 else 100
    best = np.int64(0)
    for s in range(4):
        m = suit_mask(hand, s)
        length = popcount(m)
        strength = rank_sum(m) + length  # ranks counted from 1
        best = max(best, (length * length_weight + strength * strength_weight) * 4 + 3 - s)
    return 3 - (best & 3)


@nb.njit(inline="always", cache=True)
def choose_friend(policy, hand, trump, st):
    """Friend call (TF-5.2): an internal card id, or -1 for no friend.

    ``highest``: the strongest card of the trump suit (of the longest suit in no trump) that
    the declarer does not hold.  ``random``: uniform over no friend and the 42 cards not held.
    ``random_any``: uniform over no friend and all 52 cards, the declarer's own included
    (TF-5.4; with ``allow_own_card=false`` the engine overrules an own card).
    ``FORCED_FRIEND + k`` is policy k (a what-if run's forced call, which a searching
    declarer obeys too).
    """
    if policy >= FORCED_FRIEND:
        policy -= FORCED_FRIEND
    if policy == 1:
        return -1
    if policy == 3:
        k = below(st, 53)
        return -1 if k == 52 else k
    if policy == 2:
        k = below(st, 43)
        if k == 42:
            return -1
        return nth_bit(_ALL & ~hand, k)
    suit = trump
    if suit == NO_TRUMP:
        suit = 0
        best_len = -1
        for s in range(4):
            length = popcount(suit_mask(hand, s))
            if length > best_len:
                best_len = length
                suit = s
    missing = (~suit_mask(hand, suit)) & _SUIT
    if missing == 0:  # holds the whole suit: ask for the best card missing anywhere
        return highest_bit(_ALL & ~hand)
    return 13 * suit + highest_bit(missing)
