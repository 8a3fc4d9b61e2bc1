"""The same chunks as a local run, computed as tasks on a Dask cluster.

``simcore simulate ... --cluster tcp://host:8786`` uses a running scheduler;
``--cluster local:N`` starts a local cluster of N single-threaded worker processes.
Each task computes one chunk and writes its Parquet part atomically into the run folder (a
path every worker can reach), with the function ``simcore.batch`` hands over; the client
marks chunks done in the manifest as their tasks finish.  A task whose worker dies is rerun elsewhere by Dask; since a chunk always holds the
same deals and its part is renamed into place whole, a rerun can neither lose nor duplicate
rows, and the output is identical to a local run.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import Any, Callable

from simcore.errors import SimcoreError


def _on_worker(task: Callable[..., int], folder: str, identity: dict[str, Any], chunk: dict[str, Any]) -> int:
    """The Dask task: ``task(folder, identity, chunk)`` with the worker's Numba threads set."""
    import numba

    threads = int(os.environ.get("SIMCORE_WORKER_THREADS", "0")) or None
    numba.set_num_threads(min(threads or numba.config.NUMBA_NUM_THREADS, numba.config.NUMBA_NUM_THREADS))
    return task(folder, identity, chunk)


def check_address(address: str) -> None:
    """Refuse a malformed --cluster value before anything is written."""
    if address.startswith("local:"):
        n = address.split(":", 1)[1]
        if not n.isdigit() or int(n) < 1:
            raise SimcoreError(f"--cluster {address!r}: use local:N with N >= 1 workers")
    elif "://" not in address:
        raise SimcoreError(f"--cluster {address!r}: use tcp://host:port or local:N")


def connect(address: str):
    """A distributed Client for ``tcp://...`` or ``local:N`` (the cluster closes with it)."""
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise SimcoreError("--cluster needs Dask: pip install 'dask[distributed]'") from None
    check_address(address)
    if address.startswith("local:"):
        n = int(address.split(":", 1)[1])
        cluster = LocalCluster(n_workers=n, threads_per_worker=1, processes=True,
                               dashboard_address=None, silence_logs=logging.ERROR,
                               env={"SIMCORE_WORKER_THREADS": "1"})
        client = Client(cluster)
        client._simcore_cluster = cluster  # keep it alive as long as the client
        return client
    try:
        return Client(address, timeout="10s")
    except (OSError, TimeoutError) as e:
        raise SimcoreError(f"cannot reach the Dask scheduler at {address}: {e}") from None


def run_chunks(address: str, folder: Path, identity: dict[str, Any], todo: list[dict[str, Any]],
               on_done: Callable[[dict[str, Any]], None], task: Callable[..., int]) -> None:
    """Compute every chunk in ``todo`` on the cluster, calling ``on_done(chunk)`` as each
    part lands (in completion order).  ``task(folder, identity, chunk)`` computes and writes
    one part (``simcore.batch.compute_part``): passed in, so that this module needs nothing
    from the runner that drives it; Dask ships it to the workers by name."""
    from distributed import as_completed

    client = connect(address)
    try:
        futures = {
            client.submit(_on_worker, task, str(folder.resolve()), identity, chunk, pure=False,
                          retries=3, key=f"simcore-part-{os.getpid()}-{chunk['index']}"): chunk
            for chunk in todo
        }
        for future in as_completed(futures):
            future.result()
            on_done(futures[future])
    finally:
        cluster = getattr(client, "_simcore_cluster", None)
        client.close()
        if cluster is not None:
            cluster.close()
