"""``simcore.solve``: the exact open-hand value of a trick-game position, and of every legal card.

Open hands: every seat sees every card (and, in Trump Friend, knows the teams), so the value is
an upper bound of what real play achieves.  The contract is docs/solving.md; the search is
:mod:`simcore.search`, each game's mapping its ``solver`` module.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from simcore.cards import N_CARDS, format_card, parse_card, parse_hand
from simcore.errors import SimcoreError

_GAMES = {"spades": 4, "euchre": 4, "trump-friend": 5}
_HAND_SIZE = {"spades": 13, "euchre": 5, "trump-friend": 10}
_STATE = {"spades": ("broken", "nil"), "euchre": ("trump", "alone"), "trump-friend": ("trump", "team")}
_tables: dict[str, tuple] = {}


@dataclass(frozen=True)
class Solution:
    """``value``: counted from this position to the end of the hand, current trick included;
    ``moves``: {public card id: value if the player to move plays it, best play afterwards}."""

    value: int
    moves: dict[int, int] = field(default_factory=dict)


def solve(game: str, hands, leader: int = 0, trick=(), rules=None, **state) -> Solution:
    """Solve a position open-handed; see docs/solving.md for the games' values and keywords."""
    name = _game_name(game)
    n = _GAMES[name]
    masks = _hands(name, hands, n)
    played = _trick(name, trick)
    leader = _seat(leader, n, "leader")
    _check_overlap(masks, played)
    opts = _rules(name, rules)
    unknown = sorted(set(state) - set(_STATE[name]))
    if unknown:
        raise SimcoreError(f"unknown state keyword {unknown[0]!r} for {name}; "
                           f"known: {', '.join(_STATE[name])}")
    return _SOLVERS[name](masks, leader, played, opts, state)


# ---------------------------------------------------------------- input


def _game_name(game) -> str:
    key = str(game).strip().lower().replace("_", "-")
    if key not in _GAMES:
        raise SimcoreError(f"no open-hand solver for game {game!r}; solvable: {', '.join(_GAMES)}")
    return key


def _card(c) -> int:
    if isinstance(c, str):
        return parse_card(c)
    if isinstance(c, (bool, np.bool_)) or not isinstance(c, (int, np.integer)):
        raise SimcoreError(f"card {c!r} is neither a card id 0..51 nor card text such as 'AS'")
    if not 0 <= int(c) < N_CARDS:
        raise SimcoreError(f"card id {int(c)} is outside 0..51")
    return int(c)


def _hands(name, hands, n) -> list[int]:
    if isinstance(hands, (str, bytes)) or not hasattr(hands, "__len__"):
        raise SimcoreError(f"hands must be a sequence of {n} hands (uint64 masks or card text)")
    if len(hands) != n:
        raise SimcoreError(f"{name} needs {n} hands, got {len(hands)}")
    masks = []
    for h in hands:
        if isinstance(h, str):
            m = parse_hand(h)
        elif isinstance(h, (int, np.integer)) and not isinstance(h, (bool, np.bool_)):
            m = int(h)
            if not 0 <= m < 1 << N_CARDS:
                raise SimcoreError(f"hand mask {m:#x} has bits outside the 52 cards")
        else:
            raise SimcoreError(f"hand {h!r} is neither a uint64 mask nor card text such as 'AS KS'")
        masks.append(m)
    for m in masks:
        _check_deck(name, m)
    return masks


def _trick(name, trick) -> list[int]:
    if isinstance(trick, str):
        cards = [parse_card(t) for t in trick.replace(",", " ").split()]
    else:
        cards = [_card(c) for c in trick]
    if len(set(cards)) != len(cards):
        raise SimcoreError("a card appears twice in the trick")
    _check_deck(name, sum(1 << c for c in cards))
    return cards


def _check_deck(name, mask):
    if name == "euchre":
        outside = [c for c in range(N_CARDS) if mask >> c & 1 and c % 13 < 7]
        if outside:
            raise SimcoreError(f"card {format_card(outside[0])} is not in the euchre deck (9 to A)")


def _seat(v, n, what) -> int:
    if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, np.integer)) or not 0 <= v < n:
        raise SimcoreError(f"{what} must be a seat 0..{n - 1}, got {v!r}")
    return int(v)


def _check_overlap(masks, played):
    seen = 0
    for m in masks + [1 << c for c in played]:
        if seen & m:
            dup = next(c for c in range(N_CARDS) if (seen & m) >> c & 1)
            raise SimcoreError(f"card {format_card(dup)} is held twice (hands and trick must not overlap)")
        seen |= m


def _rules(name, rules):
    from simcore.games import get

    if rules is not None and not isinstance(rules, dict):
        raise SimcoreError("rules must be a dict of rules options, or None")
    return get(name).rules_cls.from_options(rules)


def _check_sizes(name, masks, leader, played, active) -> int:
    """Every seat in play holds the same number of cards after the trick; returns the order of
    play from the leader."""
    n = len(masks)
    order = [s for s in ((leader + k) % n for k in range(n)) if active >> s & 1]
    if leader not in order:
        raise SimcoreError(f"leader {leader} sits out this hand")
    if len(played) >= len(order):
        raise SimcoreError(f"trick has {len(played)} cards but only {len(order)} seats play: "
                           "give a finished trick as resolved (trick shorter than the seats in play)")
    for s in range(n):
        if not active >> s & 1 and masks[s]:
            raise SimcoreError(f"seat {s} sits out but holds cards")
    sizes = [bin(masks[s]).count("1") for s in order]
    base = sizes[len(played)] if len(played) < len(order) else 0
    want = [base - 1 if i < len(played) else base for i in range(len(order))]
    if sizes != want or base < (1 if played else 0):
        raise SimcoreError(
            "impossible hand sizes: after the current trick every seat in play must hold the same "
            f"number of cards (in play order from the leader: {sizes}, trick of {len(played)})")
    if base > _HAND_SIZE[name]:
        raise SimcoreError(f"{name} hands hold at most {_HAND_SIZE[name]} cards, got {base}")
    return order


def _table(name, module):
    if name not in _tables:
        from simcore import solver as search

        _tables[name] = search.table_of(module.new_tables(1), 0)
    return _tables[name]


def _result(k, cards, values, mover_maximises) -> Solution:
    moves = {int(cards[i]): int(values[i]) for i in range(k)}
    if not moves:
        return Solution(0, {})
    best = max(moves.values()) if mover_maximises else min(moves.values())
    return Solution(best, moves)


def _bool(v, what) -> bool:
    if not isinstance(v, (bool, np.bool_)):
        raise SimcoreError(f"{what} must be true or false, got {v!r}")
    return bool(v)


# ---------------------------------------------------------------- the games


def _spades(masks, leader, played, rules, state) -> Solution:
    from simcore.games.spades import solver

    broken = _bool(state.get("broken", False), "broken")
    nil = state.get("nil", None)
    nil = -1 if nil is None else _seat(nil, 4, "nil")
    order = _check_sizes("spades", masks, leader, played, 0b1111)
    mover = order[len(played)]
    maxi = 0b0101 if nil < 0 else (1 << (nil + 1) % 4) | (1 << (nil + 3) % 4)
    must_break = bool(getattr(rules, "must_break_spades", True))
    cards, values = np.zeros(16, np.int64), np.zeros(16, np.int64)
    k = solver.solve_moves(np.array(masks, np.uint64), leader, _trick_array(played), len(played),
                           broken, must_break, nil, _table("spades", solver), cards, values)
    return _result(k, cards, values, maxi >> mover & 1)


def _euchre(masks, leader, played, rules, state) -> Solution:
    from simcore.games.euchre import solver

    if "trump" not in state:
        raise SimcoreError("euchre needs trump=SUIT (0-3)")
    trump = _suit(state["trump"], 3)
    alone = state.get("alone", -1)
    alone = -1 if alone is None or alone == -1 else _seat(alone, 4, "alone")
    active = 0b1111
    if alone >= 0:
        partner = (alone + 2) % 4
        if masks[partner]:
            raise SimcoreError(f"seat {alone} plays alone, so its partner {partner} must hold no cards")
        active &= ~(1 << partner)
    order = _check_sizes("euchre", masks, leader, played, active)
    mover = order[len(played)]
    cards, values = np.zeros(16, np.int64), np.zeros(16, np.int64)
    k = solver.solve_moves(np.array(masks, np.uint64), leader, _trick_array(played), len(played),
                           trump, alone, _table("euchre", solver), cards, values)
    return _result(k, cards, values, 0b0101 >> mover & 1)


def _trump_friend(masks, leader, played, rules, state) -> Solution:
    from simcore.games.trump_friend import solver

    for key in ("trump", "team"):
        if key not in state:
            raise SimcoreError(f"trump-friend needs {key}= (trump 0-4, 4 = no trump; team = seats)")
    trump = _suit(state["trump"], 4)
    team = state["team"]
    if isinstance(team, (str, bytes)) or not hasattr(team, "__iter__"):
        raise SimcoreError("team must be the seats of the declarer's side, e.g. (0, 3)")
    team_mask = 0
    for s in team:
        team_mask |= 1 << _seat(s, 5, "a team seat")
    if team_mask == 0:
        raise SimcoreError("team must name at least the declarer's seat")
    order = _check_sizes("trump-friend", masks, leader, played, 0b11111)
    mover = order[len(played)]
    cards, values = np.zeros(16, np.int64), np.zeros(16, np.int64)
    k = solver.solve_moves(np.array(masks, np.uint64), leader, _trick_array(played), len(played),
                           trump, team_mask, _table("trump-friend", solver), cards, values)
    return _result(k, cards, values, team_mask >> mover & 1)


def _suit(v, top) -> int:
    if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, np.integer)) or not 0 <= v <= top:
        raise SimcoreError(f"trump must be 0..{top}"
                           + (" (4 = no trump)" if top == 4 else "") + f", got {v!r}")
    return int(v)


def _trick_array(played):
    t = np.zeros(5, np.int64)
    t[:len(played)] = played
    return t


_SOLVERS = {"spades": _spades, "euchre": _euchre, "trump-friend": _trump_friend}
