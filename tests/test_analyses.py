"""Analyses: every analysis on small generated runs against plain-Python oracles, the Python
API (``simcore.analyze``) against the command line, levels of play, what each summary names,
the exact dealing laws, and the figures' size.

Open-hand solves of full Trump Friend and Spades deals take seconds to minutes, far too slow for
the suite, so their solve tables here are real deals with open-hand values drawn at random: the
tests check the analyses' arithmetic, not the solver (tests/test_solve_*.py check that)."""

from __future__ import annotations

import itertools
import json
import sys
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from scipy import stats

import simcore
from analyses import ANALYSES, analyze, run_analysis
from analyses import dealing_check as dc
from analyses.common import DPI, level_text
from analyses.levels import level_label
from simcore.cli import main
from simcore.errors import SimcoreError

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "scripts"))  # results_report.py

TF_STRENGTH = [12, 13] + list(range(1, 12))  # TF-3 strength of public ranks 2, 3, 4 ... A
TOP = (1, 0, 12, 11)  # 3 2 A K


@pytest.fixture(autouse=True)
def _close_figures():
    import matplotlib.pyplot as plt

    yield
    plt.close("all")


def cards(mask: int) -> list[int]:
    return [c for c in range(52) if int(mask) >> c & 1]


def hands(folder) -> pl.DataFrame:
    return simcore.load(folder).collect()


def _solve_folder(path, frame, manifest):
    (path / "hands").mkdir(parents=True)
    frame.write_parquet(path / "hands" / "part-00000.parquet")
    (path / "manifest.json").write_text(json.dumps({**manifest, "command": "solve", "finished": True,
                                                    "omniscient": ["open-hand"]}))
    return path


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    root = tmp_path_factory.mktemp("runs")
    tf_rules = {"first_declarer": "random"}
    made = {"root": root}
    made["tf-calls"] = root / "tf-calls"
    simcore.simulate("trump-friend", 300, seed=5, what_if="trump", rules=tf_rules, out=root / "tf-calls" / "whatif")
    # any ordinary run of the same deals gives calls to value on the what-if rows (the report's is trump=pimc)
    simcore.simulate("trump-friend", 300, seed=5, policy=["trump=random"], rules=tf_rules,
                     out=root / "tf-calls" / "searched")
    made["tf-friend"] = simcore.simulate("trump-friend", 300, seed=6, what_if="friend", rules=tf_rules,
                                         out=root / "tf-friend").path
    made["spades"] = simcore.simulate("spades", 400, seed=7, out=root / "spades").path
    made["spades-mixed"] = simcore.simulate("spades", 200, seed=7, policy=["heuristic", "1=random", "3=random"],
                                            out=root / "spades-mixed").path
    made["spades-nil"] = simcore.simulate("spades", 600, seed=8, what_if="nil", out=root / "spades-nil").path
    for w in ("order-up", "order-up-partner", "order-up-right", "order-up-dealer", "alone"):
        simcore.simulate("euchre", 600, seed=9, what_if=w, out=root / "euchre" / w)
    made["euchre"] = root / "euchre"
    made["euchre-dd"] = simcore.solve_deals("euchre", 150, seed=9, out=root / "euchre-dd").path
    for k in ("at10", "gin_only"):
        simcore.simulate("gin-rummy", 400, seed=10, what_if="knock", policy=[f"knock={k}"], out=root / "gin" / k)
    made["gin"] = root / "gin"
    made["gin-games"] = simcore.simulate("gin-rummy", 60, seed=10, mode="games", out=root / "gin-games").path
    for n in (2, 3):
        simcore.simulate("dummy", 300, seed=11, rules={"players": n}, out=root / "dummy" / f"players-{n}")
    made["dummy"] = root / "dummy"
    return made


# ---------------------------------------------------------------- Trump Friend


def tf_declarer(row) -> dict:
    """Plain-Python features of the declarer's hand: suits ranked as the `longest` policy ranks
    them, lengths, top cards, card points."""
    hand = cards(row[f"hand{row['declarer']}"])
    lengths = [sum(1 for c in hand if c // 13 == s) for s in range(4)]
    tops = [sum(1 for c in hand if c // 13 == s and c % 13 in TOP) for s in range(4)]
    strength = [sum(TF_STRENGTH[c % 13] for c in hand if c // 13 == s) for s in range(4)]
    order = sorted(range(4), key=lambda s: (-lengths[s], -strength[s], s))
    points = sum(2 if c % 13 == 12 else 1 if c % 13 in (9, 10, 11) else 0 for c in hand)
    return {"order": order, "lengths": lengths, "tops": tops, "points": points}


def test_trump_call_compares_each_option_with_the_longest_suit_on_the_same_deal(runs):
    result = analyze("trump-call", runs["tf-calls"])
    rows = hands(runs["tf-calls"] / "whatif")
    deltas, features = {}, {}
    for r in rows.iter_rows(named=True):
        deltas.setdefault(r["deal"], {})[r["trump"]] = r[f"delta{r['declarer']}"]
        features[r["deal"]] = tf_declarer(r)
    changes = {o: [] for o in ("second", "third", "notrump")}
    for deal, d in deltas.items():
        order = features[deal]["order"]
        changes["second"].append(d[order[1]] - d[order[0]])
        changes["third"].append(d[order[2]] - d[order[0]])
        changes["notrump"].append(d[4] - d[order[0]])
    claims = {c.key: c for c in result.claims}
    for o, v in changes.items():
        ref = stats.ttest_1samp(v, 0).confidence_interval(0.95)
        c = claims[f"tf.{o}"]
        assert c.n == 300 and c.value == pytest.approx(np.mean(v)) and (c.low, c.high) == pytest.approx(ref)
    by_pattern = result.tables["trump_call_by_pattern"]
    assert by_pattern["n"].sum() == 300
    # the searched (here: random) calls valued on the what-if rows of their deal
    searched = hands(runs["tf-calls"] / "searched")
    gains = [deltas[r["deal"]][r["trump"]] - deltas[r["deal"]][features[r["deal"]]["order"][0]]
             for r in searched.iter_rows(named=True)]
    assert claims["tf.searched"].value == pytest.approx(np.mean(gains))
    table = result.tables["trump_call_searched"]
    assert table.filter(pl.col("call") == "every deal")["n"].item() == 300
    assert table.filter(pl.col("call") != "every deal")["n"].sum() == 300
    assert "trump=random" in result.summary and "300 searched calls" in result.summary


def test_trump_call_on_an_ordinary_run_is_observational(runs, tmp_path):
    simcore.simulate("trump-friend", 300, seed=5, policy=["trump=random"], out=tmp_path / "obs")
    result = analyze("trump-call", tmp_path / "obs")
    assert result.tables["trump_call"]["n"].sum() == 300 and not result.claims
    assert "observational" in result.summary.lower()
    with pytest.raises(SimcoreError, match="--what-if friend"):
        analyze("trump-call", runs["tf-friend"])


def test_friend_call_is_paired_on_the_score_relative_to_the_others(runs):
    result = analyze("friend-call", runs["tf-friend"])
    rows = hands(runs["tf-friend"])
    rel = {}
    for r in rows.iter_rows(named=True):
        own = r[f"delta{r['declarer']}"]
        others = sum(r[f"delta{s}"] for s in range(5)) - own
        rel.setdefault(r["deal"], {})[r["option"]] = own - others / 4
        if r["option"] == "none":
            assert r["friend_card"] == -1  # TF-5.3
    diff = [d["none"] - d["highest"] for d in rel.values()]
    c = result.claims[0]
    assert c.key == "tf.friend" and c.n == 300 and c.value == pytest.approx(np.mean(diff))
    paired = result.tables["friend_call_paired"]
    assert paired.filter(pl.col("feature") == "trumps × top trumps")["n"].sum() == 300
    with pytest.raises(SimcoreError, match="needs a --what-if friend run"):
        analyze("friend-call", runs["tf-calls"] / "whatif")


@pytest.fixture(scope="module")
def tf_solve(runs, tmp_path_factory):
    """The what-if deals with random open-hand values and the friend cards `highest` names."""
    calls = hands(runs["tf-calls"] / "whatif")
    deals = calls.gather_every(5)
    friend = calls["friend_card"].to_numpy().reshape(-1, 5)
    rng = np.random.default_rng(1)
    kitty_points = np.array([sum(2 if c % 13 == 12 else 1 if c % 13 in (9, 10, 11) else 0 for c in cards(k))
                             for k in deals["kitty"]])
    cols = {}
    for t in range(5):
        d = rng.integers(0, 21 - kitty_points)
        cols[f"dd_friend{t}"] = friend[:, t].astype(np.int8)
        cols[f"dd_points{t}"] = d.astype(np.int8)
        cols[f"dd_solo{t}"] = (d * rng.random(d.size)).astype(np.int8)
    frame = deals.select("seed", "deal", *(f"hand{s}" for s in range(5)), "declarer", "kitty").with_columns(
        *(pl.Series(k, v) for k, v in cols.items()))
    m = json.loads((runs["tf-calls"] / "whatif" / "manifest.json").read_text())
    manifest = {k: m[k] for k in ("game", "mode", "seed", "rules", "predeal", "conditions")} | {
        "deals": 300, "policies": {"friend": "highest"}}
    return _solve_folder(tmp_path_factory.mktemp("tfdd") / "run", frame, manifest), kitty_points


def test_trump_friend_dd_values_the_calls_as_trump_call_does(tf_solve):
    folder, kitty_points = tf_solve
    result = analyze("trump-friend-dd", folder)
    frame = hands(folder)
    second, friend = [], []
    for r, kp in zip(frame.iter_rows(named=True), kitty_points):
        f = tf_declarer(r)
        in_play = 20 - kp
        delta = [min(2 * r[f"dd_points{t}"] - in_play, 0) for t in range(5)]  # TF-12: the declarer's own change
        second.append(delta[f["order"][1]] - delta[f["order"][0]])
        t = f["order"][0]
        margin, solo = 2 * r[f"dd_points{t}"] - in_play, 2 * r[f"dd_solo{t}"] - in_play
        hand = r[f"hand{r['declarer']}"]
        card = r[f"dd_friend{t}"]
        alone = card < 0 or ((r["kitty"] | hand) >> card & 1)
        with_friend = margin if alone else 0.75 * margin  # a friend player shares the result
        no_friend = solo + r[f"dd_solo{t}"] if solo > 0 else solo  # TF-13: 2D − O when it wins
        friend.append(no_friend - with_friend)
    claims = {c.key: c for c in result.claims}
    assert claims["tf.second"].value == pytest.approx(np.mean(second))
    assert claims["tf.friend"].value == pytest.approx(np.mean(friend))
    assert "perfect play" in result.answer and "upper bound" not in result.summary


def test_open_hand_scores_follow_the_engine_scoring():
    """TF-12/TF-13 as trump-friend-dd writes them (from D and the kitty) against the engine's
    own score changes, with and without a friend."""
    from analyses.trump_call import TOP_RANKS  # noqa: F401  (the module the scores are shared with)

    for friend in ("highest", "none"):
        rows = simcore.simulate("trump-friend", 300, seed=2, policy=[f"friend={friend}"]).hands().collect()
        for r in rows.iter_rows(named=True):
            in_play = 20 - sum(2 if c % 13 == 12 else 1 if c % 13 in (9, 10, 11) else 0 for c in cards(r["kitty"]))
            d = r["declarer_team_points"]
            margin = 2 * d - in_play
            own = r[f"delta{r['declarer']}"]
            assert own == min(margin, 0)
            others = (sum(r[f"delta{s}"] for s in range(5)) - own) / 4
            if friend == "none":
                assert own - others == pytest.approx(margin + d if margin > 0 else margin)
            elif r["friend_seat"] < 0 or r["friend_seat"] == r["declarer"]:
                assert own - others == pytest.approx(margin)
            else:
                assert own - others == pytest.approx(0.75 * margin)


# ---------------------------------------------------------------- Spades


def test_spades_bids_counts_every_numeric_bid_and_clusters_by_deal(runs):
    result = analyze("spades-bids", runs["spades"])
    rows = hands(runs["spades"])
    by_bid = {}
    for r in rows.iter_rows(named=True):
        for s in range(4):
            if r[f"bid{s}"] > 0 and not r[f"blind{s}"]:
                by_bid.setdefault(r[f"bid{s}"], []).append((r["deal"], r[f"tricks{s}"] - r[f"bid{s}"]))
    table = result.tables["spades_bids_by_bid"]
    for bid, values in by_bid.items():
        row = table.filter(pl.col("bid") == bid).row(0, named=True)
        assert row["n"] == len(values) and row["deals"] == len({d for d, _ in values})
        assert row["over"] == pytest.approx(np.mean([v for _, v in values]))
    c = {c.key: c for c in result.claims}["sp.over"]
    assert c.n == 400 and c.unit == "tricks per bid"  # n counts deals, not bids
    assert "heuristic bidders" in result.figure.texts[0].get_text() or "heuristic" in result.summary


def test_spades_bids_name_each_seats_own_bidder():
    from analyses.spades_bids import bid_policy, bidders_text

    pimc = {"policies": {"seats": ["pimc"] * 4, "bid": "seat"}}
    assert [bid_policy(pimc, s) for s in range(4)] == ["pimc"] * 4  # a searching seat bids by its search
    assert bidders_text(pimc) == "pimc"
    assert bidders_text({"policies": {"seats": ["pimc:20"] * 4, "bid": "heuristic"}}) == "pimc:20"
    assert bidders_text({"policies": {"seats": ["heuristic"] * 4, "bid": "random"}}) == "random"
    mixed = {"policies": {"seats": ["heuristic", "random", "heuristic", "random"], "bid": "seat"}}
    assert bidders_text(mixed) == "heuristic/random/heuristic/random"


def test_spades_nil_is_valued_paired_by_spades_aces_kings_and_the_partners_bid(runs):
    result = analyze("spades-nil", runs["spades-nil"])
    rows = hands(runs["spades-nil"])
    per = {}
    for r in rows.iter_rows(named=True):
        first = (r["dealer"] + 1) % 4
        side = first % 2
        hand = cards(r[f"dealt{first}"])
        net = r[f"score{side}"] - r[f"score{1 - side}"]
        d = per.setdefault(r["deal"], {"spades": sum(1 for c in hand if c // 13 == 3),
                                       "ak": sum(1 for c in hand if c % 13 in (11, 12))})
        d[r["option"]] = net
        if r["option"] == "nil":
            d["held"] = r[f"tricks{first}"] == 0
        else:
            d["partner"] = r[f"bid{(first + 2) % 4}"]
    value = [d["nil"] - d["bid"] for d in per.values()]
    claims = {c.key: c for c in result.claims}
    assert claims["sp.nil_any"].value == pytest.approx(np.mean(value)) and claims["sp.nil_any"].n == 600
    good = [d for d in per.values() if d["spades"] <= 1 and d["ak"] == 0]
    if good:
        assert claims["sp.nil_good_success"].successes == sum(d["held"] for d in good)
    grid = result.tables["spades_nil"]
    assert grid["n"].sum() == 600 and grid["successes"].sum() == sum(d["held"] for d in per.values())


@pytest.fixture(scope="module")
def spades_dd(runs, tmp_path_factory):
    """A folder with the spades run and a solve table of the same deals (random DD values)."""
    root = tmp_path_factory.mktemp("spdd")
    import shutil

    shutil.copytree(runs["spades"], root / "play")
    deals = hands(root / "play")
    rng = np.random.default_rng(2)
    frame = deals.select("seed", "deal", *(pl.col(f"dealt{s}").alias(f"hand{s}") for s in range(4)), "dealer").with_columns(
        pl.Series("dd_tricks", rng.integers(0, 14, deals.height).astype(np.int8)),
        *(pl.Series(f"dd_nil{s}", np.maximum(rng.integers(-3, 4, deals.height), 0).astype(np.int8)) for s in range(4)))
    m = json.loads((root / "play" / "manifest.json").read_text())
    _solve_folder(root / "solve", frame, {k: m[k] for k in ("game", "mode", "seed", "deals", "rules", "predeal",
                                                             "conditions")} | {"policies": {}})
    return root


def test_spades_dd_bids_values_the_same_bids_open_handed(spades_dd):
    result = analyze("spades-dd-bids", spades_dd)
    solve, play = hands(spades_dd / "solve"), hands(spades_dd / "play")
    over = []
    for s, p in zip(solve.iter_rows(named=True), play.iter_rows(named=True)):
        for side in (0, 1):
            a, b = side, side + 2
            if p[f"bid{a}"] > 0 and p[f"bid{b}"] > 0 and not p[f"blind{a}"] and not p[f"blind{b}"]:
                tricks = s["dd_tricks"] if side == 0 else 13 - s["dd_tricks"]
                over.append(tricks - p[f"bid{a}"] - p[f"bid{b}"])
    claims = {c.key: c for c in result.claims}
    assert claims["sp.side"].value == pytest.approx(np.mean(over))
    safe = [s[f"dd_nil{k}"] == 0 for s in solve.iter_rows(named=True) for k in range(4)]
    nil = result.tables["spades_dd_bids_nil"].filter(pl.col("feature") == "all").row(0, named=True)
    assert nil["safe"] == pytest.approx(np.mean(safe)) and nil["deals"] == 400
    with pytest.raises(SimcoreError, match="open-hand table .*use spades-dd-bids"):
        analyze("spades-bids", spades_dd / "solve")


# ---------------------------------------------------------------- Euchre


def euchre_hand(hand: int, trump: int) -> tuple[int, int, int]:
    """(trumps, bowers, off-suit aces) of a hand for trump suit ``trump`` (EU-3)."""
    hc = cards(hand)
    right, left = 13 * trump + 9, 13 * (3 - trump) + 9
    trumps = sum(1 for c in hc if c // 13 == trump) + (left in hc)
    return trumps, (right in hc) + (left in hc), sum(1 for c in hc if c % 13 == 12 and c // 13 != trump)


def net(r, seat) -> int:
    side = seat % 2
    return r[f"points{side}"] - r[f"points{1 - side}"]


def test_euchre_makers_pairs_order_and_pass_at_every_seat(runs):
    result = analyze("euchre-makers", runs["euchre"])
    grid = result.tables["euchre_makers_order"]
    for place, w in enumerate(("order-up", "order-up-partner", "order-up-right", "order-up-dealer"), start=1):
        rows = hands(runs["euchre"] / w)
        by = {}
        for r in rows.iter_rows(named=True):
            by.setdefault(r["deal"], {})[r["option"]] = r
        cells = {}
        for d in by.values():
            o, p = d["order"], d["pass"]
            seat = (o["dealer"] + place) % 4
            if not (o["maker"] == seat and o["bid_round"] == 1):
                continue  # an earlier seat ordered up: this seat was never asked
            hand = o[f"hand{seat}"]
            if seat == o["dealer"] and o["picked_up"]:
                hand = (hand | 1 << o["upcard"]) & ~(1 << o["discard"])
            t, b, a = euchre_hand(hand, o["upcard"] // 13)
            cells.setdefault(t, []).append(net(o, seat) - net(p, seat))
        for t, values in cells.items():
            row = grid.filter((pl.col("place") == place) & (pl.col("trumps") == t) & (pl.col("cards") == "any"))
            assert row["n"].item() == len(values) and row["change"].item() == pytest.approx(np.mean(values))
    keys = {c.key for c in result.claims}
    assert {"eu.order.1.t3", "eu.order.4.t3", "eu.alone.1.t4"} <= keys
    assert "dealer's partner" in result.answer and "Going alone" in result.answer


def test_euchre_dd_order_values_alone_against_partner_per_seat(runs):
    result = analyze("euchre-dd-order", runs["euchre-dd"])
    frame = hands(runs["euchre-dd"])
    points = {}
    for r in frame.iter_rows(named=True):
        t = r["upcard"] // 13
        for s in range(4):
            hand = r[f"hand{s}"] | ((1 << r["upcard"]) if s == r["dealer"] else 0)
            trumps = min(euchre_hand(hand, t)[0], 5)
            side = r[f"dd_t{t}"] if s % 2 == 0 else 5 - r[f"dd_t{t}"]
            alone = r[f"dd_alone{s}_t{t}"]
            pts = 2 if side == 5 else 1 if side >= 3 else -2
            lone = 4 if alone == 5 else 1 if alone >= 3 else -2
            place = (s - r["dealer"]) % 4 or 4
            points.setdefault((place, trumps), []).append(lone - pts)
    claims = {c.key: c for c in result.claims}
    for (place, t), v in points.items():
        if 2 <= t <= 5:
            assert claims[f"eu.alone.{place}.t{t}"].value == pytest.approx(np.mean(v))


# ---------------------------------------------------------------- Gin Rummy


def test_gin_knock_now_or_wait_and_games_from_the_hands(runs):
    from analyses.gin_knock import game_win

    result = analyze("gin-knock", runs["gin"])
    rows = hands(runs["gin"] / "at10")
    by = {}
    for r in rows.iter_rows(named=True):
        nd = 1 - r["dealer"]
        value = r["points"] if r["winner"] == nd else -r["points"] if r["winner"] == r["dealer"] else 0
        by.setdefault(r["deal"], {})[r["option"]] = (value, r)
    waits = []
    for d in by.values():
        now = d["now"][1]
        nd = 1 - now["dealer"]
        if now["end"] == 1 and now["knocker"] == nd and now[f"deadwood{nd}"] >= 1:
            waits.append(d["now"][0] - d["gin"][0])
    wait = result.tables["gin_knock_wait"].filter(pl.col("wait") == "gin")
    assert wait["n"].sum() == len(waits)
    assert (wait["change"] * wait["n"]).sum() / wait["n"].sum() == pytest.approx(np.mean(waits))
    # the games: X = gin only against Y = knock at once, from the two dealers' runs
    gin_rows = hands(runs["gin"] / "gin_only")
    pool = lambda frame, option: [((r["points"] if r["winner"] == 1 - r["dealer"] else -r["points"] if r["winner"] == r["dealer"] else 0))
                                  for r in frame.filter(pl.col("option") == option).sort("deal").iter_rows(named=True)]
    expected = game_win(np.array(pool(rows, "gin")), np.array(pool(gin_rows, "now")), 100)
    mat = result.tables["gin_knock_matrix"].filter((pl.col("x") == "gin") & (pl.col("y") == "now")).row(0, named=True)
    assert mat["game_win"] == pytest.approx(expected)
    assert mat["game_win_low"] < expected < mat["game_win_high"]
    assert "knock at once" in result.level  # the dealer policy the answer is against is named


def test_gin_knock_names_the_dealer_policy_of_its_own_run(runs, tmp_path):
    """Each level names its own runs' dealer (a folder of dealers is not called by one of them)."""
    result = analyze("gin-knock", runs["gin"] / "gin_only")
    assert "gin only" in result.level and "knock at once" not in result.level


def test_gin_first_player_share_of_games(runs):
    result = analyze("gin-knock", runs["gin-games"])
    games = simcore.load(runs["gin-games"], "games").collect()
    first = hands(runs["gin-games"]).filter(pl.col("hand_no") == 0).select("game", (1 - pl.col("dealer")).alias("f"))
    wins = games.join(first, on="game").filter(pl.col("winner") == pl.col("f")).height
    c = result.claims[0]
    assert c.n == 60 and c.successes == wins and not result.figures  # one rate: a table, no single-point chart


# ---------------------------------------------------------------- Dummy


def test_dummy_first_turn_is_paired_per_deal_and_spetos_clustered(runs):
    from analyses.stats import cluster_difference

    result = analyze("dummy-advantage", runs["dummy"])
    claims = {c.key: c for c in result.claims}
    for n in (2, 3):
        rows = hands(runs["dummy"] / f"players-{n}")
        diffs, ys, one, none, deals = [], [], [], [], []
        for r in rows.iter_rows(named=True):
            first = r["starter"]
            others = [r[f"score{s}"] for s in range(n) if s != first]
            diffs.append(r[f"score{first}"] - np.mean(others))
            for s in range(n):
                k = sum(1 for c in (0, 49) if r[f"hand{s}"] >> c & 1)
                ys.append(r[f"score{s}"])
                one.append(k == 1)
                none.append(k == 0)
                deals.append(r["deal"])
        assert claims[f"dm.first.{n}"].value == pytest.approx(np.mean(diffs)) and claims[f"dm.first.{n}"].n == 300
        d, lo, hi, g = cluster_difference(ys, one, none, deals)
        c = claims[f"dm.speto.{n}"]
        assert (c.value, c.low, c.high, c.n) == pytest.approx((d, lo, hi, g))
    assert "observational" in result.figures["dummy_advantage_speto"].texts[-1].get_text().lower() or \
        "Observational" in result.summary


# ---------------------------------------------------------------- the API, the command line, reproducibility


def test_analyze_returns_tables_figure_summary_and_writes_only_when_asked(runs, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = simcore.analyze("friend-call", data=[runs["tf-friend"]])
    assert isinstance(result.tables["friend_call"], pl.DataFrame)
    assert result.figure is not None and result.summary.startswith("### ")
    assert not list(tmp_path.iterdir())  # nothing written
    out = tmp_path / "out"
    result = simcore.analyze("friend-call", data=[runs["tf-friend"]], out=out)
    names = sorted(p.name for p in out.iterdir())
    assert names == ["friend_call.csv", "friend_call.md", "friend_call.png", "friend_call_paired.csv"]
    assert sorted(p.name for p in result.files) == names


def test_the_command_line_writes_the_same_files_byte_for_byte(runs, tmp_path):
    for name, data in (("trump-call", runs["tf-calls"]), ("gin-knock", runs["gin"])):
        a, b = tmp_path / f"{name}-api", tmp_path / f"{name}-cli"
        analyze(name, data, out=a)
        assert main(["analyze", name, "--data", str(data), "--out", str(b)]) == 0
        files = sorted(p.relative_to(a) for p in a.rglob("*") if p.is_file())
        assert files == sorted(p.relative_to(b) for p in b.rglob("*") if p.is_file())
        for f in files:
            if f.suffix == ".md":  # the summary names its own output folder
                assert (a / f).read_text().replace(str(a), "OUT") == (b / f).read_text().replace(str(b), "OUT")
            else:
                assert (a / f).read_bytes() == (b / f).read_bytes(), f


def test_bad_input_is_one_clear_error(runs, tmp_path, capsys):
    with pytest.raises(SimcoreError, match="unknown analysis"):
        analyze("nope", runs["spades"])
    with pytest.raises(SimcoreError, match="does not exist"):
        analyze("spades-bids", tmp_path / "missing")
    with pytest.raises(SimcoreError, match="needs a spades run"):
        analyze("spades-bids", runs["tf-friend"])
    assert main(["analyze", "spades-bids", "--data", str(tmp_path / "missing"), "--out", str(tmp_path / "o")]) == 2
    assert "Traceback" not in capsys.readouterr().err


# ---------------------------------------------------------------- levels of play


def test_levels_pair_the_shared_deals_and_name_each_level(runs, tmp_path):
    heur = runs["tf-calls"]
    rnd = tmp_path / "random"
    simcore.simulate("trump-friend", 120, seed=5, what_if="trump", policy=["random"],
                     rules={"first_declarer": "random"}, out=rnd)
    result = analyze("trump-call", [heur, rnd], out=tmp_path / "lv")
    assert sorted(result.levels) == ["heuristic", "random"]
    diffs = {d.key: d for d in result.differences}
    d = diffs["tf.notrump"]
    assert d.paired and d.n == 120  # the random run's 120 deals are the heuristic run's first 120
    ref = {c.key: c for c in result.per_level[0][1]}["tf.notrump"].deals
    other = {c.key: c for c in result.per_level[1][1]}["tf.notrump"].deals
    joined = other.join(ref, on="deal", suffix="_ref")
    assert d.value == pytest.approx((joined["value"] - joined["value_ref"]).mean())
    table = result.tables["trump_call_level_differences"]
    assert set(table["verdict"]) <= {"differs", "not decided"} | {v for v in table["verdict"] if v.startswith("the same")}
    assert (tmp_path / "lv" / "random" / "trump_call.md").is_file()
    for label, sub in result.levels.items():
        run = heur / "whatif" if label == "heuristic" else rnd
        assert sub.level.startswith(level_text(json.loads((run / "manifest.json").read_text())))


def test_a_small_level_says_not_enough_deals(runs, tmp_path):
    small = tmp_path / "small"
    simcore.simulate("trump-friend", 12, seed=5, what_if="trump", rules={"first_declarer": "random"}, out=small)
    result = analyze("trump-call", [runs["tf-calls"], small])
    small_claims = {c.key: c for c in result.per_level[1][1]}
    assert small_claims["tf.second"].verdict == "not enough deals (n = 12)"
    assert not result.differences or all(d.key != "tf.second" for d in result.differences)
    assert "not enough deals (n = 12)" in result.answer


def test_level_labels_come_from_the_manifest():
    assert level_label({"policies": {"seats": ["heuristic"] * 4, "bid": "seat"}}) == "heuristic"
    assert level_label({"policies": {"seats": ["pimc:32"] * 4}}) == "pimc:32"
    assert level_label({"policies": {"seats": ["expert", "heuristic"]}}) == "expert/heuristic"
    assert level_label({"command": "solve", "policies": {}}) == "open-hand"


def test_an_open_hand_level_is_read_by_the_open_hand_analysis(runs, tf_solve, spades_dd, tmp_path):
    result = analyze("trump-call", [runs["tf-calls"], tf_solve[0]])
    assert list(result.levels) == ["heuristic", "open-hand"]
    keys = {c.key for c in result.per_level[1][1]}
    assert keys == {"tf.second", "tf.third", "tf.notrump"}  # trump-call's questions only
    d = {d.key: d for d in result.differences}["tf.notrump"]
    assert d.paired and d.n == 300
    result = analyze("spades-bids", [runs["spades"], spades_dd])
    assert {c.key for c in result.per_level[1][1]} <= {"sp.side", "sp.nil_chosen"}
    with pytest.raises(SimcoreError, match="open-hand table"):
        analyze("trump-call", tf_solve[0])


# ---------------------------------------------------------------- what every summary names


CASES = {  # analysis -> the fixture key of its run folder, and the run whose manifest names the level
    "trump-call": ("tf-calls", "tf-calls/whatif"),
    "friend-call": ("tf-friend", "tf-friend"),
    "spades-bids": ("spades-mixed", "spades-mixed"),
    "spades-nil": ("spades-nil", "spades-nil"),
    "euchre-makers": ("euchre", "euchre/order-up"),
    "euchre-dd-order": ("euchre-dd", "euchre-dd"),
    "gin-knock": ("gin", "gin/at10"),
    "dummy-advantage": ("dummy", "dummy/players-2"),
    "dealing-check": ("spades", "spades"),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_summary_names_the_level_and_policies_of_its_runs(runs, name):
    folder, named = CASES[name]
    result = analyze(name, runs[folder])
    manifest = json.loads((runs["root"] / named / "manifest.json").read_text())
    assert f"- Level of play: {level_text(manifest)}" in result.summary
    if name == "spades-bids":  # every seat's own bidder, not "heuristic" for all
        assert "heuristic/random/heuristic/random bids" in result.summary
    for fig in result.figures.values():  # figures read at a glance: at most 4 panels, ~2,000 px tall at most
        width, height = fig.get_size_inches() * DPI
        assert height <= 2000 and width <= 2000
        panels = [ax for ax in fig.axes if ax.get_label() != "<colorbar>" and ax.get_subplotspec() is not None]
        assert len({ax.get_subplotspec().get_geometry() for ax in panels}) <= 4
    assert "upper bound" not in result.summary


def test_every_registered_analysis_has_its_module():
    import importlib

    for name, (module, game) in ANALYSES.items():
        m = importlib.import_module(module)
        assert hasattr(m, "analyse") and hasattr(m, "NAME"), name


def test_analysis_is_reproducible(runs, tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    run_analysis("spades-bids", runs["spades"], a)
    run_analysis("spades-bids", runs["spades"], b)
    for p in a.iterdir():
        if p.suffix == ".md":  # the summary's command names its own output folder
            assert p.read_text().replace(str(a), "OUT") == (b / p.name).read_text().replace(str(b), "OUT")
        else:
            assert p.read_bytes() == (b / p.name).read_bytes(), p.name


# ---------------------------------------------------------------- dealing check and exact laws


@pytest.mark.parametrize("key", ["spades", "tf-friend", "gin-games"])
def test_dealing_check_counts_every_deal_and_fits_the_exact_laws(runs, key):
    result = analyze("dealing-check", runs[key])
    tests = result.tables["dealing_check_tests"]
    assert (tests["p_value"] > 1e-4).all()
    assert "agree with the exact laws" in result.answer


def test_dealing_check_detects_a_biased_deal(runs, tmp_path):
    biased = tmp_path / "biased"
    simcore.simulate("spades", 3000, seed=3, predeal=["0=AS,KS"], out=biased)
    result = analyze("dealing-check", biased)
    assert "do NOT match" in result.answer and "constrains the deal" in result.answer


def test_exact_laws_match_brute_force_on_the_euchre_deck():
    cards_ = dc.deck("euchre")
    hcp = dc.POINTS["spades"][2]
    lengths, patterns, points = np.zeros(6), {}, {}
    combos = list(itertools.combinations(cards_, 5))
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
    law = dc.points_law(cards_, hcp, 5)
    assert all(law[k] == pytest.approx(v / total) for k, v in points.items())


def test_exact_laws_give_the_bridge_textbook_figures():
    law = dc.pattern_law(13, 13)
    assert law["4-4-3-2"] == pytest.approx(0.2155, abs=5e-5)
    assert law["4-3-3-3"] == pytest.approx(0.1054, abs=5e-5)
    hcp = dc.points_law(dc.deck("spades"), dc.POINTS["spades"][2], 13)
    assert hcp[10] == pytest.approx(0.0941, abs=5e-5)


def test_make_results_batches_feed_every_job_without_user_policies():
    import importlib.util
    import sys

    path = Path(__file__).resolve().parent.parent / "scripts" / "make_results.py"
    spec = importlib.util.spec_from_file_location("make_results", path)
    mr = importlib.util.module_from_spec(spec)
    sys.modules["make_results"] = mr
    try:
        spec.loader.exec_module(mr)
    finally:
        del sys.modules["make_results"]
    folders = {f"data/{b.folder}" for b in mr.BATCHES}
    for job in mr.JOBS:
        for d in job.folders:
            assert any(f == d or f.startswith(d + "/") for f in folders), d
    for b in mr.BATCHES:
        assert not any("user:" in a for a in b.args)
        assert b.game in mr.LANES
    # every size comes from the one table, and raising an entry raises its batches
    assert all(b.size in mr.SIZES and b.args[:2] == ["--deals", str(mr.SIZES[b.size])] for b in mr.BATCHES)
    mr.set_sizes({"spades-pimc": 1500})
    assert next(b for b in mr.BATCHES if b.folder == "spades-pimc").args[:2] == ["--deals", "1500"]


# ---------------------------------------------------------------- the report


def _make_results():
    import importlib.util
    import sys

    path = Path(__file__).resolve().parent.parent / "scripts" / "make_results.py"
    spec = importlib.util.spec_from_file_location("make_results_report", path)
    mr = importlib.util.module_from_spec(spec)
    sys.modules["make_results_report"] = mr
    try:
        spec.loader.exec_module(mr)
    finally:
        del sys.modules["make_results_report"]
    return mr


def test_the_report_regenerates_byte_for_byte_and_states_where_each_answer_holds(runs, tmp_path, monkeypatch):
    mr = _make_results()
    from results_report import make_report

    jobs = [mr.Job("trump-call", [str(runs["tf-calls"]), str(runs["root"] / "small")], "results/trump", "trump"),
            mr.Job("gin-knock", str(runs["gin"]), "results/gin", "knock"),
            mr.Job("dealing-check", str(runs["spades"]), "results/checks/spades", "dealing")]
    simcore.simulate("trump-friend", 12, seed=5, what_if="trump", rules={"first_declarer": "random"},
                     out=runs["root"] / "small")
    texts = []
    for name in ("a", "b"):
        (tmp_path / name).mkdir()
        monkeypatch.chdir(tmp_path / name)
        make_report(jobs, mr)
        texts.append({p.relative_to(tmp_path / name): p.read_bytes() for p in (tmp_path / name).rglob("*")
                      if p.is_file()})
    assert texts[0] == texts[1]
    readme = texts[0][Path("results/README.md")].decode()
    assert readme.index("## Answers") < readme.index("## Trump Friend") < readme.index("## Methods")
    row = next(line for line in readme.splitlines() if line.startswith("| [Trump Friend: which trump"))
    # decided at heuristic; the 12-deal level is named as not enough deals, not as holding
    assert "heuristic" in row and "not enough deals at heuristic (small) (n = 12)" in row
    assert "minutes" not in readme and "load average" not in readme  # nothing that changes from run to run


def test_holds_at_names_the_levels_that_decide_and_those_that_cannot():
    from results_report import holds_at

    from analyses.levels import Claim

    def claim(low, high, n=500):
        return Claim("k", "q", (low + high) / 2, low, high, n, words=("lower", "higher", "same"), margin=0.1)

    levels = [("heuristic", {"k": claim(-2, -1)}), ("pimc", {"k": claim(-3, 1, 400)}),
              ("open-hand", {"k": claim(-1, 1, 10)}), ("expert", {"k": claim(1, 2)})]
    text = holds_at(levels, ["k"])
    assert text.startswith("heuristic; not enough deals at pimc (n = 400), open-hand (n = 10)")
    assert text.endswith("differs at expert: higher")
