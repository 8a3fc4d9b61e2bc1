"""scripts/bench.py on tiny sizes: the table has the expected rows, every cell a number with
its unit, missing peers are reported as rows, and the measuring helpers measure the right
thing.  No timing is asserted: on a shared machine only the shape of the output is stable."""

import dataclasses
import importlib.util
import io
import math
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from simcore import games

ROOT = Path(__file__).resolve().parents[1]


def _load_bench():
    spec = importlib.util.spec_from_file_location("bench", ROOT / "scripts" / "bench.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench"] = module  # Numba's cache needs the module importable by name
    spec.loader.exec_module(module)
    return module


bench = _load_bench()
NUMBER = r"[0-9][0-9,]*(?:\.[0-9]+)?"
UNITS = {
    "hands/s": re.compile(rf"^{NUMBER} hands/s$"),
    "s wall": re.compile(rf"^{NUMBER} s wall$"),
    "MB": re.compile(rf"^{NUMBER} MB$"),
}


def rows(table):
    """(game, what, threads, result, ratio) of each table row, the header left out."""
    body = [line for line in table.lines if line.startswith("| ") and not line.startswith(("| game", "| ---"))]
    return [[cell.strip() for cell in line.strip("|").split("|")] for line in body]


def value(result):
    return float(result.split()[0].replace(",", ""))


def test_trump_friend_table_has_a_numeric_row_per_measurement(tmp_path):
    out = io.StringIO()
    md = tmp_path / "bench.md"
    table = bench.main(["--only", "trump-friend", "--policies", "random", "--deals", "3000",
                        "--e2e-deals", "3000", "--repeats", "1", "--memory-deals", "2000,20000",
                        "--skip", "cold,cluster,pimc,solve", "--markdown", str(md)], out=out)
    threads = [1, 2] if bench.nb.config.NUMBA_NUM_THREADS >= 2 else [1]
    got = rows(table)
    whats = [r[1] for r in got]
    expected = (
        ["bare kernel (deal + random legal plays, no recording)"] * len(threads)
        + ["engine, `random` (kernel + polars frame)"] * len(threads)
        + ["`simcore simulate` end to end, `random`, Parquet included"]
        + ["warm start: `simcore simulate trump-friend --deals 1000`"]
        + ["peak RSS of `simcore simulate trump-friend --deals 2000 --policy random",
           "peak RSS of `simcore simulate trump-friend --deals 20000 --policy random"]
    )
    assert len(whats) == len(expected)
    for what, start in zip(whats, expected):
        assert what.startswith(start)
    units = ["hands/s"] * (len(whats) - 3) + ["s wall", "MB", "MB"]
    for row, unit in zip(got, units):
        assert row[0] == "trump-friend"
        assert UNITS[unit].match(row[3]), row
        assert value(row[3]) > 0
    # ratios are computed from the measured values (the cells show them rounded)
    bare = {int(r[2]): value(r[3]) for r in got if r[1].startswith("bare")}
    if 2 in bare:
        assert got[1][4].endswith("x of 1 thread")
        assert value(got[1][4].replace("x", " ")) == pytest.approx(bare[2] / bare[1], abs=0.011)
    small, large = (value(r[3]) for r in got[-2:])
    assert got[-1][4].endswith("x of 2,000 hands")
    assert value(got[-1][4].replace("x", " ")) == pytest.approx(large / small, abs=0.011)
    assert md.read_text() == table.markdown()
    assert out.getvalue().count("| trump-friend |") == len(got)


def test_missing_peer_libraries_are_reported_not_crashed(monkeypatch):
    for module in ("pyspiel", "rlcard", "rlcard.agents"):
        monkeypatch.setitem(sys.modules, module, None)  # import raises ImportError
    assert bench.openspiel_rate("gin_rummy", 0.01) is None
    assert bench.rlcard_rate(0.01) is None
    table = bench.Table("test", out=io.StringIO())
    [setup] = bench.setups("gin-rummy")
    sizes = bench.Sizes(engine=1000, engine_seconds=None, e2e=1000, peer_seconds=0.01, memory=(1, 2), cluster=1)
    bench.game_steps(table, setup, ["peers"], sizes, [1], 1, {})
    got = rows(table)
    assert [r[1] for r in got] == ["OpenSpiel `evaluate_bots`, uniform random bots",
                                   "RLCard `env.run(is_training=False)`, `RandomAgent`s"]
    assert [r[3] for r in got] == ["not measured: open_spiel is not installed",
                                   "not measured: rlcard is not installed"]


def test_installed_peers_play_whole_hands():
    assert bench.rlcard_rate(0.2) > 0
    assert bench.openspiel_rate("gin_rummy", 0.2) > 0


def test_each_table_size_gets_its_own_rules(monkeypatch):
    monkeypatch.setitem(bench.VARIANTS, "trump-friend", ("losing_line", (50, 200)))
    small, large = bench.setups("trump-friend")
    assert (small.label, large.label) == ("trump-friend (50 losing_line)", "trump-friend (200 losing_line)")
    assert small.cli_rules == ["--rules", "losing_line=50"] and (small.first, large.first) == (True, False)
    assert bench.engine_rate(small.game, "random", 1, 500, 1, small.options) > 0
    table = bench.Table("test", out=io.StringIO())
    sizes = bench.Sizes(engine=500, engine_seconds=None, e2e=500, peer_seconds=0.01, memory=(1, 2), cluster=1)
    for setup in (small, large):
        bench.game_steps(table, setup, ["engine"], sizes, [1], 1, {})
    labels = [r[0] for r in rows(table)]
    n = len([p for p in small.game.play_policies if p not in bench.SEARCHING])
    assert labels == [small.label] * n + [large.label] * n


def test_dummy_is_measured_per_table_size_or_reported_missing():
    found = bench.setups("dummy")
    try:
        games.get("dummy")
    except Exception as e:
        assert found == str(e)
        table = bench.main(["--only", "dummy", "--skip", ",".join(bench.STEPS)], out=io.StringIO())
        assert rows(table) == [["dummy", "every step", "", f"not measured: {e}", ""]]
    else:
        assert [s.options for s in found] == [{"players": 2}, {"players": 3}, {"players": 4}]
        assert [s.cli_rules for s in found] == [["--rules", f"players={n}"] for n in (2, 3, 4)]


def test_bad_flags_are_one_clear_line():
    with pytest.raises(SystemExit, match="unknown game"):
        bench.main(["--only", "poker"], out=io.StringIO())
    with pytest.raises(SystemExit, match="unknown step"):
        bench.main(["--skip", "everything"], out=io.StringIO())
    with pytest.raises(SystemExit, match="--policies: unknown cheat"):
        bench.main(["--only", "euchre", "--policies", "random,cheat"], out=io.StringIO())


def test_peak_rss_belongs_to_the_child_measured():
    """A small child measured after a big one reports its own peak (RUSAGE_CHILDREN would
    keep the big one's)."""
    python = [sys.executable, "-c"]
    big = bench.run_measured(["x = bytearray(300_000_000); x[::4096] = b'1' * len(x[::4096])"], command=python)
    small = bench.run_measured(["pass"], command=python)
    assert big.peak_rss > 300_000_000
    assert small.peak_rss < 100_000_000  # this pytest process holds more than that
    assert big.cpu_seconds > 0
    with pytest.raises(subprocess.CalledProcessError):
        bench.run_measured(["import sys; sys.exit(3)"], command=python)


def test_steady_rate_counts_parts_after_each_workers_first(tmp_path):
    import polars as pl

    now = time.time()
    for i, (rows_, landed) in enumerate([(100, 0.0), (100, 0.5), (300, 2.0), (200, 3.0)]):
        path = tmp_path / f"part-{i:05d}.parquet"
        pl.DataFrame({"deal": range(rows_)}).write_parquet(path)
        os.utime(path, (now + landed, now + landed))
    assert bench.steady_rate(tmp_path, 1) == pytest.approx(600 / 3.0)
    assert bench.steady_rate(tmp_path, 2) == pytest.approx(500 / 2.5)
    assert bench.steady_rate(tmp_path, 4) is None


def test_a_slow_engine_is_timed_on_fewer_hands():
    calls = []

    def engine(k):  # plays 100,000 hands/s
        calls.append(k)
        time.sleep(k / 100_000)

    best = bench.best_rate(engine, 10_000_000, 1, seconds=0.3)
    warm_up, calibration, timed = calls
    assert (warm_up, calibration) == (1000, 20_000)
    assert 20_000 <= timed < 40_000  # about 0.3 s worth
    assert 0 < best <= 100_000
    calls.clear()
    bench.best_rate(engine, 5000, 2, seconds=0.3)
    assert calls == [1000, 5000, 5000]  # small samples are not calibrated


def test_a_slow_game_runs_end_to_end_on_fewer_hands():
    sizes = bench.Sizes(engine=1, engine_seconds=None, e2e=4_000_000, peer_seconds=1, memory=(1, 2),
                        cluster=1, e2e_seconds=20)
    assert bench.e2e_deals(sizes, 1_000_000) == 4_000_000  # fast: the full size
    assert bench.e2e_deals(sizes, 43_210) == 860_000  # 20 s worth, two significant digits
    assert bench.e2e_deals(sizes, 1_000) == 100_000  # never below 100,000 ...
    assert bench.e2e_deals(dataclasses.replace(sizes, e2e=3000), 1_000) == 3000  # ... unless asked
    assert bench.e2e_deals(sizes, None) == 4_000_000  # engine not timed


# ---------------------------------------------------------------- the pimc (decisions) step


def _legal_counts(name, row, seat):
    """An independent replay: trick by trick from the rules' first leader and then each logged
    winner, the legal cards from the engine's own ``follow_mask`` in the engine's card order
    (Euchre: trump order, where the left bower is a trump), SP-7 for Spades leads."""
    import numpy as np

    from simcore.games.euchre import engine as eu_engine
    from simcore.games.euchre.deck import card_to_trump, public_to_base, to_trump
    from simcore.tricks import follow_mask

    plays = list(row["plays"])
    if name == "euchre":
        trump, dealer = row["trump"], row["dealer"]
        order = lambda c: int(card_to_trump(13 * (c // 13) + c % 13 - 7, trump))  # noqa: E731
        hands = [int(to_trump(public_to_base(np.uint64(row[f"hand{s}"])), trump)) for s in range(4)]
        if row["picked_up"]:
            hands[dealer] = (hands[dealer] | 1 << order(row["upcard"])) & ~(1 << order(row["discard"]))
        lone = [s for s in (row["alone_maker"], row["alone_defender"]) if s >= 0]
        seats = [s for s in range(4) if all(s != x ^ 2 for x in lone)]
        leader = int(eu_engine.first_leader(dealer, row["alone_maker"], row["alone_defender"]))
    else:
        n = 4 if name == "spades" else 5
        order = lambda c: c  # noqa: E731
        hands = [row[f"hand{s}"] for s in range(n)]
        seats = list(range(n))
        leader = (row["dealer"] + 1) % 4 if name == "spades" else (row["declarer"] + 1) % 5
    counts, k, broken = [], 0, False
    for t, winner in enumerate(row["trick_winners"]):
        at = seats.index(leader)
        led = None
        for i in range(len(seats)):
            s = seats[(at + i) % len(seats)]
            c = order(plays[k])
            if led is None:
                legal = hands[s]
                if name == "spades" and not broken and hands[s] & ~(0x1FFF << 39):
                    legal = hands[s] & ~(0x1FFF << 39)
                led = c // 13
            else:
                legal = int(follow_mask(np.uint64(hands[s]), led))
            assert legal >> c & 1  # the logged card was legal
            if s == seat:
                counts.append(bin(legal).count("1"))
            hands[s] &= ~(1 << c)
            broken |= name == "spades" and c // 13 == 3
            k += 1
        leader = winner
    return counts


@pytest.mark.parametrize("name", ["euchre", "spades", "trump-friend"])
def test_decisions_count_the_cards_with_a_choice(name):
    game = games.get(name)
    frame = game.run_hands(3, 0, 150, game.rules_cls(), game.policies_from_specs(["heuristic"]), True)
    forced = 0
    for row in frame.iter_rows(named=True):
        if name == "euchre" and row["maker"] < 0:
            continue
        for seat in range(game.n_seats):
            counts = _legal_counts(name, row, seat)
            calls = (bench.euchre_calls(row, seat) if name == "euchre" else
                     int(name == "spades" and not row[f"blind{seat}"]))
            assert bench.seat_decisions(name, row, seat) == sum(c > 1 for c in counts) + calls
            forced += sum(c == 1 for c in counts)
    assert forced > 0  # some cards had no choice and were not counted


@pytest.mark.parametrize("row, seat, expected", [
    # round one, seat 1 (dealer 3's second seat) orders up: seat 0 passed once and may defend alone
    (dict(dealer=3, maker=1, bid_round=1, picked_up=True, alone_maker=-1, alone_defender=-1), 0, 2),
    # the dealer itself: not reached in round one, then pick up? and the discard, then defend alone
    (dict(dealer=0, maker=1, bid_round=1, picked_up=True, alone_maker=-1, alone_defender=-1), 0, 3),
    # the dealer leaves the card: no discard
    (dict(dealer=0, maker=1, bid_round=1, picked_up=False, alone_maker=-1, alone_defender=-1), 0, 2),
    # round two, named by seat 2 (turn 2) whose partner is seat 0 (turn 4): round one only; seat
    # 2 went alone before seat 0's turn, so seat 0 is not asked
    (dict(dealer=0, maker=2, bid_round=2, picked_up=False, alone_maker=2, alone_defender=-1), 0, 1),
    # the same, seat 1 a defender (turn 1) asked round one and two and whether to defend alone
    (dict(dealer=0, maker=2, bid_round=2, picked_up=False, alone_maker=2, alone_defender=-1), 1, 3),
    # seat 3 (turn 3): round one only, and asked to defend alone after the maker went alone,
    # which is no choice for a searching seat (the solver plays one lone hand at most)
    (dict(dealer=0, maker=2, bid_round=2, picked_up=False, alone_maker=2, alone_defender=-1), 3, 1),
    # thrown in: two passes
    (dict(dealer=2, maker=-1, bid_round=-1, picked_up=False, alone_maker=-1, alone_defender=-1), 1, 2),
])
def test_euchre_bidding_decisions(row, seat, expected):
    assert bench.euchre_calls(row, seat) == expected


def test_pimc_step_reports_decisions_per_second(monkeypatch):
    monkeypatch.setattr(bench, "SEARCH_HANDS", {"euchre": 12, "spades": 2, "trump-friend": 1})
    table = bench.Table("test", out=io.StringIO())
    sizes = bench.Sizes(engine=1, engine_seconds=None, e2e=1, peer_seconds=1, memory=(1, 2), cluster=1)
    bench.pimc_step(table, ["euchre"], sizes, 1)
    [row] = rows(table)
    assert row[0] == "euchre" and row[1].startswith("`pimc` (W = 32) decisions of seat 0")
    assert re.match(rf"^{NUMBER} decisions/s$", row[3]) and value(row[3]) > 0
    assert "target 500/s" in row[4]


def test_markdown_replaces_the_table_between_the_markers_and_keeps_the_rest(tmp_path):
    page = tmp_path / "performance.md"
    page.write_text(f"# Performance\n\nintro\n\n{bench.BEGIN}\nold table\nold note\n{bench.END}\n\nafter\n")
    bench.write_markdown(page, "new table\n")
    assert page.read_text() == f"# Performance\n\nintro\n\n{bench.BEGIN}\nnew table\n{bench.END}\n\nafter\n"
    bench.write_markdown(page, "newer\n")
    assert page.read_text().count("newer") == 1 and "new table" not in page.read_text()
    plain = tmp_path / "plain.md"
    plain.write_text("anything\n")
    bench.write_markdown(plain, "the table\n")
    assert plain.read_text() == "the table\n"
    bench.write_markdown(tmp_path / "new.md", "fresh\n")
    assert (tmp_path / "new.md").read_text() == "fresh\n"


def test_steady_solve_rate_takes_the_start_up_off_and_refuses_noise():
    # 40 deals in 12 s against 2 s for one deal: 39 extra deals in 10 s.
    assert bench.solve_rate(40, 2.0, 12.0) == pytest.approx(3.9)
    # The extra deals took under a quarter of the one-deal run: start-up noise, no rate.
    assert math.isnan(bench.solve_rate(2, 2.0, 2.3))
    assert math.isnan(bench.solve_rate(2, 2.0, 1.9))
    assert math.isnan(bench.solve_rate(1, 2.0, 9.0))
