"""Gin Rummy in ``simcore show``: the upcard, how the hand ended, the final hands and
deadwood, and with ``--log-plays`` every turn and the knock's melds (simcore.games.showing)."""

from __future__ import annotations

from simcore.cards import cards_of_hand
from simcore.games.gin_rummy.layout import TURN_PASS, TURN_STOCK, read_turn
from simcore.games.showing import CardText, DealView, Layout
from simcore.melds import gin_arrangements, gin_knock

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


def _turn(entry, f: CardText, knock: str) -> str:
    seat, source, card, discard = read_turn(entry)
    if source == TURN_PASS:
        return f"seat {seat}  passes the upcard"
    took = (f"draws {f.card(card)} from the stock" if source == TURN_STOCK
            else f"takes {f.card(card)} from the pile")
    let_go = f"{knock}, {f.card(discard)} face down" if knock else f"discards {f.card(discard)}"
    return f"seat {seat}  {took}, {let_go}"


def _melds(melds, f: CardText) -> str:
    return " | ".join(f.cards(cards_of_hand(m)) for m in melds) or "none"


def _showdown(row, f: CardText) -> list[str]:
    """GR-9 ... GR-11: the knocker's melds and deadwood, the defender's lay-offs and melds."""
    k = row["knocker"]
    d = 1 - k
    kdw, ddw, off, melds = gin_knock(row[f"final{k}"], row[f"final{d}"])
    kept = row[f"final{d}"] & ~off
    _, arrangements = gin_arrangements(kept, limit=1)
    loose = row[f"final{k}"] & ~sum(melds)
    d_loose = kept & ~sum(arrangements[0]) if arrangements else kept
    lines = [f"seat {k} melds {_melds(melds, f)}; deadwood {kdw}"
             + (f" ({f.cards(cards_of_hand(loose))})" if loose else "")]
    if off:
        lines.append(f"seat {d} lays off {f.cards(cards_of_hand(off))}")
    lines.append(f"seat {d} melds {_melds(arrangements[0] if arrangements else [], f)}; "
                 f"deadwood {ddw}" + (f" ({f.cards(cards_of_hand(d_loose))})" if d_loose else ""))
    return lines


def turn_log(row, f: CardText) -> list[str] | None:
    """Every turn of a ``--log-plays`` row, then the knock's melds and lay-offs."""
    log = row.get("turn_log")
    if log is None:
        return None
    passes = sum(read_turn(e)[1] == TURN_PASS for e in log)
    cut = len(log) - passes < row["turns"]  # a row keeps its first LOG_TURNS turns
    knocked = row["knocker"] >= 0
    knock = "goes gin" if row["end"] == 2 else "knocks"
    lines = ["turns (the upcard offers first):"]
    for i, entry in enumerate(log):
        last = knocked and not cut and i == len(log) - 1
        lines.append(f"{i + 1:>3}  " + _turn(entry, f, knock if last else ""))
    if cut:
        lines.append(f"     ... only the first {len(log)} turns are kept")
    if knocked:
        lines += ["", *_showdown(row, f)]
    return lines


VIEW = DealView(layout=layout, rank_order=ORDER, turn_log=turn_log)
