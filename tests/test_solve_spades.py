"""simcore.solve("spades", ...) against the plain-Python oracle (tests/reference/open_hand.py),
against DDS itself (Spades with must_break_spades=false is bridge with spades as trumps), and on
hand-made positions from docs/rules/spades.md whose values are worked out in the comments.

SIMCORE_SOLVE_SWEEP=N scales the opt-in sweep (`pytest -m sweep`; default 1).
"""

from __future__ import annotations

import os
import random

import pytest

import simcore
from reference import open_hand as oracle
from reference.both_solvers import BOTH, fast, solved
from simcore.cards import hand_from_cards, parse_card, parse_hand

GAME = "spades"
SCALE = int(os.environ.get("SIMCORE_SOLVE_SWEEP", "1"))
C = parse_card
NO_BREAK = {"must_break_spades": False}  # Spades as bridge with spades trumps, for DDS




# ----------------------------------------------------------------------- random endings


@pytest.mark.parametrize("k,count", [(1, 200), (2, 1000), (3, 700), (4, 150), (5, 8)])
def test_random_endings_match_the_oracle(k, count):
    """Value and every card's value; nil for each seat, must_break_spades on/off, broken or not,
    partial tricks of 0-3 cards (SP-7 ... SP-10)."""
    n, problems = oracle.sweep(fast, GAME, k, count, seed=1)
    assert not problems, oracle.sweep_message(GAME, k, n, problems)


@pytest.mark.sweep
@pytest.mark.parametrize("k,count", [(3, 2000), (4, 600), (5, 40), (6, 1)])
def test_random_endings_match_the_oracle_sweep(k, count):
    n, problems = oracle.sweep(fast, GAME, k, count * SCALE, seed=2)
    assert not problems, oracle.sweep_message(GAME, k, n, problems)


def test_value_is_the_best_of_the_moves_for_the_player_to_move():
    """Seats 0+2 maximise their tricks; with nil=s, s and its partner minimise s's tricks."""
    rng = random.Random(11)
    for _ in range(300):
        p = oracle.random_ending(GAME, rng, rng.randrange(1, 4))
        args, kwargs = p.args()
        sol = fast(*args, **kwargs)
        mover = oracle.player_to_move(GAME, p.leader, p.trick)
        g, _ = oracle.make_game(GAME, p.rules, p.state)
        best = max if mover in g.maximisers() else min
        assert int(sol.value) == best(int(v) for v in sol.moves.values()), str(p)


def test_a_spade_in_the_trick_means_broken():
    """SP-9 / the contract: the solver infers broken from a spade already in the trick."""
    rng = random.Random(12)
    checked = 0
    while checked < 100:
        p = oracle.random_ending(GAME, rng, rng.randrange(2, 4))
        if not any(oracle.suit(c) == oracle.SPADES for c in p.trick):
            continue
        args, kwargs = p.args()
        kwargs["rules"] = {"must_break_spades": True}
        kwargs["broken"] = False
        unsaid = fast(*args, **kwargs)
        kwargs["broken"] = True
        said = fast(*args, **kwargs)
        assert (unsaid.value, dict(unsaid.moves)) == (said.value, dict(said.moves)), str(p)
        checked += 1


def test_equivalent_cards_each_listed_with_their_own_value():
    """AS KS touch; AH and QH touch because KH is gone: every legal card is a key."""
    hands = ["AS KS AH QH", "2S 3S 4S 2C", "5S 6S 7S 3C", "8S 9S 4C 5C"]
    sol = fast(GAME, hands, leader=0, broken=True)
    value, moves = oracle.solve(GAME, hands, 0, broken=True)
    assert {int(c): int(v) for c, v in sol.moves.items()} == moves
    assert set(moves) == set(oracle.cards_of(parse_hand(hands[0])))
    assert moves[C("AH")] == moves[C("QH")] and moves[C("AS")] == moves[C("KS")]


def test_hands_as_text_masks_or_card_lists_agree():
    text = ["AS 2H 3D", "KS 4H 5D", "QS 6H 7D", "JS 8H 9D"]
    masks = [parse_hand(h) for h in text]
    lists = [oracle.cards_of(m) for m in masks]
    a, b = fast(GAME, text, leader=1), fast(GAME, masks, leader=1)
    assert (a.value, dict(a.moves)) == (b.value, dict(b.moves))
    c = fast(GAME, [hand_from_cards(x) for x in lists], leader=1)
    assert (a.value, dict(a.moves)) == (c.value, dict(c.moves))


# ----------------------------------------------------------------------- DDS


def random_deal(rng) -> list[int]:
    cards = rng.sample(range(52), 52)
    return [hand_from_cards(cards[13 * s:13 * s + 13]) for s in range(4)]


def full_deals_match_dds(n: int, seed: int):
    """13 cards each, seats 0..3 = N E S W, every opening lead's value equal to DDS's."""
    rng = random.Random(seed)
    for _ in range(n):
        hands, leader = random_deal(rng), rng.randrange(4)
        sol = fast(GAME, hands, leader=leader, rules=NO_BREAK)
        value, moves = oracle.dds_solve(hands, leader)
        got = int(sol.value), {int(c): int(v) for c, v in sol.moves.items()}
        assert got == (value, moves), oracle.Position(GAME, hands, leader, (), NO_BREAK, {})


def mid_trick_positions_match_dds(n: int, seed: int, tricks_played=range(0, 6)):
    """A few tricks and 0-3 cards of the current one played at random, then both solve."""
    rng = random.Random(seed)
    for _ in range(n):
        hands, leader = random_deal(rng), rng.randrange(4)
        deal = oracle.dds_deal(hands, leader, ())
        for _ in range(4 * rng.choice(tricks_played) + rng.randrange(0, 4)):
            deal.play(rng.choice(deal.legal_moves()))
        trick = tuple(oracle.public_id(c) for c in deal.curtrick)
        hands, leader = oracle.dds_hands(deal), int(deal.first)
        sol = fast(GAME, hands, leader=leader, trick=trick, rules=NO_BREAK)
        value, moves = oracle.dds_solve(hands, leader, trick)
        got = int(sol.value), {int(c): int(v) for c, v in sol.moves.items()}
        assert got == (value, moves), oracle.Position(GAME, hands, leader, trick, NO_BREAK, {})


# The default run is sized for the solver's speed: a full deal with every opening lead valued
# took 0.24 s mean, 2.5 s at most over the 40 of the sweep, so the
# default run checks a few full deals and positions 2-5 tricks into real deals, and the opt-in
# sweep (`-m sweep`) 40 full deals and 40 positions from any trick.
DDS_MID_TRICK = 30
DDS_FULL = 8


def test_mid_trick_positions_of_full_deals_match_dds():
    mid_trick_positions_match_dds(DDS_MID_TRICK, seed=23, tricks_played=range(2, 6))


def test_a_few_full_deals_match_dds_without_must_break():
    full_deals_match_dds(DDS_FULL, seed=24)


@pytest.mark.sweep
def test_full_deals_match_dds_without_must_break():
    full_deals_match_dds(40 * SCALE, seed=21)


@pytest.mark.sweep
def test_mid_trick_positions_from_any_trick_match_dds():
    mid_trick_positions_match_dds(40 * SCALE, seed=22)


# ----------------------------------------------------------------------- hand-made positions


@BOTH
def test_sp5_nil_holds_only_if_the_partner_overtakes(solver):
    """Seat 3 led 5H, nil bidder 0 had to follow with KH, seat 1 discarded 4C.  Partner 2 holds
    AH 3H: AH overtakes, wins, and 3H wins the last trick (no spades left): 0 tricks for seat 0.
    3H lets KH win: seat 0 takes a trick (then 2D loses to AD).  Nil value: min(0, 1) = 0."""
    hands = ["2D", "3C", "AH 3H", "AD"]
    trick = [C("5H"), C("KH"), C("4C")]
    assert solved(solver, GAME, hands, 3, trick, nil=0) == (0, {C("AH"): 0, C("3H"): 1})
    # The same cards for the side (SP-10): AH -> seat 2 takes both; 3H -> KH, then AD wins.
    assert solved(solver, GAME, hands, 3, trick) == (2, {C("AH"): 2, C("3H"): 1})


@BOTH
def test_sp5_nil_the_opponents_pick_the_lead_that_sets_it(solver):
    """nil=1.  Seat 0 (an opponent) leads 2H: seat 1 must follow with 3H (SP-8), seats 2 and 3
    have no heart, so 3H wins; seat 2 throws AC under it, and seat 1's KC, led, wins the last
    trick too: 2 tricks.  Leading 2C instead: seat 1 follows with KC, seat 2's AC wins, seat 2
    leads 4D, seat 3 wins it with a diamond and seat 1 discards 3H: 0.  The opponents
    maximise: 2."""
    hands = ["2H 2C", "3H KC", "4D AC", "5D 6D"]
    assert solved(solver, GAME, hands, 0, (), nil=1) == (2, {C("2H"): 2, C("2C"): 0})


@BOTH
def test_sp5_a_nil_bidder_holding_high_spades_takes_all_but_those_the_ace_can_cover(solver):
    """nil=0 holds KS QS 2H, seat 1 AS 3H 4H, seats 2 and 3 only hearts (seat 3's are the
    highest); seat 3 leads.  Every card gets played, and only AS can beat seat 0's spades, once:
    seat 0 takes at least 1 (the search's sure-trump bound for a nil).  And no more: seat 3 wins
    the first heart, leads another, seat 1 must follow, seat 0 (void) ruffs; it then has to
    lead its last spade into AS.  Nil value 1 whichever heart seat 3 leads."""
    hands = ["KS QS 2H", "AS 3H 4H", "5H 6H 7H", "8H 9H TH"]
    assert solved(solver, GAME, hands, 3, (), nil=0) == (1, {C("8H"): 1, C("9H"): 1, C("TH"): 1})
    # Held to 0 when partner 2 holds AS instead and overtakes (the bound counts the partner's
    # trumps as spoilers too): seat 2 plays AS on seat 0's spade.
    hands = ["KS 2H", "3H 4H", "AS 5H", "8H 9H"]
    assert solved(solver, GAME, hands, 3, (), nil=0) == (0, {C("8H"): 0, C("9H"): 0})


@BOTH
def test_sp7_must_break_changes_the_value(solver):
    """Seat 0 holds AS AH, seat 1 2S 3D, seats 2 and 3 only diamonds; seat 0 leads.
    Spades led at once (allowed once broken, or with must_break_spades off): AS draws 2S, AH
    wins too: 2.  Not broken under SP-7, seat 0 must lead AH: seat 1 ruffs with 2S (SP-8),
    leads 3D, and AS ruffs it: 1."""
    hands = ["AS AH", "2S 3D", "4D 5D", "6D 7D"]
    assert solved(solver, GAME, hands, 0) == (1, {C("AH"): 1})
    assert solved(solver, GAME, hands, 0, rules={"must_break_spades": True}, broken=False) == \
        (1, {C("AH"): 1})
    both = (2, {C("AS"): 2, C("AH"): 1})
    assert solved(solver, GAME, hands, 0, rules={"must_break_spades": False}) == both
    assert solved(solver, GAME, hands, 0, broken=True) == both


@BOTH
def test_sp7_a_leader_holding_only_spades_may_lead_them(solver):
    """Seat 0 holds AS KS only; spades not broken: it leads a spade anyway and wins both."""
    hands = ["AS KS", "2H 3H", "4H 5H", "6H 7H"]
    assert solved(solver, GAME, hands, 0) == (2, {C("AS"): 2, C("KS"): 2})


def test_no_cards_left_is_worth_nothing():
    sol = fast(GAME, [0, 0, 0, 0], leader=2)
    assert int(sol.value) == 0 and dict(sol.moves) == {}


# ----------------------------------------------------------------------- bad input

FOUR = ["AS 2H", "KS 3H", "QS 4H", "JS 5H"]


@pytest.mark.parametrize("game,hands,kwargs,why", [
    ("spades", ["AS 2H", "AS 3H", "QS 4H", "JS 5H"], {}, "overlapping hands"),
    ("spades", ["AS", "KS 3H", "QS 4H", "JS 5H"], {"trick": [C("AS")]}, "hand overlaps trick"),
    ("spades", ["AS 2H", "KS", "QS 4H", "JS 5H"], {}, "a seat holds too few"),
    ("spades", ["AS 2H 6H", "KS 3H", "QS 4H", "JS 5H"], {}, "a seat holds too many"),
    ("spades", ["AS 2H", "KS", "QS 4H", "JS 5H"], {"leader": 0, "trick": [C("3H")]},
     "the seat that played holds one fewer, not the one yet to play"),
    ("spades", ["AS", "KS", "QS", "JS"], {"trick": [C("2H"), C("3H"), C("4H"), C("5H")]},
     "a trick as long as the seats in play"),
    ("spades", FOUR[:3], {}, "three hands"),
    ("spades", FOUR, {"leader": 4}, "no seat 4"),
    ("spades", FOUR, {"nil": 4}, "no seat 4 to bid nil"),
    ("spades", FOUR, {"trump": 3}, "unknown state keyword"),
    ("spades", FOUR, {"rules": {"must_break": False}}, "unknown rules option"),
    ("spades", ["XS 2H", "KS 3H", "QS 4H", "JS 5H"], {}, "malformed card text"),
    ("bridge", FOUR, {}, "unknown game"),
])
def test_bad_input_is_one_clear_line(game, hands, kwargs, why):
    kwargs = {"leader": 0, **kwargs}
    with pytest.raises(simcore.SimcoreError) as excinfo:
        simcore.solve(game, hands, **kwargs)
    message = str(excinfo.value)
    assert message and "\n" not in message, why


# ----------------------------------------------------------------------- the nil objective
# The nil search has its own bounds at trick boundaries (simcore.solver.nil: _nil_sure,
# _nil_most, _nil_safe) and move order (nil_score); these check them against the oracle for every seat.


def nil_endings(k: int, count: int, seed: int, boundary_share: float = 0.5):
    """Random endings of k cards (half of them at a trick boundary), each once per nil seat."""
    import dataclasses

    rng = random.Random(f"nil/{k}/{seed}")
    for _ in range(count):
        p = oracle.random_ending(GAME, rng, k)
        if rng.random() < boundary_share:
            p = oracle.random_ending(GAME, rng, k)
            while p.trick:
                p = oracle.random_ending(GAME, rng, k)
        for s in range(4):
            yield dataclasses.replace(p, state={**p.state, "nil": s})


@pytest.mark.parametrize("k,count", [(2, 150), (3, 100), (4, 30)])
def test_nil_of_every_seat_matches_the_oracle(k, count):
    """Value and every card's value of the nil of each seat; spades broken or not, must_break
    on or off, at trick boundaries and mid-trick."""
    problems = [r for p in nil_endings(k, count, seed=1) if (r := oracle.disagreement(fast, p))]
    assert not problems, oracle.sweep_message(GAME, k, 4 * count, problems)


@pytest.mark.sweep
@pytest.mark.parametrize("k,count", [(3, 300), (4, 60), (5, 6), (6, 1)])
def test_nil_of_every_seat_matches_the_oracle_sweep(k, count):
    problems = [r for p in nil_endings(k, count * SCALE, seed=2)
                if (r := oracle.disagreement(fast, p))]
    assert not problems, oracle.sweep_message(GAME, k, 4 * count * SCALE, problems)


def nil_bounds(p):
    """(sure, most, safe, dead) of the nil bounds at the trick-boundary position p."""
    hands = [int(h) if isinstance(h, int) else hand_from_cards(h) for h in p.hands]
    return nil_bounds_of(hands, p.leader, p.state["nil"], bool(p.state.get("broken", False)),
                         (p.rules or {}).get("must_break_spades", True))


def nil_bounds_of(hands, leader, s, broken=False, must_break=True):
    import numpy as np

    from simcore.games.spades import solver
    from simcore.solver import nil, table_of
    from simcore.solver.context import T_CTX, T_HANDS

    tab = table_of(solver.new_tables(1, 6), 0)
    solver._setup(np.array(hands, np.uint64), leader, np.zeros(1, np.int64), 0, broken,
                  must_break, s, tab)
    ctx, held = tab[T_CTX], tab[T_HANDS]
    sure, _ = nil._nil_sure(ctx, held, s)
    most, _ = nil._nil_most(ctx, held, s)
    safe, _ = nil._nil_safe(ctx, held, s, leader)
    dead, _ = nil._nil_dead(ctx, held, s)
    return int(sure), int(most), bool(safe), int(dead)


@BOTH
def test_nil_held_by_the_partners_ruffs(solver):
    """nil=0 holds AH KH 5D; partner 2 has no heart but 2S 3S, and 6D over 5D.  Whenever
    hearts are led seat 0 follows and seat 2 ruffs; a spade lead takes one of seat 2's trumps
    and seat 0 throws a heart; 6D covers 5D.  Held to 0 whatever seat 1 leads, and the nil
    bounds see it before any search (safe: the partner's two trumps ruff both hearts)."""
    hands = ["AH KH 5D", "2H 3H 7D", "2S 3S 6D", "4H 9D 8D"]
    assert solved(solver, GAME, hands, 1, (), nil=0) == (0, {C("2H"): 0, C("3H"): 0, C("7D"): 0})
    sure, most, safe, _ = nil_bounds_of([parse_hand(h) for h in hands], 1, 0)
    assert (sure, most, safe) == (0, 0, True)


@BOTH
def test_nil_trumps_above_the_bidders_take_their_tricks(solver):
    """nil=0 holds 5S 4S 3S, seat 1 AS KS: each of those takes a trick seat 0 cannot win,
    whatever it plays (at most 3 - 2 = 1 for seat 0), and only they can beat seat 0's spades,
    one each (at least 1).  Value 1; the bounds alone give it."""
    hands = ["5S 4S 3S", "AS KS 2H", "6H 7H 8H", "9H TH JH"]
    assert solved(solver, GAME, hands, 3, (), nil=0) == (1, {C("9H"): 1, C("TH"): 1, C("JH"): 1})
    assert nil_bounds_of([parse_hand(h) for h in hands], 3, 0) == (1, 1, False, 1)


def ruffed(hands, s):
    """Does s hold a side suit its partner lacks, with some other card of it below s's highest
    (so that only the partner's trumps can make it safe)?"""
    h, p = hands[s], hands[(s + 2) % 4]
    rest = hands[(s + 1) % 4] | p | hands[(s + 3) % 4]
    for x in range(3):
        sx, px, ox = (h >> 13 * x) & 0x1FFF, (p >> 13 * x) & 0x1FFF, (rest >> 13 * x) & 0x1FFF
        if sx and not px and ox & ((1 << sx.bit_length()) - 1):
            return True
    return False


def check_nil_bounds(k: int, count: int, seed: int):
    """Every bound against the oracle's value, and each kind of bound deciding some positions:
    the partner's ruffs making s safe, and the trumps above s's (dead) bounding s below its
    unpaired cards."""
    checked = bound = ruff_safe = dead_tight = 0
    for p in nil_endings(k, count, seed, boundary_share=1.0):
        args, kwargs = p.args()
        value, _ = oracle.solve(*args, **kwargs)
        sure, most, safe, dead = nil_bounds(p)
        assert sure <= value <= most <= dead, (str(p), value, sure, most, dead)
        assert not safe or value == 0, (str(p), value)
        checked += 1
        bound += sure == value or most == value or safe
        hands = [int(h) if isinstance(h, int) else hand_from_cards(h) for h in p.hands]
        ruff_safe += safe and ruffed(hands, p.state["nil"])
        dead_tight += dead == value < bin(hands[p.state["nil"]]).count("1")
    assert checked == 4 * count and bound > 0, (checked, bound)
    if k <= 3:  # enough positions for each kind to come up
        assert ruff_safe > 0 and dead_tight > 0, (ruff_safe, dead_tight)


@pytest.mark.parametrize("k,count", [(2, 150), (3, 100), (4, 15)])
def test_nil_bounds_hold_on_the_oracle_values(k, count):
    """At trick boundaries: s's sure trumps <= the oracle's nil value <= s's unpaired cards
    (when the partner's free cards suffice), and a safe nil seat is held to 0."""
    check_nil_bounds(k, count, seed=3)


@pytest.mark.sweep
@pytest.mark.parametrize("k,count", [(3, 300), (4, 40), (5, 3)])
def test_nil_bounds_hold_on_the_oracle_values_sweep(k, count):
    check_nil_bounds(k, count * SCALE, seed=4)
