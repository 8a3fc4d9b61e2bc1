"""Constrained dealing (simcore.dealing): predeal, conditions, rejection sampling.

The kernels are checked against plain-Python oracles on random hands; predeal and conditions
must hold on every accepted deal while everything left free stays uniformly random (chi-square
with a fixed seed, so the check is deterministic); attempt 0 is the ordinary deal, so a
condition every deal meets changes no row of any game.
"""

import numpy as np
import polars as pl
import pytest
from scipy.stats import chisquare

from simcore import dealing
from simcore.cards import RANKS, cards_of_hand, parse_card, parse_cards
from simcore.errors import SimcoreError
from simcore.games import euchre, gin_rummy, spades
from simcore.games.euchre.rules import Rules as EuchreRules
from simcore.games.gin_rummy.rules import Rules as GinRules
from simcore.games.spades.rules import Rules as SpadesRules
from simcore.rng import stream_key

SP = spades.LAYOUT
EU = euchre.LAYOUT


def _batch(layout, filt, count, seed=7, start=0, roles=(0,)):
    return dealing.deal_batch(np.uint64(seed), np.int64(start), np.int64(count), layout.deck_ids,
                              filt.fixed, layout.sizes, layout.shuffle, filt.conds, filt.weights,
                              np.array(roles, np.int64))


# ---------------------------------------------------------------- plain-Python oracles


def _suit_lengths(cards):
    return [sum(1 for c in cards if c // 13 == s) for s in range(4)]


def _oracle_feature(name, arg, cards, upcard=None):
    if name == "longest":
        return max(_suit_lengths(cards))
    if name == "shortest":
        return min(_suit_lengths(cards))
    if name == "suit":
        return _suit_lengths(cards)[("CDHS".index(arg) if arg in "CDHS" else "♣♦♥♠".index(arg))]
    if name == "hcp":
        return sum({"A": 4, "K": 3, "Q": 2, "J": 1}.get(RANKS[c % 13], 0) for c in cards)
    if name == "has":
        return len(set(parse_cards(arg)) & set(cards))
    if name == "spades":
        return _suit_lengths(cards)[3]
    t = upcard // 13
    jacks = {13 * t + 9, 13 * (3 - t) + 9}
    if name == "bowers":
        return len(jacks & set(cards))
    if name == "trumps":
        return sum(1 for c in cards if c // 13 == t or c == 13 * (3 - t) + 9)
    raise AssertionError(name)


_OPS = {">=": lambda a, b: a >= b, "<=": lambda a, b: a <= b, "==": lambda a, b: a == b,
        "!=": lambda a, b: a != b, ">": lambda a, b: a > b, "<": lambda a, b: a < b}


def _oracle_holds(text, slot_cards, roles, layout, upcard=None):
    seat, _, rest = text.partition(":")
    op = next(o for o in (">=", "<=", "==", "!=", ">", "<") if o in rest)
    feature, number = rest.split(op)
    name, _, arg = feature.partition(":")
    slot = roles[layout.roles.index(seat)] if seat in layout.roles else layout.slot_index(seat)
    return _OPS[op](_oracle_feature(name, arg or None, slot_cards[slot], upcard), int(number))


def test_features_match_the_oracle_on_random_hands():
    rng = np.random.default_rng(3)
    texts = ["0:longest>=5", "1:shortest<=1", "2:suit:H==3", "3:hcp>12", "dealer:has:AS,KS,QH>=2",
             "0:spades!=4", "1:hcp<8", "2:suit:♠>=2"]
    for _ in range(300):
        deck = rng.permutation(52)
        hands = [sorted(int(c) for c in deck[13 * s:13 * s + 13]) for s in range(4)]
        masks = np.array([sum(1 << c for c in h) for h in hands], np.uint64)
        dealer = int(rng.integers(4))
        for text in texts:
            filt = dealing.compile_filter(SP, None, [text])
            got = dealing.conditions_hold(filt.conds, filt.weights, masks, np.array([dealer]))
            assert got == _oracle_holds(text, hands, [dealer], SP), text


def test_euchre_features_refer_to_the_upcards_suit():
    rng = np.random.default_rng(4)
    deck24 = [c for c in range(52) if c % 13 >= 7]
    for _ in range(300):
        order = [deck24[i] for i in rng.permutation(24)]
        hands = [order[5 * s:5 * s + 5] for s in range(4)] + [order[20:21], order[21:]]
        engine_masks = np.array([sum(1 << int(EU.engine_id[c]) for c in h) for h in hands], np.uint64)
        for text in ("0:bowers>=1", "1:trumps>=3", "2:bowers==0", "dealer:trumps<2", "3:hcp>=6"):
            filt = dealing.compile_filter(EU, None, [text])
            got = dealing.conditions_hold(filt.conds, filt.weights, engine_masks, np.array([2]))
            assert got == _oracle_holds(text, hands, [2], EU, upcard=order[20]), text


# ---------------------------------------------------------------- predeal and conditions hold


def test_predeal_and_conditions_hold_on_every_accepted_deal():
    filt = dealing.compile_filter(SP, ["0=AS,KS,3H", "2=2C"], ["1:longest>=6", "dealer:hcp>=12"])
    masks, tries = _batch(SP, filt, 1000, roles=(3,))
    assert (tries >= 1).all() and tries.max() > 1
    fixed0 = {parse_card(c) for c in ("AS", "KS", "3H")}
    for row in masks:
        hands = [cards_of_hand(int(m)) for m in row]
        assert sorted(sum(hands, [])) == list(range(52)) and all(len(h) == 13 for h in hands)
        assert fixed0 <= set(hands[0]) and parse_card("2C") in hands[2]
        assert max(_suit_lengths(hands[1])) >= 6
        assert _oracle_feature("hcp", None, hands[3]) >= 12


def test_predeal_of_the_upcard_and_partial_hands_in_euchre():
    filt = dealing.compile_filter(EU, {0: "JH JD", "upcard": "9H"}, ["1:trumps>=2"])
    masks, tries = _batch(EU, filt, 500)
    assert (tries >= 1).all()
    base = {int(EU.engine_id[c]): c for c in range(52) if EU.engine_id[c] >= 0}
    for row in masks:
        hands = [[base[b] for b in cards_of_hand(int(m))] for m in row]
        assert [len(h) for h in hands] == [5, 5, 5, 5, 1, 3]
        assert {parse_card("JH"), parse_card("JD")} <= set(hands[0])
        assert hands[4] == [parse_card("9H")]
        assert _oracle_feature("trumps", None, hands[1], upcard=parse_card("9H")) >= 2


def test_unconstrained_cards_stay_uniformly_random():
    """Chi-square on card-to-seat counts: with three cards fixed to seat 0 each other card lands
    in seat 0 with probability 10/49 and in each other seat with 13/49; with a condition on
    seat 0 as well, a card not in seat 0 is still equally likely in seats 1, 2 and 3."""
    n = 20_000
    filt = dealing.compile_filter(SP, ["0=AS,KS,3H"], None)
    masks, _ = _batch(SP, filt, n, seed=11)
    counts = np.array([[(masks[:, s] >> np.uint64(c) & np.uint64(1)).sum() for s in range(4)]
                       for c in range(52)], float)
    free = [c for c in range(52) if c not in parse_cards("AS KS 3H")]
    expected = np.array([10, 13, 13, 13]) / 49 * n
    stat = chisquare(counts[free].ravel(), np.tile(expected, len(free))).statistic
    # the 4 counts of a card sum to n: 3 degrees of freedom per card
    from scipy.stats import chi2
    assert chi2.sf(stat, 3 * len(free)) > 0.001
    assert (counts[parse_cards("AS KS 3H")][:, 0] == n).all()

    filt = dealing.compile_filter(SP, ["0=AS"], ["0:longest>=6"])
    masks, _ = _batch(SP, filt, n, seed=12)
    counts = np.array([[(masks[:, s] >> np.uint64(c) & np.uint64(1)).sum() for s in (1, 2, 3)]
                       for c in range(52)], float)
    rows = counts[counts.sum(axis=1) > 0]
    stat = sum(chisquare(r).statistic for r in rows)
    assert chi2.sf(stat, 2 * len(rows)) > 0.001


# ---------------------------------------------------------------- reproducibility by seed


def test_attempt_zero_is_the_ordinary_stream_and_retries_use_their_own():
    assert dealing.attempt_key(np.uint64(5), np.uint64(9), np.uint64(0), 0) == stream_key(5, 9, 0, 0)
    keys = {int(dealing.attempt_key(np.uint64(5), np.uint64(9), np.uint64(0), j)) for j in range(50)}
    keys |= {int(stream_key(5, 9, 0, c)) for c in (1, 2)} | {int(stream_key(5, 9, h, 0)) for h in range(1, 50)}
    assert len(keys) == 50 + 2 + 49


def test_conditional_deals_do_not_depend_on_where_a_batch_starts():
    filt = dealing.compile_filter(SP, None, ["0:longest>=7"])
    whole, tries = _batch(SP, filt, 300)
    part, part_tries = _batch(SP, filt, 100, start=200)
    assert (whole[200:] == part).all() and (tries[200:] == part_tries).all()


def test_impossible_conditions_stop_with_one_clear_error():
    filt = spades.GAME.deal_filter(None, ["0:suit:S>=14"])
    choice = spades.GAME.policies_from_specs(["random"])
    with pytest.raises(SimcoreError, match="no deal met the conditions in 1,000,000 attempts"):
        # two deals, not one: a one-row run compiles a kernel of its own
        spades.GAME.run_hands(1, 0, 2, SpadesRules(), choice, deal_filter=filt)


# ---------------------------------------------------------------- every game's ordinary deal


@pytest.mark.parametrize("module, rules", [(spades, SpadesRules), (euchre, EuchreRules),
                                          (gin_rummy, GinRules)])
def test_a_condition_every_deal_meets_changes_no_row(module, rules):
    """Attempt 0 deals from the ordinary stream with the game's own shuffle, so the shared
    dealing reproduces each engine's deal exactly."""
    game = module.GAME
    choice = game.policies_from_specs(["heuristic"])
    plain = game.run_hands(4, 10, 300, rules(), choice)
    filt = game.deal_filter(None, ["0:longest>=0"])
    same = game.run_hands(4, 10, 300, rules(), choice, deal_filter=filt)
    assert same["attempts"].dtype == pl.UInt32 and (same["attempts"] == 1).all()
    assert same.drop("attempts").equals(plain)


def test_game_mode_takes_predeal_and_conditions():
    game = euchre.GAME
    filt = game.deal_filter(["1=AS"], ["1:trumps>=2"])
    hands, games = game.run_games(2, 0, 5, EuchreRules(), game.policies_from_specs(["heuristic"]),
                                  deal_filter=filt)
    assert games["hands"].sum() == hands.height
    ace = np.uint64(1 << parse_card("AS"))
    assert (hands["hand1"].to_numpy() & ace == ace).all()
    for h, up in zip(hands["hand1"], hands["upcard"]):
        assert _oracle_feature("trumps", None, cards_of_hand(h), upcard=up) >= 2  # hand1 as dealt
    assert (hands["attempts"] >= 1).all()


# ---------------------------------------------------------------- bad input


@pytest.mark.parametrize("predeal, conditions, message", [
    (["0=AS,KS", "1=KS"], None, "KS is given to both 0 and 1"),
    (["0=AS,AS"], None, "duplicate card"),
    (["7=AS"], None, "not a slot of spades"),
    (["0"], None, "SEAT=CARDS"),
    (["0=" + ",".join(f"{r}H" for r in RANKS) + ",AS"], None, "14 cards given"),
    (["0=XX"], None, "malformed card"),
    (None, ["0:longest"], "malformed condition"),
    (None, ["0 longest>=5"], "malformed condition"),
    (None, ["0:longest>=five"], "malformed condition"),
    (None, ["9:longest>=5"], "unknown seat '9'"),
    (None, ["0:beauty>=5"], "unknown feature 'beauty'"),
    (None, ["0:suit:X>=2"], "unknown suit"),
])
def test_bad_predeal_and_conditions_are_one_clear_error(predeal, conditions, message):
    with pytest.raises(SimcoreError, match=message):
        spades.GAME.deal_filter(predeal, conditions)


def test_euchre_rejects_cards_outside_its_deck():
    with pytest.raises(SimcoreError, match="not in the euchre deck"):
        euchre.GAME.deal_filter(["0=2H"], None)
    with pytest.raises(SimcoreError, match="the slot holds 1"):
        euchre.GAME.deal_filter(["upcard=9H,9C"], None)
