"""OpenSpiel ``gin_rummy`` played by simcore's Gin Rummy policies (docs/interop.md, "Gin").

OpenSpiel plays one hand: player 0's ten cards, player 1's ten, the upcard; player 0 (the
non-dealer, so simcore's dealer is seat 1) may take the first upcard, then player 1, else
player 0 draws from the stock (GR-7).  A turn is a draw (upcard or stock), then a discard or
``Knock``; a knocker then discards, lays its melds one action at a time and passes; the
other player lays off cards one at a time, passes, lays its melds and passes.  When two
stock cards are left, the next player may only knock with the upcard (the "wall") or end the
hand void.  Card ``c`` is rank ``c % 13`` (A 2 ... K) of suit ``c // 13`` (spades, clubs,
diamonds, hearts); simcore's public id is ``13 * ((c // 13 + 3) % 4) + (c % 13 - 1) % 13``.

simcore's policies answer four questions (``layout.K_*``: upcard, draw, discard, knock); the
glue asks them at OpenSpiel's matching decisions and lays melds and lay-offs itself as
simcore's engine would (minimal deadwood; lay-offs by ``simcore.melds.lay_off``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from simcore.cards import popcount
from simcore.errors import SimcoreError
from simcore.interop.openspiel import policy_table
from simcore.melds import (
    GIN_PLANES,
    MAX_MELDS,
    from_sequence,
    gin_deadwood,
    lay_off,
    optimal_arrangements,
    to_sequence,
)
from simcore.games.gin_rummy import layout as L
from simcore.games.gin_rummy.pimc import PLAY_POLICIES, pimc_play
from simcore.games.gin_rummy.policies import builtin_play
from simcore.games.searching import PIMC
from simcore.games.gin_rummy.rules import Rules

NAME = "gin_rummy"
DRAW_UPCARD = 52
DRAW_STOCK = 53
PASS = 54
KNOCK = 55
MELD = 56  # meld actions 56 ... 240
DEALT = 21  # chance actions of the deal: 10 + 10 cards and the upcard
DEALER = 1  # OpenSpiel's player 0 acts first: simcore's non-dealer


@dataclass(frozen=True)
class Table:
    rules: Rules


def setup(params) -> Table:
    fixed = {"oklahoma": False, "num_ranks": 13, "num_suits": 4, "hand_size": 10}
    for key, value in fixed.items():
        if key in params and params[key] != value:
            raise SimcoreError(f"OpenSpiel gin_rummy with {key}={params[key]} is not playable "
                               f"by simcore (simcore plays {key}={value})")
    unknown = set(params) - set(fixed) - {"knock_card", "gin_bonus", "undercut_bonus"}
    if unknown:
        raise SimcoreError(f"OpenSpiel gin_rummy parameter(s) {', '.join(sorted(unknown))} "
                           "are not known to simcore's bots")
    # OpenSpiel lets a player discard the card it just took (simcore's policies never do).
    rules = Rules(knock_limit=int(params.get("knock_card", 10)),
                  gin_bonus=int(params.get("gin_bonus", 25)),
                  undercut_bonus=int(params.get("undercut_bonus", 25)),
                  may_discard_taken_card=True)
    return Table(rules)


def os_to_card(c: int) -> int:
    return 13 * ((c // 13 + 3) % 4) + (c % 13 - 1) % 13


def card_to_os(c: int) -> int:
    return 13 * ((c // 13 + 1) % 4) + (c % 13 + 1) % 13


def _mask(cards) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def _cards(m: int) -> list:
    return [c for c in range(52) if m >> c & 1]


# ---------------------------------------------------------------- what the seat has seen


@dataclass
class Observation:
    """The seat's information state (simcore public ids).  ``visible`` is the history as the
    seat saw it (the decision's stream key): its ten cards and the upcard, then every action
    with its actor, -1 for the opponent's stock cards."""

    seat: int
    visible: list = field(default_factory=list)
    hand: set = field(default_factory=set)
    upcard: int = -1  # the first upcard
    pile: list = field(default_factory=list)  # face-up discard pile, bottom first
    opp_picks: set = field(default_factory=set)
    opp_discards: set = field(default_factory=set)
    stock: int = 52 - DEALT
    turns: int = 0  # completed discards
    drawn: int = -2  # this turn's draw: -2 none yet, -1 from the stock, else the card taken
    knocker: int = -1
    hist: list = field(default_factory=list)  # the public history, layout.V_HIST's entries
    passes: int = 0  # upcards passed (GR-7)
    offered: int = 0  # 1 when this turn's draw was a choice of the top card
    knocker_melds: list = field(default_factory=list)  # simcore masks as laid
    layoffs: set = field(default_factory=set)
    layoffs_done: bool = False
    history: list = field(default_factory=list, repr=False)  # (player, action) as OpenSpiel has it
    meld_cards: Callable = None  # meld action -> simcore mask

    def before_knock(self) -> "Observation":
        """The observation when the seat chose to knock (the knocker's discard repeats the
        discard it chose then, with that decision's stream)."""
        k = max(i for i, (p, a) in enumerate(self.history) if p == self.seat and a == KNOCK)
        return observe_history(self.history[:k], self.seat, self.meld_cards)


def observe(state, seat: int, table: Table) -> Observation:
    return observe_history([(s.player, s.action) for s in state.full_history()], seat,
                           lambda a: _meld_cards(state, a))


def observe_history(hist, seat: int, meld_cards) -> Observation:
    obs = Observation(seat, history=hist, meld_cards=meld_cards)
    drawer = -1
    for i, (player, a) in enumerate(hist):
        if i < DEALT:
            if i == DEALT - 1:
                obs.upcard = os_to_card(a)
                obs.pile.append(obs.upcard)
                # the hand is a set: the order its cards came in is no information
                obs.visible += [*sorted(obs.hand), obs.upcard]
            elif i // 10 == seat:
                obs.hand.add(os_to_card(a))
        elif player < 0:  # a stock card, dealt to the player who drew
            obs.stock -= 1
            if drawer == seat:
                obs.hand.add(os_to_card(a))
            obs.visible += [-1, a if drawer == seat else -1]
        else:
            if a == DRAW_STOCK:
                drawer = player
            _note(obs, player, a, meld_cards)
            obs.visible += [player, a]
    return obs


def _take_top(obs: Observation, player: int):
    c = obs.pile.pop()
    if player == obs.seat:
        obs.hand.add(c)
    else:
        obs.opp_picks.add(c)
    return c


def _note(obs: Observation, player: int, a: int, meld_cards):
    mine = player == obs.seat
    if obs.knocker < 0:
        if a == DRAW_UPCARD:
            obs.offered = 1
            obs.drawn = _take_top(obs, player)
        elif a == DRAW_STOCK:
            obs.offered = int(bool(obs.pile) and not (obs.turns == 0 and obs.passes == 2))
            obs.drawn = -1
        elif a == PASS and obs.turns == 0 and obs.stock == 52 - DEALT:  # GR-7: the upcard
            obs.passes += 1
            obs.hist.append(L.hist_entry(player, 1, 0, -1))
        elif a == KNOCK:
            obs.knocker = player
            if obs.drawn == -2:  # at the wall: OpenSpiel adds the upcard to the hand
                _take_top(obs, player)
        elif a < 52:  # a discard
            c = os_to_card(a)
            obs.hist.append(L.hist_entry(player, obs.offered, int(obs.drawn >= 0), c))
            obs.pile.append(c)
            obs.turns += 1
            obs.drawn = -2
            if mine:
                obs.hand.discard(c)
            else:
                obs.opp_discards.add(c)
                obs.opp_picks.discard(c)
        return
    if a >= MELD:
        cards = meld_cards(a)
        if player == obs.knocker:
            obs.knocker_melds.append(cards)
        if mine:
            obs.hand -= set(_cards(cards))
    elif a < 52:  # the knocker's discard, or a lay-off
        if mine:
            obs.hand.discard(os_to_card(a))
        if player != obs.knocker:
            obs.layoffs.add(os_to_card(a))
    elif a == PASS and player != obs.knocker:
        obs.layoffs_done = True
    elif a == PASS and sum(popcount(np.uint64(m)) for m in obs.knocker_melds) == 10:
        obs.layoffs_done = True  # gin (GR-15): OpenSpiel goes straight to the other's melds


_MELD_CACHE: dict = {}


def _meld_cards(state, action: int) -> int:
    """simcore mask of a meld action's cards (from OpenSpiel's name of it)."""
    if action not in _MELD_CACHE:
        text = state.action_to_string(0, action).rsplit(" ", 1)[-1]  # "Player: 0 Action: AsAdAh"
        ranks, suits = "A23456789TJQK", "scdh"
        cards = [13 * suits.index(text[i + 1]) + ranks.index(text[i])
                 for i in range(0, len(text), 2)]
        _MELD_CACHE[action] = _mask(os_to_card(c) for c in cards)
    return _MELD_CACHE[action]


# ---------------------------------------------------------------- decisions


@dataclass(frozen=True)
class Decisions:
    """simcore's Gin play policy: ``play(kind, seat, hand, view, st) -> int`` (layout.K_*)."""

    play: Callable


def builtin(name: str) -> Decisions:
    pid = PLAY_POLICIES[name]
    return Decisions(play=lambda kind, seat, hand, view, st: builtin_play(pid, kind, seat, hand,
                                                                          view, st))


def searching(policy_id: int) -> Decisions:
    """``pimc`` or ``pimc:W`` (:mod:`simcore.games.gin_rummy.pimc`)."""
    worlds = policy_id - PIMC
    return Decisions(play=lambda kind, seat, hand, view, st: pimc_play(kind, seat, hand, view, st,
                                                                       worlds))


# policy name -> factory(argument) -> Decisions: the built-ins and pimc (pimc:W)
POLICIES = policy_table(PLAY_POLICIES, builtin, searching)


def seat_view(obs: Observation, table: Table, taken: int = -1) -> np.ndarray:
    view = np.zeros(L.VIEW_SIZE, np.int64)
    view[L.V_SEAT] = obs.seat
    view[L.V_DEALER] = DEALER
    view[L.V_TOP] = obs.pile[-1] if obs.pile else -1
    view[L.V_PILE] = np.int64(_mask(obs.pile))
    view[L.V_OPP_PICKS] = np.int64(_mask(obs.opp_picks))
    view[L.V_OPP_DISCARDS] = np.int64(_mask(obs.opp_discards))
    view[L.V_STOCK] = obs.stock
    view[L.V_TURN] = obs.turns
    view[L.V_KNOCK_LIMIT] = table.rules.knock_limit
    view[L.V_KNOCK_AT] = -1
    view[L.V_TAKEN] = taken
    view[L.V_TAKEN_LOCKED] = 0 if table.rules.may_discard_taken_card else 1
    view[L.V_UPCARD] = obs.upcard
    view[L.V_HIST_N] = len(obs.hist)
    n = min(len(obs.hist), L.MAX_HIST)
    view[L.V_HIST:L.V_HIST + n] = obs.hist[:n]
    return view


def discard_and_knock(obs: Observation, dec: Decisions, table: Table, st, taken: int):
    """GR-8/GR-9 as simcore's engine asks them: the discard, then (deadwood after it within
    the knock limit) whether to knock.  Returns (card, knock)."""
    hand = np.uint64(_mask(obs.hand))
    view = seat_view(obs, table, taken)
    card = int(dec.play(L.K_DISCARD, obs.seat, hand, view, st))
    dw = gin_deadwood(np.uint64(hand & ~np.uint64(1 << card)))
    if dw > table.rules.knock_limit:
        return card, False
    view[L.V_DEADWOOD] = dw
    view[L.V_DISCARD] = card
    return card, int(dec.play(L.K_KNOCK, obs.seat, np.uint64(hand & ~np.uint64(1 << card)),
                              view, st)) == 1


def _choose(obs: Observation, legal, dec: Decisions, table: Table, stream_of):
    st = stream_of(obs.visible)
    if legal == [DRAW_STOCK]:
        return DRAW_STOCK
    if legal == [DRAW_UPCARD, PASS]:  # GR-7
        view = seat_view(obs, table)
        k = dec.play(L.K_UPCARD, obs.seat, np.uint64(_mask(obs.hand)), view, st)
        return DRAW_UPCARD if k == 1 else PASS
    if legal == [DRAW_UPCARD, DRAW_STOCK]:  # GR-8
        view = seat_view(obs, table)
        k = dec.play(L.K_DRAW, obs.seat, np.uint64(_mask(obs.hand)), view, st)
        return DRAW_UPCARD if k == 1 else DRAW_STOCK
    if obs.knocker < 0 and len(obs.hand) == 11:  # discard (or knock with this discard)
        taken = obs.drawn if obs.drawn >= 0 else -1
        card, knock = discard_and_knock(obs, dec, table, st, taken)
        return KNOCK if knock and KNOCK in legal else card_to_os(card)
    if obs.knocker < 0:  # the wall: knock with the upcard, or end the hand
        if KNOCK not in legal:
            return PASS
        wall = _with_top(obs)
        _, knock = discard_and_knock(wall, dec, table, st, wall.drawn)
        return KNOCK if knock else PASS
    if obs.seat == obs.knocker:
        return _knocker_step(obs, legal, dec, table, stream_of)
    return _defender_step(obs, legal)


def _with_top(obs: Observation) -> Observation:
    """The observation with the top discard taken into the hand (the wall knock's hand)."""
    wall = Observation(obs.seat, obs.visible, set(obs.hand), obs.upcard, list(obs.pile),
                       set(obs.opp_picks), set(obs.opp_discards), obs.stock, obs.turns,
                       hist=list(obs.hist), history=obs.history, meld_cards=obs.meld_cards)
    wall.drawn = _take_top(wall, obs.seat)
    return wall


def _knocker_step(obs, legal, dec, table, stream_of):
    if len(obs.hand) == 11:  # the discard decided with the knock: ask that question again
        before = obs.before_knock()
        wall = before if len(before.hand) == 11 else _with_top(before)
        taken = wall.drawn if wall.drawn >= 0 else -1
        card, _ = discard_and_knock(wall, dec, table, stream_of(before.visible), taken)
        if card_to_os(card) in legal:
            return card_to_os(card)
        return min((a for a in legal if a < 52),  # a policy that knocks on another card
                   key=lambda a: gin_deadwood(np.uint64(_mask(obs.hand - {os_to_card(a)}))))
    return _lay_melds(obs, legal, obs.hand)


def _lay_melds(obs, legal, hand):
    """Lay a minimal-deadwood arrangement of ``hand``, one meld per action, then pass."""
    melds = arrangement(_mask(hand), obs)
    offered = {obs.meld_cards(a): a for a in legal if a >= MELD}
    for m in melds:
        for piece in _pieces(m):
            if piece in offered:
                return offered[piece]
    return PASS


def _pieces(m: int) -> list:
    """A meld as OpenSpiel's meld actions hold it: runs of at most five cards."""
    cards = _cards(m)
    if len(cards) <= 5 or len({c // 13 for c in cards}) > 1:
        return [m]
    seq = sorted(cards, key=lambda c: (c % 13 + 1) % 13)  # ace low
    first = seq[:3] if len(seq) in (6, 7, 8) and len(seq) - 3 <= 5 else seq[:5]
    rest = seq[len(first):]
    return [_mask(first)] + _pieces(_mask(rest))


def arrangement(hand: int, obs: Observation) -> list:
    """The melds (simcore masks) of a minimal-deadwood arrangement of ``hand`` (GR-4): among
    equals, the one fewest unseen cards could be laid off on (the knocker cannot see the
    other hand, so this stands in for simcore's GR-11 choice)."""
    out = np.zeros((64, MAX_MELDS), np.uint64)
    n, _ = optimal_arrangements(to_sequence(np.uint64(hand), True), GIN_PLANES, out)
    seen = _mask(obs.hand) | _mask(obs.pile) | _mask(obs.opp_picks)
    best, best_key = [], None
    for i in range(min(n, out.shape[0])):
        melds = [int(from_sequence(out[i, k], True)) for k in range(MAX_MELDS) if out[i, k]]
        key = (_layoff_spots(melds, seen), sorted(melds))
        if best_key is None or key < best_key:
            best, best_key = melds, key
    return best


def _layoff_spots(melds, seen: int) -> int:
    spots = 0
    for m in melds:
        cards = _cards(m)
        if len({c // 13 for c in cards}) == 1 and len(cards) >= 3 and len({c % 13 for c in cards}) > 1:
            pos = sorted((c % 13 + 1) % 13 for c in cards)
            suit = cards[0] // 13
            ends = [p for p in (pos[0] - 1, pos[-1] + 1) if 0 <= p <= 12]
            spots += sum(not seen >> (13 * suit + (p - 1) % 13) & 1 for p in ends)
        elif len(cards) == 3:
            rank = cards[0] % 13
            spots += sum(not seen >> (13 * s + rank) & 1 for s in range(4)
                         if not m >> (13 * s + rank) & 1)
    return spots


def _defender_step(obs, legal):
    if not obs.layoffs_done:  # GR-11: lay off what simcore's lay-off search lays off
        hand = _mask(obs.hand | obs.layoffs)
        melds = np.zeros(MAX_MELDS, np.uint64)
        laid = obs.knocker_melds[:MAX_MELDS]
        for k, m in enumerate(laid):
            melds[k] = to_sequence(np.uint64(m), True)
        _, off = lay_off(to_sequence(np.uint64(hand), True), melds, len(laid), GIN_PLANES)
        for c in sorted(_cards(int(from_sequence(off, True)))):
            if c in obs.hand and card_to_os(c) in legal:
                return card_to_os(c)
        return PASS
    return _lay_melds(obs, legal, obs.hand)


def act(obs: Observation, legal, dec: Decisions, table: Table, stream_of) -> int:
    return _choose(obs, list(legal), dec, table, stream_of)
