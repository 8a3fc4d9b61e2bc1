"""Experiment (session 18, issue 15): what the simple bot's whole history is worth, read
exactly, against the Numba copy of OpenSpiel's simple gin bot (docs/games/gin_rummy.md,
*Session 18*).  Not part of simcore; run with drive.py beside it.

The reading is a resample-move particle filter over the bot's initial hand and its stock
draws.  The target is uniform over the histories that replay the bot's rules
(``match_gin_openspiel.simple_bot_play``) into every observed event: each offer it took or
declined, each discard and the knock it did not make, and each card the expert drew from the
stock (which the bot cannot hold).  A stock turn extends each particle by a card drawn
uniformly from those that reproduce the observed discard, weighted by their number; after
each bot turn the particles are resampled (systematic) and each gets MOVES Metropolis moves
(one initial card or one stock draw swapped for another card, kept if the whole history
replays).  If every particle dies the filter restarts and that decision falls back to the
expert.  The events are recorded by this script's dispatcher from what the expert's seat
sees; the engine's view does not keep the order of events.

Rows share deals (match_gin_openspiel's duplicate kernel).  The opponent is the copy of the
simple bot, or simcore's heuristic (drive.py's OPP=heuristic; the filter still models the
simple bot).  Seat policy ids:
  3  the expert as in simcore (expert_play)
  30 the expert whose per-card danger is replaced by cost x (the particles' share of bot takes
     + kw x the share of takes that let it knock at once)
  31 the same with the bot's true hand (an oracle, not a fair policy)
  32 pimc: the expert's best K discards by its score (the particles' danger), each played out
     in W worlds (a particle drawn by weight, the stock shuffled), the bot by its own rules,
     the expert's seat greedily (minimum deadwood, takes a melding card that lowers it, both
     knock at once); the discard that wins the most play-outs (ties to the expert's choice).
     truew=1 plays the worlds with the bot's true hand (an oracle).
"""
import functools
import sys
from pathlib import Path

import numba as nb
import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT))

import match_gin_openspiel as M  # noqa: E402
from simcore.cards import bit, lowest_bit, popcount  # noqa: E402
from simcore.games.base import rebind  # noqa: E402
from simcore.games.gin_rummy import expert as EX  # noqa: E402
from simcore.games.gin_rummy.engine import _discard_and_knock, play_hand  # noqa: E402
from simcore.games.gin_rummy.policies import heuristic_policy  # noqa: E402
from simcore.games.gin_rummy.layout import (  # noqa: E402
    K_DISCARD, K_DRAW, K_UPCARD, V_DEALER, V_KNOCK_LIMIT, V_OPP_DISCARDS, V_OPP_PICKS, V_PILE,
    V_SEAT, V_TAKEN, V_TOP, V_TURN)
from simcore.melds import (GIN_PLANES, from_sequence, mask_value, meldable,  # noqa: E402
                           min_deadwood_seq, gin_deadwood, to_sequence)

SIMPLE, HEURISTIC, EXPERT, PF, ORACLE = 10, 1, 3, 30, 31
_ONE = np.uint64(1)
ALL = (1 << 52) - 1

# state layout in the policy row (int64)
P0 = 4          # 20 expert params x 1000
S_N, S_MOVES, S_COST, S_KW, S_TW = 24, 25, 26, 27, 28
S_NEV, S_EINIT_SET, S_EINIT, S_EH10, S_UP, S_BOTH, S_RNG, S_PINIT, S_NST = 29, 30, 31, 32, 33, 34, 35, 36, 37
S_FALLBACK, S_DECISIONS, S_ACC, S_PROP = 38, 39, 40, 41
EV = 64
EVW = 4
MAX_EV = 160
PT = EV + EVW * MAX_EV
MAXS = 40
PW = 3 + MAXS   # H, I, w, S[MAXS]
MAXN = 512
ROW = PT + 2 * PW * MAXN

E_OFFER, E_STOCK, E_DISC, E_ESTOCK = 1, 2, 3, 4


@nb.njit(inline="always")
def _rng(pol):
    x = np.uint64(pol[S_RNG])
    x ^= x >> np.uint64(12)
    x ^= x << np.uint64(25)
    x ^= x >> np.uint64(27)
    pol[S_RNG] = np.int64(x & np.uint64(0x7FFFFFFFFFFFFFFF))
    return (x * np.uint64(2685821657736338717)) >> np.uint64(11)


@nb.njit(inline="always")
def _rand_below(pol, n):
    return np.int64(_rng(pol) % np.uint64(n))


@nb.njit
def take_rule(H, t, limit):
    """(take, knock-enabling) of the simple bot holding H (10 cards) offered t."""
    w = np.uint64(H) | bit(t)
    after = gin_deadwood(w & ~bit(M.simple_bot_discard(w)))
    if after <= limit:
        return 1, 1
    return (1 if gin_deadwood(np.uint64(H)) != gin_deadwood(w) - M._value(t) else 0), 0


@nb.njit
def _nth_bit(m, j):
    m = np.uint64(m)
    for _ in range(j):
        m &= m - _ONE
    return lowest_bit(m)


@nb.njit
def _replay(pol, I, base, limit):
    """Valid?, final hand: the bot's history from initial hand I and the particle's draws."""
    einit = np.uint64(pol[S_EINIT])
    if np.uint64(I) & (einit | bit(pol[S_UP])):
        return False, np.uint64(0)
    H = np.uint64(I)
    k = 0
    for j in range(pol[63]):
        e = EV + EVW * j
        ty = pol[e]
        if ty == E_OFFER:
            tk, _ = take_rule(H, pol[e + 1], limit)
            if tk != pol[e + 2]:
                return False, H
            if tk:
                H |= bit(pol[e + 1])
        elif ty == E_STOCK:
            s = pol[base + 3 + k]
            k += 1
            vis = np.uint64(pol[e + 1]) | (np.uint64(pol[e + 2]) if pol[e + 2] >= 0 else einit)
            if bit(s) & (H | vis):
                return False, H
            H |= bit(s)
        elif ty == E_DISC:
            d = pol[e + 1]
            if not (H & bit(d)):
                return False, H
            if M.simple_bot_discard(H) != d:
                return False, H
            H &= ~bit(d)
            if gin_deadwood(H) <= limit:
                return False, H
        else:
            if H & bit(pol[e + 1]):
                return False, H
    return True, H


@nb.njit
def _init_particles(pol, limit):
    n = pol[S_N]
    free = np.uint64(ALL) & ~np.uint64(pol[S_EINIT]) & ~bit(pol[S_UP])
    nf = popcount(free)
    for i in range(n):
        base = PT + PW * i
        I = np.uint64(0)
        got = 0
        while got < 10:
            c = _nth_bit(free, _rand_below(pol, nf))
            if not (I & bit(c)):
                I |= bit(c)
                got += 1
        pol[base] = np.int64(I)
        pol[base + 1] = np.int64(I)
        pol[base + 2] = 1
    pol[S_PINIT] = 1
    pol[S_NST] = 0


@nb.njit
def _step(pol, j, limit):
    """Apply event j to every particle (SIS): weights become 0 or the count of valid draws."""
    n = pol[S_N]
    e = EV + EVW * j
    ty = pol[e]
    einit = np.uint64(pol[S_EINIT])
    if ty == E_OFFER:
        t, took = pol[e + 1], pol[e + 2]
        for i in range(n):
            base = PT + PW * i
            if pol[base + 2] == 0:
                continue
            H = np.uint64(pol[base])
            tk, _ = take_rule(H, t, limit)
            if tk != took:
                pol[base + 2] = 0
            elif tk:
                pol[base] = np.int64(H | bit(t))
    elif ty == E_ESTOCK:
        c = pol[e + 1]
        for i in range(n):
            base = PT + PW * i
            if np.uint64(pol[base]) & bit(c):
                pol[base + 2] = 0
    elif ty == E_DISC:
        d = pol[e + 1]
        for i in range(n):
            base = PT + PW * i
            if pol[base + 2] == 0:
                continue
            H = np.uint64(pol[base])
            if not (H & bit(d)) or M.simple_bot_discard(H) != d:
                pol[base + 2] = 0
                continue
            H &= ~bit(d)
            if gin_deadwood(H) <= limit:
                pol[base + 2] = 0
                continue
            pol[base] = np.int64(H)
    else:  # E_STOCK, then the discard event j + 1 together
        vis = np.uint64(pol[e + 1]) | (np.uint64(pol[e + 2]) if pol[e + 2] >= 0 else einit)
        d = pol[e + EVW + 1]
        k = pol[S_NST]
        for i in range(n):
            base = PT + PW * i
            if pol[base + 2] == 0:
                continue
            H = np.uint64(pol[base])
            pool = np.uint64(ALL) & ~H & ~vis
            if not (H & bit(d)):
                pool &= bit(d)
            nvalid = 0
            pick = -1
            m = pool
            while m:
                s = lowest_bit(m)
                m &= m - _ONE
                Hs = H | bit(s)
                if M.simple_bot_discard(Hs) != d:
                    continue
                if gin_deadwood(Hs & ~bit(d)) <= limit:
                    continue
                nvalid += 1
                if _rand_below(pol, nvalid) == 0:
                    pick = s
            if nvalid == 0:
                pol[base + 2] = 0
                continue
            pol[base + 2] *= nvalid
            pol[base + 3 + k] = pick
            pol[base] = np.int64((H | bit(pick)) & ~bit(d))
        pol[S_NST] = k + 1


@nb.njit
def _resample_move(pol, limit):
    """Systematic resampling by weight, then MOVES Metropolis moves per particle (a card of the
    initial hand or one stock draw swapped for another card; kept if the history replays)."""
    n = pol[S_N]
    total = 0.0
    for i in range(n):
        total += pol[PT + PW * i + 2]
    if total <= 0:
        return False
    # copy to the second buffer
    B = PT + PW * MAXN
    step = total / n
    u = (_rng(pol) % np.uint64(1 << 30)) / float(1 << 30) * step
    acc = 0.0
    i = -1
    for j in range(n):
        target = u + j * step
        while acc <= target and i < n - 1:
            i += 1
            acc += pol[PT + PW * i + 2]
        src = PT + PW * i
        dst = B + PW * j
        for q in range(PW):
            pol[dst + q] = pol[src + q]
    for j in range(n):
        src = B + PW * j
        dst = PT + PW * j
        for q in range(PW):
            pol[dst + q] = pol[src + q]
        pol[dst + 2] = 1
    ns = pol[S_NST]
    free = np.uint64(ALL) & ~np.uint64(pol[S_EINIT]) & ~bit(pol[S_UP])
    nf = popcount(free)
    for j in range(n):
        base = PT + PW * j
        for _ in range(pol[S_MOVES]):
            slot = _rand_below(pol, 10 + ns)
            c2 = _nth_bit(free, _rand_below(pol, nf))
            I = np.uint64(pol[base + 1])
            if I & bit(c2):
                continue
            dup = False
            for k in range(ns):
                if pol[base + 3 + k] == c2:
                    dup = True
            if dup:
                continue
            pol[S_PROP] += 1
            if slot < 10:
                old = _nth_bit(I, slot)
                I2 = (I & ~bit(old)) | bit(c2)
                ok, H = _replay(pol, I2, base, limit)
                if ok:
                    pol[base + 1] = np.int64(I2)
                    pol[base] = np.int64(H)
                    pol[S_ACC] += 1
            else:
                k = slot - 10
                old = pol[base + 3 + k]
                pol[base + 3 + k] = c2
                ok, H = _replay(pol, I, base, limit)
                if ok:
                    pol[base] = np.int64(H)
                    pol[S_ACC] += 1
                else:
                    pol[base + 3 + k] = old
    return True


@nb.njit
def _filter(pol, limit):
    """Bring the particles up to date with every recorded event."""
    if pol[S_PINIT] == 0:
        _init_particles(pol, limit)
        pol[S_PINIT + 0] = 1
        pol[63] = 0  # events processed
    j = pol[63]
    while j < pol[S_NEV]:
        ty = pol[EV + EVW * j]
        _step(pol, j, limit)
        if ty == E_STOCK:
            j += 1  # the discard went with it
        j += 1
        if ty == E_STOCK or ty == E_DISC or ty == E_ESTOCK:
            pol[63] = j
            if not _resample_move(pol, limit):
                pol[S_FALLBACK] += 1
                pol[S_PINIT] = 0
                pol[63] = pol[S_NEV]
                return False
    pol[63] = j
    return True


@nb.njit
def _ext_from_particles(pol, hand, limit, ext):
    n = pol[S_N]
    tw, kw = pol[S_TW] / 1000.0, pol[S_KW] / 1000.0
    m = np.uint64(hand)
    while m:
        x = lowest_bit(m)
        m &= m - _ONE
        s = 0.0
        wt = 0.0
        for i in range(n):
            w = pol[PT + PW * i + 2]
            if w == 0:
                continue
            tk, kn = take_rule(np.uint64(pol[PT + PW * i]), x, limit)
            s += w * (tw * tk + kw * kn)
            wt += w
        ext[x] = s / wt if wt > 0 else 0.0


@nb.njit
def _ext_from_hand(H, hand, limit, tw, kw, ext):
    m = np.uint64(hand)
    while m:
        x = lowest_bit(m)
        m &= m - _ONE
        tk, kn = take_rule(H, x, limit)
        ext[x] = tw * tk + kw * kn


@nb.njit
def _discard_ext(hand, view, params, ext, cost):
    """expert._discard with cost x ext[card] for the per-card danger."""
    h = to_sequence(hand, True)
    keep = np.uint64(0)
    if view[V_TAKEN] >= 0:
        keep = to_sequence(bit(view[V_TAKEN]), True)
    allowed = h & ~keep
    loose = allowed & ~meldable(h)
    base = min_deadwood_seq(h, GIN_PLANES) if loose else 0
    known, unseen, likely, unlikely, high, p = EX._reading(hand, view, params)
    danger_cost, out_cost, low_feed, last_value = EX._weights(view, params)
    scale = danger_cost / params[0] if params[0] > 0 else 1.0
    low_card, low_dw, low_val = -1, 1 << 30, -1
    cards = np.empty(11, np.int64)
    scores = np.empty(11, np.float64)
    dws = np.empty(11, np.int64)
    n = 0
    m = allowed
    while m:
        c = lowest_bit(m)
        m &= m - _ONE
        v = mask_value(bit(c), GIN_PLANES)
        dw = base - v if loose & bit(c) else min_deadwood_seq(h & ~bit(c), GIN_PLANES)
        if dw < low_dw or (dw == low_dw and v >= low_val):
            low_card, low_dw, low_val = c, dw, v
        pub = lowest_bit(from_sequence(bit(c), True))
        score = dw + cost * scale * ext[pub] + out_cost * EX._live_outs(c, h & ~bit(c), unseen)
        if v < last_value:
            score += low_feed
        cards[n], scores[n], dws[n] = c, score, dw
        n += 1
    if low_dw <= EX.knock_threshold(view, params):
        return lowest_bit(from_sequence(bit(low_card), True))
    return lowest_bit(from_sequence(bit(EX._look_ahead(h, unseen, view, params, cards, scores,
                                                       dws, n)), True))


@nb.njit
def _rec(pol, ty, a, b, c):
    j = pol[S_NEV]
    if j >= MAX_EV:
        return
    e = EV + EVW * j
    pol[e], pol[e + 1], pol[e + 2], pol[e + 3] = ty, a, b, c
    pol[S_NEV] = j + 1


def _play(policies, p, kind, hand, view, pst):
    pol = policies
    if kind == K_UPCARD and view[V_TURN] == 0 and p != view[V_DEALER]:
        pol[S_NEV] = 0
        pol[S_EINIT_SET] = 0
        pol[S_PINIT] = 0
        pol[S_BOTH] = -1
        pol[S_NST] = 0
        pol[63] = 0
        pol[S_UP] = view[V_TOP]
    pid = pol[p]
    limit = view[V_KNOCK_LIMIT]
    if pid == SIMPLE or pid == HEURISTIC:
        if pid == SIMPLE:
            r = M.simple_bot_play(kind, p, hand, view, pst)
        else:
            r = heuristic_policy(kind, p, hand, view, pst)
        if kind == K_UPCARD or kind == K_DRAW:
            pol[S_BOTH] = np.int64(hand)
            if view[V_TOP] >= 0:
                _rec(pol, E_OFFER, view[V_TOP], r, 0)
        elif kind == K_DISCARD:
            if view[V_TAKEN] < 0:
                _rec(pol, E_STOCK, view[V_PILE], pol[S_EH10] if pol[S_EINIT_SET] else -1, 0)
            _rec(pol, E_DISC, r, 0, 0)
            pol[S_BOTH] = np.int64(np.uint64(hand) & ~bit(r))
    else:
        params = pol[P0:P0 + 20] / 1000.0
        if pol[S_EINIT_SET] == 0:
            pol[S_EINIT] = np.int64(hand)
            pol[S_EH10] = np.int64(hand)
            pol[S_EINIT_SET] = 1
            pol[S_RNG] = np.int64((np.uint64(hand) * np.uint64(0x9E3779B97F4A7C15) + np.uint64(pol[S_UP] + 7)) & np.uint64(0x7FFFFFFFFFFFFFFF)) | 1
        if kind == K_DISCARD:
            if view[V_TAKEN] < 0:
                c = lowest_bit(np.uint64(hand) & ~np.uint64(pol[S_EH10]))
                _rec(pol, E_ESTOCK, c, 0, 0)
            if pid == EXPERT:
                r = EX.expert_play(kind, p, hand, view, pst, params)
            else:
                ext = np.zeros(52, np.float64)
                ok = True
                if pid == PF or pid == PIMC:
                    ok = _filter(pol, limit)
                    if ok:
                        _ext_from_particles(pol, hand, limit, ext)
                else:
                    if pol[S_BOTH] >= 0:
                        _ext_from_hand(np.uint64(pol[S_BOTH]), hand, limit, pol[S_TW] / 1000.0,
                                       pol[S_KW] / 1000.0, ext)
                    else:
                        ok = False
                pol[S_DECISIONS] += 1
                if ok and pid == PIMC:
                    r = _pimc_discard(pol, hand, view, params, ext, limit)
                elif ok:
                    r = _discard_ext(hand, view, params, ext, pol[S_COST] / 1000.0)
                else:
                    r = EX.expert_play(kind, p, hand, view, pst, params)
            pol[S_EH10] = np.int64(np.uint64(hand) & ~bit(r))
        else:
            r = EX.expert_play(kind, p, hand, view, pst, params)
    if kind == K_DRAW and r == 1:
        pol[2 + p] += 1
    return r


from match_gin_openspiel import _buffers, stream_key, R_TURNS  # noqa: E402


def _duplicate(seed, n, cfg, row_a, row_b, out, stats):
    for k in nb.prange(n):
        b = _buffers()
        pol = row_a.copy()
        for a in range(2):
            pol[a], pol[1 - a], pol[2], pol[3] = row_a[0], row_b[0], 0, 0
            b[0][0] = stream_key(seed, k, 0, 0)
            _, m, who, kd, dd = _scored_hand(b, k % 2, cfg, pol, a)  # noqa: F821 (rebound)
            out[k, a, 0], out[k, a, 1], out[k, a, 2], out[k, a, 3] = m, who, kd, dd
            out[k, a, 4], out[k, a, 5], out[k, a, 6] = b[10][R_TURNS], pol[2 + a], pol[3 - a]
        stats[k, 0] = pol[S_FALLBACK]
        stats[k, 1] = pol[S_DECISIONS]
        stats[k, 2] = pol[S_ACC]
        stats[k, 3] = pol[S_PROP]


@functools.cache
def kernel():
    play = nb.njit(rebind(_play))

    def ask(kind, p, policies, hands, picks, discards, view, pst):
        view[V_SEAT] = p
        view[V_OPP_PICKS] = np.int64(picks[1 - p])
        view[V_OPP_DISCARDS] = np.int64(discards[1 - p])
        return play(policies, p, kind, hands[p], view, pst)

    ask_fn = nb.njit(rebind(ask, play=play))
    disc_fn = nb.njit(rebind(_discard_and_knock.py_func, _ask=ask_fn))
    hand_fn = nb.njit(rebind(play_hand.py_func, _ask=ask_fn, _discard_and_knock=disc_fn))
    scored = nb.njit(rebind(M._scored_hand, play_hand=hand_fn))
    return nb.njit(parallel=True)(rebind(_duplicate, _scored_hand=scored))


def row(pid, n=256, moves=4, cost=2.0, kw=8.0, tw=1.0, params=EX.PARAMS, k=4, w=32, truew=0):
    r = np.zeros(ROW, np.int64)
    r[0] = pid
    r[P0:P0 + 20] = [round(float(x) * 1000) for x in params]
    r[S_K], r[S_W], r[S_TRUEW] = k, w, truew
    r[S_N], r[S_MOVES], r[S_COST], r[S_KW], r[S_TW] = n, moves, round(cost * 1000), round(kw * 1000), round(tw * 1000)
    return r


def run(n, seed, ra, opponent=SIMPLE):
    rb = np.zeros(ROW, np.int64)
    rb[0] = opponent
    out = np.zeros((n, 2, 7), np.int64)
    stats = np.zeros((n, 4), np.int64)
    kernel()(np.uint64(seed), n, M.os_rules_cfg(), ra, rb, out, stats)
    return out, stats


PIMC = 32
S_K, S_W, S_TRUEW = 42, 43, 44


@nb.njit
def _e_discard(H):
    """Minimum-deadwood discard of 11 cards (ties to the higher value)."""
    best, bdw, bv = -1, 1 << 30, -1
    m = np.uint64(H)
    while m:
        c = lowest_bit(m)
        m &= m - _ONE
        dw = gin_deadwood(np.uint64(H) & ~bit(c))
        v = M._value(c)
        if dw < bdw or (dw == bdw and v > bv):
            best, bdw, bv = c, dw, v
    return best, bdw


@nb.njit
def _rollout(E, Bh, x, stock, ns, limit):
    """E (10 cards, x just thrown on the pile), the bot's hand Bh, the stock (ns cards, top
    at ns - 1).  Both knock as soon as they may.  1 if E wins the hand, else 0."""
    top = x
    E = np.uint64(E)
    Bh = np.uint64(Bh)
    while True:
        # bot's turn
        if ns <= 2:
            return 0.0
        tk, _ = take_rule(Bh, top, limit)
        if tk:
            Bh |= bit(top)
        else:
            ns -= 1
            Bh |= bit(stock[ns])
        d = M.simple_bot_discard(Bh)
        Bh &= ~bit(d)
        bdw = gin_deadwood(Bh)
        if bdw <= limit:
            edw = gin_deadwood(E)
            return 1.0 if edw < bdw else 0.0
        top = d
        # E's turn
        if ns <= 2:
            return 0.0
        now = gin_deadwood(E)
        w = E | bit(top)
        c, after = _e_discard(w)
        if c != top and (after <= limit or (after < now and meldable(to_sequence(w, True)) & to_sequence(bit(top), True))):
            E = w & ~bit(c)
        else:
            ns -= 1
            w = E | bit(stock[ns])
            c, after = _e_discard(w)
            E = w & ~bit(c)
        if after <= limit:
            return 1.0 if gin_deadwood(Bh) > after else 0.0
        top = c


@nb.njit
def _pimc_discard(pol, hand, view, params, ext, limit):
    """Expert's scores (PF danger) give the candidates; each is played out in W worlds drawn
    from the particles, the simple bot's rules for the bot, greedy play for E."""
    h = to_sequence(hand, True)
    keep = np.uint64(0)
    if view[V_TAKEN] >= 0:
        keep = to_sequence(bit(view[V_TAKEN]), True)
    allowed = h & ~keep
    loose = allowed & ~meldable(h)
    base = min_deadwood_seq(h, GIN_PLANES) if loose else 0
    known, unseen, likely, unlikely, high, p = EX._reading(hand, view, params)
    danger_cost, out_cost, low_feed, last_value = EX._weights(view, params)
    scale = danger_cost / params[0] if params[0] > 0 else 1.0
    cost = pol[S_COST] / 1000.0
    low_card, low_dw, low_val = -1, 1 << 30, -1
    cards = np.empty(11, np.int64)
    scores = np.empty(11, np.float64)
    dws = np.empty(11, np.int64)
    n = 0
    m = allowed
    while m:
        c = lowest_bit(m)
        m &= m - _ONE
        v = mask_value(bit(c), GIN_PLANES)
        dw = base - v if loose & bit(c) else min_deadwood_seq(h & ~bit(c), GIN_PLANES)
        if dw < low_dw or (dw == low_dw and v >= low_val):
            low_card, low_dw, low_val = c, dw, v
        pub = lowest_bit(from_sequence(bit(c), True))
        score = dw + cost * scale * ext[pub] + out_cost * EX._live_outs(c, h & ~bit(c), unseen)
        if v < last_value:
            score += low_feed
        cards[n], scores[n], dws[n] = c, score, dw
        n += 1
    if low_dw <= EX.knock_threshold(view, params):
        return lowest_bit(from_sequence(bit(low_card), True))
    first = EX._look_ahead(h, unseen, view, params, cards, scores, dws, n)
    order = np.argsort(scores[:n], kind="mergesort")
    K = pol[S_K]
    cand = np.empty(K, np.int64)
    cand[0] = lowest_bit(from_sequence(bit(first), True))
    nc = 1
    for j in range(n):
        if nc >= K:
            break
        cpub = lowest_bit(from_sequence(bit(cards[order[j]]), True))
        if cpub != cand[0]:
            cand[nc] = cpub
            nc += 1
    if nc == 1:
        return cand[0]
    W = pol[S_W]
    npart = pol[S_N]
    total = 0.0
    for i in range(npart):
        total += pol[PT + PW * i + 2]
    vals = np.zeros(nc, np.float64)
    stock = np.empty(52, np.int64)
    pile = np.uint64(view[V_PILE])
    for w in range(W):
        # a particle by weight
        r = (_rng(pol) % np.uint64(1 << 30)) / float(1 << 30) * total
        acc = 0.0
        pi = npart - 1
        for i in range(npart):
            acc += pol[PT + PW * i + 2]
            if acc > r:
                pi = i
                break
        Bh = np.uint64(pol[PT + PW * pi])
        if pol[S_TRUEW] == 1 and pol[S_BOTH] >= 0:
            Bh = np.uint64(pol[S_BOTH])
        rest = np.uint64(ALL) & ~np.uint64(hand) & ~pile & ~Bh
        ns = 0
        mm = rest
        while mm:
            c = lowest_bit(mm)
            mm &= mm - _ONE
            stock[ns] = c
            ns += 1
        for i in range(ns - 1, 0, -1):
            j = _rand_below(pol, i + 1)
            stock[i], stock[j] = stock[j], stock[i]
        for ci in range(nc):
            x = cand[ci]
            vals[ci] += _rollout(np.uint64(hand) & ~bit(x), Bh, x, stock.copy(), ns, limit)
    best = 0
    for ci in range(1, nc):
        if vals[ci] > vals[best]:
            best = ci
    return cand[best]
