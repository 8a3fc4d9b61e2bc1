"""Dummy in ``simcore show``: dealer, starter and head card, the knock, and each seat's
melds, lay-offs, penalties and score (simcore.games.showing)."""

from __future__ import annotations

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


VIEW = DealView(layout=layout, deal_roles=("dealer", "starts"))
