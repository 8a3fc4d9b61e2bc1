"""The command line: one clear line and exit status 2 for bad input, never a traceback."""

import subprocess
import sys

import polars as pl
import pytest

from simcore.cli import main


def _run(args, capsys):
    code = main(args)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.mark.parametrize(
    "args, message",
    [
        (["simulate", "poker", "--deals", "5"], "unknown game 'poker'"),
        (["simulate", "trump-friend", "--deals", "0"], "positive whole number"),
        (["simulate", "trump-friend", "--deals", "lots"], "expected a whole number"),
        (["simulate", "trump-friend"], "--deals"),
        (["simulate", "trump-friend", "--deals", "5", "--threads", "0"], "--threads"),
        (["simulate", "trump-friend", "--deals", "5", "--rules", "losing_line"], "KEY=VALUE"),
        (["simulate", "trump-friend", "--deals", "5", "--rules", "colour=red"], "unknown rules option"),
        (["simulate", "trump-friend", "--deals", "5", "--policy", "psychic"], "unknown play policy"),
        (["simulate", "trump-friend", "--deals", "5", "--mode", "sets"], "invalid choice"),
        (["analyze", "nothing", "--data", ".", "--out", "x"], "unknown analysis"),
        (["describe", "chess"], "unknown game"),
        (["frobnicate"], "invalid choice"),
    ],
)
def test_bad_input_gives_one_line_and_exit_2(args, message, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out, err = _run(args, capsys)
    assert code == 2
    assert err.count("\n") == 1 and err.startswith("simcore: error: ") and message in err
    assert "Traceback" not in err
    assert not (tmp_path / "data").exists()


def test_unwritable_output_is_one_line(capsys, tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    code, _, err = _run(["simulate", "trump-friend", "--deals", "5", "--out", str(blocker / "run")], capsys)
    assert code == 2 and "cannot write" in err and err.count("\n") == 1
    assert blocker.read_text() == "x"


def test_simulate_then_analyze_end_to_end(capsys, tmp_path):
    run = tmp_path / "run"
    code, _, _ = _run(["simulate", "trump-friend", "--deals", "4000", "--seed", "2", "--quiet",
                       "--policy", "trump=random", "--rules", "losing_line=50", "--out", str(run)], capsys)
    assert code == 0
    frame = pl.scan_parquet(run / "hands" / "*.parquet").collect()
    assert frame.height == 4000 and set(frame["trump"].unique()) == {0, 1, 2, 3, 4}
    code, out, _ = _run(["analyze", "trump-call", "--data", str(run), "--out", str(tmp_path / "charts")], capsys)
    assert code == 0
    for name in ("trump_call.png", "trump_call.csv", "trump_call.md"):
        assert (tmp_path / "charts" / name).stat().st_size > 0
    table = pl.read_csv(tmp_path / "charts" / "trump_call.csv")
    assert table["n"].sum() == 4000 and (table["rate_low"] <= table["rate"]).all()


def test_existing_run_is_refused_and_untouched(capsys, tmp_path):
    run = str(tmp_path / "run")
    assert _run(["simulate", "trump-friend", "--deals", "50", "--quiet", "--out", run], capsys)[0] == 0
    before = sorted((p.name, p.stat().st_mtime_ns) for p in (tmp_path / "run").rglob("*"))
    code, _, err = _run(["simulate", "trump-friend", "--deals", "50", "--quiet", "--out", run], capsys)
    assert code == 2 and "already holds a finished run" in err
    assert sorted((p.name, p.stat().st_mtime_ns) for p in (tmp_path / "run").rglob("*")) == before


def test_help_and_describe_work_as_a_real_process():
    help_text = subprocess.run([sys.executable, "-m", "simcore", "simulate", "--help"],
                               capture_output=True, text=True, check=True).stdout
    for flag in ("--deals", "--seed", "--threads", "--out", "--mode", "--policy", "--rules",
                 "--log-plays", "--resume", "--quiet"):
        assert flag in help_text
    described = subprocess.run([sys.executable, "-m", "simcore", "describe", "trump-friend"],
                               capture_output=True, text=True, check=True).stdout
    assert "losing_line = 100" in described and "heuristic" in described
    bad = subprocess.run([sys.executable, "-m", "simcore", "simulate", "trump-friend", "--deals", "-3"],
                         capture_output=True, text=True)
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "Traceback" not in bad.stderr
