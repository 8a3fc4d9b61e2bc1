"""Trump Friend in ``simcore show``: the declarer, the kitty, the calls, card points per seat,
and the open-hand points of every call (simcore.games.showing)."""

from __future__ import annotations

from typing import Any

from simcore.games.showing import CardText, DealView, Layout, owners, seat_list

ORDER = (1, 0, *range(12, 1, -1))   # 3 2 A K Q ... 4: the game's own order of ranks (TF-3)
POINTS = {12: 2, 11: 1, 10: 1, 9: 1}  # rank index -> card points: A = 2, K/Q/J = 1 (TF-11)


def _call(t: int, f: CardText) -> str:
    return "no trump" if t == 4 else f.suit(t)


def layout(row, f: CardText, solved: bool) -> Layout:
    hands = [row[f"hand{s}"] for s in range(5)]
    lay = Layout(5, dict(enumerate(hands)), owners=owners(hands))
    d = row["declarer"]
    lay.role(d, "declarer")
    lay.deal.append(("declarer", f"seat {d}"))
    lay.extra_hands.append(("kitty", row["kitty"]))
    if solved:
        return lay
    lay.calls.append(("trump", _call(row["trump"], f)))
    friend, fseat = row["friend_card"], row["friend_seat"]
    if friend < 0:
        lay.calls.append(("friend", "none (declarer alone)"))
    else:
        where = ("the declarer's own card" if row["friend_own"] else
                 "in the kitty" if fseat < 0 else f"seat {fseat}")
        lay.calls.append(("friend", f"{f.card(friend)} ({where})"))
        if fseat >= 0 and fseat != d:
            lay.role(fseat, "friend")
    team = sorted({d} | ({fseat} if fseat >= 0 else set()))
    won = "declarer won" if row["declarer_won"] else (
        "a tie" if row["declarer_team_points"] == row["defender_points"] else "defenders won")
    lay.summary = (f"trump {_call(row['trump'], f)}, friend "
                   f"{f.card(friend) if friend >= 0 else 'none'}: D {row['declarer_team_points']}"
                   f" ({seat_list(team)}), O {row['defender_points']}: {won}")
    rows = [["points", *[row[f"points{s}"] for s in range(5)]],
            ["score change", *[row[f"delta{s}"] for s in range(5)]]]
    lay.table = {"columns": [f"seat {s}" for s in range(5)], "rows": rows}
    return lay


def dd_table(row, f: CardText) -> dict[str, Any]:
    rows = []
    for t in range(5):
        friend = row[f"dd_friend{t}"]
        rows.append([_call(t, f), f.card(friend) if friend >= 0 else "none",
                     row[f"dd_points{t}"], row[f"dd_solo{t}"]])
    best = max(range(5), key=lambda t: row[f"dd_points{t}"])
    return {"title": (f"open-hand card points of the declarer's team (seat {row['declarer']}), "
                      "per call; best call: " + _call(best, f)),
            "columns": ["call", "friend", "with friend", "no friend"], "rows": rows}


def trick_points(cards) -> int:
    return sum(POINTS.get(c % 13, 0) for c in cards)


VIEW = DealView(layout=layout, dd_table=dd_table, rank_order=ORDER, deal_roles=("declarer",),
                trick_log=True, trick_points=trick_points)
