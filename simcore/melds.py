"""Shared rummy kernels: sets, runs, deadwood, arrangements and lay-offs (Gin, Dummy).

The kernels work in a **sequence order**: card ``13 * suit + pos`` where ``pos`` is the card's
place in its suit's run order (``pos + 1`` follows ``pos``; runs never wrap).  A game converts
public hands once with :func:`to_sequence` (``ace_low=True``: A 2 3 ... K, Gin GR-3;
``ace_low=False``: 2 3 ... K A, the public order itself) and back with :func:`from_sequence`.

Card values are given as four **value planes** (a UniTuple of uint64 masks over sequence ids):
a card's value is ``sum(2**k for k where plane k holds the card)``, so the value of any set of
cards is four popcounts.  :data:`GIN_PLANES` are Gin's values (GR-2: A = 1, 2-10 face, J/Q/K 10).

Melds (GR-3): a set is 3 or 4 cards of one rank, a run 3+ consecutive cards of one suit.
The minimum deadwood search first drops cards that cannot be in any meld, then branches on
the lowest remaining card: deadwood, the runs that start at it, or the sets that contain it.
The hot kernels (``min_deadwood_seq``, ``best_discard_seq`` and their Gin wrappers) take only
scalars or are inlined, so engines call them per turn freely; the search keeps its stack in its
own frame.  ``optimal_arrangements``, ``lay_off`` and ``knock_result`` allocate and are meant
for once per hand (a knock).
"""

import numba as nb
import numpy as np
from llvmlite import ir
from numba.core import cgutils, types
from numba.extending import intrinsic

from simcore.cards import bit, highest_bit, lowest_bit, popcount

_ONE = np.uint64(1)
_SUIT = np.uint64(0x1FFF)
_POS0 = np.uint64(1 | 1 << 13 | 1 << 26 | 1 << 39)  # pos 0 of every suit
_POS12 = _POS0 << np.uint64(12)
_ALL = np.uint64((1 << 52) - 1)
MAX_MELDS = 4  # a 10- or 11-card hand holds at most 3 melds; 4 leaves room for 12 cards


def _planes(values_by_pos):
    """Value planes from a 13-entry list of card values by sequence position (same per suit)."""
    planes = [0, 0, 0, 0]
    for pos, v in enumerate(values_by_pos):
        for k in range(4):
            if v >> k & 1:
                for s in range(4):
                    planes[k] |= 1 << (13 * s + pos)
    return tuple(np.uint64(p) for p in planes)


GIN_VALUES = [min(pos + 1, 10) for pos in range(13)]  # GR-2 in ace-low order
GIN_PLANES = _planes(GIN_VALUES)


# ---------------------------------------------------------------- order conversion


@nb.njit(inline="always", cache=True)
def _rotate_suits(hand, ace_low, left):
    """With ``ace_low``, each suit's 13 ranks rotated ``left`` places (1: the ace from the top
    to pos 0; 12: back); else the hand as it is."""
    h = np.uint64(hand)
    if not ace_low:
        return h
    out = np.uint64(0)
    up, down = np.uint64(left), np.uint64(13 - left)
    for s in range(4):
        m = (h >> np.uint64(13 * s)) & _SUIT
        out |= (((m << up) | (m >> down)) & _SUIT) << np.uint64(13 * s)
    return out


@nb.njit(inline="always", cache=True)
def to_sequence(hand, ace_low):
    """Public hand -> sequence order.  ace_low moves each suit's ace (public rank 12) to pos 0."""
    return _rotate_suits(hand, ace_low, 1)


@nb.njit(inline="always", cache=True)
def from_sequence(hand, ace_low):
    """Sequence order -> public hand (the inverse of :func:`to_sequence`)."""
    return _rotate_suits(hand, ace_low, 12)


# ---------------------------------------------------------------- values and meld shapes


@nb.njit(inline="always", cache=True)
def mask_value(m, planes):
    m = np.uint64(m)
    return (popcount(m & planes[0]) + 2 * popcount(m & planes[1])
            + 4 * popcount(m & planes[2]) + 8 * popcount(m & planes[3]))


@nb.njit(inline="always", cache=True)
def _up(x):
    """Bit c set where card c - 1 of the same suit is in x."""
    return (x << _ONE) & ~_POS0 & _ALL


@nb.njit(inline="always", cache=True)
def _down(x):
    """Bit c set where card c + 1 of the same suit is in x."""
    return (x >> _ONE) & ~_POS12


@nb.njit(inline="always", cache=True)
def run_cards(h):
    """Cards of h that lie in some run of 3+ within h."""
    h = np.uint64(h)
    start = h & _down(h) & _down(_down(h))
    return start | _up(start) | _up(_up(start))


@nb.njit(inline="always", cache=True)
def _suits(h):
    """The 13-bit position masks of h's four suits."""
    h = np.uint64(h)
    return (h & _SUIT, (h >> np.uint64(13)) & _SUIT, (h >> np.uint64(26)) & _SUIT,
            (h >> np.uint64(39)) & _SUIT)


@nb.njit(inline="always", cache=True)
def set_ranks(h):
    """13-bit mask of the positions held in 3 or more suits."""
    a, b, c, d = _suits(h)
    return (a & b & (c | d)) | (c & d & (a | b))


@nb.njit(inline="always", cache=True)
def spread_ranks(r):
    """A 13-bit position mask repeated in all four suits."""
    r = np.uint64(r)
    return r | r << np.uint64(13) | r << np.uint64(26) | r << np.uint64(39)


@nb.njit(inline="always", cache=True)
def meldable(h):
    """Cards of h that belong to at least one meld formed within h."""
    h = np.uint64(h)
    return run_cards(h) | (h & spread_ranks(set_ranks(h)))


@nb.njit(inline="always", cache=True)
def rank_positions(h):
    """13-bit mask of the positions h holds in any suit."""
    h = np.uint64(h)
    return (h | h >> np.uint64(13) | h >> np.uint64(26) | h >> np.uint64(39)) & _SUIT


@nb.njit(inline="always", cache=True)
def run_completions(h):
    """Cards outside h that lie in a run of 3 with two cards of h (next to two in a row, or
    between two): for such a card b, ``meldable(h | b) & b`` by a run."""
    h = np.uint64(h)
    up, down = _up(h), _down(h)
    return ((up & _up(up)) | (up & down) | (down & _down(down))) & ~h


@nb.njit(inline="always", cache=True)
def set_completions(h):
    """Cards outside h of a position h holds in two suits or more (a card that makes a set)."""
    a, b, c, d = _suits(h)
    return spread_ranks((a & (b | c | d)) | (b & (c | d)) | (c & d)) & ~np.uint64(h)


# ---------------------------------------------------------------- minimum deadwood

STACK_SIZE = 512  # a search stack; depth <= cards, at most 1 + 12 + 4 children per level
_ACC_SHIFT = np.uint64(52)


@intrinsic
def _stack_words(typingctx):
    """A pointer to STACK_SIZE uint64 words on the calling function's stack frame (no heap,
    no refcount); valid until that function returns, so use it only in non-inlined code."""
    sig = types.CPointer(types.uint64)()

    def codegen(context, builder, signature, args):
        return cgutils.alloca_once(builder, ir.IntType(64),
                                   size=ir.Constant(ir.IntType(64), STACK_SIZE))

    return sig, codegen


@nb.njit(inline="always", cache=True)
def _push(stack, top, rem, acc):
    stack[top] = np.uint64(rem) | (np.uint64(acc) << _ACC_SHIFT)
    return top + 1


@nb.njit(cache=True)
def best_melded(cards, planes):
    """Largest total value of disjoint melds inside ``cards`` (sequence order).

    Depth-first over states (cards left undecided, value melded so far), packed in one uint64
    each on ``stack``; a state branches on its lowest card c: c is deadwood, or c starts a run
    (c is the lowest card left, so any run through it starts there), or c is in a set with
    2 or 3 of the same position's cards left.  Branches that cannot beat the best are cut.
    """
    best = np.int64(0)
    start = meldable(np.uint64(cards))
    if start == 0:
        return best
    # Not inlined (one copy compiles fast), so it takes only scalars and keeps its search
    # stack in its own frame: no allocation, no refcounts.
    stack = nb.carray(_stack_words(), STACK_SIZE)
    top = _push(stack, 0, start, 0)
    while top > 0:
        top -= 1
        state = stack[top]
        rem = state & _ALL
        acc = np.int64(state >> _ACC_SHIFT)
        if rem == 0 or acc + mask_value(rem, planes) <= best:
            if acc > best:
                best = acc
            continue
        c = lowest_bit(rem)
        cb = bit(c)
        rest = rem & ~cb
        top = _push(stack, top, rest & meldable(rest), acc)  # c is deadwood
        run = cb
        nxt = cb << _ONE
        length = 1
        while (nxt & rem) and (c % 13) + length < 13:
            run |= nxt
            length += 1
            if length >= 3:
                left = rem & ~run
                top = _push(stack, top, left & meldable(left), acc + mask_value(run, planes))
            nxt = nxt << _ONE
        others = rem & spread_ranks(_ONE << np.uint64(c % 13)) & ~cb
        n = popcount(others)
        if n >= 2:
            if n == 3:  # three 3-card sets (leave one other out) and the 4-card set
                o = others
                while o:
                    drop = o & (~o + _ONE)
                    o &= o - _ONE
                    meld = cb | (others & ~drop)
                    left = rem & ~meld
                    top = _push(stack, top, left & meldable(left), acc + mask_value(meld, planes))
            meld = cb | others
            left = rem & ~meld
            top = _push(stack, top, left & meldable(left), acc + mask_value(meld, planes))
    return best


@nb.njit(inline="always", cache=True)
def min_deadwood_seq(hand, planes):
    """GR-4: the smallest deadwood of a hand (sequence order), over every meld arrangement."""
    h = np.uint64(hand)
    return mask_value(h, planes) - best_melded(h, planes)


@nb.njit(inline="always", cache=True)
def gin_deadwood(hand):
    """Minimum deadwood of a public-order Gin hand (GR-2, GR-3 ace low, GR-4)."""
    return min_deadwood_seq(to_sequence(hand, True), GIN_PLANES)


@nb.njit(inline="always", cache=True)
def gin_loose(hand):
    """The cards of a public-order Gin hand that meld with nothing in it: deadwood in every
    arrangement, so dropping one lowers the hand's deadwood by exactly its value."""
    h = np.uint64(hand)
    return from_sequence(~meldable(to_sequence(h, True)) & _ALL, True) & h


# ---------------------------------------------------------------- best discard


@nb.njit(inline="always", cache=True)
def best_discard_seq(hand, keep, planes):
    """The discard from an 11-card hand (sequence order) leaving the least deadwood.

    ``keep`` holds cards that may not be discarded (GR-8: the card just taken).  Of cards
    that meld with nothing, only the highest-valued one needs trying.  Ties go to the higher
    card value, then the higher card id.  Returns (card, deadwood after discarding).
    """
    h = np.uint64(hand)
    allowed = h & ~np.uint64(keep)
    m = meldable(h)
    best_card = -1
    best_dw = np.int64(1 << 30)
    best_val = -1
    loose = allowed & ~m
    cand = allowed & m
    if loose:
        top = -1
        top_val = -1
        o = loose
        while o:
            c = lowest_bit(o)
            o &= o - _ONE
            v = mask_value(bit(c), planes)
            if v >= top_val:
                top_val = v
                top = c
        cand |= bit(top)
    o = cand
    while o:
        c = lowest_bit(o)
        o &= o - _ONE
        dw = min_deadwood_seq(h & ~bit(c), planes)
        v = mask_value(bit(c), planes)
        if dw < best_dw or (dw == best_dw and v >= best_val):
            best_dw = dw
            best_card = c
            best_val = v
    return best_card, best_dw


@nb.njit(inline="always", cache=True)
def gin_best_discard(hand, keep, knock_limit):
    """Public-order Gin hand of 11 cards -> (card, deadwood, can_knock, can_gin)."""
    c, dw = best_discard_seq(to_sequence(hand, True), to_sequence(keep, True), GIN_PLANES)
    pub = -1
    if c >= 0:
        pub = lowest_bit(from_sequence(bit(c), True))
    return pub, dw, dw <= knock_limit, dw == 0


# ---------------------------------------------------------------- arrangements

MAX_CANDIDATES = 96


@nb.njit(inline="always", cache=True)
def all_melds(cards, out):
    """Every set and run inside ``cards`` (sequence order) into ``out``; returns the count."""
    h = np.uint64(cards)
    n = 0
    m = meldable(h)
    o = m
    while o:
        c = lowest_bit(o)
        o &= o - _ONE
        run = bit(c)
        nxt = run << _ONE
        length = 1
        while (nxt & h) and (c % 13) + length < 13:
            run |= nxt
            length += 1
            if length >= 3 and n < out.shape[0]:
                out[n] = run
                n += 1
            nxt = nxt << _ONE
    ranks = set_ranks(h)
    while ranks:
        p = lowest_bit(ranks)
        ranks &= ranks - np.uint64(1)
        same = h & spread_ranks(_ONE << np.uint64(p))
        if popcount(same) == 4:
            o = same
            while o:
                drop = o & (~o + _ONE)
                o &= o - _ONE
                if n < out.shape[0]:
                    out[n] = same & ~drop
                    n += 1
        if n < out.shape[0]:
            out[n] = same
            n += 1
    return n


@nb.njit(cache=True)
def optimal_arrangements(hand, planes, out):
    """Every minimum-deadwood arrangement of a hand (sequence order): row i of ``out`` gets the
    melds of arrangement i (0 padded, at most 4 melds).  Returns (count, min deadwood); only
    the first ``out.shape[0]`` are written.  Not for hot loops (it allocates)."""
    h = np.uint64(hand)
    need = best_melded(h, planes)
    cand = np.empty(MAX_CANDIDATES, np.uint64)
    nc = all_melds(h, cand)
    vals = np.empty(nc, np.int64)
    for i in range(nc):
        vals[i] = mask_value(cand[i], planes)
    n = 0
    if need == 0:
        for k in range(out.shape[1]):
            out[0, k] = 0
        return 1, mask_value(h, planes)
    # melds in increasing index order, up to four (10 or 11 cards hold at most 3)
    for a in range(nc):
        if vals[a] > need:
            continue
        if vals[a] == need:
            n = _emit(out, n, cand[a], _ZERO, _ZERO, _ZERO)
            continue
        for b in range(a + 1, nc):
            if cand[b] & cand[a] or vals[a] + vals[b] > need:
                continue
            ab = vals[a] + vals[b]
            if ab == need:
                n = _emit(out, n, cand[a], cand[b], _ZERO, _ZERO)
                continue
            for c in range(b + 1, nc):
                if cand[c] & (cand[a] | cand[b]) or ab + vals[c] > need:
                    continue
                abc = ab + vals[c]
                if abc == need:
                    n = _emit(out, n, cand[a], cand[b], cand[c], _ZERO)
                    continue
                for d in range(c + 1, nc):
                    if cand[d] & (cand[a] | cand[b] | cand[c]) == 0 and abc + vals[d] == need:
                        n = _emit(out, n, cand[a], cand[b], cand[c], cand[d])
    return n, mask_value(h, planes) - need


_ZERO = np.uint64(0)


@nb.njit(inline="always", cache=True)
def _emit(out, n, a, b, c, d):
    if n < out.shape[0]:
        out[n, 0] = a
        out[n, 1] = b
        out[n, 2] = c
        out[n, 3] = d
    return n + 1



# ---------------------------------------------------------------- lay-offs


@nb.njit(cache=True)
def lay_off(defender, melds, n_melds, planes):
    """GR-11: the defender's best melds-plus-lay-offs against the knocker's ``melds[:n_melds]``.

    Runs take cards at either end, card by card (so a laid-off card can carry the next one);
    a 3-card set takes its fourth card.  Every combination of extensions is tried, the
    defender's remaining cards arranged optimally.  Returns (deadwood, laid-off cards).
    """
    d = np.uint64(defender)
    lo_opts = np.zeros((MAX_MELDS, 64), np.uint64)  # option j of target t: the cards laid off
    n_opts = np.ones(MAX_MELDS, np.int64)
    for t in range(n_melds):
        meld = melds[t]
        lo_opts[t, 0] = 0
        low = lowest_bit(meld)
        suit_bits = _SUIT << np.uint64(13 * (low // 13))
        if (meld & suit_bits) == meld:
            below = np.uint64(0)
            c = low - 1
            while c >= 13 * (low // 13) and (d & bit(c)):
                below |= bit(c)
                c -= 1
            hi = low
            while meld & bit(hi + 1) and (hi + 1) % 13 != 0:
                hi += 1
            above = np.uint64(0)
            c = hi + 1
            while c % 13 != 0 and (d & bit(c)):
                above |= bit(c)
                c += 1
            k = 0
            b_part = np.uint64(0)
            b_left = below
            while True:
                a_part = np.uint64(0)
                a_left = above
                while True:
                    lo_opts[t, k] = b_part | a_part
                    k += 1
                    if a_left == 0:
                        break
                    nxt = a_left & (~a_left + _ONE)  # the lowest card above comes first
                    a_part |= nxt
                    a_left &= ~nxt
                if b_left == 0:
                    break
                top = bit(highest_bit(b_left))
                b_part |= top
                b_left &= ~top
            n_opts[t] = k
        else:
            missing = spread_ranks(np.uint64(1) << np.uint64(low % 13)) & ~meld
            if popcount(meld) == 3 and (d & missing):
                lo_opts[t, 1] = d & missing
                n_opts[t] = 2
    best = np.int64(1 << 30)
    best_off = np.uint64(0)
    idx = np.zeros(MAX_MELDS, np.int64)
    while True:
        off = np.uint64(0)
        ok = True
        for t in range(n_melds):
            part = lo_opts[t, idx[t]]
            if off & part:
                ok = False
            off |= part
        if ok:
            dw = min_deadwood_seq(d & ~off, planes)
            if dw < best or (dw == best and popcount(off) < popcount(best_off)):
                best = dw
                best_off = off
        t = 0
        while t < n_melds:
            idx[t] += 1
            if idx[t] < n_opts[t]:
                break
            idx[t] = 0
            t += 1
        if t >= n_melds:
            break
    return best, best_off


@nb.njit(cache=True)
def knock_result(knocker, defender, planes, scratch):
    """GR-9 ... GR-11 for hands in sequence order: the knocker's arrangement (minimal deadwood;
    among equals the one leaving the defender the highest deadwood) and the defender's reply.

    ``scratch`` is a (rows, MAX_MELDS) uint64 array for arrangements.  Returns
    (knocker deadwood, defender deadwood, laid-off cards, arrangement row in ``scratch``).
    With knocker deadwood 0 (gin, GR-15) there are no lay-offs.
    """
    n, kdw = optimal_arrangements(knocker, planes, scratch)
    n = min(n, scratch.shape[0])
    if kdw == 0:
        return kdw, min_deadwood_seq(defender, planes), np.uint64(0), 0
    best_row = 0
    best_dw = np.int64(-1)
    best_off = np.uint64(0)
    for i in range(n):
        k = 0
        while k < scratch.shape[1] and scratch[i, k] != 0:
            k += 1
        dw, off = lay_off(defender, scratch[i], k, planes)
        if dw > best_dw:
            best_dw = dw
            best_off = off
            best_row = i
    return kdw, best_dw, best_off, best_row


# ---------------------------------------------------------------- Python-facing Gin helpers


@nb.njit(cache=True)
def gin_deadwoods(hands):
    """Minimum deadwood of each public-order hand of an array (GR-4)."""
    out = np.empty(hands.shape[0], np.int64)
    for i in range(hands.shape[0]):
        out[i] = gin_deadwood(hands[i])
    return out


@nb.njit(cache=True)
def gin_best_discards(hands, keeps):
    """(card, deadwood after it) per 11-card public-order hand; ``keeps`` are undiscardable."""
    cards = np.empty(hands.shape[0], np.int64)
    dws = np.empty(hands.shape[0], np.int64)
    for i in range(hands.shape[0]):
        c, dw, _, _ = gin_best_discard(hands[i], keeps[i], 10)
        cards[i] = c
        dws[i] = dw
    return cards, dws


def _public(mask) -> int:
    return int(from_sequence(np.uint64(mask), True))


def _seq(mask) -> int:
    return int(to_sequence(np.uint64(mask), True))


def gin_arrangements(hand: int, limit: int = 256):
    """(min deadwood, every optimal arrangement as a list of public meld masks)."""
    out = np.zeros((limit, MAX_MELDS), np.uint64)
    n, dw = optimal_arrangements(np.uint64(_seq(hand)), GIN_PLANES, out)
    rows = [[_public(m) for m in out[i] if m] for i in range(min(n, limit))]
    return int(dw), rows


def gin_lay_off(defender: int, knocker_melds) -> tuple[int, int]:
    """GR-11: the defender's (deadwood, laid-off cards) against public knocker melds."""
    melds = np.zeros(MAX_MELDS, np.uint64)
    for i, m in enumerate(knocker_melds):
        melds[i] = _seq(m)
    dw, off = lay_off(np.uint64(_seq(defender)), melds, len(knocker_melds), GIN_PLANES)
    return int(dw), _public(off)


def gin_knock(knocker: int, defender: int):
    """GR-9 ... GR-11 for public 10-card hands: (knocker deadwood, defender deadwood after
    lay-offs, laid-off cards, the knocker's chosen melds)."""
    scratch = np.zeros((256, MAX_MELDS), np.uint64)
    kdw, ddw, off, row = knock_result(np.uint64(_seq(knocker)), np.uint64(_seq(defender)),
                                      GIN_PLANES, scratch)
    melds = [_public(m) for m in scratch[row] if m]
    return int(kdw), int(ddw), _public(off), melds


# ---------------------------------------------------------------- exact cover (Dummy)


@nb.njit(cache=True)
def can_partition(cards):
    """True if every card of ``cards`` (sequence order) can be placed in disjoint melds (sets
    of 3-4, runs of 3+), with nothing left over; True for no cards.  Dummy asks this for a
    knock (lay down all cards but one) and for a dark knock.

    Depth-first on the lowest card, which must start a run or sit in a set; each step removes
    at least three cards, so the stack (at most 15 children a level) never passes 17 * 15
    states.  Takes a scalar and keeps its stack in its own frame: no allocation.
    """
    h = np.uint64(cards) & _ALL
    if h == 0:
        return True
    if meldable(h) != h:
        return False
    stack = nb.carray(_stack_words(), STACK_SIZE)
    stack[0] = h
    top = 1
    while top > 0:
        top -= 1
        rem = stack[top]
        if rem == 0:
            return True
        if meldable(rem) != rem:
            continue
        c = lowest_bit(rem)
        cb = bit(c)
        run = cb
        nxt = cb << _ONE
        length = 1
        while (nxt & rem) and (c % 13) + length < 13:
            run |= nxt
            length += 1
            if length >= 3:
                stack[top] = rem & ~run
                top += 1
            nxt = nxt << _ONE
        others = rem & spread_ranks(_ONE << np.uint64(c % 13)) & ~cb
        n = popcount(others)
        if n >= 2:
            if n == 3:
                o = others
                while o:
                    drop = o & (~o + _ONE)
                    o &= o - _ONE
                    stack[top] = rem & ~(cb | (others & ~drop))
                    top += 1
            stack[top] = rem & ~(cb | others)
            top += 1
    return False
