"""The nil objective (Spades): bounds and move order when one seat's tricks are counted and
that seat and its partner minimise them.

A nil is set up as count = {bidder}, max = the bidder's two opponents (:func:`nil_seat`
recognises it).  The bounds and the move order of the trick-count objective do not apply; the
search asks these instead: :func:`nil_bounds` at a trick boundary, :func:`nil_mid` in the middle
of a trick, and :func:`nil_score` to order the moves.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from simcore.cards import bit, highest_bit, lowest_bit, popcount
from simcore.solver.context import C_COUNT, C_HASPTS, C_MAX, C_NACTIVE, C_NSEATS, C_TRUMP
from simcore.solver.later import spoiled
from simcore.solver.position import (
    beats, legal_cards, suit_bits, suit_field, trick_relevant, trick_winner,
)


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
def _nil_sure(ctx, hands, bidder):
    """(tricks the bidder wins whatever anyone does; the card that depends on): its trumps
    less the most of them the other three seats' trumps can be matched above (each trump
    played into a trick spoils one at most; the sure_trumps argument with every other seat
    against the bidder, since anyone's higher trump takes the trick from the bidder)."""
    trump = ctx[C_TRUMP]
    if trump < 0:
        return 0, np.uint64(0)
    mine = suit_field(hands[bidder], trump)
    if mine == 0:
        return 0, np.uint64(0)
    others = hands[(bidder + 1) & 3] | hands[(bidder + 2) & 3] | hands[(bidder + 3) & 3]
    ot = suit_field(others, trump)
    k = popcount(mine) - spoiled(mine, ot)
    if k <= 0 or ot == 0:
        return k, np.uint64(0)
    return k, bit(16 * trump + lowest_bit(mine))  # a trump below all of the bidder's spoils none


@nb.njit(inline="always", cache=True)
def _dominates(partner_suit, bidder_suit):
    """The lowest card of the partner's suit partner_suit that beats the nil seat's bidder_suit
    card for card (the k-th highest of partner_suit above the k-th highest of bidder_suit, for
    every card of bidder_suit), or -1 when partner_suit does not.  Only the cards from that one
    up matter: the others' holders may change below it (the suit lengths kept), the bidder's
    cards there stay below the partner's that beat them."""
    low = -1
    while bidder_suit:
        if partner_suit == 0 or highest_bit(partner_suit) < highest_bit(bidder_suit):
            return -1
        low = highest_bit(partner_suit)
        partner_suit ^= np.uint64(1) << np.uint64(low)
        bidder_suit ^= np.uint64(1) << np.uint64(highest_bit(bidder_suit))
    return low


@nb.njit(cache=True, _nrt=False)
def _nil_safe(ctx, hands, bidder, leader):
    """(True when the bidder wins no more trick whatever the opponents do; the cards that relies
    on), at a trick boundary.

    the bidder holds no trump, and each suit the bidder holds is *covered*: the partner's cards
    beat the bidder's card for card (then the bidder plays its highest, the partner its highest
    over it, and both discard their lowest of the suit together), or *low*: every other card of
    the suit in play is above the bidder's (the bidder never leads, so whoever leads it beats
    the bidder).  The partner must follow a low suit it holds too, but runs out of it at most D
    times before the bidder (D = sum of the excess of the bidder's low suits over the
    partner's); each time it discards one of its free cards (its cards of suits the bidder
    lacks, and its excess in covered suits), so D <= F keeps the covers; when a suit the bidder
    lacks is led, the bidder discards from a low suit with an excess, if any.  A bidder on
    lead needs a covered suit, or a low suit someone else holds.

    Or *ruffed*: the partner lacks the suit and holds trumps, at least as many as the bidder's
    cards of all such suits: whenever one is led, the bidder follows and the partner ruffs (a
    free card), a trump lead takes one trump of the partner and one of those cards, which the
    bidder discards, and the partner's other free cards go first when it only has to discard.
    Those cards count in D too; the bidder may lead one of them."""
    trump = ctx[C_TRUMP]
    h = hands[bidder]
    if trump >= 0 and suit_field(h, trump) != 0:
        return False, np.uint64(0)
    partner = hands[(bidder + 2) & 3]
    rest = hands[(bidder + 1) & 3] | partner | hands[(bidder + 3) & 3]
    excess = 0
    free = 0
    ruffed = 0
    ptrumps = popcount(suit_field(partner, trump)) if trump >= 0 else 0
    rel = np.uint64(0)
    lead_ok = leader != bidder
    for x in range(4):
        bidder_suit = suit_field(h, x)
        partner_suit = suit_field(partner, x)
        if bidder_suit == 0:
            free += popcount(partner_suit)
            continue
        ns = popcount(bidder_suit)
        npx = popcount(partner_suit)
        low = _dominates(partner_suit, bidder_suit)
        if low >= 0:
            free += npx - ns
            lead_ok = True
            rel |= bit(16 * x + low)
        else:
            ox = suit_field(rest, x)
            if ox & ((np.uint64(1) << np.uint64(highest_bit(bidder_suit) + 1)) - np.uint64(1)):
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
            # the bidder holds the suit's lowest ns cards
            rel |= bit(16 * x + highest_bit(bidder_suit))
    if not lead_ok or excess > free or ruffed > ptrumps:
        return False, np.uint64(0)
    return True, rel


@nb.njit(inline="always", cache=True)
def _covers(partner_suit, bidder_suit):
    """(how many of the nil seat's cards bidder_suit its partner's partner_suit can each beat
    with a card of its own, a largest matching, greedily from the top; the lowest partner card
    matched, or -1).  The matching only needs the cards from that lowest one up: the bidder's
    cards below it, wherever they lie, stay below the partner cards matched to them."""
    m = 0
    low = -1
    while partner_suit and bidder_suit:
        if highest_bit(partner_suit) > highest_bit(bidder_suit):
            low = highest_bit(partner_suit)
            partner_suit ^= np.uint64(1) << np.uint64(low)
            m += 1
        bidder_suit ^= np.uint64(1) << np.uint64(highest_bit(bidder_suit))
    return m, low


@nb.njit(cache=True, _nrt=False)
def _nil_pairs(ctx, hands, bidder):
    """(the most tricks the bidder can be made to win from a trick boundary, by its
    partner's covers; the cards that relies on).

    In each side suit, pair as many of the bidder's cards as possible with a higher card of its
    partner (:func:`_covers`): a paired card never wins, since whenever the suit is led the
    bidder plays a paired card if it has one and the partner its pair (or, playing first, its
    highest, and the bidder that card's pair), and when both discard, the second discards the
    first one's pair.  Every other card of the bidder (trumps included) may win once.  That
    holds while the partner keeps its pairs: it must follow a suit the bidder holds, and runs
    out of one before the bidder at most D times (D = the sum over the suits the bidder holds of
    the bidder's excess over the partner); each time it discards one of its F free cards (those
    of suits the bidder lacks, and its excess in the suits the bidder holds), and when the
    partner follows a suit the bidder lacks, the bidder discards from a suit where it has an
    excess.  So with D <= F, the bidder wins at most its unpaired cards; else no bound.

    Less the cards of the bidder in side suits the partner lacks that its free trumps can ruff
    (all of its trumps when the bidder has none, else those beyond the bidder's): whenever such
    a suit is led and the bidder follows, the partner's free card is a trump; a trump lead takes
    one of those trumps and one of those cards of the bidder, which the bidder discards (or,
    holding trumps, one trump of each).  It depends on the bidder's and its partner's hands
    only."""
    h = hands[bidder]
    partner = hands[(bidder + 2) & 3]
    trump = ctx[C_TRUMP]
    excess = 0
    free = 0
    most = 0
    ruffable = 0
    rel = np.uint64(0)
    for x in range(4):
        bidder_suit = suit_field(h, x)
        partner_suit = suit_field(partner, x)
        ns = popcount(bidder_suit)
        npx = popcount(partner_suit)
        if ns == 0:
            free += npx
            continue
        m = 0
        if x != trump:
            m, low = _covers(partner_suit, bidder_suit)
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
        spare = popcount(suit_field(partner, trump)) - popcount(suit_field(h, trump))
        most -= min(ruffable, max(spare, 0))
    return most, rel


@nb.njit(cache=True, _nrt=False)
def _nil_most(ctx, hands, bidder):
    """(the most tricks the bidder can be made to win from a trick boundary: the least of
    :func:`_nil_pairs` and :func:`_nil_dead`; the cards that relies on)."""
    most, rel = _nil_pairs(ctx, hands, bidder)
    dead, rd = _nil_dead(ctx, hands, bidder)
    if dead < most:
        return dead, rd
    return most, rel


@nb.njit(cache=True, _nrt=False)
def _nil_dead(ctx, hands, bidder):
    """(the tricks left less the most trumps above all of the bidder's that any one other seat
    holds; the card that relies on): each of those trumps takes a different trick, which the
    bidder cannot win, whatever it plays."""
    trump = ctx[C_TRUMP]
    n = popcount(hands[bidder])
    if trump < 0:
        return n, np.uint64(0)
    st = suit_field(hands[bidder], trump)
    top = highest_bit(st) + 1 if st else 0
    k = 0
    for t in range(4):
        if t != bidder:
            k = max(k, popcount(suit_field(hands[t], trump) >> np.uint64(top)))
    return n - k, bit(16 * trump + top - 1) if (st and k) else np.uint64(0)


@nb.njit(cache=True, _nrt=False)
def nil_bounds(ctx, hands, bidder, leader, target):
    """(1 or 0 when a nil bound settles ``target`` at a trick boundary, else -1; the cards it
    relied on)."""
    q, rq = _nil_sure(ctx, hands, bidder)
    if q >= target:
        return 1, rq
    most, rel = _nil_most(ctx, hands, bidder)
    if most < target:
        return 0, rel
    safe, rel = _nil_safe(ctx, hands, bidder, leader)
    if safe:
        return 0, rel
    return -1, np.uint64(0)


@nb.njit(cache=True, _nrt=False)
def _nil_held(ctx, hands, bidder, target):
    """(True when, from the next trick boundary on, the bidder's side keeps the bidder below
    ``target`` tricks whoever but the bidder leads, by the bounds that depend on the bidder's
    and its partner's hands alone (the others' cards only make _nil_safe's low suits fail: fewer
    of them cannot); the cards it relied on)."""
    most, rel = _nil_pairs(ctx, hands, bidder)
    if most < target:
        return True, rel
    return _nil_safe(ctx, hands, bidder, (bidder + 1) & 3)


@nb.njit(cache=True, _nrt=False)
def nil_mid(ctx, hands, stack, start, tlen, leader, bidder, target):
    """(0 when the bidder's side can settle ``target`` against the opponents in the middle
    of a trick, else -1; the cards that relies on).

    The cards still to come can only raise the trick's best card, so the bidder's card, once
    beaten by a card in the trick, loses it.  When the bidder's side can make sure of that with
    the cards it still plays to this trick (the bidder playing under the best card, or the
    partner over the bidder's), and the bounds on the bidder's and the partner's hands after
    those cards keep the bidder below ``target`` (:func:`_nil_held`), the opponents' remaining
    cards need no search.  The beating card is relied on when it beats the bidder's card on
    rank.  (the bidder's sure trumps are a success at any time once the bidder has played: the
    others' trumps still in hand only spoil more.)"""
    if target <= 0:
        return -1, np.uint64(0)
    partner_done = ((((bidder + 2) & 3) - leader) & 3) < tlen
    win_card, win_seat = trick_winner(ctx, stack, start, tlen, leader)
    if ((bidder - leader) & 3) < tlen:
        return _nil_played(ctx, hands, stack, start, tlen, leader, bidder, target, win_card,
                           win_seat, partner_done)
    return _nil_to_play(ctx, hands, stack, start, tlen, bidder, target, win_card, partner_done)


@nb.njit(inline="always", cache=True)
def _nil_played(ctx, hands, stack, start, tlen, leader, bidder, target, win_card, win_seat,
                partner_done):
    """nil_mid once the bidder has played to the trick: the bidder's sure trumps, or the
    bidder's card beaten by the trick's best card or by one its partner still plays, and the
    bounds after it."""
    trump = ctx[C_TRUMP]
    partner = (bidder + 2) & 3
    q, rq = _nil_sure(ctx, hands, bidder)
    if q >= target:
        return 1, rq
    if partner_done:
        if win_seat == bidder:
            return -1, np.uint64(0)
        held, rel = _nil_held(ctx, hands, bidder, target)
        if held:
            return 0, rel | trick_relevant(ctx, stack, start, tlen)
        return -1, np.uint64(0)
    card_s = stack[start + ((bidder - leader) & 3)]
    m = legal_cards(ctx, hands, stack, start, tlen, partner, True)
    while m:
        c = lowest_bit(m)
        m &= m - np.uint64(1)
        if win_seat == bidder and not beats(c, win_card, trump):
            continue
        hands[partner] ^= bit(c)
        held, rel = _nil_held(ctx, hands, bidder, target)
        hands[partner] ^= bit(c)
        if held:
            if win_seat != bidder:
                return 0, rel | trick_relevant(ctx, stack, start, tlen)
            return 0, rel | (bit(c) if (c >> 4) == (card_s >> 4) else np.uint64(0))
    return -1, np.uint64(0)


@nb.njit(inline="always", cache=True)
def _nil_to_play(ctx, hands, stack, start, tlen, bidder, target, win_card, partner_done):
    """nil_mid before the bidder plays to the trick: the bidder under the trick's best card, or
    the bidder over it and its partner over the bidder, and the bounds after those cards."""
    trump = ctx[C_TRUMP]
    partner = (bidder + 2) & 3
    m = legal_cards(ctx, hands, stack, start, tlen, bidder, True)
    partner_legal = np.uint64(0) if partner_done else legal_cards(ctx, hands, stack, start, tlen,
                                                                  partner, True)
    while m:
        c = highest_bit(m)
        m ^= bit(c)
        hands[bidder] ^= bit(c)
        if not beats(c, win_card, trump):  # the bidder plays under the trick's best card
            if partner_done:
                held, rel = _nil_held(ctx, hands, bidder, target)
            else:
                held, rel = _nil_held_after(ctx, hands, bidder, partner, partner_legal, target)
            if held:
                hands[bidder] ^= bit(c)
                return 0, rel | (bit(win_card) if (c >> 4) == (win_card >> 4) else np.uint64(0))
        elif not partner_done:  # the bidder over it, the partner over the bidder
            mp = partner_legal
            while mp:
                e = lowest_bit(mp)
                mp &= mp - np.uint64(1)
                if not beats(e, c, trump):
                    continue
                hands[partner] ^= bit(e)
                held, rel = _nil_held(ctx, hands, bidder, target)
                hands[partner] ^= bit(e)
                if held:
                    hands[bidder] ^= bit(c)
                    return 0, rel | (bit(e) if (c >> 4) == (e >> 4) else np.uint64(0))
        hands[bidder] ^= bit(c)
    return -1, np.uint64(0)


@nb.njit(cache=True, _nrt=False)
def _nil_held_after(ctx, hands, bidder, partner, partner_legal, target):
    """:func:`_nil_held` after the partner plays one of its legal cards ``partner_legal`` (the
    first that holds)."""
    while partner_legal:
        e = lowest_bit(partner_legal)
        partner_legal &= partner_legal - np.uint64(1)
        hands[partner] ^= bit(e)
        held, rel = _nil_held(ctx, hands, bidder, target)
        hands[partner] ^= bit(e)
        if held:
            return True, rel
    return False, np.uint64(0)


@nb.njit(cache=True, _nrt=False)
def nil_score(ctx, hands, stack, start, tlen, leader, mover, c, win_card, win_seat, left, bidder,
              killer):
    """Move-ordering score of card c (higher first) for the nil objective of seat the bidder:
    the bidder sheds its highest card that surely loses, its partner overtakes the bidder (or
    plays high before it), the opponents play under the bidder and lead low into suits where the
    bidder holds only higher cards."""
    trump = ctx[C_TRUMP]
    x = c >> 4
    strength = (c & 15) + (16 if x == trump else 0)
    partner = (bidder + 2) & 3
    bidder_suit = suit_field(hands[bidder], x)
    if tlen > 0:
        wins = beats(c, win_card, trump)
        s_played = ((bidder - leader) & 3) < tlen
        if mover == bidder:
            if not wins:
                return 8000 + strength  # loses whatever follows: shed the highest such
            led = stack[start] >> 4
            pl = suit_field(hands[partner], led)
            pt = suit_field(hands[partner], trump) if trump >= 0 else np.uint64(0)
            p_after = ((partner - leader) & 3) > tlen
            if p_after and ((pl != 0 and x == led and (pl >> np.uint64(c & 15)) > 1)
                            or (pl == 0 and trump >= 0 and pt != 0
                                and (x != trump or (pt >> np.uint64(c & 15)) > 1))):
                return 5000 - strength  # the partner can still overtake: stay low
            return 2000 + strength  # the bidder wins it anyway: the highest goes
        if mover == partner:
            if s_played:
                if win_seat == bidder:
                    return 8000 - strength if wins else 1000 - strength
                return 6000 - strength
            return 6000 + strength  # high before the bidder, so the bidder can play under
        if s_played:
            if win_seat == bidder:
                return 1000 - strength if wins else 8000 + strength
            return 6000 + strength
        return 6000 - strength  # low before the bidder
    bonus = 1500 if c == killer else 0
    above = left & suit_bits(x) & ~((bit(c) << np.uint64(1)) - np.uint64(1))
    if mover == bidder:
        if above & hands[partner]:
            return 5000 + strength + bonus  # the partner overtakes
        if above:
            return 3000 - strength - (500 if x == trump else 0) + bonus
        return 1000 - strength + bonus
    st = suit_field(hands[bidder], trump) if trump >= 0 else np.uint64(0)
    if mover == partner:
        if bidder_suit == 0:
            if st != 0 and hands[bidder] == (st << np.uint64(16 * trump)):
                return 500 + strength + bonus  # the bidder would have to ruff
            return 6000 + strength + bonus  # the bidder discards
        if (c & 15) > highest_bit(bidder_suit):
            return 5000 + strength + bonus  # the bidder plays under
        return 3000 - strength + bonus
    if bidder_suit != 0:
        if (c & 15) < lowest_bit(bidder_suit):
            return 4000 + 8 * lowest_bit(bidder_suit) - strength + bonus  # the bidder must go over
        return 2000 - strength + bonus
    if st != 0 and hands[bidder] == (st << np.uint64(16 * trump)):
        return 7000 - strength + bonus  # the bidder must ruff
    return 2000 - strength + bonus
