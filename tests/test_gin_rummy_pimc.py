"""Gin Rummy ``pimc`` (simcore.games.gin_rummy.pimc): the public history in the view, the
reading of the opponent's hand against a plain importance-sampling oracle, the play-outs, and
the policy end to end in the engine and in OpenSpiel's."""

import numba as nb
import numpy as np
import pytest

import simcore
from simcore.cards import bit
from simcore.errors import SimcoreError
from simcore.games.base import PolicyChoice
from simcore.games.gin_rummy import GAME, layout as L, pimc, run_hands
from simcore.games.gin_rummy.policies import PLAY_POLICIES, builtin_play
from simcore.games.gin_rummy.rules import Rules
from simcore.games.gin_rummy.simple import simple_bot_discard, simple_bot_takes
from simcore.melds import gin_deadwood



# ---------------------------------------------------------------- the model's rules


def _plain_simple_discard(hand):
    """The simple bot's discard by its definition: every card's deadwood searched."""
    full = gin_deadwood(hand)
    key = lambda c: ((c % 13 + 1) % 13) * 4 + (c // 13 + 1) % 4  # noqa: E731
    value = lambda c: 1 if c % 13 == 12 else min(c % 13 + 2, 10)  # noqa: E731
    cards = [c for c in range(52) if int(hand) >> c & 1]
    dead = [c for c in cards if gin_deadwood(hand & ~np.uint64(1 << c)) == full - value(c)]
    if dead:
        return max(dead, key=key)
    os_id = lambda c: ((c // 13 + 1) % 4) * 13 + (c % 13 + 1) % 13  # noqa: E731
    return min((c for c in cards if gin_deadwood(hand & ~np.uint64(1 << c)) == 0), key=os_id)


def test_the_simple_bots_discard_is_its_definition():
    """On 3,000 random 11-card hands, and 1,000 built around melds (runs and sets of the
    same few ranks), the shortcut gives the card the plain search of every card gives."""
    rs = np.random.default_rng(5)
    hands = [rs.choice(52, 11, replace=False) for _ in range(3000)]
    for _ in range(1000):  # melds likely: 11 cards from 4 ranks' neighbourhoods
        ranks = rs.choice(13, 4, replace=False)
        pool = [s * 13 + (r + d) % 13 for s in range(4) for r in ranks for d in (0, 1)]
        hands.append(rs.choice(pool, 11, replace=False))
    for cards in hands:
        hand = np.uint64(sum(1 << int(c) for c in cards))
        assert simple_bot_discard(hand) == _plain_simple_discard(hand), cards


# ---------------------------------------------------------------- the history in the view


@nb.njit
def _history_agrees(hand, view):
    """Does the view's history give the view's pile, top card, turn count, the opponent's
    picks and discards, and does the seat's ``own`` hold its hand less the cards it took?"""
    n, who, offered, took, card, top, gone, own = pimc.read_history(hand, view)
    if n < 0:
        return True
    me = view[L.V_SEAT]
    pile = np.empty(64, np.int64)
    pile[0] = view[L.V_UPCARD]
    n_pile = 1
    opp_picks = np.uint64(0)
    opp_discards = np.uint64(0)
    my_takes = np.uint64(0)
    turns = 0
    for j in range(n):
        if offered[j] and n_pile == 0:
            return False
        if took[j]:
            if not offered[j]:
                return False
            n_pile -= 1
            if who[j] != me:
                opp_picks |= bit(top[j])
            else:
                my_takes |= bit(top[j])
        if card[j] >= 0:
            turns += 1
            pile[n_pile] = card[j]
            n_pile += 1
            if who[j] != me:
                opp_discards |= bit(card[j])
                opp_picks &= ~bit(card[j])
        if j > 0 and card[j - 1] >= 0 and who[j] == who[j - 1]:
            return False  # turns alternate after every discard
    if view[L.V_TAKEN] >= 0:
        n_pile -= 1
        my_takes |= bit(view[L.V_TAKEN])
    mask = np.uint64(0)
    for i in range(n_pile):
        mask |= bit(pile[i])
    ok = mask == np.uint64(view[L.V_PILE])
    ok &= (pile[n_pile - 1] if n_pile > 0 else -1) == view[L.V_TOP]
    ok &= turns == view[L.V_TURN]
    ok &= opp_picks == np.uint64(view[L.V_OPP_PICKS])
    ok &= opp_discards == np.uint64(view[L.V_OPP_DISCARDS])
    ok &= (np.uint64(hand) & ~my_takes & ~own) == 0
    return ok


# typed, so that the calls below load the engine's compiled ``builtin_play`` from the cache
RANDOM, HEURISTIC = np.int64(PLAY_POLICIES["random"]), np.int64(PLAY_POLICIES["heuristic"])


@nb.njit
def checking_policy(kind, seat, hand, view, st):
    """Random or heuristic answers (by seat), -1 (an illegal answer) when the history and
    the view disagree."""
    if not _history_agrees(hand, view):
        return -1
    return builtin_play(RANDOM if seat == 0 else HEURISTIC, kind, seat, hand, view, st)


def test_a_user_policy_calling_the_builtin_random_gives_the_random_rows():
    """The kernels compiled around a user policy run the same engine: seat 0's user policy
    (checking_policy, random play once its view checks out) gives the rows of the built-in
    random policy in that seat."""
    def rows(first):
        return simcore.simulate("gin-rummy", 300, seed=6, policy={0: first, 1: "heuristic"}).hands().collect()

    assert rows(checking_policy).equals(rows("random"))


def test_the_views_history_is_the_hand_as_played():
    """At every decision of 600 hands (a random seat that takes and passes at random, a
    heuristic one) the history rebuilds the pile, the top card, the turn count and the
    opponent's picks and discards the view shows; an illegal answer would raise."""
    choice = PolicyChoice(("user", "user"), {"knock": "limit"}, {0: checking_policy,
                                                                  1: checking_policy})
    rows = run_hands(3, 0, 600, Rules(), choice)
    assert rows.height == 600 and rows["turns"].max() > 20


def test_the_history_keeps_passed_upcards_and_draws_without_an_offer():
    """GR-7: both seats pass the upcard; the non-dealer then draws from the stock unasked."""
    view = np.zeros(L.VIEW_SIZE, np.int64)
    up, d1, d2 = 5, 40, 41
    view[L.V_UPCARD] = up
    entries = [L.hist_entry(0, 1, 0, -1), L.hist_entry(1, 1, 0, -1), L.hist_entry(0, 0, 0, d1),
               L.hist_entry(1, 1, 1, d2)]
    view[L.V_HIST_N] = len(entries)
    view[L.V_HIST:L.V_HIST + len(entries)] = entries
    view[L.V_SEAT], view[L.V_TAKEN] = 0, -1
    hand = np.uint64(sum(1 << c for c in range(10, 20)))
    n, who, offered, took, card, top, gone, own = pimc.read_history(hand, view)
    assert n == 4
    assert list(who[:4]) == [0, 1, 0, 1] and list(offered[:4]) == [1, 1, 0, 1]
    assert list(top[:4]) == [up, up, -1, d1]  # seat 1 took d1, the card on top of the upcard
    assert list(card[:4]) == [-1, -1, d1, d2]
    assert own == np.uint64(hand) | np.uint64(1 << d1)
    assert gone[3] == own | np.uint64(1 << up) | np.uint64(1 << d1)


def test_a_history_longer_than_the_view_falls_back():
    view = np.zeros(L.VIEW_SIZE, np.int64)
    view[L.V_HIST_N] = L.MAX_HIST + 1
    n, *_ = pimc.read_history(np.uint64(0), view)
    assert n == -1


# ---------------------------------------------------------------- the reading


def _play_to_a_discard(rs, bot_turns, bot_discard=None):
    """A hand against the simple bot up to the seat's discard after ``bot_turns`` turns of
    the bot: (seat's 11 cards, view, the bot's true hand, dealt cards, its stock draws).
    Seat 0 is the non-dealer; it passes the upcard and every offer, draws from the stock and
    throws its highest card that melds with nothing.  ``bot_discard`` replaces the bot's
    discard rule (an opponent the model does not describe)."""
    deck = rs.permutation(52)
    seat = np.uint64(sum(1 << int(c) for c in deck[:10]))
    bot = np.uint64(sum(1 << int(c) for c in deck[10:20]))
    dealt = bot
    up = int(deck[20])
    nxt = 21
    pile = [up]
    hist = []
    draws = []
    limit = 10
    hist.append(L.hist_entry(0, 1, 0, -1))
    take, _ = simple_bot_takes(bot, up, limit)
    first = True
    if take:
        bot |= np.uint64(1 << pile.pop())
        d = simple_bot_discard(bot) if bot_discard is None else bot_discard(bot, rs)
        bot &= ~np.uint64(1 << d)
        pile.append(d)
        hist.append(L.hist_entry(1, 1, 1, d))
        bot_turns -= 1
        first = False
    else:
        hist.append(L.hist_entry(1, 1, 0, -1))
    turns = 0
    while True:
        # the seat: passes the top (if offered), draws from the stock
        c = int(deck[nxt])
        nxt += 1
        seat |= np.uint64(1 << c)
        if bot_turns == 0:
            break
        d = max((x for x in range(52) if seat >> np.uint64(x) & np.uint64(1)),
                key=lambda x: (gin_deadwood(seat & ~np.uint64(1 << x)) * -1, x))
        seat &= ~np.uint64(1 << d)
        hist.append(L.hist_entry(0, 0 if first else 1, 0, d))
        first = False
        pile.append(d)
        turns += 1
        # the bot
        take, _ = simple_bot_takes(bot, d, limit)
        if take:
            bot |= np.uint64(1 << pile.pop())
        else:
            s = int(deck[nxt])
            nxt += 1
            draws.append(s)
            bot |= np.uint64(1 << s)
        e = simple_bot_discard(bot) if bot_discard is None else bot_discard(bot, rs)
        bot &= ~np.uint64(1 << e)
        if gin_deadwood(bot) <= limit and bot_discard is None:
            return None  # the bot knocks: no decision left
        pile.append(e)
        hist.append(L.hist_entry(1, 1, int(take), e))
        turns += 1
        bot_turns -= 1
    view = np.zeros(L.VIEW_SIZE, np.int64)
    view[L.V_SEAT], view[L.V_DEALER], view[L.V_UPCARD] = 0, 1, up
    view[L.V_TOP] = pile[-1] if pile else -1
    view[L.V_PILE] = sum(1 << x for x in pile)
    view[L.V_TURN] = turns
    view[L.V_KNOCK_LIMIT], view[L.V_KNOCK_AT], view[L.V_TAKEN] = limit, -1, -1
    view[L.V_STOCK] = 52 - nxt
    view[L.V_HIST_N] = len(hist)
    view[L.V_HIST:L.V_HIST + len(hist)] = hist
    return seat, view, bot, dealt, draws


@nb.njit
def _oracle(hand, view, samples, seed):
    """Importance sampling, the plain way: the opponent's dealt cards uniform among the cards
    it can hold; each stock card uniform among those the stock may hold then, except that a
    discard the hand does not hold must be that card (a draw of chance 1 / the pool's size
    made certain: the sample's weight takes that chance); the history replayed by the model's
    rules and weighed EPS ** misses.  Returns each card's weighted share of the opponent's
    hands and the effective sample size."""
    np.random.seed(seed)
    n, who, offered, took, card, top, gone, own = pimc.read_history(hand, view)
    me = view[L.V_SEAT]
    limit = view[L.V_KNOCK_LIMIT]
    free = np.array([c for c in range(52) if not ((own | bit(view[L.V_UPCARD])) & bit(c))])
    shares = np.zeros(52, np.float64)
    total = 0.0
    total_sq = 0.0
    draws = np.zeros(pimc.MAX_DRAWS, np.int64)
    for _ in range(samples):
        dealt = np.uint64(0)
        for c in np.random.choice(free, 10, replace=False):
            dealt |= bit(c)
        H = dealt
        w = 1.0
        k = 0
        for j in range(n):
            if who[j] == me or card[j] < 0:
                continue
            if took[j]:
                H |= bit(top[j])
            else:
                pool = np.array([c for c in range(52) if not ((H | gone[j]) & bit(c))])
                if H & bit(card[j]):
                    draws[k] = pool[np.random.randint(len(pool))]
                else:
                    draws[k] = card[j]
                    w /= len(pool)
                H |= bit(draws[k])
                k += 1
            H &= ~bit(card[j])
        ok, H, misses = pimc.replay(dealt, draws, who, offered, took, card, top, gone, n, me,
                                    limit)
        if not ok:
            continue
        w *= pimc.EPS ** misses
        total += w
        total_sq += w * w
        for c in range(52):
            if H & bit(c):
                shares[c] += w
    return shares / total, total * total / total_sq


@nb.njit
def _filter_shares(hand, view, runs, seed, n_particles):
    shares = np.zeros(52, np.float64)
    st = np.zeros(1, np.uint64)
    st[0] = np.uint64(seed)
    for _ in range(runs):
        ok, opp, w = pimc.particles(hand, view, n_particles, 20, st)
        if not ok:
            continue
        total = w.sum()
        for i in range(opp.shape[0]):
            for c in range(52):
                if opp[i] & bit(c):
                    shares[c] += w[i] / total / runs
    return shares


def _random_bot_discard(bot, rs):
    cards = [c for c in range(52) if int(bot) >> c & 1]
    return int(rs.choice(cards))


@pytest.mark.parametrize("case, bot_turns, opponent, n_particles, samples", [
    (0, 2, "simple", 1024, 500_000), (1, 3, "simple", 1024, 1_000_000),
    (3, 2, "random discards", 4096, 2_000_000)])
def test_the_reading_matches_importance_sampling(case, bot_turns, opponent, n_particles,
                                                 samples):
    """The particles' share of each card in the opponent's hand is the posterior's: within
    0.04 of the plain importance sampler's (an effective 2,500+ histories) on every card,
    averaged over 8 runs of the filter with 1,024 particles (4,096 against random discards,
    whose weights vary more) and 20 moves.  The policy's 256 particles and 4 moves are
    noisier: 0.04-0.08 off on single cards here.  Against the simple bot the truth has no
    miss; against random discards the misses are weighed (EPS)."""
    rs = np.random.default_rng(100 + case)
    game = None
    while game is None:
        game = _play_to_a_discard(rs, bot_turns,
                                  _random_bot_discard if opponent != "simple" else None)
    hand, view, bot, dealt, draws = game
    want, ess = _oracle(hand, view, samples, case)
    assert ess >= 2_500, ess
    got = _filter_shares(hand, view, 8, 7 + case, n_particles)
    assert np.abs(got - want).max() < 0.04, (np.abs(got - want).max(), ess)
    assert abs(got.sum() - 10) < 1e-6
    if opponent == "simple":
        d = np.zeros(pimc.MAX_DRAWS, np.int64)
        d[:len(draws)] = draws
        n, who, offered, took, card, top, gone, own = pimc.read_history(hand, view)
        ok, now, misses = pimc.replay(dealt, d, who, offered, took, card, top, gone, n, 0, 10)
        assert ok and misses == 0 and now == bot
    assert all(got[c] == 0 for c in range(52) if int(hand) >> c & 1)


# ---------------------------------------------------------------- play-outs


def _mask(cards):
    return np.uint64(sum(1 << c for c in cards))


def test_a_play_out_is_won_by_the_first_knock_below_the_other():
    """Public ids: suit c // 13, rank c % 13 from the two (0) to the ace (12)."""
    tens_jacks = [8, 21, 34, 47, 9, 22, 35, 48]
    mine = _mask(tens_jacks + [11, 24])  # two sets and two kings: deadwood 20
    # the opponent holds three runs and a three (deadwood 3): it takes the king on top,
    # throws it back and knocks at once, below the seat's 20
    three_runs = _mask([0, 1, 2, 13, 14, 15, 26, 27, 28, 40])
    stock = np.array([3, 5, 37, 45], np.int64)  # drawn from the end
    assert pimc.play_out(mine, three_runs, 50, stock.copy(), 4, 10) == 0.0
    # a hopeless opponent (deadwood 48, pairs only) passes the ace, draws the 8 of the fourth
    # suit and throws an 8; the seat passes it, draws the third king and goes gin
    hopeless = _mask([0, 2, 4, 6, 14, 16, 18, 29, 31, 51])
    assert pimc.play_out(mine, hopeless, 12, stock.copy(), 4, 10) == 1.0
    # the same with one card less in the stock: the seat's draw would leave two, a void hand
    assert pimc.play_out(mine, hopeless, 12, stock[1:].copy(), 3, 10) == 0.0


# ---------------------------------------------------------------- the policy in a run


def test_pimc_is_a_policy_name_with_worlds():
    assert GAME.play_policies["pimc"] == GAME.play_policies["pimc:512"]
    assert "pimc:7" in GAME.play_policies and "pimc:0" not in GAME.play_policies
    assert "dd" not in GAME.play_policies
    with pytest.raises(SimcoreError, match="user play policy"):
        run_hands(1, 0, 2, Rules(), PolicyChoice(("pimc:4", "user"), {"knock": "limit"},
                                                 {1: checking_policy}))


def test_pimc_runs_are_reproducible_across_threads_and_chunks():
    """The same rows whether played in one call or two, on 1 or 2 threads, and not the
    expert's rows (the search changes discards)."""
    choice = PolicyChoice(("pimc:16", "heuristic"), {"knock": "limit"})
    whole = run_hands(5, 0, 24, Rules(), choice)
    parts = [run_hands(5, 0, 10, Rules(), choice), run_hands(5, 10, 14, Rules(), choice)]
    import polars as pl
    assert whole.equals(pl.concat(parts))
    threads = nb.get_num_threads()
    try:
        nb.set_num_threads(1)
        assert whole.equals(run_hands(5, 0, 24, Rules(), choice))
    finally:
        nb.set_num_threads(threads)
    expert = run_hands(5, 0, 24, Rules(), PolicyChoice(("expert", "heuristic"),
                                                       {"knock": "limit"}))
    assert not whole.equals(expert)


def _play_openspiel_hand(game, bots, rs):
    """One hand of OpenSpiel's game, chance outcomes drawn from ``rs``; the final state."""
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(rs.choices(actions, probs)[0])
        else:
            state.apply_action(bots[state.current_player()].step(state))
    return state


def test_the_openspiel_glue_gives_the_same_history(monkeypatch):
    """In OpenSpiel's engine the glue's view rebuilds from its history just as the engine's
    does (60 hands, the checking seats in both chairs)."""
    pyspiel = pytest.importorskip("pyspiel")
    import random

    from simcore.interop import openspiel, os_gin_rummy

    asked = []

    def play(kind, seat, hand, view, st):
        assert _history_agrees(hand, view), (kind, seat, list(view))
        asked.append(view[L.V_HIST_N])
        return checking_policy(kind, seat, hand, view, st)

    monkeypatch.setitem(os_gin_rummy.POLICIES, "checking",
                        openspiel.no_argument(lambda: os_gin_rummy.Decisions(play=play)))
    game = pyspiel.load_game("gin_rummy")
    bots = [openspiel.make_bot(game, p, "checking", seed=4) for p in range(2)]
    rs = random.Random(4)
    for _ in range(60):
        _play_openspiel_hand(game, bots, rs)
    assert len(asked) > 1000 and max(asked) > 20


def test_pimc_plays_whole_hands_in_openspiel():
    """The glue's ``pimc:8`` against OpenSpiel's simple bot: legal play to the end."""
    pyspiel = pytest.importorskip("pyspiel")
    import random

    from simcore.interop import openspiel

    game = pyspiel.load_game("gin_rummy")
    rs = random.Random(2)
    for _ in range(3):  # the simple bot keeps state: a new one a hand
        bots = [openspiel.make_bot(game, 0, "pimc:8", seed=2),
                pyspiel.make_simple_gin_rummy_bot(game.get_parameters(), 1)]
        assert sum(_play_openspiel_hand(game, bots, rs).returns()) == 0
    with pytest.raises(SimcoreError, match="pimc:0: W must be a whole number of worlds"):
        openspiel.make_bot(game, 0, "pimc:0")
