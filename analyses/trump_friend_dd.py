"""Trump Friend, open-handed: which call is best for the hand, with and without a friend?

Reads a Trump Friend **solve** run (``simcore solve trump-friend``: per deal and call t, 0-3 a
suit, 4 no trump, ``dd_points{t}`` = card points D won by the declarer's team with the friend
the run's friend policy names, ``dd_solo{t}`` = D with no friend; every card seen, best play by
every seat, the declarer's left leading, TF-6; docs/schema.md) and writes:

- ``trump_friend_dd.png``: (a) the declarer's open-hand margin D − O (card points, TF-11;
  O = 20 − kitty points − D) by its length in the called suit, suit calls and no trump (x = its
  longest suit), with the friend and alone (95% t); (b) which call is best for the hand (the
  largest margin with the friend, ties shared) as shares of "a longest suit", "another suit",
  "no trump" by the declarer's suit-length pattern (95% t on the per-deal shares); (c) no
  trump − the longest suit, paired per deal, by the longest suit's length (95% t); (d) no
  friend − the friend for the longest-suit call, paired per deal, in the declarer's score
  relative to the other four (TF-12, TF-13: a win without friend costs every defender 2D − O),
  by the declarer's card points (95% t);
- ``trump_friend_dd.csv`` (per kind × length × friend: n, margin, win rate D > O with Wilson,
  relative score), ``trump_friend_dd_best.csv``, ``trump_friend_dd_notrump.csv`` (no trump −
  the longest suit, paired: margin, win D > O and the declarer's score change as trump-call
  counts them), ``trump_friend_dd_friend.csv`` (no friend − the friend, paired: the relative
  score and the win D > O; feature ``all`` = every deal);
- ``trump_friend_dd.md``.

As one of several levels of ``trump-call`` or ``friend-call`` (a solve run beside simulate runs:
``analyses.levels``) it is that question's open-hand level: its paired no-trump answers carry
trump-call's words, its paired friend answers friend-call's.  Groups are drawn from n ≥ 10
(``min_group``: fewer in runs under 200 deals); every group is in the tables.

Every hand is played under every call, so this is the value of the call itself with open
cards, an upper bound of real play (docs/solving.md), not what a bidder chose.
"""

from __future__ import annotations

from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import polars as pl

from analyses import common
from analyses.stats import group_moments, mean_aggs, mean_table, rate_table
from analyses.trump_call import HIGH_RANKS, NO_TRUMP, suit_count, suit_strength, pattern_name
from simcore.games.trump_friend.scoring import card_points, friend_alone, relative_score

NAME = "trump_friend_dd"
SOLVE_RUNS = True  # reads `simcore solve` runs (analyses.run_analysis refuses them elsewhere)
MIN_N = 10  # smallest group drawn from 200 deals up (solve runs are small: every group is in the tables)


def min_group(deals: int) -> int:
    """The smallest group drawn: MIN_N, less in runs of under 200 deals (at least 3), so a small
    run still shows its largest groups (with their wide intervals)."""
    return max(3, min(MIN_N, deals // 20))
KINDS = ("a longest suit", "another suit", "no trump")


def call_rows(hands: pl.LazyFrame) -> pl.LazyFrame:
    """One row per (deal, call): kind, the declarer's length and high cards in the called suit
    (no trump: its longest suit), its pattern and card points, and with the friend and without
    it the margin D − O and the relative score."""
    dh = common.seat_value("hand", pl.col("declarer"), 5).alias("_dh")
    base = hands.with_columns(dh).with_columns(
        *[common.suit_length(pl.col("_dh"), s).alias(f"len{s}") for s in range(4)],
        *[suit_count(pl.col("_dh"), s, HIGH_RANKS).alias(f"high{s}") for s in range(4)],
        *[(common.suit_length(pl.col("_dh"), s).cast(pl.Int32) * 1000 + suit_strength(pl.col("_dh"), s))
          .alias(f"_key{s}") for s in range(4)],
        (20 - card_points(pl.col("kitty"))).alias("in_play"), card_points(pl.col("_dh")).alias("points"))
    best_key = pl.max_horizontal([pl.col(f"_key{s}") for s in range(4)])
    base = base.with_columns(
        pl.coalesce([pl.when(pl.col(f"_key{s}") == best_key).then(pl.lit(s, pl.Int8)) for s in range(4)]).alias("longest_suit"),
        pl.max_horizontal([pl.col(f"len{s}") for s in range(4)]).alias("longest_length"),
        pl.sum_horizontal([pl.lit(16.0).pow(pl.col(f"len{s}")).cast(pl.Int64) for s in range(4)]).alias("shape"))
    parts = []
    for t in range(5):
        suit = pl.col("longest_suit") if t == NO_TRUMP else pl.lit(t)
        length = pl.coalesce([pl.when(suit == s).then(pl.col(f"len{s}")) for s in range(4)])
        high = pl.coalesce([pl.when(suit == s).then(pl.col(f"high{s}")) for s in range(4)])
        kind = (pl.lit(KINDS[2]) if t == NO_TRUMP else
                pl.when(length == pl.col("longest_length")).then(pl.lit(KINDS[0])).otherwise(pl.lit(KINDS[1])))
        d, solo = pl.col(f"dd_points{t}").cast(pl.Int16), pl.col(f"dd_solo{t}").cast(pl.Int16)
        with_friend = pl.when(friend_alone(t, pl.col("_dh"))).then(relative_score(d, pl.col("in_play"), "alone")) \
            .otherwise(relative_score(d, pl.col("in_play"), "player"))
        parts.append(base.select(
            "deal", pl.lit(t, pl.Int8).alias("trump"), kind.alias("kind"), length.alias("length"), high.alias("high"),
            "longest_length", "longest_suit", "shape", "points",
            (2 * d - pl.col("in_play")).alias("margin"), (2 * solo - pl.col("in_play")).alias("solo_margin"),
            with_friend.alias("relative"), relative_score(solo, pl.col("in_play"), "none").alias("solo_relative")))
    return pl.concat(parts)


def by_call_table(rows: pl.DataFrame) -> pl.DataFrame:
    """Per kind × length in the called suit × friend: n, margin (t), win rate (Wilson), relative (t)."""
    frames = []
    for friend, margin, rel in (("highest-trump friend", "margin", "relative"), ("no friend", "solo_margin", "solo_relative")):
        frames.append(rows.group_by("kind", "length").agg(
            pl.len().alias("n"), (pl.col(margin) > 0).sum().alias("successes"),
            *mean_aggs(pl.col(margin), "margin"), *mean_aggs(pl.col(rel), "relative"))
            .with_columns(pl.lit(friend).alias("friend")))
    t = pl.concat(frames).sort("friend", "kind", "length")
    t = mean_table(mean_table(rate_table(t, prefix="win_rate"), "margin", "margin", "margin_std"),
                   "relative", "relative", "relative_std")
    return t.select("friend", "kind", "length", pl.exclude("friend", "kind", "length"))


def per_deal(rows: pl.DataFrame) -> pl.DataFrame:
    """One row per deal: no trump − the longest suit (margin), no friend − friend for the longest
    suit (relative score), and each kind's share of the best calls (largest margin, ties shared)."""
    longest = pl.col("trump") == pl.col("longest_suit")
    nt = pl.col("trump") == NO_TRUMP
    best = pl.col("margin") == pl.col("margin").max()
    return rows.group_by("deal").agg(
        pl.col("longest_length").first(), pl.col("shape").first(), pl.col("points").first(),
        (pl.col("margin").filter(nt).first() - pl.col("margin").filter(longest).first()).cast(pl.Float64).alias("nt_change"),
        # as trump-call counts them: a win is D > O; the declarer loses its margin when D < O (TF-12)
        ((pl.col("margin") > 0).filter(nt).first().cast(pl.Float64)
         - (pl.col("margin") > 0).filter(longest).first().cast(pl.Float64)).alias("win_change"),
        (pl.col("margin").clip(upper_bound=0).filter(nt).first()
         - pl.col("margin").clip(upper_bound=0).filter(longest).first()).cast(pl.Float64).alias("delta_change"),
        (pl.col("solo_relative") - pl.col("relative")).filter(longest).first().alias("friend_change"),
        ((pl.col("solo_margin") > 0).filter(longest).first().cast(pl.Float64)
         - (pl.col("margin") > 0).filter(longest).first().cast(pl.Float64)).alias("friend_win_change"),
        *[((best & (pl.col("kind") == k)).sum() / best.sum()).alias(f"best_{i}") for i, k in enumerate(KINDS)])


def paired_tables(deals: pl.DataFrame):
    """(no trump − longest by longest length and overall; best-call shares by pattern; no friend −
    friend by card points and overall)."""
    def by(key, column, values):
        keys = deals[key].to_numpy() if key else np.zeros(deals.height, np.int64)
        t = group_moments(keys, {c: deals[c].to_numpy() for c in values}, "value").drop(*[f"{c}_sum" for c in values])
        t = t.with_columns(pl.lit(key or "all").alias("feature"))
        for c in values:
            t = mean_table(t, c, c, f"{c}_std")
        return t.select("feature", "value", pl.exclude("feature", "value"))

    changes = ["nt_change", "win_change", "delta_change"]
    nt = pl.concat([by("longest_length", None, changes), by(None, None, changes)])
    friend_changes = ["friend_change", "friend_win_change"]
    friend = pl.concat([by("points", None, friend_changes), by(None, None, friend_changes)])
    shares = [f"best_{i}" for i in range(3)]
    best = by("shape", None, shares).sort("n", "value", descending=True)
    best = best.with_columns(pl.col("value").map_elements(pattern_name, return_dtype=pl.String).alias("pattern")) \
        .drop("feature", "value").select("pattern", pl.exclude("pattern"))
    best = best.rename({f"best_{i}{suffix}": f"best_{k.replace(' ', '_')}{suffix}" for i, k in enumerate(KINDS)
                        for suffix in ("", "_std", "_low", "_high")})
    return nt, best, friend


def run(hands: pl.LazyFrame, manifest: dict, out: Path, data) -> list[Path]:
    from simcore.errors import SimcoreError

    if manifest.get("command") != "solve" or "dd_points0" not in hands.collect_schema().names():
        raise SimcoreError(f"trump-friend-dd reads a `simcore solve trump-friend` run (DD tables); {data} is "
                           "a simulate run: use trump-call or friend-call for it")
    rows = call_rows(hands).collect()
    by_call = by_call_table(rows)
    deals = per_deal(rows)
    nt, best, friend = paired_tables(deals)
    n = deals.height
    fig, axes = plt.subplots(2, 2, figsize=(14, 10), constrained_layout=True)
    _panels(axes.ravel(), by_call, nt, best, friend, min_group(n))
    common.suptitle(fig, f"Trump Friend, open-handed: the trump and friend call by the declarer's hand — {n:,} deals "
                         "× 5 calls, with the friend and alone (DD tables, best play by every seat)", manifest)
    chart = common.save_chart(fig, out, NAME)
    tables = [common.write_table(by_call, out, NAME), common.write_table(best, out, f"{NAME}_best"),
              common.write_table(nt, out, f"{NAME}_notrump"), common.write_table(friend, out, f"{NAME}_friend")]
    summary = common.write_summary(
        out, NAME, "Trump Friend, open-handed: the best call by hand, with and without a friend", chart,
        _finding(by_call, nt, best, friend, n), f"{n:,} deals from `{data}`, each under all five calls with the "
        f"{manifest.get('policies', {}).get('friend', 'highest')} friend policy's card and with no friend "
        f"({10 * n:,} open-hand values)", manifest, common.command("trump-friend-dd", data, out), tables,
        "open-hand DD tables (simcore solve trump-friend): every card seen, best play by every seat; margin D − O "
        "in card points (TF-11); relative score = the declarer's change minus the others' mean (TF-12, TF-13); "
        "t intervals for means and for per-deal paired differences and best-call shares, Wilson for win rates")
    return [chart, *tables, summary]


def _panels(axes, by_call, nt, best, friend, min_n: int) -> None:
    a, b, c, d = axes
    styles = {("highest-trump friend", KINDS[2]): ("--", "no trump, friend (x = longest suit)"),
              ("no friend", KINDS[2]): (":", "no trump, no friend")}
    for friend_kind, colour in (("highest-trump friend", "#4C72B0"), ("no friend", "#C44E52")):
        for kind, fmt in ((KINDS[0], "o-"), (KINDS[1], "s-")):
            g = by_call.filter((pl.col("friend") == friend_kind) & (pl.col("kind") == kind) & (pl.col("n") >= min_n)).sort("length")
            common.error_bars(a, g["length"].to_numpy() + (0.05 if kind == KINDS[1] else 0), g, "margin", "margin_low",
                              "margin_high", fmt=fmt, ms=3, color=colour, label=f"{kind}, {friend_kind}")
        fmt, label = styles[(friend_kind, KINDS[2])]
        g = by_call.filter((pl.col("friend") == friend_kind) & (pl.col("kind") == KINDS[2]) & (pl.col("n") >= min_n)).sort("length")
        common.error_bars(a, g["length"].to_numpy() - 0.05, g, "margin", "margin_low", "margin_high", fmt=fmt, ms=3,
                          color="black" if friend_kind.startswith("highest") else "grey", label=label)
    if not by_call.filter(pl.col("n") >= min_n).height:
        _empty(a, min_n)
    a.axhline(0, color="grey", lw=0.8)
    a.set_xlabel(f"cards the declarer holds in the called suit (groups n ≥ {min_n})")
    a.set_ylabel("open-hand margin D − O (card points)")
    a.set_title("Declarer's margin by call (95% t)")
    a.legend(fontsize=7)
    g = best.filter(pl.col("n") >= min_n).head(10)
    x = np.arange(g.height)
    for i, (kind, colour) in enumerate(zip(KINDS, ("#4C72B0", "#55A868", "#C44E52"))):
        col = f"best_{kind.replace(' ', '_')}"
        b.bar(x + (i - 1) * 0.27, 100 * g[col].to_numpy(), 0.27, color=colour, label=kind)
        common.error_bars(b, x + (i - 1) * 0.27, g, col, f"{col}_low", f"{col}_high", scale=100, fmt="none",
                          ecolor="black", elinewidth=0.7)
    if not g.height:
        _empty(b, min_n)
    b.set_xticks(x, [f"{p}\nn={k}" for p, k in zip(g["pattern"], g["n"])], fontsize=7)
    b.set_ylabel("share of deals where it is the best call (%)")
    b.set_title(f"Best call by pattern, n ≥ {min_n} (largest margin with the friend; 95% t)")
    b.legend(fontsize=7)
    for ax, t, col, xlabel, ylabel, title in (
            (c, nt, "nt_change", "the declarer's longest suit (cards)", "no trump − longest suit: margin (card points)",
             "No trump instead of the longest suit, paired by deal (95% t)"),
            (d, friend, "friend_change", "the declarer's card points (A 2, K Q J 1)",
             "no friend − friend: relative score (points)",
             "No friend instead of the friend, longest-suit call, paired (95% t)")):
        g = t.filter((pl.col("feature") != "all") & (pl.col("n") >= min_n)).sort("value")
        common.error_bars(ax, g["value"].to_numpy(), g, col, f"{col}_low", f"{col}_high", fmt="o-", ms=3,
                          label="by group")
        every = _overall(t)
        ax.axhline(every[col], color="#C44E52", lw=1, ls="--", label=f"all deals (n = {every['n']:,}, 95% t band)")
        if np.isfinite(every[f"{col}_low"]):
            ax.axhspan(every[f"{col}_low"], every[f"{col}_high"], color="#C44E52", alpha=0.12)
        ax.legend(fontsize=7)
        ax.axhline(0, color="grey", lw=0.8)
        ax.set_xlabel(f"{xlabel} (groups n ≥ {min_n})")
        ax.set_ylabel(ylabel)
        ax.set_title(title)


def _empty(ax, min_n: int) -> None:
    ax.text(0.5, 0.5, f"no group of n ≥ {min_n} in this run:\nevery group is in the tables", transform=ax.transAxes,
            ha="center", va="center", fontsize=9, color="grey")


def _overall(t: pl.DataFrame) -> dict:
    return t.filter(pl.col("feature") == "all").row(0, named=True)


def _finding(by_call, nt, best, friend, n) -> str:
    r = _overall(nt)
    text = (f"Open-handed, over {n:,} deals, no trump gives the declarer {r['nt_change']:+.2f} "
            f"[{r['nt_change_low']:+.2f}, {r['nt_change_high']:+.2f}] card points of margin against its longest suit "
            "(paired, 95% CI).")
    shares = {k: float((best[f"best_{k.replace(' ', '_')}"] * best["n"]).sum() / best["n"].sum()) for k in KINDS}
    text += (f" The best call with the friend was a longest suit in {common.pct(shares[KINDS[0]])} of deals, another "
             f"suit in {common.pct(shares[KINDS[1]])} and no trump in {common.pct(shares[KINDS[2]])} (ties shared).")
    r = _overall(friend)
    word = ("better" if r["friend_change_low"] > 0 else "worse" if r["friend_change_high"] < 0 else
            "not significantly different")
    text += (f" Calling no friend instead of the highest-trump friend (longest-suit call) changes the declarer's score "
             f"relative to the others by {r['friend_change']:+.2f} [{r['friend_change_low']:+.2f}, "
             f"{r['friend_change_high']:+.2f}] points a round: {word}.")
    return text


def level_claims(out: Path, asked_by: str | None = None) -> list:
    """The answers compared across several solve runs (e.g. other rules: ``--label``), and as
    the open-hand level of another question (``asked_by``): of trump-call its paired no-trump
    questions, of friend-call its paired friend questions, each in that analysis's words."""
    from analyses.friend_call import FRIEND_RELATIVE, FRIEND_WIN, FRIEND_WORDS
    from analyses.levels import mean_claim
    from analyses.trump_call import NOTRUMP_DELTA, NOTRUMP_WIN, NOTRUMP_WORDS

    trump, friend = [], []
    r = pl.read_csv(out / f"{NAME}_notrump.csv").filter(pl.col("feature") == "all")
    if r.height:
        r = r.row(0, named=True)
        trump += [mean_claim(NOTRUMP_WIN, r["win_change"], r["win_change_std"], r["n"], *NOTRUMP_WORDS,
                             "win rate change (points)", 100),
                  mean_claim(NOTRUMP_DELTA, r["delta_change"], r["delta_change_std"], r["n"], *NOTRUMP_WORDS,
                             "points per round"),
                  mean_claim("No trump instead of the longest suit (open-hand margin, paired)", r["nt_change"],
                             r["nt_change_std"], r["n"], "the longest suit is better", "no trump is better",
                             "neither is significantly better", "card points")]
    r = pl.read_csv(out / f"{NAME}_friend.csv").filter(pl.col("feature") == "all")
    if r.height:
        r = r.row(0, named=True)
        friend += [mean_claim(FRIEND_WIN, r["friend_win_change"], r["friend_win_change_std"], r["n"], *FRIEND_WORDS,
                              "win rate change (points)", 100),
                   mean_claim(FRIEND_RELATIVE, r["friend_change"], r["friend_change_std"], r["n"], *FRIEND_WORDS,
                              "relative score change per round")]
    return {"trump-call": trump, "friend-call": friend}.get(asked_by, trump + friend)
