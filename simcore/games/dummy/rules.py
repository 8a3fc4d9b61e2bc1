"""Dummy rules options (docs/rules/dummy.md §3.13, 'Rules-config options')."""

from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from simcore.errors import SimcoreError
from simcore.games.base import RulesBase, option
from simcore.games.dummy import layout


@dataclass(frozen=True)
class Rules(RulesBase):
    game_name: ClassVar[str] = "dummy"

    players: int = option(4, choices=(2, 3, 4), help="DM-1: number of players (2, 3 or 4)")
    two_player_cut5: bool = option(
        False, help="DM-3: with 2 players, 5 cards are removed unseen from the bottom of the stock")
    layoff_limit: str = option(
        "2", help="DM-17: most cards one player (or the table) may lay off in a deal, or none")
    layoff_limit_scope: str = option("player", choices=("player", "table"),
                                     help="DM-17: the lay-off limit counts per player or per table")
    dark_knock_layoffs: bool = option(
        False, help="DM-15: a dark knock (not opened) may also lay off")
    qka_closed: bool = option(
        False, help="DM-16: a run holding the ace takes no lay-off at all (default: only no wrap)")
    knock_card_value: int = option(50, minimum=0, maximum=1000,
                                   help="DM-21: the face-down knock card's value")
    dark_knock_multiplier: int = option(2, minimum=1, maximum=10,
                                        help="DM-22/25: a dark knocker's T + knock card times this")
    unopened_multiplier: int = option(
        2, minimum=1, maximum=10, help="DM-25: an unopened seat's hand times this when someone knocks")
    ngo_penalty: int = option(50, minimum=0, maximum=1000, help="DM-27: the fool penalty")
    ngo_reverse: str = option("next_deal_only", choices=("next_deal_only", "toggle", "off"),
                              help="DM-27: how a fool changes the direction of play")
    target: int = option(500, minimum=1, maximum=100000, help="DM-28: the match ends at this total")
    first_dealer: str = option("random", choices=("random", "0", "1", "2", "3"),
                               help="DM-5: the match's first dealer, or random from the seed")
    starter_after_stockout: str = option(
        "next_seat", choices=("next_seat",),
        help="DM-29: after a stock-out the seat after the previous first player starts")
    may_discard_taken_card: bool = option(
        True, help="DM-13: a card taken from the pile may be discarded in the same turn")
    speto_knock_100: bool = option(False, help="DM-30: a speto knock card is worth 100")
    head_card_bonus: bool = option(False, help="DM-31: the head card on the table is worth 50 (speto 100)")
    head_feed_penalty: bool = option(False, help="DM-34: -50 for feeding the head card")
    layoff_discard_penalty: bool = option(False, help="DM-32: -50 for discarding a lay-off card")
    full_discard_penalty: bool = option(
        False, help="DM-33: -50 for discarding a card that melds with two pile cards")
    speto_feed_penalty: bool = option(False, help="DM-34: -50 for feeding a speto in the pile")
    speto_discard_penalty: bool = option(
        False, help="DM-34: -50 for discarding a speto next to its neighbourhood in the pile")

    def __post_init__(self):
        super().__post_init__()
        limit = str(self.layoff_limit).strip().lower()
        if limit != "none" and not (limit.isdigit() and 0 <= int(limit) <= 52):
            raise SimcoreError(
                f"rules option layoff_limit={self.layoff_limit!r} for dummy must be a whole number "
                "0..52 or none")
        object.__setattr__(self, "layoff_limit", limit)
        if self.first_dealer != "random" and int(self.first_dealer) >= self.players:
            raise SimcoreError(f"rules option first_dealer={self.first_dealer} for dummy must be "
                               f"a seat below players={self.players}")

    @property
    def hand_size(self) -> int:
        """DM-2: 11, 9 or 7 cards."""
        return {2: 11, 3: 9, 4: 7}[self.players]

    @property
    def layoff_cap(self) -> int:
        """DM-17 as a number (none = 52, more than any deal can lay off)."""
        return 52 if self.layoff_limit == "none" else int(self.layoff_limit)


def rules_vector(rules: Rules) -> np.ndarray:
    """The options as the int64 vector the kernels read (``layout.RULES_VECTOR``)."""
    return rules.vector(layout.RULES_VECTOR)
