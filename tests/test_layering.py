"""The import layering of simcore/ and analyses/, read from the source with ast.

Every import counts, also one inside a function: a lazy import is still a dependency.  Each
module belongs to one layer of ``LAYERS``; a module may import its own layer and the layers
below it, never one above, and no set of modules may import each other in a cycle.  A new
module must be given a layer here (the test names it); a new layer is a new line.
"""

from __future__ import annotations

import ast
import fnmatch
import re
import sys
from functools import lru_cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("simcore", "analyses")

# Lowest first.  Patterns are fnmatch patterns over dotted module names; "simcore" alone is
# the package facade (simcore/__init__.py: load, simulate), which imports the runner.
LAYERS = [
    ("base", ["simcore.errors", "simcore.version", "simcore._cache", "simcore._inline_copy",
              "simcore._late_link"]),
    ("cards", ["simcore.cards", "simcore.rng"]),
    ("frames", ["simcore.frames"]),  # polars card expressions and per-seat rows over u64 hands
    # the Python values of simulate's and solve's options, read into the command line's forms
    ("arguments", ["simcore.arguments"]),
    ("kernels", ["simcore.tricks", "simcore.melds", "simcore.dealing", "simcore.solver",
                 "simcore.solver.*", "simcore.sampling"]),
    # the game packages (rules, layouts, engines, policies, solver.py, show.py, advice.py),
    # their registry and shared records (base, solving, showing, advising), and the solver facade
    ("games", ["simcore.games", "simcore.games.*", "simcore.solve"]),
    ("runs", ["simcore.runs"]),  # reading a finished run folder
    # one deal of a run as text (simcore show): reads runs, laid out by the game's record
    ("show", ["simcore.show"]),
    ("analyses", ["analyses", "analyses.*"]),
    # the runner drives the cluster (it hands it the task to run), so the cluster sits below it
    ("cluster", ["simcore.cluster"]),
    ("batch", ["simcore.batch"]),
    # which call for my hand (simcore advise): runs solve/simulate batches, reads them with analyses;
    # the facade exports it as simcore.advise
    ("advise", ["simcore.advise"]),
    ("facade", ["simcore"]),
    ("cli", ["simcore.cli", "simcore.__main__"]),
    ("interop", ["simcore.interop", "simcore.interop.*"]),  # bots for other frameworks: on top
]


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


@lru_cache(maxsize=None)
def sources() -> dict[str, Path]:
    return {module_name(p): p for pkg in PACKAGES for p in sorted((ROOT / pkg).rglob("*.py"))}


def layer_of(module: str) -> int | None:
    for index, (_, patterns) in enumerate(LAYERS):
        if any(fnmatch.fnmatchcase(module, pattern) for pattern in patterns):
            return index
    return None


def imported_names(path: Path, module: str) -> set[str]:
    """Every dotted name ``path`` imports, relative imports resolved; ``from X import n``
    gives ``X.n`` when that is a module of ours, else ``X``."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    names = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            for alias in node.names:
                names.add(f"{base}.{alias.name}" if f"{base}.{alias.name}" in sources() else base)
    return names


def internal(name: str) -> str | None:
    """The module of ours that ``name`` denotes (its longest known prefix), or None."""
    parts = name.split(".")
    for n in range(len(parts), 0, -1):
        candidate = ".".join(parts[:n])
        if candidate in sources():
            return candidate
    return None


@lru_cache(maxsize=None)
def graph() -> dict[str, set[str]]:
    edges = {}
    for module, path in sources().items():
        targets = {internal(name) for name in imported_names(path, module)}
        edges[module] = {t for t in targets if t is not None and t != module}
    return edges


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan)."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def test_every_module_has_a_layer():
    missing = [m for m in sources() if layer_of(m) is None]
    assert not missing, f"give these modules a layer in tests/test_layering.py LAYERS: {missing}"


def test_no_module_imports_a_higher_layer():
    upward = [
        f"{src} ({LAYERS[layer_of(src)][0]}) imports {dst} ({LAYERS[layer_of(dst)][0]})"
        for src, targets in graph().items() for dst in sorted(targets)
        if layer_of(src) is not None and layer_of(dst) is not None and layer_of(dst) > layer_of(src)
    ]
    assert not upward, "\n".join(upward)


def test_no_two_modules_import_each_other():
    assert not cycles(graph()), cycles(graph())


def test_analyses_read_runs_without_the_runner():
    runner = {"simcore", "simcore.batch", "simcore.cluster", "simcore.cli", "simcore.__main__"}
    used = {(src, dst) for src, targets in graph().items() if src.split(".")[0] == "analyses"
            for dst in targets if dst in runner}
    assert not used, sorted(used)
    assert any("simcore.runs" in targets for src, targets in graph().items() if src == "analyses")


def test_the_checker_sees_lazy_relative_and_package_imports(tmp_path):
    """The checker itself: a function-level import, a relative import and an import of a
    package's name all count as edges, and a cycle is found."""
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(edges) == [["a", "b", "c"]]
    names = imported_names(ROOT / "simcore" / "batch.py", "simcore.batch")
    assert {"simcore.runs", "simcore.cluster", "simcore.games"} <= names
    module = tmp_path / "lazy.py"
    module.write_text("def f():\n    from . import cards\n    from .games import base\n")
    found = imported_names(module, "simcore.lazy")
    assert found == {"simcore.cards", "simcore.games.base"}


# ---------------------------------------------------------------- what the main job needs


def runtime_imports() -> set[str]:
    """Import names of pyproject.toml's runtime dependencies (``dask[distributed]`` gives
    dask and distributed); read with a regex because tomllib is Python 3.11+."""
    text = (ROOT / "pyproject.toml").read_text()
    block = re.search(r"^dependencies = \[(.*?)^\]", text, re.S | re.M).group(1)
    names = set()
    for spec in re.findall(r'"([^"]+)"', block):
        name, extras = re.match(r"([A-Za-z0-9_.-]+)(?:\[([^\]]*)\])?", spec).groups()
        names.add(name.replace("-", "_").lower())
        names.update(e.strip().lower() for e in (extras or "").split(",") if e.strip())
    return names


def test_the_main_job_needs_only_the_runtime_dependencies():
    """``make results`` installs the runtime dependencies only: scripts/make_results.py,
    analyses/ and simcore/ (but its benchmark modules and simcore.interop, the OpenSpiel bridge,
    which is for dev installs) import nothing else."""
    numbas_own = {"llvmlite"}  # numba's compiler, always installed with it
    scripts = {"results_report"}  # scripts/results_report.py, beside make_results.py
    allowed = runtime_imports() | numbas_own | set(sys.stdlib_module_names) | set(PACKAGES) | scripts
    files = {m: p for m, p in sources().items()
             if not m.endswith("bench") and not m.startswith("simcore.interop")}
    files["make_results"] = ROOT / "scripts" / "make_results.py"
    files["results_report"] = ROOT / "scripts" / "results_report.py"
    extra = sorted(
        f"{module} imports {name}"
        for module, path in files.items() for name in imported_names(path, module)
        if name.split(".")[0] not in allowed
    )
    assert not extra, "\n".join(extra)
