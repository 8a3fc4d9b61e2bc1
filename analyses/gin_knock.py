"""Gin Rummy: how does the knock threshold change the game win rate, and does the first
player have an advantage?

The ``knock`` decision (``--policy knock=atN``) is one setting for every heuristic seat, so
one run cannot compare two thresholds.  The analysis therefore reads a **folder of runs**
(``--data DIR`` where each sub-folder is a run), one run per threshold; a run whose seat 0
plays a fixed user policy (``scripts/make_results.py`` uses "heuristic, knock as soon as
legal") against the heuristic seat 1 on the run's ``knock`` threshold measures that
threshold against a fixed opponent.  Runs with the same seed deal the same cards (common
random numbers), which narrows the differences between thresholds.

It also reads a single run: then it reports the first player's advantage (the non-dealer of
the game's first hand, GR-5, GR-7) and, for a ``--what-if knock`` run (``option`` column),
seat 0's net points per hand under each option, paired by deal.

Writes ``gin_knock.png``, ``gin_knock.csv`` (one row per run: threshold, game (or hand) win
rate of each seat and of the first player, Wilson intervals, mean points per hand with t
intervals), ``gin_knock_whatif.csv`` for what-if runs, and ``gin_knock.md``.
"""

from __future__ import annotations

from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import polars as pl

from analyses import common
from analyses.stats import mean_aggs, mean_table, rate_table

NAME = "gin_knock"


def threshold(manifest: dict) -> int:
    """The run's knock threshold in deadwood points: gin_only = 0, atN = N, limit = the rule."""
    knock = manifest["policies"].get("knock", "limit")
    limit = int(manifest["rules"].get("knock_limit", 10))
    if knock == "gin_only":
        return 0
    if knock.startswith("at"):
        return min(int(knock[2:]), limit)
    return limit


def knock_seats(manifest: dict) -> list[int]:
    """The seats the ``knock`` decision steers (heuristic play policy)."""
    return [s for s, p in enumerate(manifest["policies"]["seats"]) if p == "heuristic"]


def run_row(run: common.RunInput) -> dict:
    """One run's outcome counts (games mode: games; hands mode: hands not void)."""
    m = run.manifest
    row = {"run": run.path.name, "knock": m["policies"].get("knock", "limit"), "threshold": threshold(m),
           "seat0_policy": m["policies"]["seats"][0], "seat1_policy": m["policies"]["seats"][1],
           "mode": m["mode"], "seed": m["seed"]}
    hands = common.one_row_per_deal(run)
    net0 = (pl.when(pl.col("winner") == 0).then(pl.col("points")).when(pl.col("winner") == 1)
            .then(-pl.col("points")).otherwise(0)).cast(pl.Float64)
    per_hand = hands.select(pl.len().alias("hands"), (pl.col("winner") >= 0).sum().alias("decided"),
                            (pl.col("winner") == 0).sum().alias("hands_won0"),
                            *mean_aggs(net0, "points0")).collect().row(0, named=True)
    row.update(per_hand)
    if m["mode"] == "games":
        first = (hands.filter(pl.col("hand_no") == 0)
                 .select("game", (1 - pl.col("dealer")).cast(pl.Int8).alias("first_player")))
        g = (run.games().join(first, on="game", how="left")
             .select(pl.len().alias("n"), (pl.col("winner") == 0).sum().alias("wins0"),
                     (pl.col("winner") == 1).sum().alias("wins1"),
                     (pl.col("winner") == pl.col("first_player")).sum().alias("first_wins"))
             .collect().row(0, named=True))
        row.update(unit="games", **g)
    else:
        non_dealer = (hands.filter(pl.col("winner") >= 0)
                      .select(pl.len().alias("n"), (pl.col("winner") == 0).sum().alias("wins0"),
                              (pl.col("winner") == 1).sum().alias("wins1"),
                              (pl.col("winner") != pl.col("dealer")).sum().alias("first_wins"))
                      .collect().row(0, named=True))
        row.update(unit="hands", **non_dealer)
    return row


def table(runs: list[common.RunInput]) -> pl.DataFrame:
    t = pl.DataFrame([run_row(r) for r in runs]).sort("threshold", "run")
    t = rate_table(t, "wins0", "n", "win_rate0")
    t = rate_table(t, "wins1", "n", "win_rate1")
    t = rate_table(t, "first_wins", "n", "first_player_rate")
    return mean_table(t.rename({"hands": "n_hands"}), "points0", "points0", "points0_std", "n_hands")


def whatif_table(hands: pl.LazyFrame) -> pl.DataFrame:
    """Seat 0's net points per hand under each option, and the paired change against the
    first option (same deal)."""
    net0 = (pl.when(pl.col("winner") == 0).then(pl.col("points")).when(pl.col("winner") == 1)
            .then(-pl.col("points")).otherwise(0)).cast(pl.Float64)
    rows = hands.select("deal", "option", net0.alias("net0"))
    first = hands.select(pl.col("option").first()).collect().item()
    base = rows.filter(pl.col("option") == first).select("deal", pl.col("net0").alias("base"))
    t = (rows.join(base, on="deal").group_by("option", maintain_order=True)
         .agg(pl.len().alias("n"), *mean_aggs(pl.col("net0"), "points0"),
              *mean_aggs(pl.col("net0") - pl.col("base"), "change")).collect())
    t = mean_table(t, "points0", "points0", "points0_std")
    return mean_table(t, "change", "change", "change_std").with_columns(pl.lit(first).alias("baseline"))


def run(hands: pl.LazyFrame, manifest: dict, out: Path, data) -> list[Path]:
    return run_set([common.RunInput(Path(data), manifest, hands)], out, data)


def run_set(runs: list[common.RunInput], out: Path, data) -> list[Path]:
    t = table(runs)
    manifest = common.varying(runs[0].manifest, runs, "policies", "knock")
    several = t.height > 1
    wi = common.what_if(runs[0]) if not several else None
    unit = t["unit"][0]
    fig, axes = plt.subplots(1, 2, figsize=(12, 5), constrained_layout=True)
    x = t["threshold"].to_numpy()
    ax = axes[0]
    if several:
        seats = sorted({s for r in runs for s in knock_seats(r.manifest)})
        for s in seats or [0]:
            common.error_bars(ax, x, t, f"win_rate{s}", f"win_rate{s}_low", f"win_rate{s}_high", scale=100,
                              fmt="o-", label=f"seat {s} ({t[f'seat{s}_policy'][0]}, knocks at the threshold)")
        others = [s for s in (0, 1) if s not in seats]
        for s in others:
            ax.plot(x, 100 * t[f"win_rate{s}"].to_numpy(), ls=":", color="grey",
                    label=f"seat {s} ({t[f'seat{s}_policy'][0]}, fixed)")
        ax.axhline(50, color="grey", lw=0.8)
        ax.set_xlabel("knock threshold of the heuristic seat (deadwood points; 0 = gin only)")
        ax.set_ylabel(f"{unit} won (%)")
        ax.set_title(f"{unit.capitalize()[:-1]} win rate by knock threshold (95% Wilson)")
        ax.legend(fontsize=8)
    else:
        bars = [("seat 0", "win_rate0"), ("seat 1", "win_rate1"), ("first player", "first_player_rate")]
        xs = np.arange(len(bars))
        vals = [100 * t[c][0] for _, c in bars]
        ax.bar(xs, vals, color=["#4C72B0", "#55A868", "#C44E52"])
        for i, (_, c) in enumerate(bars):
            common.error_bars(ax, [i], t, c, f"{c}_low", f"{c}_high", scale=100, fmt="none", ecolor="black")
        ax.set_xticks(xs, [b for b, _ in bars])
        ax.axhline(50, color="grey", lw=0.8)
        ax.set_ylabel(f"{unit} won (%)")
        ax.set_title(f"Who wins, knock={t['knock'][0]} (95% Wilson; n = {t['n'][0]:,} {unit})")
    ax = axes[1]
    if wi:
        w = whatif_table(runs[0].hands)
        xs = np.arange(w.height)
        common.error_bars(ax, xs, w, "change", "change_low", "change_high", fmt="o", color="#C44E52")
        ax.set_xticks(xs, w["option"].to_list(), rotation=30, fontsize=8)
        ax.axhline(0, color="grey", lw=0.8)
        ax.set_xlabel(f"what-if knock option (paired against '{w['baseline'][0]}')")
        ax.set_ylabel("change in seat 0's net points per hand")
        ax.set_title("What-if knock, paired by deal (95% t)")
    else:
        w = None
        common.error_bars(ax, x if several else [0], t, "first_player_rate", "first_player_rate_low",
                          "first_player_rate_high", scale=100, fmt="o-", color="#C44E52")
        ax.axhline(50, color="grey", lw=0.8)
        if several:
            ax.set_xlabel("knock threshold of the heuristic seat (deadwood points)")
        else:
            ax.set_xticks([0], [f"knock={t['knock'][0]}"])
        ax.set_ylabel(f"{unit} won by the first player (non-dealer of hand 1) (%)")
        ax.set_title("First player's advantage (95% Wilson)")
    total = int(t["n"].sum())
    mode = (f"what-if knock (paired) on one run" if wi else
            f"{t.height} runs, one per threshold, seeds {sorted(set(t['seed'].to_list()))}" if several
            else "one run (observational)")
    common.suptitle(fig, f"Gin Rummy: knock threshold and first player — {total:,} {unit}; {mode}", manifest)
    chart = common.save_chart(fig, out, NAME)
    written = [chart, common.write_table(t, out, NAME)]
    if w is not None:
        written.append(common.write_table(w, out, f"{NAME}_whatif"))
    finding = _finding(t, runs, several, unit)
    written.append(common.write_summary(
        out, NAME, "Gin Rummy: knock threshold and first player's advantage", chart, finding,
        f"{total:,} {unit} in {t.height} run(s) from `{data}`", manifest,
        common.command("gin-knock", data, out), written[1:],
        f"{mode}; Wilson intervals for win rates, t intervals for points per hand"))
    return written


def _finding(t: pl.DataFrame, runs, several: bool, unit: str) -> str:
    first_n, first_w = int(t["n"].sum()), int(t["first_wins"].sum())
    from analyses.stats import wilson

    lo, hi = wilson([first_w], [first_n])
    first = (f"the first player won {common.pct(first_w / first_n)} of {first_n:,} {unit} "
             f"(95% CI {common.pct(lo[0])}–{common.pct(hi[0])})")
    if not several:
        return f"With knock={t['knock'][0]}, {first}."
    seats = sorted({s for r in runs for s in knock_seats(r.manifest)}) or [0]
    s = seats[-1]
    best = t.sort(f"win_rate{s}", descending=True).row(0, named=True)
    worst = t.sort(f"win_rate{s}").row(0, named=True)
    def at(row):
        return "gin only" if row["threshold"] == 0 else f"deadwood ≤ {row['threshold']}"

    return (f"Seat {s} ({best[f'seat{s}_policy']}) won most often knocking at {at(best)} "
            f"({common.pct(best[f'win_rate{s}'])}, 95% CI {common.pct(best[f'win_rate{s}_low'])}–"
            f"{common.pct(best[f'win_rate{s}_high'])}) and least at {at(worst)} "
            f"({common.pct(worst[f'win_rate{s}'])}); over all runs {first}.")
