"""Keep Numba's disk cache true to the sources.

Numba's ``cache=True`` keys each cached kernel on its own source file only.  A kernel that
calls jitted code of another file (every solver and search policy calls ``simcore/solver/``,
every engine ``simcore/tricks.py`` or ``simcore/melds.py``) is loaded from the cache unchanged
after that other file changed, so it would go on running the old code.  So on import simcore
compares a digest of all its ``.py`` sources with the one its cache was made from
(``__pycache__/numba-sources.sha256``) and, when they differ (a ``git pull``, an edit), drops
every cached kernel of the package before anything compiles.  The first run after a change
then compiles again, as after an install.

A package Numba cannot write beside (a read-only install) keeps its cache in Numba's user-wide
folder, which this does not touch; ``NUMBA_CACHE_DIR`` set by the user likewise.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent
STAMP = Path("__pycache__") / "numba-sources.sha256"


def sources_digest(package: Path = PACKAGE) -> str:
    """A digest of every ``.py`` file under ``package`` (relative path and bytes)."""
    digest = hashlib.sha256()
    for path in sorted(package.rglob("*.py")):
        digest.update(path.relative_to(package).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def drop_stale_cache(package: Path = PACKAGE) -> bool:
    """Delete ``package``'s cached Numba kernels (``*.nbi``, ``*.nbc``) when its sources are not
    the ones they were compiled from; returns whether it did.  Never raises on a file system
    that refuses (the cache then stays as Numba manages it)."""
    return _drop_if_stale(package / STAMP, lambda: sources_digest(package), package)


def drop_stale_folder(folder: Path, sources: list[Path]) -> bool:
    """The same for a cache folder of simcore's own (``NUMBA_CACHE_DIR`` pointing at it, as the
    tests do): every cached kernel under ``folder`` goes when any ``.py`` file under one of
    ``sources`` changed.  Only for a folder that holds nothing else: it is emptied of kernels
    whatever package they came from."""
    def digest():
        return hashlib.sha256("".join(sources_digest(p) for p in sources).encode()).hexdigest()

    return _drop_if_stale(folder / STAMP.name, digest, folder)


def _drop_if_stale(stamp: Path, sources_digest_of, root: Path) -> bool:
    """``sources_digest_of()`` is read inside the guard: an unreadable source leaves the cache
    as it is instead of raising."""
    try:
        digest = sources_digest_of()
        if stamp.is_file() and stamp.read_text() == digest:
            return False
        # the new stamp is written first: where it cannot be, Numba cannot cache there either,
        # and nothing is deleted
        stamp.parent.mkdir(parents=True, exist_ok=True)
        partial = stamp.with_name(f"{stamp.name}.{os.getpid()}.tmp")
        partial.write_text(digest)
        for pattern in ("*.nbi", "*.nbc"):
            for path in root.rglob(pattern):
                path.unlink(missing_ok=True)
        partial.replace(stamp)  # atomic: a process importing beside this one reads old or new
    except OSError:
        return False
    return True
