"""Worlds consistent with what a seat has seen: the hidden cards dealt uniformly (search policies).

A *holder* is a seat or a pile (a kitty).  The observer knows some cards' places and nothing of
the others (``unseen``); it knows how many hidden cards each holder has (``need[h]``) and which
cards each holder may have (``allowed[h]``: a void rules out a suit, a card known elsewhere is
not unseen).  Every assignment of the unseen cards that gives each holder exactly ``need[h]``
cards of its ``allowed[h]`` is a world, and :func:`draw` picks one with equal probability.

Exactly uniform, not sequential-greedy (dealing seat by seat from each seat's allowed cards is
biased as soon as the masks differ): cards with the same set of possible holders form a *class*
(voids are per suit, so there are few), and a dynamic programme over classes counts the
completions: ``F[k][u]`` = the ways to give classes 0..k-1 to the holders so that holder h gets
``u[h]`` of them, ``u`` a mixed-radix number.  A class of n cards split x[h] per holder counts
``n! / prod x[h]!`` ways.  :func:`draw` walks back from the full count: class K-1's split is
drawn with probability ``F[K-1][u - x] * multinomial(x) / F[K][u]``, then its cards are split
uniformly (a partial Fisher-Yates), and so on down to class 0.  The counts are float64 integers,
exact below 2**53 (always so for Euchre; Spades and Trump Friend worlds at the first trick have
more, where the draw is uniform up to a relative error of 2**-53 per step).  Integer draws use
rejection on 53-bit outputs, which is exactly uniform.

Scratch (:func:`new_scratch`) is allocated once per thread or block; :func:`prepare` once per
decision (the observation is the same for every world), then :func:`draw` per world.

Weighted worlds (a search policy that reads the other seats' bids): :func:`resample` picks W
of K*W uniform draws in proportion to their weights (the likelihood of what was observed), so
a picked world follows the posterior up to the pool's finite size.
"""

import numba as nb
import numpy as np

from simcore.cards import lowest_bit, popcount
from simcore.rng import next_u64

MAX_HOLDERS = 8
MAX_CLASSES = 16
MAX_CARDS = 64
TWO53 = 9007199254740992.0

# scratch tuple slots
_F = 0  # float64[MAX_CLASSES + 1, max_states]
_CLASS_CARDS = 1  # uint64[MAX_CLASSES]: the cards of each class
_CLASS_SET = 2  # int64[MAX_CLASSES]: bitmask of the holders a class's cards may go to
_INFO = 3  # int64[8 + 2 * MAX_HOLDERS]: K, n_holders, n_states, full state; strides, needs
_WORK = 4  # int64[5 * MAX_HOLDERS + MAX_CARDS]: holders, splits, capacities, cards, a saved split
_BINOM = 5  # float64[MAX_CARDS + 1, MAX_CARDS + 1]

I_K = 0
I_HOLDERS = 1
I_STATES = 2
I_FULL = 3
I_STRIDE = 8
I_NEED = 8 + MAX_HOLDERS


@nb.njit(cache=True)
def new_scratch(max_states):
    """Scratch for worlds of at most ``max_states`` capacity states (prod of need[h] + 1)."""
    binom = np.zeros((MAX_CARDS + 1, MAX_CARDS + 1), np.float64)
    for n in range(MAX_CARDS + 1):
        binom[n, 0] = 1.0
        for k in range(1, n + 1):
            binom[n, k] = binom[n - 1, k - 1] + binom[n - 1, k]
    return (np.zeros((MAX_CLASSES + 1, max_states), np.float64),
            np.zeros(MAX_CLASSES, np.uint64), np.zeros(MAX_CLASSES, np.int64),
            np.zeros(8 + 2 * MAX_HOLDERS, np.int64),
            np.zeros(5 * MAX_HOLDERS + MAX_CARDS, np.int64), binom)


@nb.njit(cache=True)
def _classes(unseen, allowed, n_holders, sc):
    """Group the unseen cards by their set of possible holders; K, or -1 if too many."""
    cards, sets = sc[_CLASS_CARDS], sc[_CLASS_SET]
    k_used = 0
    m = np.uint64(unseen)
    while m:
        c = lowest_bit(m)
        b = np.uint64(1) << np.uint64(c)
        m ^= b
        s = 0
        for h in range(n_holders):
            if allowed[h] & b:
                s |= 1 << h
        k = 0
        while k < k_used and sets[k] != s:
            k += 1
        if k == k_used:
            if k_used == MAX_CLASSES:
                return -1
            sets[k] = s
            cards[k] = 0
            k_used += 1
        cards[k] |= b
    return k_used


@nb.njit(cache=True)
def _first_split(n, hs, m, cap, x):
    """The first split of n cards over holders hs[:m] with x[j] <= cap[j] (the last holder
    takes the rest), in the order :func:`_next_split` continues; False if there is none."""
    rest = n
    for j in range(m - 1):
        x[j] = 0
    x[m - 1] = rest
    if x[m - 1] <= cap[m - 1]:
        return True
    return _next_split(n, hs, m, cap, x)


@nb.njit(cache=True)
def _next_split(n, hs, m, cap, x):
    """Advance x (an odometer over x[:m-1], x[m-1] = the rest) to the next valid split.  The
    odometer's states whose x[:m-1] leave the last holder more than its capacity are stepped
    over at once (x[0] raised to the first state that fits, or to its capacity to carry)."""
    least = n - cap[m - 1]  # the fewest cards x[:m-1] may take
    while True:
        j = 0
        while j < m - 1:
            x[j] += 1
            used = 0
            for i in range(m - 1):
                used += x[i]
            if x[j] <= cap[j] and used <= n:
                break
            x[j] = 0
            j += 1
        if j == m - 1:
            return False
        used = 0
        for i in range(m - 1):
            used += x[i]
        if used < least:
            if x[0] + least - used > cap[0]:
                x[0] = cap[0]  # no x[0] fits with this x[1:]: the next step carries
                continue
            x[0] += least - used
            used = least
        x[m - 1] = n - used
        if x[m - 1] <= cap[m - 1]:
            return True


@nb.njit(cache=True)
def _holders_of(s, hs):
    m = 0
    for h in range(MAX_HOLDERS):
        if (s >> h) & 1:
            hs[m] = h
            m += 1
    return m


@nb.njit(cache=True)
def prepare(unseen, need, allowed, n_holders, sc):
    """Count the worlds of an observation into ``sc``: the number of worlds (0.0: none is
    consistent), or -1.0 if the observation does not fit the scratch."""
    info = sc[_INFO]
    if n_holders > MAX_HOLDERS or popcount(np.uint64(unseen)) > MAX_CARDS:
        return -1.0
    total_need = 0
    states = 1
    for h in range(n_holders):
        info[I_STRIDE + h] = states
        info[I_NEED + h] = need[h]
        states *= need[h] + 1
        total_need += need[h]
    F = sc[_F]
    if states > F.shape[1]:
        return -1.0
    K = _classes(unseen, allowed, n_holders, sc)
    if K < 0:
        return -1.0
    info[I_K] = K
    info[I_HOLDERS] = n_holders
    info[I_STATES] = states
    full = 0
    for h in range(n_holders):
        full += need[h] * info[I_STRIDE + h]
    info[I_FULL] = full
    if total_need != popcount(np.uint64(unseen)):
        return 0.0
    work = sc[_WORK]
    hs = work[0:MAX_HOLDERS]
    x = work[MAX_HOLDERS:2 * MAX_HOLDERS]
    cap = work[2 * MAX_HOLDERS:3 * MAX_HOLDERS]
    F[0, :states] = 0.0
    F[0, 0] = 1.0
    for k in range(K):
        F[k + 1, :states] = 0.0
        n = popcount(sc[_CLASS_CARDS][k])
        m = _holders_of(sc[_CLASS_SET][k], hs)
        if m == 0:
            return 0.0  # a card nobody may hold
        for u in range(states):
            if F[k, u] == 0.0:
                continue
            for j in range(m):
                h = hs[j]
                cap[j] = need[h] - (u // info[I_STRIDE + h]) % (need[h] + 1)
            ok = _first_split(n, hs, m, cap, x)
            while ok:
                F[k + 1, u - _minus(0, x, hs, m, info)] += F[k, u] * _ways(n, x, m, sc[_BINOM])
                ok = _next_split(n, hs, m, cap, x)
    return F[K, full]


@nb.njit(inline="always", cache=True)
def _mod(r, n):
    """``r % n`` for 0 <= r <= 2**53 and 1 <= n <= 2**53 (int64), without an integer division
    (a 64-bit divide costs tens of cycles and a world takes one or two per card): the float
    quotient is within 1 of the true one, and the remainder is put right."""
    q = np.int64(np.float64(r) / np.float64(n))
    rem = r - q * n
    if rem < 0:
        rem += n
    elif rem >= n:
        rem -= n
    return rem


@nb.njit(cache=True)
def draw_below(st, n):
    """A uniform integer in [0, n) for 1 <= n <= 2**53: rejection on 53-bit draws (exact)."""
    n = np.int64(n)
    while True:
        r = np.int64(next_u64(st) >> np.uint64(11))
        # r is rejected only at or past limit = 2**53 - 2**53 % n > 2**53 - n: computed there only
        if r <= np.int64(2**53) - n or r < np.int64(2**53) - _mod(np.int64(2**53), n):
            return np.uint64(_mod(r, n))


@nb.njit(cache=True)
def _below_count(st, total):
    """A uniform whole number below the count ``total`` (a float64 integer)."""
    if total <= TWO53:
        return np.float64(draw_below(st, np.uint64(total)))
    u = np.float64(next_u64(st) >> np.uint64(11)) / TWO53
    return np.floor(u * total)


@nb.njit(cache=True)
def _split_cards(st, cards, hs, m, x, work, out):
    """Give x[j] of ``cards`` to holder hs[j], every split equally likely (partial shuffle)."""
    pool = work[3 * MAX_HOLDERS:3 * MAX_HOLDERS + MAX_CARDS]
    n = 0
    c = np.uint64(cards)
    while c:
        pool[n] = lowest_bit(c)
        c &= c - np.uint64(1)
        n += 1
    i = 0
    for j in range(m):
        for _ in range(x[j]):
            r = i + np.int64(draw_below(st, np.uint64(n - i)))
            t = pool[i]
            pool[i] = pool[r]
            pool[r] = t
            out[hs[j]] |= np.uint64(1) << np.uint64(pool[i])
            i += 1


@nb.njit(cache=True)
def draw(st, sc, out):
    """One world of the observation :func:`prepare` counted (which must be > 0): out[h] =
    the unseen cards of holder h (out is overwritten).  Draws from the stream ``st``."""
    info = sc[_INFO]
    F = sc[_F]
    work = sc[_WORK]
    hs = work[0:MAX_HOLDERS]
    x = work[MAX_HOLDERS:2 * MAX_HOLDERS]
    cap = work[2 * MAX_HOLDERS:3 * MAX_HOLDERS]
    for h in range(info[I_HOLDERS]):
        out[h] = 0
    u = info[I_FULL]
    for k in range(info[I_K] - 1, -1, -1):
        n = popcount(sc[_CLASS_CARDS][k])
        m = _holders_of(sc[_CLASS_SET][k], hs)
        for j in range(m):
            h = hs[j]
            cap[j] = (u // info[I_STRIDE + h]) % (info[I_NEED + h] + 1)
        r = _below_count(st, F[k + 1, u])
        if k == 0:
            # the last class fills every holder's room: one split has ways, the odometer would
            # walk to it through every other (thousands of states for a Trump Friend world);
            # r is drawn all the same, so the stream and every later world stay as they were
            x[:m] = cap[:m]
        else:
            saved = work[3 * MAX_HOLDERS + MAX_CARDS:4 * MAX_HOLDERS + MAX_CARDS]
            ok = _first_split(n, hs, m, cap, x)
            while ok:
                w = F[k, _minus(u, x, hs, m, info)] * _ways(n, x, m, sc[_BINOM])
                if w > 0.0:
                    saved[:m] = x[:m]
                if r < w:
                    break
                r -= w
                ok = _next_split(n, hs, m, cap, x)
            if not ok:  # only past 2**53, where r can round up to the count: the last split
                x[:m] = saved[:m]
        _split_cards(st, sc[_CLASS_CARDS][k], hs, m, x, work, out)
        u = _minus(u, x, hs, m, info)


@nb.njit(cache=True)
def _minus(u, x, hs, m, info):
    for j in range(m):
        u -= x[j] * info[I_STRIDE + hs[j]]
    return u


@nb.njit(cache=True)
def _ways(n, x, m, binom):
    """n! / prod x[j]!: the ways to split n distinct cards x[0], x[1], ... per holder."""
    ways = 1.0
    for j in range(m):
        ways *= binom[n, x[j]]
        n -= x[j]
    return ways


@nb.njit(cache=True)
def draw_worlds(st, sc, masks, n, width):
    """``n`` worlds of the observation :func:`prepare` counted, as rows of ``width`` holders'
    cards: each holder's known cards ``masks[1]`` and its draw (``masks[2]`` is the scratch)."""
    pool = np.empty((n, width), np.uint64)
    for i in range(n):
        draw(st, sc, masks[2])
        for h in range(width):
            pool[i, h] = masks[1, h] | masks[2, h]
    return pool


@nb.njit(cache=True)
def uniform01(st):
    """A uniform float in [0, 1) with 53 random bits."""
    return np.float64(next_u64(st) >> np.uint64(11)) / TWO53


@nb.njit(cache=True)
def resampled_rows(st, pool, weights, m):
    """``m`` rows of ``pool`` (candidate worlds) picked by :func:`resample` with ``weights``:
    sampling-importance-resampling, the candidates drawn uniformly and weighted by how likely
    each makes what was observed."""
    picks = np.empty(m, np.int64)
    resample(st, weights, pool.shape[0], picks)
    out = np.zeros((m, pool.shape[1]), pool.dtype)
    for j in range(m):
        out[j] = pool[picks[j]]
    return out


@nb.njit(cache=True)
def resample(st, weights, n, picks):
    """Systematic resampling: fill ``picks`` (m entries) with indices into ``weights[:n]``,
    index i taken floor or ceil of ``m * weights[i] / sum`` times (in order), so a pick is
    index i with probability ``weights[i] / sum``; one uniform draw from ``st``.  Weights
    must be >= 0; if all are 0 every index is equally likely."""
    m = picks.shape[0]
    if m == 0 or n == 0:
        return
    total = 0.0
    for i in range(n):
        total += weights[i]
    uniform = total <= 0.0
    if uniform:
        total = np.float64(n)
    step = total / m
    u = uniform01(st) * step
    acc = 0.0
    i = 0
    for j in range(m):
        target = u + j * step
        while i < n - 1 and acc + (1.0 if uniform else weights[i]) <= target:
            acc += 1.0 if uniform else weights[i]
            i += 1
        k = i
        while not uniform and weights[k] <= 0.0 and k > 0:  # rounding past the last weight
            k -= 1
        picks[j] = k
