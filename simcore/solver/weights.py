"""DDS's move-ordering weights for the four-seat partnership games (Moves.cpp).

:func:`lead_weight` weighs a lead (Moves::WeightAllocTrump0 / WeightAllocNT0): which suit by
who holds its top cards, who could ruff, and how many answers the opponents have.
:func:`follow_weight` weighs a card of second, third or fourth hand (WeightAllocTrump
Notvoid1..3 / Void1..3 and their no-trump twins, which apply once no trump is left in play).
Ranks are DDS's (2..14); a card is weighed as the top of its run, as DDS plays it.  Higher
weights are tried first.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from simcore.cards import bit, highest_bit, lowest_bit, popcount
from simcore.solver.context import C_TRUMP
from simcore.solver.position import holder_of, suit_bits, suit_field


@nb.njit(cache=True, _nrt=False)
def lead_weight(ctx, hands, left, mover, c, killer, best):
    """DDS's weight of leading card c (Moves::WeightAllocTrump0 / WeightAllocNT0, four seats
    in two partnerships): which suit by who holds its top cards, who could ruff, and how many
    answers the opponents have; the card as the top of its run (DDS plays a run's highest card).
    ``left`` is the cards in play, ``killer`` the depth's last cut-off card, ``best`` the
    table's remembered lead.  Higher is tried first."""
    trump = ctx[C_TRUMP]
    suit = c >> 4
    top = _run_top(hands[mover], left, c)  # the run's highest card: DDS's move
    field = suit_field(left, suit)
    rrank = popcount(field >> np.uint64((top & 15) + 1)) + 1  # 1 = the suit's highest card
    is_top = top == 16 * suit + highest_bit(field)
    winner, second, second_card, third = _suit_holders(hands, left, suit)
    n_own, n_pd, n_lh, n_rh, answers = _lengths(hands, left, mover, suit)
    if trump < 0 or (left & suit_bits(trump)) == 0:
        return _nt_lead(hands, mover, c, top, killer, best, rrank, is_top, winner, second,
                        second_card, third, n_pd, n_lh, n_rh, answers)
    wins, delta = _trump_lead_outlook(ctx, hands, mover, suit, is_top, winner, second, n_own,
                                      n_pd, n_lh, n_rh, answers)
    return _trump_lead(mover, c, top, killer, best, wins, delta, rrank, is_top, winner, second,
                       second_card, third, n_pd, n_lh, n_rh)


@nb.njit(inline="always", cache=True)
def _suit_holders(hands, left, suit):
    """(who holds the suit's highest card in play; who holds its second, the second card, who
    holds its third: -1 where the suit has no such card)."""
    field = suit_field(left, suit)
    first = 16 * suit + highest_bit(field)
    rest = field & ~(np.uint64(1) << np.uint64(first & 15))
    second = -1
    second_card = -1
    third = -1
    if rest:
        second_card = 16 * suit + highest_bit(rest)
        second = holder_of(hands, second_card)
        rest &= ~(np.uint64(1) << np.uint64(second_card & 15))
        if rest:
            third = holder_of(hands, 16 * suit + highest_bit(rest))
    return holder_of(hands, first), second, second_card, third


@nb.njit(inline="always", cache=True)
def _lengths(hands, left, mover, suit):
    """(the suit's length in the mover's, its partner's, its left-hand and its right-hand
    opponent's hands; DDS's count of the opponents' answers: each one's length, or the tricks
    left when it is void, four times)."""
    tricks = popcount(left) // 4  # tricks left, this one included
    n_lh = popcount(suit_field(hands[(mover + 1) & 3], suit))
    n_rh = popcount(suit_field(hands[(mover + 3) & 3], suit))
    answers = ((tricks if n_lh == 0 else n_lh) << 2) + ((tricks if n_rh == 0 else n_rh) << 2)
    return (popcount(suit_field(hands[mover], suit)),
            popcount(suit_field(hands[(mover + 2) & 3], suit)), n_lh, n_rh, answers)


@nb.njit(inline="always", cache=True)
def _holders_bonus(mover, winner, second, n_pd, n_rh, behind, over):
    """DDS's adjustment by the holders of the suit's two top cards: less ``behind`` when the
    right-hand opponent holds one of them (and more than one card of the suit), more ``over``
    when the left-hand opponent holds the top card and the partner the second (the partner
    holding more than one)."""
    if winner == (mover + 3) & 3 or second == (mover + 3) & 3:
        return -behind if n_rh != 1 else 0
    if winner == (mover + 1) & 3 and second == (mover + 2) & 3 and n_pd != 1:
        return over
    return 0


@nb.njit(inline="always", cache=True)
def _partner_bonus(mover, second, third, n_pd, both, one):
    """DDS's adjustment by the holders of the suit's second and third cards: ``both`` when the
    partner holds them, ``one`` when the mover and the partner hold one each (the partner
    holding more than one card of the suit)."""
    pd = (mover + 2) & 3
    if second == pd and third == pd:
        return both
    if n_pd > 1 and ((second == mover and third == pd) or (second == pd and third == mover)):
        return one
    return 0


@nb.njit(inline="always", cache=True)
def _trump_lead_outlook(ctx, hands, mover, suit, is_top, winner, second, n_own, n_pd, n_lh,
                        n_rh, answers):
    """(does the lead win the trick for the mover's side, by who holds the suit's top cards and
    who could ruff or overruff; the weight's base: the ruffs, the top cards' holders and the
    opponents' answers), with trumps in play."""
    trump = ctx[C_TRUMP]
    pd = (mover + 2) & 3
    lho = (mover + 1) & 3
    rho = (mover + 3) & 3
    t_pd = suit_field(hands[pd], trump)
    t_lh = suit_field(hands[lho], trump)
    t_rh = suit_field(hands[rho], trump)
    bonus = 0
    if suit != trump and ((n_lh == 0 and t_lh) or (n_rh == 0 and t_rh)):
        bonus = -12  # an opponent can ruff
    if suit != trump and n_pd == 0 and t_pd and n_rh > 0:
        bonus += 17  # the partner can ruff
    bonus += _holders_bonus(mover, winner, second, n_pd, n_rh, 12, 27)
    if suit != trump and n_own == 1 and popcount(suit_field(hands[mover], trump)) > 0 \
            and n_pd > 1 and winner == pd:
        bonus += 19  # the partner wins and returns the suit for a ruff
    delta = bonus - ((answers << 5) // 13)
    win = False
    if is_top:
        if suit == trump:
            win = True
        elif n_pd != 0 or t_pd == 0:
            win = (n_lh != 0 or t_lh == 0) and (n_rh != 0 or t_rh == 0)
        else:
            win = (n_lh != 0 or t_pd > t_lh) and (n_rh != 0 or t_pd > t_rh)
    elif suit_field(hands[pd], suit) > (suit_field(hands[lho], suit)
                                        | suit_field(hands[rho], suit)):
        win = suit == trump or ((n_lh != 0 or t_lh == 0) and (n_rh != 0 or t_rh == 0))
    elif suit != trump and n_pd == 0 and t_pd != 0:
        if n_lh == 0 and t_lh != 0 and n_rh == 0 and t_rh != 0:
            win = t_pd > (t_lh | t_rh)
        elif n_lh == 0 and t_lh != 0:
            win = t_pd > t_lh
        elif n_rh == 0 and t_rh != 0:
            win = t_pd > t_rh
        else:
            win = True
    return win, delta


@nb.njit(inline="always", cache=True)
def _trump_lead(mover, c, top, killer, best, wins, delta, rrank, is_top, winner, second,
                second_card, third, n_pd, n_lh, n_rh):
    """The weight of a lead with trumps in play, by whether it wins its trick for the mover's
    side (``wins``, see _trump_lead_outlook): DDS weighs the same cases with other numbers."""
    pd = (mover + 2) & 3
    seq = top != c
    if not wins:
        delta += _partner_bonus(mover, second, third, n_pd, 20, 13)
    if (n_lh == 1 and winner == (mover + 1) & 3) or (n_rh == 1 and winner == (mover + 3) & 3):
        wt = delta + (35 if wins else 2) + rrank
    elif winner == mover:
        if second == pd:
            wt = delta + (48 if wins else 33) + rrank
        elif is_top:
            wt = delta + (31 if wins else 38)
        else:
            wt = delta + (-3 if wins else -14) + rrank
    elif winner == pd:
        wt = delta + ((42 if second == mover else 28) if wins else 34) + rrank
    elif seq and top == second_card:
        wt = delta + (40 if wins else 35)
    elif seq and wins:
        wt = delta + 22 + rrank
    elif wins:
        wt = delta + 11 + rrank
    else:
        wt = delta + 17 - ((top & 15) + 2)
    if top == killer or c == killer:
        wt += 55 if wins else 18
    elif c == best and wins:
        wt += 18
    return wt


@nb.njit(inline="always", cache=True)
def _nt_lead(hands, mover, c, top, killer, best, rrank, is_top, winner, second, second_card,
             third, n_pd, n_lh, n_rh, answers):
    """The weight of a lead with no trump in play."""
    suit = c >> 4
    pd = (mover + 2) & 3
    lho = (mover + 1) & 3
    rho = (mover + 3) & 3
    delta = -((answers << 5) // 19)
    if n_pd == 0:
        delta -= 9
    if is_top or suit_field(hands[pd], suit) > (suit_field(hands[lho], suit)
                                                | suit_field(hands[rho], suit)):
        if second == rho:
            if n_rh != 1:
                delta -= 1
        elif second == lho:
            delta += 22 if n_lh != 1 else 16
        if (second != lho or n_lh == 1) and (second != rho or n_rh == 1):
            wt = delta + 45 + rrank
        else:
            wt = delta + 18 + rrank
        if top == killer or c == killer:
            wt += 126
        elif c == best:
            wt += 32
        return wt
    delta += _holders_bonus(mover, winner, second, n_pd, n_rh, 10, 31)
    delta += _partner_bonus(mover, second, third, n_pd, 35, 25)
    if (n_lh == 1 and winner == lho) or (n_rh == 1 and winner == rho):
        wt = delta + 28 + rrank
    elif winner == mover:
        wt = delta - 17 + rrank
    elif top == c:
        wt = delta + 12 + rrank
    elif top == second_card:
        wt = delta + 48
    else:
        wt = delta + 29 - rrank
    if top == killer or c == killer:
        wt += 47
    elif c == best:
        wt += 19
    return wt


@nb.njit(inline="always", cache=True)
def _hi_rank(field):
    return highest_bit(field) + 2 if field else 0


@nb.njit(inline="always", cache=True)
def _lo_rank(field):
    return lowest_bit(field) + 2 if field else 0


@nb.njit(cache=True, _nrt=False)
def _run_top(hand, inplay, c):
    """The highest card of c's run in h (no other card in play between them)."""
    s = c >> 4
    while True:
        above = inplay & suit_bits(s) & ~((bit(c) << np.uint64(1)) - np.uint64(1))
        if above == 0:
            return c
        nxt = lowest_bit(above)
        if not (hand >> np.uint64(nxt)) & np.uint64(1):
            return c
        c = nxt


@nb.njit(inline="always", cache=True)
def _holds_kth(hands, inplay, seat, suit, k):
    """Does seat hold the k-th highest card (k = 1, 2) of suit x in play?"""
    f = suit_field(inplay, suit)
    if popcount(f) < k:
        return False
    if k == 2:
        f &= ~(np.uint64(1) << np.uint64(highest_bit(f)))
    return ((hands[seat] >> np.uint64(16 * suit + highest_bit(f))) & np.uint64(1)) != 0


@nb.njit(inline="always", cache=True)
def _kx(hands, inplay, mover, suit, cnt):
    """Would a discard from suit x bare the mover's king (it holds the suit's second card
    and one other)?"""
    return cnt == 2 and _holds_kth(hands, inplay, mover, suit, 2)


@nb.njit(inline="always", cache=True)
def _lowest_above(field, rank):
    """The lowest card of ``field`` above DDS rank ``rank`` (as a bit index), or -1."""
    m = field & ~((np.uint64(1) << np.uint64(rank - 1)) - np.uint64(1))
    return lowest_bit(m) if m else -1


@nb.njit(cache=True, _nrt=False)
def _top_run_len(hand, inplay, suit):
    """How many cards of suit x h holds in the run of the suit's highest card in play."""
    f = suit_field(hand, suit)
    ip = suit_field(inplay, suit)
    n = 0
    while ip and (f >> np.uint64(highest_bit(ip))) & np.uint64(1):
        n += 1
        ip &= ~(np.uint64(1) << np.uint64(highest_bit(ip)))
    return n


@nb.njit(cache=True, _nrt=False)
def _forces_ace(hands, inplay, mover, fourth, led, win_rank, high1):
    """Moves::RankForcesAce: the card (bit index in the suit) of third hand that forces out
    fourth hand's top run as cheaply as possible, else beats second hand's card, or -1."""
    f4 = suit_field(hands[fourth], led)
    ip = suit_field(inplay, led)
    b = highest_bit(f4)
    while True:  # down fourth hand's top run
        below = ip & ((np.uint64(1) << np.uint64(b)) - np.uint64(1))
        if below == 0:
            return -1
        nb_ = highest_bit(below)
        if not (f4 >> np.uint64(nb_)) & np.uint64(1):
            break
        b = nb_
    rest = f4 & ((np.uint64(1) << np.uint64(b)) - np.uint64(1))
    if rest == 0:
        return -1
    second = highest_bit(rest) + 2
    mine = suit_field(hands[mover], led)
    if second > win_rank:
        return _lowest_above(mine, second)
    if high1 == 1:
        return _lowest_above(mine, win_rank)
    return -1


@nb.njit(inline="always", cache=True, _nrt=False)
def follow_weight(ctx, hands, stack, start, tlen, leader, mover, c, left, inplay, win_card,
                  win_seat):
    """DDS's weight of card c for the seat ``tlen`` places after the leader (higher first);
    ``left`` the cards in hands, ``inplay`` those and the trick's, the trick's best card so far
    ``win_card`` played by ``win_seat``."""
    trump = ctx[C_TRUMP]
    trumps_left = trump >= 0 and suit_field(inplay, trump) != 0
    hand = hands[mover]
    lead = stack[start]
    led = lead >> 4
    lead_rank = (lead & 15) + 2
    suit = c >> 4
    top = _run_top(hand, inplay, c)
    rank = (top & 15) + 2
    rel_rank = popcount(suit_field(left, suit) >> np.uint64(top & 15))  # 1 = the suit's highest
    suit_len = popcount(suit_field(hand, suit))
    if tlen == 1:
        return _weight_second(ctx, hands, leader, mover, c, suit, led, lead_rank, top, rank,
                              rel_rank, suit_len, trumps_left, inplay)
    if tlen == 2:
        return _weight_third(ctx, hands, leader, mover, c, suit, led, lead_rank, top, rank,
                             rel_rank, suit_len, trumps_left, inplay, win_card, win_seat)
    return _weight_fourth(ctx, hands, leader, mover, suit, led, top, rank, rel_rank, suit_len,
                          trumps_left, inplay, win_card, win_seat)


@nb.njit(inline="always", cache=True)
def _weight_fourth(ctx, hands, leader, mover, suit, led, top, rank, rel_rank, suit_len,
                   trumps_left, inplay, win_card, win_seat):
    """Moves::WeightAlloc{Trump,NT}{Notvoid,Void}3: fourth hand."""
    trump = ctx[C_TRUMP]
    high2 = (win_seat - leader) & 3
    if suit == led:
        if high2 == 1 or (led != trump and (win_card >> 4) == trump):
            return -rank
        return 30 - rank if rank > (win_card & 15) + 2 else -rank
    if not trumps_left:
        val = (suit_len << 6) // 27
        if _kx(hands, inplay, mover, suit, suit_len):
            val -= 6
        elif suit_len == 1 and _holds_kth(hands, inplay, mover, suit, 1):
            val -= 8
        return -rank + val
    val = (suit_len << 6) // 24
    if _kx(hands, inplay, mover, suit, suit_len):
        val -= 2
    if led == trump:
        return -rank + val
    if high2 == 1:
        return (2 if suit == trump else 25) - rank + val
    if (win_card >> 4) == trump:
        if suit == trump:
            return 33 + rel_rank if top > win_card else -13 + rel_rank
        return 14 - rank + val
    if suit == trump:
        return 33 + rel_rank
    return 14 - rank + val


@nb.njit(cache=True, _nrt=False)
def _weight_second(ctx, hands, leader, mover, c, suit, led, lead_rank, top, rank, rel_rank,
                   suit_len, trumps_left, inplay):
    """Moves::WeightAlloc{Trump,NT}{Notvoid,Void}1: second hand, by third and fourth hand's
    cards of the led suit (f3, f4) and trumps (t3, t4)."""
    trump = ctx[C_TRUMP]
    third = (leader + 2) & 3
    fourth = (leader + 3) & 3
    f3 = suit_field(hands[third], led)
    f4 = suit_field(hands[fourth], led)
    t3 = suit_field(hands[third], trump) if trump >= 0 else np.uint64(0)
    t4 = suit_field(hands[fourth], trump) if trump >= 0 else np.uint64(0)
    if suit == led:
        return _second_follows(ctx, hands, leader, c, led, lead_rank, top, rank, rel_rank,
                               trumps_left, f3, f4, t3, t4)
    return _second_discards(ctx, hands, mover, suit, led, lead_rank, top, rank, suit_len,
                            trumps_left, inplay, f3, f4, t3, t4)


@nb.njit(inline="always", cache=True)
def _second_follows(ctx, hands, leader, c, led, lead_rank, top, rank, rel_rank, trumps_left,
                    f3, f4, t3, t4):
    """Second hand following suit."""
    trump = ctx[C_TRUMP]
    max3 = _hi_rank(f3)
    maxpd = _hi_rank(f4)
    min3 = _lo_rank(f3)
    minpd = _lo_rank(f4)
    seq = top != c
    if not trumps_left:
        if maxpd > lead_rank and maxpd > max3:
            return -rank
        if rank > lead_rank and rank > max3:
            return 81 - rank
        if min3 > rank or minpd > rank:
            return -3 + rel_rank
        if rank < lead_rank:
            return -11 + rel_rank
        return 10 + rel_rank if seq else 13 - rank
    win = False
    if led == trump:
        win = (maxpd > lead_rank and maxpd > max3) or (rank > lead_rank and rank > max3)
    elif rank > lead_rank and rank > max3:
        win = max3 != 0 or t3 == 0 or (maxpd == 0 and t4 != 0 and t4 > t3)
    elif maxpd > lead_rank and maxpd > max3:
        win = max3 != 0 or t3 == 0
    elif lead_rank > maxpd and lead_rank > max3 and lead_rank > rank:
        if maxpd == 0 and t4 != 0:
            win = max3 != 0 or t3 == 0 or t4 > t3
    elif maxpd == 0 and t4 != 0:
        win = True
    if win:
        if min3 > rank:
            return 40 + rel_rank  # the partner must be winning: we cannot
        if maxpd > lead_rank and suit_field(hands[leader], led) > f4:
            return 41 + rel_rank
        if rank > lead_rank:
            if rank < maxpd:
                return 78 - rank
            if rank > max3:
                return 73 - rank
            return 62 - rank if seq else 49 - rank
        return 47 - rank if maxpd > 0 else 40 - rank
    if rank < min3 or rank < minpd:
        return -9 + rel_rank  # beaten anyway
    if rank < lead_rank:
        return -16 + rel_rank
    return 22 - rank if seq else 10 - rank


@nb.njit(inline="always", cache=True)
def _second_discards(ctx, hands, mover, suit, led, lead_rank, top, rank, suit_len,
                     trumps_left, inplay, f3, f4, t3, t4):
    """Second hand void in the led suit: a discard or a ruff."""
    trump = ctx[C_TRUMP]
    leadbit = np.uint64(1) << np.uint64(lead_rank - 2)
    pd_wins = f4 > (f3 | leadbit)
    kx = _kx(hands, inplay, mover, suit, suit_len)
    if not trumps_left:
        if pd_wins:
            add = (suit_len << 6) // 23
            if kx:
                add -= 2
            elif suit_len == 1 and _holds_kth(hands, inplay, mover, suit, 1):
                add -= 3
        else:
            add = (suit_len << 6) // 33
            if kx:
                add -= 6
            elif suit_len == 1 and _holds_kth(hands, inplay, mover, suit, 1):
                add -= 8
        return -rank + add
    if led == trump:
        if pd_wins:
            return -rank + (suit_len << 6) // 44
        return -rank + (suit_len << 6) // 36 - (4 if kx else 0)
    if suit != trump:
        if f3 != 0:
            good = pd_wins or (f4 == 0 and t4 != 0)
        else:
            good = (f4 == 0 and t4 > t3) or (t3 == 0 and f4 > leadbit)
        if good:
            return -rank + 60 + (suit_len << 6) // 44
        return -rank - 2 + (suit_len << 6) // 36 - (4 if kx else 0)
    if f3 != 0 or (f4 == 0 and t4 != 0 and t4 > t3):
        return 24 - rank + (suit_len << 6) // 44
    if (np.uint64(1) << np.uint64(top & 15)) > t3:
        return 24 - rank + (suit_len << 6) // 44  # third hand cannot overruff
    return 15 - rank + (suit_len << 6) // 36 - (4 if kx else 0)


@nb.njit(cache=True, _nrt=False)
def _weight_third(ctx, hands, leader, mover, c, suit, led, lead_rank, top, rank, rel_rank,
                  suit_len, trumps_left, inplay, win_card, win_seat):
    """Moves::WeightAlloc{Trump,NT}{Notvoid,Void}2: third hand (the leader's partner), by
    fourth hand's cards of the led suit (f4, its highest rank max4) and trumps (t4), whether
    second hand is winning the trick (high1) and with a trump (w_trump)."""
    trump = ctx[C_TRUMP]
    fourth = (leader + 3) & 3
    f4 = suit_field(hands[fourth], led)
    max4 = _hi_rank(f4)
    high1 = 0 if win_seat == leader else 1
    w_trump = (win_card >> 4) == trump
    if suit == led:
        return _third_follows(ctx, hands, leader, mover, c, led, lead_rank, rank, trumps_left,
                              inplay, win_card, f4, max4, high1, w_trump)
    t4 = suit_field(hands[fourth], trump) if trump >= 0 else np.uint64(0)
    return _third_discards(ctx, hands, leader, mover, suit, led, lead_rank, top, rank, rel_rank,
                           suit_len, trumps_left, inplay, win_card, max4, high1, w_trump, t4)


@nb.njit(inline="always", cache=True)
def _third_follows(ctx, hands, leader, mover, c, led, lead_rank, rank, trumps_left, inplay,
                   win_card, f4, max4, high1, w_trump):
    """Third hand following suit."""
    trump = ctx[C_TRUMP]
    p2 = (leader + 1) & 3
    p4 = (leader + 3) & 3
    min4 = _lo_rank(f4)
    m1 = (win_card & 15) + 2
    max3 = _hi_rank(suit_field(hands[mover], led))
    if not trumps_left:
        if high1 == 0 and lead_rank > max4:
            wt = -rank
            if suit_field(hands[leader], led) == 0 and _holds_kth(hands, inplay, mover, led, 1):
                # the partner's singleton under our top: overtake to run the suit?
                opp = max(popcount(f4) - 1, popcount(suit_field(hands[p2], led)))
                run = _top_run_len(hands[mover], inplay & ~bit(16 * led + lead_rank - 2), led)
                if opp <= run - 1 and \
                        c == 16 * led + _lowest_above(suit_field(hands[mover], led), lead_rank):
                    wt += 20
            return wt
        if max3 < min4 or max3 < m1:
            return -rank
        wt = 60 - rank if (rank > m1 and rank > max4) else -rank
        if max4 > max3 and max4 > m1 and c == 16 * led + _forces_ace(
                hands, inplay, mover, p4, led, m1, high1):
            wt += 20
        return wt
    if led == trump:
        if high1 == 0 and lead_rank > max4:
            return -rank
        if max3 < min4 or max3 < m1:
            return -rank
        if max3 > max4:
            return 58 - rank if (rank > max4 and rank > m1) else -rank
        forces = c == 16 * led + _forces_ace(hands, inplay, mover, p4, led, m1, high1)
        return -rank + (20 if forces else 0)
    if w_trump:
        return -rank  # second hand ruffed
    if high1 == 0 and (max4 == 0 or lead_rank > max4):
        return -rank
    if high1 == 1 and max4 == 0:
        return 20 - rank if rank > m1 else -rank
    if max3 < min4 or max3 < m1:
        return -rank
    if max3 > max4:
        return 58 - rank if (rank > max4 and (high1 == 0 or rank > m1)) else -rank
    wt = 60 - rank if (rank > m1 and rank > max4) else -rank
    if c == 16 * led + _forces_ace(hands, inplay, mover, p4, led, m1, high1):
        wt += 20
    return wt


@nb.njit(inline="always", cache=True)
def _third_discards(ctx, hands, leader, mover, suit, led, lead_rank, top, rank, rel_rank,
                    suit_len, trumps_left, inplay, win_card, max4, high1, w_trump, t4):
    """Third hand void in the led suit: a discard or a ruff."""
    trump = ctx[C_TRUMP]
    if not trumps_left:
        add = (suit_len << 6) // 24
        if _kx(hands, inplay, mover, suit, suit_len) or \
                (suit_len == 1 and _holds_kth(hands, inplay, mover, suit, 1)):
            add -= 4
        return -rank + add
    if led == trump or suit != trump:
        return -rank + (suit_len << 6) // 40
    if high1 == 0 and lead_rank > max4 and (max4 != 0 or t4 == 0):
        return -rank - 50  # do not ruff the partner's sure winner
    add = (suit_len << 6) // 50
    if w_trump and top < win_card:
        return -32 + rel_rank + (suit_len << 6) // 40  # do not underruff
    if high1 == 0:
        if max4 != 0:
            return (36 if _holds_kth(hands, inplay, leader, led, 2) else 48) - rank + add
        if (np.uint64(1) << np.uint64(top & 15)) > t4:
            return 48 - rank + add
        return -12 - rank + add
    if max4 != 0:
        return 72 - rank + add
    if (np.uint64(1) << np.uint64(top & 15)) > t4:
        return 48 - rank + add
    return 36 - rank + add

