"""Batch runs: reproducibility, Parquet parts and manifest, resume, and refusing bad input."""

import errno
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import polars as pl
import pytest

import simcore
from simcore import batch
from simcore.errors import SimcoreError

GAME = "trump-friend"


def _frame(run, table="hands"):
    lazy = run.hands() if table == "hands" else run.games()
    return lazy.collect().sort("deal" if table == "hands" else "game")


def test_same_seed_gives_identical_rows_whatever_the_threads_and_chunks(tmp_path):
    one = simcore.simulate(GAME, 3000, seed=11, threads=1, chunk_size=3000, log_plays=True)
    two = simcore.simulate(GAME, 3000, seed=11, threads=2, chunk_size=700, log_plays=True)
    on_disk = simcore.simulate(GAME, 3000, seed=11, threads=2, chunk_size=1100, log_plays=True,
                               out=tmp_path / "run")
    assert _frame(one).equals(_frame(two))
    assert _frame(one).equals(_frame(on_disk))
    assert not _frame(one).equals(_frame(simcore.simulate(GAME, 3000, seed=12, log_plays=True)))


def test_game_mode_is_reproducible_across_threads_and_chunks():
    a = simcore.simulate(GAME, 60, seed=3, mode="games", threads=1, chunk_size=60)
    b = simcore.simulate(GAME, 60, seed=3, mode="games", threads=2, chunk_size=7)
    assert _frame(a).equals(_frame(b))
    assert _frame(a, "games").equals(_frame(b, "games"))
    games = _frame(a, "games")
    assert games["hands"].sum() == _frame(a).height
    assert _frame(a)["deal"].n_unique() == _frame(a).height


def test_a_later_deal_does_not_depend_on_earlier_ones():
    full = _frame(simcore.simulate(GAME, 500, seed=5))
    # chunking so that deal 400 is the first of its chunk gives the same row
    split = _frame(simcore.simulate(GAME, 500, seed=5, chunk_size=400))
    assert full.row(400) == split.row(400)


def test_run_folder_has_manifest_parts_and_metadata(tmp_path):
    out = tmp_path / "run"
    simcore.simulate(GAME, 2500, seed=1, out=out, chunk_size=1000, rules={"losing_line": "50"},
                     policy=["random", "trump=notrump"])
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["finished"] is True
    assert manifest["rules"]["losing_line"] == 50 and manifest["rules"]["end_at"] == "reach"
    assert manifest["policies"] == {"seats": ["random"] * 5, "trump": "notrump", "friend": "highest"}
    assert [c["status"] for c in manifest["chunks"]] == ["done"] * 3
    parts = sorted((out / "hands").glob("part-*.parquet"))
    assert [p.name for p in parts] == ["part-00000.parquet", "part-00001.parquet", "part-00002.parquet"]
    meta = json.loads(pl.read_parquet_metadata(parts[1])["simcore"])
    assert meta["chunk"] == 1 and meta["rules"]["losing_line"] == 50 and meta["seed"] == 1
    frame = simcore.load(out).collect()
    assert frame.height == 2500 and frame["deal"].sort().to_list() == list(range(2500))
    assert (frame["trump"] == 4).all()


def test_interrupted_run_resumes_to_identical_rows(tmp_path, monkeypatch):
    reference = _frame(simcore.simulate(GAME, 4000, seed=9, chunk_size=1000))
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
        simcore.simulate(GAME, 4000, seed=9, chunk_size=1000, out=out)
    monkeypatch.setattr(batch, "compute_chunk", real)
    manifest = json.loads((out / "manifest.json").read_text())
    assert not manifest["finished"]
    assert [c["status"] for c in manifest["chunks"]] == ["done", "done", "pending", "pending"]
    with pytest.raises(SimcoreError, match="unfinished run"):
        simcore.simulate(GAME, 4000, seed=9, chunk_size=1000, out=out)
    simcore.simulate(GAME, 4000, seed=9, chunk_size=1000, out=out, resume=True)
    assert simcore.load(out).collect().sort("deal").equals(reference)


@pytest.mark.parametrize("failure", ["os", "polars"])
def test_a_failing_write_is_one_line_and_keeps_the_finished_parts(tmp_path, monkeypatch, capsys,
                                                                  failure):
    from simcore import cli

    if failure == "polars" and not os.path.exists("/dev/full"):
        pytest.skip("needs /dev/full (Linux) for a real full-disk error")
    reference = _frame(simcore.simulate(GAME, 4000, seed=9, chunk_size=1000))
    out = tmp_path / "run"
    real = batch.write_part

    def disk_full(folder, spec, chunk, frames):
        if chunk["index"] == 2:
            def partial(f):
                f.write(b"PAR1")  # a part cut short by the full disk
                if failure == "os":
                    raise OSError(errno.ENOSPC, "No space left on device")
                with open("/dev/full", "wb") as full:  # polars wraps the OSError in its own
                    frames["hands"].write_parquet(full)
            batch._atomic_write(folder / "hands" / batch._part_name(2), partial)
        return real(folder, spec, chunk, frames)

    monkeypatch.setattr(batch, "write_part", disk_full)
    args = ["simulate", GAME, "--deals", "4000", "--seed", "9", "--chunk-size", "1000", "--quiet",
            "--out", str(out)]
    assert cli.main(args) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "No space left on device" in err and "--resume" in err
    manifest = json.loads((out / "manifest.json").read_text())
    assert not manifest["finished"]
    assert [c["status"] for c in manifest["chunks"]] == ["done", "done", "pending", "pending"]
    assert sorted(p.name for p in (out / "hands").iterdir()) == ["part-00000.parquet",
                                                                  "part-00001.parquet"]
    monkeypatch.setattr(batch, "write_part", real)
    assert cli.main(args + ["--resume"]) == 0
    assert simcore.load(out).collect().sort("deal").equals(reference)


def test_kill_9_then_resume_gives_the_rows_of_an_uninterrupted_run(tmp_path):
    out = tmp_path / "killed"
    args = [sys.executable, "-m", "simcore", "simulate", GAME, "--deals", "60000", "--seed", "4",
            "--chunk-size", "2000", "--threads", "1", "--quiet", "--out", str(out)]
    proc = subprocess.Popen(args)
    deadline = time.time() + 120
    while time.time() < deadline and len(list((out / "hands").glob("part-*.parquet"))) < 2:
        time.sleep(0.05)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    written = len(list((out / "hands").glob("part-*.parquet")))
    assert 2 <= written < 30, "the run should have been killed part-way"
    subprocess.run(args + ["--resume"], check=True)
    resumed = simcore.load(out).collect().sort("deal")
    reference = _frame(simcore.simulate(GAME, 60000, seed=4, chunk_size=2000))
    assert resumed.equals(reference)


def test_resume_refuses_a_folder_made_with_other_options(tmp_path):
    out = tmp_path / "run"
    simcore.simulate(GAME, 100, seed=1, out=out)
    before = {p: p.stat().st_mtime_ns for p in out.rglob("*")}
    with pytest.raises(SimcoreError, match="other options.*seed"):
        simcore.simulate(GAME, 100, seed=2, out=out, resume=True)
    with pytest.raises(SimcoreError, match="finished run"):
        simcore.simulate(GAME, 100, seed=1, out=out)
    assert {p: p.stat().st_mtime_ns for p in out.rglob("*")} == before


def test_resume_of_a_finished_run_changes_nothing(tmp_path):
    out = tmp_path / "run"
    simcore.simulate(GAME, 100, seed=1, out=out)
    parts = {p: p.stat().st_mtime_ns for p in (out / "hands").glob("*")}
    simcore.simulate(GAME, 100, seed=1, out=out, resume=True)
    assert {p: p.stat().st_mtime_ns for p in (out / "hands").glob("*")} == parts


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"deals": 0}, "positive whole number"),
        ({"deals": -5}, "positive whole number"),
        ({"threads": 0}, "--threads"),
        ({"mode": "rounds"}, "unknown mode"),
        ({"rules": {"nope": 1}}, "unknown rules option"),
        ({"rules": {"end_at": "sometimes"}}, "must be one of"),
        ({"rules": {"losing_line": "ten"}}, "whole number"),
        ({"policy": ["clever"]}, "unknown play policy"),
        ({"policy": ["trump=hearts"]}, "unknown trump policy"),
        ({"policy": ["7=random"]}, "seat 7"),
        ({"seed": -1}, "seed"),
    ],
)
def test_bad_arguments_are_refused_before_anything_is_written(tmp_path, kwargs, message):
    args = {"deals": 10, **kwargs}
    deals = args.pop("deals")
    with pytest.raises(SimcoreError, match=message):
        simcore.simulate(GAME, deals, out=tmp_path / "run", **args)
    assert not (tmp_path / "run").exists()


def test_a_non_empty_foreign_folder_is_refused(tmp_path):
    (tmp_path / "notes.txt").write_text("mine")
    with pytest.raises(SimcoreError, match="not empty"):
        simcore.simulate(GAME, 10, out=tmp_path)
    assert (tmp_path / "notes.txt").read_text() == "mine"


def test_load_refuses_a_folder_that_is_not_a_run(tmp_path):
    with pytest.raises(SimcoreError, match="not a simcore run"):
        simcore.load(tmp_path)


def test_hands_mode_run_has_no_games_table():
    with pytest.raises(SimcoreError, match="no games table"):
        simcore.simulate(GAME, 10).games()


def _signatures(game: str) -> dict[str, int]:
    """Compiled signatures of every jitted function of a game's package."""
    from numba.core.registry import CPUDispatcher

    package = f"simcore.games.{game.replace('-', '_')}"
    return {f"{name}.{attr}": len(value.signatures)
            for name, module in list(sys.modules.items()) if name.startswith(package)
            for attr, value in vars(module).items() if isinstance(value, CPUDispatcher)}


@pytest.mark.parametrize("game", ["trump-friend", "euchre", "spades", "gin-rummy", "dummy"])
@pytest.mark.parametrize("mode", ["hands", "games"])
def test_one_deal_chunks_give_the_longer_runs_rows_and_compile_nothing_more(game, mode):
    # a one-row output array would be typed C (it is both C- and F-contiguous) and compile
    # every kernel again: a one-deal chunk runs two deals and keeps the first
    key = "deal" if mode == "hands" else "game"
    whole = simcore.simulate(game, 3, seed=5, mode=mode)
    before = _signatures(game)
    last_alone = simcore.simulate(game, 3, seed=5, mode=mode, chunk_size=2)
    one = simcore.simulate(game, 1, seed=5, mode=mode)
    assert _signatures(game) == before
    for table in ("hands", "games") if mode == "games" else ("hands",):
        full = _frame(whole, table).sort(key, maintain_order=True)
        assert _frame(last_alone, table).sort(key, maintain_order=True).equals(full)
        assert _frame(one, table).sort(key, maintain_order=True).equals(full.filter(pl.col(key) < 1))
    assert _frame(one).height >= 1
