"""Constrained dealing: predealt cards and conditions on hands, for every game.

Game-neutral (it sits in the cards/rng layer and imports no game).  A game describes how it
deals with a :class:`DealLayout`: its deck (in the game's own card ids and deal order), its
*slots* in deal order (the seats, then extras such as an upcard, a kitty or the stock), how it
shuffles, and the names of seats it resolves per deal (*roles*, e.g. ``dealer``).

**Predeal** fixes cards to slots (``0=AS,KS,3H``, ``upcard=9H``); a slot may be given fewer
cards than it holds, and the rest of the deck is shuffled and dealt around the fixed cards.

**Conditions** (``--condition "SEAT:FEATURE>=N"``, see docs/conditions.md) are parsed here
into two arrays the kernels read: ``conds[i] = (seat code, kind, op, value, ref slot)`` and
``weights[i, ref_suit, card]``.  Every feature is either the longest / shortest suit of the
hand or a *linear* feature: the sum of per-card weights over the hand (``hcp`` weighs A, K, Q, J
4, 3, 2, 1; ``suit:S`` weighs the suit's cards 1; ``has:AS,KS`` weighs those cards 1).  A
linear feature may depend on a *reference suit*, the suit of the first card of the game's
reference slot (Euchre's ``trumps`` and ``bowers`` refer to the upcard's suit): it has one
weight table per reference suit.  Games register their own features as weight tables, so the
kernels never need to know a game.

A seat code ``>= 0`` is a slot index; ``-1 - r`` is role ``r`` of the layout, which the engine
resolves per deal by filling ``roles[r]`` with a seat before it deals (Spades, Euchre and Gin
fill ``roles[0]`` with the dealer; a game whose role is known only later, such as a declarer,
can deal, resolve the role and then call :func:`conditions_hold` itself).

**Rejection sampling.**  The deal whose ordinary stream is ``stream_key(seed, a, b, 0)`` (deal
k of a hands run: a = k, b = 0; hand h of game g: a = g, b = h + 1) tries attempt 0 from that
very stream, and attempt j >= 1 from ``stream_key(seed, a, b, RETRY_C + j)`` (no engine uses a
``c`` coordinate above 1), keeping the first attempt whose deal meets every condition.  So a
conditional run is reproducible by seed whatever the threads or chunks, and a deal that meets
the conditions at attempt 0 is exactly the unconditioned deal.  After ``MAX_ATTEMPTS`` the
kernel gives up and the run fails with one clear line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Callable

import numba as nb
import numpy as np

from simcore.cards import (RANKS, SUIT_SYMBOLS, SUITS, format_card, lowest_bit, parse_cards,
                           popcount)
from simcore.errors import SimcoreError
from simcore.rng import GOLDEN, below, mix64, shuffle, stream_key

MAX_ATTEMPTS = 1_000_000
RETRY_C = np.uint64(1 << 32)  # stream c coordinate of attempt j >= 1 is RETRY_C + j

# shuffles: how the free cards are permuted (each game keeps its historical deal exactly)
SHUFFLE_PAIRED = 0  # simcore.rng.shuffle (two swaps per 64-bit draw)
SHUFFLE_SINGLE = 1  # one rng.below(i + 1) per swap, i = n-1 ... 1

# conds columns
C_SEAT = 0
C_KIND = 1
C_OP = 2
C_VALUE = 3
C_REF = 4  # slot whose first card's suit is the reference suit, -1 none
N_COND = 5

KIND_LINEAR = 0
KIND_LONGEST = 1
KIND_SHORTEST = 2

OPS = {">=": 0, "<=": 1, "==": 2, "=": 2, "!=": 3, ">": 4, "<": 5}
_OP_RE = re.compile(r"(>=|<=|==|!=|=|>|<)")
N_IDS = 64  # weight tables are indexed by the engine's card id (bit position)


# ---------------------------------------------------------------- kernels


@nb.njit(cache=True)
def deal_order(st, deck_ids, fixed, sizes, shuffle_kind, order):
    """Deal the deck into ``order``: slot s occupies ``order[off_s : off_s + sizes[s]]`` (slots
    back to back in deal order), its fixed cards (``fixed[s]``, a mask of engine ids) first in
    id order, then cards of the shuffled remainder in turn.

    With nothing fixed, ``order`` is exactly the game's ordinary shuffled deck.  ``st`` is
    advanced by the shuffle.  Returns the number of free (shuffled) cards.
    """
    all_fixed = np.uint64(0)
    for s in range(fixed.shape[0]):
        all_fixed |= fixed[s]
    n = deck_ids.shape[0]
    free = np.empty(n, np.int64)
    m = 0
    for i in range(n):
        c = deck_ids[i]
        if not (all_fixed >> np.uint64(c)) & np.uint64(1):
            free[m] = c
            m += 1
    if shuffle_kind == SHUFFLE_PAIRED:
        shuffle(st, free, m)
    else:
        for i in range(m - 1, 0, -1):
            j = below(st, i + 1)
            t = free[i]
            free[i] = free[j]
            free[j] = t
    pos = 0
    k = 0
    for s in range(sizes.shape[0]):
        f = fixed[s]
        end = pos + sizes[s]
        while f:
            c = lowest_bit(f)
            order[pos] = c
            pos += 1
            f &= f - np.uint64(1)
        while pos < end:
            order[pos] = free[k]
            k += 1
            pos += 1
    return m


@nb.njit(cache=True)
def slot_masks(order, sizes, masks):
    """The mask of each slot of a dealt ``order``."""
    pos = 0
    for s in range(sizes.shape[0]):
        h = np.uint64(0)
        for i in range(pos, pos + sizes[s]):
            h |= np.uint64(1) << np.uint64(order[i])
        masks[s] = h
        pos += sizes[s]


@nb.njit(cache=True)
def feature_value(kind, table, hand):
    """A feature of one hand: longest / shortest suit length, or the sum of ``table[card]``."""
    if kind == KIND_LONGEST or kind == KIND_SHORTEST:
        best = -1
        for s in range(4):
            n = popcount((np.uint64(hand) >> np.uint64(13 * s)) & np.uint64(0x1FFF))
            if best < 0 or (n > best if kind == KIND_LONGEST else n < best):
                best = n
        return best
    total = 0
    h = np.uint64(hand)
    while h:
        total += table[lowest_bit(h)]
        h &= h - np.uint64(1)
    return total


@nb.njit(cache=True)
def compare(value, op, bound):
    if op == 0:
        return value >= bound
    if op == 1:
        return value <= bound
    if op == 2:
        return value == bound
    if op == 3:
        return value != bound
    if op == 4:
        return value > bound
    return value < bound


@nb.njit(cache=True)
def conditions_hold(conds, weights, masks, roles):
    """True when every condition holds for the dealt slot ``masks``; ``roles[r]`` is the seat
    of role r (seat code -1 - r) in this deal."""
    for i in range(conds.shape[0]):
        code = conds[i, C_SEAT]
        slot = code if code >= 0 else roles[-1 - code]
        ref = conds[i, C_REF]
        suit = 0
        if ref >= 0 and masks[ref]:
            suit = lowest_bit(masks[ref]) // 13
        value = feature_value(conds[i, C_KIND], weights[i, suit], masks[slot])
        if not compare(value, conds[i, C_OP], conds[i, C_VALUE]):
            return False
    return True


@nb.njit(cache=True)
def is_constrained(fixed, conds):
    """Whether a filter fixes any card or sets any condition (else engines deal as usual)."""
    return conds.shape[0] > 0 or (fixed != 0).any()


@nb.njit(cache=True)
def attempt_key(seed, a, b, attempt):
    """The stream of attempt ``attempt`` of the deal whose ordinary stream is (seed, a, b, 0)."""
    if attempt == 0:
        return stream_key(seed, a, b, 0)
    return stream_key(seed, a, b, RETRY_C + np.uint64(attempt))


@nb.njit(cache=True)
def deal_constrained(seed, a, b, st, deck_ids, fixed, sizes, shuffle_kind, conds, weights,
                     roles, order, masks):
    """Rejection-sample the deal (seed, a, b): returns (attempts, key) of the first attempt
    that meets every condition, or (0, 0) after MAX_ATTEMPTS.

    On success ``order``/``masks`` hold that deal, ``st[0]`` the stream state just after it
    and ``key`` its stream's starting state (engines derive policy streams from it).
    """
    for attempt in range(MAX_ATTEMPTS):
        key = attempt_key(seed, a, b, attempt)
        st[0] = key
        deal_order(st, deck_ids, fixed, sizes, shuffle_kind, order)
        slot_masks(order, sizes, masks)
        if conditions_hold(conds, weights, masks, roles):
            return attempt + 1, key
    return 0, np.uint64(0)


@nb.njit(inline="always", cache=True)
def deal_runs(st, deck, hands, n_hands, size):
    """Shuffle the 52 cards (public ids) from ``st``; hand h gets the h-th run of ``size``.
    Returns the cards after the hands (a kitty), as a mask."""
    for i in range(52):
        deck[i] = i
    shuffle(st, deck, 52)
    return hands_from_runs(deck, hands, n_hands, size, 52)


@nb.njit(inline="always", cache=True)
def hands_from_runs(deck, hands, n_hands, size, n_cards):
    """Hand h (of ``n_hands``) gets the h-th run of ``size`` cards of ``deck``; returns the
    cards after the hands, up to ``n_cards``, as a mask."""
    one = np.uint64(1)  # (no inlined helper inside: see simcore.games.euchre.draws)
    for s in range(n_hands):
        h = np.uint64(0)
        for i in range(size * s, size * s + size):
            h |= one << np.uint64(deck[i])
        hands[s] = h
    rest = np.uint64(0)
    for i in range(size * n_hands, n_cards):
        rest |= one << np.uint64(deck[i])
    return rest


@nb.njit(cache=True)
def constrained_deal(seed, a, b, st, deck_ids, sizes, shuffle_kind, fixed, conds, weights,
                     roles, role, order, masks, hands):
    """An engine's deal (seed, a, b) under predeal/conditions: ``role`` is the seat the
    conditions call dealer or declarer; the first ``len(hands)`` slots' masks go to ``hands``.
    Returns the attempts (0 = gave up) and leaves ``st[0]`` at the accepted stream's start,
    from which the engine derives the policies' stream as for an ordinary deal."""
    roles[0] = role
    n, key = deal_constrained(seed, a, b, st, deck_ids, fixed, sizes, shuffle_kind, conds,
                              weights, roles, order, masks)
    for h in range(hands.shape[0]):
        hands[h] = masks[h]
    st[0] = key
    return n


@nb.njit(cache=True)
def first_seat(seed, a, first, n_seats):
    """The first dealer (or declarer) of deal or game ``a``: the rules' fixed seat ``first``,
    or (first < 0) the first ``below(n_seats)`` of its own stream (seed, a, 0, 1), so a fixed
    seat leaves every deal's cards as they are.  Scalars only: no stream array to pass."""
    if first >= 0:
        return first
    r = mix64(stream_key(seed, a, 0, 1) + GOLDEN) >> np.uint64(32)  # rng.below's first draw
    return np.int64((r * np.uint64(n_seats)) >> np.uint64(32))


@nb.njit(cache=True)
def deal_batch(seed, start, count, deck_ids, fixed, sizes, shuffle_kind, conds, weights, roles):
    """Deals ``start ..`` of a hands run as the engines deal them under constraints (tests,
    dealing checks): (slot masks (count, slots), attempts per deal; 0 = gave up)."""
    st = np.zeros(1, np.uint64)
    order = np.empty(deck_ids.shape[0], np.int64)
    masks = np.zeros((count, sizes.shape[0]), np.uint64)
    tries = np.zeros(count, np.int64)
    for i in range(count):
        n, _ = deal_constrained(seed, np.uint64(start + i), np.uint64(0), st, deck_ids, fixed,
                                sizes, shuffle_kind, conds, weights, roles, order, masks[i])
        tries[i] = n
        if n == 0:
            break
    return masks, tries


# ---------------------------------------------------------------- describing a game's deal


@dataclass(frozen=True)
class Feature:
    """A game-specific linear feature: ``table(arg)`` gives weights (4 reference suits x 52
    public cards); ``uses_ref``: the weights depend on the layout's reference suit."""

    help: str
    table: Callable[[str | None], np.ndarray]
    uses_ref: bool = False


@dataclass(frozen=True)
class DealLayout:
    """How a game deals, for predeal and conditions.

    ``slots``: (name, size) in deal order, seats first as ``"0" .. "n-1"``; the sizes add up
    to the deck.  ``deck_ids``: the game's card ids in the order its deal lists them before
    shuffling.  ``engine_id[c]``: the engine id of public card c (-1 if not in the deck).
    ``predeal_slots``: slot names ``--predeal`` may fill.  ``roles``: seat names resolved per
    deal (seat code -1 - r).  ``ref_slot``: the slot giving the reference suit.
    """

    game: str
    n_seats: int
    slots: tuple[tuple[str, int], ...]
    deck_ids: np.ndarray
    engine_id: np.ndarray
    shuffle: int
    predeal_slots: tuple[str, ...]
    roles: tuple[str, ...] = ()
    ref_slot: str | None = None
    features: dict[str, Feature] = field(default_factory=dict)

    @property
    def sizes(self) -> np.ndarray:
        return np.array([size for _, size in self.slots], np.int64)

    def slot_index(self, name: str) -> int:
        return [n for n, _ in self.slots].index(name)

    def describe_features(self) -> list[str]:
        lines = [f"{name}: {text}" for name, text in GENERIC_FEATURES.items()]
        lines += [f"{name}: {f.help}" for name, f in self.features.items()]
        return lines


GENERIC_FEATURES = {
    "longest": "length of the longest suit",
    "shortest": "length of the shortest suit",
    "suit:S": "number of cards of suit S (C, D, H, S or a symbol)",
    "hcp": "high-card points: A 4, K 3, Q 2, J 1",
    "has:CARDS": "how many of these cards (e.g. has:AS,KS)",
}


def suit_table(suit: int) -> np.ndarray:
    table = np.zeros((4, 52), np.int64)
    table[:, 13 * suit:13 * suit + 13] = 1
    return table


def parse_suit(text: str) -> int:
    t = text.strip().upper()
    if len(t) == 1 and t in SUITS:
        return SUITS.index(t)
    if len(t) == 1 and t in SUIT_SYMBOLS:
        return SUIT_SYMBOLS.index(t)
    raise SimcoreError(f"unknown suit {text!r}: use C, D, H or S")


# ---------------------------------------------------------------- predeal + conditions


@dataclass(frozen=True)
class DealFilter:
    """A run's predeal and conditions as the kernels read them, with their canonical text
    (which goes into the run identity)."""

    fixed: np.ndarray  # uint64 per slot, engine ids
    conds: np.ndarray  # int64 (n, N_COND)
    weights: np.ndarray  # int64 (n, 4, N_IDS)
    predeal: dict[str, str] | None
    conditions: list[str] | None

    @property
    def has_conditions(self) -> bool:
        return self.conds.shape[0] > 0


def no_filter(layout: DealLayout) -> DealFilter:
    return DealFilter(np.zeros(len(layout.slots), np.uint64), np.zeros((0, N_COND), np.int64),
                      np.zeros((0, 4, N_IDS), np.int64), None, None)


def compile_filter(layout: DealLayout, predeal=None, conditions=None) -> DealFilter:
    """Parse ``predeal`` (``["0=AS,KS", "upcard=9H"]`` or ``{0: "AS KS", "upcard": "9H"}``)
    and ``conditions`` (``["0:longest>=5", "dealer:hcp>=12"]``) for one game.  Raises
    SimcoreError with one clear line on anything wrong."""
    fixed, predeal_text = _parse_predeal(layout, predeal)
    texts = [conditions] if isinstance(conditions, str) else list(conditions or [])
    rows, tables = [], []
    for text in texts:
        row, table = parse_condition(layout, str(text))
        rows.append(row)
        tables.append(table)
    conds = np.array(rows, np.int64).reshape(-1, N_COND)
    weights = np.array(tables, np.int64).reshape(-1, 4, N_IDS)
    canon = [" ".join(str(t).split()) for t in texts] or None
    return DealFilter(fixed, conds, weights, predeal_text, canon)


def _predeal_items(predeal):
    if predeal is None:
        return []
    if isinstance(predeal, dict):
        return [(str(k).strip(), v) for k, v in predeal.items()]
    if isinstance(predeal, str):
        predeal = [predeal]
    items = []
    for spec in predeal:
        key, sep, value = str(spec).partition("=")
        if not sep or not key.strip() or not value.strip():
            raise SimcoreError(f"--predeal {spec!r} must look like SEAT=CARDS, e.g. 0=AS,KS,3H")
        items.append((key.strip(), value.strip()))
    return items


def _parse_predeal(layout: DealLayout, predeal):
    fixed = np.zeros(len(layout.slots), np.uint64)
    names = [n for n, _ in layout.slots]
    taken: dict[int, str] = {}
    per_slot: dict[str, list[int]] = {}
    for key, value in _predeal_items(predeal):
        if key not in layout.predeal_slots:
            raise SimcoreError(f"--predeal: {key!r} is not a slot of {layout.game}; use one of "
                               + ", ".join(layout.predeal_slots))
        if key in per_slot:
            raise SimcoreError(f"--predeal: slot {key!r} is given twice")
        if isinstance(value, str):
            cards = parse_cards(value)
        elif isinstance(value, (int, np.integer)):
            cards = [int(value)] if dict(layout.slots)[key] == 1 else [
                c for c in range(52) if int(value) >> c & 1]
        else:
            cards = [int(c) for c in value]
        if not cards:
            raise SimcoreError(f"--predeal {key}: no cards given")
        size = dict(layout.slots)[key]
        if len(cards) > size:
            raise SimcoreError(f"--predeal {key}: {len(cards)} cards given, the slot holds {size}")
        for c in cards:
            if not 0 <= c < 52 or layout.engine_id[c] < 0:
                raise SimcoreError(f"--predeal {key}: {format_card(c) if 0 <= c < 52 else c} "
                                   f"is not in the {layout.game} deck")
            if c in taken:
                raise SimcoreError(f"--predeal: {format_card(c)} is given to both {taken[c]} and {key}")
            taken[c] = key
        per_slot[key] = sorted(cards)
        slot = names.index(key)
        for c in cards:
            fixed[slot] |= np.uint64(1) << np.uint64(layout.engine_id[c])
    text = {k: " ".join(format_card(c) for c in per_slot[k]) for k in names if k in per_slot}
    return fixed, text or None


def parse_condition(layout: DealLayout, text: str):
    """``SEAT:FEATURE OP N`` -> (conds row, weights (4, N_IDS))."""
    bad = (f"malformed condition {text!r}: expected SEAT:FEATURE OP N, e.g. 0:longest>=5 "
           "(see `simcore describe GAME`)")
    seat_text, sep, rest = text.strip().partition(":")
    if not sep:
        raise SimcoreError(bad)
    ops = list(_OP_RE.finditer(rest))
    if not ops:
        raise SimcoreError(bad)
    op = ops[0]
    feature_text = rest[:op.start()].strip()
    number = rest[op.end():].strip()
    if not feature_text or not re.fullmatch(r"-?\d+", number):
        raise SimcoreError(bad)
    seat = _seat_code(layout, seat_text.strip())
    name, _, arg = feature_text.partition(":")
    name = name.strip().lower()
    arg = arg.strip() or None
    kind, table, uses_ref = _feature(layout, name, arg, text)
    ref = layout.slot_index(layout.ref_slot) if uses_ref and layout.ref_slot else -1
    weights = np.zeros((4, N_IDS), np.int64)
    for c in range(52):
        e = layout.engine_id[c]
        if e >= 0:
            weights[:, e] = table[:, c]
    row = [seat, kind, OPS[op.group(1)], int(number), ref]
    return row, weights


def _seat_code(layout: DealLayout, text: str) -> int:
    names = [n for n, _ in layout.slots]
    if text in names:
        return names.index(text)
    low = text.lower()
    if low in layout.roles:
        return -1 - layout.roles.index(low)
    known = names[:layout.n_seats] + [n for n in names[layout.n_seats:]] + list(layout.roles)
    raise SimcoreError(f"unknown seat {text!r} in a {layout.game} condition; use one of "
                       + ", ".join(known))


def _feature(layout: DealLayout, name: str, arg: str | None, text: str):
    zero = np.zeros((4, 52), np.int64)
    if name in ("longest", "shortest") and arg is None:
        return (KIND_LONGEST if name == "longest" else KIND_SHORTEST), zero, False
    if name == "suit" and arg is not None:
        return KIND_LINEAR, suit_table(parse_suit(arg)), False
    if name == "hcp" and arg is None:
        table = zero.copy()
        for s in range(4):
            for rank, points in (("A", 4), ("K", 3), ("Q", 2), ("J", 1)):
                table[:, 13 * s + RANKS.index(rank)] = points
        return KIND_LINEAR, table, False
    if name == "has" and arg is not None:
        table = zero.copy()
        for c in parse_cards(arg):
            table[:, c] = 1
        return KIND_LINEAR, table, False
    if name in layout.features:
        feature = layout.features[name]
        table = np.asarray(feature.table(arg), np.int64)
        if table.shape != (4, 52):
            raise SimcoreError(f"condition {text!r}: feature {name!r} gave a malformed table")
        return KIND_LINEAR, table, feature.uses_ref
    known = ["longest", "shortest", "suit:S", "hcp", "has:CARDS", *layout.features]
    raise SimcoreError(f"unknown feature {name + (':' + arg if arg else '')!r} in condition "
                       f"{text!r}; known for {layout.game}: " + ", ".join(known))


def check_capped(capped: np.ndarray) -> None:
    """Raise the one-line error for a deal no attempt satisfied (``capped[0]`` = deal id + 1)."""
    if capped[0]:
        raise SimcoreError(
            f"no deal met the conditions in {MAX_ATTEMPTS:,} attempts (deal id {int(capped[0]) - 1}): "
            "they may be impossible together with the predeal")


def filter_arrays(layout: DealLayout, deal_filter: DealFilter | None):
    """(fixed, conds, weights) for a kernel: ``deal_filter``'s or the empty ones."""
    f = deal_filter if deal_filter is not None else no_filter(layout)
    return f.fixed, f.conds, f.weights
