"""simcore: millions of card-game deals per second, as Parquet you can chart."""

from simcore._cache import drop_stale_cache

drop_stale_cache()  # before any kernel loads from Numba's cache: simcore/_cache.py

from simcore import _inline_copy, _late_link

_inline_copy.apply()  # before anything compiles: simcore/_inline_copy.py
_late_link.apply()  # simcore/_late_link.py

from simcore.version import __version__
from simcore.errors import SimcoreError
from simcore.runs import load
# simcore.open(path): a run folder's Run (manifest, hands(), games()).  Left out of __all__ so
# that ``from simcore import *`` does not hide the built-in open.
from simcore.runs import open_run as open  # noqa: A001
from simcore.frames import seat_rows  # registers the ``cards`` namespace on polars expressions
from simcore.batch import simulate, solve_deals
from simcore.solve import Solution, solve
# simcore.advise(game, hand, ...): the function; its module stays importable as simcore.advise
# (``from simcore.advise import parse_request``), but the package attribute is the function.
from simcore.advise import Advice, advise


def analyze(name: str, data, out=None, labels=None):
    """Run analysis ``name`` (``simcore analyze --help`` lists them) on a run folder, a folder
    of runs, or a list of folders made at different levels of play; returns the result with
    ``.tables`` (name -> polars DataFrame), ``.figure`` (matplotlib Figure), ``.summary``
    (Markdown) and ``.claims`` (each answer with its 95% interval).  Files (PNG, CSV, Markdown)
    are written only when ``out`` is given, the same files as ``simcore analyze NAME --data ...
    --out OUT``::

        result = simcore.analyze("trump-call", data=["data/tf-whatif"])
        result.tables["trump_call"]          # a polars DataFrame
        result.figure.savefig("calls.png")
    """
    from analyses import analyze as run

    return run(name, data, out=out, labels=labels)


__all__ = ["Advice", "SimcoreError", "Solution", "advise", "analyze", "load", "seat_rows", "simulate", "solve", "solve_deals",
           "__version__"]
