"""examples/quickstart.ipynb runs top to bottom in a Jupyter kernel of this environment.

The notebook plays Euchre only, with the heuristic and open-hand kernels tests/test_advise.py
compiles anyway, on small samples, so the whole notebook takes seconds once they are cached.
It is committed without outputs; this test executes a copy in memory, in an empty folder.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import nbformat
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOK = ROOT / "examples" / "quickstart.ipynb"


def _kernel(tmp_path: Path, monkeypatch) -> str:
    """A kernel spec that starts this interpreter (the venv's python), whatever kernels the
    machine has installed elsewhere."""
    spec = tmp_path / "jupyter" / "kernels" / "simcore-test"
    spec.mkdir(parents=True)
    (spec / "kernel.json").write_text(json.dumps({
        "argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": "simcore tests", "language": "python"}))
    monkeypatch.setenv("JUPYTER_PATH", str(tmp_path / "jupyter"))
    return "simcore-test"


def _text(cell) -> str:
    """Everything a code cell showed: streams, plain text and HTML."""
    parts = []
    for out in cell.outputs:
        parts.append(out.get("text", ""))
        data = out.get("data", {})
        parts += [data.get("text/plain", ""), data.get("text/html", "")]
    return "\n".join(parts)


def test_the_quickstart_notebook_runs_top_to_bottom(tmp_path, monkeypatch):
    nb = nbformat.read(NOTEBOOK, as_version=4)
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert not any(c.get("outputs") or c.get("execution_count") for c in code), "commit the notebook without outputs"
    work = tmp_path / "work"
    work.mkdir()
    client = NotebookClient(nb, kernel_name=_kernel(tmp_path, monkeypatch), timeout=600,
                            resources={"metadata": {"path": str(work)}})
    client.execute()  # a cell that raises fails the test with the cell and its traceback
    shown = [_text(c) for c in code]
    simulated = next(t for c, t in zip(code, shown) if "simcore.simulate(" in c.source)
    assert "100,000" in simulated and "euchre" in simulated
    assert any("cards.text()" in c.source and "♥" in t for c, t in zip(code, shown))
    assert any("<table" in t and "gain" in t for t in shown)  # the paired polars query
    images = [c for c in code if any("image/png" in o.get("data", {}) for o in c.outputs)]
    assert len(images) == 2  # the matplotlib chart and advice.figure
    advice = next(t for c, t in zip(code, shown) if "simcore.advise(" in c.source)
    assert "simcore-advice" in advice and "open-hand (300 deals)" in advice and "heuristic (20,000 deals)" in advice
    errors = [o.get("text", "") for c in code for o in c.outputs if o.get("name") == "stderr"]
    assert not any("Warning" in e or "Error" in e for e in errors), errors
    assert not any(work.iterdir())  # the notebook writes no file
