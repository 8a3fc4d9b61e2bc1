"""Dummy in ``simcore show``: dealer, starter and head card, the knock, and each seat's
melds, lay-offs, penalties and score; with ``--log-plays`` every turn (simcore.games.showing)."""

from __future__ import annotations

import textwrap

from simcore.cards import cards_of_hand
from simcore.games.dummy.layout import (A_LAYOFF, A_MELD, A_SHIFT, DRAW, K_ACQUIRE,
                                        K_DISCARD, LOG_ROW, MASK52, PASS, STOP, TAKE_SHIFT)
from simcore.games.showing import CardText, DealView, Layout

RESULTS = (("opened", "opened"), ("table", "table T"), ("inhand", "in hand H"),
           ("layoffs", "lay-offs"), ("penalty", "penalty"), ("score", "score"))


def layout(row, f: CardText, solved: bool) -> Layout:
    n = row["players"]
    lay = Layout(n, {s: row[f"hand{s}"] for s in range(n)})
    dealer, starter = row["dealer"], row["starter"]
    lay.role(dealer, "dealer")
    lay.role(starter, "starts")
    way = "seat + 1" if row["direction"] > 0 else "seat - 1"
    lay.deal.append(("dealer", f"seat {dealer}, seat {starter} starts, play passes to {way}"))
    lay.deal.append(("head card", f.card(row["head"])))
    knocker = row["knocker"]
    if knocker >= 0:
        lay.role(knocker, "knocker")
        how = ("dark knock" if row["dark_knock"] else "knock") + f" by seat {knocker}"
        if row["knock_card"] >= 0:
            how += f" on {f.card(row['knock_card'])}"
    else:
        how = "the stock ran out"
    if row["fool"] >= 0:
        lay.notes.append(f"seat {row['fool']} was charged the fool penalty")
    lay.summary = (f"{how} after {row['turns']} turns: scores "
                   + "/".join(str(row[f"score{s}"]) for s in range(n)))
    rows = []
    for key, label in RESULTS:
        values = [row[f"{key}{s}"] for s in range(n)]
        rows.append([label, *(("yes" if v else "no") if isinstance(v, bool) else v
                              for v in values)])
    lay.table = {"columns": [f"seat {s}" for s in range(n)], "rows": rows}
    return lay


class _Table:
    """The deal's public state as the log replays it: pile, table melds, hands, stock."""

    def __init__(self, row, f: CardText):
        self.f = f
        self.pile = [row["head"]]
        self.melds: list[int] = []
        self.hands = [row[f"hand{s}"] for s in range(row["players"])]
        self.stock = iter(row["stock"])

    def cards(self, mask: int) -> str:
        return self.f.cards(cards_of_hand(mask))

    def acquire(self, seat: int, a: int) -> str:
        """DM-11, DM-12, DM-23: a draw, a pass or a take (the pile from a card up, a meld)."""
        if a == DRAW:
            card = next(self.stock)
            self.hands[seat] |= 1 << card
            return f"draws {self.f.card(card)}"
        if a == PASS:
            return "passes (the stock is out)"
        depth, meld = a >> TAKE_SHIFT, a & MASK52
        taken = self.pile[depth:]
        del self.pile[depth:]
        self.hands[seat] = (self.hands[seat] | sum(1 << c for c in taken)) & ~meld
        self.melds.append(meld)
        what = self.f.card(taken[0]) + (f" and the {len(taken) - 1} above it"
                                         if len(taken) > 1 else "")
        return f"takes {what}, melds {self.cards(meld)}"

    def play(self, seat: int, a: int) -> str:
        """DM-15 ... DM-19: a meld, a lay-off, or a knock keeping one card."""
        kind, low = a >> A_SHIFT, a & MASK52
        if kind == A_MELD:
            self.melds.append(low)
            self.hands[seat] &= ~low
            return f"melds {self.cards(low)}"
        card = low & 255
        if kind == A_LAYOFF:
            j = low >> 8 & 255
            onto = self.cards(self.melds[j])
            self.melds[j] |= 1 << card
            self.hands[seat] &= ~(1 << card)
            return f"lays off {self.f.card(card)} on {onto}"
        down = self.hands[seat] & ~(1 << card)  # A_KNOCK: all but ``card`` goes down
        self.hands[seat] = 1 << card
        return f"puts down {self.cards(down)}"

    def discard(self, seat: int, card: int) -> str:
        self.pile.append(card)
        self.hands[seat] &= ~(1 << card)
        return f"discards {self.f.card(card)}"


def turn_log(row, f: CardText) -> list[str] | None:
    """Every turn of a ``--log-plays`` row: the draw or take, melds, lay-offs, the discard."""
    decisions, deciders = row.get("decisions"), row.get("deciders")
    if decisions is None:
        return None
    table = _Table(row, f)
    turns: list[tuple[int, list[str]]] = []
    for a, who in zip(decisions, deciders):
        seat, kind = who >> 2, who & 3
        if kind == K_ACQUIRE:
            turns.append((seat, [table.acquire(seat, a)]))
        elif kind == K_DISCARD:
            turns[-1][1].append(table.discard(seat, a))
        elif a != STOP:
            turns[-1][1].append(table.play(seat, a))
    if row["knocker"] >= 0 and row["knock_card"] >= 0 and turns:
        dark = "dark " if row["dark_knock"] else ""
        turns[-1][1].append(f"{dark}knocks with {f.card(row['knock_card'])}")
    lines = ["turns (the draw or take, melds and lay-offs, the discard):"]
    for i, (seat, acts) in enumerate(turns):
        lines += textwrap.wrap(f"{i + 1:>3}  seat {seat}  " + "; ".join(acts), 80,
                               subsequent_indent=" " * 13)
    if len(decisions) >= LOG_ROW:
        lines.append(f"     ... only the first {LOG_ROW} decisions are kept")
    return lines


VIEW = DealView(layout=layout, deal_roles=("dealer", "starts"), turn_log=turn_log)
