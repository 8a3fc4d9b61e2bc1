"""Benchmarks: hands/s per game and policy, beside a bare kernel and OpenSpiel, on this machine.

    .venv/bin/python scripts/bench.py                  # full run (a few minutes)
    .venv/bin/python scripts/bench.py --quick          # smaller samples
    .venv/bin/python scripts/bench.py --markdown docs/performance-latest.md

Prints a Markdown table.  Every figure is measured in this run; nothing is copied from docs.
Rates are the best of ``--repeats`` timed calls after a warm-up call (which also loads or
compiles the Numba cache), so they describe steady-state throughput.
"""

from __future__ import annotations

import argparse
import os
import platform
import subprocess
import sys
import tempfile
import time

import numba as nb
import numpy as np

from simcore import games
from simcore.cards import bit, nth_bit, popcount
from simcore.rng import shuffle, below, stream_key
from simcore.tricks import follow_mask, trick_winner

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SIMCORE = [sys.executable, "-m", "simcore"]


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


def best_rate(fn, n, repeats):
    fn(min(n, 1000))  # warm-up: loads or compiles the kernels
    best = 0.0
    for _ in range(repeats):
        t = time.perf_counter()
        fn(n)
        best = max(best, n / (time.perf_counter() - t))
    return best


def engine_rate(game, policy, threads, n, repeats):
    nb.set_num_threads(threads)
    rules = game.rules_cls()
    choice = game.policies_from_specs([policy])
    return best_rate(lambda k: game.run_hands(1, 0, k, rules, choice, False), n, repeats)


def bare_rate(threads, n, repeats):
    nb.set_num_threads(threads)
    return best_rate(lambda k: bare_trump_friend(np.uint64(1), k, 16 * threads), n, repeats)


def cli_seconds(args):
    t = time.perf_counter()
    subprocess.run(SIMCORE + args, check=True, cwd=ROOT)
    return time.perf_counter() - t


def end_to_end(game, policy, deals, threads):
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "run")
        seconds = cli_seconds(["simulate", game, "--deals", str(deals), "--threads", str(threads),
                               "--policy", policy, "--quiet", "--out", out])
    return deals / seconds, seconds


def warm_start(game):
    with tempfile.TemporaryDirectory() as tmp:
        cli_seconds(["simulate", game, "--deals", "1000", "--quiet", "--out", os.path.join(tmp, "a")])
        return cli_seconds(["simulate", game, "--deals", "1000", "--quiet", "--out", os.path.join(tmp, "b")])


def openspiel_rate(name, seconds):
    """Whole hands/s of OpenSpiel's C++ game through pyspiel.evaluate_bots with uniform random
    bots, one process (its fastest path without writing C++)."""
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game(name)
    bots = [pyspiel.make_uniform_random_bot(p, 1000 + p) for p in range(game.num_players())]
    n, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        pyspiel.evaluate_bots(game.new_initial_state(), bots, n)
        n += 1
    return n / (time.perf_counter() - start)


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


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller samples (noisier)")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--markdown", help="also write the table to this file")
    args = parser.parse_args(argv)
    n = 200_000 if args.quick else 1_000_000
    threads = [1, 2] if nb.config.NUMBA_NUM_THREADS >= 2 else [1]
    lines = [
        f"Machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()}, numba {nb.__version__}.  "
        f"Command: `python scripts/bench.py{' --quick' if args.quick else ''}`",
        "",
        "| game | what | threads | hands/s | ratio |",
        "| --- | --- | --- | --- | --- |",
    ]

    def row(game, what, t, rate, ratio=""):
        lines.append(f"| {game} | {what} | {t} | {rate:,.0f} | {ratio} |")
        print(lines[-1], flush=True)

    print("\n".join(lines))
    bare = {}
    for t in threads:
        bare[t] = bare_rate(t, n, args.repeats)
        row("trump-friend", "bare kernel (deal + random legal plays, no recording)", t, bare[t],
            f"{bare[t] / bare[1]:.2f}x of 1 thread" if t > 1 else "")
    peers = {"spades": "spades", "euchre": "euchre", "gin-rummy": "gin_rummy"}
    for name in games.NAMES:
        try:
            game = games.get(name)
        except Exception as e:  # a game not in this version
            print(f"skipping {name}: {e}", file=sys.stderr)
            continue
        peer = openspiel_rate(peers[name], 5 if args.quick else 10) if name in peers else None
        rates = {}
        for policy in game.play_policies:
            for t in threads:
                rates[policy, t] = engine_rate(game, policy, t, n, args.repeats)
                notes = []
                if name == "trump-friend":
                    notes.append(f"{rates[policy, t] / bare[t]:.0%} of bare")
                if t > 1:
                    notes.append(f"{rates[policy, t] / rates[policy, 1]:.2f}x of 1 thread")
                if peer and policy == "random":
                    notes.append(f"{rates[policy, t] / peer:.1f}x OpenSpiel")
                if policy != "random":
                    notes.append(f"{rates[policy, t] / rates['random', t]:.0%} of random")
                row(name, f"engine, `{policy}` (kernel + polars frame)", t, rates[policy, t], "; ".join(notes))
        if peer:
            row(name, "OpenSpiel `evaluate_bots`, uniform random bots", 1, peer)
        e2e_deals = 1_000_000 if args.quick else 4_000_000
        for policy in game.play_policies:
            rate, seconds = end_to_end(name, policy, e2e_deals, threads[-1])
            row(name, f"`simcore simulate` end to end, `{policy}`, Parquet included ({e2e_deals:,} hands, {seconds:.1f} s)",
                threads[-1], rate)
        lines.append(f"| {name} | warm start: `simcore simulate {name} --deals 1000` | all | "
                     f"{warm_start(name):.2f} s wall | |")
        print(lines[-1], flush=True)
        if name == "gin-rummy":
            nb.set_num_threads(1)
            lines.append(f"| gin-rummy | one minimum-deadwood call (10 random cards) | 1 | "
                         f"{min_deadwood_ns():.0f} ns per call | |")
            print(lines[-1], flush=True)
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
