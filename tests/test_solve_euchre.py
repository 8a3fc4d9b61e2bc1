"""simcore.solve("euchre", ...) against the plain-Python oracle (tests/reference/open_hand.py) and
on hand-made positions from docs/rules/euchre.md whose values are worked out in the comments.

SIMCORE_SOLVE_SWEEP=N scales the opt-in sweep (`pytest -m sweep`; default 1).
"""

from __future__ import annotations

import os
import random

import pytest

import simcore
from reference import open_hand as oracle
from reference.both_solvers import BOTH, fast, solved
from simcore.cards import parse_card

GAME = "euchre"
SCALE = int(os.environ.get("SIMCORE_SOLVE_SWEEP", "1"))
C = parse_card
HEARTS, SPADES = 2, 3




# ----------------------------------------------------------------------- random endings


@pytest.mark.parametrize("k,count", [(1, 200), (2, 1000), (3, 700), (4, 200), (5, 10)])
def test_random_endings_match_the_oracle(k, count):
    """Value and every card's value; every trump, lone players of every seat (partner out),
    partial tricks (EU-3, EU-4, EU-12 ... EU-15)."""
    n, problems = oracle.sweep(fast, GAME, k, count, seed=1)
    assert not problems, oracle.sweep_message(GAME, k, n, problems)


@pytest.mark.sweep
@pytest.mark.parametrize("k,count", [(3, 2000), (4, 1000), (5, 30)])
def test_random_endings_match_the_oracle_sweep(k, count):
    n, problems = oracle.sweep(fast, GAME, k, count * SCALE, seed=2)
    assert not problems, oracle.sweep_message(GAME, k, n, problems)


def test_value_is_the_best_of_the_moves_for_the_player_to_move():
    rng = random.Random(11)
    for _ in range(300):
        p = oracle.random_ending(GAME, rng, rng.randrange(1, 4))
        args, kwargs = p.args()
        sol = fast(*args, **kwargs)
        mover = oracle.player_to_move(GAME, p.leader, p.trick, p.state.get("alone", -1))
        best = max if mover in (0, 2) else min
        assert int(sol.value) == best(int(v) for v in sol.moves.values()), str(p)


def test_full_hands_every_legal_card_listed():
    """Five cards each (a whole hand): the moves are exactly the legal cards, each valued."""
    rng = random.Random(13)
    for _ in range(5):
        p = oracle.random_ending(GAME, rng, 5)
        args, kwargs = p.args()
        value, moves = oracle.solve(*args, **kwargs)
        sol = fast(*args, **kwargs)
        assert {int(c): int(v) for c, v in sol.moves.items()} == moves, str(p)


# ----------------------------------------------------------------------- hand-made positions


@BOTH
def test_eu4_a_void_player_ruffs_a_diamond_with_the_left_bower(solver):
    """Trump hearts, so JD is the left bower, a heart (EU-4): seat 1 (JD AC) is void in diamonds.
    KD led: seat 1 ruffs with JD and then cashes AC: 0 tricks for seats 0+2.  9C led: AC wins,
    then JD.  Either way 0.  (Were JD a diamond, seat 1 would have to follow KD and lose.)"""
    hands = ["KD 9C", "JD AC", "9S TS", "QS KS"]
    assert solved(solver, GAME, hands, 0, trump=HEARTS) == (0, {C("KD"): 0, C("9C"): 0})


@BOTH
def test_eu4_the_left_bower_led_calls_for_trumps(solver):
    """Trump hearts.  JD led is a trump lead: seat 1 (9H AD) must play 9H, not AD (EU-14); JD
    wins; then 9C: seat 1 discards AD, seat 2's TC wins: 2.  9C led first: seat 1 ruffs with 9H
    and leads AD, which seat 0's JD (a trump, not a diamond) ruffs: 1."""
    hands = ["JD 9C", "9H AD", "TC TS", "QS KS"]
    assert solved(solver, GAME, hands, 0, trump=HEARTS) == (2, {C("JD"): 2, C("9C"): 1})


@BOTH
def test_eu3_the_right_bower_beats_the_left(solver):
    """Trump spades (left bower JC).  Seat 0 leads JC; seat 1 has only JS and must follow (a
    trump); JS wins the trick for seats 1+3: 0."""
    hands = ["JC", "JS", "9H", "TH"]
    assert solved(solver, GAME, hands, 0, trump=SPADES) == (0, {C("JC"): 0})


@BOTH
def test_eu12_lone_player_must_draw_trumps_first(solver):
    """Seat 0 alone (seat 2 out), trump hearts.  Leading JH then JD draws both of seat 1's
    hearts (seat 3's QH falls on the first); AC then wins: all 3.  AC first: seat 1, void in
    clubs, ruffs and the lone player loses a trick: 2."""
    hands = ["JH JD AC", "AH KH 9S", "", "QH TC KC"]
    assert solved(solver, GAME, hands, 0, trump=HEARTS, alone=0) == \
        (3, {C("JH"): 3, C("JD"): 3, C("AC"): 2})


@BOTH
def test_eu12_eu13_the_lone_players_partner_is_skipped_in_turn(solver):
    """Seat 1 alone (seat 3 out), trump spades.  Seat 2 led KH; next to play is seat 0 (seat 3 is
    skipped), who must follow with AH; lone seat 1, void in hearts, ruffs with JS and wins QC
    too: 0 tricks for seats 0+2."""
    hands = ["AH TC", "JS QC", "9C", ""]
    assert solved(solver, GAME, hands, 2, [C("KH")], trump=SPADES, alone=1) == (0, {C("AH"): 0})


@BOTH
def test_eu3_equivalent_cards_across_the_bowers_each_listed(solver):
    """Trump hearts.  JH, JD, AH are the three top trumps (EU-3): touching, so each lead is worth
    the same, and each is listed.  QD and TD touch too, JD having left the diamonds (EU-4)."""
    hands = ["JH JD AH", "KD 9C AC", "QD 9H TC", "AD QS KS"]
    value, moves = solved(solver, GAME, hands, 0, trump=HEARTS)
    assert set(moves) == {C("JH"), C("JD"), C("AH")}
    assert moves[C("JH")] == moves[C("JD")] == moves[C("AH")] == value
    hands = ["QD TD JH", "KD 9C AC", "JD 9H TC", "AD QS KS"]
    value, moves = solved(solver, GAME, hands, 0, trump=HEARTS)
    assert set(moves) == {C("QD"), C("TD"), C("JH")} and moves[C("QD")] == moves[C("TD")]


# ----------------------------------------------------------------------- bad input

FOUR = ["AS 9H", "KS TH", "QS JH", "JS QH"]


@pytest.mark.parametrize("hands,kwargs,why", [
    (["2S 9H", "KS TH", "QS JH", "JS QH"], {"trump": 0}, "2S is not in the 24-card deck"),
    (["8D 9H", "KS TH", "QS JH", "JS QH"], {"trump": 0}, "8D is not in the 24-card deck"),
    (FOUR, {}, "trump is required"),
    (FOUR, {"trump": 4}, "no-trump is not a Euchre trump"),
    (FOUR, {"trump": 0, "alone": 0}, "the lone player's partner holds cards"),
    (["AS 9H", "KS TH", "", "JS QH"], {"trump": 0, "alone": 0, "leader": 2},
     "the seat that sits out cannot lead"),
    (["AS 9H", "KS TH", "", "JS QH"], {"trump": 0, "alone": 4}, "no seat 4"),
    (["9C TC JC QC KC AC", "9D TD JD QD KD AD", "9H TH JH QH KH AH", "9S TS JS QS KS AS"],
     {"trump": 0}, "six cards a seat, beyond the deal of five"),
    (FOUR, {"trump": 0, "nil": 1}, "nil is not a Euchre state keyword"),
    (FOUR, {"trump": 0, "broken": True}, "broken is not a Euchre state keyword"),
    (["AS 9H", "AS TH", "QS JH", "JS QH"], {"trump": 0}, "overlapping hands"),
])
def test_bad_input_is_one_clear_line(hands, kwargs, why):
    kwargs = {"leader": 0, **kwargs}
    with pytest.raises(simcore.SimcoreError) as excinfo:
        simcore.solve(GAME, hands, **kwargs)
    message = str(excinfo.value)
    assert message and "\n" not in message, why
