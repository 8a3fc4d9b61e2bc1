"""Dummy rules, one or more tests per rule ID of docs/rules/dummy.md (DM-1 ... DM-34).

Scenario tests deal a stacked deck (``engine.play_logged`` with ``preset``) to scripted seats
(policy ``layout.SCRIPT``): a seat plays the next scripted action when it is legal, and
otherwise draws / stops / passes, keeping the entry for later.  Legality is checked directly on
``moves.list_takes`` / ``moves.list_plays``, which are what the engine offers a policy.
"""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest

from simcore.cards import parse_card, parse_cards, parse_hand
from simcore.errors import SimcoreError
from simcore.games import get
from simcore.games.dummy import GAME, engine, layout, moves, run_games, run_hands
from simcore.games.dummy.rules import Rules, rules_vector

L = layout
HS = {2: 11, 3: 9, 4: 7}
DRAW, PASS, STOP = L.DRAW, L.PASS, L.STOP


def C(text):
    return parse_card(text)


def mask(text):
    return parse_hand(text)


def take(depth, cards):
    return L.take_code(depth, mask(cards))


def meld(cards):
    return L.meld_code(mask(cards))


def lay(j, card):
    return L.layoff_code(j, C(card))


def knock(card):
    return L.knock_code(C(card))


def disc(card):
    return C(card)


def deck_for(players, hands, head, stock="", dealer=None, direction=1):
    """A deck order dealing ``hands[s]`` to seat s (DM-4), then the head card and the stock."""
    n = players
    if dealer is None:
        dealer = (-direction) % n  # seat 0 receives the first card
    pools = [parse_cards(h) for h in hands]
    assert all(len(p) == HS[n] for p in pools), [len(p) for p in pools]
    order, used = [], [0] * n
    for i in range(n * HS[n]):
        s = (dealer + direction * (1 + i % n)) % n
        order.append(pools[s][used[s]])
        used[s] += 1
    order += [C(head)] + parse_cards(stock)
    order += [c for c in range(52) if c not in order]
    assert sorted(order) == list(range(52))
    return np.array(order, np.int64), dealer


class Deal:
    def __init__(self, ok, info, seats, dealt, log, n, script_len):
        self.ok, self.info, self.seats, self.dealt, self.log, self.n = ok, info, seats, dealt, log, n
        self.script_used = int(info[L.R_SCRIPT])
        self.script_len = script_len

    def __getattr__(self, name):
        rows = {"opened": L.S_OPENED, "table": L.S_TABLE, "inhand": L.S_INHAND,
                "penalty": L.S_PENALTY, "score": L.S_SCORE, "layoffs": L.S_LAYOFFS}
        if name in rows:
            return [int(x) for x in self.seats[rows[name], :self.n]]
        keys = {"knocker": L.R_KNOCKER, "dark": L.R_DARK, "fool": L.R_FOOL,
                "knock_card": L.R_KNOCK_CARD, "turns": L.R_TURNS, "head": L.R_HEAD}
        return int(self.info[keys[name]])


def play(players, hands, head, stock="", script=(), dealer=None, starter=None, direction=1,
         policies=None, complete=True, **rules):
    """Play a stacked deal with scripted seats; the deal ends once the script is used up (scored
    like a stock-out) unless it ended first.  (STOP is code 0, the id of 2C: a scripted 2C
    discard must not fall on a play decision.)"""
    deck, dealer = deck_for(players, hands, head, stock, dealer, direction)
    if starter is None:
        starter = (dealer + direction) % players
    pol = np.full(4, L.SCRIPT, np.int64) if policies is None else np.array(policies, np.int64)
    ok, info, seats, dealt, log, _ = engine.play_logged(
        deck, dealer, starter, direction, rules_vector(Rules(players=players, **rules)), pol,
        np.uint64(1), True, np.array(list(script), np.int64))
    d = Deal(ok, info, seats, dealt, log, players, len(script))
    if complete:
        assert ok, "a scripted action was illegal"
        assert d.script_used == len(script), f"script used {d.script_used} of {len(script)}"
    return d


def takes(hand, pile, table=(), final=False, lay_left=2, qka=False):
    """The legal takes (DM-12) as {(depth, meld text set)}."""
    (_, _, _, melds, pile_arr, _, acts, _, chains, lens, ks, *_rest) = engine._work()
    cards = parse_cards(pile)
    for i, c in enumerate(cards):
        pile_arr[i] = c
    for j, m in enumerate(table):
        melds[j] = mask(m)
    n = moves.list_takes(np.uint64(mask(hand)), pile_arr, len(cards), acts, 0, final, melds,
                          len(table), lay_left, qka, chains, lens, ks)
    return {(int(a) >> L.TAKE_SHIFT, int(a) & L.MASK52) for a in acts[:n]}


def plays(hand, table=(), opened=True, dark_ok=False, final=False, lay_left=2, dark_layoffs=False,
          qka=False):
    """The legal plays (DM-15 ... DM-19) as a set of action codes."""
    (_, _, _, melds, _, _, acts, mbuf, chains, lens, ks, *_rest) = engine._work()
    for j, m in enumerate(table):
        melds[j] = mask(m)
    n = moves.list_plays(np.uint64(mask(hand)), opened, dark_ok, final, melds, len(table),
                          lay_left, dark_layoffs, qka, acts, mbuf, chains, lens, ks)
    return {int(a) for a in acts[:n]}


def T(depth, cards):
    return (depth, mask(cards))


@pytest.fixture(scope="module")
def frames():
    choice = GAME.policies_from_specs(["heuristic"])
    rnd = GAME.policies_from_specs(["random"])
    return {n: (run_hands(11, 0, 3000, Rules(players=n), choice),
                run_hands(12, 0, 3000, Rules(players=n), rnd)) for n in (2, 3, 4)}


# ---------------------------------------------------------------- §3.14 worked example

HANDS_314 = [
    "7C 7D JS QS KS 3C 6D",      # A: takes the head 7H, later A-spade, knocks with 3C
    "4D 5D AC 2C 9H 8S 2H",      # B: takes 6D
    "3H 9S KD 4C 5S 6H 8H",      # C: never opens; draws 10C, throws 8H
    "8C 8D 2D 4S 9C TH AS",      # D: takes 8H, throws AS (the fool card)
]
SCRIPT_314 = [
    take(0, "7C 7D 7H"), STOP, disc("6D"),   # A opens on the head card (DM-14)
    take(0, "4D 5D 6D"), disc("2H"),          # B
    disc("8H"),                               # C draws (no take is legal)
    take(1, "8C 8D 8H"), disc("AS"),          # D takes 8H from above 2H
    take(1, "JS QS KS AS"),                   # A takes only AS and knocks with 3C
]


def test_worked_example_3_14():
    d = play(4, HANDS_314, "7H", "TC", SCRIPT_314)
    assert d.knocker == 0 and d.knock_card == C("3C") and not d.dark
    assert d.table == [100, 15, 0, 15]
    assert d.score == [150, -60, -90, -60]
    assert d.fool == 3 and d.penalty == [0, 0, 0, -50]
    assert d.opened == [1, 1, 0, 1]


def test_worked_example_dark_knock_300():
    hands = ["7C 7D 7H JS QS KS 3C", "4D 5D AC 2C 9H 8S 2H", "3H 9S KD 4C 5S 6H 8H",
             "8C 8D 2D 4S 9C TH 2S"]
    d = play(4, hands, "5H", "AS", [knock("3C")])
    assert d.knocker == 0 and d.dark
    assert d.table[0] == 100 and d.score[0] == 2 * (100 + 50) == 300
    # DM-25: nobody else opened, so every other hand counts double against
    for s in (1, 2, 3):
        assert d.score[s] == -2 * int(engine.points(np.uint64(mask(hands[s])))) == -2 * d.inhand[s]


# ---------------------------------------------------------------- deal (DM-1 ... DM-5)


def test_dm1_players_and_options_are_validated():
    for n in (2, 3, 4):
        assert Rules(players=n).players == n
    with pytest.raises(SimcoreError):
        Rules(players=5)
    with pytest.raises(SimcoreError):
        Rules.from_options({"players": "1"})
    with pytest.raises(SimcoreError):
        Rules.from_options({"layoff_limit": "many"})
    with pytest.raises(SimcoreError):
        Rules.from_options({"ngo_reverse": "sometimes"})
    with pytest.raises(SimcoreError):
        Rules(players=2, first_dealer="3")
    assert Rules.from_options({"layoff_limit": "None"}).layoff_cap == 52
    assert get("dummy") is GAME


def test_dm1_seats_beyond_players_hold_zero(frames):
    for n in (2, 3):
        f = frames[n][0]
        for s in range(n, 4):
            assert (f[f"hand{s}"] == 0).all() and (f[f"score{s}"] == 0).all()
            assert (~f[f"opened{s}"]).all()
        assert (f["players"] == n).all()


def test_dm2_hand_sizes(frames):
    for n, size in HS.items():
        f = frames[n][0]
        for s in range(n):
            counts = f[f"hand{s}"].map_elements(lambda h: bin(h).count("1"), return_dtype=pl.Int64)
            assert (counts == size).all()
        union = f.select(pl.reduce(lambda a, b: a | b, [pl.col(f"hand{s}") for s in range(n)]))
        assert union.to_series().map_elements(lambda h: bin(h).count("1"),
                                              return_dtype=pl.Int64).eq(n * size).all()


def _draw_only(players, **rules):
    """Every seat draws and throws back what it drew, so the deal runs the stock out."""
    hands = {2: ["2C 2D 4H 6S 8C TD QH AS 3D 5H 7S", "3C 4D 6H 8S TC QD AH 2S 5D 7H 9S"],
             3: ["2C 2D 4H 6S 8C TD QH AS 3D", "3C 4D 6H 8S TC QD AH 2S 5D",
                 "4C 5C 7D 9H JS KC 3H 9D JH"],
             4: ["2C 2D 4H 6S 8C TD QH", "3C 4D 6H 8S TC QD AH", "4C 5C 7D 9H JS KC 3H",
                 "5S 7C 9D JH KS AC 6D"]}[players]
    deck, dealer = deck_for(players, hands, "JD")
    n = players
    stock_end = 52 - (5 if (n == 2 and rules.get("two_player_cut5")) else 0)
    stock = [int(c) for c in deck[n * HS[n] + 1: stock_end]]
    d = play(players, hands, "JD", "", stock, **rules)
    return d, deck, stock


@pytest.mark.parametrize("players,size", [(2, 29), (3, 24), (4, 23)])
def test_dm4_stock_sizes_and_dm23_stock_out(players, size):
    d, deck, stock = _draw_only(players)
    assert len(stock) == size
    assert d.turns == size  # one draw a turn, then nobody can take and knock
    assert d.knocker == -1 and not d.dark and d.fool == -1
    # DM-23/25: table minus hand for everyone, no doubling (nobody opened, nothing on the table)
    hands = [int(h) for h in d.dealt[:players]]
    for s in range(players):
        assert d.table[s] == 0
        assert d.score[s] == -d.inhand[s] == -int(engine.points(np.uint64(hands[s])))


def test_dm3_two_player_cut_removes_five_cards():
    d, deck, stock = _draw_only(2, two_player_cut5=True)
    assert len(stock) == 24 and d.turns == 24
    assert set(int(c) for c in deck[47:]).isdisjoint(stock)


def test_dm4_deal_order_follows_direction():
    hands = HANDS_314
    for direction in (1, -1):
        deck, dealer = deck_for(4, hands, "7H", "TC", dealer=2, direction=direction)
        _, info, seats, dealt, log, _ = engine.play_logged(
            deck, 2, (2 + direction) % 4, direction, rules_vector(Rules()), np.array([0] * 4),
            np.uint64(1), True, np.zeros(0, np.int64))
        # the seat after the dealer in ``direction`` gets the first card
        first = (2 + direction) % 4
        assert int(dealt[first]) >> int(deck[0]) & 1
        assert int(dealt[(2 + 2 * direction) % 4]) >> int(deck[1]) & 1
        assert info[L.R_HEAD] == deck[28]


def test_dm5_dealer_random_and_starter_after_dealer(frames):
    for n in (2, 3, 4):
        f = frames[n][0]
        counts = f["dealer"].value_counts()
        assert counts.height == n
        assert (f["starter"] == (f["dealer"] + 1) % n).all()
        assert counts["count"].min() > 3000 / n * 0.8
    h, _ = run_games(3, 0, 30, Rules(players=3), GAME.policies_from_specs(["heuristic"]))
    # every deal: the dealer is the seat before the first player in the deal's direction
    assert ((h["starter"] - h["direction"]) % 3 == h["dealer"]).all()


# ---------------------------------------------------------------- values and melds (DM-6 ... DM-10)


def test_dm6_ace_high_only():
    assert takes("KS AS 4D", "2H QS") == {T(1, "QS KS AS")}
    assert takes("AS 3S 4D", "5H 2S") == set()       # A-2-3 is not a run
    assert takes("KS AS 4D", "5H 2S") == set()       # K-A-2 does not wrap


def test_dm7_card_values():
    assert engine.points(np.uint64(mask("2D 9H"))) == 10
    assert engine.points(np.uint64(mask("TC JD QH KS"))) == 40
    assert engine.points(np.uint64(mask("AC"))) == 15
    assert engine.points(np.uint64(mask("2C"))) == 50 and engine.points(np.uint64(mask("QS"))) == 50
    assert engine.points(np.uint64(mask("2S QC"))) == 15


def test_dm8_melds():
    assert T(0, "JH JD JS") in takes("JD JS JC 4H", "JH")
    assert T(0, "JH JD JS JC") in takes("JD JS JC 4H", "JH")  # a set of four
    assert takes("5H 6H 4D", "7D") == set()                    # suits do not mix
    assert T(0, "4D 5D 6D 7D 8D") in takes("4D 5D 7D 8D 2C", "6D")


def test_dm9_dm16_layoffs_onto_other_melds_credit_the_layer():
    hands = ["8C 9C TC 5H 2D 4H AH", "5D 5S 7C 3S KD QD 9H", "3C 3D 6C 9S JH KH 2H",
             "2S 4S 6S 8S TS KS 4D"]
    script = [take(0, "8C 9C TC JC"), disc("5H"),            # A opens on the head JC
              take(0, "5D 5H 5S"), lay(0, "7C"), disc("3S"),  # B opens, lays 7C on A's run
              take(0, "3C 3D 3S"), lay(0, "6C"), disc("9S")]  # C lays 6C onto B's 7C
    d = play(4, hands, "JC", "", script)
    assert d.table == [30, 15 + 5, 15 + 5, 0]
    assert d.layoffs == [0, 1, 1, 0]
    assert lay(0, "6C") in plays("6C 5H", table=["7C 8C 9C TC JC"])
    assert lay(0, "6C") not in plays("6C 5H", table=["8C 9C TC JC"])


def test_dm17_limit_scope_player_or_table():
    hands = ["8C 9C TC 5H 2D 4H AH", "5D 5S 7C 3S KD QD 9H", "3C 3D 6C 9S JH KH 2H",
             "2S 4S 6S 8S TS KS 4D"]
    script = [take(0, "8C 9C TC JC"), disc("5H"), take(0, "5D 5H 5S"), lay(0, "7C"), disc("3S"),
              take(0, "3C 3D 3S"), lay(0, "6C"), disc("9S")]
    # one lay-off per player: B and C may each lay off once
    assert play(4, hands, "JC", "", script, layoff_limit="1").layoffs == [0, 1, 1, 0]
    # one lay-off for the whole table: B's uses it up, C's 6C is never offered
    assert not play(4, hands, "JC", "", script, complete=False, layoff_limit="1",
                    layoff_limit_scope="table").ok


DEPTH_HANDS = ["7C 7D 2S 4S 6S 8S TS", "3H 5H 9H JH KH AD QC", "2C 4C 6C 8C TC QD KD",
               "3D 5D 9D JD 3C 5C 9C"]
DEPTH_SCRIPT = [disc("7H"), disc("4H"), disc("QH"), disc("2D"),   # each seat throws its draw
                take(1, "7C 7D 7H"), disc("QH")]                    # A digs out 7H at depth 1


def test_dm10_dm12_take_at_depth_takes_everything_above():
    assert takes("7C 7D 9S", "AS 7H KD 3C") == {T(1, "7C 7D 7H")}
    d = play(4, DEPTH_HANDS, "AS", "7H 4H QH 2D", DEPTH_SCRIPT)
    # A took 7H and the 4H, QH, 2D above it, melded 7C 7D 7H and threw QH back
    assert d.opened == [1, 0, 0, 0] and d.table[0] == 15
    assert d.inhand[0] == int(engine.points(np.uint64(mask("2S 4S 6S 8S TS 4H 2D"))))


# ---------------------------------------------------------------- a turn (DM-11 ... DM-14)


def test_dm11_every_turn_starts_by_acquiring():
    d = play(4, HANDS_314, "7H", "TC", SCRIPT_314)
    kinds = [int(k) for k in d.log[:, 1]]
    seats = [int(s) for s in d.log[:, 0]]
    # each seat change starts with an acquire decision
    for i in range(1, len(seats)):
        if seats[i] != seats[i - 1]:
            assert kinds[i] == L.K_ACQUIRE
    assert kinds[0] == L.K_ACQUIRE


def test_dm12_take_rules():
    # the meld must contain the target and a hand card
    assert takes("2D 9S", "5H 6H 7H") == set()
    assert takes("4H 9S KD", "5H 6H 7H") == {T(0, "4H 5H 6H"), T(0, "4H 5H 6H 7H")}
    # illegal when it would leave no card: two hand cards + the single top card
    assert takes("7C 7D", "2H 7H") == set()
    assert takes("7C 7D 9S", "2H 7H") == {T(1, "7C 7D 7H")}
    # ...but a deeper take that leaves cards is legal
    assert takes("7C 7D", "7H 2H") == {T(0, "7C 7D 7H")}
    # no take to lay off the target onto a table meld
    assert takes("9S KD 3C", "2H 7C", table=["8C 9C TC"]) == set()


def test_dm13_may_discard_taken_card_option():
    d = play(4, DEPTH_HANDS, "AS", "7H 4H QH 2D", DEPTH_SCRIPT)
    assert d.ok
    d = play(4, DEPTH_HANDS, "AS", "7H 4H QH 2D", DEPTH_SCRIPT, complete=False,
             may_discard_taken_card=False)
    assert not d.ok  # QH came from the pile this turn
    d = play(4, DEPTH_HANDS, "AS", "7H 4H QH 2D", DEPTH_SCRIPT[:-1] + [disc("TS")],
             may_discard_taken_card=False)
    assert d.ok


def test_dm14_first_turn_head_card():
    assert takes("7C 7D 3S", "7H") == {T(0, "7C 7D 7H")}
    d = play(4, HANDS_314, "7H", "TC", SCRIPT_314[:3])
    assert d.opened[0] == 1 and d.table[0] == 15 and d.head == C("7H")


# ---------------------------------------------------------------- opening (DM-15)


def test_dm15_unopened_may_not_meld_or_lay_off():
    p = plays("4D 5D 6D 9S JC", table=["7D 8D 9D"], opened=False, dark_ok=False)
    assert p == {STOP}
    # after drawing, an unopened seat may only knock (dark) or stop
    p = plays("4D 5D 6D 9S JC", table=["7D 8D 9D"], opened=False, dark_ok=True)
    assert p == {STOP}
    # 4D 5D 6D 9S 9C 9H: keeping any card breaks a meld, so no knock
    assert plays("4D 5D 6D 9S 9C 9H", opened=False, dark_ok=True) == {STOP}
    p = plays("4D 5D 6D 9S 9C 9H JC", opened=False, dark_ok=True)
    assert p == {STOP, knock("JC")}
    # opened: melds and lay-offs appear
    p = plays("4D 5D 6D 9S JC", table=["7D 8D 9D"], opened=True)
    assert meld("4D 5D 6D") in p and lay(0, "6D") in p


def test_dm15_dark_knock_layoffs_option():
    hand = "4D 5D 6D TD 2C"
    table = ["7D 8D 9D"]
    assert knock("2C") not in plays(hand, table, opened=False, dark_ok=True)
    assert knock("2C") in plays(hand, table, opened=False, dark_ok=True, dark_layoffs=True)


def test_dm15_take_opens_and_allows_melds_same_turn():
    d = play(4, HANDS_314, "7H", "TC", [take(0, "7C 7D 7H"), meld("JS QS KS"), disc("6D")])
    assert d.opened[0] == 1 and d.table[0] == 15 + 70  # 7C 7D 7H, then JS QS KS


# ---------------------------------------------------------------- lay-offs (DM-16 ... DM-18)


def test_dm16_run_ends_and_sets():
    assert lay(0, "JC") in plays("JC 5H", ["QC KC AC"])             # Q-K-A takes J below
    assert lay(0, "2C") not in plays("2C 5H", ["QC KC AC"])         # never wraps
    assert lay(0, "JC") not in plays("JC 5H", ["QC KC AC"], qka=True)
    assert lay(0, "9H") in plays("9H 2D", ["9C 9D 9S"])             # the fourth of a set
    assert not any((a >> L.A_SHIFT) == L.A_LAYOFF for a in plays("9H 2D", ["TC JC QC"]))
    assert not any((a >> L.A_SHIFT) == L.A_LAYOFF for a in plays("3H 2D", ["4C 5C 6C"]))


def test_dm17_layoff_limit():
    hand = "7C 6C QC 2H 5H"
    table = ["8C 9C TC JC"]
    assert lay(0, "7C") in plays(hand, table, lay_left=1)
    assert not any((a >> L.A_SHIFT) == L.A_LAYOFF for a in plays(hand, table, lay_left=0))
    # a knock needing three lay-offs needs a limit of at least three
    assert knock("2H") not in plays("7C 6C QC 2H", table, lay_left=2)
    assert knock("2H") in plays("7C 6C QC 2H", table, lay_left=3)


def test_dm17_limit_counts_in_the_engine():
    # seat 0 opens on the head, then lays off twice; a third lay-off is not offered
    hands = ["8C 9C TC 7C 6C QC 5C", "3H 5H 9H JH KH AD QD", "2C 4C 6D 8D TD QH KD",
             "3D 5D 9D 2D 3C 4H 9S"]
    base = [take(0, "8C 9C TC JC"), lay(0, "7C"), lay(0, "6C")]
    d = play(4, hands, "JC", "", base + [disc("QC")])
    assert d.layoffs[0] == 2 and d.table[0] == 30 + 10
    # with the default limit a third lay-off (QC) is never offered
    assert not play(4, hands, "JC", "", base + [lay(0, "QC")], complete=False).ok
    d3 = play(4, hands, "JC", "", base + [lay(0, "QC")], layoff_limit="none")
    assert d3.layoffs[0] == 3 and d3.knocker == 0 and d3.knock_card == C("5C")
    # the table scope counts every seat's lay-offs together
    d4 = play(4, hands, "JC", "", base + [disc("QC")], layoff_limit="2",
              layoff_limit_scope="table")
    assert d4.layoffs[0] == 2


def test_dm18_stop_always_legal():
    assert STOP in plays("4D 5D 6D 9S JC", ["7D 8D 9D"])


# ---------------------------------------------------------------- knocking (DM-19 ... DM-22)


def test_dm19_never_zero_cards_and_last_card_knocks():
    # a meld of the whole hand is not offered
    assert meld("4D 5D 6D") not in plays("4D 5D 6D", opened=True)
    # a take leaving one card is a knock, the card face down and not on the pile
    d = play(4, HANDS_314, "7H", "TC", SCRIPT_314)
    assert d.knock_card == C("3C") and d.inhand[0] == 0


def test_dm20_dm22_dark_knock_after_a_take():
    # A never opened (drew 7H on its first turn); it takes the single top card AS and knocks
    hands = ["7C 7D JS QS KS 3C 6D", "4D 5D AC 2C 9H 8S 2H", "3H 9S KD 4C 5S 6H 8H",
             "8C 8D 2D 4S 9C TH AS"]
    script = [disc("6D"), disc("2H"), disc("8H"), take(3, "8C 8D 8H"), disc("AS"),
              take(3, "JS QS KS AS"), knock("3C")]
    d = play(4, hands, "5C", "7H TC JD", script)
    assert d.knocker == 0 and d.dark and d.knock_card == C("3C")
    assert d.table[0] == 85 + 15  # J Q K A of spades and 7C 7D 7H, all laid in the knock
    assert d.score[0] == 2 * (100 + 50)
    assert d.fool == 3 and d.penalty[3] == -50  # DM-27 combines with the dark knock


def test_dm21_knock_card_value():
    d = play(4, HANDS_314, "7H", "TC", SCRIPT_314, knock_card_value=70)
    assert d.score[0] == 100 + 70


# ---------------------------------------------------------------- stock-out (DM-23)


def test_dm23_final_turn_take_and_knock():
    # everyone throws what they draw; seat 2 draws the last stock card, 7H, and throws it;
    # on the final turn seat 3 takes it with 7C 7S and knocks keeping 9D
    hands = ["2C 2D 4H 6S 8C TD QH", "3C 4D 6H 8S TC QD AH", "4C 5C 7D 9H JS KC 3H",
             "7C 7S 2S 3S 4S 5S 9D"]
    deck, _ = deck_for(4, hands, "JD")
    stock = [int(c) for c in deck[29:52] if int(c) != C("7H")] + [C("7H")]
    text = " ".join(f"{'23456789TJQKA'[c % 13]}{'CDHS'[c // 13]}" for c in stock)
    assert len(stock) == 23
    d = play(4, hands, "JD", text, stock + [take(23, "7C 7H 7S")])
    assert d.turns == 24 and d.knocker == 3 and d.knock_card == C("9D")
    assert d.dark and d.fool == 2
    # or the seat passes: the deal ends with no knocker, table minus hand, nothing doubled
    d = play(4, hands, "JD", text, stock + [PASS])
    assert d.knocker == -1 and d.turns == 24 and d.fool == -1
    assert d.score == [-x for x in d.inhand]


def test_dm23_final_turn_only_knocking_takes():
    # on the final turn a take that cannot lead to a knock is not offered
    assert takes("7C 7D 9S 2H", "7H", final=True) == set()
    assert takes("7C 7D 9S", "7H", final=True) == {T(0, "7C 7D 7H")}
    assert takes("7C 7D 9S 9H 9D", "7H", final=True) == set()  # three 9s: no card to keep
    assert takes("7C 7D 9S 9H 9D 2C", "7H", final=True) == {T(0, "7C 7D 7H")}


# ---------------------------------------------------------------- scoring (DM-24 ... DM-26)


def test_dm24_dm25_melds_in_hand_still_count_against():
    d = play(4, HANDS_314, "7H", "TC", SCRIPT_314)
    # C's hand (never opened) holds 4C 5S 6H ... all count, doubled (DM-25)
    assert d.inhand[2] == 45 and d.score[2] == -90
    # B opened: T - H
    assert d.score[1] == d.table[1] - d.inhand[1]


def test_dm25_unopened_multiplier_option():
    d = play(4, HANDS_314, "7H", "TC", SCRIPT_314, unopened_multiplier=3)
    assert d.score[2] == -3 * 45


ALL_OPTIONS = dict(speto_knock_100=True, head_card_bonus=True, head_feed_penalty=True,
                   layoff_discard_penalty=True, full_discard_penalty=True,
                   speto_feed_penalty=True, speto_discard_penalty=True)


def test_dm26_penalties_are_not_doubled():
    f = run_hands(13, 0, 3000, Rules(players=4, **ALL_OPTIONS),
                  GAME.policies_from_specs(["random"]))
    dark_with_penalty = 0
    for s in range(4):
        k = f.filter(pl.col("knocker") == s)
        kv = pl.when(pl.col("knock_card").is_in([0, 49])).then(100).otherwise(50)
        mult = pl.when(pl.col("dark_knock")).then(2).otherwise(1)
        want = k.select(((pl.col(f"table{s}") + kv) * mult + pl.col(f"penalty{s}")).alias("w"))
        assert (want["w"] == k[f"score{s}"]).all()
        dark_with_penalty += k.filter(pl.col("dark_knock") & (pl.col(f"penalty{s}") < 0)).height
    assert dark_with_penalty > 0


# ---------------------------------------------------------------- fool (DM-27)


def test_dm27_no_fool_on_head_or_deeper_take():
    # a take of the head card and a knock: dark, but no fool
    hands = ["7C 7D 2S 3S 4S 5S 9H", "3H 5H 9S JH KD AD QD", "2C 4C 6C 8C TC JD KC",
             "3D 5D 9D JS 3C 5C 9C"]
    d = play(4, hands, "7H", "", [take(0, "7C 7D 7H"), knock("9H")])
    assert d.knocker == 0 and d.dark and d.fool == -1
    # a take of two cards (7H and the 6S above it) and a knock: no fool
    hands = ["7C 7D 2S 3S 4S 5S KH", "3H 5H 9H JH KD AD QD", "2C 4C 6C 8C TC JD KC",
             "3D 5D 9S JS 3C 5C 9C"]
    script = [disc("KH"), disc("8D"), disc("7H"), disc("6S"), take(3, "7C 7D 7H"), knock("QC")]
    d = play(4, hands, "9D", "QC 8D 7H 6S", script)
    assert d.knocker == 0 and d.fool == -1 and sum(d.penalty) == 0
    # the same single-card take as the worked example is a fool
    assert play(4, HANDS_314, "7H", "TC", SCRIPT_314).fool == 3


@pytest.mark.parametrize("mode", ["next_deal_only", "toggle", "off"])
def test_dm27_direction_after_a_fool(mode):
    h, _ = run_games(5, 0, 40, Rules(players=4, ngo_reverse=mode),
                     GAME.policies_from_specs(["heuristic"]))
    rows = h.sort(["game", "hand_no"]).to_dicts()
    checked = 0
    for prev, cur in zip(rows, rows[1:]):
        if prev["game"] != cur["game"]:
            continue
        fooled = prev["fool"] >= 0
        if mode == "next_deal_only":
            want = -1 if fooled else 1
        elif mode == "toggle":
            want = -prev["direction"] if fooled else prev["direction"]
        else:
            want = 1
        assert cur["direction"] == want
        checked += fooled
    assert checked > 5
    for row in rows:  # the seat charged the fool penalty pays at least its 50
        if row["fool"] >= 0:
            assert row[f"penalty{row['fool']}"] <= -50


# ---------------------------------------------------------------- match (DM-28, DM-29)


def test_dm28_match_to_target():
    h, g = run_games(9, 0, 60, Rules(players=3), GAME.policies_from_specs(["heuristic"]))
    for row in g.to_dicts():
        finals = [row[f"final{s}"] for s in range(3)]
        assert max(finals) >= 500
        assert finals.count(max(finals)) == 1
        assert row["winner"] == finals.index(max(finals))
    # totals are the running sums of deal scores
    for s in range(3):
        sums = h.group_by("game").agg(pl.col(f"score{s}").sum()).sort("game")
        assert (sums[f"score{s}"].to_numpy() == g.sort("game")[f"final{s}"].to_numpy()).all()
    # no match ended before someone reached the target
    last = h.group_by("game").agg(pl.col("hand_no").max())
    assert (last["hand_no"] + 1).sum() == g["hands"].sum()


def test_dm28_lower_target_option():
    _, g = run_games(9, 0, 50, Rules(players=2, target=100), GAME.policies_from_specs(["random"]))
    assert (g.select(pl.max_horizontal("final0", "final1")).to_series() >= 100).all()


def test_dm29_next_first_player():
    h, _ = run_games(6, 0, 40, Rules(players=4), GAME.policies_from_specs(["heuristic"]))
    rows = h.sort(["game", "hand_no"]).to_dicts()
    stockouts = 0
    for prev, cur in zip(rows, rows[1:]):
        if prev["game"] != cur["game"]:
            continue
        if prev["knocker"] >= 0:
            assert cur["starter"] == prev["knocker"]
        else:
            stockouts += 1
            assert cur["starter"] == (prev["starter"] + cur["direction"]) % 4
        assert cur["dealer"] == (cur["starter"] - cur["direction"]) % 4


# ---------------------------------------------------------------- optional rules (DM-30 ... DM-34)


def test_dm30_speto_knock_value():
    hands = ["7C 7D 7H 8S 9S TS QS", "4D 5D AC 2C 9H 8C 2H", "3H 9C KD 4C 5S 6H 8H",
             "8D 3S 2D 4S 9D TH 6D"]
    for on, kv in ((False, 50), (True, 100)):
        d = play(4, hands, "5H", "JS", [knock("QS")], speto_knock_100=on)
        assert d.knocker == 0 and d.dark and d.knock_card == C("QS")
        assert d.score[0] == 2 * (d.table[0] + kv)


def test_dm31_head_card_bonus():
    for on in (False, True):
        d = play(4, HANDS_314, "7H", "TC", SCRIPT_314, head_card_bonus=on)
        assert d.table[0] == (100 + 45 if on else 100)


def test_dm32_layoff_discard_penalty():
    # D throws AS when A's ... ; use B throwing 3D onto 4D 5D 6D's end
    hands = ["7C 7D JS QS KS 3C 6D", "4D 5D AC 2C 9H 8S 3D", "3H 9S KD 4C 5S 6H 8H",
             "8C 8D 2D 4S 9C TH AS"]
    script = [take(0, "7C 7D 7H"), STOP, disc("6D"), take(0, "4D 5D 6D"), disc("3D")]
    for on in (False, True):
        d = play(4, hands, "7H", "TC", script, layoff_discard_penalty=on)
        assert d.penalty[1] == (-50 if on else 0) and d.penalty[0] == 0
        assert d.score[1] == d.table[1] - d.inhand[1] + d.penalty[1]


def test_dm33_full_discard_penalty():
    # pile: head 7H, then A throws 9H (seat 0 draws), ... B throws 8H: 7H 9H 8H is a meld
    hands = ["2C 3D 4S 5C 6D 9H KS", "8H 3C 4D 5S TC JD QC", "2D 3H 4C 5D 6S 8S AS",
             "2H 3S 4H 6C 9C JH KD"]
    script = [disc("9H"), disc("8H")]
    for on in (False, True):
        d = play(4, hands, "7H", "AC AD", script, full_discard_penalty=on)
        assert d.penalty[1] == (-50 if on else 0)
        assert d.penalty[0] == 0


def _feed_hands():
    # the head card is 7H; seat 0 throws 9H (in its neighbourhood); seat 1 holds 8H and takes
    # 7H 8H 9H from the bottom of the pile.
    return ["2C 3D 4S 5C 6D 9H KS", "8H 3C 4D 5S TC JD QC", "2D 3H 4C 5D 6S 8S AS",
            "2H 3S 4H 6C 9C JH KD"]


def test_dm34_head_feed_penalty():
    hands = _feed_hands()
    script = [disc("9H"), take(0, "7H 8H 9H"), disc("TC")]
    for on in (False, True):
        d = play(4, hands, "7H", "AC AD", script, head_feed_penalty=on)
        assert d.opened[1] == 1
        assert d.penalty[0] == (-50 if on else 0)


def test_dm34_feed_escapes_when_play_comes_back():
    hands = _feed_hands()
    # nobody takes 7H before seat 0's next turn; seat 1 takes it on its second turn
    script = [disc("9H"), disc("AD"), disc("TD"), disc("2S"), disc("7D"),
              take(0, "7H 8H 9H"), disc("TC")]
    d = play(4, hands, "7H", "AC AD TD 2S 7D", script, head_feed_penalty=True)
    assert d.opened[1] == 1 and d.penalty == [0, 0, 0, 0]


def test_dm34_speto_feed_and_speto_discard():
    # speto QS in the pile (thrown by seat 3? no: head); seat 0 throws QC; seat 1 takes QS QC QD
    hands = ["2C 3D 4S 5C 6D QC KS", "QD 3C 4D 5S TC JD 9C", "2D 3H 4C 5D 6S 8S AS",
             "2H 3S 4H 6C 8C JH KD"]
    script = [disc("QC"), take(0, "QS QC QD"), disc("TC")]
    for on in (False, True):
        d = play(4, hands, "QS", "AC AD", script, speto_feed_penalty=on)
        assert d.penalty[0] == (-50 if on else 0)
    # speto discard: 3C in the pile (head), seat 0 throws 2C, seat 1 holds 4C and takes 2C 3C 4C
    hands = ["2C 3D 4S 5C 6D QC KS", "4C 3H 4D 5S TC JD 9C", "2D 3S 5H 5D 6S 8S AS",
             "2H QD 4H 6C 8C JH KD"]
    script = [disc("2C"), take(0, "2C 3C 4C"), disc("TC")]
    for on in (False, True):
        d = play(4, hands, "3C", "AC AD", script, speto_discard_penalty=on)
        assert d.penalty[0] == (-50 if on else 0)


def test_dm34_head_speto_rules_stack():
    hands = ["2C 3D 4S 5C 6D QC KS", "QD 3C 4D 5S TC JD 9C", "2D 3H 4C 5D 6S 8S AS",
             "2H 3S 4H 6C 8C JH KD"]
    script = [disc("QC"), take(0, "QS QC QD"), disc("TC")]
    d = play(4, hands, "QS", "AC AD", script, speto_feed_penalty=True, head_feed_penalty=True)
    assert d.penalty[0] == -100


# ---------------------------------------------------------------- columns and determinism


def test_columns_and_determinism(frames):
    f = frames[4][0]
    for col in (["players", "dealer", "knocker", "dark_knock", "fool"]
                + [f"{s}{k}" for s in ("hand", "opened", "table", "inhand", "penalty", "score")
                   for k in range(4)]):
        assert col in f.columns
    g = run_hands(11, 0, 3000, Rules(players=4), GAME.policies_from_specs(["heuristic"]))
    assert f.equals(g)
    part = run_hands(11, 1000, 500, Rules(players=4), GAME.policies_from_specs(["heuristic"]))
    assert part.equals(f.slice(1000, 500))
    # score = base + penalty, with base per DM-25
    for s in range(4):
        kn = f["knocker"] == s
        dark = f["dark_knock"]
        base = pl.when(kn & dark).then((f[f"table{s}"] + 50) * 2).when(kn).then(
            f[f"table{s}"] + 50).when(f["knocker"] < 0).then(f[f"table{s}"] - f[f"inhand{s}"]).when(
            f[f"opened{s}"]).then(f[f"table{s}"] - f[f"inhand{s}"]).otherwise(-2 * f[f"inhand{s}"])
        got = f.select((base + pl.col(f"penalty{s}")).alias("x"))["x"]
        assert (got == f[f"score{s}"]).all()


def test_random_and_heuristic_make_their_cases(frames):
    for n in (2, 3, 4):
        heur, rnd = frames[n]
        assert (heur["knocker"] >= 0).mean() > 0.5
        assert heur["dark_knock"].sum() > 0 and (heur["fool"] >= 0).sum() > 0
        assert (rnd["knocker"] < 0).sum() > 0
