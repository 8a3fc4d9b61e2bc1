"""``simcore advise``: bad input is one line (exit 2, nothing written), and every level's numbers
are those of a direct ``simcore solve`` / ``simcore simulate`` of the same deals.

Sizes are tiny: Euchre open-hand tables take milliseconds, heuristic runs microseconds a deal;
a pimc level of two deals checks the search level's plumbing.  Trump Friend and Spades
full-deal solves take seconds to minutes (docs/solving.md), so their open-hand rows are checked
on a solve-shaped table of real deals with known values instead.
"""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest

import simcore
from simcore import advise, games
from simcore.batch import solve_deals
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


def test_euchre_levels_match_direct_runs(tmp_path, capsys):
    out = tmp_path / "eu"
    assert main(["advise", "euchre", "--hand", EUCHRE, "--upcard", "9H", "--open-hand-deals", "60",
                 "--pimc-deals", "2", "--heuristic-deals", "300", "--seed", "4", "--out", str(out), "--quiet"]) == 0
    printed = capsys.readouterr().out
    assert "open-hand (60 deals): best" in printed and "heuristic (300 deals): best" in printed
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


def test_spades_heuristic_deals_with_seat_0_dealing(tmp_path):
    result = advise.advise("spades", SPADES, levels="heuristic", deals=800, seed=3, out=tmp_path / "sp")
    table = result["table"]
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
    assert "heuristic (800 deals): best" in result["verdict"]


def test_trump_friend_simulate_rows_and_open_hand_rows(tmp_path):
    result = advise.advise("trump-friend", TF, levels="heuristic", deals=200, seed=2, out=tmp_path / "tf",
                           options="spades,notrump,notrump-nofriend")
    table = result["table"]
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
    assert advise.parse_request("euchre", EUCHRE, upcard="9H").levels == advise.LEVELS
    assert advise.parse_request("spades", SPADES).levels == ("pimc", "heuristic")
    req = advise.parse_request("trump-friend", TF, level_deals={"open-hand": 3})
    assert req.levels == advise.LEVELS and req.deals["open-hand"] == 3
    assert advise.parse_request("trump-friend", TF, levels="dd").levels == ("open-hand",)


def test_spades_open_hand_rows_and_report(tmp_path):
    """The open-hand rows of Spades (no points: a nil's tricks and the side's tricks) and the
    report's words for a level whose options have their own units, on a solve-shaped table."""
    frame = pl.DataFrame({"deal": [0, 1, 2, 3], "dd_nil1": [0, 2, 0, 1], "dd_tricks": [6, 5, 8, 4]},
                         schema={"deal": pl.UInt64, "dd_nil1": pl.Int8, "dd_tricks": pl.Int8})
    req = advise.parse_request("spades", SPADES, levels="open-hand", deals=4, out=tmp_path / "sp")
    (req.out / "runs").mkdir(parents=True)
    rows = {"open-hand": advise._collect(req, "open-hand", {"solve": frame.lazy()})}
    result = advise.write_report(req, rows, ["simcore solve spades ..."])
    table = result["table"]
    nil = table.filter(pl.col("option") == "nil").row(0, named=True)
    bid = table.filter(pl.col("option") == "bid").row(0, named=True)
    assert (nil["n"], nil["win_rate"], nil["mean"]) == (4, 0.5, 0.75)
    assert bid["mean"] == pytest.approx(13 - 23 / 4) and bid["best"] is None
    assert "the nil holds (no trick taken with best play) in 50.0%" in result["verdict"]
    assert "Not run: pimc, heuristic" in result["verdict"]
    assert (req.out / "advise.png").stat().st_size > 0
