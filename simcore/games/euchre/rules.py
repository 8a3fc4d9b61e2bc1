"""Euchre rules options (docs/rules/euchre.md, 'Rules-config options')."""

from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from simcore.games.base import RulesBase, option
from simcore.games.euchre import layout


@dataclass(frozen=True)
class Rules(RulesBase):
    game_name: ClassVar[str] = "euchre"

    allow_turned_down_suit: bool = option(
        False, help="EU-9: in round two the suit of the turned-down upcard may be named"
    )
    stick_the_dealer: bool = option(
        False, help="EU-10: the dealer must name a suit when round two comes round to them"
    )
    dealer_pickup_optional: bool = option(
        True, help="EU-8: when another player orders up, the dealer may leave the upcard"
    )
    target: int = option(10, minimum=1, help="EU-20: the first partnership to reach this wins")
    first_dealer: str = option(
        "random",
        choices=("random", "0", "1", "2", "3"),
        help="EU-5: first dealer seat, or random from the game's seed (hands mode: every hand)",
    )


def rules_vector(rules: Rules) -> np.ndarray:
    """The options as the int64 vector the kernels read (``layout.RULES_VECTOR``)."""
    return rules.vector(layout.RULES_VECTOR)
