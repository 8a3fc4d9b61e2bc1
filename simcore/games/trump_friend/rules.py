"""Trump Friend rules options (docs/rules/trump_friend.md, 'Rules-config options')."""

from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from simcore.games.base import RulesBase, option
from simcore.games.trump_friend import layout


@dataclass(frozen=True)
class Rules(RulesBase):
    game_name: ClassVar[str] = "trump-friend"

    losing_line: int = option(
        100, minimum=1, maximum=30000,
        help="TF-14: a game ends when a score reaches -L (at most 30000: scores are 16-bit)",
    )
    end_at: str = option(
        "reach", choices=("reach", "exceed"), help="TF-17: end at score <= -L (reach) or < -L (exceed)"
    )
    first_declarer: str = option(
        "0",
        choices=("0", "1", "2", "3", "4", "random"),
        help="TF-15: first declarer seat, or random from the game's seed (hands mode: every hand)",
    )
    allow_own_card: bool = option(
        True, help="TF-5.4: the declarer may name a card of their own hand as the friend card"
    )


def rules_vector(rules: Rules) -> np.ndarray:
    """The options as the int64 vector the kernels read (``layout.RULES_VECTOR``)."""
    return rules.vector(layout.RULES_VECTOR)
