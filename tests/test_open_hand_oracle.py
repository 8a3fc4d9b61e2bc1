"""The open-hand oracle (tests/reference/open_hand.py) checked on its own, before it judges the
fast solvers: against DDS itself on Spades endings (Spades without SP-7 is bridge with spades as
trumps), rule by rule on its trick winners and card orders, and its random endings against the
contract's sizes and the rules' legality.
"""

from __future__ import annotations

import random

import pytest

from reference import open_hand as oracle
from simcore.cards import hand_from_cards, parse_card, parse_hand

C = parse_card


def dds_endings(n: int, sizes, seed: int):
    rng = random.Random(seed)
    for _ in range(n):
        p = oracle.random_ending("spades", rng, rng.choice(sizes))
        yield p.hands, p.leader, p.trick


def test_oracle_agrees_with_dds_on_spades_endings_without_must_break():
    """SP-8, SP-10 (and seats 0..3 = N E S W, play to the left): value and every card's value."""
    checked = mid_trick = 0
    for hands, leader, trick in [*dds_endings(500, (1, 2, 3), 1), *dds_endings(40, (4,), 2)]:
        value, moves = oracle.solve("spades", hands, leader, trick,
                                    rules={"must_break_spades": False})
        assert (value, moves) == oracle.dds_solve(hands, leader, trick), (hands, leader, trick)
        checked += 1
        mid_trick += bool(trick)
    assert checked == 540 and mid_trick > 300


def test_oracle_agrees_with_dds_on_a_full_deal_played_down_to_five_cards():
    """A real 13-card deal, the first 8 tricks played as DDS would, then solved by both."""
    from endplay.dds import solve_board
    from endplay.dds.solve import SolveMode

    rng = random.Random(7)
    for _ in range(3):
        cards = rng.sample(range(52), 52)
        hands = [hand_from_cards(cards[13 * s:13 * s + 13]) for s in range(4)]
        deal = oracle.dds_deal(hands, 0, ())
        for _ in range(32):
            card, _ = next(iter(solve_board(deal, SolveMode.OptimalOne)))
            deal.play(card)
        hands = oracle.dds_hands(deal)
        assert all(bin(h).count("1") == 5 for h in hands)
        leader = int(deal.first)
        value, moves = oracle.solve("spades", hands, leader, (), rules={"must_break_spades": False})
        assert (value, moves) == oracle.dds_solve(hands, leader, ())


def euchre_as_bridge(p):
    """The Euchre position as a bridge one DDS can solve, and the map of Euchre cards to it.

    Trump t: the right bower becomes the ace of t, the left bower its king, and the A K Q 10 9 of
    t the Q J 10 9 8 (EU-3, EU-4); other cards keep their rank.  A lone player's partner (EU-12)
    gets 2..6 of a plain suit instead of nothing: it must follow that suit only under a 9 or
    higher led, so it never wins a trick and never leads -- in effect it sits out.
    """
    t = p.state["trump"]
    to_bridge = {c: c for c in oracle.EUCHRE_DECK}
    for euchre, bridge in [((t, 9), (t, 12)), ((3 - t, 9), (t, 11)), ((t, 12), (t, 10)),
                           ((t, 11), (t, 9)), ((t, 10), (t, 8)), ((t, 8), (t, 7)), ((t, 7), (t, 6))]:
        to_bridge[13 * euchre[0] + euchre[1]] = 13 * bridge[0] + bridge[1]
    hands = [hand_from_cards(to_bridge[c] for c in oracle.cards_of(h)) for h in p.hands]
    trick = [to_bridge[c] for c in p.trick]
    alone = p.state.get("alone", -1)
    if alone >= 0:
        out, plain = (alone + 2) % 4, (t + 1) % 4
        mover = oracle.player_to_move("euchre", p.leader, p.trick, alone)
        dummies = [13 * plain + r for r in range(len(oracle.cards_of(hands[mover])))]
        q = (out - p.leader) % 4  # the partner's place in the bridge trick
        if q <= len(trick):  # its turn came before the player to move's: it played a dummy
            trick.insert(q, dummies.pop())
        hands[out] = hand_from_cards(dummies)
    return hands, p.leader, trick, {b: e for e, b in to_bridge.items()}


def test_oracle_agrees_with_dds_on_euchre_endings_as_bridge():
    """EU-3/EU-4 bowers, EU-12 lone players, EU-14/EU-15, every trump: by the card map above."""
    rng = random.Random(8)
    checked = alone = bowers = 0
    for k in [1, 2, 3, 4] * 100 + [5] * 10:
        p = oracle.random_ending("euchre", rng, k)
        value, moves = oracle.solve(*p.args()[0], **p.args()[1])
        hands, leader, trick, to_euchre = euchre_as_bridge(p)
        dds_value, dds_moves = oracle.dds_solve(hands, leader, trick, trump=p.state["trump"])
        assert (value, moves) == (dds_value, {to_euchre[c]: v for c, v in dds_moves.items()}), \
            str(p)
        checked += 1
        alone += p.state.get("alone", -1) >= 0
        bowers += any(c % 13 == 9 for h in p.hands for c in oracle.cards_of(h))
    assert checked == 410 and alone > 100 and bowers > 200


# ----------------------------------------------------------------------- the oracle's rules


def test_sp10_highest_spade_else_highest_of_led_suit():
    g = oracle.Spades()
    assert g.winner((C("KH"), C("AH"), C("2S"), C("AD")), [1, 2, 3, 0]) == 3
    assert g.winner((C("KH"), C("AD"), C("QH"), C("AC")), [0, 1, 2, 3]) == 0


def test_sp7_sp9_leading_spades_before_they_break():
    g = oracle.Spades(must_break_spades=True)
    assert g.legal(parse_hand("AS 2H"), (), False) == [C("2H")]
    assert set(g.legal(parse_hand("AS 2S"), (), False)) == {C("AS"), C("2S")}
    assert g.breaks_spades(C("AS"), (), parse_hand("AS 2S"), False)  # led: nothing else held
    assert g.breaks_spades(C("2S"), (C("3H"),), parse_hand("2S 4D"), False)  # cannot follow
    assert set(oracle.Spades(must_break_spades=False).legal(parse_hand("AS 2H"), (), False)) == \
        {C("AS"), C("2H")}


def test_eu3_eu4_bowers_rank_and_belong_to_trump():
    g = oracle.Euchre(trump=2)  # hearts: the right bower JH, the left bower JD
    order = ["JH", "JD", "AH", "KH", "QH", "TH", "9H"]
    strengths = [g.strength(C(t)) for t in order]
    assert strengths == sorted(strengths, reverse=True)
    assert g.suit(C("JD")) == 2 and g.suit(C("JC")) == 0 and g.suit(C("QD")) == 1
    assert oracle.Euchre(trump=0).suit(C("JS")) == 0  # clubs: the left bower is JS
    # a diamond led: the left bower does not follow, a void player may ruff with it
    assert g.legal(parse_hand("JD 9D"), (C("AD"),), False) == [C("9D")]
    assert g.winner((C("AD"), C("JD"), C("KD"), C("QD")), [0, 1, 2, 3]) == 1
    # the left bower led: a trump lead, hearts must follow
    assert g.legal(parse_hand("9H AD"), (C("JD"),), False) == [C("9H")]


def test_eu12_lone_players_partner_sits_out():
    assert oracle.Euchre(trump=0, alone=1).seats_in_play() == [0, 1, 2]
    assert oracle.Euchre(trump=0, alone=2).seats_in_play() == [1, 2, 3]


def test_tf3_tf8_rank_and_winner():
    order = [13 - i for i in range(13)]
    assert [oracle.TF_STRENGTH[r] for r in oracle.TF_ORDER] == order
    g = oracle.TrumpFriend(trump=oracle.NO_TRUMP, team=frozenset({0}))
    # TF-8.2: off-suit aces never win; 3 beats 2 beats A in the led suit (TF-3)
    assert g.winner((C("4C"), C("AH"), C("AD"), C("AS"), C("KC")), [0, 1, 2, 3, 4]) == 4
    assert g.winner((C("AC"), C("2C"), C("3C"), C("KC"), C("4C")), [0, 1, 2, 3, 4]) == 2
    g = oracle.TrumpFriend(trump=1, team=frozenset({0}))  # TF-8.1: the lowest trump wins
    assert g.winner((C("3C"), C("4D"), C("2C"), C("AC"), C("KC")), [3, 4, 0, 1, 2]) == 4


def test_tf_trick_winner_and_points_agree_with_the_replay_reference():
    """A second, independent reading of TF-3/TF-8/TF-11 (tests/reference/trump_friend.py, the
    engine's referee) on random tricks: Trump Friend has five seats, so no DDS check."""
    from reference import trump_friend as referee

    rng = random.Random(9)
    for _ in range(3000):
        trump = rng.randrange(5)
        cards = tuple(rng.sample(range(52) if rng.random() < 0.5 else range(26), 5))
        g = oracle.TrumpFriend(trump=trump, team=frozenset({0}))
        assert g.winner(cards, [0, 1, 2, 3, 4]) == referee.trick_winner(list(cards), trump)
        assert g.worth(cards, 0) == referee.cards_points(cards)


def test_tf11_points_total_twenty():
    g = oracle.TrumpFriend(trump=0, team=frozenset(range(5)))
    assert g.worth(tuple(range(52)), 0) == 20


# ----------------------------------------------------------------------- the random endings


@pytest.mark.parametrize("game", ["spades", "euchre", "trump-friend"])
def test_random_endings_have_the_contracts_sizes_and_legal_tricks(game):
    """After the trick every seat in play holds the same number; seats out hold nothing."""
    rng = random.Random(3)
    seen_lengths = set()
    for _ in range(300):
        k = rng.randrange(1, 5)
        p = oracle.random_ending(game, rng, k)
        g, _ = oracle.make_game(game, p.rules, p.state)
        seats = g.seats_in_play()
        cards = [c for h in p.hands for c in oracle.cards_of(h)] + list(p.trick)
        assert len(cards) == len(set(cards)) == k * len(seats)
        order = [seats[(seats.index(p.leader) + i) % len(seats)] for i in range(len(seats))]
        for i, s in enumerate(order):
            assert bin(p.hands[s]).count("1") == k - (i < len(p.trick))
        assert all(p.hands[s] == 0 for s in range(g.n_seats) if s not in seats)
        seen_lengths.add(len(p.trick))
    assert seen_lengths == set(range(5 if game == "trump-friend" else 4))


def test_random_endings_cover_every_setting():
    rng = random.Random(4)
    seen = set()
    for _ in range(400):
        for game in ("spades", "euchre", "trump-friend"):
            p = oracle.random_ending(game, rng, 2)
            seen.add((game, "rules", repr(p.rules)))
            for key, value in p.state.items():
                seen.add((game, key, repr(value)))
    for s in range(4):
        assert ("spades", "nil", repr(s)) in seen and ("euchre", "alone", repr(s)) in seen
        assert ("euchre", "trump", repr(s)) in seen
    assert {("spades", "broken", "True"), ("spades", "broken", "False"), ("euchre", "alone", "-1"),
            ("spades", "rules", "None"), ("spades", "rules", "{'must_break_spades': False}"),
            ("spades", "rules", "{'must_break_spades': True}")} <= seen
    assert {("trump-friend", "trump", repr(t)) for t in range(5)} <= seen
    teams = {v for g, k, v in seen if g == "trump-friend" and k == "team"}
    assert any(len(eval(t)) == 1 for t in teams) and any(len(eval(t)) == 2 for t in teams)


def test_no_cards_left_is_worth_nothing():
    assert oracle.solve("spades", [0, 0, 0, 0], 1) == (0, {})
