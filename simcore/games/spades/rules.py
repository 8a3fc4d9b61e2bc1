"""Spades rules options (docs/rules/spades.md, 'Rules-config options')."""

from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from simcore.errors import SimcoreError
from simcore.games.base import RulesBase, option
from simcore.games.spades import layout


@dataclass(frozen=True)
class Rules(RulesBase):
    game_name: ClassVar[str] = "spades"

    target: int = option(500, minimum=1, help="SP-16: the first side to reach this score wins")
    bag_limit: int = option(10, minimum=1, help="SP-14: bags that cost a penalty")
    bag_penalty: int = option(100, minimum=0, help="SP-14: points lost each time bags reach the limit")
    nil_value: int = option(100, minimum=0, help="SP-5: points won (or lost) by a nil bid")
    blind_nil: bool = option(True, help="SP-6: blind nil may be bid")
    blind_nil_value: int = option(200, minimum=0, help="SP-6: points won (or lost) by a blind nil")
    blind_nil_min_deficit: int = option(
        0, minimum=0,
        help="SP-6: blind nil only when the side trails by at least this much (0 = always allowed)",
    )
    blind_nil_timing: str = option(
        "own_turn", choices=("own_turn", "before_bidding"),
        help="SP-6: blind nil is declared at the bidder's turn, or by anyone before any bid",
    )
    must_break_spades: bool = option(
        True,
        help="SP-7/SP-9: spades may not be led until broken (false: a house rule, spades may "
             "be led at any time)",
    )
    first_dealer: str = option(
        "random", choices=("random", "0", "1", "2", "3"),
        help="SP-3: first dealer seat, or random from the game's seed (hands mode: every hand)",
    )
    max_hands: int = option(
        1000, minimum=1,
        help="not in the source: a game still undecided after this many hands stops with no "
             "winner (winner = -1), so that sides that never reach the target end",
    )

    def __post_init__(self):
        super().__post_init__()
        if self.max_hands > 65535:
            raise SimcoreError("rules option max_hands must be at most 65535")


def rules_vector(rules: Rules) -> np.ndarray:
    """The options as the int64 vector the kernels read (``layout.RULES_VECTOR``)."""
    return rules.vector(layout.RULES_VECTOR)
