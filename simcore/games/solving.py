"""What the games' position solvers share (``simcore.solve``): the answer, the record a game
declares, and the checks of a position's keywords and hand sizes.

A trick game with an open-hand solver gives its :class:`~simcore.games.base.Game` a
:class:`PositionSolver`; ``simcore.solve`` parses the hands, the trick, the leader and the
rules, then hands them to the game's ``solve``, which reads its own state keywords (trump,
nil, ...) and calls its kernels (docs/solving.md).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from simcore import solver as search
from simcore.errors import SimcoreError


@dataclass(frozen=True)
class Solution:
    """``value``: counted from this position to the end of the hand, current trick included;
    ``moves``: {public card id: value if the player to move plays it, best play afterwards}."""

    value: int
    moves: dict[int, int] = field(default_factory=dict)


@dataclass(frozen=True)
class PositionSolver:
    """How ``simcore.solve`` solves one position of a game.

    ``solve(hands, leader, trick, rules, state) -> Solution``: ``hands`` one public mask per
    seat, ``trick`` the public ids played to the current trick, ``rules`` the game's rules
    object, ``state`` the keywords of ``simcore.solve`` beyond those (each one of ``state``).
    The hands and trick are already checked against each other and the game's deck.
    """

    hand_size: int               # cards a seat holds at the start of a hand
    state: tuple[str, ...]       # the keywords ``solve`` reads, e.g. ("trump", "alone")
    solve: Callable


def check_sizes(game: str, hand_size: int, masks, leader: int, played, active: int) -> list[int]:
    """Every seat in play (bit s of ``active``) holds the same number of cards after the
    trick; returns the order of play from the leader."""
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
    if base > hand_size:
        raise SimcoreError(f"{game} hands hold at most {hand_size} cards, got {base}")
    return order


def seat(v, n: int, what: str) -> int:
    """``v`` as a seat 0..n-1; SimcoreError naming ``what`` otherwise."""
    if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, np.integer)) or not 0 <= v < n:
        raise SimcoreError(f"{what} must be a seat 0..{n - 1}, got {v!r}")
    return int(v)


def flag(v, what: str) -> bool:
    if not isinstance(v, (bool, np.bool_)):
        raise SimcoreError(f"{what} must be true or false, got {v!r}")
    return bool(v)


def trump_suit(v, top: int) -> int:
    """A trump keyword: a suit 0-3, or up to ``top`` (4 = no trump where a game has it)."""
    if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, np.integer)) or not 0 <= v <= top:
        raise SimcoreError(f"trump must be 0..{top}"
                           + (" (4 = no trump)" if top == 4 else "") + f", got {v!r}")
    return int(v)


def trick_array(played) -> np.ndarray:
    """The current trick as the solvers' ``trick`` argument (five slots)."""
    t = np.zeros(5, np.int64)
    t[:len(played)] = played
    return t


def move_buffers() -> tuple[np.ndarray, np.ndarray]:
    """The (cards, values) arrays a solver's ``solve_moves`` fills."""
    return np.zeros(16, np.int64), np.zeros(16, np.int64)


_tables: dict[Callable, object] = {}


def table(new_tables: Callable):
    """One solver table per solver (``new_tables`` is its allocator), made on first use and
    kept for the process: a position's search reuses what earlier ones stored."""
    if new_tables not in _tables:
        _tables[new_tables] = search.table_of(new_tables(1), 0)
    return _tables[new_tables]


def moves_solution(k: int, cards, values, mover_maximises) -> Solution:
    """The :class:`Solution` of the ``k`` moves a solver wrote: the best value for the side
    to move (the maximising side's highest, the other's lowest)."""
    moves = {int(cards[i]): int(values[i]) for i in range(k)}
    if not moves:
        return Solution(0, {})
    best = max(moves.values()) if mover_maximises else min(moves.values())
    return Solution(best, moves)
