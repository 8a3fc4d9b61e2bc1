"""Levels of play side by side (analyses/levels.py) and the open-hand Euchre order-up analysis
(analyses/euchre_dd_order.py): labels, the words of the comparison against the data, one run
unchanged, every strategy analysis at two levels, and the DD tables against a Python oracle."""

from __future__ import annotations

import polars as pl
import pytest

import simcore
from analyses import levels, run_analysis
from analyses.stats import wilson
from simcore.errors import SimcoreError

STRATEGY = {  # analysis -> (game, deals, simulate options) of its small runs
    "trump-call": ("trump-friend", 400, {"what_if": "trump"}),
    "friend-call": ("trump-friend", 400, {"what_if": "friend"}),
    "spades-bids": ("spades", 600, {}),
    "gin-knock": ("gin-rummy", 300, {"what_if": "knock"}),
}


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    root = tmp_path_factory.mktemp("levels")
    made = {}
    for level in ("random", "heuristic"):
        made[("euchre", level)] = simcore.simulate("euchre", 1500, seed=21, policy=[level],
                                                   out=root / f"euchre-{level}").path
        for name, (game, n, kw) in STRATEGY.items():
            made[(name, level)] = simcore.simulate(game, n, seed=22, policy=[level], out=root / f"{name}-{level}",
                                                   **kw).path
    made["solve"] = simcore.solve_deals("euchre", 200, seed=24, out=root / "euchre-dd").path
    return made


@pytest.fixture(scope="module")
def dummy_runs(tmp_path_factory):
    """dummy-advantage reads a folder of runs (one per table size): a level is such a folder."""
    root = tmp_path_factory.mktemp("dummy-levels")
    for level in ("random", "heuristic"):
        for players in (2, 3):
            simcore.simulate("dummy", 150, seed=23, policy=[level], rules={"players": players},
                             out=root / level / f"players-{players}")
    return {("dummy-advantage", level): root / level for level in ("random", "heuristic")}


# ---------------------------------------------------------------- labels and words


def test_level_labels_come_from_the_manifest():
    assert levels.level_label({"policies": {"seats": ["heuristic"] * 4, "bid": "seat"}}) == "heuristic"
    assert levels.level_label({"policies": {"seats": ["pimc:32"] * 4}}) == "pimc:32"
    assert levels.level_label({"policies": {"seats": ["expert", "heuristic"]}}) == "expert/heuristic"
    assert levels.level_label({"command": "solve", "policies": {}}) == "open-hand"
    assert levels.parse_labels(["data/a=strong", "data/b/=weak"]) == {"data/a": "strong", "data/b": "weak"}
    with pytest.raises(SimcoreError, match="DIR=NAME"):
        levels.parse_labels(["data/a"])
    assert levels.slug("pimc:32") == "pimc-32"


def test_words_say_whether_the_answer_changes_or_is_not_decided():
    same = [("heuristic", levels.Claim("Q", "no trump is worse", -0.2, -0.3, -0.1)),
            ("pimc:32", levels.Claim("Q", "no trump is worse", -0.1, -0.15, -0.05))]
    text = levels.compare_sentence("Q", same)
    assert "no trump is worse under heuristic and pimc:32 play, the same at every level" in text
    changed = [same[0], ("open-hand", levels.Claim("Q", "no significant difference", 0.0, -0.1, 0.1))]
    text = levels.compare_sentence("Q", changed)
    assert text.startswith("Q: the answer changes with the level: under heuristic, no trump is worse")
    assert "under open-hand, no significant difference" in text
    undecided = levels.interval_claim("Q", 0.01, -0.05, 0.07, "no trump is worse", "no trump is better",
                                      "no significant difference", "points", 300)
    assert not undecided.decided and undecided.verdict == "no significant difference"
    text = levels.compare_sentence("Q", [same[0], ("pimc:8", undecided)])
    assert text.startswith("Q: no trump is worse under heuristic play; not decided under pimc:8")
    assert "changes" not in text
    assert levels.sign_verdict(-2, -1, "b", "a", "n") == "b"
    assert levels.sign_verdict(1, 2, "b", "a", "n") == "a"
    assert levels.sign_verdict(-1, 2, "b", "a", "n") == "n"


def test_threshold_and_pooled_moments_against_direct_computation():
    table = pl.DataFrame({"trumps": [0, 1, 2, 3, 4, 5], "n": [500, 500, 500, 500, 500, 10],
                          "low": [-1.0, 0.2, -0.1, 0.3, 0.5, -3.0]})
    c = levels.threshold_claim("Q", table, "trumps", "low", "trumps")
    assert (c.value, c.verdict) == (3.0, "from 3 trumps up")  # 1 is not: 2 dips below; 5 is too small a group
    none = levels.threshold_claim("Q", table.with_columns(pl.col("low") - 9), "trumps", "low", "trumps")
    assert none.verdict.startswith("at no number of trumps") and not none.decided and c.decided
    groups = [[1.0, 2.0, 4.0], [3.0, 3.0], [0.0, 10.0, 5.0, 1.0]]
    flat = pl.Series([x for g in groups for x in g])
    series = [pl.Series(g) for g in groups]
    m, s, n = levels.pooled([len(g) for g in groups], [g.mean() for g in series], [g.std() for g in series])
    assert (m, s, n) == (pytest.approx(flat.mean()), pytest.approx(flat.std()), flat.len())


# ---------------------------------------------------------------- one run, two runs


def test_one_run_is_exactly_the_single_run_analysis(runs, tmp_path):
    folder = runs[("euchre", "heuristic")]
    single = run_analysis("euchre-makers", folder, tmp_path / "a")
    listed = run_analysis("euchre-makers", [folder], tmp_path / "b")
    assert [p.name for p in single] == [p.name for p in listed]
    for p in single:
        if p.suffix == ".csv":
            assert p.read_bytes() == (tmp_path / "b" / p.name).read_bytes()
    md = (tmp_path / "a" / "euchre_makers.md").read_text()
    assert md == (tmp_path / "b" / "euchre_makers.md").read_text().replace(str(tmp_path / "b"), str(tmp_path / "a"))
    # and each level of a comparison is that same single-run analysis, in its own folder
    run_analysis("euchre-makers", [runs[("euchre", "random")], folder], tmp_path / "c")
    for p in single:
        if p.suffix == ".csv":
            assert p.read_bytes() == (tmp_path / "c" / "heuristic" / p.name).read_bytes()


def _lone_marches(folder) -> tuple[int, int]:
    """Lone hands and lone marches, row by row from the Parquet (the oracle)."""
    rows = simcore.load(folder).filter(pl.col("trump") >= 0).collect()
    n = k = 0
    for r in rows.iter_rows(named=True):
        if r["alone_maker"] >= 0:
            n += 1
            k += r[f"points{r['maker'] % 2}"] >= 2
    return k, n


def test_euchre_makers_levels_words_follow_the_data(runs, tmp_path):
    data = [runs[("euchre", "random")], runs[("euchre", "heuristic")]]
    written = run_analysis("euchre-makers", data, tmp_path)
    assert written[0] == tmp_path / "euchre_makers.md"
    table = pl.read_csv(tmp_path / "euchre_makers_levels.csv")
    assert set(table["level"]) == {"random", "heuristic"}
    question = "Lone players taking all five tricks (observational)"
    expected = {}
    for level, folder in zip(("random", "heuristic"), data):
        k, n = _lone_marches(folder)
        lo, hi = wilson([k], [n])
        expected[level] = ("most lone hands march" if lo[0] > 0.5 else
                           "most lone hands fall short of a march" if hi[0] < 0.5 else "about half of lone hands march")
        row = table.filter((pl.col("level") == level) & (pl.col("question") == question)).row(0, named=True)
        assert (row["n"], row["value"]) == (n, pytest.approx(k / n))
        assert row["verdict"] == expected[level]
    md = (tmp_path / "euchre_makers.md").read_text()
    decided = {v for v in expected.values() if v != "about half of lone hands march"}
    assert (f"{question}: the answer changes with the level" in md) == (len(decided) == 2)
    for level in ("random", "heuristic"):
        assert (tmp_path / level / "euchre_makers.png").is_file()
    note = levels.closing_note(tmp_path)
    assert (question in note) == (len(decided) == 2)
    assert f"--data {data[0]} --data {data[1]}" in md
    assert (tmp_path / "euchre_makers_levels.png").stat().st_size > 0


@pytest.mark.parametrize("name", [*STRATEGY, "dummy-advantage"])
def test_every_strategy_analysis_takes_two_levels(request, tmp_path, name):
    runs = request.getfixturevalue("dummy_runs" if name == "dummy-advantage" else "runs")
    data = [runs[(name, "random")], runs[(name, "heuristic")]]
    written = run_analysis(name, data, tmp_path)
    md = written[0].read_text()
    table = pl.read_csv(written[2])
    assert len(table) and set(table["level"]) == {"random", "heuristic"}
    for q, g in table.group_by("question"):
        assert g.height == 2, q
        decided = g.filter(pl.col("decided"))
        changes = decided["verdict"].n_unique() > 1
        assert (f"{q[0]}: the answer changes with the level" in md) == changes
        same = decided.height == 2 and not changes
        assert (f"{q[0]}: {g['verdict'][0]} under random and heuristic play, the same at every level" in md) == same
        if decided.height == 1:
            assert f"not decided under {g.filter(~pl.col('decided'))['level'][0]}" in md
        for r in g.iter_rows(named=True):  # every estimate inside its own interval
            if r["low"] == r["low"]:
                assert r["low"] - 1e-9 <= r["value"] <= r["high"] + 1e-9
    assert all((tmp_path / lv).is_dir() for lv in ("random", "heuristic"))


def test_labels_override_and_clear_errors(runs, tmp_path):
    a, b = runs[("euchre", "heuristic")], runs[("euchre", "random")]
    written = run_analysis("euchre-makers", [a, b], tmp_path / "x", labels=[f"{b}=pimc:weak"])
    assert (tmp_path / "x" / "pimc-weak" / "euchre_makers.csv").is_file()
    assert f"--label {b}=pimc:weak" in written[0].read_text()
    other = simcore.simulate("euchre", 200, seed=25, out=tmp_path / "again").path
    same = run_analysis("euchre-makers", [a, other], tmp_path / "y")  # same label twice: told apart by folder
    assert set(pl.read_csv(same[2])["level"]) == {f"heuristic ({a.name})", "heuristic (again)"}
    with pytest.raises(SimcoreError, match="same level label"):
        run_analysis("euchre-makers", [a, a], tmp_path / "z")
    with pytest.raises(SimcoreError, match="not one of the --data folders"):
        run_analysis("euchre-makers", [a, b], tmp_path / "z", labels=["elsewhere=strong"])
    with pytest.raises(SimcoreError, match="open-hand table .*use euchre-dd-order"):
        run_analysis("euchre-makers", runs["solve"], tmp_path / "z")
    with pytest.raises(SimcoreError, match="reads a `simcore solve euchre` run"):
        run_analysis("euchre-dd-order", a, tmp_path / "z")
    with pytest.raises(SimcoreError, match="compares no levels"):
        run_analysis("dealing-check", [a, b], tmp_path / "z")


def test_an_open_hand_level_is_read_by_the_open_hand_analysis(runs, tmp_path):
    """A solve run among the levels of euchre-makers is analysed by euchre-dd-order, whose
    answers stand beside the simulate levels' (the same chart, table and words)."""
    from analyses import euchre_dd_order

    written = run_analysis("euchre-makers", [runs[("euchre", "heuristic")], runs["solve"]], tmp_path / "lv")
    table = pl.read_csv(written[2])
    assert set(table["level"]) == {"heuristic", "open-hand"}
    assert (tmp_path / "lv" / "open-hand" / "euchre_dd_order.csv").is_file()
    assert (tmp_path / "lv" / "heuristic" / "euchre_makers.csv").is_file()
    run_analysis("euchre-dd-order", runs["solve"], tmp_path / "alone")
    direct = euchre_dd_order.level_claims(tmp_path / "alone")
    mine = table.filter(pl.col("level") == "open-hand")
    assert mine["question"].to_list() == [c.question for c in direct]
    assert mine["value"].to_list() == pytest.approx([c.value for c in direct], nan_ok=True)
    md = written[0].read_text()
    assert "Level **open-hand**" in md and "only this level answers it" in md


# ---------------------------------------------------------------- euchre-dd-order


def _trumps(hand: int, t: int) -> tuple[int, int]:
    """Trumps (the left bower counts, EU-3) and bowers in ``hand`` for trump suit ``t``."""
    right, left = 13 * t + 9, 13 * (3 - t) + 9
    cards = [c for c in range(52) if hand >> c & 1]
    trumps = sum(1 for c in cards if c // 13 == t or c == left)
    return trumps, (right in cards) + (left in cards)


def _points(tricks: int, march: int) -> int:
    return march if tricks == 5 else 1 if tricks >= 3 else -2


def _oracle(folder) -> dict:
    """(kind, position, trumps) -> [n, made, points, alone gain], row by row."""
    out = {}
    for r in simcore.load(folder).collect().iter_rows(named=True):
        for s in range(4):
            for t in range(4):
                hand = r[f"hand{s}"] | ((1 << r["upcard"]) if s == r["dealer"] else 0)
                trumps = min(_trumps(hand, t)[0], 5)
                kind = "order up (round 1)" if r["upcard"] // 13 == t else "name (round 2)"
                tricks = r[f"dd_t{t}"] if s % 2 == 0 else 5 - r[f"dd_t{t}"]
                alone = r[f"dd_alone{s}_t{t}"]
                for key in ((kind, (s - r["dealer"]) % 4, trumps), (kind, None, trumps)):
                    acc = out.setdefault(key, [0, 0, 0, 0])
                    acc[0] += 1
                    acc[1] += tricks >= 3
                    acc[2] += _points(tricks, 2)
                    acc[3] += _points(alone, 4) - _points(tricks, 2)
    return out


def test_euchre_dd_order_matches_a_python_oracle(runs, tmp_path):
    written = run_analysis("euchre-dd-order", runs["solve"], tmp_path)
    assert {p.name for p in written} == {"euchre_dd_order.png", "euchre_dd_order.csv",
                                         "euchre_dd_order_tricks.csv", "euchre_dd_order.md"}
    table = pl.read_csv(tmp_path / "euchre_dd_order.csv").filter(pl.col("bowers").is_null())
    oracle = _oracle(runs["solve"])
    got = {(r["kind"], r["position"], r["trumps"]): r for r in table.iter_rows(named=True)}
    assert set(got) == set(oracle)
    for key, (n, made, points, gain) in oracle.items():
        r = got[key]
        assert (r["n"], r["made"]) == (n, made), key
        assert r["points"] == pytest.approx(points / n) and r["alone_gain"] == pytest.approx(gain / n), key
        assert r["make_rate_low"] <= made / n <= r["make_rate_high"]
    assert sum(v[0] for k, v in oracle.items() if k[1] is None) == 200 * 16
    dist = pl.read_csv(tmp_path / "euchre_dd_order_tricks.csv")
    assert dist["count"].sum() == 200 * 4  # one order-up suit per deal, four would-be makers
    md = (tmp_path / "euchre_dd_order.md").read_text()
    assert "Sample: 200 deals" in md and "open-hand (simcore solve" in md
    assert f"simcore analyze euchre-dd-order --data {runs['solve']}" in md


def test_euchre_dd_order_claims_follow_its_table(runs, tmp_path):
    run_analysis("euchre-dd-order", runs["solve"], tmp_path)
    claims = {c.question: c for c in __import__("analyses.euchre_dd_order").euchre_dd_order.level_claims(tmp_path)}
    every = (pl.read_csv(tmp_path / "euchre_dd_order.csv")
             .filter((pl.col("kind") == "order up (round 1)") & pl.col("position").is_null()
                     & pl.col("bowers").is_null() & (pl.col("n") >= 30)).sort("trumps"))
    start = None
    for trumps, low in reversed(list(zip(every["trumps"], every["points_low"]))):
        if not low > 0:
            break
        start = trumps
    c = claims["Trumps held from which ordering up gains net points (open-hand, every seat)"]
    assert c.verdict == (f"from {start} trump{'s' if start != 1 else ''} up" if start is not None
                         else "at no number of trumps (groups n ≥ 30)")
