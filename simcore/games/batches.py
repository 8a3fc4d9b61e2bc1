"""What the games' ``run_hands`` / ``run_games`` share around their kernels: the kernel set and
blocks of a run, the output arrays, the checks of what a kernel reports, what-if rows and the
two passes of a games run.
"""

from __future__ import annotations

import numpy as np
import polars as pl

from simcore.errors import SimcoreError
from simcore.games.base import interleave_options, n_blocks
from simcore.games.searching import check_choice, search_blocks


def run_kernels(choice, searches: bool, search_kernels, user_kernels):
    """The run's kernels: with a search policy (``searches``) the search module's
    ``search_kernels()``, compiled only then; else ``user_kernels(choice)`` (the built-in
    kernels, or those compiled around a user's policy)."""
    if searches:
        check_choice(choice)
        return search_kernels()
    return user_kernels(choice)


def run_blocks(count: int, searches: bool) -> int:
    """Kernel blocks of a run of ``count`` rows: finer for a searching run (milliseconds a
    hand), else enough to balance the threads."""
    return search_blocks(count) if searches else n_blocks(count)


def columns(k: int, rows: int, dtype) -> np.ndarray:
    """``k`` zeroed output columns of ``rows`` rows as a (rows, k) view of a (k, rows) array:
    the kernels index it by row, and every column is contiguous in its own type, so the polars
    frame built on it copies and converts nothing."""
    return np.zeros((k, rows), dtype).T


def column_names(*parts) -> tuple[str, ...]:
    """The columns of a kernel output array in index order: each part a name, or (stem, k)
    for ``stem0 .. stem{k-1}``."""
    names = []
    for part in parts:
        if isinstance(part, str):
            names.append(part)
        else:
            stem, k = part
            names += [f"{stem}{i}" for i in range(k)]
    return tuple(names)


def game_row(*extra) -> np.dtype:
    """The record of a game row: seed, game, hands played and winner (``base.record_game``
    fills them), then the game's own ``extra`` fields."""
    return np.dtype([("seed", np.uint64), ("game", np.uint64), ("hands", np.uint16),
                     ("winner", np.int8), *extra], align=True)


def hand_rows(fields) -> tuple[np.dtype, np.dtype]:
    """The records of a hand row: in hands mode (seed, deal, ``fields``) and in games mode
    (seed, deal, game, hand_no, ``fields``)."""
    return (np.dtype([("seed", np.uint64), ("deal", np.uint64), *fields], align=True),
            np.dtype([("seed", np.uint64), ("deal", np.uint64), ("game", np.uint64),
                      ("hand_no", np.uint16), *fields], align=True))


def frame_from_columns(parts, order, *, extra=None, bools=(), u16=()) -> pl.DataFrame:
    """A frame from the kernels' output arrays without a copy: ``parts`` pairs each column
    array (:func:`columns`) with its names (:func:`column_names`; an array with fewer columns,
    as in hands mode, takes the first names).  ``extra`` adds ready columns by name; ``bools``
    are int8 columns read as booleans, ``u16`` columns narrowed to u16.  The frame has the
    columns of ``order`` that exist, in that order."""
    cols = {}
    for names, array in parts:
        for k in range(array.shape[1]):
            cols[names[k]] = array[:, k]
    cols |= extra or {}
    for name in bools:
        if name in cols:
            cols[name] = cols[name].view(np.bool_)
    for name in u16:
        if name in cols:
            cols[name] = cols[name].astype(np.uint16)
    return pl.DataFrame({name: cols[name] for name in order if name in cols})


def log_arrays(rows: int, log_plays: bool, n_cards: int, n_tricks: int):
    """The ``--log-plays`` outputs (cards played, trick winners); empty without logging."""
    rows = rows if log_plays else 0
    return np.zeros((rows, n_cards), np.uint8), np.zeros((rows, n_tricks), np.int8)


def log_columns(frame: pl.DataFrame, plays, winners, log_plays: bool) -> pl.DataFrame:
    """``frame`` with the ``plays`` and ``trick_winners`` list columns of a logged run."""
    if not log_plays:
        return frame
    return frame.with_columns(pl.Series("plays", plays).cast(pl.List(pl.UInt8)),
                              pl.Series("trick_winners", winners).cast(pl.List(pl.Int8)))


def attempts_array(rows: int, deal_filter) -> np.ndarray:
    """The attempts column a kernel fills: only a run with conditions has one."""
    conditioned = deal_filter is not None and deal_filter.has_conditions
    return np.zeros(rows if conditioned else 0, np.int64)


def check_illegal(count, hint: str, *, what: str = "returned an illegal card",
                  unit: str = "hands") -> None:
    """SimcoreError when a kernel counted ``count`` > 0 illegal answers of a play policy."""
    if count:
        raise SimcoreError(f"a play policy {what} in {int(count)} {unit} ({hint})")


def check_running(count, unit: str, limit: str) -> None:
    """SimcoreError when ``count`` > 0 games hit the kernel's length limit."""
    if count:
        raise SimcoreError(f"{int(count)} {unit} were still running after 65,535 {limit}")


def what_if_rows(game, what_if: str, play_option) -> pl.DataFrame:
    """The rows of a what-if run: ``play_option(k, label)`` plays every deal under option
    ``k``; the frames come deal-major with an ``option`` column."""
    labels = game.what_if_options(what_if)
    return interleave_options([play_option(k, label) for k, label in enumerate(labels)], labels)


def two_passes(play, games: np.ndarray, count: int, scratch_rows: int, *last, check=None):
    """A games run's two kernel calls: ``play(rows, offsets, record, *args)`` first over
    ``scratch_rows`` rows to learn each game's length (``games["hands"]``), then once more
    writing every hand row at its game's offset (both play identical games: streams are keyed
    by seed, game, hand).  ``last``: the second call's extra arguments (the first gets as many
    False); ``check()`` runs between the two.  Returns the second call's result."""
    play(scratch_rows, np.zeros(count, np.int64), False, *(False for _ in last))
    if check is not None:
        check()
    lengths = games["hands"].astype(np.int64)
    offsets = np.concatenate([[0], np.cumsum(lengths)[:-1]]).astype(np.int64)
    return play(int(lengths.sum()), offsets, True, *last)


def record_fields(n_seats: int, rules_cls, search_module, run_hands, run_games,
                  default_play: str = "heuristic") -> dict:
    """The ``Game`` record's fields every game package fills alike: its seats, rules class,
    runners, and play policies from its search module (``PLAY_POLICIES``: built-in and
    search names; ``OMNISCIENT``; ``NOTES``)."""
    return {"n_seats": n_seats, "rules_cls": rules_cls, "run_hands": run_hands,
            "run_games": run_games, "play_policies": search_module.PLAY_POLICIES,
            "omniscient": getattr(search_module, "OMNISCIENT", ()),
            "policy_notes": search_module.NOTES, "default_play": default_play}
