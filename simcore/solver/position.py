"""Solver card ids and the small questions asked of a position: whose card, which cards are
legal, who wins a trick, what is left to win.

A solver card id is ``16 * suit + strength``: within a suit a higher bit is a stronger card
under the game's rank order, and each suit is one aligned 16-bit field of a hand's uint64
(:func:`suit_field`).  The engines use ``13 * suit + strength`` (:mod:`simcore.tricks`), which
packs 52 cards into the public masks' bits; the solver widens them once per solve
(:func:`widen`) because the search reads hands suit by suit on every node (masks, popcounts and
relative ranks of one field, the table key's per-suit compression), and a 16-bit field makes
each of those a shift instead of a division by 13 (``narrow_card`` maps a card back).

Trick resolution: the engines resolve a trick with :func:`simcore.tricks.trick_winner_at` over
their own ids, in a fixed seat order; the solver's :func:`resolve_trick` walks the seats in
play (``C_NEXT``: a seat that sits out is skipped) and adds up the trick's card points in the
same pass, over solver ids.  Both apply the same rule (:func:`beats`: a higher card of the
suit of the trick's best card, or a trump over a non-trump).
"""

from __future__ import annotations

import numba as nb
import numpy as np

from simcore.cards import bit, highest_bit, popcount
from simcore.solver.context import (
    C_CONST, C_COUNT, C_HASPTS, C_NACTIVE, C_NEXT, C_NSEATS, C_PMASK, C_POINTS, C_RESTRICT,
    C_TRUMP,
)

SUIT_FIELD = np.uint64(0xFFFF)


@nb.njit(inline="always", cache=True)
def suit_bits(suit):
    return SUIT_FIELD << np.uint64(16 * suit)


@nb.njit(inline="always", cache=True)
def suit_field(mask, suit):
    return (mask >> np.uint64(16 * suit)) & SUIT_FIELD


@nb.njit(inline="always", cache=True)
def beats(c, best, trump):
    cs = c >> 4
    bs = best >> 4
    if cs == bs:
        return c > best
    return cs == trump


@nb.njit(inline="always", cache=True)
def holder_of(hands, c):
    for t in range(4):
        if (hands[t] >> np.uint64(c)) & np.uint64(1):
            return t
    return -1


@nb.njit(inline="always", cache=True)
def cards_in_hands(ctx, hands):
    u = np.uint64(0)
    for s in range(ctx[C_NSEATS]):
        u |= hands[s]
    return u


@nb.njit(cache=True, _nrt=False)
def legal_cards(ctx, hands, stack, start, tlen, mover, broken):
    h = hands[mover]
    if tlen > 0:
        same = h & suit_bits(stack[start] >> 4)
        return same if same else h
    r = ctx[C_RESTRICT]
    if r >= 0 and not broken:
        other = h & ~suit_bits(r)
        return other if other else h
    return h


@nb.njit(inline="always", cache=True)
def leader_view(ctx, hands, leader, broken):
    """(the cards of every seat but the leader; the suit the leader may not lead, -1 if none:
    the restricted suit while it is not broken and the leader holds other cards)."""
    others = np.uint64(0)
    for seat in range(ctx[C_NSEATS]):
        if seat != leader:
            others |= hands[seat]
    banned = ctx[C_RESTRICT]
    if banned < 0 or broken or (hands[leader] & ~suit_bits(banned)) == 0:
        banned = -1
    return others, banned


@nb.njit(inline="always", cache=True)
def seat_to_play(ctx, leader, tlen):
    """The seat to play after ``tlen`` cards of the trick ``leader`` led."""
    seat = leader
    for _ in range(tlen):
        seat = ctx[C_NEXT + seat]
    return seat


@nb.njit(inline="always", cache=True)
def trick_winner(ctx, stack, start, n_cards, leader):
    """(the best card of the trick stack[start:start+n] so far, the seat that played it), led
    by ``leader``."""
    trump = ctx[C_TRUMP]
    best = stack[start]
    winner = leader
    seat = leader
    for i in range(1, n_cards):
        seat = ctx[C_NEXT + seat]
        if beats(stack[start + i], best, trump):
            best = stack[start + i]
            winner = seat
    return best, winner


@nb.njit(cache=True, _nrt=False)
def resolve_trick(ctx, stack, start, n_cards, leader):
    """(winning seat, value for the count side) of the complete trick stack[start:start+n]."""
    _, winner = trick_winner(ctx, stack, start, n_cards, leader)
    if (ctx[C_COUNT] >> winner) & 1:
        pts = 0
        for i in range(n_cards):
            pts += ctx[C_POINTS + stack[start + i]]
        return winner, ctx[C_CONST] + pts
    return winner, 0


@nb.njit(inline="always", cache=True)
def points_of(ctx, mask):
    """The points of the cards of ``mask`` (card points 0-15 a card), by the point masks."""
    return (popcount(mask & np.uint64(ctx[C_PMASK]))
            + 2 * popcount(mask & np.uint64(ctx[C_PMASK + 1]))
            + 4 * popcount(mask & np.uint64(ctx[C_PMASK + 2]))
            + 8 * popcount(mask & np.uint64(ctx[C_PMASK + 3])))


@nb.njit(inline="always", cache=True)
def point_cards(ctx):
    return (np.uint64(ctx[C_PMASK]) | np.uint64(ctx[C_PMASK + 1]) | np.uint64(ctx[C_PMASK + 2])
            | np.uint64(ctx[C_PMASK + 3]))


@nb.njit(cache=True, _nrt=False)
def upper_bound(ctx, hands, stack, start, tlen):
    """Most the count side could still get: every remaining trick and every point in play."""
    u = cards_in_hands(ctx, hands)
    tricks = (popcount(u) + tlen) // ctx[C_NACTIVE]
    hi = tricks * ctx[C_CONST]
    if ctx[C_HASPTS]:
        hi += points_of(ctx, u)
        for i in range(tlen):
            hi += ctx[C_POINTS + stack[start + i]]
    return hi


@nb.njit(inline="always", cache=True)
def kth_highest(hand, suit, k):
    """The k-th highest card of ``suit`` in ``hand``, as a one-card mask."""
    hs = suit_field(hand, suit)
    for _ in range(k - 1):
        hs &= ~(np.uint64(1) << np.uint64(highest_bit(hs)))
    return bit(16 * suit + highest_bit(hs))


@nb.njit(inline="always", cache=True)
def top_count(hand, others, suit):
    """The cards of ``suit`` in ``hand`` above all of ``others`` (all of them when nobody else
    holds the suit)."""
    hs = suit_field(hand, suit)
    os_ = suit_field(others, suit)
    if os_ == 0:
        return popcount(hs)
    return popcount(hs >> np.uint64(highest_bit(os_) + 1))


@nb.njit(cache=True, _nrt=False)
def trick_relevant(ctx, stack, start, n_cards):
    """The winning card of the trick stack[start:start+n] if it won on rank over a card of its
    own suit (a trick won by the only card of its suit would be won the same by any rank)."""
    trump = ctx[C_TRUMP]
    best = stack[start]
    for i in range(1, n_cards):
        if beats(stack[start + i], best, trump):
            best = stack[start + i]
    for i in range(n_cards):
        c = stack[start + i]
        if c != best and (c >> 4) == (best >> 4):
            return bit(best)
    return np.uint64(0)


@nb.njit(cache=True)
def widen(mask):
    """A hand in ``13 * suit + strength`` ids as solver ids ``16 * suit + strength``."""
    m = np.uint64(mask)
    out = np.uint64(0)
    for s in range(4):
        out |= ((m >> np.uint64(13 * s)) & np.uint64(0x1FFF)) << np.uint64(16 * s)
    return out


@nb.njit(inline="always", cache=True)
def narrow_card(c):
    """A solver id back as ``13 * suit + strength``."""
    return 13 * (c >> 4) + (c & 15)
