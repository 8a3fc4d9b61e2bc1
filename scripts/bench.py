"""Benchmarks: hands/s per game and policy, beside a bare kernel and the peer libraries, on this machine.

    .venv/bin/python scripts/bench.py                  # full run (cold starts and cluster runs are the longest)
    .venv/bin/python scripts/bench.py --quick          # smaller samples
    .venv/bin/python scripts/bench.py --only gin-rummy --skip cold,e2e
    .venv/bin/python scripts/bench.py --markdown docs/performance.md

Prints a Markdown table.  ``--markdown FILE`` writes it into FILE too: between the lines
``<!-- bench:begin -->`` and ``<!-- bench:end -->`` when FILE has them (docs/performance.md
does: re-measuring replaces its table), else as the whole file.  Every figure is measured in this run; nothing is copied from docs.
Rates are the best of ``--repeats`` timed calls after a warm-up call (which also loads or
compiles the Numba cache), so they describe steady-state throughput.  Steps (``--skip``):

    bare      the bare Trump Friend kernel: deal + random legal plays, nothing recorded
    engine    each game's ``run_hands`` (kernel + polars frame) per policy, 1 and 2 threads
    peers     OpenSpiel ``evaluate_bots`` (spades, euchre, gin_rummy) and RLCard gin-rummy
    e2e       ``simcore simulate`` as a subprocess, Parquet included
    warm      a 1,000-hand ``simcore simulate`` with the Numba cache filled
    cold      the same with an empty Numba cache (``NUMBA_CACHE_DIR`` = a new temp dir)
    deadwood  one Gin minimum-deadwood call
    memory    peak RSS of ``simcore simulate trump-friend`` at 1M and 10M hands
    cluster   ``--cluster local:1`` against ``--cluster local:2`` on one long run
    pimc      decisions per second of each trick game's ``pimc`` (default W) on one thread: one
              searching seat, its decisions counted from the logged hands (cards with more than
              one legal choice, bids and calls), divided by the search time (the run's time
              less the same deals all heuristic); Gin Rummy: hands/s with ``pimc`` in seat 0
              and the expert in seat 1, 1 and 2 threads, and the search's CPU ms a hand
    solve     the open-hand solvers, single thread (scripts/bench_solve.py: Spades against DDS,
              Euchre DD tables, Trump Friend endings and full deals; time and nodes per solve,
              mean/median/max), and ``simcore solve GAME`` on 1 and 2 threads (deals/s, capped
              by ``--solve-seconds``: a run that does not finish in time is reported as such)

``bare``, ``memory`` and ``cluster`` run when ``trump-friend`` is among the ``--only`` games.
Games with table-size variants (Dummy: ``players`` = 2, 3, 4) get one set of rows per size.
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numba as nb
import numpy as np

from simcore import games
from simcore.cards import bit, nth_bit, popcount
from simcore.errors import SimcoreError
from simcore.rng import below, shuffle, stream_key
from simcore.tricks import follow_mask, trick_winner

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SIMCORE = [sys.executable, "-m", "simcore"]
STEPS = ("bare", "engine", "peers", "e2e", "warm", "cold", "deadwood", "memory", "cluster", "pimc",
         "solve")
SOLVED = ("spades", "euchre", "trump-friend")  # the games with an open-hand solver
# the search policies play tens to thousands of hands a second: timed by scripts/strength_pimc*.py
# --speed, not by the million-hand engine step (unless named with --policies)
SEARCHING = {"pimc", "pimc:W", "pimc-uniform", "pimc-uniform:W", "dd"}
# Every game simcore ships or is about to ship, in README order; unregistered ones are skipped.
EXPECTED_GAMES = ("trump-friend", "euchre", "dummy", "spades", "gin-rummy")
# Games played at several table sizes: the rules option and its values.
VARIANTS = {"dummy": ("players", (2, 3, 4))}
OPENSPIEL = {"spades": "spades", "euchre": "euchre", "gin-rummy": "gin_rummy"}


# ---------------------------------------------------------------- the table


class Table:
    """The Markdown table, printed row by row as it is measured."""

    HEADER = ["| game | what | threads | result | ratio |", "| --- | --- | --- | --- | --- |"]

    def __init__(self, intro: str, out=sys.stdout):
        self.lines = [intro, ""] + self.HEADER
        self.out = out
        self.notes: list[str] = []
        print("\n".join(self.lines), file=out, flush=True)

    def row(self, game, what, threads, result, ratio=""):
        self.lines.append(f"| {game} | {what} | {threads} | {result} | {ratio} |")
        print(self.lines[-1], file=self.out, flush=True)

    def not_measured(self, game, what, reason):
        self.row(game, what, "", f"not measured: {reason}")

    def note(self, text):
        self.notes.append(text)
        print("\n" + text, file=self.out, flush=True)

    def markdown(self) -> str:
        return "\n".join(self.lines + [""] + self.notes) + "\n" if self.notes else "\n".join(self.lines) + "\n"


def rate(x: float) -> str:
    return f"{x:,.0f} hands/s"


# ---------------------------------------------------------------- games and their variants


@dataclasses.dataclass(frozen=True)
class Setup:
    """One game at one table size: its label, rules options, and the CLI's --rules words."""

    game: object
    label: str
    options: dict
    first: bool = True  # the game's first table size (the cold start is measured once per game)

    @property
    def cli_rules(self) -> list[str]:
        return ["--rules", *(f"{k}={v}" for k, v in self.options.items())] if self.options else []


def candidate_games(only=None) -> list[str]:
    names = list(EXPECTED_GAMES) + [n for n in games.names() if n not in EXPECTED_GAMES]
    if only:
        wanted = [game_key(n) for n in only]
        unknown = [n for n in wanted if n not in names]
        if unknown:
            raise SimcoreError(f"--only: unknown game(s) {', '.join(unknown)}; known: {', '.join(names)}")
        names = [n for n in names if n in wanted]
    return names


def game_key(name: str) -> str:
    return name.strip().lower().replace("_", "-")


def setups(name: str):
    """The game's table sizes as Setups, or a string saying why the game is not available."""
    try:
        game = games.get(name)
    except SimcoreError as e:  # not registered in this version
        return str(e)
    if name not in VARIANTS:
        return [Setup(game, name, {})]
    option, values = VARIANTS[name]
    known = {f.name for f in dataclasses.fields(game.rules_cls)}
    if option not in known:
        return [Setup(game, f"{name} (default rules; it has no `{option}` option)", {})]
    return [Setup(game, f"{name} ({v} {option})", {option: v}, i == 0) for i, v in enumerate(values)]


# ---------------------------------------------------------------- in-process kernels


@nb.njit(parallel=True, cache=True)
def bare_trump_friend(seed, n, n_blocks):
    """The practical limit: deal 5 x 10 cards and play random legal cards, recording nothing
    but a checksum.  Same shuffle, stream and trick kernels as the engine."""
    total = np.zeros(n_blocks, np.int64)
    size = (n + n_blocks - 1) // n_blocks
    for b in nb.prange(n_blocks):
        st = np.zeros(1, np.uint64)
        deck = np.empty(52, np.int64)
        hands = np.empty(5, np.uint64)
        trick = np.empty(5, np.int64)
        acc = 0
        for k in range(b * size, min(n, (b + 1) * size)):
            st[0] = stream_key(seed, k, 0, 0)
            for i in range(52):
                deck[i] = i
            shuffle(st, deck, 52)
            for s in range(5):
                h = np.uint64(0)
                for i in range(10 * s, 10 * s + 10):
                    h |= bit(deck[i])
                hands[s] = h
            leader = 1
            for t in range(10):
                led = 0
                for i in range(5):
                    seat = (leader + i) % 5
                    legal = hands[seat] if i == 0 else follow_mask(hands[seat], led)
                    c = nth_bit(legal, below(st, popcount(legal)))
                    if i == 0:
                        led = c // 13
                    hands[seat] &= ~bit(c)
                    trick[i] = c
                leader = (leader + trick_winner(trick, 5, 4)) % 5
            acc += leader
        total[b] = acc
    return total.sum()


# --wait-quiet S: engine and OpenSpiel timings are taken only while the rest of the machine is
# quiet (a shared machine makes 2-thread ratios meaningless otherwise); S bounds the waiting.
QUIET = {"deadline": None}


class NeverQuiet(Exception):
    """--wait-quiet: no quiet window came before the deadline."""


def _busy_ticks():
    with open("/proc/stat") as f:
        fields = [int(x) for x in f.readline().split()[1:]]
    return sum(fields) - fields[3] - (fields[4] if len(fields) > 4 else 0)


def timed(fn, n):
    """Seconds of ``fn(n)``; with --wait-quiet, of a call made after a quiet 0.3 s during
    which, and during the call itself, everything else used under 0.1 core (retried until
    then; NeverQuiet past the deadline)."""
    while True:
        if QUIET["deadline"] is not None:
            if time.time() > QUIET["deadline"]:
                raise NeverQuiet
            if (busy_cores(0.3) or 0) > 0.15:
                continue
        ticks, cpu, t = _busy_ticks(), time.process_time(), time.perf_counter()
        fn(n)
        wall = time.perf_counter() - t
        others = ((_busy_ticks() - ticks) / os.sysconf("SC_CLK_TCK") - (time.process_time() - cpu)) / wall
        if QUIET["deadline"] is None or others < 0.1:
            return wall


def best_rate(fn, n, repeats, seconds=None):
    """Best hands/s of ``repeats`` calls ``fn(n)`` after a warm-up call.  With ``seconds``, a
    slow engine gets fewer hands per call: as many as it plays in about that time (measured
    on a 20,000-hand call), but never fewer than 20,000 nor more than ``n``."""
    fn(min(n, 1000))  # warm-up: loads or compiles the kernels
    if seconds is not None and n > 20_000:
        t = time.perf_counter()
        fn(20_000)
        n = max(20_000, min(n, int(20_000 / (time.perf_counter() - t) * seconds)))
    return max(n / timed(fn, n) for _ in range(repeats))


def _threads(threads):
    """Run kernels on ``threads`` threads, taking blocks one at a time as ``simcore simulate``
    does (simcore.batch), so a thread slowed by anything else does not hold up the other."""
    nb.set_num_threads(threads)
    nb.set_parallel_chunksize(1)


def engine_rate(game, policy, threads, n, repeats, options=None, seconds=None):
    _threads(threads)
    rules = game.rules_cls(**(options or {}))
    choice = game.policies_from_specs([policy])
    return best_rate(lambda k: game.run_hands(1, 0, k, rules, choice, False), n, repeats, seconds)


def bare_rate(threads, n, repeats):
    _threads(threads)
    return best_rate(lambda k: bare_trump_friend(np.uint64(1), k, 16 * threads), n, repeats)


@nb.njit(cache=True)
def _random_hands(n, size, seed):
    out = np.empty(n, np.uint64)
    st = np.zeros(1, np.uint64)
    deck = np.empty(52, np.int64)
    for k in range(n):
        st[0] = stream_key(seed, k, 0, 0)
        for i in range(52):
            deck[i] = i
        shuffle(st, deck, 52)
        h = np.uint64(0)
        for i in range(size):
            h |= bit(deck[i])
        out[k] = h
    return out


def min_deadwood_ns(n=1_000_000):
    """Nanoseconds per minimum-deadwood call on random dealt 10-card hands (one thread)."""
    from simcore import melds

    hands = _random_hands(n, 10, np.uint64(7))
    melds.gin_deadwoods(hands[:10])
    t = time.perf_counter()
    melds.gin_deadwoods(hands)
    return (time.perf_counter() - t) / n * 1e9


# ---------------------------------------------------------------- peers


def openspiel_rate(name, seconds):
    """Whole hands/s of OpenSpiel's C++ game through pyspiel.evaluate_bots with uniform random
    bots, one process (its fastest path without writing C++); None if OpenSpiel is missing."""
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game(name)
    bots = [pyspiel.make_uniform_random_bot(p, 1000 + p) for p in range(game.num_players())]
    played = [0]

    def run(hands):
        for _ in range(hands):
            pyspiel.evaluate_bots(game.new_initial_state(), bots, played[0])
            played[0] += 1

    if QUIET["deadline"] is not None:  # quiet slices of about a second, `seconds` in all
        run(200)
        per_second = int(200 / timed(run, 200))
        n = total = 0.0
        while total < seconds:
            total += timed(run, per_second)
            n += per_second
        return n / total
    n, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        run(1)
        n += 1
    return n / (time.perf_counter() - start)


def rlcard_rate(seconds, seed=1):
    """Whole hands/s of RLCard's gin-rummy with RandomAgents through ``env.run`` (its normal
    fast path; one hand per call), one process; None if RLCard is missing."""
    try:
        import rlcard
        from rlcard.agents import RandomAgent
    except ImportError:
        return None
    env = rlcard.make("gin-rummy", config={"seed": seed})
    env.set_agents([RandomAgent(num_actions=env.num_actions) for _ in range(env.num_players)])
    env.run(is_training=False)  # warm-up
    n, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        env.run(is_training=False)
        n += 1
    return n / (time.perf_counter() - start)


# ---------------------------------------------------------------- subprocesses


@dataclasses.dataclass(frozen=True)
class Measured:
    seconds: float  # wall
    peak_rss: int  # bytes
    cpu_seconds: float  # user + system, the child and every descendant it waited for


# Measures one command for run_measured.  The command is started from this small process, not
# from the benchmark: a child's ru_maxrss starts at the RSS of the process that forked it (Linux
# copies the high-water mark at fork, and vfork/posix_spawn share the parent's), so spawning
# from a 300 MB benchmark process would report at least 300 MB for any command.
_LAUNCHER = """
import os, sys
pid = os.posix_spawn(sys.argv[2], sys.argv[2:], os.environ)
_, status, usage = os.wait4(pid, 0)
with open(sys.argv[1], "w") as f:
    f.write(f"{os.waitstatus_to_exitcode(status)} {usage.ru_maxrss} {usage.ru_utime + usage.ru_stime}")
"""


def run_measured(args, env=None, command=SIMCORE) -> Measured:
    """Run ``simcore ARGS`` (or ``command + args``; ``command[0]`` an absolute path) to the end
    and measure it: wall time, and from ``os.wait4`` on that very process its peak RSS (Linux
    ``ru_maxrss``: the largest resident set of the process or of any descendant it waited
    for; unlike ``RUSAGE_CHILDREN`` deltas, a maximum that earlier runs cannot hide) and its
    CPU time (with the descendants it waited for, e.g. Dask workers)."""
    with tempfile.TemporaryDirectory() as tmp:
        report = Path(tmp, "rusage")
        t = time.perf_counter()
        subprocess.run([sys.executable, "-c", _LAUNCHER, str(report), *command, *args],
                       cwd=ROOT, env=env, check=True)
        seconds = time.perf_counter() - t
        code, maxrss_kib, cpu = report.read_text().split()
    if int(code) != 0:
        raise subprocess.CalledProcessError(int(code), command + args)
    return Measured(seconds, int(maxrss_kib) * 1024, float(cpu))


def cli_seconds(args, env=None) -> float:
    return run_measured(args, env).seconds


def simulate_args(setup: Setup, deals, out, *extra) -> list[str]:
    return ["simulate", setup.game.name, "--deals", str(deals), *setup.cli_rules, "--quiet",
            "--out", str(out), *extra]


def end_to_end(setup: Setup, policy, deals, threads):
    with tempfile.TemporaryDirectory() as tmp:
        seconds = cli_seconds(simulate_args(setup, deals, Path(tmp, "run"),
                                            "--threads", str(threads), "--policy", policy))
    return deals / seconds, seconds


_filled: set[str] = set()


def fill_cache(setup: Setup, deals=1000):
    """One small run (once per game and table size), so the timed runs after it load compiled
    kernels instead of compiling them (any change to a game's source makes Numba recompile)."""
    if setup.label not in _filled:
        with tempfile.TemporaryDirectory() as tmp:
            cli_seconds(simulate_args(setup, deals, Path(tmp, "run")))
        _filled.add(setup.label)


def warm_start(setup: Setup, deals=1000):
    fill_cache(setup)
    with tempfile.TemporaryDirectory() as tmp:
        return cli_seconds(simulate_args(setup, deals, Path(tmp, "run")))


def cold_start(setup: Setup, deals=1000):
    """Seconds of a run that compiles every kernel: Numba's cache is pointed at an empty
    folder.  Checked: the run must leave its index files there, or the cache was not moved."""
    with tempfile.TemporaryDirectory() as tmp:
        cache = Path(tmp, "numba-cache")
        cache.mkdir()
        env = dict(os.environ, NUMBA_CACHE_DIR=str(cache))
        seconds = cli_seconds(simulate_args(setup, deals, Path(tmp, "run")), env)
        if not any(cache.rglob("*.nbi")):
            raise RuntimeError("NUMBA_CACHE_DIR was not honoured: no cache index written there")
        return seconds


def peak_memory(deals, threads, policy="random") -> Measured:
    """``simcore simulate trump-friend --deals N`` to a temp dir, measured."""
    with tempfile.TemporaryDirectory() as tmp:
        return run_measured(["simulate", "trump-friend", "--deals", str(deals), "--threads",
                             str(threads), "--policy", policy, "--quiet", "--out", str(Path(tmp, "run"))])


def cluster_run(workers, deals, policy="random"):
    """A ``--cluster local:N`` run: (Measured, steady hands/s).

    The steady rate leaves out the cluster's start-up and the first part of each worker: the
    hands in the parts that landed after the first ``workers`` parts, over the time between
    that landing and the last (the parts' modification times).  The CPU time includes the
    worker processes (the command waits for them)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp, "run")
        measured = run_measured(["simulate", "trump-friend", "--deals", str(deals), "--policy", policy,
                                 "--cluster", f"local:{workers}", "--quiet", "--out", str(out)])
        steady = steady_rate(out / "hands", workers)
    return measured, steady


def steady_rate(folder: Path, skip: int):
    import polars as pl

    parts = sorted((p.stat().st_mtime, p) for p in folder.glob("part-*.parquet"))
    if len(parts) <= skip:
        return None
    rows = sum(pl.scan_parquet(p).select(pl.len()).collect().item() for _, p in parts[skip:])
    span = parts[-1][0] - parts[skip - 1][0]
    return rows / span if span > 0 else None


# ---------------------------------------------------------------- the steps


@dataclasses.dataclass
class Sizes:
    engine: int
    engine_seconds: float | None
    e2e: int
    peer_seconds: float
    memory: tuple[int, int]
    cluster: int
    start: int = 1000
    e2e_seconds: float | None = None
    quick: bool = False


def bare_step(table, sizes, threads, repeats):
    bare = {}
    for t in threads:
        bare[t] = bare_rate(t, sizes.engine, repeats)
        table.row("trump-friend", "bare kernel (deal + random legal plays, no recording)", t, rate(bare[t]),
                  f"{bare[t] / bare[1]:.2f}x of 1 thread" if t > 1 else "")
    return bare


def game_steps(table, setup, steps, sizes, threads, repeats, bare, policies=None):
    game, label = setup.game, setup.label
    policies = [p for p in game.play_policies
                if (p in policies if policies else p not in SEARCHING) and p != "pimc:W"]
    peers = {}
    if "peers" in steps and game.name in OPENSPIEL:
        peers["OpenSpiel"] = openspiel_rate(OPENSPIEL[game.name], sizes.peer_seconds)
    if "peers" in steps and game.name == "gin-rummy":
        peers["RLCard"] = rlcard_rate(sizes.peer_seconds)
    rates = {}
    if "engine" in steps:
        for policy in policies:
            for t in threads:
                rates[policy, t] = r = engine_rate(game, policy, t, sizes.engine, repeats, setup.options,
                                                   sizes.engine_seconds)
                notes = []
                if game.name == "trump-friend" and t in bare:
                    notes.append(f"{r / bare[t]:.0%} of bare")
                if t > 1:
                    notes.append(f"{r / rates[policy, 1]:.2f}x of 1 thread")
                if policy == "random":
                    notes += [f"{r / p:.1f}x {peer}" for peer, p in peers.items() if p]
                elif ("random", t) in rates:
                    notes.append(f"{r / rates['random', t]:.0%} of random")
                table.row(label, f"engine, `{policy}` (kernel + polars frame)", t, rate(r), "; ".join(notes))
    for peer, p in peers.items():
        what = ("OpenSpiel `evaluate_bots`, uniform random bots" if peer == "OpenSpiel"
                else "RLCard `env.run(is_training=False)`, `RandomAgent`s")
        if p:
            table.row(label, what, 1, rate(p))
        else:
            table.not_measured(label, what, f"{'open_spiel' if peer == 'OpenSpiel' else 'rlcard'} is not installed")
    if "e2e" in steps:
        fill_cache(setup)
        for policy in policies:
            deals = e2e_deals(sizes, rates.get((policy, threads[-1])) if "engine" in steps else None)
            r, seconds = end_to_end(setup, policy, deals, threads[-1])
            table.row(label, f"`simcore simulate` end to end, `{policy}`, Parquet included "
                      f"({deals:,} hands, {seconds:.1f} s)", threads[-1], rate(r))
    start = f"`simcore simulate {game.name} --deals {sizes.start}{' ' if setup.options else ''}{' '.join(setup.cli_rules)}`"
    if "warm" in steps:
        table.row(label, f"warm start: {start}", "all", f"{warm_start(setup, sizes.start):.2f} s wall")
    if "cold" in steps and setup.first:
        table.row(label, f"cold start (empty Numba cache): {start}", "all",
                  f"{cold_start(setup, sizes.start):.2f} s wall")
    if "deadwood" in steps and game.name == "gin-rummy":
        nb.set_num_threads(1)
        table.row("gin-rummy", "one minimum-deadwood call (10 random cards)", 1, f"{min_deadwood_ns():.0f} ns per call")


def e2e_deals(sizes, engine_rate=None) -> int:
    """``sizes.e2e`` hands, or for a slow engine about ``sizes.e2e_seconds`` worth at its
    measured engine rate (two significant digits, at least 100,000 unless ``sizes.e2e`` is less)."""
    if engine_rate is None or sizes.e2e_seconds is None:
        return sizes.e2e
    return min(sizes.e2e, max(100_000, int(float(f"{engine_rate * sizes.e2e_seconds:.2g}"))))


def memory_step(table, sizes, threads):
    small, large = sizes.memory
    peaks = {}
    fill_cache(Setup(games.get("trump-friend"), "trump-friend", {}))
    for deals in (small, large):
        run = peak_memory(deals, threads)
        peaks[deals] = run.peak_rss
        table.row("trump-friend", f"peak RSS of `simcore simulate trump-friend --deals {deals} --policy random "
                  f"--threads {threads}` ({run.seconds:.1f} s)", threads, f"{run.peak_rss / 1e6:,.0f} MB",
                  f"{peaks[large] / peaks[small]:.2f}x of {small:,} hands" if deals == large else "")
    return peaks


def cluster_step(table, sizes):
    runs, steadies = {}, {}
    fill_cache(Setup(games.get("trump-friend"), "trump-friend", {}))
    for workers in (1, 2):
        runs[workers], steadies[workers] = run, steady = cluster_run(workers, sizes.cluster)
        notes = []
        if workers > 1:
            notes.append(f"{runs[1].seconds / run.seconds:.2f}x of 1 worker (wall)")
            if steady and steadies[1]:
                notes.append(f"{steady / steadies[1]:.2f}x (steady)")
        steady_text = f"; steady {rate(steady)} after start-up" if steady else ""
        table.row("trump-friend", f"`simcore simulate --cluster local:{workers}`, `random`, "
                  f"{sizes.cluster:,} hands ({run.seconds:.1f} s wall, start-up included; "
                  f"{run.cpu_seconds:.1f} CPU s)",
                  f"{workers} worker{'s' if workers > 1 else ''} x 1", rate(sizes.cluster / run.seconds) + steady_text,
                  "; ".join(notes))
    return runs, steadies


# ---------------------------------------------------------------- search decisions per second
# Decisions per second per core at the default W.  One seat searches (Trump Friend: seat 1, a
# defender, so the declarer's calls stay out of it), heuristic elsewhere.

SEARCH_HANDS = {"euchre": 400, "spades": 64, "trump-friend": 96}  # hands a timing (quick: 1/4)
SEARCH_SEAT = {"euchre": 0, "spades": 0, "trump-friend": 1}
DECISION_TARGET = {"euchre": 500, "spades": 20, "trump-friend": 20}  # per core


def euchre_suit(c: int, trump: int) -> int:
    """EU-4 on public ids: the left bower (jack of trump's colour) is a trump."""
    return trump if c % 13 == 9 and c // 13 == 3 - trump else c // 13


def card_choices(cards, hand: int, suit, must_break: bool = False):
    """How many legal cards a seat had for each card it played (``cards``: (card, the trick's
    led card or None for a lead, a spade played before it) in order; ``hand``: its cards
    before the first): the cards of the led suit, else all; leading before spades broke
    (SP-7, ``must_break``) none of its spades unless it holds nothing else."""
    out = []
    for card, led, broken in cards:
        held = [c for c in range(52) if hand >> c & 1]
        if led is None:
            legal = [c for c in held if not (must_break and not broken and c // 13 == 3)] \
                or held
        else:
            legal = [c for c in held if suit(c) == suit(led)] or held
        out.append(len(legal))
        hand &= ~(1 << card)
    return out


def _seat_cards(plays, owner, seat, per_trick):
    """(card, led card or None for a lead, a spade played before it) of ``seat``'s plays."""
    out = []
    for k, c in enumerate(plays):
        if owner(c) == seat:
            lead = k % per_trick == 0
            out.append((c, None if lead else plays[k - k % per_trick],
                        any(x // 13 == 3 for x in plays[:k])))
    return out


def euchre_calls(row, seat: int) -> int:
    """The bidding decisions ``seat`` made (default rules: the dealer may leave the card, no
    stick-the-dealer): order up / pass in round one, name trump / pass in round two, the
    dealer's pick-up and discard, going (or defending) alone when its side has nobody alone
    yet and the other side neither (a searching seat never makes the second lone hand)."""
    dealer, maker, bid_round = row["dealer"], row["maker"], row["bid_round"]
    turn = lambda s: (s - dealer - 1) % 4 + 1  # noqa: E731  (1 = the dealer's left)
    n = 1 if bid_round != 1 or turn(seat) <= turn(maker) else 0
    n += bid_round == -1 or bid_round == 2 and turn(seat) <= turn(maker)
    if maker < 0:
        return n
    n += bid_round == 1 and seat == dealer and maker != dealer  # EU-8: pick it up?
    n += bid_round == 1 and seat == dealer and row["picked_up"]  # the discard
    mine, theirs = ((row["alone_maker"], row["alone_defender"]) if (seat ^ maker) & 1 == 0
                    else (row["alone_defender"], row["alone_maker"]))
    partner_first = mine >= 0 and mine != seat and turn(mine) < turn(seat)
    n += not partner_first and not (theirs >= 0 and turn(theirs) < turn(seat))
    return n


def seat_decisions(name: str, row, seat: int) -> int:
    """The decisions ``seat`` made in one logged hand: cards with more than one legal choice,
    plus its bid (Spades) or its bidding decisions (Euchre).  Trump Friend: cards only (seat
    1 is never the declarer in hands mode, whose calls these would be)."""
    plays = list(row["plays"])
    if name == "euchre":
        if row["maker"] < 0:
            return euchre_calls(row, seat)
        hands = [row[f"hand{s}"] for s in range(4)]
        dealer, trump = row["dealer"], row["trump"]
        if row["picked_up"]:
            hands[dealer] = (hands[dealer] | 1 << row["upcard"]) & ~(1 << row["discard"])
        lone = (row["alone_maker"] >= 0) + (row["alone_defender"] >= 0)
        owner = lambda c: next(s for s in range(4) if hands[s] >> c & 1)  # noqa: E731
        cards = _seat_cards(plays, owner, seat, 4 - lone)
        choices = card_choices(cards, hands[seat], lambda c: euchre_suit(c, trump))
        return sum(n > 1 for n in choices) + euchre_calls(row, seat)
    n_seats = 4 if name == "spades" else 5
    hands = [row[f"hand{s}"] for s in range(n_seats)]
    owner = lambda c: next(s for s in range(n_seats) if hands[s] >> c & 1)  # noqa: E731
    cards = _seat_cards(plays, owner, seat, n_seats)
    choices = card_choices(cards, hands[seat], lambda c: c // 13, must_break=name == "spades")
    # Spades: the bid, unless the seat bid blind nil (that choice is the heuristic's)
    return sum(n > 1 for n in choices) + (name == "spades" and not row[f"blind{seat}"])


def search_rate(game, hands: int, repeats: int):
    """(decisions, search CPU seconds, decisions/s) of ``pimc`` in one seat on one thread:
    the best of ``repeats`` timings of the searching run and of the same deals all heuristic,
    interleaved; decisions counted from the searching run's logged hands."""
    _threads(1)
    seat = SEARCH_SEAT[game.name]
    rules = game.rules_cls()
    plain = game.policies_from_specs(["heuristic"])
    searching = game.policies_from_specs(["heuristic", f"{seat}=pimc"])
    run = lambda choice, n=hands: game.run_hands(1, 0, n, rules, choice, True)  # noqa: E731
    run(plain, 10), run(searching, 2)  # warm-up: loads or compiles the kernels
    cpu = {"plain": [], "searching": []}
    for _ in range(repeats):
        for key, choice in (("plain", plain), ("searching", searching)):
            t = time.process_time()
            frame = run(choice)
            cpu[key].append(time.process_time() - t)
            if key == "searching":
                rows = frame
    decisions = sum(seat_decisions(game.name, r, seat) for r in rows.iter_rows(named=True))
    seconds = min(cpu["searching"]) - min(cpu["plain"])
    return decisions, seconds, decisions / seconds


def pimc_step(table, names, sizes, repeats):
    for name in names:
        game = games.get(name)
        hands = SEARCH_HANDS[name] // (4 if sizes.quick else 1)
        decisions, seconds, r = search_rate(game, hands, repeats)
        target = DECISION_TARGET[name]
        worlds = game.play_policies.default_worlds
        table.row(name, f"`pimc` (W = {worlds}) decisions of seat {SEARCH_SEAT[name]}, "
                  f"heuristic elsewhere ({hands:,} hands, {decisions:,} decisions, "
                  f"{seconds:.1f} CPU s of search)", 1, f"{r:,.1f} decisions/s",
                  f"{1000 / r:.2f} ms a decision; target {target}/s "
                  f"{'met' if r >= target else 'NOT met'}")


GIN_PIMC_HANDS = 120  # hands a timing of Gin's pimc (quick: 1/4)


def gin_pimc_rate(hands: int, repeats: int, threads: int):
    """Hands/s of Gin Rummy with ``pimc`` (default W) in seat 0 and the expert in seat 1 on
    ``threads`` threads, and the search's CPU ms a hand (less the same deals all expert)."""
    _threads(threads)
    game = games.get("gin-rummy")
    rules = game.rules_cls()
    plain = game.policies_from_specs(["expert"])
    searching = game.policies_from_specs(["expert", "0=pimc"])
    run = lambda choice, n=hands: game.run_hands(1, 0, n, rules, choice, False)  # noqa: E731
    run(plain, 10), run(searching, 2)  # warm-up: loads or compiles the kernels
    wall, cpu = [], {"plain": [], "searching": []}
    for _ in range(repeats):
        for key, choice in (("plain", plain), ("searching", searching)):
            t, c = time.perf_counter(), time.process_time()
            run(choice)
            cpu[key].append(time.process_time() - c)
            if key == "searching":
                wall.append(time.perf_counter() - t)
    return hands / min(wall), 1000 * (min(cpu["searching"]) - min(cpu["plain"])) / hands


def gin_pimc_step(table, sizes, repeats, threads):
    hands = GIN_PIMC_HANDS // (4 if sizes.quick else 1)
    worlds = games.get("gin-rummy").play_policies.default_worlds
    for t in threads:
        r, ms = gin_pimc_rate(hands, repeats, t)
        table.row("gin-rummy", f"`pimc` (W = {worlds}) in seat 0, expert in seat 1 "
                  f"({hands} hands)", t, f"{r:,.1f} hands/s",
                  f"{ms:.0f} CPU ms of search a hand")


# ---------------------------------------------------------------- open-hand solving

SOLVE_DEALS = {"spades": 40, "euchre": 20_000, "trump-friend": 4}  # deals of a `simcore solve` run


def solve_cli_rate(name, deals, threads, cap):
    """deals/s of ``simcore solve NAME``, steady: the difference of an N-deal and a 1-deal run
    (start-up, cache load and one deal in both) over the N - 1 extra deals.  None when the run
    does not finish within ``cap`` seconds; nan when the extra deals took too little of the run
    to be told apart from the start-up's noise."""
    with tempfile.TemporaryDirectory() as tmp:
        base = ["solve", name, "--quiet", "--threads", str(threads)]
        one = cli_seconds([*base, "--deals", "1", "--out", str(Path(tmp, "one"))])
        try:
            t = time.perf_counter()
            subprocess.run([*SIMCORE, *base, "--deals", str(deals), "--out", str(Path(tmp, "run"))],
                           cwd=ROOT, check=True, timeout=cap)
            seconds = time.perf_counter() - t
        except subprocess.TimeoutExpired:
            return None
    return solve_rate(deals, one, seconds)


def solve_rate(deals, one, seconds):
    """Deals/s from a 1-deal run of ``one`` seconds and a ``deals``-deal run of ``seconds``: the
    N - 1 extra deals over the extra time; nan when that time is under a quarter of the 1-deal
    run's (start-up noise would dominate)."""
    extra = seconds - one
    if deals < 2 or extra < 0.25 * one:
        return float("nan")
    return (deals - 1) / extra


def solver_rows(table, name, cap):
    """Single-thread solver timings through scripts/bench_solve.py (same deals, one process)."""
    sys.path.insert(0, os.path.join(ROOT, "scripts"))
    import bench_solve as bs  # noqa: E402 (a sibling script)
    import random

    def add(what, times, nodes, extra=""):
        ms = np.asarray(times) * 1000
        table.row(name, what, 1, f"{ms.mean():.2f} ms mean, {np.median(ms):.2f} median, {ms.max():.1f} max; "
                  f"nodes {np.mean(nodes):,.0f} / {np.median(nodes):,.0f} / {max(nodes):,}", extra)

    rng = random.Random(1)
    if name == "spades":
        for cards, n in ((9, 20), (13, 3)):
            ours, nodes, dds, agree = bs.bench_spades(rng, n, cards, False, -1, True)
            add(f"open-hand value, {cards} cards a seat, breaking off ({n} deals)", ours, nodes,
                f"{np.mean(dds) / np.mean(ours):.3f}x DDS (DDS {1000 * np.mean(dds):.2f} ms mean); "
                f"values equal {agree}/{n}")
        ours, nodes, _, _ = bs.bench_spades(rng, 10, 9, True, -1, False)
        add("open-hand value, 9 cards a seat, breaking on (10 deals)", ours, nodes)
        ours, nodes, _, _ = bs.bench_spades(rng, 10, 9, True, 0, False)
        add("open-hand nil value of seat 0, 9 cards a seat (10 deals)", ours, nodes)
    elif name == "euchre":
        per_s, elapsed, nodes = bs.bench_euchre(rng, 2000)
        table.row(name, "full 20-value DD table of a deal (2,000 deals)", 1, f"{per_s:,.0f} deals/s",
                  f"nodes per solve {np.mean(nodes):,.0f} / {np.median(nodes):,.0f} / {max(nodes):,}")
    else:
        for cards, n in ((6, 10), (7, 4)):
            times, nodes = bs.bench_trump_friend(rng, n, cards)
            add(f"one call solved, {cards} cards a seat ({n} deals x 5 calls)", times, nodes)


def solve_step(table, names, threads, cap):
    for name in names:
        solver_rows(table, name, cap)
        deals = SOLVE_DEALS[name]
        rates = {}
        for t in threads:
            r = solve_cli_rate(name, deals, t, cap)
            if r is None:
                table.row(name, f"`simcore solve` ({deals} deals)", t,
                          f"did not finish in {cap:g} s (< {deals / cap:.3f} deals/s)")
                continue
            if math.isnan(r):
                table.row(name, f"`simcore solve` ({deals} deals)", t,
                          "too few deals to tell from the start-up; raise SOLVE_DEALS")
                continue
            rates[t] = r
            table.row(name, f"`simcore solve` ({deals} deals)", t, f"{r:,.2f} deals/s",
                      f"{r / rates[1]:.2f}x of 1 thread" if t > 1 and rates.get(1) else "")


def parse_list(text, kind=str):
    return [kind(x.strip().replace("_", "")) for x in text.split(",") if x.strip()] if text else []


def build_parser():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller samples (noisier)")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--markdown", metavar="FILE",
                        help="also write the table to FILE: between its <!-- bench:begin --> and "
                             "<!-- bench:end --> lines when it has them (replacing the table there), "
                             "else as the whole file")
    parser.add_argument("--only", help="comma-separated games (e.g. gin-rummy,dummy)")
    parser.add_argument("--skip", default="", help="comma-separated steps: " + ", ".join(STEPS))
    parser.add_argument("--policies", help="comma-separated play policies to time (default: all)")
    parser.add_argument("--skip-peers", action="store_true", help="same as --skip peers")
    parser.add_argument("--deals", type=int, help="hands per engine timing (default 1M; quick 200k)")
    parser.add_argument("--engine-seconds", type=float,
                        help="a slow engine gets fewer hands per timing: about this many seconds' "
                             "worth, at least 20,000 (default 3; quick 1)")
    parser.add_argument("--e2e-deals", type=int, help="hands per end-to-end run (default 4M; quick 1M)")
    parser.add_argument("--e2e-seconds", type=float,
                        help="a slow game's end-to-end run gets fewer hands: about this many seconds' "
                             "worth at its engine rate, at least 100,000 (default 20; quick 8)")
    parser.add_argument("--peer-seconds", type=float, help="seconds per peer timing (default 10; quick 5)")
    parser.add_argument("--memory-deals", default="1000000,10000000", help="the two run sizes compared")
    parser.add_argument("--cluster-deals", type=int, help="hands of the cluster run (default 16M; quick 4M)")
    parser.add_argument("--start-deals", type=int, default=1000, help="hands of the warm/cold start runs")
    parser.add_argument("--solve-seconds", type=float, default=120.0,
                        help="seconds allowed to each `simcore solve` run (default 120)")
    parser.add_argument("--wait-quiet", type=float, metavar="S",
                        help="time engine and OpenSpiel runs only while nothing else uses the "
                             "CPU (a shared machine), waiting at most S seconds in all")
    return parser


def busy_cores(seconds: float = 1.0) -> float | None:
    """Cores' worth of CPU time spent by anything over the next ``seconds`` (Linux
    /proc/stat; None elsewhere)."""
    def sample():
        with open("/proc/stat") as f:
            fields = [int(x) for x in f.readline().split()[1:]]
        idle = fields[3] + (fields[4] if len(fields) > 4 else 0)
        return sum(fields), idle
    try:
        total0, idle0 = sample()
        time.sleep(seconds)
        total1, idle1 = sample()
    except (OSError, ValueError, IndexError):
        return None
    if total1 == total0:
        return None
    return (1 - (idle1 - idle0) / (total1 - total0)) * (os.cpu_count() or 1)


def main(argv=None, out=sys.stdout) -> Table:
    args = build_parser().parse_args(argv)
    skip = set(parse_list(args.skip)) | ({"peers"} if args.skip_peers else set())
    if skip - set(STEPS):
        raise SystemExit(f"--skip: unknown step(s) {', '.join(sorted(skip - set(STEPS)))}; known: {', '.join(STEPS)}")
    steps = [s for s in STEPS if s not in skip]
    memory = parse_list(args.memory_deals, int)
    if len(memory) != 2:
        raise SystemExit("--memory-deals takes two sizes, e.g. 1000000,10000000")
    sizes = Sizes(
        engine=args.deals or (200_000 if args.quick else 1_000_000),
        engine_seconds=args.engine_seconds or (1.0 if args.quick else 3.0),
        e2e=args.e2e_deals or (1_000_000 if args.quick else 4_000_000),
        e2e_seconds=args.e2e_seconds or (8.0 if args.quick else 20.0),
        peer_seconds=args.peer_seconds or (5 if args.quick else 10),
        memory=tuple(memory),
        cluster=args.cluster_deals or (4_000_000 if args.quick else 16_000_000),
        start=args.start_deals,
        quick=args.quick,
    )
    try:
        names = candidate_games(parse_list(args.only))
    except SimcoreError as e:
        raise SystemExit(str(e)) from None
    policies = parse_list(args.policies)
    known = {p for name in names if not isinstance(found := setups(name), str) for p in found[0].game.play_policies}
    if set(policies) - known:
        raise SystemExit(f"--policies: unknown {', '.join(sorted(set(policies) - known))}; known: {', '.join(sorted(known))}")
    threads = [1, 2] if nb.config.NUMBA_NUM_THREADS >= 2 else [1]
    command = " ".join(["python scripts/bench.py", *(argv if argv is not None else sys.argv[1:])])
    load = os.getloadavg()[0]  # before this run adds its own
    busy = busy_cores()  # the load average trails by minutes; this is the last second
    when = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    table = Table(f"Measured {when}.  Machine: {platform.processor() or platform.machine()}, "
                  f"{os.cpu_count()} cores, Python {platform.python_version()}, numba {nb.__version__}.  "
                  f"Command: `{command}`.  "
                  f"Load average before the run: {load:.2f}; cores busy in the second before it: "
                  + ("unknown" if busy is None else f"{busy:.2f}")
                  + (" (a busy machine: these are not idle-machine figures)."
                     if (busy if busy is not None else load) > 0.5 and not args.wait_quiet else ".")
                  + (f"  Engine, bare and OpenSpiel timings only in quiet windows (`--wait-quiet "
                     f"{args.wait_quiet:g}`: everything else under 0.1 core during each)."
                     if args.wait_quiet else ""), out)
    if args.wait_quiet:
        QUIET["deadline"] = time.time() + args.wait_quiet
    with_tf = "trump-friend" in names
    bare = {}
    try:
        bare = bare_step(table, sizes, threads, args.repeats) if with_tf and "bare" in steps else {}
        for name in names:
            found = setups(name)
            if isinstance(found, str):
                table.not_measured(name, "every step", found)
                continue
            for setup in found:
                game_steps(table, setup, steps, sizes, threads, args.repeats, bare, policies)
    except NeverQuiet:
        table.note(f"Stopped: no quiet window left within --wait-quiet {args.wait_quiet:g} s.")
    if with_tf and "memory" in steps:
        memory_step(table, sizes, threads[-1])
    if with_tf and "cluster" in steps:
        cluster_step(table, sizes)
    if "pimc" in steps:
        pimc_step(table, [n for n in names if n in SOLVED], sizes, args.repeats)
        if "gin-rummy" in names:
            gin_pimc_step(table, sizes, args.repeats, threads)
    if "solve" in steps:
        solve_step(table, [n for n in names if n in SOLVED], threads, args.solve_seconds)
    table.note(f"Load average at the end (this run included): {os.getloadavg()[0]:.2f}.")
    if args.markdown:
        write_markdown(Path(args.markdown), table.markdown())
    return table


BEGIN, END = "<!-- bench:begin -->", "<!-- bench:end -->"


def write_markdown(path: Path, text: str) -> None:
    """``text`` into ``path``: in place of what stands between its BEGIN and END lines when it
    has both, else as the whole file."""
    old = path.read_text() if path.is_file() else ""
    lines = old.splitlines(keepends=True)
    marks = [i for i, line in enumerate(lines) if line.strip() in (BEGIN, END)]
    if len(marks) == 2 and lines[marks[0]].strip() == BEGIN and lines[marks[1]].strip() == END:
        new = "".join(lines[:marks[0] + 1]) + text + "".join(lines[marks[1]:])
    else:
        new = text
    path.write_text(new)


if __name__ == "__main__":
    main()
