"""Spades, open-handed: which nils hold with perfect play, and how do bids compare with the
tricks a side takes when every seat plays perfectly with every card seen?

Reads a Spades **solve** run (``simcore solve spades``: per deal ``dd_tricks``, the tricks
seats 0+2 take, and per seat whether its nil holds, ``dd_nil_safe{s}`` / ``dd_nil{s}``;
docs/schema.md), or a folder holding that solve run and a ``simcore simulate spades`` run of
the same seed and rules (deal k is the same deal in both: they join on ``deal``):

- ``spades_dd_bids.png``: (a) the share of hands whose nil holds with perfect play, by the
  spades and by the aces and kings held; (b) with the simulate run, the side's open-hand
  tricks and its tricks in play against its contract (two numeric bids);
- tables ``spades_dd_bids_nil.csv``, ``spades_dd_bids_sides.csv``, ``spades_dd_bids_nil_bids.csv``.

Open-hand values are those of perfect play by every seat: the defenders play perfectly too,
so a real nil can fail where the open-hand one holds, and hold where it fails.  As the
open-hand level of spades-bids its claims carry spades-bids' keys: the same bids' sides valued
open-handed (paired by deal with the simulate level of the same seed), and its nil bids.
"""

from __future__ import annotations


import polars as pl

from analyses import common
from analyses.levels import cluster_claim, rate_claim
from analyses.spades_bids import MARGIN, NIL_WORDS, SIDE_WORDS, bidders_text
from analyses.stats import cluster_means, rate_table
from simcore.errors import SimcoreError

NAME = "spades_dd_bids"
LEVELS = True
SOLVE_RUNS = True
SEVERAL_RUNS = True
ACES_KINGS = "AC AD AH AS KC KD KH KS"
CAVEAT = "open-hand: every seat plays perfectly with every card seen"


def nil_mode(manifest: dict) -> str:
    """How much of the nils the solve run solved (``simcore solve spades --nil``): exact, safe or none."""
    return (manifest.get("options") or {}).get("nil", "exact")


def seat_frame(solve: pl.LazyFrame) -> pl.LazyFrame:
    """One row per (deal, seat): spades, aces and kings held, whether the seat's nil holds."""
    names = set(solve.collect_schema().names())
    return pl.concat([solve.select(
        "deal", pl.lit(s, pl.Int8).alias("seat"), pl.col(f"hand{s}").cards.length("S").alias("spades"),
        pl.col(f"hand{s}").cards.count(ACES_KINGS).alias("aces_kings"),
        (pl.col(f"dd_nil_safe{s}") if f"dd_nil_safe{s}" in names else pl.col(f"dd_nil{s}") == 0)
        .cast(pl.Float64).alias("safe")) for s in range(4)])


def side_frame(solve: pl.LazyFrame, played: pl.LazyFrame) -> pl.DataFrame:
    """Sides with two numeric bids in the simulate run: contract, open-hand and real tricks."""
    parts = []
    for side in (0, 1):
        other = side + 2
        bids = played.filter((pl.col(f"bid{side}") > 0) & (pl.col(f"bid{other}") > 0) & ~pl.col(f"blind{side}")
                             & ~pl.col(f"blind{other}")).select(
            "deal", (pl.col(f"bid{side}") + pl.col(f"bid{other}")).cast(pl.Int16).alias("contract"),
            (pl.col(f"tricks{side}") + pl.col(f"tricks{other}")).cast(pl.Int16).alias("real_tricks"))
        dd = solve.select("deal", (pl.col("dd_tricks") if side == 0 else 13 - pl.col("dd_tricks"))
                          .cast(pl.Int16).alias("dd_tricks"))
        parts.append(bids.join(dd, on="deal").with_columns(pl.lit(side, pl.Int8).alias("side")))
    return pl.concat(parts).with_columns(
        (pl.col("dd_tricks") - pl.col("contract")).cast(pl.Float64).alias("dd_over"),
        (pl.col("real_tricks") - pl.col("contract")).cast(pl.Float64).alias("real_over")).collect()


def split(runs: list, data):
    solved = [r for r in runs if r.solved]
    played = [r for r in runs if not r.solved]
    if len(solved) != 1 or len(played) > 1:
        raise SimcoreError(f"{data} must hold one `simcore solve spades` run and at most one simulate run "
                           f"(found {len(solved)} solve and {len(played)} simulate runs)")
    s = solved[0]
    if "dd_tricks" not in s.hands.collect_schema().names():
        raise SimcoreError(f"spades-dd-bids reads a `simcore solve spades` run (DD tables); {s.path} is not one")
    if played:
        p = played[0]
        for key in ("seed", "rules", "predeal", "conditions"):
            if p.manifest.get(key) != s.manifest.get(key):
                raise SimcoreError(f"the simulate run {p.path} and the solve run {s.path} differ in {key}: "
                                   "their deals are not the same")
        if p.manifest.get("what_if"):
            raise SimcoreError(f"{p.path} is a what-if run; the bids need an ordinary simulate run")
    return s, (played[0] if played else None)


def analyse(runs: list, data, asked_by: str | None = None) -> common.Analysis:
    solve, played = split(runs, data)
    mode = nil_mode(solve.manifest)
    n = solve.hands.select(pl.len()).collect().item()
    seats = seat_frame(solve.hands).collect() if mode != "none" else None
    claims, tables, details = [], {}, []
    nil = None
    if seats is not None:
        nil = pl.concat([
            cluster_means(seats, ["spades"], "safe").with_columns(pl.lit("spades").alias("feature"))
            .rename({"spades": "value"}),
            cluster_means(seats, ["aces_kings"], "safe").with_columns(pl.lit("aces and kings").alias("feature"))
            .rename({"aces_kings": "value"}),
            cluster_means(seats, [], "safe").with_columns(pl.lit("all").alias("feature"), pl.lit(None).alias("value")),
        ], how="diagonal_relaxed").select("feature", "value", pl.exclude("feature", "value"))
        tables[f"{NAME}_nil"] = nil
        every = nil.filter(pl.col("feature") == "all").row(0, named=True)
        details.append(f"With perfect play by every seat {common.pct(every['safe'])} of all {every['n']:,} dealt hands "
                       "would make a nil.")
    sides = None
    if played is not None:
        sides = side_frame(solve.hands, played.hands)
        tables[f"{NAME}_sides"] = cluster_means(sides, ["contract"], "dd_over").join(
            cluster_means(sides, ["contract"], "real_over").drop("n", "deals"), on="contract")
        if sides.height:
            claims.append(cluster_claim("sp.side", "A side's tricks minus its contract (two numeric bids)", sides,
                                        "dd_over", "tricks per contract", SIDE_WORDS, MARGIN,
                                        caveat=f"{bidders_text(played.manifest)} bids, open-hand play",
                                        group="sp.bids"))
        if seats is not None:
            bids = pl.concat([played.hands.filter((pl.col(f"bid{s}") == 0) & ~pl.col(f"blind{s}")).select(
                "deal", pl.lit(s, pl.Int8).alias("seat"), (pl.col(f"tricks{s}") == 0).alias("held_in_play"))
                for s in range(4)]).collect()
            chosen = seats.join(bids, on=["deal", "seat"])
            tables[f"{NAME}_nil_bids"] = rate_table(chosen.select(
                pl.len().alias("n"), pl.col("safe").sum().cast(pl.Int64).alias("successes"),
                pl.col("held_in_play").sum().alias("held_in_play")))
            if chosen.height:
                claims.append(rate_claim("sp.nil_chosen", "Nil bids that succeed (the nils the level's bidders chose; "
                                         "observational)",
                                         int(chosen["safe"].sum()), chosen.height, "nil bids", NIL_WORDS, margin=0.05,
                                         caveat=CAVEAT, group="sp.nil"))
    if nil is not None and asked_by is None:
        every = nil.filter(pl.col("feature") == "all").row(0, named=True)
        claims.append(rate_claim("sp.nil_dd", "Dealt hands whose nil holds with perfect play",
                                 int(round(every["safe"] * every["n"])), int(every["n"]), "seat-hands",
                                 ("most nils fail open-handed", "most nils hold open-handed", "about half hold"),
                                 margin=0.05, caveat=CAVEAT))
    level = common.level_text(solve.manifest)
    note = (f"{level}; rules {common.rules_text(solve.manifest)}; {n:,} deals"
            + (f"; bids from `{played.path}` ({bidders_text(played.manifest)})" if played is not None else "")
            + f". Intervals clustered by deal; groups of n < {common.MIN_N} not drawn.")
    fig = common.figure(_panels(nil, tables.get(f"{NAME}_sides")),
                        "Spades, open-handed: which nils hold, and the tricks a side takes against its contract", note)
    answer = " ".join(f"{c.question}: {c.estimate()} ({c.verdict}, n = {c.n:,})." for c in claims) or \
        "No bids beside this solve run: only the open-hand nils are shown."
    return common.Analysis(
        name="spades-dd-bids", stem=NAME, title="Spades, open-handed: nils and contracts",
        answer=f"Open-handed (perfect play by every seat, every card seen): {answer}", tables=tables,
        figures={NAME: fig} if fig is not None else {}, claims=claims, details=details,
        sample=f"{n:,} deals from `{solve.path}`" + (f" and bids from `{played.path}`" if played is not None else ""),
        level=level, rules=common.rules_text(solve.manifest),
        method="open-hand DD tables (simcore solve spades); a nil holds when the nil seat takes no trick with "
               f"perfect play ({'--nil ' + mode}); sides' contracts from the simulate run of the same deals; "
               "intervals clustered by deal")


def _panels(nil, sides) -> list[common.Panel]:
    panels = []
    if nil is not None:
        groups = {f: common.shown(nil.filter(pl.col("feature") == f)).sort("value") for f in ("spades", "aces and kings")}

        def a(ax):
            for (feature, g), colour in zip(groups.items(), ("#4C72B0", "#C44E52")):
                common.error_bars(ax, g["value"].to_numpy(), g, "safe", "safe_low", "safe_high", scale=100, fmt="o-",
                                  ms=3, color=colour, label=f"{feature} held")
            ax.set_ylim(0, 100)
            common.integer_ticks(ax)
            ax.set_xlabel("cards held")
            ax.set_ylabel("nil holds with perfect play (%)")
            ax.legend(fontsize=7)

        panels.append(common.Panel("Nils that hold open-handed, every seat (95%, clustered by deal)",
                                   max(g.height for g in groups.values()), a))
    if sides is not None:
        g = common.shown(sides)

        def b(ax):
            x = g["contract"].to_numpy()
            common.error_bars(ax, x - 0.05, g, "dd_over", "dd_over_low", "dd_over_high", fmt="o-", ms=3,
                              label="open-hand play")
            common.error_bars(ax, x + 0.05, g, "real_over", "real_over_low", "real_over_high", fmt="s--", ms=3,
                              label="the simulate run's play")
            ax.axhline(0, color="grey", lw=0.8)
            common.integer_ticks(ax)
            ax.set_xlabel("the side's contract (two numeric bids)")
            ax.set_ylabel("tricks − contract")
            ax.legend(fontsize=7)

        panels.append(common.Panel("A side's tricks against its contract (95%, clustered by deal)", g.height, b))
    return panels


