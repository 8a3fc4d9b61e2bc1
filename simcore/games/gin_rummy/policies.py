"""Gin Rummy policies.

A play policy is a jitted function ``policy(kind, seat, hand, view, st) -> int``:
``kind`` is the question (``layout.K_*``), ``hand`` the seat's own public-order uint64 mask
(11 cards when asked to discard, 10 otherwise), ``view`` the observation (``layout.V_*``: the
discard pile, the opponent's visible picks and discards, stock size; never the opponent's
hand or the stock), ``st`` the policies' random stream (see
``simcore.melds.gin_deadwood(hand)`` for deadwood).

Built-in: ``random`` (every question uniform over its legal answers; a knock is one of two
answers whenever it is legal) and ``heuristic`` (takes a card only to meld it or for a large
deadwood gain, discards to minimise deadwood while keeping back cards the opponent visibly
collects, knocks only with gin, or at the ``knock`` decision's threshold) and ``expert`` (hand reading, defensive
discards and knock timing: :mod:`simcore.games.gin_rummy.expert`).
"""

import numba as nb
import numpy as np

from simcore.cards import bit, lowest_bit, nth_bit, popcount
from simcore.melds import (gin_best_discard, gin_deadwood, gin_loose, meldable, spread_ranks,
                           to_sequence)
from simcore.rng import below
from simcore.games.gin_rummy.expert import PARAMS as EXPERT_PARAMS
from simcore.games.gin_rummy.expert import expert_play
from simcore.games.gin_rummy.layout import (K_DISCARD, K_DRAW, K_KNOCK, K_UPCARD, V_DEADWOOD,
                                            V_KNOCK_AT, V_KNOCK_LIMIT, V_OPP_PICKS, V_TAKEN,
                                            V_TAKEN_LOCKED, V_TOP)

PLAY_POLICIES = {"random": 0, "heuristic": 1, "expert": 2}
USER_POLICY = -1
# The ``knock`` decision: the heuristic knocks when its deadwood is at most this, never above
# the rules' knock_limit (``limit``: the policy's own timing).
KNOCK_POLICIES = {"limit": -1, "gin_only": 0} | {f"at{k}": k for k in range(1, 11)}
# The heuristic's own timing: gin only.  Against itself and against dealers knocking at 7, 4, 1
# or gin, its net points a hand are highest waiting for gin (the knock what-if, docs/games/gin_rummy.md).
HEURISTIC_KNOCK_AT = 0

TAKE_GAIN = 8  # the heuristic takes an unmelding card only if deadwood drops by this much

_ONE = np.uint64(1)


@nb.njit(inline="always", cache=True)
def random_policy(kind, seat, hand, view, st):
    if kind == K_DISCARD:
        allowed = np.uint64(hand)
        if view[V_TAKEN] >= 0 and view[V_TAKEN_LOCKED]:
            allowed &= ~bit(view[V_TAKEN])
        return nth_bit(allowed, below(st, popcount(allowed)))
    return below(st, 2)


@nb.njit(inline="always", cache=True)
def _card_value(c):
    r = c % 13
    return 1 if r == 12 else min(r + 2, 10)


@nb.njit(inline="always", cache=True)
def _dangerous(c, opp_picks):
    """Would card c help the opponent's known picks (same rank, or a suit neighbour)?"""
    if opp_picks == 0:
        return False
    seq = to_sequence(bit(c), True)
    picks = to_sequence(opp_picks, True)
    p = lowest_bit(seq)
    same_rank = spread_ranks(_ONE << np.uint64(p % 13)) & picks
    near = np.uint64(0)
    if p % 13 > 0:
        near |= seq >> _ONE
    if p % 13 < 12:
        near |= seq << _ONE
    return (same_rank | (near & picks)) != 0


@nb.njit(inline="always", cache=True)
def best_heuristic_discard(hand, taken, opp_picks):
    """The discard leaving the least deadwood, 5 points of caution charged for a card the
    opponent visibly collects; ties go to the higher card value.

    A card that melds with nothing is deadwood in every arrangement, so dropping it lowers
    the deadwood by exactly its value: only meldable cards need a search."""
    h = np.uint64(hand)
    loose = gin_loose(h)
    base = gin_deadwood(h)
    best = -1
    best_score = np.int64(1 << 30)
    best_val = -1
    m = h
    while m:
        c = lowest_bit(m)
        m &= m - _ONE
        if c == taken:
            continue
        v = _card_value(c)
        if loose & bit(c):
            score = base - v
        else:
            score = gin_deadwood(h & ~bit(c))
        if _dangerous(c, opp_picks):
            score += 5
        if score < best_score or (score == best_score and v > best_val):
            best = c
            best_score = score
            best_val = v
    return best


@nb.njit(inline="always", cache=True)
def _worth_taking(hand, card):
    """The card melds in the hand, or taking it (and discarding well) cuts deadwood a lot."""
    h = np.uint64(hand)
    with_card = h | bit(card)
    if meldable(to_sequence(with_card, True)) & to_sequence(bit(card), True):
        return True
    _, best, _, _ = gin_best_discard(with_card, bit(card), 10)
    return gin_deadwood(h) - best >= TAKE_GAIN


@nb.njit(inline="always", cache=True)
def heuristic_policy(kind, seat, hand, view, st):
    if kind == K_UPCARD or kind == K_DRAW:
        top = view[V_TOP]
        if top < 0:
            return 0
        return 1 if _worth_taking(hand, top) else 0
    if kind == K_DISCARD:  # never the card just taken, even where the rules allow it
        return best_heuristic_discard(hand, view[V_TAKEN], np.uint64(view[V_OPP_PICKS]))
    at = view[V_KNOCK_AT]
    if at < 0:
        at = HEURISTIC_KNOCK_AT
    return 1 if view[V_DEADWOOD] <= min(at, view[V_KNOCK_LIMIT]) else 0


@nb.njit(cache=True)
def builtin_play(policy, kind, seat, hand, view, st):
    if policy == 1:
        return heuristic_policy(kind, seat, hand, view, st)
    if policy == 2:
        return expert_play(kind, seat, hand, view, st, EXPERT_PARAMS)
    return random_policy(kind, seat, hand, view, st)
