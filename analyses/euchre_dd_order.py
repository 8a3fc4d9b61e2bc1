"""Euchre, open-handed: how many trumps does it take to order up, or to go alone?

Reads a Euchre **solve** run (``simcore solve euchre``: for every deal the tricks seats 0+2
take with each trump suit t, ``dd_t{t}``, and the tricks of each seat s alone,
``dd_alone{s}_t{t}``; every card seen, best play by every seat, EU-13 leaders; docs/schema.md)
and asks of every seat of every deal: were this seat the maker of trump t, what would its side
take?  With t = the upcard's suit that is ordering up (round 1: the dealer has picked the upcard
up and discarded the card best for its side, EU-8), with another suit naming trump (round 2).

Writes:

- ``euchre_dd_order.png``: (a) the makers' rate of taking 3+ tricks when ordering up, by the
  trumps the maker holds (the left bower counts, EU-3; the dealer's after the pickup: trumps
  among its five cards and the upcard, at most five), one line per seat relative to the
  dealer, and naming in round 2 (95% Wilson); (b) the makers' expected net points per hand
  (EU-16, EU-17: +1 for 3–4 tricks, +2 for a march, −2 euchred) by trumps and seat (95% t);
  (c) the distribution of the makers' tricks (0–5) by trumps held, ordering up, every seat
  (95% Wilson); (d) going alone against playing with partner, paired by deal (EU-18: +4 for a
  lone march), by trumps and seat (95% t);
- ``euchre_dd_order.csv``: per (kind, position, trumps, bowers) — ``position`` / ``bowers``
  empty = every seat / any bowers — n, make and march rates, expected points with partner and
  alone, the paired gain of going alone, with intervals; ``euchre_dd_order_tricks.csv``: the
  tricks distribution;
- ``euchre_dd_order.md``.

Every hand, not the ones a bidder chose: this is the value of the call itself with open
cards, which real (hidden-card) play does not reach; the defenders never go alone (EU-19 is
not in the table), and the points ignore the score (a game to 10).
"""

from __future__ import annotations

from pathlib import Path

import matplotlib.pyplot as plt
import polars as pl

from analyses import common
from analyses.euchre_makers import POSITIONS, trumps_and_bowers
from analyses.stats import mean_aggs, mean_table, rate_table
from simcore.games.euchre.scoring import maker_points

NAME = "euchre_dd_order"
KINDS = ("order up (round 1)", "name (round 2)")
MIN_N = 30
SOLVE_RUNS = True  # reads `simcore solve` runs (analyses.run_analysis refuses them elsewhere)
COLOURS = {0: "#C44E52", 1: "#4C72B0", 2: "#55A868", 3: "#8172B2"}


def seat_rows(hands: pl.LazyFrame) -> pl.LazyFrame:
    """One row per (deal, seat, trump suit): kind, position, trumps and bowers the seat would
    hold, the makers' tricks with partner and alone, and their points."""
    suit = (pl.col("upcard") // 13).cast(pl.Int8)
    parts = []
    for s in range(4):
        dealer = pl.col("dealer") == s
        hand = pl.col(f"hand{s}")
        with_pickup = pl.when(dealer).then(hand | common.bit_of(pl.col("upcard"))).otherwise(hand)
        for t in range(4):
            trumps, bowers = trumps_and_bowers(with_pickup, pl.lit(t))
            side = pl.col(f"dd_t{t}") if s % 2 == 0 else 5 - pl.col(f"dd_t{t}")
            alone = pl.col(f"dd_alone{s}_t{t}")
            parts.append(hands.select(
                pl.col("deal"),
                pl.when(suit == t).then(pl.lit(KINDS[0])).otherwise(pl.lit(KINDS[1])).alias("kind"),
                ((s - pl.col("dealer")) % 4).cast(pl.Int8).alias("position"),
                trumps.clip(0, 5).alias("trumps"), bowers.alias("bowers"),
                side.cast(pl.Int8).alias("tricks"), alone.cast(pl.Int8).alias("alone_tricks"),
            ))
    return pl.concat(parts).with_columns(
        maker_points(pl.col("tricks"), 2).alias("points"), maker_points(pl.col("alone_tricks"), 4).alias("alone_points"))


def _aggs() -> list[pl.Expr]:
    gain = (pl.col("alone_points") - pl.col("points")).cast(pl.Float64)
    return [pl.len().alias("n"), (pl.col("tricks") >= 3).sum().alias("made"),
            (pl.col("tricks") == 5).sum().alias("marches"),
            (pl.col("alone_tricks") == 5).sum().alias("alone_marches"),
            *mean_aggs(pl.col("points"), "points"), *mean_aggs(pl.col("alone_points"), "alone_points"),
            *mean_aggs(gain, "alone_gain")]


def tables(hands: pl.LazyFrame) -> tuple[pl.DataFrame, pl.DataFrame, int]:
    rows = seat_rows(hands)
    keys = [("kind", "position", "trumps", "bowers"), ("kind", "position", "trumps"),
            ("kind", "trumps", "bowers"), ("kind", "trumps")]
    queries = [rows.group_by(*k).agg(_aggs()) for k in keys]
    queries.append(rows.filter(pl.col("kind") == KINDS[0]).group_by("trumps", "tricks").agg(pl.len().alias("count")))
    queries.append(hands.select(pl.len()))
    *parts, dist, n = pl.collect_all(queries)
    columns = ["kind", "position", "trumps", "bowers"]
    table = pl.concat([p.with_columns(*[pl.lit(None, dtype=pl.Int8).alias(c) for c in columns if c not in p.columns])
                       .select(*columns, pl.exclude(columns)) for p in parts], how="vertical_relaxed")
    table = table.sort("kind", "position", "trumps", "bowers", nulls_last=True)
    table = rate_table(table, "made", "n", "make_rate")
    table = rate_table(table, "marches", "n", "march_rate")
    table = rate_table(table, "alone_marches", "n", "alone_march_rate")
    for m in ("points", "alone_points", "alone_gain"):
        table = mean_table(table, m, m, f"{m}_std")
    dist = dist.sort("trumps", "tricks").with_columns(pl.col("count").sum().over("trumps").alias("n"))
    dist = rate_table(dist, "count", "n", "share")
    return table, dist, int(n.item())


def _select(table: pl.DataFrame, kind: str, position) -> pl.DataFrame:
    pos = pl.col("position").is_null() if position is None else pl.col("position") == position
    return table.filter((pl.col("kind") == kind) & pos & pl.col("bowers").is_null() & (pl.col("n") >= MIN_N)).sort("trumps")


def run(hands: pl.LazyFrame, manifest: dict, out: Path, data) -> list[Path]:
    from simcore.errors import SimcoreError

    names = hands.collect_schema().names()
    if manifest.get("command") != "solve" or "dd_t0" not in names:
        raise SimcoreError(f"euchre-dd-order reads a `simcore solve euchre` run (DD tables); {data} is a "
                           "simulate run: use euchre-makers for it")
    table, dist, n_deals = tables(hands)
    fig, axes = plt.subplots(2, 2, figsize=(14, 10.5), constrained_layout=True)
    a, b, c, d = axes.ravel()
    for pos, label in POSITIONS.items():
        g = _select(table, KINDS[0], pos)
        x = g["trumps"].to_numpy() + (pos - 1.5) * 0.06
        common.error_bars(a, x, g, "make_rate", "make_rate_low", "make_rate_high", scale=100, fmt="o-", ms=3,
                          color=COLOURS[pos], label=f"order up: {label}")
        common.error_bars(b, x, g, "points", "points_low", "points_high", fmt="o-", ms=3, color=COLOURS[pos],
                          label=f"order up: {label}")
        common.error_bars(d, x, g, "alone_gain", "alone_gain_low", "alone_gain_high", fmt="o-", ms=3,
                          color=COLOURS[pos], label=f"order up: {label}")
    g = _select(table, KINDS[1], None)
    common.error_bars(a, g["trumps"].to_numpy(), g, "make_rate", "make_rate_low", "make_rate_high", scale=100,
                      fmt="s--", ms=3, color="grey", label="name in round 2: every seat")
    common.error_bars(b, g["trumps"].to_numpy(), g, "points", "points_low", "points_high", fmt="s--", ms=3,
                      color="grey", label="name in round 2: every seat")
    a.set_ylabel("makers take 3+ tricks, open-handed (%)")
    a.set_title("Makers' rate of making it (95% Wilson)")
    b.set_ylabel("makers' net points per hand (+1 / +2 march / −2 euchred)")
    b.set_title("Makers' expected points with partner (95% t)")
    d.set_ylabel("alone − with partner: net points per hand (paired)")
    d.set_title("Going alone instead of with partner, paired by deal (95% t)")
    for ax in (a, b, d):
        ax.set_xlabel(f"trumps the maker holds (bowers count; the dealer's after the pickup; groups n ≥ {MIN_N})")
        ax.xaxis.get_major_locator().set_params(integer=True)
        ax.legend(fontsize=7)
    for ax in (b, d):
        ax.axhline(0, color="grey", lw=0.8)
    shown = sorted(set(dist.filter(pl.col("n") >= MIN_N)["trumps"].to_list()))
    width = 0.8 / 6
    for k in range(6):
        g = dist.filter((pl.col("tricks") == k) & pl.col("trumps").is_in(shown)).sort("trumps")
        x = g["trumps"].to_numpy() + (k - 2.5) * width
        c.bar(x, 100 * g["share"].to_numpy(), width, color=plt.get_cmap("RdYlGn")(k / 5), label=f"{k} tricks")
        common.error_bars(c, x, g, "share", "share_low", "share_high", scale=100, fmt="none", ecolor="black",
                          elinewidth=0.7)
    c.set_xticks(shown, [f"{t}\nn={n:,}" for t, n in dist.group_by("trumps").agg(pl.col("n").first())
                         .filter(pl.col("trumps").is_in(shown)).sort("trumps").iter_rows()], fontsize=8)
    c.set_xlabel("trumps the maker holds, ordering up (every seat)")
    c.set_ylabel("share of hands (%)")
    c.set_title("Makers' open-hand tricks when ordering up (95% Wilson)")
    c.legend(fontsize=7, ncol=3)
    common.suptitle(fig, f"Euchre, open-handed: ordering up and going alone by trumps held — {n_deals:,} deals "
                         f"× 4 seats × 4 trump suits (DD tables, best play by every seat)", manifest)
    chart = common.save_chart(fig, out, NAME)
    written = [chart, common.write_table(table, out, NAME), common.write_table(dist, out, f"{NAME}_tricks")]
    written.append(common.write_summary(
        out, NAME, "Euchre, open-handed: how many trumps to order up or go alone", chart, _finding(table),
        f"{n_deals:,} deals from `{data}`, each seat as the would-be maker of every trump suit "
        f"({4 * n_deals:,} order-up and {12 * n_deals:,} round-2 seat-suits)", manifest,
        common.command("euchre-dd-order", data, out), written[1:],
        "open-hand DD tables (simcore solve euchre): every card seen, best play by every seat; "
        "ordering up = trump the upcard's suit with the dealer's best pickup and discard; trumps held "
        "count the left bower (the dealer's: among its five cards and the upcard, at most five); "
        "points by EU-16 … EU-18 (defenders never alone); Wilson intervals for rates, t intervals for "
        "mean points and for the per-deal paired gain of going alone"))
    return written


def _threshold(g: pl.DataFrame, low: str) -> int | None:
    """The smallest trump count from which every shown group's interval is above zero."""
    start = None
    for trumps, lo in reversed(list(zip(g["trumps"].to_list(), g[low].to_list()))):
        if lo is None or not lo > 0:
            break
        start = trumps
    return start


def _finding(table: pl.DataFrame) -> str:
    parts = []
    for pos, label in POSITIONS.items():
        g = _select(table, KINDS[0], pos)
        k = _threshold(g, "points_low")
        at3 = g.filter(pl.col("trumps") == 3)
        three = (f"; with 3 trumps {common.pct(at3['make_rate'][0])} made, {at3['points'][0]:+.2f} points"
                 if at3.height else "")
        parts.append(f"{label}: {'from ' + common.plural(k, 'trump') if k is not None else 'never'}{three}")
    text = ("Open-handed, ordering up gains points on average (95% CI above zero) — " + "; ".join(parts) + ".")
    g = _select(table, KINDS[0], None)
    k = _threshold(g, "alone_gain_low")
    text += (f" Going alone beats playing with partner from {common.plural(k, 'trump')} held (every seat, paired)."
             if k is not None else " Going alone never beats playing with partner significantly (every seat, paired).")
    g = _select(table, KINDS[1], None)
    k = _threshold(g, "points_low")
    text += (f" Naming trump in round 2 gains from {common.plural(k, 'trump')}." if k is not None
             else " Naming trump in round 2 never gains significantly.")
    return text


def level_claims(out: Path, asked_by: str | None = None) -> list:
    """The answers compared across levels (several solve runs, e.g. other rules: ``--label``),
    and as the open-hand level of euchre-makers (``asked_by``, the only one that asks: unused)."""
    from analyses.levels import mean_claim, threshold_claim

    table = pl.read_csv(out / f"{NAME}.csv")
    every = table.filter((pl.col("kind") == KINDS[0]) & pl.col("position").is_null() & pl.col("bowers").is_null())
    claims = [threshold_claim("Trumps held from which ordering up gains net points (open-hand, every seat)",
                              every, "trumps", "points_low", "trumps", MIN_N),
              threshold_claim("Trumps held from which going alone beats playing with partner (open-hand, paired)",
                              every, "trumps", "alone_gain_low", "trumps", MIN_N)]
    three = every.filter(pl.col("trumps") == 3)
    if three.height:
        r = three.row(0, named=True)
        claims.append(mean_claim("Ordering up with 3 trumps (makers' net points per hand, open-hand)",
                                 r["points"], r["points_std"], r["n"], "it loses points", "it gains points",
                                 "it breaks even", "net points per hand"))
    return claims
