"""Spades and Trump Friend search policies' strength: duplicate comparisons against the heuristic.

    .venv/bin/python scripts/strength_pimc_spades_tf.py spades --policies pimc --deals 300 --games 40
    .venv/bin/python scripts/strength_pimc_spades_tf.py spades --policies pimc:8 dd --deals 200 --games 0 --speed 50
    .venv/bin/python scripts/strength_pimc_spades_tf.py trump-friend --policies pimc --deals 300
    .venv/bin/python scripts/strength_pimc_spades_tf.py spades --policies pimc:8 --base pimc-uniform:8 --deals 300

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
with the policy in seat 0 only (``--speed-seat S``: seat S), and the same hands all heuristic: hands/s and the search's
milliseconds per hand.

``--base POLICY`` (e.g. ``pimc-uniform:8``): the paired run is "POLICY at the same seats,
heuristic at the others" instead of "heuristic everywhere", so a row is P's gain over POLICY
in the same seats; ``--speed`` then times both on the same hands (one seat, one thread)
and reports the user+system CPU seconds of each.

Trump Friend calls (``--calls POLICY ...``, e.g. ``pimc`` or ``pimc:50``): the same deals, the
declarer drawn per deal (``first_declarer=random``), heuristic play at every seat, once with
the heuristic calls (trump longest, friend highest) and once with ``trump=POLICY
friend=POLICY`` (then trump only, friend only): the declarer's score change per round under
the searched calls minus under the heuristic's, t 95% interval, and the share of rounds whose
call differs.  ``--call-speed N``: N such rounds on one thread, calls per second (the run's
time less the same run with heuristic calls).

    .venv/bin/python scripts/strength_pimc_spades_tf.py trump-friend --policies --deals 0 --calls pimc --call-speed 100
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


def hands_row(game, policy, deals, seed, threads, base, rules, base_policy=None):
    """The table row, and each seating's paired differences (against ``base``, or with a
    ``base_policy`` against that policy's run in the same seats)."""
    seatings = SEATINGS[game]
    each = []
    rates = []
    for seats in seatings:
        frame, seconds = timed(game, specs(game, policy, seats), deals, seed, "hands", threads,
                               rules)
        if base_policy:
            base, _ = timed(game, specs(game, base_policy, seats), deals, seed, "hands", threads,
                            rules)
        each.append(gain(game, frame, seats) - gain(game, base, seats))
        rates.append(deals / seconds)
    diffs = np.mean(each, axis=0)
    return f"| {policy} | {deals:,} | {interval(diffs)} | {np.mean(rates):,.2f} |", each


def roles_row(policy, each):
    """Trump Friend hands mode: seat 0 declares every round (first_declarer 0), so its
    seating measures the searching player as declarer (its calls included), the others as
    defenders."""
    defending = np.concatenate(each[1:])
    return f"| {policy} | {interval(each[0])} | {interval(defending)} |"


def games_row(game, policy, games, seed, threads, base, rules, base_policy=None):
    won, won_base = [], []
    rates = []
    for seats in SEATINGS[game]:
        frame, seconds = timed(game, specs(game, policy, seats), games, seed, "games", threads,
                               rules)
        if base_policy:
            base, _ = timed(game, specs(game, base_policy, seats), games, seed, "games", threads,
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


def speed_row(game, policy, hands, seed, rules, seat=0):
    _, base = timed(game, ["heuristic"], hands, seed, "hands", 1, rules)
    _, seconds = timed(game, specs(game, policy, (seat,)), hands, seed, "hands", 1, rules)
    return (f"| {policy} | {hands:,} | {hands / seconds:,.2f} | "
            f"{1000 * (seconds - base) / hands:.1f} |")


def cpu_seconds(game, policy, hands, seed, rules, seat=0):
    """User+system CPU seconds of a one-thread run with ``policy`` in ``seat``."""
    import resource

    before = resource.getrusage(resource.RUSAGE_SELF)
    timed(game, specs(game, policy, (seat,)), hands, seed, "hands", 1, rules)
    after = resource.getrusage(resource.RUSAGE_SELF)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def cpu_rows(game, policies, base_policy, hands, seed, rules, seat=0):
    """CPU seconds of the search per hand (less the all-heuristic run's) of each policy and
    of ``base_policy`` in ``seat``, and each policy's ratio to the base's."""
    heuristic = cpu_seconds(game, "heuristic", hands, seed, rules)
    base = cpu_seconds(game, base_policy, hands, seed, rules, seat) - heuristic
    rows = [f"| {base_policy} | {hands:,} | {1000 * base / hands:.1f} | 1.00 |"]
    for policy in policies:
        cpu = cpu_seconds(game, policy, hands, seed, rules, seat) - heuristic
        rows.append(f"| {policy} | {hands:,} | {1000 * cpu / hands:.1f} | {cpu / base:.2f} |")
    return rows


CALL_RULES = {"first_declarer": "random"}
CALL_SPECS = {"trump, friend": ("trump={}", "friend={}"), "trump": ("trump={}",),
              "friend": ("friend={}",)}


def declarer_delta(frame: pl.DataFrame) -> np.ndarray:
    deltas = frame.select(f"delta{s}" for s in range(5)).to_numpy().astype(np.int64)
    return deltas[np.arange(frame.height), frame["declarer"].to_numpy()]


def calls_rows(policy, deals, seed, threads, base):
    """One row per searched decision set: the declarer's score change vs the heuristic calls."""
    rows = []
    for what, templates in CALL_SPECS.items():
        frame, seconds = timed("trump-friend", [t.format(policy) for t in templates], deals, seed,
                               "hands", threads, CALL_RULES)
        diffs = declarer_delta(frame) - declarer_delta(base)
        changed = ((frame["trump"] != base["trump"]) | (frame["friend_card"] != base["friend_card"]))
        rows.append(f"| {what} | {policy} | {deals:,} | {interval(diffs)} | "
                    f"{100 * changed.mean():.1f}% | {deals / seconds:,.1f} |")
    return rows


def call_speed_row(policy, hands, seed):
    _, base = timed("trump-friend", ["heuristic"], hands, seed, "hands", 1, CALL_RULES)
    out = []
    for what, templates in CALL_SPECS.items():
        _, seconds = timed("trump-friend", [t.format(policy) for t in templates], hands, seed,
                           "hands", 1, CALL_RULES)
        per_call = (seconds - base) / hands
        out.append(f"| {what} | {policy} | {hands:,} | {1000 * per_call:.1f} | {1 / per_call:,.1f} |")
    return out


def calls_tables(args):
    for policy in args.calls:  # compile (or load) the search kernels before any clock starts
        simcore.simulate("trump-friend", 2, seed=0, policy=[f"trump={policy}"], rules=CALL_RULES)
    if args.deals:
        base, _ = timed("trump-friend", ["heuristic"], args.deals, args.seed, "hands",
                        args.threads, CALL_RULES)
        print("\n| searched calls | policy | deals | declarer's score change per round vs "
              "heuristic calls (95%) | calls changed | hands/s |")
        print("| --- | --- | --- | --- | --- | --- |")
        for policy in args.calls:
            print("\n".join(calls_rows(policy, args.deals, args.seed, args.threads, base)),
                  flush=True)
    if args.call_speed:
        print("\n| searched calls (1 thread) | policy | rounds | ms per call | calls/s |")
        print("| --- | --- | --- | --- | --- |")
        for policy in args.calls:
            print("\n".join(call_speed_row(policy, args.call_speed, args.seed)), flush=True)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game", choices=sorted(SEATS))
    parser.add_argument("--policies", nargs="*", default=["pimc"])
    parser.add_argument("--calls", nargs="*", default=[],
                        help="Trump Friend: call policies (trump=P friend=P) to compare")
    parser.add_argument("--call-speed", type=int, default=0,
                        help="Trump Friend: rounds for the one-thread call speed table")
    parser.add_argument("--deals", type=int, default=300, help="hands per seating")
    parser.add_argument("--base", default=None, metavar="POLICY",
                        help="pair against POLICY in the same seats (e.g. pimc-uniform:8) "
                             "instead of heuristic everywhere")
    parser.add_argument("--games", type=int, default=0,
                        help="games per seating (Spades only, to --target)")
    parser.add_argument("--target", type=int, default=None, help="Spades: game target (SP-16)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--threads", type=int, default=None)
    parser.add_argument("--speed", type=int, default=0, help="hands for the one-thread speed table")
    parser.add_argument("--speed-seat", type=int, default=0,
                        help="the one searching seat of the speed table (default 0)")
    args = parser.parse_args(argv)
    game = args.game
    rules = {"target": args.target} if args.target and game == "spades" else None
    for policy in args.policies + ([args.base] if args.base else []):
        # compile (or load) every kernel before any clock starts
        simcore.simulate(game, 2, seed=0, policy=specs(game, policy, SEATINGS[game][0]),
                         rules=rules)
    simcore.simulate(game, 2, seed=0, policy=["heuristic"], rules=rules)
    against = f"{args.base} in the same seats" if args.base else "heuristic everywhere"
    print(f"{game}, seed {args.seed}, rules {rules or 'default'}; paired against {against}; "
          f"seatings {SEATINGS[game]}\n")
    if args.deals and args.policies:
        base_hands, _ = timed(game, ["heuristic"], args.deals, args.seed, "hands", args.threads,
                              rules)
        what = "net score" if game == "spades" else "score change"
        print(f"| policy | deals | {what} per hand vs {args.base or 'heuristic'} (95%) | "
              "hands/s |")
        print("| --- | --- | --- | --- |")
        roles = []
        for policy in args.policies:
            row, each = hands_row(game, policy, args.deals, args.seed, args.threads, base_hands,
                                  rules, args.base)
            print(row, flush=True)
            roles.append(roles_row(policy, each))
        if game == "trump-friend":
            print("\n| policy | as declarer, seat 0 (95%) | as a defender, seats 1-4 (95%) |")
            print("| --- | --- | --- |")
            print("\n".join(roles))
    if args.games and game == "spades":
        base_games, _ = timed(game, ["heuristic"], args.games, args.seed, "games", args.threads,
                              rules)
        print(f"\n| policy | games | games won (95%) | {args.base or 'heuristic'} in those seats | "
              "paired difference (95%) | games/s |")
        print("| --- | --- | --- | --- | --- | --- |")
        for policy in args.policies:
            print(games_row(game, policy, args.games, args.seed, args.threads, base_games, rules,
                            args.base), flush=True)
    if args.speed and args.base:
        print(f"\n| policy (seat {args.speed_seat} only, 1 thread) | hands | "
              f"search CPU ms per hand | vs {args.base} |")
        print("| --- | --- | --- | --- |")
        print("\n".join(cpu_rows(game, args.policies, args.base, args.speed, args.seed, rules,
                                 args.speed_seat)))
    elif args.speed:
        print(f"\n| policy (seat {args.speed_seat} only, 1 thread) | hands | hands/s | "
              "search ms per hand |")
        print("| --- | --- | --- | --- |")
        for policy in args.policies:
            print(speed_row(game, policy, args.speed, args.seed, rules, args.speed_seat), flush=True)
    if args.calls and game == "trump-friend":
        calls_tables(args)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
