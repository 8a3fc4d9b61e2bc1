"""Gin Rummy search policy (pimc): its play-outs against the engine, the worlds it draws,
hidden information, reproducible and legal batches, the names in describe and the manifest."""

from __future__ import annotations

import json

import numpy as np
import pytest

import simcore
from simcore.errors import SimcoreError
from simcore.games.base import PolicyChoice
from simcore.games.gin_rummy import GAME, config, engine, pimc
from simcore.games.gin_rummy import layout as L
from simcore.games.gin_rummy.rules import Rules
from simcore.melds import MAX_MELDS, gin_deadwood

EXPERT = GAME.play_policies["expert"]


def start_of_hand(deck, dealer, rules):
    """The play-out state at the non-dealer's upcard question of the deal ``deck``."""
    w = np.zeros((2, 4), np.uint64)
    for s in range(2):
        for c in deck[10 * s:10 * s + 10]:
            w[s, pimc.HAND] |= np.uint64(1 << int(c))
    up = int(deck[20])
    w[0, pimc.PILE] = np.uint64(1 << up)
    view = np.zeros(L.VIEW_SIZE, np.int64)
    view[L.V_DEALER], view[L.V_UPCARD], view[L.V_TOP], view[L.V_PILE] = dealer, up, up, 1 << up
    view[L.V_STOCK], view[L.V_KNOCK_LIMIT], view[L.V_KNOCK_AT], view[L.V_TAKEN] = 31, 10, -1, -1
    view[L.V_TAKEN_LOCKED] = 0 if rules.may_discard_taken_card else 1
    return w, view, deck[21:].astype(np.int64).copy()


@pytest.mark.parametrize("rules", [Rules(), Rules(gin_bonus=10, undercut_bonus=0,
                                                  may_discard_taken_card=True, void_at_stock=5)])
def test_play_outs_play_the_hand_as_the_engine_does(rules):
    """The search's play-out (expert in both seats, from the first question) ends every hand
    as ``engine.play_hand`` does: the same knocker, turns and points (GR-7 ... GR-15)."""
    cfg = config(rules, PolicyChoice(seats=("expert", "expert"), decisions={"knock": "limit"}))
    ids = np.array([EXPERT, EXPERT], np.int64)
    scratch = np.empty((engine.ARRANGEMENTS, MAX_MELDS), np.uint64)
    res = np.zeros(16, np.int64)
    rng = np.random.default_rng(4)
    for k in range(60):
        deck = rng.permutation(52).astype(np.int64)
        dealer = k % 2
        ok, want, _, _ = engine.play_preset(deck, dealer, cfg, ids, 0)
        w, view, stock = start_of_hand(deck, dealer, rules)
        got = pimc.play_out(0, 1 - dealer, pimc.PH_UPCARD1, -1, w, stock, 0, 31, 0, view, cfg,
                            scratch, res)
        winner, points = want[engine.R_WINNER], want[engine.R_POINTS]
        expected = 0 if winner < 0 else (points if winner == 0 else -points)
        assert ok and (got, res[engine.R_KNOCKER], res[engine.R_TURNS]) == (
            expected, want[engine.R_KNOCKER], want[engine.R_TURNS]), k


def mid_hand_view():
    """A view of seat 0 at its discard: it took the opponent's 9H from the pile; the opponent
    holds the 5C it took earlier."""
    hand = sum(1 << c for c in (0, 1, 2, 13, 14, 27, 30, 40, 44, 50)) | 1 << 20
    view = np.zeros(L.VIEW_SIZE, np.int64)
    pile = (1 << 5) | (1 << 33) | (1 << 47)
    view[L.V_SEAT], view[L.V_DEALER], view[L.V_UPCARD] = 0, 1, 5
    view[L.V_PILE], view[L.V_TOP], view[L.V_TAKEN], view[L.V_TAKEN_LOCKED] = pile, 47, 20, 1
    view[L.V_OPP_PICKS] = 1 << 42
    view[L.V_OPP_DISCARDS] = (1 << 20) | (1 << 47) | (1 << 33)
    view[L.V_STOCK], view[L.V_TURN], view[L.V_KNOCK_LIMIT], view[L.V_KNOCK_AT] = 52 - 11 - 3 - 10, 6, 10, -1
    return np.uint64(hand), view


def test_the_worlds_hold_what_the_seat_knows():
    """Every world gives the opponent its known pick and 9 unseen cards, the stock the other
    unseen cards; never a card of the seat's hand or of the pile.  Without the likelihood
    filter the opponent's hidden cards are uniform over the unseen cards; with the default
    one its hands hold less deadwood than uniform ones."""
    hand, view = mid_hand_view()
    ctx = pimc.new_context()
    unseen = int(pimc.facts(L.K_DISCARD, 0, hand, view, ctx))
    assert unseen == ((1 << 52) - 1) & ~int(hand) & ~int(view[L.V_PILE]) & ~int(view[L.V_OPP_PICKS])
    cards = [c for c in range(52) if unseen >> c & 1]
    ctx[pimc.C_STOCK][:len(cards)] = cards
    ctx[pimc.C_ST][0] = 99
    settings = pimc.rules_vector(Rules())
    settings[pimc.R_TILT], settings[pimc.R_TRIES], settings[pimc.R_Q_KNOCK] = 0, 1, 100
    counts = np.zeros(52)
    n = 3000
    for _ in range(n):
        stock_size = pimc._draw_world(ctx, 0, view, settings, len(cards), 9)
        opp = int(ctx[pimc.C_BASE][1, pimc.HAND])
        stock = {int(c) for c in ctx[pimc.C_STOCK][:stock_size]}
        assert stock_size == view[L.V_STOCK] and opp >> 42 & 1 and bin(opp).count("1") == 10
        assert not opp & int(hand) and not opp & int(view[L.V_PILE])
        assert stock == {c for c in cards if not opp >> c & 1}
        counts += [(opp >> c) & 1 for c in range(52)]
    share = counts[cards] / n  # each unseen card with the opponent 9 / 38 of the time
    assert abs(share - 9 / len(cards)).max() < 0.04
    uniform = []
    for tilt in (0, pimc.TILT):
        settings = pimc.rules_vector(Rules())
        settings[pimc.R_TILT] = tilt
        dws = []
        for _ in range(300):
            pimc._draw_world(ctx, 0, view, settings, len(cards), 9)
            opp = ctx[pimc.C_BASE][1, pimc.HAND]
            assert gin_deadwood(opp) > 10  # it did not knock after its last discard
            dws.append(gin_deadwood(opp))
        uniform.append(np.mean(dws))
    assert uniform[1] < uniform[0] - 5


def run(specs, count=8, seed=5, **kw):
    return simcore.simulate("gin-rummy", count, seed=seed, policy=specs, **kw)


def test_reproducible_legal_and_hidden_cards_unseen():
    """Same seed, same rows for any threads and chunks; a deal whose never-drawn bottom stock
    cards are swapped is played the same (the search sees no stock card)."""
    specs = ["0=pimc:3", "1=pimc:2"]
    one = run(specs, threads=1).hands().collect()
    two = run(specs, threads=2, chunk_size=3).hands().collect()
    assert one.equals(two) and one.height == 8
    cfg = config(Rules(), PolicyChoice(seats=("pimc:3", "pimc:3"), decisions={"knock": "limit"}))
    ids = np.concatenate([GAME.policy_ids(GAME.policies_from_specs(["pimc:3"]), -1),
                          pimc.rules_vector(Rules())])
    rng = np.random.default_rng(8)
    for _ in range(3):
        deck = rng.permutation(52).astype(np.int64)
        swapped = deck.copy()
        swapped[50], swapped[51] = deck[51], deck[50]  # GR-12: the hand is void before them
        a = pimc.play_preset(deck, 0, cfg, ids, 0)
        b = pimc.play_preset(swapped, 0, cfg, ids, 0)
        assert a[0] and b[0]
        assert list(a[1]) == list(b[1]) and list(a[2]) == list(b[2])


def test_a_searching_seat_in_games_mode_and_against_other_policies():
    hands = run(["1=pimc:2", "0=heuristic"], count=2, mode="games").games().collect()
    assert hands.height == 2 and (hands["final0"] + hands["final1"] > 0).all()
    # a searching seat leaves the other seat's random draws alone: the dealt cards agree
    a = run(["0=random", "1=pimc:2"], count=6).hands().collect()
    b = run(["0=random", "1=expert"], count=6).hands().collect()
    assert a["hand0"].equals(b["hand0"]) and a["upcard"].equals(b["upcard"])


def test_names_describe_and_manifest(tmp_path, capsys):
    assert GAME.policies_from_specs(["0=pimc:16"]).seats[0] == "pimc:16"
    assert GAME.play_policies["pimc"] == pimc.PIMC + pimc.DEFAULT_WORLDS
    for bad in ("pimc:0", "pimc:W", "pimc:x", "dd"):
        with pytest.raises(SimcoreError):
            GAME.policies_from_specs([f"0={bad}"])
    out = tmp_path / "run"
    run(["1=pimc:2"], count=2, out=str(out))
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["policies"]["seats"] == ["heuristic", "pimc:2"]
    from simcore.cli import main

    assert main(["describe", "gin-rummy"]) == 0
    text = capsys.readouterr().out
    assert "pimc:W" in text and "worlds" in text
