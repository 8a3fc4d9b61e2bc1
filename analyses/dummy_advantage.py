"""Dummy: does the first player have an advantage at each table size, and what is a speto
(2♣ or Q♠, DM-7) in the hand worth?

Written against the Dummy data contract (``players``, ``dealer``, ``score0..3``, ``hand0..3``;
``starter`` where present, else the seat after the dealer, DM-5; games table ``winner``).
Table size is a rules option (``--rules players=N``), so the analysis reads one run or a
**folder of runs** (one sub-folder per table size) and pools them by ``players``.

Writes ``dummy_advantage.png``: (left) the mean deal score (DM-25, DM-26) by play position
(0 = the first player) for each table size, 95% t intervals, and in game mode the first
player's match win rate against 1/players (Wilson); (right) the mean deal score of a seat by
the spetos it was dealt (0, 1, 2), per table size; ``dummy_advantage.csv`` (by position),
``dummy_advantage_speto.csv`` (by spetos), ``dummy_advantage_games.csv`` (game mode), and
``dummy_advantage.md``.  Observational: the hands and the policies are as dealt and played.
"""

from __future__ import annotations

from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import polars as pl

from analyses import common
from analyses.stats import mean_aggs, mean_table, rate_table

NAME = "dummy_advantage"
SPETOS = (1 << 0) | (1 << (13 * 3 + 10))  # 2♣ and Q♠
MAX_SEATS = 4


def seat_rows(run: common.RunInput) -> pl.LazyFrame:
    """One row per (deal, seat in play): table size, play position, spetos dealt, deal score,
    and whether the seat had the deal's top score."""
    hands = common.one_row_per_deal(run)
    names = hands.collect_schema().names()
    starter = pl.col("starter") if "starter" in names else (pl.col("dealer") + 1) % pl.col("players")
    direction = pl.col("direction") if "direction" in names else pl.lit(1)
    top = pl.max_horizontal([pl.when(pl.col("players") > s).then(pl.col(f"score{s}")) for s in range(MAX_SEATS)])
    parts = []
    for s in range(MAX_SEATS):
        parts.append(hands.filter(pl.col("players") > s).select(
            pl.col("players").cast(pl.Int8),
            (((pl.lit(s) - starter) * direction) % pl.col("players")).cast(pl.Int8).alias("position"),
            common.count_in(pl.col(f"hand{s}"), SPETOS).alias("spetos"),
            pl.col(f"score{s}").cast(pl.Float64).alias("score"),
            (pl.col(f"score{s}") == top).alias("top_score"),
        ))
    return pl.concat(parts)


def _aggs() -> list[pl.Expr]:
    return [pl.len().alias("n"), pl.col("top_score").sum().alias("successes"), *mean_aggs(pl.col("score"), "score")]


def tables(runs: list[common.RunInput]):
    rows = pl.concat([seat_rows(r) for r in runs])
    by_pos, by_speto = pl.collect_all([
        rows.group_by("players", "position").agg(_aggs()).sort("players", "position"),
        rows.group_by("players", "spetos").agg(_aggs()).sort("players", "spetos"),
    ])
    by_pos = mean_table(rate_table(by_pos, prefix="top_rate"), "score", "score", "score_std")
    by_speto = mean_table(rate_table(by_speto, prefix="top_rate"), "score", "score", "score_std")
    games = None
    game_runs = [r for r in runs if r.manifest.get("mode") == "games"]
    if game_runs:
        parts = []
        for r in game_runs:
            hands = r.hands
            names = hands.collect_schema().names()
            starter = pl.col("starter") if "starter" in names else (pl.col("dealer") + 1) % pl.col("players")
            first = hands.filter(pl.col("hand_no") == 0).select("game", "players", starter.cast(pl.Int8).alias("first_player"))
            parts.append(r.games().join(first, on="game").group_by("players").agg(
                pl.len().alias("n"), (pl.col("winner") == pl.col("first_player")).sum().alias("successes")))
        games = pl.concat(pl.collect_all(parts)).group_by("players").agg(pl.col("n").sum(), pl.col("successes").sum())
        games = rate_table(games.sort("players"), prefix="first_player_win_rate").with_columns(
            (1 / pl.col("players").cast(pl.Float64)).alias("fair_share"))
    return by_pos, by_speto, games


def run(hands: pl.LazyFrame, manifest: dict, out: Path, data) -> list[Path]:
    return run_set([common.RunInput(Path(data), manifest, hands)], out, data)


def run_set(runs: list[common.RunInput], out: Path, data) -> list[Path]:
    by_pos, by_speto, games = tables(runs)
    manifest = common.varying(runs[0].manifest, runs, "rules", "players")
    sizes = by_pos["players"].unique().sort().to_list()
    fig, axes = plt.subplots(1, 3 if games is not None else 2, figsize=(6 * (3 if games is not None else 2), 5),
                             constrained_layout=True)
    width = 0.8 / max(len(sizes), 1)
    for i, n in enumerate(sizes):
        g = by_pos.filter(pl.col("players") == n)
        x = g["position"].to_numpy() + (i - (len(sizes) - 1) / 2) * width
        common.error_bars(axes[0], x, g, "score", "score_low", "score_high", fmt="o", label=f"{n} players")
        g = by_speto.filter((pl.col("players") == n) & (pl.col("n") >= 30))
        x = g["spetos"].to_numpy() + (i - (len(sizes) - 1) / 2) * width
        common.error_bars(axes[1], x, g, "score", "score_low", "score_high", fmt="o-", label=f"{n} players")
    axes[0].set_xlabel("play position (0 = first player, DM-5)")
    axes[0].set_ylabel("mean deal score (points, DM-25/DM-26)")
    axes[0].set_title("First player's advantage (95% t)")
    axes[1].set_xlabel("spetos dealt to the seat (2♣, Q♠; groups n ≥ 30)")
    axes[1].set_ylabel("mean deal score (points)")
    axes[1].set_title("Value of holding a speto (95% t)")
    for ax in axes[:2]:
        ax.axhline(0, color="grey", lw=0.8)
        ax.xaxis.get_major_locator().set_params(integer=True)
        ax.legend(fontsize=8)
    if games is not None:
        ax = axes[2]
        xs = np.arange(games.height)
        common.error_bars(ax, xs, games, "first_player_win_rate", "first_player_win_rate_low",
                          "first_player_win_rate_high", scale=100, fmt="o", label="first player")
        ax.scatter(xs, 100 * games["fair_share"].to_numpy(), marker="_", s=300, color="black", label="1 / players")
        ax.set_xticks(xs, [f"{n} players" for n in games["players"].to_list()])
        ax.set_ylabel("matches won by the first player (%)")
        ax.set_title("Match win rate of the first player (95% Wilson)")
        ax.legend(fontsize=8)
    n_seats = int(by_pos["n"].sum())
    common.suptitle(fig, f"Dummy: first player and spetos — {n_seats:,} seat-deals in {len(runs)} run(s); "
                    "observational", manifest)
    chart = common.save_chart(fig, out, NAME)
    written = [chart, common.write_table(by_pos, out, NAME), common.write_table(by_speto, out, f"{NAME}_speto")]
    if games is not None:
        written.append(common.write_table(games, out, f"{NAME}_games"))
    written.append(common.write_summary(
        out, NAME, "Dummy: first player's advantage and the value of a speto", chart,
        _finding(by_pos, by_speto), f"{n_seats:,} seat-deals ({', '.join(f'{n} players' for n in sizes)}) from `{data}`",
        manifest, common.command("dummy-advantage", data, out), written[1:],
        "observational; t intervals for mean deal scores, Wilson for rates"))
    return written


def _finding(by_pos: pl.DataFrame, by_speto: pl.DataFrame) -> str:
    parts = []
    for n in by_pos["players"].unique().sort().to_list():
        g = by_pos.filter(pl.col("players") == n).sort("position")
        first, rest = g.row(0, named=True), g.filter(pl.col("position") > 0)
        others = float((rest["score"] * rest["n"]).sum() / rest["n"].sum()) if rest.height else float("nan")
        s = by_speto.filter(pl.col("players") == n).sort("spetos")
        speto = ""
        if s.height >= 2 and s["spetos"][0] == 0:
            one = s.filter(pl.col("spetos") == 1)
            if one.height:
                speto = f", and a seat dealt one speto scored {one['score'][0] - s['score'][0]:+.1f} points more than one dealt none"
        parts.append(f"{n} players: the first player scored {first['score']:+.1f} points per deal (95% CI "
                     f"{first['score_low']:+.1f} to {first['score_high']:+.1f}) against {others:+.1f} for the "
                     f"others{speto}")
    return "; ".join(parts) + "."


def level_claims(out: Path) -> list:
    """The answers compared across levels of play (``analyses.levels``), from this level's tables."""
    from analyses.levels import difference, interval_claim, pooled

    by_pos = pl.read_csv(out / f"{NAME}.csv")
    by_speto = pl.read_csv(out / f"{NAME}_speto.csv")
    claims = []
    for n in by_pos["players"].unique().sort().to_list():
        g = by_pos.filter(pl.col("players") == n)
        first, rest = g.filter(pl.col("position") == 0), g.filter(pl.col("position") > 0)
        if first.height and rest.height:
            m, s, k = pooled(rest["n"], rest["score"], rest["score_std"])
            d, lo, hi = difference(first["score"][0], first["score_std"][0], int(first["n"][0]), m, s, k)
            claims.append(interval_claim(f"{n} players: the first player's deal score minus the others'", d, lo, hi,
                                         "the first player scores less", "the first player scores more",
                                         "no significant first-player advantage", "points per deal", int(g["n"].sum())))
        s = by_speto.filter(pl.col("players") == n)
        none, one = s.filter(pl.col("spetos") == 0), s.filter(pl.col("spetos") == 1)
        if none.height and one.height and one["n"][0] >= 30:
            d, lo, hi = difference(one["score"][0], one["score_std"][0], int(one["n"][0]),
                                   none["score"][0], none["score_std"][0], int(none["n"][0]))
            claims.append(interval_claim(f"{n} players: a seat dealt one speto instead of none, deal score", d, lo, hi,
                                         "a speto costs points", "a speto is worth points",
                                         "a speto makes no significant difference", "points per deal",
                                         int(none["n"][0] + one["n"][0])))
    return claims
