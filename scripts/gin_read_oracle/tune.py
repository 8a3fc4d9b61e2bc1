"""Scratch: several expert weight rows against the Numba copy, one compile."""
# Run from the repository root with PYTHONPATH=$PWD: tune.py HANDS SEEDS SPEC... (SPEC "base" or "i=v;i=v" on expert.PARAMS);
# serve.py reads such lines on stdin (one compile for many); diag.py reads "SPEC DEALS" lines.
import sys, time
from pathlib import Path
sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parents[1]))
import numpy as np
import match_gin_openspiel as M
from simcore.games.gin_rummy import expert as EX

def run(params, seeds=(1, 2), hands=20000, kern=[None]):
    if kern[0] is None:
        kern[0] = M._kernel()
    outs = []
    t = time.perf_counter()
    for seed in seeds:
        out = np.zeros((hands, 2, 7), np.int64)
        kern[0](np.uint64(seed), hands, M.os_rules_cfg(), M.policy_row(M.EXPERT, params),
                M.policy_row(M.SIMPLE), out)
        outs.append(out)
    out = np.concatenate(outs)
    return M.report(out, f"seeds {seeds}") + f"; {time.perf_counter() - t:.1f} s"

if __name__ == "__main__":
    base = list(EX.PARAMS)
    hands = int(sys.argv[1])
    seeds = tuple(int(x) for x in sys.argv[2].split(","))
    for spec in sys.argv[3:]:
        p = list(base)
        if spec != "base":
            for kv in spec.split(";"):
                k, v = kv.split("=")
                p[int(k)] = float(v)
        print(spec, "|", run(tuple(p), seeds, hands), flush=True)
