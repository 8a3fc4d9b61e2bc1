"""Plain-Python reference implementations the fast kernels are checked against."""

from __future__ import annotations

import concurrent.futures
import functools

_THREAD = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="reference")


def on_fresh_stack(f):
    """Run ``f`` in a thread of its own, so that its recursion starts near the bottom of a stack.

    CPython 3.11 keeps Python frames in chunks of 16 KiB and unmaps a chunk as soon as the
    frame that opened it returns.  A deep recursion that starts a little below a chunk's end
    (as it does under pytest's own call stack) crosses that boundary back and forth millions of
    times, each crossing an mmap, a munmap and fresh page faults: the exhaustive oracle ran 4-6x
    slower inside a test than outside it.  A worker thread's stack starts nearly empty.
    """

    @functools.wraps(f)
    def wrapper(*args, **kwargs):
        return _THREAD.submit(f, *args, **kwargs).result()

    return wrapper
