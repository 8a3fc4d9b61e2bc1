"""Playthrough goldens: a whole game of each game at a fixed seed (tests/goldens/<game>.txt), made
again in memory by scripts/make_goldens.py's ``transcript`` and compared line by line.

A failure prints a unified diff of the game as a player reads it (deal, calls, every trick or
turn, scores).  A change of dealing, streams, policies, rules or scoring shows up here; when it
is intended, regenerate with ``.venv/bin/python scripts/make_goldens.py`` and commit the
goldens with the change.
"""

from __future__ import annotations

import difflib
import importlib.util
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parent.parent / "scripts" / "make_goldens.py"
_spec = importlib.util.spec_from_file_location("make_goldens", SCRIPT)
make_goldens = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(make_goldens)


@pytest.mark.parametrize("game", list(make_goldens.GAMES))
def test_playthrough_matches_golden(game):
    golden = make_goldens.path(game)
    assert golden.is_file(), f"{golden} is missing: run .venv/bin/python scripts/make_goldens.py"
    want = golden.read_text(encoding="utf-8")
    got = make_goldens.transcript(game)
    if got != want:
        diff = "".join(difflib.unified_diff(
            want.splitlines(keepends=True), got.splitlines(keepends=True),
            fromfile=f"{golden.name} (committed)", tofile=f"{golden.name} (this code)", n=2))
        pytest.fail(f"the {game} playthrough changed:\n{diff}\nIf the change is intended, run "
                    f".venv/bin/python scripts/make_goldens.py {game} and commit the golden.",
                    pytrace=False)


def test_goldens_cover_every_game_and_every_decision():
    """Every registered game has a golden, and each golden holds the game's decisions and
    play (not only the hands): tricks for the trick games, turns for the rummy games."""
    from simcore import games

    assert set(make_goldens.GAMES) == set(games.names())
    for game in make_goldens.GAMES:
        text = make_goldens.path(game).read_text(encoding="utf-8")
        view = games.get(game).show
        assert ("tricks (seat:card" in text) if view.trick_log else ("turns (" in text), game
        assert "the game:" in text and "winner" in text, game
        assert "not recorded" not in text, game
