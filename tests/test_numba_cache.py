"""simcore/_cache.py: Numba's cached kernels are dropped when any source of the package changed
(Numba itself keys each kernel on its own file only), and kept otherwise."""

from __future__ import annotations

from simcore._cache import STAMP, drop_stale_cache, drop_stale_folder, sources_digest


def _package(tmp_path):
    package = tmp_path / "pkg"
    (package / "sub" / "__pycache__").mkdir(parents=True)
    (package / "engine.py").write_text("X = 1\n")
    (package / "sub" / "search.py").write_text("Y = 2\n")
    return package


def _cached(package):
    for name in ("engine.f-1.py311.nbi", "engine.f-1.py311.1.nbc"):
        (package / "sub" / "__pycache__" / name).write_text("compiled")
    return sorted(p.name for p in package.rglob("*.nb[ic]"))


def test_a_changed_source_anywhere_drops_every_cached_kernel(tmp_path):
    package = _package(tmp_path)
    _cached(package)
    assert drop_stale_cache(package)  # no stamp yet: the cache's sources are unknown
    assert not list(package.rglob("*.nb[ic]"))
    assert (package / STAMP).read_text() == sources_digest(package)
    kept = _cached(package)
    assert not drop_stale_cache(package)  # the same sources: the cache stays
    assert sorted(p.name for p in package.rglob("*.nb[ic]")) == kept
    (package / "sub" / "search.py").write_text("Y = 3\n")  # another file than the kernel's
    assert drop_stale_cache(package)
    assert not list(package.rglob("*.nb[ic]"))
    assert not drop_stale_cache(package)


def test_the_digest_covers_names_and_contents(tmp_path):
    package = _package(tmp_path)
    before = sources_digest(package)
    (package / "sub" / "search.py").rename(package / "sub" / "other.py")
    assert sources_digest(package) != before
    (package / "sub" / "other.py").rename(package / "sub" / "search.py")
    assert sources_digest(package) == before
    (package / "notes.txt").write_text("not a source")
    assert sources_digest(package) == before


def test_a_read_only_package_is_left_as_it_is(tmp_path):
    package = _package(tmp_path)
    kept = _cached(package)
    (package / "__pycache__").write_text("a file where the stamp's folder should be")
    assert not drop_stale_cache(package)  # cannot record the stamp: never raises, deletes nothing
    assert sorted(p.name for p in package.rglob("*.nb[ic]")) == kept


def test_importing_simcore_records_its_sources():
    import simcore
    from simcore._cache import PACKAGE

    assert PACKAGE == __import__("pathlib").Path(simcore.__file__).resolve().parent
    assert (PACKAGE / STAMP).read_text() == sources_digest(PACKAGE)


def test_a_cache_folder_of_its_own_goes_whole_when_any_source_changes(tmp_path):
    package, scripts, folder = _package(tmp_path), tmp_path / "scripts", tmp_path / "cache"
    scripts.mkdir()
    (scripts / "tool.py").write_text("Z = 1\n")
    kernels = folder / "pkg_0a1b" / "engine.f-1.py311.nbi", folder / "tools_2c3d" / "t-1.py311.1.nbc"
    for path in kernels:
        path.parent.mkdir(parents=True)
        path.write_text("compiled")
    assert drop_stale_folder(folder, [package, scripts])  # no stamp yet
    assert not list(folder.rglob("*.nb[ic]"))
    for path in kernels:
        path.write_text("compiled")
    assert not drop_stale_folder(folder, [package, scripts])  # the same sources: kept
    assert all(path.exists() for path in kernels)
    (scripts / "tool.py").write_text("Z = 2\n")  # any of the folders
    assert drop_stale_folder(folder, [package, scripts])
    assert not list(folder.rglob("*.nb[ic]"))


def test_the_tests_compile_at_o1_into_their_own_cache():
    """tests/conftest.py sets both before Numba is imported: a plugin importing Numba earlier
    would leave the tests at -O3 in the package's cache, and this fails."""
    import os

    import numba
    import pytest
    from conftest import TEST_CACHE

    if os.environ["NUMBA_CACHE_DIR"] != str(TEST_CACHE):
        pytest.skip("NUMBA_CACHE_DIR set by the caller: the tests keep Numba's defaults")
    assert numba.config.CACHE_DIR == str(TEST_CACHE)
    assert int(numba.config.OPT) == int(os.environ["NUMBA_OPT"])
