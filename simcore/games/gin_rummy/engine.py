"""Gin Rummy engine: one hand (GR-6 ... GR-15) and whole games (GR-5, GR-16 ... GR-18).

Numba-jitted over public-order bitboards; the meld work is simcore.melds.  ``hands_kernel`` and
``games_kernel`` are plain functions: the package jits them with the built-in policies (cached
on disk) or, through ``with_play``, around a user's policy.
"""

import numba as nb
import numpy as np

from simcore.cards import bit, lowest_bit
from simcore.dealing import SHUFFLE_PAIRED, deal_constrained, first_seat, is_constrained
from simcore.games.base import block_range, rebind, record_game_hand
from simcore.melds import GIN_PLANES, MAX_MELDS, from_sequence, gin_deadwood, knock_result, \
    to_sequence
from simcore.rng import policy_key, shuffle, stream_key
from simcore.games.gin_rummy.layout import (
    C_BOX_BONUS,
    C_BOX_BOTH,
    C_FIRST_DEALER,
    C_GAME_BONUS,
    C_GIN_BONUS,
    C_KNOCK_AT,
    C_KNOCK_LIMIT,
    C_MAY_DISCARD_TAKEN,
    C_NEXT_DEALER,
    C_SHUTOUT,
    C_TARGET,
    C_UNDERCUT_BONUS,
    C_VOID_AT_STOCK,
    C_WHATIF_KNOCK,
    END_VOID,
    HAND,
    K_DISCARD,
    K_DRAW,
    K_KNOCK,
    K_UPCARD,
    MAX_HIST,
    TURN_PASS,
    TURN_PILE,
    TURN_STOCK,
    V_DEADWOOD,
    V_DEALER,
    V_DISCARD,
    V_HIST,
    V_HIST_N,
    V_KNOCK_AT,
    V_KNOCK_LIMIT,
    V_OPP_DISCARDS,
    V_OPP_PICKS,
    V_PILE,
    V_SEAT,
    V_STOCK,
    V_TAKEN,
    V_TAKEN_LOCKED,
    V_TOP,
    V_TURN,
    V_UPCARD,
    VIEW_SIZE,
    hist_entry,
    turn_entry,
)
from simcore.games.gin_rummy.policies import builtin_play
from simcore.games.gin_rummy.scoring import game_result, hand_result

# The play dispatcher ``play(policy_id, kind, seat, hand, view, st)``, called as a global
# so the built-in kernels cache on disk; ``with_play`` rebuilds the chain for a user policy.
play = builtin_play

MAX_TURNS = 2000  # a hand still going after this many turns is void and counted as stalled
ARRANGEMENTS = 64  # knocker arrangements kept for GR-11 (real hands have a handful)


# How simcore.dealing deals Gin (``deal``'s cards when nothing is fixed): seat 0, seat 1, the
# upcard, the stock top first.  Its retries use (seed, k, 0, RETRY_C + j), resp. (seed, g,
# h + 1, RETRY_C + j).
DECK_IDS = np.arange(52, dtype=np.int64)
SLOT_SIZES = np.array([HAND, HAND, 1, 52 - 2 * HAND - 1], np.int64)

# hand status codes from a turn
_GO_ON = 0
_KNOCKED = 1
_ILLEGAL = -2

# per-hand integer results, ``res[...]``
R_END = 0
R_KNOCKER = 1
R_WINNER = 2
R_POINTS = 3
R_TURNS = 4
R_TAKER = 5
R_DW0 = 6
R_DW1 = 7
R_STALLED = 8
N_RES = 9


@nb.njit(inline="always", cache=True)
def deal(st, deck, hands, preset):
    """GR-1, GR-6: shuffle (unless ``preset``: deck already ordered); 10 cards each, seat 0
    first; deck[20] is the upcard, the rest (deck[21:]) the stock, top first."""
    if not preset:
        for i in range(52):
            deck[i] = i
        shuffle(st, deck, 52)
    for s in range(2):
        h = np.uint64(0)
        for i in range(HAND * s, HAND * s + HAND):
            h |= bit(deck[i])
        hands[s] = h


# The kinds as typed values: _ask is compiled once, not once per literal kind
_UPCARD, _DRAW, _DISCARD, _KNOCK = (np.int64(k) for k in (K_UPCARD, K_DRAW, K_DISCARD, K_KNOCK))


@nb.njit(inline="always", cache=True)
def _ask(kind, p, policies, hands, picks, discards, view, pst):
    view[V_SEAT] = p
    view[V_OPP_PICKS] = np.int64(picks[1 - p])
    view[V_OPP_DISCARDS] = np.int64(discards[1 - p])
    return play(policies[p], np.int64(kind), p, hands[p], view, pst)  # one compile for every kind


@nb.njit(inline="always", cache=True)
def _note_turn(view, seat, offered, took, discard):
    """Append a turn to the view's public history (layout.V_HIST)."""
    j = view[V_HIST_N]
    if j < MAX_HIST:
        view[V_HIST + j] = hist_entry(seat, offered, took, discard)
    view[V_HIST_N] = j + 1


@nb.njit(inline="always", cache=True)
def _discard_and_knock(p, taken, cfg, policies, hands, picks, discards, pile, view, pst):
    """GR-8/GR-9: the seat holding 11 cards discards and may knock.

    Returns (status, card): the card goes on the pile unless the seat knocks (face down)."""
    view[V_TAKEN] = taken
    card = _ask(_DISCARD, p, policies, hands, picks, discards, view, pst)
    if card < 0 or card > 51 or not (hands[p] & bit(card)):
        return _ILLEGAL, card
    if card == taken and not cfg[C_MAY_DISCARD_TAKEN]:
        return _ILLEGAL, card
    hands[p] &= ~bit(card)
    picks[p] &= ~bit(card)
    dw = gin_deadwood(hands[p])
    if dw <= cfg[C_KNOCK_LIMIT]:
        view[V_DEADWOOD] = dw
        view[V_DISCARD] = card
        if cfg[C_WHATIF_KNOCK] >= 0 and p != view[V_DEALER]:  # what-if: not asked
            knock = dw <= cfg[C_WHATIF_KNOCK]
        else:
            knock = _ask(_KNOCK, p, policies, hands, picks, discards, view, pst) == 1
        if knock:
            return _KNOCKED, card
    discards[p] |= bit(card)
    pile[0] |= bit(card)
    view[V_PILE] = np.int64(pile[0])
    view[V_TOP] = card
    return _GO_ON, card


@nb.njit(cache=True)
def play_hand(st, pst, deck, hands, picks, discards, pile, order, view, scratch, dealer,
              cfg, policies, res, preset=False):
    """Deal and play one hand (GR-6 ... GR-15).  ``hands`` ends as the final 10-card hands;
    ``res`` gets the R_* results and ``pile[1]`` the cards laid off.  Returns False on an
    illegal answer from a policy.

    Not inlined, unlike the other per-deal helpers: a hand costs tens of microseconds, so the
    array refcounts of one call are noise, while one shared copy cuts the kernels' compile
    time several-fold (two kernels and ``play_preset`` would each inline it)."""
    pst[0] = policy_key(st[0])
    deal(st, deck, hands, preset)
    upcard = deck[2 * HAND]
    nxt = 2 * HAND + 1  # top of the stock
    for s in range(2):
        picks[s] = 0
        discards[s] = 0
        res[R_DW0 + s] = 0
    pile[0] = bit(upcard)
    pile[1] = 0
    order[0] = upcard  # the pile, bottom first: taking the top uncovers the card below
    n_pile = 1
    for k in range(VIEW_SIZE):
        view[k] = 0
    view[V_DEALER] = dealer
    view[V_UPCARD] = upcard
    view[V_TOP] = upcard
    view[V_PILE] = np.int64(pile[0])
    view[V_STOCK] = 52 - nxt
    view[V_KNOCK_LIMIT] = cfg[C_KNOCK_LIMIT]
    view[V_KNOCK_AT] = cfg[C_KNOCK_AT]
    view[V_TAKEN] = -1
    view[V_TAKEN_LOCKED] = 0 if cfg[C_MAY_DISCARD_TAKEN] else 1
    res[R_END] = END_VOID
    res[R_KNOCKER] = -1
    res[R_WINNER] = -1
    res[R_POINTS] = 0
    res[R_TAKER] = -1
    res[R_STALLED] = 0
    turns = 0
    status = _GO_ON
    knocker = -1
    # GR-7: the upcard is offered to the non-dealer, then to the dealer
    p = 1 - dealer
    from_stock_only = True
    for i in range(2):
        q = (1 - dealer) if i == 0 else dealer
        view[V_TURN] = turns
        if _ask(_UPCARD, q, policies, hands, picks, discards, view, pst) != 1:
            _note_turn(view, q, 1, 0, -1)
        else:
            res[R_TAKER] = q
            hands[q] |= bit(upcard)
            picks[q] |= bit(upcard)
            pile[0] = 0
            n_pile = 0
            view[V_TOP] = -1
            view[V_PILE] = 0
            status, card = _discard_and_knock(q, upcard, cfg, policies, hands, picks, discards,
                                              pile, view, pst)
            if status == _ILLEGAL:
                return False
            turns = 1
            if status == _KNOCKED:
                knocker = q
            else:
                _note_turn(view, q, 1, 1, card)
                order[n_pile] = card
                n_pile += 1
            p = 1 - q
            from_stock_only = False
            break
    # GR-8: turns until a knock or a void stock (GR-12)
    while knocker < 0:
        if 52 - nxt <= cfg[C_VOID_AT_STOCK]:
            break
        if turns >= MAX_TURNS:
            res[R_STALLED] = 1
            break
        view[V_TURN] = turns
        view[V_TAKEN] = -1
        take_pile = False
        offered = not from_stock_only and n_pile > 0
        if offered:
            take_pile = _ask(_DRAW, p, policies, hands, picks, discards, view, pst) == 1
        from_stock_only = False
        taken = -1
        if take_pile:
            n_pile -= 1
            taken = order[n_pile]
            hands[p] |= bit(taken)
            picks[p] |= bit(taken)
            pile[0] &= ~bit(taken)
            view[V_TOP] = order[n_pile - 1] if n_pile > 0 else -1
            view[V_PILE] = np.int64(pile[0])
        else:
            hands[p] |= bit(deck[nxt])
            nxt += 1
            view[V_STOCK] = 52 - nxt
        status, card = _discard_and_knock(p, taken, cfg, policies, hands, picks, discards, pile,
                                          view, pst)
        if status == _ILLEGAL:
            return False
        turns += 1
        if status == _KNOCKED:
            knocker = p
        else:
            _note_turn(view, p, 1 if offered else 0, 1 if take_pile else 0, card)
            order[n_pile] = card
            n_pile += 1
            p = 1 - p
    res[R_TURNS] = turns
    if knocker < 0:  # GR-12: void
        for s in range(2):
            res[R_DW0 + s] = gin_deadwood(hands[s])
        return True
    score_knock(knocker, hands, cfg, scratch, pile, res)
    return True


@nb.njit(inline="always", cache=True)
def score_knock(knocker, hands, cfg, scratch, pile, res):
    """GR-10 ... GR-15: lay-offs, undercut and gin; fills ``res`` and ``pile[1]`` (laid off)."""
    d = 1 - knocker
    kdw, ddw, off, _ = knock_result(to_sequence(hands[knocker], True),
                                    to_sequence(hands[d], True), GIN_PLANES, scratch)
    pile[1] = from_sequence(off, True)
    res[R_KNOCKER] = knocker
    res[R_DW0 + knocker] = kdw
    res[R_DW0 + d] = ddw
    end, knocker_won, points = hand_result(kdw, ddw, cfg[C_GIN_BONUS], cfg[C_UNDERCUT_BONUS])
    res[R_END] = end
    res[R_WINNER] = knocker if knocker_won else d
    res[R_POINTS] = points


@nb.njit(inline="always", cache=True)
def record_hand(out, dealt, finals, deadwoods, row, seed, deal_id, dealer, upcard, hands,
                first_hands, pile, res):
    rec = out[row]
    rec.seed = seed
    rec.deal = deal_id
    rec.dealer = dealer
    rec.upcard = upcard
    rec.upcard_taker = res[R_TAKER]
    rec.end = res[R_END]
    rec.knocker = res[R_KNOCKER]
    rec.laid_off = pile[1]
    rec.turns = res[R_TURNS]
    rec.winner = res[R_WINNER]
    rec.points = res[R_POINTS]
    for s in range(2):
        dealt[row, s] = first_hands[s]
        finals[row, s] = hands[s]
        deadwoods[row, s] = res[R_DW0 + s]


@nb.njit(cache=True)
def history_log(view, deck, dealt, hands, res, log, row):
    """``--log-plays``: row ``row`` of ``log`` gets the hand's turns (layout.turn_entry), read
    back after the hand from what ``play_hand`` keeps anyway, so the log costs nothing while
    the hand is played: the public history (layout.V_HIST: who was offered and took the pile's
    top, each discard), the deck (the stock's cards, drawn in order) and the hands dealt and
    final (the knocker's last draw and face-down discard).  Returns the number of turns
    logged: all of them, or the first MAX_HIST of a longer hand."""
    n_hist = view[V_HIST_N]
    pile = np.empty(52, np.int64)
    pile[0] = deck[2 * HAND]
    n_pile = 1
    drawn = 0  # stock cards drawn so far; the stock's top is deck[2 * HAND + 1]
    held = dealt.copy()
    n = min(n_hist, MAX_HIST, log.shape[1])
    for j in range(n):
        e = view[V_HIST + j]
        seat, offered, took, discard = e & 1, e >> 1 & 1, e >> 2 & 1, (e >> 3) - 1
        if offered and not took and discard < 0:
            log[row, j] = turn_entry(seat, TURN_PASS, -1, -1)
            continue
        if took:
            n_pile -= 1
            card = pile[n_pile]
        else:
            card = deck[2 * HAND + 1 + drawn]
            drawn += 1
        log[row, j] = turn_entry(seat, TURN_PILE if took else TURN_STOCK, card, discard)
        held[seat] = (held[seat] | bit(card)) & ~bit(discard)
        pile[n_pile] = discard
        n_pile += 1
    knocker = res[R_KNOCKER]
    if knocker < 0 or n_hist > n or n == log.shape[1]:
        return n
    # the knock: a stock card if the stock is one card shorter than the history says
    from_stock = 52 - 2 * HAND - 1 - view[V_STOCK] > drawn
    card = deck[2 * HAND + 1 + drawn] if from_stock else pile[n_pile - 1]
    down = (held[knocker] | bit(card)) & ~hands[knocker]
    log[row, n] = turn_entry(knocker, TURN_STOCK if from_stock else TURN_PILE, card,
                             lowest_bit(down))
    return n + 1


@nb.njit(inline="always", cache=True)
def first_dealer(seed, stream_a, cfg, st):
    """GR-5: a fixed seat, or drawn from the stream (seed, stream_a, 0, 1); ``st`` is left as
    it was (the callers key it for the deal next)."""
    return first_seat(seed, stream_a, cfg[C_FIRST_DEALER], 2)


@nb.njit(inline="always", cache=True)
def _dealt(deck, first_hands):
    for s in range(2):
        h = np.uint64(0)
        for i in range(HAND * s, HAND * s + HAND):
            h |= bit(deck[i])
        first_hands[s] = h


@nb.njit(inline="always", cache=True)
def final_scores(totals, won, cfg, game_scores, g):
    """GR-17/GR-18: row g of ``game_scores`` = final0, final1 (bonuses in), won0, won1.
    Returns (winner, shutout)."""
    winner, final_w, final_l, shutout = game_result(
        totals[0], totals[1], won[0], won[1], cfg[C_SHUTOUT], cfg[C_GAME_BONUS], cfg[C_BOX_BONUS],
        cfg[C_BOX_BOTH])
    loser = 1 - winner
    game_scores[g, winner] = final_w
    game_scores[g, loser] = final_l
    game_scores[g, 2] = won[0]
    game_scores[g, 3] = won[1]
    return winner, shutout


@nb.njit(cache=True)
def constrained_deal(seed, a, b, st, deck, dealer, fixed, conds, weights, roles, masks):
    """Deal (seed, a, b) under predeal/conditions into ``deck`` (then played with ``preset``);
    returns the attempts (0 = gave up) and leaves ``st[0]`` at the accepted stream's start."""
    roles[0] = dealer
    n, key = deal_constrained(seed, a, b, st, DECK_IDS, fixed, SLOT_SIZES, SHUFFLE_PAIRED,
                              conds, weights, roles, deck, masks)
    st[0] = key
    return n


@nb.njit(cache=True)
def block_scratch():
    """A block's working arrays: the deal's and the policies' streams, the deck, the hands
    (now and as dealt), each seat's picks and discards from the pile, the pile, the deal
    order, the public view, the meld search's scratch, the hand's result, and constrained
    dealing's slot masks and roles."""
    return (np.zeros(1, np.uint64), np.zeros(1, np.uint64), np.empty(52, np.int64),
            np.empty(2, np.uint64), np.empty(2, np.uint64), np.empty(2, np.uint64),
            np.empty(2, np.uint64), np.empty(2, np.uint64), np.empty(52, np.int64),
            np.empty(VIEW_SIZE, np.int64), np.empty((ARRANGEMENTS, MAX_MELDS), np.uint64),
            np.empty(16, np.int64), np.empty(SLOT_SIZES.shape[0], np.uint64),
            np.zeros(1, np.int64))


def hands_kernel(seed, start, out, dealt, finals, deadwoods, turn_log, turn_n, cfg, policies,
                 fixed, conds, weights, attempts, capped, bad):
    """Hand rows ``start ..`` in parallel blocks.  ``bad[b, 0]`` counts illegal policy answers,
    ``bad[b, 1]`` hands stopped at MAX_TURNS (recorded as void).  ``fixed``/``conds``/
    ``weights``: a simcore.dealing filter (empty: the ordinary deal); ``attempts[row]`` the
    attempts per deal, ``capped[0]`` the deal id + 1 of a deal no attempt satisfied.
    ``turn_log[row]``, ``turn_n[row]``: the row's turns and their number (``--log-plays``;
    arrays without rows: no log)."""
    n = out.shape[0]
    n_blocks = bad.shape[0]
    constrained = is_constrained(fixed, conds)
    for b in nb.prange(n_blocks):
        (st, pst, deck, hands, first_hands, picks, discards, pile, order, view, scratch, res,
         masks, roles) = block_scratch()
        lo, hi = block_range(b, n, n_blocks)
        for i in range(lo, hi):
            if capped[0]:
                break
            k = start + i
            dealer = first_dealer(seed, k, cfg, st)
            st[0] = stream_key(seed, k, 0, 0)
            attempts[i] = 1
            if constrained:
                tries = constrained_deal(seed, np.uint64(k), np.uint64(0), st, deck, dealer, fixed,
                                         conds, weights, roles, masks)
                if tries == 0:
                    capped[0] = k + 1
                    break
                attempts[i] = tries
            ok = play_hand(st, pst, deck, hands, picks, discards, pile, order, view,
                           scratch, dealer, cfg, policies, res, constrained)
            if not ok:
                bad[b, 0] += 1
                continue
            bad[b, 1] += res[R_STALLED]
            _dealt(deck, first_hands)
            record_hand(out, dealt, finals, deadwoods, i, seed, k, dealer, deck[2 * HAND], hands,
                        first_hands, pile, res)
            if turn_log.shape[0]:
                turn_n[i] = history_log(view, deck, first_hands, hands, res, turn_log, i)


def games_kernel(seed, start, games, game_scores, out, dealt, finals, deadwoods, totals_out,
                 turn_log, turn_n, offsets, record, cfg, policies, fixed, conds, weights,
                 attempts, capped, bad):
    """Whole games (GR-5, GR-16 ... GR-18) in parallel blocks.

    With ``record`` false it only plays the games and fills ``games``/``game_scores`` (row b
    of the hand arrays is block b's scratch); with ``record`` true hand rows go to
    ``offsets[g] + hand_no``.  Both passes play the same games (streams keyed by seed, game,
    hand_no).  ``game_scores[g]`` = final0, final1, won0, won1.  ``bad[b, 0]`` counts illegal
    answers, ``bad[b, 1]`` stalled hands, ``bad[b, 2]`` games stopped at 65,535 hands.
    ``turn_log``/``turn_n``: as in ``hands_kernel``, by hand row (none when not ``record``).
    """
    n = games.shape[0]
    n_blocks = bad.shape[0]
    constrained = is_constrained(fixed, conds)
    for b in nb.prange(n_blocks):
        (st, pst, deck, hands, first_hands, picks, discards, pile, order, view, scratch, res,
         masks, roles) = block_scratch()
        totals = np.zeros(2, np.int64)
        won = np.zeros(2, np.int64)
        lo, hi = block_range(b, n, n_blocks)
        for g in range(lo, hi):
            if capped[0]:
                break
            game = start + g
            dealer = first_dealer(seed, game, cfg, st)
            totals[:] = 0
            won[:] = 0
            hand_no = 0
            while True:
                st[0] = stream_key(seed, game, hand_no + 1, 0)
                row = offsets[g] + hand_no if record else np.int64(b)
                attempts[row] = 1
                if constrained:
                    tries = constrained_deal(seed, np.uint64(game), np.uint64(hand_no + 1), st,
                                             deck, dealer, fixed, conds, weights, roles, masks)
                    if tries == 0:
                        capped[0] = (game << 16 | hand_no) + 1
                        break
                    attempts[row] = tries
                ok = play_hand(st, pst, deck, hands, picks, discards, pile, order, view,
                               scratch, dealer, cfg, policies, res, constrained)
                if not ok:
                    bad[b, 0] += 1
                    break
                bad[b, 1] += res[R_STALLED]
                w = res[R_WINNER]
                if w >= 0:
                    totals[w] += res[R_POINTS]
                    won[w] += 1
                _dealt(deck, first_hands)
                deal_id = (np.uint64(game) << np.uint64(16)) | np.uint64(hand_no)
                record_hand(out, dealt, finals, deadwoods, row, seed, deal_id, dealer,
                            deck[2 * HAND], hands, first_hands, pile, res)
                if turn_log.shape[0]:
                    turn_n[row] = history_log(view, deck, first_hands, hands, res, turn_log,
                                              row)
                record_game_hand(out, totals_out, row, game, hand_no, totals)
                hand_no += 1
                if w >= 0:  # GR-5; a void hand is dealt again by the same dealer (GR-12)
                    if cfg[C_NEXT_DEALER] == 0:
                        dealer = 1 - dealer
                    elif cfg[C_NEXT_DEALER] == 1:
                        dealer = w
                    else:
                        dealer = 1 - w
                if totals[0] >= cfg[C_TARGET] or totals[1] >= cfg[C_TARGET]:  # GR-16
                    break
                if hand_no >= 65535:
                    bad[b, 2] += 1
                    break
            winner, shutout = final_scores(totals, won, cfg, game_scores, g)
            grec = games[g]
            grec.seed = seed
            grec.game = game
            grec.hands = hand_no
            grec.winner = winner
            grec.shutout = shutout


@nb.njit(cache=True)
def play_preset(deck, dealer, cfg, policies, seed):
    """One hand from a given deck order (tests, ``--predeal``): (ok, res, hands, laid_off).
    Policies draw from the stream of (seed, 0, 0, 0)."""
    st = np.zeros(1, np.uint64)
    st[0] = stream_key(seed, 0, 0, 0)
    pst = np.zeros(1, np.uint64)
    deck = deck.copy()
    hands = np.empty(2, np.uint64)
    picks = np.empty(2, np.uint64)
    discards = np.empty(2, np.uint64)
    pile = np.empty(2, np.uint64)
    order = np.empty(52, np.int64)
    view = np.empty(VIEW_SIZE, np.int64)
    scratch = np.empty((ARRANGEMENTS, MAX_MELDS), np.uint64)
    res = np.zeros(16, np.int64)
    ok = play_hand(st, pst, deck, hands, picks, discards, pile, order, view, scratch,
                   dealer, cfg, policies, res, np.bool_(True))  # not a literal: one compile
    return ok, res, hands, pile[1]


def with_play(play_fn):
    """(hands kernel, games kernel) as plain functions whose play dispatcher is ``play_fn``."""
    ask_fn = nb.njit(rebind(_ask.py_func, play=play_fn))
    disc_fn = nb.njit(rebind(_discard_and_knock.py_func, _ask=ask_fn))
    hand_fn = nb.njit(rebind(play_hand.py_func, _ask=ask_fn, _discard_and_knock=disc_fn))
    return (rebind(hands_kernel, play_hand=hand_fn), rebind(games_kernel, play_hand=hand_fn))
