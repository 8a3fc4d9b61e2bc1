"""Gin Rummy search policy ``pimc``: each decision tried in sampled deals, played out by ``expert``.

``pimc:W``, at its seat's decisions (take the upcard or pass; take the top discard or draw
from the stock; which card to discard; knock or play on): deal the cards the seat cannot see
W times (the opponent's hidden cards, the stock's order), play each candidate answer out in
every world with the ``expert`` policy in both seats, and take the answer with the best
total value: the hand's points from the seat's view (GR-13 ... GR-15: + the points it scores,
- the points the opponent scores, 0 for a void hand) plus ``WIN_WEIGHT`` for a hand won and
minus it for a hand lost (1000 by default: the hands won first, the points to break ties).
Every candidate is played in the same worlds (paired).  By default only the discard is
searched (``KINDS``); the take and knock questions are answered by the expert, since
searching them measured no better (docs/search_policies_gin.md), and tuning scripts can
switch them on (the settings vector, :func:`rules_vector`).

**Worlds** (:func:`facts`, :func:`_draw_world`): the opponent holds the cards it took from
the pile and has not thrown back (``V_OPP_PICKS``) and ``10 - picks`` of the *unseen* cards
(every card not in the seat's hand, not in the discard pile and not a known pick; the cards
the opponent discarded are in the pile or taken back by a player, so never unseen); the
stock is the rest, in an unknown order.  Every split of the unseen cards and every stock
order is consistent with what the seat has seen.  Drawn uniformly (a partial Fisher-Yates:
one class of cards, two holders, where :mod:`simcore.sampling`'s class count is trivial)
they mislead the search badly: a random 10 cards hold about 56 points of deadwood, an expert's
hand at a knock about 26 (measured, docs/search_policies_gin.md), so the search plays as if
the opponent would never knock.  So each uniform draw is kept with a likelihood of what the
opponent did (:func:`_likely`: it would have knocked after its last discard with this hand;
its deadwood, tilted by ``TILT`` per mille per point above the knock limit and per turn, a
stand-in for the cards it kept over those it threw), up to ``TRIES`` draws (then the
likeliest): worlds from an approximate posterior, no longer uniform.  ``Q_PILE`` and
``Q_HIGH`` weigh two more facts (pile cards that would meld with the hand; loose cards worth
more than its last discard), off by default.  The order of the buried discards is not
needed: every turn ends with a discard on top, so a buried card is never drawn.

**Candidates** (cheap pruning): the upcard and the top discard: take or not, the top discard
searched only when it melds with the hand or lowers its deadwood (otherwise no policy here
would take it); the discard: the expert's own choice, the minimum-deadwood discard and the
next best by the expert's first-pass score, at most ``DISCARDS`` cards, each discard that
allows a knock scored by the better of knocking and playing on; the knock (asked only when
legal): knock or play on, in the same worlds as the discard before it (the same stream), so
the two questions agree.  Ties go to the expert's answer.

**What the play-outs assume**: the opponent plays like ``expert`` (knocking by the expert's
own timing) and so does this seat after the decision.  A ``knock=...`` decision of the run
steers the seat's knock question when it is not searched (the default: the expert answers
it), not the play-outs.  The opponent's view of this seat in a world: its picks
are the cards of its hand that came from the pile (the opponent's discards and the upcard),
its discards the pile cards the opponent did not throw and the opponent's picks (a card the
seat threw that the opponent took and threw back is not recorded: the expert reads discards
only to lower the odds next to them).

Randomness: each decision seeds its own stream from the policies' stream state, the seat,
the question and the turn (:func:`_seed`) without advancing it, so the other seat's draws
are those of the same run without searching.  The rules the play-outs score with (gin and
undercut bonuses, the void stock) are public and come from the run (:func:`rules_vector`).
"""

from __future__ import annotations

import numba as nb
import numpy as np

from simcore import rng, sampling
from simcore.cards import bit, lowest_bit, popcount
from simcore.games.base import rebind
from simcore.games.gin_rummy import engine, expert, policies
from simcore.games.gin_rummy.engine import (
    ARRANGEMENTS,
    C_GIN_BONUS,
    C_KNOCK_LIMIT,
    C_UNDERCUT_BONUS,
    C_VOID_AT_STOCK,
    MAX_TURNS,
    N_CFG,
    R_KNOCKER,
    R_POINTS,
    R_TURNS,
    R_WINNER,
    score_knock,
)
from simcore.games.gin_rummy.layout import (
    K_DISCARD,
    K_DRAW,
    K_KNOCK,
    K_UPCARD,
    V_DEADWOOD,
    V_DEALER,
    V_DISCARD,
    V_KNOCK_AT,
    V_KNOCK_LIMIT,
    V_OPP_DISCARDS,
    V_OPP_PICKS,
    V_PILE,
    V_SEAT,
    V_STOCK,
    V_TAKEN,
    V_TOP,
    V_TURN,
    V_UPCARD,
    VIEW_SIZE,
)
from simcore.games.searching import PIMC, PlayPolicies, home
from simcore.melds import GIN_PLANES, MAX_MELDS, best_discard_seq, gin_deadwood, mask_value, \
    meldable, min_deadwood_seq, to_sequence

DEFAULT_WORLDS = 32
DISCARDS = 4  # candidate discards a decision plays out (the expert's choice among them)
WIN_WEIGHT = 1000  # a play-out's value: points + this for a hand won (- for one lost)
KINDS = 1 << K_DISCARD  # the questions searched by default (the others: the expert's answer)
# the worlds' likelihood (percent kept per fact, see _likely), draws per world, the tilt
Q_PILE, Q_HIGH, Q_KNOCK, TRIES, TILT = 100, 100, 0, 2000, 15
OPP = 0  # sampler holders: the opponent's hidden cards, the stock
STOCK = 1
# where a play-out starts
PH_UPCARD1 = 0  # the non-dealer answers the upcard (GR-7)
PH_UPCARD2 = 1  # the dealer answers it (the non-dealer passed)
PH_STOCK = 2  # both passed: the non-dealer draws from the stock
PH_DRAW = 3  # a turn: the top discard or the stock (GR-8)
PH_DISCARD = 4  # the seat holds 11 cards and discards (then may knock, GR-9)
# the settings vector, after the seats' ids in the search kernels' policy array: the public
# rules the play-outs score with, then the search's own settings (tuning scripts vary them)
R_GIN, R_UNDERCUT, R_VOID = 0, 1, 2
R_KINDS = 3  # bit k set: question k (layout.K_*) is searched, else answered by the expert
R_DISCARDS = 4  # candidate discards
R_WIN_WEIGHT = 5  # a play-out's value: its points + this x (1 won, -1 lost, 0 void)
R_Q_PILE = 6  # percent kept of the worlds per pile card the opponent's hand would meld
R_Q_HIGH = 7  # ... per loose card it kept worth more than its latest discard
R_Q_KNOCK = 8  # ... if it could have knocked after that discard
R_TRIES = 9  # draws per world at most (then the likeliest of them)
R_TILT = 10  # per mille per deadwood point above the knock limit and per turn (see _likely)
N_RULES = 11

_ALL = np.uint64((1 << 52) - 1)


class GinPlayPolicies(PlayPolicies):
    """The built-in policies plus ``pimc`` and ``pimc:W`` (no ``dd``: Gin has no open-hand
    solver)."""

    def __init__(self, builtin: dict, default_worlds: int):
        super().__init__(builtin, default_worlds)
        dict.__delitem__(self, "dd")

    def _id(self, name):
        return None if name == "dd" else super()._id(name)


PLAY_POLICIES = GinPlayPolicies(policies.PLAY_POLICIES, DEFAULT_WORLDS)
NOTES = (
    f"pimc, pimc:W (W worlds, default {DEFAULT_WORLDS}): a searching player: its discard (the "
    f"expert's best {DISCARDS} cards) is played out by the expert in W deals of the unseen "
    "cards (the opponent's hidden cards, weighted by how likely its play makes them, and the "
    "stock order), the most hands won chosen, then the most points; it takes and knocks as "
    "the expert (the knock decision applies)",
)


def rules_vector(rules) -> np.ndarray:
    """The rules a searching seat scores its play-outs with (public, GR-12 ... GR-15)."""
    out = np.zeros(N_RULES, np.int64)
    out[R_GIN] = rules.gin_bonus
    out[R_UNDERCUT] = rules.undercut_bonus
    out[R_VOID] = rules.void_at_stock
    out[R_KINDS] = KINDS
    out[R_DISCARDS] = DISCARDS
    out[R_WIN_WEIGHT] = WIN_WEIGHT
    out[R_Q_PILE] = Q_PILE
    out[R_Q_HIGH] = Q_HIGH
    out[R_Q_KNOCK] = Q_KNOCK
    out[R_TRIES] = TRIES
    out[R_TILT] = TILT
    return out


# ---------------------------------------------------------------- play-outs


@nb.njit(cache=True)
def new_context():
    """Work arrays of one decision: base and play-out copies of the hands, picks, discards
    and pile, the unseen cards (then the world's stock), views, the counts of the hidden
    cards, cfg, the stream."""
    return (np.zeros((2, 4), np.uint64), np.zeros((2, 4), np.uint64),  # C_BASE, C_WORK
            np.zeros(52, np.int64), np.zeros(VIEW_SIZE, np.int64),  # C_STOCK, C_VIEW
            np.zeros(VIEW_SIZE, np.int64), np.zeros(1, np.int64),  # C_PVIEW, (unused)
            np.zeros(2, np.int64), np.zeros((2, 2), np.uint64),  # C_NEED, C_MASKS
            np.zeros(N_CFG, np.int64), np.zeros(1, np.uint64),  # C_CFG, C_ST
            np.empty((ARRANGEMENTS, MAX_MELDS), np.uint64), np.zeros(16, np.int64),  # scratch, res
            np.zeros(16, np.int64), np.zeros(16, np.int64), np.zeros(16, np.int64))  # options


C_BASE, C_WORK, C_STOCK, C_VIEW, C_PVIEW, C_SC, C_NEED, C_MASKS, C_CFG, C_ST = range(10)
C_SCRATCH, C_RES, C_OPTIONS, C_SUMS, C_KNOCKS = 10, 11, 12, 13, 14
# rows of the (2, 4) state arrays: per seat hand, picks, discards; column 3 of seat 0 is the
# pile, of seat 1 the score's lay-off scratch
HAND, PICKS, THROWN, PILE = 0, 1, 2, 3


@nb.njit(cache=True)
def _expert(kind, seat, hand, view):
    """The expert's answer (one call site, so its code is compiled once here)."""
    return expert.expert_play(kind, seat, hand, view, view, policies.EXPERT_PARAMS)


@nb.njit(cache=True)
def _ask(kind, p, w, view):
    view[V_SEAT] = p
    view[V_OPP_PICKS] = np.int64(w[1 - p, PICKS])
    view[V_OPP_DISCARDS] = np.int64(w[1 - p, THROWN])
    return _expert(kind, p, w[p, HAND], view)


@nb.njit(cache=True)
def _take_top(p, top, w, view):
    """Seat p takes card ``top`` from the pile (the card below is never used: see above)."""
    w[p, HAND] |= bit(top)
    w[p, PICKS] |= bit(top)
    w[0, PILE] &= ~bit(top)
    view[V_PILE] = np.int64(w[0, PILE])
    view[V_TOP] = -1


@nb.njit(cache=True)
def _points(me, knocker, w, cfg, scratch, res):
    """The hand's points from ``me``'s view after ``knocker`` knocked (GR-13 ... GR-15)."""
    hands = np.empty(2, np.uint64)
    pile = np.zeros(2, np.uint64)
    hands[0], hands[1] = w[0, HAND], w[1, HAND]
    score_knock(knocker, hands, cfg, scratch, pile, res)
    return res[R_POINTS] if res[R_WINNER] == me else -res[R_POINTS]


@nb.njit(cache=True)
def play_out(me, p, phase, taken, w, stock, nxt, n_stock, turns, view, cfg, scratch, res):
    """Play the hand on from ``phase`` (seat ``p`` to act; ``taken``: PH_DISCARD's card taken
    from the pile or -1) with the expert in both seats, as ``engine.play_hand`` does (GR-7 ...
    GR-12); the stock is ``stock[nxt:n_stock]``, top first.  Returns the hand's points from
    ``me``'s view; ``res`` gets the knocker (-1 void) and the turns.  ``w`` and ``view`` are
    consumed."""
    res[R_KNOCKER] = -1
    top = view[V_TOP]
    if phase == PH_UPCARD1 or phase == PH_UPCARD2:
        view[V_TURN] = turns
        if _ask(K_UPCARD, p, w, view) == 1:
            _take_top(p, top, w, view)
            taken, phase = top, PH_DISCARD
        elif phase == PH_UPCARD1:
            p = 1 - p
            view[V_SEAT] = p
            if _ask(K_UPCARD, p, w, view) == 1:
                _take_top(p, top, w, view)
                taken, phase = top, PH_DISCARD
            else:
                p, phase = 1 - p, PH_STOCK
        else:
            p, phase = 1 - p, PH_STOCK
    while True:
        if phase != PH_DISCARD:
            if n_stock - nxt <= cfg[C_VOID_AT_STOCK] or turns >= MAX_TURNS:  # GR-12
                res[R_TURNS] = turns
                return 0
            view[V_TURN] = turns
            view[V_TAKEN] = -1
            taken = -1
            if phase == PH_DRAW and top >= 0 and _ask(K_DRAW, p, w, view) == 1:
                taken = top
                _take_top(p, top, w, view)
            else:
                w[p, HAND] |= bit(stock[nxt])
                nxt += 1
                view[V_STOCK] = n_stock - nxt
        view[V_TAKEN] = taken
        card = _ask(K_DISCARD, p, w, view)
        w[p, HAND] &= ~bit(card)
        w[p, PICKS] &= ~bit(card)
        dw = gin_deadwood(w[p, HAND])
        if dw <= cfg[C_KNOCK_LIMIT]:
            view[V_DEADWOOD] = dw
            view[V_DISCARD] = card
            if _ask(K_KNOCK, p, w, view) == 1:
                res[R_TURNS] = turns + 1
                return _points(me, p, w, cfg, scratch, res)
        w[p, THROWN] |= bit(card)
        w[0, PILE] |= bit(card)
        view[V_PILE] = np.int64(w[0, PILE])
        view[V_TOP] = top = card
        turns += 1
        p = 1 - p
        phase = PH_DRAW


# ---------------------------------------------------------------- facts and worlds


@nb.njit(cache=True)
def facts(kind, seat, hand, view, ctx):
    """The seat's knowledge as base state and sampler inputs: ``ctx[C_BASE]`` gets both
    seats' known cards (the opponent's known picks only), ``ctx[C_NEED]`` / ``ctx[C_MASKS]``
    the sampler's holders.  Returns the unseen cards, or -1 if the counts do not add up."""
    own = np.uint64(hand)
    if kind == K_KNOCK:  # the discard is out of the hand, not yet on the pile
        own |= bit(view[V_DISCARD])
    pile = np.uint64(view[V_PILE])
    known = np.uint64(view[V_OPP_PICKS])
    thrown = np.uint64(view[V_OPP_DISCARDS])
    unseen = _ALL & ~own & ~pile & ~known
    hidden = 10 - popcount(known)
    if hidden < 0 or popcount(unseen) != hidden + view[V_STOCK]:
        return np.int64(-1)
    base = ctx[C_BASE]
    opp = 1 - seat
    up = bit(view[V_UPCARD])
    base[seat, HAND] = hand
    base[seat, PICKS] = np.uint64(hand) & (thrown | up)
    base[seat, THROWN] = ((pile & ~thrown) | known) & ~up
    base[opp, HAND] = known
    base[opp, PICKS] = known
    base[opp, THROWN] = thrown
    base[0, PILE] = pile
    need, masks = ctx[C_NEED], ctx[C_MASKS]
    need[OPP], need[STOCK] = hidden, view[V_STOCK]
    masks[0, OPP] = masks[0, STOCK] = unseen
    return np.int64(unseen)


@nb.njit(cache=True)
def _likely(hand, view, rules):
    """The chance (0 ... 1) that the opponent, playing as the expert or OpenSpiel's simple bot
    do, would have done what it did holding ``hand`` (its 10 cards, public ids): a factor for
    every pile card that melds with the hand (it threw or let pass a card it could use), for
    every card of the hand that melds with nothing and is worth more than its latest discard
    (it throws its highest loose card), and for a hand it could have knocked with after that
    discard (both knock whenever they may)."""
    h = to_sequence(np.uint64(hand), True)
    pile = to_sequence(np.uint64(view[V_PILE]), True)
    f = 1.0
    m = pile
    while m:
        d = bit(lowest_bit(m))
        m &= m - np.uint64(1)
        if meldable(h | d) & d:
            f *= rules[R_Q_PILE] / 100.0
    last = expert._last_discard(view)
    if last >= 0:
        v = mask_value(to_sequence(bit(last), True), GIN_PLANES)
        m = h & ~meldable(h)
        while m:
            x = bit(lowest_bit(m))
            m &= m - np.uint64(1)
            if mask_value(x, GIN_PLANES) > v:
                f *= rules[R_Q_HIGH] / 100.0
    dw = min_deadwood_seq(h, GIN_PLANES)
    if last >= 0 and dw <= view[V_KNOCK_LIMIT]:
        f *= rules[R_Q_KNOCK] / 100.0
    if rules[R_TILT] > 0:
        f *= np.exp(-rules[R_TILT] / 1000.0 * view[V_TURN] * max(dw - view[V_KNOCK_LIMIT], 0))
    return f


@nb.njit(cache=True)
def _draw_world(ctx, seat, view, rules, n_unseen, hidden):
    """The next world into ``ctx[C_BASE]`` (the opponent's hidden cards) and ``ctx[C_STOCK]``
    (the stock, top first): uniform draws of the unseen cards (a partial Fisher-Yates over
    ``ctx[C_STOCK][:n_unseen]``, the first ``hidden`` the opponent's), each kept with the
    chance :func:`_likely` gives it, at most R_TRIES draws (then the likeliest); the stock's
    order is then shuffled.  Returns the stock's size."""
    st, cards, base = ctx[C_ST], ctx[C_STOCK], ctx[C_BASE]
    best, best_f = np.uint64(0), -1.0
    for _ in range(rules[R_TRIES]):
        drawn = np.uint64(0)
        for i in range(hidden):
            j = i + np.int64(sampling.draw_below(st, np.uint64(n_unseen - i)))
            cards[i], cards[j] = cards[j], cards[i]
            drawn |= bit(cards[i])
        f = _likely(base[1 - seat, PICKS] | drawn, view, rules)
        if f >= 1.0 or rng.uniform(st) < f:
            best = drawn
            break
        if f > best_f:
            best, best_f = drawn, f
    base[1 - seat, HAND] = base[1 - seat, PICKS] | best
    n = 0
    for i in range(n_unseen):  # the stock: the unseen cards the opponent does not hold
        if not (best & bit(cards[i])):
            cards[n] = cards[i]
            n += 1
    m = best
    while m:  # ... followed by the opponent's, so the next draw starts from every unseen card
        cards[n + popcount(m) - 1] = lowest_bit(m)
        m &= m - np.uint64(1)
    rng.shuffle(st, cards, n)
    return n


@nb.njit(cache=True)
def _seed(ctx, st, seat, kind, turn):
    """The decision's own stream: a function of the policies' stream state (not advanced), the
    seat, the question (a knock shares its discard's worlds) and the turn."""
    ctx[C_ST][0] = rng.stream_key(rng.policy_key(st[0]), seat, kind, turn)


# ---------------------------------------------------------------- candidates


@nb.njit(cache=True)
def _discards(hand, view, most, out):
    """Candidate discards (public ids) into ``out``: the expert's choice, the minimum-deadwood
    discard, then the rest by the expert's first-pass score (deadwood kept, danger, outs);
    returns how many (at most ``most``)."""
    params = policies.EXPERT_PARAMS
    out[0] = _expert(K_DISCARD, view[V_SEAT], hand, view)
    h = to_sequence(np.uint64(hand), True)
    allowed = np.uint64(hand)
    if view[V_TAKEN] >= 0:  # never the card just taken (the expert's rule, kept here)
        allowed &= ~bit(view[V_TAKEN])
    known, unseen, likely, unlikely, high, p = expert._reading(hand, view, params)
    danger_cost, out_cost, low_feed, last_value = expert._weights(view, params)
    scores = np.full(52, 1e30)
    low_card, low_dw = -1, 1 << 30
    m = allowed
    while m:
        c = lowest_bit(m)
        m &= m - np.uint64(1)
        s = lowest_bit(to_sequence(bit(c), True))
        dw = min_deadwood_seq(h & ~bit(s), GIN_PLANES)
        v = mask_value(bit(s), GIN_PLANES)
        if dw < low_dw:
            low_card, low_dw = c, dw
        danger = min(1.0, expert._window_sum(s, known, unseen, likely, unlikely, high, p,
                                             params[10]))
        scores[c] = dw + danger_cost * danger + out_cost * expert._live_outs(s, h & ~bit(s),
                                                                             unseen)
        if v < last_value:
            scores[c] += low_feed
    n = 1
    scores[out[0]] = 1e30
    if low_card != out[0]:
        out[n] = low_card
        scores[low_card] = 1e30
        n += 1
    while n < most:
        c = np.argmin(scores)
        if scores[c] >= 1e30:
            break
        out[n] = c
        scores[c] = 1e30
        n += 1
    return n


@nb.njit(cache=True)
def _worth_a_look(hand, top):
    """Could taking ``top`` be right: it melds with the hand or lowers its deadwood."""
    h = to_sequence(np.uint64(hand), True)
    t = to_sequence(bit(top), True)
    if meldable(h | t) & t:
        return True
    _, after = best_discard_seq(h | t, t, GIN_PLANES)
    return after < min_deadwood_seq(h, GIN_PLANES)


# ---------------------------------------------------------------- one option in one world


@nb.njit(cache=True)
def _start(ctx, view):
    """Fresh play-out copies of the world's state and the seat's view."""
    ctx[C_WORK][:, :] = ctx[C_BASE]
    pv = ctx[C_PVIEW]
    pv[:] = view
    pv[V_KNOCK_AT] = -1  # the play-outs' expert knocks by its own timing
    return ctx[C_WORK], pv


@nb.njit(cache=True)
def _after_discard(ctx, seat, card, view, n_stock):
    """Points of discarding ``card`` (gone from the base hand already) and playing on."""
    w, pv = _start(ctx, view)
    w[seat, HAND] &= ~bit(card)
    w[seat, PICKS] &= ~bit(card)
    w[seat, THROWN] |= bit(card)
    w[0, PILE] |= bit(card)
    pv[V_PILE] = np.int64(w[0, PILE])
    pv[V_TOP] = card
    pv[V_TAKEN] = -1
    return play_out(seat, 1 - seat, PH_DRAW, -1, w, ctx[C_STOCK], 0, n_stock,
                    view[V_TURN] + 1, pv, ctx[C_CFG], ctx[C_SCRATCH], ctx[C_RES])


@nb.njit(cache=True)
def _knock_now(ctx, seat, card):
    w = ctx[C_WORK]
    w[:, :] = ctx[C_BASE]
    w[seat, HAND] &= ~bit(card)
    return _points(seat, seat, w, ctx[C_CFG], ctx[C_SCRATCH], ctx[C_RES])


@nb.njit(cache=True)
def _after_draw(ctx, kind, seat, take, view, n_stock):
    """Points of taking the top card (``take``), else of drawing from the stock (K_DRAW) or
    passing the upcard (K_UPCARD); the expert plays on."""
    w, pv = _start(ctx, view)
    top = view[V_TOP]
    turns = view[V_TURN]
    cfg, scratch, res, stock = ctx[C_CFG], ctx[C_SCRATCH], ctx[C_RES], ctx[C_STOCK]
    if take:
        _take_top(seat, top, w, pv)
        return play_out(seat, seat, PH_DISCARD, top, w, stock, 0, n_stock, turns, pv, cfg,
                        scratch, res)
    if kind == K_DRAW:
        w[seat, HAND] |= bit(stock[0])  # a turn: draw from the stock
        pv[V_STOCK] = n_stock - 1
        return play_out(seat, seat, PH_DISCARD, -1, w, stock, 1, n_stock, turns, pv, cfg,
                        scratch, res)
    if seat != view[V_DEALER]:  # the upcard passed by the non-dealer: the dealer's answer
        return play_out(seat, 1 - seat, PH_UPCARD2, -1, w, stock, 0, n_stock, turns, pv, cfg,
                        scratch, res)
    return play_out(seat, 1 - seat, PH_STOCK, -1, w, stock, 0, n_stock, turns, pv, cfg,
                    scratch, res)


# ---------------------------------------------------------------- decisions


@nb.njit(inline="always", cache=True)
def _value(points, win_weight):
    """A play-out's value: its points, plus ``win_weight`` for a hand won (less for one lost)."""
    return points + win_weight * ((points > 0) - (points < 0))


@nb.njit(cache=True)
def search(policy, kind, seat, hand, view, st, rules):
    """pimc:W's answer to question ``kind`` (layout.K_*), as a play policy answers it."""
    if not (rules[R_KINDS] >> kind) & 1:
        return _expert(kind, seat, hand, view)
    if kind == K_DRAW and not _worth_a_look(hand, view[V_TOP]):
        return 0
    ctx = new_context()
    unseen = facts(kind, seat, hand, view, ctx)
    if unseen < 0:
        return _expert(kind, seat, hand, view)
    n_unseen = 0
    m = np.uint64(unseen)
    while m:
        ctx[C_STOCK][n_unseen] = lowest_bit(m)
        m &= m - np.uint64(1)
        n_unseen += 1
    hidden = ctx[C_NEED][OPP]
    cfg = ctx[C_CFG]
    cfg[C_KNOCK_LIMIT] = view[V_KNOCK_LIMIT]
    cfg[C_GIN_BONUS] = rules[R_GIN]
    cfg[C_UNDERCUT_BONUS] = rules[R_UNDERCUT]
    cfg[C_VOID_AT_STOCK] = rules[R_VOID]
    _seed(ctx, st, seat, K_DISCARD if kind == K_KNOCK else kind, view[V_TURN])
    options, sums, knocks = ctx[C_OPTIONS], ctx[C_SUMS], ctx[C_KNOCKS]
    sums[:] = 0
    knocks[:] = 0
    if kind == K_DISCARD:
        n = _discards(hand, view, rules[R_DISCARDS], options)
    elif kind == K_KNOCK:
        n = 1
        options[0] = view[V_DISCARD]
    else:
        n = 2
        options[0] = _expert(kind, seat, hand, view)
        options[1] = 1 - options[0]
    ww = rules[R_WIN_WEIGHT]
    for _ in range(policy - PIMC):
        n_stock = _draw_world(ctx, seat, view, rules, n_unseen, hidden)
        for j in range(n):
            if kind == K_UPCARD or kind == K_DRAW:
                sums[j] += _value(_after_draw(ctx, kind, seat, options[j] == 1, view, n_stock),
                                  ww)
                continue
            c = options[j]
            if kind == K_KNOCK or gin_deadwood(np.uint64(hand) & ~bit(c)) <= view[V_KNOCK_LIMIT]:
                knocks[j] += _value(_knock_now(ctx, seat, c), ww)
            else:
                knocks[j] = -(1 << 40)  # no knock with this discard
            sums[j] += _value(_after_discard(ctx, seat, c, view, n_stock), ww)
    if kind == K_KNOCK:
        return 1 if knocks[0] >= sums[0] else 0
    best = 0
    for j in range(1, n):
        if max(sums[j], knocks[j]) > max(sums[best], knocks[best]):
            best = j
    return options[best]


@nb.njit(cache=True)
def choose(policy, kind, seat, hand, view, st, rules):
    """The play dispatcher of runs with a searching seat."""
    if policy >= PIMC:
        return search(policy, kind, seat, hand, view, st, rules)
    return policies.builtin_play(policy, kind, seat, hand, view, st)


def ask(kind, p, policies, hands, picks, discards, view, pst):
    """``engine._ask`` for the search kernels: ``policies`` holds the seats' ids, then the
    rules vector (:func:`rules_vector`)."""
    view[V_SEAT] = p
    view[V_OPP_PICKS] = np.int64(picks[1 - p])
    view[V_OPP_DISCARDS] = np.int64(discards[1 - p])
    return choose(policies[p], np.int64(kind), p, hands[p], view, pst, policies[2:])


_kernels = None
_preset = None


def kernels():
    """(hands kernel, games kernel) of runs with a searching seat (compiled on first use,
    cached on disk here: after editing the engine, delete this file's cache)."""
    _build()
    return _kernels


def play_preset(deck, dealer, cfg, ids, seed):
    """``engine.play_preset`` with searching seats: ``ids`` the seats' ids then the settings
    (:func:`rules_vector`)."""
    _build()
    return _preset(deck, dealer, cfg, ids, seed)


def _build():
    global _kernels, _preset
    if _kernels is None:
        def jit(f, name, **names):
            return nb.njit(cache=True)(home(rebind(f, **names), name, __file__))
        ask_fn = jit(ask, "search_ask")
        disc_fn = jit(engine._discard_and_knock.py_func, "search_discard_and_knock",
                      _ask=ask_fn)
        hand_fn = jit(engine.play_hand.py_func, "search_play_hand", _ask=ask_fn,
                      _discard_and_knock=disc_fn)
        _kernels = tuple(
            nb.njit(parallel=True, cache=True, nogil=True)(
                home(rebind(f, play_hand=hand_fn), name, __file__))
            for f, name in ((engine.hands_kernel, "search_hands_kernel"),
                            (engine.games_kernel, "search_games_kernel")))
        _preset = jit(engine.play_preset.py_func, "search_play_preset", play_hand=hand_fn)
