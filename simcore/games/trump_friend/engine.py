"""Trump Friend engine: one round (TF-4 ... TF-13) and whole games (TF-14 ... TF-18).

Everything here is Numba-jitted over bitboards of internal card ids (``layout``).
``hands_kernel`` and ``games_kernel`` are plain functions: the game package jits them with the
built-in policies (cached on disk) or, through ``with_play``, with a user's policy.
"""

import numba as nb
import numpy as np

from simcore.games.base import block_range, no_search, rebind, record_game
from simcore.cards import SUIT_BITS, bit, highest_bit, popcount, suit_mask
from simcore.dealing import (SHUFFLE_PAIRED, constrained_deal, deal_runs, first_seat,
                             is_constrained)
from simcore.rng import policy_key, stream_key
from simcore.tricks import follow_mask, trick_winner
from simcore.games.trump_friend.layout import (
    R_EXCEED,
    R_FIRST_DECLARER,
    R_LOSING_LINE,
    R_OWN_CARD,
    N_SEATS,
    N_TRICKS,
    ONE_POINT,
    SV_DELTA,
    SV_POINTS,
    SV_TOTAL,
    S_DECLARER,
    S_DEFENDER_POINTS,
    S_FRIEND_CARD,
    S_FRIEND_OWN,
    S_FRIEND_SEAT,
    S_TEAM_POINTS,
    S_TRUMP,
    S_WON,
    TO_PUBLIC,
    TWO_POINTS,
    V_DECLARER,
    V_FRIEND_CARD,
    V_FRIEND_SEAT,
    V_LEADER,
    V_NPLAYED,
    V_PLAYED,
    V_PLAYED_BY,
    V_POINTS,
    V_TRICK,
    V_TRICK_CARDS,
    V_TRUMP,
    VIEW_SIZE,
    W_DEAL,
    W_GAME,
    W_HAND_NO,
    W_HANDS,
    W_KITTY,
    W_SEED,
    public_mask,
)
from simcore.games.trump_friend.policies import (builtin_play, card_points, choose_friend, choose_trump,
                                                 random_card)

_ALL = np.uint64((1 << 52) - 1)

# ``play`` is the play-policy dispatcher: ``play(policy_id, seat, hand, legal, view, st)``.
# The functions below call it as a global, so the built-in one is compiled into the on-disk
# cache; for a user policy ``with_play`` rebuilds the call chain around another dispatcher
# (a dispatcher passed as a value would make every kernel uncachable).
play = builtin_play

# Stream names: (seed, a, b, c).  Hands mode: (seed, deal, 0, 0); game mode: (seed, game,
# hand_no + 1, 0); a game's first declarer: (seed, game, 0, 1).


search_context = no_search
SEARCH = False  # kernels whose play_round hands the search context to ``play_card``


@nb.njit(inline="always", cache=True)
def play_card(policy, seat, hand, legal, view, st, ctx):
    """A seat's card: the dispatcher ``play``; search kernels replace this hook with one that
    hands searching policies their context ``ctx``."""
    return play(policy, seat, hand, legal, view, st)


@nb.njit(inline="always", cache=True)
def seen_card(ctx, view, seat, card, i, led_suit):
    """Called as each card is played; search kernels record what the view does not keep (the
    voids shown by not following, TF-7)."""
    return None


@nb.njit(inline="always", cache=True)
def declare(trump_policy, friend_policy, policies, declarer, hand, st, ctx):
    """TF-5: the declarer's trump, then friend call, by the run's declaration policies; search
    kernels replace this hook with one where a searching declarer (or ``trump=pimc``) searches."""
    trump = choose_trump(trump_policy, hand, st)
    return trump, choose_friend(friend_policy, hand, trump, st)


@nb.njit(inline="always", cache=True)
def deal(st, deck, hands):
    """TF-4: shuffle all 52 cards; 10 to each seat, the last 2 are the kitty."""
    return deal_runs(st, deck, hands, N_SEATS, 10)


# How simcore.dealing deals Trump Friend (the same cards as ``deal`` when nothing is fixed):
# the deck in id order, five hands of 10 then the kitty of 2 (``--predeal kitty=...``).
DECK_IDS = np.arange(52, dtype=np.int64)
SLOT_SIZES = np.array([10, 10, 10, 10, 10, 2], np.int64)
KITTY_SLOT = 5


@nb.njit(inline="always", cache=True)
def score(points, declarer, friend_seat, no_friend, delta):
    """TF-11 ... TF-13.  ``friend_seat`` is -1 when the team is the declarer alone.

    Fills ``delta`` (score change per seat) and returns (D, O).
    """
    d = points[declarer]
    if friend_seat >= 0 and friend_seat != declarer:
        d += points[friend_seat]
    total = 0
    for s in range(N_SEATS):
        total += points[s]
    o = total - d
    for s in range(N_SEATS):
        delta[s] = 0
    if d == o:
        return d, o
    for s in range(N_SEATS):
        on_team = s == declarer or s == friend_seat
        if d > o and not on_team:
            delta[s] = -(2 * d - o) if no_friend else -(d - o)
        elif d < o and on_team:
            delta[s] = -(o - d)
    return d, o


@nb.njit(inline="always", cache=True)
def play_round(pst, hands, trick, declarer, trump, friend_card, policies, view, points, plays,
               winners, row, ctx=None):
    """Play the 10 tricks of a round (TF-6 ... TF-10); fills ``points`` per seat.

    ``hands`` are consumed.  ``view`` is what policies see; the engine never reads it back
    (a policy may scribble on it), keeping the trick's cards in its own ``trick`` array.
    Returns the seat that played the friend card, -1 if nobody did, -2 on an illegal play.
    """
    for s in range(N_SEATS):
        points[s] = 0
    friend_seat = -1
    leader = (declarer + 1) % N_SEATS  # TF-6
    k = 0
    start_view(view, declarer, trump, friend_card)
    for t in range(N_TRICKS):
        view[V_TRICK] = t
        view[V_LEADER] = leader
        led_suit = -1
        for i in range(N_SEATS):
            seat = (leader + i) % N_SEATS
            hand = hands[seat]
            legal = hand if i == 0 else follow_mask(hand, led_suit)  # TF-7
            view[V_NPLAYED] = i
            if SEARCH:  # a constant: False here, True in the search kernels
                card = play_card(policies[seat], seat, hand, legal, view, pst, ctx)
            else:
                card = play(policies[seat], seat, hand, legal, view, pst)
            if card < 0 or card > 51 or not (legal & bit(card)):
                return -2  # an illegal choice (only a user policy can make one)
            seen_card(ctx, view, seat, card, i, led_suit)
            if i == 0:
                led_suit = card // 13
            hands[seat] = hand & ~bit(card)
            trick[i] = card
            if card == friend_card:
                friend_seat = seat
            show_card(view, i, card, seat, friend_card)
            if plays.shape[0] > 0:
                plays[row, k] = TO_PUBLIC[card]
            k += 1
        winner = (leader + trick_winner(trick, N_SEATS, trump)) % N_SEATS  # TF-8
        p = 0
        for i in range(N_SEATS):
            p += card_points(trick[i])
        points[winner] += p
        view[V_POINTS + winner] = points[winner]
        if winners.shape[0] > 0:
            winners[row, t] = winner
        leader = winner  # TF-9
    return friend_seat


@nb.njit(inline="always", cache=True)
def play_round_random(pst, hands, declarer, trump, points, plays, winners, row):
    """``play_round`` when every seat plays the built-in ``random`` policy (id 0): the same
    draws, so the same cards, winners and points (tests check it), without the public view
    (``random`` never reads it) or the policy dispatch.  The trick's winner is the largest
    key (strength, +16 in the led suit, +32 in trump; TF-8) and its points come from the
    trick's mask (TF-11), both without a branch.  The friend card is played by whoever was
    dealt it, so the caller knows the friend's seat without watching the cards."""
    for s in range(N_SEATS):
        points[s] = 0
    log = plays.shape[0] > 0
    leader = (declarer + 1) % N_SEATS  # TF-6
    for t in range(N_TRICKS):
        hand = hands[leader]
        card = random_card(hand, pst)
        hands[leader] = hand & ~bit(card)
        led = card // 13
        led_bits = SUIT_BITS << np.uint64(13 * led)
        best = (card % 13 + 16 + 32 * np.int64(led == trump)) << 3  # position 0 in the low bits
        taken = bit(card)
        if log:
            plays[row, N_SEATS * t] = TO_PUBLIC[card]
        for i in range(1, N_SEATS):
            seat = (leader + i) % N_SEATS
            hand = hands[seat]
            same = hand & led_bits
            card = random_card(same if same else hand, pst)  # TF-7
            hands[seat] = hand & ~bit(card)
            cs = card // 13
            best = max(best, ((card % 13 + 16 * np.int64(cs == led) + 32 * np.int64(cs == trump)) << 3) + i)
            taken |= bit(card)
            if log:
                plays[row, N_SEATS * t + i] = TO_PUBLIC[card]
        winner = (leader + (best & 7)) % N_SEATS  # TF-8
        points[winner] += 2 * popcount(taken & TWO_POINTS) + popcount(taken & ONE_POINT)
        if winners.shape[0] > 0:
            winners[row, t] = winner
        leader = winner  # TF-9


@nb.njit(inline="always", cache=True)
def start_view(view, declarer, trump, friend_card):
    """The public view before the first lead (TF-5.5)."""
    view[V_DECLARER] = declarer
    view[V_TRUMP] = trump
    view[V_FRIEND_CARD] = friend_card
    view[V_FRIEND_SEAT] = -1
    view[V_PLAYED] = 0
    for s in range(N_SEATS):
        view[V_POINTS + s] = 0
    for c in range(52):
        view[V_PLAYED_BY + c] = -1


@nb.njit(inline="always", cache=True)
def show_card(view, i, card, seat, friend_card):
    """Card ``card`` played by ``seat`` as the trick's i-th card, in the public view."""
    view[V_TRICK_CARDS + i] = card
    view[V_PLAYED] |= np.int64(1) << np.int64(card)
    view[V_PLAYED_BY + card] = seat
    if card == friend_card:
        view[V_FRIEND_SEAT] = seat  # TF-5.5: the friend is revealed


@nb.njit(inline="always", cache=True)
def play_and_record(st, pst, deck, hands, trick, view, points, delta, seed, deal_id, declarer,
                    rules_own, trump_policy, friend_policy, policies, small, wide, seat_values,
                    row, plays, winners, log_row, predealt, ctx=None):
    """Deal, declare, play and score one round; write row ``row`` of ``small``, ``wide`` and
    ``seat_values`` (the columns of ``layout``).  Returns False if a policy made an illegal
    play (the row is incomplete).
    With ``predealt`` the hands are already in ``hands[:5]`` and the kitty in ``hands[5]``
    (``constrained_deal``).

    ``st[0]`` is the deal's stream (set by the caller); policies draw from ``pst``, a sibling
    stream derived one way from it, so a policy's random state never gives back the deal.
    """
    pst[0] = policy_key(st[0])
    kitty = hands[KITTY_SLOT] if predealt else deal(st, deck, hands)
    for s in range(N_SEATS):
        wide[row, W_HANDS + s] = public_mask(hands[s])
    wide[row, W_KITTY] = public_mask(kitty)
    dhand = hands[declarer]
    trump, friend = declare(trump_policy, friend_policy, policies, declarer, dhand, pst, ctx)
    own = friend >= 0 and (dhand & bit(friend)) != 0
    if own and not rules_own:  # TF-5.4 switched off: name the best card of that suit not held
        missing = ~suit_mask(dhand, friend // 13) & SUIT_BITS
        friend = 13 * (friend // 13) + highest_bit(missing) if missing else highest_bit(~dhand & _ALL)
        own = False
    friend_holder = -1
    if friend >= 0:
        for s in range(N_SEATS):
            if hands[s] & bit(friend):
                friend_holder = s
    all_random = True
    for s in range(N_SEATS):
        all_random &= policies[s] == 0
    if all_random:
        play_round_random(pst, hands, declarer, trump, points, plays, winners, log_row)
    elif play_round(pst, hands, trick, declarer, trump, friend, policies, view, points, plays,
                    winners, log_row, ctx) == -2:
        return False
    team_friend = friend_holder if friend_holder != declarer else -1
    d, o = score(points, declarer, team_friend, friend < 0, delta)
    wide[row, W_SEED] = seed
    wide[row, W_DEAL] = deal_id
    small[row, S_DECLARER] = declarer
    small[row, S_TRUMP] = trump
    small[row, S_FRIEND_CARD] = TO_PUBLIC[friend] if friend >= 0 else -1
    small[row, S_FRIEND_SEAT] = friend_holder
    small[row, S_FRIEND_OWN] = own
    for s in range(N_SEATS):
        seat_values[row, SV_POINTS, s] = points[s]
        seat_values[row, SV_DELTA, s] = delta[s]
    small[row, S_TEAM_POINTS] = d
    small[row, S_DEFENDER_POINTS] = o
    small[row, S_WON] = d > o
    return True


@nb.njit(cache=True)
def block_scratch():
    """A block's working arrays: the deal's and the policies' streams, the deck, the trick,
    hands (+ kitty), the public view, points and deltas per seat, and constrained dealing's
    order, slot masks and roles."""
    return (np.zeros(1, np.uint64), np.zeros(1, np.uint64), np.empty(52, np.int64),
            np.empty(N_SEATS, np.int64), np.empty(N_SEATS + 1, np.uint64),
            np.empty(VIEW_SIZE, np.int64), np.empty(N_SEATS, np.int64),
            np.empty(N_SEATS, np.int64), np.empty(52, np.int64),
            np.empty(N_SEATS + 1, np.uint64), np.zeros(1, np.int64))


# The parallel kernels only split the rows into blocks; each block runs in a separate, cached,
# non-inlined function.  Keeping the game logic out of the prange body keeps Numba's parfor
# passes on a small function: with everything inlined into the parallel loop a cold compile
# took minutes instead of seconds.


@nb.njit(cache=True, nogil=True)
def hands_block(b, n_blocks, seed, start, small, wide, seat_values, rules, trump_policy,
                friend_policy, policies, plays, winners, fixed, conds, weights, attempts, bad):
    """Hand rows of block b (``bad[b, 0]`` counts illegal plays; ``bad[b, 2]`` = deal id + 1
    of a deal no attempt could constrain)."""
    st, pst, deck, trick, hands, view, points, delta, order, masks, roles = block_scratch()
    ctx = search_context(hands)
    constrained = is_constrained(fixed, conds)
    lo, hi = block_range(b, small.shape[0], n_blocks)
    for i in range(lo, hi):
        k = start + i
        declarer = first_seat(seed, k, rules[R_FIRST_DECLARER], N_SEATS)  # TF-15
        st[0] = stream_key(seed, k, 0, 0)
        attempts[i] = 1
        if constrained:
            attempts[i] = constrained_deal(seed, np.uint64(k), np.uint64(0), st, DECK_IDS,
                                           SLOT_SIZES, SHUFFLE_PAIRED, fixed, conds, weights,
                                           roles, declarer, order, masks, hands)
            if attempts[i] == 0:
                bad[b, 2] = k + 1
                break
        if not play_and_record(st, pst, deck, hands, trick, view, points, delta, seed, k,
                               declarer, rules[R_OWN_CARD] != 0, trump_policy, friend_policy,
                               policies, small, wide, seat_values, i, plays, winners, i,
                               constrained, ctx):
            bad[b, 0] += 1


def hands_kernel(seed, start, small, wide, seat_values, rules, trump_policy, friend_policy,
                 policies, plays, winners, fixed, conds, weights, attempts, bad):
    """Hand rows ``start ..`` of a run, in parallel blocks (one per row of ``bad``)."""
    n_blocks = bad.shape[0]
    for b in nb.prange(n_blocks):
        # np.int64(b): the prange index's type differs between Numba's passes over the loop,
        # and the block would otherwise be compiled twice
        hands_block(np.int64(b), n_blocks, seed, start, small, wide, seat_values, rules,
                    trump_policy, friend_policy, policies, plays, winners, fixed, conds, weights,
                    attempts, bad)


@nb.njit(cache=True, nogil=True)
def games_block(b, n_blocks, seed, start, games, finals, small, wide, seat_values, offsets,
                record, rules, trump_policy, friend_policy, policies, plays, winners, fixed, conds,
                weights, attempts, bad):
    """The games of block b; see ``games_kernel``."""
    st, pst, deck, trick, hands, view, points, delta, order, masks, roles = block_scratch()
    ctx = search_context(hands)
    constrained = is_constrained(fixed, conds)
    totals = np.zeros(N_SEATS, np.int64)
    lo, hi = block_range(b, games.shape[0], n_blocks)
    for g in range(lo, hi):
        game = start + g
        declarer = first_seat(seed, game, rules[R_FIRST_DECLARER], N_SEATS)  # TF-15
        totals[:] = 0
        hand_no = 0
        while True:
            st[0] = stream_key(seed, game, hand_no + 1, 0)
            row = offsets[g] + hand_no if record else np.int64(b)
            deal_id = (np.uint64(game) << np.uint64(16)) | np.uint64(hand_no)
            tries = 1
            if constrained:
                tries = constrained_deal(seed, np.uint64(game), np.uint64(hand_no + 1), st,
                                         DECK_IDS, SLOT_SIZES, SHUFFLE_PAIRED, fixed, conds,
                                         weights, roles, declarer, order, masks, hands)
                if tries == 0:
                    bad[b, 2] = deal_id + np.uint64(1)
                    return
            if record:
                attempts[row] = tries
            if not play_and_record(st, pst, deck, hands, trick, view, points, delta, seed,
                                   deal_id, declarer, rules[R_OWN_CARD] != 0, trump_policy,
                                   friend_policy, policies, small, wide, seat_values, row, plays,
                                   winners, row, constrained, ctx):
                bad[b, 0] += 1
                break
            lowest = 0
            for s in range(N_SEATS):
                totals[s] += delta[s]
                seat_values[row, SV_TOTAL, s] = totals[s]
                lowest = min(lowest, totals[s])
            wide[row, W_GAME] = game
            wide[row, W_HAND_NO] = hand_no
            hand_no += 1
            declarer = (declarer + 1) % N_SEATS  # TF-16
            line = rules[R_LOSING_LINE]
            if lowest < -line or (not rules[R_EXCEED] and lowest == -line):
                break  # TF-17
            if hand_no >= 65535:  # hand_no is a u16 column
                bad[b, 1] += 1
                break
        best = totals.max()
        record_game(games, g, seed, game, hand_no, -1)
        grec = games[g]
        n_best = 0
        for s in range(N_SEATS):
            finals[g, s] = totals[s]
            if totals[s] == best:  # TF-18: everyone at the top score wins
                n_best += 1
                grec.winner = s
        grec.n_winners = n_best
        if n_best > 1:
            grec.winner = -1


def games_kernel(seed, start, games, finals, small, wide, seat_values, offsets, record, rules,
                 trump_policy, friend_policy, policies, plays, winners, fixed, conds, weights,
                 attempts, bad):
    """Whole games (TF-14 ... TF-18) in parallel blocks (one per row of ``bad``).

    With ``record`` false it only plays the games and fills ``games`` (hands per game, final
    scores, winners), using row b of ``small``, ``wide`` and ``seat_values`` as block b's
    scratch; with ``record`` true they are sized to the total hands and hand rows go to
    ``offsets[g] + hand_no``.  Both passes play the same games because every hand's stream is
    keyed by (seed, game, hand_no).  ``bad[b, 0]`` counts illegal plays, ``bad[b, 1]`` games
    stopped at 65,535 rounds, ``bad[b, 2]`` is deal id + 1 of a hand no attempt could
    constrain.  ``fixed``/``conds``/``weights``: a simcore.dealing filter (empty: the ordinary
    deal); with ``record`` ``attempts[row]`` gets each hand's attempts.
    """
    n_blocks = bad.shape[0]
    for b in nb.prange(n_blocks):
        # np.int64(b): see hands_kernel
        games_block(np.int64(b), n_blocks, seed, start, games, finals, small, wide, seat_values,
                    offsets, record, rules, trump_policy, friend_policy, policies, plays, winners,
                    fixed, conds, weights, attempts, bad)


def with_play(play_fn):
    """(hands kernel, games kernel) as plain functions whose play dispatcher is ``play_fn``."""
    return kernels_with(lambda fn, name: nb.njit(nogil=True)(fn), play=play_fn)


def kernels_with(jit_block, **hooks):
    """(hands kernel, games kernel) as plain functions with hooks replaced: ``play`` (a user
    policy's dispatcher), or ``play_card``, ``seen_card``, ``declare``, ``search_context`` and
    ``SEARCH`` (the search kernels).  ``jit_block(fn, name)`` jits a block function (the search kernels
    give it a cached home of their own)."""
    def inline(fn, **more):
        return nb.njit(inline="always")(rebind(fn.py_func, **hooks, **more))

    record_fn = inline(play_and_record, play_round=inline(play_round))
    hands_fn = jit_block(rebind(hands_block.py_func, **hooks, play_and_record=record_fn),
                         "search_hands_block")
    games_fn = jit_block(rebind(games_block.py_func, **hooks, play_and_record=record_fn),
                         "search_games_block")
    return (rebind(hands_kernel, hands_block=hands_fn), rebind(games_kernel, games_block=games_fn))
