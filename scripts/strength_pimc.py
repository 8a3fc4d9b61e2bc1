"""Euchre search policies' strength: duplicate comparisons against the heuristic.

    .venv/bin/python scripts/strength_pimc.py                                  # pimc and dd, defaults
    .venv/bin/python scripts/strength_pimc.py --policies pimc:8 pimc --deals 2000 --games 300
    .venv/bin/python scripts/strength_pimc.py --policies pimc:8 pimc pimc:32 dd --deals 0 --games 0 --speed 400
    .venv/bin/python scripts/strength_pimc.py --policies pimc:8 --base pimc-uniform:8 --deals 1000 --games 0 --speed 200

Duplicate: with one seed every run deals the same cards (deal k from the stream (seed, k); in
games mode game g's hand h from (seed, g, h + 1)).  For a policy P and a partnership (seats 0+2,
then 1+3) the run "P at those seats, heuristic at the others" is paired deal by deal with the
run "heuristic everywhere".  Per deal the partnership's net points (its points minus the
other side's) under P minus the same under the heuristic, averaged over the two seatings, is
one paired difference: its mean per hand with a t 95% interval.  Games to 10 (EU-20): the share
won by P's partnership over both seatings (Wilson 95%), and against the same seats' share with
the heuristic, paired game by game (t 95%).  Speed: hands (games) per second of each run, all
threads, start-up excluded (the kernels are compiled or loaded before the clock starts).
``--speed N``: N hands on one thread with the policy in seat 0 only (heuristic elsewhere), and
the same hands all heuristic: hands/s and the search's milliseconds per hand.

``--base POLICY`` (e.g. ``pimc-uniform:8``): the paired run is "POLICY at the same seats,
heuristic at the others" instead of "heuristic everywhere", so a row is P's gain over POLICY
in the same seats; ``--speed`` then reports the user+system CPU seconds of the search per
hand (seat 0 only, one thread) of each policy and of POLICY, and their ratio.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np
import polars as pl

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import simcore  # noqa: E402
from analyses.stats import t_interval, wilson  # noqa: E402

SEATINGS = ((0, 2), (1, 3))


def specs(policy: str, seats) -> list[str]:
    return [f"{s}={policy if s in seats else 'heuristic'}" for s in range(4)]


def timed(policy_specs, count, seed, mode, threads):
    started = time.perf_counter()
    run = simcore.simulate("euchre", count, seed=seed, policy=policy_specs, mode=mode,
                           threads=threads)
    seconds = time.perf_counter() - started
    table = run.games() if mode == "games" else run.hands()
    return table.collect(), seconds


def net(frame: pl.DataFrame, side: int) -> np.ndarray:
    p = frame.select("points0", "points1").to_numpy().astype(np.int64)
    return p[:, side] - p[:, 1 - side]


def interval(values: np.ndarray) -> str:
    lo, hi = t_interval(values.mean(), values.std(ddof=1), len(values))
    return f"{values.mean():+.3f} [{float(lo):+.3f}, {float(hi):+.3f}]"


def hands_row(policy, deals, seed, threads, base, base_policy=None):
    diffs = np.zeros(deals)
    rates = []
    for seats in SEATINGS:
        frame, seconds = timed(specs(policy, seats), deals, seed, "hands", threads)
        if base_policy:
            base, _ = timed(specs(base_policy, seats), deals, seed, "hands", threads)
        side = seats[0]
        diffs += (net(frame, side) - net(base, side)) / len(SEATINGS)
        rates.append(deals / seconds)
    return (f"| {policy} | {deals:,} | {interval(diffs)} | "
            f"{np.mean(rates):,.1f} |")


def games_row(policy, games, seed, threads, base, base_policy=None):
    won, won_base = [], []
    rates = []
    for seats in SEATINGS:
        frame, seconds = timed(specs(policy, seats), games, seed, "games", threads)
        if base_policy:
            base, _ = timed(specs(base_policy, seats), games, seed, "games", threads)
        side = seats[0]
        won.append((frame["winner"].to_numpy() == side).astype(float))
        won_base.append((base["winner"].to_numpy() == side).astype(float))
        rates.append(games / seconds)
    won, won_base = np.concatenate(won), np.concatenate(won_base)
    lo, hi = wilson(won.sum(), len(won))
    paired = won - won_base
    return (f"| {policy} | {len(won):,} | {100 * won.mean():.1f}% [{100 * float(lo):.1f}, "
            f"{100 * float(hi):.1f}] | {100 * won_base.mean():.1f}% | "
            f"{interval(100 * paired)} pp | {np.mean(rates):,.2f} |")


def speed_row(policy, hands, seed):
    _, base = timed(["heuristic"], hands, seed, "hands", 1)
    _, seconds = timed(specs(policy, (0,)), hands, seed, "hands", 1)
    return (f"| {policy} | {hands:,} | {hands / seconds:,.1f} | "
            f"{1000 * (seconds - base) / hands:.2f} |")


def cpu_seconds(policy, hands, seed):
    """User+system CPU seconds of a one-thread run with ``policy`` in seat 0."""
    import resource

    before = resource.getrusage(resource.RUSAGE_SELF)
    timed(specs(policy, (0,)), hands, seed, "hands", 1)
    after = resource.getrusage(resource.RUSAGE_SELF)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def cpu_rows(policies, base_policy, hands, seed):
    """CPU milliseconds of the search per hand (less the all-heuristic run's) of ``base_policy``
    and each policy, and each policy's ratio to the base's."""
    heuristic = cpu_seconds("heuristic", hands, seed)
    base = cpu_seconds(base_policy, hands, seed) - heuristic
    rows = [f"| {base_policy} | {hands:,} | {1000 * base / hands:.2f} | 1.00 |"]
    for policy in policies:
        cpu = cpu_seconds(policy, hands, seed) - heuristic
        rows.append(f"| {policy} | {hands:,} | {1000 * cpu / hands:.2f} | {cpu / base:.2f} |")
    return rows


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--policies", nargs="+", default=["pimc", "dd"])
    parser.add_argument("--deals", type=int, default=2000, help="hands per seating")
    parser.add_argument("--base", default=None, metavar="POLICY",
                        help="pair against POLICY in the same seats (e.g. pimc-uniform:8) "
                             "instead of heuristic everywhere")
    parser.add_argument("--games", type=int, default=200, help="games to 10 per seating")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--threads", type=int, default=None)
    parser.add_argument("--speed", type=int, default=0, help="hands for the one-thread speed table")
    args = parser.parse_args(argv)
    for policy in args.policies + ([args.base] if args.base else []):
        # compile (or load) every kernel before any clock starts
        simcore.simulate("euchre", 4, seed=0, policy=specs(policy, (0, 2)))
    against = f"{args.base} in the same seats" if args.base else "heuristic everywhere"
    print(f"seed {args.seed}; paired against {against}; both partnerships\n")
    if args.deals:
        base_hands, _ = timed(["heuristic"], args.deals, args.seed, "hands", args.threads)
        print(f"| policy | deals | net points per hand vs {args.base or 'heuristic'} (95%) | "
              "hands/s |")
        print("| --- | --- | --- | --- |")
        for policy in args.policies:
            print(hands_row(policy, args.deals, args.seed, args.threads, base_hands, args.base),
                  flush=True)
    if args.games:
        base_games, _ = timed(["heuristic"], args.games, args.seed, "games", args.threads)
        print(f"\n| policy | games | games won to 10 (95%) | {args.base or 'heuristic'} in those seats | "
              "paired difference (95%) | games/s |")
        print("| --- | --- | --- | --- | --- | --- |")
        for policy in args.policies:
            print(games_row(policy, args.games, args.seed, args.threads, base_games, args.base),
                  flush=True)
    if args.speed and args.base:
        print("\n| policy (seat 0 only, 1 thread) | hands | search CPU ms per hand | "
              f"vs {args.base} |")
        print("| --- | --- | --- | --- |")
        print("\n".join(cpu_rows(args.policies, args.base, args.speed, args.seed)))
    elif args.speed:
        print("\n| policy (seat 0 only, 1 thread) | hands | hands/s | search ms per hand |")
        print("| --- | --- | --- | --- |")
        for policy in args.policies:
            print(speed_row(policy, args.speed, args.seed), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
