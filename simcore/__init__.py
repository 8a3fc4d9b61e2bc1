"""simcore: millions of card-game deals per second, as Parquet you can chart."""

__version__ = "0.1.0"

from simcore.errors import SimcoreError  # noqa: E402
from simcore.batch import load, simulate  # noqa: E402

__all__ = ["SimcoreError", "load", "simulate", "__version__"]
