"""OpenSpiel ``euchre`` played by simcore's Euchre policies (docs/interop.md, "Euchre").

OpenSpiel plays one hand: a chance dealer, 20 cards dealt one at a time starting with the
dealer (card i to seat dealer + i), the upcard, two bidding rounds (the turned-down suit may
never be named), a **compulsory** pick-up and discard when the upcard is ordered up, the
declarer's go-alone decision (then the defenders', with ``allow_lone_defender``), and five
tricks led from the dealer's left.  Card ``c`` is rank ``c // 4`` (9 ... A) of suit ``c % 4``
(clubs, diamonds, hearts, spades): simcore's base-order id is ``13 * (c % 4) + c // 4``.
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from simcore.errors import SimcoreError
from simcore.interop.openspiel import policy_table
from simcore.games.euchre import layout as L
from simcore.games.euchre import pimc
from simcore.games.euchre.policies import (
    HEURISTIC,
    PLAY_POLICIES,
    RANDOM,
    builtin_play,
    discard,
    go_alone,
    name_trump,
    order_up,
)
from simcore.games.euchre.rules import Rules

NAME = "euchre"
PASS = 24
CLUBS = 25  # suit s is named by CLUBS + s
ALONE = 29
PARTNER = 30
DEALT = 20  # cards dealt to the seats before the upcard


@dataclass(frozen=True)
class Table:
    rules: Rules
    lone_defender: bool  # OpenSpiel's allow_lone_defender: the defenders are asked too


def setup(params) -> Table:
    known = {"allow_lone_defender", "stick_the_dealer"}
    unknown = set(params) - known
    if unknown:
        raise SimcoreError(f"OpenSpiel euchre parameter(s) {', '.join(sorted(unknown))} "
                           "are not known to simcore's bots")
    rules = Rules(stick_the_dealer=bool(params.get("stick_the_dealer", True)),
                  dealer_pickup_optional=False, allow_turned_down_suit=False)
    return Table(rules, bool(params.get("allow_lone_defender", False)))


# ---------------------------------------------------------------- card orders


def os_to_base(c: int) -> int:
    return 13 * (c % 4) + c // 4


def base_to_os(b: int) -> int:
    return 4 * (b % 13) + b // 13


def base_to_trump(b: int, trump: int) -> int:
    if b == 13 * trump + L.JACK:
        return 13 * trump + L.RIGHT
    if b == 13 * (3 - trump) + L.JACK:
        return 13 * trump + L.LEFT
    return b


def trump_to_base(x: int, trump: int) -> int:
    r = x % 13
    if r == L.RIGHT:
        return 13 * trump + L.JACK
    if r == L.LEFT:
        return 13 * (3 - trump) + L.JACK
    return x


def mask(cards) -> np.uint64:
    m = 0
    for c in cards:
        m |= 1 << c
    return np.uint64(m)


# ---------------------------------------------------------------- what the seat has seen


@dataclass
class Observation:
    """The seat's information state.  ``visible`` is that state as ints (the decision's
    stream key): the dealer, the seat's own cards, the upcard, then every action with its
    actor (-1 for a card the seat did not see)."""

    seat: int
    visible: list = field(default_factory=list)
    dealer: int = -1
    upcard: int = -1  # OpenSpiel ids throughout
    dealt: list = field(default_factory=list)  # own five cards
    passes: int = 0
    maker: int = -1
    trump: int = -1
    discard: int = -1  # the dealer's own discard (others never see it)
    discarded: bool = False  # whether the dealer has discarded (public)
    alone: dict = field(default_factory=dict)  # seat -> went alone (True/False)
    plays: list = field(default_factory=list)  # (seat, card) in order


def observe(state, seat: int, table: Table) -> Observation:
    obs = Observation(seat)
    hist = state.full_history()
    for i, step in enumerate(hist):
        a = step.action
        if i == 0:
            obs.dealer = a
        elif i <= DEALT:
            if (obs.dealer + i - 1) % 4 == seat:
                obs.dealt.append(a)
        elif i == DEALT + 1:
            obs.upcard = a
            # the order the cards came is no information: the hand is a set
            obs.visible += [obs.dealer, *sorted(obs.dealt), a]
        else:
            _note(obs, step.player, a)
    return obs


def _note(obs: Observation, player: int, a: int):
    secret = False
    if obs.maker < 0 and a >= PASS:
        if a == PASS:
            obs.passes += 1
        else:
            obs.maker, obs.trump = player, a - CLUBS
    elif a in (ALONE, PARTNER):
        obs.alone[player] = a == ALONE
    elif obs.passes < 4 and not obs.discarded:  # round one: the dealer's discard comes first
        obs.discarded = True
        secret = player != obs.seat
        if not secret:
            obs.discard = a
    else:
        obs.plays.append((player, a))
    obs.visible += [player, -1 if secret else a]


# ---------------------------------------------------------------- decisions


@dataclass(frozen=True)
class Decisions:
    """One function per decision, each in simcore's own terms (base/trump-order ids, see
    ``simcore.games.euchre.policies``); ``view`` is the public view of ``layout.V_*``."""

    order_up: Callable  # (seat, dealer, hand, upcard, st) -> bool            hand/upcard base
    name_trump: Callable  # (seat, dealer, hand, banned, stuck, st) -> suit | -1   base
    discard: Callable  # (six, upcard, trump, view, st) -> card                trump order
    go_alone: Callable  # (seat, hand, view, st) -> bool  (maker's side)        trump order
    defend_alone: Callable  # (seat, hand, view, st) -> bool                    trump order
    play: Callable  # (seat, hand, legal, view, st) -> card                     trump order
    # a search policy's scratch is told what the seat remembers beyond the view (its own
    # discard as dealer) before each decision; ``see_all(state)`` only for the omniscient dd
    before: Callable | None = None  # (obs) -> None
    see_all: Callable | None = None  # (state) -> None


def _with_context(fn, n_args: int):
    """``fn`` called with ``n_args`` arguments, plus what a newer signature adds after them:
    ``ctx`` (the engine's search context, which built-in policies ignore) and, before it for
    pick-up and discard, the view."""
    extra = len(inspect.signature(fn.py_func).parameters) - n_args
    ctx = np.zeros(4, np.uint64)  # the context of kernels without search (the hands array)
    if extra == 0:
        return lambda *args, view=None: fn(*args)
    if extra == 1:
        return lambda *args, view=None: fn(*args, ctx)
    return lambda *args, view=None: fn(*args, view, ctx)


def builtin(play_id: int, decision_id: int) -> Decisions:
    ask_order = _with_context(order_up, 6)
    ask_name = _with_context(name_trump, 7)
    ask_discard = _with_context(discard, 5)
    ask_alone = _with_context(go_alone, 5)
    return Decisions(
        order_up=lambda seat, dealer, hand, up, st: ask_order(decision_id, seat, dealer, hand,
                                                              up, st),
        name_trump=lambda seat, dealer, hand, banned, stuck, st: ask_name(
            decision_id, seat, dealer, hand, banned, stuck, st),
        discard=lambda six, up, trump, view, st: ask_discard(decision_id, six, up, trump, st,
                                                             view=view),
        go_alone=lambda seat, hand, view, st: ask_alone(decision_id, seat, hand, view, st),
        defend_alone=lambda seat, hand, view, st: ask_alone(decision_id, seat, hand, view, st),
        play=lambda seat, hand, legal, view, st: builtin_play(play_id, seat, hand, legal, view,
                                                              st),
    )


def searching(policy_id: int) -> Decisions:
    """simcore's ``pimc:W`` / ``dd`` (``simcore.games.euchre.pimc``): every decision by the
    search, with a scratch (solver table, sampler) of this bot's own."""
    ctx = pimc.new_context(np.zeros(L.N_SEATS, np.uint64))
    memo, hands = ctx[9], ctx[11]

    def before(obs):  # the engine's memo: the dealer's own discard, trump order
        memo[0] = base_to_trump(os_to_base(obs.discard), obs.trump) if obs.discard >= 0 else -1

    def see_all(state):  # dd only: every seat's cards, in the engine's order at this point
        obs = [observe(state, s, None) for s in range(L.N_SEATS)]
        for s in range(L.N_SEATS):
            base = [os_to_base(c) for c in own_cards(obs[s])]
            trump = obs[s].trump
            hands[s] = mask(base if trump < 0 else (base_to_trump(b, trump) for b in base))

    p = np.int64(policy_id)
    return Decisions(
        order_up=lambda seat, dealer, hand, up, st: pimc.search_order_up(
            p, seat, dealer, hand, up, st, ctx),
        name_trump=lambda seat, dealer, hand, banned, stuck, st: pimc.search_name_trump(
            p, seat, dealer, hand, banned, stuck, st, ctx),
        discard=lambda six, up, trump, view, st: pimc.search_discard(p, six, up, trump, st,
                                                                     view, ctx),
        go_alone=lambda seat, hand, view, st: pimc.search_go_alone(p, seat, hand, view, st, ctx),
        defend_alone=lambda seat, hand, view, st: pimc.search_go_alone(p, seat, hand, view, st,
                                                                       ctx),
        play=lambda seat, hand, legal, view, st: pimc.search_card(p, seat, hand, legal, view,
                                                                  st, ctx),
        before=before, see_all=see_all if policy_id == pimc.DD else None)


def _builtin(name: str) -> Decisions:
    """A built-in play policy, bidding as ``auto`` bids for it (a random seat randomly)."""
    return builtin(PLAY_POLICIES[name], RANDOM if name == "random" else HEURISTIC)


# policy name -> factory(argument) -> Decisions: the built-ins, pimc (pimc:32; pimc:W) and dd
# (omniscient: reads every hand)
POLICIES = policy_table(pimc.PLAY_POLICIES, _builtin, searching)


def own_cards(obs: Observation) -> list:
    """OpenSpiel ids of the cards the seat holds now."""
    cards = list(obs.dealt)
    if obs.seat == obs.dealer and obs.maker >= 0 and obs.passes < 4:
        cards.append(obs.upcard)  # OpenSpiel's pick-up is compulsory
    played = {c for _, c in obs.plays}
    return [c for c in cards if c != obs.discard and c not in played]


def act(obs: Observation, legal, dec: Decisions, table: Table, stream_of) -> int:
    st = stream_of(obs.visible)
    if dec.before is not None:
        dec.before(obs)
    seat, dealer = obs.seat, obs.dealer
    hand = own_cards(obs)
    up = os_to_base(obs.upcard)
    if obs.maker < 0:
        base = mask(os_to_base(c) for c in hand)
        if obs.passes < 4:  # EU-7
            return CLUBS + up // 13 if dec.order_up(seat, dealer, base, up, st) else PASS
        stuck = PASS not in legal  # OpenSpiel's stick-the-dealer
        suit = dec.name_trump(seat, dealer, base, up // 13, stuck, st)
        return CLUBS + suit if suit >= 0 else PASS
    trump = obs.trump
    th = mask(base_to_trump(os_to_base(c), trump) for c in hand)
    if obs.passes < 4 and not obs.discarded:  # EU-8 (pick-up compulsory here)
        d = dec.discard(th, base_to_trump(up, trump), trump, public_view(obs), st)
        return base_to_os(trump_to_base(int(d), trump))
    view = public_view(obs)
    if legal[0] >= ALONE:  # EU-12, as OpenSpiel asks it: declarer, then defenders
        ask = dec.go_alone if (seat - obs.maker) % 2 == 0 else dec.defend_alone
        return ALONE if ask(seat, th, view, st) else PARTNER
    legal_t = mask(base_to_trump(os_to_base(c), trump) for c in legal)
    card = dec.play(seat, th, legal_t, view, st)
    return base_to_os(trump_to_base(int(card), trump))


def public_view(obs: Observation) -> np.ndarray:
    """simcore's public view (``layout.V_*``) of the hand so far."""
    trump = obs.trump
    view = np.zeros(L.VIEW_SIZE, np.int64)
    view[L.V_DEALER] = obs.dealer
    view[L.V_TRUMP] = trump
    view[L.V_MAKER] = obs.maker
    view[L.V_UPCARD] = base_to_trump(os_to_base(obs.upcard), trump)
    # as the engine's view has it: true once the dealer has discarded (its discard decision
    # sees False, the upcard still face up)
    view[L.V_PICKED_UP] = obs.passes < 4 and obs.discarded
    view[L.V_ALONE_MAKER] = view[L.V_ALONE_DEFENDER] = -1
    active = 15
    for s, alone in obs.alone.items():
        if alone:
            view[L.V_ALONE_MAKER if (s - obs.maker) % 2 == 0 else L.V_ALONE_DEFENDER] = s
            active &= ~(1 << (s ^ 2))
    view[L.V_ACTIVE] = active
    view[L.V_PLAYED_BY: L.V_PLAYED_BY + L.INTERNAL_IDS] = -1
    n_active = bin(active).count("1")
    trick = []
    for seat, c in obs.plays:
        t = base_to_trump(os_to_base(c), trump)
        if trick and t // 13 != trick[0][1] // 13:
            view[L.V_VOIDS + seat] |= 1 << (trick[0][1] // 13)
        trick.append((seat, t))
        view[L.V_PLAYED] |= 1 << t
        view[L.V_PLAYED_BY + t] = seat
        if len(trick) == n_active:
            view[L.V_TRICKS + trick_winner(trick, trump)] += 1
            view[L.V_TRICK] += 1
            trick = []
    view[L.V_NPLAYED] = len(trick)
    view[L.V_LEADER] = trick[0][0] if trick else obs.seat  # leading: the seat to act
    for i, (seat, t) in enumerate(trick):
        view[L.V_TRICK_CARDS + i] = t
        view[L.V_TRICK_SEATS + i] = seat
    return view


def trick_winner(trick, trump: int) -> int:
    """EU-15 on trump-order ids: the highest trump, else the highest card of the led suit."""
    led = trick[0][1] // 13
    def key(entry):
        c = entry[1]
        return (c // 13 == trump, c // 13 == led, c % 13)
    return max(trick, key=key)[0]
