"""Spades engine: one hand (SP-3 ... SP-14) and whole games (SP-15, SP-16).

Everything here is Numba-jitted over bitboards of card ids (``layout``).  ``hands_kernel`` and
``games_kernel`` are plain functions: the game package jits them with the built-in policies
(cached on disk) or, through ``with_play``, with a user's play policy.
"""

import numba as nb
import numpy as np

from simcore.cards import SUIT_BITS, bit
from simcore.dealing import (SHUFFLE_PAIRED, constrained_deal, deal_runs, first_seat,
                             is_constrained)
from simcore.games.base import block_range, rebind, record_game
from simcore.rng import policy_key, stream_key
from simcore.tricks import beats, follow_mask
from simcore.games.spades.layout import (
    D_BAG_PENALTY,
    D_NIL_POINTS,
    D_SCORE,
    D_TOTAL_BAGS,
    N_SEATS,
    N_TRICKS,
    R_BAG_LIMIT,
    R_BAG_PENALTY,
    R_BLIND_BEFORE_BIDDING,
    R_BLIND_MIN_DEFICIT,
    R_BLIND_NIL,
    R_BLIND_NIL_VALUE,
    R_FIRST_DEALER,
    R_MAX_HANDS,
    R_MUST_BREAK,
    R_NIL_VALUE,
    R_TARGET,
    S_BAGS,
    S_BID,
    S_BLIND,
    S_BROKEN,
    S_CONTRACT,
    S_DEALER,
    S_TRICKS,
    SPADE_CARDS,
    SPADES,
    V_BAGS,
    V_BIDS,
    V_BLIND,
    V_BROKEN,
    V_DEALER,
    V_LEADER,
    V_NPLAYED,
    V_PLAYED,
    V_PLAYED_BY,
    V_TARGET,
    V_TOTAL,
    V_TRICK,
    V_TRICK_CARDS,
    V_TRICKS,
    V_VOIDS,
    W_DEAL,
    W_DEALT,
    W_GAME,
    W_HAND,
    W_HAND_NO,
    W_PASSED,
    W_SEED,
)
from simcore.games.spades.policies import (
    M_BLIND_NIL,
    M_EXCHANGE,
    M_NIL,
    M_WHATIF_NIL,
    builtin_play,
    choose_bid,
    choose_blind_nil,
    choose_exchange,
    random_card,
)
from simcore.games.spades.scoring import game_winner, score_side

# ``play`` is the play-policy dispatcher: ``play(policy_id, seat, hand, legal, view, st)``.
# The functions below call it as a global, so the built-in one is compiled into the on-disk
# cache; for a user policy ``with_play`` rebuilds the call chain around another dispatcher.
play = builtin_play


@nb.njit(cache=True)
def no_search(hands, passed, rules):
    """The search context of kernels without search policies: nothing (the hands array, which
    costs nothing to pass).  Search kernels (``kernel_with``) allocate their solver table and
    sampler scratch here, once per block, and keep ``hands``, ``passed`` and ``rules``."""
    return hands


search_context = no_search


@nb.njit(inline="always", cache=True)
def play_card(policy, seat, hand, legal, view, st, ctx):
    """A seat's card: the dispatcher ``play``; search kernels replace this hook with one that
    hands searching policies their context ``ctx``."""
    return play(policy, seat, hand, legal, view, st)


@nb.njit(inline="always", cache=True)
def bid_for(bid_policy, nil_mode, seat, hand, view, st, ctx):
    """A seat's bid (``choose_bid``); search kernels replace this hook."""
    return choose_bid(bid_policy, nil_mode, seat, hand, view, st)


@nb.njit(inline="always", cache=True)
def seen_card(ctx, view, seat, card, i):
    """Called before each card enters the view; search kernels record what the view does not
    keep (a spade led before spades broke: the leader held nothing else)."""
    return None

# Stream names: (seed, a, b, c).  Hands mode: deal k plays from (seed, k, 0, 0) and its dealer
# is drawn from (seed, k, 0, 1); game mode: hand h of game g plays from (seed, g, h + 1, 0) and
# the game's first dealer is drawn from (seed, g, 0, 1).  Under --predeal/--condition a deal is
# dealt by simcore.dealing (retries from (seed, k, 0, RETRY_C + j), resp. (seed, g, h + 1, ...)).

# How simcore.dealing deals Spades (the same cards as ``deal`` when nothing is fixed).
DECK_IDS = np.arange(52, dtype=np.int64)
SLOT_SIZES = np.full(N_SEATS, 13, np.int64)


@nb.njit(inline="always", cache=True)
def deal(st, deck, hands):
    """SP-3: shuffle the 52 cards, 13 to each seat (seat s gets the s-th run of 13)."""
    deal_runs(st, deck, hands, N_SEATS, 13)


@nb.njit(inline="always", cache=True)
def legal_cards(hand, i, led, must_break, broken):
    """The cards ``hand`` may play as the trick's i-th card, ``led`` the suit led: SP-8, and
    SP-7 (no spade lead before spades break, unless the hand holds nothing else)."""
    if i > 0:
        return follow_mask(hand, led)
    if must_break and not broken and (hand & ~SPADE_CARDS):
        return hand & ~SPADE_CARDS
    return hand


@nb.njit(inline="always", cache=True)
def blind_nil_allowed(rules, view, seat):
    """SP-6: blind nil is on and the seat's side trails by at least the minimum deficit."""
    if not rules[R_BLIND_NIL]:
        return False
    need = rules[R_BLIND_MIN_DEFICIT]
    side = seat & 1
    return need <= 0 or view[V_TOTAL + 1 - side] - view[V_TOTAL + side] >= need


@nb.njit(inline="always", cache=True)
def bidding(st, hands, dealer, rules, bid_policies, modes, view, ctx):
    """SP-4 ... SP-6: one round of bids from the dealer's left; fills V_BIDS and V_BLIND."""
    for s in range(N_SEATS):
        view[V_BIDS + s] = -1
        view[V_BLIND + s] = 0
    first = (dealer + 1) & 3
    # --what-if nil: the first bidder's bid is fixed (a 3-mode array, as older callers pass,
    # has no what-if slot)
    forced = modes[M_WHATIF_NIL] if modes.shape[0] > M_WHATIF_NIL else 0
    before = rules[R_BLIND_BEFORE_BIDDING] != 0
    if before:  # blind_nil_timing = before_bidding: every seat declares before any bid
        for i in range(N_SEATS):
            s = (first + i) & 3
            if forced and s == first:
                continue
            if blind_nil_allowed(rules, view, s) and choose_blind_nil(
                    bid_policies[s], modes[M_BLIND_NIL], s, view, st):
                view[V_BIDS + s] = 0
                view[V_BLIND + s] = 1
    for i in range(N_SEATS):
        s = (first + i) & 3
        if view[V_BLIND + s]:
            continue
        if forced and s == first:  # 1: nil; 2: the number its bid policy gives (never nil)
            view[V_BIDS + s] = 0 if forced == 1 else bid_for(bid_policies[s], np.int64(1), s,
                                                             hands[s], view, st, ctx)
            continue
        if not before and blind_nil_allowed(rules, view, s) and choose_blind_nil(
                bid_policies[s], modes[M_BLIND_NIL], s, view, st):
            view[V_BIDS + s] = 0
            view[V_BLIND + s] = 1
            continue
        view[V_BIDS + s] = bid_for(bid_policies[s], modes[M_NIL], s, hands[s], view, st, ctx)


@nb.njit(inline="always", cache=True)
def exchange_mode(bid_policy, mode):
    if mode != 0:
        return mode
    return 1 if bid_policy == 1 else 2


@nb.njit(inline="always", cache=True)
def blind_nil_exchange(st, hands, bid_policies, modes, view, passed):
    """SP-6: a blind-nil bidder and partner each give three cards, chosen at the same time
    from their hands as they were; none when both partners bid blind nil."""
    for s in range(N_SEATS):
        passed[s] = 0
    for a in range(2):
        b = a + 2
        if view[V_BLIND + a] == view[V_BLIND + b]:
            continue
        blind_seat = a if view[V_BLIND + a] else b
        partner = b if blind_seat == a else a
        give_blind = choose_exchange(exchange_mode(bid_policies[blind_seat], modes[M_EXCHANGE]),
                                     hands[blind_seat], True, st)
        give_partner = choose_exchange(exchange_mode(bid_policies[partner], modes[M_EXCHANGE]),
                                       hands[partner], False, st)
        hands[blind_seat] = (hands[blind_seat] & ~give_blind) | give_partner
        hands[partner] = (hands[partner] & ~give_partner) | give_blind
        passed[blind_seat] = give_blind
        passed[partner] = give_partner


@nb.njit(inline="always", cache=True)
def play_tricks(st, hands, leader, must_break, policies, view, plays, winners, row, ctx):
    """SP-7 ... SP-10: the 13 tricks; counts tricks per seat in the view.  ``must_break``:
    the rules option ``must_break_spades`` (false: a spade may be led at any time).

    ``hands`` are consumed.  Returns the trick (0-12) in which spades broke, or -2 when a
    policy chose an illegal card (only a user policy can).
    """
    view[V_PLAYED] = 0
    view[V_BROKEN] = 0
    for s in range(N_SEATS):
        view[V_TRICKS + s] = 0
        view[V_VOIDS + s] = 0
    for c in range(52):
        view[V_PLAYED_BY + c] = -1
    log = plays.shape[0] > 0
    broken = False
    broken_trick = -1
    k = 0
    for t in range(N_TRICKS):
        view[V_TRICK] = t
        view[V_LEADER] = leader
        led = 0
        best = 0
        best_pos = 0
        for i in range(N_SEATS):
            view[V_NPLAYED] = i
            seat = (leader + i) & 3
            hand = hands[seat]
            legal = legal_cards(hand, i, led, must_break, broken)
            card = play_card(policies[seat], seat, hand, legal, view, st, ctx)
            if card < 0 or card > 51 or not (legal & bit(card)):
                return -2
            seen_card(ctx, view, seat, card, i)
            hands[seat] = hand & ~bit(card)
            if i == 0:
                led = card // 13
                best = card
            else:
                if card // 13 != led:
                    view[V_VOIDS + seat] |= 1 << led
                if beats(card, best, SPADES):  # SP-10
                    best = card
                    best_pos = i
            if card // 13 == SPADES and not broken:  # SP-9: the first spade breaks them
                broken = True
                broken_trick = t
                view[V_BROKEN] = 1
            view[V_TRICK_CARDS + i] = card
            view[V_PLAYED] |= np.int64(1) << np.int64(card)
            view[V_PLAYED_BY + card] = seat
            if log:
                plays[row, k] = card
            k += 1
        winner = (leader + best_pos) & 3
        view[V_TRICKS + winner] += 1
        if winners.shape[0] > 0:
            winners[row, t] = winner
        leader = winner
    return broken_trick


@nb.njit(inline="always", cache=True)
def play_tricks_random(st, hands, leader, must_break, view, plays, winners, row):
    """``play_tricks`` when every seat plays the built-in ``random`` policy: the same draws
    and results (tests check it), without the view the random policy never reads (only
    V_TRICKS is filled, for scoring) and with the trick winner found branch-free: a card's
    key is its rank, +16 in the led suit, +32 if a spade, and the highest key wins (SP-10).
    """
    log = plays.shape[0] > 0
    broken = False
    broken_trick = -1
    t0 = 0
    t1 = 0
    t2 = 0
    t3 = 0
    for t in range(N_TRICKS):
        hand = hands[leader]
        legal = hand
        side = hand & ~SPADE_CARDS
        if must_break and not broken and side:
            legal = side  # SP-7
        card = random_card(legal, st)
        hands[leader] = hand & ~bit(card)
        led = card // 13
        best_key = card % 13 + 16 + 32 * (led == SPADES)
        best_pos = 0
        if card >= 13 * SPADES and not broken:  # SP-9
            broken = True
            broken_trick = t
        if log:
            plays[row, 4 * t] = card
        led_bits = SUIT_BITS << np.uint64(13 * led)
        for i in range(1, N_SEATS):
            seat = (leader + i) & 3
            hand = hands[seat]
            same = hand & led_bits
            legal = same if same else hand  # SP-8
            card = random_card(legal, st)
            hands[seat] = hand & ~bit(card)
            cs = card // 13
            key = card % 13 + 16 * (cs == led) + 32 * (cs == SPADES)
            better = key > best_key
            best_key = key if better else best_key
            best_pos = i if better else best_pos
            if cs == SPADES and not broken:  # SP-9
                broken = True
                broken_trick = t
            if log:
                plays[row, 4 * t + i] = card
        winner = (leader + best_pos) & 3
        t0 += winner == 0
        t1 += winner == 1
        t2 += winner == 2
        t3 += winner == 3
        if winners.shape[0] > 0:
            winners[row, t] = winner
        leader = winner
    view[V_TRICKS] = t0
    view[V_TRICKS + 1] = t1
    view[V_TRICKS + 2] = t2
    view[V_TRICKS + 3] = t3
    return broken_trick


@nb.njit(inline="always", cache=True)
def play_and_record(st, pst, deck, hands, passed, view, seed, deal_id, dealer, rules,
                    bid_policies, modes, policies, all_random, totals, bags, wide, small, side16,
                    total, row, plays, winners, predealt, ctx):
    """Deal, bid, exchange, play and score one hand; write row ``row`` of the column arrays
    (``layout``: ``wide``, ``small``, ``side16``, and ``total`` unless it has no columns); add
    the hand to ``totals`` and ``bags`` (the running score and carried bags of each side).

    ``st[0]`` is the deal's stream (set by the caller); policies draw from ``pst``, a sibling
    stream derived one way from it, so a policy's random state never gives back the deal.
    ``predealt``: ``hands`` already hold the deal (constrained dealing; ``st[0]`` is then the
    accepted attempt's stream start).  Returns False if a policy made an illegal play (the row is incomplete).
    """
    pst[0] = policy_key(st[0])
    view[V_DEALER] = dealer
    view[V_TARGET] = rules[R_TARGET]
    for p in range(2):
        view[V_TOTAL + p] = totals[p]
        view[V_BAGS + p] = bags[p]
    if not predealt:
        deal(st, deck, hands)
    for s in range(N_SEATS):
        wide[row, W_DEALT + s] = hands[s]
    bidding(pst, hands, dealer, rules, bid_policies, modes, view, ctx)
    blind_nil_exchange(pst, hands, bid_policies, modes, view, passed)
    for s in range(N_SEATS):
        wide[row, W_HAND + s] = hands[s]
        wide[row, W_PASSED + s] = passed[s]
    must_break = rules[R_MUST_BREAK] != 0
    if all_random:
        broken_trick = play_tricks_random(pst, hands, (dealer + 1) & 3, must_break, view, plays,
                                          winners, row)
    else:
        broken_trick = play_tricks(pst, hands, (dealer + 1) & 3, must_break, policies, view,
                                   plays, winners, row, ctx)
    if broken_trick == -2:
        return False
    for s in range(N_SEATS):
        small[row, S_BID + s] = view[V_BIDS + s]
        small[row, S_BLIND + s] = view[V_BLIND + s]
        small[row, S_TRICKS + s] = view[V_TRICKS + s]
    for p in range(2):
        score, hand_bags, contract, nil_points, penalty, carried = score_side(
            view[V_BIDS + p], view[V_BLIND + p], view[V_TRICKS + p],
            view[V_BIDS + p + 2], view[V_BLIND + p + 2], view[V_TRICKS + p + 2],
            bags[p], rules[R_BAG_LIMIT], rules[R_BAG_PENALTY], rules[R_NIL_VALUE],
            rules[R_BLIND_NIL_VALUE])
        totals[p] += score
        bags[p] = carried
        # the narrow columns wrap as numpy's astype would; no Spades value comes near
        small[row, S_CONTRACT + p] = contract
        small[row, S_BAGS + p] = hand_bags
        side16[row, D_SCORE + p] = score
        side16[row, D_NIL_POINTS + p] = nil_points
        side16[row, D_BAG_PENALTY + p] = penalty
        side16[row, D_TOTAL_BAGS + p] = carried
        if total.shape[1] > 0:
            total[row, p] = totals[p]
    wide[row, W_SEED] = seed
    wide[row, W_DEAL] = deal_id
    small[row, S_DEALER] = dealer
    small[row, S_BROKEN] = broken_trick
    return True


@nb.njit(cache=True)
def block_scratch():
    """A block's working arrays: the deal's and the policies' streams, the deck, hands, the
    cards passed in a blind-nil exchange, the public view, running scores and bags per side,
    and constrained dealing's order, slot masks and roles."""
    return (np.zeros(1, np.uint64), np.zeros(1, np.uint64), np.empty(52, np.int64),
            np.empty(N_SEATS, np.uint64), np.empty(N_SEATS, np.uint64),
            np.zeros(V_PLAYED_BY + 52, np.int64), np.zeros(2, np.int64), np.zeros(2, np.int64),
            np.empty(52, np.int64), np.empty(N_SEATS, np.uint64), np.zeros(1, np.int64))


@nb.njit(cache=True)
def hands_block(seed, start, lo, hi, wide, small, side16, total, rules, bid_policies, modes,
                policies, all_random, plays, winners, fixed, conds, weights, attempts, capped):
    """Hand rows lo .. hi-1 (one worker's block); every hand starts at 0 points and 0 bags.
    Returns the number of hands in which a policy played an illegal card.

    A separate (non-inlined, separately cached) function called once per block, so that the
    parallel kernel around it stays small and compiles quickly.
    """
    st, pst, deck, hands, passed, view, totals, bags, order, masks, roles = block_scratch()
    constrained = is_constrained(fixed, conds)
    ctx = search_context(hands, passed, rules)
    bad = 0
    for i in range(lo, hi):
        if capped[0]:
            break
        k = start + i
        dealer = first_seat(seed, k, rules[R_FIRST_DEALER], N_SEATS)  # SP-3
        st[0] = stream_key(seed, k, 0, 0)
        if constrained:
            n = constrained_deal(seed, np.uint64(k), np.uint64(0), st, DECK_IDS, SLOT_SIZES,
                                 SHUFFLE_PAIRED, fixed, conds, weights, roles, dealer, order,
                                 masks, hands)
            if n == 0:
                capped[0] = k + 1
                break
            if attempts.shape[0] > 0:
                attempts[i] = n
        totals[0] = 0
        totals[1] = 0
        bags[0] = 0
        bags[1] = 0
        if not play_and_record(st, pst, deck, hands, passed, view, seed, np.uint64(k), dealer,
                               rules, bid_policies, modes, policies, all_random, totals, bags,
                               wide, small, side16, total, i, plays, winners, constrained, ctx):
            bad += 1
    return bad


@nb.njit(cache=True)
def games_block(seed, start, lo, hi, b, games, game_values, wide, small, side16, total, offsets,
                record, rules, bid_policies, modes, policies, all_random, plays, winners, fixed,
                conds, weights, attempts, capped):
    """Games lo .. hi-1 (one worker's block, ``b``), played to the target (SP-15, SP-16).
    Returns the number of games stopped by an illegal play."""
    target = rules[R_TARGET]
    max_hands = rules[R_MAX_HANDS]
    st, pst, deck, hands, passed, view, totals, bags, order, masks, roles = block_scratch()
    constrained = is_constrained(fixed, conds)
    ctx = search_context(hands, passed, rules)
    bad = 0
    for g in range(lo, hi):
        if capped[0]:
            break
        game = start + g
        dealer = first_seat(seed, game, rules[R_FIRST_DEALER], N_SEATS)  # SP-3
        totals[0] = 0
        totals[1] = 0
        bags[0] = 0
        bags[1] = 0
        hand_no = 0
        winner = -1
        while True:
            st[0] = stream_key(seed, game, hand_no + 1, 0)
            row = offsets[g] + hand_no if record else np.int64(b)
            deal_id = (np.uint64(game) << np.uint64(16)) | np.uint64(hand_no)
            if constrained:
                n = constrained_deal(seed, np.uint64(game), np.uint64(hand_no + 1), st, DECK_IDS,
                                     SLOT_SIZES, SHUFFLE_PAIRED, fixed, conds, weights, roles,
                                     dealer, order, masks, hands)
                if n == 0:
                    capped[0] = np.int64(deal_id) + 1
                    break
                if attempts.shape[0] > 0:
                    attempts[row] = n
            if not play_and_record(st, pst, deck, hands, passed, view, seed, deal_id, dealer, rules,
                                   bid_policies, modes, policies, all_random, totals, bags, wide,
                                   small, side16, total, row, plays, winners, constrained, ctx):
                bad += 1
                break
            wide[row, W_GAME] = game
            wide[row, W_HAND_NO] = hand_no
            hand_no += 1
            dealer = (dealer + 1) & 3  # SP-15
            winner = game_winner(totals[0], totals[1], target)  # SP-16
            if winner >= 0 or hand_no >= max_hands:
                break
        record_game(games, g, seed, game, hand_no, winner)
        for p in range(2):
            game_values[g, 0, p] = totals[p]
            game_values[g, 1, p] = bags[p]
    return bad


def hands_kernel(seed, start, wide, small, side16, total, rules, bid_policies, modes, policies,
                 all_random, plays, winners, fixed, conds, weights, attempts, capped, bad):
    """Hand rows ``start ..`` in parallel blocks (``hands_block``).  ``all_random``: every
    seat plays the built-in random policy (take the fast path).  ``bad[b]`` counts illegal
    plays in block b.  ``fixed``/``conds``/``weights``: a simcore.dealing filter (empty: the
    ordinary deal); ``attempts[row]`` gets the attempts of each constrained deal (an empty
    array: not wanted), ``capped[0]`` the deal id + 1 of a deal no attempt satisfied (the
    blocks then stop)."""
    n = wide.shape[0]
    n_blocks = bad.shape[0]
    for b in nb.prange(n_blocks):
        lo, hi = block_range(b, n, n_blocks)
        bad[b] = hands_block(seed, start, lo, hi, wide, small, side16, total, rules, bid_policies,
                             modes, policies, all_random, plays, winners, fixed, conds, weights,
                             attempts, capped)


def games_kernel(seed, start, games, game_values, wide, small, side16, total, offsets, record,
                 rules, bid_policies, modes, policies, all_random, plays, winners, fixed, conds,
                 weights, attempts, capped, bad):
    """Whole games in parallel blocks (``games_block``).

    With ``record`` false it only plays the games and fills ``games`` and ``game_values``
    (final score and bags per side), using row b of the row arrays as block b's scratch; with
    ``record`` true the row arrays are sized to the total hands and hand rows go to
    ``offsets[g] + hand_no``.  Both passes play the same games because every hand's stream is
    keyed by (seed, game, hand_no).
    """
    n = games.shape[0]
    n_blocks = bad.shape[0]
    for b in nb.prange(n_blocks):
        lo, hi = block_range(b, n, n_blocks)
        # np.int64(b): the prange index is unsigned here and signed in the search kernels,
        # and games_block would otherwise be compiled once for each
        bad[b] = games_block(seed, start, lo, hi, np.int64(b), games, game_values, wide, small, side16,
                             total, offsets, record, rules, bid_policies, modes, policies,
                             all_random, plays, winners, fixed, conds, weights, attempts, capped)


def with_play(play_fn):
    """(hands kernel, games kernel) as plain functions whose play dispatcher is ``play_fn``."""
    card_fn = nb.njit(inline="always")(rebind(play_card.py_func, play=play_fn))
    return kernels_with(lambda fn, name: nb.njit(fn), play_card=card_fn)


def kernels_with(jit_block, **hooks):
    """(hands kernel, games kernel) as plain functions with hooks replaced: ``play_card``,
    ``bid_for``, ``seen_card``, ``search_context`` and the bidding's own callees
    (``choose_blind_nil``, ``exchange_mode``).  ``jit_block(fn, name)`` jits a block function
    (the search kernels give it a cached home of their own)."""
    def inline(fn, **more):
        return nb.njit(inline="always")(rebind(fn.py_func, **hooks, **more))

    record_fn = inline(play_and_record, play_tricks=inline(play_tricks), bidding=inline(bidding),
                       blind_nil_exchange=inline(blind_nil_exchange))
    hands_fn = jit_block(rebind(hands_block.py_func, **hooks, play_and_record=record_fn),
                         "search_hands_block")
    games_fn = jit_block(rebind(games_block.py_func, **hooks, play_and_record=record_fn),
                         "search_games_block")
    return (rebind(hands_kernel, hands_block=hands_fn), rebind(games_kernel, games_block=games_fn))
