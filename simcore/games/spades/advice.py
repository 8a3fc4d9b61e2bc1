"""Spades in ``simcore advise``: nil or a number, for the first bidder
(simcore.games.advising, docs/advise.md).

Seat 1 bids first (the dealer's left, dealer 0): nil, or the number the bid policy gives (SP-5).
"""

from __future__ import annotations

import polars as pl

from simcore.games.advising import Advisor, RunSpec


class SpadesAdvisor(Advisor):
    seat = 1
    hand_size = 13
    decision = "nil or a number (seat 1 as the first bidder, the dealer's left)"
    summary = "nil or a number of the first bidder"
    unit = "net score per hand (your side's minus the other side's)"
    options = ("nil", "bid")
    searching = (1, 3)
    # a deal is five full-deal solves, a minute or more of CPU today (docs/advise.md): on request
    default_levels = ("pimc", "heuristic")
    fixed_rules = {"first_dealer": "0"}  # hands mode: every deal's dealer (SP-3)
    default_deals = {"open-hand": 4, "pimc": 800, "heuristic": 100_000}

    def runs(self, level, predeal, rules, play):
        if level == "open-hand":
            # the nil's value counts its tricks when it fails: the exact mode, not the default
            return [RunSpec("solve", "solve", {"predeal": predeal, "rules": rules,
                                               "options": {"nil": "exact"}})]
        return [RunSpec("nil", "simulate", {"what_if": "nil", "predeal": predeal, "rules": rules,
                                            "policy": list(play)})]

    def rows(self, level, frames: dict) -> pl.LazyFrame:
        if level == "open-hand":
            # dealer 0, so seat 1 leads: the nil's open-hand value and the side's open-hand
            # tricks, in tricks, not points
            f = frames["solve"]
            return pl.concat([
                f.select("deal", pl.lit("nil").alias("option"), pl.col("dd_nil1").cast(pl.Float64).alias("value"),
                         (pl.col("dd_nil1") == 0).cast(pl.Float64).alias("win"),
                         pl.col("dd_nil1").cast(pl.Float64).alias("tricks")),
                f.select("deal", pl.lit("bid").alias("option"),
                         (13 - pl.col("dd_tricks")).cast(pl.Float64).alias("value"),
                         pl.lit(None, pl.Float64).alias("win"),
                         (13 - pl.col("dd_tricks")).cast(pl.Float64).alias("tricks"))])
        # the what-if forces the dealer's left, seat 1 with dealer 0 (``rules``)
        f = frames["nil"]
        net = pl.col("score1").cast(pl.Float64) - pl.col("score0").cast(pl.Float64)
        return f.select("deal", "option", net.alias("value"),
                        pl.when(pl.col("option") == "nil").then(pl.col("tricks1") == 0)
                        .otherwise(pl.col("tricks1") >= pl.col("bid1")).cast(pl.Float64).alias("win"),
                        pl.col("tricks1").cast(pl.Float64).alias("tricks"), pl.col("bid1").alias("bid"))

    def level_unit(self, level):
        if level == "open-hand":
            return "open-hand tricks (nil: the fewest tricks you can be held to; bid: your side's tricks)"
        return self.unit

    def label(self, r: dict) -> str:
        """``bid`` with the number bid most often, e.g. ``bid (4)``."""
        if r["option"] == "bid" and r.get("bid_mode") is not None:
            return f"bid ({int(r['bid_mode'])})"
        return r["option"]

    def describe(self, r: dict) -> str:
        """The open-hand level, whose options have units of their own."""
        if r["option"] == "nil":
            return (f"the nil holds (no trick taken with best play) in {100 * r['win_rate']:.1f}% "
                    f"[{100 * r['win_low']:.1f}, {100 * r['win_high']:.1f}], held to {r['mean']:.2f} "
                    f"[{r['low']:.2f}, {r['high']:.2f}] tricks on average")
        return f"your side takes {r['mean']:.2f} [{r['low']:.2f}, {r['high']:.2f}] tricks with best play"


ADVISOR = SpadesAdvisor()
