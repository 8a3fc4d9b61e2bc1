"""Gin Rummy against a Numba copy of OpenSpiel's simple gin bot, in simcore's engine, scored
as OpenSpiel scores: thousands of hands a second, for tuning (docs/games/gin_rummy.md).

    .venv/bin/python scripts/match_gin_openspiel.py --hands 20000 --seed 5
    .venv/bin/python scripts/match_gin_openspiel.py --hands 20000 --seed 5 --params 5,2,7,...
    .venv/bin/python scripts/match_gin_openspiel.py --player heuristic
    .venv/bin/python scripts/match_gin_openspiel.py --games 20000 --seed 21   # games to 100
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

``--games N``: duplicate games to 100 instead, N seeds, each game played twice with the seats
swapped, dealt as simcore's games mode deals (``simcore.simulate(..., mode="games")``, as
``scripts/strength_gin.py``): the first dealer from (seed, game), hand h from the stream
(seed, game, h + 1), so the two seatings share their deals until the games part.  Hands are
scored as above (OpenSpiel's points).  The game is simcore's (GR-16 ... GR-18, rules
defaults): hands until a total reaches 100, the dealer passing after every knock (a tie
too) and staying after a void hand; at the end the winner gets the 100-point game bonus, 25
a hand won (box bonus) and its hand points doubled in a shutout.  The bonuses change only
the final scores, not who wins: the first to 100 wins, as in the Java base code of the
EAAI-21 Gin Rummy challenge (tneller/gin-rummy-eaai, GinRummyGame.java: GOAL_SCORE 100, no
game, box or shutout bonus, the starting player alternating after each knocked hand, a
cancelled hand dealt again by the same starter).  That code's hands score otherwise: there
the game lays off the defender's cards for either player, and a tie is an undercut (25
points); here the copy never lays off and a tie scores 0, as in OpenSpiel.  Reported: games
won (Wilson 95% over the 2N games, and per seat of the player), hands a game, the shares of
hands won, void and tied, the player's net hand points per hand (t 95%, the ratio clustered by
seed: the two seatings of a seed as one), the final scores' net with simcore's bonuses a game
and the share of shutouts.
"""

from __future__ import annotations

import argparse
import functools
import random
import sys
import time
from pathlib import Path

import numba as nb
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from analyses.stats import t_interval, wilson  # noqa: E402
from simcore.games.base import PolicyChoice, rebind  # noqa: E402
from simcore.games.gin_rummy import config  # noqa: E402
from simcore.games.gin_rummy import expert as EX  # noqa: E402
from simcore.games.gin_rummy.engine import (  # noqa: E402
    ARRANGEMENTS, C_TARGET, R_DW0, R_KNOCKER, R_TURNS, _discard_and_knock, final_scores,
    first_dealer, play_hand)
from simcore.games.gin_rummy.layout import (  # noqa: E402
    K_DRAW, V_KNOCK_LIMIT, V_OPP_DISCARDS, V_OPP_PICKS, V_SEAT, V_TOP,
    VIEW_SIZE)
from simcore.games.gin_rummy.policies import heuristic_policy  # noqa: E402
from simcore.games.gin_rummy.rules import Rules  # noqa: E402
from simcore.games.gin_rummy.simple import simple_bot_discard, simple_bot_play  # noqa: E402,F401
from simcore.games.gin_rummy.pimc import DEFAULT_WORLDS, pimc_play  # noqa: E402
from simcore.games.searching import DD, PIMC, is_search, search_id  # noqa: E402
from simcore.melds import MAX_MELDS, gin_deadwood  # noqa: E402
from simcore.rng import stream_key  # noqa: E402

SIMPLE, HEURISTIC, EXPERT = 10, 1, 3  # policy ids of this script's dispatcher
# No ``cache=True`` here: the functions compile in seconds, and a disk cache written when the
# tests load this file under another module name fails to load in a run of the script.
_ONE = np.uint64(1)


_expert_play = EX.expert_play  # both rebound per kernel (``_kernel``)
_heuristic_play = heuristic_policy
_pimc_play = pimc_play


def _play(policies, p, kind, hand, view, pst):
    """This script's dispatcher (see ``_kernel``)."""
    pid = policies[p]
    if pid == SIMPLE:
        r = simple_bot_play(kind, p, hand, view, pst)
    elif pid == HEURISTIC:
        r = _heuristic_play(kind, p, hand, view, pst)
    elif pid >= PIMC:
        r = _pimc_play(kind, p, hand, view, pst, pid - PIMC)
    else:
        r = _expert_play(kind, p, hand, view, pst, policies[4:] / 1000.0)
    if kind == K_DRAW and r == 1:
        policies[2 + p] += 1
    return r


@nb.njit
def _absent(kind, seat, hand, view, st):
    return -1  # an illegal answer: a policy the kernel was built without


@nb.njit
def _absent_expert(kind, seat, hand, view, st, params):
    return -1


@nb.njit
def _absent_pimc(kind, seat, hand, view, st, worlds):
    return -1


@functools.cache
def _kernel(ids=frozenset((SIMPLE, HEURISTIC, EXPERT))):
    """The duplicate kernels ``(hands, games, one scored hand)``: simcore's ``play_hand`` around this script's
    dispatcher, whose policy row holds the seats' ids, two pile-take counters and the expert's
    weights (x 1000), so one compile serves every weight.  Each compiles at its first call:
    with the expert in ``ids`` minutes, the heuristic and the simple bot about 30 s, the simple
    bot alone about 8 s (the tests); a policy left out answers illegally."""
    play = nb.njit(rebind(_play, _heuristic_play=heuristic_policy if HEURISTIC in ids else _absent,
                          _expert_play=EX.expert_play if EXPERT in ids else _absent_expert,
                          _pimc_play=pimc_play if max(ids) >= PIMC else _absent_pimc))

    def ask(kind, p, policies, hands, picks, discards, view, pst):
        view[V_SEAT] = p
        view[V_OPP_PICKS] = np.int64(picks[1 - p])
        view[V_OPP_DISCARDS] = np.int64(discards[1 - p])
        return play(policies, p, kind, hands[p], view, pst)

    ask_fn = nb.njit(rebind(ask, play=play))
    disc_fn = nb.njit(rebind(_discard_and_knock.py_func, _ask=ask_fn))
    hand_fn = nb.njit(rebind(play_hand.py_func, _ask=ask_fn, _discard_and_knock=disc_fn))
    scored = nb.njit(rebind(_scored_hand, play_hand=hand_fn))
    return (nb.njit(parallel=True)(rebind(_duplicate, _scored_hand=scored)),
            nb.njit(parallel=True)(rebind(_games, _scored_hand=scored)), scored)


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


@nb.njit
def _buffers():
    """One thread's scratch for ``play_hand``: st, pst, deck, order, hands, picks, discards,
    pile, view, scratch, res."""
    return (np.zeros(1, np.uint64), np.zeros(1, np.uint64), np.empty(52, np.int64),
            np.empty(52, np.int64), np.empty(2, np.uint64), np.empty(2, np.uint64),
            np.empty(2, np.uint64), np.empty(2, np.uint64), np.empty(VIEW_SIZE, np.int64),
            np.empty((ARRANGEMENTS, MAX_MELDS), np.uint64), np.zeros(16, np.int64))


def _scored_hand(b, dealer, cfg, pol, a):
    """Play one hand (buffers ``b``, the deal from ``b[0]``) with A in seat ``a`` and score it
    as OpenSpiel does: (ok, A's margin, 1 A knocked / 0 B knocked / -1 void, the knocker's
    deadwood, the defender's)."""
    st, pst, deck, order, hands, picks, discards, pile, view, scratch, res = b
    ok = play_hand(st, pst, deck, hands, picks, discards, pile, order, view, scratch, dealer,
                   cfg, pol, res, False)
    knocker = res[R_KNOCKER]
    if knocker < 0:
        return ok, 0, -1, 0, 0
    m, kd, dd = _score(knocker, hands, res, pol[1 - knocker] != SIMPLE)
    return ok, (m if knocker == a else -m), (1 if knocker == a else 0), kd, dd


def _duplicate(seed, n, cfg, row_a, row_b, out):
    """out[k, s] = (margin for A, A knocked 1 / B knocked 0 / void -1, knocker's deadwood,
    defender's, turns, A's pile takes, B's) for deal k, A in seat s."""
    for k in nb.prange(n):
        b = _buffers()
        pol = row_a.copy()
        for a in range(2):
            pol[a], pol[1 - a], pol[2], pol[3] = row_a[0], row_b[0], 0, 0
            b[0][0] = stream_key(seed, k, 0, 0)
            _, m, who, kd, dd = _scored_hand(b, k % 2, cfg, pol, a)
            out[k, a, 0], out[k, a, 1], out[k, a, 2], out[k, a, 3] = m, who, kd, dd
            out[k, a, 4], out[k, a, 5], out[k, a, 6] = b[10][R_TURNS], pol[2 + a], pol[3 - a]


G_WON, G_HANDS, G_POINTS, G_FINAL, G_VOID, G_TIED, G_SHUTOUT, G_BAD, G_HANDS_WON, G_SIZE = \
    0, 1, 2, 4, 6, 7, 8, 9, 10, 12
MAX_HANDS = 65535  # as the engine's games mode: a game stopped there is counted (G_BAD)


def _games(seed, n, cfg, row_a, row_b, out):
    """Duplicate games to ``cfg[C_TARGET]``: game k is played twice, A in seat 0 then in seat
    1, as simcore's games mode deals them (first dealer from (seed, k), hand h from the stream
    (seed, k, h + 1)).  Hands are scored as OpenSpiel scores them (``_scored_hand``); a void
    hand is dealt again by the same dealer (GR-12), any other hand passes the deal; a 0-point
    tie is won by nobody.  At the end simcore's GR-17/GR-18 bonuses are added
    (``final_scores``: the game bonus, the box bonus per hand won, the shutout doubling).
    out[k, s] = A won 1/0, hands (voids in), A's hand points, B's, A's final score (bonuses
    in), B's, void hands, tied hands, shutout 1/0, illegal answer or stopped 1/0, hands won
    by A, by B (G_*)."""
    for k in nb.prange(n):
        b = _buffers()
        pol = row_a.copy()
        totals, won = np.zeros(2, np.int64), np.zeros(2, np.int64)
        scores = np.zeros((1, 4), np.int64)
        for a in range(2):
            pol[a], pol[1 - a] = row_a[0], row_b[0]
            totals[:] = 0
            won[:] = 0
            dealer = first_dealer(seed, k, cfg, b[0])
            hand_no, void, tied, bad = 0, 0, 0, 0
            while totals[0] < cfg[C_TARGET] and totals[1] < cfg[C_TARGET]:  # GR-16
                if hand_no >= MAX_HANDS:
                    bad = 1
                    break
                b[0][0] = stream_key(seed, k, hand_no + 1, 0)
                ok, m, who, _, _ = _scored_hand(b, dealer, cfg, pol, a)
                hand_no += 1
                if not ok:
                    bad = 1
                    break
                if who < 0:
                    void += 1
                    continue
                dealer = 1 - dealer
                if m == 0:
                    tied += 1
                    continue
                w = a if m > 0 else 1 - a
                totals[w] += abs(m)
                won[w] += 1
            winner, shutout = final_scores(totals, won, cfg, scores, 0)
            o = out[k, a]
            o[G_WON], o[G_HANDS], o[G_VOID], o[G_TIED] = winner == a, hand_no, void, tied
            o[G_POINTS], o[G_POINTS + 1] = totals[a], totals[1 - a]
            o[G_FINAL], o[G_FINAL + 1] = scores[0, a], scores[0, 1 - a]
            o[G_SHUTOUT], o[G_BAD] = shutout, bad
            o[G_HANDS_WON], o[G_HANDS_WON + 1] = won[a], won[1 - a]


def policy_row(pid: int, params=EX.PARAMS) -> np.ndarray:
    return np.array([pid, 0, 0, 0] + [round(float(x) * 1000) for x in params], np.int64)


def run(n: int, seed: int, row_a: np.ndarray, row_b: np.ndarray, games: bool = False,
        cfg: np.ndarray | None = None) -> np.ndarray:
    """n deals (hands: ``_duplicate``'s rows) or n seeds of games (``_games``' rows), each
    played with A (``row_a``) in seat 0 and then in seat 1; OpenSpiel's rules unless ``cfg``.
    The kernel is built (once a process) for the two rows' policies only."""
    out = np.zeros((n, 2, G_SIZE if games else 7), np.int64)
    kernel = _kernel(frozenset((SIMPLE, int(row_a[0]), int(row_b[0]))))[games]
    kernel(np.uint64(seed), n, os_rules_cfg() if cfg is None else cfg, row_a, row_b, out)
    return out


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


def games_report(out: np.ndarray, label: str) -> str:
    """Games won (Wilson 95% over the 2n games), per seating; hands a game; A's net hand points
    per hand (t 95%, the ratio clustered by seed: both seatings of a seed as one)."""
    n, wins = out.shape[0] * 2, int(out[:, :, G_WON].sum())
    lo, hi = wilson([wins], [n])
    seats = [f"{out[:, s, G_WON].mean():.1%}" for s in (0, 1)]
    hands = out[:, :, G_HANDS].sum(axis=1)
    nets = (out[:, :, G_POINTS] - out[:, :, G_POINTS + 1]).sum(axis=1)
    ratio = nets.sum() / hands.sum()
    resid = (nets - ratio * hands) / hands.mean()
    plo, phi = t_interval(ratio, resid.std(ddof=1), len(nets))
    final = (out[:, :, G_FINAL] - out[:, :, G_FINAL + 1]).mean()
    bad = int(out[:, :, G_BAD].sum())
    return (f"{label}: {n:,} games to the target ({n // 2:,} seeds x 2 seatings): won "
            f"{wins / n:.1%} [{lo[0]:.1%}, {hi[0]:.1%}] (seat 0 {seats[0]}, seat 1 {seats[1]}); "
            f"{out[:, :, G_HANDS].mean():.2f} hands a game (won "
            f"{out[:, :, G_HANDS_WON].sum() / hands.sum():.1%}, void "
            f"{out[:, :, G_VOID].sum() / hands.sum():.1%}, tied {out[:, :, G_TIED].sum() / hands.sum():.1%}); "
            f"{ratio:+.2f} [{float(plo):+.2f}, {float(phi):+.2f}] hand points/hand; "
            f"final scores with the bonuses {final:+.1f} a game, shutouts "
            f"{out[:, :, G_SHUTOUT].mean():.1%}" + (f"; {bad} GAMES STOPPED (illegal answer "
                                                    "or 65,535 hands)" if bad else ""))


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
    ap.add_argument("--player", default="expert",
                    help="expert, heuristic, simple, pimc or pimc:W (W worlds; slow: about 10 "
                         "hands/s a core)")
    ap.add_argument("--opponent", choices=("simple", "heuristic"), default="simple")
    ap.add_argument("--params", help="the expert's weights (expert.PARAMS order, comma-separated)")
    ap.add_argument("--games", type=int, metavar="N",
                    help="duplicate games to 100 instead of hands: N seeds, each played twice")
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
    if is_search(args.player) and search_id(args.player, DEFAULT_WORLDS) != DD:
        ids[args.player] = search_id(args.player, DEFAULT_WORLDS)
    if args.player not in ids:
        raise SystemExit(f"--player: expected one of expert, heuristic, simple, pimc, pimc:W; "
                         f"got {args.player!r}")
    t = time.perf_counter()
    out = run(args.games or args.hands, args.seed, policy_row(ids[args.player], params),
              policy_row(ids[args.opponent]), games=bool(args.games))
    label = f"{args.player}{'(' + args.params + ')' if args.params else ''} vs {args.opponent} (seed {args.seed})"
    text = (games_report if args.games else report)(out, label)
    print(text + f"; {time.perf_counter() - t:.0f} s with the compile")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
