"""Spades search policies (pimc, pimc-uniform, dd): the facts the worlds are drawn from, the
worlds weighted by the bids (against the exact posterior), hidden information, legal and
reproducible play, whole searching players, dd labelled omniscient, and a position the search
gets right where the heuristic does not."""

from __future__ import annotations

import json

import numpy as np
import polars as pl
import pytest

import simcore
import simcore.games.spades as spades
from simcore import sampling
from simcore.cards import parse_card, parse_hand
from simcore.errors import SimcoreError
from simcore.games.spades import layout as L, pimc, policies
from simcore.games.spades.rules import Rules, rules_vector

from reference.posterior import chi_square_p, exact_posterior

GAME = spades.GAME
RULES = rules_vector(Rules())
SPADE_SUIT = 0x1FFF << 39


def replay(dealer, hands, plays, bids, upto):
    """The public view (and each seat's cards, the seat to move, its legal cards and who led
    a spade before spades broke) before play number ``upto`` of a hand played from ``hands``
    with the cards ``plays`` in order (SP-7 ... SP-10, spades must be broken)."""
    v = np.zeros(L.VIEW_SIZE, np.int64)
    v[L.V_DEALER], v[L.V_TARGET] = dealer, 500
    v[L.V_BIDS:L.V_BIDS + 4] = bids
    v[L.V_PLAYED_BY:L.V_PLAYED_BY + 52] = -1
    hands = [int(h) for h in hands]
    spade_only = np.zeros(4, np.int64)
    leader, broken = (dealer + 1) & 3, False
    for k in range(upto + 1):
        t, i = divmod(k, 4)
        if i == 0 and t > 0:
            cards = [int(c) for c in v[L.V_TRICK_CARDS:L.V_TRICK_CARDS + 4]]
            best = 0
            for j in range(1, 4):
                c, b = cards[j], cards[best]
                if (c // 13 == b // 13 and c > b) or (c // 13 == 3 and b // 13 != 3):
                    best = j
            leader = (leader + best) & 3
            v[L.V_TRICKS + leader] += 1
        v[L.V_TRICK], v[L.V_LEADER], v[L.V_NPLAYED] = t, leader, i
        seat = (leader + i) & 3
        hand = hands[seat]
        led = int(v[L.V_TRICK_CARDS]) // 13
        if i == 0:
            legal = hand & ~SPADE_SUIT if not broken and hand & ~SPADE_SUIT else hand
        else:
            legal = hand & (0x1FFF << 13 * led) or hand
        if k == upto:
            return v, hands, seat, legal, spade_only
        c = plays[k]
        assert legal >> c & 1, "the replayed play is illegal"
        if i == 0 and c // 13 == 3 and not broken:
            spade_only[seat] = 1
        if i > 0 and c // 13 != led:
            v[L.V_VOIDS + seat] |= 1 << led
        if c // 13 == 3:
            broken, v[L.V_BROKEN] = True, 1
        v[L.V_TRICK_CARDS + i] = c
        v[L.V_PLAYED] |= 1 << c
        v[L.V_PLAYED_BY + c] = seat
        hands[seat] &= ~(1 << c)


# A hand the heuristic played (seed 5, deal 569): seat 0 bid nil and has taken no trick.
DEAL = ["4C 3D 4D 7D TD KD 2H 5H 6H TH 2S 7S 8S", "3C 5C 7C 9D AD 4H 7H 9H AH 4S 9S KS AS",
        "2C 6C 9C AC 5D 6D 8D 3H 8H QH KH 3S TS", "8C TC JC QC KC 2D JD QD JH 5S 6S JS QS"]
PLAYS = ("3C AC 8C 4C KH JH TH AH 4H QH 5S 6H 2D 3D AD 5D 4S TS JS 8S 6S 2S KS 3S 5C 9C TC KD "
         "JC TD 7C 2C JD 7D 9D 6D QC 5H AS 6C 7H 8H QS 2H QD 4D 9H 8D KC 7S 9S 3H").split()
BIDS = [0, 5, 2, 3]
HANDS = [int(parse_hand(h)) for h in DEAL]
CARDS = [int(parse_card(c)) for c in PLAYS]
SET_THE_NIL = 46  # play 46: seat 1, after QD (seat 3) and 4D (seat 0), holds 9H 9S


def context(truth, passed=(0, 0, 0, 0), spade_only=None):
    ctx = pimc.new_context(np.array(truth, np.uint64), np.array(passed, np.uint64), RULES)
    if spade_only is not None:
        ctx[pimc.C_SPADE_ONLY][:] = spade_only
    return ctx


def choose(policy, upto, truth=None, seed=12345):
    v, hands, seat, legal, spade_only = replay(0, HANDS, CARDS, BIDS, upto)
    st = np.array([seed], np.uint64)
    card = pimc.search_card(policy, seat, np.uint64(hands[seat]), np.uint64(legal), v, st,
                            context(truth or hands, spade_only=spade_only))
    assert st[0] == seed  # the deal's policy stream is not advanced
    return int(card), legal, v, hands, seat


def test_the_search_sets_a_nil_the_heuristic_lets_through():
    """Seat 0 (nil) holds one spade for the last trick; seat 1 can ruff QD with 9S and lead
    its heart, forcing that spade to win (the nil fails), or discard 9H under its partner's QD
    as the heuristic does, after which its 9S overruffs the nil's spade and the nil holds."""
    card, legal, v, hands, seat = choose(pimc.PIMC + 20, SET_THE_NIL)
    assert seat == 1 and legal == parse_hand("9H 9S")
    assert card == parse_card("9S")
    assert choose(pimc.DD, SET_THE_NIL)[0] == parse_card("9S")
    assert policies.heuristic_play(1, np.uint64(hands[1]), np.uint64(legal), v,
                                   np.zeros(1, np.uint64)) == parse_card("9H")
    for seed in (1, 2, 3):  # not a lucky stream
        assert choose(pimc.PIMC + 20, SET_THE_NIL, seed=seed)[0] == parse_card("9S")


def _moved(hands, a, b, card_a, card_b):
    """The hands with card_a (of seat a) and card_b (of seat b) swapped."""
    out = list(hands)
    out[a] = out[a] & ~(1 << card_a) | (1 << card_b)
    out[b] = out[b] & ~(1 << card_b) | (1 << card_a)
    return out


@pytest.mark.parametrize("upto", [20, 30, SET_THE_NIL])
def test_the_same_information_gives_the_same_choice_whatever_the_hidden_cards(upto):
    v, hands, seat, legal, _ = replay(0, HANDS, CARDS, BIDS, upto)
    # swap a hidden card of two other seats, where neither has shown a void in its suit
    others = [s for s in range(4) if s != seat]
    swapped = None
    for a in others:
        for b in others:
            for ca in range(52):
                for cb in range(52):
                    if a < b and hands[a] >> ca & 1 and hands[b] >> cb & 1 and ca // 13 != cb // 13 \
                            and not v[L.V_VOIDS + b] >> (ca // 13) & 1 \
                            and not v[L.V_VOIDS + a] >> (cb // 13) & 1 and swapped is None:
                        swapped = _moved(hands, a, b, ca, cb)
    assert swapped is not None and swapped != hands
    for policy in (pimc.PIMC + 6, pimc.PIMC + 1, pimc.INFER + 6, pimc.INFER + 1):
        assert choose(policy, upto, hands)[0] == choose(policy, upto, swapped)[0]
    st = np.array([99], np.uint64)
    bid_view = v.copy()
    bid_view[L.V_BIDS:L.V_BIDS + 4] = [-1, -1, -1, -1]
    bid_view[L.V_BIDS] = 2  # seat 0 (the dealer's left) bid first: evidence for pimc
    for policy in (pimc.PIMC + 3, pimc.INFER + 3):
        bids = [pimc.search_bid(policy, 0, 1, np.uint64(HANDS[1]), bid_view, st, context(t))
                for t in (HANDS, _moved(HANDS, 0, 2, parse_card("4C"), parse_card("2C")))]
        assert bids[0] == bids[1] and 0 <= bids[0] <= 13 and st[0] == 99


def facts(seat, hand, v, gave=0, spade_only=(0, 0, 0, 0)):
    need = np.zeros(4, np.int64)
    masks = np.zeros((3, 4), np.uint64)
    unseen = pimc.play_facts(seat, np.uint64(hand), v, np.uint64(gave),
                             np.array(spade_only, np.int64), need, masks)
    return int(unseen), need.tolist(), [int(m) for m in masks[0]], [int(m) for m in masks[1]]


def test_facts_voids_a_spade_lead_before_the_break_and_the_cards_passed():
    v, hands, seat, legal, spade_only = replay(0, HANDS, CARDS, BIDS, 30)
    unseen, need, allowed, known = facts(seat, hands[seat], v)
    assert need == [13 - sum(1 for c in range(52) if v[L.V_PLAYED_BY + c] == s)
                    if s != seat else 0 for s in range(4)]
    assert unseen == sum(1 << c for c in range(52) if v[L.V_PLAYED_BY + c] < 0) & ~hands[seat]
    for s in range(4):
        for suit in range(4):
            if v[L.V_VOIDS + s] >> suit & 1:
                assert not allowed[s] & (0x1FFF << 13 * suit)
    # a seat that led a spade before spades broke holds nothing but spades
    _, _, allowed, _ = facts(seat, hands[seat], v, spade_only=(0, 0, 0, 0) if seat == 3
                             else (0, 0, 0, 1))
    if seat != 3:
        assert allowed[3] & ~SPADE_SUIT == 0
    # the three cards a seat gave its partner in a blind-nil exchange stay known until played
    partner = (seat + 2) & 3
    three = sum(1 << c for c in [c for c in range(52) if hands[partner] >> c & 1][:3])
    unseen, need, _, known = facts(seat, hands[seat], v, gave=three)
    assert known[partner] == three and not unseen & three
    assert need[partner] == 13 - sum(1 for c in range(52) if v[L.V_PLAYED_BY + c] == partner) - 3


def test_sampled_worlds_respect_every_observation():
    v, hands, seat, legal, spade_only = replay(0, HANDS, CARDS, BIDS, 37)
    unseen, need, allowed, known = facts(seat, hands[seat], v)
    sc = sampling.new_scratch(pimc.MAX_STATES)
    assert sampling.prepare(np.uint64(unseen), np.array(need), np.array(allowed, np.uint64), 4,
                            sc) > 0
    st = np.array([3], np.uint64)
    out = np.zeros(4, np.uint64)
    for _ in range(200):
        sampling.draw(st, sc, out)
        world = [int(k) | int(o) for k, o in zip(known, out)]
        assert world[seat] == hands[seat]
        assert [bin(w).count("1") for w in world] == [bin(h).count("1") for h in hands]
        assert sum(world) | int(v[L.V_PLAYED]) == (1 << 52) - 1 and not sum(world) & int(v[L.V_PLAYED])
        for s in range(4):
            for suit in range(4):
                if v[L.V_VOIDS + s] >> suit & 1:
                    assert not world[s] & (0x1FFF << 13 * suit)


def test_the_bidder_model_is_a_distribution_and_reads_the_hand():
    for hand in HANDS:
        for partner_bid in (-1, 0, 3):
            total = sum(pimc.bid_likelihood(np.uint64(hand), b, partner_bid) for b in range(14))
            assert total == pytest.approx(1.0)
    # seat 0's hand is one the heuristic bids nil with: nil is its likeliest bid; seat 1's
    # (four aces and the king of spades) is far from nil
    like0 = [pimc.bid_likelihood(np.uint64(HANDS[0]), b, -1) for b in range(14)]
    like1 = [pimc.bid_likelihood(np.uint64(HANDS[1]), b, -1) for b in range(14)]
    assert max(range(14), key=like0.__getitem__) == 0
    assert like1[0] < 0.01 and max(range(14), key=like1.__getitem__) >= 4


def _posterior(upto):
    """The position before play ``upto``, its context (sampler prepared) and the exact
    posterior of the worlds under the bidder model: every deal of the unseen cards the card
    facts allow, weighted by the likelihood of the other seats' bids."""
    v, hands, seat, legal, spade_only = replay(0, HANDS, CARDS, BIDS, upto)
    ctx = context(hands, spade_only=spade_only)
    unseen = int(pimc.play_facts(seat, np.uint64(hands[seat]), v, np.uint64(0),
                                 ctx[pimc.C_SPADE_ONLY], ctx[pimc.C_NEED], ctx[pimc.C_MASKS]))
    assert pimc._prepare(ctx, np.uint64(unseen), False)
    need = [int(n) for n in ctx[pimc.C_NEED]]
    allowed = [int(m) for m in ctx[pimc.C_MASKS][0]]
    known = [int(m) for m in ctx[pimc.C_MASKS][1]]
    cards = [c for c in range(52) if unseen >> c & 1]
    return v, seat, ctx, exact_posterior(
        cards, allowed, need, known,
        lambda world: pimc.world_likelihood(seat, v, np.array(world, np.uint64), True))


def test_weighted_worlds_follow_the_exact_posterior_of_the_bids():
    """Two cards left per hand (90 deals of the unseen cards): the worlds pimc resamples,
    over 1,000 decisions' streams, are distributed as the exact posterior under the bidder
    model (chi-square), which is far from uniform (the same test rejects the uniform), and
    each is a deal the card facts allow."""
    v, seat, ctx, post = _posterior(44)
    keys = list(post)
    assert len(keys) > 20
    counts = dict.fromkeys(keys, 0)
    for d in range(1000):
        ctx[pimc.C_ST][0] = np.uint64(1000 + d)
        for row in pimc.weighted_worlds(ctx, v, seat, 10, True):
            counts[tuple(int(h) for h in row)] += 1  # KeyError: a world the facts rule out
    obs = np.array([counts[k] for k in keys], np.float64)
    p = np.array([post[k] for k in keys])
    assert chi_square_p(obs, p * obs.sum()) > 1e-3
    assert chi_square_p(obs, np.full(len(p), obs.sum() / len(p))) < 1e-6


def test_weighted_worlds_only_deal_what_the_facts_allow():
    v, hands, seat, legal, spade_only = replay(0, HANDS, CARDS, BIDS, 21)
    ctx = context(hands, spade_only=spade_only)
    unseen = pimc.play_facts(seat, np.uint64(hands[seat]), v, np.uint64(0),
                             ctx[pimc.C_SPADE_ONLY], ctx[pimc.C_NEED], ctx[pimc.C_MASKS])
    assert pimc._prepare(ctx, unseen, False)
    ctx[pimc.C_ST][0] = np.uint64(5)
    worlds = pimc.weighted_worlds(ctx, v, seat, 50, True)
    assert worlds.shape == (50, 4)
    for world in worlds:
        world = [int(w) for w in world]
        assert world[seat] == hands[seat]
        assert [bin(w).count("1") for w in world] == [bin(h).count("1") for h in hands]
        assert sum(world) | int(v[L.V_PLAYED]) == (1 << 52) - 1
        assert not sum(world) & int(v[L.V_PLAYED])
        for s in range(4):
            for suit in range(4):
                if v[L.V_VOIDS + s] >> suit & 1:
                    assert not world[s] & (0x1FFF << 13 * suit)
            if spade_only[s]:
                assert s == seat or not world[s] & ~SPADE_SUIT


def test_pimc_chooses_only_legal_cards():
    for upto in range(0, 52, 3):
        for policy in (pimc.PIMC + 2, pimc.INFER + 2):
            card, legal, *_ = choose(policy, upto)
            assert legal >> card & 1, upto


def run(specs, count=12, seed=11, threads=None, chunk=None, mode="hands", **kw):
    return simcore.simulate("spades", count, seed=seed, policy=specs, threads=threads,
                            chunk_size=chunk, mode=mode, **kw)


def test_reproducible_for_any_threads_and_chunks():
    specs = ["0=pimc:3", "2=pimc:3"]
    one = run(specs, threads=1).hands().collect()
    two = run(specs, threads=2, chunk=5).hands().collect()
    assert one.equals(two)


def rows_digest(game, policy):
    """A digest of 12 hands' rows (plays logged) with ``policy`` at seats 0 and 3."""
    import hashlib

    df = simcore.simulate(game, 12, seed=7, policy=[f"0={policy}", f"3={policy}"],
                          log_plays=True, threads=1).hands().collect()
    return hashlib.sha256(repr(df.rows()).encode()).hexdigest()[:16]


def test_pimc_uniform_gives_the_uniform_samplers_rows():
    """The digest of these rows under the uniform sampler (pimc drawing every world
    uniformly, bids not read): pimc-uniform plays exactly as it."""
    assert rows_digest("spades", "pimc-uniform:3") == "3b035d9cb0618ab1"


def test_a_searching_seat_makes_its_own_bids():
    df = run(["0=pimc:3", "nil=always", "blind_nil=never"], count=16).hands().collect()
    assert (df["bid1"] == 0).all() and (df["bid2"] == 0).all() and (df["bid3"] == 0).all()
    assert (df["bid0"] > 0).any()
    never = run(["0=pimc:3", "nil=never"], count=16).hands().collect()
    assert (never["bid0"] > 0).all()


def test_dd_is_omniscient_in_the_manifest_and_describe(tmp_path, capsys):
    out = tmp_path / "dd"
    run(["0=dd", "2=pimc:2"], count=6, out=str(out))
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["omniscient"] == ["dd"]
    from simcore.cli import main

    assert main(["describe", "spades"]) == 0
    text = capsys.readouterr().out
    assert "pimc:W" in text and "omniscient" in text and "DECISION=NAME" in text


def test_policy_names_and_the_built_in_rows():
    assert GAME.policies_from_specs(["0=pimc:32"]).seats[0] == "pimc:32"
    assert GAME.policies_from_specs(["0=pimc-uniform:32"]).seats[0] == "pimc-uniform:32"
    assert pimc.PLAY_POLICIES["pimc"] == pimc.INFER + pimc.DEFAULT_WORLDS
    assert pimc.PLAY_POLICIES["pimc-uniform:7"] == pimc.PIMC + 7
    for bad in ("pimc:0", "pimc:W", "pimc:x", "pimc:100000", "pimc-uniform:0",
                "pimc-uniform:W", "pimc-uniform:"):
        with pytest.raises(SimcoreError):
            GAME.policies_from_specs([f"0={bad}"])
    # a searching seat leaves the other seats' random draws alone: the dealt cards agree
    a = run(["0=pimc:2", "1=random"], count=8).hands().collect()
    b = run(["0=heuristic", "1=random"], count=8).hands().collect()
    for col in ("dealt0", "dealt1", "dealt2", "dealt3", "dealer"):
        assert a[col].equals(b[col])
    assert pl.Series(a["score0"]).len() == 8
