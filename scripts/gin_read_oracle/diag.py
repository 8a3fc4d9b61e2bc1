"""Scratch: calibration of the sampled danger against the bot's true takes (never product)."""
import sys, time
sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parents[1]))
import numba as nb
import numpy as np
import match_gin_openspiel as M
from simcore.games.base import rebind
from simcore.games.gin_rummy import expert as EX
from simcore.games.gin_rummy.engine import _discard_and_knock, play_hand
from simcore.games.gin_rummy.layout import *
from simcore.melds import GIN_PLANES, min_deadwood_seq, to_sequence
from simcore.cards import bit, lowest_bit

NP = len(EX.PARAMS)
OFF = 4 + NP  # policies[OFF] = opponent hand; then counters
NB = 10

def kernel():
    @nb.njit
    def play(policies, p, kind, hand, view, pst):
        pid = policies[p]
        if pid == M.SIMPLE:
            return M.simple_bot_play(kind, p, hand, view, pst)
        params = policies[4:4 + NP] / 1000.0
        if kind == K_DISCARD:
            opp = to_sequence(np.uint64(policies[OFF]), True)
            dw = min_deadwood_seq(opp, GIN_PLANES)
            arr = np.zeros(52, np.float64)
            got = EX.sampled_danger(hand, view, params, arr)
            policies[OFF + 1] += 1
            policies[OFF + 2] += got
            policies[OFF + 3] += got == 0
            if got > 0:
                known, unseen, likely, unlikely, high, pp = EX._reading(hand, view, params)
                h = to_sequence(hand, True)
                m = h
                while m:
                    c = lowest_bit(m)
                    m &= m - np.uint64(1)
                    t = EX._takes(opp, c, dw, view[V_KNOCK_LIMIT])
                    b = min(int(arr[c] * NB), NB - 1)
                    policies[OFF + 4 + 2 * b] += 1
                    policies[OFF + 5 + 2 * b] += t
                    w = min(1.0, EX._window_sum(c, known, unseen, likely, unlikely, high, pp, params[10], np.uint64(0), 1.0))
                    b = min(int(w * NB), NB - 1)
                    policies[OFF + 4 + 2 * NB + 2 * b] += 1
                    policies[OFF + 5 + 2 * NB + 2 * b] += t
                    # log loss sums x1e6
                    q = min(max(arr[c], 0.01), 0.99)
                    policies[OFF + 4 + 4 * NB] += int(-1e6 * (np.log(q) if t else np.log(1 - q)))
                    q = min(max(w, 0.01), 0.99)
                    policies[OFF + 5 + 4 * NB] += int(-1e6 * (np.log(q) if t else np.log(1 - q)))
        return EX.expert_play(kind, p, hand, view, pst, params)

    def ask(kind, p, policies, hands, picks, discards, view, pst):
        view[V_SEAT] = p
        view[V_OPP_PICKS] = np.int64(picks[1 - p])
        view[V_OPP_DISCARDS] = np.int64(discards[1 - p])
        policies[OFF] = np.int64(hands[1 - p])
        return play(policies, p, kind, hands[p], view, pst)

    ask_fn = nb.njit(rebind(ask, play=play))
    disc_fn = nb.njit(rebind(_discard_and_knock.py_func, _ask=ask_fn))
    hand_fn = nb.njit(rebind(play_hand.py_func, _ask=ask_fn, _discard_and_knock=disc_fn))

    @nb.njit
    def run(seed, n, cfg, pol):
        st = np.zeros(1, np.uint64); pst = np.zeros(1, np.uint64)
        deck, order = np.empty(52, np.int64), np.empty(52, np.int64)
        hands, picks = np.empty(2, np.uint64), np.empty(2, np.uint64)
        discards, pile = np.empty(2, np.uint64), np.empty(2, np.uint64)
        view = np.empty(VIEW_SIZE, np.int64)
        scratch = np.empty((64, 4), np.uint64)
        res = np.zeros(16, np.int64)
        for k in range(n):
            for a in range(2):
                pol[a], pol[1 - a] = M.EXPERT, M.SIMPLE
                st[0] = M.stream_key(seed, k, 0, 0)
                hand_fn(st, pst, deck, hands, picks, discards, pile, order, view, scratch,
                        k % 2, cfg, pol, res, False)
    return run

def show(pol):
    c = pol[OFF + 1:]
    n = c[0]
    print(f"discards {n}, mean accepted {c[1] / n:.1f}, none accepted {c[2] / n:.1%}")
    for name, base in (("sampled", 3), ("per-card", 3 + 2 * NB)):
        rows = [(c[base + 2 * b], c[base + 1 + 2 * b]) for b in range(NB)]
        tot = sum(r[0] for r in rows)
        print(name, " ".join(f"{b / NB:.1f}:{r[0] / tot:.3f}/{r[1] / max(r[0], 1):.3f}" for b, r in enumerate(rows)))
    tot = sum(c[3 + 2 * b] for b in range(NB))
    print(f"log loss sampled {c[3 + 4 * NB] / 1e6 / tot:.4f} per-card {c[4 + 4 * NB] / 1e6 / tot:.4f}")

if __name__ == "__main__":
    run = kernel()
    import code
    for line in sys.stdin:
        spec, n = line.split()
        p = list(EX.PARAMS)
        for kv in spec.split(";"):
            k, v = kv.split("="); p[int(k)] = float(v)
        pol = np.concatenate([M.policy_row(M.EXPERT, p), np.zeros(60, np.int64)])
        t = time.perf_counter()
        run(np.uint64(1), int(n), M.os_rules_cfg(), pol)
        print(spec, n, f"{time.perf_counter() - t:.1f} s"); show(pol); sys.stdout.flush()
