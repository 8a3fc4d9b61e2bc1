"""What every analysis shares: the run(s) it reads, the result it returns (``Analysis``:
tables, figures, summary, claims), captions that name only what differs from the defaults,
figures built from the panels that have something to show, and the Markdown summary.

Everything here works on polars expressions or on per-group aggregates, never on single rows.
Card questions about the u64 hand columns use the ``cards`` expressions of ``simcore.frames``
(``pl.col("hand0").cards.length("S")``) and ``simcore.frames.seat_rows``.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import polars as pl  # noqa: E402

import simcore.frames  # noqa: E402,F401  (registers the ``cards`` expression namespace)
from simcore.errors import SimcoreError  # noqa: E402
from simcore.runs import load  # noqa: E402

SUITS = ("clubs", "diamonds", "hearts", "spades")
# groups smaller than this are dropped from charts and verdicts (every group stays in the tables)
MIN_N = 30
DPI = 100


@dataclass
class RunInput:
    """One run folder: where it is, its manifest and its hands table (lazy)."""

    path: Path
    manifest: dict
    hands: pl.LazyFrame

    def games(self) -> pl.LazyFrame:
        if self.manifest.get("mode") != "games":
            raise SimcoreError(f"{self.path} was made in hands mode: this analysis needs --mode games")
        return load(self.path, "games")

    @property
    def solved(self) -> bool:
        return self.manifest.get("command") == "solve"


# ---------------------------------------------------------------- the result of an analysis


@dataclass
class Analysis:
    """What an analysis found: its tables (name -> polars DataFrame), figures (name ->
    matplotlib Figure), the Markdown summary and the claims (answers with their intervals) that
    levels of play and the report compare.  Nothing is written until ``write(out)``."""

    name: str                      # the analysis (``trump-call``)
    stem: str                      # file stem of its summary (``trump_call``)
    title: str
    answer: str                    # the answer, at most three sentences
    tables: dict[str, pl.DataFrame] = field(default_factory=dict)
    figures: dict[str, object] = field(default_factory=dict)
    claims: list = field(default_factory=list)
    details: list[str] = field(default_factory=list)   # further findings, one bullet each
    sample: str = ""
    level: str = ""                # the level of play and its policies, in words
    rules: str = ""
    method: str = ""
    command: str = ""
    levels: dict[str, "Analysis"] = field(default_factory=dict)  # per level (levels of play)
    files: list[Path] = field(default_factory=list)

    @property
    def figure(self):
        """The first (main) figure, or None when the sample left nothing to draw."""
        return next(iter(self.figures.values()), None)

    @property
    def summary(self) -> str:
        """The Markdown summary: title, answer, figures, details, sample, level, rules, method,
        command, tables (the figures and tables by their file names in the output folder)."""
        lines = [f"### {self.title}", "", self.answer, ""]
        lines += [f"![{self.title}]({name}.png)\n" for name in self.figures]
        lines += [f"- {d}" for d in self.details]
        lines += [f"- Sample: {self.sample}"] if self.sample else []
        lines += [f"- Level of play: {self.level}"] if self.level else []
        lines += [f"- Rules: {self.rules}"] if self.rules else []
        lines += [f"- Method: {self.method}"] if self.method else []
        lines += [f"- Made by: `{self.command}`"] if self.command else []
        if self.tables:
            lines += [f"- Tables: {', '.join(f'`{t}.csv`' for t in self.tables)}"]
        return "\n".join(lines) + "\n"

    def write(self, out) -> list[Path]:
        """Write the figures (PNG), tables (CSV), the summary (``{stem}.md``) and every
        level's own files in ``out/<level>/``; returns the paths written."""
        out = out_folder(out)
        files = [out / f"{self.stem}.md"]
        files[0].write_text(self.summary)
        for name, fig in self.figures.items():
            files.append(save_chart(fig, out, name))
        for name, table in self.tables.items():
            files.append(write_table(table, out, name))
        for slug, sub in self.levels.items():
            files += sub.write(out / slug)
        self.files = files
        return files

    def close(self) -> None:
        """Free the figures (matplotlib keeps them until closed)."""
        for fig in self.figures.values():
            plt.close(fig)
        for sub in self.levels.values():
            sub.close()


def out_folder(out) -> Path:
    out_dir = Path(out)
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise SimcoreError(f"cannot write to {out_dir}: {e.strerror or e}") from None
    return out_dir


def save_chart(fig, out: Path, name: str) -> Path:
    path = out / f"{name}.png"
    # no metadata (the matplotlib version and a date would make identical charts differ)
    fig.savefig(path, dpi=DPI, metadata={"Software": None})
    return path


def write_table(frame: pl.DataFrame, out: Path, name: str) -> Path:
    """Floats keep 10 significant digits: parallel sums differ in the last bits from run to run,
    and the committed tables should not."""
    import polars.selectors as cs

    path = out / f"{name}.csv"
    frame.with_columns(cs.float().round_sig_figs(10)).write_csv(path)
    return path


# ---------------------------------------------------------------- what-if runs


def what_if(run: RunInput) -> str | None:
    """The what-if decision of a run (``--what-if``), or None for an observational run."""
    decision = run.manifest.get("what_if")
    if decision:
        return str(decision)
    if "option" in run.hands.collect_schema().names():
        return "unknown decision"
    return None


def one_row_per_deal(run: RunInput) -> pl.LazyFrame:
    """The hands with one row per deal: a what-if run keeps its first option's rows."""
    if "option" not in run.hands.collect_schema().names():
        return run.hands
    first = run.hands.select(pl.col("option").first()).collect().item()
    return run.hands.filter(pl.col("option") == first)


def options_of(hands: pl.LazyFrame) -> list[str]:
    return hands.select(pl.col("option").unique(maintain_order=True)).collect()["option"].to_list()


# ---------------------------------------------------------------- captions


OPEN_HAND = "open-hand"


def level_label(manifest: dict) -> str:
    """A run's level of play from its manifest: ``open-hand`` for a solve run, else the seats'
    play policies (one name when every seat plays the same, else ``a/b``)."""
    if manifest.get("command") == "solve":
        return OPEN_HAND
    seats = [str(s) for s in manifest.get("policies", {}).get("seats", [])]
    names = list(dict.fromkeys(seats))
    return "/".join(names) if names else "unknown"


def policies_text(manifest: dict) -> str:
    """The policies of a run in words: the seats' play policy and the decision policies that
    differ from the game's defaults."""
    if manifest.get("command") == "solve":
        return "open-hand (simcore solve: every seat plays perfectly with every card seen)"
    pol = dict(manifest.get("policies", {}))
    pol.pop("own_calls", None)
    seats = pol.pop("seats", [])
    play = "/".join(seats) if len(set(seats)) > 1 else (seats[0] if seats else "?")
    defaults = decision_defaults(manifest.get("game", ""))
    decisions = ", ".join(f"{k}={v}" for k, v in pol.items() if defaults.get(k, object()) != v)
    return f"play: {play}" + (f"; {decisions}" if decisions else "")


def decision_defaults(game: str) -> dict:
    from simcore import games

    try:
        return dict(games.get(game).default_decisions)
    except SimcoreError:
        return {}


def level_text(manifest: dict) -> str:
    """The level of play a run stands for, in words (the summary's "Level of play" line)."""
    label = level_label(manifest)
    if label == "open-hand":
        return "open-hand: every seat plays perfectly with every card seen (simcore solve)"
    seats = manifest.get("policies", {}).get("seats", [])
    play = f"{label} play at every seat" if len(set(seats)) == 1 else f"seats playing {'/'.join(map(str, seats))}"
    decisions = policies_text(manifest).partition("; ")[2]
    return play + (f"; {decisions}" if decisions else "")


def rule_defaults(game: str) -> dict:
    from simcore import games

    try:
        return games.get(game).rules_cls().to_dict()
    except SimcoreError:
        return {}


def changed_rules(manifest: dict) -> dict:
    """The rules options of a run that differ from the game's defaults."""
    defaults = rule_defaults(manifest.get("game", ""))
    return {k: v for k, v in manifest.get("rules", {}).items() if defaults.get(k, object()) != v}


def rules_text(manifest: dict) -> str:
    """The run's rules in a few words: "defaults", or only the options that differ."""
    changed = changed_rules(manifest)
    text = ("defaults except " + ", ".join(f"{k}={v}" for k, v in changed.items())) if changed else "defaults"
    return f"{text}; seed {manifest.get('seed')}"


def footnote(fig, text: str) -> float:
    """A small grey note under the panels (the level, non-default rules, seed, groups
    dropped), wrapped to the figure's width; returns the share of the figure's height it takes."""
    width_in, height_in = fig.get_size_inches()
    lines = textwrap.wrap(text, int(width_in * 72 / 3.9))
    fig.text(0.005, 0.005, "\n".join(lines), fontsize=7, color="#555555", ha="left", va="bottom")
    return (len(lines) * 7 * 1.3 + 8) / 72 / height_in


def command(name: str, data, out) -> str:
    folders = data if isinstance(data, (list, tuple)) else [data]
    return f"simcore analyze {name} " + " ".join(f"--data {d}" for d in folders) + f" --out {out}"


def plural(n, word: str) -> str:
    return f"{n:,} {word}" + ("" if n == 1 else "s")


def upper_first(text: str) -> str:
    """The text with its first letter upper case (``str.capitalize`` lowers the others)."""
    return text[:1].upper() + text[1:]


def pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def signed(x: float, digits: int = 2) -> str:
    return f"{x:+.{digits}f}"


def ci(low: float, high: float, digits: int = 2, scale: float = 1.0) -> str:
    if not (np.isfinite(low) and np.isfinite(high)):
        return "[no interval]"
    return f"[{scale * low:+.{digits}f}, {scale * high:+.{digits}f}]"


# ---------------------------------------------------------------- figures


@dataclass
class Panel:
    """One panel of a figure: its title, the number of points it would draw (a panel with
    fewer than two is left out) and the function that draws it into an axis."""

    title: str
    points: int
    draw: Callable


def figure(panels: list[Panel], title: str, note: str, width: float = 13.0,
           height: float | None = None):
    """A figure of the panels with at least two points (at most four: 1, 2, 1×3 or 2×2), the
    question as its title and ``note`` as a footnote; None when no panel has anything to show."""
    shown = [p for p in panels if p.points >= 2]
    if len(shown) > 4:
        raise ValueError(f"{title}: {len(shown)} panels; a figure answers one question in at most four")
    if not shown:
        return None
    rows, cols = {1: (1, 1), 2: (1, 2), 3: (1, 3), 4: (2, 2)}[len(shown)]
    w = width if cols > 1 else min(width, 8.0)
    h = height or (5.2 * rows + 0.5)
    fig, axes = plt.subplots(rows, cols, figsize=(w, h), layout="constrained", squeeze=False)
    for ax, panel in zip(axes.ravel(), shown):
        panel.draw(ax)
        ax.set_title("\n".join(textwrap.wrap(panel.title, 62 if cols < 3 else 48)), fontsize=9)
        ax.tick_params(labelsize=8)
    fig.suptitle("\n".join(textwrap.wrap(title, int(w * 72 / 7.5))), fontsize=11)
    bottom = footnote(fig, note)
    fig.get_layout_engine().set(rect=(0, bottom, 1, 1 - bottom))
    return fig


def integer_ticks(ax, axis: str = "x") -> None:
    from matplotlib.ticker import MaxNLocator

    (ax.xaxis if axis == "x" else ax.yaxis).set_major_locator(MaxNLocator(integer=True))


def error_bars(ax, x, table: pl.DataFrame, value: str, low: str, high: str, scale: float = 1.0, **kw):
    """Points with asymmetric 95% interval bars from a table's columns (no bar where there is
    no interval)."""
    v = scale * table[value].to_numpy().astype(float)
    lo = scale * table[low].to_numpy().astype(float)
    hi = scale * table[high].to_numpy().astype(float)
    return ax.errorbar(x, v, yerr=[np.clip(np.nan_to_num(v - lo), 0, None), np.clip(np.nan_to_num(hi - v), 0, None)],
                       capsize=3, **kw)


def shown(table: pl.DataFrame, min_n: int = MIN_N) -> pl.DataFrame:
    """The groups large enough to draw and to decide (n ≥ ``min_n``)."""
    return table.filter(pl.col("n") >= min_n)


def dropped_note(table: pl.DataFrame, what: str, min_n: int = MIN_N) -> str:
    """"N hands in groups below n = 30 not shown" (empty when none were dropped)."""
    small = table.filter(pl.col("n") < min_n)
    if not small.height:
        return ""
    return f"{int(small['n'].sum()):,} {what} in groups of n < {min_n} not shown (they are in the tables)"
