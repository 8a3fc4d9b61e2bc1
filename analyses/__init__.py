"""Analyses: one module per question.  Each reads run folders lazily with polars and returns
an :class:`analyses.common.Analysis`: tables (polars), figures (matplotlib), a Markdown summary
and claims (answers with 95% intervals); files (PNG, CSV, Markdown) only when asked.

    simcore analyze NAME --data RUN_DIR --out OUT_DIR
    simcore.analyze(NAME, data=[RUN_DIR], out=None)      # -> Analysis, nothing written
    analyses.run_analysis(NAME, RUN_DIR, OUT_DIR)        # writes, returns the paths

``ANALYSES`` maps a name to (module, game); the game ``"any"`` accepts a run of every game.
``--data`` is one run folder, or (for analyses whose module says ``SEVERAL_RUNS``) a folder whose
sub-folders are runs of the same game, e.g. one run per knock threshold.  Several ``--data``
(a list) are levels of play shown side by side (``analyses.levels``).  The strategy analyses
refuse a ``simcore solve`` run unless their module says ``SOLVE_RUNS``; among several levels, a
solve run is the open-hand level of a strategy analysis and is read by its open-hand
counterpart (``OPEN_HAND_OF``), whose answers stand beside the others'.
"""

from __future__ import annotations

import importlib
import inspect
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
    "spades-nil": ("analyses.spades_nil", "spades"),
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


def analyze(name: str, data, out=None, labels=None):
    """Run analysis ``name`` on the run folder (or folder of runs) ``data``, or on a list of
    such folders made at different levels of play (compared side by side, ``analyses.levels``;
    ``labels`` = ``{folder: name}`` or ``DIR=NAME`` strings overrides a level's label).

    Returns an :class:`analyses.common.Analysis` (``.tables``, ``.figure``, ``.summary``,
    ``.claims``); files are written only when ``out`` is given (then ``.files`` lists them)."""
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
    shown_out = out if out is not None else "OUT"
    if len(inputs) == 1:
        folder, _, runs = inputs[0]
        result = _analyse_one(module, folder, runs, data[0] if several else data)
        result.command = f"simcore analyze {name} --data {data[0] if several else data} --out {shown_out}"
    else:
        from analyses import levels

        if not getattr(module, "LEVELS", False):
            raise SimcoreError(f"analysis {name!r} compares no levels of play: give it one --data")
        made = levels.make_levels([(f, runs) for f, _, runs in inputs], labels)
        for lv, (_, mod, _) in zip(made, inputs):
            lv.module = mod

        def one(lv):
            sub = _analyse_one(lv.module, lv.data, lv.runs, lv.data, asked_by=name if lv.module is not module else None)
            sub.command = (f"simcore analyze {OPEN_HAND_OF[name] if lv.module is not module else name} "
                           f"--data {lv.data} --out {Path(shown_out) / levels.slug(lv.label)}")
            return sub

        result = levels.run_levels(name, module, made, one)
        result.command = levels.command_of(name, made, shown_out)
    if out is not None:
        result.write(out)
    return result


def run_analysis(name: str, data, out, labels=None) -> list[Path]:
    """``analyze(name, data, out, labels)`` for the command line: writes the files and returns
    their paths."""
    result = analyze(name, data, out, labels)
    result.close()
    return result.files


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
    """The runs of one --data folder: itself, or (for analyses whose module says ``SEVERAL_RUNS``) its sub-folders."""
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
        if not getattr(module, "SEVERAL_RUNS", False):
            raise SimcoreError(f"analysis {name!r} reads one run folder; {folder} holds several runs")
    runs = []
    for f in folders:
        hands = load(f)  # raises a clear error for anything that is not a finished run folder
        manifest = read_manifest(f)
        if game != ANY_GAME and manifest.get("game") != game:
            raise SimcoreError(f"analysis {name!r} needs a {game} run; {f} is {manifest.get('game')}")
        solved = manifest.get("command") == "solve"
        if solved and getattr(module, "LEVELS", False) and not getattr(module, "SOLVE_RUNS", False):
            raise SimcoreError(f"analysis {name!r} reads simcore simulate runs; {f} is an open-hand table "
                               "(simcore solve)" + (": use euchre-dd-order" if game == "euchre" else ""))
        runs.append(RunInput(f, manifest, hands))
    if len({r.manifest.get("game") for r in runs}) > 1:
        raise SimcoreError(f"the runs in {folder} are of different games")
    return runs


def _analyse_one(module, folder: Path, runs: list, data, asked_by=None):
    """The single-level path: one run or a folder of runs (``analyse(runs, data)``); an
    open-hand counterpart is told which analysis asks (its claims answer that one's keys)."""
    if asked_by is not None and "asked_by" in inspect.signature(module.analyse).parameters:
        return module.analyse(runs, data, asked_by=asked_by)
    return module.analyse(runs, data)
