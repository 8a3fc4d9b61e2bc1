"""Gin Rummy rules options (docs/rules/gin_rummy.md, 'Rules-config options')."""

from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from simcore.games.base import RulesBase, option
from simcore.games.gin_rummy import layout


@dataclass(frozen=True)
class Rules(RulesBase):
    game_name: ClassVar[str] = "gin-rummy"

    knock_limit: int = option(10, minimum=0, maximum=10,
                              help="GR-9: a player may knock with deadwood at most this")
    gin_bonus: int = option(25, minimum=0, maximum=1000, help="GR-15: bonus for gin")
    undercut_bonus: int = option(25, minimum=0, maximum=1000, help="GR-14: bonus for an undercut")
    target: int = option(100, minimum=1, maximum=10000, help="GR-16: a game ends at this score")
    game_bonus: int = option(100, minimum=0, maximum=10000, help="GR-17: the game winner's bonus")
    box_bonus: int = option(25, minimum=0, maximum=1000, help="GR-17: bonus per hand won")
    box_bonus_to: str = option("winner", choices=("winner", "both"),
                               help="GR-17: box bonus for the game winner only, or both players")
    shutout_doubles: bool = option(True, help="GR-18: a shutout doubles the winner's hand points")
    may_discard_taken_card: bool = option(
        False, help="GR-8: a card just taken from the discard pile may be discarded at once")
    void_at_stock: int = option(2, minimum=0, maximum=30,
                                help="GR-12: the hand is void when this many stock cards remain")
    next_dealer: str = option("alternate", choices=("alternate", "winner", "loser"),
                              help="GR-5: who deals the next hand (a void hand is re-dealt)")
    first_dealer: str = option("random", choices=("random", "0", "1"),
                               help="GR-5: the first dealer, or random from the game's seed")


def rules_vector(rules: Rules) -> np.ndarray:
    """The options as the int64 vector the kernels read (``layout.RULES_VECTOR``)."""
    return rules.vector(layout.RULES_VECTOR)
