"""What every analysis shares: the run(s) it reads, card-mask expressions, captions, the
what-if switch, error-bar plotting and the Markdown summary.

Everything here works on polars expressions or on per-group aggregates, never on single rows.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import polars as pl  # noqa: E402

# card-mask expressions, shared with the games' scoring; the analyses call them common.X
from simcore.card_columns import bit_of, count_in, rank_mask, u64  # noqa: E402, F401
from simcore.errors import SimcoreError  # noqa: E402
from simcore.runs import load  # noqa: E402

SUITS = ("clubs", "diamonds", "hearts", "spades")
SUIT_MASK = (1 << 13) - 1


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


# ---------------------------------------------------------------- card masks


def has_card(hand: pl.Expr, card: pl.Expr) -> pl.Expr:
    """1 if the hand holds ``card`` (a column), else 0 (Int16)."""
    return ((hand & bit_of(card)) > 0).cast(pl.Int16)


def suit_length(hand: pl.Expr, suit: int) -> pl.Expr:
    return count_in(hand, SUIT_MASK << (13 * suit))


def card(rank: int, suit: int) -> int:
    return 13 * suit + rank


def seat_value(prefix: str, seat: pl.Expr, n_seats: int) -> pl.Expr:
    """Column ``{prefix}{seat}`` where the seat is itself a column (no row loop)."""
    return pl.coalesce([pl.when(seat == s).then(pl.col(f"{prefix}{s}")) for s in range(n_seats)])


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


# ---------------------------------------------------------------- captions and output


def policies_text(manifest: dict) -> str:
    if manifest.get("command") == "solve":
        return "open-hand (simcore solve: every card seen, best play by every seat)"
    pol = dict(manifest.get("policies", {}))
    seats = pol.pop("seats", [])
    play = "/".join(seats) if len(set(seats)) > 1 else (seats[0] if seats else "?")
    decisions = ", ".join(f"{k}={v}" for k, v in pol.items())
    return f"play: {play}" + (f"; {decisions}" if decisions else "")


def rules_text(manifest: dict) -> str:
    return ", ".join(f"{k}={v}" for k, v in manifest.get("rules", {}).items())


def caption(manifest: dict) -> str:
    return f"policies: {policies_text(manifest)}; rules: {rules_text(manifest)}; seed {manifest.get('seed')}"


def error_bars(ax, x, table: pl.DataFrame, value: str, low: str, high: str, scale: float = 1.0, **kw):
    """Points with asymmetric 95% interval bars from a table's columns."""
    v = scale * table[value].to_numpy().astype(float)
    lo = scale * table[low].to_numpy().astype(float)
    hi = scale * table[high].to_numpy().astype(float)
    return ax.errorbar(x, v, yerr=[np.clip(np.nan_to_num(v - lo), 0, None), np.clip(np.nan_to_num(hi - v), 0, None)], capsize=3, **kw)


def save_chart(fig, out: Path, name: str) -> Path:
    path = out / f"{name}.png"
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path


def write_table(frame: pl.DataFrame, out: Path, name: str) -> Path:
    """Floats keep 10 significant digits: parallel sums differ in the last bits from run to run,
    and the committed tables should not."""
    import polars.selectors as cs

    path = out / f"{name}.csv"
    frame.with_columns(cs.float().round_sig_figs(10)).write_csv(path)
    return path


def write_summary(out: Path, name: str, title: str, chart: Path, finding: str, sample: str,
                  manifest: dict, command: str, tables: list[Path], method: str) -> Path:
    """``{name}.md``: the chart, the finding, sample, policies, rules, method and command."""
    path = out / f"{name}.md"
    path.write_text(
        f"### {title}\n\n![{title}]({chart.name})\n\n{finding}\n\n"
        f"- Sample: {sample}\n- Policies: {policies_text(manifest)}\n"
        f"- Rules: {rules_text(manifest)}; seed {manifest.get('seed')}\n"
        f"- Method: {method}\n"
        f"- Made by: `{command}`\n"
        f"- Tables: {', '.join(f'`{t.name}`' for t in tables)}\n"
    )
    return path


def command(name: str, data, out) -> str:
    return f"simcore analyze {name} --data {data} --out {out}"


def varying(manifest: dict, runs: list, section: str, key: str) -> dict:
    """A manifest for the caption of several runs: ``section[key]`` lists every run's value."""
    values = []
    for r in runs:
        v = r.manifest.get(section, {}).get(key)
        if v not in values:
            values.append(v)
    if len(values) < 2:
        return manifest
    return dict(manifest, **{section: dict(manifest.get(section, {}), **{key: "per run: " + "/".join(map(str, values))})})


def plural(n, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def suptitle(fig, headline: str, manifest: dict, note: str = "", width: int = 150) -> None:
    """The chart's title: the question and sample, then the policies and rules (wrapped)."""
    import textwrap

    lines = [headline] + textwrap.wrap(caption(manifest) + (f"; {note}" if note else ""), width)
    fig.suptitle("\n".join(lines), fontsize=9)
