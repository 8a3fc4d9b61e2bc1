"""Gin Rummy play strength: duplicate games to the target, one policy against another.

    .venv/bin/python scripts/strength_gin.py                      # expert vs heuristic, 20,000 games a side
    .venv/bin/python scripts/strength_gin.py --games 5000 --seed 3 --player expert --opponent random
    .venv/bin/python scripts/strength_gin.py --games 5000 --params 5,0.6,7,6,1,2,1,1,10,4,1,0,1,0,11,1000,1000   # other weights
    .venv/bin/python scripts/strength_gin.py --games 5000 --knock gin_only --opponent-knock at10 --player expert

Duplicate: the same seed is played twice in games mode, the player in seat 0 and then in seat 1
(the other seat the opponent), so both runs use the same deal streams (game g's hand h is dealt
from the stream (seed, g, h + 1); the first dealer from (seed, g)).  Reported: the share of the
2 x ``--games`` games the player won (Wilson 95%), the same per seat, and the player's net
points per hand (points won minus points lost, over every hand, void ones included; t 95%,
clustered by game so the hands of one game are not counted as independent).

Knock duels (``--knock gin_only --opponent-knock at10``): both seats play the same policy
(``--player``; ``--opponent`` is ignored) but knock by different ``knock`` decisions.  The run's
decision is the opponent's; the player is a user policy (``fixed_knock``: the built-in policy
with the view's knock threshold replaced), so the first call compiles the kernels (minutes).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
import polars as pl

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numba as nb  # noqa: E402

import simcore  # noqa: E402
from analyses.stats import t_interval, wilson  # noqa: E402
from simcore.games.gin_rummy.expert import PARAMS, expert_play  # noqa: E402
from simcore.games.gin_rummy.layout import V_KNOCK_AT  # noqa: E402
from simcore.games.gin_rummy.policies import KNOCK_POLICIES, PLAY_POLICIES, builtin_play  # noqa: E402


def fixed_knock(play_name: str, knock: str):
    """The built-in ``play_name`` policy knocking by the ``knock`` decision ``knock``, whatever
    the run's decision (a user policy: its own compile)."""
    policy_id, at = PLAY_POLICIES[play_name], KNOCK_POLICIES[knock]

    @nb.njit
    def play_fixed(kind, seat, hand, view, st):
        run_at = view[V_KNOCK_AT]
        view[V_KNOCK_AT] = at
        answer = builtin_play(policy_id, kind, seat, hand, view, st)
        view[V_KNOCK_AT] = run_at
        return answer

    return play_fixed


def expert_variant(params: tuple[float, ...]):
    """The expert with other weights (``expert.PARAMS`` order), as a user policy."""
    params = tuple(float(x) for x in params)
    if len(params) != len(PARAMS):
        raise SystemExit(f"--params needs {len(PARAMS)} numbers (expert.PARAMS), got {len(params)}")

    @nb.njit
    def play_variant(kind, seat, hand, view, st):
        return expert_play(kind, seat, hand, view, st, params)

    return play_variant


def play(games: int, seed: int, seat: int, player, opponent, rules: dict | None = None,
         decisions: dict | None = None):
    """One games-mode run with ``player`` in ``seat``: (game rows, hand rows)."""
    policy = {seat: player, 1 - seat: opponent} | (decisions or {})
    run = simcore.simulate("gin-rummy", games, seed=seed, mode="games", policy=policy,
                           rules=rules or {})
    return run.games().collect(), run.hands().collect()


def duplicate(games: int, seed: int, player="expert", opponent="heuristic",
              rules: dict | None = None, decisions: dict | None = None) -> dict:
    """Both seatings of the same seed; the player's game wins and net points per hand."""
    out = {"games": 2 * games, "seed": seed}
    wins, game_nets, game_hands = 0, [], []
    for seat in (0, 1):
        g, h = play(games, seed, seat, player, opponent, rules, decisions)
        won = int((g["winner"] == seat).sum())
        lo, hi = wilson([won], [games])
        out[f"won_seat{seat}"], out[f"seat{seat}_low"], out[f"seat{seat}_high"] = won / games, lo[0], hi[0]
        wins += won
        net = (pl.when(pl.col("winner") == seat).then(pl.col("points").cast(pl.Int64))
               .when(pl.col("winner") == 1 - seat).then(-pl.col("points").cast(pl.Int64)).otherwise(0))
        per_game = h.group_by("game").agg(net.sum().alias("net"), pl.len().alias("hands"))
        game_nets.append(per_game["net"].to_numpy())
        game_hands.append(per_game["hands"].to_numpy())
    lo, hi = wilson([wins], [2 * games])
    out |= {"won": wins / (2 * games), "won_low": lo[0], "won_high": hi[0]}
    nets, hands = np.concatenate(game_nets), np.concatenate(game_hands)
    ratio = nets.sum() / hands.sum()
    # ratio estimator clustered by game: residuals net - ratio * hands, per game
    resid = (nets - ratio * hands) / hands.mean()
    lo, hi = t_interval(ratio, resid.std(ddof=1), len(nets))
    out |= {"points_per_hand": ratio, "pph_low": float(np.ravel(lo)[0]), "pph_high": float(np.ravel(hi)[0]),
            "hands": int(hands.sum())}
    return out


def report(r: dict, player: str, opponent: str) -> str:
    return (f"{player} vs {opponent}, {r['games']:,} duplicate games to the target (seed {r['seed']}, "
            f"{r['hands']:,} hands): {player} won {r['won']:.1%} of games (95% Wilson "
            f"{r['won_low']:.1%}-{r['won_high']:.1%}); seat 0 {r['won_seat0']:.1%}, seat 1 "
            f"{r['won_seat1']:.1%}; net {r['points_per_hand']:+.2f} points per hand "
            f"(95% {r['pph_low']:+.2f} to {r['pph_high']:+.2f})")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20000, help="games per seating")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--player", default="expert")
    ap.add_argument("--opponent", default="heuristic")
    ap.add_argument("--params", help="the player is the expert with these weights (comma-separated, "
                                     "expert.PARAMS order): ablations and tuning")
    ap.add_argument("--knock", help="knock duel: the player's knock decision (e.g. gin_only)")
    ap.add_argument("--opponent-knock", default="limit", help="knock duel: the opponent's")
    args = ap.parse_args(argv)
    if args.knock:
        player = fixed_knock(args.player, args.knock)
        r = duplicate(args.games, args.seed, player, args.player, decisions={"knock": args.opponent_knock})
        print(report(r, f"{args.player} knock={args.knock}", f"{args.player} knock={args.opponent_knock}"))
        return 0
    player, name = args.player, args.player
    if args.params:
        player, name = expert_variant(args.params.split(",")), f"expert({args.params})"
    print(report(duplicate(args.games, args.seed, player, args.opponent), name, args.opponent))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
