"""Gin Rummy rules, one or more tests per rule ID of docs/rules/gin_rummy.md (GR-1 ... GR-18).

GR-2 ... GR-4 (values, melds, deadwood) and the GR-11 lay-off search are tested in detail in
tests/test_melds.py; here they are checked through the engine.
"""

import numpy as np
import polars as pl
import pytest

from simcore.cards import bit, cards_of_hand, parse_cards, parse_hand
from simcore.games.gin_rummy import GAME, config, engine, layout, run_games, run_hands
from simcore.games.gin_rummy.policies import heuristic_policy, random_policy
from simcore.games.gin_rummy.rules import Rules
from simcore.melds import gin_deadwoods, gin_knock
from simcore.errors import SimcoreError

HEUR = np.array([1, 1], np.int64)
R = engine


def _choice(*specs):
    return GAME.policies_from_specs(list(specs) or ["heuristic"])


def _cfg(choice=None, **rules):
    return config(Rules(**rules), choice or _choice())


def _deck(seat0: str, seat1: str, upcard: str, stock: str = ""):
    """A deck order: seat 0's 10 cards, seat 1's, the upcard, the stock top first."""
    first = parse_cards(seat0) + parse_cards(seat1) + parse_cards(upcard) + parse_cards(stock)
    assert len(set(first)) == len(first)
    rest = [c for c in range(52) if c not in first]
    return np.array(first + rest, np.int64)


def _play(deck, dealer=0, cfg=None, policies=HEUR, seed=1):
    ok, res, hands, laid = engine.play_preset(deck, dealer, _cfg() if cfg is None else cfg,
                                              policies, np.uint64(seed))
    assert ok
    return res, hands, laid


def _dw(hand):
    return int(gin_deadwoods(np.array([hand], np.uint64))[0])


@pytest.fixture(scope="module")
def hands_frame():  # knocking at the limit: knocks, undercuts and gins to check
    return run_hands(7, 0, 20000, Rules(), _choice("heuristic", "knock=at10"))


@pytest.fixture(scope="module")
def random_frame():
    return run_hands(8, 0, 20000, Rules(), _choice("random"))


# ---------------------------------------------------------------- deal (GR-1, GR-6)


def test_gr1_gr6_two_hands_of_ten_and_an_upcard(hands_frame):
    f = hands_frame
    for a, b, up in zip(f["hand0"].to_list()[:500], f["hand1"].to_list()[:500],
                        f["upcard"].to_list()[:500]):
        assert bin(a).count("1") == 10 and bin(b).count("1") == 10
        assert a & b == 0 and not (a | b) & (1 << up)
    for a, b in zip(f["final0"].to_list(), f["final1"].to_list()):
        assert bin(a).count("1") == 10 and bin(b).count("1") == 10 and a & b == 0


def test_data_contract_columns(hands_frame):
    s = hands_frame.schema
    expected = {"seed": pl.UInt64, "deal": pl.UInt64, "hand0": pl.UInt64, "hand1": pl.UInt64,
                "dealer": pl.Int8, "upcard": pl.Int8, "end": pl.Int8, "knocker": pl.Int8,
                "final0": pl.UInt64, "final1": pl.UInt64, "deadwood0": pl.Int8,
                "deadwood1": pl.Int8, "turns": pl.Int16, "winner": pl.Int8, "points": pl.Int16}
    for name, dtype in expected.items():
        assert s[name] == dtype, name
    assert hands_frame["deal"].to_list()[:3] == [0, 1, 2]


def test_same_seed_same_rows():
    a = run_hands(3, 100, 3000, Rules(), _choice("random"))
    b = run_hands(3, 100, 3000, Rules(), _choice("random"))
    assert a.equals(b)
    c = run_hands(3, 1100, 2000, Rules(), _choice("random"))
    assert a.slice(1000).equals(c)


# ---------------------------------------------------------------- GR-7, GR-8


def test_gr7_non_dealer_takes_upcard_that_melds():
    deck = _deck("2C 5D 9H JS QS 3H 4H 8C TD KD", "7C 7D 2S 3S 4S 9C TC JC KH QH", "7H")
    res, hands, _ = _play(deck, dealer=0)
    assert res[R.R_TAKER] == 1
    assert hands[1] & bit(parse_cards("7H")[0]) or res[R.R_KNOCKER] == 1


def test_gr7_dealer_takes_when_non_dealer_passes():
    deck = _deck("7C 7D 2S 3S 4S 9C TC JC KH QH", "2C 5D 9H JS QS 3H 4H 8C TD KD", "7H")
    res, _, _ = _play(deck, dealer=0)
    assert res[R.R_TAKER] == 0


def test_gr7_both_pass_then_non_dealer_draws_from_stock():
    # void_at_stock = 30: the hand ends right after the first stock draw, showing who drew.
    deck = _deck("2C 5D 9H JS QS 3H 4H 8C TD KD", "7C 7D 2S 3S 4S 9C TC JC KH QH", "6C", "AC")
    res, hands, _ = _play(deck, dealer=1, cfg=_cfg(void_at_stock=30))
    assert res[R.R_TAKER] == -1
    assert res[R.R_TURNS] == 1
    # seat 0 (non-dealer) drew A♣; A♣ melds with nothing but is low, so it is kept
    assert hands[0] & bit(parse_cards("AC")[0])


def test_gr8_taken_card_not_discarded():
    hand = parse_hand("7C 7D 2S 3S 4S 9C TC JC KH QH 7H")
    taken = parse_cards("KH")[0]  # the heuristic's natural discard (K♥ or Q♥) is blocked
    view = np.zeros(layout.VIEW_SIZE, np.int64)
    view[layout.V_TAKEN] = taken
    view[layout.V_TAKEN_LOCKED] = 1
    view[layout.V_TOP] = -1
    st = np.zeros(1, np.uint64)
    for kind_policy in (heuristic_policy, random_policy):
        for _ in range(50):
            c = kind_policy(layout.K_DISCARD, 0, np.uint64(hand), view, st)
            assert c != taken and hand >> c & 1


def test_gr8_option_may_discard_taken_card():
    hand = parse_hand("7C 7D 2S 3S 4S 9C TC JC KH QH 7H")
    taken = parse_cards("KH")[0]
    view = np.zeros(layout.VIEW_SIZE, np.int64)
    view[layout.V_TAKEN] = taken
    view[layout.V_TAKEN_LOCKED] = 0  # the option: random may now throw the taken card back
    st = np.zeros(1, np.uint64)
    picks = {random_policy(layout.K_DISCARD, 0, np.uint64(hand), view, st) for _ in range(300)}
    assert taken in picks
    # The heuristic never throws back what it took, so two of them cannot swap one card forever.
    f = run_hands(8, 0, 5000, Rules(may_discard_taken_card=True), _choice())
    assert f["turns"].max() < engine.MAX_TURNS


# ---------------------------------------------------------------- GR-9, GR-10, GR-15


def test_gr10_gr15_gin_scores_25_plus_all_defender_deadwood_without_layoffs():
    # Seat 1 (non-dealer) takes 7♥ for gin; the dealer's J♠ and 6♣ would lay off on a knock.
    gin_hand = "7C 7D 8S 9S TS 2C 3C 4C 5C KD"
    dealer = "JS 6C 4D 5D 6D KC QD QH 2S 3H"
    deck = _deck(dealer, gin_hand, "7H")
    res, hands, laid = _play(deck, dealer=0)
    assert res[R.R_TAKER] == 1 and res[R.R_KNOCKER] == 1
    assert res[R.R_END] == layout.END_GIN
    d_dw = _dw(parse_hand(dealer))
    assert res[R.R_DW0] == d_dw and res[R.R_DW1] == 0 and laid == 0
    assert res[R.R_WINNER] == 1 and res[R.R_POINTS] == 25 + d_dw


def test_gr9_knock_only_at_or_below_limit(hands_frame):
    k = hands_frame.filter(pl.col("end") >= 1)
    kd = np.where(k["knocker"].to_numpy() == 0, k["deadwood0"].to_numpy(), k["deadwood1"].to_numpy())
    assert (kd <= 10).all() and len(k) > 10000
    finals = np.where(k["knocker"].to_numpy() == 0, k["final0"].to_numpy(), k["final1"].to_numpy())
    assert (gin_deadwoods(finals.astype(np.uint64)) == kd).all()


def test_gr9_knock_limit_option_and_knock_decision():
    f = run_hands(9, 0, 4000, Rules(knock_limit=5), _choice())
    k = f.filter(pl.col("end") >= 1)
    kd = np.where(k["knocker"].to_numpy() == 0, k["deadwood0"].to_numpy(), k["deadwood1"].to_numpy())
    assert (kd <= 5).all()
    g = run_hands(9, 0, 4000, Rules(), _choice("knock=gin_only"))
    assert (g["end"] != layout.END_KNOCK).all() and (g["end"] == layout.END_GIN).sum() > 100


def test_gr9_random_policy_knocks_sometimes(random_frame):
    assert (random_frame["end"] == layout.END_KNOCK).sum() > 100


# ---------------------------------------------------------------- GR-11, GR-13, GR-14


def _score(knocker_text, defender_text, **rules):
    hands = np.array([parse_hand(knocker_text), parse_hand(defender_text)], np.uint64)
    res = np.zeros(16, np.int64)
    pile = np.zeros(2, np.uint64)
    scratch = np.zeros((engine.ARRANGEMENTS, 4), np.uint64)
    engine.score_knock(0, hands, _cfg(**rules), scratch, pile, res)
    return res, int(pile[1])


def test_gr13_knocker_lower_scores_the_difference():
    res, laid = _score("2C 3C 4C 7D 7H 7S 9S TS JS AH", "KC QD JH 9D 8H 5S 4D 3S 2D 6H")
    assert res[R.R_END] == layout.END_KNOCK and res[R.R_WINNER] == 0
    assert res[R.R_DW0] == 1
    assert res[R.R_POINTS] == res[R.R_DW1] - 1


def test_gr11_layoffs_lower_the_defender_deadwood():
    # Knocker: 5♥6♥7♥, 9♣9♦9♠, K♠K♦K♣, A♣.  The defender lays off 8♥, then 9♥ on the run
    # (a lay-off carried by a lay-off; 9♥ could also complete the nines).
    res, laid = _score("5H 6H 7H 9C 9D 9S KS KD KC AC", "8H 9H 2C 3D 4S QH QC JD 6C 5D")
    assert laid == parse_hand("8H 9H")
    assert res[R.R_DW1] == 2 + 3 + 4 + 10 + 10 + 10 + 6 + 5
    assert res[R.R_WINNER] == 0 and res[R.R_POINTS] == res[R.R_DW1] - 1


def test_gr11_knocker_arrangement_leaves_defender_highest():
    kdw, ddw, off, _ = gin_knock(parse_hand("7C 7D 7H 7S 8S 9S TS 2C 3D 4H"),
                                 parse_hand("6S KC KD QH QS JC 5C 5D 9H 2S"))
    res, laid = _score("7C 7D 7H 7S 8S 9S TS 2C 3D 4H", "6S KC KD QH QS JC 5C 5D 9H 2S")
    assert res[R.R_DW1] == ddw == 77 and laid == 0  # the four 7s, so 6♠ cannot go on 7♠-10♠


def test_gr14_undercut_on_a_tie_goes_to_the_defender():
    # Knocker: 2-3-4♣, 7♦7♥7♠, 9-10-J♠, 5♥ -> deadwood 5.
    # Defender: K♣K♦K♥, Q♣Q♦Q♥, 8-9-10♦, 5♠ (lays off nothing) -> deadwood 5: a tie.
    res, laid = _score("2C 3C 4C 7D 7H 7S 9S TS JS 5H", "KC KD KH QC QD QH 8D 9D TD 5S")
    assert res[R.R_DW0] == 5 and res[R.R_DW1] == 5 and laid == 0
    assert res[R.R_END] == layout.END_KNOCK
    assert res[R.R_WINNER] == 1 and res[R.R_POINTS] == 25  # the knocker scores nothing
    res, _ = _score("2C 3C 4C 7D 7H 7S 9S TS JS 5H", "KC KD KH QC QD QH 8D 9D TD 5S",
                    undercut_bonus=10)
    assert res[R.R_WINNER] == 1 and res[R.R_POINTS] == 10


def test_gr14_undercut_lower_scores_difference_plus_bonus():
    res, _ = _score("2C 3C 4C 7D 7H 7S 9S TS JS 8H", "KC KD KH QC QD QH 8D 9D TD 3S")
    assert res[R.R_DW0] == 8 and res[R.R_DW1] == 3
    assert res[R.R_WINNER] == 1 and res[R.R_POINTS] == 5 + 25


def test_gr14_layoff_can_turn_a_knock_into_an_undercut():
    # 5♣ goes on 2-3-4♣: the defender's deadwood falls from 5 to 0 (< 5).
    res, laid = _score("2C 3C 4C 7D 7H 7S 9S TS JS 5H", "KC KD KH QC QD QH 8D 9D TD 5C")
    assert laid == parse_hand("5C") and res[R.R_DW1] == 0
    assert res[R.R_WINNER] == 1 and res[R.R_POINTS] == 5 + 25


def test_gr13_gr14_gr15_points_match_deadwoods(hands_frame, random_frame):
    for f in (hands_frame, random_frame):
        k = f.filter(pl.col("end") >= 1)
        knocker = k["knocker"].to_numpy()
        kd = np.where(knocker == 0, k["deadwood0"].to_numpy(), k["deadwood1"].to_numpy()).astype(int)
        dd = np.where(knocker == 0, k["deadwood1"].to_numpy(), k["deadwood0"].to_numpy()).astype(int)
        end, win, pts = k["end"].to_numpy(), k["winner"].to_numpy(), k["points"].to_numpy()
        gin = end == layout.END_GIN
        assert (kd[gin] == 0).all() and (k["laid_off"].to_numpy()[gin] == 0).all()
        assert (pts[gin] == 25 + dd[gin]).all() and (win[gin] == knocker[gin]).all()
        knock = end == layout.END_KNOCK
        won = knock & (kd < dd)
        assert (win[won] == knocker[won]).all() and (pts[won] == (dd - kd)[won]).all()
        under = knock & (kd >= dd)
        assert (win[under] == 1 - knocker[under]).all()
        assert (pts[under] == (kd - dd + 25)[under]).all()
        assert under.sum() > 0


def test_gr11_engine_defender_deadwood_matches_layoff_search(random_frame):
    from reference import melds as ref

    k = random_frame.filter(pl.col("end") == layout.END_KNOCK).head(300)
    for row in k.iter_rows(named=True):
        kn = row["knocker"]
        kh, dh = row[f"final{kn}"], row[f"final{1 - kn}"]
        _, rows = ref.optimal_arrangements(cards_of_hand(kh))
        expect = max(ref.layoff_deadwood(cards_of_hand(dh), list(r)) for r in rows)
        assert row[f"deadwood{1 - kn}"] == expect


# ---------------------------------------------------------------- GR-12 void


def test_gr12_void_hand_no_score(hands_frame, random_frame):
    for f in (hands_frame, random_frame):
        v = f.filter(pl.col("end") == layout.END_VOID)
        assert v.height > 0
        assert (v["winner"] == -1).all() and (v["points"] == 0).all() and (v["knocker"] == -1).all()


def test_gr12_void_at_stock_option():
    deck = _deck("2C 5D 9H JS QS 3H 4H 8C TD KD", "7C 7D 2S 3S 4S 9C TC JC KH QH", "6C", "AC")
    res, _, _ = _play(deck, dealer=1, cfg=_cfg(void_at_stock=30))
    assert res[R.R_END] == layout.END_VOID and res[R.R_WINNER] == -1 and res[R.R_POINTS] == 0


# ---------------------------------------------------------------- games (GR-5, GR-16 ... GR-18)


def _final(totals, won, **rules):
    scores = np.zeros((1, 4), np.int64)
    winner, shutout = engine.final_scores(np.array(totals, np.int64), np.array(won, np.int64),
                                          _cfg(**rules), scores, 0)
    return winner, shutout, list(scores[0, :2])


def test_gr17_game_and_box_bonus_to_winner():
    assert _final([104, 60], [4, 3]) == (0, False, [104 + 100 + 4 * 25, 60])


def test_gr17_box_bonus_to_both():
    assert _final([60, 104], [3, 4], box_bonus_to="both") == (1, False, [60 + 75, 104 + 100 + 100])


def test_gr18_shutout_doubles_before_bonuses():
    assert _final([110, 0], [3, 0]) == (0, True, [220 + 100 + 75, 0])
    assert _final([110, 0], [3, 0], shutout_doubles=False) == (0, True, [110 + 100 + 75, 0])


def test_gr16_games_end_at_target_with_bonuses():
    hands, games = run_games(11, 0, 300, Rules(), _choice())
    last = hands.group_by("game").agg(pl.col("total0").last(), pl.col("total1").last(),
                                      pl.col("hand_no").max()).sort("game")
    assert ((last["total0"] >= 100) | (last["total1"] >= 100)).all()
    g = games.sort("game")
    assert (g["hands"].to_numpy() == last["hand_no"].to_numpy() + 1).all()
    w = g["winner"].to_numpy()
    won = np.stack([g["won0"].to_numpy(), g["won1"].to_numpy()], 1)
    tot = np.stack([last["total0"].to_numpy(), last["total1"].to_numpy()], 1).astype(int)
    final = np.stack([g["final0"].to_numpy(), g["final1"].to_numpy()], 1)
    idx = np.arange(len(w))
    mult = np.where(g["shutout"].to_numpy(), 2, 1)
    assert (final[idx, w] == tot[idx, w] * mult + 100 + 25 * won[idx, w]).all()
    assert (final[idx, 1 - w] == tot[idx, 1 - w]).all()


@pytest.mark.parametrize("rule", ["alternate", "winner", "loser"])
def test_gr5_next_dealer_option_and_void_redeal(rule):
    hands, _ = run_games(12, 0, 100, Rules(next_dealer=rule), _choice("random"))
    h = hands.sort(["game", "hand_no"])
    same_game = h["game"].to_numpy()[1:] == h["game"].to_numpy()[:-1]
    prev_dealer = h["dealer"].to_numpy()[:-1]
    prev_winner = h["winner"].to_numpy()[:-1]
    nxt = h["dealer"].to_numpy()[1:]
    expect = {"alternate": 1 - prev_dealer, "winner": prev_winner, "loser": 1 - prev_winner}[rule]
    expect = np.where(prev_winner < 0, prev_dealer, expect)  # GR-12: void -> same dealer
    assert (nxt[same_game] == expect[same_game]).all()


def test_gr5_first_dealer_random_from_seed_or_fixed():
    f = run_hands(13, 0, 4000, Rules(), _choice("random"))
    share = f["dealer"].mean()
    assert 0.45 < share < 0.55
    assert (run_hands(13, 0, 500, Rules(first_dealer="1"), _choice("random"))["dealer"] == 1).all()


def test_bad_options_are_clear_errors():
    with pytest.raises(SimcoreError):
        Rules.from_options({"box_bonus_to": "loser"})
    with pytest.raises(SimcoreError):
        Rules.from_options({"knock_limit": "11"})
    with pytest.raises(SimcoreError):
        GAME.policies_from_specs(["knock=at11"])


def test_heuristic_beats_random_in_games_to_100_from_either_seat():
    """The heuristic wins at least 95% of games against random play, from either seat."""
    import simcore

    for seat, other in ((0, 1), (1, 0)):
        games = simcore.simulate("gin-rummy", 300, seed=10 + seat, mode="games",
                                 policy=[f"{seat}=heuristic", f"{other}=random"]).games().collect()
        assert (games["winner"] == seat).mean() >= 0.95
