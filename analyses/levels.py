"""Claims (an analysis's answers, each an estimate with its 95% interval and a verdict) and
levels of play: one analysis over several runs made at different levels of play (heuristic,
``pimc:8``, ``expert``, open-hand solve tables), compared by the **difference** of their
estimates.

    simcore analyze NAME --data RUN_A --data RUN_B [--label RUN_B=NAME] --out OUT
    simcore.analyze(NAME, data=[RUN_A, RUN_B], labels={RUN_B: "NAME"})

**A claim** answers one question at one level: ``value`` with its 95% interval, ``n`` (deals,
or seat-hands where the unit says so) and a verdict in words: ``below`` / ``above`` when the
interval excludes ``against`` (0 for a change, 50% for "most"), ``equal`` only when the
interval lies within ± ``margin`` (the same, to a stated margin), and otherwise "not enough
deals (n = …)": the sample cannot tell.  A level below ``min_n`` deals gets no verdict at all.

**Levels** are compared claim by claim against the first level (the reference): the
difference other − reference with its interval.  When both levels carry per-deal values and
deal k is the same deal at both (same game, seed, rules and dealing constraints: what-if and
solve runs of one seed deal the same cards), the difference is **paired** on the deals they
share (the mean of per-deal differences, t interval); otherwise it is the difference of two
independent estimates (Welch for means, Newcombe's score interval for rates).  "Differs" when
the interval excludes zero, "the same (within ± margin)" when it lies within the claim's margin,
"not decided" otherwise.

Each ``--data`` is one level: a run folder, or a folder of runs for the analyses that read
several.  A strategy question's open-hand level (a solve run) is analysed by its open-hand
counterpart (``analyses.OPEN_HAND_OF``), whose claims answer the same questions under the
same keys where the quantity is the same.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import polars as pl

from analyses import common
from analyses.common import OPEN_HAND, level_label  # noqa: F401  (level_label: part of this module's API)
from analyses.stats import mean_interval, rate_difference, t_interval, verdict, welch_difference, wilson
from simcore.errors import SimcoreError

MAX_PANELS = 4


@dataclass
class Claim:
    """One question's answer at one level."""

    key: str                       # stable id across levels and analyses ("tf.nt_vs_longest")
    question: str                  # what is estimated, in words
    value: float
    low: float
    high: float
    n: int                         # deals behind the estimate (or the unit named in ``unit``)
    unit: str = ""                 # the estimate's unit ("points per round")
    words: tuple = ("lower", "higher", "about the same")  # verdicts below / above / equal
    margin: float = 0.0            # "the same" within ± margin (value units)
    against: float = 0.0
    scale: float = 1.0             # shown as value × scale (100: a rate in %)
    signed: bool = True            # a change (+/−)
    min_n: int = common.MIN_N
    std: float = float("nan")      # standard deviation of the values (means)
    successes: int = -1            # for a rate: successes of n
    deals: pl.DataFrame | None = None  # per-deal values (deal, value) for pairing levels
    caveat: str = ""               # what bounds the answer (shown in the answers table)
    identity: tuple | None = None  # the deals' identity when not the level's (one run of several)
    group: str = ""                # the question it belongs to (one levels figure per group)
    priority: int = 0              # lower first when a group has more than four claims to draw

    @property
    def question_group(self) -> str:
        return self.group or self.key.split(".")[0]

    @property
    def kind(self) -> str:
        return "rate" if self.successes >= 0 else "mean"

    @property
    def outcome(self) -> str:
        """below / above / equal / open / small (fewer than ``min_n``)."""
        if self.n < self.min_n:
            return "small"
        return verdict(self.low, self.high, self.margin, self.against)

    @property
    def decided(self) -> bool:
        return self.outcome in ("below", "above", "equal")

    @property
    def verdict(self) -> str:
        o = self.outcome
        if o in ("below", "above"):
            return self.words[0 if o == "below" else 1]
        if o == "equal":
            return f"{self.words[2]} (within ±{self.margin_text()})"
        return f"not enough deals (n = {self.n:,})"

    def margin_text(self) -> str:
        if self.scale == 100:
            return f"{100 * self.margin:g} percentage points" if self.signed else f"{100 * self.margin:g}%"
        return f"{self.margin:g}"

    def estimate(self) -> str:
        """"+1.23 [+0.80, +1.66]" or "54.7% [48.9%, 60.4%]"."""
        if not np.isfinite(self.value):
            return "—"
        if self.scale == 100 and not self.signed:
            lo, hi = (f"{100 * x:.1f}%" if np.isfinite(x) else "?" for x in (self.low, self.high))
            return f"{100 * self.value:.1f}% [{lo}, {hi}]"
        digits = 1 if self.scale == 100 else 2
        v = f"{self.scale * self.value:+.{digits}f}" if self.signed else f"{self.scale * self.value:.{digits}f}"
        if not (np.isfinite(self.low) and np.isfinite(self.high)):
            return f"{v} [no interval]"
        lo, hi = ((f"{self.scale * x:+.{digits}f}" if self.signed else f"{self.scale * x:.{digits}f}")
                  for x in (self.low, self.high))
        return f"{v} [{lo}, {hi}]"

    def text(self) -> str:
        """The estimate with its unit and n, for sentences."""
        unit = f" {self.unit}" if self.unit and self.scale != 100 else (" points" if self.signed and self.scale == 100 else "")
        return f"{self.estimate()}{unit}, n = {self.n:,}"


def mean_claim(key: str, question: str, values, unit: str, words, margin: float, deals=None,
               **kw) -> Claim:
    """A claim on the mean of ``values`` (per-deal values: a paired comparison when they are
    differences), with its t interval; ``deals`` (the deal of each value) lets levels pair."""
    v = np.asarray(values, dtype=float)
    m, lo, hi, n = mean_interval(v)
    frame = None
    if deals is not None:
        frame = pl.DataFrame({"deal": np.asarray(deals, dtype=np.int64), "value": v})
    std = float(np.nanstd(v, ddof=1)) if n > 1 else float("nan")
    return Claim(key, question, m, lo, hi, n, unit, tuple(words), margin, std=std, deals=frame, **kw)


def cluster_claim(key: str, question: str, frame: pl.DataFrame, value: str, unit: str, words, margin: float,
                  cluster: str = "deal", **kw) -> Claim:
    """A claim on the mean of ``value`` over rows that share deals (the seats or sides of a
    table): interval clustered by deal, n counted in deals; per-deal means let levels pair."""
    from analyses.stats import cluster_means
    from scipy import stats as sps

    t = cluster_means(frame, [], value, cluster).row(0, named=True)
    g = int(t["deals"])
    half = t[f"{value}_high"] - t[value] if t[f"{value}_high"] is not None else float("nan")
    se = half / sps.t.ppf(0.975, max(g - 1, 1)) if np.isfinite(half) else float("nan")
    deals = frame.group_by(cluster).agg(pl.col(value).cast(pl.Float64).mean().alias("value")).rename({cluster: "deal"})
    low = t[f"{value}_low"] if t[f"{value}_low"] is not None else float("nan")
    high = t[f"{value}_high"] if t[f"{value}_high"] is not None else float("nan")
    return Claim(key, question, float(t[value]), float(low), float(high), g, unit, tuple(words), margin,
                 std=float(se * np.sqrt(g)), deals=deals.select(pl.col("deal").cast(pl.Int64), "value"), **kw)


def summary_claim(key: str, question: str, mean: float, std: float, n: int, unit: str, words,
                  margin: float, **kw) -> Claim:
    """A claim on a mean known from its aggregates (mean, standard deviation, n)."""
    lo, hi = t_interval([mean], [std], [n])
    return Claim(key, question, float(mean), float(lo[0]), float(hi[0]), int(n), unit, tuple(words), margin,
                 std=float(std), **kw)


def rate_claim(key: str, question: str, successes: int, n: int, unit: str, words, margin: float = 0.05,
               against: float = 0.5, deals=None, values=None, **kw) -> Claim:
    """A claim on a rate (Wilson interval) decided by its interval's side of ``against``."""
    lo, hi = wilson([successes], [n]) if n else ([np.nan], [np.nan])
    frame = None
    if deals is not None and values is not None:
        frame = pl.DataFrame({"deal": np.asarray(deals, dtype=np.int64), "value": np.asarray(values, dtype=float)})
    return Claim(key, question, successes / n if n else float("nan"), float(lo[0]), float(hi[0]), int(n), unit,
                 tuple(words), margin, against=against, scale=100, signed=False, successes=int(successes),
                 deals=frame, **kw)


# ---------------------------------------------------------------- levels


def parse_labels(labels) -> dict[str, str]:
    """``{folder: name}`` from a dict or from ``DIR=NAME`` strings (``--label``)."""
    if labels is None:
        return {}
    if isinstance(labels, dict):
        return {str(Path(k)): str(v) for k, v in labels.items()}
    out = {}
    for item in labels:
        folder, sep, name = str(item).rpartition("=")
        if not sep or not folder or not name.strip():
            raise SimcoreError(f"--label {item!r}: use DIR=NAME")
        out[str(Path(folder))] = name.strip()
    return out


def slug(label: str) -> str:
    """A folder name for a level: ``pimc:32`` -> ``pimc-32``."""
    return re.sub(r"[^A-Za-z0-9._-]+", "-", label).strip("-") or "level"


def deal_identity(manifest: dict) -> tuple:
    """What makes deal k the same deal in two runs: game, seed, rules, dealing constraints."""
    import json

    return (manifest.get("game"), manifest.get("seed"), json.dumps(manifest.get("rules"), sort_keys=True),
            json.dumps(manifest.get("predeal"), sort_keys=True), json.dumps(manifest.get("conditions"), sort_keys=True))


@dataclass
class Level:
    label: str
    data: Path
    runs: list  # of common.RunInput
    named: bool = False  # the label came from --label
    module: object = None  # the analysis module that reads this level

    @property
    def identity(self) -> tuple:
        solved = [r for r in self.runs if r.solved]
        return deal_identity((solved or self.runs)[0].manifest)


def make_levels(inputs: list[tuple[Path, list]], labels) -> list[Level]:
    """One level per ``(data, runs)``; labels from ``labels`` or the runs' manifests, made
    unique by the folder name when two levels share one."""
    named = parse_labels(labels)
    known = {str(d) for d, _ in inputs}
    for folder in named:
        if folder not in known:
            raise SimcoreError(f"--label {folder}=...: {folder} is not one of the --data folders")
    levels = []
    for data, runs in inputs:
        # a solve run makes the level open-hand; beside a what-if run, an ordinary run only adds
        # calls or bids (a searched call, the bids of a solved deal): the what-if run names it
        whatif = [r for r in runs if r.manifest.get("what_if")]
        found = [level_label(r.manifest) for r in (whatif or runs)]
        label = named.get(str(data)) or (OPEN_HAND if any(r.solved for r in runs) else "/".join(dict.fromkeys(found)))
        levels.append(Level(label, data, runs, str(data) in named))
    counts = {}
    for lv in levels:
        counts[lv.label] = counts.get(lv.label, 0) + 1
    for lv in levels:
        if counts[lv.label] > 1:
            lv.label = f"{lv.label} ({lv.data.name})"
    if len({lv.label for lv in levels}) < len(levels):
        raise SimcoreError("two --data folders get the same level label: name them with --label DIR=NAME")
    return levels


# ---------------------------------------------------------------- comparing levels


@dataclass
class Difference:
    """other − reference for one claim: value, interval, how it was computed, verdict."""

    key: str
    question: str
    reference: str
    other: str
    value: float
    low: float
    high: float
    n: int
    paired: bool
    margin: float
    scale: float = 1.0
    unit: str = ""

    @property
    def outcome(self) -> str:
        return verdict(self.low, self.high, self.margin)

    @property
    def verdict(self) -> str:
        o = self.outcome
        if o in ("below", "above"):
            return "differs"
        if o == "equal":
            m = f"{100 * self.margin:g} percentage points" if self.scale == 100 else f"{self.margin:g}"
            return f"the same (within ±{m})"
        return "not decided"

    def estimate(self) -> str:
        digits = 1 if self.scale == 100 else 2
        v = f"{self.scale * self.value:+.{digits}f}" if np.isfinite(self.value) else "—"
        if not (np.isfinite(self.low) and np.isfinite(self.high)):
            return f"{v} [no interval]"
        return f"{v} [{self.scale * self.low:+.{digits}f}, {self.scale * self.high:+.{digits}f}]"


def difference(ref: Claim, other: Claim, ref_level: Level, other_level: Level) -> Difference:
    """other − reference, paired on the deals both levels share when they can be paired."""
    base = dict(key=ref.key, question=ref.question, reference=ref_level.label, other=other_level.label,
                margin=ref.margin, scale=ref.scale, unit=ref.unit)
    same = (ref.identity or ref_level.identity) == (other.identity or other_level.identity)
    if ref.deals is not None and other.deals is not None and same:
        joined = other.deals.join(ref.deals, on="deal", suffix="_ref")
        if joined.height:
            d = joined["value"].to_numpy() - joined["value_ref"].to_numpy()
            m, lo, hi, n = mean_interval(d)
            return Difference(value=m, low=lo, high=hi, n=n, paired=True, **base)
    if ref.kind == "rate" and other.kind == "rate":
        d, lo, hi = rate_difference(other.successes, other.n, ref.successes, ref.n)
    else:
        d, lo, hi = welch_difference(other.value, other.std, other.n, ref.value, ref.std, ref.n)
    return Difference(value=d, low=lo, high=hi, n=min(ref.n, other.n), paired=False, **base)


def differences(per_level: list[tuple[Level, list[Claim]]]) -> list[Difference]:
    """Every claim of a level against the same claim of the reference (first) level."""
    if len(per_level) < 2:
        return []
    ref_level, ref_claims = per_level[0]
    by_key = {c.key: c for c in ref_claims}
    out = []
    for level, claims in per_level[1:]:
        for c in claims:
            if c.key in by_key and c.n >= c.min_n and by_key[c.key].n >= c.min_n:
                out.append(difference(by_key[c.key], c, ref_level, level))
    return out


def claims_table(per_level) -> pl.DataFrame:
    rows = [{"key": c.key, "question": c.question, "level": lv.label, "value": c.value, "low": c.low,
             "high": c.high, "n": c.n, "unit": c.unit, "verdict": c.verdict, "decided": c.decided}
            for lv, claims in per_level for c in claims]
    return pl.DataFrame(rows, schema={"key": pl.String, "question": pl.String, "level": pl.String,
                                      "value": pl.Float64, "low": pl.Float64, "high": pl.Float64, "n": pl.Int64,
                                      "unit": pl.String, "verdict": pl.String, "decided": pl.Boolean})


def differences_table(diffs: list[Difference]) -> pl.DataFrame:
    rows = [{"key": d.key, "question": d.question, "level": d.other, "reference": d.reference,
             "difference": d.value, "low": d.low, "high": d.high, "n": d.n, "paired": d.paired,
             "margin": d.margin, "verdict": d.verdict} for d in diffs]
    return pl.DataFrame(rows, schema={"key": pl.String, "question": pl.String, "level": pl.String,
                                      "reference": pl.String, "difference": pl.Float64, "low": pl.Float64,
                                      "high": pl.Float64, "n": pl.Int64, "paired": pl.Boolean,
                                      "margin": pl.Float64, "verdict": pl.String})


def claim_markdown(per_level, diffs: list[Difference], compared_only: bool = False) -> list[str]:
    """A Markdown table: one row per question × level (estimate, n, verdict) and, for the
    levels after the first, the difference from the first; ``compared_only``: only the
    questions answered at two levels or more.  ``per_level``: (level or label, claims) pairs."""
    per_level = [(lv if hasattr(lv, "label") else Level(str(lv), None, []), claims) for lv, claims in per_level]
    by = {(d.key, d.other): d for d in diffs}
    lines = ["| question | level | estimate [95% CI] | n | answer | difference from "
             f"{per_level[0][0].label} [95% CI] |", "| --- | --- | --- | --- | --- | --- |"]
    keys = list(dict.fromkeys(c.key for _, claims in per_level for c in claims))
    if compared_only:
        keys = [k for k in keys if sum(1 for _, claims in per_level for c in claims if c.key == k) >= 2]
    for key in keys:
        for lv, claims in per_level:
            for c in claims:
                if c.key != key:
                    continue
                d = by.get((key, lv.label))
                diff = (f"{d.estimate()} ({'paired, ' if d.paired else ''}n = {d.n:,}): {d.verdict}" if d else "")
                unit = f" ({c.unit})" if c.unit and c.scale != 100 else ""
                lines.append(f"| {c.question}{unit} | {lv.label} | {c.estimate()} | {c.n:,} | {c.verdict} | {diff} |")
    return lines


def levels_figure(per_level, title: str, note: str) -> dict:
    """One figure per question group (``Claim.group``) answered at two levels or more: one panel
    per claim (at most ``MAX_PANELS``: by ``priority``, then the most deals at its smallest
    level; every claim is in the tables), each level's estimate with its 95% interval.
    Returns {group: Figure}."""
    labels = [lv.label for lv, _ in per_level]
    keys = list(dict.fromkeys(c.key for _, claims in per_level for c in claims))
    first = {}
    for _, claims in per_level:
        for c in claims:
            first.setdefault(c.key, c)
    drawable = {}
    for key in keys:
        at = [c.n for _, claims in per_level for c in claims if c.key == key and c.n >= c.min_n and np.isfinite(c.value)]
        if len(at) >= 2:
            drawable[key] = min(at)
    figures = {}
    for group in dict.fromkeys(first[k].question_group for k in keys):
        members = [k for k in keys if first[k].question_group == group and k in drawable]
        chosen = sorted(members, key=lambda k: (first[k].priority, -drawable[k]))[:MAX_PANELS]
        panels = [_level_panel(per_level, labels, k) for k in members if k in chosen]
        if not panels:
            continue
        head = first[members[0]].question.split(":")[0]
        more = " Some claims of this question are in the tables only." if len(members) > MAX_PANELS else ""
        fig = common.figure(panels, f"{title}: {head}" if head != title else title, note + more)
        if fig is not None:
            figures[group] = fig
    return figures


def _level_panel(per_level, labels, key) -> common.Panel:
    rows = [(i, c) for i, (_, claims) in enumerate(per_level) for c in claims
            if c.key == key and c.n >= c.min_n and np.isfinite(c.value)]
    question = rows[0][1].question

    def draw(ax):
        c0 = rows[0][1]
        xs = [i for i, _ in rows]
        v = np.array([c.scale * c.value for _, c in rows])
        lo = np.array([c.scale * c.low for _, c in rows])
        hi = np.array([c.scale * c.high for _, c in rows])
        ax.errorbar(xs, v, yerr=[np.clip(np.nan_to_num(v - lo), 0, None), np.clip(np.nan_to_num(hi - v), 0, None)],
                    fmt="o", capsize=4, color="#4C72B0")
        for x, (_, c) in zip(xs, rows):
            ax.annotate(f"n={c.n:,}", (x, 0), xycoords=("data", "axes fraction"), xytext=(0, 3),
                        textcoords="offset points", ha="center", fontsize=7, color="#555555")
        ref = 100 * c0.against if c0.scale == 100 and not c0.signed else 0
        if c0.signed or ref:
            ax.axhline(ref, color="grey", lw=0.8)
        drawn = {i for i, _ in rows}
        ticks = []
        for i, (_, claims) in enumerate(per_level):
            at = [c for c in claims if c.key == key]
            ticks.append(labels[i] if i in drawn else
                         f"{labels[i]}\n(n = {at[0].n:,}: too few)" if at else f"{labels[i]}\n(not asked)")
        ax.set_xticks(range(len(labels)), ticks, fontsize=8)
        ax.set_xlim(-0.5, len(labels) - 0.5)
        ax.set_ylabel(("percentage points" if c0.signed else "%") if c0.scale == 100 else c0.unit, fontsize=8)

    return common.Panel(question.split(": ", 1)[-1] if ": " in question else question, len(rows), draw)


def compare_sentence(key: str, per_level, diffs: list[Difference]) -> str:
    """One sentence per question: its answer at each level and whether the levels differ."""
    at = [(lv, c) for lv, claims in per_level for c in claims if c.key == key]
    question = at[0][1].question
    parts = [f"{lv.label}: {c.verdict}" + (f" ({c.estimate()})" if c.n >= c.min_n else "") for lv, c in at]
    diff_words = [f"{d.other} − {d.reference} {d.estimate()}{' paired' if d.paired else ''}: {d.verdict}"
                  for d in diffs if d.key == key]
    text = f"{question}: " + "; ".join(parts)
    if diff_words:
        text += " (" + "; ".join(diff_words) + ")"
    return text + "."


def run_levels(analysis: str, module, levels: list[Level], analyse_one) -> common.Analysis:
    """Analyse each level (``analyse_one(level)`` → its Analysis), then compare their claims:
    the levels Analysis holds the comparison figure(s), the claims and differences tables and
    every level's own Analysis (``.levels``, written into ``OUT/<level>/``)."""
    per_level, subs = [], {}
    for lv in levels:
        sub = analyse_one(lv)
        subs[slug(lv.label)] = sub
        per_level.append((lv, sub.claims))
    diffs = differences(per_level)
    name = module.NAME
    keys = list(dict.fromkeys(c.key for _, claims in per_level for c in claims))
    first = per_level[0][0].runs[0].manifest
    note = (f"Levels of play: {', '.join(lv.label for lv in levels)} (n = deals under each point); rules "
            f"{subs[slug(levels[0].label)].rules or common.rules_text(first)}. 95% intervals; a level with fewer than {common.MIN_N} deals for a question is "
            "not drawn.")
    title = f"{subs[slug(levels[0].label)].title}, at each level of play"
    figs = levels_figure(per_level, title, note)
    figures = {f"{name}_levels" + ("" if i == 0 else f"_{slug(group).replace('.', '_')}"): fig
               for i, (group, fig) in enumerate(figs.items())}
    compared = [k for k in keys if sum(1 for _, claims in per_level for c in claims if c.key == k) >= 2]
    sentences = [compare_sentence(k, per_level, diffs) for k in compared]
    if len(compared) < len(keys):
        sentences.append(f"{len(keys) - len(compared)} more questions are answered at one level only: see each "
                         "level's summary and the claims table.")
    result = common.Analysis(
        name=analysis, stem=name, title=f"{subs[slug(levels[0].label)].title} — {len(levels)} levels of play",
        answer=" ".join(sentences) if sentences else "No question is answered at these levels.",
        tables={f"{name}_levels": claims_table(per_level), f"{name}_level_differences": differences_table(diffs)},
        figures=figures, claims=[c for _, claims in per_level for c in claims],
        details=[f"Level **{lv.label}**: {sub.sample}; {sub.level}; rules {sub.rules}; its own figures, tables and "
                 f"summary in `{slug(lv.label)}/`." for lv, sub in zip(levels, subs.values())],
        method=("each level analysed as a single run; levels compared by the difference of their estimates "
                "with its 95% interval, paired on the deals they share where deal k is the same deal at both "
                "(same seed, rules and dealing), else Welch (means) or Newcombe (rates); 'differs' when the "
                "interval excludes zero, 'the same' only within the question's stated margin"),
        command=command_of(analysis, levels), levels=subs)
    result.per_level = per_level
    result.differences = diffs
    return result


def command_of(analysis: str, levels: list[Level], out="OUT") -> str:
    import shlex

    data = " ".join(f"--data {lv.data}" for lv in levels)
    data += "".join(f" --label {shlex.quote(f'{lv.data}={lv.label}')}" for lv in levels if lv.named)
    return f"simcore analyze {analysis} {data} --out {out}"


