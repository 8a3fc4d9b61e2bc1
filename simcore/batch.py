"""Batch runs: chunks of deals (or games) computed in parallel, streamed to Parquet parts.

A run folder holds ``manifest.json`` (how the run was made and which chunks are done) and
``hands/part-NNNNN.parquet`` (plus ``games/part-NNNNN.parquet`` in game mode); reading one
is ``simcore.runs``.  Every part is
written to a temporary file and renamed into place, then the manifest is rewritten the same
way, so a run killed at any moment loses nothing already written and ``resume=True`` finishes
it with exactly the rows an uninterrupted run would have produced: chunk k always covers the
same deals, and every deal's randomness depends on (seed, deal) only.
"""

from __future__ import annotations

import concurrent.futures
import datetime as _dt
import json
import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numba
import polars as pl
from tqdm import tqdm

from simcore import arguments
from simcore import cluster as dask_cluster
from simcore import games
from simcore.errors import SimcoreError
from simcore.runs import MANIFEST, Run, load, read_manifest
from simcore.version import __version__

# Run, load and MANIFEST live in simcore.runs; callers may also import them from here.
DEFAULT_CHUNK = {"hands": 250_000, "games": 10_000}
# zstd level 1: as small as the default level on these columns (the hands are random bits)
# at a third of its CPU time, which matters when writing overlaps simulating.  Parts carry no
# column statistics: min/max of random hands prune nothing, and computing them cost a third
# of the writing time.
PARQUET_ZSTD_LEVEL = 1
MAX_DEALS = 2**48  # deal ids must fit the game-mode id layout (game << 16 | hand_no)


def simulate(
    game: str,
    deals: int,
    *,
    seed: int = 0,
    out: str | os.PathLike | None = None,
    threads: int | None = None,
    mode: str = "hands",
    policy=None,
    rules: dict[str, Any] | None = None,
    log_plays: bool = False,
    resume: bool = False,
    quiet: bool = True,
    chunk_size: int | None = None,
    cluster: str | None = None,
    what_if: str | None = None,
    predeal=None,
    conditions=None,
) -> Run:
    """Simulate ``deals`` hands (or whole games with ``mode="games"``) of ``game``: the Python
    form of ``simcore simulate``.

    ``policy``: ``--policy`` strings (``"heuristic"``, ``["random", "2=heuristic"]``,
    ``"DECISION=NAME"``) or a dict such as ``{0: "pimc", "DECISION": "heuristic"}`` (a seat may be
    given a jitted play function).  ``rules``: ``{"target": 300}`` or ``["target=300"]``.  With
    ``out`` the rows stream to Parquet parts in that folder; without it they stay in memory.
    ``cluster`` (``tcp://host:8786`` or ``local:N``) computes the chunks on a Dask cluster
    instead of this process's threads.

    ``what_if`` (a name of ``Game.what_if``) plays every deal once per option of that
    decision: ``deals * options`` rows, deal-major, with an ``option`` column (hands mode).
    ``predeal`` (``{0: "AS KS 3H", "SLOT": "9H"}``, lists of cards, or ``["0=AS,KS,3H"]``)
    fixes cards; ``conditions`` (``["0:longest>=5"]`` or ``[(0, "longest", ">=", 5)]``,
    docs/conditions.md) keeps only deals meeting all of them, by reproducible rejection
    sampling: rows get ``attempts`` and the manifest ``acceptance_rate``.  Python values and
    their command-line strings make the same run (:mod:`simcore.arguments`).  Returns a
    :class:`Run`.
    """
    policy, rules, predeal, conditions = arguments.normalize(policy, rules, predeal, conditions)
    spec = _plan(game, deals, seed, mode, policy, rules, log_plays, chunk_size, what_if,
                 predeal, conditions)
    return _execute(spec, out, threads, resume, quiet, cluster)


def solve_deals(
    game: str,
    deals: int,
    *,
    seed: int = 0,
    out: str | os.PathLike | None = None,
    threads: int | None = None,
    policy=None,
    rules: dict[str, Any] | None = None,
    resume: bool = False,
    quiet: bool = True,
    chunk_size: int | None = None,
    cluster: str | None = None,
    predeal=None,
    conditions=None,
    options: dict[str, str] | None = None,
) -> Run:
    """The open-hand (double-dummy) table of ``deals`` deals of a trick game: the Python form of
    ``simcore solve``.

    Deal k has exactly the cards (and the deal's facts: dealer, upcard, ...) of row k of
    :func:`simulate` with the same ``seed``, ``rules``, ``predeal`` and ``conditions``, so the
    two tables join on (``seed``, ``deal``).  Columns per game: docs/schema.md; what they
    mean: docs/solving.md.  ``policy`` may only name the decisions the table reads
    (``Game.solve_decisions``: ``["DECISION=NAME"]`` or ``{"DECISION": "NAME"}``).  Folders,
    resume, threads and clusters work as for :func:`simulate`, and so do the Python forms of
    ``rules``, ``predeal`` and ``conditions``.  ``options`` are the game's solve options
    (``Game.solve_options``, ``{name: choice}``), kept in the manifest.
    """
    policy, rules, predeal, conditions = arguments.normalize(policy, rules, predeal, conditions)
    spec = _plan_solve(game, deals, seed, policy, rules, chunk_size, predeal, conditions, options)
    return _execute(spec, out, threads, resume, quiet, cluster)


def _execute(spec: "_Spec", out, threads, resume: bool, quiet: bool, cluster) -> Run:
    _set_threads(threads)
    if cluster is not None:
        dask_cluster.check_address(cluster)
        if out is None:
            raise SimcoreError("--cluster needs --out: workers write their parts into that folder")
        if spec.choice.user:
            raise SimcoreError("user policy functions run locally only, not with --cluster")
    if out is None:
        return _run_in_memory(spec)
    folder = Path(out)
    manifest = _open_folder(folder, spec, resume)
    _run_chunks(folder, manifest, spec, quiet, cluster)
    return Run(manifest, folder)


# ---------------------------------------------------------------- planning and validation


@dataclass
class _Spec:
    game: Any
    rules: Any
    choice: Any
    identity: dict[str, Any]
    deal_filter: Any = None  # simcore.dealing.DealFilter, None without predeal/conditions

    @property
    def mode(self) -> str:
        return self.identity["mode"]


def _plan(game_name, deals, seed, mode, policy, rules, log_plays, chunk_size, what_if=None,
          predeal=None, conditions=None) -> _Spec:
    game = games.get(game_name)
    if isinstance(deals, bool) or not isinstance(deals, int) or deals <= 0:
        raise SimcoreError(f"the number of deals must be a positive whole number, not {deals!r}")
    if deals > MAX_DEALS:
        raise SimcoreError(f"at most {MAX_DEALS} deals per run")
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**64:
        raise SimcoreError(f"the seed must be a whole number from 0 to 2**64-1, not {seed!r}")
    if mode not in DEFAULT_CHUNK:
        raise SimcoreError(f"unknown mode {mode!r}: use hands or games")
    chunk = DEFAULT_CHUNK[mode] if chunk_size is None else chunk_size
    if isinstance(chunk, bool) or not isinstance(chunk, int) or chunk <= 0:
        raise SimcoreError(f"the chunk size must be a positive whole number, not {chunk!r}")
    rules_obj = game.rules_cls.from_options(rules)
    choice = game.policies_from_specs(policy)
    if what_if is not None:
        game.what_if_options(what_if)
        if mode != "hands":
            raise SimcoreError("--what-if runs in hands mode only (--mode hands)")
    deal_filter = game.deal_filter(predeal, conditions)
    identity = {
        "game": game.name,
        "mode": mode,
        "deals": deals,
        "seed": seed,
        "rules": rules_obj.to_dict(),
        "policies": choice.to_dict(),
        "log_plays": bool(log_plays),
        "chunk_size": min(chunk, deals),
        # None when unused, so that runs made before these options existed still resume
        "what_if": what_if,
        "predeal": deal_filter.predeal if deal_filter else None,
        "conditions": deal_filter.conditions if deal_filter else None,
    }
    return _Spec(game, rules_obj, choice, identity, deal_filter)


def _plan_solve(game_name, deals, seed, policy, rules, chunk_size, predeal, conditions, options=None) -> _Spec:
    game = games.get(game_name)
    if game.solve_hands is None:
        raise SimcoreError(f"{game.name} has no open-hand solver (simcore solve plays the trick "
                           f"games: {', '.join(games.names_with('solve_hands'))})")
    specs = [policy] if isinstance(policy, str) else list(policy or [])
    for item in specs:
        key = str(item).partition("=")[0].strip()
        if key not in game.solve_decisions:
            raise SimcoreError(f"simcore solve {game.name} plays every card open-handed; --policy "
                               + ("takes only " + ", ".join(f"{d}=NAME" for d in game.solve_decisions)
                                  if game.solve_decisions else "does not apply")
                               + f", not {item!r}")
    if options and not game.solve_options:
        raise SimcoreError(f"simcore solve {game.name} takes no " + ", ".join(f"--{o}" for o in options))
    chosen = _solve_options(game, options)
    if chunk_size is None:
        chunk_size = min([game.solve_chunk_by_option[o] for o in chosen.items() if o in game.solve_chunk_by_option],
                         default=game.solve_chunk)
    spec = _plan(game.name, deals, seed, "hands", ["random", *specs], rules, False, chunk_size,
                 None, predeal, conditions)
    spec.identity["command"] = "solve"
    spec.identity["policies"] = {d: spec.choice.decisions[d] for d in game.solve_decisions}
    if game.solve_options:
        spec.identity["options"] = chosen
    return spec


def _solve_options(game, options) -> dict[str, str]:
    """The game's solve options with their defaults filled in; SimcoreError for unknown ones."""
    chosen = {name: choices[0] for name, (choices, _) in game.solve_options.items()}
    for name, value in (options or {}).items():
        if name not in game.solve_options:
            raise SimcoreError(f"unknown solve option {name!r} for {game.name}; known: "
                               + ", ".join(game.solve_options))
        choices = game.solve_options[name][0]
        if value not in choices:
            raise SimcoreError(f"--{name} must be one of {', '.join(choices)}, not {value!r}")
        chosen[name] = value
    return chosen


def spec_from_identity(identity: dict[str, Any]) -> _Spec:
    """Rebuild a run's game, rules and policies from its manifest identity (Dask workers)."""
    game = games.get(identity["game"])
    if identity.get("command") == "solve":
        return _plan_solve(game.name, identity["deals"], identity["seed"],
                           [f"{k}={v}" for k, v in identity["policies"].items()], identity["rules"],
                           identity["chunk_size"], identity.get("predeal"), identity.get("conditions"),
                           identity.get("options"))
    policies = dict(identity["policies"])
    seats = policies.pop("seats")
    specs = {str(seat): name for seat, name in enumerate(seats)} | policies
    deal_filter = game.deal_filter(identity.get("predeal"), identity.get("conditions"))
    return _Spec(game, game.rules_cls.from_options(identity["rules"]),
                 game.policies_from_specs(specs), identity, deal_filter)


def _set_threads(threads):
    # Threads take the kernels' blocks one at a time (dynamic scheduling): while the writer
    # thread encodes the previous part it slows one of them, and a static split would leave
    # the other waiting for it at the end of every chunk.
    numba.set_parallel_chunksize(1)
    if threads is None:
        numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
        return
    most = numba.config.NUMBA_NUM_THREADS
    if isinstance(threads, bool) or not isinstance(threads, int) or not 1 <= threads <= most:
        raise SimcoreError(f"--threads must be a whole number from 1 to {most}, not {threads!r}")
    numba.set_num_threads(threads)


def _chunks(identity) -> list[dict[str, Any]]:
    size, total = identity["chunk_size"], identity["deals"]
    return [
        {"index": i, "start": start, "count": min(size, total - start), "status": "pending"}
        for i, start in enumerate(range(0, total, size))
    ]


# ---------------------------------------------------------------- the run folder


def _open_folder(folder: Path, spec: _Spec, resume: bool) -> dict[str, Any]:
    """Create or reopen a run folder; refuse anything that could damage existing results."""
    if folder.exists() and not folder.is_dir():
        raise SimcoreError(f"{folder} exists and is not a folder")
    manifest_path = folder / MANIFEST
    if manifest_path.is_file():
        manifest = read_manifest(folder)
        if not resume:
            state = "a finished run" if manifest.get("finished") else "an unfinished run (add --resume to finish it)"
            raise SimcoreError(f"{folder} already holds {state}; choose another --out")
        different = [k for k, v in spec.identity.items() if manifest.get(k) != v]
        if different:
            raise SimcoreError(
                f"cannot resume {folder}: it was made with other options ({', '.join(different)} differ)"
            )
        return manifest
    if folder.is_dir() and any(folder.iterdir()):
        raise SimcoreError(f"{folder} is not empty and holds no simcore run; choose another --out")
    try:
        for sub in _tables(spec.mode):
            (folder / sub).mkdir(parents=True, exist_ok=True)
        manifest = {
            "simcore_version": __version__,
            **spec.identity,
            "omniscient": _omniscient(spec),
            "created": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
            "finished": False,
            "chunks": _chunks(spec.identity),
        }
        _write_manifest(folder, manifest)
    except OSError as e:
        raise SimcoreError(f"cannot write to {folder}: {e.strerror or e}") from None
    return manifest


def _omniscient(spec: _Spec) -> list[str]:
    """The run's policies that see more than their seat may; every card of a solve run is
    played open-handed, which the manifest says as ``["open-hand"]``."""
    if spec.identity.get("command") == "solve":
        return ["open-hand"]
    return [p for p in spec.identity["policies"]["seats"] if p in spec.game.omniscient]


def _tables(mode: str) -> tuple[str, ...]:
    return ("hands", "games") if mode == "games" else ("hands",)


def _write_manifest(folder: Path, manifest: dict[str, Any]) -> None:
    _atomic_write(folder / MANIFEST, lambda f: f.write(json.dumps(manifest, indent=1).encode()))


def _atomic_write(path: Path, write) -> None:
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    try:
        with open(tmp, "wb") as f:
            write(f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        # a full disk gets its space back at once; the folder keeps whole parts only
        tmp.unlink(missing_ok=True)
        raise


def _write_error(folder: Path, error: Exception) -> SimcoreError:
    """The one-line error of a part or manifest that could not be written: an OSError, or the
    polars error that wraps one (``... underlying IO error: No space left on device``)."""
    cause = getattr(error, "strerror", None) or str(error)
    cause = cause.split("IO error: ", 1)[-1]
    return SimcoreError(f"cannot write to {folder}: {cause}; the parts already written are kept "
                        "(rerun with --resume to finish the run)")


def _part_name(index: int) -> str:
    return f"part-{index:05d}.parquet"


def _part_metadata(identity: dict[str, Any], chunk: dict[str, Any]) -> dict[str, str]:
    return {"simcore": json.dumps({"simcore_version": __version__, **identity,
                                   "chunk": chunk["index"], "start": chunk["start"]})}


def _part_is_complete(folder: Path, spec: _Spec, chunk: dict[str, Any]) -> bool:
    """A part left by a killed run counts only if every table's file is there and says it
    belongs to this run and chunk (it was renamed into place, so it is whole)."""
    for table in _tables(spec.mode):
        path = folder / table / _part_name(chunk["index"])
        try:
            meta = json.loads(pl.read_parquet_metadata(path).get("simcore", "{}"))
        except Exception:
            return False
        if meta.get("chunk") != chunk["index"] or any(meta.get(k) != v for k, v in spec.identity.items()):
            return False
    return True


# ---------------------------------------------------------------- running


def compute_chunk(spec: _Spec, chunk: dict[str, Any]) -> dict[str, pl.DataFrame]:
    """The tables of one chunk: its deals (games) always the same, whoever computes them."""
    ident = spec.identity
    extra = {} if spec.deal_filter is None else {"deal_filter": spec.deal_filter}
    if ident.get("command") == "solve":
        if ident.get("options"):
            extra["options"] = ident["options"]
        return {"hands": spec.game.solve_hands(spec.game, ident["seed"], chunk["start"],
                                               chunk["count"], spec.rules, spec.choice, **extra)}
    start, count = chunk["start"], chunk["count"]
    # A kernel's one-row output is both C- and F-contiguous, so Numba would type it C and
    # compile every kernel of the game a second time for it: one deal (game) is run as two
    # and the first kept (its rows depend on the seed and its number only).
    padded = max(count, 2)

    def first(frame: pl.DataFrame, column: str) -> pl.DataFrame:
        return frame.filter(pl.col(column) < start + count) if padded > count else frame

    if spec.mode == "hands":
        if ident.get("what_if") is not None:
            extra["what_if"] = ident["what_if"]
        frame = spec.game.run_hands(ident["seed"], start, padded, spec.rules, spec.choice,
                                    ident["log_plays"], **extra)
        return {"hands": first(frame, "deal")}
    hands, game_rows = spec.game.run_games(ident["seed"], start, padded, spec.rules, spec.choice,
                                           ident["log_plays"], **extra)
    return {"hands": first(hands, "game"), "games": first(game_rows, "game")}


def _run_in_memory(spec: _Spec) -> Run:
    parts: dict[str, list[pl.DataFrame]] = {}
    for chunk in _chunks(spec.identity):
        for table, frame in compute_chunk(spec, chunk).items():
            parts.setdefault(table, []).append(frame)
    frames = {table: pl.concat(fs) for table, fs in parts.items()}
    manifest = {"simcore_version": __version__, **spec.identity, "finished": True}
    if spec.identity.get("conditions"):
        manifest["acceptance_rate"] = _acceptance_rate(frames["hands"].lazy())
    return Run(manifest, None, frames)


def _acceptance_rate(hands: pl.LazyFrame) -> float:
    """Accepted deals per attempt over a run's hand rows (``attempts`` column)."""
    rows, attempts = hands.select(pl.len(), pl.col("attempts").cast(pl.Int64).sum()).collect().row(0)
    return rows / attempts if attempts else 0.0


def _run_chunks(folder: Path, manifest: dict[str, Any], spec: _Spec, quiet: bool,
                cluster: str | None = None) -> None:
    for table in _tables(spec.mode):
        for stale in (folder / table).glob(".part-*.tmp-*"):
            stale.unlink(missing_ok=True)
    todo = []
    for chunk in manifest["chunks"]:
        if chunk["status"] != "done" and _part_is_complete(folder, spec, chunk):
            chunk["status"] = "done"
        if chunk["status"] != "done":
            todo.append(chunk)
    solving = spec.identity.get("command") == "solve"
    unit = "games" if spec.mode == "games" else "deals" if solving else "hands"
    done = spec.identity["deals"] - sum(c["count"] for c in todo)
    bar = tqdm(total=spec.identity["deals"], initial=done, unit=unit, unit_scale=True,
               desc=spec.game.name + (" solve" if solving else ""), disable=quiet or not sys.stderr.isatty(),
               smoothing=0.1, dynamic_ncols=True)
    if cluster is not None:
        def done(chunk):
            chunk["status"] = "done"
            _write_manifest(folder, manifest)
            bar.update(chunk["count"])

        with bar:
            dask_cluster.run_chunks(cluster, folder, spec.identity, todo, done, compute_part)
        _finish_manifest(folder, manifest)
        return
    # Writing part k (and recording it in the manifest, fsyncs included) overlaps computing
    # part k+1 on the writer thread: the kernels release the GIL (nogil) and polars writes
    # outside it.  Only the writer touches the manifest until the loop ends; at most one part
    # waits in memory.
    with bar, concurrent.futures.ThreadPoolExecutor(max_workers=1) as writer:
        pending = None
        try:
            for chunk in todo:
                frames = compute_chunk(spec, chunk)
                if pending is not None:
                    pending.result()
                pending = writer.submit(_write_and_record, folder, manifest, spec, chunk, frames, bar)
            if pending is not None:
                pending.result()
                pending = None
        finally:
            if pending is not None:  # interrupted: keep what is already on its way to disk
                try:
                    pending.result()
                except Exception:
                    pass
    _finish_manifest(folder, manifest)


def _finish_manifest(folder: Path, manifest: dict[str, Any]) -> None:
    manifest["finished"] = all(c["status"] == "done" for c in manifest["chunks"])
    if manifest["finished"] and manifest.get("conditions"):
        manifest["acceptance_rate"] = _acceptance_rate(load(folder, "hands"))
    try:
        _write_manifest(folder, manifest)
    except OSError as e:
        raise _write_error(folder, e) from None


def write_part(folder: Path, spec: _Spec, chunk: dict[str, Any], frames: dict[str, pl.DataFrame]) -> int:
    """Write a chunk's tables atomically; returns the rows written."""
    meta = _part_metadata(spec.identity, chunk)
    for table, frame in frames.items():
        _atomic_write(folder / table / _part_name(chunk["index"]),
                      lambda f, frame=frame: frame.write_parquet(
                          f, metadata=meta, compression="zstd", compression_level=PARQUET_ZSTD_LEVEL,
                          statistics=False))
    return sum(frame.height for frame in frames.values())


def compute_part(folder: str, identity: dict[str, Any], chunk: dict[str, Any]) -> int:
    """Compute one chunk of the run ``identity`` describes and write its part: the task a Dask
    worker runs (it gets the identity from the manifest, not a live spec)."""
    spec = spec_from_identity(identity)
    return write_part(Path(folder), spec, chunk, compute_chunk(spec, chunk))


def _write_and_record(folder, manifest, spec, chunk, frames, bar) -> None:
    """Write a chunk's part, then mark it done in the manifest (the writer thread's job).  A
    failing write (full disk, folder gone) is a SimcoreError, raised in the main thread when
    it collects this part."""
    try:
        write_part(folder, spec, chunk, frames)
        chunk["status"] = "done"
        _write_manifest(folder, manifest)
    except (OSError, pl.exceptions.PolarsError) as e:
        raise _write_error(folder, e) from None
    bar.update(chunk["count"])
