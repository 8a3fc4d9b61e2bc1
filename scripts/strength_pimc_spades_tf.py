"""Spades and Trump Friend search policies' strength: duplicate comparisons against the heuristic.

    .venv/bin/python scripts/strength_pimc_spades_tf.py spades --policies pimc --deals 300 --games 40
    .venv/bin/python scripts/strength_pimc_spades_tf.py spades --policies pimc:8 dd --deals 200 --games 0 --speed 50
    .venv/bin/python scripts/strength_pimc_spades_tf.py trump-friend --policies pimc --deals 300

Duplicate: with one seed every run deals the same cards (deal k from the stream (seed, k); in
games mode game g's hand h from (seed, g, h + 1)).  For a policy P and a set of searching seats
(Spades: the partnership 0+2, then 1+3; Trump Friend: each seat 0 ... 4 alone) the run "P at
those seats, heuristic at the others" is paired deal by deal with the run "heuristic
everywhere".  Spades: per deal the partnership's net score (its hand score minus the other
side's) under P minus the same under the heuristic, averaged over the two seatings, is one
paired difference: its mean per hand with a t 95% interval; games to the target (SP-16): the
share won by P's partnership over both seatings (Wilson 95%), against the same seats' share
with the heuristic, paired game by game (t 95%).  Trump Friend: the searching seat's score
change per round (``delta{seat}``) minus the heuristic's in the same seat, averaged over the
five seats.  Speed: hands (games) per second of each run, all threads, start-up excluded (the
kernels are compiled or loaded before the clock starts).  ``--speed N``: N hands on one thread
with the policy in seat 0 only, and the same hands all heuristic: hands/s and the search's
milliseconds per hand.
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

SEATS = {"spades": 4, "trump-friend": 5}
SEATINGS = {"spades": ((0, 2), (1, 3)), "trump-friend": ((0,), (1,), (2,), (3,), (4,))}


def specs(game: str, policy: str, seats) -> list[str]:
    return [f"{s}={policy if s in seats else 'heuristic'}" for s in range(SEATS[game])]


def timed(game, policy_specs, count, seed, mode, threads, rules):
    started = time.perf_counter()
    run = simcore.simulate(game, count, seed=seed, policy=policy_specs, mode=mode,
                           threads=threads, rules=rules)
    seconds = time.perf_counter() - started
    table = run.games() if mode == "games" else run.hands()
    return table.collect(), seconds


def gain(game: str, frame: pl.DataFrame, seats) -> np.ndarray:
    """What the searching seats' side gets per hand: Spades its net score, Trump Friend the
    seat's score change."""
    if game == "spades":
        side = seats[0] & 1
        p = frame.select("score0", "score1").to_numpy().astype(np.int64)
        return p[:, side] - p[:, 1 - side]
    return frame[f"delta{seats[0]}"].to_numpy().astype(np.int64)


def interval(values: np.ndarray) -> str:
    lo, hi = t_interval(values.mean(), values.std(ddof=1), len(values))
    return f"{values.mean():+.2f} [{float(lo):+.2f}, {float(hi):+.2f}]"


def hands_row(game, policy, deals, seed, threads, base, rules):
    seatings = SEATINGS[game]
    diffs = np.zeros(deals)
    rates = []
    for seats in seatings:
        frame, seconds = timed(game, specs(game, policy, seats), deals, seed, "hands", threads,
                               rules)
        diffs += (gain(game, frame, seats) - gain(game, base, seats)) / len(seatings)
        rates.append(deals / seconds)
    return f"| {policy} | {deals:,} | {interval(diffs)} | {np.mean(rates):,.2f} |"


def games_row(game, policy, games, seed, threads, base, rules):
    won, won_base = [], []
    rates = []
    for seats in SEATINGS[game]:
        frame, seconds = timed(game, specs(game, policy, seats), games, seed, "games", threads,
                               rules)
        side = seats[0] & 1
        won.append((frame["winner"].to_numpy() == side).astype(float))
        won_base.append((base["winner"].to_numpy() == side).astype(float))
        rates.append(games / seconds)
    won, won_base = np.concatenate(won), np.concatenate(won_base)
    lo, hi = wilson(won.sum(), len(won))
    paired = won - won_base
    return (f"| {policy} | {len(won):,} | {100 * won.mean():.1f}% [{100 * float(lo):.1f}, "
            f"{100 * float(hi):.1f}] | {100 * won_base.mean():.1f}% | "
            f"{interval(100 * paired)} pp | {np.mean(rates):,.3f} |")


def speed_row(game, policy, hands, seed, rules):
    _, base = timed(game, ["heuristic"], hands, seed, "hands", 1, rules)
    _, seconds = timed(game, specs(game, policy, (0,)), hands, seed, "hands", 1, rules)
    return (f"| {policy} | {hands:,} | {hands / seconds:,.2f} | "
            f"{1000 * (seconds - base) / hands:.1f} |")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game", choices=sorted(SEATS))
    parser.add_argument("--policies", nargs="+", default=["pimc"])
    parser.add_argument("--deals", type=int, default=300, help="hands per seating")
    parser.add_argument("--games", type=int, default=0,
                        help="games per seating (Spades only, to --target)")
    parser.add_argument("--target", type=int, default=None, help="Spades: game target (SP-16)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--threads", type=int, default=None)
    parser.add_argument("--speed", type=int, default=0, help="hands for the one-thread speed table")
    args = parser.parse_args(argv)
    game = args.game
    rules = {"target": args.target} if args.target and game == "spades" else None
    for policy in args.policies:  # compile (or load) every kernel before any clock starts
        simcore.simulate(game, 2, seed=0, policy=specs(game, policy, SEATINGS[game][0]),
                         rules=rules)
    simcore.simulate(game, 2, seed=0, policy=["heuristic"], rules=rules)
    print(f"{game}, seed {args.seed}, rules {rules or 'default'}; paired against heuristic "
          f"everywhere; seatings {SEATINGS[game]}\n")
    if args.deals:
        base_hands, _ = timed(game, ["heuristic"], args.deals, args.seed, "hands", args.threads,
                              rules)
        what = "net score" if game == "spades" else "score change"
        print(f"| policy | deals | {what} per hand vs heuristic (95%) | hands/s |")
        print("| --- | --- | --- | --- |")
        for policy in args.policies:
            print(hands_row(game, policy, args.deals, args.seed, args.threads, base_hands, rules),
                  flush=True)
    if args.games and game == "spades":
        base_games, _ = timed(game, ["heuristic"], args.games, args.seed, "games", args.threads,
                              rules)
        print("\n| policy | games | games won (95%) | heuristic in those seats | "
              "paired difference (95%) | games/s |")
        print("| --- | --- | --- | --- | --- | --- |")
        for policy in args.policies:
            print(games_row(game, policy, args.games, args.seed, args.threads, base_games, rules),
                  flush=True)
    if args.speed:
        print("\n| policy (seat 0 only, 1 thread) | hands | hands/s | search ms per hand |")
        print("| --- | --- | --- | --- |")
        for policy in args.policies:
            print(speed_row(game, policy, args.speed, args.seed, rules), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
