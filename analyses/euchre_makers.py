"""Euchre: when to order up, and when to go alone — by the seat's place relative to the dealer
and the cards it would hold: trumps, bowers, off-suit aces.

**Order up** (``--what-if order-up``, ``order-up-partner``, ``order-up-right``,
``order-up-dealer``: the round-1 seat at that place after the dealer orders the upcard up or
passes, once the seats before it have passed; the same cards and streams).  Per deal on which
the seat was asked: its side's net points (its points minus the other side's, EU-16 … EU-18)
with ``order`` minus with ``pass``, paired.  Features of the hand it would play if the upcard's
suit were trump: trumps held (the left bower counts, EU-3; the dealer's after picking up and
discarding), bowers (right, left), aces of the other suits.

**Alone** (``--what-if alone``: the maker goes alone or plays with its partner): the makers'
net points alone minus with the partner, by the maker's place and its playing hand.

``--data`` is one what-if run or a folder of them (one per seat place, and the alone run).
Writes ``euchre_makers_order.png`` (one heatmap per seat place: order − pass by trumps × bowers
and off-suit aces), ``euchre_makers_alone.png`` (the same for going alone) and the tables
``euchre_makers_order.csv``, ``euchre_makers_alone.csv``.  An ordinary run gives the
observational makers' points by trumps held (the hands the bidders chose: not the value of the
decision), ``euchre_makers.png``.
"""

from __future__ import annotations

import numpy as np
import polars as pl

from analyses import common
from analyses.levels import level_label, mean_claim
from analyses.stats import grouped_means
from simcore.errors import SimcoreError
from simcore.frames import bit_of, seat_value

NAME = "euchre_makers"
LEVELS = True
SEVERAL_RUNS = True
JACK, ACE = 9, 12
PLACES = {1: "dealer's left", 2: "dealer's partner", 3: "dealer's right", 4: "dealer"}
ORDER_WHATIF = {"order-up": 1, "order-up-partner": 2, "order-up-right": 3, "order-up-dealer": 4}
# the trump counts drawn first when a levels figure has room for four of a question's claims
PRIORITY = {"order": (3, 4, 2, 5), "alone": (4, 3, 5, 2)}
MARGIN = 0.1  # net points a hand ("the same" within a tenth of a point; a hand is worth 1, 2 or 4)
COLUMNS = ("0 bowers, 0 aces", "0 bowers, 1 ace", "0 bowers, 2+ aces", "1 bower, 0 aces", "1 bower, 1 ace",
           "1 bower, 2+ aces", "2 bowers, 0 aces", "2 bowers, 1 ace", "2 bowers, 2+ aces")


def hand_features(hand: pl.Expr, trump: pl.Expr) -> dict[str, pl.Expr]:
    """Trumps (the left bower counts, EU-3), bowers and off-suit aces of ``hand`` for trump suit
    ``trump`` (an expression of suit indices)."""
    trump = trump.cast(pl.Int64)
    right = hand.cards.has(trump * 13 + JACK)
    left = hand.cards.has((3 - trump) * 13 + JACK)  # the jack of the same colour
    aces = sum(hand.cards.has(s * 13 + ACE).cast(pl.Int8) for s in range(4)) - hand.cards.has(trump * 13 + ACE).cast(pl.Int8)
    trumps = hand.cards.length(trump) + left.cast(pl.Int8)
    return {"trumps": trumps.cast(pl.Int8), "bowers": (right.cast(pl.Int8) + left.cast(pl.Int8)),
            "aces": aces.cast(pl.Int8)}


def playing_hand(seat: pl.Expr) -> pl.Expr:
    """The seat's five cards in play: as dealt, but the dealer's after picking the upcard up
    and discarding (EU-8)."""
    dealt = seat_value("hand", seat, 4)
    picked = (seat == pl.col("dealer")) & pl.col("picked_up") & (pl.col("discard") >= 0)
    return (pl.when(picked).then((dealt | bit_of(pl.col("upcard"))) & ~bit_of(pl.col("discard").clip(0, 63)))
            .otherwise(dealt))


def net(seat: pl.Expr) -> pl.Expr:
    """The seat's side's points minus the other side's in the hand."""
    return (pl.when(seat % 2 == 0).then(pl.col("points0").cast(pl.Float64) - pl.col("points1"))
            .otherwise(pl.col("points1").cast(pl.Float64) - pl.col("points0")))


def column_label() -> pl.Expr:
    aces = pl.col("aces").clip(upper_bound=2)
    return pl.format("{} bower{}, {}{} ace{}", pl.col("bowers"), pl.when(pl.col("bowers") == 1).then(pl.lit(""))
                     .otherwise(pl.lit("s")), aces, pl.when(aces == 2).then(pl.lit("+")).otherwise(pl.lit("")),
                     pl.when(aces == 1).then(pl.lit("")).otherwise(pl.lit("s")))


def order_deals(run: common.RunInput, place: int) -> pl.DataFrame:
    """Per deal on which the seat at ``place`` was asked: order − pass and its hand's features."""
    h = run.hands
    seat = ((pl.col("dealer") + place) % 4).cast(pl.Int64)
    order = h.filter(pl.col("option") == "order")
    reached = (pl.col("maker") == seat) & (pl.col("bid_round") == 1)
    hand = playing_hand(seat)  # in the order row: the dealer has picked up and discarded
    feats = hand_features(hand, pl.col("upcard") // 13)
    a = order.filter(reached).select("deal", net(seat).alias("order"), *[e.alias(k) for k, e in feats.items()])
    b = h.filter(pl.col("option") == "pass").select("deal", net(seat).alias("pass"))
    out = a.join(b, on="deal").with_columns((pl.col("order") - pl.col("pass")).alias("change"),
                                            pl.lit(place, pl.Int8).alias("place")).collect()
    return out.with_columns(column_label().alias("cards")).sort("deal")


def alone_deals(run: common.RunInput) -> pl.DataFrame:
    """Per deal with a maker: alone − with partner for the makers' side, the maker's place,
    round and playing hand."""
    h = run.hands.filter(pl.col("maker") >= 0)
    seat = pl.col("maker").cast(pl.Int64)
    feats = hand_features(playing_hand(seat), pl.col("trump"))
    a = h.filter(pl.col("option") == "alone").select(
        "deal", net(seat).alias("alone"), ((seat - pl.col("dealer")) % 4).replace(0, 4).cast(pl.Int8).alias("place"),
        pl.col("bid_round"), *[e.alias(k) for k, e in feats.items()])
    b = h.filter(pl.col("option") == "partner").select("deal", net(seat).alias("partner"))
    out = a.join(b, on="deal").with_columns((pl.col("alone") - pl.col("partner")).alias("change")).collect()
    return out.with_columns(column_label().alias("cards")).sort("deal")


def grid_table(deals: pl.DataFrame) -> pl.DataFrame:
    """Per place × trumps × bowers/aces and per place × trumps: n, mean change, t interval."""
    deals = deals.with_columns(pl.col("aces").clip(upper_bound=2))
    cells = grouped_means(deals, ["place", "trumps", "bowers", "aces", "cards"], ["change"])
    rows = grouped_means(deals, ["place", "trumps"], ["change"]).with_columns(
        pl.lit("any").alias("cards"), pl.lit(None, pl.Int8).alias("bowers"), pl.lit(None, pl.Int8).alias("aces"))
    t = pl.concat([cells, rows.select(cells.columns)]).sort("place", "trumps", "bowers", "aces", nulls_last=True)
    return t.with_columns(pl.col("place").replace_strict(PLACES, return_dtype=pl.String).alias("seat"))


def rule_words(grid: pl.DataFrame, place: int, verb: str) -> str:
    """The answer for one seat, as a player states it: the number of trumps from which ``verb``
    pays (its pooled interval above zero at that count and every higher one, and no holding
    there shown to lose), and with fewer trumps the holdings that pay (bowers, off-suit aces)."""
    g = common.shown(grid.filter(pl.col("place") == place))
    if not g.height:
        return f"{PLACES[place]}: not enough deals"
    pooled = g.filter(pl.col("cards") == "any").sort("trumps")
    cells = g.filter(pl.col("cards") != "any").with_columns(
        (pl.col("change_low").fill_null(-1) > 0).alias("pays"), (pl.col("change_high").fill_null(1) < 0).alias("loses"),
        pl.col("aces").clip(upper_bound=2))
    threshold = None
    for t in reversed(pooled["trumps"].to_list()):
        row = pooled.filter(pl.col("trumps") == t).row(0, named=True)
        if (row["change_low"] or -1) > 0 and not cells.filter(pl.col("trumps") == t)["loses"].any():
            threshold = t
        else:
            break
    parts = [f"{verb} with {threshold}+ trumps" if threshold is not None else f"{verb} with no number of trumps alone"]
    for t in sorted(cells["trumps"].unique().to_list(), reverse=True):
        if threshold is not None and t >= threshold:
            continue
        at = cells.filter(pl.col("trumps") == t)
        if at["pays"].any():
            parts.append(f"{t} {_condition(at)}")
    return f"{PLACES[place]}: " + ", or ".join(parts)


def _condition(cells: pl.DataFrame) -> str:
    """The holdings with which a trump count pays, in words ("with a bower", "with both bowers
    and an ace"): a condition every paying holding meets and no holding meeting it loses; else
    the paying holdings themselves."""
    def fits(cond) -> bool:
        inside = cells.filter(cond)
        return bool(inside["pays"].any()) and not inside["loses"].any() and not cells.filter(~cond)["pays"].any()

    words = {("bowers", 1): "a bower", ("bowers", 2): "both bowers", ("aces", 1): "an off-suit ace",
             ("aces", 2): "2 off-suit aces"}
    for (column, k), text in words.items():
        if fits(pl.col(column) >= k):
            return f"with {text}"
    for b in (1, 2):
        for a in (1, 2):
            if fits((pl.col("bowers") >= b) & (pl.col("aces") >= a)):
                return f"with {words[('bowers', b)]} and {'an ace' if a == 1 else '2 aces'}"
    paying = cells.filter(pl.col("pays"))
    if paying.height > 2:
        return "with some holdings (see the chart)"
    bowers = {0: "no bower", 1: "a bower", 2: "both bowers"}
    aces = {0: "no off-suit ace", 1: "an off-suit ace", 2: "2+ off-suit aces"}
    return "with " + ", or ".join(f"{bowers[r['bowers']]} and {aces[r['aces']]}" for r in paying.iter_rows(named=True))


def analyse(runs: list, data) -> common.Analysis:
    whatifs = {r.manifest.get("what_if"): r for r in runs if common.what_if(r)}
    if not whatifs:
        if len(runs) != 1:
            raise SimcoreError("euchre-makers reads what-if order-up / alone runs, or one ordinary run")
        return _observational(runs[0], data)
    unknown = [w for w in whatifs if w not in ORDER_WHATIF and w != "alone"]
    if unknown:
        raise SimcoreError(f"euchre-makers reads --what-if order-up (-partner, -right, -dealer) and alone runs; "
                           f"not --what-if {', '.join(map(str, unknown))}")
    first = next(iter(whatifs.values()))
    level = common.level_text(first.manifest)
    rules = common.rules_text(first.manifest)
    tables, figures, claims, answer, details, sample = {}, {}, [], [], [], []
    orders = [order_deals(whatifs[w], ORDER_WHATIF[w]) for w in ORDER_WHATIF if w in whatifs]
    if orders:
        deals = pl.concat(orders)
        grid = grid_table(deals)
        tables[f"{NAME}_order"] = grid
        places = sorted(deals["place"].unique().to_list())
        claims += _claims(deals, "order", "Order up instead of passing", places,
                          ("pass", "order up", "the same"),
                          f"{level_label(first.manifest)} play; the other seats bid as their policy")
        note = (f"{level}; rules {rules}. Each cell: the seat's side's net points a hand, order − pass on the same "
                f"deal (what-if), deals where the seats before it passed; n below; * = 95% interval excludes 0; "
                f"cells of n < {common.MIN_N} left blank. Trumps count the left bower; the dealer's after the pickup.")
        fig = common.figure(_heatmaps(grid, places), "When to order up: order − pass by the seat's place, the trumps "
                                                     "it would hold, its bowers and off-suit aces (net points a hand)",
                            note, width=15, height=11 if len(places) > 2 else 6)
        if fig is not None:
            figures[f"{NAME}_order"] = fig
        answer.append("Ordering up pays (95% interval above zero, paired) — " + "; ".join(
            rule_words(grid, p, "order") for p in places) + ".")
        sample.append(f"order up: {deals.height:,} deals where the seat was asked, from "
                      + ", ".join(f"`{whatifs[w].path}`" for w in ORDER_WHATIF if w in whatifs))
    if "alone" in whatifs:
        deals = alone_deals(whatifs["alone"])
        grid = grid_table(deals)
        tables[f"{NAME}_alone"] = grid
        places = sorted(deals["place"].unique().to_list())
        claims += _claims(deals.filter(pl.col("bid_round") == 1), "alone",
                          "Going alone instead of with the partner (ordered up)", places,
                          ("play with the partner", "go alone", "the same"),
                          f"{level_label(first.manifest)} play; the makers its bidding chose")
        note = (f"{level}; rules {rules}. Each cell: the makers' net points a hand, alone − with the partner on the "
                f"same deal (what-if alone), for the maker the bidding chose; n below; * = 95% interval excludes 0; "
                f"cells of n < {common.MIN_N} left blank.")
        fig = common.figure(_heatmaps(grid.filter(pl.col("trumps") >= 2), places),
                            "When to go alone: alone − with the partner by the maker's place, trumps, bowers and "
                            "off-suit aces (net points a hand)", note, width=15, height=11 if len(places) > 2 else 6)
        if fig is not None:
            figures[f"{NAME}_alone"] = fig
        answer.append("Going alone pays (95% interval above zero, paired) — " + "; ".join(
            rule_words(grid, p, "go alone") for p in places) + ".")
        sample.append(f"alone: {deals.height:,} deals with a maker from `{whatifs['alone'].path}`")
    return common.Analysis(
        name="euchre-makers", stem=NAME, title="Euchre: when to order up and when to go alone",
        answer=" ".join(answer), tables=tables, figures=figures, claims=claims, details=details,
        sample="; ".join(sample), level=level, rules=rules,
        method="what-if order-up by seat place and what-if alone: each deal played with both options, the same cards "
               "and streams; per-deal differences of the side's net points (t intervals); the seat's hand as it "
               "would play it (the left bower a trump, the dealer's after the pickup)")


def _claims(deals: pl.DataFrame, what: str, question: str, places, words, caveat) -> list:
    """Per place, order − pass (or alone − partner) with 2, 3, 4 and 5 trumps, pooled over bowers
    and aces: the answers levels of play compare."""
    out = []
    for place in places:
        for t in (2, 3, 4, 5):
            g = deals.filter((pl.col("place") == place) & (pl.col("trumps") == t))
            if g.height == 0:
                continue
            out.append(mean_claim(f"eu.{what}.{place}.t{t}", f"{question}: {PLACES[place]}, {t} trumps",
                                  g["change"].to_numpy(), "net points a hand", words, MARGIN,
                                  deals=g["deal"].to_numpy(), caveat=caveat, group=f"eu.{what}",
                                  priority=PRIORITY[what].index(t)))
    return out


def _heatmaps(grid: pl.DataFrame, places) -> list[common.Panel]:
    shown = common.shown(grid.filter(pl.col("cards") != "any"))
    span = float(shown["change"].abs().max() or 1.0)  # one colour scale for every panel
    panels = []
    for place in places:
        g = common.shown(grid.filter((pl.col("place") == place) & (pl.col("cards") != "any")))

        def draw(ax, g=g):
            rows = sorted(g["trumps"].unique().to_list())
            cols = [c for c in COLUMNS if c in set(g["cards"].to_list())]
            img = np.full((len(rows), len(cols)), np.nan)
            for r in g.iter_rows(named=True):
                img[rows.index(r["trumps"]), cols.index(r["cards"])] = r["change"]
            ax.imshow(img, origin="lower", cmap="RdBu", vmin=-span, vmax=span, aspect="auto")
            for r in g.iter_rows(named=True):
                sig = "*" if (r["change_low"] or 0) > 0 or (r["change_high"] or 0) < 0 else ""
                dark = abs(r["change"]) > 0.6 * span  # the colour map's darker third: white text
                ax.text(cols.index(r["cards"]), rows.index(r["trumps"]), f"{r['change']:+.2f}{sig}\n{r['n']:,}",
                        ha="center", va="center", fontsize=7, color="white" if dark else "black")
            ax.set_xticks(range(len(cols)), [c.replace(", ", "\n") for c in cols], fontsize=6)
            ax.set_yticks(range(len(rows)), rows)
            ax.set_ylabel("trumps held")

        panels.append(common.Panel(f"{PLACES[place]}", g.height, draw))
    return panels


def _observational(run: common.RunInput, data) -> common.Analysis:
    """An ordinary run: the makers' net points by the trumps the maker played, per bidding round
    (the hands the bidders chose; not the value of the decision)."""
    h = run.hands.filter(pl.col("maker") >= 0)
    seat = pl.col("maker").cast(pl.Int64)
    feats = hand_features(playing_hand(seat), pl.col("trump"))
    rows = h.select(pl.when(pl.col("alone_maker") >= 0).then(pl.lit("alone")).when(pl.col("bid_round") == 1)
                    .then(pl.lit("ordered up")).otherwise(pl.lit("named in round 2")).alias("kind"),
                    feats["trumps"].alias("trumps"), net(seat).alias("points")).collect()
    t = grouped_means(rows, ["kind", "trumps"], ["points"])
    g = common.shown(t)

    def a(ax):
        for kind in ("ordered up", "named in round 2", "alone"):
            s = g.filter(pl.col("kind") == kind)
            common.error_bars(ax, s["trumps"].to_numpy(), s, "points", "points_low", "points_high", fmt="o-", ms=3,
                              label=kind)
        ax.axhline(0, color="grey", lw=0.8)
        common.integer_ticks(ax)
        ax.set_xlabel("trumps the maker played")
        ax.set_ylabel("makers' net points a hand")
        ax.legend(fontsize=7)

    level = common.level_text(run.manifest)
    fig = common.figure([common.Panel("Makers' net points by trumps (95% t)", g.height, a)],
                        "Euchre: the makers' points on the hands the bidders chose (observational)",
                        f"{level}; rules {common.rules_text(run.manifest)}. Observational: not the value of ordering "
                        "up (use the what-if runs).")
    return common.Analysis(
        name="euchre-makers", stem=NAME, title="Euchre: the makers' points (observational)",
        answer=(f"Observational (the hands the bidders chose): {rows.height:,} played hands; see the what-if runs for "
                "the value of ordering up or going alone."),
        tables={NAME: t}, figures={NAME: fig} if fig is not None else {}, claims=[],
        sample=f"{rows.height:,} played hands from `{data}`", level=level, rules=common.rules_text(run.manifest),
        method="observational: makers' net points by trumps held, per kind of bid; t intervals")
