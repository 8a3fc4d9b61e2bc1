"""What-if runs: each deal played once per option of one decision, everything else held fixed.

Rows of one deal share every card and differ only in the option and its consequences; the row
of the option the policy would have chosen anyway equals the ordinary run's row (the built-in
heuristics decide these without random draws); runs are reproducible by seed whatever the
threads and chunks, through the batch runner, its Parquet metadata and the cluster identity.
"""

import json

import numpy as np
import polars as pl
import pytest

import simcore
from simcore import batch
from simcore.cli import main
from simcore.errors import SimcoreError
from simcore.games import euchre, gin_rummy, spades
from simcore.games.euchre.rules import Rules as EuchreRules
from simcore.games.gin_rummy.rules import Rules as GinRules
from simcore.games.spades.rules import Rules as SpadesRules

N = 400


def _options(frame, labels):
    """Check the deal-major layout and return {label: rows of that option}."""
    k = len(labels)
    assert frame.height == N * k and frame["option"].dtype == pl.Utf8
    assert frame["option"].to_list() == list(labels) * N
    assert (frame["deal"].to_numpy() == np.repeat(np.arange(N), k)).all()
    return {label: frame.filter(pl.col("option") == label).drop("option") for label in labels}


def _same(frames, columns):
    first = next(iter(frames.values())).select(columns)
    return all(f.select(columns).equals(first) for f in frames.values())


def _rows_equal(a, b, mask):
    return a.filter(pl.Series(mask)).equals(b.filter(pl.Series(mask)))


# ---------------------------------------------------------------- Spades: nil


@pytest.fixture(scope="module")
def spades_runs():
    choice = spades.GAME.policies_from_specs(["heuristic"])
    plain = spades.GAME.run_hands(3, 0, N, SpadesRules(), choice)
    what_if = spades.GAME.run_hands(3, 0, N, SpadesRules(), choice, what_if="nil")
    return plain, _options(what_if, ("nil", "bid"))


def test_spades_nil_rows_share_the_deal_and_differ_in_the_first_bid(spades_runs):
    plain, opts = spades_runs
    hands = ["seed", "deal", "dealer"] + [f"hand{s}" for s in range(4)] + [f"dealt{s}" for s in range(4)]
    assert _same(opts, hands) and opts["nil"].select(hands).equals(plain.select(hands))
    first = ((plain["dealer"].to_numpy() + 1) % 4).astype(int)
    rows = np.arange(N)
    bids = {o: opts[o].select([f"bid{s}" for s in range(4)]).to_numpy() for o in opts}
    assert (bids["nil"][rows, first] == 0).all() and (bids["bid"][rows, first] > 0).all()
    assert not opts["nil"].equals(opts["bid"])


def test_spades_the_option_the_heuristic_takes_is_the_ordinary_row(spades_runs):
    plain, opts = spades_runs
    first = ((plain["dealer"].to_numpy() + 1) % 4).astype(int)
    bid = plain.select([f"bid{s}" for s in range(4)]).to_numpy()[np.arange(N), first]
    assert _rows_equal(opts["bid"], plain, bid > 0)
    assert _rows_equal(opts["nil"], plain, bid == 0)
    assert (bid > 0).sum() > N / 2


# ---------------------------------------------------------------- Euchre: order-up and alone


@pytest.fixture(scope="module")
def euchre_runs():
    choice = euchre.GAME.policies_from_specs(["heuristic"])
    run = lambda **kw: euchre.GAME.run_hands(5, 0, N, EuchreRules(), choice, **kw)
    return (run(), _options(run(what_if="order-up"), ("order", "pass")),
            _options(run(what_if="alone"), ("alone", "partner")))


EUCHRE_DEAL = ["seed", "deal", "dealer", "kitty", "upcard"] + [f"hand{s}" for s in range(4)]


def test_euchre_order_up_forces_the_dealers_left(euchre_runs):
    plain, order_up, _ = euchre_runs
    assert _same(order_up, EUCHRE_DEAL) and order_up["order"].select(EUCHRE_DEAL).equals(
        plain.select(EUCHRE_DEAL))
    first = (plain["dealer"] + 1) % 4
    ordered = order_up["order"]
    assert (ordered["maker"] == first).all() and (ordered["bid_round"] == 1).all()
    assert (ordered["trump"] == ordered["upcard"] // 13).all()
    passed = order_up["pass"]
    assert ((passed["maker"] != first) | (passed["bid_round"] != 1)).all()
    heuristic_ordered = ((plain["maker"] == first) & (plain["bid_round"] == 1)).to_numpy()
    assert 0 < heuristic_ordered.sum() < N
    assert _rows_equal(ordered, plain, heuristic_ordered)
    assert _rows_equal(passed, plain, ~heuristic_ordered)


@pytest.mark.parametrize("what_if, position", [("order-up-partner", 2), ("order-up-right", 3),
                                               ("order-up-dealer", 4)])
def test_euchre_order_up_by_seat_forces_that_seat_once_the_seats_before_it_passed(euchre_runs, what_if, position):
    plain = euchre_runs[0]
    choice = euchre.GAME.policies_from_specs(["heuristic"])
    opts = _options(euchre.GAME.run_hands(5, 0, N, EuchreRules(), choice, what_if=what_if), ("order", "pass"))
    assert _same(opts, EUCHRE_DEAL) and opts["order"].select(EUCHRE_DEAL).equals(plain.select(EUCHRE_DEAL))
    forced = ((plain["dealer"] + position) % 4).to_numpy()
    dealer = plain["dealer"].to_numpy()
    # the seats before the forced one bid as in the ordinary run: where one of them ordered up,
    # the forced seat is never asked and both rows are the ordinary row
    earlier = np.zeros(N, bool)
    for i in range(1, position):
        earlier |= (plain["maker"].to_numpy() == (dealer + i) % 4) & (plain["bid_round"].to_numpy() == 1)
    assert 0 < earlier.sum() < N
    for option in ("order", "pass"):
        assert _rows_equal(opts[option], plain, earlier)
    reached = ~earlier
    ordered, passed = opts["order"], opts["pass"]
    assert (ordered["maker"].to_numpy()[reached] == forced[reached]).all()
    assert (ordered["bid_round"].to_numpy()[reached] == 1).all()
    assert (ordered["trump"] == ordered["upcard"] // 13).all()
    assert not ((passed["maker"].to_numpy()[reached] == forced[reached])
                & (passed["bid_round"].to_numpy()[reached] == 1)).any()
    # the option the heuristic takes anyway is its ordinary row
    chose = reached & (plain["maker"].to_numpy() == forced) & (plain["bid_round"].to_numpy() == 1)
    assert _rows_equal(ordered, plain, chose)
    assert _rows_equal(passed, plain, reached & ~chose)


def test_euchre_alone_forces_the_maker(euchre_runs):
    plain, _, alone = euchre_runs
    assert _same(alone, EUCHRE_DEAL + ["trump", "maker", "bid_round", "picked_up", "discard"])
    made = (alone["alone"]["maker"] >= 0).to_numpy()
    assert (alone["alone"]["alone_maker"].to_numpy()[made] == alone["alone"]["maker"].to_numpy()[made]).all()
    assert (alone["partner"]["alone_maker"] == -1).all()
    lone = (plain["alone_maker"] == plain["maker"]).to_numpy() & made
    assert _rows_equal(alone["alone"], plain, lone)
    assert _rows_equal(alone["partner"], plain, (plain["alone_maker"] == -1).to_numpy())
    # a lone maker's partner sits out and takes no trick
    tricks = alone["alone"].select([f"tricks{s}" for s in range(4)]).to_numpy()
    partner = alone["alone"]["maker"].to_numpy()[made] ^ 2
    assert (tricks[made][np.arange(made.sum()), partner] == 0).all()
    assert 0 < lone.sum() < made.sum()


# ---------------------------------------------------------------- Gin Rummy: knock


@pytest.fixture(scope="module")
def gin_runs():
    choice = gin_rummy.GAME.policies_from_specs(["heuristic"])
    plain = gin_rummy.GAME.run_hands(8, 0, N, GinRules(), choice)
    what_if = gin_rummy.GAME.run_hands(8, 0, N, GinRules(), choice, what_if="knock")
    return plain, _options(what_if, gin_rummy.WHATIF_KNOCK_OPTIONS)


def test_gin_knock_thresholds_bind_the_non_dealer(gin_runs):
    plain, opts = gin_runs
    deal = ["seed", "deal", "dealer", "upcard", "hand0", "hand1"]
    assert _same(opts, deal) and opts["now"].select(deal).equals(plain.select(deal))
    # "gin" is what the heuristic does with the default knock policy (its own timing: gin only)
    assert opts["gin"].equals(plain)
    for label, limit in (("at7", 7), ("at4", 4), ("at1", 1), ("gin", 0)):
        rows = opts[label].filter(pl.col("knocker") == 1 - pl.col("dealer"))
        # the knocker's deadwood before lay-offs is at most the threshold: gin when 0
        if limit == 0:
            assert (rows["end"] == 2).all()
        dw = np.where(rows["knocker"] == 0, rows["deadwood0"], rows["deadwood1"])
        assert (dw <= limit).all(), label
    assert not opts["gin"].equals(opts["now"])


# ---------------------------------------------------------------- the batch runner and the CLI


def test_what_if_with_conditions_is_reproducible_across_threads_and_chunks(tmp_path):
    kw = dict(seed=9, what_if="nil", predeal=["2=AS"], conditions=["0:longest>=5"])
    one = simcore.simulate("spades", 300, threads=1, chunk_size=300, **kw)
    two = simcore.simulate("spades", 300, threads=2, chunk_size=70, out=tmp_path / "run", **kw)
    a, b = one.hands().collect(), two.hands().collect()
    assert a.equals(b) and a.height == 600
    manifest = json.loads((tmp_path / "run" / "manifest.json").read_text())
    assert manifest["what_if"] == "nil" and manifest["predeal"] == {"2": "AS"}
    assert manifest["conditions"] == ["0:longest>=5"]
    assert manifest["acceptance_rate"] == pytest.approx(a.height / a["attempts"].sum())
    assert 0 < manifest["acceptance_rate"] < 1
    assert one.manifest["acceptance_rate"] == manifest["acceptance_rate"]
    part = sorted((tmp_path / "run" / "hands").glob("*.parquet"))[0]
    meta = json.loads(pl.read_parquet_metadata(part)["simcore"])
    assert meta["what_if"] == "nil" and meta["conditions"] == ["0:longest>=5"]
    # the cluster workers' round trip: identity -> spec -> the same chunk
    spec = batch.spec_from_identity(json.loads(json.dumps(two.manifest)))
    chunk = {"index": 1, "start": 70, "count": 70}
    assert batch.compute_chunk(spec, chunk)["hands"].equals(a.slice(140, 140))
    with pytest.raises(SimcoreError, match="conditions"):
        simcore.simulate("spades", 300, out=tmp_path / "run", resume=True,
                         **(kw | {"conditions": ["0:longest>=6"]}))


@pytest.mark.parametrize("game, what_if, predeal, condition", [
    ("euchre", "order-up", ["upcard=JS"], "dealer:trumps>=2"),
    ("gin-rummy", "knock", ["1=AS,AH"], "0:hcp>=6"),
])
def test_every_game_reproduces_by_seed_across_threads_and_chunks(game, what_if, predeal, condition):
    kw = dict(seed=4, what_if=what_if, predeal=predeal, conditions=[condition])
    one = simcore.simulate(game, 250, threads=1, chunk_size=250, **kw).hands().collect()
    two = simcore.simulate(game, 250, threads=2, chunk_size=60, **kw).hands().collect()
    assert one.equals(two) and one["attempts"].max() > 1


def _cli(args, capsys):
    code = main(args)
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.mark.parametrize("extra, message", [
    (["--what-if", "trump"], "unknown what-if decision 'trump' for spades"),
    (["--what-if", "nil", "--mode", "games"], "hands mode only"),
    (["--predeal", "0=AS,KS", "--predeal", "1=KS"], "KS is given to both 0 and 1"),
    (["--predeal", "0=AS,KS,AS"], "duplicate card"),
    (["--condition", "0:longest>>5"], "malformed condition"),
    (["--condition", "north:hcp>=5"], "unknown seat 'north'"),
])
def test_cli_errors_are_one_line_and_write_nothing(extra, message, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, _, err = _cli(["simulate", "spades", "--deals", "10", "--quiet", *extra], capsys)
    assert code == 2 and err.count("\n") == 1 and message in err, err
    assert not (tmp_path / "data").exists()


def test_cli_runs_a_conditional_what_if_and_describe_lists_it(capsys, tmp_path):
    out = tmp_path / "run"
    code, _, err = _cli(["simulate", "euchre", "--deals", "200", "--quiet", "--what-if", "alone",
                         "--predeal", "upcard=9H", "--condition", "1:bowers>=1",
                         "--out", str(out)], capsys)
    assert code == 0, err
    frame = simcore.load(out).collect()
    assert frame.height == 400 and set(frame["option"]) == {"alone", "partner"}
    assert (frame["upcard"] == 7 + 13 * 2).all()
    code, text, _ = _cli(["describe", "euchre"], capsys)
    assert code == 0 and "order-up: order | pass" in text and "bowers:" in text and "upcard" in text
