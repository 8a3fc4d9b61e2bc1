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
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parent.parent / "scripts" / "make_goldens.py"
_spec = importlib.util.spec_from_file_location("make_goldens", SCRIPT)
make_goldens = importlib.util.module_from_spec(_spec)
sys.modules[_spec.name] = make_goldens  # its dataclass looks its module up there
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


# ---------------------------------------------------------------- the rummy games' turn logs


def _with_and_without_log(game, seed, policy, count=300):
    from simcore import games

    g = games.get(game)
    choice = g.policies_from_specs(policy)
    off = g.run_hands(seed, 0, count, g.rules_cls(), choice, False)
    on = g.run_hands(seed, 0, count, g.rules_cls(), choice, True)
    return off, on


@pytest.mark.parametrize("policy", [["heuristic"], ["random"], ["0=expert", "1=heuristic"]])
def test_gin_turn_log_replays_to_the_final_hands(policy):
    """--log-plays adds ``turn_log`` and changes no other column; replaying each logged hand
    from the dealt hands (take or draw a card, let one go) gives the row's final hands, the
    knocker's last discard face down."""
    from simcore.games.gin_rummy.layout import TURN_PASS, read_turn

    off, on = _with_and_without_log("gin-rummy", 5, policy)
    assert on.drop("turn_log").equals(off)
    complete = 0
    for row in on.iter_rows(named=True):
        turns = [read_turn(e) for e in row["turn_log"]]
        played = [t for t in turns if t[1] != TURN_PASS]
        if len(played) < row["turns"]:  # a hand longer than the history keeps its start
            continue
        complete += 1
        assert len(played) == row["turns"]
        held = [row["hand0"], row["hand1"]]
        for seat, _, card, discard in played:
            assert not held[seat] >> card & 1  # a card from the stock or the pile
            held[seat] |= 1 << card
            assert held[seat] >> discard & 1
            held[seat] &= ~(1 << discard)
        assert held == [row["final0"], row["final1"]]
    assert complete > 200


@pytest.mark.parametrize("policy,players", [(["heuristic"], 4), (["random"], 3),
                                            (["0=expert", "1=heuristic"], 2)])
def test_dummy_log_changes_no_row_and_counts_every_turn(policy, players):
    """--log-plays adds ``decisions``, ``deciders`` and ``stock`` and changes no other column;
    every turn begins with one acquire decision, and the draws never pass the stock."""
    from simcore import games
    from simcore.games.dummy.layout import DRAW, K_ACQUIRE, LOG_ROW

    g = games.get("dummy")
    rules = g.rules_cls(players=players)
    choice = g.policies_from_specs(policy)
    off = g.run_hands(9, 0, 200, rules, choice, False)
    on = g.run_hands(9, 0, 200, rules, choice, True)
    assert on.drop("decisions", "deciders", "stock").equals(off)
    for row in on.iter_rows(named=True):
        if len(row["decisions"]) >= LOG_ROW:
            continue
        kinds = [w & 3 for w in row["deciders"]]
        assert kinds.count(K_ACQUIRE) == row["turns"]
        draws = sum(a == DRAW for a, k in zip(row["decisions"], kinds) if k == K_ACQUIRE)
        assert draws <= len(row["stock"])
        assert all(w >> 2 < players for w in row["deciders"])
