"""Spades search policies: ``pimc`` (sampled worlds, solved or rolled out) and ``dd`` (omniscient).

``pimc:W``, for every card its seat plays and for its bid: deal the cards the seat cannot see
W times, uniformly among the deals consistent with what it has seen (:mod:`simcore.sampling`;
the facts are :func:`play_facts`), score each option in each world and take the best total,
ties to the lowest card id (the lowest bid, nil first).  The score of a world is the hand's
score of the seat's side net of the other side's (SP-11 ... SP-14: contracts, bags and their
penalty from the carried bags, nil and blind nil), from the bids made.

A hybrid, because exact solves of every world are not affordable early in the hand
(docs/search_policies.md):

* **exact** (the seat holds at most ``EXACT_CARDS`` cards): each legal card's open-hand value
  (:func:`simcore.games.spades.solver.solve_moves`): the tricks of seats 0+2, and for every
  nil still alive (a nil bidder with no trick yet) a second solve with that seat's nil
  objective (its fewest tricks); the nil seat gets those tricks and its partner the rest of
  the side's.  The solves run under a node budget (``BUDGET``); a world whose solve runs out
  is scored by rollouts instead.
* **rollout** (earlier): each legal card played in the world, then every seat (this one
  included) plays the rest of the hand with the heuristic; the cards of one world are
  compared on the same world (paired).
* **bid**: each bid (nil, 1 ... 13) scored in every world by a heuristic rollout of the whole
  hand, the seats still to bid bidding like the heuristic in that world; ``--policy nil=never``
  takes nil out of the options.  Blind nil and the blind-nil exchange: the heuristic's.
* **worlds**: the card facts are hard (own hand, cards played and by whom, voids shown, a
  spade led before spades broke, the cards the seat passed its partner): every world fits
  them.  ``pimc:W`` also reads the other seats' bids (:func:`bid_likelihood`, a model of a
  bidder: the heuristic's bid made stochastic): it draws ``K_CANDIDATES * W`` worlds
  uniformly among those the card facts allow, weights each by the likelihood of every other
  seat's bid given that seat's dealt hand in the world, and resamples W of them by weight
  (:func:`simcore.sampling.resample`).  ``pimc-uniform:W`` uses the W uniform worlds.

``dd`` makes the same evaluation on the true deal (one world: every hand seen); it is labelled
omniscient in the manifest and ``describe``.

Randomness: each decision seeds its own stream from the deal's policy stream state, the seat
and the decision (:func:`_seed`) without advancing it, so the other seats' draws are those of
the same run without searching.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from simcore import sampling
from simcore.games.searching import (C_CARDS, C_MASKS, C_NEED, C_PUB, C_SC, C_SUMS, C_TAB,
                                     C_VALUES, DD, FALSE, NO_SALT, NOBODY, TRUE, PlayPolicies,
                                     best_card, context_head, decision_stream, inferring, n_worlds,
                                     played_by, search_hook, search_kernels)
# pimc:W is INFER + W, pimc-uniform:W is PIMC + W
from simcore.games.searching import INFER, PIMC  # noqa: F401
from simcore.cards import SUIT_BITS, bit, lowest_bit, popcount
from simcore.games.spades import engine, policies, solver
from simcore.games.spades.layout import (ALL_CARDS, N_SEATS, N_TRICKS, R_BAG_LIMIT, R_BAG_PENALTY,
                                         R_BLIND_NIL_VALUE, R_MUST_BREAK, R_NIL_VALUE,
                                         SPADES, V_BAGS, V_BIDS, V_BLIND, V_BROKEN, V_DEALER,
                                         V_LEADER, V_NPLAYED, V_PLAYED, V_PLAYED_BY, V_TRICK,
                                         V_TRICK_CARDS, V_TRICKS, V_VOIDS, VIEW_SIZE)
from simcore.games.spades.scoring import score_side

DEFAULT_WORLDS = 20
EXACT_CARDS = 7  # exact solves when the seat to play holds at most this many cards
BUDGET = 200_000  # nodes per solve before a world falls back to rollouts
MAX_STATES = 4096  # capacity states of a Spades observation: at most 14**3
NIL_NEVER = 1  # policies' nil mode "never"
# decision kinds, folded into each decision's stream (typed: a literal compiles _seed again)
K_PLAY, K_BID = np.int64(1), np.int64(2)
# the rollouts' bidders, typed (a literal argument would compile choose_bid once more)
HEURISTIC_BID = np.int64(policies.BID_POLICIES["heuristic"])
HEURISTIC_NIL = np.int64(policies.NIL_POLICIES["heuristic"])
# The bidder model (pimc:W): a bid b of 1 ... 13 has weight exp(-BID_SPREAD * |b - h|), h the
# heuristic's bid of the hand; nil has probability NIL_LIKELY where the heuristic bids nil,
# NIL_NEAR where its bid is NIL_NEAR_BID or less, NIL_FAR otherwise (never 0: a bid is soft
# evidence, so no world the card facts allow is ruled out).
K_CANDIDATES = 8  # uniform worlds drawn per world used
BID_SPREAD = 1.0
NIL_LIKELY, NIL_NEAR, NIL_FAR, NIL_NEAR_BID = 0.9, 0.05, 0.002, 2

PLAY_POLICIES = PlayPolicies(policies.PLAY_POLICIES, DEFAULT_WORLDS, infer=True)
OMNISCIENT = ("dd",)
NOTES = (
    f"pimc, pimc:W (W worlds, default {DEFAULT_WORLDS}): a whole searching player: its seat "
    f"plays and bids (nil included) over W deals of the unseen cards: exact open-hand solves "
    f"once it holds {EXACT_CARDS} cards or fewer, heuristic rollouts before; blind nil and the "
    "exchange stay the heuristic's; DECISION=NAME policies apply only to the other seats "
    "(nil=never also keeps a searching seat off nil); the deals are weighted by how likely "
    "they make the other seats' bids",
    "pimc-uniform, pimc-uniform:W: pimc with the deals uniform among those the cards seen "
    "allow (bids are not read)",
    "dd: omniscient (sees every hand): the same evaluation on the true deal; labelled "
    "omniscient in the manifest",
)


# ---------------------------------------------------------------- the search context

# context slots
C_TRICK, C_SPADE_ONLY, C_ST, C_HANDS, C_PASSED, C_RULES, C_RVIEW, C_RHANDS = (
    8, 9, 10, 11, 12, 13, 14, 15)
C_SIDE, C_NILV, C_TRICKS4 = 16, 17, 18


@nb.njit(cache=True)
def new_context(hands, passed, rules):
    """One block's solver table, sampler scratch and work arrays (``engine.search_context``);
    ``hands`` is the kernel's hands array (what ``dd`` sees), ``passed`` the blind-nil
    exchange, ``rules`` the rules vector."""
    return context_head(solver.TABLE_BITS, BUDGET, MAX_STATES, N_SEATS) + (
            np.zeros(N_SEATS, np.int64), np.zeros(N_SEATS, np.int64), np.zeros(1, np.uint64),
            hands, passed, rules, np.zeros(VIEW_SIZE, np.int64), np.zeros(N_SEATS, np.uint64),
            np.zeros(16, np.int64), np.zeros((N_SEATS, 16), np.int64), np.zeros(N_SEATS, np.int64))


@nb.njit(inline="always", cache=True)
def seen_card(ctx, view, seat, card, i):
    """SP-7: a spade led before spades broke means the leader held nothing else."""
    flags = ctx[C_SPADE_ONLY]
    if view[V_TRICK] == 0 and i == 0:
        flags[:] = 0
    if i == 0 and card // 13 == SPADES and not view[V_BROKEN] and ctx[C_RULES][R_MUST_BREAK]:
        flags[seat] = 1


@nb.njit(cache=True)
def _seed(ctx, st, seat, kind, salt):
    """The decision's own stream: a function of the policy stream's state (not advanced), the
    seat, the kind of decision and how many cards have been played (``salt``)."""
    decision_stream(ctx[C_ST], st, seat, kind, salt)


# ---------------------------------------------------------------- facts -> sampler inputs


@nb.njit(cache=True)
def play_facts(seat, hand, view, gave_partner, spade_only, need, masks):
    """What ``seat`` knows in play: its hand, every card played and by whom, the voids shown
    (and a seat that led a spade before they broke holds only spades, ``spade_only``), the
    cards it gave its partner in a blind-nil exchange (``gave_partner``) while unplayed.
    Returns the unseen cards; fills need, masks[0] (allowed), masks[1] (known)."""
    played = np.uint64(view[V_PLAYED])
    partner = (seat + 2) & 3
    for s in range(N_SEATS):
        masks[0, s] = ALL_CARDS
        masks[1, s] = 0
    masks[1, seat] = hand
    masks[1, partner] = gave_partner & ~played
    unseen = ALL_CARDS & ~played & ~hand & ~masks[1, partner]
    for s in range(N_SEATS):
        need[s] = N_TRICKS - played_by(view, V_PLAYED_BY, 52, s) - popcount(masks[1, s])
        voids = view[V_VOIDS + s] | (7 if spade_only[s] else 0)
        for suit in range(4):
            if (voids >> suit) & 1:
                masks[0, s] &= ~(SUIT_BITS << np.uint64(13 * suit))
    need[seat] = 0
    masks[0, seat] = 0
    return unseen


@nb.njit(cache=True)
def bid_facts(seat, hand, need, masks):
    """Before play: the seat's own 13 cards, nothing else.  Returns the unseen cards."""
    for s in range(N_SEATS):
        masks[0, s] = ALL_CARDS & ~hand
        masks[1, s] = 0
        need[s] = N_TRICKS
    masks[1, seat] = hand
    masks[0, seat] = 0
    need[seat] = 0
    return ALL_CARDS & ~hand


@nb.njit(cache=True)
def _prepare(ctx, unseen, omniscient):
    """Count the worlds of the facts in ctx; False if the sampler cannot (then the caller
    falls back to the heuristic)."""
    if omniscient:
        return True
    return sampling.prepare(unseen, ctx[C_NEED], ctx[C_MASKS][0], N_SEATS, ctx[C_SC]) > 0.0


@nb.njit(cache=True)
def _world(ctx, omniscient):
    """Fill ctx's ``pub`` with the next world: a draw, or with ``omniscient`` the true hands."""
    masks, pub, hands = ctx[C_MASKS], ctx[C_PUB], ctx[C_HANDS]
    if not omniscient:
        sampling.draw(ctx[C_ST], ctx[C_SC], masks[2])
    for s in range(N_SEATS):
        pub[s] = hands[s] if omniscient else masks[1, s] | masks[2, s]


# ---------------------------------------------------------------- bids as evidence


@nb.njit(cache=True)
def bid_likelihood(dealt, bid, partner_bid):
    """P(``bid`` | the 13 cards ``dealt``) under the bidder model (a stochastic heuristic,
    ``policies.choose_bid``): ``partner_bid`` is the partner's bid if it was made first, else
    -1 (the heuristic caps its bid at 13 less the partner's and bids no second nil)."""
    h = (policies.estimate_tricks(dealt) + 5) // 10
    if partner_bid > 0:
        h = min(h, 13 - partner_bid)
    h = max(1, min(13, h))
    if partner_bid == 0:
        q = NIL_FAR
    elif policies.nil_hand(dealt, partner_bid):
        q = NIL_LIKELY
    elif h <= NIL_NEAR_BID:
        q = NIL_NEAR
    else:
        q = NIL_FAR
    if bid == 0:
        return q
    z = 0.0
    for b in range(1, 14):
        z += np.exp(-BID_SPREAD * abs(b - h))
    return (1.0 - q) * np.exp(-BID_SPREAD * abs(bid - h)) / z


@nb.njit(cache=True)
def evidence(seat, view):
    """How many other seats' bids ``seat`` reads: those bid (not blind nil) on a side with no
    blind nil (whose exchange changes the hands after the bids)."""
    n = 0
    for s in range(N_SEATS):
        if s != seat and view[V_BIDS + s] >= 0 and not view[V_BLIND + s] \
                and not view[V_BLIND + ((s + 2) & 3)]:
            n += 1
    return n


@nb.njit(cache=True)
def world_likelihood(seat, view, hands, in_play):
    """The likelihood of the other seats' bids in the world ``hands`` (each seat's cards now;
    ``in_play``: add the cards each has played to get its dealt hand)."""
    first = (view[V_DEALER] + 1) & 3
    like = 1.0
    for s in range(N_SEATS):
        p = (s + 2) & 3
        if s == seat or view[V_BIDS + s] < 0 or view[V_BLIND + s] or view[V_BLIND + p]:
            continue
        dealt = hands[s]
        if in_play:
            played = np.uint64(view[V_PLAYED])
            while played:
                c = lowest_bit(played)
                played &= played - np.uint64(1)
                if view[V_PLAYED_BY + c] == s:
                    dealt |= bit(c)
        partner_bid = view[V_BIDS + p] if (p - first) & 3 < (s - first) & 3 else -1
        like *= bid_likelihood(dealt, view[V_BIDS + s], partner_bid)
    return like


@nb.njit(cache=True)
def weighted_worlds(ctx, view, seat, worlds, in_play):
    """``worlds`` worlds (rows of seats' hands) resampled by :func:`world_likelihood` from
    ``K_CANDIDATES * worlds`` draws of the sampler :func:`_prepare` set up; none if
    ``worlds`` is 0 (no draw then)."""
    if worlds == 0:
        return np.zeros((0, N_SEATS), np.uint64)
    pool = sampling.draw_worlds(ctx[C_ST], ctx[C_SC], ctx[C_MASKS], K_CANDIDATES * worlds,
                                N_SEATS)
    weights = np.empty(pool.shape[0], np.float64)
    for i in range(pool.shape[0]):
        weights[i] = world_likelihood(seat, view, pool[i], in_play)
    return sampling.resampled_rows(ctx[C_ST], pool, weights, worlds)


@nb.njit(cache=True)
def _pool(ctx, policy, view, seat, in_play):
    """The weighted worlds of an inferring policy with evidence to read (else none: the
    worlds are then drawn one by one, uniformly)."""
    w = n_worlds(policy) if inferring(policy) and evidence(seat, view) > 0 else 0
    return weighted_worlds(ctx, view, seat, w, in_play)


@nb.njit(cache=True)
def _next_world(ctx, omniscient, pool, i):
    """World i: the pool's if there is one, else the next draw (or the true hands)."""
    if pool.shape[0] > 0:
        ctx[C_PUB][:] = pool[i]
    else:
        _world(ctx, omniscient)


# ---------------------------------------------------------------- scoring


@nb.njit(cache=True)
def net_score(tricks, seat, view, rules):
    """The hand's score of ``seat``'s side minus the other side's, with ``tricks`` per seat
    (SP-11 ... SP-14, the bags carried into the hand included)."""
    net = 0
    for p in range(2):
        score = score_side(view[V_BIDS + p], view[V_BLIND + p], tricks[p],
                           view[V_BIDS + p + 2], view[V_BLIND + p + 2], tricks[p + 2],
                           view[V_BAGS + p], rules[R_BAG_LIMIT], rules[R_BAG_PENALTY],
                           rules[R_NIL_VALUE], rules[R_BLIND_NIL_VALUE])[0]
        net += score if p == (seat & 1) else -score
    return net


@nb.njit(cache=True)
def _split(view, side_future, nil_future, tricks):
    """Per-seat final tricks from each side's tricks still to come: a live nil seat takes
    ``nil_future[s]`` of its side's (-1: not a live nil), its partner the rest; otherwise the
    side's tricks go to a member that did not bid nil (who takes them does not change the
    score, except a broken nil's, which this ignores)."""
    for s in range(N_SEATS):
        tricks[s] = view[V_TRICKS + s]
    for p in range(2):
        rest = side_future[p]
        for s in (p, p + 2):
            if nil_future[s] >= 0:
                n = min(nil_future[s], rest)
                tricks[s] += n
                rest -= n
        a = p if view[V_BIDS + p] != 0 else p + 2
        tricks[a] += rest


# ---------------------------------------------------------------- rollouts


@nb.njit(cache=True)
def rollout(rv, rh, card, must_break, st):
    """Play the hand out from the view ``rv`` over the world ``rh`` (both consumed): the seat
    to move plays ``card`` (-1: the heuristic's), then every seat the heuristic's card, with
    the engine's rules (SP-7 ... SP-10).  Tricks per seat end in ``rv[V_TRICKS:]``."""
    leader = rv[V_LEADER]
    i0 = rv[V_NPLAYED]
    broken = rv[V_BROKEN] != 0
    for t in range(rv[V_TRICK], N_TRICKS):
        rv[V_TRICK] = t
        rv[V_LEADER] = leader
        for i in range(i0, N_SEATS):
            rv[V_NPLAYED] = i
            s = (leader + i) & 3
            hand = rh[s]
            legal = engine.legal_cards(hand, i, rv[V_TRICK_CARDS] // 13, must_break, broken)
            c = card if card >= 0 else policies.heuristic_play(s, hand, legal, rv, st)
            card = -1
            rh[s] = hand & ~bit(c)
            if i > 0 and c // 13 != rv[V_TRICK_CARDS] // 13:
                rv[V_VOIDS + s] |= 1 << (rv[V_TRICK_CARDS] // 13)
            if c // 13 == SPADES:
                broken = True
                rv[V_BROKEN] = 1
            rv[V_TRICK_CARDS + i] = c
            rv[V_PLAYED] |= np.int64(1) << np.int64(c)
            rv[V_PLAYED_BY + c] = s
        pos, _ = policies.current_best(rv, N_SEATS)
        leader = (leader + pos) & 3
        rv[V_TRICKS + leader] += 1
        i0 = 0


@nb.njit(cache=True)
def _rollout_score(ctx, view, card, seat):
    """Net score of ``card`` in the world ``ctx.pub``, the rest of the hand rolled out."""
    rv, rh, pub = ctx[C_RVIEW], ctx[C_RHANDS], ctx[C_PUB]
    rv[:] = view
    rh[:] = pub
    rules = ctx[C_RULES]
    rollout(rv, rh, card, rules[R_MUST_BREAK] != 0, ctx[C_ST])
    return net_score(rv[V_TRICKS:V_TRICKS + N_SEATS], seat, view, rules)


# ---------------------------------------------------------------- play


@nb.njit(cache=True)
def _index(legal, c):
    return popcount(legal & (bit(c) - np.uint64(1)))


@nb.njit(cache=True)
def _exact_scores(ctx, view, seat, legal):
    """Add each legal card's exact net score in world ``ctx.pub`` to the sums; False (sums
    untouched) if a solve ran out of its node budget."""
    tab, pub, trick = ctx[C_TAB], ctx[C_PUB], ctx[C_TRICK]
    cards_out, values_out, side, nilv = ctx[C_CARDS], ctx[C_VALUES], ctx[C_SIDE], ctx[C_NILV]
    n = view[V_NPLAYED]
    for i in range(n):
        trick[i] = view[V_TRICK_CARDS + i]
    leader, broken = view[V_LEADER], view[V_BROKEN] != 0
    must_break = ctx[C_RULES][R_MUST_BREAK] != 0
    k = solver.solve_moves(pub, leader, trick, n, broken, must_break, -1, tab, cards_out,
                           values_out)
    if k < 0:
        return False
    for i in range(k):
        if legal & bit(cards_out[i]):
            side[_index(legal, cards_out[i])] = values_out[i]
    nilv[:, :] = -1
    for s in range(N_SEATS):
        if policies.nil_alive(view, s):
            k = solver.solve_moves(pub, leader, trick, n, broken, must_break, s, tab, cards_out,
                                   values_out)
            if k < 0:
                return False
            for i in range(k):
                if legal & bit(cards_out[i]):
                    nilv[s, _index(legal, cards_out[i])] = values_out[i]
    left = N_TRICKS - view[V_TRICK]
    side_future = np.zeros(2, np.int64)
    nil_future = np.zeros(N_SEATS, np.int64)
    sums, tricks = ctx[C_SUMS], ctx[C_TRICKS4]
    for j in range(popcount(legal)):
        side_future[0] = side[j]
        side_future[1] = left - side[j]
        for s in range(N_SEATS):
            nil_future[s] = nilv[s, j]
        _split(view, side_future, nil_future, tricks)
        sums[j] += net_score(tricks, seat, view, ctx[C_RULES])
    return True


@nb.njit(cache=True)
def search_card(policy, seat, hand, legal, view, st, ctx):
    """pimc / dd card: each legal card's total net score over the worlds; the best, ties to
    the lowest card."""
    if popcount(legal) == 1:
        return lowest_bit(legal)
    omniscient = policy == DD
    if view[V_PLAYED] == 0:  # the first lead: nothing recorded yet is of this hand
        ctx[C_SPADE_ONLY][:] = 0
    unseen = play_facts(seat, hand, view, ctx[C_PASSED][seat], ctx[C_SPADE_ONLY], ctx[C_NEED],
                        ctx[C_MASKS])
    if not _prepare(ctx, unseen, omniscient):
        return policies.heuristic_play(seat, hand, legal, view, st)
    _seed(ctx, st, seat, K_PLAY, popcount(np.uint64(view[V_PLAYED])))
    pool = _pool(ctx, policy, view, seat, TRUE)
    exact = popcount(hand) <= EXACT_CARDS
    sums = ctx[C_SUMS]
    sums[:] = 0
    for i in range(n_worlds(policy)):
        _next_world(ctx, omniscient, pool, i)
        if exact and _exact_scores(ctx, view, seat, legal):
            continue
        m = legal
        j = 0
        while m:
            c = lowest_bit(m)
            m &= m - np.uint64(1)
            sums[j] += _rollout_score(ctx, view, c, seat)
            j += 1
    return best_card(legal, sums)


# ---------------------------------------------------------------- bidding


@nb.njit(cache=True)
def _fresh_play(rv):
    """The view at the first lead (what ``engine.play_tricks`` starts from)."""
    rv[V_PLAYED] = 0
    rv[V_BROKEN] = 0
    rv[V_TRICK] = 0
    rv[V_NPLAYED] = 0
    rv[V_LEADER] = (rv[V_DEALER] + 1) & 3
    for s in range(N_SEATS):
        rv[V_TRICKS + s] = 0
        rv[V_VOIDS + s] = 0
    for c in range(52):
        rv[V_PLAYED_BY + c] = -1


@nb.njit(cache=True)
def search_bid(policy, nil_mode, seat, hand, view, st, ctx):
    """SP-4, SP-5: the bid (0 = nil, 1 ... 13) with the best total net score, each bid scored
    in every world by a heuristic rollout of the hand, the later bidders bidding like the
    heuristic; ties to the lowest bid."""
    omniscient = policy == DD
    unseen = bid_facts(seat, hand, ctx[C_NEED], ctx[C_MASKS])
    if not _prepare(ctx, unseen, omniscient):
        return policies.choose_bid(HEURISTIC_BID, HEURISTIC_NIL, seat, hand, view, st)
    _seed(ctx, st, seat, K_BID, NO_SALT)
    rv, rh, pub, sums = ctx[C_RVIEW], ctx[C_RHANDS], ctx[C_PUB], ctx[C_SUMS]
    must_break = ctx[C_RULES][R_MUST_BREAK] != 0
    sums[:] = 0
    first = 1 if nil_mode == NIL_NEVER else 0
    pool = _pool(ctx, policy, view, seat, FALSE)
    for i in range(n_worlds(policy)):
        _next_world(ctx, omniscient, pool, i)
        for b in range(first, 14):
            rv[:] = view
            rv[V_BIDS + seat] = b
            for k in range(1, N_SEATS):
                s = (seat + k) & 3
                if rv[V_BIDS + s] < 0:
                    rv[V_BIDS + s] = policies.choose_bid(HEURISTIC_BID, HEURISTIC_NIL, s, pub[s],
                                                         rv, ctx[C_ST])
            _fresh_play(rv)
            rh[:] = pub
            rollout(rv, rh, NOBODY, must_break, ctx[C_ST])
            sums[b] += net_score(rv[V_TRICKS:V_TRICKS + N_SEATS], seat, rv, ctx[C_RULES])
    best = first
    for b in range(first, 14):
        if sums[b] > sums[best]:
            best = b
    return best


# ---------------------------------------------------------------- kernel hooks


play_card = search_hook(search_card, policies.builtin_play)
bid_for = search_hook(search_bid, policies.choose_bid)


@nb.njit(inline="always", cache=True)
def choose_blind_nil(bid_policy, mode, seat, view, st):
    """Blind nil of a searching seat: the heuristic's (it has no hand to sample from yet)."""
    if bid_policy >= DD:
        return policies.choose_blind_nil(1, 0, seat, view, st)
    return policies.choose_blind_nil(bid_policy, mode, seat, view, st)


@nb.njit(inline="always", cache=True)
def exchange_mode(bid_policy, mode):
    """The blind-nil exchange of a searching seat: the heuristic's."""
    if bid_policy >= DD:
        return 1
    return engine.exchange_mode(bid_policy, mode)


# (hands kernel, games kernel) of runs with a search policy: ``kernels()``
kernels = search_kernels(engine.kernels_with, __file__,
                         ("search_hands_kernel", "search_games_kernel"),
                         play_card=play_card, bid_for=bid_for, seen_card=seen_card,
                         choose_blind_nil=choose_blind_nil, exchange_mode=exchange_mode,
                         search_context=new_context)
