"""Spades: how well does the heuristic bidder bid, and when does nil succeed?

Reads a spades hands run and writes:

- ``spades_bids.png``: (left) a heatmap of tricks taken against the number bid by the seats
  whose bid policy is the heuristic (the share of that bid's seats taking each number of
  tricks); (middle) the nil success rate (the nil bidder takes no trick, SP-12) by the
  number of spades and of high cards (J, Q, K, A) in the hand the bid was made on; (right,
  what-if runs only) the paired change in the first bidder's side score when it bids nil
  instead of its number;
- ``spades_bids_heatmap.csv`` (bid × tricks counts), ``spades_bids_by_bid.csv`` (mean tricks
  with t intervals and the rate of taking at least the bid, Wilson), ``spades_bids_nil.csv``
  (nil success by hand feature, Wilson; with what-if, the paired score change, t),
  ``spades_bids_sides.csv`` (per contract of a side with two numeric heuristic bids: the share
  made, Wilson, and tricks minus contract, t);
- ``spades_bids.md``.

Observational runs: nil success is measured on the nil bids the policies chose (few, and only
on hands the nil heuristic liked).  ``--what-if nil`` runs (``option`` = ``nil`` / ``bid``, the
first bidder, dealer's left, bids nil or its number) give nil on every hand of that seat and
the paired difference, which is what the chart then shows.
"""

from __future__ import annotations

from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import polars as pl

from analyses import common
from analyses.stats import mean_aggs, mean_table, rate_table

NAME = "spades_bids"
HIGH = common.rank_mask((9, 10, 11, 12))  # J Q K A of every suit
SPADES = common.SUIT_MASK << 39


def heuristic_bid_seats(manifest: dict) -> list[int]:
    """Seats whose bids come from the heuristic bidder (``bid=seat`` follows the play policy;
    user play policies bid heuristic)."""
    pol = manifest["policies"]
    seats = pol["seats"]
    if pol.get("bid") == "heuristic":
        return list(range(len(seats)))
    if pol.get("bid") == "random":
        return []
    return [s for s, p in enumerate(seats) if p == "heuristic" or str(p).startswith("user:")]


def seat_rows(hands: pl.LazyFrame) -> pl.LazyFrame:
    """One row per (deal, seat): bid, blind, tricks, the hand bid on, and the side's score."""
    names = hands.collect_schema().names()
    keep = ["deal", "dealer"] + (["option"] if "option" in names else [])
    parts = []
    for s in range(4):
        hand = pl.col(f"dealt{s}" if f"dealt{s}" in names else f"hand{s}")
        parts.append(hands.select(
            *keep, pl.lit(s, pl.Int8).alias("seat"),
            pl.col(f"bid{s}").alias("bid"), pl.col(f"blind{s}").alias("blind"),
            pl.col(f"tricks{s}").alias("tricks"),
            common.count_in(hand, SPADES).alias("spades"), common.count_in(hand, HIGH).alias("high_cards"),
            pl.col(f"score{s % 2}").alias("side_score"),
            ((pl.col("dealer") + 1) % 4 == s).alias("first_bidder"),
        ))
    return pl.concat(parts)


def tables(hands: pl.LazyFrame, manifest: dict, what_if: str | None):
    seats = heuristic_bid_seats(manifest) or [0, 1, 2, 3]
    rows = seat_rows(hands)
    natural = rows.filter(pl.col("option") != "nil") if what_if else rows
    numeric = natural.filter(pl.col("seat").is_in(seats) & (pl.col("bid") > 0) & ~pl.col("blind"))
    heat, by_bid = pl.collect_all([
        numeric.group_by("bid", "tricks").agg(pl.len().alias("count")).sort("bid", "tricks"),
        numeric.group_by("bid").agg(pl.len().alias("n"), (pl.col("tricks") >= pl.col("bid")).sum().alias("successes"),
                                    *mean_aggs(pl.col("tricks"), "mean_tricks")).sort("bid"),
    ])
    heat = heat.with_columns((pl.col("count") / pl.col("count").sum().over("bid")).alias("share_of_bid"))
    by_bid = mean_table(rate_table(by_bid, prefix="made_rate"), "mean_tricks", "mean_tricks", "mean_tricks_std")
    if what_if:
        nil_rows = rows.filter((pl.col("option") == "nil") & pl.col("first_bidder"))
        source = "what-if nil: the first bidder bids nil on every deal"
    else:
        nil_rows = natural.filter((pl.col("bid") == 0) & ~pl.col("blind"))
        source = "observational: the nil bids the policies chose"
    feats = []
    for feature in ("spades", "high_cards"):
        feats.append(nil_rows.group_by(pl.col(feature).alias("value")).agg(
            pl.len().alias("n"), (pl.col("tricks") == 0).sum().alias("successes"))
            .with_columns(pl.lit(feature).alias("feature")))
    nil = pl.concat(pl.collect_all(feats)).select("feature", "value", "n", "successes").sort("feature", "value")
    nil = rate_table(nil)
    if what_if:
        paired = (rows.filter(pl.col("first_bidder"))
                  .group_by("deal").agg(
                      (pl.col("side_score").filter(pl.col("option") == "nil").first()
                       - pl.col("side_score").filter(pl.col("option") != "nil").first()).alias("diff"),
                      pl.col("spades").first(), pl.col("high_cards").first()))
        diffs = []
        for feature in ("spades", "high_cards"):
            diffs.append(paired.group_by(pl.col(feature).alias("value"))
                         .agg(*mean_aggs(pl.col("diff"), "score_change")).with_columns(pl.lit(feature).alias("feature")))
        d = pl.concat(pl.collect_all(diffs)).select("feature", "value", "score_change", "score_change_std")
        nil = nil.join(d, on=["feature", "value"], how="left")
        nil = mean_table(nil, "score_change", "score_change", "score_change_std")
    return heat, by_bid, nil, seats, source


def side_table(hands: pl.LazyFrame, seats: list[int], what_if) -> pl.DataFrame:
    """Per contract (the sum of a side's two numeric bids, both seats bidding heuristic): n, the
    share that took it (Wilson) and the side's tricks minus its contract (t)."""
    rows = hands.filter(pl.col("option") != "nil") if what_if else hands
    parts = []
    for side in (0, 1):
        a, b = side, side + 2
        if a in seats and b in seats:
            parts.append(rows.filter((pl.col(f"bid{a}") > 0) & (pl.col(f"bid{b}") > 0) & ~pl.col(f"blind{a}")
                                     & ~pl.col(f"blind{b}")).select(
                (pl.col(f"bid{a}") + pl.col(f"bid{b}")).cast(pl.Int16).alias("contract"),
                (pl.col(f"tricks{a}") + pl.col(f"tricks{b}")).cast(pl.Int16).alias("tricks")))
    if not parts:
        parts = [pl.LazyFrame(schema={"contract": pl.Int16, "tricks": pl.Int16})]
    diff = (pl.col("tricks") - pl.col("contract")).cast(pl.Float64)
    t = pl.concat(parts).group_by("contract").agg(
        pl.len().alias("n"), (pl.col("tricks") >= pl.col("contract")).sum().alias("successes"),
        *mean_aggs(diff, "over_contract")).sort("contract").collect()
    return mean_table(rate_table(t, prefix="made_rate"), "over_contract", "over_contract", "over_contract_std")


# Questions the open-hand level (spades-dd-bids beside a simulate run) answers in the same words
SIDE_QUESTION = "A side's tricks minus its contract (two numeric bids)"
SIDE_WORDS = ("sides take fewer tricks than their contract", "sides take more tricks than their contract",
              "sides take their contract on average")
NIL_CHOSEN = "Nil bids that succeed (observational: the nil bids chosen)"
NIL_WORDS = ("most nil bids fail", "most nil bids succeed", "about half succeed")


def run(hands: pl.LazyFrame, manifest: dict, out: Path, data) -> list[Path]:
    r = common.RunInput(Path(data), manifest, hands)
    wi = common.what_if(r)
    heat, by_bid, nil, seats, source = tables(hands, manifest, wi)
    n_deals = hands.select(pl.col("deal").n_unique()).collect().item()
    ncols = 3 if wi else 2
    fig, axes = plt.subplots(1, ncols, figsize=(6 * ncols, 5.2), constrained_layout=True)
    ax = axes[0]
    grid = np.full((14, 14), np.nan)
    shown = by_bid.filter(pl.col("n") >= 30)["bid"].to_list()  # rarer bids would be noise
    for b, t, share in heat.filter(pl.col("bid").is_in(shown)).select("bid", "tricks", "share_of_bid").iter_rows():
        grid[int(t), int(b)] = 100 * share
    im = ax.imshow(grid, origin="lower", cmap="viridis", aspect="auto")
    ax.plot([0, 13], [0, 13], color="white", lw=0.8, ls="--")
    fig.colorbar(im, ax=ax, label="share of seats with that bid (%)")
    ax.set_xlabel("tricks bid (heuristic bidder seats, numeric bids with n ≥ 30)")
    ax.set_ylabel("tricks taken")
    ax.set_xlim(0.5, 13.5)
    ax.set_title(f"Tricks taken vs bid — {int(heat['count'].sum()):,} bids (dashed: taken = bid)")
    ax = axes[1]
    for feature, label in (("spades", "spades held"), ("high_cards", "high cards held (J Q K A)")):
        g = nil.filter((pl.col("feature") == feature) & (pl.col("n") >= 20))
        common.error_bars(ax, g["value"].to_numpy(), g, "rate", "rate_low", "rate_high", scale=100,
                          fmt="o-", label=label)
    ax.set_xlabel("cards held in the hand bid on (groups with n ≥ 20)")
    ax.xaxis.get_major_locator().set_params(integer=True)
    ax.set_ylabel("nil succeeds: no trick taken (%)")
    ax.set_title(f"Nil success, 95% Wilson ({source.split(':')[0]})")
    ax.set_ylim(0, 100)
    ax.legend(fontsize=8)
    if wi:
        ax = axes[2]
        for feature, label in (("spades", "spades held"), ("high_cards", "high cards held")):
            g = nil.filter((pl.col("feature") == feature) & (pl.col("n") >= 20))
            common.error_bars(ax, g["value"].to_numpy(), g, "score_change", "score_change_low",
                              "score_change_high", fmt="o-", label=label)
        ax.axhline(0, color="grey", lw=0.8)
        ax.set_xlabel("cards held by the first bidder")
        ax.set_ylabel("side score: nil minus numeric bid (points per hand)")
        ax.set_title("Paired value of bidding nil (95% t)")
        ax.legend(fontsize=8)
    who = "seats " + ",".join(map(str, seats))
    heat_rows = "; heatmap: rows of option 'bid'" if wi else ""
    common.suptitle(fig, f"Spades: heuristic bidder ({who}) — {n_deals:,} deals; nil: {source}{heat_rows}", manifest)
    chart = common.save_chart(fig, out, NAME)
    t1 = common.write_table(heat, out, f"{NAME}_heatmap")
    t2 = common.write_table(by_bid, out, f"{NAME}_by_bid")
    t3 = common.write_table(nil, out, f"{NAME}_nil")
    t4 = common.write_table(side_table(hands, seats, wi), out, f"{NAME}_sides")
    finding = _finding(by_bid, nil, wi)
    summary = common.write_summary(
        out, NAME, "Spades: tricks vs bid and nil success", chart, finding,
        f"{n_deals:,} deals from `{data}`; {int(by_bid['n'].sum()):,} numeric heuristic bids; "
        f"{int(nil.filter(pl.col('feature') == 'spades')['n'].sum()):,} nil bids ({source})",
        manifest, common.command("spades-bids", data, out), [t1, t2, t3, t4],
        "per-seat rows of the hands table; Wilson intervals for rates, t intervals for means"
        + ("; nil value paired by deal (same cards, nil vs number)" if wi else ""))
    return [chart, t1, t2, t3, t4, summary]


def _finding(by_bid: pl.DataFrame, nil: pl.DataFrame, wi) -> str:
    n = by_bid["n"].sum()
    made = by_bid["successes"].sum() / n if n else float("nan")
    over = (by_bid["mean_tricks"] - by_bid["bid"]) * by_bid["n"]
    parts = [f"Heuristic bidders took at least their bid {common.pct(made)} of the time and "
             f"{over.sum() / n:+.2f} tricks against the bid on average"]
    sp = nil.filter((pl.col("feature") == "spades") & (pl.col("n") >= 20)).sort("value")
    if sp.height >= 2:
        lo, hi = sp.row(0, named=True), sp.row(-1, named=True)
        parts.append(f"nil succeeded {common.pct(lo['rate'])} with {common.plural(lo['value'], 'spade')} against "
                     f"{common.pct(hi['rate'])} with {hi['value']}")
    elif sp.height == 1:
        parts.append(f"nil succeeded {common.pct(sp['rate'][0])} with {common.plural(sp['value'][0], 'spade')}")
    total = nil.filter(pl.col("feature") == "spades")
    if total["n"].sum():
        parts.append(f"overall {common.pct(total['successes'].sum() / total['n'].sum())} of "
                     f"{total['n'].sum():,} nil bids")
    return "; ".join(parts) + "."


def level_claims(out: Path) -> list:
    """The answers compared across levels of play (``analyses.levels``), from this level's tables."""
    from analyses.levels import mean_claim, pooled, rate_claim

    by_bid = pl.read_csv(out / f"{NAME}_by_bid.csv")
    claims = []
    if by_bid.height:
        m, s, n = pooled(by_bid["n"], by_bid["mean_tricks"] - by_bid["bid"], by_bid["mean_tricks_std"])
        claims.append(mean_claim("Tricks taken minus tricks bid (numeric bids)", m, s, n,
                                 "bidders take fewer tricks than they bid", "bidders take more tricks than they bid",
                                 "tricks match bids on average", "tricks per bid"))
    sides = pl.read_csv(out / f"{NAME}_sides.csv")
    if sides["n"].sum():
        m, s, n = pooled(sides["n"], sides["over_contract"], sides["over_contract_std"])
        claims.append(mean_claim(SIDE_QUESTION, m, s, n, *SIDE_WORDS, "tricks per contract"))
    nil = pl.read_csv(out / f"{NAME}_nil.csv").filter(pl.col("feature") == "spades")
    what_if = "score_change" in nil.columns
    question = "Nil bids that succeed (what-if nil: the first bidder's every hand)" if what_if else NIL_CHOSEN
    if nil["n"].sum():
        claims.append(rate_claim(question, int(nil["successes"].sum()), int(nil["n"].sum()), *NIL_WORDS,
                                 "nil succeeds (%)"))
    if what_if:
        g = nil.drop_nulls("score_change")
        m, s, n = pooled(g["n"], g["score_change"], g["score_change_std"])
        claims.append(mean_claim("Bidding nil instead of a number: the first bidder's side score per hand (paired)",
                                 m, s, n, "the numeric bid is better", "nil is better",
                                 "neither is significantly better", "side score change per hand"))
    return claims
