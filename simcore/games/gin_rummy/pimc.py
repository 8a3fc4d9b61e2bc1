"""Gin Rummy search policy ``pimc``: the expert, whose discards are searched in sampled worlds.

``pimc:W`` (``pimc`` = ``pimc:512``) answers the upcard, draw and knock questions as the
``expert`` does.  At a discard it:

1. **reads the opponent's hand** from the hand's public history (``layout.V_HIST``): a
   resample-move particle filter (``N_PARTICLES`` particles) over the opponent's ten dealt
   cards and each card it drew from the stock.  The opponent is modelled as OpenSpiel's
   simple gin bot (:mod:`simcore.games.gin_rummy.simple`: takes a card that melds or lets it
   knock, discards its highest-ranked deadwood card, knocks at once).  A history is weighed
   ``EPS ** k``, k the number of its decisions that the model would not have made (a take or
   a pass, a discard, a knock not made); a history the cards rule out (a discard it could not
   hold, a card seen elsewhere) weighs 0.  Against the simple bot itself (k = 0 for the
   truth) this is the exact posterior up to sampling: every shuffle consistent with what the
   seat has seen is equally likely.  The particles are built from the start at every
   decision (the policy keeps no state between calls): each opponent turn extends them (a
   stock card drawn in proportion to how well it explains the discard that followed), then
   they are resampled and each gets ``MOVES`` Metropolis moves (a dealt card or a stock card
   swapped for another, the whole history weighed again).
2. **scores the discards as the expert does**, with the danger of a card taken from the
   particles: the share that would take it, a take that lets the opponent knock counting
   ``1 + KNOCK_TAKE`` times, at ``DANGER_WEIGHT`` points (``expert.discard_scores``).  When a
   discard lets the seat knock it is played, as the expert does.
3. **plays the best ``CANDIDATES`` discards out in W worlds**: a world is a particle (drawn
   by weight) with the rest of the unseen cards shuffled as the stock.  The opponent plays the
   model's rules; the seat plays greedily (the minimum-deadwood discard; it takes the top card
   when that lets it knock or melds it with less deadwood); both knock at the first chance, and
   the hand is void with two stock cards left.  The discard that wins the most play-outs is
   played (ties to the expert's choice, then to the better score).  Every candidate is played
   in the same worlds.

If no particle survives (an opponent whose history the cards contradict, a history longer
than ``layout.MAX_HIST`` turns) the seat discards as the expert.  The policy sees only what
its seat may see: its hand and the view.  Randomness: each decision seeds its own stream from
the policies' stream state (not advanced), the seat, the turn and the history's length.

Cost: about 50 CPU ms a hand at W = 512, 20 hands/s on one core (scripts/bench.py, docs/search_policies.md), against the expert's 50 us.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from simcore import rng
from simcore.cards import bit, lowest_bit, popcount
from simcore.games.gin_rummy import engine, expert, policies
from simcore.games.gin_rummy.expert import PARAMS as EXPERT_PARAMS
from simcore.games.gin_rummy.expert import discard_scores, knock_threshold
from simcore.games.gin_rummy.layout import (
    K_DISCARD,
    MAX_HIST,
    V_HIST,
    V_HIST_N,
    V_KNOCK_LIMIT,
    V_PILE,
    V_SEAT,
    V_TAKEN,
    V_TURN,
    V_UPCARD,
)
from simcore.games.searching import PIMC, PlayPolicies, home
from simcore.games.gin_rummy.simple import simple_bot_discard, simple_bot_takes
from simcore.melds import from_sequence, gin_deadwood, gin_loose, meldable, to_sequence

DEFAULT_WORLDS = 512
N_PARTICLES = 256
MOVES = 4
CANDIDATES = 6
EPS = 0.02  # the weight of each decision the model would not have made
DANGER_WEIGHT = 2.0
KNOCK_TAKE = 8.0
MAX_DRAWS = 32  # the opponent's stock draws a particle holds (the stock has 31 cards)
VOID_STOCK = 2  # play-outs end void with this many stock cards (GR-12's default)
EXPERT = policies.PLAY_POLICIES["expert"]

_ONE = np.uint64(1)
_ALL = np.uint64((1 << 52) - 1)


# ---------------------------------------------------------------- the public history


@nb.njit(cache=True)
def read_history(hand, view):
    """The view's history as arrays (entry j: ``who``, ``offered``, ``took``, ``card`` the
    discard or -1, ``top`` the card offered or -1, ``gone`` the cards the opponent cannot draw
    from the stock at turn j) and ``own``: the cards the seat got from the deck (dealt or drawn
    from the stock), which the opponent never held unless it took them from the pile.  ``n``
    is -1 when the history was cut at MAX_HIST turns.

    ``own`` is the seat's hand and discards less the cards it first touched by taking them
    (the upcard, or the opponent's discards); ``gone`` is ``own``, the upcard and every card
    discarded before turn j."""
    n = view[V_HIST_N]
    me = view[V_SEAT]
    who = np.empty(MAX_HIST, np.int64)
    offered = np.empty(MAX_HIST, np.int64)
    took = np.empty(MAX_HIST, np.int64)
    card = np.empty(MAX_HIST, np.int64)
    top = np.empty(MAX_HIST, np.int64)
    gone = np.empty(MAX_HIST, np.uint64)
    if n > MAX_HIST:
        return -1, who, offered, took, card, top, gone, np.uint64(0)
    upcard = view[V_UPCARD]
    pile = np.empty(64, np.int64)
    pile[0] = upcard
    n_pile = 1
    discarded = np.uint64(0)
    touched = np.uint64(0)
    first_taken = np.uint64(0)
    own_discards = np.uint64(0)
    for j in range(n):
        e = view[V_HIST + j]
        who[j] = e & 1
        offered[j] = (e >> 1) & 1
        took[j] = (e >> 2) & 1
        card[j] = (e >> 3) - 1
        top[j] = pile[n_pile - 1] if offered[j] and n_pile > 0 else -1
        gone[j] = discarded
        if took[j]:
            n_pile -= 1
            if who[j] == me and not (touched & bit(top[j])):
                first_taken |= bit(top[j])
                touched |= bit(top[j])
        if card[j] >= 0:
            pile[n_pile] = card[j]
            n_pile += 1
            discarded |= bit(card[j])
            if who[j] == me:
                touched |= bit(card[j])
                own_discards |= bit(card[j])
    if view[V_TAKEN] >= 0 and not (touched & bit(view[V_TAKEN])):
        first_taken |= bit(view[V_TAKEN])
    own = (np.uint64(hand) | own_discards) & ~first_taken
    for j in range(n):
        gone[j] |= own | bit(upcard)
    return n, who, offered, took, card, top, gone, own


# ---------------------------------------------------------------- the model's likelihood


@nb.njit(inline="always", cache=True)
def _weight(k):
    return 1.0 if k == 0 else EPS ** k


@nb.njit(inline="always", cache=True)
def _discard_misses(H, d, limit):
    """Decisions the model would not have made in discarding d from the 11 cards H: the
    discard itself, and not knocking after it."""
    return (1 if simple_bot_discard(H) != d else 0) + (1 if gin_deadwood(H & ~bit(d)) <= limit
                                                       else 0)


@nb.njit(cache=True)
def replay(dealt, draws, who, offered, took, card, top, gone, n, me, limit):
    """(valid, the opponent's hand now, misses): the opponent's turns replayed from its dealt
    cards and its stock draws in order.  Not valid when the cards rule the history out."""
    H = np.uint64(dealt)
    misses = 0
    k = 0
    for j in range(n):
        if who[j] == me:
            continue
        if offered[j]:
            t = top[j]
            if H & bit(t):
                return False, H, misses
            take, _ = simple_bot_takes(H, t, limit)
            if take != (took[j] == 1):
                misses += 1
        if card[j] < 0:
            continue  # a passed upcard
        if took[j]:
            H |= bit(top[j])
        else:
            s = draws[k]
            k += 1
            if (H | gone[j]) & bit(s):
                return False, H, misses
            H |= bit(s)
        d = card[j]
        if not (H & bit(d)):
            return False, H, misses
        misses += _discard_misses(H, d, limit)
        H &= ~bit(d)
    return True, H, misses


@nb.njit(cache=True)
def _step(j, who, offered, took, card, top, gone, limit, hands, draws, weights, misses, k,
          st):
    """The opponent's turn j applied to every particle (sequential importance sampling)."""
    for i in range(hands.shape[0]):
        if weights[i] == 0.0:
            continue
        H = hands[i]
        w = 1.0
        if offered[j]:
            t = top[j]
            if H & bit(t):
                weights[i] = 0.0
                continue
            take, _ = simple_bot_takes(H, t, limit)
            if take != (took[j] == 1):
                w *= EPS
                misses[i] += 1
        if card[j] < 0:
            weights[i] *= w
            continue
        d = card[j]
        if took[j]:
            H |= bit(top[j])
        else:  # a stock card, drawn in proportion to how well it explains the discard
            pool = _ALL & ~H & ~gone[j]
            if not (H & bit(d)):
                pool &= bit(d)
            total = 0.0
            pick, pick_miss = -1, 0
            m = pool
            while m:
                s = lowest_bit(m)
                m &= m - _ONE
                miss = _discard_misses(H | bit(s), d, limit)
                lik = _weight(miss)
                total += lik
                if lik > 0 and rng.uniform(st) * total < lik:
                    pick, pick_miss = s, miss
            if pick < 0:
                weights[i] = 0.0
                continue
            draws[i, k] = pick
            H |= bit(pick)
            weights[i] *= w * total
            misses[i] += pick_miss
            hands[i] = H & ~bit(d)
            continue
        if not (H & bit(d)):
            weights[i] = 0.0
            continue
        miss = _discard_misses(H, d, limit)
        misses[i] += miss
        weights[i] *= w * _weight(miss)
        hands[i] = H & ~bit(d)


@nb.njit(cache=True)
def _resample_move(dealt, hands, draws, weights, misses, k, free, hist, me, limit, moves, st):
    """Systematic resampling by weight, then ``moves`` Metropolis moves a particle.  False when
    every particle is dead."""
    n = hands.shape[0]
    total = weights.sum()
    if total <= 0.0:
        return False
    who, offered, took, card, top, gone, n_hist = hist
    pick = np.empty(n, np.int64)
    step = total / n
    u = rng.uniform(st) * step
    acc = weights[0]
    i = 0
    for j in range(n):
        while acc <= u + j * step and i < n - 1:
            i += 1
            acc += weights[i]
        pick[j] = i
    dealt[:] = dealt[pick]
    hands[:] = hands[pick]
    draws[:] = draws[pick]
    misses[:] = misses[pick]
    weights[:] = 1.0
    n_free = popcount(free)
    for i in range(n):
        for _ in range(moves):
            slot = rng.below(st, 10 + k)
            c = _nth(free, rng.below(st, n_free))
            if dealt[i] & bit(c):
                continue
            clash = False
            for q in range(k):
                clash |= draws[i, q] == c
            if clash:
                continue
            if slot < 10:
                trial = (dealt[i] & ~bit(_nth(dealt[i], slot))) | bit(c)
                ok, H, miss = replay(trial, draws[i], who, offered, took, card, top, gone,
                                     n_hist, me, limit)
                if ok and (miss <= misses[i] or rng.uniform(st) < EPS ** (miss - misses[i])):
                    dealt[i], hands[i], misses[i] = trial, H, miss
            else:
                old = draws[i, slot - 10]
                draws[i, slot - 10] = c
                ok, H, miss = replay(dealt[i], draws[i], who, offered, took, card, top, gone,
                                     n_hist, me, limit)
                if ok and (miss <= misses[i] or rng.uniform(st) < EPS ** (miss - misses[i])):
                    hands[i], misses[i] = H, miss
                else:
                    draws[i, slot - 10] = old
    return True


@nb.njit(inline="always", cache=True)
def _nth(m, j):
    m = np.uint64(m)
    for _ in range(j):
        m &= m - _ONE
    return lowest_bit(m)


@nb.njit(cache=True)
def particles(hand, view, n_particles, moves, st):
    """(ok, the opponent's hands now, their weights): the filter over the view's history,
    ``moves`` Metropolis moves a particle after each opponent turn."""
    limit = view[V_KNOCK_LIMIT]
    me = view[V_SEAT]
    n, who, offered, took, card, top, gone, own = read_history(hand, view)
    hands = np.zeros(n_particles, np.uint64)
    weights = np.zeros(n_particles, np.float64)
    if n < 0:
        return False, hands, weights
    free = _ALL & ~own & ~bit(view[V_UPCARD])
    n_free = popcount(free)
    dealt = np.zeros(n_particles, np.uint64)
    for i in range(n_particles):
        got = 0
        while got < 10:
            c = _nth(free, rng.below(st, n_free))
            if not (dealt[i] & bit(c)):
                dealt[i] |= bit(c)
                got += 1
    hands[:] = dealt
    weights[:] = 1.0
    draws = np.zeros((n_particles, MAX_DRAWS), np.int64)
    misses = np.zeros(n_particles, np.int64)
    k = np.int64(0)  # not a literal: _step compiles once
    for j in range(n):
        if who[j] == me:
            continue
        _step(j, who, offered, took, card, top, gone, limit, hands, draws, weights, misses, k,
              st)
        if card[j] >= 0 and not took[j]:
            k += 1
        if not _resample_move(dealt, hands, draws, weights, misses, k, free,
                              (who, offered, took, card, top, gone, j + 1), me, limit, moves,
                              st):
            return False, hands, weights
    return True, hands, weights


# ---------------------------------------------------------------- play-outs


@nb.njit(inline="always", cache=True)
def _greedy_discard(H):
    """The minimum-deadwood discard of 11 cards (ties to the higher value): (card, deadwood).
    A card that melds with nothing lowers the deadwood by its value."""
    H = np.uint64(H)
    loose = gin_loose(H)
    full = gin_deadwood(H) if loose else 0
    best, best_dw, best_v = -1, 1 << 30, -1
    m = H
    while m:
        c = lowest_bit(m)
        m &= m - _ONE
        v = policies._card_value(c)
        dw = full - v if loose & bit(c) else gin_deadwood(H & ~bit(c))
        if dw < best_dw or (dw == best_dw and v > best_v):
            best, best_dw, best_v = c, dw, v
    return best, best_dw


@nb.njit(cache=True)
def play_out(mine, theirs, top, stock, n_stock, limit):
    """1.0 if the seat wins the hand from here, else 0.0: the seat holds ``mine`` (10 cards)
    and has just put ``top`` on the pile, the opponent holds ``theirs``, the stock is
    ``stock[:n_stock]`` (drawn from the end).  The opponent plays the model's rules, the seat
    greedily; both knock at the first chance; nobody lays off."""
    E = np.uint64(mine)
    B = np.uint64(theirs)
    while True:
        if n_stock <= VOID_STOCK:
            return 0.0
        take, _ = simple_bot_takes(B, top, limit)
        if take:
            B |= bit(top)
        else:
            n_stock -= 1
            B |= bit(stock[n_stock])
        d = simple_bot_discard(B)
        B &= ~bit(d)
        their_dw = gin_deadwood(B)
        if their_dw <= limit:
            return 1.0 if gin_deadwood(E) < their_dw else 0.0
        top = d
        if n_stock <= VOID_STOCK:
            return 0.0
        now = gin_deadwood(E)
        with_top = E | bit(top)
        c, after = _greedy_discard(with_top)
        melds = meldable(to_sequence(with_top, True)) & to_sequence(bit(top), True)
        if c != top and (after <= limit or (after < now and melds)):
            E = with_top & ~bit(c)
        else:
            n_stock -= 1
            c, after = _greedy_discard(E | bit(stock[n_stock]))
            E = (E | bit(stock[n_stock])) & ~bit(c)
        if after <= limit:
            return 1.0 if gin_deadwood(B) > after else 0.0
        top = c


# ---------------------------------------------------------------- the policy


@nb.njit(cache=True)
def pimc_discard(hand, view, params, worlds, st):
    """The discard (public id) of the 11 cards ``hand`` (module docstring)."""
    limit = view[V_KNOCK_LIMIT]
    ok, opp, weights = particles(hand, view, N_PARTICLES, MOVES, st)
    if not ok:
        return _expert(K_DISCARD, view[V_SEAT], hand, view, st)
    danger = np.zeros(52, np.float64)
    total = weights.sum()
    m = np.uint64(hand)
    while m:
        x = lowest_bit(m)
        m &= m - _ONE
        s = 0.0
        for i in range(opp.shape[0]):
            if weights[i] > 0:
                take, knock = simple_bot_takes(opp[i], x, limit)
                s += weights[i] * ((1.0 if take else 0.0) + (KNOCK_TAKE if knock else 0.0))
        danger[x] = s / total
    h, unseen, cards, scores, dws, n, low_card, low_dw = discard_scores(hand, view, params,
                                                                         danger, DANGER_WEIGHT)
    if low_dw <= knock_threshold(view, params):
        return lowest_bit(from_sequence(bit(low_card), True))
    first = expert._look_ahead(h, unseen, view, params, cards, scores, dws, n)
    order = np.argsort(scores[:n], kind="mergesort")
    cand = np.empty(CANDIDATES, np.int64)
    cand[0] = lowest_bit(from_sequence(bit(first), True))
    nc = 1
    for j in range(n):
        if nc >= CANDIDATES:
            break
        c = lowest_bit(from_sequence(bit(cards[order[j]]), True))
        if c != cand[0]:
            cand[nc] = c
            nc += 1
    if nc == 1 or worlds <= 0:
        return cand[0]
    wins = np.zeros(nc, np.float64)
    stock = np.empty(52, np.int64)
    deck = np.empty(52, np.int64)
    seen = np.uint64(hand) | np.uint64(view[V_PILE])
    cum = np.cumsum(weights)
    for _ in range(worlds):
        r = rng.uniform(st) * cum[-1]
        i = min(np.searchsorted(cum, r, side="right"), opp.shape[0] - 1)
        rest = _ALL & ~seen & ~opp[i]
        n_stock = 0
        while rest:
            deck[n_stock] = lowest_bit(rest)
            rest &= rest - _ONE
            n_stock += 1
        rng.shuffle(st, deck, n_stock)
        for ci in range(nc):
            stock[:n_stock] = deck[:n_stock]
            wins[ci] += play_out(np.uint64(hand) & ~bit(cand[ci]), opp[i], cand[ci], stock,
                                 n_stock, limit)
    best = 0
    for ci in range(1, nc):
        if wins[ci] > wins[best]:
            best = ci
    return cand[best]


@nb.njit(inline="always", cache=True)
def _expert(kind, seat, hand, view, st):
    """The expert's answer, through the built-in dispatcher: one compiled copy of the expert
    (shared with the built-in kernels' cache), not another inlined here."""
    # np.int64: no literal arguments, so the call uses the built-in kernels' signature
    return policies.builtin_play(np.int64(EXPERT), np.int64(kind), np.int64(seat), hand, view,
                                 st)


@nb.njit(cache=True)
def pimc_play(kind, seat, hand, view, st, worlds):
    """The ``pimc:worlds`` policy: the expert's answers, the discard searched."""
    if kind != K_DISCARD:
        return _expert(kind, seat, hand, view, st)
    own = np.zeros(1, np.uint64)
    own[0] = rng.stream_key(st[0], seat, view[V_TURN], view[V_HIST_N])
    return pimc_discard(hand, view, EXPERT_PARAMS, worlds, own)


@nb.njit(cache=True)
def search_play(policy, kind, seat, hand, view, st):
    """The dispatcher of runs with a ``pimc`` seat: pimc:W, else the built-in policies."""
    if policy >= PIMC:
        return pimc_play(kind, seat, hand, view, st, policy - PIMC)
    return policies.builtin_play(policy, kind, seat, hand, view, st)


# ---------------------------------------------------------------- names and kernels


PLAY_POLICIES = PlayPolicies(policies.PLAY_POLICIES, DEFAULT_WORLDS, dd=False)
NOTES = (
    f"pimc, pimc:W (W worlds, default {DEFAULT_WORLDS}): the expert, whose discards are played "
    f"out in W worlds sampled from a reading of the opponent's whole history (it models the "
    f"opponent as OpenSpiel's simple gin bot); about 50 ms a hand (20 hands/s a core)",
)


_kernels = None


def kernels():
    """(hands kernel, games kernel) of runs with a ``pimc`` seat: the engine's kernels around
    ``search_play`` (built and compiled on first use, cached on disk)."""
    global _kernels
    if _kernels is None:
        hands, games = engine.with_play(search_play)
        jit = nb.njit(parallel=True, cache=True, nogil=True)
        _kernels = (jit(home(hands, "search_hands_kernel", __file__)),
                    jit(home(games, "search_games_kernel", __file__)))
    return _kernels
