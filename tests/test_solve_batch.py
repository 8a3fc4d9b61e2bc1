"""``simcore solve GAME``: DD tables of a batch of deals, on the batch runner.

Deal k is row k of ``simcore simulate`` with the same seed; every DD value is the value
``simcore.solve`` gives the same position; rows are the same for any threads and chunks, and an
interrupted run resumes to them."""

import json

import polars as pl
import pytest

import simcore
from simcore import batch, cli
from simcore.errors import SimcoreError

EUCHRE_TABLE = [f"dd_t{t}" for t in range(4)] + [f"dd_alone{s}_t{t}" for s in range(4) for t in range(4)]


def _rows(run):
    return run.hands().collect().sort("deal")


# Full random deals take the Spades and Trump Friend solvers seconds each (docs/solving.md), so
# the default run solves deals made quick by predealing whole suits; the `sweep` checks below (opt-in)
# use unconstrained deals.
RANKS = "23456789TJQKA"


def _suit(s, ranks=RANKS):
    return ",".join(r + s for r in ranks)


CLUBS, DIAMONDS = _suit("C"), _suit("D")
QUICK = {
    "spades": [f"0={CLUBS}", f"1={_suit('D', RANKS[:10])},{_suit('H', RANKS[:3])}",
               f"2={_suit('H', RANKS[3:])},{_suit('S', RANKS[:3])}"],
    "euchre": [],
    "trump-friend": [f"{seat}={_suit(suit, RANKS[:10])}" for seat, suit in enumerate("CDHS")],
}


@pytest.mark.parametrize("game, deals, keys", [
    ("spades", 4, ["dealer"]),
    ("euchre", 200, ["dealer", "upcard"]),
    ("trump-friend", 2, ["declarer", "kitty"]),
])
def test_deal_k_has_the_cards_of_row_k_of_simulate(game, deals, keys):
    dd = _rows(simcore.solve_deals(game, deals, seed=4, predeal=QUICK[game] or None))
    sim = _rows(simcore.simulate(game, deals, seed=4, predeal=QUICK[game] or None))
    seats = 5 if game == "trump-friend" else 4
    hands = [f"dealt{s}" if game == "spades" else f"hand{s}" for s in range(seats)]
    assert dd.select("seed", "deal", *keys).equals(sim.select("seed", "deal", *keys))
    for s in range(seats):
        assert (dd[f"hand{s}"] == sim[hands[s]]).all()


def _spades_table_matches(predeal, deals, must_break):
    dd = _rows(simcore.solve_deals("spades", deals, seed=2, predeal=predeal, options={"nil": "exact"},
                                   rules={"must_break_spades": str(must_break)}))
    for row in dd.iter_rows(named=True):
        hands = [row[f"hand{s}"] for s in range(4)]
        leader = (row["dealer"] + 1) % 4
        rules = {"must_break_spades": must_break}
        assert row["dd_tricks"] == simcore.solve("spades", hands, leader=leader, rules=rules).value
        for s in range(4):
            nil = simcore.solve("spades", hands, leader=leader, rules=rules, nil=s).value
            assert row[f"dd_nil{s}"] == nil


@pytest.mark.parametrize("must_break", [True, False])
def test_spades_table_is_the_open_hand_value_of_the_deal(must_break):
    _spades_table_matches(QUICK["spades"], 3, must_break)


@pytest.mark.sweep
def test_spades_table_on_unconstrained_deals():
    _spades_table_matches(None, 2, False)


@pytest.mark.parametrize("nil", ["exact", "safe", "none"])
def test_spades_nil_modes_solve_what_they_say(nil):
    """--nil exact counts each nil's tricks; safe only whether it holds (dd_nil 0 or null);
    none no nil; dd_nil_safe{s} is the nil value's = 0 in the first two, and dd_tricks the same."""
    dd = _rows(simcore.solve_deals("spades", 3, seed=5, predeal=QUICK["spades"], options={"nil": nil}))
    assert dd.select("seed", "deal", "dd_tricks").equals(_rows(simcore.solve_deals(
        "spades", 3, seed=5, predeal=QUICK["spades"])).select("seed", "deal", "dd_tricks"))
    for row in dd.iter_rows(named=True):
        hands = [row[f"hand{s}"] for s in range(4)]
        leader = (row["dealer"] + 1) % 4
        for s in range(4):
            value = simcore.solve("spades", hands, leader=leader, nil=s).value
            got, safe = row[f"dd_nil{s}"], row[f"dd_nil_safe{s}"]
            if nil == "exact":
                assert got == value and safe == (value == 0)
            elif nil == "safe":
                assert safe == (value == 0) and got == (0 if value == 0 else None)
            else:
                assert got is None and safe is None


def test_spades_nil_mode_is_in_the_manifest_and_resume_keeps_it(tmp_path):
    # two deals, not one: a one-row run compiles a kernel of its own
    default = simcore.solve_deals("spades", 2, seed=5, predeal=QUICK["spades"], out=tmp_path / "default")
    assert default.manifest["options"] == {"nil": "safe"}  # the count of a failing nil is asked for by name
    out = tmp_path / "dd"
    run = simcore.solve_deals("spades", 2, seed=5, predeal=QUICK["spades"], options={"nil": "none"}, out=out)
    assert run.manifest["options"] == {"nil": "none"}
    with pytest.raises(SimcoreError, match="options"):
        simcore.solve_deals("spades", 2, seed=5, predeal=QUICK["spades"], out=out, resume=True)
    with pytest.raises(SimcoreError, match="--nil must be one of safe, exact, none"):
        simcore.solve_deals("spades", 2, seed=5, options={"nil": "maybe"})
    with pytest.raises(SimcoreError, match="takes no --nil"):
        simcore.solve_deals("euchre", 2, seed=5, options={"nil": "safe"})


def _euchre_entry(hands, dealer, upcard, trump, alone):
    """One DD column from simcore.solve: the dealer's six possible discards tried one by one."""
    hands = list(hands)
    if alone >= 0:
        hands[(alone + 2) % 4] = 0
        leader, side = (alone + 1) % 4, alone
    else:
        leader, side = (dealer + 1) % 4, -1
    dealer_out = alone >= 0 and (alone + 2) % 4 == dealer

    def value(h):
        v = simcore.solve("euchre", h, leader=leader, trump=trump, alone=alone).value
        if alone < 0:
            return v
        # the lone seat's tricks: seats 0+2 count it when it sits in 0 or 2, else 5 - that
        return v if side % 2 == 0 else 5 - v

    if upcard // 13 != trump or dealer_out:
        return value(hands)
    six = hands[dealer] | (1 << upcard)
    options = []
    for c in range(52):
        if six >> c & 1:
            h = list(hands)
            h[dealer] = six & ~(1 << c)
            options.append(value(h))
    dealer_side_counts = (dealer % 2 == 0) if alone < 0 else (dealer % 2 == side % 2)
    return max(options) if dealer_side_counts else min(options)


def test_euchre_table_is_the_open_hand_value_with_the_best_discard():
    dd = _rows(simcore.solve_deals("euchre", 12, seed=7))
    for row in dd.iter_rows(named=True):
        hands = [row[f"hand{s}"] for s in range(4)]
        for t in range(4):
            assert row[f"dd_t{t}"] == _euchre_entry(hands, row["dealer"], row["upcard"], t, -1)
            for s in range(4):
                assert row[f"dd_alone{s}_t{t}"] == _euchre_entry(hands, row["dealer"], row["upcard"], t, s)


@pytest.mark.parametrize("predeal", [QUICK["trump-friend"], pytest.param(None, marks=pytest.mark.sweep)])
def test_trump_friend_table_uses_the_run_friend_policy_and_the_friend_seat(predeal):
    dd = _rows(simcore.solve_deals("trump-friend", 2, seed=3, predeal=predeal))
    calls = _rows(simcore.simulate("trump-friend", 2, seed=3, what_if="trump", predeal=predeal))
    for k, row in enumerate(dd.iter_rows(named=True)):
        hands = [row[f"hand{s}"] for s in range(5)]
        d = row["declarer"]
        for t in range(5):
            call = calls.row(5 * k + t, named=True)
            assert row[f"dd_friend{t}"] == call["friend_card"]
            team = {d} | ({call["friend_seat"]} if call["friend_seat"] >= 0 else set())
            solo = simcore.solve("trump-friend", hands, leader=(d + 1) % 5, trump=t, team={d}).value
            with_friend = simcore.solve("trump-friend", hands, leader=(d + 1) % 5, trump=t, team=team).value
            assert row[f"dd_solo{t}"] == solo
            assert row[f"dd_points{t}"] == with_friend
    none = _rows(simcore.solve_deals("trump-friend", 2, seed=3, predeal=predeal, policy=["friend=none"]))
    assert all((none[f"dd_friend{t}"] == -1).all() for t in range(5))
    assert all(none[f"dd_points{t}"].equals(none[f"dd_solo{t}"]) for t in range(5))


def test_rows_are_the_same_whatever_the_threads_and_chunks(tmp_path):
    one = _rows(simcore.solve_deals("euchre", 300, seed=5, threads=1, chunk_size=300))
    two = _rows(simcore.solve_deals("euchre", 300, seed=5, threads=2, chunk_size=70,
                                    out=tmp_path / "run"))
    assert one.equals(two)
    manifest = json.loads((tmp_path / "run" / "manifest.json").read_text())
    assert manifest["command"] == "solve" and manifest["omniscient"] == ["open-hand"]
    assert manifest["finished"] and len(manifest["chunks"]) == 5


def test_interrupted_solve_resumes_to_identical_rows(tmp_path, monkeypatch):
    reference = _rows(simcore.solve_deals("euchre", 400, seed=9, chunk_size=100))
    out = tmp_path / "run"
    real = batch.compute_chunk
    calls = {"n": 0}

    def flaky(spec, chunk):
        calls["n"] += 1
        if calls["n"] == 3:
            raise KeyboardInterrupt
        return real(spec, chunk)

    monkeypatch.setattr(batch, "compute_chunk", flaky)
    with pytest.raises(KeyboardInterrupt):
        simcore.solve_deals("euchre", 400, seed=9, chunk_size=100, out=out)
    monkeypatch.setattr(batch, "compute_chunk", real)
    with pytest.raises(SimcoreError, match="unfinished run"):
        simcore.solve_deals("euchre", 400, seed=9, chunk_size=100, out=out)
    simcore.solve_deals("euchre", 400, seed=9, chunk_size=100, out=out, resume=True)
    assert simcore.load(out).collect().sort("deal").equals(reference)


def test_predeal_and_conditions_hold_in_the_solved_deals():
    dd = _rows(simcore.solve_deals("euchre", 50, seed=1, predeal=["0=JH"],
                                   conditions=["dealer:bowers>=1"]))
    assert (dd["hand0"] & (1 << 35) != 0).all()  # JH = 13 * 2 + 9
    sim = _rows(simcore.simulate("euchre", 50, seed=1, predeal=["0=JH"], conditions=["dealer:bowers>=1"]))
    assert dd.select("deal", "hand0", "hand1", "upcard", "attempts").equals(
        sim.select("deal", "hand0", "hand1", "upcard", "attempts"))


@pytest.mark.parametrize("args, message", [
    (["solve", "gin-rummy", "--deals", "5"], "no open-hand solver"),
    (["solve", "spades", "--deals", "5", "--policy", "heuristic"], "open-handed"),
    (["solve", "trump-friend", "--deals", "5", "--policy", "trump=notrump"], "friend=NAME"),
    (["solve", "trump-friend", "--deals", "5", "--policy", "friend=nobody"], "unknown friend policy"),
    (["solve", "euchre", "--deals", "0"], "positive whole number"),
    (["solve", "euchre", "--deals", "5", "--rules", "colour=red"], "unknown rules option"),
    (["solve", "euchre", "--deals", "5", "--condition", "0:bowers>=9"], "condition"),
    (["solve", "spades", "--deals", "5", "--nil", "often"], "--nil must be one of"),
    (["solve", "trump-friend", "--deals", "5", "--nil", "safe"], "takes no --nil"),
])
def test_bad_solve_input_is_one_line_and_exit_2(args, message, capsys, tmp_path):
    out = tmp_path / "out"
    assert cli.main([*args, "--out", str(out), "--quiet"]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and message in err, err
    # refused before anything is written; an impossible condition is found while dealing
    # (after 1,000,000 attempts, as in simulate), before any part is written
    assert not list(out.glob("hands/part-*.parquet"))


def test_solve_from_the_command_line_then_polars(capsys, tmp_path):
    out = tmp_path / "dd"
    assert cli.main(["solve", "euchre", "--deals", "100", "--seed", "3", "--out", str(out), "--quiet"]) == 0
    frame = pl.scan_parquet(out / "hands" / "*.parquet").select(EUCHRE_TABLE).collect()
    assert frame.height == 100
    values = frame.to_numpy()
    assert values.min() >= 0 and values.max() <= 5


@pytest.mark.parametrize("game", ["spades", "euchre", "trump-friend"])
def test_the_warm_up_calls_each_table_kernel_as_solve_hands_does(game):
    """tests/warm_cache.py compiles each DD-table kernel on empty input before the workers start;
    a kernel whose arguments changed would make that step fail (and the suite compile it again)."""
    import numpy as np
    from simcore import games
    from warm_cache import _empty_table_kernel

    _empty_table_kernel(games.get(game), np)
