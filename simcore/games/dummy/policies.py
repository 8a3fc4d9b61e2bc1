"""Dummy policies.

A play policy is a jitted function ``policy(kind, seat, hand, view, acts, n, st) -> int``
that answers the index of its choice among the legal actions ``acts[:n]`` (``layout`` explains
the action codes).  ``kind`` is the question (``layout.K_*``), ``hand`` the seat's own uint64
mask, ``view`` the observation (``layout.V_*``: the spread pile in order, the table melds,
who has opened, stock size, cards per hand; never another hand or the stock), ``st`` the
policies' random stream.  A question with one legal answer is not asked.

Built-in:
- ``random``: uniform over the legal actions of every question.
- ``heuristic``: takes from the pile when the meld is worth it (its points, less the taken cards
  that would sit dead in hand, plus a bonus for opening, and always for a take that knocks),
  lays every meld and lay-off once opened, knocks whenever it can (keeping its cheapest card
  face down, a speto under speto_knock_100), never discards a speto, avoids discards that feed
  a speto or the head card in the pile or that fit the table or the pile, and otherwise throws
  its highest deadwood.
- ``expert``: takes worth their cost, early opening, discards that do not feed the next player
  (its known pile picks and the unseen cards), dumping high deadwood as the stock runs down,
  the penalty options (:mod:`simcore.games.dummy.expert`).
"""

import numba as nb
import numpy as np

from simcore.cards import bit, popcount
from simcore.melds import meldable, spread_ranks
from simcore.rng import below
from simcore.games.dummy.expert import PARAMS as EXPERT_PARAMS
from simcore.games.dummy.expert import expert_play
from simcore.games.dummy.tactics import (
    can_knock_after, choose_play, feeding_pile_prizes, fits_table,
)
from simcore.games.dummy.layout import (
    K_ACQUIRE, K_PLAY, TAKE_SHIFT, V_FINAL,
    V_N_PILE, V_OPENED, V_PILE0, V_PILE_MASK,
    SPETOS, points,
)

PLAY_POLICIES = {"random": 0, "heuristic": 1, "expert": 2}
USER_POLICY = -1

OPEN_BONUS = 30     # the heuristic values opening (no doubled hand, melds from hand) this much
TAKE_AT = 0         # and takes a non-opening pile meld scoring at least this

_ONE = np.uint64(1)
_ALL = np.uint64((1 << 52) - 1)

@nb.njit(cache=True)
def random_policy(kind, seat, hand, view, acts, n, st):
    return below(st, n)


@nb.njit(cache=True)
def _acquire(seat, hand, view, acts, n):
    h = np.uint64(hand)
    opened = (view[V_OPENED] >> seat) & 1
    best = 0
    best_score = -(1 << 30)
    n_pile = view[V_N_PILE]
    for i in range(n):
        a = acts[i]
        if a < 0:
            continue
        d = a >> TAKE_SHIFT
        meld = np.uint64(a) & _ALL
        taken = np.uint64(0)
        for k in range(d, n_pile):
            taken |= bit(view[V_PILE0 + k])
        rest = (h | taken) & ~meld
        extra = taken & ~meld
        dead = extra & ~meldable(rest)
        score = points(meld) - points(dead)
        if not opened:
            score += OPEN_BONUS
        if popcount(rest) <= 9 and can_knock_after(rest):
            score += 1000
        if score > best_score:
            best_score = score
            best = i
    if view[V_FINAL]:
        return best
    if best_score >= TAKE_AT:
        return best
    return 0


@nb.njit(cache=True)
def _discard(seat, hand, view, acts, n):
    h = np.uint64(hand)
    melded = meldable(h)
    pile = np.uint64(view[V_PILE_MASK])
    danger = feeding_pile_prizes(view)
    best = 0
    best_score = -(1 << 30)
    for i in range(n):
        c = acts[i]
        cb = bit(c)
        score = points(cb) * 4
        if melded & cb:
            score -= 400
        partner = spread_ranks(_ONE << np.uint64(c % 13))
        if c % 13 < 12:
            partner |= bit(c + 1)
        if c % 13 > 0:
            partner |= bit(c - 1)
        if partner & h & ~cb:  # half a meld
            score -= 30
        if cb & SPETOS:
            score -= 1000
        if cb & danger:
            score -= 200
        if fits_table(c, view):
            score -= 100
        if meldable(pile | cb) & cb:
            score -= 100
        if score > best_score or (score == best_score and c > acts[best]):
            best_score = score
            best = i
    return best


@nb.njit(cache=True)
def heuristic_policy(kind, seat, hand, view, acts, n, st):
    if kind == K_ACQUIRE:
        return _acquire(seat, hand, view, acts, n)
    if kind == K_PLAY:
        return choose_play(view, acts, n)
    return _discard(seat, hand, view, acts, n)


@nb.njit(cache=True)
def builtin_play(policy, kind, seat, hand, view, acts, n, st):
    if policy == 1:
        return heuristic_policy(kind, seat, hand, view, acts, n, st)
    if policy == 2:
        return expert_play(kind, seat, hand, view, acts, n, st, EXPERT_PARAMS)
    return random_policy(kind, seat, hand, view, acts, n, st)
