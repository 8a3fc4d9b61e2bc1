"""Trump Friend: how does the trump call change the declarer's chances?

Reads a trump-friend hands run (best made with ``--policy trump=random`` so that every call is
tried on comparable hands) and writes:

- ``trump_call.png``: (left) the declarer side's win rate for each call with 95% Wilson
  intervals; (right) the win rate against the declarer's length in the called suit, with no
  trump plotted against the declarer's longest suit;
- ``trump_call.csv`` and ``trump_call_by_length.csv``: the tables behind both panels;
- ``trump_call.md``: the finding in one sentence, the sample, policies, rules and command.
"""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import polars as pl  # noqa: E402

from analyses.common import seat_value  # noqa: E402
from analyses.stats import mean_table, rate_table  # noqa: E402

CALLS = ["clubs", "diamonds", "hearts", "spades", "no trump"]


def _suit_length(hand: pl.Expr, suit: int) -> pl.Expr:
    shifted = hand // pl.lit(1 << (13 * suit), dtype=pl.UInt64)
    return (shifted % pl.lit(1 << 13, dtype=pl.UInt64)).bitwise_count_ones().cast(pl.Int8)


def features(hands: pl.LazyFrame) -> pl.LazyFrame:
    """One row per deal: the call, the declarer's suit lengths, win flag and score change."""
    # a when/then chain, not concat_list(...).list.get: no per-row list is built
    declarer_hand = seat_value("hand", pl.col("declarer"), 5)
    declarer_delta = seat_value("delta", pl.col("declarer"), 5)
    lengths = [_suit_length(pl.col("_dh"), s).alias(f"_len{s}") for s in range(4)]
    called = pl.coalesce([pl.when(pl.col("trump") == s).then(pl.col(f"_len{s}")) for s in range(4)])
    return (
        hands.select("trump", "declarer_won", declarer_hand.alias("_dh"), declarer_delta.alias("declarer_delta"))
        .with_columns(lengths)
        .with_columns(
            called.alias("called_length"),
            pl.max_horizontal([pl.col(f"_len{s}") for s in range(4)]).alias("longest_length"),
        )
        .drop("_dh", *[f"_len{s}" for s in range(4)])
    )


def tables(hands: pl.LazyFrame) -> tuple[pl.DataFrame, pl.DataFrame]:
    rows = features(hands)
    aggregates = [
        pl.len().alias("n"),
        pl.col("declarer_won").sum().alias("successes"),
        pl.col("declarer_delta").cast(pl.Float64).mean().alias("mean_delta"),
        pl.col("declarer_delta").cast(pl.Float64).std().alias("std_delta"),
    ]
    by_call = rows.group_by("trump").agg(aggregates).sort("trump").collect()
    by_call = mean_table(rate_table(by_call), "mean_delta", "mean_delta", "std_delta")
    by_call = by_call.with_columns(pl.col("trump").map_elements(lambda t: CALLS[t], return_dtype=pl.String).alias("call"))
    length = pl.when(pl.col("trump") == 4).then(pl.col("longest_length")).otherwise(pl.col("called_length"))
    by_length = (
        rows.with_columns(
            pl.when(pl.col("trump") == 4).then(pl.lit("no trump (longest suit)")).otherwise(pl.lit("suit call (called suit)")).alias("kind"),
            length.alias("length"),
        )
        .group_by("kind", "length")
        .agg(aggregates)
        .sort("kind", "length")
        .collect()
    )
    by_length = mean_table(rate_table(by_length), "mean_delta", "mean_delta", "std_delta")
    return by_call, by_length


def _caption(manifest: dict) -> str:
    pol = manifest["policies"]
    seats = sorted(set(pol["seats"]))
    rules = ", ".join(f"{k}={v}" for k, v in manifest["rules"].items())
    return (f"play: {'/'.join(seats)}; trump call: {pol['trump']}; friend call: {pol['friend']}; "
            f"rules: {rules}; seed {manifest['seed']}")


def run(hands: pl.LazyFrame, manifest: dict, out: Path, data) -> list[Path]:
    by_call, by_length = tables(hands)
    n_total = int(by_call["n"].sum())
    fig, (left, right) = plt.subplots(1, 2, figsize=(12, 5), constrained_layout=True)
    x = list(range(by_call.height))
    rate = by_call["rate"].to_numpy()
    left.bar(x, 100 * rate, color="#4C72B0")
    left.errorbar(x, 100 * rate,
                  yerr=[100 * (rate - by_call["rate_low"].to_numpy()), 100 * (by_call["rate_high"].to_numpy() - rate)],
                  fmt="none", ecolor="black", capsize=4)
    left.set_xticks(x, by_call["call"].to_list())
    left.set_ylabel("declarer side wins the round (%)")
    left.set_xlabel("trump call")
    left.set_title("Win rate by trump call (95% Wilson intervals)")
    for xi, n in zip(x, by_call["n"].to_list()):
        left.annotate(f"n={n:,}", (xi, 1), ha="center", fontsize=8, color="white")
    for kind, group in by_length.filter(pl.col("n") >= 200).group_by("kind", maintain_order=True):
        g = group.sort("length")
        right.plot(g["length"], 100 * g["rate"], marker="o", label=kind[0])
        right.fill_between(g["length"], 100 * g["rate_low"], 100 * g["rate_high"], alpha=0.25)
    right.set_xlabel("cards held by the declarer in that suit")
    right.set_ylabel("declarer side wins the round (%)")
    right.set_title("Win rate by suit length (groups with n ≥ 200)")
    right.legend()
    fig.suptitle(f"Trump Friend: declarer win rate by trump call — {n_total:,} deals\n{_caption(manifest)}", fontsize=10)
    out.mkdir(parents=True, exist_ok=True)
    chart = out / "trump_call.png"
    fig.savefig(chart, dpi=110)
    plt.close(fig)
    table = out / "trump_call.csv"
    by_call.write_csv(table)
    table2 = out / "trump_call_by_length.csv"
    by_length.write_csv(table2)
    suits = by_call.filter(pl.col("trump") < 4)
    no_trump = by_call.filter(pl.col("trump") == 4)
    parts = []
    if suits.height:
        parts.append(f"Suit calls won {100 * suits['rate'].min():.1f}–{100 * suits['rate'].max():.1f}% "
                     f"of rounds (the four suits are alike)")
    if no_trump.height:
        nt = no_trump.row(0, named=True)
        parts.append(f"no trump won {100 * nt['rate']:.1f}% (95% CI {100 * nt['rate_low']:.1f}–"
                     f"{100 * nt['rate_high']:.1f}%)")
    suit_rows = by_length.filter((pl.col("kind").str.starts_with("suit")) & (pl.col("n") >= 200))
    if suit_rows.height >= 2:
        lo, hi = suit_rows.sort("length").row(0, named=True), suit_rows.sort("length").row(-1, named=True)
        parts.append(f"holding {hi['length']} cards of the called suit won {100 * hi['rate']:.0f}% "
                     f"against {100 * lo['rate']:.0f}% with {lo['length']}")
    finding = "; ".join(parts) + "."
    summary = out / "trump_call.md"
    summary.write_text(
        f"### Trump Friend: win rate by trump call\n\n![trump call](trump_call.png)\n\n"
        f"{finding}\n\n- Sample: {n_total:,} deals from `{data}`\n- {_caption(manifest)}\n"
        f"- Made by: `simcore analyze trump-call --data {data} --out {out}`\n"
        f"- Tables: `trump_call.csv`, `trump_call_by_length.csv`\n"
    )
    return [chart, table, table2, summary]
