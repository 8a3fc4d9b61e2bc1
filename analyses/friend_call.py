"""Trump Friend: is calling a friend worth it?  The highest-trump friend against no friend,
by the declarer's hand strength.

Reads a ``--what-if friend`` run (every deal played twice with the same cards and policy
streams: ``highest`` = the declarer calls the highest trump card it does not hold, TF-5.2;
``none`` = no friend, TF-5.3, whose win is scored 2D − O against every defender, TF-13) and
writes:

- ``friend_call.png``: (a) the declarer side's win rate under each option by the declarer's
  card points (A 2, K Q J 1, TF-11) and (b) by the top trumps it holds (3 2 A K of the trump
  suit, TF-3; in no trump, of its longest suit), 95% Wilson; (c) the paired change
  none − highest per deal in the win rate and (d) in the declarer's score change and in its
  score relative to the other four seats, by card points (95% t);
- ``friend_call.csv`` (per option × feature × value: n, win rate, mean score changes),
  ``friend_call_paired.csv`` (per feature × value: paired differences with t intervals; the
  row with feature ``all`` is every deal);
- ``friend_call.md``.

Score measures: the declarer's own change (0 when its side wins, TF-12) misses the no-friend
bonus, which is paid by the defenders; the *relative* change, the declarer's change minus the
mean change of the other four seats, counts it — a game is lost by the first seat to reach the
losing line, so standing relative to the others is what matters.
"""

from __future__ import annotations

from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import polars as pl

from analyses import common
from analyses.stats import mean_aggs, mean_table, rate_table
from analyses.trump_call import HIGH_RANKS, NO_TRUMP, declarer_features

NAME = "friend_call"
OPTIONS = ("highest", "none")
MIN_N = 200
FEATURES = {"points": "card points held by the declarer (A 2, K Q J 1)",
            "top_trumps": "top trumps held (3 2 A K of the trump suit)",
            "trump_length": "trumps held by the declarer"}


def features(hands: pl.LazyFrame) -> pl.LazyFrame:
    rows = declarer_features(hands)
    dh = common.seat_value("hand", pl.col("declarer"), 5)
    points = 2 * common.count_in(dh, common.rank_mask([12])) + common.count_in(dh, common.rank_mask([9, 10, 11]))
    suit = pl.when(pl.col("trump") == NO_TRUMP).then(pl.col("longest_suit")).otherwise(pl.col("trump"))
    others = pl.sum_horizontal([pl.col(f"delta{s}").cast(pl.Int32) for s in range(5)]) - pl.col("declarer_delta")
    return rows.with_columns(
        points.alias("points"),
        pl.coalesce([pl.when(suit == s).then(pl.col(f"high{s}")) for s in range(4)]).alias("top_trumps"),
        pl.coalesce([pl.when(suit == s).then(pl.col(f"len{s}")) for s in range(4)]).alias("trump_length"),
        (pl.col("declarer_delta").cast(pl.Float64) - others.cast(pl.Float64) / 4).alias("relative"),
    )


def option_table(rows: pl.LazyFrame) -> pl.DataFrame:
    frames = []
    for feature in FEATURES:
        t = (rows.group_by("option", pl.col(feature).cast(pl.Int32).alias("value"))
             .agg(pl.len().alias("n"), pl.col("declarer_won").sum().alias("successes"),
                  *mean_aggs(pl.col("declarer_delta"), "delta"), *mean_aggs(pl.col("relative"), "relative"))
             .collect().with_columns(pl.lit(feature).alias("feature")))
        frames.append(t)
    t = pl.concat(frames).sort("feature", "option", "value")
    t = rate_table(t)
    t = mean_table(t, "delta", "delta", "delta_std")
    return mean_table(t, "relative", "relative", "relative_std").select("feature", "option", "value", pl.exclude("feature", "option", "value"))


def paired_table(rows: pl.LazyFrame) -> tuple[pl.DataFrame, int]:
    none, high = pl.col("option") == "none", pl.col("option") == "highest"
    won = pl.col("declarer_won").cast(pl.Float64)

    def change(col):
        return col.filter(none).sum() - col.filter(high).sum()

    per_deal = (rows.group_by("deal")
                .agg(pl.len().alias("_rows"), high.sum().alias("_high"),
                     *[pl.col(f).first().cast(pl.Int32) for f in FEATURES],
                     change(won).alias("win_change"),
                     change(pl.col("declarer_delta").cast(pl.Float64)).alias("delta_change"),
                     change(pl.col("relative")).alias("relative_change"))
                .collect())
    if per_deal.height == 0 or not ((per_deal["_rows"] == 2) & (per_deal["_high"] == 1)).all():
        from simcore.errors import SimcoreError

        raise SimcoreError("friend-call needs a --what-if friend run: rows 'highest' and 'none' for every deal")
    aggs = [pl.len().alias("n"), *mean_aggs(pl.col("win_change"), "win_change"),
            *mean_aggs(pl.col("delta_change"), "delta_change"), *mean_aggs(pl.col("relative_change"), "relative_change")]
    frames = [per_deal.lazy().group_by(pl.col(f).alias("value")).agg(aggs).collect()
              .with_columns(pl.lit(f).alias("feature")) for f in FEATURES]
    frames.append(per_deal.lazy().select(pl.lit(None, dtype=pl.Int32).alias("value"), *aggs).collect()
                  .with_columns(pl.lit("all").alias("feature")))
    t = pl.concat(frames).sort("feature", "value")
    for c in ("win_change", "delta_change", "relative_change"):
        t = mean_table(t, c, c, f"{c}_std")
    return t.select("feature", "value", pl.exclude("feature", "value")), per_deal.height


def run(hands: pl.LazyFrame, manifest: dict, out: Path, data) -> list[Path]:
    from simcore.errors import SimcoreError

    names = hands.collect_schema().names()
    if "option" not in names or manifest.get("what_if") not in (None, "friend"):
        raise SimcoreError(f"friend-call needs a --what-if friend run; {data} is "
                           + (f"--what-if {manifest.get('what_if')}" if "option" in names else "an ordinary run"))
    rows = features(hands)
    by_option = option_table(rows)
    paired, n_deals = paired_table(rows)
    fig, axes = plt.subplots(2, 3, figsize=(18, 10), constrained_layout=True)
    colours = {"highest": "#4C72B0", "none": "#C44E52"}
    labels = {"highest": "friend: highest trump not held", "none": "no friend"}
    for ax, feature in zip(axes[0], FEATURES):
        for option in OPTIONS:
            g = by_option.filter((pl.col("feature") == feature) & (pl.col("option") == option)
                                 & (pl.col("n") >= MIN_N)).sort("value")
            common.error_bars(ax, g["value"].to_numpy(), g, "rate", "rate_low", "rate_high", scale=100,
                              fmt="o-", ms=3, color=colours[option], label=labels[option])
        ax.set_xlabel(FEATURES[feature])
        ax.set_ylabel("declarer's side wins the round (%)")
        ax.set_title(f"Win rate by option (95% Wilson; groups n ≥ {MIN_N})")
        ax.xaxis.get_major_locator().set_params(integer=True)
        ax.legend(fontsize=8)
    feature_colours = {"points": "#4C72B0", "top_trumps": "#55A868", "trump_length": "#8172B2"}
    for ax, col, scale, ylabel, title in (
        (axes[1][0], "win_change", 100, "win rate: no friend − friend (percentage points)", "win rate"),
        (axes[1][1], "delta_change", 1, "declarer's score change: no friend − friend (points per round)",
         "declarer's own score"),
        (axes[1][2], "relative_change", 1, "declarer's score minus the others' mean: no friend − friend",
         "score relative to the others"),
    ):
        for feature, colour in feature_colours.items():
            g = paired.filter((pl.col("feature") == feature) & (pl.col("n") >= MIN_N)).sort("value")
            common.error_bars(ax, g["value"].to_numpy(), g, col, f"{col}_low", f"{col}_high", scale=scale,
                              fmt="o-", ms=3, color=colour, label=f"x = {FEATURES[feature]}")
        ax.axhline(0, color="grey", lw=0.8)
        ax.set_xlabel("card points / top trumps / trumps held by the declarer")
        ax.set_ylabel(ylabel)
        ax.set_title(f"Paired per deal: {title} (95% t; n ≥ {MIN_N})", fontsize=10)
        ax.xaxis.get_major_locator().set_params(integer=True)
        ax.legend(fontsize=7)
    common.suptitle(fig, f"Trump Friend: friend (highest trump) vs no friend — what-if friend: "
                         f"{n_deals:,} deals × 2 calls (paired)", manifest)
    chart = common.save_chart(fig, out, NAME)
    written = [chart, common.write_table(by_option, out, NAME), common.write_table(paired, out, f"{NAME}_paired")]
    written.append(common.write_summary(
        out, NAME, "Trump Friend: friend call vs no friend by hand strength", chart, _finding(by_option, paired),
        f"{n_deals:,} deals ({2 * n_deals:,} rows) from `{data}`", manifest,
        common.command("friend-call", data, out), written[1:],
        "what-if friend: every deal played with the highest-trump friend and with no friend, the same "
        "cards and policy streams; Wilson intervals for win rates, t intervals for mean score changes "
        "and for the per-deal paired differences (no friend − friend)"))
    return written


def _finding(by_option: pl.DataFrame, paired: pl.DataFrame) -> str:
    overall = by_option.filter(pl.col("feature") == "points").group_by("option").agg(
        pl.col("n").sum(), pl.col("successes").sum()).sort("option")
    rate = {r["option"]: r["successes"] / r["n"] for r in overall.iter_rows(named=True)}
    a = paired.filter(pl.col("feature") == "all").row(0, named=True)
    text = (f"The highest-trump friend won {common.pct(rate['highest'])} of rounds and no friend "
            f"{common.pct(rate['none'])}; per deal, no friend changed the win rate by "
            f"{100 * a['win_change']:+.1f} points (95% CI {100 * a['win_change_low']:+.1f} to "
            f"{100 * a['win_change_high']:+.1f}), the declarer's own score by {a['delta_change']:+.2f} "
            f"and its score relative to the others by {a['relative_change']:+.2f} "
            f"(95% CI {a['relative_change_low']:+.2f} to {a['relative_change_high']:+.2f}) per round")
    parts = []
    for feature, label in (("points", "card points"), ("top_trumps", "top trumps (3 2 A K)"),
                           ("trump_length", "trumps")):
        g = paired.filter((pl.col("feature") == feature) & (pl.col("n") >= MIN_N))
        better = g.filter(pl.col("relative_change_low") > 0)["value"].to_list()
        if better:
            parts.append(f"{span(better)} {label}")
    if parts:
        text += ("; relative to the others, no friend paid off (95% CI above zero) only for hands with "
                 + " or with ".join(parts) + f" (groups n ≥ {MIN_N}).")
    else:
        text += f"; no friend was never significantly better relative to the others (groups n ≥ {MIN_N})."
    return text


def span(values) -> str:
    values = sorted(values)
    if len(values) > 1 and values == list(range(values[0], values[-1] + 1)):
        return f"{values[0]}–{values[-1]}" if values[-1] != values[0] else str(values[0])
    return ", ".join(map(str, values))


# The paired friend questions, asked in the same words by the open-hand level (trump-friend-dd)
FRIEND_WIN = "No friend instead of the highest-trump friend: the declarer side's win rate (paired)"
FRIEND_RELATIVE = "No friend instead of the highest-trump friend: the declarer's score relative to the others per round (paired)"
FRIEND_WORDS = ("calling the highest-trump friend is better", "no friend is better", "neither is significantly better")


def level_claims(out: Path) -> list:
    """The answers compared across levels of play (``analyses.levels``), from this level's tables."""
    from analyses.levels import mean_claim

    a = pl.read_csv(out / f"{NAME}_paired.csv").filter(pl.col("feature") == "all").row(0, named=True)
    return [mean_claim(FRIEND_WIN, a["win_change"], a["win_change_std"], a["n"], *FRIEND_WORDS,
                       "win rate change (points)", 100),
            mean_claim(FRIEND_RELATIVE, a["relative_change"], a["relative_change_std"], a["n"], *FRIEND_WORDS,
                       "relative score change per round")]
