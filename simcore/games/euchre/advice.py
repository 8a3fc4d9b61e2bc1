"""Euchre in ``simcore advise``: order up the upcard or pass, for the dealer's left
(simcore.games.advising, docs/advise.md).

Seat 1 is the dealer's left (dealer 0) with the given upcard: pass, order up with partner,
order up alone (EU-7, EU-12).
"""

from __future__ import annotations

import polars as pl

from simcore.cards import format_card
from simcore.games.advising import Advisor, RunSpec
from simcore.games.euchre.scoring import maker_points  # EU-16 .. EU-18, as euchre-dd-order scores them


class EuchreAdvisor(Advisor):
    seat = 1  # the dealer's left (dealer 0): the first seat asked, the seat the order-up what-if forces
    hand_size = 5
    decision = "order up the upcard or pass (seat 1, the dealer's left; dealer 0)"
    summary = "pass / order / order alone of the dealer's left"
    unit = "net points per hand (your side's minus the other side's)"
    options = ("pass", "order", "order-alone")
    unavailable = {"open-hand": ("pass",)}  # what follows a pass depends on the others' bidding
    searching = (1, 3)
    fixed_rules = {"first_dealer": "0"}  # hands mode: every deal's dealer (EU-5)
    default_deals = {"open-hand": 5_000, "pimc": 1_000, "heuristic": 100_000}
    upcard = True

    def predeal(self, hand, upcard):
        return [f"{self.seat}=" + ",".join(format_card(c) for c in hand), f"upcard={format_card(upcard)}"]

    def runs(self, level, predeal, rules, play):
        if level == "open-hand":
            return [RunSpec("solve", "solve", {"predeal": predeal, "rules": rules})]
        # pass: the order-up what-if; order with partner / alone: the alone what-if, in which the
        # dealer's left orders up (order_up=always for heuristic seats; a searching seat decides
        # itself, from its own cards and the upcard only, so the deals it orders up on are not a
        # biased sample of the hidden cards)
        return [RunSpec("order-up", "simulate", {"what_if": "order-up", "predeal": predeal, "rules": rules,
                                                 "policy": list(play)}),
                RunSpec("alone", "simulate", {"what_if": "alone", "predeal": predeal, "rules": rules,
                                              "policy": [*play, "order_up=always"]})]

    def rows(self, level, frames: dict) -> pl.LazyFrame:
        net = (pl.col("points1").cast(pl.Float64) - pl.col("points0").cast(pl.Float64))
        if level == "open-hand":
            f = frames["solve"]
            u = pl.col("upcard") // 13
            side = 5 - pl.coalesce([pl.when(u == t).then(pl.col(f"dd_t{t}")) for t in range(4)])
            alone = pl.coalesce([pl.when(u == t).then(pl.col(f"dd_alone1_t{t}")) for t in range(4)])
            return pl.concat([f.select("deal", pl.lit(o).alias("option"),
                                       maker_points(tricks, march).cast(pl.Float64).alias("value"),
                                       (tricks >= 3).cast(pl.Float64).alias("win"),
                                       tricks.cast(pl.Float64).alias("tricks"))
                              for o, tricks, march in (("order", side, 2), ("order-alone", alone, 4))])
        passed = frames["order-up"].filter(pl.col("option") == "pass").select(
            "deal", pl.lit("pass").alias("option"), net.alias("value"),
            (net > 0).cast(pl.Float64).alias("win"), pl.col("side_tricks1").cast(pl.Float64).alias("tricks"))
        made = frames["alone"].filter((pl.col("maker") == self.seat) & (pl.col("bid_round") == 1)).select(
            "deal", pl.when(pl.col("option") == "alone").then(pl.lit("order-alone")).otherwise(pl.lit("order"))
            .alias("option"), net.alias("value"), (pl.col("side_tricks1") >= 3).cast(pl.Float64).alias("win"),
            pl.col("side_tricks1").cast(pl.Float64).alias("tricks"))
        return pl.concat([passed, made])


ADVISOR = EuchreAdvisor()
