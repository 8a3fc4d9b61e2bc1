"""What the games' ``simcore show`` layouts share: card text, the :class:`Layout` a game fills
for one deal, and the :class:`DealView` record a game declares.

Each game's ``show.py`` turns one row of its runs into a :class:`Layout` in the game's own
words (who dealt, the calls, the result); ``simcore.show`` gathers the rest (the run, the
trick log, the open-hand table) and renders it within 80 columns (docs/show.md).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from simcore.cards import SUIT_SYMBOLS, SUITS, cards_of_hand

DISPLAY_SUITS = (3, 2, 1, 0)  # players sort a hand ♠ ♥ ♦ ♣
RANK_WORDS = tuple("23456789") + ("10", "J", "Q", "K", "A")
ACE_HIGH = tuple(range(12, -1, -1))   # A K Q ... 2, rank indices highest first


@dataclass(frozen=True)
class CardText:
    """Card text with suit symbols (``A♠``, ``10♥``) or plain letters (``AS``, ``10H``);
    hands list each suit in ``order`` (rank indices, highest first in the game's own order)."""

    symbols: bool = True
    order: tuple[int, ...] = ACE_HIGH

    def suit(self, s: int) -> str:
        return (SUIT_SYMBOLS if self.symbols else SUITS)[s]

    def card(self, c: int) -> str:
        return RANK_WORDS[c % 13] + self.suit(c // 13)

    def hand(self, mask: int) -> str:
        """``♠ A K 10  ♥ 9 4  ♦ -  ♣ A 2``: every suit, highest first, '-' for a void."""
        groups = []
        for s in DISPLAY_SUITS:
            ranks = [RANK_WORDS[r] for r in self.order if mask >> (13 * s + r) & 1]
            groups.append(self.suit(s) + " " + (" ".join(ranks) if ranks else "-"))
        return "  ".join(groups)

    def cards(self, cards) -> str:
        return " ".join(self.card(int(c)) for c in cards) if len(cards) else "-"


def seat_list(seats) -> str:
    """``seat 0`` or ``seats 0, 3``."""
    return ("seat " if len(seats) == 1 else "seats ") + ", ".join(str(s) for s in seats)


def count(n: int, word: str) -> str:
    """``1 trick``, ``3 tricks``."""
    return f"{n} {word}" + ("" if n == 1 else "s")


def owners(hands) -> dict[int, int]:
    """card -> the seat holding it, from one mask per seat."""
    return {c: s for s, mask in enumerate(hands) for c in cards_of_hand(mask)}


@dataclass
class Layout:
    """One deal in a game's words.  ``deal`` facts are fixed by the deal (dealer, upcard);
    ``calls`` are the decisions (trump, bids); ``summary`` is the result in one line."""

    seats: int
    hands: dict[int, int]                       # seat -> hand mask shown
    roles: dict[int, list[str]] = field(default_factory=dict)
    deal: list[tuple[str, str]] = field(default_factory=list)
    calls: list[tuple[str, str]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)   # before the result (pick-up, exchange)
    after: list[str] = field(default_factory=list)   # after the result table (per side)
    summary: str = ""
    table: dict[str, Any] | None = None         # {"columns": [...], "rows": [[label, ...]]}
    owners: dict[int, int] = field(default_factory=dict)  # card -> seat that played it
    extra_hands: list[tuple[str, int]] = field(default_factory=list)  # kitty, final hands

    def role(self, seat: int, text: str) -> None:
        self.roles.setdefault(seat, []).append(text)


@dataclass(frozen=True)
class DealView:
    """How ``simcore show`` lays out a deal of one game.

    ``layout(row, f, solved)``: the :class:`Layout` of one hand row (a dict; ``f`` a
    :class:`CardText`; ``solved``: the row is a ``simcore solve`` row, hands and deal facts
    only).  ``dd_table(row, f)``: a solve row's open-hand table as ``{"title", "columns",
    "rows"}`` (plus ``"label_column": True`` when the first column holds labels).
    ``turn_log(row, f)``: the turns of a ``--log-plays`` row (draws, discards, melds, knocks),
    one line each, for a game whose play is not tricks.
    """

    layout: Callable[[dict, CardText, bool], Layout]
    dd_table: Callable[[dict, CardText], dict] | None = None
    rank_order: tuple[int, ...] = ACE_HIGH      # a suit's ranks as players sort them
    deal_roles: tuple[str, ...] = ("dealer",)   # roles the deal fixes (shown for every option)
    trick_log: bool = False      # --log-plays rows hold ``plays`` and ``trick_winners``
    trick_points: Callable[[list[int]], int] | None = None  # points of one trick's cards
    partnerships: bool = False   # totals and final scores per side (seats p and p + 2)
    # a game without tricks: its --log-plays turns, as lines of text in the game's words, from
    # one row (``f`` writes the cards); a row without the log gives None
    turn_log: Callable[[dict, CardText], list[str] | None] | None = None
