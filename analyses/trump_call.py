"""Trump Friend: which trump should the declarer call — its longest suit, the second or third
longest, or no trump — and does searching the call beat the longest-suit rule?

**What-if run** (``simcore simulate trump-friend --what-if trump``: every deal played under all
five calls, the same cards and policy streams, one row per (deal, call)).  The declarer's suits
are ranked as the ``longest`` trump policy ranks them (length, then the TF-3 strength of its
cards, then the lower suit): longest, second, third longest.  Every comparison is **one call
against one call on the same deal** (never the best of several against one): the declarer's
score change per round (its own delta, TF-12: 0 when its side wins, −|D − O| when it loses)
under the second longest suit, the third longest suit and no trump, minus under the longest.

- ``trump_call.png`` (the question: which trump to call): (a) each option − the longest suit
  by the declarer's suit-length pattern; (b) the second longest − the longest by how much
  shorter the second suit is and how many more top cards (3 2 A K, TF-3) it holds; (c) no
  trump − the longest suit by the declarer's top cards in all suits, one line per length of
  its longest suit;
- with a searched-calls run in the same folder (``--policy trump=pimc``: the declarer's trump
  call searched, the same seed and rules, so deal k is the same deal), ``trump_call_searched.png``
  (the question: does searching the call pay): the gain of the searched call over the longest
  suit, valued on the what-if rows of the same deal, by the call the search chose;
- tables ``trump_call.csv`` (per option: win rate, score change, paired change against the
  longest suit), ``trump_call_by_pattern.csv``, ``trump_call_second.csv``,
  ``trump_call_notrump.csv``, ``trump_call_searched.csv``.

**Observational run** (no ``option`` column): the declarer's score by the call the policy made
(the hands it chose for each call: not the value of the call).
"""

from __future__ import annotations

from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import polars as pl

from analyses import common
from analyses.common import upper_first
from analyses.levels import mean_claim
from analyses.stats import grouped_means, mean_table, rate_table
from simcore.errors import SimcoreError
from simcore.frames import seat_value

NAME = "trump_call"
LEVELS = True
SEVERAL_RUNS = True  # a folder: the what-if run and, optionally, a searched-calls run
CALLS = ["clubs", "diamonds", "hearts", "spades", "no trump"]
NO_TRUMP = 4
# public ranks (simcore.cards): 2 -> 0, 3 -> 1, ..., K -> 11, A -> 12
TOP_RANKS = (1, 0, 12, 11)  # 3, 2, A, K: the top four of TF-3's order 3 2 A K Q J 10 … 4
# TF-3 strength of each public rank (4 = 1 … A = 11, 2 = 12, 3 = 13): the `longest` policy's tie-break
TF_STRENGTH = [12, 13] + list(range(1, 12))
OPTIONS = ("second", "third", "notrump")
OPTION_TEXT = {"longest": "longest suit", "second": "second longest suit", "third": "third longest suit",
               "fourth": "shortest suit", "notrump": "no trump"}
CALLED = {"second": "the second longest suit", "third": "the third longest suit", "notrump": "no trump"}
MARGIN = 0.25  # points per round: "the same" within a quarter point (the declarer loses about 2.4 a round)
CAVEAT = "against the same policies at every seat; the friend is the highest trump not held"


def _mask(suit: int, ranks) -> int:
    return sum(1 << (13 * suit + r) for r in ranks)


def hand_features(hand: pl.Expr) -> list[pl.Expr]:
    """Per suit s: ``len{s}``, ``top{s}`` (3 2 A K held) and ``rank{s}`` (0 = the longest suit
    as the ``longest`` policy ranks them: length, TF-3 strength total, the lower suit)."""
    lengths = [hand.cards.length(s) for s in range(4)]
    tops = [hand.cards.count_mask(_mask(s, TOP_RANKS)) for s in range(4)]

    def strength(s):
        total = pl.lit(0, dtype=pl.Int32)
        for bit in range(4):  # the strength total by its four bit-planes: four popcounts
            ranks = [r for r in range(13) if TF_STRENGTH[r] >> bit & 1]
            total = total + hand.cards.count_mask(_mask(s, ranks)).cast(pl.Int32) * (1 << bit)
        return total

    keys = [(lengths[s].cast(pl.Int32) * 1000 + strength(s)) * 4 + (3 - s) for s in range(4)]  # unique per suit
    ranks = [pl.sum_horizontal([(keys[o] > keys[s]).cast(pl.Int8) for o in range(4) if o != s]).cast(pl.Int8)
             for s in range(4)]
    return ([x.alias(f"len{s}") for s, x in enumerate(lengths)] + [x.alias(f"top{s}") for s, x in enumerate(tops)]
            + [x.alias(f"rank{s}") for s, x in enumerate(ranks)])


def suit_at(rank: int, prefix: str) -> pl.Expr:
    """Column ``{prefix}{s}`` of the suit s ranked ``rank`` (0 = longest)."""
    return pl.coalesce([pl.when(pl.col(f"rank{s}") == rank).then(pl.col(f"{prefix}{s}")) for s in range(4)])


def deal_features(hands: pl.LazyFrame) -> pl.LazyFrame:
    """One row per deal (a what-if run's first call): the declarer's suit ranks, lengths and top
    cards by rank, its pattern, top cards in all suits and card points."""
    rows = common.one_row_per_deal(common.RunInput(Path("."), {}, hands))
    dh = seat_value("hand", pl.col("declarer"), 5)
    shape = pl.sum_horizontal([pl.lit(16, dtype=pl.Int64).pow(pl.col(f"len{s}").cast(pl.Int64)) for s in range(4)])
    return (rows.select("deal", *[e for e in hand_features(dh)], dh.cards.points("trump-friend").alias("points"))
            .with_columns(
                *[pl.coalesce([pl.when(pl.col(f"rank{s}") == k).then(pl.lit(s, pl.Int8)) for s in range(4)])
                  .alias(f"suit_r{k}") for k in range(4)],
                *[suit_at(k, "len").alias(f"len_r{k}") for k in range(3)],
                *[suit_at(k, "top").alias(f"top_r{k}") for k in range(3)],
                pl.sum_horizontal([pl.col(f"top{s}") for s in range(4)]).cast(pl.Int8).alias("tops"),
                shape.alias("shape"))
            .drop(*[f"{p}{s}" for p in ("len", "top", "rank") for s in range(4)]))


def pattern_name(shape: int) -> str:
    """``shape`` (Σ 16**length over the four suits) -> "4-3-2-1" (longest first)."""
    lengths = []
    for length in range(13, -1, -1):
        lengths += [length] * ((int(shape) >> (4 * length)) & 15)
    return "-".join(map(str, lengths))


def declarer_delta() -> pl.Expr:
    return seat_value("delta", pl.col("declarer"), 5).cast(pl.Float64)


def per_deal(hands: pl.LazyFrame) -> pl.DataFrame:
    """One row per deal of a what-if trump run: the features and, per call, the declarer's
    score change (``delta_t{t}``) and its side's win (``won_t{t}``)."""
    outcome = (hands.select("deal", "trump", declarer_delta().alias("delta"),
                            pl.col("declarer_won").cast(pl.Float64).alias("won"))
               .collect().pivot("trump", index="deal", values=["delta", "won"], sort_columns=True))
    calls = sorted(int(c.split("_")[-1]) for c in outcome.columns if c.startswith("delta_"))
    if calls != list(range(5)) or outcome.null_count().sum_horizontal().item():
        raise SimcoreError("a --what-if trump run must have five rows (one per call) for every deal")
    outcome = outcome.rename({c: c.replace("delta_", "delta_t").replace("won_", "won_t") for c in outcome.columns
                              if c != "deal"})
    return deal_features(hands).collect().join(outcome, on="deal").sort("deal")


def option_values(deals: pl.DataFrame) -> dict[str, dict[str, np.ndarray]]:
    """Per option (longest, second, third, fourth, no trump): the declarer's score change and
    win per deal."""
    delta = np.stack([deals[f"delta_t{t}"].to_numpy() for t in range(5)], axis=1)
    won = np.stack([deals[f"won_t{t}"].to_numpy() for t in range(5)], axis=1)
    at = np.arange(deals.height)
    out = {}
    for k, name in enumerate(("longest", "second", "third", "fourth")):
        suit = deals[f"suit_r{k}"].to_numpy().astype(np.int64)
        out[name] = {"delta": delta[at, suit], "won": won[at, suit]}
    out["notrump"] = {"delta": delta[:, NO_TRUMP], "won": won[:, NO_TRUMP]}
    return out


def changes(deals: pl.DataFrame) -> pl.DataFrame:
    """Per deal: each option − the longest suit (score change ``d_X``, win ``w_X``)."""
    v = option_values(deals)
    return deals.with_columns(
        *[pl.Series(f"d_{o}", v[o]["delta"] - v["longest"]["delta"]) for o in OPTIONS],
        *[pl.Series(f"w_{o}", v[o]["won"] - v["longest"]["won"]) for o in OPTIONS])


def option_table(deals: pl.DataFrame) -> pl.DataFrame:
    """Per option: n, its win rate (Wilson), mean score change (t) and the paired change
    against the longest suit (t)."""
    v = option_values(deals)
    rows = []
    for name in ("longest", "second", "third", "fourth", "notrump"):
        d, w = v[name]["delta"], v[name]["won"]
        diff = d - v["longest"]["delta"]
        rows.append({"option": OPTION_TEXT[name], "n": d.size, "successes": int(w.sum()),
                     "delta": float(d.mean()), "delta_std": float(d.std(ddof=1)) if d.size > 1 else float("nan"),
                     "change": float(diff.mean()), "change_std": float(diff.std(ddof=1)) if d.size > 1 else float("nan")})
    t = rate_table(pl.DataFrame(rows))  # win rate as rate, rate_low, rate_high
    return mean_table(mean_table(t, "delta", "delta", "delta_std"), "change", "change", "change_std")


def searched_table(deals: pl.DataFrame, searched: pl.DataFrame) -> tuple[pl.DataFrame, pl.DataFrame]:
    """(per deal: the searched call's rank and gain over the longest suit; per kind of call the
    search chose, and over all: n, share, mean gain with t interval)."""
    v = option_values(deals)
    rows = deals.select("deal", *[f"suit_r{k}" for k in range(4)]).with_columns(
        pl.Series("longest", v["longest"]["delta"]),
        *[pl.Series(f"delta_t{t}", deals[f"delta_t{t}"]) for t in range(5)])
    joined = rows.join(searched.select("deal", pl.col("trump").alias("searched")), on="deal")
    if not joined.height:
        return pl.DataFrame(), pl.DataFrame()
    trump = joined["searched"].to_numpy().astype(np.int64)
    delta = np.stack([joined[f"delta_t{t}"].to_numpy() for t in range(5)], axis=1)
    gain = delta[np.arange(joined.height), trump] - joined["longest"].to_numpy()
    names = np.array(["longest", "second", "third", "fourth", "notrump"])
    ranks = np.stack([joined[f"suit_r{k}"].to_numpy() for k in range(4)], axis=1)
    kind = np.where(trump == NO_TRUMP, 4, np.argmax(ranks == trump[:, None], axis=1))
    per = pl.DataFrame({"deal": joined["deal"], "call": names[kind], "gain": gain})
    by = grouped_means(per, ["call"], ["gain"]).with_columns((pl.col("n") / per.height).alias("share"))
    overall = grouped_means(per, [], ["gain"]).with_columns(pl.lit("every deal").alias("call"), pl.lit(1.0).alias("share"))
    order = {n: i for i, n in enumerate([*names, "every deal"])}
    table = pl.concat([by, overall.select(by.columns)]).sort(pl.col("call").replace_strict(order))
    return per, table.with_columns(pl.col("call").replace_strict({**OPTION_TEXT, "every deal": "every deal"}))


# ---------------------------------------------------------------- the analysis


def split_runs(runs: list) -> tuple[common.RunInput, common.RunInput | None]:
    """(the what-if or observational run, the searched-calls run or None) of a level."""
    whatif = [r for r in runs if common.what_if(r)]
    other = [r for r in runs if not common.what_if(r)]
    if len(whatif) > 1 or (not whatif and len(other) != 1) or (whatif and len(other) > 1):
        raise SimcoreError("trump-call reads one run, or a folder with one --what-if trump run and one run whose "
                           "trump call is searched (--policy trump=pimc)")
    if not whatif:
        return other[0], None
    main, searched = whatif[0], (other[0] if other else None)
    wi = common.what_if(main)
    if wi not in ("trump", "unknown decision"):
        raise SimcoreError(f"trump-call reads a --what-if trump run or an ordinary run; {main.path} is --what-if {wi}")
    if searched is not None:
        from analyses.levels import deal_identity

        if deal_identity(searched.manifest) != deal_identity(main.manifest):
            raise SimcoreError(f"{searched.path} and {main.path} differ in seed, rules or dealing: "
                               "their deal k is not the same deal")
    return main, searched


def searched_policy(manifest: dict) -> str:
    pol = manifest.get("policies", {})
    seats = pol.get("seats", [])
    if seats and seats[0] not in ("heuristic", "random"):
        return f"{seats[0]} (its own calls)"
    return f"trump={pol.get('trump', '?')}"


def analyse(runs: list, data) -> common.Analysis:
    main, searched = split_runs(runs)
    if not common.what_if(main):
        return _observational(main, data)
    deals = changes(per_deal(main.hands))
    n = deals.height
    table = option_table(deals)
    by_pattern = grouped_means(deals, ["shape"], [f"d_{o}" for o in OPTIONS]).sort("n", "shape", descending=True)
    by_pattern = by_pattern.with_columns(pl.col("shape").map_elements(pattern_name, return_dtype=pl.String)
                                         .alias("pattern")).select("pattern", pl.exclude("pattern", "shape"))
    second = grouped_means(deals.with_columns((pl.col("len_r0") - pl.col("len_r1")).alias("shorter"),
                                    (pl.col("top_r1") - pl.col("top_r0")).alias("more_tops")),
                 ["shorter", "more_tops"], ["d_second"])
    notrump = grouped_means(deals.with_columns(pl.col("len_r0").clip(upper_bound=7).alias("longest_length")),
                  ["longest_length", "tops"], ["d_notrump"])
    level = common.level_text(main.manifest)
    note = (f"{level}; rules {common.rules_text(main.manifest)}; {n:,} deals × 5 calls (what-if trump, paired). "
            f"Groups of n < {common.MIN_N} deals not drawn (all are in the tables). Score change: the declarer's own, "
            "per round (TF-12).")
    fig = common.figure(_panels(by_pattern, second, notrump),
                        "Which trump to call: the longest suit against the second, the third longest and no trump "
                        "(the declarer's score per round, paired on the same deal)", note)
    claims = [mean_claim(f"tf.{o}", f"{upper_first(OPTION_TEXT[o])} instead of the longest suit",
                         deals[f"d_{o}"].to_numpy(), "points per round",
                         (f"call the longest suit, not {CALLED[o]}", f"{CALLED[o]} beats the longest suit", "the same"),
                         MARGIN, deals=deals["deal"].to_numpy(), caveat=CAVEAT, group="tf.calls") for o in OPTIONS]
    tables = {NAME: table, f"{NAME}_by_pattern": by_pattern, f"{NAME}_second": second, f"{NAME}_notrump": notrump}
    figures = {NAME: fig} if fig is not None else {}
    details = []
    sample = f"{n:,} deals × 5 calls from `{main.path}`"
    if searched is not None:
        per, stable = searched_table(deals, searched.hands.collect())
        if per.height:
            tables[f"{NAME}_searched"] = stable
            claims.append(mean_claim("tf.searched", "The searched trump call instead of the longest suit",
                                     per["gain"].to_numpy(), "points per round",
                                     ("the longest-suit rule beats the searched call", "searching the call gains",
                                      "searching gains nothing over the longest suit"), MARGIN,
                                     deals=per["deal"].to_numpy(), group="tf.searched",
                                     caveat=f"the call searched by {searched_policy(searched.manifest)}, the play as "
                                            "in the what-if rows"))
            sfig = common.figure(_searched_panels(stable),
                                 "Does searching the trump call beat calling the longest suit? (the searched call's "
                                 "score on the same deal minus the longest suit's)",
                                 f"Calls: {searched_policy(searched.manifest)} from `{searched.path}` "
                                 f"({per.height:,} deals); each call valued on the what-if rows of the same deal "
                                 f"({level}). Groups of n < {common.MIN_N} not drawn.")
            if sfig is not None:
                figures[f"{NAME}_searched"] = sfig
            sample += f"; {per.height:,} searched calls from `{searched.path}`"
            changed = 1 - float(stable.filter(pl.col("call") == "longest suit")["share"].sum())
            details.append(f"The search ({searched_policy(searched.manifest)}) called another trump than the longest "
                           f"suit on {common.pct(changed)} of {per.height:,} deals.")
    exceptions = common.shown(second).filter(pl.col("d_second_low") > 0)
    if exceptions.height:
        details.append("The second longest suit beats the longest (95% interval above zero) only when it is "
                       + "; ".join(f"{r['shorter']} card{'s' if r['shorter'] != 1 else ''} shorter with {r['more_tops']:+d} "
                                   f"top cards ({r['d_second']:+.2f}, n = {r['n']:,})"
                                   for r in exceptions.iter_rows(named=True)) + ".")
    return common.Analysis(
        name="trump-call", stem=NAME, title="Trump Friend: which trump to call", answer=_answer(claims, n),
        tables=tables, figures=figures, claims=claims, details=details, sample=sample, level=level,
        rules=common.rules_text(main.manifest), method=METHOD)


METHOD = ("what-if trump: every deal played under all five calls with the same cards and policy streams; "
          "the declarer's suits ranked as the `longest` policy ranks them (length, TF-3 strength, lower suit); "
          "each option compared with the longest suit one against one on the same deal (per-deal differences "
          "of the declarer's score change, t intervals); a searched call valued on the what-if rows of its deal")


def _answer(claims, n) -> str:
    by = {c.key: c for c in claims}
    costs = ", ".join(f"{CALLED[o]} {by[f'tf.{o}'].estimate()}" for o in OPTIONS)
    if all(by[f"tf.{o}"].outcome == "below" for o in OPTIONS):
        text = (f"Call the longest suit: against it, the declarer's score per round changes by {costs} "
                f"(paired, n = {n:,} deals).")
    else:
        text = (f"Against the longest suit, the declarer's score per round changes by {costs} (paired, n = {n:,} "
                f"deals): " + "; ".join(by[f"tf.{o}"].verdict for o in OPTIONS) + ".")
    if "tf.searched" in by:
        c = by["tf.searched"]
        text += f" A searched call against the longest suit: {c.estimate()} points per round ({c.verdict})."
    return text


def pattern_panel(by_pattern: pl.DataFrame) -> common.Panel:
    """Each option against the longest suit, by the declarer's suit-length pattern (the eight
    commonest with n ≥ MIN_N; the deals of each below its name)."""
    pats = common.shown(by_pattern).head(8)
    colours = {"second": "#4C72B0", "third": "#55A868", "notrump": "#C44E52"}

    def draw(ax):
        x = np.arange(pats.height)
        for i, o in enumerate(OPTIONS):
            common.error_bars(ax, x + (i - 1) * 0.2, pats, f"d_{o}", f"d_{o}_low", f"d_{o}_high", fmt="o",
                              color=colours[o], label=OPTION_TEXT[o])
        ax.axhline(0, color="grey", lw=0.8)
        ax.set_xticks(x, [f"{p}\n{k:,}" for p, k in zip(pats["pattern"], pats["n"])], fontsize=7)
        ax.set_xlabel("the declarer's suit lengths (commonest patterns; deals below)")
        ax.set_ylabel("score per round: option − longest suit")
        ax.legend(fontsize=7)

    return common.Panel("Each option against the longest suit, by pattern (95% t)", pats.height, draw)


def _panels(by_pattern, second, notrump) -> list[common.Panel]:
    grid = common.shown(second)

    def b(ax):
        xs = sorted(grid["shorter"].unique().to_list())
        ys = sorted(grid["more_tops"].unique().to_list())
        img = np.full((len(ys), len(xs)), np.nan)
        for r in grid.iter_rows(named=True):
            img[ys.index(r["more_tops"]), xs.index(r["shorter"])] = r["d_second"]
        span = np.nanmax(np.abs(img)) if np.isfinite(img).any() else 1.0
        ax.imshow(img, origin="lower", cmap="RdBu", vmin=-span, vmax=span, aspect="auto")
        for r in grid.iter_rows(named=True):
            sig = "*" if (r["d_second_low"] or 0) > 0 or (r["d_second_high"] or 0) < 0 else ""
            ax.text(xs.index(r["shorter"]), ys.index(r["more_tops"]), f"{r['d_second']:+.1f}{sig}\n{r['n']:,}",
                    ha="center", va="center", fontsize=6)
        ax.set_xticks(range(len(xs)), xs)
        ax.set_yticks(range(len(ys)), [f"{y:+d}" for y in ys])
        ax.set_xlabel("cards fewer in the second longest suit than in the longest")
        ax.set_ylabel("top cards (3 2 A K) more in the second suit")

    nt = common.shown(notrump)

    def c(ax):
        cmap = plt.get_cmap("viridis")
        lengths = sorted(nt["longest_length"].unique().to_list())
        for i, length in enumerate(lengths):
            g = nt.filter(pl.col("longest_length") == length).sort("tops")
            if g.height < 2:  # a lone point is not a line
                continue
            common.error_bars(ax, g["tops"].to_numpy(), g, "d_notrump", "d_notrump_low", "d_notrump_high", fmt="o-",
                              ms=3, color=cmap(i / max(len(lengths) - 1, 1)),
                              label=f"longest suit {length}{'+' if length == 7 else ''} cards")
        ax.axhline(0, color="grey", lw=0.8)
        common.integer_ticks(ax)
        ax.set_xlabel("top cards (3 2 A K) the declarer holds in all suits")
        ax.set_ylabel("score per round: no trump − longest suit")
        ax.legend(fontsize=7)

    return [pattern_panel(by_pattern),
            common.Panel("Second longest − longest suit (points per round; * = 95% interval excludes 0; deals "
                         "below)", grid.height, b),
            common.Panel("No trump − longest suit by top cards held (95% t)", nt.height, c)]


def _searched_panels(table: pl.DataFrame) -> list[common.Panel]:
    g = common.shown(table)

    def a(ax):
        x = np.arange(g.height)
        ax.bar(x, g["gain"].to_numpy(), color=["#C44E52" if c == "every deal" else "#4C72B0" for c in g["call"]],
               alpha=0.8)
        common.error_bars(ax, x, g, "gain", "gain_low", "gain_high", fmt="none", ecolor="black")
        ax.axhline(0, color="grey", lw=0.8)
        ax.set_xticks(x, [f"{c}\n{100 * s:.0f}% of deals" if c != "every deal" else f"{c}\nn = {n:,}"
                          for c, s, n in zip(g["call"], g["share"], g["n"])], fontsize=7)
        ax.set_ylabel("score per round: searched call − longest suit")

    return [common.Panel("Gain of the searched call by the call it chose (95% t)", g.height, a)]


def _observational(run: common.RunInput, data) -> common.Analysis:
    """An ordinary run: the declarer's score and win rate by the kind of call the policy made."""
    dh = seat_value("hand", pl.col("declarer"), 5)
    rows = (run.hands.with_columns(*hand_features(dh))
            .select(pl.when(pl.col("trump") == NO_TRUMP).then(pl.lit("no trump"))
                    .otherwise(pl.coalesce([pl.when((pl.col("trump") == s) & (pl.col(f"rank{s}") == k))
                                            .then(pl.lit(OPTION_TEXT[name]))
                                            for s in range(4) for k, name in enumerate(("longest", "second",
                                                                                         "third", "fourth"))]))
                    .alias("call"),
                    declarer_delta().alias("delta"), pl.col("declarer_won").cast(pl.Int64).alias("won"))
            .collect())
    t = rows.group_by("call").agg(pl.len().alias("n"), pl.col("won").sum().alias("successes"),
                                  pl.col("delta").mean(), pl.col("delta").std().alias("delta_std")).sort("call")
    t = mean_table(rate_table(t), "delta", "delta", "delta_std")
    g = common.shown(t)

    def a(ax):
        x = np.arange(g.height)
        common.error_bars(ax, x, g, "delta", "delta_low", "delta_high", fmt="o")
        ax.set_xticks(x, [f"{c}\n{k:,}" for c, k in zip(g["call"], g["n"])], fontsize=7)
        ax.set_ylabel("declarer's score change per round")

    level = common.level_text(run.manifest)
    fig = common.figure([common.Panel("Score change by the call made (95% t)", g.height, a)],
                        "Trump Friend: the declarer's score by the call its policy made (observational)",
                        f"{level}; rules {common.rules_text(run.manifest)}. Observational: each call on the hands "
                        "the policy chose it for, not the value of the call (use --what-if trump).")
    best = t.sort("n", descending=True).row(0, named=True)
    return common.Analysis(
        name="trump-call", stem=NAME, title="Trump Friend: the declarer's score by the call made (observational)",
        answer=(f"Observational (the calls the policy made, not their value): its commonest call, "
                f"{best['call']}, scored {best['delta']:+.2f} per round ({best['n']:,} deals)."),
        tables={NAME: t}, figures={NAME: fig} if fig is not None else {}, claims=[],
        sample=f"{rows.height:,} deals from `{run.path}`", level=level, rules=common.rules_text(run.manifest),
        method="observational: the declarer's score change by the call the policy made; t intervals")

