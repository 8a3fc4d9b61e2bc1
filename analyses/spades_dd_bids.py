"""Spades, open-handed: which nils are safe with best play, and how do bids compare with the
tricks a side can take?

Reads a Spades **solve** run (``simcore solve spades``: per deal ``dd_tricks``, the tricks seats
0+2 take with best play by both sides from the hands as dealt, the dealer's left leading, and
``dd_nil{s}``, the fewest tricks seat s can be held to; docs/schema.md), or a folder holding
that solve run and a ``simcore simulate spades`` run of the same seed and rules (deal k is the
same deal in both, so they join on ``deal``), and writes:

- ``spades_dd_bids.png``: (a) the DD-safe nil rate (``dd_nil{s}`` = 0: a nil that holds when
  the nil side plays to keep it and the opponents to break it, SP-5) by the spades and by the
  high cards (J Q K A) in the hand, every seat of every deal (95% Wilson); (b) the side's
  open-hand tricks by the spades the side holds (95% t); with the simulate run (c) a heatmap of
  the side's open-hand tricks against its contract (the sum of its two numeric bids, SP-4, sides
  without a nil) and (d) per contract the mean open-hand tricks and the tricks the side really
  took under the run's play (95% t), against the line tricks = contract;
- ``spades_dd_bids_nil.csv`` (feature × value: n, DD-safe nils, rate with Wilson interval, mean
  ``dd_nil``), ``spades_dd_bids_tricks.csv`` (side spades: n, mean DD tricks, t interval);
  with bids ``spades_dd_bids_by_bid.csv`` (contract: n, mean DD and real tricks, DD − contract,
  share of contracts the open-hand play makes, Wilson), ``spades_dd_bids_heatmap.csv`` and
  ``spades_dd_bids_nil_bids.csv`` (the simulate run's nil bids: n, DD-safe with Wilson, held in
  play);
- ``spades_dd_bids.md``.

As one of several levels of ``spades-bids`` (a folder with the solve run and a simulate run
beside simulate runs: ``analyses.levels``) it is that question's open-hand level: its sides'
tricks against their contracts and its nil bids, valued open-handed, carry spades-bids' words.

Open hands are an upper bound of real play (docs/solving.md): a DD-safe nil can still fail in
real play, and a nil that is not DD-safe can succeed against real defenders.
"""

from __future__ import annotations

from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import polars as pl

from analyses import common
from analyses.spades_bids import HIGH, SPADES
from analyses.stats import mean_aggs, mean_table, rate_table

NAME = "spades_dd_bids"
SOLVE_RUNS = True  # reads `simcore solve` runs (analyses.run_analysis refuses them elsewhere)
MIN_N = 10  # smallest group drawn (solve runs are small; every group is in the tables)


def nil_mode(manifest: dict) -> str:
    """How much of the nils the solve run solved (``simcore solve spades --nil``): exact, safe or none."""
    return (manifest.get("options") or {}).get("nil", "exact")


def seat_rows(solve: pl.LazyFrame) -> pl.LazyFrame:
    """One row per (deal, seat): spades, high cards, position from the dealer's left (0 = leads),
    the seat's open-hand nil value and whether its nil holds (``dd_safe``; runs made before
    ``dd_nil_safe{s}`` existed: ``dd_nil{s}`` = 0)."""
    names = set(solve.collect_schema().names())
    return pl.concat([solve.select(
        "deal", pl.lit(s, pl.Int8).alias("seat"), common.count_in(pl.col(f"hand{s}"), SPADES).alias("spades"),
        common.count_in(pl.col(f"hand{s}"), HIGH).alias("high_cards"),
        ((s - pl.col("dealer") - 1) % 4).cast(pl.Int16).alias("position"),
        pl.col(f"dd_nil{s}").alias("dd_nil"),
        (pl.col(f"dd_nil_safe{s}") if f"dd_nil_safe{s}" in names else pl.col(f"dd_nil{s}") == 0).alias("dd_safe"))
        for s in range(4)])


def side_rows(solve: pl.LazyFrame) -> pl.LazyFrame:
    """One row per (deal, side): the side's spades and its open-hand tricks (side 0 = seats 0+2)."""
    return pl.concat([solve.select(
        "deal", pl.lit(side, pl.Int8).alias("side"),
        (common.count_in(pl.col(f"hand{side}"), SPADES) + common.count_in(pl.col(f"hand{side + 2}"), SPADES)).alias("spades"),
        (pl.col("dd_tricks") if side == 0 else 13 - pl.col("dd_tricks")).cast(pl.Int16).alias("dd_tricks"))
        for side in (0, 1)])


def nil_table(seats: pl.LazyFrame, exact: bool = True) -> pl.DataFrame:
    """DD-safe nils by spades, high cards and position (and over all); with the nils' tricks
    counted (``exact``: a solve run's ``--nil exact``) also the mean ``dd_nil``."""
    means = mean_aggs(pl.col("dd_nil"), "dd_nil") if exact else ()
    frames = [seats.group_by(pl.col(f).alias("value")).agg(
        pl.len().alias("n"), pl.col("dd_safe").sum().alias("successes"), *means).with_columns(pl.lit(f).alias("feature"))
        for f in ("spades", "high_cards", "position")]
    frames.append(seats.select(pl.lit(0, pl.Int16).alias("value"), pl.len().alias("n"),
                               pl.col("dd_safe").sum().alias("successes"),
                               *means).with_columns(pl.lit("all").alias("feature")))
    t = rate_table(pl.concat(pl.collect_all(frames), how="vertical_relaxed").sort("feature", "value"))
    if exact:
        t = mean_table(t, "dd_nil", "dd_nil", "dd_nil_std")
    return t.select("feature", "value", pl.exclude("feature", "value"))


def tricks_table(sides: pl.LazyFrame) -> pl.DataFrame:
    t = sides.group_by("spades").agg(pl.len().alias("n"), *mean_aggs(pl.col("dd_tricks"), "dd_tricks")).sort("spades").collect()
    return mean_table(t, "dd_tricks", "dd_tricks", "dd_tricks_std")


def bid_rows(sides: pl.LazyFrame, played: pl.LazyFrame) -> pl.LazyFrame:
    """Sides with two numeric bids (no nil, no blind nil), joined to the simulate run's bids and tricks."""
    bids = pl.concat([played.select(
        "deal", pl.lit(side, pl.Int8).alias("side"), pl.col(f"contract{side}").cast(pl.Int16).alias("contract"),
        (pl.col(f"tricks{side}") + pl.col(f"tricks{side + 2}")).cast(pl.Int16).alias("real_tricks"),
        ((pl.col(f"bid{side}") > 0) & (pl.col(f"bid{side + 2}") > 0)
         & ~pl.col(f"blind{side}") & ~pl.col(f"blind{side + 2}")).alias("numeric")) for side in (0, 1)])
    return sides.join(bids, on=["deal", "side"]).filter(pl.col("numeric"))


def nil_bid_table(seats: pl.LazyFrame, played: pl.LazyFrame) -> pl.DataFrame:
    """The simulate run's nil bids (not blind) by the bidder's spades and over all: n, how many
    are DD-safe (Wilson) and how many held in play (``held_in_play``)."""
    bids = pl.concat([played.filter((pl.col(f"bid{s}") == 0) & ~pl.col(f"blind{s}")).select(
        "deal", pl.lit(s, pl.Int8).alias("seat"), pl.col(f"tricks{s}").alias("tricks")) for s in range(4)])
    rows = seats.join(bids, on=["deal", "seat"])
    aggs = (pl.len().alias("n"), pl.col("dd_safe").sum().alias("successes"),
            (pl.col("tricks") == 0).sum().alias("held_in_play"))
    by_spades, every = pl.collect_all([
        rows.group_by(pl.col("spades").alias("value")).agg(*aggs).with_columns(pl.lit("spades").alias("feature")),
        rows.select(pl.lit(0, pl.Int16).alias("value"), *aggs).with_columns(pl.lit("all").alias("feature"))])
    t = pl.concat([by_spades, every], how="vertical_relaxed").sort("feature", "value")
    return rate_table(t).select("feature", "value", pl.exclude("feature", "value"))


def bid_tables(rows: pl.LazyFrame) -> tuple[pl.DataFrame, pl.DataFrame]:
    diff = (pl.col("dd_tricks") - pl.col("contract")).cast(pl.Float64)
    by_bid, heat = pl.collect_all([
        rows.group_by("contract").agg(pl.len().alias("n"), (pl.col("dd_tricks") >= pl.col("contract")).sum().alias("successes"),
                                      *mean_aggs(pl.col("dd_tricks"), "dd_tricks"), *mean_aggs(pl.col("real_tricks"), "real_tricks"),
                                      *mean_aggs(diff, "dd_over_contract")).sort("contract"),
        rows.group_by("contract", "dd_tricks").agg(pl.len().alias("count")).sort("contract", "dd_tricks")])
    by_bid = rate_table(by_bid, prefix="dd_made_rate")
    for m in ("dd_tricks", "real_tricks", "dd_over_contract"):
        by_bid = mean_table(by_bid, m, m, f"{m}_std")
    heat = heat.with_columns((pl.col("count") / pl.col("count").sum().over("contract")).alias("share_of_contract"))
    return by_bid, heat


def run(hands: pl.LazyFrame, manifest: dict, out: Path, data) -> list[Path]:
    return _analyse(hands, None, manifest, out, data)


def run_set(runs: list, out: Path, data) -> list[Path]:
    """A folder with the solve run and a simulate run of the same seed and rules."""
    from simcore.errors import SimcoreError

    solved = [r for r in runs if r.manifest.get("command") == "solve"]
    played = [r for r in runs if r.manifest.get("command") != "solve"]
    if len(solved) != 1 or len(played) > 1:
        raise SimcoreError(f"{data} must hold one `simcore solve spades` run and at most one simulate run "
                           f"(found {len(solved)} solve and {len(played)} simulate runs)")
    s = solved[0]
    if played:
        p = played[0]
        for key in ("seed", "rules", "predeal", "conditions"):
            if p.manifest.get(key) != s.manifest.get(key):
                raise SimcoreError(f"the simulate run {p.path} and the solve run {s.path} differ in {key}: "
                                   "their deals are not the same")
        if p.manifest.get("what_if"):
            raise SimcoreError(f"{p.path} is a what-if run; the bids need an ordinary simulate run")
    return _analyse(s.hands, played[0] if played else None, s.manifest, out, data)


def _analyse(solve: pl.LazyFrame, played, manifest: dict, out: Path, data) -> list[Path]:
    from simcore.errors import SimcoreError

    if manifest.get("command") != "solve" or "dd_tricks" not in solve.collect_schema().names():
        raise SimcoreError(f"spades-dd-bids reads a `simcore solve spades` run (DD tables); {data} is a "
                           "simulate run: use spades-bids for it")
    mode = nil_mode(manifest)
    seats = seat_rows(solve)
    nil = nil_table(seats, mode == "exact") if mode != "none" else None
    sides = side_rows(solve)
    tricks = tricks_table(sides)
    n = solve.select(pl.len()).collect().item()
    by_bid = heat = nil_bids = None
    if played is not None:
        by_bid, heat = bid_tables(bid_rows(sides, played.hands))
        nil_bids = nil_bid_table(seats, played.hands) if nil is not None else None
    fig, axes = plt.subplots(2 if by_bid is not None else 1, 2, figsize=(13, 10.5 if by_bid is not None else 5.4),
                             constrained_layout=True)
    axes = axes.ravel()
    _nil_panel(axes[0], nil)  # (None: the run solved no nil, and the panel says so)
    _tricks_panel(axes[1], tricks)
    if by_bid is not None:
        _bid_panels(axes[2], axes[3], by_bid, heat, played.manifest)
    common.suptitle(fig, f"Spades, open-handed: DD-safe nils and the tricks a side can take — {n:,} deals "
                         "(DD tables, best play by every seat)", manifest,
                    note=f"bids: {common.policies_text(played.manifest)}" if played is not None else "")
    chart = common.save_chart(fig, out, NAME)
    tables = ([] if nil is None else [common.write_table(nil, out, f"{NAME}_nil")]) + \
        [common.write_table(tricks, out, f"{NAME}_tricks")]
    if by_bid is not None:
        tables += [common.write_table(by_bid, out, f"{NAME}_by_bid"), common.write_table(heat, out, f"{NAME}_heatmap")]
        if nil_bids is not None:
            tables.append(common.write_table(nil_bids, out, f"{NAME}_nil_bids"))
    sample = f"{n:,} deals from `{data}` ({4 * n:,} seat-hands, {2 * n:,} sides)"
    if by_bid is not None:
        sample += f"; {int(by_bid['n'].sum()):,} sides with two numeric bids from `{played.path}`"
    summary = common.write_summary(
        out, NAME, "Spades, open-handed: DD-safe nils and bids against DD tricks", chart, _finding(nil, tricks, by_bid),
        sample, manifest, common.command("spades-dd-bids", data, out), tables,
        "open-hand DD tables (simcore solve spades): every card seen, best play by every seat, the dealer's left "
        "leading the hands as dealt; a nil is DD-safe when dd_nil = 0 ("
        + {"exact": "every nil's tricks counted", "safe": "`--nil safe`: whether each nil holds, its tricks not counted",
           "none": "`--nil none`: no nil solved"}[mode]
        + "); Wilson intervals for rates, t intervals for means" + ("; bids joined on the deal from the simulate run of the same seed and rules" if by_bid is not None else ""))
    return [chart, *tables, summary]


def _nil_panel(ax, nil: pl.DataFrame | None) -> None:
    if nil is None:
        ax.text(0.5, 0.5, "nils not solved\n(simcore solve spades --nil none)", ha="center", va="center",
                transform=ax.transAxes)
        ax.set_axis_off()
        return
    for feature, label in (("spades", "spades held"), ("high_cards", "high cards held (J Q K A)")):
        g = nil.filter((pl.col("feature") == feature) & (pl.col("n") >= MIN_N)).sort("value")
        common.error_bars(ax, g["value"].to_numpy(), g, "rate", "rate_low", "rate_high", scale=100, fmt="o-", ms=3, label=label)
    ax.set_xlabel(f"cards held (groups n ≥ {MIN_N})")
    ax.set_ylabel("nil holds with best play, dd_nil = 0 (%)")
    ax.set_ylim(0, 100)
    ax.set_title("DD-safe nil rate by hand (95% Wilson)")
    ax.legend(fontsize=8)


def _tricks_panel(ax, tricks: pl.DataFrame) -> None:
    g = tricks.filter(pl.col("n") >= MIN_N)
    common.error_bars(ax, g["spades"].to_numpy(), g, "dd_tricks", "dd_tricks_low", "dd_tricks_high", fmt="o-", ms=3)
    ax.set_xlabel(f"spades the side holds (two hands; groups n ≥ {MIN_N})")
    ax.set_ylabel("the side's open-hand tricks")
    ax.set_title("Open-hand tricks by the side's spades (95% t)")


def _bid_panels(ax, bx, by_bid: pl.DataFrame, heat: pl.DataFrame, played: dict) -> None:
    grid = np.full((14, 27), np.nan)
    shown = set(by_bid.filter(pl.col("n") >= MIN_N)["contract"].to_list())  # rarer contracts would be noise
    for c, t, share in heat.select("contract", "dd_tricks", "share_of_contract").iter_rows():
        if c in shown and 0 <= c < 27:
            grid[int(t), int(c)] = 100 * share
    im = ax.imshow(grid, origin="lower", cmap="viridis", aspect="auto")
    ax.plot([0, 13], [0, 13], color="white", lw=0.8, ls="--")
    plt.colorbar(im, ax=ax, label="share of sides with that contract (%)")
    ax.set_xlim(-0.5, max(13, int(by_bid["contract"].max() or 0)) + 0.5)
    ax.set_xlabel(f"the side's contract (two numeric bids; contracts with n ≥ {MIN_N})")
    ax.set_ylabel("the side's open-hand tricks")
    ax.set_title("Open-hand tricks against the contract (dashed: tricks = contract)")
    g = by_bid.filter(pl.col("n") >= MIN_N)
    x = g["contract"].to_numpy()
    common.error_bars(bx, x - 0.06, g, "dd_tricks", "dd_tricks_low", "dd_tricks_high", fmt="o-", ms=3, label="open-hand")
    common.error_bars(bx, x + 0.06, g, "real_tricks", "real_tricks_low", "real_tricks_high", fmt="s-", ms=3,
                      label=f"taken in play ({common.policies_text(played)})")
    if x.size:
        bx.plot([x.min(), x.max()], [x.min(), x.max()], color="grey", ls="--", lw=0.8, label="tricks = contract")
    bx.set_xlabel(f"the side's contract (groups n ≥ {MIN_N})")
    bx.set_ylabel("the side's tricks")
    bx.set_title("Tricks per contract: open-hand and in play (95% t)")
    bx.legend(fontsize=7)


def _finding(nil: pl.DataFrame | None, tricks: pl.DataFrame, by_bid) -> str:
    text = " ".join(t for t in (_nil_finding(nil) if nil is not None else "", _bid_finding(by_bid)) if t)
    return text or _tricks_finding(tricks)


def _tricks_finding(tricks: pl.DataFrame) -> str:
    g = tricks.filter(pl.col("n") >= MIN_N).sort("spades")
    if g.height < 2:
        return "Too few deals for a finding."
    lo, hi = g.row(0, named=True), g.row(-1, named=True)
    return (f"Open-handed, a side holding {lo['spades']} spades takes {lo['dd_tricks']:.2f} tricks on average and one "
            f"holding {hi['spades']} takes {hi['dd_tricks']:.2f} (no nil solved: --nil none).")


def _nil_finding(nil: pl.DataFrame) -> str:
    every = nil.filter(pl.col("feature") == "all").row(0, named=True)
    text = (f"With best play by every seat {common.pct(every['rate'])} (95% CI {common.pct(every['rate_low'])}–"
            f"{common.pct(every['rate_high'])}) of all {every['n']:,} dealt hands would make a nil")
    sp = nil.filter((pl.col("feature") == "spades") & (pl.col("n") >= MIN_N)).sort("value")
    if sp.height >= 2:
        lo, hi = sp.row(0, named=True), sp.row(-1, named=True)
        text += (f"; {common.pct(lo['rate'])} of hands with {common.plural(lo['value'], 'spade')} against "
                 f"{common.pct(hi['rate'])} with {hi['value']}")
    return text + "."


def _bid_finding(by_bid) -> str:
    text = ""
    if by_bid is not None and by_bid["n"].sum():
        n = by_bid["n"].sum()
        made = by_bid["successes"].sum() / n
        over = float((by_bid["dd_over_contract"] * by_bid["n"]).sum() / n)
        real = float(((by_bid["real_tricks"] - by_bid["dd_tricks"]) * by_bid["n"]).sum() / n)
        text += (f"Open-handed, sides with two numeric bids make their contract {common.pct(made)} of the time and take "
                 f"{over:+.2f} tricks over it on average; in play they took {real:+.2f} tricks against the open-hand "
                 f"tricks ({n:,} sides).")
    return text


def level_claims(out: Path, asked_by: str | None = None) -> list:
    """The answers compared across several solve runs (``--label``; e.g. must_break_spades on and
    off), and as the open-hand level of spades-bids: with a simulate run beside the solve run, its
    contracts and its nil bids valued open-handed, in spades-bids' words.  ``asked_by``: the
    asking analysis (only spades-bids asks, so unused)."""
    from analyses.levels import mean_claim, pooled, rate_claim
    from analyses.spades_bids import NIL_CHOSEN, NIL_WORDS, SIDE_QUESTION, SIDE_WORDS

    claims = []
    if (out / f"{NAME}_by_bid.csv").is_file():
        by_bid = pl.read_csv(out / f"{NAME}_by_bid.csv")
        if by_bid["n"].sum():
            m, s, n = pooled(by_bid["n"], by_bid["dd_over_contract"], by_bid["dd_over_contract_std"])
            claims.append(mean_claim(SIDE_QUESTION, m, s, n, *SIDE_WORDS, "tricks per contract"))
        bids = (pl.read_csv(out / f"{NAME}_nil_bids.csv").filter(pl.col("feature") == "all")
                if (out / f"{NAME}_nil_bids.csv").is_file() else pl.DataFrame())
        if bids.height and bids["n"][0]:
            claims.append(rate_claim(NIL_CHOSEN, int(bids["successes"][0]), int(bids["n"][0]), *NIL_WORDS,
                                     "nil succeeds (%)"))
    nil = (pl.read_csv(out / f"{NAME}_nil.csv").filter(pl.col("feature") == "all")
           if (out / f"{NAME}_nil.csv").is_file() else pl.DataFrame())
    if nil.height:
        r = nil.row(0, named=True)
        claims.append(rate_claim("Dealt hands whose nil holds with best play (open-hand)", int(r["successes"]),
                                 int(r["n"]), "most nils are not DD-safe", "most nils are DD-safe",
                                 "about half are DD-safe", "nil holds (%)"))
    return claims
