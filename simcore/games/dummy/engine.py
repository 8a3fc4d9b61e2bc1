"""Dummy engine: one deal (DM-1 ... DM-27, DM-30 ... DM-34) and whole matches (DM-28, DM-29).

Numba-jitted over public-order bitboards (DM-6's run order 2 ... A is the public order, so
``simcore.melds`` works on the masks as they are).  Every decision is a choice among the legal
actions the engine lists (``layout.K_*``, ``layout.A_*``), so a policy can never make an illegal
move and a deal's decision log replays exactly (tests/reference/dummy_ref.py).

``hands_kernel`` and ``games_kernel`` are plain functions: the package jits them with the
built-in policies (cached on disk) or, through ``with_play``, around a user's policy.
"""

import numba as nb
import numpy as np

from simcore.cards import bit, highest_bit, lowest_bit, popcount
from simcore.dealing import first_seat
from simcore.games.base import block_range, rebind, record_game_hand
from simcore.melds import all_melds, can_partition, meldable, spread_ranks
from simcore.rng import policy_key, shuffle, stream_key
from simcore.games.dummy.layout import (
    C_CUT5, C_DARK_LAYOFFS, C_DARK_MULT, C_FIRST_DEALER, C_FULL_DISCARD, C_HAND, C_HEAD_BONUS,
    C_HEAD_FEED, C_KNOCK_VALUE, C_LAYOFF_DISCARD, C_LAYOFF_LIMIT, C_LIMIT_TABLE,
    C_MAY_DISCARD_TAKEN, C_NGO_PENALTY, C_NGO_REVERSE, C_PLAYERS, C_QKA_CLOSED, C_SPETO100,
    C_SPETO_DISCARD, C_SPETO_FEED, C_TARGET, C_UNOPENED_MULT,
    A_KNOCK, A_LAYOFF, A_MELD, A_SHIFT, DRAW, K_ACQUIRE, K_DISCARD, K_PLAY, LOG_MAX, LOG_ROW,
    MAX_ACTS, MAX_MELDS, N_RES, N_SEAT_RES, PASS, R_DARK, R_DIR, R_FOOL, R_HEAD, R_ILLEGAL, R_KNOCK_CARD,
    R_KNOCKER, R_N_LOG, R_SCRIPT, R_STARTER, SCRIPT, R_TURNS, S_INHAND, S_LAYOFFS, S_OPENED, S_PENALTY, S_SCORE,
    S_TABLE, SPETOS, STOP, TAKE_SHIFT,
    V_CAN_DISCARD_TAKEN, V_COUNT0, V_DEALER, V_DIR, V_DRAWN, V_FINAL,
    V_HEAD, V_HEAD_BONUS, V_HEAD_IN_PILE, V_LAYOFFS_LEFT, V_MELD0, V_N_MELDS, V_N_PILE, V_OPENED,
    V_PILE0, V_PILE_MASK, V_PLAYERS, V_SEAT, V_SPETO100, V_STOCK, V_TABLE_MASK, V_TAKEN, V_TURN,
    V_DISCARDS0, V_PENALTIES, V_PICKS0, PEN_FULL, PEN_HEAD_FEED, PEN_LAYOFF, PEN_SPETO_DISCARD,
    PEN_SPETO_FEED, VIEW_SIZE, points,
)
from simcore.games.dummy.moves import down_count, fits, list_plays, list_takes, neighbourhood, rank_cards
from simcore.games.dummy.policies import builtin_play
from simcore.games.dummy.scoring import knock_points, seat_score, table_points

# The play dispatcher ``play(policy_id, kind, seat, hand, view, acts, n, st) -> index``, called
# as a global so the built-in kernels cache on disk; ``with_play`` rebuilds it for a user policy.
play = builtin_play


PENALTY = 50  # DM-32 ... DM-34
MAX_FEEDS = 32
MAX_HAND_MELDS = 1024

_ONE = np.uint64(1)
_ZERO = np.uint64(0)
_ALL = np.uint64((1 << 52) - 1)


@nb.njit(cache=True)
def _ask(kind, p, policies, hands, view, acts, n, pst, log, info, script):
    """Ask seat p's policy to pick one of ``acts[:n]``; returns the action, or -9 (illegal
    answer).  With a log (``log.shape[0] > 1``) each decision is kept as (seat, kind, action, n).
    A single legal action is taken without asking.  A seat whose policy is SCRIPT (tests) plays
    the next action of ``script`` when it is legal; otherwise it draws, stops or passes (the
    entry waits for a later decision), and fails where none of those is possible."""
    if n == 1:
        i = 0
    elif policies[p] == SCRIPT:
        k = info[R_SCRIPT]
        info[R_SCRIPT] = k + 1
        want = script[k] if k < script.shape[0] else np.int64(-999)
        i = -1
        dflt = -1
        for j in range(n):
            if acts[j] == want:
                i = j
                break
            if kind != K_DISCARD and (acts[j] == DRAW or acts[j] == STOP or acts[j] == PASS):
                dflt = j
        if i < 0:  # not the scripted action: draw / stop / pass by default, keeping the entry
            if dflt < 0:
                return np.int64(-9)
            i = dflt
            info[R_SCRIPT] = k
    else:
        view[V_SEAT] = p
        # kind as a run-time int64: one compile of the dispatcher, not one per kind literal
        i = play(policies[p], np.int64(kind), p, hands[p], view, acts, n, pst)
        if i < 0 or i >= n:
            return np.int64(-9)
    a = acts[i]
    k = info[R_N_LOG]
    if log.shape[0] > 1 and k < log.shape[0]:
        log[k, 0] = p
        log[k, 1] = kind
        log[k, 2] = a
        log[k, 3] = n
        info[R_N_LOG] = k + 1
    return a


# The deal's running state between the phases of a turn: one int64 array ``ds`` (card masks
# are below 2**52, so they fit).  The knocker, knock card, dark knock, fool and turns go
# straight to ``info`` (R_*), which the scoring reads.
D_NXT = 0           # deck index of the next stock card
D_STOCK_END = 1     # one past the last stock card in play (DM-3)
D_N_PILE = 2
D_PILE_MASK = 3
D_N_MELDS = 4
D_TABLE_MASK = 5
D_OPENED = 6        # bit per seat (DM-15)
D_TABLE_LAYOFFS = 7  # lay-offs by anyone this deal (DM-17, table scope)
D_N_FEEDS = 8       # live DM-34 feeds in ``feeds``
D_HEAD = 9
D_PLACED0 = 10      # D_PLACED0 + s: cards seat s put on the table (T of DM-21)
N_DS = 14

# The phase functions pay an atomic incref/decref pair for every array argument of every call
# (about 30% of the split play_deal's time).  Numba's ``_nrt=False`` removes that, but it also
# applies to what they call, and simcore.melds keeps its search stack in a ``carray``, which
# cannot compile without reference counting: on an empty cache the kernels failed to build.
# what ``_acquire`` answers besides DRAW, PASS and a take
ILLEGAL = -9        # a policy answered out of range
NO_TAKE = -3        # DM-23: the final turn offers no take that knocks; the deal ends


@nb.njit(cache=True)
def _deal(st, pst, deck, dealer, starter, direction, cfg, hands, dealt, pile, pile_from, view,
          info, seat_res, ds, preset):
    """DM-2 ... DM-4: shuffle (unless ``preset``), deal one at a time in ``direction`` from the
    dealer's next seat, lay the head card; reset the deal state, results and view."""
    n_pl = cfg[C_PLAYERS]
    hs = cfg[C_HAND]
    pst[0] = policy_key(st[0])
    if not preset:
        for i in range(52):
            deck[i] = i
        shuffle(st, deck, 52)
    for s in range(4):
        hands[s] = 0
        for k in range(N_SEAT_RES):
            seat_res[k, s] = 0
    for i in range(n_pl * hs):
        s = (dealer + direction * (1 + i % n_pl)) % n_pl
        hands[s] |= bit(deck[i])
    for s in range(4):
        dealt[s] = hands[s]
    head = deck[n_pl * hs]
    for k in range(N_DS):
        ds[k] = 0
    ds[D_NXT] = n_pl * hs + 1
    ds[D_STOCK_END] = stock_end(cfg)
    ds[D_HEAD] = head
    pile[0] = head
    pile_from[0] = -1
    ds[D_N_PILE] = 1
    ds[D_PILE_MASK] = np.int64(bit(head))
    for k in range(N_RES):
        if k != R_SCRIPT:
            info[k] = 0
    info[R_KNOCKER] = -1
    info[R_FOOL] = -1
    info[R_KNOCK_CARD] = -1
    info[R_HEAD] = head
    info[R_DIR] = direction
    info[R_STARTER] = starter
    for k in range(VIEW_SIZE):
        view[k] = 0
    view[V_PLAYERS] = n_pl
    view[V_DEALER] = dealer
    view[V_DIR] = direction
    view[V_HEAD] = head
    view[V_HEAD_IN_PILE] = 1
    view[V_SPETO100] = cfg[C_SPETO100]
    view[V_HEAD_BONUS] = cfg[C_HEAD_BONUS]
    view[V_CAN_DISCARD_TAKEN] = cfg[C_MAY_DISCARD_TAKEN]
    view[V_PENALTIES] = ((PEN_HEAD_FEED if cfg[C_HEAD_FEED] else 0)
                         | (PEN_LAYOFF if cfg[C_LAYOFF_DISCARD] else 0)
                         | (PEN_FULL if cfg[C_FULL_DISCARD] else 0)
                         | (PEN_SPETO_FEED if cfg[C_SPETO_FEED] else 0)
                         | (PEN_SPETO_DISCARD if cfg[C_SPETO_DISCARD] else 0))
    view[V_PILE0] = head
    view[V_N_PILE] = 1
    view[V_PILE_MASK] = ds[D_PILE_MASK]


@nb.njit(inline="always", cache=True)
def _lay_left(p, cfg, seat_res, ds):
    """DM-17: lay-offs seat p may still make this deal."""
    used = ds[D_TABLE_LAYOFFS] if cfg[C_LIMIT_TABLE] else seat_res[S_LAYOFFS, p]
    return max(0, cfg[C_LAYOFF_LIMIT] - used)


@nb.njit(cache=True)
def _begin_turn(p, final, cfg, hands, feeds, view, info, seat_res, ds):
    """The start of seat p's turn: p's DM-34 feeds expire, and the view shows the turn."""
    f = 0
    while f < ds[D_N_FEEDS]:
        if feeds[f, 0] == p:
            ds[D_N_FEEDS] -= 1
            for k in range(3):
                feeds[f, k] = feeds[ds[D_N_FEEDS], k]
        else:
            f += 1
    view[V_TURN] = info[R_TURNS]
    view[V_STOCK] = ds[D_STOCK_END] - ds[D_NXT]
    view[V_FINAL] = 1 if final else 0
    view[V_OPENED] = ds[D_OPENED]
    view[V_LAYOFFS_LEFT] = _lay_left(p, cfg, seat_res, ds)
    view[V_TAKEN] = 0
    view[V_DRAWN] = 0
    for s in range(4):
        view[V_COUNT0 + s] = popcount(hands[s])


@nb.njit(inline="always", cache=True)
def _put(p, cards, view, ds):
    """Seat p puts ``cards`` on the table (melds or lay-offs; they count in p's T)."""
    view[V_PICKS0 + p] &= ~np.int64(cards)
    ds[D_TABLE_MASK] |= np.int64(cards)
    view[V_TABLE_MASK] = ds[D_TABLE_MASK]
    ds[D_PLACED0 + p] |= np.int64(cards)


@nb.njit(cache=True)
def _acquire(p, final, cfg, policies, hands, deck, melds, pile, pile_from, acts, chains, lens,
             ks, feeds, view, info, seat_res, log, script, pst, ds):
    """DM-11, DM-12, DM-14, DM-23: seat p draws, passes (final turn) or takes from the pile.
    Returns (action or ILLEGAL / NO_TAKE, cards taken into the hand, the seat whose single
    discard was taken or -1)."""
    acts[0] = PASS if final else DRAW
    n = list_takes(hands[p], pile, ds[D_N_PILE], acts, 1, final, melds, ds[D_N_MELDS],
                   _lay_left(p, cfg, seat_res, ds), cfg[C_QKA_CLOSED] != 0, chains, lens, ks)
    if final and n == 1:
        return np.int64(NO_TAKE), _ZERO, np.int64(-1)
    info[R_TURNS] += 1
    a = _ask(np.int64(K_ACQUIRE), p, policies, hands, view, acts, n, pst, log, info, script)
    if a == DRAW:
        hands[p] |= bit(deck[ds[D_NXT]])
        ds[D_NXT] += 1
        view[V_STOCK] = ds[D_STOCK_END] - ds[D_NXT]
        view[V_DRAWN] = 1
    if a < 0:
        return a, _ZERO, np.int64(-1)
    d = np.int64(a >> TAKE_SHIFT)
    single_from = pile_from[d] if d == ds[D_N_PILE] - 1 else np.int64(-1)
    taken = _take(p, d, np.uint64(a) & _ALL, hands, melds, pile, feeds, view, seat_res, ds)
    return a, taken, single_from


@nb.njit(cache=True)
def _take(p, d, meld, hands, melds, pile, feeds, view, seat_res, ds):
    """DM-12, DM-15, DM-34: seat p takes the pile from depth d up, lays ``meld`` and opens;
    a feed fires when the meld holds its protected and its named card.  Returns the taken
    cards left in the hand."""
    n_pile = ds[D_N_PILE]
    taken = _ZERO
    for i in range(d, n_pile):
        taken |= bit(pile[i])
    if d == 0:
        view[V_HEAD_IN_PILE] = 0
    ds[D_N_PILE] = d
    ds[D_PILE_MASK] &= ~np.int64(taken)
    view[V_N_PILE] = d
    view[V_PILE_MASK] = ds[D_PILE_MASK]
    hands[p] = (hands[p] | taken) & ~meld
    n_melds = ds[D_N_MELDS]
    melds[n_melds] = meld
    view[V_MELD0 + n_melds] = np.int64(meld)
    ds[D_N_MELDS] = n_melds + 1
    view[V_N_MELDS] = n_melds + 1
    _put(p, meld, view, ds)
    ds[D_OPENED] |= 1 << p
    view[V_OPENED] = ds[D_OPENED]
    view[V_TAKEN] = np.int64(taken & ~meld)
    view[V_PICKS0 + p] |= np.int64(taken & ~meld)
    f = 0
    while f < ds[D_N_FEEDS]:
        if feeds[f, 0] != p and (meld & bit(feeds[f, 1])) and (meld & np.uint64(feeds[f, 2])):
            seat_res[S_PENALTY, feeds[f, 0]] -= PENALTY
            ds[D_N_FEEDS] -= 1
            for k in range(3):
                feeds[f, k] = feeds[ds[D_N_FEEDS], k]
        else:
            f += 1
    return taken & ~meld


@nb.njit(cache=True)
def _meld_and_lay_off(p, dark_ok, final, cfg, policies, hands, melds, acts, mbuf, chains, lens,
                      ks, view, info, seat_res, log, script, pst, ds):
    """DM-15 ... DM-19: seat p lays melds, lays off or knocks (``A_KNOCK``: all but the kept
    card go down at once, with the fewest lay-offs) until it stops or holds one card.
    ``dark_ok``: p has not opened and drew, so it may only knock (DM-22).  False if a policy
    answered out of range."""
    qka = cfg[C_QKA_CLOSED] != 0
    is_open = (ds[D_OPENED] >> p) & 1
    while popcount(hands[p]) >= 2:
        h = hands[p]
        lay_left = _lay_left(p, cfg, seat_res, ds)
        view[V_LAYOFFS_LEFT] = lay_left
        view[V_COUNT0 + p] = popcount(h)
        n_melds = ds[D_N_MELDS]
        n = list_plays(h, is_open, dark_ok, final, melds, n_melds, lay_left,
                       cfg[C_DARK_LAYOFFS] != 0, qka, acts, mbuf, chains, lens, ks)
        if n == 0 or (n == 1 and acts[0] == STOP):
            return True
        a = _ask(np.int64(K_PLAY), p, policies, hands, view, acts, n, pst, log, info, script)
        if a == ILLEGAL:
            return False
        if a == STOP:
            return True
        typ = a >> A_SHIFT
        if typ == A_MELD:
            put = np.uint64(a) & _ALL
            melds[n_melds] = put
            view[V_MELD0 + n_melds] = np.int64(put)
            ds[D_N_MELDS] = n_melds + 1
            view[V_N_MELDS] = n_melds + 1
        elif typ == A_LAYOFF:
            j = np.int64((a >> 8) & 255)
            put = bit(np.int64(a & 255))
            melds[j] |= put
            view[V_MELD0 + j] = np.int64(melds[j])
            seat_res[S_LAYOFFS, p] += 1
            ds[D_TABLE_LAYOFFS] += 1
        else:
            c = np.int64(a & 255)
            ll = lay_left if (is_open or cfg[C_DARK_LAYOFFS]) else 0
            cnt = down_count(h, c, melds, n_melds, ll, qka, chains, lens, ks, True)
            put = h & ~bit(c)
            seat_res[S_LAYOFFS, p] += cnt
            ds[D_TABLE_LAYOFFS] += cnt
        hands[p] = h & ~put
        _put(p, put, view, ds)
        if typ == A_KNOCK:
            return True
    return True


@nb.njit(cache=True)
def _discard(p, taken, cfg, policies, hands, melds, pile, pile_from, acts, feeds, view, info,
             seat_res, log, script, pst, ds):
    """DM-11, DM-13: seat p discards one card (a taken one only if the rules allow, or if
    nothing else is left) onto the pile.  False if a policy answered out of range."""
    h = hands[p]
    allowed = h
    if not cfg[C_MAY_DISCARD_TAKEN] and (h & ~taken) != 0:
        allowed = h & ~taken
    n = 0
    o = allowed
    while o:
        acts[n] = lowest_bit(o)
        o &= o - _ONE
        n += 1
    view[V_COUNT0 + p] = popcount(h)
    c = _ask(np.int64(K_DISCARD), p, policies, hands, view, acts, n, pst, log, info, script)
    if c == ILLEGAL:
        return False
    _discard_penalties(p, c, cfg, melds, feeds, view, seat_res, ds)
    cb = bit(c)
    hands[p] = h & ~cb
    n_pile = ds[D_N_PILE]
    pile[n_pile] = c
    pile_from[n_pile] = p
    view[V_PILE0 + n_pile] = c
    view[V_PICKS0 + p] &= ~np.int64(cb)
    view[V_DISCARDS0 + p] |= np.int64(cb)
    ds[D_N_PILE] = n_pile + 1
    ds[D_PILE_MASK] |= np.int64(cb)
    view[V_N_PILE] = n_pile + 1
    view[V_PILE_MASK] = ds[D_PILE_MASK]
    return True


@nb.njit(cache=True)
def _discard_penalties(p, c, cfg, melds, feeds, view, seat_res, ds):
    """DM-32, DM-33: penalties charged at once for discarding c; DM-34: the feeds it starts
    (charged if a later seat's take melds the protected card with it, see ``_take``)."""
    cb = bit(c)
    pile_mask = np.uint64(ds[D_PILE_MASK])
    if cfg[C_LAYOFF_DISCARD]:  # DM-32
        for j in range(ds[D_N_MELDS]):
            if fits(c, melds[j], cfg[C_QKA_CLOSED] != 0):
                seat_res[S_PENALTY, p] -= PENALTY
                break
    if cfg[C_FULL_DISCARD]:  # DM-33
        r = c % 13
        hit = popcount(pile_mask & rank_cards(c)) >= 2
        if r >= 2 and (pile_mask & bit(c - 1)) and (pile_mask & bit(c - 2)):
            hit = True
        if 1 <= r <= 11 and (pile_mask & bit(c - 1)) and (pile_mask & bit(c + 1)):
            hit = True
        if r <= 10 and (pile_mask & bit(c + 1)) and (pile_mask & bit(c + 2)):
            hit = True
        if hit:
            seat_res[S_PENALTY, p] -= PENALTY
    head = ds[D_HEAD]
    if cfg[C_HEAD_FEED] and view[V_HEAD_IN_PILE] and (neighbourhood(head) & cb):
        _add_feed(p, head, cb, feeds, ds)
    if cfg[C_SPETO_FEED]:
        sp = pile_mask & SPETOS
        while sp:
            x = lowest_bit(sp)
            sp &= sp - _ONE
            if neighbourhood(x) & cb:
                _add_feed(p, x, cb, feeds, ds)
    if cfg[C_SPETO_DISCARD] and (cb & SPETOS) and (neighbourhood(c) & pile_mask):
        _add_feed(p, c, neighbourhood(c) & pile_mask, feeds, ds)


@nb.njit(inline="always", cache=True)
def _add_feed(p, protected, named, feeds, ds):
    k = ds[D_N_FEEDS]
    feeds[k, 0] = p
    feeds[k, 1] = protected
    feeds[k, 2] = np.int64(named)
    ds[D_N_FEEDS] = k + 1


@nb.njit(cache=True)
def _score(cfg, hands, info, seat_res, ds):
    """DM-21, DM-24 ... DM-27, DM-30, DM-31: each seat's T, H and deal score."""
    knocker = info[R_KNOCKER]
    fool = info[R_FOOL]
    if fool >= 0:
        seat_res[S_PENALTY, fool] -= cfg[C_NGO_PENALTY]
    head = bit(ds[D_HEAD])
    knock_value = 0
    if knocker >= 0:
        knock_value = knock_points(bit(info[R_KNOCK_CARD]), cfg[C_KNOCK_VALUE], cfg[C_SPETO100])
    for s in range(cfg[C_PLAYERS]):
        t = table_points(np.uint64(ds[D_PLACED0 + s]), head, cfg[C_HEAD_BONUS])
        hv = 0 if s == knocker else points(hands[s])
        op = (ds[D_OPENED] >> s) & 1
        seat_res[S_OPENED, s] = op
        seat_res[S_TABLE, s] = t
        seat_res[S_INHAND, s] = hv
        base = seat_score(t, hv, knocker >= 0, s == knocker, op, knock_value, info[R_DARK],
                          cfg[C_DARK_MULT], cfg[C_UNOPENED_MULT])
        seat_res[S_SCORE, s] = base + seat_res[S_PENALTY, s]


@nb.njit(cache=True)
def play_deal(st, pst, deck, dealer, starter, direction, cfg, policies, hands, dealt, melds,
              pile, pile_from, acts, mbuf, chains, lens, ks, feeds, view, info, seat_res, log,
              script, preset=False):
    """Deal and play one deal (DM-2 ... DM-27, DM-30 ... DM-34): each turn is acquire, meld and
    lay off (or knock), then discard; the deal ends at a knock or after the stock runs out.

    ``info`` gets the R_* results, ``seat_res[S_*, seat]`` the per-seat ones.  ``starter`` is
    the first player (DM-5/DM-29), ``direction`` +1 or -1 (DM-27).  Returns False if a policy
    answered out of range (``info[R_ILLEGAL]``).  With ``preset`` the deck is used as given."""
    ds = np.zeros(N_DS, np.int64)
    _deal(st, pst, deck, dealer, starter, direction, cfg, hands, dealt, pile, pile_from, view,
          info, seat_res, ds, preset)
    p = starter
    while True:
        if script.shape[0] > 0 and info[R_SCRIPT] >= script.shape[0]:
            break  # tests: a finished script ends the deal here, scored as a stock-out
        final = ds[D_NXT] >= ds[D_STOCK_END]
        opened_before = (ds[D_OPENED] >> p) & 1
        _begin_turn(p, final, cfg, hands, feeds, view, info, seat_res, ds)
        a, taken, single_from = _acquire(p, final, cfg, policies, hands, deck, melds, pile,
                                         pile_from, acts, chains, lens, ks, feeds, view, info,
                                         seat_res, log, script, pst, ds)
        if a == ILLEGAL:
            info[R_ILLEGAL] = 1
            return False
        if a == PASS or a == NO_TAKE:
            break
        if not _meld_and_lay_off(p, a == DRAW and not opened_before, final, cfg, policies,
                                 hands, melds, acts, mbuf, chains, lens, ks, view, info,
                                 seat_res, log, script, pst, ds):
            info[R_ILLEGAL] = 1
            return False
        if popcount(hands[p]) == 1:  # DM-19: a seat left with one card knocks with it
            info[R_KNOCKER] = p
            info[R_KNOCK_CARD] = lowest_bit(hands[p])
            info[R_DARK] = 1 if opened_before == 0 else 0  # DM-22
            if single_from >= 0:  # DM-27: the fool fed the knocker's last need
                info[R_FOOL] = single_from
            break
        if final:
            info[R_ILLEGAL] = 2  # cannot happen: final-turn takes are listed only if a knock follows
            return False
        if not _discard(p, taken, cfg, policies, hands, melds, pile, pile_from, acts, feeds,
                        view, info, seat_res, log, script, pst, ds):
            info[R_ILLEGAL] = 1
            return False
        p = (p + direction) % cfg[C_PLAYERS]
    _score(cfg, hands, info, seat_res, ds)
    return True


@nb.njit(inline="always", cache=True)
def first_dealer(seed, stream_a, cfg, st):
    """DM-5: a fixed seat, or drawn from the stream (seed, stream_a, 0, 1); ``st`` is left as
    it was (the callers key it for the deal next)."""
    return first_seat(seed, stream_a, cfg[C_FIRST_DEALER], cfg[C_PLAYERS])


@nb.njit(inline="always", cache=True)
def record_deal(out, dealt_out, seat_out, row, seed, deal_id, dealer, cfg, dealt, info,
                seat_res):
    rec = out[row]
    rec.seed = seed
    rec.deal = deal_id
    rec.players = cfg[C_PLAYERS]
    rec.dealer = dealer
    rec.starter = info[R_STARTER]
    rec.direction = info[R_DIR]
    rec.head = info[R_HEAD]
    rec.knocker = info[R_KNOCKER]
    rec.dark_knock = info[R_DARK] != 0
    rec.knock_card = info[R_KNOCK_CARD]
    rec.fool = info[R_FOOL]
    rec.turns = info[R_TURNS]
    for s in range(4):
        dealt_out[row, s] = dealt[s]
        for k in range(N_SEAT_RES):
            seat_out[row, k, s] = seat_res[k, s]


@nb.njit(cache=True)
def record_log(decisions, deciders, log_n, stock, row, log, info, deck, cfg):
    """``--log-plays``: row ``row``'s first LOG_ROW decisions from the deal's ``log``, their
    number, and the stock in play (layout.LOG_ROW)."""
    n = info[R_N_LOG]
    log_n[row] = n
    for j in range(min(n, LOG_ROW)):
        decisions[row, j] = log[j, 2]
        deciders[row, j] = log[j, 0] << 2 | log[j, 1]
    first = cfg[C_PLAYERS] * cfg[C_HAND] + 1
    for j in range(first, stock_end(cfg)):
        stock[row, j - first] = deck[j]


@nb.njit(inline="always", cache=True)
def stock_end(cfg):
    """DM-3: one past the last stock card in play."""
    return 52 - (5 if (cfg[C_PLAYERS] == 2 and cfg[C_CUT5]) else 0)


@nb.njit(inline="always", cache=True)
def _work():
    deck = np.empty(52, np.int64)
    hands = np.zeros(4, np.uint64)
    dealt = np.zeros(4, np.uint64)
    melds = np.zeros(MAX_MELDS + 1, np.uint64)
    pile = np.zeros(52, np.int64)
    pile_from = np.zeros(52, np.int64)
    acts = np.zeros(MAX_ACTS, np.int64)
    mbuf = np.zeros(MAX_HAND_MELDS, np.uint64)
    chains = np.zeros((2 * MAX_MELDS + 2, 14), np.int64)
    lens = np.zeros(2 * MAX_MELDS + 2, np.int64)
    ks = np.zeros(2 * MAX_MELDS + 2, np.int64)
    feeds = np.zeros((MAX_FEEDS, 3), np.int64)
    view = np.zeros(VIEW_SIZE, np.int64)
    info = np.zeros(N_RES, np.int64)
    seat_res = np.zeros((N_SEAT_RES, 4), np.int64)
    return (deck, hands, dealt, melds, pile, pile_from, acts, mbuf, chains, lens, ks, feeds,
            view, info, seat_res)


@nb.njit(cache=True)
def _block_state(decisions):
    """A block's deal and policy streams, whether it logs, its decision log (one row when it
    does not: ``_ask`` then writes nothing) and the empty script of an unscripted deal."""
    logging = decisions.shape[0] > 0
    log = np.zeros((LOG_MAX if logging else 1, 4), np.int64)
    return np.zeros(1, np.uint64), np.zeros(1, np.uint64), logging, log, np.zeros(0, np.int64)


def hands_block(seed, start, out, dealt_out, seat_out, decisions, deciders, log_n, stock, cfg,
                policies, bad, b):
    """Block b of ``hands_kernel`` (compiled once, cached; the kernel's prange only calls it)."""
    n = out.shape[0]
    n_blocks = bad.shape[0]
    st, pst, logging, log, script = _block_state(decisions)
    (deck, hands, dealt, melds, pile, pile_from, acts, mbuf, chains, lens, ks, feeds,
     view, info, seat_res) = _work()
    forward = cfg[C_PLAYERS] // cfg[C_PLAYERS]  # +1, typed as a run-time int like the others
    lo, hi = block_range(b, n, n_blocks)
    for i in range(lo, hi):
        k = start + i
        dealer = first_dealer(seed, k, cfg, st)
        starter = (dealer + 1) % cfg[C_PLAYERS]
        st[0] = stream_key(seed, k, 0, 0)
        # (``preset`` is passed as a run-time bool, so that every caller shares one compiled
        # play_deal: a literal False would compile a second copy)
        ok = play_deal(st, pst, deck, dealer, starter, forward, cfg, policies, hands, dealt, melds,
                       pile, pile_from, acts, mbuf, chains, lens, ks, feeds, view, info,
                       seat_res, log, script, cfg[C_PLAYERS] < 0)
        if not ok:
            bad[b, 0] += 1
            continue
        record_deal(out, dealt_out, seat_out, i, seed, k, dealer, cfg, dealt, info, seat_res)
        if logging:
            record_log(decisions, deciders, log_n, stock, i, log, info, deck, cfg)


_hands_block = nb.njit(cache=True)(hands_block)


def hands_kernel(seed, start, out, dealt_out, seat_out, decisions, deciders, log_n, stock, cfg,
                 policies, bad):
    """Deal rows ``start ..`` in parallel blocks (each deal: random dealer, direction +1, the
    seat after the dealer starts).  ``bad[b, 0]`` counts illegal policy answers.
    ``decisions``, ``deciders``, ``log_n``, ``stock``: the ``--log-plays`` columns by row
    (``record_log``; no rows: no log)."""
    for b in nb.prange(bad.shape[0]):
        # np.int64(b): the prange index's type differs between Numba's passes over the loop,
        # and the block would otherwise be compiled twice
        _hands_block(seed, start, out, dealt_out, seat_out, decisions, deciders, log_n, stock,
                     cfg, policies, bad, np.int64(b))


def games_block(seed, start, games, game_scores, out, dealt_out, seat_out, totals_out,
                decisions, deciders, log_n, stock, offsets, record, cfg, policies, bad, b):
    """Block b of ``games_kernel``: whole matches (DM-5, DM-27 ... DM-29).

    With ``record`` false it only plays the matches and fills ``games``/``game_scores`` (row b
    of the deal arrays is block b's scratch); with ``record`` true deal rows go to
    ``offsets[g] + hand_no``.  Both passes play the same deals (streams keyed by seed, game,
    hand_no).  ``bad[b, 0]`` counts illegal answers, ``bad[b, 2]`` matches stopped at 65,535
    deals.  The ``--log-plays`` columns as in ``hands_kernel``, by deal row."""
    n = games.shape[0]
    n_blocks = bad.shape[0]
    n_pl = cfg[C_PLAYERS]
    st, pst, logging, log, script = _block_state(decisions)
    (deck, hands, dealt, melds, pile, pile_from, acts, mbuf, chains, lens, ks, feeds,
     view, info, seat_res) = _work()
    totals = np.zeros(4, np.int64)
    lo, hi = block_range(b, n, n_blocks)
    for g in range(lo, hi):
        game = start + g
        dealer = first_dealer(seed, game, cfg, st)
        direction = np.int64(1)  # not a literal: play_deal compiles once for both kernels
        starter = (dealer + 1) % n_pl
        totals[:] = 0
        hand_no = 0
        winner = -1
        while True:
            st[0] = stream_key(seed, game, hand_no + 1, 0)
            row = offsets[g] + hand_no if record else np.int64(b)
            ok = play_deal(st, pst, deck, dealer, starter, direction, cfg, policies, hands,
                           dealt, melds, pile, pile_from, acts, mbuf, chains, lens, ks,
                           feeds, view, info, seat_res, log, script, cfg[C_PLAYERS] < 0)
            if not ok:
                bad[b, 0] += 1
                break
            for s in range(n_pl):
                totals[s] += seat_res[S_SCORE, s]
            deal_id = (np.uint64(game) << np.uint64(16)) | np.uint64(hand_no)
            record_deal(out, dealt_out, seat_out, row, seed, deal_id, dealer, cfg, dealt,
                        info, seat_res)
            if logging:
                record_log(decisions, deciders, log_n, stock, row, log, info, deck, cfg)
            record_game_hand(out, totals_out, row, game, hand_no, totals)
            hand_no += 1
            # DM-27: the next deal's direction
            fool = info[R_FOOL]
            if cfg[C_NGO_REVERSE] == 0:
                new_dir = -1 if fool >= 0 else 1
            elif cfg[C_NGO_REVERSE] == 1:
                new_dir = -direction if fool >= 0 else direction
            else:
                new_dir = 1
            # DM-29 and DM-5: the next first player and dealer
            if info[R_KNOCKER] >= 0:
                starter = info[R_KNOCKER]
            else:
                starter = (starter + new_dir) % n_pl
            direction = new_dir
            dealer = (starter - direction) % n_pl
            # DM-28: someone at the target, one highest total
            best = totals[0]
            for s in range(1, n_pl):
                best = max(best, totals[s])
            if best >= cfg[C_TARGET]:
                n_best = 0
                for s in range(n_pl):
                    if totals[s] == best:
                        n_best += 1
                        winner = s
                if n_best == 1:
                    break
                winner = -1
            if hand_no >= 65535:
                bad[b, 2] += 1
                break
        grec = games[g]
        grec.seed = seed
        grec.game = game
        grec.hands = hand_no
        grec.winner = winner
        for s in range(4):
            game_scores[g, s] = totals[s]


_games_block = nb.njit(cache=True)(games_block)


def games_kernel(seed, start, games, game_scores, out, dealt_out, seat_out, totals_out,
                 decisions, deciders, log_n, stock, offsets, record, cfg, policies, bad):
    """Whole matches (DM-5, DM-27 ... DM-29) in parallel blocks; see ``games_block``."""
    for b in nb.prange(bad.shape[0]):
        _games_block(seed, start, games, game_scores, out, dealt_out, seat_out, totals_out,
                     decisions, deciders, log_n, stock, offsets, record, cfg, policies, bad,
                     np.int64(b))  # see hands_kernel


@nb.njit(cache=True)
def play_logged(deck, dealer, starter, direction, cfg, policies, seed, preset, script):
    """One deal with its decision log (tests, the reference replay): returns
    (ok, info, seat_res, dealt, log[:n], deck).  With ``preset`` the deck order is used as
    given; otherwise the deal is deal 0 of ``seed``'s hands-mode stream.  Policies draw from the
    deal stream's sibling."""
    st = np.zeros(1, np.uint64)
    st[0] = stream_key(seed, 0, 0, 0)
    pst = np.zeros(1, np.uint64)
    (deck2, hands, dealt, melds, pile, pile_from, acts, mbuf, chains, lens, ks, feeds,
     view, info, seat_res) = _work()
    for i in range(52):
        deck2[i] = deck[i]
    log = np.zeros((LOG_MAX, 4), np.int64)
    ok = play_deal(st, pst, deck2, dealer, starter, direction, cfg, policies, hands, dealt,
                   melds, pile, pile_from, acts, mbuf, chains, lens, ks, feeds, view, info,
                   seat_res, log, script, preset)
    return ok, info, seat_res, dealt, log[:info[R_N_LOG]].copy(), deck2


@nb.njit(cache=True)
def replay_hands(seed, start, count, cfg, policies):
    """Hands-mode deals ``start .. start+count-1`` one by one with their logs, for the
    reference test: (info (count, N_RES), seat_res (count, N_SEAT_RES, 4), decks (count, 52),
    dealers, logs (count, LOG_MAX, 4))."""
    st = np.zeros(1, np.uint64)
    pst = np.zeros(1, np.uint64)
    (deck, hands, dealt, melds, pile, pile_from, acts, mbuf, chains, lens, ks, feeds,
     view, info, seat_res) = _work()
    infos = np.zeros((count, N_RES), np.int64)
    seats = np.zeros((count, N_SEAT_RES, 4), np.int64)
    decks = np.zeros((count, 52), np.int64)
    dealers = np.zeros(count, np.int64)
    logs = np.zeros((count, 512, 4), np.int64)
    forward = cfg[C_PLAYERS] // cfg[C_PLAYERS]
    log = np.zeros((512, 4), np.int64)
    script = np.zeros(0, np.int64)
    for i in range(count):
        k = start + i
        dealer = first_dealer(seed, k, cfg, st)
        st[0] = stream_key(seed, k, 0, 0)
        play_deal(st, pst, deck, dealer, (dealer + 1) % cfg[C_PLAYERS], forward, cfg, policies,
                  hands, dealt, melds, pile, pile_from, acts, mbuf, chains, lens, ks, feeds,
                  view, info, seat_res, log, script, cfg[C_PLAYERS] < 0)
        infos[i] = info
        seats[i] = seat_res
        decks[i] = deck
        dealers[i] = dealer
        logs[i] = log
    return infos, seats, decks, dealers, logs


def with_play(play_fn):
    """(hands kernel, games kernel) as plain functions whose play dispatcher is ``play_fn``."""
    ask_fn = nb.njit(rebind(_ask.py_func, play=play_fn))
    phases = {f.py_func.__name__: nb.njit(rebind(f.py_func, _ask=ask_fn))
              for f in (_acquire, _meld_and_lay_off, _discard)}
    deal_fn = nb.njit(rebind(play_deal.py_func, **phases))
    hb = nb.njit(rebind(hands_block, play_deal=deal_fn))
    gb = nb.njit(rebind(games_block, play_deal=deal_fn))
    return (rebind(hands_kernel, _hands_block=hb), rebind(games_kernel, _games_block=gb))
