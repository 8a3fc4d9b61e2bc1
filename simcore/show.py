"""``simcore show RUN --deal K``: one deal of a run as a player would read it.

A run folder (``simcore simulate`` or ``simcore solve``) is opened through its manifest only;
the one part holding the deal is found from the manifest's chunk list and scanned lazily with
a filter, so showing a deal of a 16M-row run reads a few rows.

:func:`show` gathers the content of one deal (a JSON-able dict: the hands, the deal's facts,
the calls, the result, the trick log, the open-hand table) and :func:`render` lays it out as
plain text within 80 columns.  Each game has one layout function (``_trump_friend``,
``_euchre``, ...) filling the same :class:`Layout`; the card text and table helpers are shared.

Addressing: hands mode ``deal=K`` (row K of the run); games mode ``game=G, hand=H`` (hand H of
game G, both from 0); a what-if run has one row per option: ``option=X`` picks one, without it
the deal is shown with one summary line per option.
"""

from __future__ import annotations

import json
import sys
import textwrap
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import polars as pl

from simcore.cards import SUIT_SYMBOLS, SUITS, cards_of_hand
from simcore.errors import SimcoreError
from simcore.runs import MANIFEST, read_manifest

WIDTH = 80
DISPLAY_SUITS = (3, 2, 1, 0)  # players sort a hand spades, hearts, diamonds, clubs
RANK_WORDS = tuple("23456789") + ("10", "J", "Q", "K", "A")
TRICK_GAMES = ("trump-friend", "euchre", "spades")


# ------------------------------------------------------------------ card text


ACE_HIGH = tuple(range(12, -1, -1))   # A K Q ... 2: Euchre, Spades, Dummy
TF_ORDER = (1, 0, *range(12, 1, -1))   # 3 2 A K Q ... 4: Trump Friend's own order (TF-3)
ACE_LOW = (*range(11, -1, -1), 12)     # K Q ... 2 A: Gin Rummy (GR-3)
RANK_ORDER = {"trump-friend": TF_ORDER, "gin-rummy": ACE_LOW}


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


def stdout_has_symbols(stream=None) -> bool:
    """Whether ``stream`` (stdout) can encode ♠♥♦♣; if not, show falls back to letters."""
    stream = stream or sys.stdout
    try:
        SUIT_SYMBOLS.encode(getattr(stream, "encoding", None) or "ascii")
    except (LookupError, UnicodeEncodeError):
        return False
    return True


def _seat_list(seats) -> str:
    return ("seat " if len(seats) == 1 else "seats ") + ", ".join(str(s) for s in seats)


def _count(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


# ------------------------------------------------------------------ what a layout holds


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


def _owners(hands) -> dict[int, int]:
    return {c: s for s, mask in enumerate(hands) for c in cards_of_hand(mask)}


# ------------------------------------------------------------------ Trump Friend


def _tf_call(t: int, f: CardText) -> str:
    return "no trump" if t == 4 else f.suit(t)


def _trump_friend(row, f: CardText, solved: bool) -> Layout:
    hands = [row[f"hand{s}"] for s in range(5)]
    lay = Layout(5, dict(enumerate(hands)), owners=_owners(hands))
    d = row["declarer"]
    lay.role(d, "declarer")
    lay.deal.append(("declarer", f"seat {d}"))
    lay.extra_hands.append(("kitty", row["kitty"]))
    if solved:
        return lay
    lay.calls.append(("trump", _tf_call(row["trump"], f)))
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
    lay.summary = (f"trump {_tf_call(row['trump'], f)}, friend "
                   f"{f.card(friend) if friend >= 0 else 'none'}: D {row['declarer_team_points']}"
                   f" ({_seat_list(team)}), O {row['defender_points']}: {won}")
    rows = [["points", *[row[f"points{s}"] for s in range(5)]],
            ["score change", *[row[f"delta{s}"] for s in range(5)]]]
    lay.table = {"columns": [f"seat {s}" for s in range(5)], "rows": rows}
    return lay


def _trump_friend_dd(row, f: CardText) -> dict[str, Any]:
    rows = []
    for t in range(5):
        friend = row[f"dd_friend{t}"]
        rows.append([_tf_call(t, f), f.card(friend) if friend >= 0 else "none",
                     row[f"dd_points{t}"], row[f"dd_solo{t}"]])
    best = max(range(5), key=lambda t: row[f"dd_points{t}"])
    return {"title": (f"open-hand card points of the declarer's team (seat {row['declarer']}), "
                      "per call; best call: " + _tf_call(best, f)),
            "columns": ["call", "friend", "with friend", "no friend"], "rows": rows}


# ------------------------------------------------------------------ Euchre


def _euchre(row, f: CardText, solved: bool) -> Layout:
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
    lay.owners = _owners(playing)
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
    lay.summary = (f"trump {f.suit(trump)} by seat {maker}: makers {_count(made, 'trick')}, "
                   f"{verdict}; side {scorer}+{scorer + 2} scores {row[f'points{scorer}']}")
    lay.table = {"columns": [f"seat {s}" for s in range(4)],
                 "rows": [["tricks", *[row[f"tricks{s}"] for s in range(4)]]]}
    lay.after.append("; ".join(f"side {p}+{p + 2}: {_count(row[f'side_tricks{p}'], 'trick')}, "
                               f"{_count(row[f'points{p}'], 'point')}" for p in range(2)))
    return lay


def _euchre_dd(row, f: CardText) -> dict[str, Any]:
    rows = [[f.suit(t), row[f"dd_t{t}"], *[row[f"dd_alone{s}_t{t}"] for s in range(4)]]
            for t in DISPLAY_SUITS]
    return {"title": "open-hand tricks per trump: seats 0+2 with nobody alone, and the lone "
                     "seat's own tricks alone",
            "columns": ["trump", "0+2", "alone 0", "alone 1", "alone 2", "alone 3"],
            "rows": rows}


# ------------------------------------------------------------------ Spades


def _bid_text(row, s: int) -> str:
    if row[f"blind{s}"]:
        return "blind nil"
    return "nil" if row[f"bid{s}"] == 0 else str(row[f"bid{s}"])


def _spades(row, f: CardText, solved: bool) -> Layout:
    dealt = [row[f"hand{s}" if solved else f"dealt{s}"] for s in range(4)]
    dealer = row["dealer"]
    lay = Layout(4, dict(enumerate(dealt)))
    lay.role(dealer, "dealer")
    lay.deal.append(("dealer", f"seat {dealer} (seat {(dealer + 1) % 4} bids and leads first)"))
    if solved:
        return lay
    lay.owners = _owners([row[f"hand{s}"] for s in range(4)])
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


def _spades_dd(row, f: CardText) -> dict[str, Any]:
    tricks = row["dd_tricks"]
    rows = [["tricks of the side", tricks, 13 - tricks, tricks, 13 - tricks],
            ["nil: fewest tricks", *[_nil_text(row, s) for s in range(4)]]]
    return {"title": (f"open-hand, seat {(row['dealer'] + 1) % 4} leading: seats 0+2 "
                      f"take {tricks}, 1+3 take {13 - tricks}; nil holds at 0"),
            "columns": ["", "seat 0", "seat 1", "seat 2", "seat 3"], "rows": rows,
            "label_column": True}


# ------------------------------------------------------------------ Gin Rummy

GIN_ENDS = {0: "void (the stock ran out)", 1: "knock", 2: "gin"}


def _gin_rummy(row, f: CardText, solved: bool) -> Layout:
    lay = Layout(2, {0: row["hand0"], 1: row["hand1"]})
    dealer = row["dealer"]
    lay.role(dealer, "dealer")
    lay.deal.append(("dealer", f"seat {dealer}"))
    lay.deal.append(("upcard", f.card(row["upcard"])))
    taker = row["upcard_taker"]
    lay.calls.append(("upcard taken", f"by seat {taker}" if taker >= 0 else "by nobody"))
    end, knocker, winner = row["end"], row["knocker"], row["winner"]
    how = GIN_ENDS.get(end, f"end {end}")
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


# ------------------------------------------------------------------ Dummy

DUMMY_RESULTS = (("opened", "opened"), ("table", "table T"), ("inhand", "in hand H"),
                 ("layoffs", "lay-offs"), ("penalty", "penalty"), ("score", "score"))


def _dummy(row, f: CardText, solved: bool) -> Layout:
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
    for key, label in DUMMY_RESULTS:
        values = [row[f"{key}{s}"] for s in range(n)]
        rows.append([label, *(("yes" if v else "no") if isinstance(v, bool) else v
                              for v in values)])
    lay.table = {"columns": [f"seat {s}" for s in range(n)], "rows": rows}
    return lay


LAYOUTS = {"trump-friend": _trump_friend, "euchre": _euchre, "spades": _spades,
           "gin-rummy": _gin_rummy, "dummy": _dummy}
DD_TABLES = {"trump-friend": _trump_friend_dd, "euchre": _euchre_dd, "spades": _spades_dd}


# ------------------------------------------------------------------ the trick log

TF_POINTS = {12: 2, 11: 1, 10: 1, 9: 1}  # TF rank -> card points: A = 2, K/Q/J = 1


def _tricks(game: str, row, lay: Layout, f: CardText) -> list[dict[str, Any]]:
    """Every trick in order: leader, (seat, card) in play order, winner, card points (TF)."""
    plays, winners = list(row["plays"]), list(row["trick_winners"])
    if not winners:
        return []
    per = len(plays) // len(winners)
    tricks = []
    for i, winner in enumerate(winners):
        cards = plays[i * per:(i + 1) * per]
        trick = {"trick": i + 1, "leader": lay.owners[cards[0]],
                 "plays": [[lay.owners[c], f.card(c)] for c in cards], "winner": winner}
        if game == "trump-friend":
            trick["points"] = sum(TF_POINTS.get(c % 13, 0) for c in cards)
        tricks.append(trick)
    return tricks


def _no_log_note(game: str, manifest, address: str) -> str | None:
    """The one line shown for --log-plays when the run holds no trick log (None if it does)."""
    if game not in TRICK_GAMES:
        return (f"turn log: not recorded (the {game} engine keeps no turn log; the row holds "
                "the hands as dealt and the results)")
    if manifest.get("command") == "solve":
        return "tricks: a solve run has no play log; simcore simulate --log-plays plays the deal"
    if not manifest.get("log_plays"):
        return (f"tricks: not recorded; rerun the run's simulate command with --log-plays "
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
    if manifest.get("game") not in LAYOUTS or "chunks" not in manifest:
        raise SimcoreError(f"{folder}/{MANIFEST} is not a simcore run manifest")
    return folder, manifest


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


FIXED_ROLES = ("dealer", "declarer", "starts")  # set by the deal, the same for every option


def _hand_entries(lay: Layout, f: CardText, with_roles: bool) -> list[dict[str, Any]]:
    def roles(s):
        return [r for r in lay.roles.get(s, []) if with_roles or r in FIXED_ROLES]

    return [{"seat": s, "roles": roles(s),
             "cards": [f.card(c) for c in cards_of_hand(m)], "text": f.hand(m)}
            for s, m in lay.hands.items()]


SIDE_GAMES = ("euchre", "spades")  # totals and final scores per partnership


def _per_seat_or_side(row, prefix: str, game: str, seats: int) -> list[list[Any]]:
    values = [row[f"{prefix}{i}"] for i in range(seats) if f"{prefix}{i}" in row]
    if game in SIDE_GAMES:
        return [[f"side {p}+{p + 2}", v] for p, v in enumerate(values[:2])]
    return [[f"seat {s}", v] for s, v in enumerate(values)]


def _game_result(folder, manifest, game: str, seats: int, game_no: int) -> dict[str, Any]:
    result = _game_row(folder, manifest, game_no)
    w = result["winner"]
    winner = ("shared" if w < 0 else f"side {w}+{w + 2}" if game in SIDE_GAMES else f"seat {w}")
    return {"hands": result["hands"], "winner": winner,
            "final": _per_seat_or_side(result, "final", game, seats)}


def show(run, deal: int | None = None, *, game: int | None = None, hand: int | None = None,
         option: str | None = None, log_plays: bool = False,
         symbols: bool = True) -> dict[str, Any]:
    """The content of one deal of the run folder ``run`` as a JSON-able dict (see module doc).

    ``symbols=False`` writes cards in letters (``AS``, ``10H``).  SimcoreError on bad input.
    """
    folder, manifest = _open_run(run)
    name = manifest["game"]
    f = CardText(symbols, RANK_ORDER.get(name, ACE_HIGH))
    rows, address = _rows(folder, manifest, deal, game, hand)
    row = _pick_option(rows, manifest, option)
    solved = manifest.get("command") == "solve"
    try:
        return _content(folder, manifest, rows, row, address, f, solved, log_plays)
    except KeyError as e:  # a part written by another simcore version, or not this game's
        raise SimcoreError(f"{folder}: the {address} row has no column {e} that "
                           f"{name} rows have") from None


def _content(folder, manifest, rows, row, address, f, solved, log_plays) -> dict[str, Any]:
    name = manifest["game"]
    lay = LAYOUTS[name](row if row is not None else rows[0], f, solved)
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
        "hands": _hand_entries(lay, f, not overview),
        "other_hands": [{"label": label, "cards": [f.card(c) for c in cards_of_hand(m)],
                         "text": f.hand(m)} for label, m in lay.extra_hands
                        if not (overview and label.startswith("final"))],
        "notes": [] if overview else lay.notes, "summary": None if overview else lay.summary,
        "after": [] if overview else lay.after,
        "table": None if overview else lay.table,
        "options": None, "dd": DD_TABLES[name](row, f) if solved else None,
        "totals": None, "game_result": None, "tricks": None, "tricks_note": None,
        "rows": [_plain(r) for r in rows] if overview else [_plain(row)],
    }
    if overview:
        content["options"] = [{"option": r["option"],
                               "summary": LAYOUTS[name](r, f, solved).summary} for r in rows]
    if manifest.get("mode") == "games":
        content["totals"] = _per_seat_or_side(rows[0], "total", name, lay.seats)
        content["game_result"] = _game_result(folder, manifest, name, lay.seats, rows[0]["game"])
    if log_plays:
        note = _no_log_note(name, manifest, address)
        if note is None and overview:
            labels = ", ".join(r["option"] for r in rows)
            note = f"tricks: pick one option with --option ({labels})"
        content["tricks_note"] = note
        if note is None:
            content["tricks"] = _tricks(name, row, lay, f)
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
        tail = f"won by {t['winner']}" + ("" if points is None else ", " + _count(points, "point"))
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
