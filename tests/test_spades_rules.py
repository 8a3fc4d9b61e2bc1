"""Spades: one or more tests per rule of docs/rules/spades.md (SP-1 ... SP-16).

Evidence of three kinds:
- hand-worked numbers on the pure scoring functions (the rules file's own examples);
- the engine's jitted pieces called directly on built positions (bidding, the blind-nil
  exchange);
- real deals from ``run_hands`` / ``run_games`` that exhibit a situation, checked against the
  rule directly (the full replay against a plain-Python referee is in test_spades_engine.py).
"""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest

from reference import spades as ref
from simcore.cards import format_card, hand_from_cards, parse_cards, parse_hand, popcount
from simcore.errors import SimcoreError
from simcore.games import get
from simcore.games.spades import engine, layout, policies
from simcore.games.spades.rules import Rules, rules_vector
from simcore.games.spades.scoring import game_winner, score_side
from simcore.rng import below, stream_key

GAME = get("spades")
SEATS = range(4)
SPADE = 3


def side(bid_a, tricks_a, bid_b, tricks_b, bags_before=0, blind_a=False, blind_b=False,
         rules=Rules()):
    """score_side with the rules' values: (score, bags, contract, nil_points, penalty, carried)."""
    return tuple(int(v) for v in score_side(
        bid_a, blind_a, tricks_a, bid_b, blind_b, tricks_b, bags_before, rules.bag_limit,
        rules.bag_penalty, rules.nil_value, rules.blind_nil_value))


@pytest.fixture(scope="module")
def random_rows():
    """Random bids (nil and blind nil included) and random play: every situation is common."""
    choice = GAME.policies_from_specs(["random"])
    return GAME.run_hands(11, 0, 3000, Rules(), choice, log_plays=True)


@pytest.fixture(scope="module")
def heuristic_rows():
    choice = GAME.policies_from_specs(["heuristic"])
    return GAME.run_hands(12, 0, 2000, Rules(), choice, log_plays=True)


# ---------------------------------------------------------------- players, deck, ranks


def test_sp1_partners_sit_opposite_and_score_together(random_rows):
    for row in random_rows.head(300).iter_rows(named=True):
        for p in (0, 1):
            bids = [row[f"bid{p}"], row[f"bid{p + 2}"]]
            expect = sum(b for b in bids if b > 0)
            assert row[f"contract{p}"] == expect


def test_sp1_play_passes_to_the_left(random_rows):
    """Within a trick the card at position i comes from seat leader + i (checked by replaying
    with the hands each seat holds)."""
    for row in random_rows.head(200).iter_rows(named=True):
        ref.replay([row[f"hand{s}"] for s in SEATS], row["dealer"], row["plays"])


def test_sp2_a_low_spade_beats_the_ace_of_the_led_suit():
    ah, kh, two_s, qh = parse_cards("AH KH 2S QH")
    assert ref.trick_winner([kh, ah, two_s, qh], leader=0) == 2
    # the engine's rule (tricks.beats with spades trump) agrees
    from simcore.tricks import beats

    assert beats(two_s, ah, SPADE)
    assert not beats(ah, two_s, SPADE)
    assert beats(ah, kh, SPADE)


def test_sp2_spades_always_trump_in_logged_tricks(random_rows):
    seen = 0
    for row in random_rows.head(500).iter_rows(named=True):
        plays = row["plays"]
        for t in range(13):
            trick = plays[4 * t: 4 * t + 4]
            spades = [c for c in trick if c // 13 == SPADE]
            if spades and trick[0] // 13 != SPADE:
                seen += 1
                leader = (row["trick_winners"][t - 1] if t else (row["dealer"] + 1) % 4)
                winner = row["trick_winners"][t]
                assert trick[(winner - leader) % 4] == max(spades)
    assert seen > 100


# ---------------------------------------------------------------- deal and bidding


def test_sp3_thirteen_cards_each_and_a_random_dealer_per_deal(random_rows):
    for row in random_rows.head(200).iter_rows(named=True):
        dealt = [row[f"dealt{s}"] for s in SEATS]
        assert [popcount(h) for h in dealt] == [13] * 4
        assert hand_from_cards(range(52)) == dealt[0] | dealt[1] | dealt[2] | dealt[3]
    st = np.zeros(1, np.uint64)
    for row in random_rows.head(100).iter_rows(named=True):
        st[0] = stream_key(np.uint64(11), row["deal"], 0, 1)
        assert row["dealer"] == below(st, 4)
    counts = random_rows["dealer"].value_counts()["count"].to_list()
    assert len(counts) == 4 and min(counts) > 600


def test_sp3_first_dealer_is_drawn_per_game_and_the_deal_passes_left():
    hands, games = GAME.run_games(5, 0, 40, Rules(target=150), GAME.policies_from_specs([]))
    st = np.zeros(1, np.uint64)
    for g, group in hands.group_by("game"):
        group = group.sort("hand_no")
        st[0] = stream_key(np.uint64(5), g[0], 0, 1)
        first = below(st, 4)
        assert group["dealer"].to_list() == [(first + h) % 4 for h in group["hand_no"].to_list()]


def test_sp3_a_fixed_first_dealer_deals_every_hand_and_keeps_the_cards():
    """first_dealer=SEAT (a rules option): every deal of a hands run has that dealer and the very
    cards of the same deal with a random dealer (the dealer's draw has its own stream); in games
    mode the first hand's dealer is SEAT and the deal still passes left."""
    plain = GAME.run_hands(11, 0, 60, Rules(), GAME.policies_from_specs([]))
    fixed = GAME.run_hands(11, 0, 60, Rules(first_dealer="2"), GAME.policies_from_specs([]))
    assert (fixed["dealer"] == 2).all() and plain["dealer"].n_unique() == 4
    for s in SEATS:
        assert fixed[f"dealt{s}"].to_list() == plain[f"dealt{s}"].to_list()
    hands, _ = GAME.run_games(5, 0, 10, Rules(target=150, first_dealer="3"), GAME.policies_from_specs([]))
    for _, group in hands.group_by("game"):
        group = group.sort("hand_no")
        assert group["dealer"].to_list() == [(3 + h) % 4 for h in group["hand_no"].to_list()]


def test_sp4_bids_run_0_to_13_and_the_contract_is_the_sum_of_non_nil_bids(random_rows):
    bids = random_rows.select(pl.concat_list([f"bid{s}" for s in SEATS])).to_series().explode()
    assert bids.min() == 0 and bids.max() == 13
    # the source's example: 4, 3, 2, 2 around the table -> 6 and 5
    assert side(4, 0, 2, 0)[2] == 6
    assert side(3, 0, 2, 0)[2] == 5


def test_sp4_bidding_starts_left_of_the_dealer_and_sees_earlier_bids():
    """Heuristic bidders cap their bid at 13 minus the partner's: only possible if the partner
    (earlier in the order) has already bid."""
    hand = parse_hand("AS KS QS JS TS 9S 8S 7S AH KH AD KD AC")
    view = np.zeros(layout.VIEW_SIZE, np.int64)
    view[layout.V_BIDS:layout.V_BIDS + 4] = -1
    view[layout.V_BIDS + 2] = 6
    assert policies.choose_bid(1, 0, 0, np.uint64(hand), view, np.zeros(1, np.uint64)) == 7
    view[layout.V_BIDS + 2] = -1
    assert policies.choose_bid(1, 0, 0, np.uint64(hand), view, np.zeros(1, np.uint64)) == 13


def test_sp5_nil_scores_100_or_minus_100_and_partner_keeps_their_bid():
    # nil made, partner bid 4 and took 5: 40 + 1 bag + 100
    assert side(0, 0, 4, 5)[:4] == (141, 1, 4, 100)
    # nil failed with 1 trick, partner made 4 exactly: 40 + 1 (the nil trick is a bag) - 100
    assert side(0, 1, 4, 4)[:4] == (-59, 1, 4, -100)


def test_sp5_both_partners_nil_score_each_on_their_own():
    assert side(0, 0, 0, 0)[0] == 200
    assert side(0, 2, 0, 3)[0] == -200 + 5
    assert side(0, 0, 0, 4)[0] == 0 + 4  # one made, one failed: 0 net, plus the 4 bags


def test_sp6_blind_nil_scores_200():
    assert side(0, 0, 5, 5, blind_a=True)[0] == 250
    assert side(0, 1, 5, 5, blind_a=True)[0] == 50 + 1 - 200
    assert side(0, 0, 0, 0, blind_a=True, blind_b=True)[0] == 400
    assert side(0, 0, 0, 1, blind_a=True, blind_b=True)[0] == 1


def _exchange(hands, blind):
    hands = np.array(hands, np.uint64)
    view = np.zeros(layout.VIEW_SIZE, np.int64)
    for s in SEATS:
        view[layout.V_BLIND + s] = int(blind[s])
        view[layout.V_BIDS + s] = 0 if blind[s] else 3
    passed = np.zeros(4, np.uint64)
    engine.blind_nil_exchange(np.zeros(1, np.uint64), hands, np.ones(4, np.int64),
                              np.zeros(3, np.int64), view, passed)
    return [int(h) for h in hands], [int(p) for p in passed]


DEAL = [
    parse_hand("AS KS QS 2S 3H 4H 5H 6D 7D 8D 9C TC JC"),
    parse_hand("JS TS 9S 8S AH KH QH JH AD KD QD AC KC"),
    parse_hand("7S 6S 5S 4S 2H TH 9H 2D 3D 4D 2C 3C 4C"),
    parse_hand("3S 6H 7H 8H 5D 9D TD JD 5C 6C 7C 8C QC"),
]


def test_sp6_blind_nil_bidder_and_partner_exchange_three_cards():
    hands, passed = _exchange(DEAL, [True, False, False, False])
    assert passed[0] == parse_hand("AS KS QS")  # the blind bidder sheds its top spades
    assert passed[2] == parse_hand("2H 2D 2C")  # the partner gives its lowest non-spades
    assert hands[0] == (DEAL[0] & ~passed[0]) | passed[2]
    assert hands[2] == (DEAL[2] & ~passed[2]) | passed[0]
    assert hands[1] == DEAL[1] and hands[3] == DEAL[3] and passed[1] == passed[3] == 0


def test_sp6_no_exchange_when_both_partners_bid_blind_nil():
    hands, passed = _exchange(DEAL, [True, False, True, False])
    assert hands == [int(h) for h in DEAL] and passed == [0, 0, 0, 0]
    hands, passed = _exchange(DEAL, [True, True, True, False])
    assert hands[0] == DEAL[0] and hands[2] == DEAL[2]
    assert popcount(passed[1]) == popcount(passed[3]) == 3


def test_sp6_exchanges_in_random_deals_match_the_blind_bids(random_rows):
    blind_rows = random_rows.filter(pl.any_horizontal([pl.col(f"blind{s}") for s in SEATS]))
    assert blind_rows.height > 200
    exchanged = 0
    for row in blind_rows.iter_rows(named=True):
        ref.check_exchange([row[f"dealt{s}"] for s in SEATS], [row[f"hand{s}"] for s in SEATS],
                           [row[f"passed{s}"] for s in SEATS], [row[f"blind{s}"] for s in SEATS])
        exchanged += any(row[f"passed{s}"] for s in SEATS)
    assert exchanged > 100


def _bid(rules, totals=(0, 0), mode=3, dealer=3, hands=DEAL):
    view = np.zeros(layout.VIEW_SIZE, np.int64)
    view[layout.V_TOTAL], view[layout.V_TOTAL + 1] = totals
    view[layout.V_TARGET] = rules.target
    modes = np.zeros(3, np.int64)
    modes[policies.M_BLIND_NIL] = mode
    hands = np.array(hands, np.uint64)
    engine.bidding(np.zeros(1, np.uint64), hands, dealer, rules_vector(rules), np.ones(4, np.int64),
                   modes, view, engine.no_search(hands, None, None))
    return ([int(b) for b in view[layout.V_BIDS:layout.V_BIDS + 4]],
            [bool(b) for b in view[layout.V_BLIND:layout.V_BLIND + 4]])


def test_sp6_blind_nil_option_and_minimum_deficit():
    assert _bid(Rules())[1] == [True] * 4  # decision blind_nil=always, allowed everywhere
    assert _bid(Rules(blind_nil=False))[1] == [False] * 4
    # only a side trailing by at least the minimum may bid it
    bids, blind = _bid(Rules(blind_nil_min_deficit=100), totals=(250, 100))
    assert blind == [False, True, False, True]
    assert _bid(Rules(blind_nil_min_deficit=100), totals=(150, 100))[1] == [False] * 4


def test_sp6_blind_nil_timing_before_bidding_declares_before_any_bid():
    """With the heuristic decision a seat does not bid blind nil when its partner already bid
    nil.  At its own turn (dealer 0: seat 1 bids before seat 3) seat 3 sees seat 1's blind nil
    and stays out; declared before bidding (in order, before any look) the same holds, but
    nobody has *bid* yet, so a normal bid never precedes a blind declaration."""
    for timing in ("own_turn", "before_bidding"):
        bids, blind = _bid(Rules(blind_nil_timing=timing), totals=(400, 0), mode=2, dealer=0)
        assert blind == [False, True, False, False], timing
        assert bids[1] == 0 and min(bids[0], bids[2], bids[3]) >= 1


# ---------------------------------------------------------------- play


def test_sp7_the_player_left_of_the_dealer_leads_first(random_rows):
    for row in random_rows.head(300).iter_rows(named=True):
        leader = (row["dealer"] + 1) % 4
        assert (row["hand" + str(leader)] >> row["plays"][0]) & 1


def test_sp7_no_spade_lead_before_spades_break_unless_only_spades(random_rows):
    only_spades_leads = 0
    for row in random_rows.iter_rows(named=True):
        r = ref.replay([row[f"hand{s}"] for s in SEATS], row["dealer"], row["plays"])
        leaders = [(row["dealer"] + 1) % 4] + r.trick_winners[:12]
        held = [ref.cards_of(row[f"hand{s}"]) for s in SEATS]
        for t in range(13):
            lead = row["plays"][4 * t]
            if lead // 13 == SPADE and t <= r.spades_broken_trick:
                # a spade lead that breaks spades: the leader held nothing else
                assert all(c // 13 == SPADE for c in held[leaders[t]])
                only_spades_leads += 1
            for i in range(4):
                held[(leaders[t] + i) % 4].discard(row["plays"][4 * t + i])
    assert only_spades_leads > 0


# Fixed hands for the ``must_break_spades`` tests: every seat holds spades and other suits,
# seat s holding _SPADES_HELD[s] spades, so a spade lead before spades break is legal only
# with the option off.
_SPADES_HELD = (1, 4, 6, 2)


def _fixed_hands_filter():
    spades = list(range(39, 52))
    others = list(range(39))
    hands, taken = {}, 0
    for s, k in enumerate(_SPADES_HELD):
        cards = spades[:k] + others[taken:taken + 13 - k]
        spades, taken = spades[k:], taken + 13 - k
        hands[str(s)] = " ".join(format_card(c) for c in cards)
    return GAME.deal_filter(hands)


@pytest.mark.parametrize("fast_path", [True, False])
def test_must_break_spades_off_random_leads_a_spade_at_its_share_of_the_leaders_hand(
        monkeypatch, fast_path):
    """With the option off, ``random`` leads uniformly from the whole hand: the first lead is a
    spade with probability (spades held) / 13 for each leader; with it on, never (every seat
    holds other cards).  Both play paths (the all-random fast path and the general one)."""
    import simcore.games.spades as spades_pkg

    monkeypatch.setattr(spades_pkg, "RANDOM_FAST_PATH", fast_path)
    choice = GAME.policies_from_specs(["random"])
    deals = _fixed_hands_filter()
    n = 4000
    for must_break in (False, True):
        rows = GAME.run_hands(31, 0, n, Rules(must_break_spades=must_break), choice,
                              log_plays=True, deal_filter=deals)
        first = rows.select(leader=(pl.col("dealer") + 1) % 4,
                            spade=pl.col("plays").list.first() // 13 == SPADE)
        if must_break:
            assert not first["spade"].any()
            continue
        for (leader,), group in first.group_by("leader"):
            p = _SPADES_HELD[leader] / 13
            sd = (p * (1 - p) / group.height) ** 0.5
            assert abs(group["spade"].mean() - p) < 4.5 * sd, (leader, group["spade"].mean(), p)
        for row in rows.head(300).iter_rows(named=True):
            ref.check_row(row, Rules(must_break_spades=False))


@pytest.mark.parametrize("policy", ["random", "heuristic"])
def test_must_break_spades_on_never_leads_a_spade_before_they_break(policy):
    """The default (SP-7): whatever the policy, a spade is led before spades broke only by a
    leader holding nothing else.  The fixed hands make that impossible in trick 1."""
    choice = GAME.policies_from_specs([policy])
    rows = GAME.run_hands(32, 0, 1500, Rules(), choice, log_plays=True,
                          deal_filter=_fixed_hands_filter())
    assert not (rows["plays"].list.first() // 13 == SPADE).any()


def test_must_break_spades_off_the_heuristic_plays_only_legal_cards_and_may_lead_spades():
    """With the option off the heuristic's leads come from the whole hand (the engine would
    refuse an illegal card); the replay against the reference referee checks every play."""
    rules = Rules(must_break_spades=False)
    rows = GAME.run_hands(33, 0, 1500, rules, GAME.policies_from_specs(["heuristic"]),
                          log_plays=True)
    early_spade_leads = 0  # spades led while the leader held another suit and none had broken
    for row in rows.iter_rows(named=True):
        r = ref.check_row(row, rules) and ref.replay(
            [row[f"hand{s}"] for s in SEATS], row["dealer"], row["plays"], must_break=False)
        leaders = [(row["dealer"] + 1) % 4] + r.trick_winners[:12]
        held = [ref.cards_of(row[f"hand{s}"]) for s in SEATS]
        for t in range(r.spades_broken_trick + 1):
            lead = row["plays"][4 * t]
            early_spade_leads += lead // 13 == SPADE and any(c // 13 != SPADE for c in held[leaders[t]])
            for i in range(4):
                held[(leaders[t] + i) % 4].discard(row["plays"][4 * t + i])
    assert early_spade_leads > 0


def test_must_break_spades_is_an_option_with_the_rules_file_default():
    assert Rules().must_break_spades is True
    assert Rules.from_options({"must_break_spades": "false"}).must_break_spades is False
    with pytest.raises(SimcoreError, match="true or false"):
        Rules.from_options({"must_break_spades": "sometimes"})
    assert rules_vector(Rules(must_break_spades=False))[layout.R_MUST_BREAK] == 0


def test_sp8_players_follow_suit_when_able(heuristic_rows):
    for row in heuristic_rows.head(300).iter_rows(named=True):
        ref.replay([row[f"hand{s}"] for s in SEATS], row["dealer"], row["plays"])  # raises


def test_sp9_spades_break_at_the_first_spade_played(random_rows, heuristic_rows):
    for rows in (random_rows, heuristic_rows):
        for row in rows.head(300).iter_rows(named=True):
            first = next(i for i, c in enumerate(row["plays"]) if c // 13 == SPADE)
            assert row["spades_broken_trick"] == first // 4


def test_sp10_the_trick_winner_leads_the_next_trick(random_rows):
    for row in random_rows.head(300).iter_rows(named=True):
        r = ref.replay([row[f"hand{s}"] for s in SEATS], row["dealer"], row["plays"])
        assert list(row["trick_winners"]) == r.trick_winners
        assert [row[f"tricks{s}"] for s in SEATS] == r.tricks


# ---------------------------------------------------------------- scoring


def test_sp11_contract_5_winning_7_scores_52():
    assert side(3, 4, 2, 3)[:3] == (52, 2, 5)


def test_sp12_a_failed_contract_costs_10_per_trick_bid():
    assert side(3, 1, 3, 4)[:3] == (-60, 0, 6)


def test_sp13_nil_tricks_do_not_count_toward_the_partner_contract_but_are_bags():
    # partner of a nil bids 5 and takes 4; the nil takes 2: contract fails although the side
    # took 6; the two nil tricks score +1 each and are bags
    assert side(5, 4, 0, 2) == (-50 + 2 - 100, 2, 5, -100, 0, 2)
    # contract made and the nil failed: bags from both sources
    assert side(5, 6, 0, 1)[:2] == (50 + 1 + 1 - 100, 2)
    # both nil: contract 0 and every trick is a bag
    assert side(0, 3, 0, 0)[:3] == (-100 + 100 + 3, 3, 0)


def test_sp14_bags_reaching_ten_cost_100_and_carry_over():
    """The source's example: 4, 3 and 4 bid over three hands, 7, 6 and 9 won: 3 + 3 + 5 = 11
    bags, -100, and 1 bag carries over."""
    bags = 0
    scores = []
    for (a, b), (ta, tb) in [((2, 2), (4, 3)), ((2, 1), (3, 3)), ((3, 1), (5, 4))]:
        score, hand_bags, contract, _, penalty, bags = side(a, ta, b, tb, bags_before=bags)
        scores.append((score, hand_bags, penalty))
    assert scores == [(43, 3, 0), (33, 3, 0), (45 - 100, 5, -100)]
    assert bags == 1


def test_sp14_twenty_bags_at_once_cost_200():
    assert side(1, 10, 1, 3, bags_before=9)[4:] == (-200, 0)
    assert side(1, 13, 0, 0, bags_before=9, rules=Rules(bag_limit=5))[4:] == (-400, 1)


def test_sp14_hands_mode_starts_each_hand_at_zero_bags(random_rows):
    penalised = random_rows.filter(pl.col("bag_penalty0") < 0)
    assert (penalised["bags0"] >= 10).all()
    assert (random_rows.filter(pl.col("bags0") >= 10)["bag_penalty0"] == -100).all()


def test_sp14_bags_carry_over_between_hands_in_a_game():
    hands, _ = GAME.run_games(3, 0, 60, Rules(), GAME.policies_from_specs([]))
    seen_penalty = 0
    for _, group in hands.group_by("game"):
        carried = [0, 0]
        for row in group.sort("hand_no").iter_rows(named=True):
            for p in (0, 1):
                running = carried[p] + row[f"bags{p}"]
                assert row[f"bag_penalty{p}"] == -100 * (running // 10)
                seen_penalty += running >= 10
                carried[p] = running % 10
                assert row[f"total_bags{p}"] == carried[p]
    assert seen_penalty > 0


# ---------------------------------------------------------------- game


def test_sp15_hands_continue_until_a_side_reaches_the_target():
    hands, games = GAME.run_games(4, 0, 50, Rules(), GAME.policies_from_specs([]))
    for (g,), group in hands.group_by("game"):
        group = group.sort("hand_no")
        totals = group.select("total0", "total1").rows()
        for t0, t1 in totals[:-1]:
            assert game_winner(t0, t1, 500) == -1
        assert game_winner(*totals[-1], 500) >= 0


def test_sp16_the_higher_side_over_the_target_wins_and_a_tie_plays_on():
    assert game_winner(510, 480, 500) == 0
    assert game_winner(520, 540, 500) == 1
    assert game_winner(499, -20, 500) == -1
    assert game_winner(510, 510, 500) == -1  # tied at or over the target: another hand
    assert game_winner(-300, 500, 500) == 1  # no losing threshold (SP-16 Decision)
    hands, games = GAME.run_games(4, 0, 50, Rules(), GAME.policies_from_specs([]))
    last = hands.sort("game", "hand_no").group_by("game", maintain_order=True).last()
    joined = games.join(last, on="game")
    assert (joined["final0"] == joined["total0"]).all()
    for row in joined.iter_rows(named=True):
        assert row["winner"] == game_winner(row["final0"], row["final1"], 500)
        assert row["hands"] == row["hand_no"] + 1


# ---------------------------------------------------------------- options


def test_options_have_the_rules_file_defaults():
    r = Rules()
    assert (r.target, r.bag_limit, r.bag_penalty, r.nil_value, r.blind_nil, r.blind_nil_value,
            r.blind_nil_min_deficit, r.blind_nil_timing) == (500, 10, 100, 100, True, 200, 0,
                                                             "own_turn")


def test_options_are_parsed_and_checked():
    r = Rules.from_options({"target": "300", "blind-nil": "false", "blind_nil_timing": "before_bidding"})
    assert (r.target, r.blind_nil, r.blind_nil_timing) == (300, False, "before_bidding")
    with pytest.raises(SimcoreError, match="unknown rules option"):
        Rules.from_options({"mercy": "1"})
    with pytest.raises(SimcoreError, match="must be one of"):
        Rules(blind_nil_timing="never")


def test_options_change_the_scores():
    choice = GAME.policies_from_specs(["random"])
    rules = Rules(nil_value=50, blind_nil_value=300, bag_limit=5, bag_penalty=50)
    rows = GAME.run_hands(21, 0, 500, rules, choice, log_plays=True)
    for row in rows.iter_rows(named=True):
        ref.check_row(row, rules)
    assert rows.filter(pl.col("blind0") & (pl.col("tricks0") == 0)).height > 0
    no_blind = GAME.run_hands(21, 0, 500, Rules(blind_nil=False), choice)
    assert not no_blind.select(pl.any_horizontal([pl.col(f"blind{s}") for s in SEATS]).any()).item()


def test_max_hands_stops_a_game_nobody_can_win():
    choice = GAME.policies_from_specs(["random"])
    hands, games = GAME.run_games(1, 0, 4, Rules(max_hands=30), choice)
    assert (games["hands"] <= 30).all()
    assert (games.filter(pl.col("hands") == 30)["winner"] == -1).all()
