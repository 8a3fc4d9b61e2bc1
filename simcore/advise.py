"""``simcore advise``: which call for my hand, at three levels of play.

One command takes a hand and answers, for every option of one decision, what the option is
worth on deals consistent with that hand, each with a 95% interval:

- ``open-hand``: ``simcore solve`` with the hand predealt (the value when every seat plays
  perfectly with every card seen; real play can score more or less for either side,
  docs/solving.md);
- ``pimc``: a ``simcore simulate --what-if`` run with the hand predealt and the hand's side
  playing ``pimc`` (a searching player, the other seats heuristic);
- ``heuristic``: the same run with the heuristic everywhere (fast, so large samples).

Each game that offers advice declares its decision in ``Game.advisor`` (a
:class:`~simcore.games.advising.Advisor` in the game's ``advice.py``): the user's seat, the
options, the batches of each level and how their rows become one value per deal and option.

It reuses the batch runner (``simcore.batch``: run folders under ``OUT/runs/``, resumed when
rerun, so a finished level is not computed again) and the analyses' interval code
(``analyses.stats``), and writes ``advise.png`` (the distribution of every option's value per
level, not only its mean), ``advise.csv`` (per level and option: n, mean and 95% t interval,
quantiles, the paired difference to the level's best option, win rates) and ``advise.md`` (the verdict in words, the sample and the commands).  docs/advise.md.
"""

from __future__ import annotations

import hashlib
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import polars as pl

from analyses import common
from analyses.stats import t_interval, wilson
from simcore import games
from simcore.cards import format_card, parse_cards
from simcore.errors import SimcoreError
from simcore.games.advising import LEVELS

LEVEL_ALIASES = {"dd": "open-hand", "open-hand": "open-hand", "openhand": "open-hand",
                 "pimc": "pimc", "heuristic": "heuristic"}
NAME = "advise"


# ---------------------------------------------------------------- input


@dataclass
class Request:
    """A checked ``simcore advise`` call."""

    game: str  # the registry name
    advisor: object
    hand: list
    upcard: int | None
    levels: tuple
    deals: dict
    seed: int
    rules: dict
    pimc: str
    options: tuple
    out: Path


def parse_request(game: str, hand: str, *, upcard=None, levels=None, deals=None, level_deals=None,
                  seed: int = 0, rules=None, pimc: str = "pimc", options=None, out=None) -> Request:
    """Check every input before anything runs; SimcoreError (one line) on bad input."""
    key = games.key(game)
    if key not in games.names() or games.get(key).advisor is None:
        raise SimcoreError(f"simcore advise answers for {', '.join(games.names_with('advisor'))}; "
                           f"not {game!r}")
    record = games.get(key)
    adv = record.advisor
    cards = _hand(record, adv, hand)
    up = _upcard(record, adv, upcard, cards)
    if levels is None:  # the default levels, and any level given a size of its own
        levels = [lv for lv in LEVELS if lv in adv.default_levels or lv in (level_deals or {})]
    chosen = _levels(levels)
    sizes = dict(adv.default_deals)
    if deals is not None:
        sizes = {lv: _positive(deals, "--deals") for lv in LEVELS}
    for lv, n in (level_deals or {}).items():
        sizes[lv] = _positive(n, f"--{lv}-deals")
    if not str(pimc).startswith("pimc"):
        raise SimcoreError(f"--pimc names a search policy such as pimc or pimc:16, not {pimc!r}")
    wanted = _options(record.name, adv, options)
    rules = adv.rules(dict(rules or {}))
    record.rules_cls.from_options(rules)  # a bad --rules fails here, before any run
    digest = hashlib.sha1(repr((key, sorted(cards), up, seed, sorted(rules.items()), pimc)).encode()).hexdigest()[:8]
    folder = Path(out) if out is not None else Path("data") / f"advise-{key}-{digest}"
    return Request(record.name, adv, cards, up, chosen, {lv: sizes[lv] for lv in chosen}, seed, rules, pimc, wanted, folder)


def _hand(record, adv, text) -> list:
    if not isinstance(text, str) or not text.strip():
        raise SimcoreError(f"--hand needs {adv.hand_size} cards, e.g. AS,KS,3H")
    cards = parse_cards(text)  # malformed cards and a card given twice fail here, one line
    if len(cards) != adv.hand_size:
        raise SimcoreError(f"a {record.name} hand has {adv.hand_size} cards; --hand gives {len(cards)}")
    record.check_deck(cards)
    return sorted(cards)


def _upcard(record, adv, upcard, cards):
    if not adv.upcard:
        if upcard is not None:
            with_upcard = [name for name in games.names_with("advisor") if games.get(name).advisor.upcard]
            raise SimcoreError(f"--upcard is for {', '.join(with_upcard)}; {record.name} has no upcard")
        return None
    if upcard is None:
        raise SimcoreError(f"{record.name} needs --upcard CARD (the turned-up card, e.g. JH)")
    got = parse_cards(upcard)
    if len(got) != 1:
        raise SimcoreError(f"--upcard is one card, not {upcard!r}")
    c = got[0]
    record.check_deck([c])
    if c in cards:
        raise SimcoreError(f"the upcard {format_card(c)} is also in --hand")
    return c


def _levels(levels) -> tuple:
    if levels is None:
        return LEVELS
    items = levels.split(",") if isinstance(levels, str) else list(levels)
    chosen = []
    for item in items:
        name = LEVEL_ALIASES.get(str(item).strip().lower())
        if name is None:
            raise SimcoreError(f"unknown level {item!r}; levels: open-hand (or dd), pimc, heuristic")
        if name not in chosen:
            chosen.append(name)
    if not chosen:
        raise SimcoreError("--levels names no level")
    return tuple(lv for lv in LEVELS if lv in chosen)


def _positive(n, what) -> int:
    if isinstance(n, bool) or not isinstance(n, int) or n <= 0:
        raise SimcoreError(f"{what} must be a positive whole number, not {n!r}")
    return n


def _options(game: str, adv, options) -> tuple:
    if options is None:
        return adv.options
    items = options.split(",") if isinstance(options, str) else list(options)
    for item in items:
        if item.strip() not in adv.options:
            raise SimcoreError(f"unknown option {item.strip()!r} for {game}; options: {', '.join(adv.options)}")
    return tuple(o for o in adv.options if o in {i.strip() for i in items})


# ---------------------------------------------------------------- running


def advise(game: str, hand: str, *, upcard=None, levels=None, deals=None, level_deals=None, seed: int = 0,
           rules=None, pimc: str = "pimc", options=None, out=None, threads=None, quiet: bool = True) -> dict:
    """Run every level's batches (reusing finished ones in ``out``) and write the chart, tables
    and summary; returns {"files": [...], "verdict": text, "table": DataFrame}."""
    req = parse_request(game, hand, upcard=upcard, levels=levels, deals=deals, level_deals=level_deals,
                        seed=seed, rules=rules, pimc=pimc, options=options, out=out)
    try:
        (req.out / "runs").mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise SimcoreError(f"cannot write to {req.out}: {e.strerror or e}") from None
    rows, commands = {}, []
    for level in req.levels:
        frames, texts = _run_level(req, level, threads, quiet)
        rows[level] = _collect(req, level, frames)
        commands += texts
    return write_report(req, rows, commands)


def level_play(req: Request, level: str) -> list:
    """The play policies of a simulate level: the searching seats pimc, the rest heuristic."""
    if level == "pimc":
        return ["heuristic", *(f"{s}={req.pimc}" for s in req.advisor.searching)]
    return ["heuristic"]


def _run_level(req: Request, level: str, threads, quiet: bool):
    import numba

    from simcore import batch

    adv = req.advisor
    predeal = adv.predeal(req.hand, req.upcard)
    n = req.deals[level]
    frames, texts = {}, []
    for spec in adv.runs(level, predeal, req.rules, level_play(req, level)):
        folder = req.out / "runs" / f"{level}-{spec.name}-n{n}"  # another size is another run
        texts.append(spec.text(req.game, n, req.seed, folder))
        # search levels take up to seconds a deal: parts of a tenth of the run (at least one deal
        # per thread, which the kernels share out) move the progress bar on
        chunk = 250_000 if level == "heuristic" else max(numba.get_num_threads() if threads is None else threads, n // 10)
        if not quiet:
            print(f"simcore advise: {level}: {texts[-1]}", file=sys.stderr)
        kw = dict(seed=req.seed, out=folder, threads=threads, resume=folder.exists(), quiet=quiet,
                  chunk_size=chunk, predeal=spec.options["predeal"], rules=spec.options["rules"],
                  policy=spec.options.get("policy"))
        if spec.command == "solve":
            run = batch.solve_deals(req.game, n, **kw)
        else:
            run = batch.simulate(req.game, n, what_if=spec.options["what_if"], **kw)
        frames[spec.name] = run.hands()
    return frames, texts


def _collect(req: Request, level: str, frames: dict) -> pl.DataFrame:
    rows = req.advisor.rows(level, frames)
    rows = rows.collect() if isinstance(rows, pl.LazyFrame) else rows
    return rows.filter(pl.col("option").is_in(list(req.options)))


# ---------------------------------------------------------------- the report


def comparable(adv, level: str) -> bool:
    """Whether every option of the level is measured in the same unit (then paired differences
    between options mean something)."""
    return adv.level_unit(level) == adv.unit


def option_table(req: Request, rows: dict) -> pl.DataFrame:
    """Per (level, option): n, mean with its 95% t interval, quantiles, win rate (Wilson) and the
    paired difference to the level's best option (t on the per-deal differences)."""
    parts = []
    for level, r in rows.items():
        if r.height == 0:
            continue
        t = (r.group_by("option").agg(
            pl.len().alias("n"), pl.col("value").mean().alias("mean"), pl.col("value").std().alias("std"),
            *[pl.col("value").quantile(q, "nearest").alias(f"q{int(100 * q):02d}") for q in (0.05, 0.25, 0.5, 0.75, 0.95)],
            pl.col("win").sum().alias("wins"), pl.col("win").count().alias("win_n"),
            pl.col("tricks").mean().alias("tricks_mean") if "tricks" in r.columns else pl.lit(None, pl.Float64).alias("tricks_mean"),
            (pl.col("bid").mode().min() if "bid" in r.columns else pl.lit(None, pl.Int8)).alias("bid_mode"))
            .with_columns(pl.lit(level).alias("level")))
        low, high = t_interval(t["mean"], t["std"], t["n"])
        wl, wh = wilson(t["wins"].fill_null(0), t["win_n"])
        t = t.with_columns(pl.Series("low", low), pl.Series("high", high),
                           (pl.col("wins") / pl.col("win_n")).alias("win_rate"),
                           pl.Series("win_low", wl), pl.Series("win_high", wh))
        parts.append(_paired(req, level, r, t))
    order = {o: i for i, o in enumerate(req.advisor.options)}
    table = pl.concat(parts, how="diagonal_relaxed")
    table = table.with_columns(pl.col("option").replace_strict(order, return_dtype=pl.Int32).alias("_o"),
                               pl.col("level").replace_strict({lv: i for i, lv in enumerate(LEVELS)},
                                                              return_dtype=pl.Int32).alias("_l"))
    columns = ["level", "option", "unit", "n", "mean", "low", "high", "std", "q05", "q25", "q50", "q75", "q95",
               "best", "vs_best", "vs_best_low", "vs_best_high", "paired_n", "win_rate", "win_low", "win_high",
               "tricks_mean", "bid_mode"]
    missing = [c for c in columns if c not in table.columns]  # a level without paired differences
    table = table.with_columns(*[pl.lit(None, pl.Float64).alias(c) for c in missing])
    return table.sort("_l", "_o").select(columns)


def _paired(req: Request, level: str, rows: pl.DataFrame, t: pl.DataFrame) -> pl.DataFrame:
    adv = req.advisor
    t = t.with_columns(pl.lit(adv.level_unit(level)).alias("unit"))
    if not comparable(adv, level):
        return t.with_columns(pl.lit(None, pl.Boolean).alias("best"))
    best = _ranked(adv, t)["option"][0]
    base = rows.filter(pl.col("option") == best).select("deal", pl.col("value").alias("_best"))
    d = (rows.join(base, on="deal").with_columns((pl.col("value") - pl.col("_best")).alias("_d"))
         .group_by("option").agg(pl.col("_d").mean().alias("vs_best"), pl.col("_d").std().alias("_ds"),
                                 pl.len().alias("paired_n")))
    low, high = t_interval(d["vs_best"], d["_ds"].fill_null(0.0), d["paired_n"])
    d = d.with_columns(pl.Series("vs_best_low", low), pl.Series("vs_best_high", high)).drop("_ds")
    return t.join(d, on="option", how="left").with_columns((pl.col("option") == best).alias("best"))


def _ranked(adv, t: pl.DataFrame) -> pl.DataFrame:
    """Options by mean, best first; ties in the advisor's order of options (so reruns agree)."""
    order = {o: i for i, o in enumerate(adv.options)}
    return t.with_columns(pl.col("option").replace_strict(order, return_dtype=pl.Int32).alias("_rank")) \
        .sort(["mean", "_rank"], descending=[True, False]).drop("_rank")


def verdict(req: Request, table: pl.DataFrame) -> str:
    """The answer in words, one paragraph per level, and whether the best option holds across levels."""
    adv = req.advisor
    lines, bests = [], {}
    for level in req.levels:
        g = table.filter(pl.col("level") == level)
        if g.height == 0:
            lines.append(f"{level}: no deal answered this decision (see docs/advise.md)")
            continue
        n = int(g["n"].max())
        deals = f"{n:,} deals" if n == req.deals[level] else f"{n:,} of {req.deals[level]:,} deals answer"
        if not comparable(adv, level):
            lines.append(f"{level} ({deals}): " + "; ".join(adv.describe(r) for r in g.iter_rows(named=True)))
            continue
        g = _ranked(adv, g)
        b = g.row(0, named=True)
        bests[level] = b["option"]
        worse = [r for r in g.rows(named=True)[1:] if r["vs_best_high"] is not None and r["vs_best_high"] < 0]
        others = ", ".join(f"{_label(adv, r, n)} {r['vs_best']:+.2f} [{r['vs_best_low']:+.2f}, {r['vs_best_high']:+.2f}]"
                           for r in g.rows(named=True)[1:])
        missing = [o for o in req.options if o not in set(g["option"].to_list()) and o not in adv.unavailable.get(level, ())]
        lines.append(f"{level} ({deals}): best {_label(adv, b, n)} at {b['mean']:+.2f} [{b['low']:+.2f}, {b['high']:+.2f}] "
                     f"{adv.unit}" + (f"; the others against it, paired by deal: {others}" if others else "")
                     + f" ({len(worse)} of {g.height - 1} significantly worse)"
                     + (f"; no deal answered for {', '.join(missing)}" if missing else "") + ".")
    skipped = [lv for lv in LEVELS if lv not in req.levels]
    if skipped:
        lines.append(f"Not run: {', '.join(skipped)} (ask with --levels or --{skipped[0]}-deals N; "
                     + _slow_open_hand() + "docs/advise.md).")
    if len(bests) > 1:
        same = len(set(bests.values())) == 1
        lines.append("Best option by level: " + ", ".join(f"{lv} {o}" for lv, o in bests.items())
                     + (" — the same at every level." if same else " — the levels disagree."))
    return "\n".join(lines)


def _slow_open_hand() -> str:
    """Which games leave open-hand out by default, for the verdict's "Not run" line."""
    slow = [games.get(name).title for name in games.names_with("advisor")
            if "open-hand" not in games.get(name).advisor.default_levels]
    if not slow:
        return ""
    return f"open-hand {' and '.join(slow)} deals take minutes of CPU each, "


def _label(adv, r: dict, n: int | None = None) -> str:
    """The option's name in the advisor's words, with its deals when fewer than the level's."""
    return adv.label(r) + (f" [{r['n']:,} deals]" if n is not None and r["n"] != n else "")


def chart(req: Request, rows: dict, table: pl.DataFrame, path: Path) -> Path:
    """Per level: a box per option (quartiles, whiskers 5%-95%) with the mean and its 95%
    interval, and the distribution of the values of the best options (share of deals)."""
    import matplotlib.pyplot as plt

    adv = req.advisor
    levels = [lv for lv in req.levels if rows.get(lv) is not None and rows[lv].height]
    fig, axes = plt.subplots(max(1, len(levels)), 2, figsize=(15, 4.2 * max(1, len(levels))),
                             constrained_layout=True, squeeze=False, gridspec_kw={"width_ratios": [3, 2]})
    for (box, dist), level in zip(axes, levels):
        g = table.filter(pl.col("level") == level)
        shown = [o for o in req.options if o in set(g["option"].to_list())]
        values = [rows[level].filter(pl.col("option") == o)["value"].to_numpy() for o in shown]
        box.boxplot(values, whis=(5, 95), showfliers=False, widths=0.55,
                    medianprops={"color": "black"}, boxprops={"color": "#4C72B0"})
        stats = {r["option"]: r for r in g.iter_rows(named=True)}
        x = np.arange(1, len(shown) + 1)
        mean = np.array([stats[o]["mean"] for o in shown])
        low = np.array([stats[o]["low"] for o in shown], float)
        high = np.array([stats[o]["high"] for o in shown], float)
        box.errorbar(x, mean, yerr=[np.nan_to_num(mean - low), np.nan_to_num(high - mean)], fmt="D", color="#C44E52",
                     capsize=4, label="mean, 95% t interval")
        names = [_label(adv, stats[o]).replace("-", "\n" if len(shown) > 5 else "-") for o in shown]
        box.set_xticks(x, [f"{name}\nn={stats[o]['n']:,}" for name, o in zip(names, shown)], fontsize=8)
        box.axhline(0, color="grey", lw=0.7)
        box.set_ylabel(_wrap(adv.level_unit(level), 45), fontsize=8)
        box.set_title(f"{level}: value per option (box: quartiles, whiskers 5–95%)", fontsize=9)
        box.legend(fontsize=7)
        top = set(_ranked(adv, g)["option"].to_list()[:4])
        _distribution(dist, rows[level], [o for o in adv.options if o in top], adv.options)
        dist.set_title(f"{level}: distribution over deals" + (" (the 4 best options by mean)" if len(shown) > 4 else ""),
                       fontsize=9)
        dist.set_xlabel(_wrap(adv.level_unit(level), 60), fontsize=8)
        dist.set_ylabel("share of deals (%)")
    hand = " ".join(format_card(c) for c in req.hand) + (f"; upcard {format_card(req.upcard)}" if req.upcard is not None else "")
    rules = ", ".join(f"{k}={v}" for k, v in req.rules.items()) or "the defaults"
    fig.suptitle(f"{req.game}: {adv.decision}\nhand {hand}; seed {req.seed}; rules: {rules}", fontsize=10)
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path


def _distribution(ax, rows: pl.DataFrame, options: list, every: tuple) -> None:
    """Share of deals per value, one colour an option: side-by-side bars when the values are few
    (points and tricks are whole numbers), a step histogram of 20 bins otherwise."""
    values = rows.filter(pl.col("option").is_in(options))["value"].to_numpy()
    distinct = np.unique(values)
    edges = None if distinct.size <= 25 else np.histogram_bin_edges(values, bins=20)
    step = np.min(np.diff(distinct)) if distinct.size > 1 else 1.0
    width = 0.8 * step / max(1, len(options))
    for i, o in enumerate(options):
        v = rows.filter(pl.col("option") == o)["value"].to_numpy()
        if edges is None:
            share = np.array([(v == x).mean() for x in distinct])
            ax.bar(distinct + (i - (len(options) - 1) / 2) * width, 100 * share, width, label=o, color=_colour(o, every))
        else:
            counts, _ = np.histogram(v, bins=edges)
            ax.stairs(100 * counts / max(1, v.size), edges, label=o, color=_colour(o, every))
    ax.legend(fontsize=7)


def _colour(option: str, every: tuple):
    """One colour per option on every panel of the chart."""
    import matplotlib.pyplot as plt

    return plt.get_cmap("tab10")(every.index(option) % 10)


def _wrap(text: str, width: int) -> str:
    import textwrap

    return "\n".join(textwrap.wrap(text, width))


def write_report(req: Request, rows: dict, commands: list) -> dict:
    table = option_table(req, rows)
    words = verdict(req, table)
    png = chart(req, rows, table, req.out / f"{NAME}.png")
    csv = req.out / f"{NAME}.csv"
    common.write_table(table, req.out, NAME)
    md = req.out / f"{NAME}.md"
    adv = req.advisor
    sizes = ", ".join(f"{lv} {n:,} deals" for lv, n in req.deals.items())
    md.write_text(
        f"### {req.game}: {adv.decision}\n\n![advise]({png.name})\n\n" + words.replace("\n", "\n\n") + "\n\n"
        f"- Hand: {' '.join(format_card(c) for c in req.hand)}"
        + (f"; upcard {format_card(req.upcard)}" if req.upcard is not None else "") + "\n"
        f"- Sample: {sizes} (seed {req.seed}); rows per level and option in `{csv.name}`\n"
        f"- Levels: open-hand = `simcore solve` (every card seen, perfect play by every seat); pimc = seats "
        f"{', '.join(map(str, adv.searching))} play `{req.pimc}`, the others heuristic; heuristic = every seat heuristic\n"
        f"- Method: docs/advise.md; means with 95% t intervals, differences paired by deal, rates with Wilson intervals\n"
        f"- Runs:\n" + "".join(f"  - `{c}`\n" for c in commands))
    return {"files": [png, csv, md], "verdict": words, "table": table}
