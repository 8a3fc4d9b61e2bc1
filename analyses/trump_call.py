"""Trump Friend: how does the trump call change the declarer's chances?

**What-if run** (``simcore simulate trump-friend --what-if trump``: every deal played under all
five calls, the same cards, one row per (deal, option)) — the comparison is paired by deal:

- ``trump_call.png``: (a) the declarer side's win rate by call (95% Wilson) and (b) the
  declarer's mean score change by call (95% t); (c) the win rate and (d) the mean score change
  of suit calls against the declarer's length in the called suit, one line per number of high
  cards held in it (3, 2, A, K: the top four ranks, TF-3), with no trump plotted against the
  declarer's longest suit; (e) no trump minus the declarer's longest suit, paired per deal, by
  the longest suit's length (95% t); (f) which call is best for the hand (the call with the
  largest point margin D − O; ties shared) by the declarer's suit-length pattern;
- ``trump_call.csv`` (by call), ``trump_call_by_length.csv`` (by kind × length × high cards),
  ``trump_call_notrump.csv`` (paired no trump − longest suit), ``trump_call_best.csv`` (best
  call's share by pattern);
- ``trump_call.md``: the finding computed from the tables, the sample, policies, rules, command.

**Observational run** (no ``option`` column; best made with ``--policy trump=random`` so every
call is tried on comparable hands): panels (a)–(d) from the calls the policy made, and the
summary says "observational".

The declarer's score change is its own delta (TF-12: only the losing side's members lose
points, so it is 0 when the declarer's side wins and negative otherwise).
"""

from __future__ import annotations

from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import polars as pl

from analyses import common
from analyses.stats import group_moments, mean_table, rate_table

NAME = "trump_call"
CALLS = ["clubs", "diamonds", "hearts", "spades", "no trump"]
NO_TRUMP = 4
# public ranks (simcore.cards): 2 -> 0, 3 -> 1, ..., K -> 11, A -> 12
HIGH_RANKS = (1, 0, 12, 11)  # 3, 2, A, K: the top four of TF-3's order 3 2 A K Q J 10 … 4
# TF-3 strength of each public rank (4 = 1 … A = 11, 2 = 12, 3 = 13): the `longest` policy's tie-break
TF_STRENGTH = [12, 13] + list(range(1, 12))
MIN_N = 200  # smallest group drawn on the charts (every group is in the tables)


def suit_count(hand: pl.Expr, suit: int, ranks) -> pl.Expr:
    """How many of the suit's cards of these ranks (0 = 2 ... 12 = A) the hand holds."""
    return common.count_in(hand, sum(1 << (13 * suit + r) for r in ranks))


def suit_strength(hand: pl.Expr, suit: int) -> pl.Expr:
    """Sum of TF-3 strengths of the suit's cards: four bit-planes, four popcounts."""
    total = pl.lit(0, dtype=pl.Int32)
    for bit in range(4):
        ranks = [r for r in range(13) if TF_STRENGTH[r] >> bit & 1]
        total = total + suit_count(hand, suit, ranks).cast(pl.Int32) * (1 << bit)
    return total


def declarer_features(hands: pl.LazyFrame) -> pl.LazyFrame:
    """Adds the declarer's hand features (no per-row lists, no Python per row):
    ``len0..3``, ``high0..3`` (3 2 A K held per suit), ``longest_length``, ``longest_suit``
    (the suit the default ``longest`` trump policy calls: length, then TF-3 rank total, then
    the lower suit), ``longest_high``, ``shape`` (the suit-length pattern, see
    ``pattern_name``) and ``declarer_delta``."""
    dh = common.seat_value("hand", pl.col("declarer"), 5).alias("_dh")
    lengths = [common.suit_length(pl.col("_dh"), s).alias(f"len{s}") for s in range(4)]
    highs = [suit_count(pl.col("_dh"), s, HIGH_RANKS).alias(f"high{s}") for s in range(4)]
    keys = [(common.suit_length(pl.col("_dh"), s).cast(pl.Int32) * 1000 + suit_strength(pl.col("_dh"), s))
            .alias(f"_key{s}") for s in range(4)]
    best_key = pl.max_horizontal([pl.col(f"_key{s}") for s in range(4)])
    longest_suit = pl.coalesce([pl.when(pl.col(f"_key{s}") == best_key).then(pl.lit(s, dtype=pl.Int8))
                                for s in range(4)])
    # the suit-length pattern as an integer (sum of 16**length: a histogram of the lengths, so
    # the same for every order of the suits); ``pattern_name`` turns it into "4-3-2-1"
    shape = pl.sum_horizontal([pl.lit(16.0).pow(pl.col(f"len{s}")).cast(pl.Int64) for s in range(4)])
    return (
        hands.with_columns(dh, common.seat_value("delta", pl.col("declarer"), 5).alias("declarer_delta"))
        .with_columns(*lengths, *highs, *keys)
        .with_columns(longest_suit.alias("longest_suit"),
                      pl.max_horizontal([pl.col(f"len{s}") for s in range(4)]).alias("longest_length"))
        .with_columns(
            pl.coalesce([pl.when(pl.col("longest_suit") == s).then(pl.col(f"high{s}")) for s in range(4)])
            .alias("longest_high"),
            shape.alias("shape"),
        )
        .drop("_dh", *[f"_key{s}" for s in range(4)])
    )


def pattern_name(shape: int) -> str:
    """``shape`` (sum of 16**length over the four suits) -> "4-3-2-1" (longest first)."""
    lengths = []
    for length in range(13, -1, -1):
        lengths += [length] * ((int(shape) >> (4 * length)) & 15)
    return "-".join(map(str, lengths))


def call_features(hands: pl.LazyFrame) -> pl.LazyFrame:
    """One row per played call: ``no_trump`` (else a suit call), ``length`` and ``high`` (in the
    called suit; for no trump, of the declarer's longest suit), win flag, score change, margin."""
    rows = declarer_features(hands)
    called_len = pl.coalesce([pl.when(pl.col("trump") == s).then(pl.col(f"len{s}")) for s in range(4)])
    called_high = pl.coalesce([pl.when(pl.col("trump") == s).then(pl.col(f"high{s}")) for s in range(4)])
    nt = pl.col("trump") == NO_TRUMP
    return rows.with_columns(
        nt.alias("no_trump"),
        pl.when(nt).then(pl.col("longest_length")).otherwise(called_len).alias("length"),
        pl.when(nt).then(pl.col("longest_high")).otherwise(called_high).alias("high"),
        (pl.col("declarer_team_points").cast(pl.Int16) - pl.col("defender_points").cast(pl.Int16)).alias("margin"),
    )


def _finish(frame: pl.DataFrame) -> pl.DataFrame:
    return mean_table(rate_table(frame), "mean_delta", "mean_delta", "mean_delta_std")


ROW_COLUMNS = ("deal", "trump", "declarer_won", "declarer_delta", "margin", "no_trump", "length", "high",
               "longest_length", "longest_suit", "shape")


def collect_rows(hands: pl.LazyFrame) -> pl.DataFrame:
    """The narrow per-row frame every table is computed from: one scan of the run, a few small
    integer columns per row (about 25 bytes), so 10 million rows stay near 250 MB."""
    return call_features(hands).select(ROW_COLUMNS).collect()


def _moments(keys: np.ndarray, rows: pl.DataFrame) -> pl.DataFrame:
    """n, successes, mean_delta and mean_delta_std per key (``group_moments``: bincounts)."""
    t = group_moments(keys, {"won": rows["declarer_won"].to_numpy(),
                             "mean_delta": rows["declarer_delta"].to_numpy()})
    return t.select("key", "n", pl.col("won_sum").round().cast(pl.Int64).alias("successes"),
                    "mean_delta", "mean_delta_std")


def tables(rows: pl.DataFrame) -> tuple[pl.DataFrame, pl.DataFrame]:
    """(by call, by kind × length × high cards, plus kind × length over all high cards) from
    ``collect_rows``: every row of the run counts once in each."""
    trump = rows["trump"].to_numpy().astype(np.int64)
    by_call = _finish(_moments(trump, rows).rename({"key": "trump"}).sort("trump"))
    by_call = by_call.with_columns(pl.col("trump").cast(pl.Int8),
                                   pl.col("trump").replace_strict(list(range(5)), CALLS).alias("call"))
    nt = rows["no_trump"].to_numpy().astype(np.int64)
    length = rows["length"].to_numpy().astype(np.int64)
    high = rows["high"].to_numpy().astype(np.int64)
    by_high = _moments(nt * 1024 + length * 16 + high, rows).with_columns(pl.col("key").mod(16).alias("high"))
    by_any = _moments(nt * 1024 + length * 16 + 15, rows).with_columns(pl.lit(None, dtype=pl.Int64).alias("high"))
    kind = (pl.when(pl.col("key") >= 1024).then(pl.lit("no trump (longest suit)"))
            .otherwise(pl.lit("suit call (called suit)")).alias("kind"))
    by_length = (pl.concat([by_high, by_any])
                 .select(kind, (pl.col("key").mod(1024) // 16).alias("length"), "high",
                         pl.exclude("key", "high")))
    return by_call, _finish(by_length.sort("kind", "length", "high", nulls_last=True))


def per_deal(rows: pl.DataFrame) -> pl.DataFrame:
    """One row per deal of a what-if trump run: the declarer's longest suit, its pattern, the
    change no trump − longest suit (win, score) and each kind of call's share of the best
    calls (largest margin D − O, ties shared).

    What-if rows are deal-major, the five calls in order: then the columns are reshaped to
    (deals, 5) and compared with numpy, no grouping.  Any other layout (a run re-sorted or
    filtered by hand) goes through a polars ``group_by`` on the deal, with the same result."""
    n = rows.height
    if n and n % 5 == 0:
        deal = rows["deal"].to_numpy().reshape(-1, 5)
        trump = rows["trump"].to_numpy().reshape(-1, 5)
        first = deal[:, 0]
        if ((deal == first[:, None]).all() and (trump == np.arange(5)).all()
                and (first.size < 2 or (np.diff(first.astype(np.int64)) > 0).all())):
            return _per_deal_numpy(rows, first.size)
    return _per_deal_grouped(rows)


def _per_deal_numpy(rows: pl.DataFrame, deals: int) -> pl.DataFrame:
    def col(name, dtype=np.int64):
        return rows[name].to_numpy().astype(dtype).reshape(deals, 5)

    won, delta, margin, length = col("declarer_won"), col("declarer_delta"), col("margin"), col("length")
    longest = rows["longest_suit"].to_numpy()[::5].astype(np.int64)
    longest_length = rows["longest_length"].to_numpy()[::5]
    at = np.arange(deals)
    best = margin == margin.max(axis=1, keepdims=True)
    n_best = best.sum(axis=1)
    best_long = (best[:, :4] & (length[:, :4] == longest_length[:, None])).sum(axis=1)
    return pl.DataFrame({
        "calls": np.full(deals, 5), "longest_length": longest_length, "shape": rows["shape"].to_numpy()[::5],
        "win_change": (won[:, 4] - won[at, longest]).astype(float),
        "delta_change": (delta[:, 4] - delta[at, longest]).astype(float),
        "best_notrump": best[:, 4] / n_best, "best_longest": best_long / n_best,
    }).with_columns((1 - pl.col("best_notrump") - pl.col("best_longest")).alias("best_other"))


def _per_deal_grouped(rows: pl.DataFrame) -> pl.DataFrame:
    nt = pl.col("trump") == NO_TRUMP
    longest = pl.col("trump") == pl.col("longest_suit")
    best = pl.col("margin") == pl.col("margin").max()
    won = pl.col("declarer_won").cast(pl.Float64)
    delta = pl.col("declarer_delta").cast(pl.Float64)
    return (
        rows.group_by("deal")
        .agg(
            pl.len().alias("calls"), pl.col("longest_length").first(), pl.col("shape").first(),
            (won.filter(nt).sum() - won.filter(longest).sum()).alias("win_change"),
            (delta.filter(nt).sum() - delta.filter(longest).sum()).alias("delta_change"),
            ((best & nt).sum() / best.sum()).alias("best_notrump"),
            ((best & ~nt & (pl.col("length") == pl.col("longest_length"))).sum() / best.sum()).alias("best_longest"),
            pl.col("trump").n_unique().alias("_calls"),
        )
        .with_columns(pl.min_horizontal("calls", "_calls").alias("calls"))
        .drop("deal", "_calls")
        .with_columns((1 - pl.col("best_notrump") - pl.col("best_longest")).alias("best_other"))
    )


def paired_tables(rows: pl.DataFrame) -> tuple[pl.DataFrame, pl.DataFrame, int]:
    """From a what-if trump run's ``collect_rows``: (no trump − longest suit per deal, by the
    longest suit's length and overall; best call's share by suit-length pattern; deals)."""
    deals = per_deal(rows)
    if deals.height == 0 or deals["calls"].min() != 5 or deals["calls"].max() != 5:
        from simcore.errors import SimcoreError

        raise SimcoreError("a --what-if trump run must have five rows (one per call) for every deal")
    changes = {"win_change": deals["win_change"].to_numpy(), "delta_change": deals["delta_change"].to_numpy()}
    nt_table = group_moments(deals["longest_length"].to_numpy(), changes, "longest_length").sort("longest_length")
    overall = group_moments(np.zeros(deals.height, dtype=np.int64), changes, "longest_length")
    nt_table = pl.concat([nt_table, overall.with_columns(pl.lit(None, dtype=nt_table["longest_length"].dtype)
                                                         .alias("longest_length"))])
    nt_table = nt_table.drop("win_change_sum", "delta_change_sum")
    nt_table = mean_table(mean_table(nt_table, "win_change", "win_change", "win_change_std"),
                          "delta_change", "delta_change", "delta_change_std")
    shares = ("best_notrump", "best_longest", "best_other")
    best_table = (group_moments(deals["shape"].to_numpy(), {c: deals[c].to_numpy() for c in shares}, "shape")
                  .drop(*[f"{c}_sum" for c in shares]).sort("n", "shape", descending=True))
    best_table = best_table.select(
        pl.col("shape").map_elements(pattern_name, return_dtype=pl.String).alias("pattern"), pl.exclude("shape"))
    for c in shares:
        best_table = mean_table(best_table, c, c, f"{c}_std")
    return nt_table, best_table, deals.height


# ---------------------------------------------------------------- chart and summary


def _lines(ax, by_length: pl.DataFrame, value: str, scale: float) -> None:
    suit = by_length.filter(pl.col("kind").str.starts_with("suit") & (pl.col("n") >= MIN_N)
                            & pl.col("high").is_not_null())
    cmap = plt.get_cmap("viridis")
    for high in sorted(suit["high"].unique().to_list()):
        g = suit.filter(pl.col("high") == high).sort("length")
        ax.plot(g["length"], scale * g[value], marker="o", ms=3, color=cmap(high / 4),
                label=f"suit call, {high} of 3 2 A K")
        ax.fill_between(g["length"], scale * g[f"{value}_low"], scale * g[f"{value}_high"],
                        color=cmap(high / 4), alpha=0.2)
    # no trump against the longest suit, whatever its high cards
    nt = (by_length.filter(pl.col("kind").str.starts_with("no trump") & pl.col("high").is_null()
                           & (pl.col("n") >= MIN_N)).sort("length"))
    ax.plot(nt["length"], scale * nt[value], "k--", marker="s", ms=3, label="no trump (x = longest suit)")
    ax.fill_between(nt["length"], scale * nt[f"{value}_low"], scale * nt[f"{value}_high"], color="k", alpha=0.15)
    ax.set_xlabel("cards the declarer holds in the called suit")
    ax.xaxis.get_major_locator().set_params(integer=True)


def run(hands: pl.LazyFrame, manifest: dict, out: Path, data) -> list[Path]:
    r = common.RunInput(Path(data), manifest, hands)
    wi = common.what_if(r)
    paired = wi is not None
    if paired and "trump" not in (wi, "unknown decision"):
        from simcore.errors import SimcoreError

        raise SimcoreError(f"trump-call reads a --what-if trump run or an ordinary run; {data} is --what-if {wi}")
    rows = collect_rows(hands)
    by_call, by_length = tables(rows)
    n_rows = int(by_call["n"].sum())
    if paired:
        nt_table, best_table, n_deals = paired_tables(rows)
        fig, axes = plt.subplots(2, 3, figsize=(18, 10), constrained_layout=True)
        axes = axes.ravel()
    else:
        nt_table = best_table = None
        n_deals = n_rows
        fig, axes = plt.subplots(2, 2, figsize=(13, 10), constrained_layout=True)
        axes = axes.ravel()
    x = np.arange(by_call.height)
    for ax, value, low, high, scale, ylabel, title in (
        (axes[0], "rate", "rate_low", "rate_high", 100, "declarer's side wins the round (%)",
         "Win rate by call (95% Wilson)"),
        (axes[1] if not paired else axes[3], "mean_delta", "mean_delta_low", "mean_delta_high", 1,
         "declarer's score change per round (points)", "Declarer's mean score change by call (95% t)"),
    ):
        ax.bar(x, scale * by_call[value].to_numpy(), color="#4C72B0", alpha=0.8)
        common.error_bars(ax, x, by_call, value, low, high, scale=scale, fmt="none", ecolor="black")
        ax.set_xticks(x, by_call["call"].to_list())
        ax.set_xlabel("trump call")
        ax.set_ylabel(ylabel)
        ax.set_title(title)
        if value == "rate":
            for xi, n in zip(x, by_call["n"].to_list()):
                ax.annotate(f"n={n:,}", (xi, 0), xytext=(0, 3), textcoords="offset points", ha="center",
                            fontsize=7, color="white")
    ax_rate, ax_delta = (axes[1], axes[4]) if paired else (axes[2], axes[3])
    _lines(ax_rate, by_length, "rate", 100)
    ax_rate.set_ylabel("declarer's side wins the round (%)")
    ax_rate.set_title(f"Win rate by length and high cards in the called suit (95% Wilson; n ≥ {MIN_N})")
    ax_rate.legend(fontsize=7)
    _lines(ax_delta, by_length, "mean_delta", 1)
    ax_delta.set_ylabel("declarer's score change per round (points)")
    ax_delta.set_title(f"Mean score change by length and high cards (95% t; n ≥ {MIN_N})")
    ax_delta.legend(fontsize=7)
    if paired:
        ax = axes[2]
        g = nt_table.filter(pl.col("longest_length").is_not_null() & (pl.col("n") >= MIN_N))
        common.error_bars(ax, g["longest_length"].to_numpy(), g, "win_change", "win_change_low",
                          "win_change_high", scale=100, fmt="o-", color="#C44E52")
        ax.axhline(0, color="grey", lw=0.8)
        ax.set_xlabel("length of the declarer's longest suit")
        ax.xaxis.get_major_locator().set_params(integer=True)
        ax.set_ylabel("win rate: no trump − longest suit (percentage points)")
        ax.set_title(f"No trump vs the longest suit, paired per deal (95% t; n ≥ {MIN_N})")
        ax = axes[5]
        g = best_table.filter(pl.col("n") >= MIN_N).head(12)
        xs = np.arange(g.height)
        width = 0.27
        for i, (col, label, colour) in enumerate((("best_longest", "a longest suit", "#4C72B0"),
                                                  ("best_other", "another suit", "#55A868"),
                                                  ("best_notrump", "no trump", "#C44E52"))):
            ax.bar(xs + (i - 1) * width, 100 * g[col].to_numpy(), width, color=colour, label=label, alpha=0.85)
            common.error_bars(ax, xs + (i - 1) * width, g, col, f"{col}_low", f"{col}_high", scale=100,
                              fmt="none", ecolor="black", elinewidth=0.8)
        ax.set_xticks(xs, [f"{p}\n{n:,}" for p, n in zip(g["pattern"], g["n"])], fontsize=7)
        ax.set_xlabel("declarer's suit lengths (12 commonest patterns; deals below each)")
        ax.set_ylabel("share of deals where the call is best (%)")
        ax.set_title("Best call for the hand: largest margin D − O (ties shared; 95% t)")
        ax.legend(fontsize=7)
    mode = (f"what-if trump: {n_deals:,} deals × 5 calls (paired)" if paired else
            f"{n_deals:,} deals, observational (the calls the trump policy made)")
    common.suptitle(fig, f"Trump Friend: the declarer's side by trump call — {mode}", manifest)
    chart = common.save_chart(fig, out, NAME)
    written = [chart, common.write_table(by_call, out, NAME), common.write_table(by_length, out, f"{NAME}_by_length")]
    if paired:
        written += [common.write_table(nt_table, out, f"{NAME}_notrump"),
                    common.write_table(best_table, out, f"{NAME}_best")]
    method = ("what-if trump: every deal played under all five calls with the same cards and policy "
              "streams; Wilson intervals for win rates and t intervals for mean score changes per call; "
              "paired per-deal differences (no trump − the suit the `longest` policy would call) with t "
              "intervals; best call = largest point margin D − O, ties shared equally, t intervals on the "
              "per-deal shares. In the length × high-cards table a deal can put two suit calls in the "
              "same group, so those intervals are slightly too narrow"
              if paired else
              "observational: each deal under the call the run's trump policy made; Wilson intervals "
              "for win rates, t intervals for mean score changes")
    written.append(common.write_summary(
        out, NAME, "Trump Friend: win rate and score change by trump call", chart,
        _finding(by_call, by_length, nt_table, best_table, paired),
        f"{n_deals:,} deals ({n_rows:,} rows) from `{data}`", manifest,
        common.command("trump-call", data, out), written[1:], method))
    return written


def _finding(by_call, by_length, nt_table, best_table, paired: bool) -> str:
    suits = by_call.filter(pl.col("trump") < NO_TRUMP)
    parts = []
    if suits.height:
        parts.append(f"suit calls won {common.pct(suits['rate'].min())}–{common.pct(suits['rate'].max())} "
                     f"of rounds")
    nt = by_call.filter(pl.col("trump") == NO_TRUMP)
    if nt.height:
        r = nt.row(0, named=True)
        parts.append(f"no trump {common.pct(r['rate'])} (95% CI {common.pct(r['rate_low'])}–"
                     f"{common.pct(r['rate_high'])}, mean score change {r['mean_delta']:+.2f})")
    suit_rows = by_length.filter(pl.col("kind").str.starts_with("suit") & (pl.col("n") >= MIN_N))
    by_len = suit_rows.filter(pl.col("high").is_null()).sort("length")
    suit_rows = suit_rows.filter(pl.col("high").is_not_null())
    if by_len.height:
        lo, hi = by_len.row(0, named=True), by_len.row(-1, named=True)
        parts.append(f"a suit call won {common.pct(hi['rate'])} with {hi['length']} cards of it and "
                     f"{common.pct(lo['rate'])} with {lo['length']}")
        at = suit_rows.filter(pl.col("length") == 4).sort("high")
        if at.height >= 2:
            parts.append(f"with 4 cards of the called suit it won "
                         + ", ".join(common.pct(v) for v in at["rate"])
                         + f" holding {at['high'][0]}–{at['high'][-1]} of 3 2 A K")
    text = ("Every deal under all five calls: " if paired else "Observational: ") + "; ".join(parts) + "."
    if paired:
        o = nt_table.filter(pl.col("longest_length").is_null()).row(0, named=True)
        text += (f" No trump instead of the longest suit changed the win rate by "
                 f"{100 * o['win_change']:+.1f} points (95% CI {100 * o['win_change_low']:+.1f} to "
                 f"{100 * o['win_change_high']:+.1f}) and the declarer's score by {o['delta_change']:+.2f}")
        better = nt_table.filter(pl.col("longest_length").is_not_null() & (pl.col("n") >= MIN_N)
                                 & (pl.col("win_change_low") > 0))
        text += (f"; it was better only when the longest suit had {', '.join(map(str, better['longest_length']))} cards."
                 if better.height else "; no length of longest suit made no trump significantly better.")
        tot = best_table["n"].sum()
        shares = {c: float((best_table[c] * best_table["n"]).sum() / tot)
                  for c in ("best_longest", "best_other", "best_notrump")}
        text += (f" The best call (largest margin, ties shared) was a longest suit in {common.pct(shares['best_longest'])} "
                 f"of deals, another suit in {common.pct(shares['best_other'])} and no trump in "
                 f"{common.pct(shares['best_notrump'])}.")
    return text


# The paired no-trump questions, asked in the same words of the open-hand level (trump-friend-dd)
NOTRUMP_WIN = "No trump instead of the longest suit: the declarer side's win rate (paired per deal)"
NOTRUMP_DELTA = "No trump instead of the longest suit: the declarer's score change (paired per deal)"
NOTRUMP_WORDS = ("no trump is worse than the longest suit", "no trump is better than the longest suit",
                 "no trump and the longest suit do not differ significantly")


def level_claims(out: Path) -> list:
    """The answers compared across levels of play (``analyses.levels``), from this level's tables."""
    from analyses.levels import difference, interval_claim, mean_claim

    words = NOTRUMP_WORDS
    path = out / f"{NAME}_notrump.csv"
    if not path.is_file():
        # observational: no trump's rounds against the suit calls' (independent groups)
        t = pl.read_csv(out / f"{NAME}.csv")
        nt, suits = t.filter(pl.col("trump") == NO_TRUMP), t.filter(pl.col("trump") < NO_TRUMP)
        if not nt.height or not suits.height:
            return []
        p1, n1 = nt["successes"].sum() / nt["n"].sum(), int(nt["n"].sum())
        p2, n2 = suits["successes"].sum() / suits["n"].sum(), int(suits["n"].sum())
        d, lo, hi = difference(p1, np.sqrt(p1 * (1 - p1)), n1, p2, np.sqrt(p2 * (1 - p2)), n2)
        return [interval_claim("No trump against the suit calls: win rate (observational, the calls the policy made)",
                               d, lo, hi, "no trump wins less often than the suit calls",
                               "no trump wins more often than the suit calls", "no significant difference",
                               "win rate difference (points)", n1 + n2, 100)]
    o = pl.read_csv(path).filter(pl.col("longest_length").is_null()).row(0, named=True)
    return [mean_claim(NOTRUMP_WIN, o["win_change"], o["win_change_std"], o["n"], *words,
                       "win rate change (points)", 100),
            mean_claim(NOTRUMP_DELTA, o["delta_change"], o["delta_change_std"], o["n"], *words, "points per round")]
