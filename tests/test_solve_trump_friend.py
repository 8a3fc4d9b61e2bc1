"""simcore.solve("trump-friend", ...) against the plain-Python oracle (tests/reference/open_hand.py)
and on hand-made positions from docs/rules/trump_friend.md whose values are worked out in the
comments.

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

GAME = "trump-friend"
SCALE = int(os.environ.get("SIMCORE_SOLVE_SWEEP", "1"))
C = parse_card
NO_TRUMP = 4




# ----------------------------------------------------------------------- random endings


@pytest.mark.parametrize("k,count", [(1, 200), (2, 1000), (3, 600), (4, 40)])
def test_random_endings_match_the_oracle(k, count):
    """Value (card points of the team) and every card's value; every trump and no trump, solo
    and two-seat teams, partial tricks of 0-4 cards (TF-3, TF-7, TF-8, TF-11)."""
    n, problems = oracle.sweep(fast, GAME, k, count, seed=1)
    assert not problems, oracle.sweep_message(GAME, k, n, problems)


@pytest.mark.sweep
@pytest.mark.parametrize("k,count", [(3, 2000), (4, 250)])
def test_random_endings_match_the_oracle_sweep(k, count):
    n, problems = oracle.sweep(fast, GAME, k, count * SCALE, seed=2)
    assert not problems, oracle.sweep_message(GAME, k, n, problems)


def test_value_is_the_best_of_the_moves_for_the_player_to_move():
    """The team maximises its points, the defenders minimise them."""
    rng = random.Random(11)
    for _ in range(300):
        p = oracle.random_ending(GAME, rng, rng.randrange(1, 4))
        args, kwargs = p.args()
        sol = fast(*args, **kwargs)
        mover = oracle.player_to_move(GAME, p.leader, p.trick)
        best = max if mover in p.state["team"] else min
        assert int(sol.value) == best(int(v) for v in sol.moves.values()), str(p)


# ----------------------------------------------------------------------- hand-made positions


@BOTH
def test_tf8_2_no_trump_off_suit_aces_never_win_and_points_decide(solver):
    """No trump, declarer 0 alone (team {0}), seat 0 to lead 4C or 5D; nobody else has a club.
    4C led wins whatever falls (TF-8.2: the off-suit aces never win), so the defenders throw
    nothing of value but seat 4's QS, keeping 3D (TF-3: the highest diamond) to win the 5D with
    AH, AS, KH on it: seat 0 takes 1 point.  5D led first: 3D wins it, seat 4 leads QS and seat
    2's AS (A over Q, TF-3) takes the last trick: 0.  Best: 1."""
    hands = ["4C 5D", "AH 6D", "AS 7D", "KH 8D", "3D QS"]
    assert solved(solver, GAME, hands, 0, trump=NO_TRUMP, team=(0,)) == \
        (1, {C("4C"): 1, C("5D"): 0})


@BOTH
def test_tf8_2_last_trick_the_lowest_card_of_the_led_suit_takes_the_aces(solver):
    """No trump, seat 2 leads 4C, the lowest card of the suit (TF-3), and nobody can follow:
    it wins AH, AD, AS and KH: 2+2+2+1 = 7 points (TF-11) for team {2, 4}."""
    hands = ["AH", "AD", "4C", "AS", "KH"]
    assert solved(solver, GAME, hands, 2, trump=NO_TRUMP, team=(2, 4)) == (7, {C("4C"): 7})
    # With hearts trump, seat 0's AH ruffs it and the team {2, 4} keeps none: 0.
    assert solved(solver, GAME, hands, 2, trump=2, team=(2, 4)) == (0, {C("4C"): 0})


@BOTH
def test_tf3_tf8_1_the_three_is_the_highest_trump(solver):
    """Trump spades; seat 1 led AS, seat 2 played 2S; seat 3 plays 3S, the highest spade (TF-3),
    over both; seat 4 follows with KS and seat 0 discards QD.  The trick holds A=2, K=1, Q=1
    (TF-11): 4 points to seat 3, so 0 for the team {0, 2} and 4 for a declarer 3 alone."""
    hands = ["QD", "", "", "3S", "KS"]
    trick = [C("AS"), C("2S")]
    assert solved(solver, GAME, hands, 1, trick, trump=3, team=(0, 2)) == (0, {C("3S"): 0})
    assert solved(solver, GAME, hands, 1, trick, trump=3, team=(3,)) == (4, {C("3S"): 4})


@BOTH
def test_tf3_tf11_touching_cards_of_different_points_are_not_equivalent(solver):
    """No trump, team {0}.  Seat 1 led 3S (the highest spade, TF-3) and three hearts fell; seat 0
    must follow with AS or KS, both lost.  Seat 1 then leads 5S and seat 0's other spade wins
    it: keeping AS (2 points) is worth 2, keeping KS (1 point) 1, though A and K touch."""
    hands = ["AS KS", "5S", "5H", "7H", "9H"]
    trick = [C("3S"), C("4H"), C("6H"), C("8H")]
    assert solved(solver, GAME, hands, 1, trick, trump=NO_TRUMP, team=(0,)) == \
        (2, {C("KS"): 2, C("AS"): 1})


@BOTH
def test_tf3_three_two_ace_touch_at_the_top(solver):
    """No trump, team {0}.  3S, 2S, AS are the three highest spades (TF-3), all seat 0's: any of
    them led wins KS, QS, JS, TS (3 points), the other two win the discards, and AS's 2 points
    stay home: 5, each spade listed on its own.  4C (the lowest club) led first loses to seat 2's
    TC, and seat 3, void in clubs, throws JS (1 point) on it: 4."""
    hands = ["3S 2S AS 4C", "KS 5C 6C 7C", "QS 8C 9C TC", "JS 2D 3D 4D", "TS 5D 6D 7D"]
    value, moves = solved(solver, GAME, hands, 0, trump=NO_TRUMP, team=(0,))
    assert {C("3S"), C("2S"), C("AS"), C("4C")} == set(moves)
    assert moves[C("3S")] == moves[C("2S")] == moves[C("AS")] == value


@BOTH
def test_tf8_1_a_trump_above_every_trump_of_the_other_side_wins_its_points(solver):
    """Hearts trump, seat 0 alone.  Seat 0's AH is above the defenders' only trumps KH, QH, JH
    (3H and 2H are out of play), so wherever it falls it takes its trick (TF-8.1): AH led
    takes KH, QH, JH too (5 points), and 4C led first loses to seat 4's 8C, whose 2D lead
    seat 0 ruffs with AH while the defenders, void of diamonds, must ruff under it: 5 either
    way.  With the defenders' 3H in place of KH, the AH is no longer safe: 3H wins it (and QH,
    JH) whichever card seat 0 leads, and the clubs go to seat 4: 0."""
    hands = ["AH 4C", "KH 5C", "QH 6C", "JH 7C", "2D 8C"]
    assert solved(solver, GAME, hands, 0, trump=2, team=(0,)) == (5, {C("AH"): 5, C("4C"): 5})
    hands[1] = "3H 5C"
    assert solved(solver, GAME, hands, 0, trump=2, team=(0,)) == (0, {C("AH"): 0, C("4C"): 0})


@BOTH
def test_tf7_tf8_1_a_trump_under_one_already_in_the_trick_is_lost(solver):
    """Hearts trump, seat 0 alone.  Seat 4 led 3H, the highest trump; seat 0 must follow with
    its AH (TF-7), above every trump still in a hand, but 3H is in the trick: seat 4 takes
    AH, KH, QH, JH (5 points) and then the clubs with 8C.  The team gets 0."""
    hands = ["AH 4C", "KH 5C", "QH 6C", "JH 7C", "8C"]
    assert solved(solver, GAME, hands, 4, [C("3H")], trump=2, team=(0,)) == (0, {C("AH"): 0})


def test_no_cards_left_is_worth_nothing():
    sol = fast(GAME, [0, 0, 0, 0, 0], leader=3, trump=1, team=(3,))
    assert int(sol.value) == 0 and dict(sol.moves) == {}


# ----------------------------------------------------------------------- bounds


def sure_points(p):
    """Per side (the team's, the defenders'): (its trumps above all of the other side's, with its
    lower point trumps too) sure points at the trick-boundary position p; and the points in play."""
    import numpy as np

    from simcore.games.trump_friend import solver
    from simcore.solver import points, table_of
    from simcore.solver.context import T_CTX, T_HANDS
    from simcore.solver.position import cards_in_hands, points_of

    tab = table_of(solver.new_tables(1, 6), 0)
    team = sum(1 << s for s in p.state["team"])
    solver._setup(np.array(p.hands, np.uint64), p.leader, np.zeros(1, np.int64), 0,
                  p.state["trump"], team, tab)
    ctx, held = tab[T_CTX], tab[T_HANDS]
    sides = []
    for side in (1, 0):
        top, _ = points.sure_points(ctx, held, side)
        lower, _ = points.sure_lower_points(ctx, held, side, top, 0)  # need 0: always counted
        sides.append((int(top), int(lower)))
    return sides[0], sides[1], int(points_of(ctx, cards_in_hands(ctx, held)))


def trump_endings(k: int, count: int, seed: int):
    """Trick-boundary endings of k cards a seat from the trump suit and one to three others
    (many trumps in play, so that the lower trumps matter), solo and two-seat teams."""
    rng = random.Random(f"sure/{k}/{seed}")
    for _ in range(count):
        trump = rng.randrange(4)
        others = [s for s in range(4) if s != trump]
        suits = [trump] + rng.sample(others, rng.randrange(1, 4))
        dealt = rng.sample([13 * s + r for s in suits for r in range(13)], 5 * k)
        hands = tuple(sum(1 << c for c in dealt[i * k:(i + 1) * k]) for i in range(5))
        declarer = rng.randrange(5)
        team = {declarer}
        if rng.random() < 0.6:
            team.add(rng.choice([s for s in range(5) if s != declarer]))
        yield oracle.Position(GAME, hands, rng.randrange(5), (), None,
                              {"trump": trump, "team": tuple(sorted(team))})


@pytest.mark.parametrize("k,count", [(2, 300), (3, 200), (4, 30)])
def test_sure_trump_points_hold_on_the_oracle_values(k, count):
    """At trick boundaries each side wins at least its sure trump points (TF-8.1): its trumps
    above all of the other side's, plus each seat's lower point trumps less the most points the
    other side's higher trumps can take from that seat, one trump each.  Both sides' bounds
    against the oracle's value, and the lower trumps raising the count on some positions."""
    raised = 0
    for p in trump_endings(k, count, seed=1):
        args, kwargs = p.args()
        value, _ = oracle.solve(*args, **kwargs)
        (top_mine, mine), (top_theirs, theirs), in_play = sure_points(p)
        assert mine <= value <= in_play - theirs, (str(p), value, mine, theirs)
        assert top_mine <= mine and top_theirs <= theirs
        raised += mine > top_mine or theirs > top_theirs
    assert raised > 0, raised


# ----------------------------------------------------------------------- bad input

FIVE = ["AS 2H", "KS 3H", "QS 4H", "JS 5H", "TS 6H"]


@pytest.mark.parametrize("hands,kwargs,why", [
    (FIVE, {"team": (0,)}, "trump is required"),
    (FIVE, {"trump": 0}, "team is required"),
    (FIVE, {"trump": 5, "team": (0,)}, "trump is 0-3 or 4 = no trump"),
    (FIVE, {"trump": 0, "team": (5,)}, "no seat 5"),
    (FIVE[:4], {"trump": 0, "team": (0,)}, "four hands for five seats"),
    (FIVE, {"trump": 0, "team": (0,), "alone": 1}, "alone is not a Trump Friend keyword"),
    (["AS 2H", "AS 3H", "QS 4H", "JS 5H", "TS 6H"], {"trump": 0, "team": (0,)}, "overlap"),
    (["AS 2H", "KS", "QS 4H", "JS 5H", "TS 6H"], {"trump": 0, "team": (0,)}, "sizes"),
    (["2C", "3C", "4C", "5C", "6C"],
     {"trump": 0, "team": (0,), "trick": [C(t) for t in ("AS", "KS", "QS", "JS", "TS")]},
     "a trick as long as the seats in play"),
])
def test_bad_input_is_one_clear_line(hands, kwargs, why):
    kwargs = {"leader": 0, **kwargs}
    with pytest.raises(simcore.SimcoreError) as excinfo:
        simcore.solve(GAME, hands, **kwargs)
    message = str(excinfo.value)
    assert message and "\n" not in message, why
