"""simcore: millions of card-game deals per second, as Parquet you can chart."""

from simcore.version import __version__
from simcore.errors import SimcoreError
from simcore.runs import load
from simcore.batch import simulate

__all__ = ["SimcoreError", "load", "simulate", "__version__"]
