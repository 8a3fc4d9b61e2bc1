"""Trump Friend in ``simcore advise``: the trump and friend call of the declarer, seat 0
(simcore.games.advising, docs/advise.md).

Seat 0 declares every deal (TF-15 in hands mode).  The options are the five trump calls
(TF-5.1), each with the highest-trump friend (TF-5.2) and with no friend (TF-5.3).
"""

from __future__ import annotations

import polars as pl

from simcore.games.advising import Advisor, RunSpec
from simcore.games.trump_friend.scoring import card_points, friend_alone, relative_score

CALLS = ("clubs", "diamonds", "hearts", "spades", "notrump")  # the what-if trump options, TF-5.1


class TrumpFriendAdvisor(Advisor):
    seat = 0
    hand_size = 10
    decision = "trump and friend call (seat 0 declares)"
    summary = "trump and friend call of seat 0"
    unit = "score points relative to the others"
    calls = CALLS
    options = tuple(c + suffix for suffix in ("", "-nofriend") for c in CALLS)
    searching = (0,)  # the declarer searches; the friend is unknown, so nobody else is its side
    # a deal is ten full-deal solves, minutes of CPU today (docs/advise.md): open-hand on request
    default_levels = ("pimc", "heuristic")
    fixed_rules = {"first_declarer": "0"}  # hands mode: every deal's declarer (TF-15)
    default_deals = {"open-hand": 4, "pimc": 300, "heuristic": 100_000}

    def runs(self, level, predeal, rules, play):
        if level == "open-hand":
            return [RunSpec("solve", "solve", {"predeal": predeal, "rules": rules, "policy": ["friend=highest"]})]
        return [RunSpec(f"trump-{friend}", "simulate",
                        {"what_if": "trump", "predeal": predeal, "rules": rules,
                         "policy": [*play, f"friend={friend}"]}) for friend in ("highest", "none")]

    def rows(self, level, frames: dict) -> pl.LazyFrame:
        if level == "open-hand":
            return self._dd_rows(frames["solve"])
        parts = []
        for friend, suffix in (("highest", ""), ("none", "-nofriend")):
            f = frames[f"trump-{friend}"]
            if suffix:  # a guard: a build whose searching declarer made its own friend call is no "no friend"
                f = f.filter(pl.col("friend_card") < 0)
            others = sum(pl.col(f"delta{s}").cast(pl.Float64) for s in range(1, 5)) / 4
            parts.append(f.select(
                "deal", (pl.col("option") + suffix).alias("option"),
                (pl.col("delta0").cast(pl.Float64) - others).alias("value"),
                pl.col("declarer_won").cast(pl.Float64).alias("win"),
                (pl.col("declarer_team_points").cast(pl.Int16) - pl.col("defender_points").cast(pl.Int16))
                .cast(pl.Float64).alias("margin")))
        return pl.concat(parts)

    def _dd_rows(self, f: pl.LazyFrame) -> pl.LazyFrame:
        """The score relative to the others from the open-hand points D (TF-11 .. TF-13), as the
        trump-friend-dd analysis computes it."""
        in_play = 20 - card_points(pl.col("kitty"))
        parts = []
        for t, call in enumerate(self.calls):
            for suffix, d_col in (("", f"dd_points{t}"), ("-nofriend", f"dd_solo{t}")):
                d = pl.col(d_col).cast(pl.Int16)
                margin = (2 * d - in_play).cast(pl.Float64)
                if suffix:
                    value = relative_score(d, in_play, "none")
                else:
                    value = pl.when(friend_alone(t, pl.col("hand0"))).then(relative_score(d, in_play, "alone")) \
                        .otherwise(relative_score(d, in_play, "player"))
                parts.append(f.select("deal", pl.lit(call + suffix).alias("option"), value.alias("value"),
                                      (margin > 0).cast(pl.Float64).alias("win"), margin.alias("margin")))
        return pl.concat(parts)


ADVISOR = TrumpFriendAdvisor()
