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
def lead_weight(ctx, hands, u, mover, c, killer, best):
    """DDS's weight of leading card c (Moves::WeightAllocTrump0 / WeightAllocNT0, four seats
    in two partnerships): which suit by who holds its top cards, who could ruff, and how many
    answers the opponents have; the card as the top of its run (DDS plays a run's highest card).
    Higher is tried first."""
    trump = ctx[C_TRUMP]
    h = hands[mover]
    s = c >> 4
    pd = (mover + 2) & 3
    lho = (mover + 1) & 3
    rho = (mover + 3) & 3
    tricks = popcount(u) // 4  # tricks left, this one included
    top = c  # the run's highest card: DDS's move
    while True:
        above = u & suit_bits(s) & ~((bit(top) << np.uint64(1)) - np.uint64(1))
        if above == 0:
            break
        nxt = lowest_bit(above)
        if not (h >> np.uint64(nxt)) & np.uint64(1):
            break
        top = nxt
    seq = top != c
    us = suit_field(u, s)
    rrank = popcount(us >> np.uint64((top & 15) + 1)) + 1  # 1 = the suit's highest card
    w1 = 16 * s + highest_bit(us)
    winner = holder_of(hands, w1)
    rest = us & ~(np.uint64(1) << np.uint64(w1 & 15))
    second = -1
    second_card = -1
    third = -1
    if rest:
        second_card = 16 * s + highest_bit(rest)
        second = holder_of(hands, second_card)
        rest &= ~(np.uint64(1) << np.uint64(second_card & 15))
        if rest:
            third = holder_of(hands, 16 * s + highest_bit(rest))
    n_own = popcount(suit_field(h, s))
    n_pd = popcount(suit_field(hands[pd], s))
    n_lh = popcount(suit_field(hands[lho], s))
    n_rh = popcount(suit_field(hands[rho], s))
    count_lh = (tricks if n_lh == 0 else n_lh) << 2
    count_rh = (tricks if n_rh == 0 else n_rh) << 2
    is_top = top == w1
    if trump >= 0 and (u & suit_bits(trump)):
        t_pd = suit_field(hands[pd], trump)
        t_lh = suit_field(hands[lho], trump)
        t_rh = suit_field(hands[rho], trump)
        t_own = popcount(suit_field(h, trump))
        bonus = 0
        if s != trump and ((n_lh == 0 and t_lh) or (n_rh == 0 and t_rh)):
            bonus = -12  # an opponent can ruff
        if s != trump and n_pd == 0 and t_pd and n_rh > 0:
            bonus += 17  # the partner can ruff
        if winner == rho or second == rho:
            if n_rh != 1:
                bonus -= 12
        elif winner == lho and second == pd:
            if n_pd != 1:
                bonus += 27
        if s != trump and n_own == 1 and t_own > 0 and n_pd > 1 and winner == pd:
            bonus += 19  # the partner wins and returns the suit for a ruff
        delta = bonus - (((count_lh + count_rh) << 5) // 13)
        win = False
        if is_top:
            if s == trump:
                win = True
            elif n_pd != 0 or t_pd == 0:
                win = (n_lh != 0 or t_lh == 0) and (n_rh != 0 or t_rh == 0)
            else:
                win = (n_lh != 0 or t_pd > t_lh) and (n_rh != 0 or t_pd > t_rh)
        elif suit_field(hands[pd], s) > (suit_field(hands[lho], s) | suit_field(hands[rho], s)):
            win = s == trump or ((n_lh != 0 or t_lh == 0) and (n_rh != 0 or t_rh == 0))
        elif s != trump and n_pd == 0 and t_pd != 0:
            if n_lh == 0 and t_lh != 0 and n_rh == 0 and t_rh != 0:
                win = t_pd > (t_lh | t_rh)
            elif n_lh == 0 and t_lh != 0:
                win = t_pd > t_lh
            elif n_rh == 0 and t_rh != 0:
                win = t_pd > t_rh
            else:
                win = True
        if win:
            if (n_lh == 1 and winner == lho) or (n_rh == 1 and winner == rho):
                wt = delta + 35 + rrank
            elif winner == mover:
                if second == pd:
                    wt = delta + 48 + rrank
                elif is_top:
                    wt = delta + 31
                else:
                    wt = delta - 3 + rrank
            elif winner == pd:
                wt = delta + (42 if second == mover else 28) + rrank
            elif seq and top == second_card:
                wt = delta + 40
            elif seq:
                wt = delta + 22 + rrank
            else:
                wt = delta + 11 + rrank
            if top == killer or c == killer:
                wt += 55
            elif c == best:
                wt += 18
        else:
            if second == pd and third == pd:
                delta += 20
            elif (second == mover and third == pd and n_pd > 1) or \
                    (second == pd and third == mover and n_pd > 1):
                delta += 13
            if (n_lh == 1 and winner == lho) or (n_rh == 1 and winner == rho):
                wt = delta + rrank + 2
            elif winner == mover:
                if second == pd:
                    wt = delta + 33 + rrank
                elif is_top:
                    wt = delta + 38
                else:
                    wt = delta - 14 + rrank
            elif winner == pd:
                wt = delta + 34 + rrank
            elif seq and top == second_card:
                wt = delta + 35
            else:
                wt = delta + 17 - ((top & 15) + 2)
            if top == killer or c == killer:
                wt += 18
        return wt
    delta = -(((count_lh + count_rh) << 5) // 19)
    if n_pd == 0:
        delta -= 9
    if is_top or suit_field(hands[pd], s) > (suit_field(hands[lho], s) | suit_field(hands[rho], s)):
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
    if winner == rho or second == rho:
        if n_rh != 1:
            delta -= 10
    elif winner == lho and second == pd:
        if n_pd != 1:
            delta += 31
    if second == pd and third == pd:
        delta += 35
    elif (second == mover and third == pd and n_pd > 1) or \
            (second == pd and third == mover and n_pd > 1):
        delta += 25
    if (n_lh == 1 and winner == lho) or (n_rh == 1 and winner == rho):
        wt = delta + 28 + rrank
    elif winner == mover:
        wt = delta - 17 + rrank
    elif not seq:
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
def _hi_rank(f):
    return highest_bit(f) + 2 if f else 0


@nb.njit(inline="always", cache=True)
def _lo_rank(f):
    return lowest_bit(f) + 2 if f else 0


@nb.njit(cache=True, _nrt=False)
def _run_top(h, inplay, c):
    """The highest card of c's run in h (no other card in play between them)."""
    s = c >> 4
    while True:
        above = inplay & suit_bits(s) & ~((bit(c) << np.uint64(1)) - np.uint64(1))
        if above == 0:
            return c
        nxt = lowest_bit(above)
        if not (h >> np.uint64(nxt)) & np.uint64(1):
            return c
        c = nxt


@nb.njit(inline="always", cache=True)
def _holds_kth(hands, inplay, seat, x, k):
    """Does seat hold the k-th highest card (k = 1, 2) of suit x in play?"""
    f = suit_field(inplay, x)
    if popcount(f) < k:
        return False
    if k == 2:
        f &= ~(np.uint64(1) << np.uint64(highest_bit(f)))
    return ((hands[seat] >> np.uint64(16 * x + highest_bit(f))) & np.uint64(1)) != 0


@nb.njit(inline="always", cache=True)
def _kx(hands, inplay, mover, x, cnt):
    """Would a discard from suit x bare the mover's king (it holds the suit's second card
    and one other)?"""
    return cnt == 2 and _holds_kth(hands, inplay, mover, x, 2)


@nb.njit(inline="always", cache=True)
def _lowest_above(f, r):
    """The lowest card of field f above DDS rank r (as a bit index), or -1."""
    m = f & ~((np.uint64(1) << np.uint64(r - 1)) - np.uint64(1))
    return lowest_bit(m) if m else -1


@nb.njit(cache=True, _nrt=False)
def _top_run_len(h, inplay, x):
    """How many cards of suit x h holds in the run of the suit's highest card in play."""
    f = suit_field(h, x)
    ip = suit_field(inplay, x)
    n = 0
    while ip and (f >> np.uint64(highest_bit(ip))) & np.uint64(1):
        n += 1
        ip &= ~(np.uint64(1) << np.uint64(highest_bit(ip)))
    return n


@nb.njit(cache=True, _nrt=False)
def _forces_ace(hands, inplay, mover, p4, led, m1, high1):
    """Moves::RankForcesAce: the card (bit index in the suit) of third hand that forces out
    fourth hand's top run as cheaply as possible, else beats second hand's card, or -1."""
    f4 = suit_field(hands[p4], led)
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
    if second > m1:
        return _lowest_above(mine, second)
    if high1 == 1:
        return _lowest_above(mine, m1)
    return -1


@nb.njit(inline="always", cache=True, _nrt=False)
def follow_weight(ctx, hands, stack, start, tlen, leader, mover, c, u, inplay, w, ws):
    """DDS's weight of card c for the seat tlen places after the leader (higher first)."""
    trump = ctx[C_TRUMP]
    ftest = trump >= 0 and suit_field(inplay, trump) != 0
    h = hands[mover]
    lead = stack[start]
    led = lead >> 4
    L = (lead & 15) + 2
    x = c >> 4
    top = _run_top(h, inplay, c)
    r = (top & 15) + 2
    rr = popcount(suit_field(u, x) >> np.uint64(top & 15))  # 1 = the suit's highest card left
    cnt = popcount(suit_field(h, x))
    if tlen == 1:
        return _weight_second(ctx, hands, leader, mover, c, x, led, L, top, r, rr, cnt, ftest,
                              inplay)
    if tlen == 2:
        return _weight_third(ctx, hands, leader, mover, c, x, led, L, top, r, rr, cnt, ftest,
                             inplay, w, ws)
    high2 = (ws - leader) & 3
    if x == led:
        if high2 == 1 or (led != trump and (w >> 4) == trump):
            return -r
        return 30 - r if r > (w & 15) + 2 else -r
    if not ftest:
        val = (cnt << 6) // 27
        if _kx(hands, inplay, mover, x, cnt):
            val -= 6
        elif cnt == 1 and _holds_kth(hands, inplay, mover, x, 1):
            val -= 8
        return -r + val
    val = (cnt << 6) // 24
    if _kx(hands, inplay, mover, x, cnt):
        val -= 2
    if led == trump:
        return -r + val
    if high2 == 1:
        return (2 if x == trump else 25) - r + val
    if (w >> 4) == trump:
        if x == trump:
            return 33 + rr if top > w else -13 + rr
        return 14 - r + val
    if x == trump:
        return 33 + rr
    return 14 - r + val


@nb.njit(cache=True, _nrt=False)
def _weight_second(ctx, hands, leader, mover, c, x, led, L, top, r, rr, cnt, ftest, inplay):
    """Moves::WeightAlloc{Trump,NT}{Notvoid,Void}1: second hand."""
    trump = ctx[C_TRUMP]
    p3 = (leader + 2) & 3
    p4 = (leader + 3) & 3
    f3 = suit_field(hands[p3], led)
    f4 = suit_field(hands[p4], led)
    max3 = _hi_rank(f3)
    maxpd = _hi_rank(f4)
    t3 = suit_field(hands[p3], trump) if trump >= 0 else np.uint64(0)
    t4 = suit_field(hands[p4], trump) if trump >= 0 else np.uint64(0)
    if x == led:
        min3 = _lo_rank(f3)
        minpd = _lo_rank(f4)
        seq = top != c
        if not ftest:
            if maxpd > L and maxpd > max3:
                return -r
            if r > L and r > max3:
                return 81 - r
            if min3 > r or minpd > r:
                return -3 + rr
            if r < L:
                return -11 + rr
            return 10 + rr if seq else 13 - r
        win = False
        if led == trump:
            win = (maxpd > L and maxpd > max3) or (r > L and r > max3)
        elif r > L and r > max3:
            win = max3 != 0 or t3 == 0 or (maxpd == 0 and t4 != 0 and t4 > t3)
        elif maxpd > L and maxpd > max3:
            win = max3 != 0 or t3 == 0
        elif L > maxpd and L > max3 and L > r:
            if maxpd == 0 and t4 != 0:
                win = max3 != 0 or t3 == 0 or t4 > t3
        elif maxpd == 0 and t4 != 0:
            win = True
        if win:
            if min3 > r:
                return 40 + rr  # the partner must be winning: we cannot
            if maxpd > L and suit_field(hands[leader], led) > f4:
                return 41 + rr
            if r > L:
                if r < maxpd:
                    return 78 - r
                if r > max3:
                    return 73 - r
                return 62 - r if seq else 49 - r
            return 47 - r if maxpd > 0 else 40 - r
        if r < min3 or r < minpd:
            return -9 + rr  # beaten anyway
        if r < L:
            return -16 + rr
        return 22 - r if seq else 10 - r
    leadbit = np.uint64(1) << np.uint64(L - 2)
    pd_wins = f4 > (f3 | leadbit)
    kx = _kx(hands, inplay, mover, x, cnt)
    if not ftest:
        if pd_wins:
            add = (cnt << 6) // 23
            if kx:
                add -= 2
            elif cnt == 1 and _holds_kth(hands, inplay, mover, x, 1):
                add -= 3
        else:
            add = (cnt << 6) // 33
            if kx:
                add -= 6
            elif cnt == 1 and _holds_kth(hands, inplay, mover, x, 1):
                add -= 8
        return -r + add
    if led == trump:
        if pd_wins:
            return -r + (cnt << 6) // 44
        return -r + (cnt << 6) // 36 - (4 if kx else 0)
    if x != trump:
        if f3 != 0:
            good = pd_wins or (f4 == 0 and t4 != 0)
        else:
            good = (f4 == 0 and t4 > t3) or (t3 == 0 and f4 > leadbit)
        if good:
            return -r + 60 + (cnt << 6) // 44
        return -r - 2 + (cnt << 6) // 36 - (4 if kx else 0)
    if f3 != 0 or (f4 == 0 and t4 != 0 and t4 > t3):
        return 24 - r + (cnt << 6) // 44
    if (np.uint64(1) << np.uint64(top & 15)) > t3:
        return 24 - r + (cnt << 6) // 44  # third hand cannot overruff
    return 15 - r + (cnt << 6) // 36 - (4 if kx else 0)


@nb.njit(cache=True, _nrt=False)
def _weight_third(ctx, hands, leader, mover, c, x, led, L, top, r, rr, cnt, ftest, inplay,
                  w, ws):
    """Moves::WeightAlloc{Trump,NT}{Notvoid,Void}2: third hand (the leader's partner)."""
    trump = ctx[C_TRUMP]
    p2 = (leader + 1) & 3
    p4 = (leader + 3) & 3
    f4 = suit_field(hands[p4], led)
    max4 = _hi_rank(f4)
    min4 = _lo_rank(f4)
    m1 = (w & 15) + 2
    high1 = 0 if ws == leader else 1
    w_trump = (w >> 4) == trump
    t4 = suit_field(hands[p4], trump) if trump >= 0 else np.uint64(0)
    if x == led:
        max3 = _hi_rank(suit_field(hands[mover], led))
        if not ftest:
            if high1 == 0 and L > max4:
                wt = -r
                if suit_field(hands[leader], led) == 0 and _holds_kth(hands, inplay, mover, led, 1):
                    # the partner's singleton under our top: overtake to run the suit?
                    opp = max(popcount(f4) - 1, popcount(suit_field(hands[p2], led)))
                    run = _top_run_len(hands[mover], inplay & ~bit(16 * led + L - 2), led)
                    if opp <= run - 1 and \
                            c == 16 * led + _lowest_above(suit_field(hands[mover], led), L):
                        wt += 20
                return wt
            if max3 < min4 or max3 < m1:
                return -r
            wt = 60 - r if (r > m1 and r > max4) else -r
            if max4 > max3 and max4 > m1 and c == 16 * led + _forces_ace(
                    hands, inplay, mover, p4, led, m1, high1):
                wt += 20
            return wt
        if led == trump:
            if high1 == 0 and L > max4:
                return -r
            if max3 < min4 or max3 < m1:
                return -r
            if max3 > max4:
                return 58 - r if (r > max4 and r > m1) else -r
            return -r + (20 if c == 16 * led + _forces_ace(hands, inplay, mover, p4, led, m1,
                                                           high1) else 0)
        if w_trump:
            return -r  # second hand ruffed
        if high1 == 0 and (max4 == 0 or L > max4):
            return -r
        if high1 == 1 and max4 == 0:
            return 20 - r if r > m1 else -r
        if max3 < min4 or max3 < m1:
            return -r
        if max3 > max4:
            return 58 - r if (r > max4 and (high1 == 0 or r > m1)) else -r
        wt = 60 - r if (r > m1 and r > max4) else -r
        if c == 16 * led + _forces_ace(hands, inplay, mover, p4, led, m1, high1):
            wt += 20
        return wt
    if not ftest:
        add = (cnt << 6) // 24
        if _kx(hands, inplay, mover, x, cnt) or \
                (cnt == 1 and _holds_kth(hands, inplay, mover, x, 1)):
            add -= 4
        return -r + add
    if led == trump or x != trump:
        return -r + (cnt << 6) // 40
    if high1 == 0 and L > max4 and (max4 != 0 or t4 == 0):
        return -r - 50  # do not ruff the partner's sure winner
    add = (cnt << 6) // 50
    if w_trump and top < w:
        return -32 + rr + (cnt << 6) // 40  # do not underruff
    if high1 == 0:
        if max4 != 0:
            return (36 if _holds_kth(hands, inplay, leader, led, 2) else 48) - r + add
        if (np.uint64(1) << np.uint64(top & 15)) > t4:
            return 48 - r + add
        return -12 - r + add
    if max4 != 0:
        return 72 - r + add
    if (np.uint64(1) << np.uint64(top & 15)) > t4:
        return 48 - r + add
    return 36 - r + add
