"""Euchre, open-handed: what ordering up and going alone are worth when every seat plays
perfectly with every card seen.

Reads a Euchre **solve** run (``simcore solve euchre``: per deal the tricks seats 0+2 take with
each trump suit t, ``dd_t{t}``, and those of each seat s alone, ``dd_alone{s}_t{t}``; the dealer
picks the upcard up when t is its suit; docs/schema.md) and asks of every seat of every deal:
were it the maker of the upcard's suit, what would its side score?

- ``euchre_dd_order.png``: the makers' net points a hand (EU-16, EU-17: +1, +2 for a march, −2
  euchred) **if this seat orders up**, by its place after the dealer and the trumps it would
  hold (an absolute value: what ordering up scores, not ordering up against passing, which needs
  the rest of the bidding and has no open-hand value here);
- ``euchre_dd_order_alone.png``: going alone − playing with the partner on the same deal
  (EU-18: +4 for a lone march), paired, by place and trumps;
- tables ``euchre_dd_order.csv`` (per place × trumps × bowers and per place × trumps).

As the open-hand level of euchre-makers its claims are the paired alone − partner values under
euchre-makers' keys (per place and trumps, ordered up): the same quantity, so the levels pair
on the deals they share.  Open-hand values are those of perfect play by every seat, the
defenders included: real play can score more or less.
"""

from __future__ import annotations


import polars as pl

from analyses import common
from analyses.euchre_makers import MARGIN, PLACES, PRIORITY, hand_features
from analyses.levels import mean_claim
from analyses.stats import grouped_means
from simcore.errors import SimcoreError
from simcore.frames import bit_of
from simcore.games.euchre.scoring import maker_points

NAME = "euchre_dd_order"
LEVELS = True
SOLVE_RUNS = True
CAVEAT = "open-hand: every seat plays perfectly with every card seen"




def seat_frame(hands: pl.LazyFrame) -> pl.DataFrame:
    """One row per (deal, seat) as the would-be maker of the upcard's suit: place, trumps,
    bowers, off-suit aces, points with the partner and alone."""
    parts = []
    for s in range(4):
        dealer = pl.col("dealer") == s
        hand = pl.col(f"hand{s}")
        with_pickup = pl.when(dealer).then(hand | bit_of(pl.col("upcard"))).otherwise(hand)
        suit = (pl.col("upcard") // 13).cast(pl.Int64)
        feats = hand_features(with_pickup, suit)
        side = pl.coalesce([pl.when(suit == t).then(pl.col(f"dd_t{t}")) for t in range(4)])
        side = side if s % 2 == 0 else 5 - side
        alone = pl.coalesce([pl.when(suit == t).then(pl.col(f"dd_alone{s}_t{t}")) for t in range(4)])
        parts.append(hands.select(
            "deal", ((s - pl.col("dealer")) % 4).replace(0, 4).cast(pl.Int8).alias("place"),
            feats["trumps"].clip(0, 5).alias("trumps"), feats["bowers"].alias("bowers"),
            feats["aces"].clip(upper_bound=2).alias("aces"),
            maker_points(side, 2).alias("points"), maker_points(alone, 4).alias("alone_points")))
    return pl.concat(parts).with_columns((pl.col("alone_points") - pl.col("points")).alias("change")).collect()


def analyse(runs: list, data, asked_by: str | None = None) -> common.Analysis:
    solved = [r for r in runs if r.solved]
    if len(solved) != 1 or "dd_t0" not in solved[0].hands.collect_schema().names():
        raise SimcoreError(f"euchre-dd-order reads a `simcore solve euchre` run (DD tables); {data} is not one: use "
                           "euchre-makers for simulate runs")
    run = solved[0]
    seats = seat_frame(run.hands)
    n = seats["deal"].n_unique()
    table = pl.concat([grouped_means(seats, ["place", "trumps", "bowers"], ["points", "change"]),
                       grouped_means(seats, ["place", "trumps"], ["points", "change"]).with_columns(
                           pl.lit(None, pl.Int8).alias("bowers"))], how="diagonal_relaxed").sort(
        "place", "trumps", "bowers", nulls_last=True).with_columns(
        pl.col("place").replace_strict(PLACES, return_dtype=pl.String).alias("seat"))
    claims = []
    for place in sorted(seats["place"].unique().to_list()):
        for t in (2, 3, 4, 5):
            g = seats.filter((pl.col("place") == place) & (pl.col("trumps") == t))
            if g.height:
                claims.append(mean_claim(f"eu.alone.{place}.t{t}",
                                         f"Going alone instead of with the partner (ordered up): {PLACES[place]}, "
                                         f"{t} trumps", g["change"].to_numpy(), "net points a hand",
                                         ("play with the partner", "go alone", "the same"), MARGIN,
                                         deals=g["deal"].to_numpy(), caveat=CAVEAT, group="eu.alone",
                                         priority=PRIORITY["alone"].index(t)))
    level = common.level_text(run.manifest)
    pooled = common.shown(table.filter(pl.col("bowers").is_null()))
    note = (f"{level}; rules {common.rules_text(run.manifest)}; {n:,} deals × 4 seats as the would-be maker of the "
            f"upcard's suit. Trumps count the left bower; the dealer's include the upcard. Groups of n < "
            f"{common.MIN_N} not drawn.")
    figures = {}
    fig = common.figure([_lines(pooled, "points", "makers' net points a hand if this seat orders up")],
                        "Open-handed: what ordering up scores, by the seat's place and trumps (absolute, not against "
                        "passing)", note)
    if fig is not None:
        figures[NAME] = fig
    fig = common.figure([_lines(pooled, "change", "alone − with the partner, net points a hand")],
                        "Open-handed: going alone against playing with the partner on the same deal (paired)", note)
    if fig is not None:
        figures[f"{NAME}_alone"] = fig
    thresholds = []
    for place in sorted(PLACES):
        g = pooled.filter(pl.col("place") == place).sort("trumps")
        start = None
        for t, lo in zip(reversed(g["trumps"].to_list()), reversed(g["change_low"].to_list())):
            if lo is None or not lo > 0:
                break
            start = t
        thresholds.append(f"{PLACES[place]} from {start} trumps" if start is not None else f"{PLACES[place]} never")
    answer = (f"Open-handed (perfect play by every seat, n = {n:,} deals), going alone beats playing with the partner "
              f"(paired, 95% interval above zero): {'; '.join(thresholds)}.")
    return common.Analysis(
        name="euchre-dd-order", stem=NAME, title="Euchre, open-handed: ordering up and going alone",
        answer=answer, tables={NAME: table}, figures=figures, claims=claims,
        sample=f"{n:,} deals from `{run.path}`", level=level, rules=common.rules_text(run.manifest),
        method="open-hand DD tables (simcore solve euchre); every seat as the would-be maker of the upcard's suit "
               "(the dealer after its best pickup); points by EU-16 … EU-18, defenders never alone; t intervals, "
               "alone − partner paired per deal")


def _lines(pooled: pl.DataFrame, column: str, ylabel: str) -> common.Panel:
    colours = {1: "#C44E52", 2: "#55A868", 3: "#8172B2", 4: "#4C72B0"}

    def draw(ax):
        for place, label in PLACES.items():
            g = pooled.filter(pl.col("place") == place).sort("trumps")
            if g.height < 2:  # a lone point is not a line
                continue
            common.error_bars(ax, g["trumps"].to_numpy() + (place - 2.5) * 0.05, g, column, f"{column}_low",
                              f"{column}_high", fmt="o-", ms=3, color=colours[place], label=label)
        ax.axhline(0, color="grey", lw=0.8)
        common.integer_ticks(ax)
        ax.set_xlabel("trumps the seat would hold (the left bower counts)")
        ax.set_ylabel(ylabel)
        ax.legend(fontsize=7)

    return common.Panel("By the seat's place after the dealer (95% t)", pooled.height, draw)


