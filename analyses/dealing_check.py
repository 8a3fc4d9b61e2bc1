"""Dealing check (any game): is seat 0's dealt hand distributed as exact combinatorics say?

For seat 0's hand as dealt (``dealt0`` where a game has it, i.e. Spades before a blind-nil
exchange, else ``hand0``) the analysis compares, for every hand size in the run:

- the length of each suit against the hypergeometric law C(S, k) C(D − S, h − k) / C(D, h)
  (D cards in the deck, S of each suit, h in the hand);
- the suit-length pattern (e.g. 4-3-3-3) against the multinomial count of the length vectors
  with that pattern;
- where the game counts card points, the hand's points against their exact law (an exact
  count of the h-card subsets by total points, by dynamic programming over card values).

Each comparison gets a Pearson chi-square p-value (bins pooled to expect ≥ 5).  A run made
with ``--predeal`` or ``--condition`` is not uniformly dealt: the summary says so and the
p-values then test the dealer against the unconditional law, so they are expected to be small.

Writes ``dealing_check.png``, ``dealing_check.csv`` (every bin: observed and expected counts and
shares, with the test's p-value), ``dealing_check_tests.csv`` (one row per test) and
``dealing_check.md``.  A what-if run is read one row per deal.
"""

from __future__ import annotations

import math
from collections import defaultdict
import numpy as np
import polars as pl

from analyses import common
from analyses.stats import chi_square, wilson
from simcore.errors import SimcoreError

NAME = "dealing_check"
# Public ranks in each game's deck (0 = 2 … 12 = A): Euchre plays 9 … A (EU-2).
DECK_RANKS = {"euchre": range(7, 13)}
# Card points where a game counts them: (label, rule, {card id: points}).
_HCP = {r: v for r, v in zip((12, 11, 10, 9), (4, 3, 2, 1))}


def _by_rank(values: dict[int, int]) -> dict[int, int]:
    return {13 * s + r: v for s in range(4) for r, v in values.items()}


POINTS = {
    "trump-friend": ("card points (A 2, K Q J 1)", "TF-11", _by_rank({12: 2, 11: 1, 10: 1, 9: 1})),
    "spades": ("high-card points (A 4, K 3, Q 2, J 1)", "Milton Work count", _by_rank(_HCP)),
    "gin-rummy": ("card values (A 1, 2–10 face, J Q K 10)", "GR-2",
                  _by_rank({r: (1 if r == 12 else min(r + 2, 10)) for r in range(13)})),
    "dummy": ("card values (2–9 5, 10–K 10, A 15, 2♣ Q♠ 50)", "DM-7",
              {**_by_rank({r: (15 if r == 12 else 10 if r >= 8 else 5) for r in range(13)}),
               0: 50, 13 * 3 + 10: 50}),
}


def deck(game: str) -> list[int]:
    ranks = DECK_RANKS.get(game, range(13))
    return [13 * s + r for s in range(4) for r in ranks]


# ---------------------------------------------------------------- exact laws


def suit_length_law(deck_size: int, suit_size: int, hand: int) -> list[float]:
    """P(a given suit has k cards in an h-card hand), k = 0 … min(S, h): hypergeometric."""
    total = math.comb(deck_size, hand)
    return [math.comb(suit_size, k) * math.comb(deck_size - suit_size, hand - k) / total
            for k in range(min(suit_size, hand) + 1)]


def pattern_law(suit_size: int, hand: int) -> dict[str, float]:
    """P(suit-length pattern), e.g. '4-3-3-3', for a deck of four equal suits."""
    counts: dict[str, int] = defaultdict(int)
    rng = range(min(suit_size, hand) + 1)
    for a in rng:
        for b in rng:
            for c in rng:
                d = hand - a - b - c
                if 0 <= d <= suit_size:
                    key = pattern_name((a, b, c, d))
                    counts[key] += (math.comb(suit_size, a) * math.comb(suit_size, b)
                                    * math.comb(suit_size, c) * math.comb(suit_size, d))
    total = math.comb(4 * suit_size, hand)
    return {k: v / total for k, v in counts.items()}


def pattern_name(lengths) -> str:
    return "-".join(str(x) for x in sorted(lengths, reverse=True))


def points_law(cards: list[int], values: dict[int, int], hand: int) -> dict[int, float]:
    """P(total points = p) for an h-card subset of ``cards`` drawn uniformly, exactly:
    count subsets by (size, points), grouping cards of equal value."""
    groups: dict[int, int] = defaultdict(int)
    for c in cards:
        groups[values.get(c, 0)] += 1
    ways = {(0, 0): 1}  # (cards chosen, points) -> number of subsets
    for value, m in groups.items():
        nxt: dict[tuple[int, int], int] = defaultdict(int)
        for (size, pts), w in ways.items():
            for take in range(0, min(m, hand - size) + 1):
                nxt[(size + take, pts + take * value)] += w * math.comb(m, take)
        ways = nxt
    total = math.comb(len(cards), hand)
    return {pts: w / total for (size, pts), w in sorted(ways.items()) if size == hand}


# ---------------------------------------------------------------- observed counts


def _seat0_hand(run: common.RunInput) -> pl.Expr:
    names = run.hands.collect_schema().names()
    return pl.col("dealt0" if "dealt0" in names else "hand0")


def observed(run: common.RunInput, game: str) -> tuple[pl.DataFrame, pl.DataFrame | None]:
    """(counts by hand size and the four suit lengths, counts by hand size and points)."""
    hands = common.one_row_per_deal(run)
    hand = _seat0_hand(run)
    size = hand.bitwise_count_ones().cast(pl.Int16).alias("hand_size")
    lengths = [hand.cards.length(s).cast(pl.Int16).alias(f"len{s}") for s in range(4)]
    queries = [hands.select(size, *lengths).group_by("hand_size", *[f"len{s}" for s in range(4)])
               .agg(pl.len().alias("count"))]
    if game in POINTS:
        _, _, values = POINTS[game]
        by_value: dict[int, int] = defaultdict(int)
        for c, v in values.items():
            by_value[v] |= 1 << c
        points = pl.sum_horizontal([hand.cards.count_mask(m).cast(pl.Int32) * v for v, m in by_value.items()])
        queries.append(hands.select(size, points.cast(pl.Int32).alias("points"))
                       .group_by("hand_size", "points").agg(pl.len().alias("count")))
    frames = pl.collect_all(queries)
    return frames[0], (frames[1] if len(frames) > 1 else None)


# ---------------------------------------------------------------- comparison


def _compare(test: str, size: int, bins: list, obs: list[int], prob: list[float]) -> pl.DataFrame:
    n = int(sum(obs))
    statistic, dof, p = chi_square(obs, prob)
    low, high = wilson(obs, [n] * len(obs))
    return pl.DataFrame({
        "hand_size": [size] * len(bins), "test": [test] * len(bins), "bin": [str(b) for b in bins],
        "observed": obs, "expected": [n * q for q in prob], "observed_share": [o / n for o in obs],
        "share_low": low, "share_high": high, "expected_share": prob,
        "chi2": [statistic] * len(bins), "dof": [dof] * len(bins), "p_value": [p] * len(bins),
    }, schema_overrides={"observed": pl.Int64, "hand_size": pl.Int16})


def tables(run: common.RunInput) -> pl.DataFrame:
    game = run.manifest["game"]
    cards = deck(game)
    suit_size = len(cards) // 4
    by_lengths, by_points = observed(run, game)
    parts = []
    for (size,), group in by_lengths.group_by("hand_size", maintain_order=True):
        size = int(size)
        law = suit_length_law(len(cards), suit_size, size)
        for s in range(4):
            counts = group.group_by(f"len{s}").agg(pl.col("count").sum())
            got = dict(zip(counts[f"len{s}"].to_list(), counts["count"].to_list()))
            ks = list(range(len(law)))
            parts.append(_compare(f"{common.SUITS[s]} length", size, ks, [got.get(k, 0) for k in ks], law))
        plaw = pattern_law(suit_size, size)
        names = [pattern_name(row[:4]) for row in group.select([f"len{s}" for s in range(4)]).iter_rows()]
        got = defaultdict(int)
        for name, c in zip(names, group["count"].to_list()):
            got[name] += c
        order = sorted(plaw, key=lambda k: -plaw[k])
        parts.append(_compare("pattern", size, order, [got.get(k, 0) for k in order], [plaw[k] for k in order]))
        if by_points is not None:
            label, _, values = POINTS[game]
            law_p = points_law(cards, values, size)
            counts = by_points.filter(pl.col("hand_size") == size)
            got = dict(zip(counts["points"].to_list(), counts["count"].to_list()))
            pts = sorted(set(law_p) | set(got))
            parts.append(_compare("points", size, pts, [got.get(p, 0) for p in pts],
                                  [law_p.get(p, 0.0) for p in pts]))
    return pl.concat(parts)


def analyse(runs: list, data) -> common.Analysis:
    if len(runs) != 1:
        raise SimcoreError("dealing-check reads one run folder")
    r = runs[0]
    manifest = r.manifest
    table = tables(r)
    game = manifest["game"]
    tests = (table.group_by("hand_size", "test", maintain_order=True)
             .agg(pl.col("observed").sum().alias("n"), pl.col("chi2").first(), pl.col("dof").first(),
                  pl.col("p_value").first()))
    # the figure shows the commonest hand size (the tables hold every size)
    size = int(tests.sort("n", descending=True)["hand_size"][0])
    t = table.filter(pl.col("hand_size") == size)
    has_points = "points" in tests["test"].to_list()
    panels = [_lengths_panel(t, size), _pattern_panel(t, tests, size)]
    if has_points:
        panels.append(_points_panel(t, tests, size, game))
    n = int(tests["n"].max())
    constrained = bool(run_is_constrained(manifest, r))
    note = (f"{common.level_text(manifest)}; rules {common.rules_text(manifest)}; {n:,} deals; seat 0's hand as dealt; "
            "95% Wilson intervals; grey: the exact law." + (" CONSTRAINED DEAL: not expected to match." if constrained
                                                           else ""))
    fig = common.figure(panels, f"{game}: are the deals uniform? Seat 0's dealt hand against exact combinatorics", note)
    lowest = tests.sort("p_value").row(0, named=True)
    finding = (f"Seat 0's dealt {game} hands agree with the exact laws: none of {tests.height} chi-square "
               f"tests (suit lengths, patterns{', points' if has_points else ''}) rejects at the 0.1% level "
               f"after a Bonferroni correction; the smallest p-value is {lowest['p_value']:.3f} "
               f"({lowest['test']}, {lowest['hand_size']} cards).")
    if lowest["p_value"] < 0.001 / tests.height:
        finding = (f"Seat 0's dealt {game} hands do NOT match the exact laws: {lowest['test']} "
                   f"({lowest['hand_size']} cards) has chi-square p = {lowest['p_value']:.2g}"
                   f"{' — expected, the run constrains the deal' if constrained else ''}.")
    return common.Analysis(
        name="dealing-check", stem=NAME, title=f"{game}: are the deals uniform?", answer=finding,
        tables={NAME: table, f"{NAME}_tests": tests}, figures={NAME: fig} if fig is not None else {},
        sample=f"{n:,} deals from `{data}`", level=common.level_text(manifest), rules=common.rules_text(manifest),
        method="seat 0's hand as dealt; exact hypergeometric, multinomial and point laws; Pearson chi-square with "
               "bins pooled to expect ≥ 5; 95% Wilson intervals on each share")


def _lengths_panel(t: pl.DataFrame, size: int) -> common.Panel:
    first = t.filter(pl.col("test") == "clubs length")
    ks = np.array([int(b) for b in first["bin"].to_list()])

    def draw(ax):
        ax.bar(ks, 100 * first["expected_share"].to_numpy(), color="#cccccc", label="exact (hypergeometric)")
        for s, suit in enumerate(common.SUITS):
            ts = t.filter(pl.col("test") == f"{suit} length")
            common.error_bars(ax, ks + (s - 1.5) * 0.12, ts, "observed_share", "share_low", "share_high",
                              scale=100, fmt="o", ms=3, label=f"{suit} (simulated)")
        common.integer_ticks(ax)
        ax.set_xlabel(f"cards of the suit in seat 0's {size}-card hand")
        ax.set_ylabel("share of deals (%)")
        ax.legend(fontsize=7)

    return common.Panel(f"Suit length, {size} cards", len(ks), draw)


def _pattern_panel(t: pl.DataFrame, tests: pl.DataFrame, size: int) -> common.Panel:
    tp = t.filter(pl.col("test") == "pattern").head(10)
    p = tests.filter((pl.col("hand_size") == size) & (pl.col("test") == "pattern"))["p_value"].item()

    def draw(ax):
        x = np.arange(tp.height)
        ax.bar(x, 100 * tp["expected_share"].to_numpy(), color="#cccccc", label="exact (multinomial)")
        common.error_bars(ax, x, tp, "observed_share", "share_low", "share_high", scale=100,
                          fmt="o", color="#C44E52", ms=4, label="simulated")
        ax.set_xticks(x, tp["bin"].to_list(), rotation=45, fontsize=8)
        ax.set_xlabel("suit-length pattern (the 10 most likely)")
        ax.set_ylabel("share of deals (%)")
        ax.legend(fontsize=7)

    return common.Panel(f"Suit pattern (χ² p = {p:.3f})", tp.height, draw)


def _points_panel(t: pl.DataFrame, tests: pl.DataFrame, size: int, game: str) -> common.Panel:
    tp = t.filter(pl.col("test") == "points")
    p = tests.filter((pl.col("hand_size") == size) & (pl.col("test") == "points"))["p_value"].item()
    label, rule, _ = POINTS[game]

    def draw(ax):
        x = np.array([int(b) for b in tp["bin"].to_list()])
        ax.plot(x, 100 * tp["expected_share"].to_numpy(), color="black", lw=1, label="exact")
        common.error_bars(ax, x, tp, "observed_share", "share_low", "share_high", scale=100,
                          fmt="o", ms=2, color="#4C72B0", label="simulated")
        common.integer_ticks(ax)
        ax.set_xlabel(f"{label} in seat 0's hand")
        ax.set_ylabel("share of deals (%)")
        ax.legend(fontsize=7)

    return common.Panel(f"Points, {rule} (χ² p = {p:.3f})", tp.height, draw)


def run_is_constrained(manifest: dict, run: common.RunInput) -> bool:
    return bool(manifest.get("predeal") or manifest.get("conditions") or manifest.get("condition")
                or "attempts" in run.hands.collect_schema().names())
