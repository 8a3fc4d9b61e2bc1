"""Dask: the same chunks on a cluster give the same rows, even when a worker dies."""

import json
import os
import signal
import threading
import time

import pytest

import simcore

distributed = pytest.importorskip("distributed")

GAME = "trump-friend"


@pytest.fixture(scope="module")
def cluster():
    import logging

    from distributed import LocalCluster

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                      silence_logs=logging.ERROR, env={"SIMCORE_WORKER_THREADS": "1"}) as c:
        yield c


def test_local_cluster_gives_the_rows_of_a_local_run(tmp_path):
    local = simcore.simulate(GAME, 60_000, seed=21, chunk_size=7_000, out=tmp_path / "local")
    remote = simcore.simulate(GAME, 60_000, seed=21, chunk_size=7_000, out=tmp_path / "dask",
                              cluster="local:2")
    a = local.hands().collect().sort("deal")
    b = remote.hands().collect().sort("deal")
    assert a.equals(b)
    manifest = json.loads((tmp_path / "dask" / "manifest.json").read_text())
    assert manifest["finished"] and all(c["status"] == "done" for c in manifest["chunks"])


def test_game_mode_on_a_cluster_matches(tmp_path, cluster):
    c = cluster
    a = simcore.simulate(GAME, 300, seed=2, mode="games", chunk_size=40, out=tmp_path / "a")
    b = simcore.simulate(GAME, 300, seed=2, mode="games", chunk_size=40, out=tmp_path / "b",
                         cluster=c.scheduler_address)
    assert a.games().collect().sort("game").equals(b.games().collect().sort("game"))
    assert a.hands().collect().sort("deal").equals(b.hands().collect().sort("deal"))


def test_a_worker_killed_mid_run_loses_and_duplicates_nothing(tmp_path, cluster):
    c = cluster
    out = tmp_path / "killed"
    deals, chunk = 400_000, 10_000
    errors = []

    def run():
        try:
            simcore.simulate(GAME, deals, seed=33, chunk_size=chunk, out=out, cluster=c.scheduler_address)
        except Exception as e:  # reported below
            errors.append(e)

    thread = threading.Thread(target=run)
    thread.start()
    deadline = time.time() + 120
    while time.time() < deadline and len(list((out / "hands").glob("part-*.parquet"))) < 3:
        time.sleep(0.02)
    assert thread.is_alive(), "the run ended before a worker could be killed"
    # The worker's process is killed from its nanny's pid, not through a scheduler call: under
    # load such a call can time out, and the client then answers with a stale worker list.
    pids = [nanny.pid for nanny in list(c.workers.values()) if nanny.pid]
    assert pids, "no worker process to kill"
    victim = min(pids)
    os.kill(victim, signal.SIGKILL)
    thread.join(300)
    assert not thread.is_alive(), "the run did not finish within 300 s of the kill"
    assert victim not in [nanny.pid for nanny in list(c.workers.values())]  # the kill landed
    assert not errors, errors
    assert len(list((out / "hands").glob("part-*.parquet"))) == deals // chunk
    frame = simcore.load(out).collect()
    assert frame.height == deals and frame["deal"].n_unique() == deals
    reference = simcore.simulate(GAME, deals, seed=33, chunk_size=chunk).hands().collect()
    assert frame.sort("deal").equals(reference.sort("deal"))


def test_cluster_refuses_user_policies_and_in_memory_runs(tmp_path):
    import numba as nb

    @nb.njit
    def first_legal(seat, hand, legal, view, st):
        return 0

    with pytest.raises(simcore.SimcoreError, match="locally only"):
        simcore.simulate(GAME, 10, out=tmp_path / "x", cluster="local:1", policy={0: first_legal})
    with pytest.raises(simcore.SimcoreError, match="needs --out"):
        simcore.simulate(GAME, 10, cluster="local:1")
    for bad in ("local:zero", "local:0", "somewhere"):
        with pytest.raises(simcore.SimcoreError, match="local:N"):
            simcore.simulate(GAME, 10, out=tmp_path / "y", cluster=bad)
    assert not (tmp_path / "y").exists()
