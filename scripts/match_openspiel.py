"""simcore's policies against OpenSpiel's own bots, in OpenSpiel's engine (docs/interop.md).

    .venv/bin/python scripts/match_openspiel.py gin --hands 2000
    .venv/bin/python scripts/match_openspiel.py euchre --hands 2000 --ismcts 200
    .venv/bin/python scripts/match_openspiel.py spades --hands 400
    .venv/bin/python scripts/match_openspiel.py agree --hands 1000   # vs simcore's engine
    .venv/bin/python scripts/match_openspiel.py agree --hands 1000 --search-hands 400  # + pimc, dd
    .venv/bin/python scripts/match_openspiel.py ismcts --on euchre --sims 1000 --hands 1000
    .venv/bin/python scripts/match_openspiel.py gin --hands 2000 --params 5,0.6,7,6,1,2,1,1,10,4,1,0,1,0,11,1000,1000,0,10,1000
    .venv/bin/python scripts/match_openspiel.py gin --games 300 --seed 21   # games to 100
    .venv/bin/python scripts/match_openspiel.py gin --player pimc --hands 4000 --seed 12 --jobs 2

Gin: simcore's ``expert`` and ``heuristic`` against ``pyspiel.make_simple_gin_rummy_bot``
(``--player NAME``: only that policy, e.g. the slow ``pimc``, its hands split over ``--jobs``
processes).
Euchre and Spades: simcore's ``heuristic`` partnership against uniform random bots (and, with
``--ismcts N``, Euchre against ``pyspiel.ISMCTSBot`` with N simulations a move and random
rollouts); ``ismcts``: simcore's ``--policies`` (default pimc and heuristic) against
ISMCTS partnerships in Euchre (OpenSpiel's spades lacks what ISMCTSBot needs), and the first
policy minus the others hand by hand.  Every matchup plays the same deals (hand k's chance outcomes come from seed
(SEED, k)), simcore's side changing seats every hand.  Each row: points per hand for
simcore's side (mean, 95% normal interval), hands won, lost and tied (Wilson 95% interval on
hands won) and the bots' seconds per hand.  Needs pyspiel (a development dependency).

``gin --games N``: only the expert (or ``--params``) against the simple bot, N seeds of
duplicate games to 100 (each game played twice, simcore's side in seat 0 and then in seat 1),
OpenSpiel's returns summed hand by hand with the game rules of
``scripts/match_gin_openspiel.py --games`` (its docstring): the first dealer drawn from
(SEED, game), hand h's chance outcomes from (SEED, game, h), the dealer (OpenSpiel's player
1; player 0 acts first) passing after every hand with a knock and staying after a hand
without one, simcore's bonuses on the final scores; reported as that script reports.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import pyspiel  # noqa: E402

from simcore.interop.openspiel import make_bot  # noqa: E402


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def mean_interval(xs) -> tuple[float, float]:
    n = len(xs)
    m = sum(xs) / n
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1)) if n > 1 else 0.0
    return m, 1.96 * sd / math.sqrt(n)


def play_hand(game, bots, rng, state=None):
    state = state or game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(actions, probs)[0])
        else:
            state.apply_action(bots[state.current_player()].step(state))
    return state


def match(game, ours, theirs, hands: int, seed: int, side_of, start: int = 0):
    """simcore's bots ``ours(player)`` against ``theirs(player)``; hand k (``start`` ...
    ``start + hands - 1``) puts simcore on the players ``side_of(k)``.  Returns per-hand
    margins for simcore's side."""
    n = game.num_players()
    name = game.get_type().short_name
    margins, seconds, knocks = [], 0.0, []
    for k in range(start, start + hands):
        side = side_of(k)
        bots = [ours(p) if p in side else theirs(p) for p in range(n)]
        t = time.perf_counter()
        state = play_hand(game, bots, random.Random(f"{seed}/{k}"))
        seconds += time.perf_counter() - t
        returns = state.returns()
        knocker = [h.player for h in state.full_history() if h.action == GIN_KNOCK
                   and h.player >= 0]
        knocks.append(None if not knocker or name != "gin_rummy" else knocker[0] in side)
        us = returns[side[0]]
        them = returns[next(p for p in range(n) if p not in side)]
        margins.append(us if game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
                       else us - them)
    return margins, seconds / hands, knocks


GIN_KNOCK = 55


def knock_row(label: str, margins, knocks) -> str:
    """Gin: who knocked, and how those hands went for simcore's side."""
    ours = [m for m, k in zip(margins, knocks) if k is True]
    theirs = [m for m, k in zip(margins, knocks) if k is False]
    n = len(margins)
    def share(xs, pred):
        return sum(map(pred, xs)) / max(len(xs), 1)
    return (f"| {label} | {len(ours) / n:.3f} | {share(ours, lambda m: m < 0):.3f} | "
            f"{sum(ours) / max(len(ours), 1):+.1f} | {len(theirs) / n:.3f} | "
            f"{share(theirs, lambda m: m > 0):.3f} | {sum(theirs) / max(len(theirs), 1):+.1f} |")


KNOCK_HEADER = ("| simcore vs opponent | simcore knocked | of those undercut | points/knock | "
                "opponent knocked | of those undercut | points/knock (simcore's) |\n"
                "|---|---|---|---|---|---|---|")


def row(label: str, margins, seconds: float) -> str:
    n = len(margins)
    won = sum(m > 0 for m in margins)
    lost = sum(m < 0 for m in margins)
    lo, hi = wilson(won, n)
    m, half = mean_interval(margins)
    decided = won + lost
    dlo, dhi = wilson(won, decided)
    return (f"| {label} | {n} | {m:+.2f} ± {half:.2f} | {won / n:.3f} [{lo:.3f}, {hi:.3f}] | "
            f"{lost / n:.3f} | {n - won - lost} | "
            f"{won / max(decided, 1):.3f} [{dlo:.3f}, {dhi:.3f}] | {seconds * 1000:.1f} |")


HEADER = ("| simcore vs opponent | hands | points/hand (95%) | hands won [Wilson 95%] | lost | "
          "tied/void | won of decided [95%] | ms/hand |\n|---|---|---|---|---|---|---|---|")


def expert_with(weights: str) -> str:
    """Register the Gin expert with other weights (``expert.PARAMS`` order, comma-separated)
    as a bridge policy for this run; returns its name."""
    from simcore.games.gin_rummy.expert import PARAMS, expert_play
    from simcore.interop import os_gin_rummy as G
    from simcore.interop.openspiel import no_argument

    params = tuple(float(x) for x in weights.split(","))
    if len(params) != len(PARAMS):
        raise SystemExit(f"--params needs {len(PARAMS)} numbers (expert.PARAMS), got {len(params)}")
    play = lambda kind, seat, hand, view, st: expert_play(kind, seat, hand, view, st, params)  # noqa: E731
    G.POLICIES["expert-params"] = no_argument(lambda: G.Decisions(play=play))
    return "expert-params"


def gin_games(args) -> str:
    """Duplicate games to 100 against the simple bot in OpenSpiel's engine (module doc)."""
    import numpy as np

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import match_gin_openspiel as C  # the copy's games: the same rows and report

    from simcore.games.gin_rummy.engine import final_scores

    game = pyspiel.load_game("gin_rummy")
    policy = expert_with(args.params) if args.params else "expert"
    bots = {"us": lambda p: make_bot(game, p, policy, seed=args.seed),
            "bot": lambda p: pyspiel.make_simple_gin_rummy_bot(game.get_parameters(), p)}
    cfg, scores = C.os_rules_cfg(), np.zeros((1, 4), np.int64)
    out = np.zeros((args.games, 2, C.G_SIZE), np.int64)
    t = time.perf_counter()
    for k in range(args.games):
        for a in (0, 1):  # simcore's seat
            dealer = random.Random(f"{args.seed}/{k}").randrange(2)
            totals, won, o = np.zeros(2, np.int64), np.zeros(2, np.int64), out[k, a]
            while max(totals) < cfg[C.C_TARGET]:
                us = int(dealer == a)  # OpenSpiel's player 1 deals
                state = play_hand(game, [bots["us" if p == us else "bot"](p) for p in (0, 1)],
                                  random.Random(f"{args.seed}/{k}/{o[C.G_HANDS]}"))
                o[C.G_HANDS] += 1
                if not any(h.action == GIN_KNOCK and h.player >= 0 for h in state.full_history()):
                    o[C.G_VOID] += 1  # no knock: the same dealer deals again
                    continue
                dealer = 1 - dealer
                m = int(state.returns()[us])
                o[C.G_TIED] += m == 0
                w = a if m > 0 else 1 - a
                totals[w] += abs(m)
                won[w] += m != 0
            winner, o[C.G_SHUTOUT] = final_scores(totals, won, cfg, scores, 0)
            o[C.G_WON] = winner == a
            o[C.G_POINTS], o[C.G_POINTS + 1] = totals[a], totals[1 - a]
            o[C.G_FINAL], o[C.G_FINAL + 1] = scores[0, a], scores[0, 1 - a]
            o[C.G_HANDS_WON], o[C.G_HANDS_WON + 1] = won[a], won[1 - a]
    label = f"OpenSpiel's engine: {policy.replace('expert-params', f'expert({args.params})')}"
    return (C.games_report(out, f"{label} vs simple_gin_rummy_bot (seed {args.seed})")
            + f"; {time.perf_counter() - t:.0f} s")


def gin(args):
    game = pyspiel.load_game("gin_rummy")
    params = game.get_parameters()
    simple = lambda p: pyspiel.make_simple_gin_rummy_bot(params, p)  # noqa: E731
    heuristic = lambda p: make_bot(game, p, "heuristic", seed=args.seed)  # noqa: E731
    lines, knock_lines = [], [KNOCK_HEADER]
    matchups = [("expert", simple, "simple_gin_rummy_bot"),
                ("heuristic", simple, "simple_gin_rummy_bot"),
                ("expert", heuristic, "simcore heuristic")]
    if args.params:  # only the expert with these weights against the simple bot
        matchups = [(expert_with(args.params), simple, "simple_gin_rummy_bot")]
    if args.player:  # only this policy against the simple bot, on --jobs processes
        return gin_player(args)
    for policy, other, other_name in matchups:
        ours = lambda p, policy=policy: make_bot(game, p, policy, seed=args.seed)  # noqa: E731
        margins, s, knocks = match(game, ours, other, args.hands, args.seed,
                                   lambda k: (k % 2,))
        label = f"gin {policy} vs {other_name}".replace("expert-params", f"expert({args.params})")
        lines.append(row(label, margins, s))
        knock_lines.append(knock_row(label, margins, knocks))
    return lines, knock_lines


def _gin_part(job):
    """Hands ``lo`` ... ``hi - 1`` of a ``--player`` match (one worker process)."""
    policy, lo, hi, seed = job
    game = pyspiel.load_game("gin_rummy")
    params = game.get_parameters()
    simple = lambda p: pyspiel.make_simple_gin_rummy_bot(params, p)  # noqa: E731
    ours = lambda p: make_bot(game, p, policy, seed=seed)  # noqa: E731
    return match(game, ours, simple, hi - lo, seed, lambda k: (k % 2,), start=lo)


def gin_player(args):
    """``--player`` against the simple bot, the hands split over ``--jobs`` processes: the
    same hands and rows as one process (each hand's deal and streams are its own)."""
    import multiprocessing

    cuts = [args.hands * j // args.jobs for j in range(args.jobs + 1)]
    jobs = [(args.player, lo, hi, args.seed) for lo, hi in zip(cuts, cuts[1:]) if hi > lo]
    with multiprocessing.get_context("spawn").Pool(len(jobs)) as pool:
        parts = pool.map(_gin_part, jobs)
    margins = [m for part in parts for m in part[0]]
    knocks = [k for part in parts for k in part[2]]
    seconds = sum(part[1] * len(part[0]) for part in parts) / max(len(margins), 1)
    label = f"gin {args.player} vs simple_gin_rummy_bot"
    return [row(label, margins, seconds)], [KNOCK_HEADER, knock_row(label, margins, knocks)]


def partnership(k):
    return (0, 2) if k % 2 == 0 else (1, 3)


def trick_game(name, args):
    game = pyspiel.load_game(name)
    ours = lambda p: make_bot(game, p, "heuristic", seed=args.seed)  # noqa: E731
    rand = lambda p: pyspiel.make_uniform_random_bot(p, args.seed + p)  # noqa: E731
    margins, s, _ = match(game, ours, rand, args.hands, args.seed, partnership)
    lines = [row(f"{name} heuristic vs uniform random", margins, s)]
    if name == "euchre" and args.ismcts:
        def ismcts(p):
            evaluator = pyspiel.RandomRolloutEvaluator(1, args.seed + p)
            return pyspiel.ISMCTSBot(args.seed + p, evaluator, 2.0, args.ismcts, -1,
                                     pyspiel.ISMCTSFinalPolicyType.MAX_VISIT_COUNT)
        margins, s, _ = match(game, ours, ismcts, args.ismcts_hands or args.hands, args.seed,
                              partnership)
        lines.append(row(f"euchre heuristic vs ISMCTS({args.ismcts} sims, random rollout)",
                         margins, s))
    return lines


def ismcts_bot(sims: int, seed: int):
    """OpenSpiel's ISMCTS with ``sims`` simulations a move, one random rollout per leaf (the
    uniform evaluator), UCT constant 2, the most visited move played."""
    def make(p):
        evaluator = pyspiel.RandomRolloutEvaluator(1, seed + p)
        return pyspiel.ISMCTSBot(seed + p, evaluator, 2.0, sims, -1,
                                 pyspiel.ISMCTSFinalPolicyType.MAX_VISIT_COUNT)
    return make


def paired_row(label: str, a, b) -> str:
    """Policy a minus policy b on the same hands and seats: points per hand (t 95%) and hands
    won (difference of shares, from the per-hand differences)."""
    diffs = [x - y for x, y in zip(a, b)]
    wins = [(x > 0) - (y > 0) for x, y in zip(a, b)]
    m, half = mean_interval(diffs)
    w, whalf = mean_interval(wins)
    return (f"| {label} | {len(diffs)} | {m:+.2f} ± {half:.2f} | "
            f"{100 * w:+.1f} ± {100 * whalf:.1f} pp |")


def vs_ismcts(args):
    """simcore's ``--policies`` (one partnership, the same bot in both seats) against an
    ISMCTS partnership on the same hands, seats alternating; then the first policy minus each
    other one, hand by hand."""
    name = args.on
    game = pyspiel.load_game(name)
    policies = [p.strip() for p in args.policies.split(",") if p.strip()]
    lines, margins = [HEADER], {}
    for policy in policies:
        ours = lambda p, policy=policy: make_bot(game, p, policy, seed=args.seed)  # noqa: E731
        margins[policy], s, _ = match(game, ours, ismcts_bot(args.sims, args.seed), args.hands,
                                      args.seed, partnership)
        lines.append(row(f"{name} {policy} vs ISMCTS({args.sims} sims, random rollout)",
                         margins[policy], s))
    if len(policies) > 1:
        lines += ["", "| paired: simcore policies on the same hands | hands | points/hand "
                      "(95%) | hands won (95%) |", "|---|---|---|---|"]
        first = policies[0]
        lines += [paired_row(f"{name} {first} minus {other}", margins[first], margins[other])
                  for other in policies[1:]]
    return lines


# ---------------------------------------------------------------- agreement with simcore's engine
# Each replay deals a simcore deal into OpenSpiel, plays it with simcore bots in every seat and
# labels the deal: "same" (every decision and card as in simcore's engine) or the documented
# rule difference that made it part (docs/interop.md).  A label "MISMATCH: ..." is a bug; the
# tests (tests/test_interop_openspiel.py) require none.


def _euchre_os_card(c):
    from simcore.interop.os_euchre import base_to_os
    return base_to_os(13 * (c // 13) + c % 13 - 7)


def euchre_agreement(deals: int, seed: int, policy: str = "heuristic") -> list[str]:
    """``policy`` in every seat under OpenSpiel's rules (stick the dealer, compulsory
    pick-up, no lone defender), a search policy's bots drawing the engine's stream of the
    deal.  Differences: OpenSpiel asks only the declarer about going alone (EU-12 asks the
    maker's partner too) and never a defender, and it leads from the dealer's left (EU-13:
    left of a lone player)."""
    import numpy as np

    import simcore
    from simcore.games.euchre import engine
    from simcore.interop import os_euchre

    run = simcore.simulate("euchre", deals, seed=seed, log_plays=True,
                           policy=[policy, "defend_alone=never"],
                           rules={"stick_the_dealer": True, "dealer_pickup_optional": False})
    game = pyspiel.load_game("euchre")
    bots = [make_bot(game, p, policy) for p in range(4)]
    labels = []
    for row in run.hands().collect().iter_rows(named=True):
        use_engine_stream(bots, euchre_stream(engine, seed, row["deal"]))
        dealer = row["dealer"]
        state = game.new_initial_state()
        state.apply_action(dealer)
        hands = [[c for c in range(52) if row[f"hand{s}"] >> c & 1] for s in range(4)]
        for i in range(20):  # OpenSpiel deals card i to seat dealer + i
            state.apply_action(_euchre_os_card(hands[(dealer + i) % 4].pop(0)))
        state.apply_action(_euchre_os_card(row["upcard"]))
        state = play_hand(game, bots, random.Random(0), state)
        obs = os_euchre.observe(state, dealer, bots[0].table)
        lone = [s for s, alone in obs.alone.items() if alone]
        lone_as_row = lone == ([row["alone_maker"]] if row["alone_maker"] >= 0 else [])
        if (obs.trump, obs.maker) != (row["trump"], row["maker"]):
            labels.append("MISMATCH: trump or maker")
        elif row["picked_up"] and obs.discard != _euchre_os_card(row["discard"]):
            labels.append("MISMATCH: discard")
        elif row["alone_maker"] == row["maker"] ^ 2:
            labels.append("partner alone" if not lone else "MISMATCH: alone")
        elif row["alone_defender"] >= 0:  # only a searching seat: heuristic ones never do
            # EU-12 asks from the dealer's left: a maker asked after the lone defender decided
            # against one (OpenSpiel's maker never meets one), so its choice may differ
            after = (row["alone_defender"] - dealer - 1) % 4 < (row["maker"] - dealer - 1) % 4
            labels.append("lone defender" if after or lone_as_row else "MISMATCH: alone")
        elif not lone_as_row:
            labels.append("MISMATCH: alone")
        elif [c for _, c in obs.plays] == [_euchre_os_card(c) for c in row["plays"]]:
            labels.append("same")
        else:
            leader = (dealer + 1) % 4  # OpenSpiel's, skipping a lone player's partner
            leader += leader == lone[0] ^ 2 if lone else 0
            differs = lone and leader % 4 != (lone[0] + 1) % 4
            labels.append("lone player's leader" if differs else "MISMATCH: plays")
    return labels


def euchre_stream(engine, seed: int, deal: int):
    """The policies' stream of hands-mode deal ``deal`` as the engine has it after dealing."""
    import numpy as np

    st = np.zeros(1, np.uint64)
    st[0] = engine.stream(np.uint64(seed), np.uint64(deal), np.uint64(0))
    engine.deal(st, np.empty(24, np.int64), np.empty(4, np.uint64))
    return st


def use_engine_stream(bots, st):
    """Every bot decides with the stream ``st`` (a copy each time), as simcore's engine does
    within one deal (the search policies and the heuristic never advance it)."""
    for bot in bots:
        bot.stream_of = lambda visible, st=st: st.copy()


def spades_agreement(deals: int, seed: int, policy: str = "heuristic") -> list[str]:
    """``policy`` in every seat, without blind nil, OpenSpiel's seat 0 left of the dealer: bids
    always simcore's (unless above OpenSpiel's cap of 13 a partnership); cards until simcore
    leads a spade after spades broke (SP-7), a lead OpenSpiel never allows while the leader
    holds another suit.  A search policy's bots draw the engine's stream, and only deals
    dealt by seat 3 are replayed (its streams are keyed by the seat, so the seats must be
    OpenSpiel's players); once a spade was led after spades broke, its bots know that leader
    holds only spades (OpenSpiel's rule), which simcore's engine does not infer."""
    import numpy as np

    import simcore
    from simcore.interop.os_spades import BID
    from simcore.rng import policy_key, stream_key

    search = policy not in ("heuristic", "random")
    run = simcore.simulate("spades", deals, seed=seed, log_plays=True, policy=[policy],
                           rules={"blind_nil": False})
    game = pyspiel.load_game("spades")
    bots = [make_bot(game, p, policy) for p in range(4)]
    labels = []
    for row in run.hands().collect().iter_rows(named=True):
        if search and row["dealer"] != 3:
            continue
        if search:
            st = np.zeros(1, np.uint64)
            st[0] = policy_key(np.uint64(stream_key(np.uint64(seed), np.uint64(row["deal"]),
                                                    np.uint64(0), np.uint64(0))))
            use_engine_stream(bots, st)
        seat = [(row["dealer"] + 1 + p) % 4 for p in range(4)]  # OpenSpiel player -> seat
        hands = [[c for c in range(52) if row[f"hand{seat[p]}"] >> c & 1] for p in range(4)]
        state = game.new_initial_state()
        for i in range(52):  # OpenSpiel deals card i to player i % 4
            state.apply_action(hands[i % 4][i // 4])
        label = "same"
        for p in range(4):
            a = bots[p].step(state)
            if a - BID != row[f"bid{seat[p]}"]:
                capped = max(state.legal_actions()) - BID < row[f"bid{seat[p]}"]
                label = "bid above OpenSpiel's cap" if capped else "MISMATCH: bid"
                break
            state.apply_action(a)
        broken = spade_only = False
        for k, card in enumerate(row["plays"] if label == "same" else []):
            a = bots[state.current_player()].step(state)
            if a != card:
                forbidden = k % 4 == 0 and card // 13 == 3 and card not in state.legal_actions()
                label = ("spade lead OpenSpiel forbids" if forbidden else
                         "spade-only fact" if spade_only else "MISMATCH: play")
                break
            spade_only |= k % 4 == 0 and card // 13 == 3 and broken
            broken |= card // 13 == 3
            state.apply_action(a)
        labels.append(label)
    return labels


def _gin_values(cards) -> int:
    return sum(1 if c % 13 == 12 else min(c % 13 + 2, 10) for c in cards)


def gin_agreement(deals: int, seed: int, policy: str) -> list[str]:
    """The same deck played by simcore's engine and in OpenSpiel, ``policy`` in both seats:
    the upcard decision, every turn, the knock and the hands at the knock must be simcore's.
    Differences: where simcore voids with two stock cards left (GR-12) OpenSpiel's next
    player may still knock with the upcard ("wall"); a tie is no undercut in OpenSpiel
    (GR-14 gives the bonus); the knocker lays its melds without seeing the other hand
    (GR-11's choice needs it), so the defender may lay off more ("lay-off")."""
    import numpy as np

    from simcore.games.base import PolicyChoice
    from simcore.games.gin_rummy import config, engine
    from simcore.games.gin_rummy.rules import Rules
    from simcore.interop import os_gin_rummy as G
    from simcore.melds import gin_deadwood

    cfg = config(Rules(may_discard_taken_card=True),  # what OpenSpiel allows
                 PolicyChoice(seats=(policy, policy), decisions={"knock": "limit"}))
    pids = np.array([G.PLAY_POLICIES[policy]] * 2, np.int64)
    game = pyspiel.load_game("gin_rummy")
    bots = [make_bot(game, p, policy) for p in range(2)]
    rng = np.random.default_rng(seed)
    labels = []
    for _ in range(deals):
        deck = rng.permutation(52).astype(np.int64)
        ok, res, hands, _ = engine.play_preset(deck, 1, cfg, pids, 0)  # seat 1 deals
        rec = _gin_os_hand(game, bots, deck)
        knocker = int(res[engine.R_KNOCKER])
        if not ok or rec["taker"] != res[engine.R_TAKER]:
            labels.append("MISMATCH: upcard")
        elif knocker < 0:
            wall = rec["knocker"] >= 0
            if (rec["knocker"] < 0 or rec["wall"]) and \
                    rec["turns"] == res[engine.R_TURNS] + wall:
                labels.append("wall knock" if wall else "same (void)")
            else:
                labels.append("MISMATCH: void")
        elif (rec["knocker"], rec["turns"]) != (knocker, res[engine.R_TURNS]) or \
                [G._mask(h) for h in rec["hands"]] != [int(h) for h in hands]:
            labels.append("MISMATCH: turns, knock or hands")
        else:
            kdw = gin_deadwood(np.uint64(hands[knocker]))
            ddw = res[engine.R_DW0 + 1 - knocker]
            os_ddw = _gin_values(rec["left"][1 - knocker])
            diff = os_ddw - kdw  # OpenSpiel's scoring: a tie scores 0, a loss costs the bonus
            os_points = diff + 25 * (kdw == 0) - 25 * (diff < 0)
            if kdw != res[engine.R_DW0 + knocker] or os_ddw > ddw or \
                    rec["returns"][knocker] != os_points or (kdw == 0 and os_ddw != ddw):
                labels.append("MISMATCH: scoring")
            elif os_ddw < ddw:
                labels.append("lay-off")
            elif kdw == ddw:
                labels.append("tie (no undercut)")
            else:
                labels.append("same")
    return labels


def _gin_os_hand(game, bots, deck):
    from simcore.interop import os_gin_rummy as G

    state = game.new_initial_state()
    for c in deck[:21]:
        state.apply_action(G.card_to_os(int(c)))
    rec = {"taker": -1, "turns": 0, "knocker": -1, "wall": False, "hands": None}
    nxt = 21
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(G.card_to_os(int(deck[nxt])))
            nxt += 1
            continue
        p = state.current_player()
        a = bots[p].step(state)
        if a == G.DRAW_UPCARD and rec["turns"] == 0:
            rec["taker"] = p
        if rec["knocker"] < 0 and a < 52:
            rec["turns"] += 1
        if rec["knocker"] < 0 and a == G.KNOCK:
            rec["knocker"] = p
            rec["wall"] = state.legal_actions() == [G.PASS, G.KNOCK]
            rec["turns"] += 1  # simcore counts the knocking turn
        state.apply_action(a)
        if rec["knocker"] >= 0 and rec["hands"] is None and a < 52:  # the knocker discarded
            rec["hands"] = [G.observe(state, s, bots[s].table).hand for s in (0, 1)]
    rec["returns"] = state.returns()
    rec["left"] = [G.observe(state, s, bots[s].table).hand for s in (0, 1)]
    return rec


def agreement(args):
    from collections import Counter

    n, m = args.hands, args.search_hands
    runs = [("euchre heuristic", n, lambda: euchre_agreement(n, args.seed)),
            ("spades heuristic", n, lambda: spades_agreement(n, args.seed)),
            ("gin heuristic", n, lambda: gin_agreement(n, args.seed, "heuristic")),
            ("gin expert", n, lambda: gin_agreement(n, args.seed, "expert"))]
    for policy in ("pimc", "dd") if m else ():  # the engine's stream; Spades: seat 3's deals
        runs += [(f"euchre {policy}", m, lambda p=policy: euchre_agreement(m, args.seed, p)),
                 (f"spades {policy}", m, lambda p=policy: spades_agreement(m, args.seed, p))]
    lines = ["| game, policy | deals | outcome: count |", "|---|---|---|"]
    for label, deals, run in runs:
        counts = Counter(run())
        text = ", ".join(f"{k}: {v}" for k, v in sorted(counts.items(), key=lambda kv: -kv[1]))
        lines.append(f"| {label} | {deals} | {text} |")
    return lines


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("game", choices=("gin", "euchre", "spades", "all", "agree", "ismcts"),
                    help="a matchup; 'agree': replay simcore deals in OpenSpiel; 'ismcts': "
                         "--policies against OpenSpiel's ISMCTSBot in --on")
    ap.add_argument("--hands", type=int, default=1000)
    ap.add_argument("--games", type=int, default=0,
                    help="gin: N seeds of duplicate games to 100, the expert vs the simple bot")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--ismcts", type=int, default=0, help="Euchre: also vs ISMCTS, N sims/move")
    ap.add_argument("--ismcts-hands", type=int, default=0, help="hands vs ISMCTS (default --hands)")
    ap.add_argument("--player", help="gin: only this simcore policy (e.g. pimc, pimc:256) "
                                     "against the simple gin bot")
    ap.add_argument("--jobs", type=int, default=1,
                    help="gin --player: processes to split the hands over (default 1)")
    ap.add_argument("--params", help="gin: only the expert with these weights (expert.PARAMS "
                                     "order, comma-separated) against the simple gin bot")
    ap.add_argument("--search-hands", type=int, default=0,
                    help="agree: also replay pimc and dd on this many deals (default: none)")
    # OpenSpiel's spades implements neither InformationStateString nor ResampleFromInfostate,
    # both of which ISMCTSBot needs, so only euchre
    ap.add_argument("--on", choices=("euchre",), default="euchre", help="ismcts: the game")
    ap.add_argument("--sims", type=int, default=1000, help="ismcts: simulations a move")
    ap.add_argument("--policies", default="pimc,heuristic",
                    help="ismcts: simcore policies, comma-separated (default pimc,heuristic)")
    args = ap.parse_args(argv)
    if args.game == "ismcts":
        print("\n".join(vs_ismcts(args)))
        return
    if args.game == "agree":
        print("\n".join(agreement(args)))
        return
    if args.game == "gin" and args.games:
        print(gin_games(args))
        return
    lines, knock_lines = [HEADER], []
    if args.game in ("gin", "all"):
        rows, knock_lines = gin(args)
        lines += rows
    for name in ("euchre", "spades"):
        if args.game in (name, "all"):
            lines += trick_game(name, args)
    print("\n".join(lines))
    if knock_lines:
        print()
        print("\n".join(knock_lines))


if __name__ == "__main__":
    main()
