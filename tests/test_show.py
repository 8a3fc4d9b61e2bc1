"""``simcore show RUN --deal K``: the printed deal is the row's deal.

The text is read back independently of simcore.show: the hand lines are parsed into masks and
compared with the row's hand columns, the trick lines are replayed (each card from its seat's
playing hand, each trick led by the previous winner, TF-6 / EU-13 / SP first leaders) to the
row's trick counts and card points, a solve run's DD table to its columns.  Every line fits in
80 columns, the JSON round-trips, and bad input is one line with exit status 2.
"""

from __future__ import annotations

import io
import json
import re
import sys

import polars as pl
import pytest

import simcore
from simcore import cli
from simcore.show import render, show, stdout_has_symbols

DEALS = 200
SHOWN = range(0, DEALS, 7)  # 29 deals of each run
RANK = {r: i for i, r in enumerate(["2", "3", "4", "5", "6", "7", "8", "9", "10",
                                    "J", "Q", "K", "A"])}
SYMBOL_SUIT = {"♣": 0, "♦": 1, "♥": 2, "♠": 3, "C": 0, "D": 1, "H": 2, "S": 3}
SEATS = {"trump-friend": 5, "euchre": 4, "spades": 4, "gin-rummy": 2, "dummy": 4}
TF_POINTS = {12: 2, 11: 1, 10: 1, 9: 1}  # TF: A = 2, K/Q/J = 1 (rank index of the card id)


def _suit(s, ranks="23456789TJQKA"):
    return ",".join(r + s for r in ranks)


# whole suits fixed so the Spades and Trump Friend solves take a moment (as test_solve_batch)
QUICK = {
    "spades": [f"0={_suit('C')}", f"1={_suit('D', '23456789TJ')},{_suit('H', '234')}",
               f"2={_suit('H', '56789TJQKA')},{_suit('S', '234')}"],
    "trump-friend": [f"{seat}={_suit(suit, '23456789TJ')}" for seat, suit in enumerate("CDHS")],
}


def _make(name, out):
    """The run called ``name`` (a game's own name: DEALS deals with --log-plays)."""
    if name in SEATS:
        return simcore.simulate(name, DEALS, seed=11, out=out, log_plays=True)
    if name == "euchre-nolog":
        return simcore.simulate("euchre", 20, seed=11, out=out)
    if name == "euchre-games":
        return simcore.simulate("euchre", 3, seed=2, mode="games", log_plays=True, out=out)
    if name == "tf-what-if":
        return simcore.simulate("trump-friend", 20, seed=3, what_if="trump", log_plays=True,
                                out=out)
    if name == "euchre-solve":
        return simcore.solve_deals("euchre", 20, seed=5, out=out)
    game = name.removesuffix("-solve")
    return simcore.solve_deals(game, 2, seed=5, predeal=QUICK[game], out=out)


class _Runs(dict):
    """Run folders made on first use, so one game's failure fails only its own tests."""

    def __init__(self, root):
        super().__init__()
        self.root = root
        self.failed = {}

    def __missing__(self, name):
        if name in self.failed:  # the same error again, not a half-written folder's
            raise self.failed[name]
        try:
            self[name] = _make(name, self.root / name).path
        except Exception as e:
            self.failed[name] = e
            raise
        return self[name]


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    return _Runs(tmp_path_factory.mktemp("show"))


def _row(run, deal, option=None):
    frame = simcore.load(run).collect()
    rows = [r for r in frame.iter_rows(named=True) if r["deal"] == deal
            and (option is None or r["option"] == option)]
    assert len(rows) == 1
    return rows[0]


# ------------------------------------------------------------------ reading the text back


def _parse_cards(text: str) -> int:
    """``♠ A K 10  ♥ -  ...`` (or ``S A K 10 ...``) -> the hand's mask."""
    mask, suit = 0, None
    for token in text.split():
        if token in SYMBOL_SUIT:
            suit = SYMBOL_SUIT[token]
        elif token != "-":
            mask |= 1 << (13 * suit + RANK[token])
    return mask


# each game's rank order, highest first (TF-3; GR-3 ace low), in which a hand lists each suit
ORDER = {"trump-friend": "3 2 A K Q J 10 9 8 7 6 5 4", "gin-rummy": "K Q J 10 9 8 7 6 5 4 3 2 A"}


def _in_game_order(game: str, text: str) -> bool:
    order = ORDER.get(game, "A K Q J 10 9 8 7 6 5 4 3 2").split()
    groups = re.split(r"[♠♥♦♣]", text)[1:]
    ranks = [[r for r in g.split() if r != "-"] for g in groups]
    return all(g == sorted(g, key=order.index) for g in ranks)


def _card(token: str) -> int:
    return 13 * SYMBOL_SUIT[token[-1]] + RANK[token[:-1]]


def _hand_lines(text: str) -> dict[str, int]:
    """label -> mask for every hand line (``seat 0  dealer  ♠ ...``, ``kitty  ♠ ...``)."""
    hands = {}
    for line in text.splitlines():
        m = re.match(r"^(seat \d|kitty|final \d)\b.*?  ([♠S] .*)$", line)
        if m:
            hands[m.group(1)] = _parse_cards(m.group(2))
    return hands


def _tricks(text: str):
    """[(plays [(seat, card)], winner, points or None)] from the trick lines."""
    tricks = []
    for line in text.splitlines():
        m = re.match(r"^ *\d+  (.*?)   won by (\d)(?:, (\d+) points?)?$", line)
        if m:
            plays = [(int(t.split(":")[0]), _card(t.split(":")[1])) for t in m.group(1).split()]
            tricks.append((plays, int(m.group(2)), None if m.group(3) is None else int(m.group(3))))
    return tricks


def _playing_hands(game, row):
    hands = [row[f"hand{s}"] for s in range(SEATS[game])]
    if game == "euchre" and row["picked_up"]:
        d = row["dealer"]
        hands[d] = (hands[d] | 1 << row["upcard"]) & ~(1 << row["discard"])
    return hands


def _first_leader(game, row):
    if game == "trump-friend":
        return (row["declarer"] + 1) % 5  # TF-6
    if game == "spades":
        return (row["dealer"] + 1) % 4
    maker_lone, defender_lone = row["alone_maker"], row["alone_defender"]  # EU-13
    if defender_lone >= 0 and maker_lone >= 0:
        return defender_lone
    lone = maker_lone if maker_lone >= 0 else defender_lone
    if lone >= 0:
        return (lone + 1) % 4
    return (row["dealer"] + 1) % 4


def _check_width(text):
    assert all(len(line) <= 80 for line in text.splitlines()), text


# ------------------------------------------------------------------ the hands and tricks


DEALT = {"trump-friend": "hand", "euchre": "hand", "spades": "dealt", "gin-rummy": "hand",
         "dummy": "hand"}


@pytest.mark.parametrize("game", list(SEATS))
def test_printed_hands_are_the_rows_cards(runs, game):
    for deal in SHOWN:
        row = _row(runs[game], deal)
        text = render(show(runs[game], deal))
        _check_width(text)
        hands = _hand_lines(text)
        assert all(_in_game_order(game, line.split("  ", 1)[1]) for line in text.splitlines()
                   if re.match(r"^(seat \d|kitty|final \d) .*♠", line))
        seats = row["players"] if game == "dummy" else SEATS[game]
        for s in range(seats):
            assert hands[f"seat {s}"] == row[f"{DEALT[game]}{s}"]
        assert f"seat {seats}" not in hands
        if "kitty" in row:
            assert hands["kitty"] == row["kitty"]
        if game == "gin-rummy":
            assert hands["final 0"] == row["final0"] and hands["final 1"] == row["final1"]


@pytest.mark.parametrize("game", ["trump-friend", "euchre", "spades"])
def test_trick_log_replays_to_the_rows_tricks_and_points(runs, game):
    for deal in SHOWN:
        row = _row(runs[game], deal)
        text = render(show(runs[game], deal, log_plays=True))
        _check_width(text)
        tricks = _tricks(text)
        assert [c for plays, _, _ in tricks for _, c in plays] == list(row["plays"])
        assert [w for _, w, _ in tricks] == list(row["trick_winners"])
        hands = _playing_hands(game, row)
        won = [0] * SEATS[game]
        points = [0] * SEATS[game]
        leader = _first_leader(game, row)
        for plays, winner, trick_points in tricks:
            assert plays[0][0] == leader
            for seat, c in plays:
                assert hands[seat] >> c & 1
                hands[seat] &= ~(1 << c)
            won[winner] += 1
            leader = winner
            if game == "trump-friend":
                counted = sum(TF_POINTS.get(c % 13, 0) for _, c in plays)
                assert trick_points == counted
                points[winner] += trick_points
        if game == "trump-friend":
            assert points == [row[f"points{s}"] for s in range(5)]
        else:
            assert won == [row[f"tricks{s}"] for s in range(4)]
        if row.get("trump", 0) >= 0:
            assert tricks


@pytest.mark.parametrize("game", list(SEATS))
def test_json_round_trips_and_matches_the_cli(runs, capsys, game):
    content = show(runs[game], 3, log_plays=True, symbols=False)
    assert json.loads(json.dumps(content)) == content
    assert cli.main(["show", str(runs[game]), "--deal", "3", "--log-plays", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == content
    assert content["rows"][0]["deal"] == 3
    assert [_parse_cards(h["text"]) for h in content["hands"]] == \
        [content["rows"][0][f"{DEALT[game]}{h['seat']}"] for h in content["hands"]]


def test_plain_letters_when_stdout_cannot_encode_symbols(runs):
    class Latin1:
        encoding = "latin-1"

    assert not stdout_has_symbols(Latin1())
    row = _row(runs["spades"], 5)
    text = render(show(runs["spades"], 5, log_plays=True, symbols=False))
    assert not set(text) & set("♠♥♦♣")
    assert _hand_lines(text)["seat 2"] == row["dealt2"]
    assert [c for plays, _, _ in _tricks(text) for _, c in plays] == list(row["plays"])


@pytest.mark.parametrize("game", ["gin-rummy", "dummy"])
def test_rummy_games_print_every_turn(runs, game):
    """A rummy run's --log-plays rows print one line a turn (Gin Rummy: the upcard offers
    too), within 80 columns, and no tricks."""
    for deal in SHOWN:
        row = _row(runs[game], deal)
        text = render(show(runs[game], deal, log_plays=True))
        _check_width(text)
        turns = [line for line in text.splitlines() if re.match(r" *\d+  seat \d  ", line)]
        passes = sum("passes the upcard" in line for line in turns)
        assert len(turns) - passes == row["turns"] and not _tricks(text)


def test_a_run_without_log_plays_says_how_to_rerun(runs):
    text = render(show(runs["euchre-nolog"], 4, log_plays=True))
    assert "rerun the run's simulate command with --log-plays" in text and not _tricks(text)
    assert not _tricks(render(show(runs["euchre"], 4)))  # no log unless asked


# ------------------------------------------------------------------ what-if, games, solve


def test_what_if_overview_and_option_rows(runs):
    run = runs["tf-what-if"]
    text = render(show(run, 6))
    _check_width(text)
    options = ["clubs", "diamonds", "hearts", "spades", "notrump"]
    for option in options:
        row = _row(run, 6, option)
        assert re.search(rf"^  {option} +trump .*", text, re.M)
        one = render(show(run, 6, option=option, log_plays=True))
        _check_width(one)
        assert f"option {option}" in one.splitlines()[0]
        assert _hand_lines(one)["seat 0"] == row["hand0"]
        points = [0] * 5
        for _, winner, p in _tricks(one):
            points[winner] += p
        assert points == [row[f"points{s}"] for s in range(5)]


def test_games_mode_is_addressed_by_game_and_hand(runs):
    run = runs["euchre-games"]
    frame = simcore.load(run).collect()
    row = frame.filter((frame["game"] == 1) & (frame["hand_no"] == 2)).row(0, named=True)
    content = show(run, game=1, hand=2, log_plays=True)
    text = render(content)
    _check_width(text)
    assert _hand_lines(text)["seat 3"] == row["hand3"]
    assert content["totals"] == [["side 0+2", row["total0"]], ["side 1+3", row["total1"]]]
    games = simcore.load(run, "games").filter(pl.col("game") == 1).collect().row(0, named=True)
    assert content["game_result"]["hands"] == games["hands"]
    assert [w for _, w, _ in _tricks(text)] == list(row["trick_winners"])


def _table(text: str, header: str) -> dict[str, list[str]]:
    """The rows of the table whose header line starts with ``header`` (label -> cells)."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.strip().startswith(header))
    rows = {}
    for line in lines[start + 1:]:
        if not line.startswith("  ") or not line.strip():
            break
        cells = re.split(r"\s{2,}", line.strip())
        rows[cells[0]] = cells[1:]
    return rows


def test_euchre_solve_table(runs):
    run = runs["euchre-solve"]
    for deal in range(20):
        row = _row(run, deal)
        text = render(show(run, deal, log_plays=True))
        _check_width(text)
        assert "a solve run has no play log" in text
        assert _hand_lines(text)["seat 1"] == row["hand1"]
        table = _table(text, "trump  0+2")
        for t, symbol in enumerate("♣♦♥♠"):
            expected = [row[f"dd_t{t}"]] + [row[f"dd_alone{s}_t{t}"] for s in range(4)]
            assert [int(v) for v in table[symbol]] == expected


def test_spades_and_trump_friend_solve_tables(runs):
    for deal in range(2):
        row = _row(runs["spades-solve"], deal)
        text = render(show(runs["spades-solve"], deal))
        _check_width(text)
        assert _hand_lines(text)["seat 0"] == row["hand0"]
        nil = _table(text, "seat 0  seat 1")["nil: fewest tricks"]
        # the default --nil safe: 0 where the nil holds, "fails" where it does not
        assert nil == [str(row[f"dd_nil{s}"]) if row[f"dd_nil_safe{s}"] else "fails" for s in range(4)]
        assert f"seats 0+2 take {row['dd_tricks']}, 1+3 take {13 - row['dd_tricks']}" in text

        row = _row(runs["trump-friend-solve"], deal)
        text = render(show(runs["trump-friend-solve"], deal, symbols=False))
        _check_width(text)
        assert _hand_lines(text)["kitty"] == row["kitty"]
        table = _table(text, "call  ")
        for t, call in enumerate(["C", "D", "H", "S", "no trump"]):
            friend, with_friend, solo = table[call]
            assert (friend == "none") == (row[f"dd_friend{t}"] < 0)
            if row[f"dd_friend{t}"] >= 0:
                assert _card(friend) == row[f"dd_friend{t}"]
            assert (int(with_friend), int(solo)) == (row[f"dd_points{t}"], row[f"dd_solo{t}"])


# ------------------------------------------------------------------ bad input


def test_bad_input_is_one_line_and_exit_2(runs, tmp_path, capsys):
    (tmp_path / "empty").mkdir()
    cases = [
        ([str(tmp_path / "nope"), "--deal", "0"], "no such run folder"),
        ([str(tmp_path / "empty"), "--deal", "0"], "not a simcore run folder"),
        ([str(runs["euchre"]), "--deal", str(DEALS)], "out of range"),
        ([str(runs["euchre"]), "--deal", "-1"], "out of range"),
        ([str(runs["euchre"])], "give --deal K"),
        ([str(runs["euchre"]), "--deal", "1", "--option", "alone"], "what-if runs"),
        ([str(runs["tf-what-if"]), "--deal", "1", "--option", "nt"], "unknown option"),
        ([str(runs["euchre-games"]), "--deal", "1"], "--game G --hand H"),
        ([str(runs["euchre-games"]), "--game", "1", "--hand", "500"], "out of range"),
        ([str(runs["euchre-games"]), "--game", "3"], "out of range"),
        ([str(runs["euchre"]), "--game", "1"], "use --deal K"),
        ([str(runs["euchre"]), "--deal", "x"], "whole number"),
    ]
    for args, words in cases:
        assert cli.main(["show", *args]) == 2, args
        captured = capsys.readouterr()
        assert captured.out == ""
        lines = captured.err.strip().splitlines()
        assert len(lines) == 1 and words in lines[0], (args, captured.err)


def test_only_the_part_holding_the_deal_is_scanned(tmp_path, monkeypatch):
    import simcore.show as show_module

    run = simcore.simulate("euchre", 200, seed=1, out=tmp_path / "parts", chunk_size=50).path
    scanned = []
    real_scan = pl.scan_parquet
    monkeypatch.setattr(show_module.pl, "scan_parquet",
                        lambda path, **kw: scanned.append(path) or real_scan(path, **kw))
    content = show(run, 120)
    assert [p.name for p in scanned] == ["part-00002.parquet"]
    assert content["rows"][0]["deal"] == 120


def test_cli_writes_letters_to_a_terminal_without_suit_symbols(runs, monkeypatch):
    out = io.TextIOWrapper(io.BytesIO(), encoding="latin-1")
    monkeypatch.setattr(sys, "stdout", out)
    assert cli.main(["show", str(runs["euchre"]), "--deal", "9"]) == 0
    out.flush()
    text = out.buffer.getvalue().decode("latin-1")
    assert not set(text) & set("♠♥♦♣")
    assert _hand_lines(text)["seat 0"] == _row(runs["euchre"], 9)["hand0"]
