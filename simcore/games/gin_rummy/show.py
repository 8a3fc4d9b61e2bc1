"""Gin Rummy in ``simcore show``: the upcard, how the hand ended, the final hands and
deadwood (simcore.games.showing)."""

from __future__ import annotations

from simcore.cards import cards_of_hand
from simcore.games.showing import CardText, DealView, Layout

ORDER = (*range(11, -1, -1), 12)   # K Q ... 2 A: aces are low (GR-3)
ENDS = {0: "void (the stock ran out)", 1: "knock", 2: "gin"}


def layout(row, f: CardText, solved: bool) -> Layout:
    lay = Layout(2, {0: row["hand0"], 1: row["hand1"]})
    dealer = row["dealer"]
    lay.role(dealer, "dealer")
    lay.deal.append(("dealer", f"seat {dealer}"))
    lay.deal.append(("upcard", f.card(row["upcard"])))
    taker = row["upcard_taker"]
    lay.calls.append(("upcard taken", f"by seat {taker}" if taker >= 0 else "by nobody"))
    end, knocker, winner = row["end"], row["knocker"], row["winner"]
    how = ENDS.get(end, f"end {end}")
    if knocker >= 0:
        how += f" by seat {knocker}"
        lay.role(knocker, "knocker")
        if winner >= 0 and winner != knocker:
            how += ", undercut"
    lay.summary = (f"{how} after {row['turns']} turns: " +
                   (f"seat {winner} wins {row['points']} points" if winner >= 0 else "no score"))
    for s in range(2):
        lay.extra_hands.append((f"final {s}", row[f"final{s}"]))
    if row["laid_off"]:
        lay.notes.append(f"laid off: {f.cards(cards_of_hand(row['laid_off']))}")
    lay.table = {"columns": ["seat 0", "seat 1"],
                 "rows": [["deadwood", row["deadwood0"], row["deadwood1"]]]}
    return lay


VIEW = DealView(layout=layout, rank_order=ORDER)
