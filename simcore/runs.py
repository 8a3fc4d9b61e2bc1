"""Reading a run folder: its manifest, its tables as polars LazyFrames, and :class:`Run`.

A run folder holds ``manifest.json`` and ``hands/part-NNNNN.parquet`` (plus
``games/part-NNNNN.parquet`` in game mode); ``simcore.batch`` writes them.  Reading needs
none of the runner, so analyses depend on this module only.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import polars as pl

from simcore.errors import SimcoreError

MANIFEST = "manifest.json"
TABLES = ("hands", "games")


@dataclass
class Run:
    """A run: its ``manifest`` (how it was made: game, seed, rules, policies, ...), where it is
    (``path``; None for an in-memory run) and its tables as polars LazyFrames."""

    manifest: dict[str, Any]
    path: Path | None = None
    _frames: dict[str, pl.DataFrame] = field(default_factory=dict, repr=False)

    def hands(self) -> pl.LazyFrame:
        """One row per hand (per deal and option in a what-if run): docs/schema.md."""
        return self._table("hands")

    def games(self) -> pl.LazyFrame:
        """One row per game (runs made with ``mode="games"`` only)."""
        if self.manifest["mode"] != "games":
            raise SimcoreError("this run was made in hands mode: it has no games table")
        return self._table("games")

    def _table(self, name: str) -> pl.LazyFrame:
        if self.path is None:
            return self._frames[name].lazy()
        return load(self.path, name)

    def __repr__(self) -> str:
        m = self.manifest
        what = "solve" if m.get("command") == "solve" else f"{m.get('mode', '?')} mode"
        where = "in memory" if self.path is None else str(self.path)
        state = "finished" if m.get("finished") else "unfinished"
        deals = m.get("deals")
        deals = f"{deals:,}" if isinstance(deals, int) else "?"
        return (f"Run({where!r}: {m.get('game', '?')}, {what}, {deals} "
                f"{'games' if m.get('mode') == 'games' else 'deals'}, seed {m.get('seed', '?')}, {state})")


def open_run(path: str | os.PathLike) -> Run:
    """The run in folder ``path`` (``simcore.open``): its manifest and its tables.

    ``simcore.open("data/tf").hands()`` is ``simcore.load("data/tf")``; the manifest says how the
    rows were made.  A folder that holds no run is one SimcoreError line.
    """
    folder = Path(path)
    if not is_run_folder(folder):
        raise SimcoreError(f"{folder} is not a simcore run folder (no {MANIFEST})")
    return Run(read_manifest(folder), folder)


def is_run_folder(folder: str | os.PathLike) -> bool:
    return (Path(folder) / MANIFEST).is_file()


def read_manifest(folder: str | os.PathLike) -> dict[str, Any]:
    """The manifest of the run folder ``folder`` as a dict."""
    path = Path(folder) / MANIFEST
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError) as e:
        raise SimcoreError(f"cannot read {path}: {e}") from None


def load(path: str | os.PathLike, table: str = "hands") -> pl.LazyFrame:
    """The ``hands`` (or ``games``) table of a run folder as a polars LazyFrame."""
    folder = Path(path)
    if not is_run_folder(folder):
        raise SimcoreError(f"{folder} is not a simcore run folder (no {MANIFEST})")
    if table not in TABLES:
        raise SimcoreError(f"unknown table {table!r}: use hands or games")
    parts = sorted((folder / table).glob("part-*.parquet"))
    if not parts:
        raise SimcoreError(f"{folder} has no {table} parts yet")
    return pl.scan_parquet(parts)
