"""results/ is what `make results` makes with this code.

scripts/make_results.py records in results/fingerprints.json, for every simulation batch, its
manifest's options and a digest of each column of its first deals (games), and for every
analysis a digest of its source.  Here the same first deals are simulated again (seconds: the
kernels are the suite's) and the analyses' sources digested again: an engine change that
changes rows, a new rules option (the summaries print the rules), or an edited analysis fails
until `make results` has regenerated results/.
"""

from __future__ import annotations

import json
import runpy
from functools import lru_cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
MAKE_RESULTS = runpy.run_path(str(ROOT / "scripts" / "make_results.py"), run_name="make_results")
BATCHES = [b for b in MAKE_RESULTS["BATCHES"] if MAKE_RESULTS["available"](b.needs)]
ANALYSES = sorted({job.analysis for job in MAKE_RESULTS["JOBS"] if MAKE_RESULTS["available"](job.needs)})
REGENERATE = "run `make results` and commit results/"


@lru_cache(maxsize=None)
def committed() -> dict:
    return json.loads((ROOT / MAKE_RESULTS["FINGERPRINTS"]).read_text())


def differences(recorded: dict, fresh: dict) -> list[str]:
    """What differs between two batch fingerprints, in words: the run's options, then table
    by table the rows and columns."""
    found = [f"the run's {key} changed: {recorded['run'].get(key)!r} -> {value!r}"
             for key, value in fresh["run"].items() if recorded["run"].get(key) != value]
    old_tables, new_tables = recorded["tables"], fresh["tables"]
    for table in sorted(set(old_tables) | set(new_tables)):
        old, new = old_tables.get(table), new_tables.get(table)
        if old is None or new is None:
            found.append(f"table {table} {'appeared' if old is None else 'disappeared'}")
            continue
        if old["rows"] != new["rows"]:
            found.append(f"{table}: {new['rows']} rows, {old['rows']} recorded")
        changed = [c for c in new["columns"] if old["columns"].get(c) != new["columns"][c]]
        gone = [c for c in old["columns"] if c not in new["columns"]]
        if changed:
            found.append(f"{table}: columns {', '.join(changed)} differ")
        if gone:
            found.append(f"{table}: columns {', '.join(gone)} are gone")
    return found


def test_the_fingerprints_cover_every_batch_and_analysis_at_todays_size():
    record = committed()
    assert record["deals"] == MAKE_RESULTS["FINGERPRINT_DEALS"], REGENERATE
    assert sorted(record["batches"]) == sorted(b.folder for b in BATCHES), REGENERATE
    assert sorted(record["analyses"]) == ANALYSES, REGENERATE


@pytest.mark.parametrize("batch", BATCHES, ids=lambda b: b.folder)
def test_results_come_from_the_rows_this_code_makes(batch):
    recorded = dict(committed()["batches"].get(batch.folder) or {})
    assert recorded, f"{batch.folder} has no fingerprint: {REGENERATE}"
    command = " ".join(["simcore", batch.verb, batch.game, *batch.first_deals()])
    assert recorded.pop("command") == command, f"{batch.folder}'s command changed: {REGENERATE}"
    changed = differences(recorded, MAKE_RESULTS["fresh_fingerprint"](batch))
    assert not changed, (f"`{command}` makes other rows than results/ was made from "
                         f"({'; '.join(changed)}): {REGENERATE}")


@pytest.mark.parametrize("name", ANALYSES)
def test_results_come_from_this_analysis_code(name):
    recorded = committed()["analyses"].get(name)
    assert recorded == MAKE_RESULTS["analysis_digest"](name), \
        f"analysis {name} (or a module it imports) changed since results/ was made: {REGENERATE}"


def test_the_differences_are_named():
    """The checker itself: a new rules option, a changed column, a row count and a lost table
    are each reported."""
    old = {"run": {"rules": {"a": 1}, "seed": 1},
           "tables": {"hands": {"rows": 3, "columns": {"deal": "a", "score0": "b"}}, "games": {"rows": 1, "columns": {}}}}
    new = {"run": {"rules": {"a": 1, "b": True}, "seed": 1},
           "tables": {"hands": {"rows": 4, "columns": {"deal": "a", "score0": "c"}}}}
    assert differences(old, new) == ["the run's rules changed: {'a': 1} -> {'a': 1, 'b': True}",
                                     "table games disappeared", "hands: 4 rows, 3 recorded",
                                     "hands: columns score0 differ"]
    assert differences(new, new) == []
