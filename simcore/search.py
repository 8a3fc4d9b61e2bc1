"""Exact open-hand search over a generic trick game (the game-neutral half of our "DDS").

A position is n seats (4 or 5; a seat that sits out holds nothing and is skipped in turn order),
each holding a bitmask of *solver* card ids ``16 * suit + strength`` (within a suit a higher bit
is a stronger card, so a suit is one 16-bit field), the cards already in the current trick, the
leader, a trump suit or none, follow-suit, and optionally a suit that may not be led until it is
broken (unless the leader holds nothing else).  The value is the sum, over the tricks won by seats
in the ``count`` set, of a per-trick constant plus the points of the trick's cards; seats in the
``max`` set maximise it, the others minimise it.  Spades counts tricks for seats 0+2 (count = max =
{0, 2}) or, for a nil, the tricks of seat s (count = {s}, max = its opponents); Trump Friend counts
card points (trick constant 0) for the declarer's team.

The search is a zero-window (boolean) alpha-beta, "can the max side get at least t from here?",
driven by a binary search on t (the Skat solvers' threshold search; DDS does the same per trick).
What makes it fast, after DDS (Haglund's published algorithm):

* a transposition table at trick boundaries storing a lower and an upper bound of the remaining
  value, keyed on the cards left in *relative ranks* (within a suit, the k-th lowest card still
  in play is rank k, so positions that differ only in which small cards are gone share an entry),
  the point pattern of those cards, the leader and the broken flag;
* one card per run of equivalent cards (adjacent among the cards still in play, same holder, same
  points): playing either gives the same value;
* move ordering by cheap heuristics (win cheaply, duck low, cash masters, lead to partner's
  master) plus the table's remembered best lead;
* quick tricks: the leader's sure winners bound the value before any search.

Nothing is allocated per node: a *table* is a tuple of preallocated arrays (the transposition
entries, the move lists per depth, the context and the position), one per thread, reused across
solves.  Each top-level solve starts a new generation, so stale entries are ignored, not cleared.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from simcore.cards import highest_bit, lowest_bit, popcount

DEFAULT_BITS = 18  # 2**18 entries of 80 bytes: 20 MiB a table
MAX_DEPTH = 72  # cards played from the root (52 + a partial trick) plus slack
KEY_WORDS = 8  # 5 relative hands, 2 point-pattern words, leader/broken
SUIT_FIELD = np.uint64(0xFFFF)

# ---------------------------------------------------------------- the context (int64 vector)
C_NSEATS = 0
C_NACTIVE = 1
C_TRUMP = 2  # suit 0-3, or -1 for no trump
C_RESTRICT = 3  # suit that may not be led until broken, or -1
C_COUNT = 4  # seat bitmask whose tricks count
C_MAX = 5  # seat bitmask of the maximising seats
C_CONST = 6  # value of a trick won, before card points
C_HASPTS = 7
C_QUICK = 8  # quick tricks valid: count == max and no card points
C_NEXT = 9  # 5 slots: the next seat in play after each seat
C_POINTS = 16  # 64 slots: points of each solver card id
CTX_SIZE = C_POINTS + 64

# counters
N_GEN = 0
N_NODES = 1

# the table tuple, by position
T_KEYS, T_VALS, T_COUNTERS, T_CTX, T_HANDS, T_STACK, T_MOVES, T_SCORES, T_KEYBUF, T_SCRATCH, \
    T_FRAMES = range(11)
# a search frame's int64 words (one frame per card played from the root)
F_TLEN, F_LEADER, F_BROKEN, F_TARGET, F_MOVER, F_MAX, F_N, F_I, F_LO, F_HI = range(10)
# a transposition entry's int32 words
V_GEN, V_LO, V_HI, V_BEST = range(4)


def new_tables(n: int = 1, log2_size: int = DEFAULT_BITS):
    """``n`` solver tables (for ``n`` threads or blocks), as one tuple of arrays with leading dim n."""
    size = 1 << log2_size
    return (
        np.zeros((n, size, KEY_WORDS), np.uint64),
        np.zeros((n, size, 4), np.int32),
        np.zeros((n, 8), np.int64),
        np.zeros((n, CTX_SIZE), np.int64),
        np.zeros((n, 5), np.uint64),
        np.zeros((n, MAX_DEPTH), np.int64),
        np.zeros((n, MAX_DEPTH, 16), np.int64),
        np.zeros((n, MAX_DEPTH, 16), np.int64),
        np.zeros((n, MAX_DEPTH, KEY_WORDS + 1), np.uint64),  # the key, then its hash
        np.zeros((n, 64), np.int64),
        np.zeros((n, MAX_DEPTH, 10), np.int64),
    )


@nb.njit(cache=True)
def table_of(tables, i):
    """Table ``i`` of :func:`new_tables` (views, no copy)."""
    return (tables[0][i], tables[1][i], tables[2][i], tables[3][i], tables[4][i], tables[5][i],
            tables[6][i], tables[7][i], tables[8][i], tables[9][i], tables[10][i])


@nb.njit(cache=True)
def nodes(tab):
    """Nodes searched by the last top-level solve on this table."""
    return tab[T_COUNTERS][N_NODES]


@nb.njit(inline="always", cache=True)
def _bit(c):
    return np.uint64(1) << np.uint64(c)


@nb.njit(inline="always", cache=True)
def _suit_bits(s):
    return SUIT_FIELD << np.uint64(16 * s)


@nb.njit(inline="always", cache=True)
def _beats(c, best, trump):
    cs = c >> 4
    bs = best >> 4
    if cs == bs:
        return c > best
    return cs == trump


# ---------------------------------------------------------------- setting up a solve


@nb.njit(cache=True)
def setup(tab, nseats, active, trump, restrict, count, maxi, trick_const, points):
    """Fill the table's context for a solve: seats in play (bitmask), trump (-1 none), the
    lead-restricted suit (-1 none), the count and max seat masks, the trick constant and the
    points of each solver card id (int64[64]).  Starts a new table generation."""
    ctx = tab[T_CTX]
    ctx[C_NSEATS] = nseats
    ctx[C_NACTIVE] = popcount(np.uint64(active))
    ctx[C_TRUMP] = trump
    ctx[C_RESTRICT] = restrict
    ctx[C_COUNT] = count
    ctx[C_MAX] = maxi
    ctx[C_CONST] = trick_const
    has = 0
    for c in range(64):
        ctx[C_POINTS + c] = points[c]
        if points[c] != 0:
            has = 1
    ctx[C_HASPTS] = has
    ctx[C_QUICK] = 1 if (has == 0 and (count & active) == (maxi & active)) else 0
    for s in range(5):
        ctx[C_NEXT + s] = -1
        if s < nseats:
            for k in range(1, nseats + 1):
                t = (s + k) % nseats
                if (active >> t) & 1:
                    ctx[C_NEXT + s] = t
                    break
    counters = tab[T_COUNTERS]
    counters[N_GEN] += 1
    if counters[N_GEN] >= 2**31 - 1:  # wrapped: clear once in two billion solves
        tab[T_VALS][:, V_GEN] = 0
        counters[N_GEN] = 1
    counters[N_NODES] = 0
    for s in range(5):
        tab[T_HANDS][s] = 0


# ---------------------------------------------------------------- small position helpers


@nb.njit(inline="always", cache=True)
def _union(ctx, hands):
    u = np.uint64(0)
    for s in range(ctx[C_NSEATS]):
        u |= hands[s]
    return u


@nb.njit(cache=True)
def _legal(ctx, hands, stack, start, tlen, mover, broken):
    h = hands[mover]
    if tlen > 0:
        same = h & _suit_bits(stack[start] >> 4)
        return same if same else h
    r = ctx[C_RESTRICT]
    if r >= 0 and not broken:
        other = h & ~_suit_bits(r)
        return other if other else h
    return h


@nb.njit(cache=True)
def _resolve(ctx, stack, start, n, leader):
    """(winning seat, value for the count side) of the complete trick stack[start:start+n]."""
    trump = ctx[C_TRUMP]
    best = stack[start]
    ws = leader
    seat = leader
    pts = ctx[C_POINTS + best]
    for i in range(1, n):
        seat = ctx[C_NEXT + seat]
        c = stack[start + i]
        pts += ctx[C_POINTS + c]
        if _beats(c, best, trump):
            best = c
            ws = seat
    if (ctx[C_COUNT] >> ws) & 1:
        return ws, ctx[C_CONST] + pts
    return ws, 0


@nb.njit(cache=True)
def _points_of(ctx, mask):
    t = 0
    m = np.uint64(mask)
    while m:
        t += ctx[C_POINTS + lowest_bit(m)]
        m &= m - np.uint64(1)
    return t


@nb.njit(cache=True)
def upper_bound(ctx, hands, stack, start, tlen):
    """Most the count side could still get: every remaining trick and every point in play."""
    u = _union(ctx, hands)
    tricks = (popcount(u) + tlen) // ctx[C_NACTIVE]
    hi = tricks * ctx[C_CONST]
    if ctx[C_HASPTS]:
        hi += _points_of(ctx, u)
        for i in range(tlen):
            hi += ctx[C_POINTS + stack[start + i]]
    return hi


@nb.njit(cache=True)
def _quick_tricks(ctx, hands, leader, broken):
    """Tricks the leader can take by cashing top cards, keeping the lead, whatever the others do.

    Per suit: the leader's cards above every other seat's (all of them when nobody else holds
    the suit).  A side suit counts only as far as every other seat still holding trumps can
    follow it, so nobody ruffs, and the partner never takes the lead either; such a seat follows
    every counted suit, so cashing one suit never makes another fail.
    """
    trump = ctx[C_TRUMP]
    h = hands[leader]
    others = np.uint64(0)
    for s in range(ctx[C_NSEATS]):
        if s != leader:
            others |= hands[s]
    r = ctx[C_RESTRICT]
    restricted = r >= 0 and not broken and (h & ~_suit_bits(r)) != 0
    total = 0
    for s in range(4):
        hs = (h >> np.uint64(16 * s)) & SUIT_FIELD
        if hs == 0 or (restricted and s == r):
            continue
        os_ = (others >> np.uint64(16 * s)) & SUIT_FIELD
        if os_ == 0:
            k = popcount(hs)
        else:
            k = popcount(hs >> np.uint64(highest_bit(os_) + 1))
        if k == 0:
            continue
        if trump >= 0 and s != trump:
            for t in range(ctx[C_NSEATS]):
                if t != leader and (hands[t] & _suit_bits(trump)):
                    lt = popcount(hands[t] & _suit_bits(s))
                    if lt < k:
                        k = lt
        total += k
    return total


# ---------------------------------------------------------------- transposition table


@nb.njit(cache=True)
def _make_key(ctx, hands, leader, broken, keybuf):
    """Relative-rank hands, point pattern and leader into keybuf; returns the hash."""
    u = _union(ctx, hands)
    p1 = np.uint64(0)
    p2 = np.uint64(0)
    for seat in range(5):
        rel = np.uint64(0)
        if seat < ctx[C_NSEATS]:
            m = hands[seat]
            while m:
                c = lowest_bit(m)
                low = m & (~m + np.uint64(1))
                s = c >> 4
                below = u & (low - np.uint64(1)) & _suit_bits(s)
                rb = _bit(16 * s + popcount(below))
                rel |= rb
                pts = ctx[C_POINTS + c]
                if pts & 1:
                    p1 |= rb
                if pts & 2:
                    p2 |= rb
                m ^= low
        keybuf[seat] = rel
    keybuf[5] = p1
    keybuf[6] = p2
    meta = np.uint64(leader)
    if ctx[C_RESTRICT] >= 0 and broken:
        meta |= np.uint64(8)
    keybuf[7] = meta
    hsh = np.uint64(0)
    for i in range(KEY_WORDS):
        hsh = (hsh ^ keybuf[i]) * np.uint64(0x9E3779B97F4A7C15)
        hsh ^= hsh >> np.uint64(29)
    return hsh


@nb.njit(cache=True)
def _probe(tab, hsh, keybuf):
    """Slot holding the key in keybuf (this generation), or -1."""
    keys = tab[T_KEYS]
    vals = tab[T_VALS]
    gen = tab[T_COUNTERS][N_GEN]
    mask = np.uint64(keys.shape[0] - 1)
    base = np.int64(hsh & mask) & ~3
    for j in range(4):
        slot = base + j
        if vals[slot, V_GEN] != gen:
            continue
        same = True
        for i in range(KEY_WORDS):
            if keys[slot, i] != keybuf[i]:
                same = False
                break
        if same:
            return slot
    return -1


@nb.njit(cache=True)
def _store(tab, hsh, keybuf, lo, hi, best, weight):
    """Write bounds for the key in keybuf: into its slot, else over a stale or the lightest entry.

    Probed again: the search below this node may have replaced the slot it was found in."""
    keys = tab[T_KEYS]
    vals = tab[T_VALS]
    gen = tab[T_COUNTERS][N_GEN]
    slot = _probe(tab, hsh, keybuf)
    if slot < 0:
        mask = np.uint64(keys.shape[0] - 1)
        base = np.int64(hsh & mask) & ~3
        slot = base
        light = 1 << 30
        for j in range(4):
            s = base + j
            if vals[s, V_GEN] != gen:
                slot = s
                break
            w = vals[s, V_BEST] >> 8
            if w < light:
                light = w
                slot = s
        for i in range(KEY_WORDS):
            keys[slot, i] = keybuf[i]
        vals[slot, V_GEN] = gen
    vals[slot, V_LO] = lo
    vals[slot, V_HI] = hi
    vals[slot, V_BEST] = (weight << 8) | best


# ---------------------------------------------------------------- move generation


@nb.njit(cache=True)
def _representative(ctx, hands, mover, inplay, c):
    """The lowest card of c's run: the mover's cards below c with nothing else in play between
    them and the same points."""
    h = hands[mover]
    s = c >> 4
    while True:
        below = inplay & (_bit(c) - np.uint64(1)) & _suit_bits(s)
        if below == 0:
            return c
        d = highest_bit(below)
        if not (h >> np.uint64(d)) & np.uint64(1) or ctx[C_POINTS + d] != ctx[C_POINTS + c]:
            return c
        c = d


@nb.njit(cache=True)
def _gen_moves(ctx, hands, stack, start, tlen, leader, broken, mover, moves, scores, best):
    """One card per run of equivalent legal cards into moves[:n], best-looking first.

    Following: win the trick with the cheapest card that does, or duck with the lowest when
    the trick already goes the mover's way (in a points game, throw points to a winning
    partner and keep them from a losing trick).  Leading: cash a master the opponents cannot
    ruff, lead low to the partner's master, else low.  ``best`` (the table's remembered best
    card, or -1) goes first.
    """
    h = hands[mover]
    legal = _legal(ctx, hands, stack, start, tlen, mover, broken)
    u = _union(ctx, hands)
    inplay = u
    for i in range(tlen):
        inplay |= _bit(stack[start + i])
    trump = ctx[C_TRUMP]
    maxi = ctx[C_MAX]
    count = ctx[C_COUNT]
    mover_max = (maxi >> mover) & 1
    haspts = ctx[C_HASPTS]
    w = -1  # the trick's best card so far and who played it
    ws = -1
    partner_cards = np.uint64(0)
    ruffable = 0  # suits some opponent could ruff if led
    if tlen > 0:
        w = stack[start]
        ws = leader
        seat = leader
        for i in range(1, tlen):
            seat = ctx[C_NEXT + seat]
            if _beats(stack[start + i], w, trump):
                w = stack[start + i]
                ws = seat
    else:
        for t in range(ctx[C_NSEATS]):
            ht = hands[t]
            if t == mover or ht == 0:
                continue
            if ((maxi >> t) & 1) == mover_max:
                partner_cards |= ht
            elif trump >= 0 and (ht & _suit_bits(trump)):
                for s in range(4):
                    if (ht & _suit_bits(s)) == 0:
                        ruffable |= 1 << s
    n = 0
    m = legal
    while m:
        c = lowest_bit(m)
        m &= m - np.uint64(1)
        s = c >> 4
        below = inplay & (_bit(c) - np.uint64(1)) & _suit_bits(s)
        if below:
            d = highest_bit(below)
            if (h >> np.uint64(d)) & np.uint64(1) and ctx[C_POINTS + d] == ctx[C_POINTS + c]:
                continue  # equivalent to the card just below it
        strength = (c & 15) + (16 if s == trump else 0)
        pts = ctx[C_POINTS + c]
        if tlen == 0:
            above = u & _suit_bits(s) & ~((_bit(c) << np.uint64(1)) - np.uint64(1))
            can_ruff = (ruffable >> s) & 1
            if (above & ~h) == 0:  # c cashes the top of the suit
                sc = 6000 - 3000 * can_ruff + 10 * pts
            elif not can_ruff and (above & partner_cards) \
                    and highest_bit(above) == highest_bit(above & partner_cards):
                sc = 5000 - strength  # low to the partner's master
            else:
                sc = 3000 - strength
        else:
            winner = mover if _beats(c, w, trump) else ws
            if ((count >> winner) & 1) == mover_max:
                if winner == mover:
                    sc = 5000 - strength + 10 * pts
                else:
                    sc = 4000 - strength + 40 * pts * haspts
            else:
                sc = 1000 - strength - 40 * pts
        if c == best:
            sc = 100000
        j = n  # insertion by score, highest first
        while j > 0 and scores[j - 1] < sc:
            moves[j] = moves[j - 1]
            scores[j] = scores[j - 1]
            j -= 1
        moves[j] = c
        scores[j] = sc
        n += 1
    return n


@nb.njit(cache=True)
def _rel_card(hands, ctx, c):
    """c as (suit, relative rank among the cards in hands) for the table's best-move slot."""
    u = _union(ctx, hands)
    s = c >> 4
    return 16 * s + popcount(u & (_bit(c) - np.uint64(1)) & _suit_bits(s))


@nb.njit(cache=True)
def _abs_card(hands, ctx, rc):
    """Inverse of :func:`_rel_card`, or -1."""
    u = _union(ctx, hands)
    s = rc >> 4
    k = rc & 15
    us = (u >> np.uint64(16 * s)) & SUIT_FIELD
    i = 0
    while us:
        b = lowest_bit(us)
        if i == k:
            return 16 * s + b
        us &= us - np.uint64(1)
        i += 1
    return -1


# ---------------------------------------------------------------- the search


@nb.njit(cache=True)
def _last_trick(ctx, hands, leader):
    """Value of the final trick at a boundary where every seat in play holds one card."""
    trump = ctx[C_TRUMP]
    best = lowest_bit(hands[leader])
    ws = leader
    pts = ctx[C_POINTS + best]
    seat = leader
    for _ in range(1, ctx[C_NACTIVE]):
        seat = ctx[C_NEXT + seat]
        c = lowest_bit(hands[seat])
        pts += ctx[C_POINTS + c]
        if _beats(c, best, trump):
            best = c
            ws = seat
    if (ctx[C_COUNT] >> ws) & 1:
        return ctx[C_CONST] + pts
    return 0


@nb.njit(cache=True)
def _enter(tab, d):
    """Open the node of frame d: a result from bounds or the table (0/1), or -1 after
    generating its moves."""
    ctx = tab[T_CTX]
    hands = tab[T_HANDS]
    f = tab[T_FRAMES][d]
    tab[T_COUNTERS][N_NODES] += 1
    tlen = f[F_TLEN]
    leader = f[F_LEADER]
    broken = f[F_BROKEN] != 0
    target = f[F_TARGET]
    best = -1
    if tlen == 0:
        if target <= 0:
            return 1
        u = _union(ctx, hands)
        ncards = popcount(u)
        if ncards == 0:
            return 0
        hi = upper_bound(ctx, hands, tab[T_STACK], d, 0)
        if target > hi:
            return 0
        if ncards == ctx[C_NACTIVE]:
            return 1 if _last_trick(ctx, hands, leader) >= target else 0
        if ctx[C_QUICK]:
            q = _quick_tricks(ctx, hands, leader, broken) * ctx[C_CONST]
            if (ctx[C_MAX] >> leader) & 1:
                if q >= target:
                    return 1
            elif hi - q < target:
                return 0
        keybuf = tab[T_KEYBUF][d]
        hsh = _make_key(ctx, hands, leader, broken, keybuf)
        keybuf[KEY_WORDS] = hsh
        slot = _probe(tab, hsh, keybuf)
        f[F_LO] = 0
        f[F_HI] = hi
        if slot >= 0:
            vals = tab[T_VALS]
            if vals[slot, V_LO] >= target:
                return 1
            if vals[slot, V_HI] < target:
                return 0
            f[F_LO] = vals[slot, V_LO]
            f[F_HI] = vals[slot, V_HI]
            rb = vals[slot, V_BEST] & 255
            if rb != 255:
                best = _abs_card(hands, ctx, rb)
        mover = leader
    else:
        mover = leader
        for _ in range(tlen):
            mover = ctx[C_NEXT + mover]
    f[F_MOVER] = mover
    f[F_MAX] = (ctx[C_MAX] >> mover) & 1
    f[F_N] = _gen_moves(ctx, hands, tab[T_STACK], d - tlen, tlen, leader, broken, mover,
                        tab[T_MOVES][d], tab[T_SCORES][d], best)
    f[F_I] = 0
    return -1


@nb.njit(cache=True)
def _close(tab, d, result, chosen):
    """Store what the search of a trick-boundary node found."""
    f = tab[T_FRAMES][d]
    ctx = tab[T_CTX]
    hands = tab[T_HANDS]
    lo = f[F_LO]
    hi = f[F_HI]
    if result:
        lo = max(lo, f[F_TARGET])
    else:
        hi = min(hi, f[F_TARGET] - 1)
    rb = _rel_card(hands, ctx, chosen) if chosen >= 0 else 255
    keybuf = tab[T_KEYBUF][d]
    _store(tab, keybuf[KEY_WORDS], keybuf, lo, hi, rb, popcount(_union(ctx, hands)))


@nb.njit(cache=True)
def _search(tab, tlen, leader, broken, target, depth):
    """Can the max side get at least ``target`` from here (current trick included)?

    The position is tab's hands and the trick stack[depth - tlen:depth].  An explicit stack of
    frames, one per card played, instead of recursion (Numba's cache cannot relink recursive
    functions, and the loop avoids call overhead): each node tries its moves in order and stops
    at the first whose result is the one its side wants."""
    ctx = tab[T_CTX]
    hands = tab[T_HANDS]
    stack = tab[T_STACK]
    frames = tab[T_FRAMES]
    restrict = ctx[C_RESTRICT]
    nactive = ctx[C_NACTIVE]
    d = depth
    f = frames[d]
    f[F_TLEN] = tlen
    f[F_LEADER] = leader
    f[F_BROKEN] = 1 if broken else 0
    f[F_TARGET] = target
    r = _enter(tab, d)
    while True:
        if r < 0:  # try the frame's next move, or close it when none is left
            f = frames[d]
            i = f[F_I]
            if i == f[F_N]:
                r = 1 - f[F_MAX]
                if f[F_TLEN] == 0:
                    _close(tab, d, r, -1)
                continue
            c = tab[T_MOVES][d][i]
            hands[f[F_MOVER]] ^= _bit(c)
            stack[d] = c
            g = frames[d + 1]
            g[F_BROKEN] = 1 if (f[F_BROKEN] != 0 or (c >> 4) == restrict) else 0
            if f[F_TLEN] + 1 == nactive:
                ws, v = _resolve(ctx, stack, d - f[F_TLEN], nactive, f[F_LEADER])
                g[F_TLEN] = 0
                g[F_LEADER] = ws
                g[F_TARGET] = f[F_TARGET] - v
            else:
                g[F_TLEN] = f[F_TLEN] + 1
                g[F_LEADER] = f[F_LEADER]
                g[F_TARGET] = f[F_TARGET]
            d += 1
            r = _enter(tab, d)
        else:  # frame d is decided: r; hand it to its parent
            if d == depth:
                return r == 1
            d -= 1
            f = frames[d]
            c = tab[T_MOVES][d][f[F_I]]
            hands[f[F_MOVER]] ^= _bit(c)
            if r == f[F_MAX]:
                if f[F_TLEN] == 0:
                    _close(tab, d, r, c)
            else:
                f[F_I] += 1
                r = -1


@nb.njit(cache=True)
def _exact(tab, tlen, leader, broken, depth, lo, hi):
    """Exact value of the position (bounds lo..hi known), by a binary search of boolean searches."""
    while lo < hi:
        t = (lo + hi + 1) // 2
        if _search(tab, tlen, leader, broken, t, depth):
            lo = t
        else:
            hi = t - 1
    return lo


@nb.njit(cache=True)
def value(tab, tlen, leader, broken):
    """Exact value of the position set up in tab (hands in tab[T_HANDS], the trick in
    tab[T_STACK][:tlen], solver ids)."""
    ctx = tab[T_CTX]
    hi = upper_bound(ctx, tab[T_HANDS], tab[T_STACK], 0, tlen)
    return _exact(tab, tlen, leader, broken, tlen, 0, hi)


@nb.njit(cache=True)
def move_values(tab, tlen, leader, broken, cards_out, values_out):
    """Every legal card of the player to move (solver ids) and the exact value after it."""
    ctx = tab[T_CTX]
    hands = tab[T_HANDS]
    stack = tab[T_STACK]
    cache = tab[T_SCRATCH]
    mover = leader
    for _ in range(tlen):
        mover = ctx[C_NEXT + mover]
    legal = _legal(ctx, hands, stack, 0, tlen, mover, broken)
    inplay = _union(ctx, hands)
    for i in range(tlen):
        inplay |= _bit(stack[i])
    for c in range(64):
        cache[c] = -1
    k = 0
    m = legal
    restrict = ctx[C_RESTRICT]
    while m:
        c = lowest_bit(m)
        m &= m - np.uint64(1)
        rep = _representative(ctx, hands, mover, inplay, c)
        if cache[rep] < 0:
            hands[mover] ^= _bit(rep)
            stack[tlen] = rep
            nbroken = broken or (rep >> 4) == restrict
            if tlen + 1 == ctx[C_NACTIVE]:
                ws, v = _resolve(ctx, stack, 0, tlen + 1, leader)
                hi = upper_bound(ctx, hands, stack, tlen + 1, 0)
                cache[rep] = v + _exact(tab, 0, ws, nbroken, tlen + 1, 0, hi)
            else:
                hi = upper_bound(ctx, hands, stack, 0, tlen + 1)
                cache[rep] = _exact(tab, tlen + 1, leader, nbroken, tlen + 1, 0, hi)
            hands[mover] ^= _bit(rep)
        cards_out[k] = c
        values_out[k] = cache[rep]
        k += 1
    return k


@nb.njit(cache=True)
def value_between(tab, tlen, leader, broken, lo, hi):
    """Exact value of the position set up in tab when it is known to lie in lo..hi."""
    return _exact(tab, tlen, leader, broken, tlen, lo, hi)


@nb.njit(cache=True)
def at_least(tab, tlen, leader, broken, target):
    """Can the max side get at least ``target`` from the position set up in tab?"""
    return _search(tab, tlen, leader, broken, target, tlen)


@nb.njit(cache=True)
def position_bound(tab, tlen):
    """The most the count side could still get from the position set up in tab."""
    return upper_bound(tab[T_CTX], tab[T_HANDS], tab[T_STACK], 0, tlen)


# ---------------------------------------------------------------- card-id helpers for the games


@nb.njit(cache=True)
def widen(mask):
    """A hand in ``13 * suit + strength`` ids as solver ids ``16 * suit + strength``."""
    m = np.uint64(mask)
    out = np.uint64(0)
    for s in range(4):
        out |= ((m >> np.uint64(13 * s)) & np.uint64(0x1FFF)) << np.uint64(16 * s)
    return out


@nb.njit(inline="always", cache=True)
def narrow_card(c):
    """A solver id back as ``13 * suit + strength``."""
    return 13 * (c >> 4) + (c & 15)
