"""Dummy: how much is the first turn worth at each table size, and what is a speto (2♣ or Q♠,
DM-7) in the hand worth?

Reads one run or a **folder of runs** (one per table size, ``--rules players=N``).  Per seat
of every deal (``simcore.seat_rows``): its play position (0 = the first player, DM-5), the
spetos it was dealt, its deal score (DM-25, DM-26) and the points it held in hand at the end.

- **The first turn** (``dummy_advantage.png``): per deal, the first player's score minus the
  mean of the others' — a paired contrast within the deal, so n counts deals — by table size.
- **A speto** (``dummy_advantage_speto.png``): the score of seats dealt one speto minus seats
  dealt none, by table size, with intervals clustered by deal.  **Observational**: a seat
  dealt a speto also plays it by its policy (the heuristic melds spetos and never discards
  them; the expert keeps them back, letting one that melds with nothing go late in the deal at
  3 or 4 players, and can be caught holding them: their 50 points then count against it), so
  the figure mixes the card with the policy's handling of it.  The end-of-deal
  points held in hand by speto holders show that handling.  A paired what-if (the same deal
  with the speto swapped for another card) needs the Dummy engine to deal preset decks, which
  it does not yet.
"""

from __future__ import annotations

import numpy as np
import polars as pl

from analyses import common
from analyses.levels import Claim, deal_identity, mean_claim
from analyses.stats import cluster_difference, cluster_means, grouped_means
from simcore.errors import SimcoreError
from simcore.frames import seat_rows

NAME = "dummy_advantage"
LEVELS = True
SEVERAL_RUNS = True
SPETOS = "2C QS"
MARGIN = 2.0  # points a deal
CAUSE = ("observational: the speto holder's policy decides when to meld it or hold it (a paired what-if needs the "
         "Dummy engine to deal preset decks)")


def seat_frame(run: common.RunInput) -> pl.DataFrame:
    """One row per (deal, seat in play): table size, position, spetos dealt, score, points in hand."""
    hands = common.one_row_per_deal(run)
    names = hands.collect_schema().names()
    if "starter" not in names:
        hands = hands.with_columns(((pl.col("dealer") + 1) % pl.col("players")).alias("starter"))
    if "direction" not in names:
        hands = hands.with_columns(pl.lit(1, pl.Int8).alias("direction"))
    seats = seat_rows(hands.select("deal", "players", "starter", "direction",
                                   *[f"{c}{s}" for c in ("hand", "score", "inhand") for s in range(4)]), n_seats=4)
    return seats.select(
        "deal", pl.col("players").cast(pl.Int8),
        (((pl.col("seat").cast(pl.Int16) - pl.col("starter")) * pl.col("direction")) % pl.col("players"))
        .cast(pl.Int8).alias("position"),
        pl.col("hand").cards.count(SPETOS).alias("spetos"), pl.col("score").cast(pl.Float64).alias("score"),
        pl.col("inhand").cast(pl.Float64).alias("inhand")).collect()


def analyse(runs: list, data) -> common.Analysis:
    frames = {}
    for r in runs:
        if r.manifest.get("game") != "dummy":
            raise SimcoreError(f"dummy-advantage needs dummy runs; {r.path} is {r.manifest.get('game')}")
        f = seat_frame(r)
        for n in f["players"].unique().to_list():
            if n in frames:
                raise SimcoreError(f"two runs in {data} have {n} players: give one run per table size")
            frames[n] = (r, f.filter(pl.col("players") == n))
    sizes = sorted(frames)
    claims, first_rows, speto_rows, by_position = [], [], [], []
    for n in sizes:
        run, f = frames[n]
        ident = deal_identity(run.manifest)
        first = f.filter(pl.col("position") == 0).select("deal", pl.col("score").alias("first"))
        others = f.filter(pl.col("position") > 0).group_by("deal").agg(pl.col("score").mean().alias("others"))
        per = first.join(others, on="deal").with_columns((pl.col("first") - pl.col("others")).alias("change")).sort("deal")
        c = mean_claim(f"dm.first.{n}", f"The first player's deal score minus the others' mean: {n} players",
                       per["change"].to_numpy(), "points a deal",
                       ("the first turn costs points", "the first turn is worth points", "the first turn is worth nothing"),
                       MARGIN, deals=per["deal"].to_numpy(), caveat="every seat plays the same policy",
                       identity=ident, group="dm.first")
        claims.append(c)
        first_rows.append({"players": n, "n": c.n, "change": c.value, "change_low": c.low, "change_high": c.high})
        by_position.append(grouped_means(f, ["players", "position"], ["score"]))
        d, lo, hi, g = cluster_difference(f["score"].to_numpy(), (f["spetos"] == 1).to_numpy(),
                                          (f["spetos"] == 0).to_numpy(), f["deal"].to_numpy())
        claims.append(Claim(f"dm.speto.{n}", f"A seat dealt one speto instead of none (observational): {n} players",
                            d, lo, hi, g, "points a deal", ("a speto costs points", "a speto is worth points",
                                                            "a speto is worth nothing"), MARGIN,
                            std=(hi - lo) / 3.92 * np.sqrt(g) if np.isfinite(hi - lo) else float("nan"),
                            caveat=CAUSE, identity=ident, group="dm.speto"))
        held = cluster_means(f, ["spetos"], "score").join(
            cluster_means(f, ["spetos"], "inhand").drop("n", "deals"), on="spetos").with_columns(pl.lit(n).alias("players"))
        speto_rows.append(held.with_columns(pl.lit(d).alias("one_minus_none"), pl.lit(lo).alias("one_minus_none_low"),
                                            pl.lit(hi).alias("one_minus_none_high")))
    first_table = pl.DataFrame(first_rows)
    speto_table = pl.concat(speto_rows, how="diagonal_relaxed").select("players", "spetos", pl.exclude("players", "spetos"))
    position_table = pl.concat(by_position)
    m = frames[sizes[0]][0].manifest
    level = common.level_text(m)
    changed = {k: v for k, v in common.changed_rules(m).items() if k != "players"}
    rules = ("defaults" + (" except " + ", ".join(f"{k}={v}" for k, v in changed.items()) if changed else "")
             + f"; players={'/'.join(map(str, sizes))}; seed {m.get('seed')}")
    note = f"{level}; rules {rules}; {sum(frames[n][1]['deal'].n_unique() for n in sizes):,} deals."
    figures = {}
    fig = common.figure([_first_panel(first_table), _position_panel(position_table)],
                        "Dummy: how much is the first turn worth? (the first player's deal score against the others')",
                        note + " Left: paired within each deal, n in deals.")
    if fig is not None:
        figures[NAME] = fig
    fig = common.figure([_speto_panel(speto_table, "score", "deal score"),
                         _speto_panel(speto_table, "inhand", "points held in hand at the end")],
                        "Dummy: what is a speto worth? (observational: the seats dealt one, as their policy played it)",
                        note + " " + CAUSE[0].upper() + CAUSE[1:] + ". Intervals clustered by deal.")
    if fig is not None:
        figures[f"{NAME}_speto"] = fig
    by = {c.key: c for c in claims}
    answer = ("The first turn, per deal against the others (paired): " + "; ".join(
        f"{n} players {by[f'dm.first.{n}'].estimate()} ({by[f'dm.first.{n}'].verdict})" for n in sizes) + ". "
              "A speto dealt, observational: " + "; ".join(
        f"{n} players {by[f'dm.speto.{n}'].estimate()}" for n in sizes) + " points a deal, which mixes the card with "
              "how the policy plays it.")
    return common.Analysis(
        name="dummy-advantage", stem=NAME, title="Dummy: the first turn and a speto", answer=answer,
        tables={NAME: first_table, f"{NAME}_position": position_table, f"{NAME}_speto": speto_table},
        figures=figures, claims=claims,
        sample=", ".join(f"{n} players: {frames[n][1]['deal'].n_unique():,} deals" for n in sizes) + f" from `{data}`",
        level=level, rules=rules,
        method="per-seat rows (simcore.seat_rows); the first player against the others' mean paired per deal (t, n in "
               "deals); a speto: seats dealt one against seats dealt none, the difference of means with an interval "
               "clustered by deal (observational)")


def _first_panel(t: pl.DataFrame) -> common.Panel:
    def draw(ax):
        x = np.arange(t.height)
        common.error_bars(ax, x, t, "change", "change_low", "change_high", fmt="o", color="#4C72B0")
        ax.axhline(0, color="grey", lw=0.8)
        ax.set_xticks(x, [f"{p} players\nn = {k:,}" for p, k in zip(t["players"], t["n"])])
        ax.set_ylabel("first player − others' mean (points a deal)")

    return common.Panel("The first player against the others, paired per deal (95% t)", t.height, draw)


def _position_panel(t: pl.DataFrame) -> common.Panel:
    sizes = sorted(t["players"].unique().to_list())

    def draw(ax):
        width = 0.8 / max(len(sizes), 1)
        for i, n in enumerate(sizes):
            g = t.filter(pl.col("players") == n).sort("position")
            common.error_bars(ax, g["position"].to_numpy() + (i - (len(sizes) - 1) / 2) * width, g, "score",
                              "score_low", "score_high", fmt="o", label=f"{n} players")
        common.integer_ticks(ax)
        ax.set_xlabel("play position (0 = the first player)")
        ax.set_ylabel("mean deal score (points)")
        ax.legend(fontsize=7)

    return common.Panel("Mean deal score by play position (95% t)", t.height, draw)


def _speto_panel(t: pl.DataFrame, column: str, label: str) -> common.Panel:
    g = common.shown(t)
    sizes = sorted(g["players"].unique().to_list())

    def draw(ax):
        for i, n in enumerate(sizes):
            s = g.filter(pl.col("players") == n).sort("spetos")
            if s.height < 2:  # a lone point is not a line
                continue
            common.error_bars(ax, s["spetos"].to_numpy() + (i - 1) * 0.05, s, column, f"{column}_low",
                              f"{column}_high", fmt="o-", ms=3, label=f"{n} players")
        common.integer_ticks(ax)
        ax.set_xlabel("spetos dealt to the seat (2♣, Q♠)")
        ax.set_ylabel(f"mean {label}")
        ax.legend(fontsize=7)

    return common.Panel(f"Mean {label} by spetos dealt (95%, clustered by deal)", g.height, draw)
