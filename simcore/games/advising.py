"""What the games' ``simcore advise`` answers share: the levels of play, the batch a level
runs (:class:`RunSpec`) and the :class:`Advisor` a game declares (docs/advise.md).

An advisor fixes one decision of one seat (the user's), says which batches value each of
its options at each level (``simcore solve`` for open-hand, ``simcore simulate --what-if``
for pimc and heuristic play) and turns their rows into one value per (deal, option);
``simcore.advise`` runs the batches and judges them: intervals, paired differences, verdicts.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import polars as pl

from simcore.cards import format_card

LEVELS = ("open-hand", "pimc", "heuristic")


@dataclass(frozen=True)
class RunSpec:
    """One batch of a level: ``simcore solve`` or a ``simcore simulate`` what-if run."""

    name: str
    command: str  # "solve" or "simulate"
    # keyword arguments of batch.solve_deals / simulate (``options``: the game's solve options)
    options: dict = field(default_factory=dict)

    def text(self, game: str, deals: int, seed: int, out: Path | None) -> str:
        """The equivalent command line (for the summary); without ``out`` (a run kept in memory)
        it has no ``--out``."""
        parts = [f"simcore {self.command} {game} --deals {deals} --seed {seed}"]
        if self.options.get("what_if"):
            parts.append(f"--what-if {self.options['what_if']}")
        parts += [f"--predeal {p}" for p in self.options.get("predeal", [])]
        if self.options.get("policy"):
            parts.append("--policy " + " ".join(self.options["policy"]))
        parts += [f"--{k} {v}" for k, v in (self.options.get("options") or {}).items()]  # solve options
        rules = self.options.get("rules") or {}
        if rules:
            parts.append("--rules " + " ".join(f"{k}={v}" for k, v in rules.items()))
        if out is not None:
            parts.append(f"--out {out}")
        return " ".join(parts)


class Advisor:
    """The decision ``simcore advise`` answers for one game (a subclass per game).

    A subclass sets the class attributes below and writes :meth:`runs` and :meth:`rows`;
    the other methods have defaults.  ``rows`` returns, per level, one row per (deal,
    option) with ``deal``, ``option``, ``value`` (in ``unit``) and ``win`` (1.0, 0.0 or
    null), optionally ``tricks`` (its mean is reported) and ``bid`` (its mode is).
    """

    seat: int                    # the user's seat: the what-if decision is its decision
    hand_size: int               # cards of --hand
    decision: str                # the decision in words (chart title, summary)
    summary: str                 # the decision in a few words (the command's help)
    unit: str                    # what a value is measured in
    options: tuple[str, ...]     # the decision's options, in the order reports list them
    searching: tuple[int, ...]   # the seats that play pimc at the pimc level (the user's side)
    # deals per level when --deals is not given: under a minute of CPU for a call once compiled,
    # enough to decide typical questions (docs/advise.md, Sizes and time)
    default_deals: dict[str, int]
    default_levels: tuple[str, ...] = LEVELS
    unavailable: dict[str, tuple[str, ...]] = {}  # level -> options it cannot value at all
    upcard = False               # the decision needs --upcard (the turned-up card)
    fixed_rules: dict[str, str] = {}  # rules options that put the user's seat in its place

    def rules(self, rules: dict) -> dict:
        """The rules of every batch: the user's plus ``fixed_rules``."""
        return {**rules, **self.fixed_rules}

    def predeal(self, hand, upcard) -> list[str]:
        """``--predeal`` values of every batch: the user's hand (and upcard)."""
        return [f"{self.seat}=" + ",".join(format_card(c) for c in hand)]

    def runs(self, level: str, predeal: list[str], rules: dict, play: list[str]) -> list[RunSpec]:
        """The batches of ``level``; ``play`` is its ``--policy`` list (searching seats pimc)."""
        raise NotImplementedError

    def rows(self, level: str, frames: dict[str, pl.LazyFrame]) -> pl.LazyFrame:
        """One row per (deal, option) from the batches' hand rows (``frames[spec.name]``)."""
        raise NotImplementedError

    def level_unit(self, level: str) -> str:
        """The unit of ``level``'s values; a level whose unit is not ``unit`` has options
        measured in units of their own (no paired differences): :meth:`describe` words them."""
        return self.unit

    def label(self, r: dict) -> str:
        """An option's name in the report, from its row of the option table."""
        return r["option"]

    def describe(self, r: dict) -> str:
        """One option of a level whose options have units of their own, in words."""
        return f"{self.label(r)} {r['mean']:.2f} [{r['low']:.2f}, {r['high']:.2f}]"
