"""``simcore.solve``: the exact open-hand value of a trick-game position, and of every legal card.

Open hands: every seat sees every card (and, in a game with hidden partnerships, knows the
teams) and plays perfectly for its side; the value is what the side gets then.  Real play,
where each seat sees only its own cards, can score more or less for either side.  The contract
is docs/solving.md; the search is :mod:`simcore.solver`; each game's ``Game.position_solver``
(:class:`~simcore.games.solving.PositionSolver`) reads its own keywords and runs its kernels.
"""

from __future__ import annotations

import numpy as np

from simcore import games
from simcore.cards import N_CARDS, format_card, parse_card, parse_hand
from simcore.errors import SimcoreError
from simcore.games.solving import Solution, seat

__all__ = ["Solution", "solve"]


def solve(game: str, hands, leader: int = 0, trick=(), rules=None, **state) -> Solution:
    """Solve a position open-handed; see docs/solving.md for the games' values and keywords."""
    record = _game(game)
    solver = record.position_solver
    masks = _hands(record, hands)
    played = _trick(record, trick)
    leader = seat(leader, record.n_seats, "leader")
    _check_overlap(masks, played)
    opts = _rules(record, rules)
    unknown = sorted(set(state) - set(solver.state))
    if unknown:
        raise SimcoreError(f"unknown state keyword {unknown[0]!r} for {record.name}; "
                           f"known: {', '.join(solver.state)}")
    return solver.solve(masks, leader, played, opts, state)


# ---------------------------------------------------------------- input


def _game(game):
    """The game's record; SimcoreError unless it has a position solver."""
    key = games.key(game)
    if key not in games.names() or games.get(key).position_solver is None:
        raise SimcoreError(f"no open-hand solver for game {game!r}; solvable: "
                           + ", ".join(games.names_with("position_solver")))
    return games.get(key)


def _card(c) -> int:
    if isinstance(c, str):
        return parse_card(c)
    if isinstance(c, (bool, np.bool_)) or not isinstance(c, (int, np.integer)):
        raise SimcoreError(f"card {c!r} is neither a card id 0..51 nor card text such as 'AS'")
    if not 0 <= int(c) < N_CARDS:
        raise SimcoreError(f"card id {int(c)} is outside 0..51")
    return int(c)


def _hands(game, hands) -> list[int]:
    n = game.n_seats
    if isinstance(hands, (str, bytes)) or not hasattr(hands, "__len__"):
        raise SimcoreError(f"hands must be a sequence of {n} hands (uint64 masks or card text)")
    if len(hands) != n:
        raise SimcoreError(f"{game.name} needs {n} hands, got {len(hands)}")
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
        _check_deck(game, m)
    return masks


def _trick(game, trick) -> list[int]:
    if isinstance(trick, str):
        cards = [parse_card(t) for t in trick.replace(",", " ").split()]
    else:
        cards = [_card(c) for c in trick]
    if len(set(cards)) != len(cards):
        raise SimcoreError("a card appears twice in the trick")
    _check_deck(game, sum(1 << c for c in cards))
    return cards


def _check_deck(game, mask):
    game.check_deck(c for c in range(N_CARDS) if mask >> c & 1)


def _check_overlap(masks, played):
    seen = 0
    for m in masks + [1 << c for c in played]:
        if seen & m:
            dup = next(c for c in range(N_CARDS) if (seen & m) >> c & 1)
            raise SimcoreError(f"card {format_card(dup)} is held twice (hands and trick must not overlap)")
        seen |= m


def _rules(game, rules):
    if rules is not None and not isinstance(rules, dict):
        raise SimcoreError("rules must be a dict of rules options, or None")
    return game.rules_cls.from_options(rules)
