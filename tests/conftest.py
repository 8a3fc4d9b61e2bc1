import os
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TEST_CACHE = ROOT / ".numba-test-cache"

# The tests compile their kernels at LLVM -O1 (NUMBA_OPT=1), into a Numba cache of their own:
# the same code, compiled in about a tenth less time on the large search kernels (compiling
# is most of the suite's time), and never loaded by a run outside the tests, whose kernels
# stay at Numba's default -O3.  Set before Numba is first imported (test workers and the
# warm-up's processes inherit both); a NUMBA_CACHE_DIR of the caller's own keeps Numba's
# defaults.
if "NUMBA_CACHE_DIR" not in os.environ:
    os.environ["NUMBA_CACHE_DIR"] = str(TEST_CACHE)
    os.environ.setdefault("NUMBA_OPT", "1")
    from simcore._cache import drop_stale_folder

    # the package drops its own cache on a change of its sources (simcore/_cache.py); this
    # folder is the tests' own, so it goes whole when simcore, analyses/ or scripts/ change
    drop_stale_folder(TEST_CACHE, [ROOT / "simcore", ROOT / "analyses", ROOT / "scripts"])

from hypothesis import HealthCheck, settings  # noqa: E402

# Two test workers on two cores, each with two Numba (OpenMP) threads: a thread that spins
# waiting for the next parallel region holds a core the other worker needs, so threads wait
# passively (set before OpenMP loads; the workers inherit it).
os.environ.setdefault("OMP_WAIT_POLICY", "passive")

# Numba compiles on first call, so per-example deadlines would measure the compiler.
settings.register_profile(
    "simcore", deadline=None, suppress_health_check=[HealthCheck.too_slow], print_blob=True
)
settings.load_profile("simcore")


# The test files that take longest (measured with ``--durations=0``), handed to the workers first:
# ``make test`` runs ``--dist loadfile --no-loadscope-reorder``, which gives out whole files in
# collection order, so a long file started last would keep one worker busy while the other
# idles.  The rest follow in their usual order.
SLOW_FIRST = (
    "test_gin_rummy_pimc.py", "test_user_policies.py", "test_solve_spades.py",
    "test_solve_trump_friend.py", "test_gin_rummy_expert.py", "test_results.py",
    "test_trump_friend_rules.py", "test_open_hand_oracle.py", "test_analyses.py",
    "test_euchre_engine.py", "test_interop_gin.py", "test_solve_euchre.py", "test_melds.py",
    "test_cluster.py", "test_interop_openspiel.py", "test_bench.py",
)


def pytest_collection_modifyitems(session, config, items):
    rank = {name: i for i, name in enumerate(SLOW_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))  # stable: files stay whole


def pytest_sessionstart(session):
    """With xdist workers (``-n 2``), compile every game's kernels once (tests/warm_cache.py)
    before the workers start (xdist starts them in its own, later, sessionstart hook), instead
    of both workers compiling the same kernels side by side.  ``SIMCORE_NO_WARM=1`` skips it."""
    config = session.config
    if hasattr(config, "workerinput") or os.environ.get("SIMCORE_NO_WARM"):
        return
    workers = getattr(config.option, "numprocesses", None)
    if not workers:
        return
    from warm_cache import warm_all

    reporter = config.pluginmanager.get_plugin("terminalreporter")
    for game, seconds, code, err in warm_all():
        line = f"warm Numba cache: {game} {seconds:.0f} s" + ("" if code == 0 else " FAILED")
        if reporter is not None:
            reporter.write_line(line)
        if code:
            print(err)
