"""``simcore advise`` / ``simcore.advise``: bad input is one line (exit 2, nothing written), every
level's numbers are those of a direct ``simcore solve`` / ``simcore simulate`` of the same deals,
and a verdict names a best option only where the paired intervals decide it.

Sizes are tiny: Euchre open-hand tables take milliseconds, heuristic runs microseconds a deal;
a pimc level of two deals checks the search level's plumbing.  Trump Friend and Spades
full-deal solves take seconds to minutes (docs/solving.md), so their open-hand rows are checked
on a solve-shaped table of real deals with known values instead; the verdicts' rules are checked
on made-up values (no kernel runs).
"""

from __future__ import annotations

import warnings

import numpy as np
import polars as pl
import pytest

import simcore
from simcore import games
from simcore.advise import LEVELS, judge, parse_request
from simcore.batch import solve_deals
from simcore.cards import parse_card
from simcore.cli import main
from simcore.games.trump_friend.advice import CALLS

EUCHRE = "JH,JD,AH,KH,9C"
SPADES = "AS,KS,QS,5S,AH,KH,4H,3D,2D,7C,6C,5C,4C"
TF = "3S,2S,AS,KS,9S,3H,AH,QD,5D,4C"


def _euchre_points(tricks, march):
    """EU-16 .. EU-18 written out: the makers' net points for their tricks."""
    return np.where(tricks == 5, march, np.where(tricks >= 3, 1, -2))


@pytest.mark.parametrize("argv, words", [
    (["spades", "--hand", "AS,KS,QS"], "has 13 cards"),
    (["spades", "--hand", "AS,AS,QS,5S,AH,KH,4H,3D,2D,7C,6C,5C,4C"], "duplicate card"),
    (["spades", "--hand", "AS,KZ,QS,5S,AH,KH,4H,3D,2D,7C,6C,5C,4C"], "malformed card"),
    (["spades", "--hand", SPADES, "--upcard", "9H"], "no upcard"),
    (["spades", "--hand", SPADES, "--rules", "nonsense=1"], "unknown rules option"),
    (["euchre", "--hand", "2H,JD,AH,KH,9C", "--upcard", "9H"], "not in the euchre deck"),
    (["euchre", "--hand", EUCHRE], "needs --upcard"),
    (["euchre", "--hand", EUCHRE, "--upcard", "JH"], "also in --hand"),
    (["trump-friend", "--hand", TF, "--options", "spades,trumps"], "unknown option 'trumps'"),
    (["trump-friend", "--hand", TF, "--levels", "pimc,expert"], "unknown level 'expert'"),
    (["trump-friend", "--hand", TF, "--pimc", "heuristic"], "search policy"),
    (["trump-friend", "--hand", TF, "--deals", "0"], "positive whole number"),
    (["gin-rummy", "--hand", TF], "answers for"),
])
def test_bad_input_is_one_line(argv, words, tmp_path, capsys):
    out = tmp_path / "advice"
    assert main(["advise", *argv, "--out", str(out)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and err.startswith("simcore: error:") and words in err, err
    assert not out.exists()


def test_euchre_levels_match_direct_runs(tmp_path, capsys, monkeypatch):
    (tmp_path / "empty").mkdir()
    out = tmp_path / "eu"
    assert main(["advise", "euchre", "--hand", EUCHRE, "--upcard", "9H", "--open-hand-deals", "60",
                 "--pimc-deals", "2", "--heuristic-deals", "300", "--seed", "4", "--out", str(out), "--quiet"]) == 0
    printed = capsys.readouterr().out
    assert "open-hand (60 deals): " in printed and "heuristic (300 deals): " in printed
    assert "pimc: not enough deals (n = " in printed  # two deals decide nothing
    assert "level      option" in printed and "95% interval" in printed
    assert {p.name for p in out.iterdir()} >= {"advise.png", "advise.csv", "advise.md", "runs"}
    table = pl.read_csv(out / "advise.csv")
    predeal = ["1=" + EUCHRE, "upcard=9H"]
    rules = {"first_dealer": "0"}
    dd = solve_deals("euchre", 60, seed=4, predeal=predeal, rules=rules).hands().collect()
    side = 5 - dd["dd_t2"].to_numpy()  # hearts are suit 2; seat 1 sits on side 1+3
    alone = dd["dd_alone1_t2"].to_numpy()

    def row(level, option):
        return table.filter((pl.col("level") == level) & (pl.col("option") == option)).row(0, named=True)

    assert row("open-hand", "order")["mean"] == pytest.approx(_euchre_points(side, 2).mean())
    assert row("open-hand", "order-alone")["mean"] == pytest.approx(_euchre_points(alone, 4).mean())
    assert row("open-hand", "order-alone")["vs_best"] == pytest.approx(
        (_euchre_points(alone, 4) - _euchre_points(side, 2)).mean() if row("open-hand", "order")["best"] else 0.0)
    for level, play in (("heuristic", ["heuristic"]), ("pimc", ["heuristic", "1=pimc", "3=pimc"])):
        n = 300 if level == "heuristic" else 2
        passed = simcore.simulate("euchre", n, seed=4, what_if="order-up", predeal=predeal, rules=rules,
                                  policy=play).hands().collect().filter(pl.col("option") == "pass")
        net = (passed["points1"].cast(pl.Int16) - passed["points0"].cast(pl.Int16)).to_numpy()
        assert row(level, "pass")["n"] == n and row(level, "pass")["mean"] == pytest.approx(net.mean())
        made = simcore.simulate("euchre", n, seed=4, what_if="alone", predeal=predeal, rules=rules,
                                policy=[*play, "order_up=always"]).hands().collect()
        made = made.filter((pl.col("maker") == 1) & (pl.col("bid_round") == 1) & (pl.col("option") == "alone"))
        net = (made["points1"].cast(pl.Int16) - made["points0"].cast(pl.Int16)).to_numpy()
        if made.height:
            assert row(level, "order-alone")["n"] == made.height
            assert row(level, "order-alone")["mean"] == pytest.approx(net.mean())
    assert "simcore solve euchre --deals 60 --seed 4" in (out / "advise.md").read_text()
    # a rerun reuses the finished runs and gives the same table
    assert main(["advise", "euchre", "--hand", EUCHRE, "--upcard", "9H", "--open-hand-deals", "60",
                 "--pimc-deals", "2", "--heuristic-deals", "300", "--seed", "4", "--out", str(out), "--quiet"]) == 0
    assert pl.read_csv(out / "advise.csv").equals(table)
    # the Python call without out writes nothing and gives the same numbers
    monkeypatch.chdir(tmp_path / "empty")
    advice = simcore.advise("euchre", ["JH", "JD", "AH", "KH", "9C"], upcard="9H", levels="heuristic",
                            deals=300, seed=4)
    assert advice.files == [] and not any((tmp_path / "empty").iterdir())
    assert not any("--out" in c for c in advice.commands)
    disk = table.filter(pl.col("level") == "heuristic")
    for column in ("option", "n", "verdict"):
        assert advice.frame[column].to_list() == disk[column].to_list()
    assert advice.frame["mean"].to_numpy() == pytest.approx(disk["mean"].to_numpy())


def test_spades_heuristic_deals_with_seat_0_dealing(tmp_path):
    result = simcore.advise("spades", SPADES, levels="heuristic", deals=800, seed=3, out=tmp_path / "sp")
    table = result.table
    # seat 1 is the first bidder when seat 0 deals: every deal of the run has dealer 0 (SP-3)
    rows = simcore.simulate("spades", 800, seed=3, what_if="nil", predeal=["1=" + SPADES],
                            rules={"first_dealer": "0"}).hands().collect()
    assert (rows["dealer"] == 0).all()
    for option in ("nil", "bid"):
        r = rows.filter(pl.col("option") == option)
        net = (r["score1"].cast(pl.Int32) - r["score0"].cast(pl.Int32)).to_numpy()
        got = table.filter(pl.col("option") == option).row(0, named=True)
        assert got["n"] == r.height and got["mean"] == pytest.approx(net.mean())
    bid = table.filter(pl.col("option") == "bid").row(0, named=True)
    assert bid["bid_mode"] == rows.filter(pl.col("option") == "bid")["bid1"].mode().min()
    assert "heuristic (800 deals): " in result.verdict


def test_trump_friend_simulate_rows_and_open_hand_rows(tmp_path):
    result = simcore.advise("trump-friend", TF, levels="heuristic", deals=200, seed=2, out=tmp_path / "tf",
                            options=["spades", "notrump", "notrump-nofriend"])
    table = result.table
    assert table["option"].to_list() == ["spades", "notrump", "notrump-nofriend"]
    for friend, option in (("highest", "spades"), ("highest", "notrump"), ("none", "notrump")):
        r = simcore.simulate("trump-friend", 200, seed=2, what_if="trump", predeal=["0=" + TF],
                             policy=[f"friend={friend}"]).hands().collect().filter(pl.col("option") == option)
        rel = r["delta0"].cast(pl.Float64) - sum(r[f"delta{s}"].cast(pl.Float64) for s in range(1, 5)) / 4
        label = option + ("-nofriend" if friend == "none" else "")
        assert table.filter(pl.col("option") == label)["mean"].item() == pytest.approx(rel.mean())
    # the open-hand rows: a solve-shaped table whose D are the points the engine's rounds gave,
    # so each relative score must equal the engine's
    calls = simcore.simulate("trump-friend", 60, seed=9, what_if="trump", predeal=["0=" + TF]).hands().collect()
    deals = calls.gather_every(5)
    frame = deals.select("deal", "hand0", "kitty").with_columns(
        *(pl.Series(f"dd_friend{t}", calls["friend_card"].to_numpy().reshape(-1, 5)[:, t]) for t in range(5)),
        *(pl.Series(f"dd_points{t}", calls["declarer_team_points"].to_numpy().reshape(-1, 5)[:, t]) for t in range(5)),
        *(pl.Series(f"dd_solo{t}", np.zeros(deals.height, np.int8)) for t in range(5)))
    rows = games.get("trump-friend").advisor.rows("open-hand", {"solve": frame.lazy()}).collect()
    engine = calls["delta0"].cast(pl.Float64) - sum(calls[f"delta{s}"].cast(pl.Float64) for s in range(1, 5)) / 4
    for t, call in enumerate(CALLS):
        got = rows.filter(pl.col("option") == call)["value"].to_numpy()
        assert got == pytest.approx(engine.to_numpy().reshape(-1, 5)[:, t])


def test_default_levels():
    """Open-hand Trump Friend and Spades deals take minutes of CPU, so those games run it only on
    request (a level given a size counts as asked); Euchre runs all three."""
    assert parse_request("euchre", EUCHRE, upcard="9H").levels == LEVELS
    assert parse_request("spades", SPADES).levels == ("pimc", "heuristic")
    req = parse_request("trump-friend", TF, level_deals={"open-hand": 3})
    assert req.levels == LEVELS and req.deals["open-hand"] == 3
    req = parse_request("trump-friend", TF, deals={"dd": 2, "pimc": 5})
    assert req.levels == LEVELS and (req.deals["open-hand"], req.deals["pimc"]) == (2, 5)
    assert parse_request("trump-friend", TF, levels="dd").levels == ("open-hand",)
    assert parse_request("trump-friend", TF).out is None  # Python writes nothing unless asked


def test_spades_open_hand_rows_and_report(tmp_path):
    """The open-hand rows of Spades (no points: a nil's tricks and the side's tricks) and the
    report's words for a level whose options have their own units, on a solve-shaped table."""
    frame = pl.DataFrame({"deal": [0, 1, 2, 3], "dd_nil1": [0, 2, 0, 1], "dd_tricks": [6, 5, 8, 4]},
                         schema={"deal": pl.UInt64, "dd_nil1": pl.Int8, "dd_tricks": pl.Int8})
    req = parse_request("spades", SPADES, levels="open-hand", deals=4)
    rows = {"open-hand": games.get("spades").advisor.rows("open-hand", {"solve": frame.lazy()}).collect()}
    result = judge(req, rows, ["simcore solve spades ..."])
    result.write(tmp_path / "sp")
    table = result.table
    nil = table.filter(pl.col("option") == "nil").row(0, named=True)
    bid = table.filter(pl.col("option") == "bid").row(0, named=True)
    assert (nil["n"], nil["win_rate"], nil["mean"]) == (4, 0.5, 0.75)
    assert bid["mean"] == pytest.approx(13 - 23 / 4) and bid["best"] is None
    assert "the nil holds (no trick taken with best play) in 50.0%" in result.verdict
    assert "Not run: pimc, heuristic" in result.verdict
    assert (tmp_path / "sp" / "advise.png").stat().st_size > 0
    assert "see below" in repr(result)  # options in units of their own: no paired verdict


@pytest.mark.parametrize("hand", [["JH", "JD", "AH", "KH", "9C"], "JH JD AH KH 9C", ("JH,JD", "AH KH", "9C"),
                                  [parse_card(c) for c in EUCHRE.split(",")], np.array([parse_card(c) for c in EUCHRE.split(",")])])
def test_the_hand_takes_python_values(hand):
    """A hand is card text or a list of card names and ids (13 * suit + rank), as everywhere in the API."""
    want = parse_request("euchre", EUCHRE, upcard="9H", rules=["target=5"])
    got = parse_request("euchre", hand, upcard=parse_card("9H"), rules={"target": 5})
    assert (got.hand, got.upcard, got.rules) == (want.hand, want.upcard, want.rules)


@pytest.mark.parametrize("kw, words", [
    ({"hand": ["JH", "JH", "AH", "KH", "9C"]}, "duplicate card in --hand: JH"),
    ({"hand": ["JH", 60, "AH", "KH", "9C"]}, "60 is not a card"),
    ({"hand": 5.5}, "takes cards such as"),
    ({"hand": EUCHRE, "deals": {"expert": 3}}, "unknown level 'expert'"),
    ({"hand": EUCHRE, "deals": {"pimc": 0}}, "--pimc-deals must be a positive whole number"),
    ({"hand": EUCHRE, "seed": -1}, "seed must be a whole number"),
    ({"hand": EUCHRE, "rules": {"target": 2.5}}, "must be a whole number"),
])
def test_bad_python_values_are_one_line(kw, words):
    with pytest.raises(simcore.SimcoreError, match=words):
        simcore.advise("euchre", upcard="9H", **kw)


def _made_up(values: dict) -> pl.DataFrame:
    """A level's rows from made-up values per option (deal k is the k-th value of each option)."""
    return pl.concat([pl.DataFrame({"deal": np.arange(len(v), dtype=np.uint64), "option": o,
                                    "value": np.asarray(v, float), "win": (np.asarray(v) > 0).astype(float)})
                      for o, v in values.items()])


def _judged(rows: dict, **sizes):
    req = parse_request("euchre", EUCHRE, upcard="9H", levels=list(rows), deals=sizes)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no NaN or division warnings on the way
        return judge(req, rows, ["simcore simulate euchre ..."])


def test_the_verdict_names_a_best_option_only_where_the_interval_decides():
    rng = np.random.default_rng(5)
    noise = rng.normal(0, 1, 400)
    rows = {"heuristic": _made_up({"pass": noise - 1.0, "order": noise + rng.normal(0, 0.1, 400),
                                   "order-alone": noise - 0.5}),  # order best by far
            "pimc": _made_up({"pass": noise[:40] + rng.normal(0, 1, 40), "order": noise[:40] + 0.05,
                              "order-alone": noise[:40] - 3})}  # pass or order: too close for 40 deals
    advice = _judged(rows, pimc=40, heuristic=400)
    assert advice.best == {"pimc": None, "heuristic": "order"}
    verdict = dict(zip(advice.frame["option"] + "@" + advice.frame["level"], advice.frame["verdict"]))
    assert verdict["order@heuristic"] == "best" and verdict["pass@heuristic"] == "worse"
    assert verdict["order-alone@pimc"] == "worse"
    assert "not decided" in verdict["pass@pimc"] + verdict["order@pimc"]
    assert "heuristic (400 deals): order is best, at" in advice.verdict
    assert "pimc (40 deals): not decided at this sample (n = 40): " in advice.verdict
    undecided = advice.table.filter((pl.col("level") == "pimc") & ~pl.col("best") & (pl.col("verdict") != "worse"))
    assert undecided["vs_best_low"].item() < 0 < undecided["vs_best_high"].item()
    assert "Best option by level: pimc not decided, heuristic order — only heuristic decides." in advice.verdict
    text = repr(advice)
    assert text.startswith("euchre: order up the upcard or pass") and "hand 9C JD JH KH AH, upcard 9H" in text
    header = next(line for line in text.splitlines() if line.startswith("level"))
    assert header.split() == ["level", "option", "n", "mean", "95%", "interval", "vs", "best", "95%", "interval",
                              "verdict"]
    table_lines = text.splitlines()[text.splitlines().index(header):][:7]
    assert len({line.index("[") for line in table_lines[1:]}) == 1  # the intervals line up
    page = advice._repr_html_()
    assert page.count("<tr") == 7 and "<th>vs best</th>" in page and "dealer&#x27;s left" in page
    assert '<tr style="font-weight: bold">' in page and "not decided at this sample (n = 40)" in page


def test_options_without_variance_and_tiny_samples():
    """Every deal the same value: intervals of width 0, no NaN, no warning; a constant difference
    decides only from MIN_CONSTANT deals; one deal or a few decide nothing."""
    rows = {"open-hand": _made_up({"order": [2.0] * 40, "order-alone": [4.0] * 40}),
            "pimc": _made_up({"pass": [1.0] * 12, "order": [1.0] * 12, "order-alone": [2.0] * 12}),
            "heuristic": _made_up({"pass": [1.0], "order": [2.0], "order-alone": [-2.0]})}
    advice = _judged(rows, pimc=12, heuristic=1, **{"open-hand": 40})
    frame = advice.frame
    alone = frame.filter(pl.col("option") == "order-alone")
    assert alone["low"].to_list()[:2] == alone["high"].to_list()[:2] == [4.0, 2.0]  # width 0
    assert alone["verdict"].to_list() == ["best", "highest mean, not decided", "not enough deals (n = 1)"]
    pimc = frame.filter(pl.col("level") == "pimc")
    assert pimc["verdict"].to_list() == ["not decided (n = 12)", "not decided (n = 12)", "highest mean, not decided"]
    one = frame.filter(pl.col("level") == "heuristic")
    assert one["low"].null_count() == 3 and one["mean"].null_count() == 0
    assert advice.best == {"open-hand": "order-alone", "pimc": None, "heuristic": None}
    assert "heuristic: not enough deals (n = 1) for a verdict." in advice.verdict
    same = _judged({"heuristic": _made_up({"pass": [1.0] * 50, "order": [1.0] * 50, "order-alone": [1.0] * 50})},
                   heuristic=50)
    assert same.frame["verdict"].to_list() == ["highest mean, not decided", "same as the best on every deal",
                                               "same as the best on every deal"]
    text = repr(advice) + repr(same) + advice._repr_html_()
    assert "nan" not in text.lower() and "None" not in text
    # a std of rounding noise (twelve 0.1s have a std of 1e-17) is no spread
    noise = _judged({"heuristic": _made_up({"pass": [0.1] * 12, "order": [0.3] * 12, "order-alone": [0.3] * 12})},
                    heuristic=12)
    assert noise.frame["low"].to_list() == pytest.approx([0.1, 0.3, 0.3])
    assert noise.frame["verdict"].to_list() == ["not decided (n = 12)", "highest mean, not decided",
                                                "same as the best on every deal"]


def test_the_figure_is_not_pyplots(tmp_path):
    """A notebook shows the chart only when asked: the Figure is not registered with pyplot."""
    import matplotlib.pyplot as plt

    advice = _judged({"heuristic": _made_up({"pass": [1.0, -2.0] * 20, "order": [2.0, 1.0] * 20,
                                             "order-alone": [3.0, -2.0] * 20})}, heuristic=40)
    before = plt.get_fignums()
    assert advice.figure.axes and plt.get_fignums() == before
    assert [p.name for p in advice.write(tmp_path / "w")] == ["advise.png", "advise.csv", "advise.md"]
    md = (tmp_path / "w" / "advise.md").read_text()
    assert "| level | option | n |" in md and "heuristic (40 deals): order is best" in md


def test_an_advisors_solve_options_reach_the_solver(monkeypatch):
    """A level's ``simcore solve`` runs with the solve options its advisor asks for (Spades: how a
    nil is solved), and its command says so."""
    from simcore import batch
    from simcore.games.advising import RunSpec

    frame = pl.DataFrame({"deal": [0, 1], "dd_nil1": [0, 1], "dd_tricks": [6, 5]},
                         schema={"deal": pl.UInt64, "dd_nil1": pl.Int8, "dd_tricks": pl.Int8})
    asked = {}

    class Solved:
        def hands(self):
            return frame.lazy()

    def solve_deals(game, deals, **kw):
        asked.update(kw)
        return Solved()

    adv = games.get("spades").advisor
    monkeypatch.setattr(type(adv), "runs", lambda self, level, predeal, rules, play: [
        RunSpec("solve", "solve", {"predeal": predeal, "rules": rules, "options": {"nil": "exact"}})])
    monkeypatch.setattr(batch, "solve_deals", solve_deals)
    advice = simcore.advise("spades", SPADES, levels="open-hand", deals=2)
    assert asked["options"] == {"nil": "exact"} and asked["out"] is None
    assert "--nil exact" in advice.commands[0] and advice.table["n"].to_list() == [2, 2]
