"""Spades: how many tricks does a bid take?

Reads a Spades hands run (ordinary, or a what-if run: its rows of the option ``bid`` then) and
asks of every numeric bid (not nil, not blind) how many tricks the bidder took: the bid is a
forecast, so tricks − bid says whether a level's bidder overbids (below zero) or underbids.
The bids are those of each seat's own bid policy: a searching seat (``pimc``) bids by its
search, a heuristic seat by the heuristic (``--policy bid=...`` overrides it for every seat).

- ``spades_bids.png``: (a) tricks taken against the bid (the share of each bid's seats taking
  each number of tricks); (b) tricks − bid and the share of bids made by bid;
- ``spades_bids_by_bid.csv``, ``spades_bids_heatmap.csv``, ``spades_bids_sides.csv`` (per
  contract of a side with two numeric bids: tricks − contract), ``spades_bids_nil.csv`` (the nil
  bids the policies chose, observational: how many succeed, by spades held).

The four seats of a deal are not independent, so every interval is clustered by deal and n
counts deals (``analyses.stats.cluster_means``).
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import polars as pl

from analyses import common
from analyses.common import upper_first
from analyses.levels import cluster_claim, rate_claim
from analyses.stats import cluster_means, rate_table
from simcore.errors import SimcoreError
from simcore.frames import seat_rows

NAME = "spades_bids"
LEVELS = True
SEARCH = ("pimc", "dd")
MARGIN = 0.25  # tricks: "the same" within a quarter trick
# questions the open-hand level (spades-dd-bids beside a simulate run) answers under the same key
SIDE_WORDS = ("sides take fewer tricks than their contract", "sides take more tricks than their contract",
              "sides take their contract")
NIL_WORDS = ("most nil bids fail", "most nil bids succeed", "about half succeed")


def bid_policy(manifest: dict, seat: int) -> str:
    """The policy that makes a seat's bid: a searching seat bids by its search; otherwise the
    ``bid`` decision (``seat``: as the seat plays; user play policies bid heuristic)."""
    pol = manifest.get("policies", {})
    play = str(pol.get("seats", ["heuristic"] * 4)[seat])
    if play.split(":")[0] in SEARCH:
        return play
    bid = pol.get("bid", "seat")
    if bid != "seat":
        return str(bid)
    return "heuristic" if play.startswith("user") else play


def bidders_text(manifest: dict) -> str:
    names = [bid_policy(manifest, s) for s in range(4)]
    return names[0] if len(set(names)) == 1 else "/".join(names)


def seat_frame(hands: pl.LazyFrame) -> pl.LazyFrame:
    """One row per (deal, seat): bid, blind, tricks, the hand bid on (``dealt`` when present:
    before a blind nil exchange) and its spades."""
    names = hands.collect_schema().names()
    cols = ["hand", "bid", "blind", "tricks"] + (["dealt"] if "dealt0" in names else [])
    rows = seat_rows(hands.select("deal", "dealer", *(["option"] if "option" in names else []),
                                  *[f"{c}{s}" for c in cols for s in range(4)]), columns=cols)
    hand = pl.col("dealt") if "dealt0" in names else pl.col("hand")
    return rows.with_columns(hand.cards.length("S").alias("spades"))


def natural(hands: pl.LazyFrame) -> pl.LazyFrame:
    """The rows of the run's own decisions: a what-if run's option that is not forced (``bid``)."""
    if "option" not in hands.collect_schema().names():
        return hands
    options = common.options_of(hands)
    return hands.filter(pl.col("option") == ("bid" if "bid" in options else options[-1]))


def tables(hands: pl.LazyFrame) -> dict[str, pl.DataFrame]:
    seats = seat_frame(natural(hands))
    numeric = seats.filter((pl.col("bid") > 0) & ~pl.col("blind")).with_columns(
        (pl.col("tricks") - pl.col("bid")).cast(pl.Float64).alias("over"),
        (pl.col("tricks") >= pl.col("bid")).cast(pl.Float64).alias("made")).collect()
    by_bid = cluster_means(numeric, ["bid"], "over").join(
        cluster_means(numeric, ["bid"], "made").drop("n", "deals"), on="bid").with_columns(
        pl.col("made_low").clip(0, 1), pl.col("made_high").clip(0, 1))  # a share stays in [0, 1]
    heat = (numeric.group_by("bid", "tricks").agg(pl.len().alias("count")).sort("bid", "tricks")
            .with_columns((pl.col("count") / pl.col("count").sum().over("bid")).alias("share")))
    sides = []
    for a in (0, 1):
        b = a + 2
        sides.append(natural(hands).filter((pl.col(f"bid{a}") > 0) & (pl.col(f"bid{b}") > 0) & ~pl.col(f"blind{a}")
                                           & ~pl.col(f"blind{b}")).select(
            "deal", (pl.col(f"bid{a}") + pl.col(f"bid{b}")).cast(pl.Int16).alias("contract"),
            (pl.col(f"tricks{a}") + pl.col(f"tricks{b}") - pl.col(f"bid{a}") - pl.col(f"bid{b}"))
            .cast(pl.Float64).alias("over_contract")))
    side_rows = pl.concat(sides).collect()
    nil = seats.filter((pl.col("bid") == 0) & ~pl.col("blind")).with_columns(
        (pl.col("tricks") == 0).alias("held")).collect()
    nil_table = rate_table(pl.concat([
        nil.group_by(pl.col("spades").cast(pl.Int16).alias("spades")).agg(pl.len().alias("n"),
                                                                           pl.col("held").sum().alias("successes")),
        nil.select(pl.lit(None, pl.Int16).alias("spades"), pl.len().alias("n"), pl.col("held").sum().alias("successes"))
    ]).sort("spades", nulls_last=True))
    return {"numeric": numeric, "by_bid": by_bid, "heat": heat, "side_rows": side_rows,
            "sides": cluster_means(side_rows, ["contract"], "over_contract") if side_rows.height else side_rows,
            "nil": nil, "nil_table": nil_table}


def analyse(runs: list, data) -> common.Analysis:
    if len(runs) != 1:
        raise SimcoreError("spades-bids reads one run folder")
    run = runs[0]
    t = tables(run.hands)
    numeric, by_bid = t["numeric"], t["by_bid"]
    n_deals = run.hands.select(pl.col("deal").n_unique()).collect().item()
    who = bidders_text(run.manifest)
    claims = []
    if numeric.height:
        claims.append(cluster_claim("sp.over", "Tricks taken minus tricks bid (each seat bidding by its own policy)", numeric, "over",
                                    "tricks per bid",
                                    ("overbids, taking fewer tricks than bid", "underbids, taking more tricks than bid",
                                     "bids match the tricks"),
                                    MARGIN, caveat=f"{who} bidders, all four seats", group="sp.bids"))
    if t["side_rows"].height:
        claims.append(cluster_claim("sp.side", "A side's tricks minus its contract (two numeric bids)",
                                    t["side_rows"], "over_contract", "tricks per contract", SIDE_WORDS, MARGIN,
                                    group="sp.bids"))
    nil = t["nil"]
    if nil.height:
        claims.append(rate_claim("sp.nil_chosen", "Nil bids that succeed (the nils the level's bidders chose; observational)",
                                 int(nil["held"].sum()), nil.height, "nil bids", NIL_WORDS, margin=0.05,
                                 group="sp.nil"))
    level = common.level_text(run.manifest)
    note = (f"{level}; bids by {who}; rules {common.rules_text(run.manifest)}; {n_deals:,} deals. Intervals "
            f"clustered by deal; bids of n < {common.MIN_N} not drawn (all are in the tables).")
    fig = common.figure(_panels(by_bid, t["heat"]), f"Spades: how many tricks does a bid take? ({who} bidders)", note)
    answer = _answer(claims, who, by_bid)
    details = []
    big = common.shown(by_bid).filter(pl.col("bid") >= 6)
    if big.height:
        details.append("Bids of 6 or more made: " + ", ".join(
            f"{r['bid']}: {common.pct(r['made'])}" for r in big.iter_rows(named=True)) + ".")
    return common.Analysis(
        name="spades-bids", stem=NAME, title="Spades: how many tricks a bid takes", answer=answer,
        tables={f"{NAME}_by_bid": by_bid, f"{NAME}_heatmap": t["heat"], f"{NAME}_sides": t["sides"],
                f"{NAME}_nil": t["nil_table"]},
        figures={NAME: fig} if fig is not None else {}, claims=claims, details=details,
        sample=f"{n_deals:,} deals from `{data}`; {numeric.height:,} numeric bids, {nil.height:,} nil bids",
        level=f"{level}; {who} bids", rules=common.rules_text(run.manifest),
        method="per-seat rows (simcore.seat_rows); numeric bids (not nil or blind) of each seat's own bid policy; "
               "means and shares with intervals clustered by deal (n in deals); nil success: the nils the "
               "policies chose (observational), Wilson")


def by_bid_signs(by_bid: pl.DataFrame) -> tuple[list[int], list[int]]:
    """(bids whose tricks − bid interval lies above zero, bids whose interval lies below), among
    bids of n ≥ MIN_N."""
    g = common.shown(by_bid)
    return (g.filter(pl.col("over_low") > 0)["bid"].to_list(), g.filter(pl.col("over_high") < 0)["bid"].to_list())


def span(values) -> str:
    """[1, 2, 3, 5] -> "1–3, 5"."""
    values, out = sorted(values), []
    start = prev = None
    for v in values + [None]:
        if start is None:
            start = prev = v
        elif v is not None and v == prev + 1:
            prev = v
        else:
            out.append(f"{start}" if start == prev else f"{start}–{prev}")
            start = prev = v
    return ", ".join(out)


def _answer(claims, who: str, by_bid: pl.DataFrame) -> str:
    by = {c.key: c for c in claims}
    if "sp.over" not in by:
        return f"No numeric {who} bids in this run."
    c = by["sp.over"]
    text = f"{upper_first(c.verdict)}: {c.estimate()} tricks against the bid on average (n = {c.n:,} deals)"
    under, over = by_bid_signs(by_bid)
    if under and over:
        text += f"; bids of {span(under)} take more tricks than bid, bids of {span(over)} fewer."
    else:
        text += "."
    if "sp.side" in by:
        s = by["sp.side"]
        text += f" A side with two numeric bids takes {s.estimate()} tricks over its contract ({s.verdict})."
    if "sp.nil_chosen" in by:
        text += f" Its own nil bids succeed {by['sp.nil_chosen'].estimate()} ({by['sp.nil_chosen'].n:,} nils)."
    return text


def _panels(by_bid: pl.DataFrame, heat: pl.DataFrame) -> list[common.Panel]:
    shown = common.shown(by_bid)
    bids = shown["bid"].to_list()

    def a(ax):
        grid = np.full((14, 14), np.nan)
        for b, k, share in heat.filter(pl.col("bid").is_in(bids)).select("bid", "tricks", "share").iter_rows():
            grid[int(k), int(b)] = 100 * share
        im = ax.imshow(grid, origin="lower", cmap="viridis", aspect="auto")
        ax.plot([0, 13], [0, 13], color="white", lw=0.8, ls="--")
        plt.colorbar(im, ax=ax, label="share of that bid's seats (%)")
        lo, hi = (min(bids), max(bids)) if bids else (1, 13)
        ax.set_xlim(lo - 0.5, hi + 0.5)
        top = heat.filter(pl.col("bid").is_in(bids))["tricks"].max()
        ax.set_ylim(-0.5, (top if top is not None else 13) + 0.5)
        common.integer_ticks(ax)
        common.integer_ticks(ax, "y")
        ax.set_xlabel("tricks bid")
        ax.set_ylabel("tricks taken (dashed: taken = bid)")

    def b(ax):
        x = shown["bid"].to_numpy()
        common.error_bars(ax, x, shown, "over", "over_low", "over_high", fmt="o-", color="#4C72B0",
                          label="tricks − bid (left axis)")
        ax.axhline(0, color="grey", lw=0.8)
        ax.set_xlabel("tricks bid")
        ax.set_ylabel("tricks taken − tricks bid")
        common.integer_ticks(ax)
        bx = ax.twinx()
        common.error_bars(bx, x, shown, "made", "made_low", "made_high", scale=100, fmt="s--", color="#C44E52",
                          label="bids made (right axis)")
        bx.set_ylim(0, 100)
        bx.set_ylabel("bids made: tricks ≥ bid (%)")
        lines = [h for h in (ax.get_legend_handles_labels(), bx.get_legend_handles_labels())]
        ax.legend(lines[0][0] + lines[1][0], lines[0][1] + lines[1][1], fontsize=7, loc="lower left")

    return [common.Panel("Tricks taken against the bid", len(bids), a),
            common.Panel("Tricks − bid and bids made, by bid (95%, clustered by deal)", len(bids), b)]
