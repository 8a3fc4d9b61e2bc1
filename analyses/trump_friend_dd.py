"""Trump Friend, open-handed: which trump to call, and whether to call a friend, when every seat
plays perfectly with every card seen.

Reads a Trump Friend **solve** run (``simcore solve trump-friend``: per deal and call t, 0-3 a
suit, 4 no trump, ``dd_points{t}`` = card points D won by the declarer's team with the friend
the run's friend policy names, ``dd_solo{t}`` = D with no friend; docs/schema.md) and values
each call by the declarer's score change that trump-call and friend-call count (TF-12, TF-13;
O = 20 − the kitty's points − D):

- the declarer's own change (−|D − O| when its side has fewer points, else 0) under the second,
  third longest suit and no trump, minus under the longest suit, per deal;
- no friend − friend for the longest-suit call, in the declarer's score relative to the other
  four (a friend player shares the result; a no-friend win costs each defender 2D − O).

These are the values under perfect play by every seat, not a bound on real play: perfect
defence is open-handed too, so real play can score more or less.  As the open-hand level of
trump-call or friend-call (``analyses.OPEN_HAND_OF``) its claims carry their keys.
"""

from __future__ import annotations

import numpy as np
import polars as pl

from analyses import common
from analyses.common import upper_first
from analyses.levels import mean_claim
from analyses.stats import grouped_means
from analyses.trump_call import (CALLED, MARGIN, NO_TRUMP, OPTION_TEXT, OPTIONS, deal_features, pattern_name,
                                 pattern_panel)
from simcore.errors import SimcoreError
from simcore.frames import bit_of, seat_value
from simcore.games.trump_friend.scoring import card_points, friend_alone, relative_score

NAME = "trump_friend_dd"
LEVELS = True
SOLVE_RUNS = True  # reads `simcore solve` runs (analyses.analyze refuses them elsewhere)
CAVEAT = "open-hand: every seat plays perfectly with every card seen"








def per_deal(hands: pl.LazyFrame) -> pl.DataFrame:
    """Per deal: the features of trump_call.deal_features and, per call t, the declarer's own
    score change with the friend (``delta_t{t}``), its relative score with the friend
    (``rel_t{t}``) and with no friend (``solo_rel_t{t}``)."""
    dh = seat_value("hand", pl.col("declarer"), 5)
    in_play = 20 - card_points(pl.col("kitty"))
    cols = []
    for t in range(5):
        d = pl.col(f"dd_points{t}").cast(pl.Int16)
        solo = pl.col(f"dd_solo{t}").cast(pl.Int16)
        margin = (2 * d - in_play).cast(pl.Float64)
        cols += [margin.clip(upper_bound=0).alias(f"delta_t{t}"),
                 pl.when(friend_alone(t, dh)).then(relative_score(d, in_play, "alone"))
                 .otherwise(relative_score(d, in_play, "player")).alias(f"rel_t{t}"),
                 relative_score(solo, in_play, "none").alias(f"solo_rel_t{t}")]
    values = hands.select("deal", *cols).collect()
    return deal_features(hands).collect().join(values, on="deal").sort("deal")


def analyse(runs: list, data, asked_by: str | None = None) -> common.Analysis:
    solved = [r for r in runs if r.solved]
    if len(solved) != 1 or "dd_points0" not in solved[0].hands.collect_schema().names():
        raise SimcoreError(f"trump-friend-dd reads a `simcore solve trump-friend` run (DD tables); {data} is not "
                           "one: use trump-call or friend-call for simulate runs")
    run = solved[0]
    deals = per_deal(run.hands)
    n = deals.height
    delta = np.stack([deals[f"delta_t{t}"].to_numpy() for t in range(5)], axis=1)
    at = np.arange(n)
    suit = {k: deals[f"suit_r{k}"].to_numpy().astype(np.int64) for k in range(3)}
    values = {"longest": delta[at, suit[0]], "second": delta[at, suit[1]], "third": delta[at, suit[2]],
              "notrump": delta[:, NO_TRUMP]}
    rel = np.stack([deals[f"rel_t{t}"].to_numpy() for t in range(5)], axis=1)[at, suit[0]]
    solo = np.stack([deals[f"solo_rel_t{t}"].to_numpy() for t in range(5)], axis=1)[at, suit[0]]
    deals = deals.with_columns(*[pl.Series(f"d_{o}", values[o] - values["longest"]) for o in OPTIONS],
                               pl.Series("friend_change", solo - rel))
    ids = deals["deal"].to_numpy()
    trump_claims = [mean_claim(f"tf.{o}", f"{upper_first(OPTION_TEXT[o])} instead of the longest suit",
                               deals[f"d_{o}"].to_numpy(), "points per round",
                               (f"call the longest suit, not {CALLED[o]}", f"{CALLED[o]} beats the longest suit",
                                "the same"),
                               MARGIN, deals=ids, caveat=CAVEAT, group="tf.calls") for o in OPTIONS]
    friend_claims = [mean_claim("tf.friend", "No friend instead of the highest-trump friend (score relative to the "
                                "others)", deals["friend_change"].to_numpy(), "points per round",
                                ("call the friend", "play alone (no friend)", "the same"), MARGIN, deals=ids,
                                caveat=CAVEAT)]
    claims = {"trump-call": trump_claims, "friend-call": friend_claims}.get(asked_by, trump_claims + friend_claims)
    by_pattern = grouped_means(deals, ["shape"], [f"d_{o}" for o in OPTIONS] + ["friend_change"])
    by_pattern = by_pattern.sort("n", "shape", descending=True).with_columns(
        pl.col("shape").map_elements(pattern_name, return_dtype=pl.String).alias("pattern")).select(
        "pattern", pl.exclude("pattern", "shape"))
    overall = grouped_means(deals, [], [f"d_{o}" for o in OPTIONS] + ["friend_change"])
    level = common.level_text(run.manifest)
    note = (f"{level}; rules {common.rules_text(run.manifest)}; {n:,} deals, each under all five calls with the "
            f"friend and alone. Groups of n < {common.MIN_N} deals not drawn (all are in the tables).")
    fig = common.figure(_panels(by_pattern), "Open-handed: each call against the longest suit, and no friend against "
                                             "the friend, by the declarer's pattern (paired per deal)", note)
    answer = " ".join(f"{c.question}: {c.estimate()} {c.unit} ({c.verdict})." for c in claims[:3])
    return common.Analysis(
        name="trump-friend-dd", stem=NAME, title="Trump Friend, open-handed: the trump and friend calls",
        answer=f"Open-handed (perfect play by every seat, every card seen; n = {n:,} deals): {answer}",
        tables={f"{NAME}_by_pattern": by_pattern, f"{NAME}_overall": overall},
        figures={NAME: fig} if fig is not None else {}, claims=claims,
        sample=f"{n:,} deals from `{run.path}`", level=level, rules=common.rules_text(run.manifest),
        method="open-hand DD tables (simcore solve trump-friend); the declarer's score change from its team's card "
               "points D and O = 20 − kitty − D (TF-11 … TF-13); the same per-deal differences as trump-call and "
               "friend-call, t intervals")


def _panels(by_pattern: pl.DataFrame) -> list[common.Panel]:
    pats = common.shown(by_pattern).head(8)

    def b(ax):
        x = np.arange(pats.height)
        common.error_bars(ax, x, pats, "friend_change", "friend_change_low", "friend_change_high", fmt="o")
        ax.axhline(0, color="grey", lw=0.8)
        ax.set_xticks(x, [f"{p}\n{k:,}" for p, k in zip(pats["pattern"], pats["n"])], fontsize=7)
        ax.set_ylabel("relative score per round: no friend − friend")

    return [pattern_panel(by_pattern),
            common.Panel("No friend against the friend, longest-suit call (95% t)", pats.height, b)]
