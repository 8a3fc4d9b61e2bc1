"""The nil objective (Spades): bounds and move order when one seat's tricks are counted and
that seat and its partner minimise them.

A nil is set up as count = {s}, max = s's two opponents (:func:`nil_seat` recognises it).  The
bounds and the move order of the trick-count objective do not apply; the search asks these
instead: :func:`nil_bounds` at a trick boundary, :func:`nil_mid` in the middle of a trick, and
:func:`nil_score` to order the moves.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from simcore.cards import bit, highest_bit, lowest_bit, popcount
from simcore.solver.context import C_COUNT, C_HASPTS, C_MAX, C_NACTIVE, C_NSEATS, C_TRUMP
from simcore.solver.later import spoiled
from simcore.solver.position import beats, legal_cards, suit_bits, suit_field, trick_relevant


@nb.njit(inline="always", cache=True)
def nil_seat(ctx):
    """The nil bidder when the objective is a nil (four seats in play, no card points, the
    tricks of one seat counted and that seat minimising), else -1."""
    count = ctx[C_COUNT]
    if ctx[C_NSEATS] != 4 or ctx[C_NACTIVE] != 4 or ctx[C_HASPTS] != 0 \
            or popcount(np.uint64(count)) != 1 or (count & ctx[C_MAX]) != 0:
        return -1
    return lowest_bit(np.uint64(count))


@nb.njit(cache=True, _nrt=False)
def _nil_sure(ctx, hands, s):
    """(tricks the nil seat s wins whatever anyone does; the card that depends on): its trumps
    less the most of them the other three seats' trumps can be matched above (each trump
    played into a trick spoils one at most; the sure_trumps argument with every other seat
    against s, since anyone's higher trump takes the trick from s)."""
    trump = ctx[C_TRUMP]
    if trump < 0:
        return 0, np.uint64(0)
    mine = suit_field(hands[s], trump)
    if mine == 0:
        return 0, np.uint64(0)
    ot = suit_field(hands[(s + 1) & 3] | hands[(s + 2) & 3] | hands[(s + 3) & 3], trump)
    k = popcount(mine) - spoiled(mine, ot)
    if k <= 0 or ot == 0:
        return k, np.uint64(0)
    return k, bit(16 * trump + lowest_bit(mine))  # a trump below all of s's spoils none


@nb.njit(inline="always", cache=True)
def _dominates(px, sx):
    """The lowest card of the partner's suit px that beats the nil seat's sx card for card (the
    k-th highest of px above the k-th highest of sx, for every card of sx), or -1 when px does
    not.  Only the cards from that one up matter: the others' holders may change below it (the
    suit lengths kept), s's cards there stay below the partner's that beat them."""
    low = -1
    while sx:
        if px == 0 or highest_bit(px) < highest_bit(sx):
            return -1
        low = highest_bit(px)
        px ^= np.uint64(1) << np.uint64(low)
        sx ^= np.uint64(1) << np.uint64(highest_bit(sx))
    return low


@nb.njit(cache=True, _nrt=False)
def _nil_safe(ctx, hands, s, leader):
    """(True when s wins no more trick whatever the opponents do; the cards that relies on),
    at a trick boundary.

    s holds no trump, and each suit s holds is *covered*: the partner's cards beat s's card
    for card (then s plays its highest, the partner its highest over it, and both discard
    their lowest of the suit together), or *low*: every other card of the suit in play is
    above s's (s never leads, so whoever leads it beats s).  The partner must follow a low
    suit it holds too, but runs out of it at most D times before s (D = sum of the excess of
    s's low suits over the partner's); each time it discards one of its free cards (its
    cards of suits s lacks, and its excess in covered suits), so D <= F keeps the covers;
    when a suit s lacks is led, s discards from a low suit with an excess, if any.  A
    leading s needs a covered suit, or a low suit someone else holds.

    Or *ruffed*: the partner lacks the suit and holds trumps, at least as many as s's cards
    of all such suits: whenever one is led, s follows and the partner ruffs (a free card), a
    trump lead takes one trump of the partner and one of those cards, which s discards, and
    the partner's other free cards go first when it only has to discard.  Those cards count
    in D too; s may lead one of them."""
    trump = ctx[C_TRUMP]
    h = hands[s]
    if trump >= 0 and suit_field(h, trump) != 0:
        return False, np.uint64(0)
    p = hands[(s + 2) & 3]
    rest = hands[(s + 1) & 3] | p | hands[(s + 3) & 3]
    excess = 0
    free = 0
    ruffed = 0
    ptrumps = popcount(suit_field(p, trump)) if trump >= 0 else 0
    rel = np.uint64(0)
    lead_ok = leader != s
    for x in range(4):
        sx = suit_field(h, x)
        px = suit_field(p, x)
        if sx == 0:
            free += popcount(px)
            continue
        ns = popcount(sx)
        npx = popcount(px)
        low = _dominates(px, sx)
        if low >= 0:
            free += npx - ns
            lead_ok = True
            rel |= bit(16 * x + low)
        else:
            ox = suit_field(rest, x)
            if ox & ((np.uint64(1) << np.uint64(highest_bit(sx) + 1)) - np.uint64(1)):
                if npx != 0 or ptrumps == 0:
                    return False, np.uint64(0)
                ruffed += ns  # the partner ruffs (it lacks x: ranks do not matter)
                excess += ns
                lead_ok = True
                continue
            if ns > npx:
                excess += ns - npx
            if ox:
                lead_ok = True
            rel |= bit(16 * x + highest_bit(sx))  # s holds the suit's lowest ns cards
    if not lead_ok or excess > free or ruffed > ptrumps:
        return False, np.uint64(0)
    return True, rel


@nb.njit(inline="always", cache=True)
def _covers(px, sx):
    """(how many of the nil seat's cards sx its partner's px can each beat with a card of its
    own, a largest matching, greedily from the top; the lowest partner card matched, or -1).
    The matching only needs the cards from that lowest one up: s's cards below it, wherever
    they lie, stay below the partner cards matched to them."""
    m = 0
    low = -1
    while px and sx:
        if highest_bit(px) > highest_bit(sx):
            low = highest_bit(px)
            px ^= np.uint64(1) << np.uint64(low)
            m += 1
        sx ^= np.uint64(1) << np.uint64(highest_bit(sx))
    return m, low


@nb.njit(cache=True, _nrt=False)
def _nil_pairs(ctx, hands, s):
    """(the most tricks the nil seat s can be made to win from a trick boundary, by its
    partner's covers; the cards that relies on).

    In each side suit, pair as many of s's cards as possible with a higher card of its
    partner (:func:`_covers`): a paired card never wins, since whenever the suit is led s
    plays a paired card if it has one and the partner its pair (or, playing first, its
    highest, and s that card's pair), and when both discard, the second discards the first
    one's pair.  Every other card of s (trumps included) may win once.  That holds while the
    partner keeps its pairs: it must follow a suit s holds, and runs out of one before s at
    most D times (D = the sum over the suits s holds of s's excess over the partner); each
    time it discards one of its F free cards (those of suits s lacks, and its excess in the
    suits s holds), and when the partner follows a suit s lacks, s discards from a suit where
    it has an excess.  So with D <= F, s wins at most its unpaired cards; else no bound.

    Less the cards of s in side suits the partner lacks that its free trumps can ruff (all of
    its trumps when s has none, else those beyond s's): whenever such a suit is led and s
    follows, the partner's free card is a trump; a trump lead takes one of those trumps and
    one of those cards of s, which s discards (or, holding trumps, one trump of each).  It
    depends on s's and its partner's hands only."""
    h = hands[s]
    p = hands[(s + 2) & 3]
    trump = ctx[C_TRUMP]
    excess = 0
    free = 0
    most = 0
    ruffable = 0
    rel = np.uint64(0)
    for x in range(4):
        sx = suit_field(h, x)
        px = suit_field(p, x)
        ns = popcount(sx)
        npx = popcount(px)
        if ns == 0:
            free += npx
            continue
        m = 0
        if x != trump:
            m, low = _covers(px, sx)
            if m > 0:
                rel |= bit(16 * x + low)
            if npx == 0:
                ruffable += ns
        most += ns - m
        if ns > npx:
            excess += ns - npx
        else:
            free += npx - ns
    if excess > free:
        most = popcount(h)
        rel = np.uint64(0)
    elif trump >= 0 and ruffable > 0:
        most -= min(ruffable, max(popcount(suit_field(p, trump)) - popcount(suit_field(h, trump)), 0))
    return most, rel


@nb.njit(cache=True, _nrt=False)
def _nil_most(ctx, hands, s):
    """(the most tricks the nil seat s can be made to win from a trick boundary: the least of
    :func:`_nil_pairs` and :func:`_nil_dead`; the cards that relies on)."""
    most, rel = _nil_pairs(ctx, hands, s)
    dead, rd = _nil_dead(ctx, hands, s)
    if dead < most:
        return dead, rd
    return most, rel


@nb.njit(cache=True, _nrt=False)
def _nil_dead(ctx, hands, s):
    """(the tricks left less the most trumps above all of s's that any one other seat holds;
    the card that relies on): each of those trumps takes a different trick, which s cannot
    win, whatever it plays."""
    trump = ctx[C_TRUMP]
    n = popcount(hands[s])
    if trump < 0:
        return n, np.uint64(0)
    st = suit_field(hands[s], trump)
    top = highest_bit(st) + 1 if st else 0
    k = 0
    for t in range(4):
        if t != s:
            k = max(k, popcount(suit_field(hands[t], trump) >> np.uint64(top)))
    return n - k, bit(16 * trump + top - 1) if (st and k) else np.uint64(0)


@nb.njit(cache=True, _nrt=False)
def nil_bounds(ctx, hands, s, leader, target):
    """(1 or 0 when a nil bound settles ``target`` at a trick boundary, else -1; the cards it
    relied on)."""
    q, rq = _nil_sure(ctx, hands, s)
    if q >= target:
        return 1, rq
    most, rel = _nil_most(ctx, hands, s)
    if most < target:
        return 0, rel
    safe, rel = _nil_safe(ctx, hands, s, leader)
    if safe:
        return 0, rel
    return -1, np.uint64(0)


@nb.njit(cache=True, _nrt=False)
def _nil_held(ctx, hands, s, target):
    """(True when, from the next trick boundary on, s's side keeps s below ``target`` tricks
    whoever but s leads, by the bounds that depend on s's and its partner's hands alone (the
    others' cards only make _nil_safe's low suits fail: fewer of them cannot); the cards it
    relied on)."""
    most, rel = _nil_pairs(ctx, hands, s)
    if most < target:
        return True, rel
    return _nil_safe(ctx, hands, s, (s + 1) & 3)


@nb.njit(cache=True, _nrt=False)
def nil_mid(ctx, hands, stack, start, tlen, leader, s, target):
    """(0 when the nil seat s's side can settle ``target`` against the opponents in the middle
    of a trick, else -1; the cards that relies on).

    The cards still to come can only raise the trick's best card, so s's card, once beaten
    by a card in the trick, loses it.  When s's side can make sure of that with the cards it
    still plays to this trick (s playing under the best card, or the partner over s's), and
    the bounds on s's and the partner's hands after those cards keep s below ``target``
    (:func:`_nil_held`), the opponents' remaining cards need no search.  The beating card is
    relied on when it beats s's card on rank.  (s's sure trumps are a success at any time
    once s has played: the others' trumps still in hand only spoil more.)"""
    if target <= 0:
        return -1, np.uint64(0)
    trump = ctx[C_TRUMP]
    p = (s + 2) & 3
    s_done = ((s - leader) & 3) < tlen
    p_done = ((p - leader) & 3) < tlen
    w = stack[start]
    ws = leader
    seat = leader
    for i in range(1, tlen):
        seat = (seat + 1) & 3
        if beats(stack[start + i], w, trump):
            w = stack[start + i]
            ws = seat
    if s_done:
        q, rq = _nil_sure(ctx, hands, s)
        if q >= target:
            return 1, rq
        if p_done:
            if ws == s:
                return -1, np.uint64(0)
            held, rel = _nil_held(ctx, hands, s, target)
            if held:
                return 0, rel | trick_relevant(ctx, stack, start, tlen)
            return -1, np.uint64(0)
        sc = stack[start + ((s - leader) & 3)]
        m = legal_cards(ctx, hands, stack, start, tlen, p, True)
        while m:
            c = lowest_bit(m)
            m &= m - np.uint64(1)
            if ws == s and not beats(c, w, trump):
                continue
            hands[p] ^= bit(c)
            held, rel = _nil_held(ctx, hands, s, target)
            hands[p] ^= bit(c)
            if held:
                if ws != s:
                    return 0, rel | trick_relevant(ctx, stack, start, tlen)
                return 0, rel | (bit(c) if (c >> 4) == (sc >> 4) else np.uint64(0))
        return -1, np.uint64(0)
    m = legal_cards(ctx, hands, stack, start, tlen, s, True)
    lp = np.uint64(0) if p_done else legal_cards(ctx, hands, stack, start, tlen, p, True)
    while m:
        c = highest_bit(m)
        m ^= bit(c)
        hands[s] ^= bit(c)
        if not beats(c, w, trump):  # s plays under the trick's best card
            if p_done:
                held, rel = _nil_held(ctx, hands, s, target)
            else:
                held, rel = _nil_held_after(ctx, hands, s, p, lp, target)
            if held:
                hands[s] ^= bit(c)
                return 0, rel | (bit(w) if (c >> 4) == (w >> 4) else np.uint64(0))
        elif not p_done:  # s over it, the partner over s
            mp = lp
            while mp:
                e = lowest_bit(mp)
                mp &= mp - np.uint64(1)
                if not beats(e, c, trump):
                    continue
                hands[p] ^= bit(e)
                held, rel = _nil_held(ctx, hands, s, target)
                hands[p] ^= bit(e)
                if held:
                    hands[s] ^= bit(c)
                    return 0, rel | (bit(e) if (c >> 4) == (e >> 4) else np.uint64(0))
        hands[s] ^= bit(c)
    return -1, np.uint64(0)


@nb.njit(cache=True, _nrt=False)
def _nil_held_after(ctx, hands, s, p, lp, target):
    """:func:`_nil_held` after the partner plays one of its legal cards ``lp`` (the first that
    holds)."""
    while lp:
        e = lowest_bit(lp)
        lp &= lp - np.uint64(1)
        hands[p] ^= bit(e)
        held, rel = _nil_held(ctx, hands, s, target)
        hands[p] ^= bit(e)
        if held:
            return True, rel
    return False, np.uint64(0)


@nb.njit(cache=True, _nrt=False)
def nil_score(ctx, hands, stack, start, tlen, leader, mover, c, w, ws, u, s, killer):
    """Move-ordering score of card c (higher first) for the nil objective of seat s: s sheds
    its highest card that surely loses, its partner overtakes s (or plays high before it), the
    opponents play under s and lead low into suits where s holds only higher cards."""
    trump = ctx[C_TRUMP]
    x = c >> 4
    strength = (c & 15) + (16 if x == trump else 0)
    p = (s + 2) & 3
    sx = suit_field(hands[s], x)
    if tlen > 0:
        wins = beats(c, w, trump)
        s_played = ((s - leader) & 3) < tlen
        if mover == s:
            if not wins:
                return 8000 + strength  # loses whatever follows: shed the highest such
            led = stack[start] >> 4
            pl = suit_field(hands[p], led)
            p_after = ((p - leader) & 3) > tlen
            if p_after and ((pl != 0 and x == led and (pl >> np.uint64(c & 15)) > 1)
                            or (pl == 0 and trump >= 0 and suit_field(hands[p], trump) != 0
                                and (x != trump or (suit_field(hands[p], trump) >> np.uint64(c & 15)) > 1))):
                return 5000 - strength  # the partner can still overtake: stay low
            return 2000 + strength  # s wins it anyway: the highest goes
        if mover == p:
            if s_played:
                if ws == s:
                    return 8000 - strength if wins else 1000 - strength
                return 6000 - strength
            return 6000 + strength  # high before s, so s can play under
        if s_played:
            if ws == s:
                return 1000 - strength if wins else 8000 + strength
            return 6000 + strength
        return 6000 - strength  # low before s
    bonus = 1500 if c == killer else 0
    above = u & suit_bits(x) & ~((bit(c) << np.uint64(1)) - np.uint64(1))
    if mover == s:
        if above & hands[p]:
            return 5000 + strength + bonus  # the partner overtakes
        if above:
            return 3000 - strength - (500 if x == trump else 0) + bonus
        return 1000 - strength + bonus
    st = suit_field(hands[s], trump) if trump >= 0 else np.uint64(0)
    if mover == p:
        if sx == 0:
            if st != 0 and hands[s] == (st << np.uint64(16 * trump)):
                return 500 + strength + bonus  # s would have to ruff
            return 6000 + strength + bonus  # s discards
        if (c & 15) > highest_bit(sx):
            return 5000 + strength + bonus  # s plays under
        return 3000 - strength + bonus
    if sx != 0:
        if (c & 15) < lowest_bit(sx):
            return 4000 + 8 * lowest_bit(sx) - strength + bonus  # s must play over
        return 2000 - strength + bonus
    if st != 0 and hands[s] == (st << np.uint64(16 * trump)):
        return 7000 - strength + bonus  # s must ruff
    return 2000 - strength + bonus
