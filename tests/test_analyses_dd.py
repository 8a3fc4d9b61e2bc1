"""The open-hand analyses ``trump-friend-dd`` and ``spades-dd-bids`` against plain-Python oracles.

Full-deal Trump Friend and Spades solves take seconds to minutes each (docs/solving.md), far too
slow for the suite, so the solve tables here are real deals (``simcore simulate``: hands,
kitty, declarer, dealer, friend cards) with open-hand values drawn at random: the tests check
the analyses' arithmetic (features, scoring TF-11 .. TF-13, pairing, best calls, joins), not
the solver, which tests/test_solve_*.py check against exhaustive minimax.
"""

from __future__ import annotations

import json
import shutil

import numpy as np
import polars as pl
import pytest

import simcore
from analyses import run_analysis
from simcore.cli import main
from simcore.errors import SimcoreError

TF_STRENGTH = [12, 13] + list(range(1, 12))  # TF-3 strength of public ranks 2, 3, 4 ... A


def _solve_folder(path, game, frame, manifest):
    (path / "hands").mkdir(parents=True)
    frame.write_parquet(path / "hands" / "part-00000.parquet")
    (path / "manifest.json").write_text(json.dumps({**manifest, "command": "solve", "finished": True,
                                                    "omniscient": ["open-hand"]}))
    return path


@pytest.fixture(scope="module")
def tf_solve(tmp_path_factory):
    """300 Trump Friend deals (random declarer) with random DD values and the friend cards the
    `highest` policy names for each call."""
    rules = {"first_declarer": "random"}
    calls = simcore.simulate("trump-friend", 300, seed=5, what_if="trump", rules=rules).hands().collect()
    deals = calls.gather_every(5)
    friend = calls["friend_card"].to_numpy().reshape(-1, 5)
    rng = np.random.default_rng(1)
    kitty_points = np.array([_points(int(k)) for k in deals["kitty"]])
    cols = {}
    for t in range(5):
        d = rng.integers(0, 21 - kitty_points)
        cols[f"dd_friend{t}"] = friend[:, t].astype(np.int8)
        cols[f"dd_points{t}"] = d.astype(np.int8)
        cols[f"dd_solo{t}"] = (d * rng.random(d.size)).astype(np.int8)
    frame = deals.select("seed", "deal", *(f"hand{s}" for s in range(5)), "declarer", "kitty").with_columns(
        *(pl.Series(k, v) for k, v in cols.items()))
    manifest = {"game": "trump-friend", "mode": "hands", "seed": 5, "deals": 300,
                "rules": {"losing_line": 100, "first_declarer": "random"}, "policies": {"friend": "highest"}}
    return _solve_folder(tmp_path_factory.mktemp("tfdd") / "run", "trump-friend", frame, manifest)


def _points(mask: int) -> int:
    return sum(2 if c % 13 == 12 else 1 if c % 13 in (9, 10, 11) else 0 for c in range(52) if mask >> c & 1)


def _oracle_tf(frame: pl.DataFrame):
    """Per deal, by the rules: the longest suit (length, then TF-3 rank total, then the lower
    suit, TF-5.1 as the `longest` policy), margins D - O, and the relative scores."""
    out = []
    for r in frame.iter_rows(named=True):
        hand = r[f"hand{r['declarer']}"]
        cards = [c for c in range(52) if hand >> c & 1]
        key = [(sum(1 for c in cards if c // 13 == s), sum(TF_STRENGTH[c % 13] for c in cards if c // 13 == s), -s)
               for s in range(4)]
        longest = max(range(4), key=lambda s: key[s])
        in_play = 20 - _points(r["kitty"])
        margin = [2 * r[f"dd_points{t}"] - in_play for t in range(5)]
        solo = [2 * r[f"dd_solo{t}"] - in_play for t in range(5)]
        held = r["kitty"] | hand
        rel = []
        for t in range(5):
            f = r[f"dd_friend{t}"]
            alone = f < 0 or held >> f & 1
            rel.append(margin[t] if alone else 0.75 * margin[t])
        solo_rel = [m + r[f"dd_solo{t}"] if m > 0 else m for t, m in enumerate(solo)]  # 2D - O on a win (TF-13)
        best = [t for t in range(5) if margin[t] == max(margin)]
        kinds = ["no trump" if t == 4 else "a longest suit" if key[t][0] == key[longest][0] else "another suit"
                 for t in best]
        out.append({"nt_change": margin[4] - margin[longest], "friend_change": solo_rel[longest] - rel[longest],
                    "friend_win_change": (solo[longest] > 0) - (margin[longest] > 0),
                    "win_change": (margin[4] > 0) - (margin[longest] > 0),  # TF-12: D > O wins, D < O costs D - O
                    "delta_change": min(margin[4], 0) - min(margin[longest], 0),
                    "best_nt": kinds.count("no trump") / len(kinds), "longest_length": key[longest][0],
                    "margins": margin, "length": [key[t][0] for t in range(4)]})
    return out


def test_trump_friend_dd_matches_oracle(tf_solve, tmp_path):
    written = run_analysis("trump-friend-dd", tf_solve, tmp_path)
    assert {p.name for p in written} >= {"trump_friend_dd.png", "trump_friend_dd.csv", "trump_friend_dd_best.csv",
                                         "trump_friend_dd_notrump.csv", "trump_friend_dd_friend.csv",
                                         "trump_friend_dd.md"}
    frame = pl.read_parquet(tf_solve / "hands" / "*.parquet")
    oracle = _oracle_tf(frame)
    nt = pl.read_csv(tmp_path / "trump_friend_dd_notrump.csv")
    every = nt.filter(pl.col("feature") == "all").row(0, named=True)
    assert every["n"] == 300
    assert every["nt_change"] == pytest.approx(np.mean([o["nt_change"] for o in oracle]))
    assert every["nt_change_std"] == pytest.approx(np.std([o["nt_change"] for o in oracle], ddof=1))
    five = nt.filter((pl.col("feature") == "longest_length") & (pl.col("value") == 5)).row(0, named=True)
    assert five["nt_change"] == pytest.approx(np.mean([o["nt_change"] for o in oracle if o["longest_length"] == 5]))
    friend = pl.read_csv(tmp_path / "trump_friend_dd_friend.csv").filter(pl.col("feature") == "all").row(0, named=True)
    assert friend["friend_change"] == pytest.approx(np.mean([o["friend_change"] for o in oracle]))
    best = pl.read_csv(tmp_path / "trump_friend_dd_best.csv")
    assert (best["best_no_trump"] * best["n"]).sum() == pytest.approx(sum(o["best_nt"] for o in oracle))
    assert best["n"].sum() == 300
    by_call = pl.read_csv(tmp_path / "trump_friend_dd.csv")
    g = by_call.filter((pl.col("friend") == "highest-trump friend") & (pl.col("kind") == "no trump")
                       & (pl.col("length") == 4)).row(0, named=True)
    want = [o["margins"][4] for o in oracle if o["longest_length"] == 4]
    assert g["n"] == len(want) and g["margin"] == pytest.approx(np.mean(want))
    assert g["successes"] == sum(m > 0 for m in want)
    md = (tmp_path / "trump_friend_dd.md").read_text()
    assert "300 deals" in md and "simcore analyze trump-friend-dd" in md
    from analyses.trump_friend_dd import min_group

    # the chart draws groups of n >= 10 from 200 deals up, smaller ones (at least 3) in small runs
    assert [min_group(n) for n in (10, 40, 100, 200, 300)] == [3, 3, 5, 10, 10]


def test_trump_call_reads_a_solve_run_as_its_open_hand_level(tf_solve, tmp_path):
    """trump-call over a what-if run and a solve run: the open-hand level answers trump-call's
    paired no-trump questions (win D > O, the declarer's score change) from the DD points."""
    from analyses.trump_call import NOTRUMP_DELTA, NOTRUMP_WIN

    play = simcore.simulate("trump-friend", 200, seed=6, what_if="trump", out=tmp_path / "play").path
    written = run_analysis("trump-call", [play, tf_solve], tmp_path / "lv")
    table = pl.read_csv(written[2])
    assert set(table["level"]) == {"heuristic", "open-hand"}
    oracle = _oracle_tf(pl.read_parquet(tf_solve / "hands" / "*.parquet"))
    for question, key in ((NOTRUMP_WIN, "win_change"), (NOTRUMP_DELTA, "delta_change")):
        rows = table.filter(pl.col("question") == question)
        assert sorted(rows["level"]) == ["heuristic", "open-hand"], question
        mine = rows.filter(pl.col("level") == "open-hand").row(0, named=True)
        assert mine["n"] == 300 and mine["value"] == pytest.approx(np.mean([o[key] for o in oracle]))
        assert mine["low"] <= mine["value"] <= mine["high"]
    assert (tmp_path / "lv" / "open-hand" / "trump_friend_dd.png").is_file()
    assert "Level **open-hand**" in written[0].read_text()
    assert not any(q.startswith("No friend") for q in table["question"])  # friend-call's questions


def test_friend_call_reads_a_solve_run_as_its_open_hand_level(tf_solve, tmp_path):
    """friend-call over a what-if run and a solve run: the open-hand level answers friend-call's
    own paired questions (win D > O with no friend against the friend, the relative score), in
    its words, and none of trump-call's; trump-call's open-hand level none of friend-call's."""
    from analyses.friend_call import FRIEND_RELATIVE, FRIEND_WIN
    from analyses.trump_call import NOTRUMP_WIN

    play = simcore.simulate("trump-friend", 200, seed=6, what_if="friend", out=tmp_path / "play").path
    written = run_analysis("friend-call", [play, tf_solve], tmp_path / "lv")
    table = pl.read_csv(written[2])
    assert sorted(set(table["question"])) == sorted({FRIEND_WIN, FRIEND_RELATIVE})
    oracle = _oracle_tf(pl.read_parquet(tf_solve / "hands" / "*.parquet"))
    for question, key in ((FRIEND_WIN, "friend_win_change"), (FRIEND_RELATIVE, "friend_change")):
        rows = table.filter(pl.col("question") == question)
        assert sorted(rows["level"]) == ["heuristic", "open-hand"], question
        mine = rows.filter(pl.col("level") == "open-hand").row(0, named=True)
        assert mine["n"] == 300 and mine["value"] == pytest.approx(np.mean([o[key] for o in oracle]))
    summary = written[0].read_text()
    assert "Level **open-hand**" in summary and NOTRUMP_WIN not in summary


def _contracts(spades_runs):
    """(contract, open-hand tricks, tricks taken) of every side with two numeric bids, and
    (dd_nil, tricks) of every nil bid (not blind), from the rows."""
    solve = pl.read_parquet(spades_runs / "solve" / "hands" / "*.parquet")
    play = pl.read_parquet(spades_runs / "play" / "hands" / "*.parquet")
    sides, nils = [], []
    for p, s in zip(play.iter_rows(named=True), solve.iter_rows(named=True)):
        for side in (0, 1):
            if p[f"bid{side}"] > 0 and p[f"bid{side + 2}"] > 0 and not p[f"blind{side}"] and not p[f"blind{side + 2}"]:
                dd = s["dd_tricks"] if side == 0 else 13 - s["dd_tricks"]
                sides.append((p[f"bid{side}"] + p[f"bid{side + 2}"], dd, p[f"tricks{side}"] + p[f"tricks{side + 2}"]))
        nils += [(s[f"dd_nil{k}"], p[f"tricks{k}"]) for k in range(4) if p[f"bid{k}"] == 0 and not p[f"blind{k}"]]
    return sides, nils


def test_spades_bids_reads_a_solve_run_as_its_open_hand_level(spades_runs, tmp_path):
    """spades-bids over a simulate run and a solve + simulate folder: both levels answer "a side's
    tricks minus its contract" (in play; open-handed) and "nil bids that succeed" (held in play;
    DD-safe) on the same bids."""
    from analyses.spades_bids import NIL_CHOSEN, SIDE_QUESTION

    written = run_analysis("spades-bids", [spades_runs / "play", spades_runs], tmp_path / "lv")
    table = pl.read_csv(written[2])
    sides, nils = _contracts(spades_runs)
    got = {(r["question"], r["level"]): r for r in table.iter_rows(named=True)}
    assert got[(SIDE_QUESTION, "heuristic")]["value"] == pytest.approx(np.mean([t - c for c, _, t in sides]))
    assert got[(SIDE_QUESTION, "open-hand")]["value"] == pytest.approx(np.mean([d - c for c, d, _ in sides]))
    assert got[(SIDE_QUESTION, "open-hand")]["n"] == len(sides) == got[(SIDE_QUESTION, "heuristic")]["n"]
    assert len(nils) > 0
    assert got[(NIL_CHOSEN, "heuristic")]["value"] == pytest.approx(np.mean([t == 0 for _, t in nils]))
    assert got[(NIL_CHOSEN, "open-hand")]["value"] == pytest.approx(np.mean([d == 0 for d, _ in nils]))
    bids = pl.read_csv(tmp_path / "lv" / "open-hand" / "spades_dd_bids_nil_bids.csv").filter(pl.col("feature") == "all")
    assert bids["held_in_play"].item() == sum(t == 0 for _, t in nils)
    with pytest.raises(SimcoreError, match="open-hand table .*use spades-dd-bids"):
        run_analysis("spades-bids", spades_runs / "solve", tmp_path / "x")


def test_relative_score_matches_the_engine_scoring():
    """TF-12/TF-13 as the analysis writes them (from D and the kitty) against the engine's own
    score changes, on played rounds with and without a friend."""
    import analyses.trump_friend_dd as tfdd

    for friend in ("highest", "none"):
        rows = simcore.simulate("trump-friend", 400, seed=2, policy=[f"friend={friend}"]).hands().collect()
        d = pl.col("declarer_team_points").cast(pl.Int16)
        in_play = 20 - tfdd.card_points(pl.col("kitty"))
        if friend == "none":
            ours = tfdd.relative_score(d, in_play, "none")
        else:
            alone = (pl.col("friend_seat") < 0) | (pl.col("friend_seat") == 0)
            ours = pl.when(alone).then(tfdd.relative_score(d, in_play, "alone")).otherwise(
                tfdd.relative_score(d, in_play, "player"))
        engine = pl.col("delta0").cast(pl.Float64) - sum(pl.col(f"delta{s}").cast(pl.Float64) for s in range(1, 5)) / 4
        got = rows.select(ours.alias("ours"), engine.alias("engine"))
        assert got["ours"].to_list() == pytest.approx(got["engine"].to_list())


@pytest.fixture(scope="module")
def spades_runs(tmp_path_factory):
    """A folder with a spades simulate run and a solve table of the same deals (random DD values)."""
    root = tmp_path_factory.mktemp("spdd")
    play = simcore.simulate("spades", 400, seed=7, out=root / "play")
    deals = play.hands().collect()
    rng = np.random.default_rng(2)
    frame = deals.select("seed", "deal", *(pl.col(f"dealt{s}").alias(f"hand{s}") for s in range(4)), "dealer").with_columns(
        pl.Series("dd_tricks", rng.integers(0, 14, deals.height).astype(np.int8)),
        *(pl.Series(f"dd_nil{s}", np.maximum(rng.integers(-3, 4, deals.height), 0).astype(np.int8)) for s in range(4)))
    m = json.loads((root / "play" / "manifest.json").read_text())
    _solve_folder(root / "solve", "spades", frame, {k: m[k] for k in ("game", "mode", "seed", "deals", "rules",
                                                                        "predeal", "conditions")} | {"policies": {}})
    return root


def test_spades_dd_bids_matches_oracle(spades_runs, tmp_path):
    run_analysis("spades-dd-bids", spades_runs, tmp_path)
    solve = pl.read_parquet(spades_runs / "solve" / "hands" / "*.parquet")
    play = pl.read_parquet(spades_runs / "play" / "hands" / "*.parquet")
    nil = pl.read_csv(tmp_path / "spades_dd_bids_nil.csv")
    spade_count = {}
    for r in solve.iter_rows(named=True):
        for s in range(4):
            k = bin(r[f"hand{s}"] >> 39 & 0x1FFF).count("1")
            n, ok = spade_count.get(k, (0, 0))
            spade_count[k] = (n + 1, ok + (r[f"dd_nil{s}"] == 0))
    for k, (n, ok) in spade_count.items():
        row = nil.filter((pl.col("feature") == "spades") & (pl.col("value") == k)).row(0, named=True)
        assert (row["n"], row["successes"]) == (n, ok)
    assert nil.filter(pl.col("feature") == "all")["n"].item() == 1600
    by_bid = pl.read_csv(tmp_path / "spades_dd_bids_by_bid.csv")
    rows = []
    for p, s in zip(play.iter_rows(named=True), solve.iter_rows(named=True)):
        for side in (0, 1):
            if p[f"bid{side}"] > 0 and p[f"bid{side + 2}"] > 0 and not p[f"blind{side}"] and not p[f"blind{side + 2}"]:
                dd = s["dd_tricks"] if side == 0 else 13 - s["dd_tricks"]
                rows.append((p[f"bid{side}"] + p[f"bid{side + 2}"], dd, p[f"tricks{side}"] + p[f"tricks{side + 2}"]))
    assert by_bid["n"].sum() == len(rows)
    c = max(set(r[0] for r in rows), key=lambda b: sum(r[0] == b for r in rows))
    row = by_bid.filter(pl.col("contract") == c).row(0, named=True)
    mine = [r for r in rows if r[0] == c]
    assert row["n"] == len(mine)
    assert row["dd_tricks"] == pytest.approx(np.mean([r[1] for r in mine]))
    assert row["real_tricks"] == pytest.approx(np.mean([r[2] for r in mine]))
    assert row["successes"] == sum(r[1] >= c for r in mine)


@pytest.mark.parametrize("mode", ["safe", "none"])
def test_spades_dd_bids_reads_nil_safe_and_none_runs(spades_runs, tmp_path, mode):
    """A `--nil safe` run (dd_nil 0 or null, dd_nil_safe) gives the same DD-safe counts and no mean
    nil tricks; a `--nil none` run no nil table, the tricks tables as before."""
    exact = pl.read_parquet(spades_runs / "solve" / "hands" / "*.parquet")
    safe = [(pl.col(f"dd_nil{s}") == 0) for s in range(4)]
    frame = exact.with_columns(
        *((pl.when(c).then(0).otherwise(None) if mode == "safe" else pl.lit(None)).cast(pl.Int8).alias(f"dd_nil{s}")
          for s, c in enumerate(safe)),
        *((c if mode == "safe" else pl.lit(None, pl.Boolean)).alias(f"dd_nil_safe{s}") for s, c in enumerate(safe)))
    manifest = json.loads((spades_runs / "solve" / "manifest.json").read_text())
    root = tmp_path / "runs"
    root.mkdir()
    shutil.copytree(spades_runs / "play", root / "play")
    _solve_folder(root / "solve", "spades", frame, {k: v for k, v in manifest.items()
                                                    if k not in ("command", "finished", "omniscient")}
                  | {"options": {"nil": mode}})
    run_analysis("spades-dd-bids", spades_runs, tmp_path / "exact")
    run_analysis("spades-dd-bids", root, tmp_path / mode)
    for table in ("tricks", "by_bid"):
        assert pl.read_csv(tmp_path / mode / f"spades_dd_bids_{table}.csv").equals(
            pl.read_csv(tmp_path / "exact" / f"spades_dd_bids_{table}.csv"))
    if mode == "none":
        assert not (tmp_path / mode / "spades_dd_bids_nil.csv").exists()
        assert "--nil none" in (tmp_path / mode / "spades_dd_bids.md").read_text()
        return
    ours = pl.read_csv(tmp_path / mode / "spades_dd_bids_nil.csv")
    theirs = pl.read_csv(tmp_path / "exact" / "spades_dd_bids_nil.csv")
    assert ours.select("feature", "value", "n", "successes").equals(theirs.select("feature", "value", "n", "successes"))
    assert "dd_nil" not in ours.columns and "dd_nil" in theirs.columns
    for table in ("nil_bids",):
        assert pl.read_csv(tmp_path / mode / f"spades_dd_bids_{table}.csv").equals(
            pl.read_csv(tmp_path / "exact" / f"spades_dd_bids_{table}.csv"))


def test_spades_dd_bids_solve_alone_and_refusals(spades_runs, tmp_path, capsys):
    written = run_analysis("spades-dd-bids", spades_runs / "solve", tmp_path)
    assert not (tmp_path / "spades_dd_bids_by_bid.csv").exists() and len(written) == 4
    assert main(["analyze", "spades-dd-bids", "--data", str(spades_runs / "play"), "--out", str(tmp_path / "x")]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "simcore solve spades" in err
    with pytest.raises(SimcoreError, match="trump-friend"):
        run_analysis("trump-friend-dd", spades_runs / "solve", tmp_path / "y")


def test_open_hand_analyses_side_by_side(tf_solve, spades_runs, tmp_path):
    """Two solve runs as two levels (``--label``): each level's claims are read back from its tables."""
    import shutil

    other = tmp_path / "tf-copy"
    shutil.copytree(tf_solve, other)
    run_analysis("trump-friend-dd", [tf_solve, other], tmp_path / "tf", labels=[f"{other}=copy"])
    claims = pl.read_csv(tmp_path / "tf" / "trump_friend_dd_levels.csv")
    assert claims["question"].n_unique() == 5 and claims.height == 10
    nt = pl.read_csv(tmp_path / "tf" / "copy" / "trump_friend_dd_notrump.csv").filter(pl.col("feature") == "all")
    mine = claims.filter(pl.col("question") == "No trump instead of the longest suit (open-hand margin, paired)")
    assert mine["value"].to_list() == pytest.approx([nt["nt_change"].item()] * 2)
    run_analysis("spades-dd-bids", [spades_runs / "solve", spades_runs], tmp_path / "sp",
                 labels=[f"{spades_runs}=with-bids"])
    claims = pl.read_csv(tmp_path / "sp" / "spades_dd_bids_levels.csv")
    assert claims.filter(pl.col("level") == "open-hand").height == 1  # the solve run alone: DD-safe hands
    assert claims.filter(pl.col("level") == "with-bids").height == 3  # with the bids: contracts and nil bids
