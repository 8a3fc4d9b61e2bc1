"""Analyses: one module per question.  Each reads a run folder lazily with polars and writes
a PNG chart plus the table behind it (CSV).

    simcore analyze NAME --data RUN_DIR --out OUT_DIR
    analyses.run_analysis(NAME, RUN_DIR, OUT_DIR)
"""

from __future__ import annotations

import importlib
from pathlib import Path

from simcore.errors import SimcoreError

ANALYSES = {
    "trump-call": ("analyses.trump_call", "trump-friend"),
}


def run_analysis(name: str, data, out) -> list[Path]:
    """Run analysis ``name`` on the run folder ``data``; returns the files written in ``out``."""
    if name not in ANALYSES:
        raise SimcoreError(f"unknown analysis {name!r}; known: {', '.join(ANALYSES)}")
    module_name, game = ANALYSES[name]
    from simcore.batch import MANIFEST, load

    manifest_path = Path(data) / MANIFEST
    hands = load(data)  # raises a clear error for anything that is not a run folder
    import json

    manifest = json.loads(manifest_path.read_text())
    if manifest["game"] != game:
        raise SimcoreError(f"analysis {name!r} needs a {game} run; {data} is {manifest['game']}")
    out_dir = Path(out)
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise SimcoreError(f"cannot write to {out_dir}: {e.strerror or e}") from None
    module = importlib.import_module(module_name)
    return module.run(hands, manifest, out_dir, data)
