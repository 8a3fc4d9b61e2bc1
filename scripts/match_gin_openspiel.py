"""Gin Rummy against a Numba copy of OpenSpiel's simple gin bot, in simcore's engine, scored
as OpenSpiel scores: thousands of hands a second, for tuning (docs/games/gin_rummy.md).

    .venv/bin/python scripts/match_gin_openspiel.py --hands 20000 --seed 5
    .venv/bin/python scripts/match_gin_openspiel.py --hands 20000 --seed 5 --params 5,2,7,...
    .venv/bin/python scripts/match_gin_openspiel.py --player heuristic
    .venv/bin/python scripts/match_gin_openspiel.py --check 500   # the copy vs the real bot

``scripts/match_openspiel.py gin`` plays OpenSpiel's engine and bot through the Python glue
(about 30 ms a hand); this plays the same bot's rules (``simple_bot_play``, read from
open_spiel/bots/gin_rummy/simple_gin_rummy_bot.cc) inside simcore's engine.  The bot: takes
the upcard if it then could knock or if the upcard lies in its best meld group; discards the
highest-ranked card (A low, ties by OpenSpiel's suit order) of its best meld group's
deadwood; knocks as soon as it may; never lays off.  Where OpenSpiel's best meld group is
one of several, the copy takes the highest such card of any, so a few decisions differ
(``--check``).  Each deal is played twice with the seats swapped (duplicate), the dealer
alternating by deal; a hand is scored as OpenSpiel does: the copy never lays off, a tie
scores nothing (no undercut), gin 25 + the defender's deadwood, an undercut 25 + the
difference.  Not modelled: OpenSpiel's knock "at the wall" (simcore voids the hand, GR-12).
Reported: hands won (margin > 0; voids and ties are not won) with a Wilson 95% interval,
points per hand with a 95% interval over deals (the two seatings of a deal as one), who
knocked and how those hands ended, cards taken from the pile per hand.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

import numba as nb
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from analyses.stats import wilson  # noqa: E402
from simcore.cards import bit, lowest_bit  # noqa: E402
from simcore.games.base import PolicyChoice, rebind  # noqa: E402
from simcore.games.gin_rummy import config  # noqa: E402
from simcore.games.gin_rummy import expert as EX  # noqa: E402
from simcore.games.gin_rummy.engine import (  # noqa: E402
    ARRANGEMENTS, R_DW0, R_KNOCKER, R_TURNS, _discard_and_knock, play_hand)
from simcore.games.gin_rummy.layout import (  # noqa: E402
    K_DISCARD, K_DRAW, K_UPCARD, V_KNOCK_LIMIT, V_OPP_DISCARDS, V_OPP_PICKS, V_SEAT, V_TOP,
    VIEW_SIZE)
from simcore.games.gin_rummy.policies import heuristic_policy  # noqa: E402
from simcore.games.gin_rummy.rules import Rules  # noqa: E402
from simcore.melds import MAX_MELDS, gin_deadwood  # noqa: E402
from simcore.rng import stream_key  # noqa: E402

SIMPLE, HEURISTIC, EXPERT = 10, 1, 3  # policy ids of this script's dispatcher
# No ``cache=True`` here: the functions compile in seconds, and a disk cache written when the
# tests load this file under another module name fails to load in a run of the script.
_ONE = np.uint64(1)


@nb.njit(inline="always")
def _value(c):
    r = c % 13
    return 1 if r == 12 else min(r + 2, 10)


@nb.njit(inline="always")
def _os_rank_key(c):
    """OpenSpiel's RankComparator order of public card c: rank A..K, then suit s c d h."""
    return ((c % 13 + 1) % 13) * 4 + (c // 13 + 1) % 4


@nb.njit
def simple_bot_discard(hand):
    """The highest-ranked card that is deadwood in a minimum-deadwood arrangement of the 11
    cards; with 11-card gin, the first card (OpenSpiel's order) whose discard keeps gin."""
    full = gin_deadwood(hand)
    best, best_key = -1, -1
    m = hand
    while m:
        c = lowest_bit(m)
        m &= m - _ONE
        if gin_deadwood(hand & ~bit(c)) == full - _value(c) and _os_rank_key(c) > best_key:
            best, best_key = c, _os_rank_key(c)
    if best >= 0:
        return best
    first = 1 << 30
    m = hand
    while m:
        c = lowest_bit(m)
        m &= m - _ONE
        os_id = ((c // 13 + 1) % 4) * 13 + (c % 13 + 1) % 13
        if gin_deadwood(hand & ~bit(c)) == 0 and os_id < first:
            first, best = os_id, c
    return best


@nb.njit
def simple_bot_play(kind, seat, hand, view, st):
    """OpenSpiel's SimpleGinRummyBot as a simcore play policy (knocks whenever asked)."""
    if kind == K_UPCARD or kind == K_DRAW:
        top = view[V_TOP]
        if top < 0:
            return 0
        with_top = np.uint64(hand) | bit(top)
        after = gin_deadwood(with_top & ~bit(simple_bot_discard(with_top)))
        if after <= view[V_KNOCK_LIMIT]:
            return 1
        # the top card melded in every best arrangement (it is in no best deadwood)
        return 1 if gin_deadwood(np.uint64(hand)) != gin_deadwood(with_top) - _value(top) else 0
    if kind == K_DISCARD:
        return simple_bot_discard(np.uint64(hand))
    return 1


def _kernel():
    """The duplicate-match kernel: simcore's ``play_hand`` around this script's dispatcher,
    whose policy row holds the seats' ids, two pile-take counters and the expert's weights
    (x 1000), so one compile serves every weight."""
    @nb.njit
    def play(policies, p, kind, hand, view, pst):
        pid = policies[p]
        if pid == SIMPLE:
            r = simple_bot_play(kind, p, hand, view, pst)
        elif pid == HEURISTIC:
            r = heuristic_policy(kind, p, hand, view, pst)
        else:
            r = EX.expert_play(kind, p, hand, view, pst, policies[4:] / 1000.0)
        if kind == K_DRAW and r == 1:
            policies[2 + p] += 1
        return r

    def ask(kind, p, policies, hands, picks, discards, view, pst):
        view[V_SEAT] = p
        view[V_OPP_PICKS] = np.int64(picks[1 - p])
        view[V_OPP_DISCARDS] = np.int64(discards[1 - p])
        return play(policies, p, kind, hands[p], view, pst)

    ask_fn = nb.njit(rebind(ask, play=play))
    disc_fn = nb.njit(rebind(_discard_and_knock.py_func, _ask=ask_fn))
    hand_fn = nb.njit(rebind(play_hand.py_func, _ask=ask_fn, _discard_and_knock=disc_fn))
    return nb.njit(parallel=True)(rebind(_duplicate, play_hand=hand_fn))


@nb.njit
def _score(knocker, hands, res, defender_lays_off):
    """OpenSpiel's points to the knocker (negative: the defender's)."""
    kd = gin_deadwood(hands[knocker])
    dd = res[R_DW0 + 1 - knocker] if defender_lays_off else gin_deadwood(hands[1 - knocker])
    if kd == 0:
        return 25 + dd, kd, dd
    if dd > kd:
        return dd - kd, kd, dd
    return (0 if dd == kd else -(kd - dd + 25)), kd, dd


def _duplicate(seed, n, cfg, row_a, row_b, out):
    """out[k, s] = (margin for A, A knocked 1 / B knocked 0 / void -1, knocker's deadwood,
    defender's, turns, A's pile takes, B's) for deal k, A in seat s."""
    for k in nb.prange(n):
        st = np.zeros(1, np.uint64)
        pst = np.zeros(1, np.uint64)
        deck, order = np.empty(52, np.int64), np.empty(52, np.int64)
        hands, picks = np.empty(2, np.uint64), np.empty(2, np.uint64)
        discards, pile = np.empty(2, np.uint64), np.empty(2, np.uint64)
        view = np.empty(VIEW_SIZE, np.int64)
        scratch = np.empty((ARRANGEMENTS, MAX_MELDS), np.uint64)
        res = np.zeros(16, np.int64)
        pol = row_a.copy()
        for a in range(2):
            pol[a], pol[1 - a], pol[2], pol[3] = row_a[0], row_b[0], 0, 0
            st[0] = stream_key(seed, k, 0, 0)
            play_hand(st, pst, deck, hands, picks, discards, pile, order, view, scratch,
                      k % 2, cfg, pol, res, False)
            out[k, a, 4], out[k, a, 5], out[k, a, 6] = res[R_TURNS], pol[2 + a], pol[3 - a]
            knocker = res[R_KNOCKER]
            if knocker < 0:
                out[k, a, 0], out[k, a, 1] = 0, -1
                continue
            m, kd, dd = _score(knocker, hands, res, pol[1 - knocker] != SIMPLE)
            out[k, a, 0] = m if knocker == a else -m
            out[k, a, 1], out[k, a, 2], out[k, a, 3] = knocker == a, kd, dd


def policy_row(pid: int, params=EX.PARAMS) -> np.ndarray:
    return np.array([pid, 0, 0, 0] + [round(float(x) * 1000) for x in params], np.int64)


def os_rules_cfg() -> np.ndarray:
    """OpenSpiel's rules in simcore's terms (docs/interop.md): the taken card may be thrown."""
    return config(Rules(may_discard_taken_card=True),
                  PolicyChoice(seats=("heuristic", "heuristic"), decisions={"knock": "limit"}))


def report(out: np.ndarray, label: str) -> str:
    m = out[:, :, 0].astype(float)
    n, won = m.size, int((m > 0).sum())
    lo, hi = wilson([won], [n])
    per_deal = m.mean(axis=1)
    half = 1.96 * per_deal.std(ddof=1) / np.sqrt(len(per_deal))
    a, b = out[:, :, 1] == 1, out[:, :, 1] == 0
    gin = (out[:, :, 2] == 0) & a
    return (f"{label}: {n:,} hands ({n // 2:,} deals x 2 seatings): won {won / n:.1%} "
            f"[{lo[0]:.1%}, {hi[0]:.1%}], {m.mean():+.2f} ± {half:.2f} points/hand; "
            f"knocked first {a.mean():.1%} (undercut {((m < 0) & a).sum() / max(a.sum(), 1):.1%}, "
            f"gin {gin.sum() / max(a.sum(), 1):.1%}); opponent knocked {b.mean():.1%} "
            f"(undercut by us {((m > 0) & b).sum() / max(b.sum(), 1):.1%}, tied "
            f"{((m == 0) & b).sum() / max(b.sum(), 1):.1%}); void {(out[:, :, 1] == -1).mean():.1%}; "
            f"pile takes a hand {out[:, :, 5].mean():.2f} vs {out[:, :, 6].mean():.2f}")


def check(hands: int) -> str:
    """The copy's answers against pyspiel's bot at the bot's own draws and discards, in
    OpenSpiel games between two simple bots."""
    import pyspiel

    from simcore.interop import os_gin_rummy as G

    game = pyspiel.load_game("gin_rummy")
    counts = {"draw": [0, 0], "discard": [0, 0]}
    for k in range(hands):
        bots = [pyspiel.make_simple_gin_rummy_bot(game.get_parameters(), p) for p in (0, 1)]
        rng, state = random.Random(f"check/{k}"), game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(actions, probs)[0])
                continue
            p, legal = state.current_player(), state.legal_actions()
            action, obs = bots[p].step(state), G.observe(state, p, None)
            hand = np.uint64(G._mask(obs.hand))
            if obs.knocker < 0 and legal in ([52, 54], [52, 53]) and obs.stock > 2:
                view = np.zeros(VIEW_SIZE, np.int64)
                view[V_TOP], view[V_KNOCK_LIMIT] = obs.pile[-1], 10
                same = (simple_bot_play(K_DRAW, p, hand, view, np.zeros(1, np.uint64)) == 1) \
                    == (action == G.DRAW_UPCARD)
                counts["draw"][0] += same
                counts["draw"][1] += 1
            elif obs.knocker < 0 and len(obs.hand) == 11 and action < 52:
                counts["discard"][0] += G.card_to_os(int(simple_bot_discard(hand))) == action
                counts["discard"][1] += 1
            state.apply_action(action)
    return ", ".join(f"{k}: {same:,} of {n:,} the same ({same / max(n, 1):.2%})"
                     for k, (same, n) in counts.items())


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=20000, help="deals (each played twice)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--player", choices=("expert", "heuristic", "simple"), default="expert")
    ap.add_argument("--opponent", choices=("simple", "heuristic"), default="simple")
    ap.add_argument("--params", help="the expert's weights (expert.PARAMS order, comma-separated)")
    ap.add_argument("--check", type=int, metavar="HANDS",
                    help="only compare the copy with pyspiel's bot over HANDS bot-vs-bot hands")
    args = ap.parse_args(argv)
    if args.check:
        print(check(args.check))
        return 0
    params = EX.PARAMS
    if args.params:
        params = tuple(float(x) for x in args.params.split(","))
        if len(params) != len(EX.PARAMS):
            raise SystemExit(f"--params needs {len(EX.PARAMS)} numbers (expert.PARAMS)")
    ids = {"expert": EXPERT, "heuristic": HEURISTIC, "simple": SIMPLE}
    out = np.zeros((args.hands, 2, 7), np.int64)
    t = time.perf_counter()
    _kernel()(np.uint64(args.seed), args.hands, os_rules_cfg(), policy_row(ids[args.player], params),
              policy_row(ids[args.opponent]), out)
    label = f"{args.player}{'(' + args.params + ')' if args.params else ''} vs {args.opponent} (seed {args.seed})"
    print(report(out, label) + f"; {time.perf_counter() - t:.0f} s with the compile")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
