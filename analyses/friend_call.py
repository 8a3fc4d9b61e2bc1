"""Trump Friend: call a friend, or play alone?  The highest-trump friend against no friend, by
the declarer's hand strength.

Reads a ``--what-if friend`` run (every deal played twice with the same cards and policy
streams: ``highest`` = the declarer calls the highest trump card it does not hold, TF-5.2;
``none`` = no friend, TF-5.3, whose win is scored 2D − O against every defender, TF-13).  The
measure is the declarer's score change **relative to the other four** (its own change minus
their mean): the declarer's own change misses the no-friend bonus, which the defenders pay, and
a game is lost by the first seat to reach the losing line.

- ``friend_call.png``: no friend − friend per deal (paired), (a) by the trumps the declarer
  holds, one line per number of top trumps (3 2 A K of the trump suit, TF-3; in no trump, of
  its longest suit), (b) by its card points (A 2, K Q J 1, TF-11);
- ``friend_call.csv`` (per option: win rate, mean scores), ``friend_call_paired.csv`` (per
  feature × value and over all: the paired differences with t intervals).
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import polars as pl

from analyses import common
from analyses.common import upper_first
from analyses.levels import mean_claim
from analyses.stats import grouped_means, mean_table, rate_table
from analyses.trump_call import NO_TRUMP, TOP_RANKS, _mask
from simcore.errors import SimcoreError
from simcore.frames import seat_value

NAME = "friend_call"
LEVELS = True
OPTIONS = ("highest", "none")
MARGIN = 0.25  # points per round relative to the others
CAVEAT = "the friend card is the highest trump the declarer does not hold; the trump is its longest suit"


def features(hands: pl.LazyFrame) -> pl.LazyFrame:
    """Per row: the declarer's trumps, top trumps and card points, its win, own and relative
    score change."""
    dh = seat_value("hand", pl.col("declarer"), 5)
    delta = seat_value("delta", pl.col("declarer"), 5).cast(pl.Float64)
    others = (pl.sum_horizontal([pl.col(f"delta{s}").cast(pl.Float64) for s in range(5)]) - delta) / 4
    # the trump suit; in no trump the declarer's longest suit stands in (its top cards, its length)
    lengths = [dh.cards.length(s) for s in range(4)]
    longest = pl.coalesce([pl.when(lengths[s] == pl.max_horizontal(lengths)).then(pl.lit(s)) for s in range(4)])
    suit = pl.when(pl.col("trump") == NO_TRUMP).then(longest).otherwise(pl.col("trump"))
    return hands.select(
        "deal", "option",
        pl.coalesce([pl.when(suit == s).then(lengths[s]) for s in range(4)]).alias("trumps"),
        pl.coalesce([pl.when(suit == s).then(dh.cards.count_mask(_mask(s, TOP_RANKS))) for s in range(4)])
        .alias("top_trumps"),
        dh.cards.points("trump-friend").alias("points"),
        pl.col("declarer_won").cast(pl.Float64).alias("won"), delta.alias("delta"), (delta - others).alias("relative"))


def per_deal(hands: pl.LazyFrame) -> pl.DataFrame:
    rows = features(hands).collect()
    wide = rows.pivot("option", index=["deal", "trumps", "top_trumps", "points"], values=["won", "delta", "relative"])
    need = [f"{v}_{o}" for v in ("won", "delta", "relative") for o in OPTIONS]
    if wide.height == 0 or any(c not in wide.columns for c in need) or wide.select(need).null_count().sum_horizontal().item():
        raise SimcoreError("friend-call needs a --what-if friend run: rows 'highest' and 'none' for every deal")
    return wide.with_columns(*[(pl.col(f"{v}_none") - pl.col(f"{v}_highest")).alias(f"{v}_change")
                               for v in ("won", "delta", "relative")]).sort("deal")


def condense(cells: pl.DataFrame, outer: str, inner: str, word: str) -> str:
    """Paying (outer, inner) groups in words, e.g. "6 trumps and 2+ top trumps; 7 and 1+": per
    outer value the inner values that pay, as "k+" when they run from k to the highest seen."""
    parts = []
    for i, o in enumerate(sorted(cells[outer].unique().to_list())):
        values = sorted(cells.filter(pl.col(outer) == o)[inner].to_list())
        run = values == list(range(values[0], values[-1] + 1))
        inner_text = f"{values[0]}+" if run and len(values) > 1 else "/".join(map(str, values))
        label = f"{o} {outer.replace('_', ' ')}" if i == 0 else f"{o}"
        parts.append(f"{label} and {inner_text} {word}s" if i == 0 else f"{label} and {inner_text}")
    return "; ".join(parts)


def analyse(runs: list, data) -> common.Analysis:
    run = runs[0]
    names = run.hands.collect_schema().names()
    if "option" not in names or run.manifest.get("what_if") not in (None, "friend"):
        raise SimcoreError(f"friend-call needs a --what-if friend run; {data} is "
                           + (f"--what-if {run.manifest.get('what_if')}" if "option" in names else "an ordinary run"))
    deals = per_deal(run.hands)
    n = deals.height
    changes = ["won_change", "delta_change", "relative_change"]
    paired = pl.concat([
        grouped_means(deals, ["trumps", "top_trumps"], changes).with_columns(pl.lit("trumps × top trumps").alias("feature")),
        grouped_means(deals, ["points"], changes).with_columns(pl.lit("card points").alias("feature")),
        grouped_means(deals, [], changes).with_columns(pl.lit("all").alias("feature"))], how="diagonal_relaxed")
    paired = paired.select("feature", "trumps", "top_trumps", "points", pl.exclude("feature", "trumps", "top_trumps",
                                                                                   "points"))
    options = pl.DataFrame([{"option": o, "n": n, "successes": int(deals[f"won_{o}"].sum()),
                             "delta": float(deals[f"delta_{o}"].mean()), "delta_std": float(deals[f"delta_{o}"].std()),
                             "relative": float(deals[f"relative_{o}"].mean()),
                             "relative_std": float(deals[f"relative_{o}"].std())} for o in OPTIONS])
    options = mean_table(mean_table(rate_table(options), "delta", "delta", "delta_std"),
                         "relative", "relative", "relative_std")
    claim = mean_claim("tf.friend", "No friend instead of the highest-trump friend (score relative to the others)",
                       deals["relative_change"].to_numpy(), "points per round",
                       ("call the friend", "play alone (no friend)", "the same"), MARGIN,
                       deals=deals["deal"].to_numpy(), caveat=CAVEAT)
    level = common.level_text(run.manifest)
    note = (f"{level}; rules {common.rules_text(run.manifest)}; {n:,} deals × 2 calls (what-if friend, paired). "
            f"Groups of n < {common.MIN_N} deals not drawn (all are in the tables). Relative score: the declarer's "
            "change minus the mean of the other four (TF-12, TF-13).")
    fig = common.figure(_panels(paired), "Call a friend or play alone? No friend − the highest-trump friend, the "
                                         "declarer's score relative to the others per round (paired per deal)", note)
    pays = common.shown(paired.filter(pl.col("feature") == "trumps × top trumps")).filter(
        pl.col("relative_change_low") > 0)
    alone = ("; playing alone pays only with " + condense(pays, "trumps", "top_trumps", "top trump")
             if pays.height else "; no hand group of n ≥ 30 gains by playing alone")
    answer = (f"{upper_first(claim.verdict)}: without a friend the declarer's score relative to the others changes "
              f"by {claim.estimate()} points a round (paired, n = {n:,}){alone}.")
    return common.Analysis(
        name="friend-call", stem=NAME, title="Trump Friend: call a friend or play alone", answer=answer,
        tables={NAME: options, f"{NAME}_paired": paired}, figures={NAME: fig} if fig is not None else {},
        claims=[claim], sample=f"{n:,} deals × 2 calls from `{data}`", level=level,
        rules=common.rules_text(run.manifest),
        method="what-if friend: every deal played with the highest-trump friend and with no friend, the same "
               "cards and policy streams; per-deal differences (no friend − friend) with t intervals; the relative "
               "score is the declarer's change minus the mean change of the other four seats")


def _panels(paired: pl.DataFrame) -> list[common.Panel]:
    grid = common.shown(paired.filter(pl.col("feature") == "trumps × top trumps"))
    pts = common.shown(paired.filter(pl.col("feature") == "card points")).sort("points")

    def a(ax):
        cmap = plt.get_cmap("viridis")
        for top in sorted(grid["top_trumps"].unique().to_list()):
            g = grid.filter(pl.col("top_trumps") == top).sort("trumps")
            if g.height < 2:  # a lone point is not a line
                continue
            common.error_bars(ax, g["trumps"].to_numpy() + (top - 2) * 0.04, g, "relative_change",
                              "relative_change_low", "relative_change_high", fmt="o-", ms=3, color=cmap(top / 4),
                              label=f"{top} of 3 2 A K")
        ax.axhline(0, color="grey", lw=0.8)
        common.integer_ticks(ax)
        ax.set_xlabel("trumps the declarer holds")
        ax.set_ylabel("no friend − friend (points per round)")
        ax.legend(fontsize=7, title="top trumps", title_fontsize=7)

    def b(ax):
        common.error_bars(ax, pts["points"].to_numpy(), pts, "relative_change", "relative_change_low",
                          "relative_change_high", fmt="o-", ms=3, color="#4C72B0")
        ax.axhline(0, color="grey", lw=0.8)
        common.integer_ticks(ax)
        ax.set_xlabel("card points the declarer holds (A 2, K Q J 1)")
        ax.set_ylabel("no friend − friend (points per round)")

    return [common.Panel("By trumps and top trumps held (95% t)", grid.height, a),
            common.Panel("By card points held (95% t)", pts.height, b)]

