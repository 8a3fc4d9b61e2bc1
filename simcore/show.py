"""``simcore show RUN --deal K``: one deal of a run as a player would read it.

A run folder (``simcore simulate`` or ``simcore solve``) is opened through its manifest only;
the one part holding the deal is found from the manifest's chunk list and scanned lazily with
a filter, so showing a deal of a 16M-row run reads a few rows.

:func:`show` gathers the content of one deal (a JSON-able dict: the hands, the deal's facts,
the calls, the result, the trick log, the open-hand table) and :func:`render` lays it out as
plain text within 80 columns.  Each game declares how its deals read (``Game.show``, a
:class:`~simcore.games.showing.DealView` in the game's ``show.py``) filling the same
:class:`~simcore.games.showing.Layout`; the text and table helpers here are shared.

Addressing: hands mode ``deal=K`` (row K of the run); games mode ``game=G, hand=H`` (hand H of
game G, both from 0); a what-if run has one row per option: ``option=X`` picks one, without it
the deal is shown with one summary line per option.
"""

from __future__ import annotations

import json
import sys
import textwrap
from pathlib import Path
from typing import Any

import polars as pl

from simcore import games
from simcore.cards import SUIT_SYMBOLS, cards_of_hand
from simcore.errors import SimcoreError
from simcore.games.showing import CardText, Layout, count
from simcore.runs import MANIFEST, read_manifest

WIDTH = 80


def stdout_has_symbols(stream=None) -> bool:
    """Whether ``stream`` (stdout) can encode ♠♥♦♣; if not, show falls back to letters."""
    stream = stream or sys.stdout
    try:
        SUIT_SYMBOLS.encode(getattr(stream, "encoding", None) or "ascii")
    except (LookupError, UnicodeEncodeError):
        return False
    return True


# ------------------------------------------------------------------ the trick log


def _tricks(view, row, lay: Layout, f: CardText) -> list[dict[str, Any]]:
    """Every trick in order: leader, (seat, card) in play order, winner, and its card points
    in a game that counts them."""
    plays, winners = list(row["plays"]), list(row["trick_winners"])
    if not winners:
        return []
    per = len(plays) // len(winners)
    tricks = []
    for i, winner in enumerate(winners):
        cards = plays[i * per:(i + 1) * per]
        trick = {"trick": i + 1, "leader": lay.owners[cards[0]],
                 "plays": [[lay.owners[c], f.card(c)] for c in cards], "winner": winner}
        if view.trick_points is not None:
            trick["points"] = view.trick_points(cards)
        tricks.append(trick)
    return tricks


def _no_log_note(game: str, view, manifest, address: str) -> str | None:
    """The one line shown for --log-plays when the run holds no trick or turn log (None if it
    does)."""
    if not view.trick_log and view.turn_log is None:
        return (f"turn log: not recorded (the {game} engine keeps no turn log; the row holds "
                "the hands as dealt and the results)")
    what = "tricks" if view.trick_log else "turns"
    if manifest.get("command") == "solve":
        return f"{what}: a solve run has no play log; simcore simulate --log-plays plays the deal"
    if not manifest.get("log_plays"):
        return (f"{what}: not recorded; rerun the run's simulate command with --log-plays "
                f"({address} is the same deal)")
    return None


# ------------------------------------------------------------------ finding the rows


def _open_run(run) -> tuple[Path, dict[str, Any]]:
    folder = Path(run)
    if not folder.exists():
        raise SimcoreError(f"{folder}: no such run folder")
    if not (folder / MANIFEST).is_file():
        raise SimcoreError(f"{folder} is not a simcore run folder (no {MANIFEST})")
    manifest = read_manifest(folder)
    if manifest.get("game") not in games.names() or "chunks" not in manifest:
        raise SimcoreError(f"{folder}/{MANIFEST} is not a simcore run manifest")
    return folder, manifest


def _view(name: str):
    """The game's :class:`~simcore.games.showing.DealView`; SimcoreError if it has none."""
    view = games.get(name).show
    if view is None:
        raise SimcoreError(f"simcore show has no layout for {name} runs")
    return view


def _part(folder: Path, manifest, table: str, index: int) -> Path:
    """The Parquet part holding deal (game) ``index``, from the manifest's chunk list."""
    for chunk in manifest["chunks"]:
        if chunk["start"] <= index < chunk["start"] + chunk["count"]:
            path = folder / table / f"part-{chunk['index']:05d}.parquet"
            if chunk.get("status") != "done" or not path.is_file():
                raise SimcoreError(f"{folder}: the part holding {index} is not written yet "
                                   "(finish the run with --resume)")
            return path
    raise SimcoreError(f"{folder}: no chunk holds {index}")


def _in_range(what: str, k: int, n: int) -> None:
    if not 0 <= k < n:
        raise SimcoreError(f"{what} {k} is out of range: this run has {what}s 0..{n - 1}")


def _address(manifest, deal, game, hand) -> tuple[int, pl.Expr, str]:
    """(deal or game index, row filter, words) of the requested hand; SimcoreError if bad."""
    n = manifest["deals"]
    if manifest.get("mode") == "games":
        if deal is not None:
            raise SimcoreError("this run was made in games mode: address a hand with --game G "
                               "--hand H (both from 0), not --deal")
        if game is None:
            raise SimcoreError("this run was made in games mode: give --game G (and --hand H)")
        _in_range("game", game, n)
        hand = 0 if hand is None else hand
        return game, (pl.col("game") == game) & (pl.col("hand_no") == hand), \
            f"game {game} hand {hand}"
    if game is not None or hand is not None:
        raise SimcoreError("--game and --hand address games-mode runs; this run is in hands "
                           "mode: use --deal K")
    if deal is None:
        raise SimcoreError("give --deal K (the run's deal index, from 0)")
    _in_range("deal", deal, n)
    return deal, pl.col("deal") == deal, f"deal {deal}"


def _rows(folder: Path, manifest, deal, game, hand) -> tuple[list[dict], str]:
    index, where, address = _address(manifest, deal, game, hand)
    rows = pl.scan_parquet(_part(folder, manifest, "hands", index)).filter(where).collect()
    if rows.is_empty():
        if manifest.get("mode") == "games":
            hands = (pl.scan_parquet(_part(folder, manifest, "hands", index))
                     .filter(pl.col("game") == index).select(pl.len()).collect().item())
            raise SimcoreError(f"hand {hand} is out of range: game {index} has hands "
                               f"0..{hands - 1}")
        raise SimcoreError(f"{folder}: {address} is missing from its part")
    return rows.to_dicts(), address


def _pick_option(rows, manifest, option):
    what_if = manifest.get("what_if")
    if not what_if:
        if option is not None:
            raise SimcoreError("--option is for what-if runs; this run was made without "
                               "--what-if")
        return rows[0]
    labels = [r["option"] for r in rows]
    if option is None:
        return None
    if option not in labels:
        raise SimcoreError(f"unknown option {option!r} of what-if {what_if}; options: "
                           + ", ".join(labels))
    return rows[labels.index(option)]


def _game_row(folder: Path, manifest, game: int) -> dict[str, Any]:
    frame = pl.scan_parquet(_part(folder, manifest, "games", game))
    return frame.filter(pl.col("game") == game).collect().to_dicts()[0]


# ------------------------------------------------------------------ the content


def _hand_entries(view, lay: Layout, f: CardText, with_roles: bool) -> list[dict[str, Any]]:
    def roles(s):  # an overview shows only the roles the deal fixes, the same for every option
        return [r for r in lay.roles.get(s, []) if with_roles or r in view.deal_roles]

    return [{"seat": s, "roles": roles(s),
             "cards": [f.card(c) for c in cards_of_hand(m)], "text": f.hand(m)}
            for s, m in lay.hands.items()]


def _per_seat_or_side(row, prefix: str, view, seats: int) -> list[list[Any]]:
    values = [row[f"{prefix}{i}"] for i in range(seats) if f"{prefix}{i}" in row]
    if view.partnerships:
        return [[f"side {p}+{p + 2}", v] for p, v in enumerate(values[:2])]
    return [[f"seat {s}", v] for s, v in enumerate(values)]


def _game_result(folder, manifest, view, seats: int, game_no: int) -> dict[str, Any]:
    result = _game_row(folder, manifest, game_no)
    w = result["winner"]
    winner = ("shared" if w < 0 else f"side {w}+{w + 2}" if view.partnerships else f"seat {w}")
    return {"hands": result["hands"], "winner": winner,
            "final": _per_seat_or_side(result, "final", view, seats)}


def show(run, deal: int | None = None, *, game: int | None = None, hand: int | None = None,
         option: str | None = None, log_plays: bool = False,
         symbols: bool = True) -> dict[str, Any]:
    """The content of one deal of the run folder ``run`` as a JSON-able dict (see module doc).

    ``symbols=False`` writes cards in letters (``AS``, ``10H``).  SimcoreError on bad input.
    """
    folder, manifest = _open_run(run)
    name = manifest["game"]
    view = _view(name)
    f = CardText(symbols, view.rank_order)
    rows, address = _rows(folder, manifest, deal, game, hand)
    row = _pick_option(rows, manifest, option)
    solved = manifest.get("command") == "solve"
    try:
        return _content(folder, manifest, view, rows, row, address, f, solved, log_plays)
    except KeyError as e:  # a part written by another simcore version, or not this game's
        raise SimcoreError(f"{folder}: the {address} row has no column {e} that "
                           f"{name} rows have") from None


def _content(folder, manifest, view, rows, row, address, f, solved, log_plays) -> dict[str, Any]:
    name = manifest["game"]
    lay = view.layout(row if row is not None else rows[0], f, solved)
    if manifest.get("conditions"):  # a constrained run: what was asked, and what it took
        lay.deal.append(("conditions", "; ".join(manifest["conditions"])))
        lay.deal.append(("attempts", str(rows[0]["attempts"])))
    overview = row is None  # a what-if run without --option: every option's result in a line
    content: dict[str, Any] = {
        "run": str(folder), "game": name, "command": manifest.get("command", "simulate"),
        "mode": manifest.get("mode"), "seed": manifest.get("seed"), "address": address,
        "deal": rows[0]["deal"], "what_if": manifest.get("what_if"),
        "option": None if overview else row.get("option"),
        "deal_facts": [list(x) for x in lay.deal],
        "calls": [] if overview else [list(x) for x in lay.calls],
        "hands": _hand_entries(view, lay, f, not overview),
        "other_hands": [{"label": label, "cards": [f.card(c) for c in cards_of_hand(m)],
                         "text": f.hand(m)} for label, m in lay.extra_hands
                        if not (overview and label.startswith("final"))],
        "notes": [] if overview else lay.notes, "summary": None if overview else lay.summary,
        "after": [] if overview else lay.after,
        "table": None if overview else lay.table,
        "options": None,
        "dd": view.dd_table(row, f) if solved and view.dd_table is not None else None,
        "totals": None, "game_result": None, "tricks": None, "turns": None,
        "tricks_note": None,
        "rows": [_plain(r) for r in rows] if overview else [_plain(row)],
    }
    if overview:
        content["options"] = [{"option": r["option"],
                               "summary": view.layout(r, f, solved).summary} for r in rows]
    if manifest.get("mode") == "games":
        content["totals"] = _per_seat_or_side(rows[0], "total", view, lay.seats)
        content["game_result"] = _game_result(folder, manifest, view, lay.seats, rows[0]["game"])
    if log_plays:
        note = _no_log_note(name, view, manifest, address)
        if note is None and overview:
            labels = ", ".join(r["option"] for r in rows)
            what = "tricks" if view.trick_log else "turns"
            note = f"{what}: pick one option with --option ({labels})"
        content["tricks_note"] = note
        if note is None and view.trick_log:
            content["tricks"] = _tricks(view, row, lay, f)
        elif note is None:
            content["turns"] = view.turn_log(row, f)
    return content


def _plain(row: dict[str, Any]) -> dict[str, Any]:
    return {k: (list(v) if isinstance(v, (list, tuple, pl.Series)) else v) for k, v in row.items()}


# ------------------------------------------------------------------ text


def _facts_lines(facts) -> list[str]:
    """``label: value`` facts, several to a line, none split unless it alone is too long."""
    lines, line = [], ""
    for label, value in facts:
        item = f"{label}: {value}"
        if line and len(line) + 3 + len(item) <= WIDTH:
            line += "   " + item
            continue
        if line:
            lines.append(line)
        line = item
        if len(item) > WIDTH:
            lines.extend(textwrap.wrap(item, WIDTH, subsequent_indent="    ")[:-1])
            line = textwrap.wrap(item, WIDTH, subsequent_indent="    ")[-1]
    return lines + ([line] if line else [])


def _joined(head: str, items) -> list[str]:
    """``head seat 0: 5, seat 1: -3, ...`` wrapped at 80 columns between items only."""
    lines, line = [], head
    for i, (label, value) in enumerate(items):
        item = f"{label}: {value}" + ("," if i < len(items) - 1 else "")
        if len(line) + 1 + len(item) > WIDTH:
            lines.append(line)
            line = "  " + item
        else:
            line += " " + item
    return lines + [line]


def _wrap(text: str, indent: str = "") -> list[str]:
    return textwrap.wrap(text, WIDTH, initial_indent=indent, subsequent_indent=indent + "  ")


def _table_lines(table, indent: str = "  ") -> list[str]:
    cells = [[str(c) for c in table["columns"]]] + [[str(c) for c in r] for r in table["rows"]]
    header = [""] + cells[0] if len(cells[0]) < len(cells[1]) else cells[0]
    grid = [header] + cells[1:]
    widths = [max(len(r[i]) for r in grid) for i in range(len(header))]
    lines = []
    for r in grid:
        first = r[0].ljust(widths[0])
        rest = "  ".join(c.rjust(w) for c, w in zip(r[1:], widths[1:]))
        lines.append((indent + first + "  " + rest).rstrip())
    return lines


def _hand_lines(content) -> list[str]:
    entries = [(f"seat {h['seat']}", ", ".join(h["roles"]), h["text"]) for h in content["hands"]]
    entries += [(o["label"], "", o["text"]) for o in content["other_hands"]]
    label_width = max(len(label) for label, _, _ in entries)
    role_width = max(len(r) for _, r, _ in entries)
    lines = []
    for label, role, text in entries:
        head = f"{label:<{label_width}}  {role:<{role_width}}" if role_width else label
        if len(head) + 2 + len(text) > WIDTH:  # a long role: the cards go on the next line
            lines += [f"{label}  {role}".rstrip(), f"    {text}"]
        else:
            lines.append(f"{head:<{label_width}}  {text}")
    return lines


def _trick_lines(content) -> list[str]:
    lines = ["tricks (seat:card in play order, the leader first):"]
    for t in content["tricks"]:
        cards = "  ".join(f"{s}:{c}" for s, c in t["plays"])
        points = t.get("points")
        tail = f"won by {t['winner']}" + ("" if points is None else ", " + count(points, "point"))
        line = f"{t['trick']:>3}  {cards}   {tail}"
        lines.extend([line] if len(line) <= WIDTH else [f"{t['trick']:>3}  {cards}", f"     {tail}"])
    if not content["tricks"]:
        lines.append("  none (no trick was played)")
    return lines


def _title(content) -> str:
    what = f"{content['game']}  {content['address']}"
    if content["option"] is not None:
        what += f"  option {content['option']} (what-if {content['what_if']})"
    kind = "open-hand table" if content["command"] == "solve" else f"{content['mode']} mode"
    return f"{what}  seed {content['seed']}  ({kind})"


def render(content: dict[str, Any]) -> str:
    """The content of :func:`show` as plain text within 80 columns."""
    out = _wrap(_title(content)) + _wrap(f"run: {content['run']}") + [""]
    facts = content["deal_facts"] + content["calls"]
    out += _facts_lines(facts) + [""] if facts else []
    out += _hand_lines(content)
    if content["notes"]:
        out += [""] + [line for n in content["notes"] for line in _wrap(n)]
    if content["summary"]:
        out += [""] + _wrap("result: " + content["summary"])
    if content["table"]:
        out += _table_lines(content["table"])
    out += [line for n in content["after"] for line in _wrap(n)]
    if content["options"]:
        out += ["", f"options (what-if {content['what_if']}; --option X shows one in full):"]
        width = max(len(o["option"]) for o in content["options"])
        for o in content["options"]:
            out += textwrap.wrap(o["summary"], WIDTH, initial_indent=f"  {o['option']:<{width}}  ",
                                 subsequent_indent=" " * (width + 6))
    if content["totals"]:
        out += [""] + _joined("running totals after this hand:", content["totals"])
    if content["game_result"]:
        g = content["game_result"]
        out += _joined(f"the game: {g['hands']} hands, winner {g['winner']}; final scores:",
                       g["final"])
    if content["dd"]:
        out += [""] + _wrap(content["dd"]["title"]) + _table_lines(content["dd"])
    if content["tricks_note"]:
        out += [""] + _wrap(content["tricks_note"])
    if content["tricks"] is not None:
        out += [""] + _trick_lines(content)
    if content.get("turns") is not None:
        out += [""] + content["turns"]
    return "\n".join(out) + "\n"


def main(args) -> int:
    """The ``simcore show`` command (argparse namespace from simcore.cli)."""
    symbols = not args.json and stdout_has_symbols()
    content = show(args.run, args.deal, game=args.game, hand=args.hand, option=args.option,
                   log_plays=args.log_plays, symbols=symbols)
    if args.json:
        print(json.dumps(content, indent=1))
    else:
        sys.stdout.write(render(content))
    return 0
