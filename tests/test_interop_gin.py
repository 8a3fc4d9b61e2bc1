"""scripts/match_gin_openspiel.py: the Numba copy of OpenSpiel's simple gin bot decides as
pyspiel's bot does, hands are scored as OpenSpiel scores them, and its games to 100 add up
(docs/games/gin_rummy.md, Strength)."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import numpy as np
import pytest

from simcore.cards import parse_hand
from simcore.games.gin_rummy.engine import C_TARGET, R_DW0, first_dealer
from simcore.rng import stream_key


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
    pytest.importorskip("pyspiel")
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


SIMPLE_ROW = M.policy_row(M.SIMPLE)


def _replayed_game(scored, seed, k, a, cfg):
    """Game k with A in seat a, replayed hand by hand in Python from the kernel's own scored
    hand: (A won, hands, A's points, B's, A's hands won, B's, voids, ties)."""
    b, pol = M._buffers(), SIMPLE_ROW.copy()
    pol[:2] = M.SIMPLE  # both seats (the row holds its own id in slot 0 only)
    totals, won, hands, void, tied = [0, 0], [0, 0], 0, 0, 0
    dealer = first_dealer(np.uint64(seed), k, cfg, b[0])
    while max(totals) < 100:
        b[0][0] = stream_key(np.uint64(seed), np.uint64(k), np.uint64(hands + 1), np.uint64(0))
        ok, margin, who, _, _ = scored(b, dealer, cfg, pol, a)
        assert ok
        hands += 1
        if who < 0:  # void: the same dealer deals again
            void += 1
            continue
        dealer = 1 - dealer
        tied += margin == 0
        side = 0 if margin > 0 else 1  # 0: A, 1: B
        totals[side] += abs(margin)
        won[side] += margin != 0
    return totals[0] >= 100, hands, totals[0], totals[1], won[0], won[1], void, tied


def test_games_add_up_from_the_hands_and_end_at_100():
    """Each duplicate game is the sum of its hands scored as OpenSpiel scores them, ends at
    the first hand that takes a total to 100, and gets simcore's GR-17/GR-18 bonuses."""
    seed, n = 21, 40
    cfg = M.os_rules_cfg()
    assert cfg[C_TARGET] == 100
    out = M.run(n, seed, SIMPLE_ROW, SIMPLE_ROW, games=True)
    scored = M._kernel(frozenset((M.SIMPLE,)))[2]
    assert out[:, :, M.G_BAD].sum() == 0
    for k in range(n):
        for a in range(2):
            o = out[k, a]
            a_won, hands, pa, pb, wa, wb, void, tied = _replayed_game(scored, seed, k, a, cfg)
            assert (o[M.G_WON], o[M.G_HANDS], o[M.G_POINTS], o[M.G_POINTS + 1], o[M.G_VOID],
                    o[M.G_TIED], o[M.G_HANDS_WON], o[M.G_HANDS_WON + 1]) == \
                (a_won, hands, pa, pb, void, tied, wa, wb)
            win, lose, hands_won = (pa, pb, wa) if a_won else (pb, pa, wb)
            assert win >= 100 > lose and o[M.G_SHUTOUT] == (lose == 0)
            bonus = (2 if lose == 0 else 1) * win + 100 + 25 * hands_won
            assert sorted(o[M.G_FINAL:M.G_FINAL + 2]) == [lose, bonus]
    # the same policy in both seats of a duplicate pair: the second game mirrors the first
    assert (out[:, 0, M.G_WON] + out[:, 1, M.G_WON] == 1).all()
    assert (out[:, 0, M.G_POINTS] == out[:, 1, M.G_POINTS + 1]).all()


def test_games_are_reproducible_from_the_seed():
    a = M.run(30, 5, SIMPLE_ROW, SIMPLE_ROW, games=True)
    assert (a == M.run(30, 5, SIMPLE_ROW, SIMPLE_ROW, games=True)).all()
    assert (a != M.run(30, 6, SIMPLE_ROW, SIMPLE_ROW, games=True)).any()
    assert "60 games to the target (30 seeds x 2 seatings): won 50.0%" in M.games_report(a, "x")
