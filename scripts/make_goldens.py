"""Playthrough goldens: one whole game of every game at a fixed seed, as ``simcore show`` reads it.

    .venv/bin/python scripts/make_goldens.py             # rewrite every tests/goldens/<game>.txt
    .venv/bin/python scripts/make_goldens.py euchre      # one game

Each golden is a game played by the product itself: ``simcore.simulate`` in games mode with
``log_plays=True`` (the batch engine and its play log, written to Parquet), then every hand of
the game through ``simcore.show.show`` and ``render`` (the hands, the calls, every trick or
turn, the result and the running totals).  ``tests/test_goldens.py`` makes the same text in
memory and shows a diff against the file: a change of dealing, policies, rules or scoring
shows up there as a readable change of one game.  When the change is intended, rerun this
script and commit the new goldens with it.
"""

from __future__ import annotations

import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import polars as pl

ROOT = Path(__file__).resolve().parent.parent
GOLDENS = ROOT / "tests" / "goldens"


@dataclass(frozen=True)
class Golden:
    """One game's golden: the seed and policies of its one-game run (default rules unless
    ``rules``)."""

    seed: int
    policy: tuple[str, ...]
    rules: dict[str, str] = field(default_factory=dict)

    def command(self, game: str) -> str:
        """The ``simcore simulate`` command that plays the same game."""
        parts = [f"simcore simulate {game} --deals 1 --mode games --seed {self.seed}"]
        parts += [f"--policy {p}" for p in self.policy]
        parts += [f"--rules {k}={v}" for k, v in self.rules.items()]
        return " ".join(parts + ["--log-plays --out RUN"])


# Heuristic play throughout; the rummy games put their expert in seat 0 (the experts are
# built-in policies of the same kernels: no extra compile).
GAMES = {
    "trump-friend": Golden(seed=2026, policy=("heuristic",)),
    "euchre": Golden(seed=2026, policy=("heuristic",)),
    "spades": Golden(seed=2026, policy=("heuristic",)),
    "gin-rummy": Golden(seed=2026, policy=("heuristic", "0=expert")),
    "dummy": Golden(seed=2026, policy=("heuristic", "0=expert")),
}


def transcript(game: str) -> str:
    """The golden text of ``game``: game 0 of its run, hand by hand."""
    import simcore
    from simcore.show import render, show

    golden = GAMES[game]
    with tempfile.TemporaryDirectory() as tmp:
        run = Path(tmp) / "run"
        simcore.simulate(game, 1, seed=golden.seed, mode="games", policy=list(golden.policy),
                         rules=dict(golden.rules), log_plays=True, out=run)
        hands = pl.read_parquet(run / "games").item(0, "hands")
        blocks = []
        for hand in range(hands):
            content = show(run, game=0, hand=hand, log_plays=True)
            content["run"] = "RUN"
            if hand < hands - 1:  # the game's result once, after its last hand
                content["game_result"] = None
            blocks.append(render(content))
    head = [f"{game}: one whole game, every hand as `simcore show RUN --game 0 --hand H "
            "--log-plays` prints it", f"RUN: {golden.command(game)}",
            "regenerate: .venv/bin/python scripts/make_goldens.py " + game]
    rule = "\n" + "=" * 80 + "\n"
    return "\n".join(head) + rule + rule.join(blocks)


def path(game: str) -> Path:
    return GOLDENS / f"{game.replace('-', '_')}.txt"


def main(argv: list[str]) -> int:
    unknown = [g for g in argv if g not in GAMES]
    if unknown:
        print(f"unknown game {unknown[0]!r}; goldens: {', '.join(GAMES)}", file=sys.stderr)
        return 2
    GOLDENS.mkdir(parents=True, exist_ok=True)
    for game in argv or GAMES:
        path(game).write_text(transcript(game), encoding="utf-8")
        print(f"wrote {path(game).relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
