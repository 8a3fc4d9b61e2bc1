"""Dummy play strength: duplicate matches to the target, one policy against another.

    .venv/bin/python scripts/strength_dummy.py                    # expert vs heuristic, 2 players, 5,000 matches a seating
    .venv/bin/python scripts/strength_dummy.py --players 2 3 4 --matches 2000 --seed 3
    .venv/bin/python scripts/strength_dummy.py --player heuristic --opponent random
    .venv/bin/python scripts/strength_dummy.py --params 30,0.5,1,2,3,0,4,1,60,1   # an expert variant

Duplicate: the same seed is played once per seating, the player in seat k (k = 0 .. players-1)
and the opponent in every other seat, so each seating plays the same deal streams (match g's
deal h is dealt from the stream (seed, g, h + 1), the first dealer from (seed, g)); a deal
comes out differently only where the policies' decisions differ.  Reported per table size: the
share of the players x ``--matches`` matches the player won (Wilson 95%, analyses.stats.wilson,
which scipy's binomtest agrees with), the same per seat, the fair share 1 / players, and the
player's mean points per deal minus the opponents' mean (t 95%, clustered by match).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np
import polars as pl

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numba as nb  # noqa: E402

import simcore  # noqa: E402
from analyses.stats import t_interval, wilson  # noqa: E402
from simcore.games.dummy.expert import PARAMS, expert_play  # noqa: E402


def expert_variant(params: tuple[float, ...]):
    """The expert with other weights (``expert.PARAMS`` order), as a user policy."""
    params = tuple(float(x) for x in params)
    if len(params) != len(PARAMS):
        raise SystemExit(f"--params needs {len(PARAMS)} numbers (expert.PARAMS), got {len(params)}")

    @nb.njit
    def play_variant(kind, seat, hand, view, acts, n, st):
        return expert_play(kind, seat, hand, view, acts, n, st, params)

    return play_variant


def duplicate(players: int, matches: int, seed: int, player="expert", opponent="heuristic",
              rules: dict | None = None) -> dict:
    """Every seating of the same seed; the player's match wins and points margin per deal."""
    wins, margins, deals = 0, [], []
    out = {"players": players, "matches": players * matches, "seed": seed}
    for seat in range(players):
        policy = {s: opponent for s in range(players)} | {seat: player}
        run = simcore.simulate("dummy", matches, seed=seed, mode="games", policy=policy,
                               rules={"players": players} | (rules or {}))
        g, h = run.games().collect(), run.hands().collect()
        won = int((g["winner"] == seat).sum())
        wins += won
        lo, hi = wilson([won], [matches])
        out[f"seat{seat}"] = (won / matches, lo[0], hi[0])
        others = [f"score{s}" for s in range(players) if s != seat]
        margin = pl.col(f"score{seat}") - pl.mean_horizontal(others)
        per_match = h.group_by("game").agg(margin.sum().alias("m"), pl.len().alias("n"))
        margins.append(per_match["m"].to_numpy())
        deals.append(per_match["n"].to_numpy())
    lo, hi = wilson([wins], [players * matches])
    out |= {"won": wins / (players * matches), "low": lo[0], "high": hi[0]}
    m, n = np.concatenate(margins).astype(float), np.concatenate(deals).astype(float)
    ratio = m.sum() / n.sum()
    resid = (m - ratio * n) / n.mean()  # ratio estimator clustered by match
    lo, hi = t_interval(ratio, resid.std(ddof=1), len(m))
    out |= {"margin": ratio, "margin_low": float(np.ravel(lo)[0]),
            "margin_high": float(np.ravel(hi)[0]), "deals": int(n.sum())}
    return out


def report(r: dict, player: str, opponent: str) -> str:
    seats = ", ".join(f"seat {s} {r[f'seat{s}'][0]:.1%}" for s in range(r["players"]))
    return (f"{r['players']} players: {player} vs {opponent}, {r['matches']:,} duplicate matches "
            f"(seed {r['seed']}, {r['deals']:,} deals): {player} won {r['won']:.1%} "
            f"(95% Wilson {r['low']:.1%}-{r['high']:.1%}; fair share {1 / r['players']:.1%}); "
            f"{seats}; margin {r['margin']:+.1f} points per deal over the opponents' mean "
            f"(95% {r['margin_low']:+.1f} to {r['margin_high']:+.1f})")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--matches", type=int, default=5000, help="matches per seating")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--players", type=int, nargs="+", default=[2])
    ap.add_argument("--player", default="expert")
    ap.add_argument("--opponent", default="heuristic")
    ap.add_argument("--params", help="comma-separated expert weights (expert.PARAMS order)")
    ap.add_argument("--rules", nargs="*", default=[], metavar="KEY=VALUE")
    args = ap.parse_args(argv)
    player = args.player
    if args.params:
        player = expert_variant(tuple(float(x) for x in args.params.split(",")))
    rules = dict(kv.split("=", 1) for kv in args.rules)
    name = f"expert[{args.params}]" if args.params else args.player
    for players in args.players:
        t = time.perf_counter()
        r = duplicate(players, args.matches, args.seed, player, args.opponent, rules)
        print(report(r, name, args.opponent), f"[{time.perf_counter() - t:.0f} s]", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
