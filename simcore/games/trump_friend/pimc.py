"""Trump Friend search policies: ``pimc`` (sampled worlds, solved or rolled out) and ``dd``.

``pimc:W``, for every card its seat plays: deal the cards the seat cannot see W times,
uniformly among the deals consistent with what it has seen (:mod:`simcore.sampling`; the facts
are :func:`play_facts`: its hand, every card played and by whom, the voids shown by not
following (TF-7), the kitty's two unseen cards), score each legal card in each world and take
the best total, ties to the lowest card id.  The score of a world is the seat's score change
for the round (TF-11 ... TF-13): in each world the friend card's holder is known (a seat, the
kitty: no friend, or the declarer itself), so the teams are.  The friend card's holder needs no
extra fact: until it falls it is any holder not void in its suit, the kitty included.

The same hybrid as Spades (docs/search_policies.md): exact open-hand values
(:func:`simcore.games.trump_friend.solver.solve_moves`: the team's card points from here) once
the seat holds at most ``EXACT_CARDS`` cards, under a node budget (``BUDGET``; a world that
runs out is rolled out); before that, each legal card played in the world and the round
rolled out by the heuristic for every seat (the cards of a world compared on that world).

Worlds read from the play (``pimc:W``; ``pimc-uniform:W`` keeps the uniform worlds): once
another seat has played, the worlds are weighted by how likely they make every card the other
seats played this round under a model of them (the heuristic's card with probability
``1 - PLAY_MISS``, else any legal card; :func:`play_likelihood`, from the view before each play,
:func:`past_views`).  ``K_CANDIDATES * W`` uniform draws are weighted, W resampled
(:func:`simcore.sampling.resampled_rows`) and each moved by Metropolis swaps of two holders'
cards (:func:`_move`).  What a seat reads includes who the friend is: a seat that could have
fed the declarer's trick with the friend card, or won it, and did not.

Calls (TF-5): ``trump=pimc:W`` / ``friend=pimc:W`` (and a whole ``pimc:W`` seat as declarer,
over ``CALL_FACTOR * W`` worlds) deal the 42 cards the declarer cannot see W times
(:func:`call_world`), play every candidate call's round out with the heuristic at every seat
in each world, and make the call with the best total score change for the declarer (when
both search, the trump first, then the friend for it; :func:`search_declare`).  ``dd`` makes the same
evaluations on the true deal (omniscient, labelled so).
"""

from __future__ import annotations

import numba as nb
import numpy as np

from simcore import sampling
from simcore.rng import below, shuffle, uniform
from simcore.games.searching import (C_CARDS, C_MASKS, C_NEED, C_PUB, C_SC, C_SUMS, C_TAB,
                                     C_VALUES, DD, NO_SALT, NOBODY, PIMC, PlayPolicies, best_card,
                                     context_head, decision_stream, inferring, n_worlds,
                                     played_by,
                                     search_hook, search_kernels)
from simcore.cards import SUIT_BITS, bit, highest_bit, lowest_bit, nth_bit, popcount, suit_mask
from simcore.tricks import follow_mask, trick_winner_at
from simcore.games.trump_friend import engine, policies, solver
from simcore.games.trump_friend.layout import (N_SEATS, N_TRICKS, ONE_POINT, TO_INTERNAL,
                                               TO_PUBLIC, TRUMP_OPTIONS, TWO_POINTS, V_DECLARER,
                                               V_FRIEND_CARD, V_FRIEND_SEAT, V_LEADER, V_NPLAYED,
                                               V_PLAYED, V_PLAYED_BY, V_POINTS, V_TRICK,
                                               V_TRICK_CARDS, V_TRUMP, VIEW_SIZE, public_mask)

DEFAULT_WORLDS = 20
EXACT_CARDS = 4  # exact solves when the seat to play holds at most this many cards
BUDGET = 200_000
KITTY = N_SEATS  # holder 5: the two undealt cards
HOLDERS = N_SEATS + 1
MAX_STATES = 11 ** 4 * 3  # capacity states: four other seats of at most 10, the kitty 2
ALL = np.uint64((1 << 52) - 1)
# decision kinds, folded into each decision's stream (typed: a literal compiles _seed again)
K_PLAY, K_CALL = np.int64(1), np.int64(2)
# The calls (TF-5): one a round against ten plays, so a seat pimc:W calls over CALL_FACTOR * W
# worlds, and trump=pimc / friend=pimc default to CALL_WORLDS.
CALL_FACTOR = 10
CALL_WORLDS = CALL_FACTOR * DEFAULT_WORLDS
FRIEND_DEPTH = 3  # friend candidates: no friend, and the strongest 3 cards not held of each suit
MAX_FRIENDS = 1 + 52
TWO_STAGE = True  # both calls searched: the trump first (with the highest friend), then the friend
HIGHEST = np.int64(policies.FRIEND_POLICIES["highest"])

# Worlds read from the play (pimc:W): every other seat is modelled as playing the heuristic's
# card with probability 1 - PLAY_MISS, else any legal card alike (never 0: a play is soft
# evidence).  K_CANDIDATES * W uniform worlds are weighted and W resampled, then each is moved
# by MOVES Metropolis swaps of two holders' cards, which keep the posterior and undo the
# resampling's copies: the model is sharp, so a few candidates carry most of the weight.
K_CANDIDATES = 2
PLAY_MISS = 0.1
MOVES = 40

PLAY_POLICIES = PlayPolicies(policies.PLAY_POLICIES, DEFAULT_WORLDS, infer=True)


class CallPolicies(PlayPolicies):
    """A call's policies by name: the built-in ones, ``pimc`` (``CALL_WORLDS`` worlds) and
    ``pimc:W``; not ``dd`` (the manifest labels omniscient seats, not decisions)."""

    def __init__(self, builtin: dict):
        super().__init__(builtin, CALL_WORLDS)
        dict.__delitem__(self, "dd")

    def _id(self, name):
        return None if name == "dd" else super()._id(name)


TRUMP_CALLS = CallPolicies(policies.TRUMP_POLICIES)
FRIEND_CALLS = CallPolicies(policies.FRIEND_POLICIES)
OMNISCIENT = ("dd",)
NOTES = (
    f"pimc, pimc:W (W worlds, default {DEFAULT_WORLDS}): a whole searching player: each card "
    f"scored by its score change over W deals of the unseen cards (exact open-hand solves once "
    f"it holds {EXACT_CARDS} cards or fewer, heuristic rollouts before); as declarer it calls "
    f"trump and friend itself, over {CALL_FACTOR}*W deals (the trump=/friend= policies apply "
    "to the other seats, and to it in what-if runs; the manifest's policies.own_calls lists "
    "such seats); the deals are weighted by how likely they make the cards the other seats "
    "have played, with the heuristic as the model of them",
    "pimc-uniform, pimc-uniform:W: pimc with the deals uniform among those the cards seen "
    "allow (the play is not read)",
    f"trump=pimc, friend=pimc (pimc:W; default {CALL_WORLDS} worlds): a declarer that is not a "
    "searching seat "
    f"scores each call (5 trumps; no friend or one of the {FRIEND_DEPTH} strongest cards not "
    "held per suit; with both searched the trump first, then the friend for it) "
    "by its score change over W deals of the 42 cards it cannot see, each round played out "
    "by the heuristic",
    "dd: omniscient (sees every hand and the kitty): the same evaluation on the true deal, its "
    "calls too; labelled omniscient in the manifest",
)

# ---------------------------------------------------------------- the search context

C_TRICK, C_VOIDS, C_ST, C_HANDS, C_RVIEW, C_RHANDS, C_POINTS, C_DELTA = (
    8, 9, 10, 11, 12, 13, 14, 15)
C_CALLS, C_CALL_N, C_ST2, C_DECK = 16, 17, 18, 19
# C_ORDER: the cards played this round, in order; C_VIEWS[k]: the view before play k (what
# the play model reads); C_LIKE: a world's per-holder likelihoods
C_ORDER, C_VIEWS, C_LIKE, C_STEPS = 20, 21, 22, 23
# C_STEPS[s, 0]: how many cards seat s has played, C_STEPS[s, 1 + j]: the play number of its
# j-th (filled by past_views)
# C_CALLS[k, i, j] for trump candidate i, friend candidate j: k = CALL_SUM (the declarer's
# total score change), CALL_TIE (the other seats' total loss), CALL_FRIEND (the card, -1 none);
# C_CALL_N: the trump candidates, then each one's number of friend candidates; C_DECK: the
# unseen cards to shuffle
CALL_SUM, CALL_TIE, CALL_FRIEND = 0, 1, 2


@nb.njit(cache=True)
def new_context(hands):
    """One block's solver table, sampler scratch and work arrays (``engine.search_context``);
    ``hands`` is the kernel's hands array (what ``dd`` sees)."""
    return context_head(solver.TABLE_BITS, BUDGET, MAX_STATES, HOLDERS) + (
            np.zeros(N_SEATS, np.int64), np.zeros(N_SEATS, np.int64), np.zeros(1, np.uint64),
            hands, np.zeros(VIEW_SIZE, np.int64), np.zeros(N_SEATS, np.uint64),
            np.zeros(N_SEATS, np.int64), np.zeros(N_SEATS, np.int64),
            np.zeros((3, TRUMP_OPTIONS, MAX_FRIENDS), np.int64),
            np.zeros(2 * TRUMP_OPTIONS, np.int64), np.zeros(1, np.uint64), np.zeros(52, np.int64),
            np.zeros(N_SEATS * N_TRICKS, np.int64),
            np.zeros((N_SEATS * N_TRICKS, VIEW_SIZE), np.int64), np.ones(HOLDERS, np.float64),
            np.zeros((N_SEATS, 1 + N_TRICKS), np.int64))


@nb.njit(inline="always", cache=True)
def seen_card(ctx, view, seat, card, i, led_suit):
    """TF-7: a seat that does not follow the led suit holds none of it."""
    voids = ctx[C_VOIDS]
    if view[V_TRICK] == 0 and i == 0:
        voids[:] = 0
    ctx[C_ORDER][N_SEATS * view[V_TRICK] + i] = card
    if i > 0 and card // 13 != led_suit:
        voids[seat] |= 1 << led_suit


@nb.njit(cache=True)
def _seed(ctx, st, seat, kind, salt):
    decision_stream(ctx[C_ST], st, seat, kind, salt)


# ---------------------------------------------------------------- facts


@nb.njit(cache=True)
def play_facts(seat, hand, view, voids, need, masks):
    """What ``seat`` knows in play (internal ids): its hand, every card played and by whom, the
    voids shown; the kitty holds two unseen cards.  Returns the unseen cards; fills need,
    masks[0] (allowed), masks[1] (known)."""
    played = np.uint64(view[V_PLAYED])
    for h in range(HOLDERS):
        masks[0, h] = ALL
        masks[1, h] = 0
    masks[1, seat] = hand
    for s in range(N_SEATS):
        need[s] = N_TRICKS - played_by(view, V_PLAYED_BY, 52, s)
        for suit in range(4):
            if (voids[s] >> suit) & 1:
                masks[0, s] &= ~(SUIT_BITS << np.uint64(13 * suit))
    need[seat] = 0
    masks[0, seat] = 0
    need[KITTY] = 2
    return ALL & ~played & ~hand


@nb.njit(cache=True)
def _world(ctx, omniscient, view):
    """Fill ctx's ``pub`` (internal ids, slot 5 the kitty) with the next world: a draw, or with
    ``omniscient`` the true hands (the kitty: every card no hand holds and nobody played)."""
    masks, pub, hands = ctx[C_MASKS], ctx[C_PUB], ctx[C_HANDS]
    if omniscient:
        rest = ALL & ~np.uint64(view[V_PLAYED])
        for s in range(N_SEATS):
            pub[s] = hands[s]
            rest &= ~hands[s]
        pub[KITTY] = rest
        return
    sampling.draw(ctx[C_ST], ctx[C_SC], masks[2])
    for h in range(HOLDERS):
        pub[h] = masks[1, h] | masks[2, h]


# ---------------------------------------------------------------- the plays as evidence


@nb.njit(cache=True)
def past_views(ctx, view):
    """Fill ``C_VIEWS`` with the public view before each card played so far this round (from
    the recorded order, as the engine showed it); returns how many were played."""
    order, views, steps = ctx[C_ORDER], ctx[C_VIEWS], ctx[C_STEPS]
    rv = ctx[C_RVIEW]
    friend_card = view[V_FRIEND_CARD]
    engine.start_view(rv, view[V_DECLARER], view[V_TRUMP], friend_card)
    n_played = popcount(np.uint64(view[V_PLAYED]))
    steps[:, 0] = 0
    for k in range(n_played):
        c = order[k]
        s = view[V_PLAYED_BY + c]
        steps[s, 0] += 1
        steps[s, steps[s, 0]] = k
        i = k % N_SEATS
        if i == 0:
            rv[V_TRICK] = k // N_SEATS
            rv[V_LEADER] = s
        rv[V_NPLAYED] = i
        views[k] = rv
        engine.show_card(rv, i, c, s, friend_card)
    return n_played


@nb.njit(cache=True)
def seat_likelihood(order, views, steps, st, s, held):
    """P(the cards seat ``s`` played this round | it holds ``held`` now) under the play model;
    a play with one legal card carries no evidence.  ``order``, ``views``, ``steps``: the
    context's ``C_ORDER``, ``C_VIEWS`` and ``C_STEPS`` (filled by :func:`past_views`); ``st`` a
    stream the heuristic is passed and never draws from.  The arrays are passed, not the
    context: each array a non-inlined call receives costs atomic reference counts, and the
    Metropolis moves make this call hundreds of times a decision."""
    hand = held
    for j in range(steps[s, 0]):
        hand |= bit(order[steps[s, 1 + j]])
    like = 1.0
    for j in range(steps[s, 0]):
        k = steps[s, 1 + j]
        c = order[k]
        i = k % N_SEATS
        legal = hand if i == 0 else follow_mask(hand, order[k - i] // 13)
        n = popcount(legal)
        if n > 1:
            h = policies.heuristic_play(s, hand, legal, views[k], st)
            like *= (1.0 - PLAY_MISS if h == c else 0.0) + PLAY_MISS / n
        hand &= ~bit(c)
    return like


@nb.njit(cache=True)
def play_likelihood(ctx, seat, world):
    """P(every card the seats other than ``seat`` played | the world ``world``, rows of
    holders' cards now); fills ``C_LIKE`` with the factor of each holder."""
    like, order, views, steps = ctx[C_LIKE], ctx[C_ORDER], ctx[C_VIEWS], ctx[C_STEPS]
    st = ctx[C_ST2]
    total = 1.0
    for s in range(HOLDERS):
        like[s] = 1.0
        if s != seat and s != KITTY:
            like[s] = seat_likelihood(order, views, steps, st, s, world[s])
        total *= like[s]
    return total


@nb.njit(cache=True)
def _move(ctx, seat, world, allowed):
    """``MOVES`` Metropolis steps on ``world``: two cards of two other holders swapped when
    the card facts allow it, kept with probability min(1, likelihood ratio).  The swap is its
    own reverse and the prior is uniform, so the posterior is kept."""
    st, like = ctx[C_ST], ctx[C_LIKE]
    order, views, steps, st2 = ctx[C_ORDER], ctx[C_VIEWS], ctx[C_STEPS], ctx[C_ST2]
    play_likelihood(ctx, seat, world)
    for _ in range(MOVES):
        a = below(st, HOLDERS - 1)
        b = below(st, HOLDERS - 2)
        if b >= a:
            b += 1
        if a >= seat:
            a += 1
        if b >= seat:
            b += 1
        if world[a] == 0 or world[b] == 0:
            continue
        x = nth_bit(world[a], below(st, popcount(world[a])))
        y = nth_bit(world[b], below(st, popcount(world[b])))
        if not (allowed[b] & bit(x)) or not (allowed[a] & bit(y)):
            continue
        na = (world[a] & ~bit(x)) | bit(y)
        nb_ = (world[b] & ~bit(y)) | bit(x)
        bar = uniform(st) * like[a] * like[b]
        la = 1.0 if a == KITTY else seat_likelihood(order, views, steps, st2, a, na)
        if la < bar:
            continue  # lb <= 1: rejected whatever b's likelihood, which is not computed
        lb = 1.0 if b == KITTY else seat_likelihood(order, views, steps, st2, b, nb_)
        if la * lb >= bar:
            world[a], world[b] = na, nb_
            like[a], like[b] = la, lb


@nb.njit(cache=True)
def weighted_worlds(ctx, view, seat, worlds):
    """``worlds`` worlds (rows of holders' cards, internal ids, the kitty last) drawn for the
    play model's posterior: ``K_CANDIDATES * worlds`` draws of the sampler prepared for the
    decision, weighted by :func:`play_likelihood`, ``worlds`` of them resampled, each then
    moved by :func:`_move`; none if ``worlds`` is 0 (no draw then)."""
    if worlds == 0:
        return np.zeros((0, HOLDERS), np.uint64)
    past_views(ctx, view)
    masks = ctx[C_MASKS]
    pool = sampling.draw_worlds(ctx[C_ST], ctx[C_SC], masks, K_CANDIDATES * worlds, HOLDERS)
    weights = np.empty(pool.shape[0], np.float64)
    for i in range(pool.shape[0]):
        weights[i] = play_likelihood(ctx, seat, pool[i])
    out = sampling.resampled_rows(ctx[C_ST], pool, weights, worlds)
    for j in range(worlds):
        _move(ctx, seat, out[j], masks[0])
    return out


@nb.njit(cache=True)
def _evidence(view, seat):
    """Has another seat played a card this round (what the play model reads)?"""
    for c in range(52):
        s = view[V_PLAYED_BY + c]
        if s >= 0 and s != seat:
            return True
    return False


# ---------------------------------------------------------------- scoring


@nb.njit(cache=True)
def _friend_seat(view, pub):
    """The friend in this world: the seat that played or holds the friend card, -1 when
    there is none (not called, in the kitty, or the declarer's own card: TF-5.4)."""
    f = view[V_FRIEND_CARD]
    if f < 0:
        return -1
    holder = view[V_FRIEND_SEAT]
    if holder < 0:
        for s in range(N_SEATS):
            if pub[s] & bit(f):
                holder = s
    return -1 if holder == view[V_DECLARER] else holder


@nb.njit(cache=True)
def seat_delta(points, seat, view, friend, ctx):
    """The seat's score change for per-seat card points ``points`` (TF-11 ... TF-13)."""
    delta = ctx[C_DELTA]
    engine.score(points, view[V_DECLARER], friend, view[V_FRIEND_CARD] < 0, delta)
    return delta[seat]


@nb.njit(cache=True)
def _points_of(mask):
    return 2 * popcount(mask & TWO_POINTS) + popcount(mask & ONE_POINT)


# ---------------------------------------------------------------- rollouts


@nb.njit(cache=True)
def rollout(rv, rh, card, st):
    """Play the round out from the view ``rv`` over the hands ``rh`` (both consumed): the
    seat to move plays ``card`` (-1: the heuristic's), then every seat the heuristic's card
    (TF-7 ... TF-11).  Card points per seat end in ``rv[V_POINTS:]``."""
    leader = rv[V_LEADER]
    i0 = rv[V_NPLAYED]
    trump = rv[V_TRUMP]
    friend = rv[V_FRIEND_CARD]
    for t in range(rv[V_TRICK], N_TRICKS):
        rv[V_TRICK] = t
        rv[V_LEADER] = leader
        for i in range(i0, N_SEATS):
            rv[V_NPLAYED] = i
            s = (leader + i) % N_SEATS
            hand = rh[s]
            legal = hand if i == 0 else follow_mask(hand, rv[V_TRICK_CARDS] // 13)
            c = card if card >= 0 else policies.heuristic_play(s, hand, legal, rv, st)
            card = -1
            rh[s] = hand & ~bit(c)
            engine.show_card(rv, i, c, s, friend)
        pos = trick_winner_at(rv, V_TRICK_CARDS, N_SEATS, trump)
        p = 0
        for i in range(N_SEATS):
            p += policies.card_points(rv[V_TRICK_CARDS + i])
        leader = (leader + pos) % N_SEATS
        rv[V_POINTS + leader] += p
        i0 = 0


@nb.njit(cache=True)
def _rollout_score(ctx, view, card, seat, friend):
    rv, rh, pub = ctx[C_RVIEW], ctx[C_RHANDS], ctx[C_PUB]
    rv[:] = view
    for s in range(N_SEATS):
        rh[s] = pub[s]
    rollout(rv, rh, card, ctx[C_ST])
    return seat_delta(rv[V_POINTS:V_POINTS + N_SEATS], seat, view, friend, ctx)


# ---------------------------------------------------------------- play


@nb.njit(cache=True)
def _index(legal, c):
    return popcount(legal & (bit(c) - np.uint64(1)))


@nb.njit(cache=True)
def _exact_scores(ctx, view, seat, legal, friend):
    """Add each legal card's exact score change in world ``ctx.pub`` to the sums; False (sums
    untouched) if the solve ran out of its node budget."""
    tab, pub, trick = ctx[C_TAB], ctx[C_PUB], ctx[C_TRICK]
    cards_out, values_out = ctx[C_CARDS], ctx[C_VALUES]
    declarer = view[V_DECLARER]
    team = 1 << declarer
    if friend >= 0:
        team |= 1 << friend
    n = view[V_NPLAYED]
    for i in range(n):
        trick[i] = TO_PUBLIC[view[V_TRICK_CARDS + i]]
    hands = np.zeros(N_SEATS, np.uint64)
    for s in range(N_SEATS):
        hands[s] = public_mask(pub[s])
    k = solver.solve_moves(hands, view[V_LEADER], trick, n, view[V_TRUMP], team, tab, cards_out,
                           values_out)
    if k < 0:
        return False
    so_far = 0
    for s in range(N_SEATS):
        if (team >> s) & 1:
            so_far += view[V_POINTS + s]
    total = 20 - _points_of(pub[KITTY])
    points = ctx[C_POINTS]
    other = 0
    while (team >> other) & 1:
        other += 1
    sums = ctx[C_SUMS]
    for i in range(k):
        c = TO_INTERNAL[cards_out[i]]
        if not legal & bit(c):
            continue
        points[:] = 0
        points[declarer] = so_far + values_out[i]
        points[other] = total - points[declarer]
        # the team's points all on the declarer, the others' on one opponent: the score reads
        # only the two sides' totals
        sums[_index(legal, c)] += seat_delta(points, seat, view, friend, ctx)
    return True


@nb.njit(cache=True)
def search_card(policy, seat, hand, legal, view, st, ctx):
    """pimc / dd card: each legal card's total score change over the worlds; the best, ties
    to the lowest card."""
    if popcount(legal) == 1:
        return lowest_bit(legal)
    omniscient = policy == DD
    if view[V_PLAYED] == 0:  # the first lead: nothing recorded yet is of this hand
        ctx[C_VOIDS][:] = 0
    unseen = play_facts(seat, hand, view, ctx[C_VOIDS], ctx[C_NEED], ctx[C_MASKS])
    if not omniscient and sampling.prepare(unseen, ctx[C_NEED], ctx[C_MASKS][0], HOLDERS,
                                           ctx[C_SC]) <= 0.0:
        return policies.heuristic_play(seat, hand, legal, view, st)
    _seed(ctx, st, seat, K_PLAY, popcount(np.uint64(view[V_PLAYED])))
    exact = popcount(hand) <= EXACT_CARDS
    sums = ctx[C_SUMS]
    sums[:] = 0
    reads = inferring(policy) and _evidence(view, seat)
    pool = weighted_worlds(ctx, view, seat, n_worlds(policy) if reads else 0)
    for i in range(n_worlds(policy)):
        if reads:
            ctx[C_PUB][:HOLDERS] = pool[i]
        else:
            _world(ctx, omniscient, view)
        friend = _friend_seat(view, ctx[C_PUB])
        if exact and _exact_scores(ctx, view, seat, legal, friend):
            continue
        m = legal
        j = 0
        while m:
            c = lowest_bit(m)
            m &= m - np.uint64(1)
            sums[j] += _rollout_score(ctx, view, c, seat, friend)
            j += 1
    return best_card(legal, sums)


# ---------------------------------------------------------------- calls (TF-5)


@nb.njit(cache=True)
def call_world(ctx, omniscient, seat, hand):
    """The next world of a call into ctx's ``pub`` (slot 5 the kitty): all the declarer has
    seen is its hand, so the other 42 cards are dealt as TF-4 deals them, 10 a seat and 2 to
    the kitty, by a shuffle (exactly the uniform draw ``simcore.sampling`` would make with no
    constraints, without its counting); with ``omniscient`` the true deal."""
    pub, deck = ctx[C_PUB], ctx[C_DECK]
    if omniscient:
        rest = ALL
        for s in range(N_SEATS):
            pub[s] = ctx[C_HANDS][s]
            rest &= ~pub[s]
        pub[KITTY] = rest
        return
    k = 0
    for c in range(52):
        if not hand & bit(c):
            deck[k] = c
            k += 1
    shuffle(ctx[C_ST], deck, k)
    k = 0
    for h in range(HOLDERS):
        if h == seat:
            pub[h] = hand
            continue
        pub[h] = 0
        for _ in range(2 if h == KITTY else N_TRICKS):
            pub[h] |= bit(deck[k])
            k += 1


@nb.njit(cache=True)
def friend_candidates(hand, out):
    """The friend calls a searching declarer weighs: no friend (-1), then per suit the
    ``FRIEND_DEPTH`` strongest cards it does not hold (TF-5.2); returns how many."""
    out[0] = -1
    k = 1
    for suit in range(4):
        missing = ~suit_mask(hand, suit) & SUIT_BITS
        for _ in range(FRIEND_DEPTH):
            if missing == 0:
                break
            top = highest_bit(missing)
            missing &= ~bit(top)
            out[k] = 13 * suit + top
            k += 1
    return k


@nb.njit(cache=True)
def _call_candidates(trump_policy, friend_policy, hand, st, ctx):
    """Fill the trump candidates (all five when ``trump_policy`` searches, else the built-in
    call, drawn from ``st`` as the built-in kernels draw it) and each one's friend candidates
    (``friend_candidates`` when ``friend_policy`` searches, else the built-in call for that
    trump, from a copy of ``st``).  Returns the number of trump candidates."""
    n, calls, st2 = ctx[C_CALL_N], ctx[C_CALLS], ctx[C_ST2]
    nt = 1
    if trump_policy >= DD:
        nt = TRUMP_OPTIONS
        for t in range(nt):
            n[t] = t
    else:
        n[0] = policies.choose_trump(trump_policy, hand, st)
    for i in range(nt):
        if friend_policy >= DD:
            n[TRUMP_OPTIONS + i] = friend_candidates(hand, calls[CALL_FRIEND, i])
        else:
            st2[0] = st[0]
            calls[CALL_FRIEND, i, 0] = policies.choose_friend(friend_policy, hand, n[i], st2)
            n[TRUMP_OPTIONS + i] = 1
    return nt


@nb.njit(cache=True)
def _call_rollout(ctx, declarer, trump, friend):
    """One world's round (``ctx.pub``) under the calls (trump, friend), every seat playing the
    heuristic from the first lead (TF-6 ... TF-13); the score changes end in ``ctx.delta``."""
    rv, rh, pub = ctx[C_RVIEW], ctx[C_RHANDS], ctx[C_PUB]
    engine.start_view(rv, declarer, trump, friend)
    rv[V_TRICK] = 0
    rv[V_LEADER] = (declarer + 1) % N_SEATS
    rv[V_NPLAYED] = 0
    holder = -1
    for s in range(N_SEATS):
        rh[s] = pub[s]
        if friend >= 0 and pub[s] & bit(friend) and s != declarer:
            holder = s
    rollout(rv, rh, NOBODY, ctx[C_ST])
    engine.score(rv[V_POINTS:V_POINTS + N_SEATS], declarer, holder, friend < 0, ctx[C_DELTA])


@nb.njit(cache=True)
def call_table(trump_policy, friend_policy, seat, hand, st, ctx):
    """Score every candidate call (``_call_candidates``) over the worlds of ``call_world``
    (``dd``: the true deal; the trump's W when both calls search): ``ctx[C_CALLS]`` gets each call's total score change for the
    declarer ``seat`` and the other seats' total loss.  Returns the number of trump
    candidates."""
    nt = _call_candidates(trump_policy, friend_policy, hand, st, ctx)
    search_policy = trump_policy if trump_policy >= DD else friend_policy
    omniscient = search_policy == DD
    n, calls, delta = ctx[C_CALL_N], ctx[C_CALLS], ctx[C_DELTA]
    calls[CALL_SUM, :, :] = 0
    calls[CALL_TIE, :, :] = 0
    _seed(ctx, st, seat, K_CALL, NO_SALT)
    for _ in range(n_worlds(search_policy)):
        call_world(ctx, omniscient, seat, hand)
        for i in range(nt):
            for j in range(n[TRUMP_OPTIONS + i]):
                _call_rollout(ctx, seat, n[i], calls[CALL_FRIEND, i, j])
                calls[CALL_SUM, i, j] += delta[seat]
                for s in range(N_SEATS):
                    if s != seat:
                        calls[CALL_TIE, i, j] -= delta[s]
    return nt


@nb.njit(cache=True)
def _best_call(ctx, nt):
    """(trump candidate, friend candidate) of the best scored call: the best total score
    change, ties to the larger loss of the other seats, then to the first candidate."""
    n, calls = ctx[C_CALL_N], ctx[C_CALLS]
    bi, bj = 0, 0
    for i in range(nt):
        for j in range(n[TRUMP_OPTIONS + i]):
            a, b = calls[CALL_SUM, i, j], calls[CALL_TIE, i, j]
            if a > calls[CALL_SUM, bi, bj] or (a == calls[CALL_SUM, bi, bj]
                                                and b > calls[CALL_TIE, bi, bj]):
                bi, bj = i, j
    return bi, bj


@nb.njit(cache=True)
def search_declare(trump_policy, friend_policy, seat, hand, st, ctx):
    """TF-5 by search: the call with the best total score change for the declarer over the
    worlds; ties to the larger loss of the other seats, then to the first candidate (clubs
    ... no trump; no friend, then the suits' cards).  With both calls searched and
    ``TWO_STAGE``, the trump is scored first with the ``highest`` friend, then the friend for
    that trump, on the same worlds."""
    if TWO_STAGE and trump_policy >= DD and friend_policy >= DD:
        bi, _ = _best_call(ctx, call_table(trump_policy, HIGHEST, seat, hand, st, ctx))
        trump_policy = policies.FORCED_TRUMP + ctx[C_CALL_N][bi]
    nt = call_table(trump_policy, friend_policy, seat, hand, st, ctx)
    bi, bj = _best_call(ctx, nt)
    n, calls = ctx[C_CALL_N], ctx[C_CALLS]
    trump = n[bi]
    if friend_policy >= DD:
        return trump, calls[CALL_FRIEND, bi, bj]
    return trump, policies.choose_friend(friend_policy, hand, trump, st)


@nb.njit(cache=True)
def call_policy(seat_policy):
    """The call policy of a whole searching player: ``dd`` on the true deal, ``pimc:W`` over
    ``CALL_FACTOR * W`` worlds."""
    if seat_policy == DD:
        return DD
    return PIMC + CALL_FACTOR * n_worlds(seat_policy)


# ---------------------------------------------------------------- kernel hooks


@nb.njit(inline="always", cache=True)
def declare(trump_policy, friend_policy, seat_policies, declarer, hand, st, ctx):
    """A searching declarer (``pimc``/``dd`` seat) makes both calls itself, except in a what-if
    run (one call forced): there the calls are the experiment's, the forced one and the run's
    policy for the other, as for any declarer.  ``trump=pimc`` / ``friend=pimc`` search for
    every other declarer (and in what-if runs)."""
    what_if = (policies.FORCED_TRUMP <= trump_policy < DD
               or policies.FORCED_FRIEND <= friend_policy < DD)
    if seat_policies[declarer] >= DD and not what_if:
        trump_policy = friend_policy = call_policy(seat_policies[declarer])
    if trump_policy >= DD or friend_policy >= DD:
        return search_declare(trump_policy, friend_policy, declarer, hand, st, ctx)
    trump = policies.choose_trump(trump_policy, hand, st)
    return trump, policies.choose_friend(friend_policy, hand, trump, st)


play_card = search_hook(search_card, policies.builtin_play)


# (hands kernel, games kernel) of runs with a search policy: ``kernels()``
kernels = search_kernels(engine.kernels_with, __file__,
                         ("search_hands_kernel", "search_games_kernel"),
                         play_card=play_card, seen_card=seen_card, declare=declare,
                         search_context=new_context, SEARCH=True)
