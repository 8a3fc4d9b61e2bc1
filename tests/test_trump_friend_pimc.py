"""Trump Friend search policies (pimc, dd): the facts the worlds are drawn from, hidden
information, legal and reproducible play, dd labelled omniscient."""

from __future__ import annotations

import json

import numpy as np
import pytest

import simcore
import simcore.games.trump_friend as tf
from simcore import sampling
from simcore.errors import SimcoreError
from simcore.games.trump_friend import layout as L, pimc
from simcore.tricks import trick_winner_at

GAME = tf.GAME
POINTS = {10: 2, 9: 1, 8: 1, 7: 1}  # internal strength -> card points (TF-11)


def internal(mask):
    return sum(1 << int(L.TO_INTERNAL[c]) for c in range(52) if int(mask) >> c & 1)


def replay(row, upto):
    """(view, hands, seat, legal, voids) before play number ``upto`` of a logged round (internal
    ids), by the rules (TF-6 ... TF-11)."""
    v = np.zeros(L.VIEW_SIZE, np.int64)
    friend = int(L.TO_INTERNAL[row["friend_card"]]) if row["friend_card"] >= 0 else -1
    v[L.V_DECLARER], v[L.V_TRUMP], v[L.V_FRIEND_CARD], v[L.V_FRIEND_SEAT] = (
        row["declarer"], row["trump"], friend, -1)
    v[L.V_PLAYED_BY:L.V_PLAYED_BY + 52] = -1
    hands = [internal(row[f"hand{s}"]) for s in range(5)]
    voids = np.zeros(5, np.int64)
    leader = (row["declarer"] + 1) % 5
    plays = [int(L.TO_INTERNAL[c]) for c in row["plays"]]
    for k in range(upto + 1):
        t, i = divmod(k, 5)
        if i == 0 and t > 0:
            pos = trick_winner_at(v, L.V_TRICK_CARDS, 5, row["trump"])
            leader = (leader + pos) % 5
            v[L.V_POINTS + leader] += sum(POINTS.get(int(c) % 13, 0)
                                          for c in v[L.V_TRICK_CARDS:L.V_TRICK_CARDS + 5])
        v[L.V_TRICK], v[L.V_LEADER], v[L.V_NPLAYED] = t, leader, i
        seat = (leader + i) % 5
        led = int(v[L.V_TRICK_CARDS]) // 13
        hand = hands[seat]
        legal = hand if i == 0 else (hand & (0x1FFF << 13 * led) or hand)
        if k == upto:
            return v, hands, seat, legal, voids
        c = plays[k]
        assert legal >> c & 1
        if i > 0 and c // 13 != led:
            voids[seat] |= 1 << led
        v[L.V_TRICK_CARDS + i] = c
        v[L.V_PLAYED] |= 1 << c
        v[L.V_PLAYED_BY + c] = seat
        if c == friend:
            v[L.V_FRIEND_SEAT] = seat
        hands[seat] &= ~(1 << c)


@pytest.fixture(scope="module")
def rows():
    run = simcore.simulate("trump-friend", 6, seed=4, policy=["heuristic"], log_plays=True)
    return run.hands().collect().to_dicts()


def context(truth, voids):
    ctx = pimc.new_context(np.array(list(truth) + [0], np.uint64))
    ctx[pimc.C_VOIDS][:] = voids
    return ctx


def choose(policy, row, upto, truth=None, seed=777):
    v, hands, seat, legal, voids = replay(row, upto)
    st = np.array([seed], np.uint64)
    card = pimc.search_card(policy, seat, np.uint64(hands[seat]), np.uint64(legal), v, st,
                            context(truth or hands, voids))
    assert st[0] == seed  # the deal's policy stream is not advanced
    return int(card), legal


def test_pimc_and_dd_choose_only_legal_cards(rows):
    for row in rows[:3]:
        for upto in range(0, 50, 4):
            for policy in (pimc.PIMC + 2, pimc.DD):
                card, legal = choose(policy, row, upto)
                assert legal >> card & 1, (upto, policy)


def test_facts_and_sampled_worlds_respect_every_observation(rows):
    row = rows[0]
    v, hands, seat, legal, voids = replay(row, 33)
    need = np.zeros(pimc.HOLDERS, np.int64)
    masks = np.zeros((3, pimc.HOLDERS), np.uint64)
    unseen = int(pimc.play_facts(seat, np.uint64(hands[seat]), v, voids, need, masks))
    assert need[pimc.KITTY] == 2 and need[seat] == 0
    assert unseen == ((1 << 52) - 1) & ~int(v[L.V_PLAYED]) & ~hands[seat]
    sc = sampling.new_scratch(pimc.MAX_STATES)
    assert sampling.prepare(np.uint64(unseen), need, masks[0], pimc.HOLDERS, sc) > 0
    st = np.array([5], np.uint64)
    out = np.zeros(pimc.HOLDERS, np.uint64)
    for _ in range(200):
        sampling.draw(st, sc, out)
        world = [int(o) for o in out]
        world[seat] = hands[seat]
        assert [bin(w).count("1") for w in world[:5]] == [bin(h).count("1") for h in hands]
        assert bin(world[5]).count("1") == 2
        assert sum(world) | int(v[L.V_PLAYED]) == (1 << 52) - 1
        for s in range(5):
            for suit in range(4):
                if voids[s] >> suit & 1:
                    assert not world[s] & (0x1FFF << 13 * suit)


def _swapped(hands, voids, seat):
    """The hands with one card of two other seats exchanged where neither showed a void."""
    for a in range(5):
        for b in range(a + 1, 5):
            if seat in (a, b):
                continue
            for ca in range(52):
                for cb in range(52):
                    if hands[a] >> ca & 1 and hands[b] >> cb & 1 and ca // 13 != cb // 13 \
                            and not voids[b] >> (ca // 13) & 1 and not voids[a] >> (cb // 13) & 1:
                        out = list(hands)
                        out[a] = out[a] & ~(1 << ca) | (1 << cb)
                        out[b] = out[b] & ~(1 << cb) | (1 << ca)
                        return out
    return None


@pytest.mark.parametrize("upto", [11, 27, 38])
def test_the_same_information_gives_the_same_choice_whatever_the_hidden_cards(rows, upto):
    row = rows[1]
    v, hands, seat, legal, voids = replay(row, upto)
    other = _swapped(hands, voids, seat)
    assert other is not None and other != hands
    for policy in (pimc.PIMC + 5, pimc.PIMC + 1):
        assert choose(policy, row, upto, hands)[0] == choose(policy, row, upto, other)[0]


def run(specs, count=8, seed=11, threads=None, chunk=None, mode="hands", **kw):
    return simcore.simulate("trump-friend", count, seed=seed, policy=specs, threads=threads,
                            chunk_size=chunk, mode=mode, **kw)


def test_reproducible_for_any_threads_and_chunks():
    one = run(["2=pimc:2"], threads=1).hands().collect()
    two = run(["2=pimc:2"], threads=2, chunk=3).hands().collect()
    assert one.equals(two)


def test_dd_is_omniscient_in_the_manifest_and_describe(tmp_path, capsys):
    out = tmp_path / "dd"
    run(["0=dd", "3=pimc:2"], count=4, out=str(out))
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["omniscient"] == ["dd"]
    from simcore.cli import main

    assert main(["describe", "trump-friend"]) == 0
    text = capsys.readouterr().out
    assert "pimc:W" in text and "omniscient" in text


def test_policy_names():
    assert GAME.policies_from_specs(["0=pimc:32"]).seats[0] == "pimc:32"
    for bad in ("pimc:0", "pimc:W", "pimc:x"):
        with pytest.raises(SimcoreError):
            GAME.policies_from_specs([f"0={bad}"])
