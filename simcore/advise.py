"""``simcore.advise`` and ``simcore advise``: which call for my hand, at three levels of play.

One call takes a hand and answers, for every option of one decision, what the option is
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

:func:`advise` returns an :class:`Advice`: per level and option the sample size, the mean with
its 95% t interval, the paired difference to the level's best option with its interval and a
verdict that names a best option only where those intervals decide it.  With ``out`` it also
keeps the batches under ``OUT/runs/`` (resumed when rerun, so a finished level is not computed
again) and writes ``advise.png``, ``advise.csv`` and ``advise.md``.  docs/advise.md.
"""

from __future__ import annotations

import hashlib
import html
import sys
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

import numpy as np
import polars as pl
import polars.selectors as cs

from simcore import games
from simcore.arguments import _whole, rules_options  # _whole: an int from any whole number, bools not
from simcore.cards import N_CARDS, format_card, parse_cards
from simcore.errors import SimcoreError
from simcore.games.advising import LEVELS

LEVEL_ALIASES = {"dd": "open-hand", "open-hand": "open-hand", "openhand": "open-hand", "open_hand": "open-hand",
                 "pimc": "pimc", "heuristic": "heuristic"}
NAME = "advise"
# An option (or a paired difference) over fewer deals than this gets no verdict: t intervals of a
# handful of deals rest on a normality the values (whole points, tricks) do not have.
MIN_DEALS = 10
# A paired difference that is the same on every deal has no t interval; it decides only from this
# many deals, where (rule of three) fewer than a tenth of all deals could differ at 95%.
MIN_CONSTANT = 30
TABLE_COLUMNS = ["level", "option", "unit", "n", "mean", "low", "high", "std", "q05", "q25", "q50", "q75", "q95",
                 "best", "vs_best", "vs_best_low", "vs_best_high", "paired_n", "win_rate", "win_low", "win_high",
                 "tricks_mean", "bid_mode", "verdict"]
FRAME_COLUMNS = ["level", "option", "n", "mean", "low", "high", "vs_best", "vs_best_low", "vs_best_high",
                 "paired_n", "verdict"]
HEADINGS = ["level", "option", "n", "mean", "95% interval", "vs best", "95% interval", "verdict"]


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
    out: Path | None  # None: nothing is written, the batches run in memory


def parse_request(game: str, hand, *, upcard=None, levels=None, deals=None, level_deals=None,
                  seed: int = 0, rules=None, pimc: str = "pimc", options=None, out=None) -> Request:
    """Check every input before anything runs; SimcoreError (one line) on bad input.

    ``deals`` is every level's size (an int) or ``{level: size}``; ``level_deals`` (the command
    line's ``--LEVEL-deals``) sizes single levels on top of ``deals``.  A level given a size of
    its own is run even if the game's default levels leave it out."""
    key = games.key(game) if isinstance(game, str) else game
    if not isinstance(key, str) or key not in games.names() or games.get(key).advisor is None:
        raise SimcoreError(f"simcore advise answers for {', '.join(games.names_with('advisor'))}; "
                           f"not {game!r}")
    record = games.get(key)
    adv = record.advisor
    cards = _hand(record, adv, hand)
    up = _upcard(record, adv, upcard, cards)
    sizes, own = _sizes(adv, deals, level_deals)
    if levels is None:  # the default levels, and any level given a size of its own
        levels = [lv for lv in LEVELS if lv in adv.default_levels or lv in own]
    chosen = _levels(levels)
    seed = _whole(seed)
    if seed is None or seed < 0:
        raise SimcoreError(f"seed must be a whole number >= 0, not {seed!r}")
    if not isinstance(pimc, str) or not pimc.startswith("pimc"):
        raise SimcoreError(f"--pimc names a search policy such as pimc or pimc:16, not {pimc!r}")
    wanted = _options(record.name, adv, options)
    rules = adv.rules(dict(rules_options(rules) or {}))
    record.rules_cls.from_options(rules)  # a bad --rules fails here, before any run
    return Request(record.name, adv, cards, up, chosen, {lv: sizes[lv] for lv in chosen}, seed, rules, pimc,
                   wanted, None if out is None else Path(out))


def default_out(req: Request) -> Path:
    """The command line's output folder when ``--out`` is not given: a name made from the hand,
    seed, rules and search policy, so the same question reuses its finished runs."""
    key = (games.key(req.game), sorted(req.hand), req.upcard, req.seed, sorted(req.rules.items()), req.pimc)
    return Path("data") / f"advise-{games.key(req.game)}-{hashlib.sha1(repr(key).encode()).hexdigest()[:8]}"


def _card_ids(value, what: str) -> list[int]:
    """Card text (``"AS KS"``, ``"AS,KS"``), or a list of card names and ids (13 * suit + rank)."""
    if isinstance(value, str):
        return parse_cards(value)  # malformed cards and a card given twice fail here, one line
    if _whole(value) is not None:
        value = [value]
    if not isinstance(value, (list, tuple, set, frozenset, np.ndarray)):
        raise SimcoreError(f"{what} takes cards such as 'AS,KS,3H' or ['AS', 'KS', '3H'], not {value!r}")
    ids = []
    for c in value:
        if isinstance(c, str):
            ids.extend(parse_cards(c))
        elif _whole(c) is not None and 0 <= _whole(c) < N_CARDS:
            ids.append(_whole(c))
        else:
            raise SimcoreError(f"{what}: {c!r} is not a card (use 'AS' or a card id 0-51)")
    twice = sorted({c for c in ids if ids.count(c) > 1})
    if twice:
        raise SimcoreError(f"duplicate card in {what}: {' '.join(format_card(c) for c in twice)}")
    return ids


def _hand(record, adv, value) -> list:
    cards = _card_ids(value, "--hand")
    if not cards:
        raise SimcoreError(f"--hand needs {adv.hand_size} cards, e.g. AS,KS,3H")
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
    got = _card_ids(upcard, "--upcard")
    if len(got) != 1:
        raise SimcoreError(f"--upcard is one card, not {upcard!r}")
    c = got[0]
    record.check_deck([c])
    if c in cards:
        raise SimcoreError(f"the upcard {format_card(c)} is also in --hand")
    return c


def _level_name(item) -> str:
    name = LEVEL_ALIASES.get(str(item).strip().lower())
    if name is None:
        raise SimcoreError(f"unknown level {item!r}; levels: open-hand (or dd), pimc, heuristic")
    return name


def _levels(levels) -> tuple:
    items = levels.split(",") if isinstance(levels, str) else list(levels)
    chosen = {_level_name(item) for item in items if str(item).strip()}
    if not chosen:
        raise SimcoreError("--levels names no level")
    return tuple(lv for lv in LEVELS if lv in chosen)


def _sizes(adv, deals, level_deals) -> tuple[dict, dict]:
    """(every level's size, the sizes given per level)."""
    own = dict(level_deals or {})
    if isinstance(deals, dict):
        own, deals = {**deals, **own}, None
    own = {_level_name(lv): _positive(n, f"--{_level_name(lv)}-deals") for lv, n in own.items()}
    sizes = dict(adv.default_deals)
    if deals is not None:
        sizes = dict.fromkeys(LEVELS, _positive(deals, "--deals"))
    return {**sizes, **own}, own


def _positive(n, what) -> int:
    if _whole(n) is None or _whole(n) <= 0:
        raise SimcoreError(f"{what} must be a positive whole number, not {n!r}")
    return _whole(n)


def _options(game: str, adv, options) -> tuple:
    if options is None:
        return adv.options
    items = {str(i).strip() for i in (options.split(",") if isinstance(options, str) else options)}
    unknown = sorted(items - set(adv.options))
    if unknown:
        raise SimcoreError(f"unknown option {unknown[0]!r} for {game}; options: {', '.join(adv.options)}")
    return tuple(o for o in adv.options if o in items)


# ---------------------------------------------------------------- running


def advise(game: str, hand, *, upcard=None, levels=None, deals=None, seed: int = 0, rules=None,
           pimc: str = "pimc", options=None, out=None, threads=None, quiet: bool = True) -> Advice:
    """Which option of a decision is best for ``hand``, at each level of play.

    ``hand`` and ``upcard`` take card text (``"JH,JD,AH,KH,9C"``) or lists of card names and
    ids; ``levels`` a list or comma-separated text of ``open-hand``, ``pimc``, ``heuristic``;
    ``deals`` every level's size or ``{level: size}`` (the game's defaults otherwise: under a
    minute of CPU once compiled); ``rules`` a dict such as ``{"target": 300}``; ``options`` the options to
    report.  Files are written only with ``out`` (the chart, table and summary of ``simcore
    advise``, and the batches under ``out/runs/``, reused when the call is repeated)::

        advice = simcore.advise(game, "AS,KS,QH,...")   # and upcard="JH" where the game turns one
        advice                 # the table and the verdict (a notebook shows it as HTML)
        advice.frame           # per level and option: n, mean, intervals, verdict (polars)
        advice.best            # {level: the option the level decides is best, or None}
        advice.figure          # the values' distributions (matplotlib Figure)
    """
    req = parse_request(game, hand, upcard=upcard, levels=levels, deals=deals, seed=seed, rules=rules,
                        pimc=pimc, options=options, out=out)
    return run(req, threads=threads, quiet=quiet)


def run(req: Request, *, threads=None, quiet: bool = True) -> Advice:
    """Run every level's batches (reusing finished ones under ``req.out``) and judge them;
    with ``req.out`` write the chart, table and summary there too."""
    if req.out is not None:
        try:
            (req.out / "runs").mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise SimcoreError(f"cannot write to {req.out}: {e.strerror or e}") from None
    rows, commands = {}, []
    for level in req.levels:
        frames, texts = _run_level(req, level, threads, quiet)
        rows[level] = _collect(req, level, frames)
        commands += texts
    advice = judge(req, rows, commands)
    if req.out is not None:
        advice.write(req.out)
    return advice


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
        # another size is another run folder
        folder = None if req.out is None else req.out / "runs" / f"{level}-{spec.name}-n{n}"
        texts.append(spec.text(req.game, n, req.seed, folder))
        # search levels take up to seconds a deal: parts of a tenth of the run (at least one deal
        # per thread, which the kernels share out) move the progress bar on
        chunk = 250_000 if level == "heuristic" else max(numba.get_num_threads() if threads is None else threads, n // 10)
        if not quiet:
            print(f"simcore advise: {level}: {texts[-1]}", file=sys.stderr)
        kw = dict(seed=req.seed, out=folder, threads=threads, resume=folder is not None and folder.exists(),
                  quiet=quiet, chunk_size=chunk, predeal=spec.options["predeal"], rules=spec.options["rules"],
                  policy=spec.options.get("policy"))
        if spec.command == "solve":  # with the game's solve options the advisor asks for
            result = batch.solve_deals(req.game, n, options=spec.options.get("options"), **kw)
        else:
            result = batch.simulate(req.game, n, what_if=spec.options["what_if"], **kw)
        frames[spec.name] = result.hands()
    return frames, texts


def _collect(req: Request, level: str, frames: dict) -> pl.DataFrame:
    rows = req.advisor.rows(level, frames)
    rows = rows.collect() if isinstance(rows, pl.LazyFrame) else rows
    return rows.filter(pl.col("option").is_in(list(req.options)))


# ---------------------------------------------------------------- the statistics


def comparable(adv, level: str) -> bool:
    """Whether every option of the level is measured in the same unit (then paired differences
    between options mean something)."""
    return adv.level_unit(level) == adv.unit


def interval(mean, std, n) -> tuple[np.ndarray, np.ndarray]:
    """95% t intervals; a group without spread (every value equal) gets the interval of width 0
    at its value, a group of one none (NaN).  Its verdict needs more (``MIN_DEALS``,
    ``MIN_CONSTANT``)."""
    from analyses.stats import t_interval

    mean, std, n = (pl.Series(x).cast(pl.Float64).fill_null(np.nan).to_numpy() for x in (mean, std, n))
    flat = (n > 1) & no_spread(std, mean)
    low, high = t_interval(mean, np.where(flat, 0.0, std), n)
    return np.where(flat, mean, low), np.where(flat, mean, high)


def no_spread(std, mean):
    """Whether values have no spread: a std of rounding noise counts as none (the std of forty
    0.1s is 1e-17, not 0)."""
    std, mean = np.asarray(std, dtype=float), np.asarray(mean, dtype=float)
    with np.errstate(invalid="ignore"):
        return std <= 1e-9 * np.maximum(1.0, np.abs(np.nan_to_num(mean)))


def option_table(req: Request, rows: dict) -> pl.DataFrame:
    """Per (level, option): n, mean with its 95% t interval, quantiles, win rate (Wilson), the
    paired difference to the level's best option (t on the per-deal differences) and the verdict."""
    parts = [_level_table(req, level, r) for level, r in rows.items() if r.height]
    if not parts:
        return pl.DataFrame(schema={c: pl.Float64 for c in TABLE_COLUMNS}).with_columns(
            pl.col("level", "option", "unit", "verdict").cast(pl.String), pl.col("n", "paired_n").cast(pl.UInt32),
            pl.col("best").cast(pl.Boolean))
    order = {o: i for i, o in enumerate(req.advisor.options)}
    table = pl.concat(parts, how="diagonal_relaxed")
    missing = [c for c in TABLE_COLUMNS if c not in table.columns]  # no level with paired differences
    table = table.with_columns(*[pl.lit(None, pl.String if c == "verdict" else pl.Float64).alias(c) for c in missing])
    table = table.with_columns(pl.col("option").replace_strict(order, return_dtype=pl.Int32).alias("_o"),
                               pl.col("level").replace_strict({lv: i for i, lv in enumerate(LEVELS)},
                                                              return_dtype=pl.Int32).alias("_l"))
    return table.sort("_l", "_o").select(TABLE_COLUMNS).with_columns(cs.float().fill_nan(None))


def _level_table(req: Request, level: str, r: pl.DataFrame) -> pl.DataFrame:
    from analyses.stats import wilson

    t = (r.group_by("option").agg(
        pl.len().alias("n"), pl.col("value").mean().alias("mean"), pl.col("value").std().alias("std"),
        *[pl.col("value").quantile(q, "nearest").alias(f"q{int(100 * q):02d}") for q in (0.05, 0.25, 0.5, 0.75, 0.95)],
        pl.col("win").sum().alias("wins"), pl.col("win").count().alias("win_n"),
        pl.col("tricks").mean().alias("tricks_mean") if "tricks" in r.columns else pl.lit(None, pl.Float64).alias("tricks_mean"),
        (pl.col("bid").mode().min() if "bid" in r.columns else pl.lit(None, pl.Int8)).alias("bid_mode"))
        .with_columns(pl.lit(level).alias("level")))
    low, high = interval(t["mean"], t["std"], t["n"])
    wl, wh = wilson(t["wins"].fill_null(0), t["win_n"])
    t = t.with_columns(pl.Series("low", low), pl.Series("high", high),
                       pl.when(pl.col("win_n") > 0).then(pl.col("wins") / pl.col("win_n")).alias("win_rate"),
                       pl.Series("win_low", wl), pl.Series("win_high", wh))
    return _paired(req, level, r, t)


def _paired(req: Request, level: str, rows: pl.DataFrame, t: pl.DataFrame) -> pl.DataFrame:
    adv = req.advisor
    t = t.with_columns(pl.lit(adv.level_unit(level)).alias("unit"))
    if not comparable(adv, level):
        return t.with_columns(pl.lit(None, pl.Boolean).alias("best"), pl.lit(None, pl.String).alias("verdict"))
    best = _ranked(adv, t)["option"][0]
    base = rows.filter(pl.col("option") == best).select("deal", pl.col("value").alias("_best"))
    d = (rows.join(base, on="deal").with_columns((pl.col("value") - pl.col("_best")).alias("_d"))
         .group_by("option").agg(pl.col("_d").mean().alias("vs_best"), pl.col("_d").std().alias("_ds"),
                                 pl.len().alias("paired_n")))
    low, high = interval(d["vs_best"], d["_ds"], d["paired_n"])
    d = d.with_columns(pl.Series("vs_best_low", low), pl.Series("vs_best_high", high))
    t = t.join(d, on="option", how="left").with_columns((pl.col("option") == best).alias("best"))
    verdicts = option_verdicts(t.rows(named=True), best)
    return t.with_columns(pl.col("option").replace_strict(verdicts, return_dtype=pl.String).alias("verdict")).drop("_ds")


def option_verdicts(rows: list[dict], best: str) -> dict[str, str]:
    """Each option's verdict against the level's best by mean: ``worse`` only where the paired
    interval lies below 0; the best is ``best`` only when every other option is worse."""
    top = next(r for r in rows if r["option"] == best)
    if len(rows) == 1:
        return {best: "the only option shown"}
    if top["n"] < MIN_DEALS:
        return {r["option"]: f"not enough deals (n = {r['n']:,})" for r in rows}
    verdicts = {r["option"]: _against_best(r) for r in rows if r["option"] != best}
    verdicts[best] = "best" if all(v == "worse" for v in verdicts.values()) else "highest mean, not decided"
    return verdicts


def _against_best(r: dict) -> str:
    n = r["paired_n"] or 0
    if n < MIN_DEALS:
        return f"not enough deals (n = {n:,})"
    if no_spread(r["_ds"], r["vs_best"]):  # the same difference on every deal: no t interval
        if abs(r["vs_best"]) <= 1e-9:
            return "same as the best on every deal"
        return "worse" if n >= MIN_CONSTANT else f"not decided (n = {n:,})"
    return "worse" if r["vs_best_high"] < 0 else f"not decided (n = {n:,})"


def _ranked(adv, t: pl.DataFrame) -> pl.DataFrame:
    """Options by mean, best first; ties in the advisor's order of options (so reruns agree)."""
    order = {o: i for i, o in enumerate(adv.options)}
    return t.with_columns(pl.col("option").replace_strict(order, return_dtype=pl.Int32).alias("_rank")) \
        .sort(["mean", "_rank"], descending=[True, False], nulls_last=True).drop("_rank")


# ---------------------------------------------------------------- the verdict in words


def _signed(x) -> str:
    return "—" if x is None else f"{x:+.2f}"


def _ci(low, high) -> str:
    return "—" if low is None or high is None else f"[{low:+.2f}, {high:+.2f}]"


def level_verdict(req: Request, level: str, g: pl.DataFrame) -> tuple[str, str | None]:
    """The level's verdict in one line, and the option it decides is best (None if it does not)."""
    adv = req.advisor
    if g.height == 0:
        return f"{level}: no deal answered this decision (docs/advise.md).", None
    n = int(g["n"].max())
    deals = f"{n:,} deals" if n == req.deals[level] else f"{n:,} of {req.deals[level]:,} deals answer"
    if not comparable(adv, level):
        return f"{level} ({deals}): " + "; ".join(adv.describe(r) for r in g.iter_rows(named=True)) + ".", None
    rows = _ranked(adv, g).rows(named=True)
    b, others = rows[0], rows[1:]
    missing = [o for o in req.options if o not in {r["option"] for r in rows} and o not in adv.unavailable.get(level, ())]
    tail = f"; no deal answered for {', '.join(missing)}." if missing else "."
    if b["n"] < MIN_DEALS:
        return f"{level}: not enough deals (n = {b['n']:,}) for a verdict" + tail, None
    at = f"{b['mean']:+.2f} {_ci(b['low'], b['high'])} {adv.unit.split(' (')[0]}"
    open_ = [r for r in others if r["verdict"] != "worse"]
    if not others:
        return f"{level} ({deals}): {_label(adv, b)} at {at} (the only option shown)" + tail, None
    if b["verdict"] == "best":
        text = f"{level} ({deals}): {_label(adv, b)} is best, at {at}"
        if others:
            r = others[0]
            text += (f"; the next, {_label(adv, r)}, {_signed(r['vs_best'])} {_ci(r['vs_best_low'], r['vs_best_high'])}"
                     f" against it, paired by deal")
        return text + tail, b["option"]
    n_open = min(r["paired_n"] or 0 for r in open_)
    close = ", ".join(f"{_label(adv, r)} {_signed(r['vs_best'])} {_ci(r['vs_best_low'], r['vs_best_high'])}"
                      + ("" if r["verdict"].startswith("not decided") else f" ({r['verdict']})") for r in open_)
    return (f"{level} ({deals}): not decided at this sample (n = {n_open:,}): {_label(adv, b)} has the highest "
            f"mean, {at}, but {close} against it, paired by deal, could be as good" + tail), None


def across_levels(req: Request, best: dict, labels: dict) -> list[str]:
    """The verdict's last lines: levels not run, and whether the levels that decide agree
    (``labels``: each level's best option in the advisor's words, e.g. a bid with its number)."""
    lines = []
    skipped = [lv for lv in LEVELS if lv not in req.levels]
    if skipped:
        slow = "open-hand" in skipped and "open-hand" not in req.advisor.default_levels
        lines.append(f"Not run: {', '.join(skipped)} (ask with the levels, or a number of deals of its own"
                     + (f"; an open-hand {games.get(req.game).title} deal takes seconds to minutes of CPU" if slow else "")
                     + "; docs/advise.md).")
    compared = [lv for lv in req.levels if lv in best and comparable(req.advisor, lv)]
    decided = {lv: best[lv] for lv in compared if best[lv] is not None}
    unvalued = {lv: [o for o in req.advisor.unavailable.get(lv, ()) if o in req.options] for lv in compared}
    # two levels disagree only where each values the option the other finds best
    disagree = any(best[a] != best[b] and best[a] not in unvalued[b] and best[b] not in unvalued[a]
                   for a in decided for b in decided)
    blind = [f"{lv} does not value {', '.join(unvalued[lv])}" for lv in decided if unvalued[lv]]
    if len(compared) > 1:
        if disagree:
            tail = " — the levels disagree."
        elif len(decided) == len(compared):
            tail = " — the same at every level" + (f" that values it ({'; '.join(blind)})." if blind else ".")
        elif len(decided) == 1:
            tail = f" — only {next(iter(decided))} decides."
        elif decided:
            tail = f" — the same at every level that decides ({', '.join(decided)})."
        else:
            tail = " — no level decides at this sample."
        lines.append("Best option by level: " + ", ".join(f"{lv} {labels[lv] if best[lv] else 'not decided'}"
                                                          for lv in compared)
                     + tail)
    return lines


def _label(adv, r: dict) -> str:
    """The option's name in the advisor's words."""
    return adv.label(r)


def judge(req: Request, rows: dict, commands: list) -> Advice:
    """The :class:`Advice` of the levels' rows (one per deal and option)."""
    table = option_table(req, rows)
    verdicts, best, labels = {}, {}, {}
    for level in req.levels:
        g = table.filter(pl.col("level") == level)
        verdicts[level], best[level] = level_verdict(req, level, g)
        labels[level] = next((_label(req.advisor, r) for r in g.iter_rows(named=True) if r["option"] == best[level]), None)
    per_deal = pl.concat([r.with_columns(pl.lit(lv).alias("level")).select("level", pl.exclude("level"))
                          for lv, r in rows.items() if r.height], how="diagonal_relaxed") \
        if any(r.height for r in rows.values()) else pl.DataFrame(schema={"level": pl.String})
    adv = req.advisor
    return Advice(game=req.game, decision=adv.decision, unit=adv.unit,
                  hand=tuple(format_card(c) for c in req.hand),
                  upcard=None if req.upcard is None else format_card(req.upcard), seed=req.seed, rules=dict(req.rules),
                  levels=req.levels, deals=dict(req.deals), table=table, verdicts=verdicts, best=best,
                  notes=across_levels(req, best, labels), per_deal=per_deal, commands=list(commands), request=req)


# ---------------------------------------------------------------- the result


@dataclass(repr=False, eq=False)
class Advice:
    """What :func:`advise` found for one hand: per level and option the sample, the mean with its
    95% interval, the paired difference to the level's best option and a verdict.

    Printed, it is a small table and the verdict; a notebook shows it as an HTML table.
    ``frame`` is that table as a polars DataFrame, ``table`` every statistic (``advise.csv``),
    ``per_deal`` every deal's value per option, ``figure`` the chart (``advise.png``)."""

    game: str
    decision: str
    unit: str                       # what a value is measured in
    hand: tuple[str, ...]
    upcard: str | None
    seed: int
    rules: dict
    levels: tuple[str, ...]
    deals: dict[str, int]           # the deals asked for, per level
    table: pl.DataFrame             # per (level, option): every statistic, the columns of advise.csv
    verdicts: dict[str, str]        # level -> its verdict in one line
    best: dict[str, str | None]     # level -> the option the level decides is best; None: not decided
    notes: list[str]                # levels not run; whether the levels agree
    per_deal: pl.DataFrame          # level, deal, option, value, win, ...: one row per deal and option
    commands: list[str]             # the simcore solve / simulate command of every batch
    request: Request
    files: list[Path] = field(default_factory=list)

    @property
    def verdict(self) -> str:
        """The verdict: one line per level, then the levels not run and whether the levels agree."""
        return "\n".join([*self.verdicts.values(), *self.notes])

    @property
    def frame(self) -> pl.DataFrame:
        """Per (level, option): n, mean, low, high (95% t), vs_best with its interval, paired_n,
        verdict."""
        return self.table.select(FRAME_COLUMNS)

    @cached_property
    def figure(self):
        """The chart of ``advise.png``: per level, a box per option and the distribution of the
        values over the deals (a matplotlib Figure)."""
        return chart(self.request, self.per_deal, self.table)

    def write(self, out) -> list[Path]:
        """Write ``advise.png``, ``advise.csv`` and ``advise.md`` into ``out``; returns their paths."""
        out = Path(out)
        try:
            out.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise SimcoreError(f"cannot write to {out}: {e.strerror or e}") from None
        png, csv, md = out / f"{NAME}.png", out / f"{NAME}.csv", out / f"{NAME}.md"
        self.figure.savefig(png, dpi=100)
        # 10 significant digits: parallel sums differ in the last bits from run to run
        self.table.with_columns(cs.float().round_sig_figs(10)).write_csv(csv)
        md.write_text(summary(self, png.name, csv.name))
        self.files = [png, csv, md]
        return self.files

    def _heading(self) -> list[str]:
        hand = " ".join(self.hand) + (f", upcard {self.upcard}" if self.upcard else "")
        return [f"{self.game}: {self.decision}", f"hand {hand}; seed {self.seed}; values: {self.unit}"]

    def display_rows(self) -> list[list[str]]:
        """The printed table's cells (``HEADINGS``): a row per level and option, the level named
        on its first row."""
        adv, rows, last = self.request.advisor, [], None
        for r in self.table.iter_rows(named=True):
            top = r["best"] is True
            rows.append([r["level"] if r["level"] != last else "", _label(adv, r), f"{r['n']:,}",
                         _signed(r["mean"]), _ci(r["low"], r["high"]),
                         "" if top or r["best"] is None else _signed(r["vs_best"]),
                         "" if top or r["best"] is None else _ci(r["vs_best_low"], r["vs_best_high"]),
                         r["verdict"] or "see below"])
            last = r["level"]
        return rows

    def __repr__(self) -> str:
        cells = [HEADINGS, *self.display_rows()]
        width = [max(len(row[i]) for row in cells) for i in range(len(HEADINGS))]
        right = {2, 3, 5}  # numbers align right
        lines = ["  ".join(c.rjust(w) if i in right else c.ljust(w) for i, (c, w) in enumerate(zip(row, width))).rstrip()
                 for row in cells]
        return "\n".join([*self._heading(), "", *lines, "", self.verdict])

    def _repr_html_(self) -> str:
        e = html.escape
        head = "".join(f"<th>{e(h)}</th>" for h in HEADINGS)
        body = []
        for row, r in zip(self.display_rows(), self.table.iter_rows(named=True)):
            style = ' style="font-weight: bold"' if r["verdict"] == "best" else ""
            body.append(f"<tr{style}>" + "".join(
                f'<td style="text-align: {"right" if i in (2, 3, 5) else "left"}">{e(c)}</td>'
                for i, c in enumerate(row)) + "</tr>")
        title, sample = self._heading()
        items = "".join(f"<li>{e(line)}</li>" for line in self.verdict.splitlines())
        return (f'<div class="simcore-advice"><p><b>{e(title)}</b><br>{e(sample)}</p>'
                f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"
                f"<ul>{items}</ul></div>")


def summary(advice: Advice, png: str, csv: str) -> str:
    """``advise.md``: the verdict, the table, the hand, the sample, the method and every command."""
    req, adv = advice.request, advice.request.advisor
    rows = advice.display_rows()
    table = ["| " + " | ".join(HEADINGS) + " |", "|" + " --- |" * len(HEADINGS)]
    table += ["| " + " | ".join(c.replace("|", "\\|") for c in row) + " |" for row in rows]
    sizes = ", ".join(f"{lv} {n:,} deals" for lv, n in req.deals.items())
    return (f"### {req.game}: {adv.decision}\n\n![advise]({png})\n\n" + advice.verdict.replace("\n", "\n\n") + "\n\n"
            + "\n".join(table) + "\n\n"
            f"- Hand: {' '.join(advice.hand)}" + (f"; upcard {advice.upcard}" if advice.upcard else "") + "\n"
            f"- Values: {adv.unit}\n"
            f"- Sample: {sizes} (seed {req.seed}); every statistic per level and option in `{csv}`\n"
            f"- Levels: open-hand = `simcore solve` (every card seen, perfect play by every seat); pimc = seats "
            f"{', '.join(map(str, adv.searching))} play `{req.pimc}`, the others heuristic; heuristic = every seat heuristic\n"
            f"- Method: docs/advise.md; means with 95% t intervals, differences paired by deal, rates with Wilson "
            f"intervals; a verdict needs {MIN_DEALS} deals and a paired interval that excludes 0\n"
            f"- Runs:\n" + "".join(f"  - `{c}`\n" for c in advice.commands))


# ---------------------------------------------------------------- the chart


def chart(req: Request, per_deal: pl.DataFrame, table: pl.DataFrame):
    """Per level: a box per option (quartiles, whiskers 5%-95%) with the mean and its 95%
    interval, and the distribution of the values of the best options (share of deals).  A
    Figure of its own (not pyplot's), so a notebook shows it only when asked."""
    from matplotlib.figure import Figure

    adv = req.advisor
    levels = [lv for lv in req.levels if table.filter(pl.col("level") == lv).height]
    fig = Figure(figsize=(15, 4.2 * max(1, len(levels))), layout="constrained")
    axes = fig.subplots(max(1, len(levels)), 2, squeeze=False, gridspec_kw={"width_ratios": [3, 2]})
    for (box, dist), level in zip(axes, levels):
        g = table.filter(pl.col("level") == level)
        rows = per_deal.filter(pl.col("level") == level)
        _boxes(box, adv, level, req.options, rows, g)
        top = set(_ranked(adv, g)["option"].to_list()[:4])
        _distribution(dist, rows, [o for o in adv.options if o in top], adv.options)
        dist.set_title(f"{level}: distribution over deals" + (" (the 4 best options by mean)" if g.height > 4 else ""),
                       fontsize=9)
        dist.set_xlabel(_wrap(adv.level_unit(level), 60), fontsize=8)
        dist.set_ylabel("share of deals (%)")
    hand = " ".join(format_card(c) for c in req.hand) + (f"; upcard {format_card(req.upcard)}" if req.upcard is not None else "")
    rules = ", ".join(f"{k}={v}" for k, v in req.rules.items()) or "the defaults"
    fig.suptitle(f"{req.game}: {adv.decision}\nhand {hand}; seed {req.seed}; rules: {rules}", fontsize=10)
    return fig


def _boxes(box, adv, level: str, options: tuple, rows: pl.DataFrame, g: pl.DataFrame) -> None:
    shown = [o for o in options if o in set(g["option"].to_list())]
    values = [rows.filter(pl.col("option") == o)["value"].to_numpy() for o in shown]
    box.boxplot(values, whis=(5, 95), showfliers=False, widths=0.55,
                medianprops={"color": "black"}, boxprops={"color": "#4C72B0"})
    stats = {r["option"]: r for r in g.iter_rows(named=True)}
    x = np.arange(1, len(shown) + 1)
    mean = np.array([stats[o]["mean"] for o in shown], float)
    low = np.array([np.nan if stats[o]["low"] is None else stats[o]["low"] for o in shown], float)
    high = np.array([np.nan if stats[o]["high"] is None else stats[o]["high"] for o in shown], float)
    box.errorbar(x, mean, yerr=[np.nan_to_num(mean - low), np.nan_to_num(high - mean)], fmt="D", color="#C44E52",
                 capsize=4, label="mean, 95% t interval")
    names = [_label(adv, stats[o]).replace("-", "\n" if len(shown) > 5 else "-") for o in shown]
    box.set_xticks(x, [f"{name}\nn={stats[o]['n']:,}" + _short_verdict(stats[o]["verdict"])
                       for name, o in zip(names, shown)], fontsize=8)
    box.axhline(0, color="grey", lw=0.7)
    box.set_ylabel(_wrap(adv.level_unit(level), 45), fontsize=8)
    box.set_title(f"{level}: value per option (box: quartiles, whiskers 5–95%)", fontsize=9)
    box.legend(fontsize=7)


def _short_verdict(verdict: str | None) -> str:
    """The verdict under an option's box, short enough for ten options side by side."""
    if not verdict:
        return ""
    short = {"highest mean, not decided": "not decided", "same as the best on every deal": "same as best"}
    return "\n" + short.get(verdict, verdict.split(" (")[0].replace("not enough deals", "too few deals"))


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
            share = np.array([(v == x).mean() for x in distinct]) if v.size else np.zeros(distinct.size)
            ax.bar(distinct + (i - (len(options) - 1) / 2) * width, 100 * share, width, label=o, color=_colour(o, every))
        else:
            counts, _ = np.histogram(v, bins=edges)
            ax.stairs(100 * counts / max(1, v.size), edges, label=o, color=_colour(o, every))
    ax.legend(fontsize=7)


def _colour(option: str, every: tuple):
    """One colour per option on every panel of the chart."""
    import matplotlib

    return matplotlib.colormaps["tab10"](every.index(option) % 10)


def _wrap(text: str, width: int) -> str:
    import textwrap

    return "\n".join(textwrap.wrap(text, width))
