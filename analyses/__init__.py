"""Analyses: one module per question.  Each reads a run folder lazily with polars and writes
a PNG chart, the table(s) behind it (CSV) and a Markdown summary.

    simcore analyze NAME --data RUN_DIR --out OUT_DIR
    analyses.run_analysis(NAME, RUN_DIR, OUT_DIR)

``ANALYSES`` maps a name to (module, game); the game ``"any"`` accepts a run of every game.
``--data`` is one run folder, or (for analyses whose module has ``run_set``) a folder whose
sub-folders are runs of the same game, e.g. one run per knock threshold.  Several ``--data``
(a list) are levels of play shown side by side (``analyses.levels``).  The strategy analyses
refuse a ``simcore solve`` run unless their module says ``SOLVE_RUNS``; among several levels, a
solve run is the open-hand level of a strategy analysis and is read by its open-hand
counterpart (``OPEN_HAND_OF``), whose answers stand beside the others'.
"""

from __future__ import annotations

import importlib
from pathlib import Path

from simcore.errors import SimcoreError

ANY_GAME = "any"

ANALYSES = {
    "trump-call": ("analyses.trump_call", "trump-friend"),
    "friend-call": ("analyses.friend_call", "trump-friend"),
    "spades-bids": ("analyses.spades_bids", "spades"),
    "euchre-makers": ("analyses.euchre_makers", "euchre"),
    "gin-knock": ("analyses.gin_knock", "gin-rummy"),
    "dealing-check": ("analyses.dealing_check", ANY_GAME),
    "dummy-advantage": ("analyses.dummy_advantage", "dummy"),
    "euchre-dd-order": ("analyses.euchre_dd_order", "euchre"),
    "trump-friend-dd": ("analyses.trump_friend_dd", "trump-friend"),
    "spades-dd-bids": ("analyses.spades_dd_bids", "spades"),
}

# The analysis that reads a strategy question's open-hand level (a ``simcore solve`` run, for
# spades-dd-bids optionally beside a simulate run of the same deals) when it is one of several
# levels: its answers to the same questions carry the same words, so the levels compare.
OPEN_HAND_OF = {
    "trump-call": "trump-friend-dd",
    "friend-call": "trump-friend-dd",
    "spades-bids": "spades-dd-bids",
    "euchre-makers": "euchre-dd-order",
}


def run_analysis(name: str, data, out, labels=None) -> list[Path]:
    """Run analysis ``name`` on the run folder (or folder of runs) ``data``; returns the files
    written in ``out``.  ``data`` may be a list of such folders made at different levels of
    play: each is analysed into ``out/<level>/`` and compared side by side (``analyses.levels``;
    ``labels`` = ``{folder: name}`` or ``DIR=NAME`` strings overrides the manifest's label)."""
    if name not in ANALYSES:
        raise SimcoreError(f"unknown analysis {name!r}; known: {', '.join(ANALYSES)}")
    module = importlib.import_module(ANALYSES[name][0])
    several = isinstance(data, (list, tuple))
    folders = [Path(d) for d in data] if several else [Path(data)]
    if not folders:
        raise SimcoreError("no --data folder given")
    inputs = [(f, *_level_input(name, module, f)) for f in folders]
    if len({r.manifest.get("game") for _, _, runs in inputs for r in runs}) > 1:
        raise SimcoreError("the --data folders hold runs of different games")
    if len(inputs) == 1 and inputs[0][1] is not module:
        raise SimcoreError(f"analysis {name!r} reads simcore simulate runs; {folders[0]} is an open-hand table "
                           f"(simcore solve): use {OPEN_HAND_OF[name]}, or give it as one --data level beside "
                           "simulate runs")
    out_dir = _out_folder(out)
    if len(inputs) == 1:
        # one level: exactly the single-run analysis (``data`` as given, for its command line)
        return _run_one(module, inputs[0][0], inputs[0][2], out_dir, data[0] if several else data)
    from analyses import levels

    made = levels.make_levels([(f, runs) for f, _, runs in inputs], labels)
    for lv, (_, mod, _) in zip(made, inputs):
        lv.module = mod
    return levels.run_levels(name, module, made, out_dir,
                             lambda lv, folder: _run_one(lv.module, lv.data, lv.runs, _out_folder(folder)))


def _level_input(name: str, module, folder: Path):
    """(module, runs) of one --data folder: the analysis's own, or for a strategy analysis's
    open-hand level (a folder holding a solve run) its ``OPEN_HAND_OF`` counterpart's."""
    if name in OPEN_HAND_OF and _holds_solve_run(folder):
        other = OPEN_HAND_OF[name]
        other_module = importlib.import_module(ANALYSES[other][0])
        return other_module, _read_runs(other, other_module, folder)
    return module, _read_runs(name, module, folder)


def _holds_solve_run(folder: Path) -> bool:
    """Whether ``folder`` is a ``simcore solve`` run or holds one among its runs (unreadable
    folders are left to ``_read_runs``, which says what is wrong)."""
    from simcore.runs import is_run_folder, read_manifest

    try:
        folders = [folder] if is_run_folder(folder) else [p for p in folder.iterdir() if is_run_folder(p)]
        return any(read_manifest(f).get("command") == "solve" for f in folders)
    except (OSError, ValueError, SimcoreError):
        return False


def _read_runs(name: str, module, folder: Path) -> list:
    """The runs of one --data folder: itself, or (for analyses with ``run_set``) its sub-folders."""
    from simcore.runs import MANIFEST, is_run_folder, load, read_manifest

    from analyses.common import RunInput

    game = ANALYSES[name][1]
    if not folder.is_dir():
        raise SimcoreError(f"{folder} does not exist or is not a folder")
    if is_run_folder(folder):
        folders = [folder]
    else:
        folders = sorted(p for p in folder.iterdir() if is_run_folder(p))
        if not folders:
            raise SimcoreError(f"{folder} is not a simcore run folder (no {MANIFEST}) and holds no runs")
        if not hasattr(module, "run_set"):
            raise SimcoreError(f"analysis {name!r} reads one run folder; {folder} holds several runs")
    runs = []
    for f in folders:
        hands = load(f)  # raises a clear error for anything that is not a finished run folder
        manifest = read_manifest(f)
        if game != ANY_GAME and manifest.get("game") != game:
            raise SimcoreError(f"analysis {name!r} needs a {game} run; {f} is {manifest.get('game')}")
        solved = manifest.get("command") == "solve"
        if solved and hasattr(module, "level_claims") and not getattr(module, "SOLVE_RUNS", False):
            raise SimcoreError(f"analysis {name!r} reads simcore simulate runs; {f} is an open-hand table "
                               "(simcore solve)" + (": use euchre-dd-order" if game == "euchre" else ""))
        runs.append(RunInput(f, manifest, hands))
    if len({r.manifest.get("game") for r in runs}) > 1:
        raise SimcoreError(f"the runs in {folder} are of different games")
    return runs


def _out_folder(out) -> Path:
    out_dir = Path(out)
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise SimcoreError(f"cannot write to {out_dir}: {e.strerror or e}") from None
    return out_dir


def _run_one(module, folder: Path, runs: list, out_dir: Path, data=None) -> list[Path]:
    """The single-level path: one run (``run``) or a folder of runs (``run_set``)."""
    data = folder if data is None else data
    if len(runs) > 1 or folder != runs[0].path:
        return module.run_set(runs, out_dir, data)
    return module.run(runs[0].hands, runs[0].manifest, out_dir, data)
