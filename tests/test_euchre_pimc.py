"""Euchre search policies (pimc, pimc-uniform, dd): the facts the worlds are drawn from, the
worlds weighted by the auction (against the exact posterior), hidden information,
reproducibility, whole searching players, and dd's open-hand play."""

from __future__ import annotations

import json

import numpy as np
import polars as pl
import pytest

import simcore
import simcore.games.euchre as euchre
from simcore import sampling
from simcore.cards import parse_card, parse_hand
from simcore.errors import SimcoreError
from simcore.games.euchre import deck, layout as L, pimc, solver
from simcore.games.euchre.rules import Rules

from reference.posterior import exact_posterior

GAME = euchre.GAME
TRUMP = 2  # hearts: the right bower is JH, the left JD


def internal(text):
    return int(deck.to_trump(deck.public_to_base(parse_hand(text)), TRUMP))


def card(text):
    return deck.public_card_to_trump(parse_card(text), TRUMP)


def view(dealer=0, maker=1, upcard="9H", picked=True, leader=1, played=(), voids=None):
    """A public view at a trick's start or inside it: ``played`` lists (seat, card) in order,
    every trick led by ``leader`` and won... (only the current trick's cards matter here)."""
    v = np.zeros(L.VIEW_SIZE, np.int64)
    v[L.V_DEALER], v[L.V_TRUMP], v[L.V_MAKER] = dealer, TRUMP, maker
    v[L.V_UPCARD], v[L.V_PICKED_UP] = card(upcard), picked
    v[L.V_ALONE_MAKER] = v[L.V_ALONE_DEFENDER] = -1
    v[L.V_ACTIVE] = 15
    v[L.V_LEADER] = leader
    v[L.V_PLAYED_BY:L.V_PLAYED_BY + L.INTERNAL_IDS] = -1
    for i, (seat, text) in enumerate(played):
        c = card(text)
        v[L.V_PLAYED] |= 1 << c
        v[L.V_PLAYED_BY + c] = seat
        v[L.V_TRICK_CARDS + i], v[L.V_TRICK_SEATS + i] = c, seat
    v[L.V_NPLAYED] = len(played)
    for seat, suits in (voids or {}).items():
        v[L.V_VOIDS + seat] = suits
    return v


def facts(seat, hand, v, in_play=True, discard=-1):
    need = np.zeros(pimc.HOLDERS, np.int64)
    masks = np.zeros((3, pimc.HOLDERS), np.uint64)
    unseen = pimc.play_facts(seat, np.uint64(hand), v, in_play, discard, need, masks)
    return int(unseen), need.tolist(), [int(m) for m in masks[0]], [int(m) for m in masks[1]]


def test_the_picked_up_upcard_is_the_dealers_and_its_discard_only_the_dealer_knows():
    v = view(dealer=0, upcard="9H", picked=True)
    # seat 1 (not the dealer): the dealer holds 9H and four unknown cards, the kitty four
    unseen, need, allowed, known = facts(1, internal("AS KS QC TD 9D"), v)
    assert known[0] == 1 << card("9H") and need == [4, 0, 5, 5, 4]
    assert not unseen >> card("9H") & 1 and bin(unseen).count("1") == 18
    # the dealer itself: it knows its discard lies in the kitty
    dealer_hand = internal("9H JH AH KC QS")
    unseen, need, allowed, known = facts(0, dealer_hand, v, discard=card("9C"))
    assert known[pimc.KITTY] == 1 << card("9C") and need == [0, 5, 5, 5, 3]
    # turned down: the upcard is a kitty card every seat has seen
    unseen, need, _, known = facts(1, internal("AS KS QC TD 9D"), view(picked=False))
    assert known[pimc.KITTY] == 1 << card("9H") and need == [5, 0, 5, 5, 3]


def test_a_void_in_trumps_rules_out_the_left_bower_and_played_cards_are_gone():
    # seat 2 did not follow a trump lead: no trumps, the left bower (JD) included
    v = view(leader=1, played=[(1, "JH"), (2, "AS")], voids={2: 1 << TRUMP})
    unseen, need, allowed, known = facts(3, internal("QS KD AD TC 9C"), v)
    assert not allowed[2] >> card("JD") & 1 and not allowed[2] >> card("QH") & 1
    assert allowed[1] >> card("JD") & 1
    assert need[1] == 4 and need[2] == 4  # one card played each
    assert not unseen >> card("JH") & 1 and not unseen >> card("AS") & 1


def _worlds(seat, hand, v, n=300):
    unseen, need, allowed, known = facts(seat, hand, v)
    sc = sampling.new_scratch(pimc.MAX_STATES)
    assert sampling.prepare(np.uint64(unseen), np.array(need), np.array(allowed, np.uint64),
                            pimc.HOLDERS, sc) > 0
    st = np.array([3], np.uint64)
    out = np.zeros(pimc.HOLDERS, np.uint64)
    for _ in range(n):
        sampling.draw(st, sc, out)
        yield [int(k) | int(o) for k, o in zip(known, out)]


def test_sampled_worlds_respect_every_observation():
    v = view(leader=1, played=[(1, "JH"), (2, "AS")], voids={2: 1 << TRUMP})
    hand = internal("QS KD AD TC 9C")
    for w in _worlds(3, hand, v):
        assert w[3] == hand and w[0] >> card("9H") & 1  # own hand; the dealer's upcard
        assert not w[2] & (0x1FFF << 13 * TRUMP)  # the void
        assert [bin(m).count("1") for m in w] == [5, 4, 4, 5, 4]
        everything = w[0] | w[1] | w[2] | w[3] | w[4] | (1 << card("JH")) | (1 << card("AS"))
        assert everything == int(deck.to_trump(deck.BASE_DECK, TRUMP))


def _ctx(truth):
    return pimc.new_context(np.array([internal(h) for h in truth], np.uint64))


TRUTHS = (["9H JH AH KC QS", "AS KS QC TD 9D", "TH QH KH 9S TS", "JS JC AC 9C TC"],
          ["9H TH QH KH AC", "AS KS QC TD 9D", "JH AH KC QS JS", "JC 9C TC 9S TS"])


@pytest.mark.parametrize("policy", [pimc.PIMC + 6, pimc.PIMC + 1, pimc.INFER + 6, pimc.INFER + 1])
def test_the_same_information_gives_the_same_choice_whatever_the_hidden_cards(policy):
    hand = internal("AS KS QC TD 9D")
    st = np.array([12345], np.uint64)
    lead = [pimc.search_card(policy, 1, np.uint64(hand), np.uint64(hand), view(), st, _ctx(t))
            for t in TRUTHS]
    assert lead[0] == lead[1]
    base_hand = np.uint64(deck.public_to_base(parse_hand("AS KS QC TD 9D")))
    for seat in (1, 3):  # seat 3 read the passes of seats 1 and 2
        order = [pimc.search_order_up(policy, seat, 0, base_hand, 13 * 2 + 0, st, _ctx(t))
                 for t in TRUTHS]
        assert order[0] == order[1]
    named = [pimc.search_name_trump(policy, 3, 0, base_hand, 2, False, st, _ctx(t))
             for t in TRUTHS]
    assert named[0] == named[1]
    assert st[0] == 12345  # the deal's stream is not advanced


# Round one, seat 0 dealt: seats 1 and 2 passed, seat 3 ordered up 9H, the dealer took it;
# four tricks played (the cards below in order, seat by seat), seat 1 to lead the last.
DEALT = ["9H JH AH KC QS", "AS KS QC TD 9D", "TH QH KH 9S TS", "JS JC AC 9C TC"]
LAST = {0: "JH", 1: "9D", 2: "TS", 3: "TC"}  # each seat's fifth card (seat 0: after 9H came in)


def _late_view():
    v = view(dealer=0, maker=3, upcard="9H", picked=True, leader=1)
    for seat, hand in enumerate(DEALT):
        for text in hand.split():
            if text != LAST[seat]:
                v[L.V_PLAYED] |= 1 << card(text)
                v[L.V_PLAYED_BY + card(text)] = seat
    v[L.V_TRICK] = 4
    return v


def _auction_posterior(v, seat):
    """The exact posterior of the worlds under the bidder model: every deal of the unseen
    cards the facts allow, weighted by the auction's likelihood given the dealt hands (each
    seat's cards in the world and the cards it played, in base order)."""
    unseen, need, allowed, known = facts(seat, internal(LAST[seat]), v)
    cards = [c for c in range(64) if unseen >> c & 1]
    upcard = int(deck.from_trump(np.uint64(1 << card("9H")), TRUMP)).bit_length() - 1
    usable = np.array([False, True, True, True])  # the dealer swapped a card in

    def likelihood(world):
        dealt = np.array([deck.from_trump(np.uint64(world[s] | sum(
            1 << c for c in range(L.INTERNAL_IDS) if v[L.V_PLAYED_BY + c] == s)), TRUMP)
            for s in range(4)], np.uint64)
        return pimc.auction_likelihood(seat, 0, dealt, usable, upcard, 2, -1, 0, 3, -1)

    return exact_posterior(cards, allowed, need, known, likelihood), known, unseen


def test_weighted_worlds_follow_the_exact_posterior_of_the_auction():
    """One card left per hand and four in the kitty: the worlds pimc resamples over 1,000
    decisions' streams are distributed as the exact posterior under the bidder model
    (chi-square), which is not the uniform (the same test rejects it), and each is a deal
    the card facts allow."""
    from scipy.stats import chisquare

    v = _late_view()
    post, known, unseen = _auction_posterior(v, 1)
    keys = list(post)
    assert len(keys) > 20
    ctx = _ctx(DEALT)
    hand = internal(LAST[1])
    assert pimc.play_facts(1, np.uint64(hand), v, True, -1, ctx[2], ctx[3]) == unseen
    assert pimc._prepare(ctx, np.uint64(unseen), False)
    counts = dict.fromkeys(keys, 0)
    for d in range(1000):
        ctx[10][0] = np.uint64(7000 + d)
        for row in pimc._made_pool(ctx, pimc.INFER + 10, 10, 1, v, True):
            counts[tuple(int(r) | k for r, k in zip(row, known))] += 1  # KeyError: ruled out
    obs = np.array([counts[k] for k in keys], np.float64)
    p = np.array([post[k] for k in keys])
    expected = p * obs.sum()
    small = expected < 5  # merged into one cell
    assert (~small).sum() >= 20
    assert chisquare(np.append(obs[~small], obs[small].sum()),
                     np.append(expected[~small], expected[small].sum())).pvalue > 1e-3
    assert chisquare(obs, np.full(len(p), obs.sum() / len(p))).pvalue < 1e-6
    # pimc-uniform reads nothing: no pool, the worlds are drawn one by one
    assert pimc._made_pool(ctx, pimc.PIMC + 10, 10, 1, v, True).shape[0] == 0


def test_the_bidder_model_follows_the_heuristic():
    strong = deck.public_to_base(parse_hand("JH JD AH KH AS"))
    weak = deck.public_to_base(parse_hand("9C TC 9S TD QS"))
    dealt = np.array([weak, strong, weak, weak], np.uint64)
    usable = np.ones(4, np.bool_)
    upcard = int(deck.public_to_base(parse_hand("9H"))).bit_length() - 1
    # seat 1 passing with the strong hand is unlikely; seat 2 passing with a weak one likely
    passes_strong = pimc.auction_likelihood(0, 0, dealt, usable, upcard, 1, -1, 0, -1, -1)
    dealt[1], dealt[2] = weak, strong
    passes_weak = pimc.auction_likelihood(0, 0, dealt, usable, upcard, 1, -1, 0, -1, -1)
    assert passes_strong < 0.1 < 0.9 < passes_weak
    # its own calls are not evidence for a seat
    assert pimc.auction_likelihood(1, 0, dealt, usable, upcard, 1, -1, 0, -1, -1) == 1.0


def run(specs, count=40, seed=11, threads=None, chunk=None, mode="hands", **kw):
    return simcore.simulate("euchre", count, seed=seed, policy=specs, threads=threads,
                            chunk_size=chunk, mode=mode, **kw)


def test_reproducible_for_any_threads_and_chunks():
    specs = ["0=pimc:4", "2=pimc:4"]
    one = run(specs, threads=1).hands().collect()
    two = run(specs, threads=2, chunk=15).hands().collect()
    assert one.equals(two)


def test_a_searching_seat_makes_its_own_decisions():
    df = run(["1=pimc:4", "order_up=never", "name_trump=never"], count=120, seed=3,
             rules={"stick_the_dealer": True}).hands().collect()
    assert df.filter(pl.col("maker") != 1).filter(pl.col("bid_round") == 1).height == 0
    assert df.filter((pl.col("maker") == 1) & (pl.col("bid_round") == 1)).height > 0
    # only seat 1 names a suit unless stuck (the dealer)
    named = df.filter((pl.col("bid_round") == 2) & (pl.col("maker") != 1))
    assert (named["maker"] == named["dealer"]).all()


def test_dd_is_omniscient_in_the_manifest_and_describe(tmp_path, capsys):
    out = tmp_path / "dd"
    run(["0=dd", "2=pimc:2"], count=20, out=str(out))
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["omniscient"] == ["dd"]
    from simcore.cli import main

    assert main(["describe", "euchre"]) == 0
    text = capsys.readouterr().out
    assert "pimc:W" in text and "omniscient" in text and "DECISION=NAME" in text


def test_four_dd_seats_score_the_open_hand_value():
    """Every seat dd: each hand scores what the open-hand solution of the dealt cards (after
    the pickup and discard made) gives, as the players maximise their side's points."""
    df = run(["dd"], count=60, seed=5).hands().collect().filter(pl.col("maker") >= 0)
    tab = solver.new_tables(1)
    from simcore.solver import table_of

    t = table_of(tab, 0)
    checked = 0
    for row in df.iter_rows(named=True):
        if row["alone_maker"] >= 0 and row["alone_defender"] >= 0:
            continue
        hands = np.array([row[f"hand{s}"] for s in range(4)], np.uint64)
        if row["picked_up"]:
            d = row["dealer"]
            hands[d] = (hands[d] | np.uint64(1 << row["upcard"])) & ~np.uint64(1 << row["discard"])
        alone = row["alone_maker"] if row["alone_maker"] >= 0 else row["alone_defender"]
        if alone >= 0:
            hands[alone ^ 2] = 0
        from simcore.games.euchre.engine import first_leader

        leader = first_leader(row["dealer"], row["alone_maker"], row["alone_defender"])
        v = solver.solve_value(hands, leader, np.zeros(1, np.int64), 0, row["trump"], alone, t)
        want = pimc.net_points(v, 0, row["maker"], row["alone_maker"], row["alone_defender"])
        assert row["points0"] - row["points1"] == want, row
        checked += 1
    assert checked > 40


def test_policy_names():
    assert GAME.policies_from_specs(["0=pimc:32"]).seats[0] == "pimc:32"
    assert GAME.policies_from_specs(["0=pimc-uniform:32"]).seats[0] == "pimc-uniform:32"
    assert pimc.search_id("pimc") == pimc.INFER + pimc.DEFAULT_WORLDS
    assert pimc.search_id("pimc-uniform:5") == pimc.PIMC + 5
    for bad in ("pimc:0", "pimc:W", "pimc:x", "pimc:", "pimc:100000", "pimc-uniform:0",
                "pimc-uniform:W"):
        with pytest.raises(SimcoreError):
            GAME.policies_from_specs([f"0={bad}"])
    assert "pimc:W" in ", ".join(GAME.play_policies) and "dd" in GAME.play_policies


def test_searching_does_not_move_the_other_seats_random_draws():
    """pimc draws from its own streams, never the deal's: a random seat facing a searching
    partnership makes the draws it makes facing the heuristic.  Seen where nothing differs
    yet: each deal's first card when seat 1 (random) leads before any search has played."""
    specs = [["0=pimc:2", "1=random", "2=pimc:2", "3=heuristic"],
             ["0=heuristic", "1=random", "2=heuristic", "3=heuristic"]]
    a, b = (run(s, count=60, log_plays=True, rules={"first_dealer": "0"}).hands().collect()
            for s in specs)
    for col in ("hand0", "hand1", "hand2", "hand3", "kitty", "upcard"):
        assert a[col].equals(b[col])
    same = (a["bid_round"] == b["bid_round"]) & (a["trump"] == b["trump"]) & (a["maker"] == b["maker"])
    same &= (a["alone_maker"] < 0) & (b["alone_maker"] < 0) & (a["alone_defender"] < 0)
    same &= (a["picked_up"] == b["picked_up"]) & (a["discard"] == b["discard"]) & (a["trump"] >= 0)
    first = [x[0] if len(x) else None for x in a["plays"]]
    first_b = [x[0] if len(x) else None for x in b["plays"]]
    rows = [i for i in range(a.height) if same[i]]
    assert rows and all(first[i] == first_b[i] for i in rows)


# ---------------------------------------------------------------- the decisions before the play


def _beats(c, best, trump):
    """A trump-order card beats the trick's best: higher in its suit, or a trump over a non-trump."""
    return c // 13 == best // 13 and c > best or c // 13 == trump and best // 13 != trump


def _oracle_play_out(hands, trump, maker, dealer, up, picked, lone_m, lone_d):
    """play_out by hand: every seat asks the heuristic for its card, seat by seat, trick by trick."""
    from simcore.games.euchre import policies
    from simcore.games.euchre.engine import first_leader

    hands = [int(h) for h in hands]
    out = {lone ^ 2 for lone in (lone_m, lone_d) if lone >= 0}
    seats_in = [s for s in range(4) if s not in out]
    active = sum(1 << s for s in seats_in)
    kitty = 1 << up if up >= 0 and not picked else 0
    leader, played, side0 = int(first_leader(dealer, lone_m, lone_d)), 0, 0
    for _ in range(5):
        order = [(leader + i) % 4 for i in range(4) if (leader + i) % 4 in seats_in]
        cards = []
        for i, s in enumerate(order):
            same = hands[s] & (0x1FFF << 13 * (cards[0] // 13)) if cards else 0
            legal = same or hands[s]
            pad = cards + [0] * (4 - len(cards))
            seats = order[:len(cards)] + [0] * (4 - len(cards))
            c = int(policies.heuristic_card(s, np.uint64(hands[s]), np.uint64(legal), trump, maker,
                                            i, np.uint64(played), np.uint64(kitty), active, *pad,
                                            *seats))
            assert legal >> c & 1
            hands[s] &= ~(1 << c)
            played |= 1 << c
            cards.append(c)
        best = 0
        for i in range(1, len(cards)):
            if _beats(cards[i], cards[best], trump):
                best = i
        leader = order[best]
        side0 += leader % 2 == 0
    return side0


def test_the_play_out_is_the_heuristic_playing_every_seat():
    """pimc's play-out of a world (the value of a decision before the play) is the hand the
    heuristic plays at every seat, lone hands included; against a slow replay on random deals."""
    rng = np.random.default_rng(7)
    scratch = np.zeros(8, np.int64)
    for k in range(60):
        trump = int(rng.integers(4))
        deck_cards = [c for c in range(64) if int(deck.to_trump(deck.BASE_DECK, trump)) >> c & 1]
        rng.shuffle(deck_cards)
        hands = [sum(1 << c for c in deck_cards[5 * s:5 * s + 5]) for s in range(4)]
        up = deck_cards[20]
        maker, dealer = int(rng.integers(4)), int(rng.integers(4))
        lone_m = maker if k % 3 == 1 else -1
        lone_d = (maker + 1) % 4 if k % 5 == 2 else -1
        picked = bool(k % 2)
        want = _oracle_play_out(hands, trump, maker, dealer, up, picked, lone_m, lone_d)
        got = pimc.play_out(np.array(hands, np.uint64), trump, maker, dealer, up, picked, lone_m,
                            lone_d, scratch)
        assert got == want, (k, hands)


# A lone hand that marches open-handed but not as the cards are really played: hearts named in
# round two (the ace of spades turned down, seat 3 dealing), seat 1 holds the right bower, the
# ace and ten of hearts and the king and ten of clubs.  Alone, its partner's ace of clubs sits
# out: open-handed, seat 1 knows it and takes all five tricks; played by what each seat can
# see, it does not.
LONE = ["9C 9H QH TS JS", "TC KC TH JH AH", "JC 9D TD JD AD", "AC KD KH QS KS"]
LONE_DEALER = 3


def test_a_lone_hand_that_needs_a_guess_is_declined():
    truth = np.array([internal(h) for h in LONE], np.uint64)
    v = view(dealer=LONE_DEALER, maker=1, upcard="AS", picked=False)
    hand = np.uint64(truth[1])
    st = np.array([99], np.uint64)
    # the open-hand value of the true deal: a march alone, so dd (open-handed) goes alone
    tab = solver.new_tables(1)
    from simcore.solver import table_of
    from simcore.games.euchre.engine import first_leader

    pub = np.array([deck.base_to_public(deck.from_trump(h, TRUMP)) for h in truth], np.uint64)
    pub[3] = 0
    alone_tricks = solver.solve_value(pub, first_leader(LONE_DEALER, 1, -1),
                                      np.zeros(1, np.int64), 0, TRUMP, 1, table_of(tab, 0))
    assert alone_tricks == 0  # seats 0+2 take nothing: seat 1 takes all five open-handed
    assert pimc.search_go_alone(pimc.DD, 1, hand, v, st, _ctx(LONE))
    # played out by the heuristic, the same deal does not march
    played = pimc.play_out(truth.copy(), TRUMP, 1, LONE_DEALER, card("AS"), False, 1, -1,
                           np.zeros(8, np.int64))
    assert played > 0
    # pimc values the lone hand by play-outs and plays with its partner
    assert not pimc.search_go_alone(pimc.PIMC + 16, 1, hand, v, st, _ctx(LONE))
    assert st[0] == 99


@pytest.mark.parametrize("policy", [pimc.PIMC + 6, pimc.PIMC + 1])
def test_the_same_information_gives_the_same_call_whatever_the_hidden_cards(policy):
    """The decisions before the play, like the cards: the same seat information (its hand, the
    table) with different hidden cards gives the same answer."""
    base_hand = np.uint64(deck.public_to_base(parse_hand("AS KS QC TD 9D")))
    st = np.array([777], np.uint64)
    names = [pimc.search_name_trump(policy, 1, 0, base_hand, 2, False, st, _ctx(t)) for t in TRUTHS]
    assert names[0] == names[1]
    hand = np.uint64(internal("AS KS QC TD 9D"))
    alone = [pimc.search_go_alone(policy, 1, hand, view(maker=1, picked=True), st, _ctx(t))
             for t in TRUTHS]
    assert alone[0] == alone[1]
    assert st[0] == 777
