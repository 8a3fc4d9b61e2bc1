"""scripts/match_gin_openspiel.py: the Numba copy of OpenSpiel's simple gin bot decides as
pyspiel's bot does, and hands are scored as OpenSpiel scores them (docs/games/gin_rummy.md,
Strength)."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from simcore.cards import parse_hand  # noqa: E402
from simcore.games.gin_rummy.engine import R_DW0  # noqa: E402


def _script():
    spec = importlib.util.spec_from_file_location(
        "match_gin_openspiel",
        Path(__file__).resolve().parent.parent / "scripts" / "match_gin_openspiel.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


M = _script()


def test_the_copy_decides_as_the_simple_bot_in_openspiel():
    """At the bot's own draws and discards in bot-against-bot hands, at least 99% of the
    copy's answers are the bot's (it differs only where the bot's best meld group is one of
    several equal ones)."""
    text = M.check(40)
    counts = [(int(a.replace(",", "")), int(b.replace(",", "")))
              for a, b in re.findall(r"([\d,]+) of ([\d,]+) the same", text)]
    assert len(counts) == 2
    for same, n in counts:
        assert n > 100 and same >= 0.99 * n, text


def test_the_copy_discards_its_highest_ranked_deadwood_card():
    # melds AC 2C 3C, 4D 5D 6D, 7H 8H 9H; loose KS QD: the king goes (rank before value)
    hand = np.uint64(parse_hand("AC 2C 3C 4D 5D 6D 7H 8H 9H KS QD"))
    assert M.simple_bot_discard(hand) == int(np.log2(parse_hand("KS")))
    # two kings: OpenSpiel's suit order s c d h, so the heart goes before the spade
    hand = np.uint64(parse_hand("AC 2C 3C 4D 5D 6D 7H 8H 9H KS KH"))
    assert M.simple_bot_discard(hand) == int(np.log2(parse_hand("KH")))


@pytest.mark.parametrize("knocker_hand, defender_hand, lays_off, points", [
    # knocker deadwood 5 (5S), defender 40 (TC JH QS KD): 35 points to the knocker
    ("AC 2C 3C 4D 5D 6D 7H 8H 9H 5S", "TC JH QS 2S 3S 4S 8C 8D 8S KD", False, 35),
    # tie at 5: OpenSpiel scores 0 (no undercut)
    ("AC 2C 3C 4D 5D 6D 7H 8H 9H 5S", "2S 3S 4S 8C 8D 8S JC QC KC 5H", False, 0),
    # defender lower (4 < 5): undercut, 25 + 1 to the defender
    ("AC 2C 3C 4D 5D 6D 7H 8H 9H 5S", "2S 3S 4S 8C 8D 8S JC QC KC 4H", False, -26),
    # gin: 25 + the defender's deadwood
    ("AC 2C 3C 4D 5D 6D 7H 8H 9H TH", "2S 3S 4S 8C 8D 8S JC QC KC 4H", False, 29),
])
def test_hands_are_scored_as_openspiel_scores_them(knocker_hand, defender_hand, lays_off, points):
    hands = np.array([parse_hand(knocker_hand), parse_hand(defender_hand)], np.uint64)
    res = np.zeros(16, np.int64)
    res[R_DW0 + 1] = 99  # the engine's deadwood after lay-offs: used only if the defender lays off
    got, _, _ = M._score(0, hands, res, lays_off)
    assert got == points
