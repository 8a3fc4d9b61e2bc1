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
  master) plus the table's remembered best lead and, counting card points, a *cut-move memory*
  (the last card that settled a node with the same trick so far and the same hand to play);
* quick tricks: the leader's sure winners bound the value before any search.

The search's inner functions are compiled with ``_nrt=False`` (no reference counting): they
only index the table's preallocated arrays and never allocate, and without it about 40% of the
time went into the atomic reference-count updates of the table's arrays on every call.

Nothing is allocated per node: a *table* is a tuple of preallocated arrays (the transposition
entries, the move lists per depth, the context and the position), one per thread, reused across
solves.  Each top-level solve starts a new generation, so stale entries are ignored, not cleared.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from simcore.cards import highest_bit, lowest_bit, popcount

DEFAULT_BITS = 18  # 2**18 entries of 104 bytes: 27 MiB a table
MAX_DEPTH = 72  # cards played from the root (52 + a partial trick) plus slack
KEY_WORDS = 11  # see the transposition table section
BUCKET = 128  # entries a bucket holds (DDS keeps up to 125 a suit-length pattern); the
# entries of one base (leader, suit lengths...) share one bucket, as many as their top cards differ
# (at most 128: a full bucket's fill byte counts BUCKET + its next victim, see _victim)
DDS_LEADS = True  # four-seat partnership games lead and follow in DDS's order (_lead_weight,
# _follow_weight)
SUIT_FIELD = np.uint64(0xFFFF)
LOW_TRUMP_LEAD = 1000  # card points (Trump Friend): a low trump is led before low side cards
# (after masters and leads to the partner or its ruff): about 14% fewer nodes on the bench's 100
# Trump Friend full-deal calls than just above the low side cards (+40) or before the partner's
# ruff (+1600)
LOW_TRUMP_LEAD_BEHIND = 2000  # ... and before the partner's master and ruff while the other
# side holds the top trump
TRUMP_MASTER_LEAD = -2000  # card points: a master trump is cashed after the side masters
KILLER_LEAD = 3000  # card points: the last cut-off lead at this depth goes first after the
# table's best (before the masters)

# ---------------------------------------------------------------- the context (int64 vector)
MEMO_SERIALS = (1 << 20) - 1  # a memory entry: card (6 bits), solve serial (20), hash tag (38)

C_NSEATS = 0
C_NACTIVE = 1
C_TRUMP = 2  # suit 0-3, or -1 for no trump
C_RESTRICT = 3  # suit that may not be led until broken, or -1
C_COUNT = 4  # seat bitmask whose tricks count
C_MAX = 5  # seat bitmask of the maximising seats
C_CONST = 6  # value of a trick won, before card points
C_HASPTS = 7
C_QUICK = 8  # quick tricks valid: count == max and no card points
C_QUICK_POINTS = 15  # quick tricks with card points valid: count == max, cards carry points
C_NEXT = 9  # 5 slots: the next seat in play after each seat
C_BUDGET = 14  # most nodes a solve may search (0 = no limit); kept across solves, see set_budget
C_POINTS = 16  # 64 slots: points of each solver card id
C_PMASK = C_POINTS + 64  # 4 slots: the cards whose points have bit k set (k = 0..3)
C_FEWPTS = C_PMASK + 4  # 1: cards of 0-2 points, a suit at most three 1s and one 2 (K_COUNTS)
C_GAP = C_FEWPTS + 1  # 1: C_FEWPTS and a table with the cut-move memory (single solves): entries
# apply across point counts (_counts_gap)
CTX_SIZE = C_GAP + 1

# counters (statistics of the last top-level solve, besides the generation)
N_GEN = 0
N_NODES = 1
N_CUT_FIRST = 2  # trick-boundary nodes settled by their first move (+3: mid-trick nodes)
N_CUT_LATER = 3  # ... by a later move
N_ALL_MOVES = 4  # ... only after trying every move
N_PROBES = 8  # transposition-table look-ups
N_HITS = 9  # look-ups that settled the node
N_QUICK = 10  # quick-trick checks
N_QUICK_CUTS = 11  # ... that settled the node
N_ABORTED = 12  # 1 when the last solve ran out of its node budget
N_EVICT = 13  # stores that overwrote a live entry of the same solve
N_SEARCHES = 14  # boolean searches (thresholds tried)
N_SERIAL = 15  # solves set up on this table, modulo 2**20: the cut-move memory's generation

# the table tuple, by position
T_KEYS, T_VALS, T_COUNTERS, T_CTX, T_HANDS, T_STACK, T_MOVES, T_SCORES, T_KEYBUF, T_SCRATCH, \
    T_FRAMES, T_RELEVANT, T_EQUIV, T_TAGS, T_FILL, T_CUTS = range(16)
# a search frame's int64 words (one frame per card played from the root)
F_TLEN, F_LEADER, F_BROKEN, F_TARGET, F_MOVER, F_MAX, F_N, F_I, F_LO, F_HI, F_KILLER = range(11)
F_SMALL = 11  # 4 words: per suit, the rank below which the node's remaining moves are skipped
F_BOUND = F_SMALL + 4  # card points: the node's fail-soft bound of its value (see _search)
F_MEMO = F_BOUND + 1  # card points: the trick so far and its leader, hashed (see _memo_slot)
F_WORDS = F_MEMO + 1
ENTER = -2  # _search: the frame is still to be opened by _enter
# a transposition entry's int32 words
V_GEN, V_LO, V_HI, V_BEST = range(4)
V_SIEVE = V_GEN  # the word once held the generation (never read: the tags carry it); now the
# entry's sieve (see _sieve)


def new_tables(n: int = 1, log2_size: int = DEFAULT_BITS, cut_memory: bool = False):
    """``n`` solver tables (for ``n`` threads or blocks), as one tuple of arrays with leading dim n.

    ``cut_memory``: card-point searches also order moves by the cut-move memory (``_memo_slot``;
    8 bytes an entry, as many entries as the table).  Off, its array has one entry and the node
    counts are those of the search without it (the search policies' budgeted solves keep them)."""
    size = 1 << log2_size
    return (
        np.zeros((n, size, KEY_WORDS), np.uint64),
        np.zeros((n, size, 4), np.int32),
        np.zeros((n, 16), np.int64),
        np.zeros((n, CTX_SIZE), np.int64),
        np.zeros((n, 5), np.uint64),
        np.zeros((n, MAX_DEPTH), np.int64),
        np.zeros((n, MAX_DEPTH, 16), np.int64),
        np.zeros((n, MAX_DEPTH, 16), np.int64),
        np.zeros((n, MAX_DEPTH, KEY_WORDS), np.uint64),
        np.zeros((n, 64), np.int64),
        np.zeros((n, MAX_DEPTH, F_WORDS), np.int64),
        np.zeros((n, MAX_DEPTH), np.uint64),
        np.zeros((n, MAX_DEPTH), np.uint64),
        np.zeros((n, size), np.uint64),  # each entry's hash and generation, probed first
        np.zeros((n, max(size // BUCKET, 1)), np.int64),  # per bucket: generation * 256 + entries
        np.zeros((n, size if cut_memory else 1), np.uint64),  # the cut-move memory
    )


@nb.njit(cache=True)
def table_of(tables, i):
    """Table ``i`` of :func:`new_tables` (views, no copy)."""
    return (tables[0][i], tables[1][i], tables[2][i], tables[3][i], tables[4][i], tables[5][i],
            tables[6][i], tables[7][i], tables[8][i], tables[9][i], tables[10][i], tables[11][i],
            tables[12][i], tables[13][i], tables[14][i], tables[15][i])


@nb.njit(cache=True)
def nodes(tab):
    """Nodes searched by the last top-level solve on this table."""
    return tab[T_COUNTERS][N_NODES]


@nb.njit(cache=True)
def set_budget(tab, max_nodes):
    """Limit every later solve on this table to ``max_nodes`` nodes (0 = no limit).  A solve
    that runs out returns -1 (``value``, ``value_between``; ``move_values`` returns -1 moves)
    and :func:`aborted` says so; the table stays valid.  Search policies use it to fall back to
    a cheaper evaluation on the rare positions whose solve would take seconds."""
    tab[T_CTX][C_BUDGET] = max_nodes


@nb.njit(cache=True)
def aborted(tab):
    """Did the last solve on this table run out of its node budget?"""
    return tab[T_COUNTERS][N_ABORTED] != 0


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
    for k in range(4):
        ctx[C_PMASK + k] = 0
    for c in range(64):
        ctx[C_POINTS + c] = points[c]
        if points[c] != 0:
            has = 1
            for k in range(4):
                if (points[c] >> k) & 1:
                    ctx[C_PMASK + k] |= np.int64(1) << np.int64(c)
    ctx[C_HASPTS] = has
    ctx[C_FEWPTS] = 1 if has and _few_points(points) else 0
    # the search policies' budgeted tables keep their exact keys (and so their rows)
    ctx[C_GAP] = 1 if ctx[C_FEWPTS] and tab[T_CUTS].shape[0] > 1 else 0
    ctx[C_QUICK] = 1 if (has == 0 and (count & active) == (maxi & active)) else 0
    ctx[C_QUICK_POINTS] = 1 if (has == 1 and (count & active) == (maxi & active)) else 0
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
    if counters[N_GEN] >= 2**31 - 2**16:  # wrapped (_exact adds some): clear once in 2e9 solves
        tab[T_VALS][:, V_SIEVE] = 0
        tab[T_TAGS][:] = 0
        tab[T_FILL][:] = 0
        counters[N_GEN] = 1
    counters[N_NODES] = 0
    for i in range(2, 15):
        counters[i] = 0
    counters[N_SERIAL] = (counters[N_SERIAL] + 1) & MEMO_SERIALS
    if counters[N_SERIAL] == 0:  # wrapped: clear the memory once in 2**20 solves
        tab[T_CUTS][:] = 0
        counters[N_SERIAL] = 1
    for s in range(5):
        tab[T_HANDS][s] = 0
    for d in range(MAX_DEPTH):  # no move ordering carries over: node counts never depend on history
        tab[T_FRAMES][d, F_KILLER] = -1


@nb.njit(cache=True)
def _few_points(points):
    """Do the cards carry 0-2 points, each suit at most three cards of 1 and one of 2 (Trump
    Friend: K/Q/J 1, A 2)?  Then a seat's point cards of a suit fit 3 bits (_point_counts)."""
    for s in range(4):
        ones = 0
        twos = 0
        for r in range(16):
            p = points[16 * s + r]
            if p < 0 or p > 2:
                return False
            ones += p == 1
            twos += p == 2
        if ones > 3 or twos > 1:
            return False
    return True


# ---------------------------------------------------------------- small position helpers


@nb.njit(inline="always", cache=True)
def _union(ctx, hands):
    u = np.uint64(0)
    for s in range(ctx[C_NSEATS]):
        u |= hands[s]
    return u


@nb.njit(cache=True, _nrt=False)
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


@nb.njit(cache=True, _nrt=False)
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


@nb.njit(cache=True, _nrt=False)
def _points_of(ctx, mask):
    t = 0
    m = np.uint64(mask)
    while m:
        t += ctx[C_POINTS + lowest_bit(m)]
        m &= m - np.uint64(1)
    return t


@nb.njit(cache=True, _nrt=False)
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


@nb.njit(cache=True, _nrt=False)
def _quick_tricks(ctx, hands, leader, broken, need):
    """(tricks the leader can take by cashing top cards, keeping the lead, whatever the others
    do, counted up to ``need``; the cards that count depends on).

    Per suit: the leader's cards above every other seat's (all of them when nobody else holds
    the suit).  A side suit counts only as far as every other seat still holding trumps can
    follow it, so nobody ruffs, and the partner never takes the lead either; such a seat follows
    every counted suit, so cashing one suit never makes another fail.  Beyond suit lengths (in
    every table key), the count depends only on the leader holding the top cards it counts:
    the lowest of them is the card it relies on (DDS's winRanks).  Relying on the others' best
    card below them instead made the entries above match less, so that quick tricks cost more
    nodes than they saved (80 full Spades deals: 601k mean, 443k without them, 413k now).
    Counting stops at ``need`` tricks (DDS's cutoff), the suits nobody else holds first (they rely on no
    card).  (Cashing the top trumps first to draw the others', as DDS's QuickTricks does, cut
    more often but cost more nodes: 591k against 558k mean on 40 full Spades deals.)
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
    relevant = np.uint64(0)
    if trump >= 0 and not (restricted and trump == r):
        total = min(_top_count(h, others, trump), max(need, 0))
        if total > 0 and _field(others, trump):
            relevant = _kth_highest(h, trump, total)
    for cheap in (True, False):
        for s in range(4):
            if total >= need:
                return total, relevant
            os_ = _field(others, s)
            if s == trump or (os_ == 0) != cheap or (restricted and s == r):
                continue
            k = _top_count(h, others, s)
            if trump >= 0:
                for t in range(ctx[C_NSEATS]):
                    if k > 0 and t != leader and (hands[t] & _suit_bits(trump)):
                        k = min(k, popcount(hands[t] & _suit_bits(s)))
            k = min(k, need - total)
            if k > 0:
                total += k
                if os_:
                    relevant |= _kth_highest(h, s, k)
    return total, relevant


@nb.njit(inline="always", cache=True)
def _kth_highest(h, s, k):
    """The k-th highest card of suit s in h, as a one-card mask."""
    hs = _field(h, s)
    for _ in range(k - 1):
        hs &= ~(np.uint64(1) << np.uint64(highest_bit(hs)))
    return _bit(16 * s + highest_bit(hs))


@nb.njit(inline="always", cache=True)
def _top_count(h, others, s):
    """The leader's cards of suit s above every other seat's (all of them when nobody else
    holds the suit)."""
    hs = _field(h, s)
    os_ = _field(others, s)
    if os_ == 0:
        return popcount(hs)
    return popcount(hs >> np.uint64(highest_bit(os_) + 1))


@nb.njit(cache=True, _nrt=False)
def _lowest_points(ctx, cards, k):
    """The least points any k of ``cards`` (one suit, solver ids) carry."""
    total = 0
    for _ in range(k):
        least = -1
        pick = np.uint64(0)
        m = cards
        while m:
            c = lowest_bit(m)
            m &= m - np.uint64(1)
            if least < 0 or ctx[C_POINTS + c] < least:
                least = ctx[C_POINTS + c]
                pick = _bit(c)
        if least < 0:
            break
        total += least
        cards &= ~pick
    return total


@nb.njit(cache=True, _nrt=False)
def _quick_points(ctx, hands, leader, broken):
    """(the least the leader's side takes by cashing the leader's top cards, as counted by
    :func:`_quick_tricks`; the cards that depends on), in a game whose cards carry points.

    The leader cashes its k top cards of a suit: those tricks are its side's, with the points
    of its k cards plus, from every other seat, the least points k cards of that suit in its
    hand can carry (it must follow while it holds the suit; a void seat may throw nothing of
    value).  It relies on the leader's k top cards of each suit counted (the lowest of them,
    as :func:`_quick_tricks` does): above it every card is the leader's in every position an
    entry covers, and the key counts the points each seat holds below (K_COUNTS).  Relying on
    the others' highest card instead: 7 cards a seat 39,815 nodes mean against 39,425, 8 cards
    337,282 against 330,822."""
    trump = ctx[C_TRUMP]
    h = hands[leader]
    others = np.uint64(0)
    for t in range(ctx[C_NSEATS]):
        if t != leader:
            others |= hands[t]
    r = ctx[C_RESTRICT]
    restricted = r >= 0 and not broken and (h & ~_suit_bits(r)) != 0
    tricks = 0
    pts = 0
    relevant = np.uint64(0)
    for s in range(4):
        hs = (h >> np.uint64(16 * s)) & SUIT_FIELD
        if hs == 0 or (restricted and s == r):
            continue
        os_ = _field(others, s)
        k = _top_count(h, others, s)
        if k == 0:
            continue
        if trump >= 0 and s != trump:
            for t in range(ctx[C_NSEATS]):
                if t != leader and (hands[t] & _suit_bits(trump)):
                    lt = popcount(hands[t] & _suit_bits(s))
                    if lt < k:
                        k = lt
        if k == 0:
            continue
        if os_ != 0:  # the leader's k top cards, down to the lowest (as _quick_tricks)
            relevant |= _kth_highest(h, s, k)
        tricks += k
        top = hs
        for _ in range(popcount(hs) - k):  # the leader's k highest cards of the suit
            top &= top - np.uint64(1)
        pts += _points_of(ctx, top << np.uint64(16 * s))
        for t in range(ctx[C_NSEATS]):
            if t != leader:
                held = hands[t] & _suit_bits(s)
                pts += _lowest_points(ctx, held, min(k, popcount(held)))
    return tricks * ctx[C_CONST] + pts, relevant


@nb.njit(inline="always", cache=True)
def _spoiled(mine, ot):
    """How many of the trumps ``mine`` the trumps ``ot`` (one suit field each) can spoil: match
    each of ``ot``, lowest first, with the lowest unmatched trump of ``mine`` below it."""
    lost = 0
    free = mine
    while ot and free:
        b = lowest_bit(ot)
        ot &= ot - np.uint64(1)
        below = free & ((np.uint64(1) << np.uint64(b)) - np.uint64(1))
        if below:
            free ^= below & (~below + np.uint64(1))  # that trump is spoiled
            lost += 1
    return lost


@nb.njit(inline="always", cache=True)
def _most_trumps(ctx, hands, side):
    """The most trumps one seat with max-bit ``side`` holds: _sure_trumps counts no more."""
    trump = ctx[C_TRUMP]
    if trump < 0:
        return 0
    maxi = ctx[C_MAX]
    most = 0
    for t in range(ctx[C_NSEATS]):
        if ((maxi >> t) & 1) == side:
            most = max(most, popcount(_field(hands[t], trump)))
    return most


@nb.njit(cache=True, _nrt=False)
def _sure_trumps(ctx, hands, side, need):
    """(tricks the seats with max-bit ``side`` win whatever happens; the card that depends on).

    Every card gets played, one a trick, and a seat's trump wins its trick for the side unless
    an opponent plays a higher trump into it; each opponent trump spoils one trick at most.  So
    a seat with k trumps wins at least k minus the most of its trumps the opponents' trumps can
    be matched above (greedy, from the lowest).  The count depends on the ranks of that seat's
    trumps and of the opponents' above its lowest (one below them all spoils nothing), so its
    lowest trump is the card it relies on.  When a
    seat's trumps above all of the opponents' already make ``need`` tricks, the count relies
    only on the lowest of those ``need`` (as in :func:`_quick_tricks`)."""
    trump = ctx[C_TRUMP]
    if trump < 0:
        return 0, np.uint64(0)
    maxi = ctx[C_MAX]
    other = np.uint64(0)
    for t in range(ctx[C_NSEATS]):
        if ((maxi >> t) & 1) != side:
            other |= hands[t]
    ot = (other >> np.uint64(16 * trump)) & SUIT_FIELD
    if need > 0:
        for t in range(ctx[C_NSEATS]):
            if ((maxi >> t) & 1) == side and _top_count(hands[t], other, trump) >= need:
                return need, _kth_highest(hands[t], trump, need) if ot else np.uint64(0)
    best = 0
    best_low = np.uint64(0)
    for t in range(ctx[C_NSEATS]):
        if ((maxi >> t) & 1) != side:
            continue
        mine = (hands[t] >> np.uint64(16 * trump)) & SUIT_FIELD
        k = popcount(mine)
        if k <= best:
            continue
        lost = _spoiled(mine, ot)
        if k - lost > best:
            best = k - lost
            best_low = mine  # an opponent trump below them all spoils none
    if best == 0 or ot == 0:
        return best, np.uint64(0)
    return best, _bit(16 * trump + lowest_bit(best_low))


@nb.njit(cache=True, _nrt=False)
def _later_trumps(ctx, hands, leader):
    """(tricks the side not on lead surely wins with its top trumps, 0-2; the card that relies
    on), four seats in two partnerships (the trump cases of DDS's LaterTricksMIN/MAX that
    _sure_trumps, which counts one hand at a time, misses).

    The side holds the two top trumps in play in two hands, one of them with another trump:
    2 (that hand plays its other trump when the partner's top trump falls).  The opponents hold
    the top trump and the side the next one, in a hand with another trump: 1 when that hand
    plays right after the top trump's holder, or when the side holds the third trump too."""
    trump = ctx[C_TRUMP]
    if trump < 0:
        return 0, np.uint64(0)
    ft = _field(_union(ctx, hands), trump)
    if popcount(ft) < 2:
        return 0, np.uint64(0)
    maxi = ctx[C_MAX]
    side = 1 - ((maxi >> leader) & 1)
    a = 16 * trump + highest_bit(ft)
    ft &= ~(np.uint64(1) << np.uint64(highest_bit(ft)))
    k = 16 * trump + highest_bit(ft)
    ha = _holder(hands, a)
    hk = _holder(hands, k)
    if ((maxi >> hk) & 1) != side:
        return 0, np.uint64(0)
    long_k = popcount(_field(hands[hk], trump)) > 1
    if ((maxi >> ha) & 1) == side:
        if ha != hk and (long_k or popcount(_field(hands[ha], trump)) > 1):
            return 2, _bit(k)
        return 0, np.uint64(0)  # one hand: _sure_trumps counts it
    if not long_k:
        return 0, np.uint64(0)
    if ctx[C_NEXT + ha] == hk:
        return 1, _bit(k)
    ft &= ~(np.uint64(1) << np.uint64(highest_bit(ft)))
    if ft:
        q = 16 * trump + highest_bit(ft)
        if ((maxi >> _holder(hands, q)) & 1) == side:
            return 1, _bit(q)
    return 0, np.uint64(0)


# ---------------------------------------------------------------- the nil objective (Spades)
# count = {s}, max = s's two opponents: s and its partner keep s's tricks low.  The bounds and
# the move order of the trick-count objective do not apply; these do (reached only when
# _nil_seat(ctx) >= 0).


@nb.njit(inline="always", cache=True)
def _nil_seat(ctx):
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
    played into a trick spoils one at most; the _sure_trumps argument with every other seat
    against s, since anyone's higher trump takes the trick from s)."""
    trump = ctx[C_TRUMP]
    if trump < 0:
        return 0, np.uint64(0)
    mine = _field(hands[s], trump)
    if mine == 0:
        return 0, np.uint64(0)
    ot = _field(hands[(s + 1) & 3] | hands[(s + 2) & 3] | hands[(s + 3) & 3], trump)
    k = popcount(mine) - _spoiled(mine, ot)
    if k <= 0 or ot == 0:
        return k, np.uint64(0)
    return k, _bit(16 * trump + lowest_bit(mine))  # a trump below all of s's spoils none


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
    if trump >= 0 and _field(h, trump) != 0:
        return False, np.uint64(0)
    p = hands[(s + 2) & 3]
    rest = hands[(s + 1) & 3] | p | hands[(s + 3) & 3]
    excess = 0
    free = 0
    ruffed = 0
    ptrumps = popcount(_field(p, trump)) if trump >= 0 else 0
    rel = np.uint64(0)
    lead_ok = leader != s
    for x in range(4):
        sx = _field(h, x)
        px = _field(p, x)
        if sx == 0:
            free += popcount(px)
            continue
        ns = popcount(sx)
        npx = popcount(px)
        low = _dominates(px, sx)
        if low >= 0:
            free += npx - ns
            lead_ok = True
            rel |= _bit(16 * x + low)
        else:
            ox = _field(rest, x)
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
            rel |= _bit(16 * x + highest_bit(sx))  # s holds the suit's lowest ns cards
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
        sx = _field(h, x)
        px = _field(p, x)
        ns = popcount(sx)
        npx = popcount(px)
        if ns == 0:
            free += npx
            continue
        m = 0
        if x != trump:
            m, low = _covers(px, sx)
            if m > 0:
                rel |= _bit(16 * x + low)
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
        most -= min(ruffable, max(popcount(_field(p, trump)) - popcount(_field(h, trump)), 0))
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
    st = _field(hands[s], trump)
    top = highest_bit(st) + 1 if st else 0
    k = 0
    for t in range(4):
        if t != s:
            k = max(k, popcount(_field(hands[t], trump) >> np.uint64(top)))
    return n - k, _bit(16 * trump + top - 1) if (st and k) else np.uint64(0)


@nb.njit(cache=True, _nrt=False)
def _nil_bounds(ctx, hands, s, leader, target):
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
def _nil_mid(ctx, hands, stack, start, tlen, leader, s, target):
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
        if _beats(stack[start + i], w, trump):
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
                return 0, rel | _trick_relevant(ctx, stack, start, tlen)
            return -1, np.uint64(0)
        sc = stack[start + ((s - leader) & 3)]
        m = _legal(ctx, hands, stack, start, tlen, p, True)
        while m:
            c = lowest_bit(m)
            m &= m - np.uint64(1)
            if ws == s and not _beats(c, w, trump):
                continue
            hands[p] ^= _bit(c)
            held, rel = _nil_held(ctx, hands, s, target)
            hands[p] ^= _bit(c)
            if held:
                if ws != s:
                    return 0, rel | _trick_relevant(ctx, stack, start, tlen)
                return 0, rel | (_bit(c) if (c >> 4) == (sc >> 4) else np.uint64(0))
        return -1, np.uint64(0)
    m = _legal(ctx, hands, stack, start, tlen, s, True)
    lp = np.uint64(0) if p_done else _legal(ctx, hands, stack, start, tlen, p, True)
    while m:
        c = highest_bit(m)
        m ^= _bit(c)
        hands[s] ^= _bit(c)
        if not _beats(c, w, trump):  # s plays under the trick's best card
            if p_done:
                held, rel = _nil_held(ctx, hands, s, target)
            else:
                held, rel = _nil_held_after(ctx, hands, s, p, lp, target)
            if held:
                hands[s] ^= _bit(c)
                return 0, rel | (_bit(w) if (c >> 4) == (w >> 4) else np.uint64(0))
        elif not p_done:  # s over it, the partner over s
            mp = lp
            while mp:
                e = lowest_bit(mp)
                mp &= mp - np.uint64(1)
                if not _beats(e, c, trump):
                    continue
                hands[p] ^= _bit(e)
                held, rel = _nil_held(ctx, hands, s, target)
                hands[p] ^= _bit(e)
                if held:
                    hands[s] ^= _bit(c)
                    return 0, rel | (_bit(e) if (c >> 4) == (e >> 4) else np.uint64(0))
        hands[s] ^= _bit(c)
    return -1, np.uint64(0)


@nb.njit(cache=True, _nrt=False)
def _nil_held_after(ctx, hands, s, p, lp, target):
    """:func:`_nil_held` after the partner plays one of its legal cards ``lp`` (the first that
    holds)."""
    while lp:
        e = lowest_bit(lp)
        lp &= lp - np.uint64(1)
        hands[p] ^= _bit(e)
        held, rel = _nil_held(ctx, hands, s, target)
        hands[p] ^= _bit(e)
        if held:
            return True, rel
    return False, np.uint64(0)

@nb.njit(cache=True, _nrt=False)
def _nil_score(ctx, hands, stack, start, tlen, leader, mover, c, w, ws, u, s, killer):
    """Move-ordering score of card c (higher first) for the nil objective of seat s: s sheds
    its highest card that surely loses, its partner overtakes s (or plays high before it), the
    opponents play under s and lead low into suits where s holds only higher cards."""
    trump = ctx[C_TRUMP]
    x = c >> 4
    strength = (c & 15) + (16 if x == trump else 0)
    p = (s + 2) & 3
    sx = _field(hands[s], x)
    if tlen > 0:
        wins = _beats(c, w, trump)
        s_played = ((s - leader) & 3) < tlen
        if mover == s:
            if not wins:
                return 8000 + strength  # loses whatever follows: shed the highest such
            led = stack[start] >> 4
            pl = _field(hands[p], led)
            p_after = ((p - leader) & 3) > tlen
            if p_after and ((pl != 0 and x == led and (pl >> np.uint64(c & 15)) > 1)
                            or (pl == 0 and trump >= 0 and _field(hands[p], trump) != 0
                                and (x != trump or (_field(hands[p], trump) >> np.uint64(c & 15)) > 1))):
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
    above = u & _suit_bits(x) & ~((_bit(c) << np.uint64(1)) - np.uint64(1))
    if mover == s:
        if above & hands[p]:
            return 5000 + strength + bonus  # the partner overtakes
        if above:
            return 3000 - strength - (500 if x == trump else 0) + bonus
        return 1000 - strength + bonus
    st = _field(hands[s], trump) if trump >= 0 else np.uint64(0)
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


# ---------------------------------------------------------------- transposition table
# An entry says: for every position with this *base* (leader, broken flag, each seat's suit
# lengths, and in a points game the point pattern) whose top cards of each suit, down to the
# entry's lowest relevant card, are held by the same seats (in relative ranks), the remaining
# value lies in lo..hi.  The lower cards only count by their number: the search below the entry
# never let one of them decide a trick (DDS's "winning ranks", Haglund).  Key words:
# 0-1 base, 2-3 the point pattern (which relative ranks carry points with bit 0 / bit 1 set)
# masked to the top, 4-8 the seats' relative hands masked to the relevant top cards, 9 that top
# mask, 10 (C_FEWPTS games) each seat's point cards by suit (_point_counts).  The per-depth key
# buffer holds the base, the unmasked pattern and hands, the hash (word 9) and the counts.
#
# Card points: the lower cards count by their number and, when C_FEWPTS, by the points each seat
# holds in them (word 10 with the top's pattern fixes them): the proof below the entry never let
# a lower card decide a trick, so any position whose lower cards are the same seats' cards of
# the same points, in whatever rank order, plays alike trick for trick, points included (Trump
# Friend: which seat holds the K and which the Q below the top does not matter).  Without
# C_FEWPTS the top reaches down to every point card in play (_top_mask) and the pattern is part
# of the hash.
K_HANDS = 4
K_TOP = 9
K_COUNTS = 10


@nb.njit(cache=True, _nrt=False)
def _make_key(ctx, hands, leader, broken, keybuf):
    """Base and relative-rank hands of the position into keybuf; returns the hash of the base."""
    u = _union(ctx, hands)
    p1 = np.uint64(0)
    p2 = np.uint64(0)
    lengths = np.uint64(0)
    lengths4 = np.uint64(0)
    for seat in range(5):
        rel = np.uint64(0)
        if seat < ctx[C_NSEATS]:
            m = hands[seat]
            for s in range(4):
                n_s = np.uint64(popcount(m & _suit_bits(s)))
                if seat < 4:
                    lengths |= n_s << np.uint64(16 * seat + 4 * s)
                else:
                    lengths4 |= n_s << np.uint64(4 * s)
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
        keybuf[K_HANDS + seat] = rel
    return _key_base(ctx, hands, keybuf, lengths, lengths4, leader, broken, p1, p2)


@nb.njit(inline="always", cache=True)
def _key_base(ctx, hands, keybuf, lengths, lengths4, leader, broken, p1, p2):
    """The base words of a key into keybuf (seat lengths, leader and broken flag, points
    pattern) and its hash (also into keybuf[K_TOP]), returned."""
    meta = lengths4 | (np.uint64(leader) << np.uint64(16))
    if ctx[C_RESTRICT] >= 0 and broken:
        meta |= np.uint64(1) << np.uint64(20)
    keybuf[0] = lengths
    keybuf[1] = meta
    keybuf[2] = p1
    keybuf[3] = p2
    keybuf[K_COUNTS] = _point_counts(ctx, hands) if ctx[C_FEWPTS] else np.uint64(0)
    hsh = np.uint64(0)
    for i in range(4):  # the pattern is not hashed when the counts stand for it (see above),
        w = keybuf[K_COUNTS] if (i == 2 and ctx[C_FEWPTS]) else keybuf[i]  # nor the counts
        if (i == 3 and ctx[C_FEWPTS]) or (i == 2 and ctx[C_GAP]):  # when entries apply
            w = np.uint64(0)  # across them (C_GAP, _counts_gap)
        hsh = (hsh ^ w) * np.uint64(0x9E3779B97F4A7C15)
        hsh ^= hsh >> np.uint64(29)
    keybuf[K_TOP] = hsh
    return hsh


def _compress_table():
    """_COMPRESS[u, h]: the cards h of a 7-bit stretch u of a suit's cards in play, as
    relative ranks (the k-th lowest card of u is bit k)."""
    t = np.zeros((128, 128), np.uint8)
    for u in range(128):
        ranks = [b for b in range(7) if u >> b & 1]
        for k, b in enumerate(ranks):
            t[u, np.arange(128)[(np.arange(128) >> b) & 1 == 1]] |= np.uint8(1 << k)
    return t


_COMPRESS = _compress_table()
HIGH_STRENGTHS = np.uint64(0xC000C000C000C000)  # strengths 14-15: beyond _compress's two stretches


@nb.njit(inline="always", cache=True)
def _compress(h, u):
    """The cards h (one suit field, within u, strengths 0-13) as relative ranks among u:
    two table look-ups instead of a loop over the cards."""
    ul = u & np.uint64(127)
    return np.uint64(_COMPRESS[ul, h & np.uint64(127)]) | (
        np.uint64(_COMPRESS[(u >> np.uint64(7)) & np.uint64(127), (h >> np.uint64(7)) & np.uint64(127)])
        << np.uint64(popcount(ul)))


@nb.njit(cache=True, _nrt=False)
def _make_key_tricks(ctx, hands, leader, broken, keybuf):
    """:func:`_make_key` for four seats and no card points (Spades, Euchre), the same key:
    each seat's relative hand by table look-ups per suit (_compress), not card by card."""
    u = hands[0] | hands[1] | hands[2] | hands[3]
    if u & HIGH_STRENGTHS or ctx[C_NSEATS] != 4:
        return _make_key(ctx, hands, leader, broken, keybuf)
    lengths = np.uint64(0)
    for seat in range(4):
        m = hands[seat]
        rel = np.uint64(0)
        for s in range(4):
            hs = _field(m, s)
            lengths |= np.uint64(popcount(hs)) << np.uint64(16 * seat + 4 * s)
            if hs:
                rel |= _compress(hs, _field(u, s)) << np.uint64(16 * s)
        keybuf[K_HANDS + seat] = rel
    keybuf[K_HANDS + 4] = 0
    return _key_base(ctx, hands, keybuf, lengths, np.uint64(0), leader, broken, np.uint64(0), np.uint64(0))


@nb.njit(cache=True, _nrt=False)
def _point_counts(ctx, hands):
    """Per seat and suit, its cards of 1 point (0-3, 2 bits) and of 2 (0-1, 1 bit), 3 bits
    each (C_FEWPTS games)."""
    ones = np.uint64(ctx[C_PMASK])
    twos = np.uint64(ctx[C_PMASK + 1])
    out = np.uint64(0)
    for seat in range(ctx[C_NSEATS]):
        h = hands[seat]
        for s in range(4):
            hs = h & _suit_bits(s)
            v = np.uint64(popcount(hs & ones & ~twos)) | \
                (np.uint64(popcount(hs & twos)) << np.uint64(2))
            out |= v << np.uint64(3 * (4 * seat + s))
    return out


@nb.njit(inline="always", cache=True)
def _tag(hsh, gen):
    """An entry's tag: its hash with the generation folded in, so stale entries never match."""
    return (hsh ^ (np.uint64(gen) * np.uint64(0xD6E8FEB86659FD93))) | np.uint64(1)


@nb.njit(inline="always", cache=True)
def _bucket(tab, hsh):
    """The bucket of a base hash: its number (for T_FILL) and its first slot.  Five seats: the
    positions of three cards a seat in the last quarter of the buckets, of four cards a seat in
    the quarter before it, the others in the first half, so the many cheap entries near the end
    of play do not evict the earlier ones."""
    buckets = np.uint64(tab[T_FILL].shape[0])
    ctx = tab[T_CTX]
    if ctx[C_NACTIVE] == 5 and buckets >= 8:
        quarter = buckets // np.uint64(4)
        n = popcount(_union(ctx, tab[T_HANDS]))
        if n <= 15:
            b = np.int64(buckets - quarter + hsh % quarter)
        elif n <= 20:
            b = np.int64(buckets - 2 * quarter + hsh % quarter)
        else:
            b = np.int64(hsh % (buckets - 2 * quarter))
    else:
        b = np.int64(hsh % buckets)
    return b, b * BUCKET


@nb.njit(inline="always", cache=True)
def _filled(tab, b):
    """Entries of this solve in bucket b (they fill it from its first slot on)."""
    fill = tab[T_FILL][b]
    return min(fill & 255, BUCKET) if (fill >> 8) == tab[T_COUNTERS][N_GEN] else 0


@nb.njit(cache=True, _nrt=False)
def _victim(tab, b, base, gen):
    """The slot a new entry takes in the full bucket b: the oldest (DDS's round robin,
    TransTableL::CreateOrUpdate).  Evicting the entry nearest the end of play instead chose the
    bucket's first slot over and over once one base filled it (all of equal weight), so that
    base's new entries kept evicting each other while its stale ones stayed: after the search
    for one target the next one thrashed (a full 13-card deal: 5.9M nodes for "at least 2"
    alone, 56M after "at least 3").  A full bucket's fill counts on past BUCKET."""
    k = (tab[T_FILL][b] & 255) - BUCKET  # the low byte is BUCKET + k, k = 0..BUCKET-1
    tab[T_FILL][b] = gen * 256 + BUCKET + (k + 1) % BUCKET
    return base + k


@nb.njit(inline="always", cache=True)
def _top_holders(keybuf):
    """Per suit s (bits 4s..4s+3): the seats holding the suit's highest card in play (bits
    4s+2, 4s+3) and its second highest (bits 4s, 4s+1), from keybuf's relative hands of four
    seats."""
    out = 0
    for s in range(4):
        f0 = _field(keybuf[K_HANDS], s)
        f1 = _field(keybuf[K_HANDS + 1], s)
        f2 = _field(keybuf[K_HANDS + 2], s)
        n = popcount(f0 | f1 | f2 | _field(keybuf[K_HANDS + 3], s))
        for j in range(min(n, 2)):
            r = np.uint64(n - 1 - j)
            seat = 0 if (f0 >> r) & np.uint64(1) else 1 if (f1 >> r) & np.uint64(1) else \
                2 if (f2 >> r) & np.uint64(1) else 3
            out |= seat << (4 * s + 2 - 2 * j)
    return out


@nb.njit(inline="always", cache=True)
def _sieve(ctx, keybuf, top):
    """An entry's sieve (four seats; 0 = none): the holders of each suit's top two cards in
    play as far as the entry's top cards reach (_top_holders, 16 bits), under the mask of those
    bits (16 bits above).  A probe compares it with the position's holders before reading the
    entry's key: it sits beside the entry's bounds, while the key's row is one more cache miss
    (10 entries of the same base a probe on full Spades deals, nearly all of them not the
    position's)."""
    if ctx[C_NSEATS] != 4:
        return 0
    mask = 0
    for s in range(4):
        k = popcount(_field(top, s))
        if k >= 1:
            mask |= 0b1100 << (4 * s)
        if k >= 2:
            mask |= 0b0011 << (4 * s)
    return (mask << 16) | (_top_holders(keybuf) & mask)


@nb.njit(inline="always", cache=True)
def _matches_but_points(keys, slot, keybuf):
    """Does the entry in slot match the position of keybuf, its point counts and the point
    pattern of its top cards aside (see _points_gap)?"""
    if keys[slot, 0] != keybuf[0] or keys[slot, 1] != keybuf[1]:
        return False
    top = keys[slot, K_TOP]
    for i in range(K_HANDS, K_HANDS + 5):
        if keys[slot, i] != (keybuf[i] & top):
            return False
    return True


@nb.njit(inline="always", cache=True)
def _top_counts(keybuf, top, p1, p2):
    """The K_COUNTS word of the top cards alone: per seat and suit its 1-point cards among
    them (bits 0-1) and its 2-point card (bit 2)."""
    out = np.uint64(0)
    for seat in range(5):
        h = keybuf[K_HANDS + seat] & top
        if h == 0:
            continue
        for s in range(4):
            hs = h & _suit_bits(s)
            v = np.uint64(popcount(hs & p1)) | (np.uint64(popcount(hs & p2)) << np.uint64(2))
            out |= v << np.uint64(3 * (4 * seat + s))
    return out


@nb.njit(inline="always", cache=True)
def _points_gap(keys, slot, keybuf):
    """_counts_gap when the top cards' point patterns may differ as well: the top cards are
    the same cards in rank and holder (the key's hands match under the entry's top), so the
    entry's proof plays in the position card for card; each top card that is worth more in the
    entry adds its excess to ``down``, each worth less its shortfall to ``up``, and the lower
    cards count as tokens (_counts_gap) by the counts left once the top cards' are taken out."""
    top = keys[slot, K_TOP]
    e1 = keys[slot, 2]
    e2 = keys[slot, 3]
    q1 = keybuf[2] & top
    q2 = keybuf[3] & top
    if e1 == q1 and e2 == q2:
        return _counts_gap(keybuf[K_COUNTS], keys[slot, K_COUNTS])
    eq = ~(q1 | q2)
    ee = ~(e1 | e2)
    down = 2 * popcount(e2 & eq) + popcount(e2 & q1) + popcount(e1 & eq)
    up = 2 * popcount(q2 & ee) + popcount(q2 & e1) + popcount(q1 & ee)
    ld, lu = _counts_gap(keybuf[K_COUNTS] - _top_counts(keybuf, top, q1, q2),
                         keys[slot, K_COUNTS] - _top_counts(keybuf, top, e1, e2))
    return down + ld, up + lu


@nb.njit(inline="always", cache=True)
def _counts_gap(a, b):
    """How far the point counts of a position (K_COUNTS word a) are below and above those of
    an entry (b) that matches it but for them: (down, up).  Per seat and suit a count is 3
    bits, the 1-point cards in bits 0-1 and the 2-point card in bit 2.  The cards below an
    entry's top never decide a trick on rank, so a seat's lower cards of a suit are tokens that
    differ only in points: pair the position's tokens with the entry's, each sorted by points,
    and the entry's proof plays in the position with every trick won by the same side and the
    paired tokens' points exchanged.  The max side then loses at most the points by which the
    entry's tokens exceed their partners (``down``) and gains at most the points by which they
    fall short (``up``): the position's value is at least the entry's lower bound less down and
    at most its upper bound plus up.  Sorted, those sums are per seat and suit the excess of
    the 2s count and of the 2s-and-1s count (``_counts_gap`` of equal counts is (0, 0): the
    entry's bounds as they are)."""
    down = 0
    up = 0
    x = a
    y = b
    while x | y:
        fa = np.int64(x & np.uint64(7))
        fb = np.int64(y & np.uint64(7))
        ta, tb = fa >> 2, fb >> 2
        sa, sb = ta + (fa & 3), tb + (fb & 3)
        down += max(tb - ta, 0) + max(sb - sa, 0)
        up += max(ta - tb, 0) + max(sa - sb, 0)
        x >>= np.uint64(3)
        y >>= np.uint64(3)
    return down, up


@nb.njit(inline="always", cache=True)
def _matches(keys, slot, keybuf):
    """_matches_but_points, and the point counts and the top cards' point patterns equal."""
    if keys[slot, K_COUNTS] != keybuf[K_COUNTS] or not _matches_but_points(keys, slot, keybuf):
        return False
    top = keys[slot, K_TOP]
    return keys[slot, 2] == (keybuf[2] & top) and keys[slot, 3] == (keybuf[3] & top)


@nb.njit(cache=True, _nrt=False)
def _top_cards(hands, ctx, top):
    """The cards of the position at the relative top mask ``top`` (absolute solver ids)."""
    u = _union(ctx, hands)
    out = np.uint64(0)
    for s in range(4):
        ts = (top >> np.uint64(16 * s)) & SUIT_FIELD
        if ts == 0:
            continue
        us = (u >> np.uint64(16 * s)) & SUIT_FIELD
        k = popcount(us) - popcount(ts)  # the lowest relevant card is the k-th lowest in play
        i = 0
        while us:
            b = lowest_bit(us)
            if i >= k:
                out |= _bit(16 * s + b)
            us &= us - np.uint64(1)
            i += 1
    return out


@nb.njit(inline="always", cache=True, _nrt=False)
def _probe(tab, d, target):
    """(1 or 0 when a matching entry settles ``target``, else -1; the entry's bound that
    settles it, its lower bound when 1, its upper bound when 0; the settling entry's relevant
    cards; a remembered best card or -1) for the position whose key is in keybuf[d]."""
    keys = tab[T_KEYS]
    vals = tab[T_VALS]
    keybuf = tab[T_KEYBUF][d]
    tags = tab[T_TAGS]
    tag = _tag(keybuf[K_TOP], tab[T_COUNTERS][N_GEN])
    b, base = _bucket(tab, keybuf[K_TOP])
    best = -1
    held = _top_holders(keybuf) if tab[T_CTX][C_NSEATS] == 4 else 0
    gap = tab[T_CTX][C_GAP] != 0
    for j in range(_filled(tab, b)):
        slot = base + j
        if tags[slot] != tag:
            continue
        sieve = np.int64(vals[slot, V_SIEVE]) & 0xFFFFFFFF
        if (held & (sieve >> 16)) != (sieve & 0xFFFF):
            continue
        down = up = 0
        if gap:  # an entry of other point counts, its bounds widened (_points_gap)
            if not _matches_but_points(keys, slot, keybuf):
                continue
            down, up = _points_gap(keys, slot, keybuf)
        elif not _matches(keys, slot, keybuf):
            continue
        if vals[slot, V_LO] - down >= target:
            return 1, vals[slot, V_LO] - down, _top_cards(tab[T_HANDS], tab[T_CTX], keys[slot, K_TOP]), best
        if vals[slot, V_HI] + up < target:
            return 0, vals[slot, V_HI] + up, _top_cards(tab[T_HANDS], tab[T_CTX], keys[slot, K_TOP]), best
        rb = vals[slot, V_BEST] & 255
        if rb != 255 and best < 0:
            best = _abs_card(tab[T_HANDS], tab[T_CTX], rb)
    return -1, 0, np.uint64(0), best


@nb.njit(cache=True, _nrt=False)
def _top_mask(ctx, hands, relevant):
    """Relative top mask of the position: per suit, every card in play from the lowest
    relevant one up.  In a points game without C_FEWPTS the top also reaches down to every point
    card in play, so the cards left below it are all worth nothing and any of them plays like
    any other (with it, the key counts each seat's point cards instead: see K_COUNTS)."""
    u = _union(ctx, hands)
    pointed = np.uint64(0)
    if ctx[C_HASPTS] and not ctx[C_FEWPTS]:
        m = u
        while m:
            c = lowest_bit(m)
            m &= m - np.uint64(1)
            if ctx[C_POINTS + c]:
                pointed |= _bit(c)
    out = np.uint64(0)
    for s in range(4):
        us = (u >> np.uint64(16 * s)) & SUIT_FIELD
        if us == 0:
            continue
        rs = ((relevant | pointed) >> np.uint64(16 * s)) & SUIT_FIELD & us
        if rs == 0:
            continue
        n = popcount(us)
        k = popcount(us & (_bit(lowest_bit(rs)) - np.uint64(1)))
        field = ((np.uint64(1) << np.uint64(n)) - np.uint64(1)) & ~((np.uint64(1) << np.uint64(k)) - np.uint64(1))
        out |= field << np.uint64(16 * s)
    return out


@nb.njit(inline="always", cache=True, _nrt=False)
def _store(tab, d, result, target, best, relevant):
    """Record what the search of the boundary node at depth d found for ``target``: into the
    entry with the same key and relevance, else over a stale or the lightest entry."""
    keys = tab[T_KEYS]
    vals = tab[T_VALS]
    ctx = tab[T_CTX]
    hands = tab[T_HANDS]
    keybuf = tab[T_KEYBUF][d]
    gen = tab[T_COUNTERS][N_GEN]
    tags = tab[T_TAGS]
    tag = _tag(keybuf[K_TOP], gen)
    top = _top_mask(ctx, hands, relevant)
    b, base = _bucket(tab, keybuf[K_TOP])
    filled = _filled(tab, b)
    sieve = _sieve(ctx, keybuf, top)
    slot = -1
    for j in range(filled):
        t = base + j
        if tags[t] == tag and (np.int64(vals[t, V_SIEVE]) & 0xFFFFFFFF) == sieve \
                and keys[t, K_TOP] == top and _matches(keys, t, keybuf):
            slot = t
            break
    weight = popcount(_union(ctx, hands))
    if slot < 0:
        if filled < BUCKET:
            slot = base + filled
            tab[T_FILL][b] = gen * 256 + filled + 1
        else:
            slot = _victim(tab, b, base, gen)
            tab[T_COUNTERS][N_EVICT] += 1
        tags[slot] = tag
        for i in range(2):
            keys[slot, i] = keybuf[i]
        for i in range(2, K_HANDS + 5):
            keys[slot, i] = keybuf[i] & top
        keys[slot, K_TOP] = top
        vals[slot, V_SIEVE] = sieve
        keys[slot, K_COUNTS] = keybuf[K_COUNTS]
        vals[slot, V_LO] = 0
        vals[slot, V_HI] = 1 << 20
    if result:
        vals[slot, V_LO] = max(vals[slot, V_LO], target)
    else:
        vals[slot, V_HI] = min(vals[slot, V_HI], target - 1)
    vals[slot, V_BEST] = (weight << 8) | best


# ---------------------------------------------------------------- move generation


@nb.njit(cache=True, _nrt=False)
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


@nb.njit(cache=True, _nrt=False)
def _overtaken(ctx, hands, led, wcard, winner, mover, leader, tlen):
    """Can a seat still to play after ``mover`` take the trick from ``winner`` (holding
    ``wcard``) and turn it the other way for the count?"""
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
def _field(m, s):
    return (m >> np.uint64(16 * s)) & SUIT_FIELD


@nb.njit(inline="always", cache=True)
def _holder(hands, c):
    for t in range(4):
        if (hands[t] >> np.uint64(c)) & np.uint64(1):
            return t
    return -1


@nb.njit(cache=True, _nrt=False)
def _lead_weight(ctx, hands, u, mover, c, killer, best):
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
        above = u & _suit_bits(s) & ~((_bit(top) << np.uint64(1)) - np.uint64(1))
        if above == 0:
            break
        nxt = lowest_bit(above)
        if not (h >> np.uint64(nxt)) & np.uint64(1):
            break
        top = nxt
    seq = top != c
    us = _field(u, s)
    rrank = popcount(us >> np.uint64((top & 15) + 1)) + 1  # 1 = the suit's highest card
    w1 = 16 * s + highest_bit(us)
    winner = _holder(hands, w1)
    rest = us & ~(np.uint64(1) << np.uint64(w1 & 15))
    second = -1
    second_card = -1
    third = -1
    if rest:
        second_card = 16 * s + highest_bit(rest)
        second = _holder(hands, second_card)
        rest &= ~(np.uint64(1) << np.uint64(second_card & 15))
        if rest:
            third = _holder(hands, 16 * s + highest_bit(rest))
    n_own = popcount(_field(h, s))
    n_pd = popcount(_field(hands[pd], s))
    n_lh = popcount(_field(hands[lho], s))
    n_rh = popcount(_field(hands[rho], s))
    count_lh = (tricks if n_lh == 0 else n_lh) << 2
    count_rh = (tricks if n_rh == 0 else n_rh) << 2
    is_top = top == w1
    if trump >= 0 and (u & _suit_bits(trump)):
        t_pd = _field(hands[pd], trump)
        t_lh = _field(hands[lho], trump)
        t_rh = _field(hands[rho], trump)
        t_own = popcount(_field(h, trump))
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
        elif _field(hands[pd], s) > (_field(hands[lho], s) | _field(hands[rho], s)):
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
    if is_top or _field(hands[pd], s) > (_field(hands[lho], s) | _field(hands[rho], s)):
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


# ---------------------------------------------------------------- DDS's follow weights
# Second, third and fourth hand in the four-seat partnership games (Moves::WeightAllocTrump
# Notvoid1..3 / Void1..3 and their no-trump twins, which apply once no trump is left in play).
# Ranks are DDS's (2..14); a card is weighed as the top of its run, as DDS plays it.


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
        above = inplay & _suit_bits(s) & ~((_bit(c) << np.uint64(1)) - np.uint64(1))
        if above == 0:
            return c
        nxt = lowest_bit(above)
        if not (h >> np.uint64(nxt)) & np.uint64(1):
            return c
        c = nxt


@nb.njit(inline="always", cache=True)
def _holds_kth(hands, inplay, seat, x, k):
    """Does seat hold the k-th highest card (k = 1, 2) of suit x in play?"""
    f = _field(inplay, x)
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
    f = _field(h, x)
    ip = _field(inplay, x)
    n = 0
    while ip and (f >> np.uint64(highest_bit(ip))) & np.uint64(1):
        n += 1
        ip &= ~(np.uint64(1) << np.uint64(highest_bit(ip)))
    return n


@nb.njit(cache=True, _nrt=False)
def _forces_ace(hands, inplay, mover, p4, led, m1, high1):
    """Moves::RankForcesAce: the card (bit index in the suit) of third hand that forces out
    fourth hand's top run as cheaply as possible, else beats second hand's card, or -1."""
    f4 = _field(hands[p4], led)
    ip = _field(inplay, led)
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
    mine = _field(hands[mover], led)
    if second > m1:
        return _lowest_above(mine, second)
    if high1 == 1:
        return _lowest_above(mine, m1)
    return -1


@nb.njit(inline="always", cache=True, _nrt=False)
def _follow_weight(ctx, hands, stack, start, tlen, leader, mover, c, u, inplay, w, ws):
    """DDS's weight of card c for the seat tlen places after the leader (higher first)."""
    trump = ctx[C_TRUMP]
    ftest = trump >= 0 and _field(inplay, trump) != 0
    h = hands[mover]
    lead = stack[start]
    led = lead >> 4
    L = (lead & 15) + 2
    x = c >> 4
    top = _run_top(h, inplay, c)
    r = (top & 15) + 2
    rr = popcount(_field(u, x) >> np.uint64(top & 15))  # 1 = the suit's highest card left
    cnt = popcount(_field(h, x))
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
    f3 = _field(hands[p3], led)
    f4 = _field(hands[p4], led)
    max3 = _hi_rank(f3)
    maxpd = _hi_rank(f4)
    t3 = _field(hands[p3], trump) if trump >= 0 else np.uint64(0)
    t4 = _field(hands[p4], trump) if trump >= 0 else np.uint64(0)
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
            if maxpd > L and _field(hands[leader], led) > f4:
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
    f4 = _field(hands[p4], led)
    max4 = _hi_rank(f4)
    min4 = _lo_rank(f4)
    m1 = (w & 15) + 2
    high1 = 0 if ws == leader else 1
    w_trump = (w >> 4) == trump
    t4 = _field(hands[p4], trump) if trump >= 0 else np.uint64(0)
    if x == led:
        max3 = _hi_rank(_field(hands[mover], led))
        if not ftest:
            if high1 == 0 and L > max4:
                wt = -r
                if _field(hands[leader], led) == 0 and _holds_kth(hands, inplay, mover, led, 1):
                    # the partner's singleton under our top: overtake to run the suit?
                    opp = max(popcount(f4) - 1, popcount(_field(hands[p2], led)))
                    run = _top_run_len(hands[mover], inplay & ~_bit(16 * led + L - 2), led)
                    if opp <= run - 1 and \
                            c == 16 * led + _lowest_above(_field(hands[mover], led), L):
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


@nb.njit(cache=True, _nrt=False)
def _gen_moves(ctx, hands, stack, start, tlen, leader, broken, mover, moves, scores, best,
               killer, points):
    """One card per run of equivalent legal cards into moves[:n], best-looking first; returns
    n and the cards left out as equivalent to a lower one.

    The four-seat partnership games lead and follow by DDS's weights (_lead_weight,
    _follow_weight; DDS's follow weights cut 306k to 287k nodes mean on 80 full Spades deals,
    259k to 212k on 40 others, against the order below).  Elsewhere, following: win the trick
    with the cheapest card that does, or duck with the lowest when the trick already goes the
    mover's way (in a points game, throw points to a winning partner and keep them from a
    losing trick), then the lowest others.  Leading: cash a master the opponents cannot ruff,
    lead low to the partner's master, else low.  With card points (Trump Friend) a master
    trump waits for the side masters, a low trump comes before low side cards (before the
    partner's master too while the other side holds the top trump), and the depth's last
    cut-off lead (``killer``) comes before the masters.  ``best`` (the table's remembered best
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
    haspts = 1 if points else 0
    w = -1  # the trick's best card so far and who played it
    ws = -1
    partner_cards = np.uint64(0)
    ruffable = 0  # suits some opponent could ruff if led
    partner_ruffs = 0  # suits a partner could ruff
    # four seats in two partnerships without card points: DDS's lead order
    dds_leads = False if points else (
        DDS_LEADS and ctx[C_NSEATS] == 4 and ctx[C_NACTIVE] == 4
        and ((maxi >> mover) & 1) == ((maxi >> ((mover + 2) & 3)) & 1))
    nil = -1 if points else _nil_seat(ctx)
    if tlen > 0:
        w = stack[start]
        ws = leader
        seat = leader
        for i in range(1, tlen):
            seat = ctx[C_NEXT + seat]
            if _beats(stack[start + i], w, trump):
                w = stack[start + i]
                ws = seat
    elif not dds_leads and nil < 0:  # what the plain lead order weighs
        for t in range(ctx[C_NSEATS]):
            ht = hands[t]
            if t == mover or ht == 0:
                continue
            if ((maxi >> t) & 1) == mover_max:
                partner_cards |= ht
                if trump >= 0 and (ht & _suit_bits(trump)):
                    for s in range(4):
                        if (ht & _suit_bits(s)) == 0:
                            partner_ruffs |= 1 << s
            elif trump >= 0 and (ht & _suit_bits(trump)):
                for s in range(4):
                    if (ht & _suit_bits(s)) == 0:
                        ruffable |= 1 << s
    last_hand = tlen == ctx[C_NACTIVE] - 1
    n = 0
    equiv = np.uint64(0)
    m = legal
    while m:
        c = lowest_bit(m)
        m &= m - np.uint64(1)
        s = c >> 4
        below = inplay & (_bit(c) - np.uint64(1)) & _suit_bits(s)
        if below:
            d = highest_bit(below)
            if (h >> np.uint64(d)) & np.uint64(1) and ctx[C_POINTS + d] == ctx[C_POINTS + c]:
                equiv |= _bit(c)  # c plays like the card just below it
                continue
        strength = (c & 15) + (16 if s == trump else 0)
        pts = ctx[C_POINTS + c]
        if nil >= 0:
            sc = _nil_score(ctx, hands, stack, start, tlen, leader, mover, c, w, ws, u, nil, killer)
        elif tlen == 0 and dds_leads:
            sc = _lead_weight(ctx, hands, u, mover, c, killer, best)
        elif dds_leads:
            sc = _follow_weight(ctx, hands, stack, start, tlen, leader, mover, c, u, inplay, w, ws)
        elif tlen == 0:
            above = u & _suit_bits(s) & ~((_bit(c) << np.uint64(1)) - np.uint64(1))
            can_ruff = (ruffable >> s) & 1
            if (above & ~h) == 0:  # c cashes the top of the suit
                sc = 6000 - 3000 * can_ruff + 10 * pts
                if s == trump and haspts:
                    sc += TRUMP_MASTER_LEAD
            elif not can_ruff and (above & partner_cards) \
                    and highest_bit(above) == highest_bit(above & partner_cards):
                sc = 5000 - strength  # low to the partner's master
            elif (partner_ruffs >> s) & 1 and not can_ruff and s != trump:
                sc = 4500 - strength  # for the partner to ruff
            else:
                sc = 3000 - strength - 40 * pts  # low, keeping the point cards back
                if s == trump and haspts:
                    top = highest_bit(u & _suit_bits(trump))
                    ahead = False  # does the mover's side hold the top trump?
                    for t in range(ctx[C_NSEATS]):
                        if (hands[t] >> np.uint64(top)) & np.uint64(1):
                            ahead = ((maxi >> t) & 1) == mover_max
                    sc += LOW_TRUMP_LEAD if ahead else LOW_TRUMP_LEAD_BEHIND
            if c == killer and haspts:
                sc += KILLER_LEAD  # the last cut-off lead at this depth, after the table's best
        else:
            wins = _beats(c, w, trump)
            winner = mover if wins else ws
            wcard = c if wins else w
            ours = ((count >> winner) & 1) == mover_max
            safe = not _overtaken(ctx, hands, stack[start] >> 4, wcard, winner, mover,
                                  leader, tlen)
            if ours and safe:
                sc = (8000 if not wins else 7000) - strength + 40 * pts * haspts
            elif ours and haspts and not last_hand:  # high without points, before ducking
                sc = 4500 + strength - 40 * pts
            elif ours:
                sc = 3000 + strength if not last_hand else 5000 - strength
            elif safe or last_hand:
                sc = 4000 - strength - 40 * pts
            else:
                sc = 3500 - strength - 40 * pts
        if c == best and (nil >= 0 or not (tlen == 0 and dds_leads)):
            sc = 100000
        j = n  # insertion by score, highest first
        while j > 0 and scores[j - 1] < sc:
            moves[j] = moves[j - 1]
            scores[j] = scores[j - 1]
            j -= 1
        moves[j] = c
        scores[j] = sc
        n += 1
    return n, equiv


@nb.njit(cache=True, _nrt=False)
def _rel_card(hands, ctx, c):
    """c as (suit, relative rank among the cards in hands) for the table's best-move slot."""
    u = _union(ctx, hands)
    s = c >> 4
    return 16 * s + popcount(u & (_bit(c) - np.uint64(1)) & _suit_bits(s))


@nb.njit(cache=True, _nrt=False)
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


@nb.njit(cache=True, _nrt=False)
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


@nb.njit(cache=True, _nrt=False)
def _last_trick_relevant(ctx, hands, leader):
    """The card whose rank decided the final trick (none when no other card shared its suit)."""
    trump = ctx[C_TRUMP]
    best = lowest_bit(hands[leader])
    seat = leader
    for _ in range(1, ctx[C_NACTIVE]):
        seat = ctx[C_NEXT + seat]
        c = lowest_bit(hands[seat])
        if _beats(c, best, trump):
            best = c
    return _rank_winner(ctx, hands, best)


@nb.njit(cache=True, _nrt=False)
def _rank_winner(ctx, hands, best):
    for seat in range(ctx[C_NSEATS]):
        if hands[seat] & _suit_bits(best >> 4) & ~_bit(best):
            return _bit(best)
    return np.uint64(0)


@nb.njit(cache=True, _nrt=False)
def _trick_relevant(ctx, stack, start, n):
    """The winning card of the trick stack[start:start+n] if it won on rank over a card of its
    own suit (a trick won by the only card of its suit would be won the same by any rank)."""
    trump = ctx[C_TRUMP]
    best = stack[start]
    for i in range(1, n):
        if _beats(stack[start + i], best, trump):
            best = stack[start + i]
    for i in range(n):
        c = stack[start + i]
        if c != best and (c >> 4) == (best >> 4):
            return _bit(best)
    return np.uint64(0)


# ---------------------------------------------------------------- card points (Trump Friend)
# Counting card points, the searches are *fail-soft* (the Skat solvers' way): a node deciding
# "at least t?" also leaves in F_BOUND a bound of its value beyond t (a lower bound when it
# succeeds, an upper bound when it fails), from the bounds, table entries and last tricks its
# proof rests on.  The table stores those bounds, and the root loop (_exact) jumps past every
# threshold a bound already decides.


@nb.njit(inline="always", cache=True)
def _mask_points(ctx, m):
    """The points of the cards of mask m (card points 0-15 a card), by the point masks."""
    return (popcount(m & np.uint64(ctx[C_PMASK])) + 2 * popcount(m & np.uint64(ctx[C_PMASK + 1]))
            + 4 * popcount(m & np.uint64(ctx[C_PMASK + 2]))
            + 8 * popcount(m & np.uint64(ctx[C_PMASK + 3])))


@nb.njit(cache=True, _nrt=False)
def _second_hand_wins(ctx, hands, lead, leader):
    """(does the second hand's side surely win the trick led by ``lead``?; the card that relies
    on), four seats in two partnerships (DDS's QuickTricksSecondHand).  Yes when second or
    fourth hand can ruff and third hand must follow or holds no trump (it cannot overruff a
    ruff of second hand, and fourth hand plays last), or when their side's best card of the
    suit beats the lead and all of third hand's cards and third hand cannot ruff."""
    trump = ctx[C_TRUMP]
    s = lead >> 4
    p2 = ctx[C_NEXT + leader]
    p3 = ctx[C_NEXT + p2]
    p4 = ctx[C_NEXT + p3]
    f3 = _field(hands[p3], s)
    third_ruffs = trump >= 0 and s != trump and f3 == 0 and _field(hands[p3], trump) != 0
    if trump >= 0 and s != trump:
        for t in (p2, p4):
            if _field(hands[t], s) == 0 and _field(hands[t], trump) != 0:
                return not third_ruffs, np.uint64(0)
    ours = _field(hands[p2], s) | _field(hands[p4], s)
    if third_ruffs or ours <= ((np.uint64(1) << np.uint64(lead & 15)) | f3):
        return False, np.uint64(0)
    return True, _bit(16 * s + highest_bit(ours))


@nb.njit(inline="always", cache=True, _nrt=False)
def _second_hand_cut(tab, d, leader, mover, target):
    """1 or 0 when second hand's side needs only the current trick and surely wins it (see
    _second_hand_wins), the cards relied on in relevant[d]; else -1."""
    ctx = tab[T_CTX]
    hands = tab[T_HANDS]
    maxi = ctx[C_MAX]
    p4 = ctx[C_NEXT + ctx[C_NEXT + mover]]
    side = (maxi >> mover) & 1
    if ((maxi >> p4) & 1) != side or (side and target > ctx[C_CONST]):
        return -1
    if not side and upper_bound(ctx, hands, tab[T_STACK], d - 1, 1) - ctx[C_CONST] >= target:
        return -1
    wins, rel = _second_hand_wins(ctx, hands, tab[T_STACK][d - 1], leader)
    if not wins:
        return -1
    tab[T_RELEVANT][d] = rel
    return side


@nb.njit(inline="always", cache=True, _nrt=False)
def _later_cut(tab, d, leader, target, hi):
    """1 or 0 when _later_trumps settles ``target`` at the boundary node d (the cards relied on
    in relevant[d]), else -1."""
    ctx = tab[T_CTX]
    k = ctx[C_CONST]
    maxing = (ctx[C_MAX] >> leader) & 1
    if (hi - 2 * k >= target) if maxing else (2 * k < target):
        return -1  # the side not on lead needs more than the 2 tricks this can give
    q, rq = _later_trumps(ctx, tab[T_HANDS], leader)
    if q == 0 or ((hi - q * k >= target) if maxing else (q * k < target)):
        return -1
    tab[T_RELEVANT][d] = rq
    return 1 - maxing


@nb.njit(inline="always", cache=True)
def _side_trumps(ctx, hands, side, trump):
    """(the trumps of the seats with max-bit ``side``, those of the other seats), in place."""
    maxi = ctx[C_MAX]
    mine = np.uint64(0)
    other = np.uint64(0)
    for t in range(ctx[C_NSEATS]):
        if ((maxi >> t) & 1) == side:
            mine |= hands[t]
        else:
            other |= hands[t]
    return mine & _suit_bits(trump), other & _suit_bits(trump)


@nb.njit(cache=True, _nrt=False)
def _sure_points(ctx, hands, side):
    """(points the seats with max-bit ``side`` win whatever happens, from a trick boundary on;
    the card that depends on): the points of their trumps above every trump of the other side.
    Whenever such a trump is played, the trick goes to the highest trump in it, which is the
    side's (TF-8.1).  It depends on the other side's highest trump (the cards above it and
    their holders)."""
    trump = ctx[C_TRUMP]
    if trump < 0:
        return 0, np.uint64(0)
    mine, ot = _side_trumps(ctx, hands, side, trump)
    if ot == 0:
        return _mask_points(ctx, mine), np.uint64(0)
    top = highest_bit(ot)
    return _mask_points(ctx, mine & ~((_bit(top) << np.uint64(1)) - np.uint64(1))), _bit(top)


@nb.njit(cache=True, _nrt=False)
def _sure_lower_points(ctx, hands, side, q, need):
    """(the points of :func:`_sure_points`, ``q``, plus those of the side's lower point trumps
    it surely wins; the card that depends on), when that can reach ``need`` (else ``q`` and
    no card: the caller's node is not settled either way).

    A trump x of seat s wins its points for the side unless the trick x falls in holds a
    higher trump of the other side (the trick goes to its highest trump, the side's whenever
    no opposing trump beats x; TF-8.1).  Seat s plays one card a trick and every opposing trump
    is played in one trick, so the trumps of s that are lost can be matched, each to a
    different opposing trump above it: at worst the other side spoils a matchable set of s's
    point trumps of the most points.  A set x_1 > x_2 > ... of s's trumps is matchable exactly
    when at least j opposing trumps lie above x_j for every j (the trumps above x form a chain
    of sets, so Hall's condition needs checking on the j highest only), and matchable sets are
    the independent sets of a transversal matroid, so taking s's point trumps by falling points
    and keeping each that leaves the set matchable finds the most points spoilable.  Seat by
    seat (two seats of the side may lose trumps to the same opposing trump in one trick), the
    side wins at least the points of its trumps less those.  This relies on the lowest point
    trump of the side below the other side's highest: every trump above it, and its holder, is
    then fixed, and the key fixes each seat's point count."""
    trump = ctx[C_TRUMP]
    if trump < 0:
        return q, np.uint64(0)
    maxi = ctx[C_MAX]
    mine, ot = _side_trumps(ctx, hands, side, trump)
    if ot == 0:
        return q, np.uint64(0)
    lower = mine & (_bit(highest_bit(ot)) - np.uint64(1)) & _point_cards(ctx)
    if lower == 0 or q + _mask_points(ctx, lower) < need:
        return q, np.uint64(0)
    for t in range(ctx[C_NSEATS]):
        if ((maxi >> t) & 1) == side and hands[t] & lower:
            cand = hands[t] & lower
            q += _mask_points(ctx, cand) - _most_spoiled(ctx, cand, ot)
    return q, _bit(lowest_bit(lower))


@nb.njit(inline="always", cache=True)
def _point_cards(ctx):
    return (np.uint64(ctx[C_PMASK]) | np.uint64(ctx[C_PMASK + 1]) | np.uint64(ctx[C_PMASK + 2])
            | np.uint64(ctx[C_PMASK + 3]))


@nb.njit(cache=True, _nrt=False)
def _most_spoiled(ctx, cand, ot):
    """The most points of one seat's trumps ``cand`` (each below some of ``ot``) that the
    opposing trumps ``ot`` can spoil, one each (see :func:`_sure_lower_points`): greedy by points."""
    chosen = np.uint64(0)
    lost = 0
    while cand:
        best = -1
        pick = 0
        rest = cand
        while rest:  # the card of most points, the highest among equals
            c = highest_bit(rest)
            rest ^= _bit(c)
            if ctx[C_POINTS + c] > best:
                best = ctx[C_POINTS + c]
                pick = c
        cand ^= _bit(pick)
        trial = chosen | _bit(pick)
        ok = True
        j = 0
        rest = trial
        while rest:  # the j-th highest chosen needs j opposing trumps above it
            c = highest_bit(rest)
            rest ^= _bit(c)
            j += 1
            if popcount(ot & ~((_bit(c) << np.uint64(1)) - np.uint64(1))) < j:
                ok = False
                break
        if ok:
            chosen = trial
            lost += best
    return lost


@nb.njit(inline="always", cache=True)
def _fold(g, r, v, rv, maxing, target):
    """A node of _two_tricks given one more child (fail-soft value v, cards rv): (its value so
    far, its cards so far, settled?).  A child that gives the mover's side what it wants
    settles the node on that child's line alone; otherwise the node keeps the best value of
    its children for its side and the union of their cards, as the search does."""
    if (v >= target) if maxing else (v < target):
        return v, rv, True
    return (max(g, v) if maxing else min(g, v)), r | rv, False


@nb.njit(inline="always", cache=True)
def _trick_best(played, led, tb):
    """The winning card of a complete trick (the cards ``played``, a mask, led in suit
    ``led``; ``tb`` the trump suit's bits or 0): its highest trump, else its highest card of
    the led suit, whatever the order the cards came in (TF-8)."""
    tr = played & tb
    return highest_bit(tr) if tr else highest_bit(played & _suit_bits(led))


@nb.njit(inline="always", cache=True)
def _won_on_rank(played, best):
    """The winning card ``best`` of the trick ``played`` if it won on rank over a card of its
    own suit, else nothing."""
    return _bit(best) if popcount(played & _suit_bits(best >> 4)) > 1 else np.uint64(0)


@nb.njit(inline="always", cache=True)
def _seat_of(c, h0, h1, h2, h3, h4, seats):
    """The seat (from ``seats``, 3 bits per play-order position) whose hand h0..h4 holds c."""
    b = _bit(c)
    i = 0 if h0 & b else 1 if h1 & b else 2 if h2 & b else 3 if h3 & b else 4
    return (seats >> (3 * i)) & 7


@nb.njit(cache=True, _nrt=False)
def _two_tricks(ctx, hands, leader, target):
    """The last two tricks of five seats (every seat holds two cards) as a boolean search for
    ``target`` over every line (at most 32): (a fail-soft value, at least it when it reaches
    ``target``, at most it when not; the cards it relied on).  A seat stops at its first card
    that gives its side what it wants, relying on that line's cards only (each trick's winning
    card when it won on rank over a card of its own suit); a seat without one relies on the
    union of its lines'.  Cheaper than searching these small trees node by node through the
    table, and cheaper still than valuing every line: the exact value of all 32 lines relied
    on the winners of every line, so the table entries above matched fewer positions.  Each
    line's tricks are read off masks (_trick_best: the highest trump, else the highest card of
    the led suit), the last trick being what the seats have left."""
    count = ctx[C_COUNT]
    maxi = ctx[C_MAX]
    const = ctx[C_CONST]
    trump = ctx[C_TRUMP]
    tb = _suit_bits(trump) if trump >= 0 else np.uint64(0)
    s0 = leader
    s1 = ctx[C_NEXT + s0]
    s2 = ctx[C_NEXT + s1]
    s3 = ctx[C_NEXT + s2]
    s4 = ctx[C_NEXT + s3]
    seats = s0 | (s1 << 3) | (s2 << 6) | (s3 << 9) | (s4 << 12)
    h0 = hands[s0]
    h1 = hands[s1]
    h2 = hands[s2]
    h3 = hands[s3]
    h4 = hands[s4]
    u = h0 | h1 | h2 | h3 | h4
    ptot = _mask_points(ctx, u)
    m0 = (maxi >> s0) & 1
    m1 = (maxi >> s1) & 1
    m2 = (maxi >> s2) & 1
    m3 = (maxi >> s3) & 1
    m4 = (maxi >> s4) & 1
    zero = np.uint64(0)
    one = np.uint64(1)
    g0 = -1 if m0 else 1 << 20
    r0 = zero
    a0 = h0
    while a0:
        c0 = lowest_bit(a0)
        a0 &= a0 - one
        led = c0 >> 4
        p0 = _bit(c0)
        g1 = -1 if m1 else 1 << 20
        r1 = zero
        a1 = _follow_set(h1, led)
        while a1:
            c1 = lowest_bit(a1)
            a1 &= a1 - one
            p1 = p0 | _bit(c1)
            g2 = -1 if m2 else 1 << 20
            r2 = zero
            a2 = _follow_set(h2, led)
            while a2:
                c2 = lowest_bit(a2)
                a2 &= a2 - one
                p2 = p1 | _bit(c2)
                g3 = -1 if m3 else 1 << 20
                r3 = zero
                a3 = _follow_set(h3, led)
                while a3:
                    c3 = lowest_bit(a3)
                    a3 &= a3 - one
                    p3 = p2 | _bit(c3)
                    g4 = -1 if m4 else 1 << 20
                    r4 = zero
                    a4 = _follow_set(h4, led)
                    while a4:
                        c4 = lowest_bit(a4)
                        a4 &= a4 - one
                        played = p3 | _bit(c4)
                        best = _trick_best(played, led, tb)
                        w = _seat_of(best, h0, h1, h2, h3, h4, seats)
                        pts = _mask_points(ctx, played)
                        v = pts + const if (count >> w) & 1 else 0
                        rest = u ^ played  # the last trick, led by w
                        best2 = _trick_best(rest, lowest_bit(hands[w] & rest) >> 4, tb)
                        w2 = _seat_of(best2, h0, h1, h2, h3, h4, seats)
                        if (count >> w2) & 1:
                            v += ptot - pts + const
                        rv = _won_on_rank(played, best) | _won_on_rank(rest, best2)
                        g4, r4, done = _fold(g4, r4, v, rv, m4, target)
                        if done:
                            break
                    g3, r3, done = _fold(g3, r3, g4, r4, m3, target)
                    if done:
                        break
                g2, r2, done = _fold(g2, r2, g3, r3, m2, target)
                if done:
                    break
            g1, r1, done = _fold(g1, r1, g2, r2, m1, target)
            if done:
                break
        g0, r0, done = _fold(g0, r0, g1, r1, m0, target)
        if done:
            break
    return g0, r0


@nb.njit(inline="always", cache=True)
def _follow_set(h, led):
    """The cards of hand h that may follow a trick led in suit ``led`` (TF-7: follow suit)."""
    same = h & _suit_bits(led)
    return same if same else h


@nb.njit(inline="always", cache=True)
def _after_trick(ctx, hands, leader, target, v, hi):
    """(fail-soft value, cards relied on) of the last two tricks for ``target`` once a trick
    worth v to the count side has gone and ``hi`` points are left: what the search's trick
    boundary gives there (_enter_points)."""
    if target - v <= 0:
        return v, np.uint64(0)
    if target - v > hi:
        return v + hi, np.uint64(0)
    g, r = _two_tricks(ctx, hands, leader, target - v)
    return v + g, r


@nb.njit(inline="always", cache=True)
def _insert(packed, c, sc, scores):
    """Insert card c with score sc into the packed move list (count in bits 0-3, the cards 8
    bits each from bit 8, best first); ``scores`` is a 4-slot scratch of the scores so far."""
    n = packed & 15
    j = n
    while j > 0 and scores[j - 1] < sc:
        scores[j] = scores[j - 1]
        j -= 1
    scores[j] = sc
    low = packed & ((1 << (8 + 8 * j)) - 1) & ~15
    high = (packed >> (8 + 8 * j)) << (16 + 8 * j)
    return high | (c << (8 + 8 * j)) | low | (n + 1)


@nb.njit(inline="always", cache=True)
def _plays_like_lower(ctx, h, u, c):
    """Is c, of hand h, equivalent to the next lower card in play (``u``): the same hand's,
    with the same points (as _gen_moves groups them)?"""
    below = u & (_bit(c) - np.uint64(1)) & _suit_bits(c >> 4)
    if below == 0:
        return False
    d = highest_bit(below)
    return (h >> np.uint64(d)) & np.uint64(1) != 0 and ctx[C_POINTS + d] == ctx[C_POINTS + c]


@nb.njit(inline="always", cache=True)
def _groups_relied(ctx, hands, seat, u, equiv, rel):
    """``rel`` plus what a seat's grouping of equivalent cards relied on when it tried every
    group (as _with_groups): a group reaching the relied-on top cards of its suit stays one
    group only as long as its lowest card is a top card too."""
    out = rel
    while equiv:
        c = lowest_bit(equiv)
        equiv &= equiv - np.uint64(1)
        rs = rel & _suit_bits(c >> 4)
        if rs and c >= lowest_bit(rs):
            out |= _bit(_representative(ctx, hands, seat, u, c))
    return out


@nb.njit(inline="always", cache=True)
def _lead_order(ctx, hands, mover, scores):
    """The leader's cards in the plain lead order of _gen_moves (cash a master nobody can
    ruff, else low, keeping the point cards back), packed for _three_tricks."""
    trump = ctx[C_TRUMP]
    maxi = ctx[C_MAX]
    h = hands[mover]
    u = _union(ctx, hands)
    ruffable = 0
    if trump >= 0:
        for t in range(ctx[C_NSEATS]):
            ht = hands[t]
            if t != mover and ((maxi >> t) & 1) != ((maxi >> mover) & 1) \
                    and (ht & _suit_bits(trump)):
                for s in range(4):
                    if (ht & _suit_bits(s)) == 0:
                        ruffable |= 1 << s
    packed = 0
    equiv = np.uint64(0)
    m = h
    while m:
        c = lowest_bit(m)
        m &= m - np.uint64(1)
        if _plays_like_lower(ctx, h, u, c):
            equiv |= _bit(c)
            continue
        st = c >> 4
        strength = (c & 15) + (16 if st == trump else 0)
        pts = ctx[C_POINTS + c]
        above = u & _suit_bits(st) & ~((_bit(c) << np.uint64(1)) - np.uint64(1))
        if (above & ~h) == 0:
            sc = 6000 - 3000 * ((ruffable >> st) & 1) + 10 * pts
        else:
            sc = 3000 - strength - 40 * pts
        packed = _insert(packed, c, sc, scores)
    return packed, equiv


@nb.njit(inline="always", cache=True)
def _beaten_later(ctx, hands, led, wcard, winner, mover, k):
    """_overtaken for _three_tricks's order: can a seat of the other side still to play take
    the trick from ``winner`` (holding ``wcard``)?"""
    trump = ctx[C_TRUMP]
    count = ctx[C_COUNT]
    side = (count >> winner) & 1
    ws = wcard >> 4
    seat = mover
    for _ in range(4 - k):
        seat = ctx[C_NEXT + seat]
        if ((count >> seat) & 1) == side:
            continue
        ht = hands[seat]
        follow = _field(ht, led)
        if follow:
            if ws == led and (follow >> np.uint64(wcard & 15)) > np.uint64(1):
                return True
        elif trump >= 0:
            tr = _field(ht, trump)
            if tr and (ws != trump or (tr >> np.uint64(wcard & 15)) > np.uint64(1)):
                return True
    return False


@nb.njit(inline="always", cache=True)
def _follow_order(ctx, hands, legal, led, w, ws, mover, leader, k, u, scores):
    """The follower's legal cards in the plain follow order of _gen_moves (Trump Friend),
    packed for _three_tricks; w, ws: the trick's best card so far and its seat, k: the cards
    already in the trick."""
    trump = ctx[C_TRUMP]
    count = ctx[C_COUNT]
    mover_max = (ctx[C_MAX] >> mover) & 1
    last_hand = k == ctx[C_NACTIVE] - 1
    packed = 0
    equiv = np.uint64(0)
    h = hands[mover]
    m = legal
    while m:
        c = lowest_bit(m)
        m &= m - np.uint64(1)
        if _plays_like_lower(ctx, h, u, c):
            equiv |= _bit(c)
            continue
        strength = (c & 15) + (16 if (c >> 4) == trump else 0)
        pts = ctx[C_POINTS + c]
        wins = _beats(c, w, trump)
        winner = mover if wins else ws
        wcard = c if wins else w
        ours = ((count >> winner) & 1) == mover_max
        safe = last_hand or not _beaten_later(ctx, hands, led, wcard, winner, mover, k)
        if ours and safe:
            sc = (8000 if not wins else 7000) - strength + 40 * pts
        elif ours and not last_hand:
            sc = 4500 + strength - 40 * pts
        elif ours:
            sc = 5000 - strength
        elif safe or last_hand:
            sc = 4000 - strength - 40 * pts
        else:
            sc = 3500 - strength - 40 * pts
        packed = _insert(packed, c, sc, scores)
    return packed, equiv


@nb.njit(cache=True, _nrt=False)
def _three_tricks(ctx, hands, leader, target, scores):
    """The last three tricks of five seats (every seat holds three cards) as a boolean search
    for ``target`` over every line of the first of them, each followed by _two_tricks: (a
    fail-soft value, at least it when it reaches ``target``, at most it when not; the cards it
    relied on), as _two_tricks returns them.  One card of each group of equivalent cards is
    tried (no small-card skips), in the search's plain order, so each seat's result relies on
    what its lines relied on (the first trick's winning card when it won on rank over a card
    of its own suit, and the last two tricks' cards) and, when it tried every group, on what
    its grouping relied on (_groups_relied).  ``hands`` is changed during the search
    and restored; ``scores`` is scratch (4 slots)."""
    count = ctx[C_COUNT]
    maxi = ctx[C_MAX]
    const = ctx[C_CONST]
    trump = ctx[C_TRUMP]
    s0 = leader
    s1 = ctx[C_NEXT + s0]
    s2 = ctx[C_NEXT + s1]
    s3 = ctx[C_NEXT + s2]
    s4 = ctx[C_NEXT + s3]
    seats = s0 | (s1 << 3) | (s2 << 6) | (s3 << 9) | (s4 << 12)
    m0 = (maxi >> s0) & 1
    m1 = (maxi >> s1) & 1
    m2 = (maxi >> s2) & 1
    m3 = (maxi >> s3) & 1
    m4 = (maxi >> s4) & 1
    zero = np.uint64(0)
    tb = _suit_bits(trump) if trump >= 0 else np.uint64(0)
    h0 = hands[s0]
    h1 = hands[s1]
    h2 = hands[s2]
    h3 = hands[s3]
    h4 = hands[s4]
    u = h0 | h1 | h2 | h3 | h4
    total = _mask_points(ctx, u)
    done = False
    g0 = -1 if m0 else 1 << 20
    r0 = zero
    p0, q0 = _lead_order(ctx, hands, s0, scores)
    for i0 in range(p0 & 15):
        c0 = (p0 >> (8 + 8 * i0)) & 255
        led = c0 >> 4
        hands[s0] ^= _bit(c0)
        g1 = -1 if m1 else 1 << 20
        r1 = zero
        p1, q1 = _follow_order(ctx, hands, _follow_set(hands[s1], led), led, c0, s0, s1, s0, 1,
                           u, scores)
        for i1 in range(p1 & 15):
            c1 = (p1 >> (8 + 8 * i1)) & 255
            hands[s1] ^= _bit(c1)
            w1, ws1 = (c1, s1) if _beats(c1, c0, trump) else (c0, s0)
            g2 = -1 if m2 else 1 << 20
            r2 = zero
            p2, q2 = _follow_order(ctx, hands, _follow_set(hands[s2], led), led, w1, ws1, s2, s0, 2,
                               u, scores)
            for i2 in range(p2 & 15):
                c2 = (p2 >> (8 + 8 * i2)) & 255
                hands[s2] ^= _bit(c2)
                w2, ws2 = (c2, s2) if _beats(c2, w1, trump) else (w1, ws1)
                g3 = -1 if m3 else 1 << 20
                r3 = zero
                p3, q3 = _follow_order(ctx, hands, _follow_set(hands[s3], led), led, w2, ws2, s3, s0,
                                   3, u, scores)
                for i3 in range(p3 & 15):
                    c3 = (p3 >> (8 + 8 * i3)) & 255
                    hands[s3] ^= _bit(c3)
                    w3, ws3 = (c3, s3) if _beats(c3, w2, trump) else (w2, ws2)
                    g4 = -1 if m4 else 1 << 20
                    r4 = zero
                    p4, q4 = _follow_order(ctx, hands, _follow_set(hands[s4], led), led, w3, ws3, s4,
                                       s0, 4, u, scores)
                    for i4 in range(p4 & 15):
                        c4 = (p4 >> (8 + 8 * i4)) & 255
                        hands[s4] ^= _bit(c4)
                        played = _bit(c0) | _bit(c1) | _bit(c2) | _bit(c3) | _bit(c4)
                        best = _trick_best(played, led, tb)
                        w = _seat_of(best, h0, h1, h2, h3, h4, seats)
                        p = _mask_points(ctx, played)
                        v = p + const if (count >> w) & 1 else 0
                        gv, rv = _after_trick(ctx, hands, w, target, v, total - p)
                        hands[s4] ^= _bit(c4)
                        g4, r4, done = _fold(g4, r4, gv, rv | _won_on_rank(played, best), m4,
                                             target)
                        if done:
                            break
                    if not done:  # every group tried
                        r4 = _groups_relied(ctx, hands, s4, u, q4, r4)
                    hands[s3] ^= _bit(c3)
                    g3, r3, done = _fold(g3, r3, g4, r4, m3, target)
                    if done:
                        break
                if not done:  # every group tried
                    r3 = _groups_relied(ctx, hands, s3, u, q3, r3)
                hands[s2] ^= _bit(c2)
                g2, r2, done = _fold(g2, r2, g3, r3, m2, target)
                if done:
                    break
            if not done:  # every group tried
                r2 = _groups_relied(ctx, hands, s2, u, q2, r2)
            hands[s1] ^= _bit(c1)
            g1, r1, done = _fold(g1, r1, g2, r2, m1, target)
            if done:
                break
        if not done:  # every group tried
            r1 = _groups_relied(ctx, hands, s1, u, q1, r1)
        hands[s0] ^= _bit(c0)
        g0, r0, done = _fold(g0, r0, g1, r1, m0, target)
        if done:
            break
    if not done:
        r0 = _groups_relied(ctx, hands, s0, u, q0, r0)
    return g0, r0


@nb.njit(inline="always", cache=True)
def _settle(f, relevant, d, r, bound, rel):
    """Settle a points node: result r, its fail-soft bound and the cards it relied on."""
    f[F_BOUND] = bound
    relevant[d] = rel
    return r


@nb.njit(inline="always", cache=True, _nrt=False)
def _enter_points(tab, d):
    """The trick-boundary part of :func:`_enter` when cards carry points: (0/1 with its bound
    in F_BOUND and the cards it relied on in relevant[d], or -1; the table's remembered best
    lead or -1)."""
    ctx = tab[T_CTX]
    hands = tab[T_HANDS]
    f = tab[T_FRAMES][d]
    relevant = tab[T_RELEVANT]
    leader = f[F_LEADER]
    target = f[F_TARGET]
    nactive = ctx[C_NACTIVE]
    u = _union(ctx, hands)
    ncards = popcount(u)
    if ncards == 0:
        return _settle(f, relevant, d, 1 if target <= 0 else 0, 0, np.uint64(0)), -1
    if target <= 0:
        return _settle(f, relevant, d, 1, 0, np.uint64(0)), -1
    hi = _mask_points(ctx, u) + (ncards // nactive) * ctx[C_CONST]  # every point in play
    if target > hi:
        return _settle(f, relevant, d, 0, hi, np.uint64(0)), -1
    if ncards == nactive:
        v = _last_trick(ctx, hands, leader)
        return _settle(f, relevant, d, 1 if v >= target else 0, v,
                       _last_trick_relevant(ctx, hands, leader)), -1
    if ncards == 2 * nactive and nactive == 5:
        v, rel = _two_tricks(ctx, hands, leader, target)
        return _settle(f, relevant, d, 1 if v >= target else 0, v, rel), -1
    if ctx[C_QUICK_POINTS]:
        q, rq = _sure_points(ctx, hands, 1)
        if q >= target:
            return _settle(f, relevant, d, 1, q, rq), -1
        q0, rq0 = _sure_points(ctx, hands, 0)
        if hi - q0 < target:
            return _settle(f, relevant, d, 0, hi - q0, rq0), -1
        q, rq = _sure_lower_points(ctx, hands, 1, q, target)
        if q >= target:
            return _settle(f, relevant, d, 1, q, rq), -1
        q, rq = _sure_lower_points(ctx, hands, 0, q0, hi - target + 1)
        if hi - q < target:
            return _settle(f, relevant, d, 0, hi - q, rq), -1
        q, rq = _quick_points(ctx, hands, leader, f[F_BROKEN] != 0)
        tab[T_COUNTERS][N_QUICK] += 1
        if (ctx[C_MAX] >> leader) & 1:
            if q >= target:
                tab[T_COUNTERS][N_QUICK_CUTS] += 1
                return _settle(f, relevant, d, 1, q, rq), -1
        elif hi - q < target:
            tab[T_COUNTERS][N_QUICK_CUTS] += 1
            return _settle(f, relevant, d, 0, hi - q, rq), -1
    _make_key(ctx, hands, leader, f[F_BROKEN] != 0, tab[T_KEYBUF][d])
    r, bound, rel, best = _probe(tab, d, target)
    tab[T_COUNTERS][N_PROBES] += 1
    if r >= 0:
        tab[T_COUNTERS][N_HITS] += 1
        return _settle(f, relevant, d, r, bound, rel), best
    if ncards == 3 * nactive and nactive == 5:
        v, rel = _three_tricks(ctx, hands, leader, target, tab[T_SCORES][d])
        r = 1 if v >= target else 0
        _store(tab, d, r, v + 1 - r, 255, rel)
        return _settle(f, relevant, d, r, v, rel), -1
    return -1, best


@nb.njit(inline="always", cache=True)
def _mix(x):
    """A 64-bit finaliser (MurmurHash3's fmix64)."""
    x ^= x >> np.uint64(33)
    x *= np.uint64(0xFF51AFD7ED558CCD)
    x ^= x >> np.uint64(33)
    x *= np.uint64(0xC4CEB9FE1A85EC53)
    return x ^ (x >> np.uint64(33))


@nb.njit(inline="always", cache=True)
def _memo_played(m, c, k):
    """F_MEMO after card c is played at place k of the trick."""
    return np.int64(np.uint64(m) ^ _mix(np.uint64((c << 3) + k + 1) * np.uint64(0x9E3779B97F4A7C15)))


@nb.njit(inline="always", cache=True)
def _memo_slot(tab, d, mover):
    """The cut-move memory's slot of node d and the entry it should hold, less the card.

    The memory is a killer move keyed more narrowly than by depth: by the trick so far (its
    leader and the cards played into it, frame d's F_MEMO) and the mover's whole hand, but not
    the other hands.  The card that last settled a node of that key is likely to settle the
    next one (a sibling line one trick up, or the same trick under another threshold); it is
    tried first when the table remembers no best card.  Only the move order depends on it, so
    values never do; entries carry the solve's serial, so node counts do not depend on
    earlier solves on the table either."""
    h = np.uint64(tab[T_FRAMES][d][F_MEMO]) ^ _mix(tab[T_HANDS][mover] + np.uint64(0x2545F4914F6CDD1D))
    slot = h & np.uint64(tab[T_CUTS].shape[0] - 1)
    tag = (h & ~np.uint64((1 << 26) - 1)) | (np.uint64(tab[T_COUNTERS][N_SERIAL]) << np.uint64(6))
    return slot, tag


@nb.njit(inline="always", cache=True, _nrt=False)
def _enter(tab, d, points):
    """Open the node of frame d: a result from bounds or the table (0/1, with the cards it
    relied on in relevant[d]), or -1 after generating its moves."""
    ctx = tab[T_CTX]
    hands = tab[T_HANDS]
    f = tab[T_FRAMES][d]
    relevant = tab[T_RELEVANT]
    relevant[d] = 0
    tab[T_COUNTERS][N_NODES] += 1
    tlen = f[F_TLEN]
    leader = f[F_LEADER]
    broken = f[F_BROKEN] != 0
    target = f[F_TARGET]
    best = -1
    if tlen == 0 and points:
        r, best = _enter_points(tab, d)
        if r >= 0:
            return r
        mover = leader
    elif tlen == 0:
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
            relevant[d] = _last_trick_relevant(ctx, hands, leader)
            return 1 if _last_trick(ctx, hands, leader) >= target else 0
        if ctx[C_QUICK]:
            maxing = (ctx[C_MAX] >> leader) & 1
            need = (target + ctx[C_CONST] - 1) // ctx[C_CONST] if maxing else \
                (hi - target) // ctx[C_CONST] + 1
            q, rq = _quick_tricks(ctx, hands, leader, broken, need)
            q *= ctx[C_CONST]
            tab[T_COUNTERS][N_QUICK] += 1
            if maxing:
                if q >= target:
                    tab[T_COUNTERS][N_QUICK_CUTS] += 1
                    relevant[d] = rq
                    return 1
            elif hi - q < target:
                tab[T_COUNTERS][N_QUICK_CUTS] += 1
                relevant[d] = rq
                return 0
            need = (target + ctx[C_CONST] - 1) // ctx[C_CONST]
            if _most_trumps(ctx, hands, 1) * ctx[C_CONST] >= target:  # else no cut-off
                q, rq = _sure_trumps(ctx, hands, 1, need)
                if q * ctx[C_CONST] >= target:
                    relevant[d] = rq
                    return 1
            if hi - _most_trumps(ctx, hands, 0) * ctx[C_CONST] < target:
                q, rq = _sure_trumps(ctx, hands, 0, (hi - target) // ctx[C_CONST] + 1)
                if hi - q * ctx[C_CONST] < target:
                    relevant[d] = rq
                    return 0
            if ctx[C_NACTIVE] == 4:
                r = _later_cut(tab, d, leader, target, hi)
                if r >= 0:
                    return r
        elif _nil_seat(ctx) >= 0:
            r, rq = _nil_bounds(ctx, hands, _nil_seat(ctx), leader, target)
            tab[T_COUNTERS][N_QUICK] += 1
            if r >= 0:
                tab[T_COUNTERS][N_QUICK_CUTS] += 1
                relevant[d] = rq
                return r
        _make_key_tricks(ctx, hands, leader, broken, tab[T_KEYBUF][d])
        r, _, rel, best = _probe(tab, d, target)
        tab[T_COUNTERS][N_PROBES] += 1
        if r >= 0:
            tab[T_COUNTERS][N_HITS] += 1
            relevant[d] = rel
            return r
        mover = leader
    else:
        if _nil_seat(ctx) >= 0:
            r, rq = _nil_mid(ctx, hands, tab[T_STACK], d - tlen, tlen, leader, _nil_seat(ctx),
                             target)
            if r >= 0:
                relevant[d] = rq
                return r
        mover = leader
        for _ in range(tlen):
            mover = ctx[C_NEXT + mover]
        if tlen == 1 and ctx[C_QUICK] and ctx[C_NACTIVE] == 4:
            r = _second_hand_cut(tab, d, leader, mover, target)
            if r >= 0:
                return r
    f[F_MOVER] = mover
    f[F_MAX] = (ctx[C_MAX] >> mover) & 1
    f[F_BOUND] = -1 if f[F_MAX] else 1 << 20  # card points: the best bound of the moves tried
    if points and tab[T_CUTS].shape[0] > 1:
        if tlen == 0:
            f[F_MEMO] = np.int64(_mix(np.uint64(leader + 1)))
        slot, tag = _memo_slot(tab, d, mover)
        e = tab[T_CUTS][slot]
        if best < 0 and (e & ~np.uint64(63)) == tag:
            best = np.int64(e & np.uint64(63))
    n, equiv = _gen_moves(ctx, hands, tab[T_STACK], d - tlen, tlen, leader, broken, mover,
                          tab[T_MOVES][d], tab[T_SCORES][d], best, f[F_KILLER], points)
    f[F_N] = n
    for s in range(4):
        f[F_SMALL + s] = 0
    tab[T_EQUIV][d] = equiv
    f[F_I] = 0
    return -1


@nb.njit(cache=True, _nrt=False)
def _with_groups(tab, d, rel):
    """Relevant cards of a node that tried every move, plus what its grouping of equivalent
    cards relied on: a group reaching the relevant top cards of its suit is only one group as
    long as its lowest card is a top card too.  A group wholly below them stays a group in
    every position the entry covers (those low cards never decide a trick)."""
    ctx = tab[T_CTX]
    hands = tab[T_HANDS]
    f = tab[T_FRAMES][d]
    tlen = f[F_TLEN]
    inplay = _union(ctx, hands)
    for i in range(tlen):
        inplay |= _bit(tab[T_STACK][d - tlen + i])
    eq = tab[T_EQUIV][d]
    out = rel
    while eq:
        c = lowest_bit(eq)
        eq &= eq - np.uint64(1)
        rs = rel & _suit_bits(c >> 4)
        if rs and c >= lowest_bit(rs):
            out |= _bit(_representative(ctx, hands, f[F_MOVER], inplay, c))
    return out


@nb.njit(cache=True, _nrt=False)
def _small_limit(ctx, hands, s, rel):
    """After a move of suit s failed at a node: the rank below which every other card of s
    would fail the same way (DDS's "one small card per suit", Moves::MakeNext).  The node's
    results so far relied only on the cards of s at or above its lowest relevant card (in a
    points game, at or above its lowest point card too), so a card below both plays like the
    failed one.  16 when no card of s mattered."""
    rs = (rel >> np.uint64(16 * s)) & SUIT_FIELD
    if ctx[C_HASPTS]:
        m = _union(ctx, hands) & _suit_bits(s)
        while m:
            c = lowest_bit(m)
            m &= m - np.uint64(1)
            if ctx[C_POINTS + c]:
                rs |= _bit(c & 15)
                break
    if rs == 0:
        return 16
    return lowest_bit(rs)


@nb.njit(cache=True, _nrt=False)
def _search(tab, tlen, leader, broken, target, depth, points):
    """Can the max side get at least ``target`` from here (current trick included)?

    The position is tab's hands and the trick stack[depth - tlen:depth].  An explicit stack of
    frames, one per card played, instead of recursion (Numba's cache cannot relink recursive
    functions, and the loop avoids call overhead): each node tries its moves in order and stops
    at the first whose result is the one its side wants.  Each frame also gathers the cards
    its result relied on (relevant[d]), which decide how widely its table entry applies.

    Counting card points, the search is fail-soft: frames[depth][F_BOUND] says more than the
    answer, the value is at least it when the answer is yes, at most it when no.  A node
    settled by a move takes that move's bound; a node whose moves all fail takes the best of
    their bounds for its side (the moves skipped as equivalent or as small cards would give
    the same, see _small_limit), and the table stores those bounds."""
    ctx = tab[T_CTX]
    hands = tab[T_HANDS]
    stack = tab[T_STACK]
    frames = tab[T_FRAMES]
    relevant = tab[T_RELEVANT]
    restrict = ctx[C_RESTRICT]
    nactive = ctx[C_NACTIVE]
    soft = points
    d = depth
    f = frames[d]
    f[F_TLEN] = tlen
    f[F_LEADER] = leader
    f[F_BROKEN] = 1 if broken else 0
    f[F_TARGET] = target
    if points:  # a root in the middle of a trick: the cut-move memory's key of its trick
        m = np.int64(_mix(np.uint64(leader + 1)))
        for k in range(tlen):
            m = _memo_played(m, stack[d - tlen + k], k)
        f[F_MEMO] = m
    r = ENTER  # one call site of _enter, which is inlined (a call passed the whole table)
    while True:
        if r == ENTER:
            r = _enter(tab, d, points)
            if r < 0 and d > depth and ctx[C_BUDGET] > 0 and \
                    tab[T_COUNTERS][N_NODES] > ctx[C_BUDGET]:
                tab[T_COUNTERS][N_ABORTED] = 1
                for j in range(d - 1, depth - 1, -1):  # put the cards played back
                    hands[frames[j][F_MOVER]] ^= _bit(tab[T_MOVES][j][frames[j][F_I]])
                return False
        elif r < 0:  # try the frame's next move, or close it when none is left
            f = frames[d]
            i = f[F_I]
            while i < f[F_N]:  # skip the small cards already covered (see _small_limit)
                c = tab[T_MOVES][d][i]
                if (c & 15) >= f[F_SMALL + (c >> 4)]:
                    break
                i += 1
            f[F_I] = i
            if i == f[F_N]:
                r = 1 - f[F_MAX]
                tab[T_COUNTERS][N_ALL_MOVES + 3 * (f[F_TLEN] > 0)] += 1
                if tab[T_EQUIV][d]:
                    relevant[d] = _with_groups(tab, d, relevant[d])
                if f[F_TLEN] == 0:
                    _store(tab, d, r, f[F_BOUND] + 1 - r if soft else f[F_TARGET], 255,
                           relevant[d])
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
                if points:
                    g[F_MEMO] = _memo_played(f[F_MEMO], c, f[F_TLEN])
            d += 1
            r = ENTER
        else:  # frame d is decided: r; hand it to its parent
            if d == depth:
                return r == 1
            child = relevant[d]
            bound = frames[d][F_BOUND] - frames[d][F_TARGET]  # plus the target of the parent
            d -= 1
            f = frames[d]
            bound += f[F_TARGET]  # (the difference is the points of a trick just won)
            c = tab[T_MOVES][d][f[F_I]]
            if f[F_TLEN] + 1 == nactive:
                child |= _trick_relevant(ctx, stack, d - f[F_TLEN], nactive)
            hands[f[F_MOVER]] ^= _bit(c)
            if r == f[F_MAX]:  # the move settles the node: only its line matters
                tab[T_COUNTERS][N_CUT_FIRST + (f[F_I] > 0) + 3 * (f[F_TLEN] > 0)] += 1
                relevant[d] = child
                f[F_KILLER] = c
                f[F_BOUND] = bound
                if points and tab[T_CUTS].shape[0] > 1:
                    slot, tag = _memo_slot(tab, d, f[F_MOVER])
                    tab[T_CUTS][slot] = tag | np.uint64(c)
                if f[F_TLEN] == 0:
                    _store(tab, d, r, bound + 1 - r if soft else f[F_TARGET],
                           _rel_card(hands, ctx, c), child)
            else:
                relevant[d] |= child
                f[F_BOUND] = max(f[F_BOUND], bound) if f[F_MAX] else min(f[F_BOUND], bound)
                s = c >> 4
                if f[F_SMALL + s] == 0:
                    low = _small_limit(ctx, hands, s, relevant[d])
                    if (c & 15) < low:
                        f[F_SMALL + s] = low
                f[F_I] += 1
                r = -1


@nb.njit(cache=True)
def _exact(tab, tlen, leader, broken, depth, lo, hi, first, points):
    """Exact value of the position (bounds lo..hi known), by boolean searches "at least t?",
    the first at t = ``first`` (or the middle when it is outside lo+1..hi): counting tricks,
    DDS's way, from there one trick at a time; counting card points (``points``, a literal:
    see value_of), by a binary search.

    Counting tricks, a search after a failed one starts a new table generation: the failed
    search's entries (upper bounds) cannot settle the next, lower target where it matters, and
    keeping them cost a factor of 4 on some full deals (13 cards a seat, seed 21's deal 17:
    23.6M nodes against 6.0M; 40 such deals: 1.04M against 0.63M mean; 40 others 558k against
    570k).  After a success the entries stay: they order the next search's moves."""
    t = first if lo < first <= hi else (lo + hi + 1) // 2
    ok = True
    while lo < hi:
        if not points and not ok:  # after a failed search, a new generation (see above)
            tab[T_COUNTERS][N_GEN] += 1
        ok = _search(tab, tlen, leader, broken, t, depth, points)
        tab[T_COUNTERS][N_SEARCHES] += 1
        if tab[T_COUNTERS][N_ABORTED]:
            return -1
        b = tab[T_FRAMES][depth][F_BOUND]  # counting card points, a fail-soft bound beyond t
        if ok:
            lo = max(t, b) if points else t
        else:
            hi = min(t - 1, b) if points else t - 1
        t = (lo + hi + 1) // 2 if points else (t + 1 if ok else t - 1)
    return lo


@nb.njit(inline="always", cache=True)
def _exact_of(tab, tlen, leader, broken, depth, lo, hi, first, points):
    """``_exact`` with every number passed as a run-time int64 (and ``broken`` as a bool):
    Numba compiles a function once per literal argument, so callers passing constants such as
    0, -1 or False would otherwise compile the whole search again for each.  Only ``points``
    stays as the caller gives it (a literal: one search for each objective, see value_of)."""
    return _exact(tab, np.int64(tlen), np.int64(leader), np.bool_(broken), np.int64(depth),
                  np.int64(lo), np.int64(hi), np.int64(first), points)


# The entry points below take ``points`` last: whether cards carry points (the table's context
# says so at run time, ctx[C_HASPTS]).  Pass it as a literal True or False: Numba compiles the
# search loop once per literal (_search, _enter and _gen_moves specialise on it), so a game's
# solver compiles only its own version (Spades and Euchre False, Trump Friend True).  Compiling
# both cost every game solver about 40% more compile time (Spades: 46.5 s CPU against 32.9 s).
# The older names without the flag (value, value_from, move_values, value_between, at_least)
# read the context and so compile both versions: for Python-level and one-off callers only.


@nb.njit(cache=True)
def value_of(tab, tlen, leader, broken, points):
    """Exact value of the position set up in tab (hands in tab[T_HANDS], the trick in
    tab[T_STACK][:tlen], solver ids); ``points`` a literal (see above), true iff the position's
    cards carry points.

    Counting tricks, the first search asks for one trick less than half of them: searches that
    succeed keep their table entries for the next, one higher, and a failed one starts anew
    (see _exact), so starting below the value pays (full Spades deals, 13 tricks: 232k nodes
    mean from 5 against 252k from 7 on 40 deals, 259k against 264k on 40 others; a nil of 9
    cards 34k against 44k)."""
    ctx = tab[T_CTX]
    hi = upper_bound(ctx, tab[T_HANDS], tab[T_STACK], 0, tlen)
    if points:
        first = -1
    elif _nil_seat(ctx) >= 0:
        first = 1  # a nil is worth 0-3 tricks: from "at least 1?" upwards
    else:
        first = hi // 2 - 1
    return _exact_of(tab, tlen, leader, broken, tlen, 0, hi, first, points)


@nb.njit(cache=True)
def value_from_of(tab, tlen, leader, broken, first, points):
    """value_of with the first search at ``first`` (a guess of the game's below the value:
    see value_of; outside 1..the most possible, value_of's start)."""
    ctx = tab[T_CTX]
    hi = upper_bound(ctx, tab[T_HANDS], tab[T_STACK], 0, tlen)
    if points or _nil_seat(ctx) >= 0 or not 0 < first <= hi:
        return value_of(tab, tlen, leader, broken, points)
    return _exact_of(tab, tlen, leader, broken, tlen, 0, hi, first, points)


@nb.njit(cache=True)
def at_least_of(tab, tlen, leader, broken, t, points):
    """One boolean search of the position set up in tab: 1 if the maximising side gets at
    least ``t`` from here with best play (a nil: if the nil seat can be made to take ``t``
    tricks), 0 if not, -1 when the node budget ran out.  Far cheaper than the exact value
    when only a threshold matters: whether a nil holds (``t`` = 1), whether a side wins."""
    ok = _search(tab, np.int64(tlen), np.int64(leader), np.bool_(broken), np.int64(t),
                 np.int64(tlen), points)
    tab[T_COUNTERS][N_SEARCHES] += 1
    if tab[T_COUNTERS][N_ABORTED]:
        return -1
    return 1 if ok else 0


@nb.njit(cache=True)
def value_between_of(tab, tlen, leader, broken, lo, hi, points):
    """Exact value of the position set up in tab when it is known to lie in lo..hi."""
    return _exact_of(tab, tlen, leader, broken, tlen, lo, hi, -1, points)


@nb.njit(inline="always", cache=True)
def _around(v, hi, maxing):
    """(lo, hi, first threshold) for a card's value when the position is worth v and the
    card's value lies in 0..hi: at most v for a maximising mover, at least v otherwise."""
    if maxing:
        top = min(max(v, 0), hi)
        return 0, top, top
    low = min(max(v, 0), hi)
    return low, hi, low + 1


@nb.njit(cache=True)
def move_values_of(tab, tlen, leader, broken, cards_out, values_out, points):
    """Every legal card of the player to move (solver ids) and the exact value after it; the
    number of cards, or -1 when the solve ran out of its node budget (see set_budget).

    The position's value v first: then no card is worth more than v to a maximising mover
    (less to a minimising one), so each card's value is searched from v on, one or two
    boolean searches for most cards, on the table entries v's search left (DDS finds every
    card's score the same way)."""
    ctx = tab[T_CTX]
    hands = tab[T_HANDS]
    stack = tab[T_STACK]
    cache = tab[T_SCRATCH]
    mover = leader
    for _ in range(tlen):
        mover = ctx[C_NEXT + mover]
    root = _exact_of(tab, tlen, leader, broken, tlen, 0, upper_bound(ctx, hands, stack, 0, tlen),
                     1 if _nil_seat(ctx) >= 0 else -1, points)
    if tab[T_COUNTERS][N_ABORTED]:
        return -1
    maxing = (ctx[C_MAX] >> mover) & 1
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
                lo, hi, first = _around(root - v, hi, maxing)
                cache[rep] = v + _exact_of(tab, 0, ws, nbroken, tlen + 1, lo, hi, first, points)
            else:
                hi = upper_bound(ctx, hands, stack, 0, tlen + 1)
                lo, hi, first = _around(root, hi, maxing)
                cache[rep] = _exact_of(tab, tlen + 1, leader, nbroken, tlen + 1, lo, hi, first,
                                       points)
            hands[mover] ^= _bit(rep)
            if tab[T_COUNTERS][N_ABORTED]:
                return -1
        cards_out[k] = c
        values_out[k] = cache[rep]
        k += 1
    return k


# ---------------------------------------------------------------- the same without the flag


@nb.njit(cache=True)
def value(tab, tlen, leader, broken):
    """value_of, the flag read from the context (compiles both searches: see value_of)."""
    if tab[T_CTX][C_HASPTS]:
        return value_of(tab, tlen, leader, broken, True)
    return value_of(tab, tlen, leader, broken, False)


@nb.njit(cache=True)
def value_from(tab, tlen, leader, broken, first):
    """value_from_of, the flag read from the context (compiles both searches)."""
    if tab[T_CTX][C_HASPTS]:
        return value_from_of(tab, tlen, leader, broken, first, True)
    return value_from_of(tab, tlen, leader, broken, first, False)


@nb.njit(cache=True)
def at_least(tab, tlen, leader, broken, t):
    """at_least_of (1, 0, or -1 out of budget), the flag read from the context (compiles
    both searches)."""
    if tab[T_CTX][C_HASPTS]:
        return at_least_of(tab, tlen, leader, broken, t, True)
    return at_least_of(tab, tlen, leader, broken, t, False)


@nb.njit(cache=True)
def value_between(tab, tlen, leader, broken, lo, hi):
    """value_between_of, the flag read from the context (compiles both searches)."""
    if tab[T_CTX][C_HASPTS]:
        return value_between_of(tab, tlen, leader, broken, lo, hi, True)
    return value_between_of(tab, tlen, leader, broken, lo, hi, False)


@nb.njit(cache=True)
def move_values(tab, tlen, leader, broken, cards_out, values_out):
    """move_values_of, the flag read from the context (compiles both searches)."""
    if tab[T_CTX][C_HASPTS]:
        return move_values_of(tab, tlen, leader, broken, cards_out, values_out, True)
    return move_values_of(tab, tlen, leader, broken, cards_out, values_out, False)


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
