"""What every game shares outside its kernels: rules options, policy choices, row records.

A game package provides one :class:`Game` record.  The command line, the batch runner,
``simcore.solve``, ``simcore show`` and ``simcore advise`` only talk to that record, so adding
a game means writing its package and one line in ``simcore/games/__init__.py``
(docs/adding_a_game.md).
"""

from __future__ import annotations

import dataclasses
import inspect
import types
from dataclasses import dataclass, fields
from typing import Any, Callable

import numba as nb
import numpy as np
import polars as pl

from simcore.cards import format_card
from simcore.errors import SimcoreError

_TRUE = {"true", "yes", "on", "1"}
_FALSE = {"false", "no", "off", "0"}


def option(default, *, choices=None, minimum=None, maximum=None, help=""):
    """A rules option: its default, the values it accepts, and one line of help."""
    return dataclasses.field(
        default=default,
        metadata={"choices": choices, "minimum": minimum, "maximum": maximum, "help": help},
    )


@dataclass(frozen=True)
class RulesBase:
    """One dataclass per game; its fields are the rules options of the game's rules file."""

    @classmethod
    def from_options(cls, options: dict[str, Any] | None):
        options = dict(options or {})
        known = {f.name: f for f in fields(cls)}
        values = {}
        for key, raw in options.items():
            name = key.replace("-", "_")
            if name not in known:
                raise SimcoreError(
                    f"unknown rules option {key!r} for {cls.game_name}; known: {', '.join(known)}"
                )
            values[name] = _coerce(cls.game_name, known[name], raw)
        return cls(**values)

    def __post_init__(self):
        for f in fields(self):
            value = getattr(self, f.name)
            choices = f.metadata.get("choices")
            minimum = f.metadata.get("minimum")
            if choices is not None and value not in choices:
                raise SimcoreError(
                    f"rules option {f.name}={value!r} for {self.game_name} must be one of "
                    + ", ".join(map(str, choices))
                )
            maximum = f.metadata.get("maximum")
            if minimum is not None and value < minimum:
                raise SimcoreError(f"rules option {f.name}={value} must be at least {minimum}")
            if maximum is not None and value > maximum:
                raise SimcoreError(f"rules option {f.name}={value} must be at most {maximum}")

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    def vector(self, names: tuple[str, ...]) -> np.ndarray:
        """The options ``names`` as the int64 vector a game's kernels read (each game's
        ``layout.RULES_VECTOR`` names its slots): numbers and booleans as they are, a seat
        option's ``"random"`` as -1 and its digits as the seat, any other text option as its
        index among the option's choices."""
        known = {f.name: f for f in fields(self)}
        values = []
        for name in names:
            value = getattr(self, name)
            if isinstance(value, str):
                value = (-1 if value == "random" else int(value) if value.isdigit()
                         else known[name].metadata["choices"].index(value))
            values.append(int(value))
        return np.array(values, np.int64)

    @classmethod
    def describe(cls) -> list[str]:
        lines = []
        for f in fields(cls):
            choices = f.metadata.get("choices")
            accepted = f" ({' | '.join(map(str, choices))})" if choices else ""
            lines.append(f"{f.name} = {f.default}{accepted}: {f.metadata.get('help', '')}")
        return lines


def _coerce(game: str, f: dataclasses.Field, raw: Any):
    if not isinstance(raw, str):
        return raw
    text = raw.strip().lower()
    kind = type(f.default)
    if kind is bool:
        if text in _TRUE:
            return True
        if text in _FALSE:
            return False
        raise SimcoreError(f"rules option {f.name}={raw!r} for {game} must be true or false")
    if kind is int:
        try:
            return int(text)
        except ValueError:
            raise SimcoreError(
                f"rules option {f.name}={raw!r} for {game} must be a whole number"
            ) from None
    return text


@dataclass(frozen=True)
class PolicyChoice:
    """The policies of one run: a play policy per seat plus one per named decision."""

    seats: tuple[str, ...]
    decisions: dict[str, str]
    user: dict[int, Callable] = dataclasses.field(default_factory=dict, compare=False)

    def to_dict(self) -> dict[str, Any]:
        return {"seats": list(self.seats), **self.decisions}


FULL_DECK = (1 << 52) - 1


@dataclass
class Game:
    """A game as the upper layers see it (every field: docs/adding_a_game.md).

    ``play_policies`` maps each built-in play policy name to its id; ``decisions`` maps each
    decision (e.g. ``trump``) to its built-in policy names and ids.  ``omniscient`` lists the
    names of policies that see more than their seat may (labelled in the manifest).
    """

    name: str
    n_seats: int
    rules_cls: type
    play_policies: dict[str, int]
    default_play: str
    decisions: dict[str, dict[str, int]]
    default_decisions: dict[str, str]
    run_hands: Callable  # (seed, start, count, rules, policies, log_plays) -> pl.DataFrame
    run_games: Callable  # (seed, start, count, rules, policies, log_plays) -> (hands, games)
    omniscient: tuple[str, ...] = ()
    policy_notes: tuple[str, ...] = ()  # lines ``describe`` prints under the play policies
    hand_columns: str = ""
    user_policy_doc: str = ""
    # What-if runs: CLI decision name (``--what-if nil``) -> its option labels, in the order the
    # rows of one deal list them.  A game listing any must accept ``what_if=NAME`` in
    # ``run_hands`` and return ``count * len(options)`` rows, deal-major, with an ``option``
    # (Utf8) column; every other random draw of a deal is the same for each option.
    what_if: dict[str, tuple[str, ...]] = dataclasses.field(default_factory=dict)
    what_if_doc: dict[str, str] = dataclasses.field(default_factory=dict)
    # Constrained dealing (``simcore.dealing``): a game with a layout accepts
    # ``deal_filter=DealFilter`` in ``run_hands`` / ``run_games`` (predeal and conditions).
    deal_layout: Any = None
    # Open-hand solving (``simcore solve``): ``solve_hands(game, seed, start, count, rules,
    # choice, deal_filter=None)`` returns the DD rows of those deals (the deals of run_hands);
    # ``solve_decisions`` are the decision policies it reads, each with what it decides in the
    # table (e.g. Trump Friend's friend call: the friend card of each trump call),
    # ``solve_chunk`` its default deals per part, ``solve_doc`` its columns in one line;
    # ``solve_options`` its solve options (name -> (choices, the first the default; one line of
    # help)), passed to solve_hands as ``options={name: choice}`` (e.g. Spades' nil).
    solve_hands: Callable | None = None
    solve_decisions: dict[str, str] = dataclasses.field(default_factory=dict)  # name -> its role
    solve_options: dict[str, tuple[tuple[str, ...], str]] = dataclasses.field(default_factory=dict)
    solve_chunk: int = 1000
    # a solve option's own default part size, {(option, choice): deals}, e.g. Spades' exact nils:
    # a part is what an interruption can lose and what the progress bar counts, so slow solves
    # get small parts (a few minutes of work on two cores)
    solve_chunk_by_option: dict[tuple[str, str], int] = dataclasses.field(default_factory=dict)
    solve_doc: str = ""
    # ``simcore.solve``: one position solved open-handed (simcore.games.solving.PositionSolver)
    position_solver: Any = None
    # ``simcore show``: how one deal is laid out (simcore.games.showing.DealView)
    show: Any = None
    # ``simcore advise``: the decision it answers (a simcore.games.advising.Advisor)
    advisor: Any = None
    # the game's name in running text ("Trump Friend"; default: ``name``)
    title: str = ""
    # the cards in play (a public-id mask) and their range in words, for messages
    deck: int = FULL_DECK
    deck_doc: str = ""

    def __post_init__(self):
        self.title = self.title or self.name

    def check_deck(self, cards) -> None:
        """SimcoreError naming the first of ``cards`` (public ids, in the order given) that
        is not in this game's deck."""
        for c in cards:
            if not self.deck >> c & 1:
                raise SimcoreError(f"card {format_card(c)} is not in the {self.name} deck "
                                   f"({self.deck_doc})")

    def what_if_options(self, name: str) -> tuple[str, ...]:
        """The option labels of what-if decision ``name``; SimcoreError if this game has none."""
        if name not in self.what_if:
            if not self.what_if:
                raise SimcoreError(f"{self.name} has no what-if decisions")
            raise SimcoreError(f"unknown what-if decision {name!r} for {self.name}; known: "
                               + ", ".join(self.what_if))
        return self.what_if[name]

    def deal_filter(self, predeal=None, conditions=None):
        """``--predeal`` / ``--condition`` values compiled for the kernels (None when neither
        is given); SimcoreError if this game has no constrained dealing or the text is bad."""
        if not predeal and not conditions:
            return None
        if self.deal_layout is None:
            raise SimcoreError(f"{self.name} does not support --predeal or --condition yet")
        from simcore.dealing import compile_filter

        return compile_filter(self.deal_layout, predeal, conditions)

    def policies_from_specs(self, specs) -> PolicyChoice:
        """Parse ``--policy`` values: ``NAME`` (every seat), ``SEAT=NAME``, ``DECISION=NAME``.

        Python callers may pass a dict and use a jitted function instead of a name for a seat.
        """
        seats: list[Any] = [self.default_play] * self.n_seats
        decisions = dict(self.default_decisions)
        items: list[tuple[str | None, Any]] = []
        if isinstance(specs, dict):
            items = [(str(k), v) for k, v in specs.items()]
        else:
            if isinstance(specs, str):
                specs = [specs]
            for spec in specs or []:
                key, sep, value = str(spec).partition("=")
                items.append((key.strip(), value.strip()) if sep else (None, key.strip()))
        user = {}
        for key, value in items:
            if key is None or key in ("all", "*"):
                self._check_play(value)
                seats = [value] * self.n_seats
            elif key.isdigit():
                seat = int(key)
                if not 0 <= seat < self.n_seats:
                    raise SimcoreError(f"seat {seat} does not exist in {self.name} (0..{self.n_seats - 1})")
                if callable(value):
                    user[seat] = value
                    seats[seat] = f"user:{getattr(value, '__name__', 'policy')}"
                else:
                    self._check_play(value)
                    seats[seat] = value
            elif key in self.decisions:
                if value not in self.decisions[key]:
                    raise SimcoreError(
                        f"unknown {key} policy {value!r} for {self.name}; known: "
                        + ", ".join(self.decisions[key])
                    )
                decisions[key] = value
            else:
                raise SimcoreError(
                    f"unknown policy key {key!r} for {self.name}: use a seat 0..{self.n_seats - 1}"
                    + (" or one of " + ", ".join(self.decisions) if self.decisions else "")
                )
        return PolicyChoice(tuple(seats), decisions, user)

    def _check_play(self, name):
        if callable(name):
            raise SimcoreError("a user policy function must be given for a seat, e.g. {0: my_policy}")
        if name not in self.play_policies:
            raise SimcoreError(
                f"unknown play policy {name!r} for {self.name}; known: " + ", ".join(self.play_policies)
            )

    def policy_ids(self, choice: PolicyChoice, user_id: int) -> np.ndarray:
        return np.array(
            [user_id if s in choice.user else self.play_policies[choice.seats[s]] for s in range(self.n_seats)],
            np.int64,
        )


def solve_tables(new_tables):
    """One open-hand solver table per Numba thread, indexed in a kernel by
    ``numba.get_thread_id()`` (``new_tables`` is a game solver's allocator)."""
    return new_tables(nb.config.NUMBA_NUM_THREADS)


def rebind(func, **names):
    """A copy of the plain function ``func`` with some of its globals replaced.

    Engines use it to compile their kernels around a user's policy: the built-in kernels call
    the built-in dispatcher as a global (so Numba can cache them on disk), and a user run gets
    copies whose global names point at functions that know the user's policy.
    """
    scope = dict(func.__globals__, **names)
    return types.FunctionType(func.__code__, scope, func.__name__, func.__defaults__, func.__closure__)


def n_blocks(count: int) -> int:
    """Blocks for a kernel call over ``count`` rows: enough to balance the threads, few enough
    that per-block set-up is negligible."""
    return max(1, min(count // 256, 16 * nb.get_num_threads()))


@nb.njit(cache=True)
def no_search(hands):
    """The search context of kernels without search policies: nothing (the hands array, which
    costs nothing to pass).  Search kernels (``kernels_with``) allocate their solver table and
    sampler scratch in their own, once per block, and keep ``hands`` for the omniscient
    ``dd``."""
    return hands


@nb.njit(inline="always", cache=True)
def record_game(games, g, seed, game, hands, winner):
    """Fill game row ``g`` (a ``GAME_ROW`` record): seed, game id, hands played, winner."""
    grec = games[g]
    grec.seed = seed
    grec.game = game
    grec.hands = hands
    grec.winner = winner


@nb.njit(inline="always", cache=True)
def record_game_hand(out, totals_out, row, game, hand_no, totals):
    """Stamp hand row ``row`` of a whole game (a ``GAME_HAND_ROW`` record) with its game id, its
    number in the game and each seat's running total after it (``totals_out[row]``)."""
    rec = out[row]
    rec.game = game
    rec.hand_no = hand_no
    for s in range(totals_out.shape[1]):
        totals_out[row, s] = totals[s]


@nb.njit(inline="always", cache=True)
def block_range(b, n, n_blocks):
    """Rows lo .. hi-1 of kernel block ``b`` of ``n_blocks`` over ``n`` rows."""
    size = (n + n_blocks - 1) // n_blocks
    return b * size, min(n, (b + 1) * size)


class UserKernels:
    """A game's kernels compiled around a user's play policy, once per process and function.

    ``builtin_play(policy, *args)`` is the game's dispatcher of built-in policies; a user
    policy takes the same ``*args`` (without ``policy``) and runs for the seats whose policy id
    is ``user_id``.  ``with_play(play)`` returns the game's kernel(s) as plain functions around
    a dispatcher ``play``; each is jitted parallel.  ``builtin_kernels`` are the game's
    cached kernels, returned for a run without a user policy.  ``inline`` inlines the
    dispatcher (the trick games call it per card with arrays, where a call costs more than
    the policy).
    """

    def __init__(self, builtin_play, with_play, user_id: int, builtin_kernels,
                 inline: bool = False):
        self._builtin = builtin_play
        self._with_play = with_play
        self._user_id = user_id
        self._builtin_kernels = builtin_kernels
        self._inline = inline
        self._compiled: dict[int, tuple] = {}  # id(fn) -> (fn, kernels): holding fn keeps its id

    def __call__(self, choice: PolicyChoice):
        """The cached built-in kernels (``builtin_kernels``) when the run has no user policy,
        else kernels compiled around it."""
        if not choice.user:
            return self._builtin_kernels
        functions = {id(f): f for f in choice.user.values()}
        if len(functions) > 1:
            raise SimcoreError("one user play policy per run is supported (give it to several seats)")
        fn = next(iter(functions.values()))
        if id(fn) not in self._compiled:
            kernels = self._with_play(self._dispatcher(fn))
            jit = nb.njit(parallel=True, nogil=True)
            compiled = tuple(jit(k) for k in kernels) if isinstance(kernels, tuple) else jit(kernels)
            self._compiled[id(fn)] = (fn, compiled)
        return self._compiled[id(fn)][1]

    def _dispatcher(self, fn):
        """``play(policy, *args)``: the user's function for ``user_id``, else the built-ins.
        Written out with the built-in's argument names, as Numba cannot inline ``*args``."""
        names = ", ".join(list(inspect.signature(self._builtin.py_func).parameters)[1:])
        source = (f"def play(policy, {names}):\n"
                  f"    if policy == USER:\n        return user({names})\n"
                  f"    return builtin(policy, {names})\n")
        scope = {"USER": self._user_id, "user": fn, "builtin": self._builtin}
        exec(source, scope)
        return nb.njit(inline="always" if self._inline else "never")(scope["play"])


# ---------------------------------------------------------------- records -> polars frames


def frame_from_records(records: np.ndarray, seat_arrays: dict[str, np.ndarray] | None = None,
                       lists: dict[str, np.ndarray] | None = None,
                       order: list[str] | None = None) -> pl.DataFrame:
    """Build a polars frame from a record array plus per-seat and list columns.

    ``seat_arrays[name]`` of shape (rows, k) becomes columns ``name0 .. name{k-1}``; ``lists``
    holds 2-D arrays that become list columns.  ``order`` fixes the column order (names not
    present are skipped; list columns go last).
    """
    columns = {name: records[name] for name in records.dtype.names}
    for stem, values in (seat_arrays or {}).items():
        for k in range(values.shape[1]):
            columns[f"{stem}{k}"] = np.ascontiguousarray(values[:, k])
    if order is not None:
        columns = {name: columns[name] for name in order if name in columns}
    frame = pl.DataFrame(columns)
    for name, values in (lists or {}).items():
        frame = frame.with_columns(pl.Series(name, values).cast(pl.List(_polars_type(values))))
    return frame


def with_attempts(frame: pl.DataFrame, attempts: np.ndarray, deal_filter) -> pl.DataFrame:
    """Add the ``attempts`` column (u32) when the run has conditions."""
    if deal_filter is None or not deal_filter.has_conditions:
        return frame
    return frame.with_columns(pl.Series("attempts", attempts.astype(np.uint32)))


def interleave_options(frames: list[pl.DataFrame], labels) -> pl.DataFrame:
    """What-if rows: one frame per option (the same deals, in the same order) -> one frame,
    deal-major (the rows of a deal together, options in ``labels`` order), with ``option``."""
    n, k = frames[0].height, len(frames)
    stacked = pl.concat([f.with_columns(pl.lit(label, pl.Utf8).alias("option"))
                         for f, label in zip(frames, labels)])
    order = (np.arange(k)[None, :] * n + np.arange(n)[:, None]).reshape(-1)
    return stacked.select(pl.all().gather(pl.Series(order)))


def _polars_type(values: np.ndarray):
    return pl.Series(values[:0].reshape(-1)).dtype


def padded_list(name: str, values: np.ndarray, lengths: np.ndarray) -> pl.Series:
    """A list column from a padded 2-D array and each row's length."""
    flat = pl.Series(name, values).cast(pl.List(_polars_type(values)))
    return (
        pl.DataFrame({name: flat, "_n": lengths.astype(np.int64)})
        .select(pl.col(name).list.slice(0, pl.col("_n")))
        .to_series()
    )
