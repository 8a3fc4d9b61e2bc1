"""Spades: when is nil worth bidding?  Nil success and its paired value against bidding a
number, by the spades held, the aces and kings held and the partner's bid.

Reads a ``--what-if nil`` run (``simcore simulate spades --what-if nil``: the first bidder, the
dealer's left, bids nil (option ``nil``) or its number (``bid``) on every deal, everything else
the policies'; the same cards and streams).  Per deal:

- success: the nil bidder takes no trick in the ``nil`` row (SP-12);
- value: the hand's net score of the nil bidder's side (its points minus the other side's) in
  the ``nil`` row minus in the ``bid`` row: what bidding nil instead of the number changes;
- the hand's features: spades and aces and kings held (the hand the bid was made on), and the
  partner's bid in the ``bid`` row (its bid when the first bidder bids a number: how strong the
  partner is, which the first bidder does not see but a later bidder does).

``spades_nil.png``: (a) nil success and (b) its paired value by spades held, one line per
number of aces and kings; (c) the paired value by the partner's bid for hands with no ace or
king, one line per spades held.  Tables ``spades_nil.csv`` (spades × aces and kings) and
``spades_nil_partner.csv`` (partner's bid × spades, hands with no ace or king).
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import polars as pl

from analyses import common
from analyses.levels import mean_claim, rate_claim
from analyses.stats import grouped_means, rate_table
from simcore.errors import SimcoreError
from simcore.frames import seat_value

NAME = "spades_nil"
LEVELS = True
ACES_KINGS = "AC AD AH AS KC KD KH KS"
MARGIN = 10.0  # points a hand (a nil is worth 100)
# the hands a nil is meant for, as players count them: at most one spade, no ace or king
GOOD = (pl.col("spades") <= 1) & (pl.col("aces_kings") == 0)
GOOD_TEXT = "at most one spade and no ace or king"
CAVEAT = "the first bidder (dealer's left), heuristic partner and opponents"


def per_deal(hands: pl.LazyFrame) -> pl.DataFrame:
    """One row per deal: the first bidder's features, the partner's bid, nil success and value."""
    first = ((pl.col("dealer") + 1) % 4).cast(pl.Int64)
    partner = (first + 2) % 4
    names = hands.collect_schema().names()
    hand = seat_value("dealt" if "dealt0" in names else "hand", first, 4)
    side = first % 2
    net = (pl.when(side == 0).then(pl.col("score0").cast(pl.Float64) - pl.col("score1"))
           .otherwise(pl.col("score1").cast(pl.Float64) - pl.col("score0")))
    rows = hands.select(
        "deal", "option", hand.cards.length("S").alias("spades"), hand.cards.count(ACES_KINGS).alias("aces_kings"),
        seat_value("bid", partner, 4).alias("partner_bid"), (seat_value("tricks", first, 4) == 0).alias("held"),
        net.alias("net")).collect()
    wide = rows.pivot("option", index="deal", values=["net", "held", "partner_bid"])
    need = ["net_nil", "net_bid", "held_nil", "partner_bid_bid"]
    if not wide.height or any(c not in wide.columns for c in need):
        raise SimcoreError("spades-nil needs a --what-if nil run: rows 'nil' and 'bid' for every deal")
    feats = rows.filter(pl.col("option") == "bid").select("deal", "spades", "aces_kings")
    return (wide.join(feats, on="deal").select(
        "deal", "spades", "aces_kings", pl.col("partner_bid_bid").alias("partner_bid"),
        pl.col("held_nil").alias("held"), (pl.col("net_nil") - pl.col("net_bid")).alias("value"))
            .drop_nulls().sort("deal"))


def analyse(runs: list, data) -> common.Analysis:
    run = runs[0]
    if common.what_if(run) not in ("nil", "unknown decision"):
        raise SimcoreError(f"spades-nil needs a --what-if nil run; {run.path} is "
                           + (f"--what-if {common.what_if(run)}" if common.what_if(run) else "an ordinary run"))
    deals = per_deal(run.hands).with_columns(pl.col("held").cast(pl.Int64),
                                             pl.col("aces_kings").clip(upper_bound=2).alias("ak"),
                                             pl.col("spades").clip(upper_bound=5).alias("spades_capped"))
    n = deals.height
    grid = grouped_means(deals, ["spades_capped", "ak"], ["value"]).join(
        deals.group_by("spades_capped", "ak").agg(pl.col("held").sum().alias("successes")), on=["spades_capped", "ak"])
    grid = rate_table(grid, prefix="success").sort("spades_capped", "ak")
    weak = deals.filter(pl.col("aces_kings") == 0).with_columns(
        pl.col("partner_bid").clip(upper_bound=6).alias("partner"), pl.col("spades").clip(upper_bound=3).alias("sp"))
    partner = grouped_means(weak, ["sp", "partner"], ["value"])
    good = deals.filter(GOOD)
    claims = []
    if good.height:
        claims += [rate_claim("sp.nil_good_success", f"Nil success with {GOOD_TEXT}", int(good["held"].sum()),
                              good.height, "deals", ("most such nils fail", "most such nils succeed",
                                                     "about half succeed"), margin=0.05, deals=good["deal"],
                              values=good["held"], caveat=CAVEAT),
                   mean_claim("sp.nil_good_value", f"Nil instead of a number with {GOOD_TEXT} (net points a hand)",
                              good["value"].to_numpy(), "points a hand",
                              ("bid a number, not nil", "bid nil", "nil and a number are worth the same"), MARGIN,
                              deals=good["deal"].to_numpy(), caveat=CAVEAT)]
    claims.append(mean_claim("sp.nil_any", "Nil instead of a number on any hand (net points a hand)",
                             deals["value"].to_numpy(), "points a hand",
                             ("bid a number, not nil", "bid nil", "the same"), MARGIN, deals=deals["deal"].to_numpy(),
                             caveat=CAVEAT))
    level = common.level_text(run.manifest)
    note = (f"{level}; rules {common.rules_text(run.manifest)}; {n:,} deals × 2 bids (what-if nil: the dealer's left "
            f"bids nil or its number, paired). Value: the nil side's net points in the hand, nil − number. "
            f"Groups of n < {common.MIN_N} deals not drawn (all are in the tables); 5 = 5 or more spades, 2 = 2 or "
            "more aces and kings, 6 = a partner's bid of 6 or more.")
    fig = common.figure(_panels(grid, partner), "Spades: when is nil worth bidding? Success and paired value of "
                                                "nil against the bidder's number", note)
    pays = common.shown(grid).filter(pl.col("value_low") > 0)
    aces = {0: "no ace or king", 1: "one ace or king", 2: "2+ aces or kings"}
    where = "; ".join(
        f"{aces[ak]} and {_spades(pays.filter(pl.col('ak') == ak)['spades_capped'].to_list())}"
        for ak in sorted(pays["ak"].unique().to_list())) if pays.height else "no group of hands"
    by = {c.key: c for c in claims}
    answer = f"Nil pays (95% interval above zero) with {where}."
    if "sp.nil_good_value" in by:
        v, s = by["sp.nil_good_value"], by["sp.nil_good_success"]
        answer += (f" With {GOOD_TEXT} a nil succeeds {s.estimate()} and changes the side's net score by "
                   f"{v.estimate()} points a hand against bidding the number (paired, n = {v.n:,}).")
    pg = common.shown(partner.filter(pl.col("sp") <= 1)).sort("partner")
    if pg.height >= 2:
        lo, hi = pg.row(0, named=True), pg.row(-1, named=True)
        answer += (f" A stronger partner helps: with such a hand and a partner bidding {lo['partner']}, nil is worth "
                   f"{lo['value']:+.1f}; bidding {hi['partner']}{'+' if hi['partner'] == 6 else ''}, {hi['value']:+.1f}.")
    return common.Analysis(
        name="spades-nil", stem=NAME, title="Spades: when to bid nil", answer=answer,
        tables={NAME: grid, f"{NAME}_partner": partner}, figures={NAME: fig} if fig is not None else {},
        claims=claims, sample=f"{n:,} deals × 2 bids from `{data}`", level=level,
        rules=common.rules_text(run.manifest),
        method="what-if nil: the dealer's left bids nil or its number on every deal (same cards and streams); "
               "success Wilson; value = per-deal difference of the nil side's net points (t)")


def _spades(values) -> str:
    """[0, 1, 2, 3] -> "0–3 spades"; [1] -> "1 spade"."""
    values = sorted(values)
    if len(values) > 1 and values == list(range(values[0], values[-1] + 1)):
        return f"{values[0]}–{values[-1]}{'+' if values[-1] == 5 else ''} spades"
    if len(values) == 1:
        return common.plural(values[0], "spade")
    return "/".join(map(str, values)) + " spades"


def _panels(grid: pl.DataFrame, partner: pl.DataFrame) -> list[common.Panel]:
    g = common.shown(grid)
    p = common.shown(partner)
    cmap = plt.get_cmap("viridis")
    ak_text = {0: "no ace or king", 1: "1 ace or king", 2: "2+ aces or kings"}

    def lines(ax, column, scale):
        for ak in sorted(g["ak"].unique().to_list()):
            s = g.filter(pl.col("ak") == ak).sort("spades_capped")
            if s.height < 2:  # a lone point is not a line
                continue
            common.error_bars(ax, s["spades_capped"].to_numpy() + (ak - 1) * 0.05, s, column, f"{column}_low",
                              f"{column}_high", scale=scale, fmt="o-", ms=3, color=cmap(ak / 2.5), label=ak_text[ak])
        common.integer_ticks(ax)
        ax.set_xlabel("spades held (5 = 5 or more)")
        ax.legend(fontsize=7)

    def a(ax):
        lines(ax, "success", 100)
        ax.set_ylim(0, 100)
        ax.set_ylabel("nil succeeds: no trick taken (%)")

    def b(ax):
        lines(ax, "value", 1)
        ax.axhline(0, color="grey", lw=0.8)
        ax.set_ylabel("net points a hand: nil − number")

    def c(ax):
        for sp in sorted(p["sp"].unique().to_list()):
            s = p.filter(pl.col("sp") == sp).sort("partner")
            if s.height < 2:  # a lone point is not a line
                continue
            common.error_bars(ax, s["partner"].to_numpy() + (sp - 1.5) * 0.05, s, "value", "value_low", "value_high",
                              fmt="o-", ms=3, color=cmap(sp / 3.5), label=f"{sp}{'+' if sp == 3 else ''} spades")
        ax.axhline(0, color="grey", lw=0.8)
        common.integer_ticks(ax)
        ax.set_xlabel("the partner's bid (6 = 6 or more)")
        ax.set_ylabel("net points a hand: nil − number")
        ax.legend(fontsize=7)

    return [common.Panel("Nil success by spades, aces and kings (95% Wilson)", g.height, a),
            common.Panel("Value of nil against the number (95% t, paired)", g.height, b),
            common.Panel("Value by the partner's bid, no ace or king (95% t, paired)", p.height, c)]
