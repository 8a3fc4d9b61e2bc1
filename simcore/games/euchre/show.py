"""Euchre in ``simcore show``: dealer and upcard, the pick-up, trump and who went alone, tricks
per seat and side, and the open-hand tricks per trump (simcore.games.showing)."""

from __future__ import annotations

from typing import Any

from simcore.games.showing import DISPLAY_SUITS, CardText, DealView, Layout, count, owners


def layout(row, f: CardText, solved: bool) -> Layout:
    hands = [row[f"hand{s}"] for s in range(4)]
    dealer, up = row["dealer"], row["upcard"]
    lay = Layout(4, dict(enumerate(hands)))
    lay.role(dealer, "dealer")
    lay.deal.append(("dealer", f"seat {dealer}"))
    lay.deal.append(("upcard", f.card(up)))
    if "kitty" in row:  # solve rows have none
        lay.extra_hands.append(("kitty", row["kitty"]))
    if solved:
        return lay
    playing = list(hands)
    if row["picked_up"]:
        playing[dealer] = (playing[dealer] | 1 << up) & ~(1 << row["discard"])
        lay.notes.append(f"the dealer picked up {f.card(up)} and discarded "
                         f"{f.card(row['discard'])}")
    lay.owners = owners(playing)
    trump, maker = row["trump"], row["maker"]
    if trump < 0:
        lay.calls.append(("trump", "none: every seat passed twice, thrown in"))
        lay.summary = "thrown in: nobody named trump"
        return lay
    how = "ordered up" if row["bid_round"] == 1 else "named in round two"
    lay.calls.append(("trump", f"{f.suit(trump)} {how} by seat {maker}"))
    lay.role(maker, "maker")
    for key, side in (("alone_maker", "makers"), ("alone_defender", "defenders")):
        if row[key] >= 0:
            lay.role(row[key], "alone")
            lay.role((row[key] + 2) % 4, "sits out")
            lay.calls.append((f"alone ({side})", f"seat {row[key]}"))
    side = maker % 2
    made = row[f"side_tricks{side}"]
    verdict = ("march" if made == 5 else "made" if made >= 3 else "euchred")
    scorer = 0 if row["points0"] else 1
    lay.summary = (f"trump {f.suit(trump)} by seat {maker}: makers {count(made, 'trick')}, "
                   f"{verdict}; side {scorer}+{scorer + 2} scores {row[f'points{scorer}']}")
    lay.table = {"columns": [f"seat {s}" for s in range(4)],
                 "rows": [["tricks", *[row[f"tricks{s}"] for s in range(4)]]]}
    lay.after.append("; ".join(f"side {p}+{p + 2}: {count(row[f'side_tricks{p}'], 'trick')}, "
                               f"{count(row[f'points{p}'], 'point')}" for p in range(2)))
    return lay


def dd_table(row, f: CardText) -> dict[str, Any]:
    rows = [[f.suit(t), row[f"dd_t{t}"], *[row[f"dd_alone{s}_t{t}"] for s in range(4)]]
            for t in DISPLAY_SUITS]
    return {"title": "open-hand tricks per trump: seats 0+2 with nobody alone, and the lone "
                     "seat's own tricks alone",
            "columns": ["trump", "0+2", "alone 0", "alone 1", "alone 2", "alone 3"],
            "rows": rows}


VIEW = DealView(layout=layout, dd_table=dd_table, trick_log=True, partnerships=True)
