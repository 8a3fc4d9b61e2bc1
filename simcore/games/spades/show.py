"""Spades in ``simcore show``: the bids, passed cards, tricks, each side's score, and the
open-hand tricks and nils (simcore.games.showing)."""

from __future__ import annotations

from typing import Any

from simcore.cards import cards_of_hand
from simcore.games.showing import CardText, DealView, Layout, owners


def _bid_text(row, s: int) -> str:
    if row[f"blind{s}"]:
        return "blind nil"
    return "nil" if row[f"bid{s}"] == 0 else str(row[f"bid{s}"])


def layout(row, f: CardText, solved: bool) -> Layout:
    dealt = [row[f"hand{s}" if solved else f"dealt{s}"] for s in range(4)]
    dealer = row["dealer"]
    lay = Layout(4, dict(enumerate(dealt)))
    lay.role(dealer, "dealer")
    lay.deal.append(("dealer", f"seat {dealer} (seat {(dealer + 1) % 4} bids and leads first)"))
    if solved:
        return lay
    lay.owners = owners([row[f"hand{s}"] for s in range(4)])
    lay.calls.append(("bids", "  ".join(f"{s}: {_bid_text(row, s)}" for s in range(4))))
    for s in range(4):
        if row[f"passed{s}"]:
            lay.notes.append(f"seat {s} passed seat {(s + 2) % 4}: "
                             f"{f.cards(cards_of_hand(row[f'passed{s}']))}")
    lay.table = {"columns": [f"seat {s}" for s in range(4)],
                 "rows": [["bid", *[_bid_text(row, s) for s in range(4)]],
                          ["tricks", *[row[f"tricks{s}"] for s in range(4)]]]}
    sides = []
    for p in range(2):
        sides.append(f"side {p}+{p + 2}: contract {row[f'contract{p}']}, tricks "
                     f"{row[f'tricks{p}'] + row[f'tricks{p + 2}']}, score {row[f'score{p}']} "
                     f"(bags {row[f'bags{p}']}, nil {row[f'nil_points{p}']}, "
                     f"bag penalty {row[f'bag_penalty{p}']})")
    lay.after.extend(sides)
    lay.summary = (f"bids {'/'.join(_bid_text(row, s) for s in range(4))}, tricks "
                   f"{'/'.join(str(row[f'tricks{s}']) for s in range(4))}: "
                   f"score {row['score0']} to {row['score1']}")
    return lay


def _nil_text(row, s: int):
    """A seat's nil value; a run made with --nil safe counts no failing nil's tricks (null:
    "fails"), one made with --nil none solves no nil ("-")."""
    v = row[f"dd_nil{s}"]
    if v is not None:
        return v
    return "fails" if row.get(f"dd_nil_safe{s}") is False else "-"


def dd_table(row, f: CardText) -> dict[str, Any]:
    tricks = row["dd_tricks"]
    rows = [["tricks of the side", tricks, 13 - tricks, tricks, 13 - tricks],
            ["nil: fewest tricks", *[_nil_text(row, s) for s in range(4)]]]
    return {"title": (f"open-hand, seat {(row['dealer'] + 1) % 4} leading: seats 0+2 "
                      f"take {tricks}, 1+3 take {13 - tricks}; nil holds at 0"),
            "columns": ["", "seat 0", "seat 1", "seat 2", "seat 3"], "rows": rows,
            "label_column": True}


VIEW = DealView(layout=layout, dd_table=dd_table, trick_log=True, partnerships=True)
