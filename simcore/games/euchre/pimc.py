"""Euchre search policies: ``pimc`` (sampled worlds) and ``dd`` (omniscient).

``pimc:W``, for every decision of its seat: deal the cards the seat cannot see W times
(``BID_WORLDS`` * W for the decisions before the play), uniformly among the deals consistent
with what it has seen (:mod:`simcore.sampling`; the facts are :func:`play_facts` and
:func:`bid_facts`), value each option in each world and take the option with the best total
over the worlds, ties to the lowest card id (lowest suit for a trump call; the cheaper option
for the yes/no decisions, see each function).  The score of a world is the hand's points for
the seat's side net of the other side's (EU-16 ... EU-19), a monotone function of the makers'
tricks.

* **cards**: each legal card's open-hand value in each world (:mod:`simcore.games.euchre.solver`).
* **the decisions before the play** (order up, name trump, pick up, discard, alone, defend
  alone): each option's hand played out in each world by the heuristic at every seat
  (:func:`play_out`: imperfect-information play, each seat seeing only its own cards and the
  table), not solved open-handed: open-hand play guesses every card right, which overvalues
  lone hands and bold calls (strategy fusion).

Decisions (the approximations, also in docs/search_policies.md):

* order up (round one) / name trump (round two): the worlds' mean net points with that trump,
  this seat the maker, nobody alone, against passing: in each world the seats after it (and
  its own later turn) bid like the heuristic (:func:`_after_pass`; round two assumes the
  turned-down suit is banned and nobody is stuck), and the contract they make is played out,
  or scores 0 if thrown in.  The dealer always picks up and discards like the heuristic; a
  dealer ordering itself chooses its best discard over the same worlds.  A stuck dealer names
  its best suit.
* pick up / discard (the dealer): the mean net points of each discard, and of leaving the card.
* alone / defend alone: the mean net points alone against with the partner, a lone player of
  the other side already declared playing in both.
* worlds: the card facts are hard (own cards, the upcard, cards played and by whom, voids
  shown): every world fits them.  ``pimc:W`` also reads the auction (:func:`auction_likelihood`,
  a model of a bidder: the heuristic made stochastic): it draws ``K_CANDIDATES`` times as many
  worlds as it uses uniformly among those the card facts allow, weights each by the likelihood
  of the other seats' passes, order-up and named suit given their dealt hands in the world,
  and resamples the worlds it uses by weight (:func:`simcore.sampling.resample`).
  ``pimc-uniform:W`` uses uniform worlds.

``dd`` makes every one of these choices on the true deal (one world: every hand seen) by its
open-hand value (the dealer's discard the best for its side; never a second lone hand, which
the solver does not play); it is labelled omniscient in the manifest and ``describe``.

Randomness: each decision seeds its own stream from the deal's stream state, the seat and the
decision (:func:`_seed`) without advancing the deal's stream, so the other seats' draws are
those of the same run without searching.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from simcore import sampling
from simcore.cards import SUIT_BITS, bit, lowest_bit, popcount
from simcore.games import searching
from simcore.games.euchre import engine, policies, solver
from simcore.games.euchre.deck import (BASE_DECK, base_to_public, card_to_trump, public_to_base,
                                       from_trump, to_trump)
from simcore.games.euchre.layout import (HAND_SIZE, N_SEATS, V_ACTIVE, V_ALONE_DEFENDER,
                                         V_ALONE_MAKER, V_DEALER, V_LEADER, V_MAKER, V_NPLAYED,
                                         V_PICKED_UP, V_PLAYED, V_PLAYED_BY, V_TRICK_CARDS,
                                         V_TRICKS, V_TRUMP, V_UPCARD, V_VOIDS)
from simcore.games.euchre.scoring import hand_points
from simcore.tricks import follow_mask, trick_winner
from simcore.games.searching import (DD, FALSE, INFER, MAX_WORLDS, NO_SALT, NOBODY,  # noqa: F401
                                     PIMC, TRUE, PlayPolicies, best_card, check_choice,
                                     decision_stream, inferring, is_search, n_worlds, new_table,
                                     played_by, search_hook, search_kernels)

DEFAULT_WORLDS = 32
BID_WORLDS = 4  # the decisions before the play draw this many times W worlds (bid_worlds)
KITTY = N_SEATS  # holder 4: the kitty (3 cards and the upcard, or the dealer's discard)
HOLDERS = N_SEATS + 1
MAX_STATES = 8192  # capacity states of a Euchre observation: at most 6**4 * 5
NO_TRICK = np.zeros(1, np.int64)
PASS = 7  # the slot of ``sums`` that holds passing
# decision kinds, folded into each decision's stream (typed: a literal compiles _seed again)
K_PLAY, K_ORDER, K_NAME, K_DEALER, K_ALONE = (np.int64(k) for k in (1, 2, 3, 4, 5))
EVERY_SEAT = np.int64(15)  # the active seats of a hand nobody plays alone (typed: one compile)
# The bidder model (pimc:W): a seat orders up (names a suit) with probability
# 1 / (1 + exp(-(strength - threshold + 1/2) / BID_SCALE)), strength and threshold the
# heuristic's (``policies.round_one_strength``, ``policies.best_suit``), so a hand the
# heuristic would pass passes more often than not, and the further from the threshold the
# surer; never 0 or 1, so no world the card facts allow is ruled out.
K_CANDIDATES = 8  # uniform worlds drawn per world used
BID_SCALE = 6.0


def search_id(name) -> int | None:
    """The policy id of ``dd``, ``pimc``, ``pimc:W``, ``pimc-uniform`` or ``pimc-uniform:W``
    (None for any other name)."""
    return searching.search_id(name, DEFAULT_WORLDS, True)


PLAY_POLICIES = PlayPolicies(policies.PLAY_POLICIES, DEFAULT_WORLDS, infer=True)
OMNISCIENT = ("dd",)
NOTES = (
    f"pimc, pimc:W (W worlds, default {DEFAULT_WORLDS}): a whole searching player: its seat "
    "plays each card by solving W deals of the unseen cards open-handed, and makes every "
    "decision before the play (order_up, name_trump, pickup, discard, alone, defend_alone) by "
    f"playing {BID_WORLDS}W deals out with the heuristic at every seat; DECISION=NAME policies "
    "apply only to the seats without a searching policy; the deals are weighted by how likely "
    "they make the other seats' passes and calls",
    "pimc-uniform, pimc-uniform:W: pimc with the deals uniform among those the cards seen "
    "allow (passes and calls are not read)",
    "dd: omniscient (sees every hand): plays and decides by the open-hand solution of the true "
    "deal; labelled omniscient in the manifest",
)


# ---------------------------------------------------------------- the search context


@nb.njit(cache=True)
def new_context(hands):
    """One block's solver table, sampler scratch and work arrays (``engine.search_context``);
    ``hands`` is the kernel's hands array (what ``dd`` sees)."""
    tab = new_table(solver.TABLE_BITS, 0)
    sc = sampling.new_scratch(MAX_STATES)
    need = np.zeros(HOLDERS, np.int64)
    masks = np.zeros((3, HOLDERS), np.uint64)  # allowed, known, drawn
    pub = np.zeros(N_SEATS, np.uint64)
    sums = np.zeros(8, np.int64)
    cards_out = np.zeros(16, np.int64)
    values_out = np.zeros(16, np.int64)
    trick = np.zeros(N_SEATS, np.int64)
    memo = np.full(1, -1, np.int64)  # this seat's last discard (trump order)
    pst = np.zeros(1, np.uint64)
    return (tab, sc, need, masks, pub, sums, cards_out, values_out, trick, memo, pst, hands)


@nb.njit(cache=True)
def _seed(ctx, st, seat, kind, salt):
    """The decision's own stream: a function of the deal's stream state (not advanced), the
    seat, the kind of decision and what has been played (``salt``)."""
    decision_stream(ctx[10], st, seat, kind, salt)


# ---------------------------------------------------------------- facts -> sampler inputs


@nb.njit(cache=True)
def _clear(need, masks, deck):
    for h in range(HOLDERS):
        need[h] = 0
        masks[0, h] = deck
        masks[1, h] = 0


@nb.njit(cache=True)
def bid_facts(seat, hand, kitty_known, need, masks):
    """Before trump (base order): own five cards and the kitty's known cards (the upcard),
    nothing else.  Returns the unseen cards; fills need, masks[0] (allowed), masks[1] (known)."""
    _clear(need, masks, BASE_DECK)
    masks[1, seat] = hand
    masks[1, KITTY] = kitty_known
    for s in range(N_SEATS):
        need[s] = 0 if s == seat else HAND_SIZE
    masks[0, seat] = 0
    need[KITTY] = 4 - popcount(kitty_known)
    return BASE_DECK & ~hand & ~kitty_known


@nb.njit(cache=True)
def play_facts(seat, hand, view, in_play, discard, need, masks):
    """Once trump is fixed (trump order): own cards; the upcard in the dealer's hand once picked
    up (else face up in the kitty); the dealer's own discard in the kitty (``discard``, -1 when
    the seat is not the dealer or did not discard); with ``in_play``, every card played and by
    whom, and the voids shown (suits in trump order, so a bower is a trump).  Returns the
    unseen cards."""
    trump = view[V_TRUMP]
    dealer = view[V_DEALER]
    deck = to_trump(BASE_DECK, trump)
    _clear(need, masks, deck)
    played = np.uint64(view[V_PLAYED]) if in_play else np.uint64(0)
    up = bit(view[V_UPCARD])
    masks[1, seat] = hand
    if view[V_PICKED_UP]:
        if not played & up:
            masks[1, dealer] |= up
        if seat == dealer and discard >= 0:
            masks[1, KITTY] = bit(discard)
    else:
        masks[1, KITTY] = up
    unseen = deck & ~played
    for s in range(N_SEATS):
        gone = played_by(view, V_PLAYED_BY, 48, s) if in_play else 0
        need[s] = HAND_SIZE - gone - popcount(masks[1, s])
        if in_play:
            for suit in range(4):
                if (view[V_VOIDS + s] >> suit) & 1:
                    masks[0, s] &= ~(SUIT_BITS << np.uint64(13 * suit))
    need[KITTY] = 4 - popcount(masks[1, KITTY])
    masks[0, seat] = 0
    need[seat] = 0
    for h in range(HOLDERS):
        unseen &= ~masks[1, h]
    return unseen


# ---------------------------------------------------------------- worlds


@nb.njit(cache=True)
def _public(mask, trump):
    """A hand in engine order (base when trump < 0, else trump order) as public ids."""
    if trump < 0:
        return base_to_public(mask)
    return base_to_public(from_trump(mask, trump))


@nb.njit(cache=True)
def _to_trump_card(c, trump):
    """A public card id in trump order."""
    return card_to_trump(13 * (c // 13) + c % 13 - 7, trump)


@nb.njit(cache=True)
def _prepare(ctx, unseen, omniscient):
    """Count the worlds of the facts in ctx; False if the sampler cannot (then the caller
    falls back to the heuristic)."""
    if omniscient:
        return True
    return sampling.prepare(unseen, ctx[2], ctx[3][0], HOLDERS, ctx[1]) > 0.0


@nb.njit(cache=True)
def _start(ctx, st, seat, kind, salt, unseen, omniscient):
    """Ready ctx for one decision: count its worlds (_prepare) and seed its stream (_seed).
    False if the sampler cannot (then the caller falls back to the heuristic)."""
    if not _prepare(ctx, unseen, omniscient):
        return False
    _seed(ctx, st, seat, kind, salt)
    return True


@nb.njit(inline="always", cache=True)
def _bid_work(ctx):
    """A decision before the play's working arrays: the solver table, the world's hands
    (public ids), the option sums, the solver's card list, and the world's hands in trump
    order for the rollouts."""
    return ctx[0], ctx[4], ctx[5], ctx[6], np.zeros(N_SEATS, np.uint64)


@nb.njit(cache=True)
def _world(ctx, omniscient, trump, active, pool, i):
    """Fill ctx's ``pub`` with the next world (public ids; seats sitting out hold nothing):
    world ``i`` of ``pool`` (weighted worlds) if it has any, else a draw, or with
    ``omniscient`` the true hands."""
    masks, pub, hands = ctx[3], ctx[4], ctx[11]
    if pool.shape[0] > 0:
        masks[2, :] = pool[i]
    elif not omniscient:
        sampling.draw(ctx[10], ctx[1], masks[2])
    for s in range(N_SEATS):
        m = hands[s] if omniscient else masks[1, s] | masks[2, s]
        pub[s] = _public(m, trump) if (active >> s) & 1 else np.uint64(0)


# ---------------------------------------------------------------- the auction as evidence


@nb.njit(cache=True)
def _calls(strength, threshold):
    """P(the model bids) for a hand of ``strength`` against the heuristic's ``threshold``."""
    return 1.0 / (1.0 + np.exp(-(strength - threshold + 0.5) / BID_SCALE))


@nb.njit(cache=True)
def auction_likelihood(seat, dealer, dealt, usable, upcard, passes1, banned, passes2, maker,
                       named):
    """The likelihood of the auction so far, seat ``seat``'s own calls left out, given each
    seat's dealt hand (``dealt``, base order; only seats with ``usable[s]``): ``passes1``
    seats from the dealer's left passed in round one (read only with the ``upcard``, a base
    id, known), then ``maker`` (-1: none yet) ordered it up if ``named`` < 0; else all four
    passed, ``passes2`` passed in round two (``banned`` the turned-down suit), and ``maker``
    named ``named`` (a dealer that names is left out: it may have been stuck)."""
    like = 1.0
    if upcard >= 0:
        for i in range(1, passes1 + 1):
            s = (dealer + i) % 4
            if s != seat and usable[s]:
                like *= 1.0 - _calls(policies.round_one_strength(s, dealer, dealt[s], upcard),
                                     policies.ORDER_UP_THRESHOLD)
        if maker >= 0 and named < 0 and maker != seat and usable[maker]:
            like *= _calls(policies.round_one_strength(maker, dealer, dealt[maker], upcard),
                           policies.ORDER_UP_THRESHOLD)
    if banned >= 0:
        for i in range(1, passes2 + 1):
            s = (dealer + i) % 4
            if s != seat and usable[s]:
                like *= 1.0 - _calls(policies.best_suit(dealt[s], banned)[1],
                                     policies.NAME_TRUMP_THRESHOLD)
        if maker >= 0 and named >= 0 and maker != seat and maker != dealer and usable[maker]:
            like *= _calls(policies.hand_strength(to_trump(dealt[maker], named), named),
                           policies.NAME_TRUMP_THRESHOLD)
    return like


@nb.njit(inline="always", cache=True)
def _weighted(ctx, seat, worlds, dealer, view, in_play, upcard, passes1, banned, passes2,
              maker, named):
    """:func:`_weighted_of` with plain int64/bool arguments: one compiled body for every call
    (literal arguments would each compile their own)."""
    return _weighted_of(ctx, np.int64(seat), np.int64(worlds), np.int64(dealer), view,
                        np.bool_(in_play), np.int64(upcard), np.int64(passes1),
                        np.int64(banned), np.int64(passes2), np.int64(maker), np.int64(named))


@nb.njit(cache=True)
def _weighted_of(ctx, seat, worlds, dealer, view, in_play, upcard, passes1, banned, passes2,
                 maker, named):
    """``worlds`` drawn worlds (rows of the sampler's ``drawn`` masks) resampled by
    :func:`auction_likelihood` from ``K_CANDIDATES * worlds`` draws; with ``view`` (trump
    fixed, ``view[V_TRUMP]``) the hands are in trump order and, ``in_play``, the cards each
    seat played are added back; a dealer that picked the upcard up is not read."""
    if worlds == 0:
        return np.zeros((0, HOLDERS), np.uint64)
    n = K_CANDIDATES * worlds
    pool = np.empty((n, HOLDERS), np.uint64)
    weights = np.empty(n, np.float64)
    masks = ctx[3]
    dealt = np.zeros(N_SEATS, np.uint64)
    usable = np.ones(N_SEATS, np.bool_)
    trump = view[V_TRUMP] if view.shape[0] > 0 else -1
    if trump >= 0 and view[V_PICKED_UP]:
        usable[dealer] = False
    played = np.zeros(N_SEATS, np.uint64)  # the cards each seat has played (trump order)
    if trump >= 0 and in_play:
        for c in range(48):
            if view[V_PLAYED_BY + c] >= 0:
                played[view[V_PLAYED_BY + c]] |= bit(c)
    for i in range(n):
        sampling.draw(ctx[10], ctx[1], masks[2])
        for h in range(HOLDERS):
            pool[i, h] = masks[2, h]
        for s in range(N_SEATS):
            m = masks[1, s] | masks[2, s]
            if trump >= 0:
                m = from_trump(m | played[s], trump)
            dealt[s] = m
        weights[i] = auction_likelihood(seat, dealer, dealt, usable, upcard, passes1, banned,
                                        passes2, maker, named)
    return sampling.resampled_rows(ctx[10], pool, weights, worlds)




@nb.njit(cache=True)
def _bid_pool(ctx, policy, worlds, seat, dealer, upcard, banned, passes):
    """Weighted worlds while bidding: round one (``upcard`` >= 0) after ``passes`` passes,
    or round two (``banned``, the upcard not known) after all four passed and ``passes``
    more; none for ``pimc-uniform``, ``dd`` or with no seat's pass to read."""
    w = worlds if inferring(policy) and passes > 0 else 0
    no_view = np.zeros(0, np.int64)  # (a global array would be typed read-only: a second body)
    if upcard >= 0:
        return _weighted(ctx, seat, w, dealer, no_view, False, upcard, passes, -1, 0, -1, -1)
    return _weighted(ctx, seat, w, dealer, no_view, False, -1, 4, banned, passes, -1, -1)


@nb.njit(cache=True)
def _made_pool(ctx, policy, worlds, seat, view, in_play):
    """Weighted worlds once trump is made (the whole auction read from ``view``)."""
    if not inferring(policy) or view[V_MAKER] < 0:
        return _weighted(ctx, seat, 0, 0, view, in_play, -1, 0, -1, 0, -1, -1)
    trump, dealer, maker = view[V_TRUMP], view[V_DEALER], view[V_MAKER]
    upcard = lowest_bit(from_trump(bit(view[V_UPCARD]), trump))
    before = (maker - dealer - 1) % 4  # the seats that passed before the maker's call
    w = worlds
    if upcard // 13 == trump:  # ordered up in round one
        return _weighted(ctx, seat, w, dealer, view, in_play, upcard, before, -1, 0, maker, -1)
    return _weighted(ctx, seat, w, dealer, view, in_play, upcard, 4, upcard // 13, before,
                     maker, trump)


@nb.njit(cache=True)
def net_points(side0_tricks, seat, maker, alone_maker, alone_defender):
    """The hand's points for ``seat``'s side minus the other side's (EU-16 ... EU-19)."""
    maker_tricks = side0_tricks if maker % 2 == 0 else 5 - side0_tricks
    made, defended = hand_points(maker_tricks, alone_maker >= 0, alone_defender >= 0)
    mine = made - defended
    return mine if (seat - maker) % 2 == 0 else -mine


# ---------------------------------------------------------------- stopping when decided
# A decision compares totals over the worlds.  Once the worlds still to come cannot change
# its answer (each world adds to every option a value within the hand's range of net points,
# so no two options' totals can move apart or together by more than that range a world), the
# remaining worlds are skipped: the answer is the one the full loop gives, only sooner.


@nb.njit(cache=True)
def net_bounds(seat, maker, alone_maker, alone_defender):
    """(lowest, highest) ``net_points`` over the makers' 0 ... 5 tricks, with 0 (a pass)."""
    lo, hi = 0, 0
    for t in range(6):
        v = net_points(t, seat, maker, alone_maker, alone_defender)
        lo = min(lo, v)
        hi = max(hi, v)
    return lo, hi


@nb.njit(cache=True)
def net_span(seat, maker, alone_maker, alone_defender):
    lo, hi = net_bounds(seat, maker, alone_maker, alone_defender)
    return hi - lo


@nb.njit(cache=True)
def best_is_settled(sums, first, n, margin):
    """Is ``sums[first .. first+n-1]``'s best (ties to the lowest index) beyond reach: ahead
    of every other option by more than ``margin`` (by ``margin`` of one above it)?"""
    b = first
    for j in range(first + 1, first + n):
        if sums[j] > sums[b]:
            b = j
    for j in range(first, first + n):
        if j < b and sums[b] - sums[j] <= margin or j > b and sums[b] - sums[j] < margin:
            return False
    return True


@nb.njit(cache=True)
def comparison_settled(a, b, margin, strict):
    """Is ``a > b`` (``strict``) or ``a >= b`` decided whatever ``margin`` adds to either?"""
    if strict:
        return a - b > margin or b - a >= margin
    return a - b >= margin or b - a > margin


# ---------------------------------------------------------------- play


@nb.njit(cache=True)
def search_card(policy, seat, hand, legal, view, st, ctx):
    """pimc / dd card: each legal card's total net points over the worlds; the best, ties to
    the lowest card."""
    if popcount(legal) == 1:
        return lowest_bit(legal)
    alone_m, alone_d = view[V_ALONE_MAKER], view[V_ALONE_DEFENDER]
    omniscient = policy == DD
    trump = view[V_TRUMP]
    discard = ctx[9][0] if seat == view[V_DEALER] else -1
    unseen = play_facts(seat, hand, view, TRUE, discard, ctx[2], ctx[3])
    salt = popcount(np.uint64(view[V_PLAYED]))
    if (alone_m >= 0 and alone_d >= 0) or not _start(ctx, st, seat, K_PLAY, salt, unseen,
                                                      omniscient):
        return policies.heuristic_play(seat, hand, legal, view, st)
    tab, pub, sums, cards_out, values_out, trick = ctx[0], ctx[4], ctx[5], ctx[6], ctx[7], ctx[8]
    n = view[V_NPLAYED]
    for i in range(n):
        trick[i] = lowest_bit(_public(bit(view[V_TRICK_CARDS + i]), trump))
    won = view[V_TRICKS] + view[V_TRICKS + 2]
    alone = alone_m if alone_m >= 0 else alone_d
    span = net_span(seat, view[V_MAKER], alone_m, alone_d)
    n_legal = popcount(legal)
    sums[:] = 0
    worlds = n_worlds(policy)
    pool = _made_pool(ctx, policy, worlds, seat, view, TRUE)
    for w in range(worlds):
        _world(ctx, omniscient, trump, view[V_ACTIVE], pool, w)
        k = solver.solve_moves(pub, view[V_LEADER], trick, n, trump, alone, tab, cards_out,
                               values_out)
        for i in range(k):
            c = _to_trump_card(cards_out[i], trump)
            j = popcount(legal & (bit(c) - np.uint64(1)))
            sums[j] += net_points(won + values_out[i], seat, view[V_MAKER], alone_m, alone_d)
        if best_is_settled(sums, 0, n_legal, span * (worlds - 1 - w)):
            break
    return best_card(legal, sums)


# ---------------------------------------------------------------- play-outs (the decisions before the play)
# An open-hand solve of a world plays every card as if all hands were seen, so a lone hand or
# a bold call is valued as if every guess in its play came right (strategy fusion): open-hand
# values made pimc go alone on one hand in six and march on barely a third of them.  The
# decisions before the play are therefore valued by playing each world out with the
# heuristic at every seat: imperfect-information play, each seat seeing only its own cards and
# the table.  ``dd`` keeps the open-hand values of the true deal (it is the omniscient yardstick).


@nb.njit(cache=True)
def play_out(hands, trump, maker, dealer, up, picked_up, lone_m, lone_d, cards):
    """Tricks of seats 0+2 when every seat plays the heuristic (``policies.heuristic_card``,
    what each seat sees only) from the first lead to the end.  ``hands``: the four hands in
    trump order (consumed); ``up``: the upcard in trump order (-1: unknown), lying in the kitty
    unless ``picked_up``; ``lone_m``/``lone_d``: the lone players (-1: none); ``cards``: int64
    scratch of 8 (the trick's cards, then its seats)."""
    active = 15
    if lone_m >= 0:
        active &= ~(1 << (lone_m ^ 2))
    if lone_d >= 0:
        active &= ~(1 << (lone_d ^ 2))
    n_active = 4 - (lone_m >= 0) - (lone_d >= 0)
    in_kitty = bit(up) if up >= 0 and not picked_up else np.uint64(0)
    leader = engine.first_leader(dealer, lone_m, lone_d)
    played = np.uint64(0)
    side0 = 0
    for _ in range(HAND_SIZE):
        seat = leader
        led = 0
        for i in range(n_active):
            hand = hands[seat]
            legal = hand if i == 0 else follow_mask(hand, led)
            c = policies.heuristic_card(seat, hand, legal, trump, maker, i, played, in_kitty,
                                        active, cards[0], cards[1], cards[2], cards[3],
                                        cards[4], cards[5], cards[6], cards[7])
            if i == 0:
                led = c // 13
            hands[seat] = hand & ~bit(c)
            played |= bit(c)
            cards[i] = c
            cards[4 + i] = seat
            seat = engine.next_active(seat, active)
        leader = cards[4 + trick_winner(cards, n_active, trump)]
        side0 += 1 - (leader & 1)
    return side0


@nb.njit(cache=True)
def _hands_in(pub, trump, rh):
    """The world ``pub`` (public ids) as trump-order hands in ``rh``."""
    for s in range(N_SEATS):
        rh[s] = to_trump(public_to_base(pub[s]), trump)


@nb.njit(cache=True)
def _ordered_value(pub, rh, cards, dealer, upcard, maker, tab, omniscient):
    """Tricks of seats 0+2 once ``maker`` has ordered up the upcard (base id) in world ``pub``,
    nobody alone: the dealer picks it up and discards like the heuristic, then the play-out
    (``dd``: the open-hand value, the dealer's discard the best for its side)."""
    trump = upcard // 13
    if omniscient:
        return solver._table_entry(pub, dealer, upcard + 7, trump, -1, tab)
    _hands_in(pub, trump, rh)
    up = card_to_trump(upcard, trump)
    six = rh[dealer] | bit(up)
    rh[dealer] = six & ~bit(policies.best_discard(six, up, trump))
    return play_out(rh, trump, maker, dealer, up, TRUE, NOBODY, NOBODY, cards)


@nb.njit(cache=True)
def _named_value(pub, rh, cards, dealer, trump, maker, tab, omniscient):
    """Tricks of seats 0+2 with ``trump`` named in round two by ``maker``, nobody alone."""
    if omniscient:
        return solver.solve_value(pub, (dealer + 1) % 4, NO_TRICK, 0, trump, -1, tab)
    _hands_in(pub, trump, rh)
    return play_out(rh, trump, maker, dealer, NOBODY, FALSE, NOBODY, NOBODY, cards)


@nb.njit(cache=True)
def bid_worlds(policy):
    """Worlds of a decision before the play: ``BID_WORLDS`` times the card play's (play-outs
    cost a fraction of a solve, and a call compares options far apart in value)."""
    return n_worlds(policy) * (1 if policy == DD else BID_WORLDS)


# ---------------------------------------------------------------- bidding


# _after_pass and _dealer_sums call the solver: their callers' constants go through inlined
# wrappers as run-time values, so each compiles once (see simcore.games.euchre.solver).
@nb.njit(inline="always", cache=True)
def _after_pass(pub, seat, dealer, upcard, banned, round_one, tab, ordered, rh, cards,
                omniscient):
    return _after_pass_of(pub, np.int64(seat), np.int64(dealer), np.int64(upcard),
                          np.int64(banned), np.bool_(round_one), tab, np.int64(ordered), rh,
                          cards, np.bool_(omniscient))


@nb.njit(cache=True)
def _after_pass_of(pub, seat, dealer, upcard, banned, round_one, tab, ordered, rh, cards,
                   omniscient):
    """Net points for ``seat`` in world ``pub`` if it passes now and the bidding goes on as
    the heuristic bids (every seat, its own later turn included); 0 if thrown in.
    ``ordered``: the value of the upcard ordered up in this world by ``seat`` (-1: not valued
    yet); the open-hand value (``dd``) does not depend on who orders it."""
    turn = (seat - dealer - 1) % 4 + 1  # seat = (dealer + turn) % 4, turn 1 .. 4
    first2 = turn + 1
    if round_one:
        for i in range(turn + 1, 5):
            s = (dealer + i) % 4
            if policies.round_one_strength(s, dealer, public_to_base(pub[s]), upcard) >= \
                    policies.ORDER_UP_THRESHOLD:
                if omniscient and ordered >= 0:
                    v = ordered
                else:
                    v = _ordered_value(pub, rh, cards, dealer, upcard, s, tab, omniscient)
                return net_points(v, seat, s, -1, -1)
        first2 = 1
    for i in range(first2, 5):
        s = (dealer + i) % 4
        suit, score = policies.best_suit(public_to_base(pub[s]), banned)
        if score >= policies.NAME_TRUMP_THRESHOLD:
            v = _named_value(pub, rh, cards, dealer, suit, s, tab, omniscient)
            return net_points(v, seat, s, -1, -1)
    return 0


@nb.njit(cache=True)
def search_order_up(policy, seat, dealer, hand, upcard, st, ctx):
    """Round one: order up iff the best mean net points with the upcard's suit beat passing."""
    omniscient = policy == DD
    unseen = bid_facts(seat, hand, bit(upcard), ctx[2], ctx[3])
    if not _start(ctx, st, seat, K_ORDER, NO_SALT, unseen, omniscient):
        return policies.order_up(policies.HEURISTIC, seat, dealer, hand, upcard, st, ctx)
    tab, pub, sums, cards, rh = _bid_work(ctx)
    trump = upcard // 13
    up = card_to_trump(upcard, trump)
    six = hand | bit(upcard)
    n_opts = popcount(hand) if seat == dealer else 1
    span = net_span(seat, seat, -1, -1)
    sums[:] = 0
    worlds = bid_worlds(policy)
    pool = _bid_pool(ctx, policy, worlds, seat, dealer, upcard, NOBODY, (seat - dealer - 1) % 4)
    for w in range(worlds):
        _world(ctx, omniscient, NOBODY, EVERY_SEAT, pool, w)
        if seat != dealer:
            v = _ordered_value(pub, rh, cards, dealer, upcard, seat, tab, omniscient)
            sums[0] += net_points(v, seat, seat, -1, -1)
            sums[PASS] += _after_pass(pub, seat, dealer, upcard, trump, True, tab, v, rh, cards,
                                      omniscient)
        else:  # (no seat bids after the dealer in round one)
            sums[PASS] += _after_pass(pub, seat, dealer, upcard, trump, True, tab, -1, rh, cards,
                                      omniscient)
            m = hand  # the dealer itself: each discard of the six (never the upcard)
            j = 0
            while m:
                c = lowest_bit(m)
                m &= m - np.uint64(1)
                if omniscient:
                    pub[dealer] = base_to_public(six & ~bit(c))
                    v = solver.solve_value(pub, (dealer + 1) % 4, NO_TRICK, 0, trump, -1, tab)
                else:
                    _hands_in(pub, trump, rh)
                    rh[dealer] = to_trump(six & ~bit(c), trump)
                    v = play_out(rh, trump, seat, dealer, up, TRUE, NOBODY, NOBODY, cards)
                sums[j] += net_points(v, seat, seat, -1, -1)
                j += 1
        if comparison_settled(_max_of(sums, n_opts), sums[PASS], span * (worlds - 1 - w), True):
            break
    return _max_of(sums, n_opts) > sums[PASS]


@nb.njit(cache=True)
def _max_of(sums, n):
    best = sums[0]
    for j in range(1, n):
        best = max(best, sums[j])
    return best


@nb.njit(cache=True)
def search_name_trump(policy, seat, dealer, hand, banned, stuck, st, ctx):
    """Round two: the suit with the best mean net points, if it beats passing (always when
    stuck)."""
    omniscient = policy == DD
    # the turned-down upcard is a kitty card every seat has seen, but the engine does not
    # pass it to round two, so these worlds leave it unseen (a small loss of information)
    unseen = bid_facts(seat, hand, np.uint64(0), ctx[2], ctx[3])
    if not _start(ctx, st, seat, K_NAME, NO_SALT, unseen, omniscient):
        return policies.name_trump(policies.HEURISTIC, seat, dealer, hand, banned, stuck, st, ctx)
    tab, pub, sums, cards, rh = _bid_work(ctx)
    sums[:] = 0
    worlds = bid_worlds(policy)
    pool = _bid_pool(ctx, policy, worlds, seat, dealer, NOBODY, banned, (seat - dealer - 1) % 4)
    for w in range(worlds):
        _world(ctx, omniscient, NOBODY, EVERY_SEAT, pool, w)
        if not stuck:
            sums[PASS] += _after_pass(pub, seat, dealer, 0, banned, False, tab, -1, rh, cards,
                                      omniscient)
        for t in range(4):
            if t != banned:
                v = _named_value(pub, rh, cards, dealer, t, seat, tab, omniscient)
                sums[t] += net_points(v, seat, seat, -1, -1)
    best = -1
    for t in range(4):
        if t != banned and (best < 0 or sums[t] > sums[best]):
            best = t
    return best if stuck or sums[best] > sums[PASS] else -1


@nb.njit(inline="always", cache=True)
def _dealer_sums(policy, hand, upcard, trump, st, view, ctx, for_discard):
    return _dealer_sums_of(policy, hand, np.int64(upcard), np.int64(trump), st, view, ctx,
                           np.bool_(for_discard))


@nb.njit(cache=True)
def _dealer_sums_of(policy, hand, upcard, trump, st, view, ctx, for_discard):
    """The dealer's options on the same worlds: sums[0] leaving the upcard, sums[1 + j]
    discarding the j-th lowest card of ``hand`` (the five, upcard kept).  False if the
    sampler could not.  The worlds stop once the answer is settled: the best discard
    (``for_discard``), else whether to pick up."""
    dealer = view[V_DEALER]
    omniscient = policy == DD
    unseen = play_facts(dealer, hand, view, FALSE, NOBODY, ctx[2], ctx[3])
    if not _start(ctx, st, dealer, K_DEALER, NO_SALT, unseen, omniscient):
        return False
    tab, pub, sums, cards, rh = _bid_work(ctx)
    maker = view[V_MAKER]
    leader = (dealer + 1) % 4
    six = hand | bit(upcard)
    n = popcount(hand)
    span = net_span(dealer, maker, -1, -1)
    sums[:] = 0
    worlds = bid_worlds(policy)
    pool = _made_pool(ctx, policy, worlds, dealer, view, FALSE)
    for w in range(worlds):
        _world(ctx, omniscient, trump, EVERY_SEAT, pool, w)
        if not for_discard:  # leaving the card: only the pick-up question asks
            if omniscient:
                pub[dealer] = _public(hand, trump)
                v = solver.solve_value(pub, leader, NO_TRICK, 0, trump, -1, tab)
            else:
                _hands_in(pub, trump, rh)
                rh[dealer] = hand
                v = play_out(rh, trump, maker, dealer, upcard, FALSE, NOBODY, NOBODY, cards)
            sums[0] += net_points(v, dealer, maker, -1, -1)
        m = hand
        j = 1
        while m:
            c = lowest_bit(m)
            m &= m - np.uint64(1)
            if omniscient:
                pub[dealer] = _public(six & ~bit(c), trump)
                v = solver.solve_value(pub, leader, NO_TRICK, 0, trump, -1, tab)
            else:
                _hands_in(pub, trump, rh)
                rh[dealer] = six & ~bit(c)
                v = play_out(rh, trump, maker, dealer, upcard, TRUE, NOBODY, NOBODY, cards)
            sums[j] += net_points(v, dealer, maker, -1, -1)
            j += 1
        margin = span * (worlds - 1 - w)
        if best_is_settled(sums, 1, n, margin) if for_discard else comparison_settled(
                _max_of(sums[1:], n), sums[0], margin, False):
            break
    return True


@nb.njit(cache=True)
def search_pickup(policy, hand, upcard, trump, st, view, ctx):
    """EU-8: pick up iff the best discard does at least as well as leaving the card."""
    if not _dealer_sums(policy, hand, upcard, trump, st, view, ctx, False):
        return policies.pickup(policies.HEURISTIC, hand, upcard, trump, st, view, ctx)
    sums = ctx[5]
    return _max_of(sums[1:], popcount(hand)) >= sums[0]


@nb.njit(cache=True)
def search_discard(policy, six, upcard, trump, st, view, ctx):
    """EU-8: the discard (never the upcard) with the best sum, ties to the lowest card;
    remembered for the dealer's worlds in play."""
    hand = six & ~bit(upcard)
    if _dealer_sums(policy, hand, upcard, trump, st, view, ctx, True):
        d = best_card(hand, ctx[5][1:])
    else:
        d = policies.best_discard(six, upcard, trump)
    ctx[9][0] = d
    return d


@nb.njit(cache=True)
def search_go_alone(policy, seat, hand, view, st, ctx):
    """EU-12: alone iff its mean net points beat playing with the partner (a lone player of
    the other side, already declared, plays in both)."""
    maker = view[V_MAKER]
    makers_side = (seat - maker) % 2 == 0
    other = view[V_ALONE_DEFENDER] if makers_side else view[V_ALONE_MAKER]
    omniscient = policy == DD
    if other >= 0 and omniscient:
        return False  # the solver plays one lone hand at most
    dealer = view[V_DEALER]
    discard = ctx[9][0] if seat == dealer and view[V_PICKED_UP] else -1
    unseen = play_facts(seat, hand, view, FALSE, discard, ctx[2], ctx[3])
    if not _start(ctx, st, seat, K_ALONE, NO_SALT, unseen, omniscient):
        return False
    tab, pub, sums, cards, rh = _bid_work(ctx)
    trump = view[V_TRUMP]
    up, picked = view[V_UPCARD], view[V_PICKED_UP] != 0
    base_m, base_d = view[V_ALONE_MAKER], view[V_ALONE_DEFENDER]  # (-1 on this seat's side)
    lone_m = seat if makers_side else base_m
    lone_d = base_d if makers_side else seat
    leader = engine.first_leader(dealer, lone_m, lone_d)
    lo, hi = net_bounds(seat, maker, base_m, base_d)
    lo_alone, hi_alone = net_bounds(seat, maker, lone_m, lone_d)
    span = max(hi, hi_alone) - min(lo, lo_alone)  # both options' values lie within
    sums[:] = 0
    worlds = bid_worlds(policy)
    pool = _made_pool(ctx, policy, worlds, seat, view, FALSE)
    for w in range(worlds):
        _world(ctx, omniscient, trump, EVERY_SEAT, pool, w)
        if omniscient:
            v = solver.solve_value(pub, (dealer + 1) % 4, NO_TRICK, 0, trump, -1, tab)
        else:
            _hands_in(pub, trump, rh)
            v = play_out(rh, trump, maker, dealer, up, picked, base_m, base_d, cards)
        sums[0] += net_points(v, seat, maker, base_m, base_d)
        if omniscient:
            pub[seat ^ 2] = 0
            v = solver.solve_value(pub, leader, NO_TRICK, 0, trump, seat, tab)
        else:
            _hands_in(pub, trump, rh)
            v = play_out(rh, trump, maker, dealer, up, picked, lone_m, lone_d, cards)
        sums[1] += net_points(v, seat, maker, lone_m, lone_d)
        if comparison_settled(sums[1], sums[0], span * (worlds - 1 - w), True):
            break
    return sums[1] > sums[0]


# ---------------------------------------------------------------- kernel hooks


play_card = search_hook(search_card, policies.builtin_play)
order_up = search_hook(search_order_up, policies.order_up)
name_trump = search_hook(search_name_trump, policies.name_trump)
pickup = search_hook(search_pickup, policies.pickup)
discard = search_hook(search_discard, policies.discard)
go_alone = search_hook(search_go_alone, policies.go_alone)


# the batch kernel of runs with a search policy: ``kernel()``
kernel = search_kernels(engine.kernel_with, __file__, ("search_batch_kernel",),
                        play_card=play_card, order_up=order_up, name_trump=name_trump,
                        pickup=pickup, discard=discard, go_alone=go_alone,
                        search_context=new_context)
