"""scripts/bench_write.py on a tiny run: the table has a row per game with a number in every
cell, and the codec rows cover every codec.  No timing is asserted (a shared machine)."""

import importlib.util
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NUMBER = r"[0-9]+\.[0-9]+"


def _load():
    spec = importlib.util.spec_from_file_location("bench_write", ROOT / "scripts" / "bench_write.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_write"] = module
    spec.loader.exec_module(module)
    return module


def test_the_table_has_a_number_in_every_cell(capsys):
    bench_write = _load()
    assert bench_write.main(["--games", "trump-friend", "--deals", "3000", "--codecs"]) == 0
    rows = [[c.strip() for c in line.strip("|").split("|")]
            for line in capsys.readouterr().out.splitlines() if line.startswith("| trump-friend |")]
    cells, codec_rows = rows[0], rows[1:]
    assert all(re.fullmatch(rf"{NUMBER} CPU s/M hands", c) for c in cells[1:4]), cells
    assert re.fullmatch(NUMBER, cells[4]) and float(cells[4]) > 8  # a hand is more than a deal id
    assert re.fullmatch(rf"{NUMBER}x of 1 thread", cells[5]), cells
    assert [r[1] for r in codec_rows] == ["zstd level 1", "lz4", "snappy", "uncompressed"]
    assert all(re.fullmatch(rf"{NUMBER} CPU s/M hands", r[2]) for r in codec_rows)
    sizes = {r[1]: float(r[3]) for r in codec_rows}
    assert sizes["zstd level 1"] < sizes["uncompressed"]
