"""Dummy: what a seat may do, listed for the engine to offer a policy.

Lay-off fits (DM-16), the DM-34 neighbourhood, the cards a knock may keep, the takes from the
pile (DM-13, DM-23) and the melds and lay-offs of a turn (DM-15 ... DM-19), each as the
``layout.A_*`` action codes the engine's questions carry.
"""

import numba as nb
import numpy as np

from simcore.cards import bit, highest_bit, lowest_bit, popcount
from simcore.melds import all_melds, can_partition, meldable, spread_ranks
from simcore.games.dummy.layout import A_KNOCK, A_LAYOFF, A_MELD, A_SHIFT, STOP, TAKE_SHIFT

_ONE = np.uint64(1)
_ZERO = np.uint64(0)


@nb.njit(inline="always", cache=True)
def rank_cards(c):
    return spread_ranks(_ONE << np.uint64(c % 13))


@nb.njit(inline="always", cache=True)
def is_set(meld):
    m = np.uint64(meld)
    return (m & rank_cards(lowest_bit(m))) == m


@nb.njit(inline="always", cache=True)
def fits(c, meld, qka_closed):
    """DM-16: card c lays off onto ``meld`` (a 3-card set's fourth card, or a run's next card
    at either end, never past A or below 2; with ``qka_closed`` a run holding the A takes none)."""
    m = np.uint64(meld)
    if m & bit(c):
        return False
    lo = lowest_bit(m)
    if is_set(m):
        return popcount(m) == 3 and c % 13 == lo % 13
    if c // 13 != lo // 13:
        return False
    hi = highest_bit(m)
    if qka_closed and hi % 13 == 12:
        return False
    return (c == lo - 1 and lo % 13 > 0) or (c == hi + 1 and hi % 13 < 12)


@nb.njit(cache=True)
def neighbourhood(x):
    """DM-34: same suit within two ranks (no wrap) and the other cards of x's rank."""
    r = x % 13
    m = rank_cards(x) & ~bit(x)
    for d in (-2, -1, 1, 2):
        if 0 <= r + d <= 12:
            m |= bit(x + d)
    return m


@nb.njit(cache=True)
def down_count(h, keep, melds, n_melds, lay_left, qka_closed, chains, lens, ks, want_min):
    """Can every card of h except ``keep`` go down as new melds plus at most ``lay_left``
    lay-offs onto the table melds?  Returns -1 if not, else a number of lay-offs that works
    (the least one when ``want_min``).  ``chains``/``lens``/``ks`` are scratch."""
    rest = np.uint64(h) & ~bit(keep)
    if lay_left <= 0 or n_melds == 0:
        return 0 if can_partition(rest) else -1
    ne = 0
    reach = _ZERO
    for j in range(n_melds):
        m = melds[j]
        lo = lowest_bit(m)
        if is_set(m):
            if popcount(m) == 3:
                f = rank_cards(lo) & ~m & rest
                if f:
                    chains[ne, 0] = lowest_bit(f)
                    lens[ne] = 1
                    reach |= f
                    ne += 1
            continue
        hi = highest_bit(m)
        if qka_closed and hi % 13 == 12:
            continue
        k = 0
        while lo % 13 - 1 - k >= 0 and (rest & bit(lo - 1 - k)):
            chains[ne, k] = lo - 1 - k
            reach |= bit(lo - 1 - k)
            k += 1
        if k:
            lens[ne] = k
            ne += 1
        k = 0
        while hi % 13 + 1 + k <= 12 and (rest & bit(hi + 1 + k)):
            chains[ne, k] = hi + 1 + k
            reach |= bit(hi + 1 + k)
            k += 1
        if k:
            lens[ne] = k
            ne += 1
    if ((meldable(rest) | reach) & rest) != rest:
        return -1
    if ne == 0:
        return 0 if can_partition(rest) else -1
    for e in range(ne):
        ks[e] = 0
    best = -1
    while True:
        used = _ZERO
        cnt = 0
        clash = False
        for e in range(ne):
            for i in range(ks[e]):
                b = bit(chains[e, i])
                if used & b:
                    clash = True
                used |= b
                cnt += 1
        if not clash and cnt <= lay_left and (best < 0 or cnt < best):
            if can_partition(rest & ~used):
                best = cnt
                if not want_min or cnt == 0:
                    return best
        e = 0
        while e < ne:
            ks[e] += 1
            if ks[e] <= lens[e]:
                break
            ks[e] = 0
            e += 1
        if e == ne:
            break
    return best


@nb.njit(cache=True)
def knock_keeps(h, melds, n_melds, lay_left, qka_closed, chains, lens, ks):
    """DM-19: the cards of h that can be kept face down while all the others go down."""
    h = np.uint64(h)
    keeps = _ZERO
    # A card that is in no meld of h and extends no table meld (even through a chain of h's
    # cards) stays loose whatever is kept; two loose cards rule out a knock, one must be kept.
    reach = _ZERO
    if lay_left > 0:
        for j in range(n_melds):
            m = melds[j]
            lo = lowest_bit(m)
            if is_set(m):
                if popcount(m) == 3:
                    reach |= rank_cards(lo) & ~m & h
                continue
            hi = highest_bit(m)
            if qka_closed and hi % 13 == 12:
                continue
            c = lo - 1
            while c >= 13 * (lo // 13) and (h & bit(c)):
                reach |= bit(c)
                c -= 1
            c = hi + 1
            while c <= 13 * (hi // 13) + 12 and (h & bit(c)):
                reach |= bit(c)
                c += 1
    loose = h & ~(meldable(h) | reach)
    if popcount(loose) >= 2:
        return keeps
    o = loose if loose else h
    while o:
        c = lowest_bit(o)
        o &= o - _ONE
        if down_count(h, c, melds, n_melds, lay_left, qka_closed, chains, lens, ks,
                       False) >= 0:
            keeps |= bit(c)
    return keeps


@nb.njit(cache=True)
def list_takes(hand, pile, n_pile, acts, n, final, melds, n_melds, lay_left, qka_closed,
               chains, lens, ks):
    """DM-12: append every legal take (target depth, meld) to ``acts[n:]``; returns the new n.

    The target and every card above it are taken; the meld holds the target and at least one
    card of ``hand``; at least one card must remain.  On the final turn (DM-23) only takes
    after which the seat can knock are listed."""
    hand = np.uint64(hand)
    taken = _ZERO
    for d in range(n_pile - 1, -1, -1):
        t = pile[d]
        tb = bit(t)
        taken |= tb
        avail = hand | taken
        if not (meldable(avail) & tb):
            continue
        total = popcount(avail)
        r = t % 13
        down = 0
        while r - down - 1 >= 0 and (avail & bit(t - down - 1)):
            down += 1
        up = 0
        while r + up + 1 <= 12 and (avail & bit(t + up + 1)):
            up += 1
        for a in range(down, -1, -1):
            for b in range(up + 1):
                if a + b < 2:
                    continue
                run = ((_ONE << np.uint64(a + b + 1)) - _ONE) << np.uint64(t - a)
                if (run & hand) == 0 or total - (a + b + 1) < 1:
                    continue
                if final and not _final_ok(avail & ~run, run, melds, n_melds, lay_left,
                                           qka_closed, chains, lens, ks):
                    continue
                if n < acts.shape[0]:
                    acts[n] = (np.int64(d) << TAKE_SHIFT) | np.int64(run)
                    n += 1
        others = avail & rank_cards(t) & ~tb
        k = popcount(others)
        if k >= 2:
            for i in range(k + 1 if k == 3 else 1):
                s = others | tb
                if k == 3 and i < 3:
                    o = others
                    for _ in range(i):
                        o &= o - _ONE
                    s &= ~(o & (~o + _ONE))
                if (s & hand) == 0 or total - popcount(s) < 1:
                    continue
                if final and not _final_ok(avail & ~s, s, melds, n_melds, lay_left,
                                           qka_closed, chains, lens, ks):
                    continue
                if n < acts.shape[0]:
                    acts[n] = (np.int64(d) << TAKE_SHIFT) | np.int64(s)
                    n += 1
    return n


@nb.njit(cache=True)
def _final_ok(rest, meld, melds, n_melds, lay_left, qka_closed, chains, lens, ks):
    """DM-23: after this take (``meld`` laid, ``rest`` in hand) can the seat knock?"""
    if popcount(rest) == 1:
        return True
    melds[n_melds] = meld
    return knock_keeps(rest, melds, n_melds + 1, lay_left, qka_closed, chains, lens, ks) != 0


@nb.njit(cache=True)
def list_plays(h, is_open, dark_ok, final, melds, n_melds, lay_left, dark_layoffs, qka_closed,
               acts, mbuf, chains, lens, ks):
    """DM-15 ... DM-19: the legal plays of a seat holding ``h`` (two cards or more) into
    ``acts``; returns their number.  STOP (go on to discard) unless on the final turn; an opened
    seat may lay any meld or lay off (within ``lay_left``) keeping at least one card, and knock
    keeping any card after which everything else can go down; a seat that has not opened and
    drew (``dark_ok``) may only knock (a dark knock, lay-offs only with ``dark_layoffs``)."""
    h = np.uint64(h)
    n = 0
    if not final:
        acts[0] = STOP
        n = 1
    if is_open and not final:
        nm = all_melds(h, mbuf)
        for i in range(nm):
            if (h & ~mbuf[i]) != 0:
                acts[n] = (np.int64(A_MELD) << A_SHIFT) | np.int64(mbuf[i])
                n += 1
        if lay_left > 0:
            for j in range(n_melds):
                o = h
                while o:
                    c = lowest_bit(o)
                    o &= o - _ONE
                    if fits(c, melds[j], qka_closed):
                        acts[n] = (np.int64(A_LAYOFF) << A_SHIFT) | (j << 8) | c
                        n += 1
    if is_open or dark_ok:
        ll = lay_left if (is_open or dark_layoffs) else 0
        keeps = knock_keeps(h, melds, n_melds, ll, qka_closed, chains, lens, ks)
        while keeps:
            c = lowest_bit(keeps)
            keeps &= keeps - _ONE
            acts[n] = (np.int64(A_KNOCK) << A_SHIFT) | c
            n += 1
    return n
