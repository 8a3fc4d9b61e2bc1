"""Analyses: interval helpers against textbook values, exact dealing laws against brute force,
and every analysis run on a small generated dataset with sane tables."""

from __future__ import annotations

import itertools
import json
import math
import shutil

import numpy as np
import polars as pl
import pytest
from scipy import stats

import simcore
from analyses import ANALYSES, run_analysis
from analyses import dealing_check as dc
from analyses.stats import chi_square, t_interval, wilson
from simcore.errors import SimcoreError

# ---------------------------------------------------------------- interval helpers


@pytest.mark.parametrize("k, n, low, high", [
    # Newcombe (1998), Statistics in Medicine 17:857, Table I, method 3 (Wilson score)
    (81, 263, 0.2553, 0.3662),
    (15, 148, 0.0624, 0.1605),
    (0, 20, 0.0000, 0.1611),
    (1, 29, 0.0061, 0.1718),
])
def test_wilson_matches_textbook_values(k, n, low, high):
    lo, hi = wilson([k], [n])
    assert lo[0] == pytest.approx(low, abs=5e-5)
    assert hi[0] == pytest.approx(high, abs=5e-5)


def test_wilson_matches_scipy_on_random_counts():
    rng = np.random.default_rng(7)
    n = rng.integers(1, 5000, 200)
    k = rng.integers(0, n + 1)
    lo, hi = wilson(k, n)
    for i in range(len(n)):
        ci = stats.binomtest(int(k[i]), int(n[i])).proportion_ci(0.95, method="wilson")
        assert lo[i] == pytest.approx(ci.low, abs=1e-9) and hi[i] == pytest.approx(ci.high, abs=1e-9)
    assert np.all(lo <= k / n) and np.all(k / n <= hi)
    assert np.isnan(wilson([0], [0])[0][0])


def test_t_interval_matches_textbook_and_scipy():
    # mean 10, s = 2, n = 16: t(0.975, 15) = 2.131 -> 10 ± 1.0658
    lo, hi = t_interval([10.0], [2.0], [16])
    assert lo[0] == pytest.approx(10 - 2.1314 * 0.5, abs=1e-3)
    assert hi[0] == pytest.approx(10 + 2.1314 * 0.5, abs=1e-3)
    ref = stats.t.interval(0.95, 15, loc=10, scale=2 / 4)
    assert (lo[0], hi[0]) == pytest.approx(ref)
    assert np.isnan(t_interval([1.0], [0.0], [1])[0][0])


def test_chi_square_matches_scipy_without_pooling_and_pools_small_bins():
    obs = [18, 22, 30, 30]
    p = [0.2, 0.2, 0.3, 0.3]
    stat, dof, pv = chi_square(obs, p)
    ref = stats.chisquare(obs, np.array(p) * sum(obs))
    assert stat == pytest.approx(ref.statistic) and pv == pytest.approx(ref.pvalue) and dof == 3
    # the last two bins expect 1 each: pooled into one bin expecting 2, then into the one before
    stat, dof, pv = chi_square([50, 48, 1, 1], [0.49, 0.49, 0.01, 0.01])
    assert dof == 1 and 0 <= pv <= 1
    assert chi_square([1, 1], [1.0, 0.0])[2] == 0.0  # a card count the exact law forbids


# ---------------------------------------------------------------- exact laws (oracle: brute force)


def test_exact_laws_match_brute_force_on_the_euchre_deck():
    cards = dc.deck("euchre")
    hcp = dc.POINTS["spades"][2]
    lengths, patterns, points = np.zeros(6), {}, {}
    combos = list(itertools.combinations(cards, 5))
    for hand in combos:
        suits = [sum(1 for c in hand if c // 13 == s) for s in range(4)]
        lengths[suits[0]] += 1
        name = dc.pattern_name(suits)
        patterns[name] = patterns.get(name, 0) + 1
        p = sum(hcp.get(c, 0) for c in hand)
        points[p] = points.get(p, 0) + 1
    total = len(combos)
    assert dc.suit_length_law(24, 6, 5) == pytest.approx(list(lengths / total))
    law = dc.pattern_law(6, 5)
    assert set(law) == set(patterns)
    assert all(law[k] == pytest.approx(v / total) for k, v in patterns.items())
    law = dc.points_law(cards, hcp, 5)
    assert all(law[k] == pytest.approx(v / total) for k, v in points.items())
    assert sum(law.values()) == pytest.approx(1)


def test_exact_laws_give_the_bridge_textbook_figures():
    law = dc.pattern_law(13, 13)
    assert law["4-4-3-2"] == pytest.approx(0.2155, abs=5e-5)
    assert law["4-3-3-3"] == pytest.approx(0.1054, abs=5e-5)
    hcp = dc.points_law(dc.deck("spades"), dc.POINTS["spades"][2], 13)
    assert hcp[10] == pytest.approx(0.0941, abs=5e-5)
    assert dc.suit_length_law(52, 13, 13) == pytest.approx(
        [stats.hypergeom(52, 13, 13).pmf(k) for k in range(14)])


# ---------------------------------------------------------------- analyses on generated runs


def _what_if_folder(tmp, name, game, deals, seed, arms, what_if):
    """A what-if-shaped run folder made from runs that differ in one decision policy (the same
    seed deals the same cards): one row per (deal, option), deal-major, with ``option``."""
    frames = []
    for label, policy in arms:
        run = simcore.simulate(game, deals, seed=seed, policy=policy)
        frames.append(run.hands().collect().with_columns(pl.lit(label).alias("option")))
    rows = pl.concat(frames).sort("deal", maintain_order=True)
    folder = tmp / name
    (folder / "hands").mkdir(parents=True)
    rows.write_parquet(folder / "hands" / "part-00000.parquet")
    manifest = dict(run.manifest, what_if=what_if)
    (folder / "manifest.json").write_text(json.dumps(manifest))
    return folder, deals


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("runs")
    made = {}
    for name, game, n, kw in [
        ("spades", "spades", 3000, {}),
        ("euchre", "euchre", 3000, {}),
        ("gin", "gin-rummy", 1500, {}),
        ("tf", "trump-friend", 3000, {"policy": ["trump=random"]}),
        ("knock/at2", "gin-rummy", 150, {"mode": "games", "policy": ["knock=at2"]}),
        ("knock/limit", "gin-rummy", 150, {"mode": "games", "policy": ["knock=limit"]}),
    ]:
        simcore.simulate(game, n, seed=11, out=tmp / name, **kw)
        made[name] = (tmp / name, n)
    made["spades-nil"] = _what_if_folder(tmp, "spades-nil", "spades", 1500, 12,
                                         [("nil", ["nil=always"]), ("bid", ["nil=never"])], "nil")
    made["euchre-order"] = _what_if_folder(tmp, "euchre-order", "euchre", 1500, 12,
                                           [("order", ["order_up=always"]), ("pass", ["order_up=never"])], "order-up")
    return made


def _csv(out, name):
    return pl.read_csv(out / f"{name}.csv")


def _check_rates(t: pl.DataFrame, prefix: str = "rate"):
    r = t.drop_nulls(prefix)
    assert r[prefix].is_between(0, 1).all()
    assert (r[f"{prefix}_low"] <= r[prefix] + 1e-12).all() and (r[prefix] <= r[f"{prefix}_high"] + 1e-12).all()


def _check_means(t: pl.DataFrame, prefix: str):
    r = t.drop_nulls(f"{prefix}_low").filter(pl.col(f"{prefix}_low").is_not_nan())
    assert (r[f"{prefix}_low"] <= r[prefix] + 1e-9).all() and (r[prefix] <= r[f"{prefix}_high"] + 1e-9).all()


def _written(paths, out, *names):
    assert {p.name for p in paths} >= set(names)
    for name in names:
        assert (out / name).stat().st_size > 0


@pytest.mark.parametrize("name", ["spades", "euchre", "gin", "tf"])
def test_dealing_check_counts_every_deal_and_fits_the_exact_laws(runs, tmp_path, name):
    folder, n = runs[name]
    paths = run_analysis("dealing-check", folder, tmp_path)
    _written(paths, tmp_path, "dealing_check.png", "dealing_check.csv", "dealing_check_tests.csv", "dealing_check.md")
    table = _csv(tmp_path, "dealing_check")
    sums = table.group_by("test").agg(pl.col("observed").sum(), pl.col("expected").sum(), pl.col("expected_share").sum())
    assert (sums["observed"] == n).all()
    assert sums["expected"].to_numpy() == pytest.approx(n)
    assert sums["expected_share"].to_numpy() == pytest.approx(1)
    tests = _csv(tmp_path, "dealing_check_tests")
    assert tests["p_value"].is_between(0, 1).all()
    # uniform deals: 5-6 tests at once, Bonferroni at 0.001 overall
    assert tests["p_value"].min() > 0.001 / tests.height
    _check_rates(table.rename({"observed_share": "rate", "share_low": "rate_low", "share_high": "rate_high"}))
    assert "chi-square" in (tmp_path / "dealing_check.md").read_text()


def test_dealing_check_detects_a_biased_deal(runs, tmp_path):
    """Keep only deals whose seat 0 holds a spade: the spades-length test must fail."""
    folder, _ = runs["tf"]
    biased = tmp_path / "biased"
    shutil.copytree(folder, biased)
    part = biased / "hands" / "part-00000.parquet"
    frame = pl.read_parquet(part)
    frame.filter((pl.col("hand0") // pl.lit(1 << 39, dtype=pl.UInt64)) > 0).write_parquet(part)
    run_analysis("dealing-check", biased, tmp_path / "out")
    tests = _csv(tmp_path / "out", "dealing_check_tests")
    assert tests.filter(pl.col("test") == "spades length")["p_value"][0] < 1e-6
    assert "do NOT match" in (tmp_path / "out" / "dealing_check.md").read_text()


def test_spades_bids_tables_add_up(runs, tmp_path):
    folder, n = runs["spades"]
    paths = run_analysis("spades-bids", folder, tmp_path)
    _written(paths, tmp_path, "spades_bids.png", "spades_bids_heatmap.csv", "spades_bids_by_bid.csv", "spades_bids_nil.csv")
    heat, by_bid, nil = (_csv(tmp_path, f"spades_bids_{t}") for t in ("heatmap", "by_bid", "nil"))
    rows = pl.read_parquet(folder / "hands")
    numeric = sum(((rows[f"bid{s}"] > 0) & ~rows[f"blind{s}"]).sum() for s in range(4))
    nils = sum(((rows[f"bid{s}"] == 0) & ~rows[f"blind{s}"]).sum() for s in range(4))
    assert heat["count"].sum() == by_bid["n"].sum() == numeric  # all four seats bid heuristic
    assert heat.group_by("bid").agg(pl.col("share_of_bid").sum())["share_of_bid"].to_numpy() == pytest.approx(1)
    for feature in ("spades", "high_cards"):
        assert nil.filter(pl.col("feature") == feature)["n"].sum() == nils
    _check_rates(by_bid, "made_rate")
    _check_rates(nil)
    _check_means(by_bid, "mean_tricks")
    assert "observational" in (tmp_path / "spades_bids.md").read_text()


def test_spades_bids_uses_what_if_rows_when_present(runs, tmp_path):
    folder, n = runs["spades-nil"]
    run_analysis("spades-bids", folder, tmp_path)
    nil = _csv(tmp_path, "spades_bids_nil")
    # every deal's first bidder bid nil in the nil arm: one nil row per deal per feature
    assert nil.filter(pl.col("feature") == "spades")["n"].sum() == n
    _check_rates(nil)
    _check_means(nil, "score_change")
    assert "what-if nil" in (tmp_path / "spades_bids.md").read_text()


def test_euchre_makers_tables_add_up(runs, tmp_path):
    folder, n = runs["euchre"]
    paths = run_analysis("euchre-makers", folder, tmp_path)
    _written(paths, tmp_path, "euchre_makers.png", "euchre_makers.csv", "euchre_makers.md")
    t = _csv(tmp_path, "euchre_makers")
    played = pl.read_parquet(folder / "hands").filter(pl.col("trump") >= 0).height
    sums = t.group_by("kind", "feature").agg(pl.col("n").sum())
    total = lambda kind: sums.filter(pl.col("kind") == kind)["n"].to_list()  # noqa: E731
    for kind in ("ordered up (round 1)", "named (round 2)", "alone", "with partner"):
        assert len(set(total(kind))) == 1  # trumps, bowers and position split the same hands
    assert total("ordered up (round 1)")[0] + total("named (round 2)")[0] == played
    assert total("alone")[0] + total("with partner")[0] == played
    assert t["value"].filter(t["feature"] == "trumps").is_between(0, 5).all()
    assert t["value"].filter(t["feature"] == "bowers").is_between(0, 2).all()
    _check_rates(t)
    _check_rates(t, "march_rate")
    _check_means(t, "points")
    assert (t["marches"] <= t["successes"]).all()


def test_euchre_makers_uses_what_if_rows_when_present(runs, tmp_path):
    folder, n = runs["euchre-order"]
    paths = run_analysis("euchre-makers", folder, tmp_path)
    w = _csv(tmp_path, "euchre_makers_whatif")
    assert w.filter(pl.col("feature") == "trumps")["n"].sum() == n  # one paired difference per deal
    _check_means(w, "change")
    assert "what-if order-up" in (tmp_path / "euchre_makers.md").read_text()
    assert any(p.name == "euchre_makers_whatif.csv" for p in paths)


def test_gin_knock_compares_a_folder_of_runs(runs, tmp_path):
    folder, n = runs["knock/at2"]
    paths = run_analysis("gin-knock", folder.parent, tmp_path)
    _written(paths, tmp_path, "gin_knock.png", "gin_knock.csv", "gin_knock.md")
    t = _csv(tmp_path, "gin_knock")
    assert t["threshold"].to_list() == [2, 10] and t["knock"].to_list() == ["at2", "limit"]
    assert (t["n"] == n).all() and ((t["wins0"] + t["wins1"]) == t["n"]).all()
    for prefix in ("win_rate0", "win_rate1", "first_player_rate"):
        _check_rates(t, prefix)
    assert "2 runs" in (tmp_path / "gin_knock.md").read_text()


def test_gin_knock_first_player_on_a_hands_run(runs, tmp_path):
    folder, n = runs["gin"]
    run_analysis("gin-knock", folder, tmp_path)
    t = _csv(tmp_path, "gin_knock")
    rows = pl.read_parquet(folder / "hands")
    decided = rows.filter(pl.col("winner") >= 0)
    assert t["n"][0] == decided.height
    assert t["first_wins"][0] == (decided["winner"] != decided["dealer"]).sum()
    _check_rates(t, "first_player_rate")
    _check_means(t, "points0")


def test_trump_call_still_runs_through_the_registry(runs, tmp_path):
    folder, n = runs["tf"]
    run_analysis("trump-call", folder, tmp_path)
    assert pl.read_csv(tmp_path / "trump_call.csv")["n"].sum() == n


def test_dummy_advantage(tmp_path):
    from simcore import games

    try:
        games.get("dummy")
    except SimcoreError as e:
        pytest.skip(f"the game dummy is not registered in this simcore yet ({e})")
    for players in (2, 4):
        simcore.simulate("dummy", 600, seed=3, out=tmp_path / "runs" / f"p{players}", rules={"players": players})
    paths = run_analysis("dummy-advantage", tmp_path / "runs", tmp_path / "out")
    _written(paths, tmp_path / "out", "dummy_advantage.png", "dummy_advantage.csv", "dummy_advantage_speto.csv")
    t = _csv(tmp_path / "out", "dummy_advantage")
    assert sorted(t["players"].unique().to_list()) == [2, 4]
    for players in (2, 4):
        g = t.filter(pl.col("players") == players)
        assert g["position"].to_list() == list(range(players)) and (g["n"] == 600).all()
    _check_means(t, "score")
    _check_rates(t, "top_rate")
    speto = _csv(tmp_path / "out", "dummy_advantage_speto")
    assert speto.filter(pl.col("players") == 4)["n"].sum() == 4 * 600


# ---------------------------------------------------------------- bad input


def test_every_registered_analysis_has_its_module():
    import importlib

    for name, (module, game) in ANALYSES.items():
        assert hasattr(importlib.import_module(module), "run"), name
    assert ANALYSES["dealing-check"][1] == "any"


def test_bad_input_is_one_clear_error(runs, tmp_path):
    folder, _ = runs["euchre"]
    with pytest.raises(SimcoreError, match="needs a spades run"):
        run_analysis("spades-bids", folder, tmp_path)
    with pytest.raises(SimcoreError, match="does not exist"):
        run_analysis("spades-bids", tmp_path / "missing", tmp_path)
    (tmp_path / "empty").mkdir()
    with pytest.raises(SimcoreError, match="not a simcore run folder"):
        run_analysis("dealing-check", tmp_path / "empty", tmp_path)
    with pytest.raises(SimcoreError, match="unknown analysis"):
        run_analysis("no-such-analysis", folder, tmp_path)
    with pytest.raises(SimcoreError, match="reads one run folder"):
        run_analysis("spades-bids", runs["knock/at2"][0].parent, tmp_path)
    from simcore.cli import main

    assert main(["analyze", "euchre-makers", "--data", str(runs["spades"][0]), "--out", str(tmp_path)]) == 2


def test_analysis_is_reproducible(runs, tmp_path):
    folder, _ = runs["euchre"]
    run_analysis("euchre-makers", folder, tmp_path / "a")
    run_analysis("euchre-makers", folder, tmp_path / "b")
    assert (tmp_path / "a" / "euchre_makers.csv").read_text() == (tmp_path / "b" / "euchre_makers.csv").read_text()
    assert not math.isnan(_csv(tmp_path / "a", "euchre_makers")["rate"].sum())


# ---------------------------------------------------------------- what-if analyses (Trump Friend, Gin)
# Small real what-if runs; each analysis's polars tables are checked against a plain-Python
# oracle that walks the rows one by one.

TF_TRUMPS = ("clubs", "diamonds", "hearts", "spades", "notrump")
TF_STRENGTH = {0: 12, 1: 13, **{r: r - 1 for r in range(2, 13)}}  # TF-3 rank order, public ranks


@pytest.fixture(scope="module")
def whatif_runs(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("whatif")
    made = {
        "tf-trump": simcore.simulate("trump-friend", 400, seed=31, what_if="trump", out=tmp / "tf-trump",
                                     rules={"first_declarer": "random"}),
        "tf-friend": simcore.simulate("trump-friend", 600, seed=32, what_if="friend", out=tmp / "tf-friend",
                                      rules={"first_declarer": "random"}),
    }
    for knock in ("limit", "gin_only"):
        made[f"gin/{knock}"] = simcore.simulate("gin-rummy", 600, seed=33, what_if="knock",
                                                policy=[f"knock={knock}"], out=tmp / "gin" / knock)
    return tmp, made


def _py_declarer(row):
    """Oracle: the declarer's suits as lists of public ranks, and the features the analyses use."""
    hand = row[f"hand{row['declarer']}"]
    suits = [[r for r in range(13) if hand >> (13 * s + r) & 1] for s in range(4)]
    lengths = [len(x) for x in suits]
    highs = [sum(r in (0, 1, 11, 12) for r in x) for x in suits]  # 2, 3, K, A
    keys = [1000 * len(x) + sum(TF_STRENGTH[r] for r in x) for x in suits]
    longest = keys.index(max(keys))  # ties: the lower suit, as the `longest` policy
    points = sum(2 if r == 12 else 1 if r in (9, 10, 11) else 0 for x in suits for r in x)
    return {"lengths": lengths, "highs": highs, "longest": longest, "points": points,
            "pattern": "-".join(map(str, sorted(lengths, reverse=True))),
            "delta": row[f"delta{row['declarer']}"]}


def test_trump_call_what_if_tables_match_a_python_oracle(whatif_runs, tmp_path):
    tmp, _ = whatif_runs
    paths = run_analysis("trump-call", tmp / "tf-trump", tmp_path)
    _written(paths, tmp_path, "trump_call.png", "trump_call.csv", "trump_call_by_length.csv",
             "trump_call_notrump.csv", "trump_call_best.csv", "trump_call.md")
    rows = pl.read_parquet(tmp / "tf-trump" / "hands").to_dicts()
    assert len(rows) == 5 * 400
    by_call, cells, nt_diff, best = {}, {}, {}, {}
    deals = {}
    for row in rows:
        f = _py_declarer(row)
        t = row["trump"]
        assert TF_TRUMPS[t] == row["option"]  # TF-5.1: the forced call is the call played
        by_call.setdefault(t, []).append((row["declarer_won"], f["delta"]))
        if t == 4:
            key = ("no trump (longest suit)", max(f["lengths"]), f["highs"][f["longest"]])
        else:
            key = ("suit call (called suit)", f["lengths"][t], f["highs"][t])
        cells.setdefault(key, []).append(row["declarer_won"])
        deals.setdefault(row["deal"], []).append((t, row, f))
    for calls in deals.values():
        f = calls[0][2]
        won = {t: r["declarer_won"] for t, r, _ in calls}
        delta = {t: g["delta"] for t, _, g in calls}
        nt_diff.setdefault(max(f["lengths"]), []).append((won[4] - won[f["longest"]], delta[4] - delta[f["longest"]]))
        margin = {t: r["declarer_team_points"] - r["defender_points"] for t, r, _ in calls}
        top = [t for t in margin if margin[t] == max(margin.values())]
        share = (sum(t == 4 for t in top) / len(top),
                 sum(t < 4 and f["lengths"][t] == max(f["lengths"]) for t in top) / len(top))
        best.setdefault(f["pattern"], []).append(share)
    t = _csv(tmp_path, "trump_call")
    for r in t.iter_rows(named=True):
        v = by_call[r["trump"]]
        assert r["n"] == len(v) == 400 and r["successes"] == sum(w for w, _ in v)
        assert r["mean_delta"] == pytest.approx(np.mean([d for _, d in v]))
    _check_rates(t)
    _check_means(t, "mean_delta")
    t = _csv(tmp_path, "trump_call_by_length")
    detail = t.filter(pl.col("high").is_not_null())
    assert {(r["kind"], r["length"], r["high"]): (r["n"], r["successes"]) for r in detail.iter_rows(named=True)} == \
        {k: (len(v), sum(v)) for k, v in cells.items()}
    assert t.filter(pl.col("high").is_null())["n"].sum() == 2000  # every row once more, over all high cards
    t = _csv(tmp_path, "trump_call_notrump")
    for r in t.filter(pl.col("longest_length").is_not_null()).iter_rows(named=True):
        v = nt_diff[r["longest_length"]]
        assert r["n"] == len(v)
        assert r["win_change"] == pytest.approx(np.mean([w for w, _ in v]))
        assert r["delta_change"] == pytest.approx(np.mean([d for _, d in v]))
    overall = t.filter(pl.col("longest_length").is_null()).row(0, named=True)
    assert overall["n"] == 400
    _check_means(t, "win_change")
    t = _csv(tmp_path, "trump_call_best")
    for r in t.iter_rows(named=True):
        v = best[r["pattern"]]
        assert r["n"] == len(v)
        assert r["best_notrump"] == pytest.approx(np.mean([a for a, _ in v]))
        assert r["best_longest"] == pytest.approx(np.mean([b for _, b in v]))
        assert r["best_notrump"] + r["best_longest"] + r["best_other"] == pytest.approx(1)
    text = (tmp_path / "trump_call.md").read_text()
    assert "what-if trump" in text and "400 deals" in text


def test_trump_call_falls_back_to_observational_and_refuses_other_what_ifs(runs, whatif_runs, tmp_path):
    folder, n = runs["tf"]
    paths = run_analysis("trump-call", folder, tmp_path / "obs")
    assert not any(p.name == "trump_call_notrump.csv" for p in paths)
    assert "observational" in (tmp_path / "obs" / "trump_call.md").read_text()
    with pytest.raises(SimcoreError, match="--what-if friend"):
        run_analysis("trump-call", whatif_runs[0] / "tf-friend", tmp_path / "bad")


def test_friend_call_paired_tables_match_a_python_oracle(whatif_runs, runs, tmp_path):
    tmp, _ = whatif_runs
    paths = run_analysis("friend-call", tmp / "tf-friend", tmp_path)
    _written(paths, tmp_path, "friend_call.png", "friend_call.csv", "friend_call_paired.csv", "friend_call.md")
    rows = pl.read_parquet(tmp / "tf-friend" / "hands").to_dicts()
    deals = {}
    for row in rows:
        f = _py_declarer(row)
        others = sum(row[f"delta{s}"] for s in range(5)) - f["delta"]
        suit = f["longest"] if row["trump"] == 4 else row["trump"]
        deals.setdefault(row["deal"], {})[row["option"]] = (
            row["declarer_won"], f["delta"], f["delta"] - others / 4, f["points"], f["highs"][suit], f["lengths"][suit])
        if row["option"] == "none":
            assert row["friend_card"] == -1  # TF-5.3
    assert len(deals) == 600 and all(set(d) == {"highest", "none"} for d in deals.values())
    diffs = {}
    for d in deals.values():
        change = tuple(d["none"][i] - d["highest"][i] for i in range(3))
        for feature, i in (("points", 3), ("top_trumps", 4), ("trump_length", 5)):
            assert d["none"][i] == d["highest"][i]  # the same cards and trump in both rows
            diffs.setdefault((feature, d["none"][i]), []).append(change)
        diffs.setdefault(("all", None), []).append(change)
    t = _csv(tmp_path, "friend_call_paired")
    assert t.height == len(diffs)
    for r in t.iter_rows(named=True):
        v = np.array(diffs[(r["feature"], r["value"])], dtype=float)
        assert r["n"] == len(v)
        for i, col in enumerate(("win_change", "delta_change", "relative_change")):
            assert r[col] == pytest.approx(v[:, i].mean())
    for col in ("win_change", "delta_change", "relative_change"):
        _check_means(t, col)
    t = _csv(tmp_path, "friend_call")
    assert (t.group_by("feature", "option").agg(pl.col("n").sum())["n"] == 600).all()
    _check_rates(t)
    assert "what-if friend" in (tmp_path / "friend_call.md").read_text()
    with pytest.raises(SimcoreError, match="needs a --what-if friend run"):
        run_analysis("friend-call", runs["tf"][0], tmp_path / "bad")


def _exact_game_win(pool_x, pool_y, target):
    """Oracle: X's exact chance to win a game to ``target`` from per-hand outcome pools (each
    value equally likely; 0 = void, the same dealer again), by recursion over (scores, dealer)."""
    from functools import lru_cache

    def outcomes(pool, x_is_nondealer):
        gains = [v if x_is_nondealer else -v for v in pool]
        void = gains.count(0) / len(gains)
        return [(g, 1 / len(gains)) for g in gains if g != 0], void

    @lru_cache(maxsize=None)
    def p(tx, ty, x_deals):
        if tx >= target:
            return 1.0
        if ty >= target:
            return 0.0
        moves, void = outcomes(pool_y if x_deals else pool_x, not x_deals)
        total = sum(w * p(tx + max(g, 0), ty + max(-g, 0), not x_deals) for g, w in moves)
        return total / (1 - void)  # a void hand is dealt again by the same dealer

    return 0.5 * p(0, 0, True) + 0.5 * p(0, 0, False)


def test_games_assembled_from_hands_match_the_exact_recursion():
    from analyses.gin_knock import play_games

    rng = np.random.default_rng(5)
    for pool_x, pool_y in [([30, -20, 0, 50], [40, -30, 0, -10]), ([100, -100], [100, -100]),
                           ([60], [-10]), ([20, 20, -40, 0, 0], [10, -60, 30])]:
        exact = _exact_game_win(tuple(pool_x), tuple(pool_y), 100)
        est = play_games(np.array(pool_x, float), np.array(pool_y, float), 100, 20_000, rng)
        assert est == pytest.approx(exact, abs=5 * math.sqrt(max(exact * (1 - exact), 1e-9) / 20_000) + 1e-12)
    with pytest.raises(SimcoreError, match="void"):
        play_games(np.zeros(3), np.zeros(3), 100, 10, rng)


def test_gin_knock_what_if_tables_match_a_python_oracle(whatif_runs, runs, tmp_path):
    tmp, _ = whatif_runs
    paths = run_analysis("gin-knock", tmp / "gin", tmp_path)
    _written(paths, tmp_path, "gin_knock.png", "gin_knock_whatif.csv", "gin_knock_matrix.csv", "gin_knock.md")
    t = _csv(tmp_path, "gin_knock_whatif")
    assert t["dealer_strategy"].to_list() == ["now"] * 5 + ["gin"] * 5
    nets = {}
    for knock, strategy in (("limit", "now"), ("gin_only", "gin")):
        rows = pl.read_parquet(tmp / "gin" / knock / "hands").to_dicts()
        per_option = {}
        for row in rows:
            nd = 1 - row["dealer"]
            net = row["points"] if row["winner"] == nd else -row["points"] if row["winner"] == row["dealer"] else 0
            undercut = row["end"] == 1 and row["knocker"] == row["dealer"] and row["winner"] == nd
            per_option.setdefault(row["option"], []).append((row["deal"], net, undercut, row["end"] == 0))
        now = {d: n for d, n, _, _ in per_option["now"]}
        for option, v in per_option.items():
            r = t.filter((pl.col("dealer_strategy") == strategy) & (pl.col("option") == option)).row(0, named=True)
            assert r["n"] == len(v) == 600
            assert r["points"] == pytest.approx(np.mean([n for _, n, _, _ in v]))
            assert r["change"] == pytest.approx(np.mean([n - now[d] for d, n, _, _ in v]))
            assert r["dealer_undercut"] == sum(u for _, _, u, _ in v)
            assert r["voids"] == sum(x for _, _, _, x in v)
            nets[(option, strategy)] = {d: n for d, n, _, _ in v}
        assert t.filter((pl.col("dealer_strategy") == strategy) & (pl.col("option") == "now"))["change"][0] == 0
    for prefix in ("nd_win_rate", "dealer_undercut_rate", "nd_undercut_rate", "nd_gin_rate", "void_rate"):
        _check_rates(t, prefix)
    _check_means(t, "change")
    m = _csv(tmp_path, "gin_knock_matrix")
    assert sorted(zip(m["x"], m["y"])) == [("gin", "now"), ("now", "gin")]
    g = m.filter(pl.col("x") == "gin").row(0, named=True)
    adv = [0.5 * (nets[("gin", "now")][d] - nets[("now", "gin")][d]) for d in nets[("gin", "now")]]
    assert g["advantage"] == pytest.approx(np.mean(adv)) and g["n_paired"] == 600
    r = m.filter(pl.col("x") == "now").row(0, named=True)
    assert r["advantage"] == pytest.approx(-g["advantage"]) and r["game_win"] == pytest.approx(1 - g["game_win"])
    assert 0 <= g["game_win_low"] <= g["game_win"] <= g["game_win_high"] <= 1
    assert "what-if knock" in (tmp_path / "gin_knock.md").read_text()
    # a what-if run and an ordinary run in one folder: one clear error
    mixed = tmp_path / "mixed"
    mixed.mkdir()
    shutil.copytree(tmp / "gin" / "limit", mixed / "a")
    shutil.copytree(runs["gin"][0], mixed / "b")
    with pytest.raises(SimcoreError, match="mixes what-if and ordinary runs"):
        run_analysis("gin-knock", mixed, tmp_path / "bad")


def test_make_results_batches_feed_every_job_without_user_policies():
    import importlib.util
    import sys
    from pathlib import Path

    path = Path(__file__).resolve().parent.parent / "scripts" / "make_results.py"
    spec = importlib.util.spec_from_file_location("make_results", path)
    mr = importlib.util.module_from_spec(spec)
    sys.modules["make_results"] = mr  # dataclasses look their module up while the module runs
    try:
        spec.loader.exec_module(mr)
    finally:
        del sys.modules["make_results"]
    folders = {str(mr.DATA / b.folder) for b in mr.BATCHES}
    for job in mr.JOBS:
        assert job.analysis in ANALYSES
        assert all(any(f == d or f.startswith(d + "/") for f in folders) for d in job.folders), job
    for b in mr.BATCHES:  # plain command lines: built-in policies, cached kernels
        assert b.command()[:3] == ["simcore", b.verb, b.game] and "--resume" in b.command()
        assert b.verb in ("simulate", "solve")
    knocks = sorted(b.args[b.args.index("--policy") + 1] for b in mr.BATCHES if b.folder.startswith("gin-knock-whatif/"))
    assert knocks == sorted(f"knock={k}" for k in mr.GIN_DEALER_KNOCKS)


def test_trump_call_per_deal_paths_agree_and_shuffled_rows_fall_back(whatif_runs):
    """The numpy reshape (deal-major rows) and the polars group_by (any row order) give the same
    per-deal figures; shuffled rows take the group_by."""
    from analyses import trump_call as tc
    from simcore.runs import load

    rows = tc.collect_rows(load(whatif_runs[0] / "tf-trump"))
    fast = tc._per_deal_numpy(rows, rows.height // 5)
    shuffled = rows.sample(fraction=1.0, shuffle=True, seed=3)
    slow = tc.per_deal(shuffled)  # not deal-major any more: the group_by path
    cols = ["longest_length", "shape", "win_change", "delta_change", "best_notrump", "best_longest", "best_other"]
    a = fast.select(cols).sort(cols)
    b = slow.select(cols).sort(cols)
    assert a.height == b.height == 400
    for c in cols:
        assert np.allclose(a[c].to_numpy().astype(float), b[c].to_numpy().astype(float)), c
    t_fast, t_slow = tc.paired_tables(rows)[0], tc.paired_tables(shuffled)[0]
    assert t_fast["n"].to_list() == t_slow["n"].to_list()
    assert np.allclose(t_fast["win_change"].to_numpy(), t_slow["win_change"].to_numpy())
