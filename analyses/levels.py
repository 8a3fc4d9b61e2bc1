"""Levels of play: one analysis over several runs made at different levels of play (random,
heuristic, ``pimc:32``, ``expert``, open-hand solve tables), shown side by side.

    simcore analyze NAME --data RUN_A --data RUN_B [--label RUN_B=NAME] --out OUT
    analyses.run_analysis(NAME, [RUN_A, RUN_B], OUT, labels={RUN_B: "NAME"})

Each ``--data`` is one level: a run folder, or a folder of runs for the analyses that read
several (``gin-knock``, ``dummy-advantage``).  Its label comes from the manifest (the seats'
play policies, ``open-hand`` for a ``simcore solve`` run or a folder holding one) unless
``--label`` names it.  A strategy question's open-hand level (trump-call, friend-call,
spades-bids, euchre-makers given a solve run) is analysed by its open-hand analysis
(``analyses.OPEN_HAND_OF``), whose answers to the same questions carry the same words.  Every
level is analysed exactly as a single run is, into ``OUT/<label>/`` (the same panels, tables
and intervals); then ``OUT`` gets the comparison: ``NAME_levels.png`` (each question's answer
per level with its 95% interval, and every level's own chart beside the others),
``NAME_levels.csv`` (one row per question × level) and ``NAME.md``, whose finding says in
words, question by question, whether the answer holds at every level or changes.

An analysis takes part by having ``level_claims(out_dir) -> list[Claim]``: the answers to its
questions, read back from the tables it wrote for one level; an open-hand counterpart's takes
``asked_by`` (the analysis whose open-hand level it is), so that one solve run answers each
question it serves with that question's own claims.  This module holds everything
else once: labels, the per-level runs, the comparison chart, table and words.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import polars as pl

from analyses import common
from simcore.errors import SimcoreError

OPEN_HAND = "open-hand"


@dataclass
class Claim:
    """One question's answer at one level: an estimate with its 95% interval and the answer
    in words (``verdict``), which is what the levels are compared on."""

    question: str
    verdict: str
    value: float
    low: float
    high: float
    unit: str = ""          # the estimate's unit, for the chart's axis
    n: int = 0              # sample behind the estimate
    scale: float = 1.0      # drawn as value × scale (100 for rates shown in %)
    signed: bool = False    # a change (+/−); with scale 100, in percentage points
    decided: bool = True    # False when the interval straddles the decision ("no significant …")

    def text(self) -> str:
        """The estimate in words: "82.3%, 95% CI 71.0%–89.8%, n = 96"."""
        if not np.isfinite(self.value):
            return f"n = {self.n:,}"
        if self.scale == 100 and not self.signed:
            v, lo, hi = (f"{100 * x:.1f}%" for x in (self.value, self.low, self.high))
            ci = f"95% CI {lo}–{hi}"
        elif self.scale == 100:
            v, lo, hi = (f"{100 * x:+.1f}" for x in (self.value, self.low, self.high))
            v, ci = f"{v} points", f"95% CI {lo} to {hi}"
        else:
            v, lo, hi = (f"{x:+.2f}" if self.signed else f"{x:g}" for x in (self.value, self.low, self.high))
            ci = f"95% CI {lo} to {hi}"
        if not (np.isfinite(self.low) and np.isfinite(self.high)):
            return f"n = {self.n:,}"  # a threshold: the verdict says the value
        return f"{v}, {ci}, n = {self.n:,}"


def sign_verdict(low: float, high: float, below: str, above: str, neither: str) -> str:
    """The answer a 95% interval gives: ``below`` when it lies under zero, ``above`` over it,
    else ``neither``."""
    if np.isfinite(high) and high < 0:
        return below
    if np.isfinite(low) and low > 0:
        return above
    return neither


def threshold_claim(question: str, table: pl.DataFrame, x: str, low: str, unit: str,
                    min_n: int = 30) -> Claim:
    """The smallest ``x`` from which every group (n ≥ ``min_n``) has its 95% interval ``low``
    above zero: "from 3 trumps"; the value is that ``x`` (NaN when there is none)."""
    g = table.filter(pl.col("n") >= min_n).sort(x)
    n = int(g["n"].sum()) if g.height else 0
    above = g[low].fill_null(float("nan")).to_numpy() > 0
    xs = g[x].to_list()
    start = None
    for i in range(len(xs) - 1, -1, -1):
        if not above[i]:
            break
        start = xs[i]
    if start is None:  # not shown at this sample size: undecided, not an answer of its own
        return Claim(question, f"at no number of {unit} (groups n ≥ {min_n})", float("nan"),
                     float("nan"), float("nan"), unit, n, decided=False)
    return Claim(question, f"from {common.plural(start, unit.rstrip('s'))} up", float(start), float("nan"), float("nan"), unit, n)


def difference(a: float, a_std: float, a_n: int, b: float, b_std: float, b_n: int) -> tuple[float, float, float]:
    """a − b of two independent means (or rates, with std = sqrt(p(1 − p))) and its 95% normal
    interval (Welch's standard error; the groups here have hundreds of members or more)."""
    se = float(np.sqrt(a_std ** 2 / a_n + b_std ** 2 / b_n)) if a_n and b_n else float("nan")
    d = a - b
    return d, d - 1.959964 * se, d + 1.959964 * se


def pooled(n, mean, std) -> tuple[float, float, int]:
    """(mean, standard deviation, n) of the union of groups given their sizes, means and
    standard deviations (within-group plus between-group sums of squares)."""
    n, mean, std = (np.asarray(a, dtype=float) for a in (n, mean, std))
    keep = n > 0
    n, mean, std = n[keep], mean[keep], np.nan_to_num(std[keep])
    total = n.sum()
    if total < 2:
        return float("nan"), float("nan"), int(total)
    m = float((n * mean).sum() / total)
    ss = ((n - 1) * std ** 2).sum() + (n * (mean - m) ** 2).sum()
    return m, float(np.sqrt(ss / (total - 1))), int(total)


def interval_claim(question: str, value: float, low: float, high: float, below: str, above: str,
                   neither: str, unit: str, n: int, scale: float = 1.0, signed: bool = True,
                   against: float = 0.0) -> Claim:
    """A claim decided by its 95% interval's side of ``against``: ``below``, ``above``, or
    ``neither`` (undecided)."""
    verdict = sign_verdict(low - against, high - against, below, above, neither)
    return Claim(question, verdict, value, low, high, unit, n, scale, signed, decided=verdict != neither)


def mean_claim(question: str, mean: float, std: float, n: int, below: str, above: str, neither: str,
               unit: str, scale: float = 1.0) -> Claim:
    """A claim on a mean (t interval) decided by the sign of its interval."""
    from analyses.stats import t_interval

    lo, hi = t_interval([mean], [std], [n])
    return interval_claim(question, mean, float(lo[0]), float(hi[0]), below, above, neither, unit, n, scale)


def rate_claim(question: str, successes: int, n: int, below: str, above: str, neither: str, unit: str,
               against: float = 0.5) -> Claim:
    """A claim on a rate (Wilson interval) decided by its interval's side of ``against``."""
    from analyses.stats import wilson

    lo, hi = wilson([successes], [n])
    return interval_claim(question, successes / n if n else float("nan"), float(lo[0]), float(hi[0]), below,
                          above, neither, unit, n, 100, signed=False, against=against)


def level_label(manifest: dict) -> str:
    """A run's level of play from its manifest: ``open-hand`` for a solve run, else the seats'
    play policies (one name when every seat plays the same, else ``a/b``)."""
    if manifest.get("command") == "solve":
        return OPEN_HAND
    seats = [str(s) for s in manifest.get("policies", {}).get("seats", [])]
    names = list(dict.fromkeys(seats))
    return "/".join(names) if names else "unknown"


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


@dataclass
class Level:
    label: str
    data: Path
    runs: list  # of common.RunInput
    named: bool = False  # the label came from --label
    module: object = None  # the analysis module that reads this level (None: the compared one)


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
        # a solve run makes the level open-hand (a simulate run beside it only gives the bids)
        found = [level_label(r.manifest) for r in runs]
        label = named.get(str(data)) or (OPEN_HAND if OPEN_HAND in found else "/".join(dict.fromkeys(found)))
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


# ---------------------------------------------------------------- the comparison


def join_words(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def compare_sentence(question: str, claims: list[tuple[str, Claim]]) -> str:
    """Whether the answer to ``question`` holds at every level, is undecided at some (its
    interval spans the decision: often a smaller sample), or changes, in words."""
    if len(claims) == 1:
        label, c = claims[0]
        return f"{question}: {c.verdict} under {label} play ({c.text()}; only this level answers it)."
    decided = [(label, c) for label, c in claims if c.decided]
    open_ = [(label, c) for label, c in claims if not c.decided]
    verdicts = list(dict.fromkeys(c.verdict for _, c in decided))
    detail = "; ".join(f"{label}: {c.text()}" for label, c in claims)
    if len(verdicts) > 1:
        return (f"{question}: the answer changes with the level: "
                + "; ".join(f"under {label}, {c.verdict} ({c.text()})" for label, c in claims) + ".")
    if not open_:
        return (f"{question}: {verdicts[0]} under {join_words([label for label, _ in claims])} play, "
                f"the same at every level ({detail}).")
    if not decided:
        return (f"{question}: {open_[0][1].verdict} under {join_words([label for label, _ in claims])} play, "
                f"at no level decided ({detail}).")
    return (f"{question}: {verdicts[0]} under {join_words([label for label, _ in decided])} play; "
            f"not decided under {join_words([label for label, _ in open_])} (its 95% interval spans the "
            f"decision) ({detail}).")


def changed(per_level, question: str) -> bool:
    """Whether two levels give different decided answers to ``question``."""
    return len({c.verdict for _, claims in per_level for c in claims if c.question == question and c.decided}) > 1


def claims_table(per_level: list[tuple[Level, list[Claim]]]) -> pl.DataFrame:
    rows = [{"question": c.question, "level": lv.label, "data": str(lv.data), "verdict": c.verdict,
             "decided": c.decided,
             "value": c.value, "low": c.low, "high": c.high, "unit": c.unit, "n": c.n}
            for lv, claims in per_level for c in claims]
    return pl.DataFrame(rows, schema={"question": pl.String, "level": pl.String, "data": pl.String,
                                      "verdict": pl.String, "decided": pl.Boolean, "value": pl.Float64, "low": pl.Float64,
                                      "high": pl.Float64, "unit": pl.String, "n": pl.Int64})


def questions(per_level) -> list[str]:
    return list(dict.fromkeys(c.question for _, claims in per_level for c in claims))


def levels_chart(per_level, charts: list[Path], out: Path, name: str, title: str):
    """Top row: each question's estimate per level (95% intervals); below it every level's own
    chart, one above the other at full width, so the same panel of each level sits in one
    column."""
    import matplotlib.pyplot as plt

    qs = questions(per_level)
    labels = [lv.label for lv, _ in per_level]
    images = [plt.imread(c) for c in charts]
    width = 18.0
    heights = [3.8] + [width * im.shape[0] / im.shape[1] + 0.3 for im in images]
    fig = plt.figure(figsize=(width, sum(heights)), constrained_layout=True)
    parts = fig.subfigures(len(heights), 1, height_ratios=heights)
    axes = np.atleast_1d(parts[0].subplots(1, max(len(qs), 1)))
    for ax, q in zip(axes, qs):
        xs, vals, lows, highs, unit, scale = [], [], [], [], "", 1.0
        for i, (_, claims) in enumerate(per_level):
            for c in claims:
                if c.question == q:
                    xs.append(i)
                    vals.append(c.value * c.scale)
                    lows.append(c.low * c.scale)
                    highs.append(c.high * c.scale)
                    unit, scale = c.unit, c.scale
        v, lo, hi = (np.array(a, dtype=float) for a in (vals, lows, highs))
        ax.errorbar(xs, v, yerr=[np.clip(np.nan_to_num(v - lo), 0, None), np.clip(np.nan_to_num(hi - v), 0, None)],
                    fmt="o", capsize=4, color="#4C72B0")
        if scale != 100:
            ax.axhline(0, color="grey", lw=0.8)
        ax.set_xticks(range(len(labels)), labels, fontsize=8)
        ax.set_xlim(-0.5, len(labels) - 0.5)
        ax.set_ylabel(unit, fontsize=8)
        ax.set_title("\n".join(_wrap(q, 55)), fontsize=8)
    parts[0].suptitle(title + " — each question's answer per level (95% intervals where the answer is an "
                      "estimate)", fontsize=10)
    for part, (lv, _), chart, image in zip(parts[1:], per_level, charts, images):
        ax = part.subplots()
        ax.imshow(image)
        ax.axis("off")
        part.suptitle(f"level: {lv.label}  ({chart.parent.name}/{chart.name})", fontsize=10)
    return common.save_chart(fig, out, name)


def _wrap(text: str, width: int) -> list[str]:
    import textwrap

    return textwrap.wrap(text, width)


def run_levels(analysis: str, module, levels: list[Level], out: Path, run_one) -> list[Path]:
    """Analyse each level into ``out/<label>/`` with ``run_one(level, folder)`` (the single-run
    path), then write the comparison (chart, table, summary) into ``out``."""
    if not hasattr(module, "level_claims"):
        raise SimcoreError(f"analysis {analysis!r} compares no levels of play: give it one --data")
    per_level, charts, written = [], [], []
    for lv in levels:
        files = run_one(lv, out / slug(lv.label))
        written += files
        charts.append(next(p for p in files if p.suffix == ".png"))
        # an open-hand level answers the asking analysis's questions (``asked_by``)
        own = lv.module is None or lv.module is module
        claims = (module.level_claims(out / slug(lv.label)) if own
                  else lv.module.level_claims(out / slug(lv.label), asked_by=analysis))
        per_level.append((lv, claims))
    name = module.NAME
    title = f"{analysis} at {len(levels)} levels of play: {', '.join(lv.label for lv in levels)}"
    chart = levels_chart(per_level, charts, out, f"{name}_levels", title)
    table = common.write_table(claims_table(per_level), out, f"{name}_levels")
    summary = levels_summary(analysis, name, levels, per_level, chart, table, out,
                             [f for f in written if f.suffix == ".md"])
    return [summary, chart, table] + written


def _finding(md: Path) -> str:
    """The finding paragraph of a level's own summary (after the chart line)."""
    blocks = md.read_text().split("\n\n")
    return blocks[2].strip() if len(blocks) > 2 else ""


def _sample(md: Path) -> str:
    for line in md.read_text().splitlines():
        if line.startswith("- Sample: "):
            return line[len("- Sample: "):]
    return ""


def levels_summary(analysis, name, levels, per_level, chart, table, out, summaries) -> Path:
    """``{name}.md``: the comparison chart first (results/README.md rewrites that link), the
    words per question, then each level's sample, policies and finding."""
    sentences = [compare_sentence(q, [(lv.label, c) for lv, claims in per_level for c in claims
                                      if c.question == q]) for q in questions(per_level)]
    changes = [q for q in questions(per_level) if changed(per_level, q)]
    closing = ("The answer changes with the level for: " + "; ".join(changes) + "." if changes
               else "No answer changes with the level of play.")
    lines = [f"### {analysis}: {len(levels)} levels of play side by side", "",
             f"![{analysis} at {len(levels)} levels of play]({chart.name})", "",
             " ".join(sentences) + " " + closing, ""]
    for lv, md in zip(levels, summaries):
        m = lv.runs[0].manifest
        lines += [f"- Level **{lv.label}**: {_sample(md)}; policies: {common.policies_text(m)}; rules: "
                  f"{common.rules_text(m)}; seed {m.get('seed')}; its own chart, tables and summary in "
                  f"`{md.parent.name}/`. {_finding(md)}"]
    data = " ".join(f"--data {lv.data}" for lv in levels)
    data += "".join(f" --label {shlex.quote(f'{lv.data}={lv.label}')}" for lv in levels if lv.named)
    lines += ["- Method: each level analysed exactly as a single run (its own intervals); the answers "
              "compared on their 95% intervals (a verdict changes only when an interval's side of the "
              "decision changes; an interval spanning the decision is 'not decided'); levels are "
              "independent samples of their own sizes, so thresholds and undecided answers also "
              "reflect each level's sample size",
              f"- Made by: `simcore analyze {analysis} {data} --out {out}`",
              f"- Tables: `{table.name}` and each level's own in its folder", ""]
    path = out / f"{name}.md"
    path.write_text("\n".join(lines))
    return path


def closing_note(results: Path) -> str:
    """For the report's closing note: every question, in every ``*_levels.csv`` under
    ``results``, whose decided answer changed with the level, one Markdown line each."""
    lines = []
    for path in sorted(Path(results).rglob("*_levels.csv")):
        table = pl.read_csv(path)
        for (question,), g in table.group_by("question", maintain_order=True):
            decided = g.filter(pl.col("decided"))
            if decided["verdict"].n_unique() > 1:
                answers = "; ".join(f"{r['level']}: {r['verdict']}" for r in g.iter_rows(named=True))
                lines.append(f"- `{path.parent.relative_to(results)}` — {question}: {answers}")
    return "\n".join(lines) if lines else "No conclusion changed with the level of play."
