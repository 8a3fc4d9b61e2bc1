"""Euchre: when do the makers score, and how many points do they expect?

Reads a euchre hands run and writes:

- ``euchre_makers.png``: the makers' scoring rate (they take 3+ tricks, EU-16 … EU-18; 95%
  Wilson) and expected points per hand (makers' points minus the defenders', 95% t) against
  the trumps the key player held (the maker, or the lone player when one went alone; the
  dealer's hand after a pick-up), for trump ordered up in round one, named in round two and
  played alone; and the expected points by the maker's seat relative to the dealer and by
  bowers held;
- ``euchre_makers.csv``: every (kind, feature, value) group — n, scoring rate, march rate
  (all five tricks), expected points — with intervals;
- with a what-if run (``--what-if order-up``: the dealer's left orders up or passes;
  ``--what-if alone``: the maker goes alone or with its partner), ``euchre_makers_whatif.csv``
  and a third panel: the paired change in that side's net points per hand, by trumps held;
- ``euchre_makers.md``.

Observational rates describe the hands the bidding policies chose to play, not a random
hand: use the what-if panel for the value of the decision itself.
"""

from __future__ import annotations

from pathlib import Path

import matplotlib.pyplot as plt
import polars as pl

from analyses import common
from analyses.stats import mean_aggs, mean_table, rate_table

NAME = "euchre_makers"
JACK = 9
POSITIONS = {0: "dealer", 1: "dealer's left", 2: "dealer's partner", 3: "dealer's right"}
KINDS = ("ordered up (round 1)", "named (round 2)", "alone", "with partner")


def _bit(card: pl.Expr) -> pl.Expr:
    return common.bit_of(card)


def playing_hand(seat: pl.Expr) -> pl.Expr:
    """The seat's five playing cards: as dealt, except the dealer after picking up (EU-8)."""
    dealt = common.seat_value("hand", seat, 4)
    picked = (seat == pl.col("dealer")) & pl.col("picked_up") & (pl.col("discard") >= 0)
    return (pl.when(picked)
            .then((dealt | _bit(pl.col("upcard"))) & ~_bit(pl.col("discard").clip(0, 63)))
            .otherwise(dealt))


def trumps_and_bowers(hand: pl.Expr, trump: pl.Expr) -> tuple[pl.Expr, pl.Expr]:
    """(trumps held, bowers held) for trump suit ``trump`` (EU-3: the left bower is the jack
    of the same colour, suit 3 − t, and counts as a trump)."""
    trump = trump.cast(pl.Int64)
    suit_cards = (hand // common.bit_of(trump * 13)) & common.u64(common.SUIT_MASK)
    right = common.has_card(hand, trump * 13 + JACK)
    left = common.has_card(hand, (3 - trump) * 13 + JACK)
    return suit_cards.bitwise_count_ones().cast(pl.Int16) + left, right + left


def maker_rows(hands: pl.LazyFrame) -> pl.LazyFrame:
    """One row per played hand: kind, key player's trumps and bowers, maker position, points."""
    played = hands.filter(pl.col("trump") >= 0)
    side = pl.col("maker") % 2
    makers_pts = pl.when(side == 0).then(pl.col("points0")).otherwise(pl.col("points1")).cast(pl.Int16)
    defenders_pts = pl.when(side == 0).then(pl.col("points1")).otherwise(pl.col("points0")).cast(pl.Int16)
    key = pl.when(pl.col("alone_maker") >= 0).then(pl.col("alone_maker")).otherwise(pl.col("maker"))
    trumps, bowers = trumps_and_bowers(playing_hand(key), pl.col("trump"))
    return played.select(
        pl.col("bid_round"), (pl.col("alone_maker") >= 0).alias("alone"),
        trumps.alias("trumps"), bowers.alias("bowers"),
        ((pl.col("maker") - pl.col("dealer")) % 4).alias("position"),
        # 2 points (with partner) or 4 (alone) mean all five tricks (EU-16, EU-18)
        (makers_pts > 0).alias("scored"), (makers_pts >= 2).alias("march_or_better"),
        (makers_pts - defenders_pts).alias("net_points"),
    )


def _aggs() -> list[pl.Expr]:
    return [pl.len().alias("n"), pl.col("scored").sum().alias("successes"),
            pl.col("march_or_better").sum().alias("marches"), *mean_aggs(pl.col("net_points"), "points")]


def tables(hands: pl.LazyFrame) -> pl.DataFrame:
    rows = maker_rows(hands)
    kinds = {
        KINDS[0]: pl.col("bid_round") == 1, KINDS[1]: pl.col("bid_round") == 2,
        KINDS[2]: pl.col("alone"), KINDS[3]: ~pl.col("alone"),
    }
    queries = []
    for kind, cond in kinds.items():
        for feature in ("trumps", "bowers", "position"):
            queries.append(rows.filter(cond).group_by(pl.col(feature).cast(pl.Int16).alias("value"))
                           .agg(_aggs()).with_columns(pl.lit(kind).alias("kind"), pl.lit(feature).alias("feature")))
    table = pl.concat(pl.collect_all(queries)).select("kind", "feature", "value", "n", "successes", "marches",
                                                      "points", "points_std")
    table = table.sort("kind", "feature", "value")
    table = rate_table(table)
    table = rate_table(table, success="marches", prefix="march_rate")
    return mean_table(table, "points", "points", "points_std")


def whatif_table(hands: pl.LazyFrame, decision: str) -> tuple[pl.DataFrame, str]:
    """Paired change per deal in the deciding side's net points (first option − second)."""
    options = hands.select(pl.col("option").unique(maintain_order=True)).collect()["option"].to_list()
    first, second = options[0], options[-1]
    if decision == "order-up":
        seat = (pl.col("dealer") + 1) % 4
        trump = pl.col("upcard") // 13
        hand = common.seat_value("hand", seat, 4)
        who = "the dealer's left (order up vs pass)"
    else:
        seat = pl.col("maker")
        trump = pl.col("trump")
        hand = playing_hand(pl.col("maker"))
        who = "the maker (alone vs with partner)"
    side = seat % 2
    net = (pl.when(side == 0).then(pl.col("points0").cast(pl.Int16) - pl.col("points1"))
           .otherwise(pl.col("points1").cast(pl.Int16) - pl.col("points0")))
    rows = hands.filter(pl.col("trump") >= 0) if decision == "alone" else hands
    trumps, bowers = trumps_and_bowers(hand, trump.clip(0, 3))
    per_deal = (rows.select("deal", "option", net.alias("net"), trumps.alias("trumps"), bowers.alias("bowers"))
                .group_by("deal").agg(
                    (pl.col("net").filter(pl.col("option") == first).first()
                     - pl.col("net").filter(pl.col("option") == second).first()).alias("diff"),
                    pl.col("trumps").filter(pl.col("option") == first).first(),
                    pl.col("bowers").filter(pl.col("option") == first).first())
                .drop_nulls("diff"))
    parts = []
    for feature in ("trumps", "bowers"):
        parts.append(per_deal.group_by(pl.col(feature).alias("value"))
                     .agg(pl.len().alias("n"), *mean_aggs(pl.col("diff"), "change"),
                          (pl.col("diff") > 0).sum().alias("better"))
                     .with_columns(pl.lit(feature).alias("feature")))
    table = pl.concat(pl.collect_all(parts)).select("feature", "value", "n", "change", "change_std", "better")
    table = mean_table(table.sort("feature", "value"), "change", "change", "change_std")
    table = table.with_columns(pl.lit(f"{first} − {second}").alias("comparison"), pl.lit(decision).alias("decision"))
    return table, f"{who}: {first} − {second}"


def run(hands: pl.LazyFrame, manifest: dict, out: Path, data) -> list[Path]:
    r = common.RunInput(Path(data), manifest, hands)
    wi = common.what_if(r)
    if wi and wi not in ("order-up", "alone"):
        options = hands.select(pl.col("option").unique()).collect()["option"].to_list()
        wi = "alone" if "alone" in options else "order-up"
    last = hands.select(pl.col("option").last()).collect().item() if wi else None
    natural = hands.filter(pl.col("option") == last) if wi else hands
    table = tables(natural)
    n_deals = natural.select(pl.len()).collect().item()
    n_played = int(table.filter((pl.col("kind") == KINDS[3]) | (pl.col("kind") == KINDS[2]))
                   .filter(pl.col("feature") == "trumps")["n"].sum())
    ncols = 3
    fig, axes = plt.subplots(1, ncols, figsize=(6 * ncols, 5.2), constrained_layout=True)
    for kind, colour in zip(KINDS[:3], ("#4C72B0", "#55A868", "#C44E52")):
        g = table.filter((pl.col("kind") == kind) & (pl.col("feature") == "trumps") & (pl.col("n") >= 30))
        x = g["value"].to_numpy()
        common.error_bars(axes[0], x, g, "rate", "rate_low", "rate_high", scale=100, fmt="o-", color=colour, label=kind)
        common.error_bars(axes[1], x, g, "points", "points_low", "points_high", fmt="o-", color=colour, label=kind)
    axes[0].set_ylabel("makers take 3+ tricks (%)")
    axes[0].set_title("Makers' scoring rate (95% Wilson)")
    axes[1].set_ylabel("makers' points − defenders' points per hand")
    axes[1].set_title("Makers' expected points (95% t)")
    axes[1].axhline(0, color="grey", lw=0.8)
    for ax in axes[:2]:
        ax.set_xlabel("trumps held by the maker / lone player (bowers count; groups n ≥ 30)")
        ax.xaxis.get_major_locator().set_params(integer=True)
        ax.legend(fontsize=8)
    ax = axes[2]
    if wi:
        wtable, who = whatif_table(hands, wi)
        for feature in ("trumps", "bowers"):
            g = wtable.filter((pl.col("feature") == feature) & (pl.col("n") >= 30))
            common.error_bars(ax, g["value"].to_numpy(), g, "change", "change_low", "change_high",
                              fmt="o-", label=f"{feature} held")
        ax.axhline(0, color="grey", lw=0.8)
        ax.set_xlabel("cards held by the deciding player (in the suit that would be trump)")
        ax.set_ylabel("change in that side's net points per hand")
        ax.set_title(f"What-if {wi}, paired by deal (95% t)\n{who}", fontsize=9)
        ax.legend(fontsize=8)
    else:
        wtable = None
        width = 0.38
        for i, kind in enumerate(KINDS[:2]):
            g = table.filter((pl.col("kind") == kind) & (pl.col("feature") == "position") & (pl.col("n") >= 30))
            x = g["value"].to_numpy() + (i - 0.5) * width
            ax.bar(x, g["points"].to_numpy(), width, label=kind, alpha=0.8)
            common.error_bars(ax, x, g, "points", "points_low", "points_high", fmt="none", ecolor="black")
        ax.set_xticks(list(POSITIONS), list(POSITIONS.values()), fontsize=8)
        ax.set_xlabel("maker's seat")
        ax.set_ylabel("makers' points − defenders' points per hand")
        ax.set_title("Expected points by maker's seat (95% t)")
        ax.legend(fontsize=8)
    mode = (f"what-if {wi} (paired); the first two panels: observational, rows of option '{last}'" if wi
            else "observational (the hands the policies chose)")
    common.suptitle(fig, f"Euchre makers — {n_played:,} played hands of {n_deals:,} deals; {mode}", manifest)
    chart = common.save_chart(fig, out, NAME)
    written = [chart, common.write_table(table, out, NAME)]
    if wtable is not None:
        written.append(common.write_table(wtable, out, f"{NAME}_whatif"))
    finding = _finding(table, wtable, wi)
    written.append(common.write_summary(
        out, NAME, "Euchre: makers' scoring rate and expected points", chart, finding,
        f"{n_deals:,} deals from `{data}`, {n_played:,} not thrown in", manifest,
        common.command("euchre-makers", data, out), written[1:],
        f"{mode}; Wilson intervals for rates, t intervals for mean points"))
    return written


def _finding(table: pl.DataFrame, wtable, wi) -> str:
    def row(kind, feature, value):
        g = table.filter((pl.col("kind") == kind) & (pl.col("feature") == feature) & (pl.col("value") == value))
        return g.row(0, named=True) if g.height and g["n"][0] >= 30 else None

    parts = []
    ordered = table.filter((pl.col("kind") == KINDS[0]) & (pl.col("feature") == "trumps") & (pl.col("n") >= 30)).sort("value")
    if ordered.height >= 2:
        lo, hi = ordered.row(0, named=True), ordered.row(-1, named=True)
        parts.append(f"makers who ordered up scored {common.pct(lo['rate'])} of hands holding "
                     f"{common.plural(lo['value'], 'trump')} and {common.pct(hi['rate'])} holding {hi['value']} "
                     f"({hi['points']:+.2f} net points per hand)")
    alone = table.filter((pl.col("kind") == KINDS[2]) & (pl.col("feature") == "trumps"))
    if alone["n"].sum():
        rate = alone["successes"].sum() / alone["n"].sum()
        marches = alone["marches"].sum() / alone["n"].sum()
        parts.append(f"lone players scored {common.pct(rate)} of {alone['n'].sum():,} hands, "
                     f"{common.pct(marches)} taking all five tricks")
    if wtable is not None:
        g = wtable.filter((pl.col("feature") == "trumps") & (pl.col("n") >= 30)).sort("value")
        best = g.filter(pl.col("change_low") > 0)
        if best.height:
            parts.insert(0, f"In the paired what-if ({wi}: {g['comparison'][0]}) the first option pays from "
                         f"{common.plural(best['value'].min(), 'trump')} held "
                         f"({best.row(0, named=True)['change']:+.2f} net points per hand, 95% CI "
                         f"{best.row(0, named=True)['change_low']:+.2f} to {best.row(0, named=True)['change_high']:+.2f})")
        elif g.height:
            parts.insert(0, f"In the paired what-if ({wi}: {g['comparison'][0]}) the first option never pays significantly")
    if not parts:
        return "Too few played hands to compare."
    return ("Observational: " if not wi else "") + "; ".join(parts) + "."


def level_claims(out: Path) -> list:
    """The answers compared across levels of play (``analyses.levels``), from this level's tables."""
    from analyses.levels import mean_claim, rate_claim, threshold_claim

    table = pl.read_csv(out / f"{NAME}.csv")
    ordered = table.filter((pl.col("kind") == KINDS[0]) & (pl.col("feature") == "trumps"))
    claims = [threshold_claim("Trumps held from which makers who ordered up gained net points (observational)",
                              ordered.rename({"value": "trumps"}), "trumps", "points_low", "trumps")]
    alone = table.filter((pl.col("kind") == KINDS[2]) & (pl.col("feature") == "trumps"))
    if alone["n"].sum():
        claims.append(rate_claim("Lone players taking all five tricks (observational)", int(alone["marches"].sum()),
                                 int(alone["n"].sum()), "most lone hands fall short of a march",
                                 "most lone hands march", "about half of lone hands march", "lone hands marching (%)"))
    path = out / f"{NAME}_whatif.csv"
    if path.is_file():
        w = pl.read_csv(path).filter(pl.col("feature") == "trumps").rename({"value": "trumps"})
        what, comparison = w["decision"][0], w["comparison"][0]
        claims.append(threshold_claim(f"Trumps held from which {comparison} pays (what-if {what}, paired)",
                                      w, "trumps", "change_low", "trumps"))
        three = w.filter(pl.col("trumps") == 3)
        if three.height and three["n"][0] >= 30:
            r = three.row(0, named=True)
            first, second = comparison.split(" − ")
            claims.append(mean_claim(f"{comparison} holding 3 trumps (net points per hand, what-if {what}, paired)",
                                     r["change"], r["change_std"], r["n"], f"'{second}' is better",
                                     f"'{first}' is better", "neither is significantly better", "net points per hand"))
    return claims
