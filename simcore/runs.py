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
    """A finished run: where it is (``path`` is None for an in-memory run) and its tables."""

    manifest: dict[str, Any]
    path: Path | None = None
    _frames: dict[str, pl.DataFrame] = field(default_factory=dict, repr=False)

    def hands(self) -> pl.LazyFrame:
        return self._table("hands")

    def games(self) -> pl.LazyFrame:
        if self.manifest["mode"] != "games":
            raise SimcoreError("this run was made in hands mode: it has no games table")
        return self._table("games")

    def _table(self, name: str) -> pl.LazyFrame:
        if self.path is None:
            return self._frames[name].lazy()
        return load(self.path, name)


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
