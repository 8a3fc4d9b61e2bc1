"""Dummy ``expert`` play: takes worth their cost, early opening, safe discards, dumping by the stock.

Everything here is computed from what the asked seat may see: its hand and ``view`` (the pile
in order, the table melds, who has opened, the stock count, every seat's card count, the cards
each seat took from the pile and still holds, and what each seat discarded; layout.V_*).
Never another hand or the stock.  Every answer is an index into the legal actions the engine
listed, so the policy cannot play an illegal move.  It draws no random numbers.

**Where the cards are.**  Each card the seat cannot see gets a chance of being in the *next*
player's hand (the seat after it in the deal's direction, who is first to take its discard):
1 for a card that player took from the pile and still holds; 0 for the seat's own cards, the
pile, the table and other seats' picks; otherwise that player's hidden cards over the unseen
cards, lowered next to the cards it discarded (it is not collecting there).

**Taking.**  A take scores the meld's points, plus ``TAKEN_MELDS`` times the points of the
taken cards that would meld with the rest of the hand, less the taken cards that would sit dead
in hand (their points times a weight from ``DEAD_EARLY`` to ``DEAD_LATE`` as the deal gets
late, plus ``DEAD_CARD`` each).  Opening is worth ``OPEN`` plus ``OPEN_MELDS`` times the points
of the hand melds it lets the seat lay at once (an unopened seat may not lay them, and pays
double for its hand when someone knocks).  A take after which the seat can knock scores 1000
more.  The best take is made when it scores at least ``TAKE_AT`` (a negative threshold: a pile
meld is also one the next player cannot take).  "Late" runs from 0 with a full stock to 1 with
an empty one, and is 1 once an opponent holds ``CLOSE`` cards or fewer (it may knock any turn).

**Playing.**  It knocks whenever it can, keeping its cheapest card face down (a speto when a
speto knock card is worth 100); otherwise it lays every meld and then its most valuable
lay-offs (melds first: they are not limited).

**Discarding.**  Each card scores its points times ``DUMP`` (plus ``DUMP_LATE`` late: a card
still held when someone knocks is paid for), less the heuristic's keep terms (a speto, except
that at 3 or 4 players one that melds with nothing is let go late, ``SPETO_LATE``; a card of a
meld held, ``HALF`` for a card with a meld partner in hand, ``NEAR`` for one next to a speto or
the head card in the pile, ``FITS`` for one that fits a table meld, ``PILE_MELD`` for
one that melds with pile cards), less ``OUTS`` per live out early (unseen cards making a meld
with it and a hand card), less the danger of feeding the next player: the chance it can meld
the discard (``feed_chance``) times ``DANGER`` x the points the meld would bring it, plus
``FOOL`` when it holds ``CLOSE`` cards or fewer (it could knock on the take, and the
discarder would pay the fool penalty, DM-27); less the penalties the options in force would
charge (DM-32 ... DM-34).  The highest score is discarded.
"""

import numba as nb
import numpy as np

from simcore.cards import bit, lowest_bit, popcount
from simcore.melds import meldable, spread_ranks
from simcore.games.dummy.tactics import (
    can_knock_after, choose_play, feeding_pile_prizes, fits_table, near,
)
from simcore.games.dummy.layout import (
    K_ACQUIRE, K_PLAY, PEN_FULL, PEN_HEAD_FEED, PEN_LAYOFF,
    PEN_SPETO_DISCARD, PEN_SPETO_FEED, SPETOS, TAKE_SHIFT, V_COUNT0, V_DIR, V_DISCARDS0,
    V_FINAL, V_HEAD, V_HEAD_BONUS, V_HEAD_IN_PILE, V_N_PILE, V_OPENED,
    V_PENALTIES, V_PICKS0, V_PILE0, V_PILE_MASK, V_PLAYERS, V_STOCK, V_TABLE_MASK,
    points,
)

# The expert's weights, one tuple so a tuning script can compile variants.
PARAMS = (
    100.0,  # 0 OPEN: value of opening beyond the hand melds it frees
    1.0,    # 1 OPEN_MELDS: weight of the points of hand melds an opening lets it lay
    1.0,    # 2 TAKEN_MELDS: weight of the points of taken cards that meld with the rest
    0.1,    # 3 DEAD_EARLY: weight of a dead taken card's points early
    0.5,    # 4 DEAD_LATE: ... late (stock used up, or an opponent close to knocking)
    0.0,    # 5 DEAD_CARD: cost of each dead card taken
    -50.0,  # 6 TAKE_AT: the least score of a take made
    1.0,    # 7 DUMP: weight of a discard's points
    0.0,    # 8 DUMP_LATE: extra weight of its points late
    0.0,    # 9 OUTS: value of a live out of a card early
    8.0,    # 10 DANGER: weight of the points a discard may feed the next player
    200.0,  # 11 FOOL: what a feed costs when the next player could knock on it
    4.0,    # 12 CLOSE: an opponent holding this many cards or fewer makes it late
    30.0,   # 13 HALF: keeping a card with a meld partner in hand
    100.0,  # 14 PILE_MELD: keeping a card that melds with pile cards
    100.0,  # 15 FITS: keeping a card that fits a table meld (a lay-off to come)
    200.0,  # 16 NEAR: keeping a card next to a speto or the head card in the pile
    -100.0,  # 17 SPETO_LATE: keeping a dead speto late, at 3 or 4 players (1000: always kept)
)

_ONE = np.uint64(1)
_ALL = np.uint64((1 << 52) - 1)
_HAND_SIZE = (0, 0, 11, 9, 7)


@nb.njit(inline="always", cache=True)
def _rank_cards(c):
    return spread_ranks(_ONE << np.uint64(c % 13))


@nb.njit(inline="always", cache=True)
def _stock_left(view):
    """The share of the first stock still to draw (1 at the start, 0 when it is out)."""
    n_pl = view[V_PLAYERS]
    first = 52 - n_pl * _HAND_SIZE[n_pl] - 1
    return min(1.0, max(0.0, view[V_STOCK] / first))


@nb.njit(cache=True)
def lateness(seat, view, params):
    """0 early ... 1 late: the stock used up, or 1 once an opponent holds ``CLOSE`` cards or
    fewer (it may knock any turn)."""
    for s in range(view[V_PLAYERS]):
        if s != seat and view[V_COUNT0 + s] <= params[12]:
            return 1.0
    return 1.0 - _stock_left(view)


@nb.njit(cache=True)
def next_player_chances(seat, hand, view, prob):
    """``prob[c]``: the chance the next player holds card c, from what ``seat`` may see."""
    n_pl = view[V_PLAYERS]
    nxt = (seat + view[V_DIR]) % n_pl
    seen = np.uint64(hand) | np.uint64(view[V_PILE_MASK]) | np.uint64(view[V_TABLE_MASK])
    for s in range(n_pl):
        if s != seat:
            seen |= np.uint64(view[V_PICKS0 + s])
    picks = np.uint64(view[V_PICKS0 + nxt])
    unseen = _ALL & ~seen
    hidden = view[V_COUNT0 + nxt] - popcount(picks)
    n_unseen = popcount(unseen)
    base = hidden / n_unseen if n_unseen > 0 and hidden > 0 else 0.0
    # cards near the next player's discards are less likely held (it threw their partner)
    cold = np.uint64(0)
    o = np.uint64(view[V_DISCARDS0 + nxt])
    while o:
        x = lowest_bit(o)
        o &= o - _ONE
        cold |= near(x)
    for c in range(52):
        b = bit(c)
        if picks & b:
            prob[c] = 1.0
        elif unseen & b:
            prob[c] = base * (0.5 if cold & b else 1.0)
        else:
            prob[c] = 0.0
    return nxt


@nb.njit(inline="always", cache=True)
def _pair(x, y, prob, pile):
    """The chance the next player can meld x and y with a discard: both in its hand, or one
    in its hand and one in the pile (a take may reach down to it)."""
    px = 1.0 if (pile & bit(x)) else prob[x]
    py = 1.0 if (pile & bit(y)) else prob[y]
    if (pile & bit(x)) and (pile & bit(y)):
        return 0.0
    return px * py


@nb.njit(cache=True)
def feed_chance(c, prob, pile):
    """(chance, worth): the chance the next player holds what makes a meld with discard c (a
    set pair of c's rank, or a run window around c; a union bound capped at 1), and the
    expected points of the two cards it would meld c with."""
    r = c % 13
    total = 0.0
    worth = 0.0
    others = _rank_cards(c) & ~bit(c)
    a = others
    while a:
        x = lowest_bit(a)
        a &= a - _ONE
        b = a
        while b:
            y = lowest_bit(b)
            b &= b - _ONE
            q = _pair(x, y, prob, pile)
            total += q
            worth += q * points(bit(x) | bit(y))
    if r >= 2:
        q = _pair(c - 2, c - 1, prob, pile)
        total += q
        worth += q * points(bit(c - 2) | bit(c - 1))
    if 1 <= r <= 11:
        q = _pair(c - 1, c + 1, prob, pile)
        total += q
        worth += q * points(bit(c - 1) | bit(c + 1))
    if r <= 10:
        q = _pair(c + 1, c + 2, prob, pile)
        total += q
        worth += q * points(bit(c + 1) | bit(c + 2))
    if total <= 0.0:
        return 0.0, 0.0
    return min(1.0, total), worth / total


@nb.njit(cache=True)
def live_outs(c, hand, view):
    """Unseen cards that make a meld with c and another card of the hand (c held alone)."""
    h = np.uint64(hand)
    seen = h | np.uint64(view[V_PILE_MASK]) | np.uint64(view[V_TABLE_MASK])
    for s in range(view[V_PLAYERS]):
        seen |= np.uint64(view[V_PICKS0 + s])
    unseen = _ALL & ~seen
    r = c % 13
    outs = np.uint64(0)
    same = _rank_cards(c) & ~bit(c)
    if same & h:
        outs |= same & unseen
    suit_lo = c - r
    for d in (-1, 1):
        y = c + d
        if suit_lo <= y <= suit_lo + 12 and (h & bit(y)):
            z1, z2 = min(c, y) - 1, max(c, y) + 1
            if z1 >= suit_lo:
                outs |= bit(z1) & unseen
            if z2 <= suit_lo + 12:
                outs |= bit(z2) & unseen
    for d in (-2, 2):
        y = c + d
        if suit_lo <= y <= suit_lo + 12 and (h & bit(y)):
            outs |= bit((c + y) // 2) & unseen
    return popcount(outs)


@nb.njit(cache=True)
def take_score(seat, hand, view, a, params):
    """The worth of take ``a`` (depth << TAKE_SHIFT | meld) for ``seat``."""
    h = np.uint64(hand)
    d = a >> TAKE_SHIFT
    meld = np.uint64(a) & _ALL
    taken = np.uint64(0)
    for k in range(d, view[V_N_PILE]):
        taken |= bit(view[V_PILE0 + k])
    rest = (h | taken) & ~meld
    extra = taken & ~meld
    melds_after = meldable(rest)
    dead = extra & ~melds_after
    late = lateness(seat, view, params)
    w_dead = params[3] * (1.0 - late) + params[4] * late
    score = (points(meld) + params[2] * points(extra & melds_after)
             - w_dead * points(dead) - params[5] * popcount(dead))
    if view[V_HEAD_BONUS] and (meld & bit(view[V_HEAD])):
        score += 50
    if not (view[V_OPENED] >> seat) & 1:
        score += params[0] + params[1] * points(melds_after & h)
    if can_knock_after(rest):
        score += 1000
    return score


@nb.njit(cache=True)
def choose_acquire(seat, hand, view, acts, n, params):
    best = 0
    best_score = -1e18
    for i in range(n):
        if acts[i] < 0:
            continue
        score = take_score(seat, hand, view, acts[i], params)
        if score > best_score:
            best_score = score
            best = i
    if view[V_FINAL] or best_score >= params[6]:
        return best
    return 0


@nb.njit(cache=True)
def penalty_risk(c, view):
    """The DM-32 ... DM-34 penalties (each 50) a discard of c risks under the options in force:
    charged at once (lay-off card, a card melding with two pile cards) or if the next player
    takes the feed (counted at half)."""
    pen = view[V_PENALTIES]
    if pen == 0:
        return 0.0
    cb = bit(c)
    pile = np.uint64(view[V_PILE_MASK])
    risk = 0.0
    if (pen & PEN_LAYOFF) and fits_table(c, view):
        risk += 50
    if (pen & PEN_FULL) and (meldable(pile | cb) & cb):
        risk += 50
    if (pen & PEN_HEAD_FEED) and view[V_HEAD_IN_PILE] and (near(view[V_HEAD]) & cb):
        risk += 25
    if pen & PEN_SPETO_FEED:
        sp = pile & SPETOS
        while sp:
            x = lowest_bit(sp)
            sp &= sp - _ONE
            if near(x) & cb:
                risk += 25
    if (pen & PEN_SPETO_DISCARD) and (cb & SPETOS) and (near(c) & pile):
        risk += 25
    return risk


@nb.njit(inline="always", cache=True)
def speto_keep(useful, players, late, params):
    """What keeping a speto is worth against discarding it: 1000 (never discarded) while it
    melds with something (a card in hand, a table meld, the pile) or at 2 players; a dead
    speto at 3 or 4 players goes from 1000 early to ``SPETO_LATE`` late.  With three
    opponents and short hands a deal ends soon, and a speto still held costs 50 (100
    unopened); at 2 players the one opponent is the next player, who melds the discard."""
    if useful or players < 3:
        return 1000.0
    return 1000.0 * (1.0 - late) + params[17] * late


@nb.njit(cache=True)
def choose_discard(seat, hand, view, acts, n, params):
    h = np.uint64(hand)
    prob = np.zeros(52)
    nxt = next_player_chances(seat, hand, view, prob)
    pile = np.uint64(view[V_PILE_MASK])
    held = meldable(h)
    late = lateness(seat, view, params)
    n_pl = view[V_PLAYERS]
    close = view[V_COUNT0 + nxt] <= params[12]  # the next player might knock on a take
    hot = feeding_pile_prizes(view)
    best = 0
    best_score = -1e18
    for i in range(n):
        c = acts[i]
        cb = bit(c)
        v = points(cb)
        score = v * (params[7] + params[8] * late)
        partnered = (_partners(c) & h) != 0
        fits = fits_table(c, view)
        pile_meld = (meldable(pile | cb) & cb) != 0
        if cb & SPETOS:
            score -= speto_keep(partnered or fits or pile_meld, n_pl, late, params)
        if held & cb:
            score -= 400
        if partnered:
            score -= params[13]
        if cb & hot:
            score -= params[16]
        if fits:
            score -= params[15]
        if pile_meld:
            score -= params[14]
        if params[9] != 0.0:
            score -= params[9] * (1.0 - late) * live_outs(c, h, view)
        feed, worth = feed_chance(c, prob, pile)
        score -= feed * (params[10] * (v + worth) + (params[11] if close else 0.0))
        score -= penalty_risk(c, view)
        if score > best_score or (score == best_score and c > acts[best]):
            best_score = score
            best = i
    return best


@nb.njit(inline="always", cache=True)
def _partners(c):
    """The cards that make half a meld with c: its rank, and its suit neighbours."""
    m = _rank_cards(c) & ~bit(c)
    if c % 13 < 12:
        m |= bit(c + 1)
    if c % 13 > 0:
        m |= bit(c - 1)
    return m


@nb.njit(cache=True)
def expert_play(kind, seat, hand, view, acts, n, st, params):
    if kind == K_ACQUIRE:
        return choose_acquire(seat, hand, view, acts, n, params)
    if kind == K_PLAY:
        return choose_play(view, acts, n)
    return choose_discard(seat, hand, view, acts, n, params)
