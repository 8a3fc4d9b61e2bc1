"""Move generation and ordering: one card per run of equivalent cards, best-looking first.

:func:`gen_moves` fills a depth's move list.  The four-seat partnership games lead and follow
by DDS's weights (simcore.solver.weights); the nil objective by its own scores
(simcore.solver.nil); elsewhere (Trump Friend, Euchre's lone hands) by the plain order below.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from simcore.cards import bit, highest_bit, lowest_bit
from simcore.solver.context import C_COUNT, C_MAX, C_NACTIVE, C_NEXT, C_NSEATS, C_POINTS, C_TRUMP
from simcore.solver.nil import nil_score, nil_seat
from simcore.solver.position import (
    SUIT_FIELD, beats, cards_in_hands, legal_cards, suit_bits, trick_winner,
)
from simcore.solver.weights import follow_weight, lead_weight

LOW_TRUMP_LEAD = 1000  # card points: a low trump is led before low side cards (after masters
# and leads to the partner or its ruff)
LOW_TRUMP_LEAD_BEHIND = 2000  # ... and before the partner's master and ruff while the other
# side holds the top trump
TRUMP_MASTER_LEAD = -2000  # card points: a master trump is cashed after the side masters
KILLER_LEAD = 3000  # card points: the last cut-off lead at this depth goes first after the
# table's best
BEST_MOVE = 100000  # the table's remembered best card: first


@nb.njit(cache=True, _nrt=False)
def representative(ctx, hands, mover, inplay, c):
    """The lowest card of c's run: the mover's cards below c with nothing else in play between
    them and the same points."""
    h = hands[mover]
    s = c >> 4
    while True:
        below = inplay & (bit(c) - np.uint64(1)) & suit_bits(s)
        if below == 0:
            return c
        d = highest_bit(below)
        if not (h >> np.uint64(d)) & np.uint64(1) or ctx[C_POINTS + d] != ctx[C_POINTS + c]:
            return c
        c = d


@nb.njit(cache=True, _nrt=False)
def overtaken(ctx, hands, led, wcard, winner, mover, tlen):
    """Can a seat still to play after ``mover`` (the trick holding ``tlen`` cards before it)
    take the trick from ``winner`` (holding ``wcard``) and turn it the other way for the
    count?"""
    trump = ctx[C_TRUMP]
    count = ctx[C_COUNT]
    side = (count >> winner) & 1
    ws = wcard >> 4
    seat = mover
    for _ in range(ctx[C_NACTIVE] - tlen - 1):
        seat = ctx[C_NEXT + seat]
        if ((count >> seat) & 1) == side:
            continue
        ht = hands[seat]
        follow = (ht >> np.uint64(16 * led)) & SUIT_FIELD
        if follow:
            if ws == led and (follow >> np.uint64(wcard & 15)) > np.uint64(1):
                return True
        elif trump >= 0:
            tr = (ht >> np.uint64(16 * trump)) & SUIT_FIELD
            if tr and (ws != trump or (tr >> np.uint64(wcard & 15)) > np.uint64(1)):
                return True
    return False


@nb.njit(inline="always", cache=True)
def plays_like_lower(ctx, hand, inplay, c):
    """Is c, of ``hand``, equivalent to the next lower card in play (``inplay``): the same hand's,
    with the same points (as gen_moves groups them)?"""
    below = inplay & (bit(c) - np.uint64(1)) & suit_bits(c >> 4)
    if below == 0:
        return False
    d = highest_bit(below)
    return (hand >> np.uint64(d)) & np.uint64(1) != 0 and ctx[C_POINTS + d] == ctx[C_POINTS + c]


@nb.njit(inline="always", cache=True)
def one_per_run(ctx, hand, inplay, cards):
    """(the lowest card of each run of equivalent ``cards`` of ``hand``: a run is the hand's
    cards with nothing else in play between them and the same points; the other cards of the
    runs, which play like their run's lowest)."""
    lowest = np.uint64(0)
    equiv = np.uint64(0)
    m = cards
    while m:
        c = lowest_bit(m)
        m &= m - np.uint64(1)
        if plays_like_lower(ctx, hand, inplay, c):
            equiv |= bit(c)
        else:
            lowest |= bit(c)
    return lowest, equiv


@nb.njit(inline="always", cache=True)
def groups_relied(ctx, hands, seat, inplay, equiv, rel):
    """``rel`` plus what a seat's grouping of equivalent cards relied on when it tried every
    group (as _with_groups): a group reaching the relied-on top cards of its suit stays one
    group only as long as its lowest card is a top card too."""
    out = rel
    while equiv:
        c = lowest_bit(equiv)
        equiv &= equiv - np.uint64(1)
        rs = rel & suit_bits(c >> 4)
        if rs and c >= lowest_bit(rs):
            out |= bit(representative(ctx, hands, seat, inplay, c))
    return out


@nb.njit(inline="always", cache=True)
def lead_context(ctx, hands, mover):
    """What the plain lead order weighs: (the cards of the mover's partners, the suits an
    opponent could ruff if led, the suits a partner could ruff), the suits as bits 0-3."""
    trump = ctx[C_TRUMP]
    maxi = ctx[C_MAX]
    mover_max = (maxi >> mover) & 1
    partner_cards = np.uint64(0)
    ruffable = 0
    partner_ruffs = 0
    for t in range(ctx[C_NSEATS]):
        ht = hands[t]
        if t == mover or ht == 0:
            continue
        if ((maxi >> t) & 1) == mover_max:
            partner_cards |= ht
            if trump >= 0 and (ht & suit_bits(trump)):
                for s in range(4):
                    if (ht & suit_bits(s)) == 0:
                        partner_ruffs |= 1 << s
        elif trump >= 0 and (ht & suit_bits(trump)):
            for s in range(4):
                if (ht & suit_bits(s)) == 0:
                    ruffable |= 1 << s
    return partner_cards, ruffable, partner_ruffs


@nb.njit(inline="always", cache=True)
def _plain_lead_score(ctx, hands, left, mover, c, partner_cards, ruffable, partner_ruffs,
                      killer, haspts):
    """The plain order's score of leading c (higher first): cash a master the opponents cannot
    ruff, lead low to the partner's master or for its ruff, else low, keeping the point cards
    back.  With card points a master trump waits for the side masters, a low trump comes
    before low side cards (before the partner's master too while the other side holds the top
    trump), and the depth's last cut-off lead (``killer``) comes before the masters."""
    trump = ctx[C_TRUMP]
    maxi = ctx[C_MAX]
    hand = hands[mover]
    suit = c >> 4
    strength = (c & 15) + (16 if suit == trump else 0)
    pts = ctx[C_POINTS + c]
    above = left & suit_bits(suit) & ~((bit(c) << np.uint64(1)) - np.uint64(1))
    can_ruff = (ruffable >> suit) & 1
    if (above & ~hand) == 0:  # c cashes the top of the suit
        sc = 6000 - 3000 * can_ruff + 10 * pts
        if suit == trump and haspts:
            sc += TRUMP_MASTER_LEAD
    elif not can_ruff and (above & partner_cards) \
            and highest_bit(above) == highest_bit(above & partner_cards):
        sc = 5000 - strength  # low to the partner's master
    elif (partner_ruffs >> suit) & 1 and not can_ruff and suit != trump:
        sc = 4500 - strength  # for the partner to ruff
    else:
        sc = 3000 - strength - 40 * pts  # low, keeping the point cards back
        if suit == trump and haspts:
            top = highest_bit(left & suit_bits(trump))
            ahead = False  # does the mover's side hold the top trump?
            for t in range(ctx[C_NSEATS]):
                if (hands[t] >> np.uint64(top)) & np.uint64(1):
                    ahead = ((maxi >> t) & 1) == ((maxi >> mover) & 1)
            sc += LOW_TRUMP_LEAD if ahead else LOW_TRUMP_LEAD_BEHIND
    if c == killer and haspts:
        sc += KILLER_LEAD  # the last cut-off lead at this depth, after the table's best
    return sc


@nb.njit(inline="always", cache=True)
def plain_follow_score(ctx, hands, c, led, win_card, win_seat, mover, tlen, haspts):
    """The plain order's score of following with c (higher first), the trick's best card so
    far ``win_card`` played by ``win_seat``: win the trick with the cheapest card that does,
    or duck with the lowest when the trick already goes the mover's way (in a points game,
    throw points to a winning partner and keep them from a losing trick), then the lowest
    others."""
    trump = ctx[C_TRUMP]
    count = ctx[C_COUNT]
    strength = (c & 15) + (16 if (c >> 4) == trump else 0)
    pts = ctx[C_POINTS + c]
    last_hand = tlen == ctx[C_NACTIVE] - 1
    wins = beats(c, win_card, trump)
    winner = mover if wins else win_seat
    wcard = c if wins else win_card
    ours = ((count >> winner) & 1) == ((ctx[C_MAX] >> mover) & 1)
    safe = not overtaken(ctx, hands, led, wcard, winner, mover, tlen)
    if ours and safe:
        return (8000 if not wins else 7000) - strength + 40 * pts * haspts
    if ours and haspts and not last_hand:  # high without points, before ducking
        return 4500 + strength - 40 * pts
    if ours:
        return 3000 + strength if not last_hand else 5000 - strength
    if safe or last_hand:
        return 4000 - strength - 40 * pts
    return 3500 - strength - 40 * pts


@nb.njit(inline="always", cache=True)
def _insert_sorted(moves, scores, count, c, score):
    """Insert card c of score sc into moves[:n], kept by score, highest first; returns n + 1."""
    j = count
    while j > 0 and scores[j - 1] < score:
        moves[j] = moves[j - 1]
        scores[j] = scores[j - 1]
        j -= 1
    moves[j] = c
    scores[j] = score
    return count + 1


@nb.njit(cache=True, _nrt=False)
def gen_moves(ctx, hands, stack, start, tlen, leader, broken, mover, moves, scores, best,
              killer, points):
    """One card per run of equivalent legal cards into moves[:n], best-looking first; returns
    n and the cards left out as equivalent to a lower one.

    The four-seat partnership games lead and follow by DDS's weights (lead_weight,
    follow_weight; DDS's follow weights cut 306k to 287k nodes mean on 80 full Spades deals,
    259k to 212k on 40 others, against the plain order), the nil objective by nil_score,
    the others by the plain order (_plain_lead_score, plain_follow_score).  ``best`` (the
    table's remembered best card, or -1) goes first.
    """
    hand = hands[mover]
    legal = legal_cards(ctx, hands, stack, start, tlen, mover, broken)
    left = cards_in_hands(ctx, hands)
    inplay = left
    for i in range(tlen):
        inplay |= bit(stack[start + i])
    maxi = ctx[C_MAX]
    haspts = 1 if points else 0
    win_card = -1  # the trick's best card so far and who played it
    win_seat = -1
    partner_cards = np.uint64(0)
    ruffable = 0
    partner_ruffs = 0
    # four seats in two partnerships without card points: DDS's lead order
    dds = False if points else (
        ctx[C_NSEATS] == 4 and ctx[C_NACTIVE] == 4
        and ((maxi >> mover) & 1) == ((maxi >> ((mover + 2) & 3)) & 1))
    nil = -1 if points else nil_seat(ctx)
    if tlen > 0:
        win_card, win_seat = trick_winner(ctx, stack, start, tlen, leader)
    elif not dds and nil < 0:
        partner_cards, ruffable, partner_ruffs = lead_context(ctx, hands, mover)
    n = 0
    m, equiv = one_per_run(ctx, hand, inplay, legal)
    while m:
        c = lowest_bit(m)
        m &= m - np.uint64(1)
        if nil >= 0:
            sc = nil_score(ctx, hands, stack, start, tlen, leader, mover, c, win_card, win_seat,
                           left, nil, killer)
        elif tlen == 0 and dds:
            sc = lead_weight(ctx, hands, left, mover, c, killer, best)
        elif dds:
            sc = follow_weight(ctx, hands, stack, start, tlen, leader, mover, c, left, inplay,
                               win_card, win_seat)
        elif tlen == 0:
            sc = _plain_lead_score(ctx, hands, left, mover, c, partner_cards, ruffable,
                                   partner_ruffs, killer, haspts)
        else:
            sc = plain_follow_score(ctx, hands, c, stack[start] >> 4, win_card, win_seat, mover,
                                    tlen, haspts)
        if c == best and (nil >= 0 or not (tlen == 0 and dds)):
            sc = BEST_MOVE
        n = _insert_sorted(moves, scores, n, c, sc)
    return n, equiv
