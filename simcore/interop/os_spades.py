"""OpenSpiel ``spades`` played by simcore's Spades policies (docs/interop.md, "Spades").

OpenSpiel plays one hand: 52 cards dealt one at a time (card i to seat i % 4), one bid per
seat from seat 0 (so seat 3 is simcore's dealer), nil but no blind nil, a partnership's two
bids at most 13 together, and 13 tricks led by seat 0.  Its leader may lead a spade only
when holding nothing else, for the whole hand (spades never count as broken there).  Card
ids are simcore's public ids (13 * suit + rank, clubs ... spades, 2 ... A); bid b is action
52 + b.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from simcore.errors import SimcoreError
from simcore.interop.openspiel import policy_table
from simcore.rng import below
from simcore.games.spades import layout as L
from simcore.games.spades.policies import BID_POLICIES, NIL_POLICIES, PLAY_POLICIES
from simcore.games.spades.policies import builtin_play, choose_bid
from simcore.games.spades import pimc
from simcore.games.spades.rules import Rules, rules_vector

NAME = "spades"
BID = 52  # bid b is action BID + b
DEALER = 3  # OpenSpiel's seat 0 bids and leads first


@dataclass(frozen=True)
class Table:
    rules: Rules


def setup(params) -> Table:
    known = {"use_mercy_rule", "mercy_threshold", "win_threshold", "win_or_loss_bonus",
             "num_tricks"}
    unknown = set(params) - known
    if unknown:
        raise SimcoreError(f"OpenSpiel spades parameter(s) {', '.join(sorted(unknown))} "
                           "are not known to simcore's bots")
    # The other parameters change only OpenSpiel's returns and observation tensor; the
    # policies see the target (one hand, both sides at 0) and nothing else of them.
    rules = Rules(target=int(params.get("win_threshold", 500)), blind_nil=False,
                  must_break_spades=True)
    return Table(rules)


@dataclass
class Observation:
    seat: int
    visible: list = field(default_factory=list)  # the information state as ints (own cards, actions)
    dealt: list = field(default_factory=list)
    bids: list = field(default_factory=list)  # in seat order 0, 1, 2, 3
    plays: list = field(default_factory=list)  # (seat, card)


def observe(state, seat: int, table: Table) -> Observation:
    obs = Observation(seat)
    for i, step in enumerate(state.full_history()):
        a = step.action
        if i < 52:
            if i % 4 == seat:
                obs.dealt.append(a)
            if i == 51:
                obs.visible += sorted(obs.dealt)  # the hand is a set: order is no information
            continue
        if a >= BID:
            obs.bids.append(a - BID)
        else:
            obs.plays.append((step.player, a))
        obs.visible += [step.player, a]
    return obs


@dataclass(frozen=True)
class Decisions:
    bid: Callable  # (seat, hand, view, legal_bids, st) -> 0 (nil) ... 13
    play: Callable  # (seat, hand, legal, view, st) -> card
    # a search policy's scratch is told the facts beyond the view (who held only spades)
    # before each decision; ``see_all(state)`` only for the omniscient dd
    before: Callable | None = None  # (obs) -> None
    see_all: Callable | None = None  # (state) -> None


def _random_bid(seat, hand, view, legal_bids, st):
    """Uniform over OpenSpiel's legal bids (nil, 1 ... the partnership's cap)."""
    return legal_bids[below(st, len(legal_bids))]


def builtin(name: str) -> Decisions:
    play_id = PLAY_POLICIES[name]
    if name == "random":
        bid = _random_bid
    else:
        def bid(seat, hand, view, legal_bids, st):
            return choose_bid(BID_POLICIES[name], NIL_POLICIES["auto"], seat, hand, view, st)
    return Decisions(bid=bid, play=lambda seat, hand, legal, view, st: builtin_play(
        play_id, seat, hand, legal, view, st))


def searching(policy_id: int, rules: Rules) -> Decisions:
    """simcore's ``pimc:W`` / ``dd`` (``simcore.games.spades.pimc``): bids (nil included) and
    cards by the search, with a scratch (solver table, sampler) of this bot's own."""
    ctx = pimc.new_context(np.zeros(4, np.uint64), np.zeros(4, np.uint64), rules_vector(rules))
    spade_only, hands = ctx[pimc.C_SPADE_ONLY], ctx[pimc.C_HANDS]

    def before(obs):
        spade_only[:] = spade_leaders(obs)

    def see_all(state):  # dd only: every player's cards now
        for s in range(4):
            o = observe(state, s, None)
            played = {c for _, c in o.plays}
            hands[s] = _mask(c for c in o.dealt if c not in played)

    p = np.int64(policy_id)
    auto = np.int64(NIL_POLICIES["auto"])
    return Decisions(
        bid=lambda seat, hand, view, legal_bids, st: pimc.search_bid(p, auto, seat, hand, view,
                                                                     st, ctx),
        play=lambda seat, hand, legal, view, st: pimc.search_card(p, seat, hand, legal, view,
                                                                  st, ctx),
        before=before, see_all=see_all if policy_id == pimc.DD else None)


def spade_leaders(obs: Observation) -> list:
    """1 for each player who has led a spade: in OpenSpiel a spade may be led only by a
    player holding nothing else (the sampler's fact that it holds only spades).  simcore's
    engine infers it only for a spade led before spades broke (SP-7)."""
    flags = [0] * 4
    for k, (seat, c) in enumerate(obs.plays):
        if k % 4 == 0 and c // 13 == L.SPADES:
            flags[seat] = 1
    return flags


# policy name -> factory(argument) -> Decisions: the built-ins; with the search policies
# (pimc = pimc:20, pimc:W; dd, omniscient: every hand): policies(table)
POLICIES = policy_table(pimc.PLAY_POLICIES, builtin)


def policies(table: Table) -> dict:
    """Every policy for these settings: the search policies score hands by its rules."""
    return policy_table(pimc.PLAY_POLICIES, builtin, lambda pid: searching(pid, table.rules))


def _mask(cards) -> np.uint64:
    m = 0
    for c in cards:
        m |= 1 << c
    return np.uint64(m)


def act(obs: Observation, legal, dec: Decisions, table: Table, stream_of) -> int:
    st = stream_of(obs.visible)
    if dec.before is not None:
        dec.before(obs)
    played = {c for _, c in obs.plays}
    hand = _mask(c for c in obs.dealt if c not in played)
    view = public_view(obs, table)
    if len(obs.bids) < 4:  # SP-4, SP-5 (no blind nil in OpenSpiel)
        legal_bids = [a - BID for a in legal]
        b = int(dec.bid(obs.seat, hand, view, legal_bids, st))
        if b not in legal_bids:  # OpenSpiel caps a partnership at 13 tricks together
            b = max(x for x in legal_bids if x <= b) if b > 0 else legal_bids[0]
        return BID + b
    card = dec.play(obs.seat, hand, _mask(legal), view, st)
    return int(card)


def public_view(obs: Observation, table: Table) -> np.ndarray:
    view = np.zeros(L.VIEW_SIZE, np.int64)
    view[L.V_DEALER] = DEALER
    view[L.V_TARGET] = table.rules.target
    for s in range(4):
        view[L.V_BIDS + s] = obs.bids[s] if s < len(obs.bids) else -1
    view[L.V_PLAYED_BY: L.V_PLAYED_BY + 52] = -1
    trick = []
    for seat, c in obs.plays:
        if trick and c // 13 != trick[0][1] // 13:
            view[L.V_VOIDS + seat] |= 1 << (trick[0][1] // 13)
            if c // 13 == L.SPADES:
                view[L.V_BROKEN] = 1  # SP-9 (OpenSpiel itself never marks it)
        elif not trick and c // 13 == L.SPADES:
            view[L.V_BROKEN] = 1
        trick.append((seat, c))
        view[L.V_PLAYED] |= 1 << c
        view[L.V_PLAYED_BY + c] = seat
        if len(trick) == 4:
            view[L.V_TRICKS + _winner(trick)] += 1
            view[L.V_TRICK] += 1
            trick = []
    view[L.V_NPLAYED] = len(trick)
    view[L.V_LEADER] = trick[0][0] if trick else obs.seat
    for i, (_, c) in enumerate(trick):
        view[L.V_TRICK_CARDS + i] = c
    return view


def _winner(trick) -> int:
    """SP-10: the highest spade, else the highest card of the led suit."""
    led = trick[0][1] // 13
    return max(trick, key=lambda e: (e[1] // 13 == L.SPADES, e[1] // 13 == led, e[1] % 13))[0]
