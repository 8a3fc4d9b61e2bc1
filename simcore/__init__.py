"""simcore: millions of card-game deals per second, as Parquet you can chart."""

from simcore._cache import drop_stale_cache

drop_stale_cache()  # before any kernel loads from Numba's cache: simcore/_cache.py

from simcore.version import __version__
from simcore.errors import SimcoreError
from simcore.runs import load
# simcore.open(path): a run folder's Run (manifest, hands(), games()).  Left out of __all__ so
# that ``from simcore import *`` does not hide the built-in open.
from simcore.runs import open_run as open  # noqa: A001
from simcore.batch import simulate, solve_deals
from simcore.solve import Solution, solve

__all__ = ["SimcoreError", "Solution", "load", "simulate", "solve", "solve_deals", "__version__"]
