"""Where a batch run's CPU goes: the kernels (with the polars frame) against writing the parts.

For each game, in one process: CPU seconds per million hands of ``run_hands`` on 1 and 2
threads, and of writing those rows as ``simcore simulate`` does (``batch.write_part``: Parquet
encoding, the file, its fsync, the rename).  CPU time is ``getrusage`` of the whole process
(polars encodes on its own threads), so the figures hold on a busy machine better than wall
time, though contention inflates them too.

``simcore simulate`` writes part k on a writer thread while the kernels compute part k+1.
With ``--threads 1`` the writer has the other core to itself, so the rate is the kernel's,
1 / k1.  With ``--threads 2`` the kernels and the writer share both cores: at best
2 / (k2 + w), the ceiling printed, as a ratio to 1 / k1.

``--codecs`` adds the cost and size of the other Parquet codecs polars offers (reference
only: parts are written with zstd level 1, ``batch.PARQUET_ZSTD_LEVEL``).

    python scripts/bench_write.py --games spades,euchre --deals 2000000
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import sys
import tempfile
import time
from pathlib import Path

from simcore import batch

CODECS = (("zstd", 1), ("lz4", None), ("snappy", None), ("uncompressed", None))


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def measure(game: str, deals: int, threads: int, folder: Path) -> dict:
    """CPU seconds per million hands of computing (kernel + frame) and of writing ``deals``
    hands in default-size parts, and the parts' bytes per hand."""
    batch._set_threads(threads)
    spec = batch._plan(game, deals, 1, "hands", "random", None, False, None)
    batch.compute_chunk(spec, {"index": 0, "start": 0, "count": min(deals, 1000)})  # load kernels
    shutil.rmtree(folder, ignore_errors=True)
    (folder / "hands").mkdir(parents=True)
    compute = write = 0.0
    for chunk in batch._chunks(spec.identity):
        start = _cpu()
        frames = batch.compute_chunk(spec, chunk)
        middle = _cpu()
        batch.write_part(folder, spec, chunk, frames)
        compute, write = compute + middle - start, write + _cpu() - middle
    size = sum(p.stat().st_size for p in (folder / "hands").iterdir())
    millions = deals / 1e6
    return {"compute": compute / millions, "write": write / millions, "bytes": size / deals}


def codec_costs(game: str, deals: int, repeats: int = 3) -> list[tuple[str, float, float]]:
    """(codec, CPU s per million hands, bytes per hand) of encoding one part in memory,
    best of ``repeats``."""
    import io

    spec = batch._plan(game, deals, 1, "hands", "random", None, False, None)
    frame = batch.compute_chunk(spec, {"index": 0, "start": 0, "count": deals})["hands"]
    rows = []
    for codec, level in CODECS:
        best, size = float("inf"), 0
        for _ in range(repeats):
            buffer = io.BytesIO()
            start = _cpu()
            frame.write_parquet(buffer, compression=codec, compression_level=level, statistics=False)
            best = min(best, _cpu() - start)
            size = len(buffer.getvalue())
        rows.append((f"{codec}" + (f" level {level}" if level else ""), best / deals * 1e6, size / deals))
    return rows


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default="spades", help="comma-separated (default spades)")
    parser.add_argument("--deals", type=int, default=2_000_000, help="hands per measurement")
    parser.add_argument("--codecs", action="store_true", help="also time the other Parquet codecs")
    args = parser.parse_args(argv)
    load = os.getloadavg()
    print(f"# {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, load average {load[0]:.2f} "
          f"{load[1]:.2f} {load[2]:.2f}; python {' '.join(sys.argv)}")
    print("| game | kernel + frame, 1 thread | kernel + frame, 2 threads | writing the parts | "
          "bytes per hand | 2-thread ceiling |")
    print("| --- | --- | --- | --- | --- | --- |")
    with tempfile.TemporaryDirectory() as tmp:
        for game in args.games.split(","):
            one = measure(game, args.deals, 1, Path(tmp) / "one")
            two = measure(game, args.deals, 2, Path(tmp) / "two")
            write = (one["write"] + two["write"]) / 2
            ceiling = 2 / (two["compute"] + write) * one["compute"]
            print(f"| {game} | {one['compute']:.3f} CPU s/M hands | {two['compute']:.3f} CPU s/M hands "
                  f"| {write:.3f} CPU s/M hands | {one['bytes']:.1f} | {ceiling:.2f}x of 1 thread |")
    if args.codecs:
        print("\n| game | codec | encoding one part | bytes per hand |\n| --- | --- | --- | --- |")
        for game in args.games.split(","):
            for codec, cpu, size in codec_costs(game, min(args.deals, batch.DEFAULT_CHUNK["hands"])):
                print(f"| {game} | {codec} | {cpu:.3f} CPU s/M hands | {size:.1f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
