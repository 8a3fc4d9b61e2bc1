"""Gin Rummy ``expert`` play: hand reading, defensive discards, two draws ahead, knock timing.

Everything here is computed from what the seat asked may see (its hand and ``view``: the
discard pile, the opponent's picks still held and its discards, the stock count, the turn);
never the opponent's hand or the stock.  All masks are converted once to the meld kernels'
ace-low sequence order (``simcore.melds``), where card ``c + 1`` follows ``c`` in its suit.

**Hand reading.**  Each card the seat cannot see is given a chance of being in the opponent's
hand: 1 for a card it took from the pile and still holds; 0 for the seat's own cards and the
pile (buried cards are dead for both players); otherwise the share of unseen cards the
opponent's hidden cards make up, raised for partners of its picks (it took a card to meld it),
lowered next to cards it discarded or let pass (it is not collecting there) and for cards
ranked above its latest discard (a player throws its highest loose card, so what it holds
above that is in melds).

**Defensive discards.**  A discard's *danger* is the chance the opponent holds two cards that
meld with it (any set pair of its rank, any run window around it).  The discard minimises
deadwood kept + ``DANGER_COST`` x danger + ``OUT_COST`` x the live outs the card gives the
seat's own hand, unless the seat is about to knock (the discard goes face down: plain
minimum deadwood).  While the opponent's latest discard is low (``URGENT``) it is near a
knock: deadwood kept weighs more (danger and outs x ``URGENT_SCALE``) and a card worth less
than that discard costs ``LOW_FEED`` (taken in place of its highest loose card, it could
complete the knock).

**One draw ahead.**  The best ``LOOK_N`` discards scoring within ``LOOK_MARGIN`` of the best
are compared by the deadwood expected after the next stock draw (every unseen card equally
likely, the best card then discarded) instead of the deadwood kept, less ``KNOCK_CHANCE`` x
the chance that the draw lets the seat knock: it keeps the cards that get it to a knock
soonest (worth about 2 hands in 100 against OpenSpiel's simple gin bot, for about 2.7 times
the time of a hand without it).  The draws are valued exactly but cheaply: cards that
meld with nothing in the hand and cards that only make a set (one value per rank) are not
searched one by one, and the best discard after a melding draw is searched only among the
cards whose value can beat dropping the highest loose one.  With ``LOOK2_WEIGHT`` above 0
(the default, 160) each of them also earns that weight x a chance of knocking within the next
two draws (``_two_draws``): a first draw that lets it knock counts 1; one that melds with
nothing and does not, the one-draw knock chance again; one that melds and does not, the
one-draw knock chance of the hand it leaves, searched only while that hand keeps at most
``LOOK2_CUT`` deadwood (0 above it; the default 10, the usual knock limit, never searches:
searching up to 12-25 won at most 0.05 percentage points more of the hands against OpenSpiel's
simple bot and cost a quarter or more of the speed).

**Taking.**  The top card is taken when it lets the seat knock at once; a card that melds in
the hand, when it lowers the deadwood and leaves no more than the deadwood a stock draw is
expected to leave (``_outlook``) plus ``TAKE_SLACK`` (0; 1000: whenever it lowers the
deadwood); a card that melds with nothing, when it cuts the deadwood by ``TAKE_GAIN`` or
more.

**Knock timing.**  The seat knocks when its deadwood is at most a threshold: the rule's limit
less ``PICK_COST`` per card the opponent took from the pile and holds (its melds firm up, the
undercut risk grows; 0 by default: the knock at the limit wins more hands), never below
``KNOCK_FLOOR``; with gin it always knocks.  By default it
knocks that way however late (a knock wins the hand unless undercut, and waiting lets the
opponent knock first: measured against OpenSpiel's simple gin bot, docs/games/gin_rummy.md);
``KNOCK_EARLY`` turns followed by ``KNOCK_SLOPE`` points lower a turn give the later,
gin-seeking timing that wins more points and games against simcore's heuristic.  A ``knock``
decision other than the default (``limit``) overrides the timing with its fixed threshold, as
for the heuristic.
"""

import numba as nb
import numpy as np

from simcore.cards import bit, highest_bit, lowest_bit, popcount
from simcore.melds import (GIN_PLANES, best_discard_seq, from_sequence, mask_value, meldable,
                           min_deadwood_seq, rank_positions, run_completions, set_completions,
                           spread_ranks, to_sequence)
from simcore.games.gin_rummy.layout import (K_DISCARD, K_DRAW, K_KNOCK, K_UPCARD, V_DEADWOOD,
                                            V_KNOCK_AT, V_KNOCK_LIMIT, V_OPP_DISCARDS, V_OPP_PICKS,
                                            V_PILE, V_TAKEN, V_TOP, V_TURN)

# The expert's weights, one tuple so a tuning script can compile variants
# (``expert_play`` takes it as an argument):
#   DANGER_COST   deadwood points charged per unit of danger (expected opponent melds fed)
#   OUT_COST      points charged per live out a discarded card had in the seat's own hand
#   TAKE_GAIN     take an unmelding pile card only for this deadwood cut
#   KNOCK_EARLY   completed turns (both seats) during which any legal deadwood knocks; 1000:
#                 always (a hand is void long before), the default: see the docstring
#   KNOCK_SLOPE   threshold points lost per turn after that
#   PICK_COST     threshold points lost per card the opponent took from the pile and holds
#   KNOCK_FLOOR   the threshold never falls below this (a deadwood this low always knocks)
#   LOOK_WEIGHT   weight of the deadwood expected after the next stock draw (0: no look ahead)
#   KNOCK_CHANCE  points a discard earns per unit of chance that the next draw lets it knock
#   LOOK_MARGIN   only discards scoring within this of the best get the look ahead (speed)
#   HIGH_HELD     factor on the chance that an unseen card ranked above the opponent's last
#                 discard is held (a player throws its highest loose card, so what it holds
#                 above that is in melds)
#   URGENT        the opponent's last discard worth at most this: it is near a knock (0: never)
#   URGENT_SCALE  DANGER_COST and OUT_COST times this while the opponent is near a knock
#   LOW_FEED      points charged, while the opponent is near a knock, for discarding a card
#                 worth less than its last discard (such a card can complete its knock)
#   LOOK_N        at most this many of the best-scoring discards get the look ahead (speed)
#   LOOK_DW       no look ahead while the best discard keeps more deadwood (early in a hand the
#                 next draw cannot bring a knock, and the look ahead costs the most there)
#   TAKE_SLACK    a pile card that melds is taken only if the deadwood it leaves is at most the
#                 deadwood expected after a stock draw plus this (1000: any meld that lowers it)
#   LOOK2_WEIGHT  points a looked-at discard earns per unit of chance that it can knock within
#                 the next two stock draws (0: off, the one-draw look ahead alone)
#   LOOK2_CUT     the second draw is searched only after a first draw leaving at most this
#                 deadwood (above it: no chance counted; speed)
#   LOOK2_DW      the two-draw chance only while the best discard keeps at most this deadwood
#                 (speed)
PARAMS = (5.0, 2.0, 7.0, 1000.0, 1.0, 0.0, 1.0, 1.5, 40.0, 5.0, 0.5, 8.0, 0.5, 3.0, 6.0, 1000.0,
          0.0, 160.0, 10.0, 1000.0)

_ONE = np.uint64(1)
_ALL = np.uint64((1 << 52) - 1)
_SUIT = np.uint64(0x1FFF)
_LOW = np.uint64(1 | 1 << 13 | 1 << 26 | 1 << 39)  # pos 0 (ace) of every suit
_HIGH = _LOW << np.uint64(12)  # pos 12 (king) of every suit
_NEAR_UP = 1.6  # a partner of an opponent's pick is this much likelier held
_NEAR_DOWN = 0.5  # a card next to an opponent's discard or pass is this much less likely


@nb.njit(inline="always", cache=True)
def _neighbours(x):
    """Cards one step up or down in suit from a card of x, and every card of x's ranks."""
    x = np.uint64(x)
    up = (x << _ONE) & ~_LOW & _ALL
    down = (x >> _ONE) & ~_HIGH
    return up | down | spread_ranks(rank_positions(x))


@nb.njit(inline="always", cache=True)
def _last_discard(view):
    """The opponent's latest discard (public id; -1 if the pile's top card is not one): the top
    card, or the card this seat just took from the pile."""
    c = view[V_TAKEN] if view[V_TAKEN] >= 0 else view[V_TOP]
    if c < 0 or not (np.uint64(view[V_OPP_DISCARDS]) & bit(c)):
        return -1
    return c


@nb.njit(inline="always", cache=True)
def _unseen(h, view):
    """The cards the seat with hand h (sequence order) cannot see: not its own, not in the
    pile, not taken by the opponent from it."""
    pile = to_sequence(np.uint64(view[V_PILE]), True)
    known = to_sequence(np.uint64(view[V_OPP_PICKS]), True)
    return _ALL & ~h & ~pile & ~known


@nb.njit(inline="always", cache=True)
def _reading(hand, view, params):
    """(known, unseen, likely, unlikely, high, p): the opponent's known cards, the cards this
    seat cannot see, the unseen cards made likelier / less likely by the opponent's picks and
    passes, the unseen cards ranked above its last discard, and the base chance that an unseen
    card is in the opponent's hand (sequence order)."""
    h = to_sequence(hand, True)
    pile = to_sequence(np.uint64(view[V_PILE]), True)
    known = to_sequence(np.uint64(view[V_OPP_PICKS]), True)
    thrown = to_sequence(np.uint64(view[V_OPP_DISCARDS]), True)
    passed = pile & ~thrown  # this seat's discards (and the upcard) the opponent let lie
    unseen = _unseen(h, view)
    hidden = max(10 - popcount(known), 0)
    n = popcount(unseen)
    p = hidden / n if n > 0 else 0.0
    likely = unseen & _neighbours(known)
    unlikely = unseen & _neighbours(thrown | passed) & ~likely
    high = np.uint64(0)
    last = _last_discard(view)
    if last >= 0 and params[10] != 1.0:
        pos = lowest_bit(to_sequence(bit(last), True)) % 13
        above = _SUIT & ~((_ONE << np.uint64(pos + 1)) - _ONE)
        high = unseen & spread_ranks(above) & ~likely
    return known, unseen, likely, unlikely, high, p


@nb.njit(inline="always", cache=True)
def _held(c, known, unseen, likely, unlikely, high, p, f_high):
    """The chance that sequence card c is in the opponent's hand."""
    b = bit(c)
    if known & b:
        return 1.0
    if not (unseen & b):
        return 0.0
    if likely & b:
        return min(1.0, p * _NEAR_UP)
    q = p * _NEAR_DOWN if unlikely & b else p
    return q * f_high if high & b else q


@nb.njit(inline="always", cache=True)
def _window_sum(c, known, unseen, likely, unlikely, high, p, f_high):
    """Sum over the meld windows of card c (set pairs of its rank; run windows around it) of
    the product of the partners' chances of being held."""
    pos = c % 13
    suit = c // 13
    total = 0.0
    for a in range(4):  # set pairs
        if a == suit:
            continue
        pa = _held(13 * a + pos, known, unseen, likely, unlikely, high, p, f_high)
        for b in range(a + 1, 4):
            if b != suit:
                total += pa * _held(13 * b + pos, known, unseen, likely, unlikely, high, p,
                                    f_high)
    for lo in range(pos - 2, pos + 1):  # run windows lo .. lo + 2 containing pos
        if lo < 0 or lo + 2 > 12:
            continue
        prod = 1.0
        for q in range(lo, lo + 3):
            if q != pos:
                prod *= _held(13 * suit + q, known, unseen, likely, unlikely, high, p, f_high)
        total += prod
    return total


@nb.njit(inline="always", cache=True)
def _live_outs(c, h, unseen):
    """Unseen cards that would meld card c with one card of the seat's hand h (sequence)."""
    pos = c % 13
    suit = c // 13
    outs = 0
    rank = spread_ranks(_ONE << np.uint64(pos)) & ~bit(c)
    if popcount(rank & h) >= 1:
        outs += popcount(rank & unseen)
    for d in (-1, 1):
        q = pos + d
        if 0 <= q <= 12 and h & bit(13 * suit + q):
            for r in (pos - d, q + d):  # the two cards that complete the pair into a run
                if 0 <= r <= 12 and unseen & bit(13 * suit + r):
                    outs += 1
    return outs


@nb.njit(cache=True)  # not inlined (four callers): the match script compiled in 210 s, not 370
def _least_after_discard(x, full, skip, best):
    """min(best, the least deadwood of the cards x less one, not one of skip), given full, the
    minimum deadwood of x.  Dropping a card worth v leaves at least full - v, exactly that for
    a card that melds with nothing; so only melding cards worth more than the highest loose
    card are searched, from the highest position down (Gin values never fall with it), until
    full - v cannot beat the best."""
    melding = meldable(x)
    loose = x & ~melding
    if loose:
        best = min(best, full - mask_value(bit(highest_bit(rank_positions(loose))), GIN_PLANES))
    return _melding_drop(x, full, melding & ~skip, best, _ONE)[0]


@nb.njit(inline="always", cache=True)
def _melding_drop(x, full, melding, best, card):
    """(best, card) bettered by the least deadwood of x less one of ``melding`` (cards of x
    that meld), searched from the highest position down until dropping a card of that
    position (worth v, so leaving at least full - v) cannot beat best; ties keep ``card``."""
    ranks = rank_positions(melding)
    while ranks and best > 0:
        pos = highest_bit(ranks)
        ranks &= ~(_ONE << np.uint64(pos))
        if full - mask_value(bit(pos), GIN_PLANES) >= best:
            break
        m = melding & spread_ranks(_ONE << np.uint64(pos))
        while m:
            c = lowest_bit(m)
            m &= m - _ONE
            d = min_deadwood_seq(x & ~bit(c), GIN_PLANES)
            if d < best:
                best, card = d, bit(c)
    return best, card


@nb.njit(inline="always", cache=True)
def _drawn_deadwood(h, b, base):
    """The least deadwood after drawing card b (in a meld with h) into h and the best discard;
    discarding b itself leaves base, h's minimum deadwood."""
    x = h | b
    return _least_after_discard(x, min_deadwood_seq(x, GIN_PLANES), b, base)


@nb.njit(inline="always", cache=True)
def _loose_draws(loose, base, low, limit):
    """(summed deadwood, knocks) over drawing each card of ``loose`` (cards that meld with
    nothing) into a 10-card hand of minimum deadwood base whose best 9 cards leave low: the
    card drawn goes, or the hand's best card to drop does."""
    total, knocks = 0.0, 0
    m = loose
    while m:
        b = bit(lowest_bit(m))
        m &= m - _ONE
        d = min(base, low + mask_value(b, GIN_PLANES))
        total += d
        knocks += d <= limit
    return total, knocks


@nb.njit(inline="always", cache=True)
def _outlook(h, unseen, limit, base):
    """(expected deadwood, chance of a knockable hand) after one random unseen card is drawn
    into the 10-card hand h (sequence order, minimum deadwood base) and the best card
    discarded.  A card that melds with nothing is deadwood: it goes, or the best card to drop.
    Cards that only make a set share one value per rank (one swaps for the other in every
    arrangement); the others that meld are drawn one by one."""
    n = popcount(unseen)
    if n == 0:
        return float(base), 0.0
    low = _least_after_discard(h, base, np.uint64(0), 1 << 30)  # the best 9 of the 10 cards
    runs = unseen & run_completions(h)
    sets = unseen & set_completions(h) & ~runs
    total, knocks = _loose_draws(unseen & ~runs & ~sets, base, low, limit)
    m = runs
    while m:
        b = bit(lowest_bit(m))
        m &= m - _ONE
        d = _drawn_deadwood(h, b, base)
        total += d
        knocks += d <= limit
    ranks = rank_positions(sets)
    while ranks:
        pos = lowest_bit(ranks)
        ranks &= ranks - _ONE
        rank = sets & spread_ranks(_ONE << np.uint64(pos))
        same = popcount(rank)
        d = _drawn_deadwood(h, bit(lowest_bit(rank)), base)
        total += same * d
        knocks += same * (d <= limit)
    return total / n, knocks / n


@nb.njit(inline="always", cache=True)
def _valued_at_most(t):
    """The cards (sequence order) worth at most t points (Gin values: ace 1 ... face cards 10)."""
    if t >= 10:
        return _ALL
    if t <= 0:
        return np.uint64(0)
    return spread_ranks((_ONE << np.uint64(t)) - _ONE)


@nb.njit(cache=True)
def _knock_chance(h, unseen, limit, base):
    """The chance that one random unseen card drawn into the 10-card hand h (sequence order,
    minimum deadwood base > limit) lets the seat knock after its best discard: a card that
    melds with nothing does when the best 9 of h plus its value are within the limit; the
    others are searched with the bound ``full - v`` (no discard of a card worth v leaves less)
    against limit + 1, sets once per rank."""
    n = popcount(unseen)
    if n == 0:
        return 0.0
    runs = unseen & run_completions(h)
    sets = unseen & set_completions(h) & ~runs
    knocks = 0
    if base - mask_value(bit(highest_bit(rank_positions(h))), GIN_PLANES) < limit:
        # else no card dropped leaves less than limit, and a loose draw adds at least 1
        low = _least_after_discard(h, base, np.uint64(0), 1 << 30)
        knocks = popcount(unseen & ~runs & ~sets & _valued_at_most(limit - low))
    m = runs
    while m:
        b = bit(lowest_bit(m))
        m &= m - _ONE
        x = h | b
        if _least_after_discard(x, min_deadwood_seq(x, GIN_PLANES), b, limit + 1) <= limit:
            knocks += 1
    ranks = rank_positions(sets)
    while ranks:
        pos = lowest_bit(ranks)
        ranks &= ranks - _ONE
        rank = sets & spread_ranks(_ONE << np.uint64(pos))
        x = h | bit(lowest_bit(rank))
        if _least_after_discard(x, min_deadwood_seq(x, GIN_PLANES), x & ~h, limit + 1) <= limit:
            knocks += popcount(rank)
    return knocks / n


@nb.njit(cache=True)
def _drop_after_draw(h, b, base):
    """(deadwood, card dropped) for the best discard after drawing b (in a meld with h) into
    the 10-card hand h of minimum deadwood base; b itself (leaving base) on ties."""
    x = h | b
    full = min_deadwood_seq(x, GIN_PLANES)
    best, card = base, b
    melding = meldable(x)
    loose = x & ~melding
    if loose:
        r = rank_positions(loose)
        pos = highest_bit(r)
        d = full - mask_value(bit(pos), GIN_PLANES)
        if d < best:
            best, card = d, loose & spread_ranks(_ONE << np.uint64(pos))
            card = bit(lowest_bit(card))
    return _melding_drop(x, full, melding & ~b, best, card)


@nb.njit(cache=True)
def _two_draws(h, unseen, limit, base, cut, memo_h, memo_b, memo_v, n_memo):
    """(expected deadwood and knock chance after one draw, as ``_outlook``; the chance that the
    10-card hand h, sequence order, minimum deadwood base > limit, can knock after one of the
    next two stock draws; the memo's new length).  Each unseen card is equally likely, the
    minimum-deadwood card is discarded after the first draw, and the opponent's turn between
    is not modelled.  A first draw that melds with nothing knocks at once (the best 9 of h plus
    its value within the limit) or leaves h, or h with its best card to drop swapped for it:
    valued as h's own one-draw chance.  A first draw that melds is followed exactly, its
    second draw searched only when the first leaves at most cut deadwood (0 chance above it).
    The chances of the hands after a first draw are kept in the memo (hand, draw, chance;
    shared by the discards looked at)."""
    n = popcount(unseen)
    if n == 0:
        return float(base), 0.0, 0.0, n_memo
    low = _least_after_discard(h, base, np.uint64(0), 1 << 30)
    runs = unseen & run_completions(h)
    sets = unseen & set_completions(h) & ~runs
    loose = unseen & ~runs & ~sets
    total, knocks = _loose_draws(loose, base, low, limit)
    melded2 = 0.0
    loose_knocks = knocks
    ranks = rank_positions(sets)
    m = runs
    while m or ranks:
        if m:
            b = bit(lowest_bit(m))
            m &= m - _ONE
            same = 1
        else:
            pos = lowest_bit(ranks)
            ranks &= ranks - _ONE
            rank = sets & spread_ranks(_ONE << np.uint64(pos))
            b = bit(lowest_bit(rank))
            same = popcount(rank)
        d, c = _drop_after_draw(h, b, base)
        total += same * d
        if d <= limit:
            knocks += same
        elif d <= cut:
            h2 = (h | b) & ~c
            k = 0
            while k < n_memo and (memo_h[k] != h2 or memo_b[k] != b):
                k += 1
            if k < n_memo:
                v = memo_v[k]
            else:
                v = _knock_chance(h2, unseen & ~b, limit, d)
                if n_memo < len(memo_h):
                    memo_h[n_memo], memo_b[n_memo], memo_v[n_memo] = h2, b, v
                    n_memo += 1
            melded2 += same * v
    once = knocks / n
    if base <= limit:
        return total / n, once, 1.0, n_memo
    two = (knocks + (popcount(loose) - loose_knocks) * once + melded2) / n
    return total / n, once, two, n_memo


@nb.njit(inline="always", cache=True)
def knock_threshold(view, params):
    """The deadwood at or below which the expert knocks now (GR-9, never above the rule)."""
    limit = view[V_KNOCK_LIMIT]
    at = view[V_KNOCK_AT]
    if at >= 0:  # a fixed ``knock`` decision
        return min(at, limit)
    late = max(view[V_TURN] - params[3], 0.0)
    picks = popcount(np.uint64(view[V_OPP_PICKS]))
    t = limit - params[4] * late - params[5] * picks
    return int(min(float(limit), max(params[6], t)))


@nb.njit(inline="always", cache=True)
def _weights(view, params):
    """(danger cost, out cost, low-feed cost, value of the opponent's last discard): while
    that discard is worth at most URGENT the opponent is near a knock, so deadwood kept weighs
    more than danger and outs, and a card worth less than that discard could complete its
    knock (taken in place of its highest loose card)."""
    last = _last_discard(view)
    v = mask_value(to_sequence(bit(last), True), GIN_PLANES) if last >= 0 else 99
    if v <= params[11]:
        return params[0] * params[12], params[1] * params[12], params[13], v
    return params[0], params[1], 0.0, v


@nb.njit(inline="always", cache=True)
def discard_scores(hand, view, params, danger_of, danger_weight):
    """The first pass over the 11-card hand's discards: (h, unseen, cards, scores, dws, n,
    low_card, low_dw) in sequence ids, ``cards[:n]`` the allowed discards, ``scores`` their
    defensive scores, ``dws`` the deadwood each keeps, ``low_card`` the minimum-deadwood
    discard (ties to the higher value, then the higher id, as ``melds.best_discard_seq``)
    keeping ``low_dw``.  A card's danger is the reading's (``_window_sum``) at DANGER_COST,
    or with ``danger_weight`` >= 0 ``danger_of[public id]`` at that weight (scaled as
    DANGER_COST is while the opponent is near a knock): the ``pimc`` policy's reading.  A card
    that melds with nothing is deadwood in every arrangement, so dropping it lowers the
    deadwood by exactly its value."""
    h = to_sequence(hand, True)
    keep = np.uint64(0)
    if view[V_TAKEN] >= 0:  # never the card just taken, even where the rules allow it
        keep = to_sequence(bit(view[V_TAKEN]), True)
    allowed = h & ~keep
    loose = allowed & ~meldable(h)
    base = min_deadwood_seq(h, GIN_PLANES) if loose else 0
    known, unseen, likely, unlikely, high, p = _reading(hand, view, params)
    danger_cost, out_cost, low_feed, last_value = _weights(view, params)
    if danger_weight >= 0:
        danger_weight *= danger_cost / params[0] if params[0] > 0 else 1.0
    low_card, low_dw, low_val = -1, 1 << 30, -1
    cards = np.empty(11, np.int64)
    scores = np.empty(11, np.float64)
    dws = np.empty(11, np.int64)
    n = 0
    m = allowed
    while m:
        c = lowest_bit(m)
        m &= m - _ONE
        v = mask_value(bit(c), GIN_PLANES)
        dw = base - v if loose & bit(c) else min_deadwood_seq(h & ~bit(c), GIN_PLANES)
        if dw < low_dw or (dw == low_dw and v >= low_val):
            low_card, low_dw, low_val = c, dw, v
        if danger_weight >= 0:
            danger = danger_weight * danger_of[lowest_bit(from_sequence(bit(c), True))]
        else:
            danger = danger_cost * min(1.0, _window_sum(c, known, unseen, likely, unlikely, high,
                                                        p, params[10]))
        score = dw + danger + out_cost * _live_outs(c, h & ~bit(c), unseen)
        if v < last_value:
            score += low_feed
        cards[n], scores[n], dws[n] = c, score, dw
        n += 1
    return h, unseen, cards, scores, dws, n, low_card, low_dw


_NO_DANGER = np.zeros(0, np.float64)


@nb.njit(inline="always", cache=True)
def _discard(hand, view, params):
    """The card to discard from the 11-card hand (public id): the minimum-deadwood discard
    when it lets the seat knock, else the best of ``discard_scores`` after the look one
    draw ahead of the best LOOK_N (within LOOK_MARGIN)."""
    h, unseen, cards, scores, dws, n, low_card, low_dw = discard_scores(hand, view, params,
                                                                         _NO_DANGER, -1.0)
    if low_dw <= knock_threshold(view, params):
        return lowest_bit(from_sequence(bit(low_card), True))
    return lowest_bit(from_sequence(bit(_look_ahead(h, unseen, view, params, cards, scores,
                                                    dws, n)), True))


@nb.njit(cache=True)  # not inlined, as expert_play
def _look_ahead(h, unseen, view, params, cards, scores, dws, n):
    """The best-scoring discard (sequence id) after the look one draw ahead of the best
    LOOK_N candidates scoring within LOOK_MARGIN of the best (none with LOOK_WEIGHT 0, nor
    while the best keeps more than LOOK_DW deadwood)."""
    order = np.argsort(scores[:n], kind="mergesort")  # stable: ties to the lower card
    best, best_total = cards[order[0]], scores[order[0]]
    if params[7] <= 0 or dws[order[0]] > params[15]:
        return best
    if n < 2 or params[14] < 2 or scores[order[1]] > scores[order[0]] + params[9]:
        return best  # a single candidate: the look ahead would not change the answer
    best_total = 1e30
    two = params[17] > 0 and dws[order[0]] <= params[19]
    memo_h = np.empty(128 if two else 0, np.uint64)
    memo_b = np.empty(128 if two else 0, np.uint64)
    memo_v = np.empty(128 if two else 0, np.float64)
    n_memo = 0
    for j in range(min(n, int(params[14]))):
        i = order[j]
        if scores[i] > scores[order[0]] + params[9]:
            break  # far from the best: not worth the look ahead (speed)
        if two:
            e, pk, pk2, n_memo = _two_draws(h & ~bit(cards[i]), unseen, view[V_KNOCK_LIMIT],
                                            dws[i], params[18], memo_h, memo_b, memo_v, n_memo)
            total = scores[i] + params[7] * (e - dws[i]) - params[8] * pk - params[17] * pk2
        else:
            e, pk = _outlook(h & ~bit(cards[i]), unseen, view[V_KNOCK_LIMIT], dws[i])
            total = scores[i] + params[7] * (e - dws[i]) - params[8] * pk
        if total < best_total:
            best, best_total = cards[i], total
    return best


@nb.njit(inline="always", cache=True)
def _take(hand, view, params):
    """Take the top card of the pile (1) or draw from the stock (0)."""
    top = view[V_TOP]
    if top < 0:
        return 0
    h = to_sequence(hand, True)
    t = to_sequence(bit(top), True)
    now = min_deadwood_seq(h, GIN_PLANES)
    _, after = best_discard_seq(h | t, t, GIN_PLANES)
    if after <= knock_threshold(view, params) and after < now:
        return 1
    if meldable(h | t) & t and after < now:
        if params[16] >= 1000:
            return 1
        e, _ = _outlook(h, _unseen(h, view), view[V_KNOCK_LIMIT], now)
        return 1 if after <= e + params[16] else 0
    return 1 if now - after >= params[2] else 0


# Not inlined: a call costs nothing beside its look ahead, and the one cached compile (with the
# engines' types) serves every caller, also those passing parameter tuples of their own.
@nb.njit(cache=True)
def expert_play(kind, seat, hand, view, st, params):
    if kind == K_UPCARD or kind == K_DRAW:
        return _take(hand, view, params)
    if kind == K_DISCARD:
        return _discard(hand, view, params)
    return 1 if view[V_DEADWOOD] <= knock_threshold(view, params) else 0
