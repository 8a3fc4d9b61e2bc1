import os

from hypothesis import HealthCheck, settings

# Numba compiles on first call, so per-example deadlines would measure the compiler.
settings.register_profile(
    "simcore", deadline=None, suppress_health_check=[HealthCheck.too_slow], print_blob=True
)
settings.load_profile("simcore")


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
