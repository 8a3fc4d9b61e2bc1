"""Trump Friend declarer calls by search (``trump=pimc``, ``friend=pimc``, a whole ``pimc`` seat):
the calls' scores are the engine's own rounds (TF-5 ... TF-13), the worlds are TF-4 deals of the
unseen cards, hidden cards do not change a call, the run's rows are reproducible, and a
searching declarer calls itself while ``trump=``/``friend=`` still set the other seats'."""

from __future__ import annotations

import json

import numpy as np
import pytest

import simcore
import simcore.games.trump_friend as tf
from simcore.errors import SimcoreError
from simcore.games.searching import DD, PIMC
from simcore.games.trump_friend import layout as L, pimc

GAME = tf.GAME
ALL = (1 << 52) - 1


def internal(mask):
    return sum(1 << int(L.TO_INTERNAL[c]) for c in range(52) if int(mask) >> c & 1)


def deal_of(row):
    hands = np.zeros(6, np.uint64)
    for s in range(5):
        hands[s] = np.uint64(internal(row[f"hand{s}"]))
    return hands


def table(trump_policy, friend_policy, hands, seat, seed=1):
    """(trump candidates, friend candidates per trump, sums, others' losses) of ``call_table``."""
    ctx = pimc.new_context(hands)
    st = np.array([seed], np.uint64)
    nt = pimc.call_table(trump_policy, friend_policy, seat, hands[seat], st, ctx)
    n, calls = ctx[pimc.C_CALL_N], ctx[pimc.C_CALLS]
    nf = [int(n[5 + i]) for i in range(nt)]
    return ([int(t) for t in n[:nt]], [list(calls[pimc.CALL_FRIEND, i, :nf[i]]) for i in range(nt)],
            calls[pimc.CALL_SUM].copy(), calls[pimc.CALL_TIE].copy())


@pytest.fixture(scope="module")
def what_if_trump():
    """Every deal under each of the five trumps (heuristic play, friend highest), declarers
    drawn: the truth the omniscient call scores must reproduce."""
    return simcore.simulate("trump-friend", 24, seed=9, what_if="trump",
                            rules={"first_declarer": "random"}).hands().collect()


def test_dd_call_scores_are_the_engines_rounds_for_every_trump(what_if_trump):
    rows = what_if_trump.to_dicts()
    for k in range(0, len(rows), 5):
        five = rows[k:k + 5]
        d = five[0]["declarer"]
        trumps, friends, sums, ties = table(DD, 0, deal_of(five[0]), d)  # friend=highest
        assert trumps == [0, 1, 2, 3, 4]
        for t, row in enumerate(five):
            f = row["friend_card"]
            assert friends[t] == [int(L.TO_INTERNAL[f]) if f >= 0 else -1]
            assert sums[t, 0] == row[f"delta{d}"]
            assert ties[t, 0] == -sum(row[f"delta{s}"] for s in range(5) if s != d)


def test_dd_call_scores_are_the_engines_rounds_for_the_friend_calls():
    rows = simcore.simulate("trump-friend", 16, seed=5, what_if="friend",
                            rules={"first_declarer": "random"}).hands().collect().to_dicts()
    for highest, none in zip(rows[0::2], rows[1::2]):
        d = highest["declarer"]
        trumps, friends, sums, _ = table(0, DD, deal_of(highest), d)  # trump=longest
        assert trumps == [highest["trump"]] and friends[0][0] == -1  # no friend first
        j = friends[0].index(int(L.TO_INTERNAL[highest["friend_card"]]))
        assert sums[0, j] == highest[f"delta{d}"] and sums[0, 0] == none[f"delta{d}"]


def test_dd_calls_the_best_trump_of_the_true_deal(what_if_trump):
    rows = what_if_trump.to_dicts()
    for k in range(0, len(rows), 5):
        five = rows[k:k + 5]
        d = five[0]["declarer"]
        hands = deal_of(five[0])
        key = [(r[f"delta{d}"], -sum(r[f"delta{s}"] for s in range(5) if s != d)) for r in five]
        best = max(range(5), key=lambda t: (key[t], -t))  # ties to the first (clubs ...)
        trump, _ = pimc.search_declare(DD, 0, d, hands[d], np.array([3], np.uint64),
                                       pimc.new_context(hands))
        assert trump == best


def test_friend_candidates_are_no_friend_then_the_strongest_cards_not_held():
    hand = sum(1 << (13 * 3 + r) for r in (12, 10, 5))  # internal ids: spades 3, A, 9
    out = np.zeros(pimc.MAX_FRIENDS, np.int64)
    k = pimc.friend_candidates(np.uint64(hand), out)
    assert k == 1 + 4 * pimc.FRIEND_DEPTH and out[0] == -1
    assert list(out[1 + 3 * pimc.FRIEND_DEPTH:k]) == [13 * 3 + 11, 13 * 3 + 9, 13 * 3 + 8]
    assert all(not hand >> int(c) & 1 for c in out[1:k])


def test_worlds_keep_the_declarers_hand_and_deal_the_rest_uniformly():
    # two deals, not one: a one-row run compiles a kernel of its own (its outputs are C-ordered)
    hands = deal_of(simcore.simulate("trump-friend", 2, seed=2).hands().collect().row(0, named=True))
    seat, card = 2, int(np.log2(int(hands[0]) & -int(hands[0])))  # a card seat 2 cannot see
    ctx = pimc.new_context(hands)
    ctx[pimc.C_ST][0] = 99
    counts = np.zeros(6)
    draws = 4200
    for _ in range(draws):
        pimc.call_world(ctx, False, seat, hands[seat])
        world = [int(h) for h in ctx[pimc.C_PUB]]
        assert world[seat] == int(hands[seat])
        assert [bin(w).count("1") for w in world] == [10] * 5 + [2]
        assert sum(world) == ALL and np.bitwise_or.reduce(world) == ALL
        counts += [w >> card & 1 for w in world]
    expected = draws * np.array([10, 10, 0, 10, 10, 2]) / 42
    others = [0, 1, 3, 4, 5]
    chi2 = (((counts - expected) ** 2)[others] / expected[others]).sum()
    assert counts[seat] == 0 and chi2 < 18.5  # 4 degrees of freedom, p ~ 0.001


def test_the_same_information_gives_the_same_call_whatever_the_hidden_cards():
    rows = simcore.simulate("trump-friend", 6, seed=13).hands().collect().to_dicts()
    differ = 0
    for row in rows:
        hands = deal_of(row)
        other = hands.copy()  # the declarer's hand kept, the others' cards and kitty re-dealt
        rest = [c for c in range(52) if not int(hands[0]) >> c & 1]
        np.random.default_rng(row["deal"]).shuffle(rest)
        for h, (lo, hi) in enumerate([(0, 0), (0, 10), (10, 20), (20, 30), (30, 40), (40, 42)]):
            if h:
                other[h] = np.uint64(sum(1 << c for c in rest[lo:hi]))
        calls = {}
        for name, deal in (("seen", hands), ("other", other)):
            for policy in (PIMC + 3, DD):
                calls[name, policy] = pimc.search_declare(
                    policy, policy, 0, hands[0], np.array([7], np.uint64), pimc.new_context(deal))
        assert calls["seen", PIMC + 3] == calls["other", PIMC + 3]
        differ += calls["seen", DD] != calls["other", DD]
    assert differ > 0  # the omniscient dd does read the hidden cards: the check can fail


def run(specs, count=6, seed=11, **kw):
    return simcore.simulate("trump-friend", count, seed=seed, policy=specs,
                            rules={"first_declarer": "random"}, **kw).hands().collect()


def test_call_rows_are_reproducible_for_any_threads_and_chunks():
    specs = ["trump=pimc:3", "friend=pimc:3"]
    one = run(specs, count=8, threads=1)
    assert one.equals(run(specs, count=8, threads=2, chunk_size=3))


def test_a_searching_declarer_calls_itself_and_the_others_follow_the_call_policies():
    mixed = run(["1=pimc:1", "trump=notrump", "friend=none"], count=10)
    calls = run(["trump=pimc:10", "friend=pimc:10"], count=10)  # pimc:1 calls over 10 worlds
    own = mixed["declarer"] == 1
    assert 0 < own.sum() < 10
    others = mixed.filter(~own)
    assert (others["trump"] == L.NO_TRUMP).all() and (others["friend_card"] == -1).all()
    for column in ("trump", "friend_card"):
        assert mixed.filter(own)[column].equals(calls.filter(own)[column])


def test_in_what_if_runs_a_searching_declarer_takes_the_experiments_calls():
    """The forced call, and the run's policy for the other (what simcore advise relies on)."""
    rows = run(["pimc:1", "friend=none"], count=2, what_if="trump")
    assert rows["trump"].to_list() == [0, 1, 2, 3, 4] * 2 and (rows["friend_card"] == -1).all()
    plain = run(["heuristic"], count=3, what_if="friend")
    rows = run(["pimc:1"], count=3, what_if="friend")
    for column in ("trump", "friend_card"):
        assert rows[column].equals(plain[column])
    assert (rows.filter(rows["option"] == "none")["friend_card"] == -1).all()
    searched = run(["pimc:1", "friend=pimc:2"], count=2, what_if="trump")
    calls = run(["friend=pimc:2"], count=2, what_if="trump")  # the friend searched per trump
    assert searched["friend_card"].equals(calls["friend_card"])


def test_names_describe_and_manifest(tmp_path, capsys):
    assert GAME.policies_from_specs(["trump=pimc:7"]).decisions["trump"] == "pimc:7"
    assert pimc.TRUMP_CALLS["pimc"] == PIMC + pimc.CALL_WORLDS
    for bad in ("trump=dd", "friend=pimc:0", "trump=pimc:W"):
        with pytest.raises(SimcoreError):
            GAME.policies_from_specs([bad])
    out = tmp_path / "run"
    simcore.simulate("trump-friend", 2, seed=1, policy=["3=pimc:1", "friend=pimc:2"], out=str(out))
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["policies"]["own_calls"] == [3] and manifest["policies"]["friend"] == "pimc:2"
    assert manifest["omniscient"] == []
    # the record reads back as the same choice (resume, Dask workers)
    from simcore.batch import spec_from_identity

    assert spec_from_identity(manifest).choice == GAME.policies_from_specs(
        ["3=pimc:1", "friend=pimc:2"])
    from simcore.cli import main

    assert main(["describe", "trump-friend"]) == 0
    text = capsys.readouterr().out
    assert "trump=pimc" in text and "own_calls" in text and "pimc:W" in text


def test_a_user_play_policy_and_a_searching_call_are_refused():
    choice = GAME.policies_from_specs(["trump=pimc"])
    choice.user[0] = lambda *a: 0
    with pytest.raises(SimcoreError, match="cannot share a run"):
        tf._kernel_pair(choice)
