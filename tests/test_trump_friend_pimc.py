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
from simcore.games import searching
from simcore.games.trump_friend import layout as L, pimc, policies
from simcore.tricks import trick_winner_at

from reference.posterior import chi_square_p, exact_posterior

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


def plays_of(row):
    return [int(L.TO_INTERNAL[c]) for c in row["plays"]]


def context(truth, voids, row=None, upto=0):
    """A search context as the kernel holds it before play ``upto`` of ``row``: the voids and
    the order of the cards played so far (what the engine's ``seen_card`` records)."""
    ctx = pimc.new_context(np.array(list(truth) + [0], np.uint64))
    ctx[pimc.C_VOIDS][:] = voids
    if row is not None:
        ctx[pimc.C_ORDER][:upto] = plays_of(row)[:upto]
    return ctx


def choose(policy, row, upto, truth=None, seed=777):
    v, hands, seat, legal, voids = replay(row, upto)
    st = np.array([seed], np.uint64)
    card = pimc.search_card(policy, seat, np.uint64(hands[seat]), np.uint64(legal), v, st,
                            context(truth or hands, voids, row, upto))
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
    for policy in (pimc.PIMC + 5, pimc.PIMC + 1, searching.INFER + 5):
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
    assert GAME.policies_from_specs(["1=pimc-uniform:8"]).seats[1] == "pimc-uniform:8"
    assert pimc.PLAY_POLICIES["pimc"] == searching.INFER + pimc.DEFAULT_WORLDS
    assert pimc.PLAY_POLICIES["pimc-uniform"] == searching.PIMC + pimc.DEFAULT_WORLDS
    for bad in ("pimc:0", "pimc:W", "pimc:x", "pimc-uniform:0"):
        with pytest.raises(SimcoreError):
            GAME.policies_from_specs([f"0={bad}"])


# ---------------------------------------------------------------- worlds read from the play


def oracle_likelihood(row, upto, seat, world, views):
    """P(the cards the seats other than ``seat`` played before play ``upto`` | ``world``, the
    holders' cards then), by a plain replay: each such play is the heuristic's card on the
    view ``replay`` rebuilds (``views[k]``), with probability 1 - PLAY_MISS, else any legal
    card alike."""
    plays = plays_of(row)
    hands = [int(world[s]) for s in range(5)]
    for k in range(upto):
        hands[views[k][2]] |= 1 << plays[k]
    st = np.array([3], np.uint64)
    like = 1.0
    for k in range(upto):
        v, s, c = views[k][0], views[k][2], plays[k]
        led = plays[k - k % 5] // 13
        legal = hands[s] if k % 5 == 0 else (hands[s] & (0x1FFF << 13 * led) or hands[s])
        n = bin(legal).count("1")
        if s != seat and n > 1:
            h = int(policies.heuristic_play(s, np.uint64(hands[s]), np.uint64(legal), v, st))
            like *= (1 - pimc.PLAY_MISS) * (h == c) + pimc.PLAY_MISS / n
        hands[s] &= ~(1 << c)
    return like


def prepared(row, upto):
    """The position before play ``upto``: view, seat, hands, a context with the sampler
    prepared for the seat's decision and the past views, and the replayed views."""
    v, hands, seat, legal, voids = replay(row, upto)
    ctx = context(hands, voids, row, upto)
    unseen = pimc.play_facts(seat, np.uint64(hands[seat]), v, voids, ctx[pimc.C_NEED],
                             ctx[pimc.C_MASKS])
    assert sampling.prepare(unseen, ctx[pimc.C_NEED], ctx[pimc.C_MASKS][0], pimc.HOLDERS,
                            ctx[pimc.C_SC]) > 0
    assert pimc.past_views(ctx, v) == upto
    return v, seat, hands, ctx, [replay(row, k) for k in range(upto)]


def test_play_likelihood_is_a_plain_replay_of_the_heuristic(rows):
    """The kernel's likelihood of sampled worlds equals the plain replay's; in the true world
    of a round the heuristic played, every informative play is the model's likeliest card."""
    st = np.array([9], np.uint64)
    out = np.zeros(pimc.HOLDERS, np.uint64)
    for row in rows[:3]:
        kitty = internal(row["kitty"])
        for upto in (7, 23, 41):
            v, seat, hands, ctx, views = prepared(row, upto)
            truth = np.array(hands + [kitty], np.uint64)
            best = 1.0
            for k in range(upto):
                s, legal = views[k][2], views[k][3]
                n = bin(legal).count("1")
                if s != seat and n > 1:
                    best *= 1 - pimc.PLAY_MISS + pimc.PLAY_MISS / n
            assert pimc.play_likelihood(ctx, seat, truth) == pytest.approx(best)
            assert oracle_likelihood(row, upto, seat, truth, views) == pytest.approx(best)
            for _ in range(25):
                sampling.draw(st, ctx[pimc.C_SC], out)
                world = ctx[pimc.C_MASKS][1] | out
                fast = pimc.play_likelihood(ctx, seat, world)
                assert fast == pytest.approx(oracle_likelihood(row, upto, seat, world, views),
                                             rel=1e-12)
                assert fast <= best * (1 + 1e-12)


def _play_posterior(row, upto):
    """Every deal of the unseen cards the card facts allow before play ``upto``, weighted by
    the oracle's likelihood of the plays, normalised."""
    v, seat, hands, ctx, views = prepared(row, upto)
    need = [int(n) for n in ctx[pimc.C_NEED]]
    allowed = [int(m) for m in ctx[pimc.C_MASKS][0]]
    known = [int(m) for m in ctx[pimc.C_MASKS][1]]
    unseen = ((1 << 52) - 1) & ~int(v[L.V_PLAYED]) & ~hands[seat]
    cards = [c for c in range(52) if unseen >> c & 1]
    return v, seat, ctx, exact_posterior(
        cards, allowed, need, known, lambda world: oracle_likelihood(row, upto, seat, world, views))


def test_weighted_worlds_follow_the_exact_posterior_of_the_play(rows):
    """At a late position whose exact posterior under the play model is far from uniform, the
    worlds pimc draws (resampled and moved), over 1,000 decisions' streams, are distributed as
    that posterior (chi-square; the same test rejects the uniform), and each is a deal the card
    facts allow (a KeyError otherwise)."""
    for row in rows:
        for upto in range(40, 47):
            if replay(row, upto)[2] == row["declarer"]:
                continue
            v, seat, ctx, post = _play_posterior(row, upto)
            p = np.array(list(post.values()))
            if 20 <= len(p) <= 400 and p.max() > 3 * p.min():
                break
        else:
            continue
        break
    else:
        raise AssertionError("no readable position in the logged rounds")
    keys = list(post)
    counts = dict.fromkeys(keys, 0)
    for d in range(1000):
        ctx[pimc.C_ST][0] = np.uint64(1000 + d)
        for world in pimc.weighted_worlds(ctx, v, seat, 10):
            counts[tuple(int(h) for h in world)] += 1
    obs = np.array([counts[k] for k in keys], np.float64)
    p = np.array([post[k] for k in keys])
    assert chi_square_p(obs, p * obs.sum()) > 1e-3
    assert chi_square_p(obs, np.full(len(p), obs.sum() / len(p))) < 1e-6


def test_pimc_reads_the_play_and_pimc_uniform_does_not():
    """pimc-uniform keeps the uniform sampler's rows (their digest before the play was read);
    pimc, declarer or not, draws other worlds once another seat has played."""
    import hashlib

    def digest(specs):
        df = run(specs, count=8, seed=7, log_plays=True, threads=1).hands().collect()
        return hashlib.sha256(repr(df.rows()).encode()).hexdigest()[:16]

    assert digest(["2=pimc-uniform:3"]) == "fd725034d5e1075b"
    assert digest(["0=pimc-uniform:3"]) == "9ca9c5d8fd6fee88"  # seat 0 declares
    assert digest(["2=pimc:3"]) != "fd725034d5e1075b"
    assert digest(["0=pimc:3"]) != "9ca9c5d8fd6fee88"
