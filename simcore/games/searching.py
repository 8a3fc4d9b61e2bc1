"""What the search policies (``pimc``, ``pimc:W``, ``pimc-uniform:W``, ``dd``) share,
game-neutral (Gin Rummy has ``pimc`` only):
their names and ids, the play-policy table that accepts any ``pimc:W``, the run's kernel blocks,
and giving a kernel built from an engine's code a cached home in the policy's own module.

Ids: ``dd`` = ``DD``; in a game whose worlds are weighted by the other seats' actions
(``infer``), ``pimc:W`` = ``INFER + W`` and ``pimc-uniform:W`` (worlds uniform among those
consistent with the cards seen) = ``PIMC + W``; elsewhere ``pimc:W`` = ``PIMC + W`` (uniform).
All are above every built-in policy id, so a kernel hook tells a searching seat by
``policy >= DD``.
"""

from __future__ import annotations

import concurrent.futures
import inspect
import re
import types

import numba as nb
import numpy as np

from simcore import rng, sampling, solver as search
from simcore.cards import lowest_bit
from simcore.errors import SimcoreError
from simcore.games.base import rebind

DD = 5000
PIMC = 10000
INFER = 1_000_000_000  # above PIMC + every W, Trump Friend's calls over 10 W worlds included
MAX_WORLDS = 10000
# Typed stand-ins for literal arguments of jitted calls: Numba compiles a callee once for every
# literal value it is passed, and once more for a run-time value.
NOBODY = np.int64(-1)  # no card, seat, suit or trump
NO_SALT = np.int64(0)  # a decision stream's salt when nothing played tells its decisions apart
TRUE, FALSE = np.bool_(True), np.bool_(False)

_PIMC_NAME = re.compile(r"pimc(-uniform)?:(\d+)")

# The slots every game's search context (its ``new_context`` tuple) starts with: the solver
# table, the sampler's scratch, its inputs (need, masks) and the world drawn (pub), the
# options' sums, and the solver's moves and values.
C_TAB, C_SC, C_NEED, C_MASKS, C_PUB, C_SUMS, C_CARDS, C_VALUES = range(8)


def search_id(name, default_worlds: int, infer: bool = False) -> int | None:
    """The policy id of ``dd``, ``pimc`` (``default_worlds`` worlds) or ``pimc:W``, and with
    ``infer`` of ``pimc-uniform`` and ``pimc-uniform:W`` (None for any other name)."""
    if not isinstance(name, str):
        return None
    if name == "dd":
        return DD
    if name == "pimc":
        return (INFER if infer else PIMC) + default_worlds
    if name == "pimc-uniform":
        return PIMC + default_worlds if infer else None
    match = _PIMC_NAME.fullmatch(name)
    if match and 1 <= int(match.group(2)) <= MAX_WORLDS:
        if match.group(1):
            return PIMC + int(match.group(2)) if infer else None
        return (INFER if infer else PIMC) + int(match.group(2))
    return None


class PlayPolicies(dict):
    """A game's play policies by name: the built-in ones plus ``pimc:W`` for any W in
    1..10000 (listed once, as ``pimc:W``); with ``infer`` also ``pimc-uniform`` and
    ``pimc-uniform:W``."""

    def __init__(self, builtin: dict, default_worlds: int, dd: bool = True, infer: bool = False):
        base = INFER if infer else PIMC
        uniform = {"pimc-uniform": PIMC + default_worlds, "pimc-uniform:W": -1} if infer else {}
        super().__init__(builtin, pimc=base + default_worlds, **{"pimc:W": -1}, **uniform,
                         **({"dd": DD} if dd else {}))
        self.default_worlds = default_worlds
        self.dd = dd
        self.infer = infer

    def __contains__(self, name):
        return self._id(name) is not None or (name not in ("pimc:W", "pimc-uniform:W")
                                              and dict.__contains__(self, name))

    def __getitem__(self, name):
        pid = self._id(name)
        return pid if pid is not None else dict.__getitem__(self, name)

    def _id(self, name):
        if name == "dd" and not self.dd:
            return None
        return search_id(name, self.default_worlds, self.infer)


def is_search(name) -> bool:
    return search_id(name, 1, True) is not None


def searching(choice) -> bool:
    """Does any seat of the run's policy choice search?"""
    return any(is_search(s) for s in choice.seats)


def check_choice(choice) -> None:
    if choice.user and searching(choice):
        raise SimcoreError("a user play policy and pimc/dd cannot share a run yet")


def search_blocks(count: int) -> int:
    """Kernel blocks of a searching run: it spends milliseconds a hand, so small batches are
    split finely enough to keep every thread busy (each block allocates its own solver table)."""
    return max(1, min(count, 4 * nb.get_num_threads(), -(-count // 8)))


@nb.njit(cache=True)
def n_worlds(policy):
    """The worlds a searching policy id draws: one (the true deal) for ``dd``, W for ``pimc:W``
    and ``pimc-uniform:W``."""
    if policy == DD:
        return 1
    return policy - INFER if policy > INFER else policy - PIMC


@nb.njit(cache=True)
def inferring(policy):
    """Does the searching policy id weight its worlds by the other seats' actions?"""
    return policy > INFER


@nb.njit(cache=True)
def played_by(view, first, n, seat):
    """How many of the ``n`` who-played-it slots ``view[first:first + n]`` name ``seat``."""
    count = 0
    for c in range(first, first + n):
        if view[c] == seat:
            count += 1
    return count


_new_tables = nb.njit(cache=True)(search.new_tables)


@nb.njit(cache=True)
def new_table(table_bits, budget):
    """A block's solver table (``2**table_bits`` entries); ``budget`` > 0 caps every solve's
    nodes (a solve that runs out returns -1)."""
    tab = search.table_of(_new_tables(1, table_bits), 0)
    if budget > 0:
        search.set_budget(tab, budget)
    return tab


@nb.njit(cache=True)
def context_head(table_bits, budget, max_states, holders):
    """The slots ``C_TAB`` ... ``C_VALUES`` of a block's search context, for a sampler over
    ``holders`` hands (the seats, and a kitty where the game has one): a solver table
    (:func:`new_table`), sampler scratch for ``max_states`` capacity states, need, masks
    (allowed, known, drawn), the world drawn, and 16 sums, moves and values."""
    return (new_table(table_bits, budget), sampling.new_scratch(max_states),
            np.zeros(holders, np.int64), np.zeros((3, holders), np.uint64),
            np.zeros(holders, np.uint64), np.zeros(16, np.int64), np.zeros(16, np.int64),
            np.zeros(16, np.int64))


@nb.njit(cache=True)
def decision_stream(slot, st, seat, kind, salt):
    """A decision's own stream into ``slot[0]``: a function of the deal's policy stream state
    (not advanced), the seat, the kind of decision and ``salt`` (e.g. the cards played)."""
    slot[0] = rng.stream_key(rng.policy_key(st[0]), seat, kind, salt)


def home(fn, name: str, filename: str):
    """``fn`` under the name ``name`` of the file ``filename``, so Numba caches it there (its
    code is an engine's: after editing the engine, delete that file's cache)."""
    code = fn.__code__.replace(co_filename=filename, co_name=name, co_qualname=name)
    return types.FunctionType(code, fn.__globals__, name, fn.__defaults__, fn.__closure__)


def search_hook(search_fn, builtin_fn):
    """A search kernel's hook: ``search_fn(policy, ..., ctx)`` for a searching policy id
    (``policy >= DD``), else the built-in ``builtin_fn`` on the same leading arguments (all of
    them, or all but the context).  Written out with ``search_fn``'s argument names and
    inlined, as Numba cannot inline ``*args``."""
    names = list(inspect.signature(search_fn.py_func).parameters)
    n_builtin = len(inspect.signature(builtin_fn.py_func).parameters)
    args, builtin_args = ", ".join(names), ", ".join(names[:n_builtin])
    source = (f"def hook({args}):\n    if {names[0]} >= DD:\n        return search({args})\n"
              f"    return builtin({builtin_args})\n")
    scope = {"DD": DD, "search": search_fn, "builtin": builtin_fn}
    exec(source, scope)
    return nb.njit(inline="always")(scope["hook"])


def search_kernels(kernels_with, filename: str, names, **hooks):
    """The search kernels of a game, as a function that builds them on its first call (they
    compile then, and are cached on disk) and returns them: an engine's kernels rebuilt around
    a search module's ``hooks``, with that module's file (``filename``) as their cached home.
    ``kernels_with(jit, **hooks)`` returns the plain kernels (one, or a tuple in the order of
    ``names``, which name them); their block functions are jitted (``nogil``, cached under
    their own names) and the kernels run them from Python threads (:func:`threaded`)."""
    built = []

    def kernels():
        if not built:
            plain = kernels_with(
                lambda f, name: nb.njit(cache=True, nogil=True)(home(f, name, filename)), **hooks)
            runs = tuple(threaded(f, name) for f, name in
                         zip(plain if isinstance(plain, tuple) else (plain,), names))
            built.append(runs if isinstance(plain, tuple) else runs[0])
        return built[0]

    return kernels


class _OneBlock:
    """Stands in for ``numba`` in a plain kernel run from Python: its ``prange`` is one block."""

    def __init__(self, block: int):
        self.block = block

    def prange(self, n: int) -> range:
        return range(self.block, min(self.block + 1, n))


def threaded(kernel, name: str):
    """A plain engine kernel (``for b in nb.prange(n_blocks)`` over its blocks, each block one
    call of a jitted ``nogil`` block function, ``bad`` its last argument with a row per block)
    run from Python: every block a task of a pool of ``nb.get_num_threads()`` threads, taken
    in turn as threads come free.  The blocks and their rows are the kernel's own, so the rows
    are those of the parallel kernel; a searching block takes milliseconds a deal, so calling
    it from Python costs nothing measurable.  No parallel kernel is compiled around the blocks:
    its machine code would hold the whole search again (about 15 s of compiling a kernel)."""
    def run(*args):
        n_blocks = args[-1].shape[0]
        parts = [rebind(kernel, nb=_OneBlock(b)) for b in range(n_blocks)]
        threads = min(nb.get_num_threads(), n_blocks)
        if threads <= 1:
            for part in parts:
                part(*args)
            return
        with concurrent.futures.ThreadPoolExecutor(threads) as pool:
            for done in [pool.submit(part, *args) for part in parts]:
                done.result()  # a block's error is raised here

    run.__name__ = run.__qualname__ = name
    return run


@nb.njit(cache=True)
def best_card(cards, sums):
    """The card of the mask ``cards`` with the best sum, ``sums[j]`` belonging to its j-th
    lowest card; ties to the lowest card."""
    best, best_sum = -1, -(1 << 60)
    m = cards
    j = 0
    while m:
        c = lowest_bit(m)
        m &= m - np.uint64(1)
        if sums[j] > best_sum:
            best, best_sum = c, sums[j]
        j += 1
    return best
