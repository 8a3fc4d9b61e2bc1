"""Euchre engine: one hand (EU-5 ... EU-19) and whole games (EU-20).

Everything here is Numba-jitted over bitboards (``layout``: base order while bidding, trump
order from the moment trump is fixed).  ``batch_kernel`` is a plain function (hands mode and
game mode alike): the game package jits it with the built-in policies (cached on disk) or, through
``with_play``, with a user's play policy.
"""

import numba as nb
import numpy as np

from simcore.cards import SUIT_BITS
from simcore.dealing import (SHUFFLE_SINGLE, deal_constrained, first_seat, hands_from_runs,
                             is_constrained)
from simcore.games.base import block_range, no_search, rebind, record_game
from simcore.rng import stream_key
from simcore.tricks import follow_mask, trick_winner
from simcore.games.euchre.deck import (
    base_card_to_public,
    base_to_public,
    card_to_trump,
    to_trump,
    trump_card_to_public,
)
from simcore.games.euchre.draws import below, card_bit, count, pick
from simcore.games.euchre.layout import (
    R_FIRST_DEALER,
    R_PICKUP_OPTIONAL,
    R_STICK_THE_DEALER,
    R_TARGET,
    R_TURNED_DOWN_SUIT,
    HAND_SIZE,
    INTERNAL_IDS,
    N_CARDS,
    N_SEATS,
    N_TRICKS,
    V_ACTIVE,
    V_ALONE_DEFENDER,
    V_ALONE_MAKER,
    V_DEALER,
    V_LEADER,
    V_MAKER,
    V_NPLAYED,
    V_PICKED_UP,
    V_PLAYED,
    V_PLAYED_BY,
    V_TRICK,
    V_TRICK_CARDS,
    V_TRICK_SEATS,
    V_TRICKS,
    V_TRUMP,
    V_UPCARD,
    V_VOIDS,
    VIEW_SIZE,
    S_ALONE_DEFENDER,
    S_ALONE_MAKER,
    S_BID_ROUND,
    S_DEALER,
    S_DISCARD,
    S_MAKER,
    S_N_PLAYS,
    S_PICKED_UP,
    S_POINTS,
    S_SIDE_TRICKS,
    S_TRICKS,
    S_TRUMP,
    S_UPCARD,
    W_DEAL,
    W_GAME,
    W_HAND,
    W_HAND_NO,
    W_KITTY,
    W_SEED,
)
from simcore.games.euchre.policies import (
    D_ALONE,
    D_DEFEND_ALONE,
    D_DISCARD,
    D_NAME_TRUMP,
    D_ORDER_UP,
    D_PICKUP,
    D_WHATIF,
    WHATIF_ALONE,
    WHATIF_ORDER_UP,
    builtin_play,
    discard,
    go_alone,
    name_trump,
    order_up,
    pickup,
)
from simcore.games.euchre.scoring import hand_points

# ``play`` is the play-policy dispatcher: ``play(policy_id, seat, hand, legal, view, st)``.
# The functions below call it as a global, so the built-in one is compiled into the on-disk
# cache; for a user policy ``with_play`` rebuilds the call chain around another dispatcher.
play = builtin_play


search_context = no_search


@nb.njit(inline="always", cache=True)
def play_card(policy, seat, hand, legal, view, st, ctx):
    """A seat's card: the dispatcher ``play``; search kernels replace this hook with one that
    hands searching policies their context ``ctx``."""
    return play(policy, seat, hand, legal, view, st)

# Stream names: (seed, a, b, c).  Hands mode: deal k draws from (seed, k, 0, 0) and its dealer
# from (seed, k, 0, 1); game mode: hand h of game g from (seed, g, h + 1, 0), the game's first
# dealer from (seed, g, 0, 1).  Under --predeal/--condition simcore.dealing deals (its retries
# use (seed, k, 0, RETRY_C + j), resp. (seed, g, h + 1, RETRY_C + j)).

# How simcore.dealing deals Euchre: base-order ids in ``deal``'s order, one swap per draw,
# slots seats 0-3, the upcard, the rest of the kitty.  Nothing fixed = exactly ``deal``.
DECK_IDS = np.array([13 * (i // 6) + i % 6 for i in range(N_CARDS)], np.int64)
SLOT_SIZES = np.array([HAND_SIZE] * N_SEATS + [1, 3], np.int64)


@nb.njit(cache=True)
def stream(seed, a, b):
    return stream_key(seed, a, b, 0)


@nb.njit(inline="always", cache=True)
def deal(st, deck, hands):
    """EU-6: shuffle the 24 cards (base order, one ``below`` per swap); 5 to each seat, the
    last 4 are the kitty and the first of those is turned up.  Returns (kitty, upcard).

    Predeal and conditions go through simcore.dealing instead (``run_block``), which deals
    these very cards when nothing is fixed.
    """
    for i in range(N_CARDS):
        deck[i] = DECK_IDS[i]
    for i in range(N_CARDS - 1, 0, -1):
        j = below(st, i + 1)
        t = deck[i]
        deck[i] = deck[j]
        deck[j] = t
    kitty = hands_from_runs(deck, hands, N_SEATS, HAND_SIZE, N_CARDS)
    return kitty, deck[HAND_SIZE * N_SEATS]


@nb.njit(inline="always", cache=True)
def make_trump(st, hands, dealer, upcard, allow_turned, stick, dec, ctx):
    """EU-7, EU-9, EU-10: (trump, maker, bid round), all -1 when every seat passes twice.

    ``--what-if order-up`` (``-partner``, ``-right``, ``-dealer``): the round-1 seat at that
    position after the dealer (1 = the dealer's left … 4 = the dealer) orders up (option 0) or
    passes (option 1) whatever its policy says, when the seats before it have passed;
    everything else is the policies'."""
    forced = dec[D_WHATIF, 0] == WHATIF_ORDER_UP
    for i in range(1, N_SEATS + 1):
        seat = (dealer + i) % N_SEATS
        if forced and i == dec[D_WHATIF, 2]:
            if dec[D_WHATIF, 1] == 0:
                return upcard // 13, seat, 1
            continue
        if order_up(dec[D_ORDER_UP, seat], seat, dealer, hands[seat], upcard, st, ctx):
            return upcard // 13, seat, 1
    banned = -1 if allow_turned else upcard // 13
    for i in range(1, N_SEATS + 1):
        seat = (dealer + i) % N_SEATS
        stuck = stick and seat == dealer
        suit = name_trump(dec[D_NAME_TRUMP, seat], seat, dealer, hands[seat], banned, stuck, st,
                          ctx)
        if suit >= 0 and suit != banned:
            return suit, seat, 2
    return -1, -1, -1


@nb.njit(inline="always", cache=True)
def declare_alone(st, hands, dealer, maker, dec, view, ctx):
    """EU-12: asked in turn from the dealer's left, at most one lone player per side.
    Returns (lone maker-side seat, lone defender seat), -1 for none.

    ``--what-if alone``: the maker goes alone (option 0) or not (option 1) and its partner is
    not asked; the defenders decide as usual."""
    alone_maker = -1
    alone_defender = -1
    forced = dec[D_WHATIF, 0] == WHATIF_ALONE
    for i in range(1, N_SEATS + 1):
        seat = (dealer + i) % N_SEATS
        makers_side = (seat ^ maker) & 1 == 0
        if makers_side and alone_maker >= 0 or not makers_side and alone_defender >= 0:
            continue  # EU-12: the partner of a lone player may not
        if forced and makers_side:
            if seat == maker and dec[D_WHATIF, 1] == 0:
                alone_maker = seat
                view[V_ALONE_MAKER] = seat
            continue
        policy = dec[D_ALONE, seat] if makers_side else dec[D_DEFEND_ALONE, seat]
        if go_alone(policy, seat, hands[seat], view, st, ctx):
            if makers_side:
                alone_maker = seat
                view[V_ALONE_MAKER] = seat
            else:
                alone_defender = seat
                view[V_ALONE_DEFENDER] = seat
    return alone_maker, alone_defender


@nb.njit(cache=True)
def first_leader(dealer, alone_maker, alone_defender):
    """EU-13: left of the dealer; left of a single lone player; the lone defender if both
    sides went alone.  (The seat found is always playing.)"""
    if alone_defender >= 0 and alone_maker >= 0:
        return alone_defender
    if alone_maker >= 0:
        return (alone_maker + 1) % N_SEATS
    if alone_defender >= 0:
        return (alone_defender + 1) % N_SEATS
    return (dealer + 1) % N_SEATS


@nb.njit(cache=True)
def next_active(seat, active):
    """EU-1, EU-13: the next seat to the left that is playing this hand."""
    seat = (seat + 1) % N_SEATS
    while not (active >> seat) & 1:
        seat = (seat + 1) % N_SEATS
    return seat


@nb.njit(inline="always", cache=True)
def play_tricks(st, hands, trump, leader, policies, view, tricks, plays, winners, row, ctx):
    """EU-14, EU-15: the five tricks among the active seats (``view[V_ACTIVE]``).

    Fills ``tricks`` per seat; returns the number of cards played, -1 on an illegal play.
    """
    active = view[V_ACTIVE]
    n_active = count(active)
    view[V_PLAYED] = 0
    for s in range(N_SEATS):
        tricks[s] = 0
        view[V_TRICKS + s] = 0
        view[V_VOIDS + s] = 0
    view[V_PLAYED_BY : V_PLAYED_BY + INTERNAL_IDS] = -1
    k = 0
    log = plays.shape[0] > 0
    for t in range(N_TRICKS):
        view[V_TRICK] = t
        view[V_LEADER] = leader
        seat = leader
        led = -1
        for i in range(n_active):
            view[V_NPLAYED] = i
            hand = hands[seat]
            legal = hand if i == 0 else follow_mask(hand, led)  # EU-14 (bowers are trumps)
            card = play_card(policies[seat], seat, hand, legal, view, st, ctx)
            if card < 0 or card >= INTERNAL_IDS or not (legal & card_bit(card)):
                return -1
            if i == 0:
                led = card // 13
            elif card // 13 != led:
                view[V_VOIDS + seat] |= 1 << led
            hands[seat] = hand & ~card_bit(card)
            view[V_TRICK_CARDS + i] = card
            view[V_TRICK_SEATS + i] = seat
            view[V_PLAYED] |= np.int64(1) << np.int64(card)
            view[V_PLAYED_BY + card] = seat
            if log:
                plays[row, k] = trump_card_to_public(card, trump)
            k += 1
            seat = next_active(seat, active)  # EU-13: seats sitting out are skipped
        pos = trick_winner(view[V_TRICK_CARDS : V_TRICK_CARDS + N_SEATS], n_active, trump)  # EU-15
        winner = view[V_TRICK_SEATS + pos]
        tricks[winner] += 1
        view[V_TRICKS + winner] += 1
        if log:
            winners[row, t] = winner
        leader = winner
    return k


@nb.njit(inline="always", cache=True)
def play_tricks_random(st, hands, trump, leader, active, tricks, plays, winners, row):
    """``play_tricks`` when every seat plays the built-in ``random`` policy: the same draws
    and results (tests check it) without the view, which that policy never reads, and with
    the trick winner found branch-free: a card's key is its strength, +16 in the led suit,
    +32 if a trump, and the highest key wins (EU-15).  Returns the number of cards played."""
    n_active = count(active)
    for s in range(N_SEATS):
        tricks[s] = 0
    log = plays.shape[0] > 0
    k = 0
    for t in range(N_TRICKS):
        seat = leader
        hand = hands[seat]
        card = pick(hand, below(st, count(hand)))
        hands[seat] = hand & ~card_bit(card)
        led = card // 13
        best_key = card % 13 + 16 + 32 * (led == trump)
        best_seat = seat
        if log:
            plays[row, k] = trump_card_to_public(card, trump)
        k += 1
        led_bits = SUIT_BITS << np.uint64(13 * led)
        for i in range(1, n_active):
            seat = next_active(seat, active)  # EU-13: seats sitting out are skipped
            hand = hands[seat]
            same = hand & led_bits
            legal = same if same else hand  # EU-14 (bowers are trumps)
            card = pick(legal, below(st, count(legal)))
            hands[seat] = hand & ~card_bit(card)
            cs = card // 13
            key = card % 13 + 16 * (cs == led) + 32 * (cs == trump)
            better = key > best_key
            best_key = key if better else best_key
            best_seat = seat if better else best_seat
            if log:
                plays[row, k] = trump_card_to_public(card, trump)
            k += 1
        tricks[best_seat] += 1
        if log:
            winners[row, t] = best_seat
        leader = best_seat
    return k


@nb.njit(inline="always", cache=True)
def deal_row(st, deck, hands, seed, deal_id, dealer, wide, small, row, predealt, order, masks):
    """Deal the hand (EU-6; ``predealt``: take simcore.dealing's ``order``/``masks``) and write
    what row ``row`` knows before the bidding, the rest of it cleared.  Returns the upcard."""
    if predealt:
        for s in range(N_SEATS):
            hands[s] = masks[s]
        upcard = order[HAND_SIZE * N_SEATS]
        kitty = masks[N_SEATS] | masks[N_SEATS + 1]
    else:
        kitty, upcard = deal(st, deck, hands)
    for s in range(N_SEATS):
        wide[row, W_HAND + s] = base_to_public(hands[s])
        small[row, S_TRICKS + s] = 0
    for p in range(2):
        small[row, S_SIDE_TRICKS + p] = 0
        small[row, S_POINTS + p] = 0
    wide[row, W_SEED] = seed
    wide[row, W_DEAL] = deal_id
    wide[row, W_KITTY] = base_to_public(kitty)
    small[row, S_DEALER] = dealer
    small[row, S_UPCARD] = base_card_to_public(upcard)
    small[row, S_PICKED_UP] = 0
    small[row, S_DISCARD] = -1
    small[row, S_ALONE_MAKER] = -1
    small[row, S_ALONE_DEFENDER] = -1
    small[row, S_N_PLAYS] = 0
    return upcard


@nb.njit(inline="always", cache=True)
def score_row(small, row, n, tricks, maker, alone_maker, alone_defender):
    """Write the played hand's result to row ``row``: its ``n`` cards played, tricks per seat
    and side, and each side's points (EU-16 ... EU-19)."""
    small[row, S_N_PLAYS] = n
    for s in range(N_SEATS):
        small[row, S_TRICKS + s] = tricks[s]
    for p in range(2):
        small[row, S_SIDE_TRICKS + p] = tricks[p] + tricks[p + 2]
    side = maker & 1
    made, defended = hand_points(tricks[side] + tricks[side + 2], alone_maker >= 0,
                                 alone_defender >= 0)
    small[row, S_POINTS + side] = made
    small[row, S_POINTS + 1 - side] = defended


@nb.njit(inline="always", cache=True)
def play_and_record(st, deck, hands, view, tricks, seed, deal_id, dealer, rules, dec, policies,
                    all_random, wide, small, row, plays, winners, predealt, order, masks, ctx):
    """Deal, make trump, play and score one hand; write row ``row`` of the columns ``wide``
    and ``small`` (``layout.W_*``, ``S_*``).  Returns False if a play policy made an illegal
    play.  ``all_random``: every seat plays the built-in random policy (the fast path).

    ``predealt``: simcore.dealing has dealt ``order``/``masks`` already (``st`` is just past
    that deal, as it would be after ``deal``)."""
    upcard = deal_row(st, deck, hands, seed, deal_id, dealer, wide, small, row, predealt, order,
                      masks)
    trump, maker, bid_round = make_trump(st, hands, dealer, upcard, rules[R_TURNED_DOWN_SUIT] != 0,
                                         rules[R_STICK_THE_DEALER] != 0, dec, ctx)
    small[row, S_TRUMP] = trump
    small[row, S_MAKER] = maker
    small[row, S_BID_ROUND] = bid_round
    if maker < 0:
        return True  # EU-10: thrown in, nobody scores
    for s in range(N_SEATS):
        hands[s] = to_trump(hands[s], trump)
    up = card_to_trump(upcard, trump)
    view[V_DEALER] = dealer
    view[V_TRUMP] = trump
    view[V_MAKER] = maker
    view[V_UPCARD] = up
    view[V_PICKED_UP] = False
    view[V_ALONE_MAKER] = -1
    view[V_ALONE_DEFENDER] = -1
    picked = False
    if bid_round == 1:  # EU-8
        picked = maker == dealer or not rules[R_PICKUP_OPTIONAL] or pickup(
            dec[D_PICKUP, dealer], hands[dealer], up, trump, st, view, ctx)
        if picked:
            six = hands[dealer] | card_bit(up)
            d = discard(dec[D_DISCARD, dealer], six, up, trump, st, view, ctx)
            hands[dealer] = six & ~card_bit(d)
            small[row, S_PICKED_UP] = 1
            small[row, S_DISCARD] = trump_card_to_public(d, trump)
    view[V_PICKED_UP] = picked
    alone_maker, alone_defender = declare_alone(st, hands, dealer, maker, dec, view, ctx)
    active = 15
    if alone_maker >= 0:
        active &= ~(1 << (alone_maker ^ 2))
    if alone_defender >= 0:
        active &= ~(1 << (alone_defender ^ 2))
    view[V_ACTIVE] = active
    small[row, S_ALONE_MAKER] = alone_maker
    small[row, S_ALONE_DEFENDER] = alone_defender
    leader = first_leader(dealer, alone_maker, alone_defender)
    if all_random:
        n = play_tricks_random(st, hands, trump, leader, active, tricks, plays, winners, row)
    else:
        n = play_tricks(st, hands, trump, leader, policies, view, tricks, plays, winners, row,
                        ctx)
    if n < 0:
        return False
    score_row(small, row, n, tricks, maker, alone_maker, alone_defender)
    return True


@nb.njit(cache=True)
def run_block(b, n_blocks, hands_mode, seed, start, games, finals, wide, small, totals, offsets,
              record, rules, dec, policies, all_random, plays, winners, fixed, conds, weights,
              attempts, capped, bad):
    """Block b of either kernel.  Hands mode: rows ``start + i`` of ``out`` one deal each.
    Game mode: whole games (EU-5, EU-20); see ``batch_kernel`` for ``record``/``offsets``.

    One ordinary function (called once per block) holds the hand code for both modes, so it
    is compiled once and the parallel kernels stay tiny.
    """
    n = wide.shape[0] if hands_mode else games.shape[0]
    st = np.zeros(1, np.uint64)
    deck = np.empty(N_CARDS, np.int64)
    hands = np.empty(N_SEATS, np.uint64)
    view = np.zeros(VIEW_SIZE, np.int64)
    tricks = np.zeros(N_SEATS, np.int64)
    score = np.zeros(2, np.int64)
    order = np.empty(N_CARDS, np.int64)
    masks = np.empty(SLOT_SIZES.shape[0], np.uint64)
    roles = np.zeros(1, np.int64)
    ctx = search_context(hands)
    constrained = is_constrained(fixed, conds)
    lo, hi = block_range(b, n, n_blocks)
    for g in range(lo, hi):
        if capped[0]:
            break
        game = start + g
        dealer = first_seat(seed, game, rules[R_FIRST_DEALER], N_SEATS)  # EU-5
        score[:] = 0
        hand_no = 0
        while True:
            if hands_mode:
                st[0] = stream(seed, game, 0)
                row = g
                deal_id = np.uint64(game)
            else:
                st[0] = stream(seed, game, hand_no + 1)
                row = offsets[g] + hand_no if record else np.int64(b)
                deal_id = (np.uint64(game) << np.uint64(16)) | np.uint64(hand_no)
            if constrained:
                roles[0] = dealer
                tries, _ = deal_constrained(
                    seed, np.uint64(game), np.uint64(0 if hands_mode else hand_no + 1), st,
                    DECK_IDS, fixed, SLOT_SIZES, SHUFFLE_SINGLE, conds, weights, roles, order,
                    masks)
                if tries == 0:
                    capped[0] = np.int64(deal_id) + 1
                    break
                if attempts.shape[0] > 0:
                    attempts[row] = tries
            if not play_and_record(st, deck, hands, view, tricks, seed, deal_id, dealer, rules,
                                   dec, policies, all_random, wide, small, row, plays, winners,
                                   constrained, order, masks, ctx):
                bad[b] += 1
                break
            if hands_mode:
                break
            wide[row, W_GAME] = game
            wide[row, W_HAND_NO] = hand_no
            for side in range(2):
                score[side] += small[row, S_POINTS + side]
                totals[row, side] = score[side]
            hand_no += 1
            dealer = (dealer + 1) % N_SEATS  # EU-5: the deal passes left, even after a redeal
            target = rules[R_TARGET]
            if score[0] >= target or score[1] >= target:
                break  # EU-20
            if hand_no >= 65535:
                break  # a game that cannot end (e.g. every hand thrown in): winner -1
        if not hands_mode:
            target = rules[R_TARGET]
            winner = 0 if score[0] >= target else (1 if score[1] >= target else -1)
            record_game(games, g, seed, game, hand_no, winner)
            finals[g, 0] = score[0]
            finals[g, 1] = score[1]


def batch_kernel(hands_mode, seed, start, games, finals, wide, small, totals, offsets, record,
                 rules, dec, policies, all_random, plays, winners, fixed, conds, weights, attempts,
                 capped, bad):
    """Rows in parallel blocks; ``bad[b]`` counts illegal plays in block b.

    Hands mode: row i of ``wide``/``small`` is deal ``start + i`` (``games``, ``finals``,
    ``totals`` and ``offsets`` are unused).  ``all_random``: every seat plays the built-in
    random policy (take the fast path).  Game mode: games ``start ..``; with ``record`` false it only
    plays the games and fills ``games`` and ``finals``, using row b of the hand arrays as block
    b's scratch; with ``record`` true the hand arrays are sized to the total hands and hand
    rows go to ``offsets[g] + hand_no``.  Both passes play the same games because every
    hand's stream is keyed by (seed, game, hand_no).  One kernel serves both modes so that the
    hand code is compiled once.  ``fixed``/``conds``/``weights``: a simcore.dealing filter
    (empty: the ordinary deal); ``attempts[row]`` the attempts per constrained deal (an empty
    array: not wanted); ``capped[0]`` the deal
    id + 1 of a deal no attempt satisfied (blocks then stop).
    """
    n_blocks = bad.shape[0]
    for b in nb.prange(n_blocks):
        # np.int64: the prange index is typed differently in Numba's two passes over the loop,
        # and run_block would otherwise be compiled twice
        run_block(np.int64(b), n_blocks, hands_mode, seed, start, games, finals, wide, small,
                  totals, offsets, record, rules, dec, policies, all_random, plays, winners, fixed,
                  conds, weights, attempts, capped, bad)


def with_play(play_fn):
    """The batch kernel as a plain function whose play dispatcher is ``play_fn``."""
    card_fn = nb.njit(inline="always")(rebind(play_card.py_func, play=play_fn))
    return kernel_with(lambda fn, name: nb.njit(fn), play_card=card_fn)


def kernel_with(jit_block, **hooks):
    """The batch kernel as a plain function with hooks replaced: ``play_card``, the decisions
    (``order_up``, ``name_trump``, ``pickup``, ``discard``, ``go_alone``: the policies' own
    signatures) and ``search_context``.  ``jit_block(fn, name)`` jits the block function (the
    search kernels give it a cached home of their own, under ``name``)."""
    def inline(fn, **more):
        return nb.njit(inline="always")(rebind(fn.py_func, **hooks, **more))

    record_fn = inline(play_and_record, play_tricks=inline(play_tricks),
                       make_trump=inline(make_trump), declare_alone=inline(declare_alone))
    block_fn = jit_block(rebind(run_block.py_func, **hooks, play_and_record=record_fn),
                         "search_run_block")
    return rebind(batch_kernel, run_block=block_fn)
