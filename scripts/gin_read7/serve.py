"""Scratch (session 16): expert weight rows against the Numba copy of the simple bot, one
compile.  Reads lines "DEALS SEEDS NAME SPEC" appended to the file given (SPEC "base" or
"i=v;i=v" on expert.PARAMS); prints each row, paired against the row named "base" of the same
deals and seeds.  PYTHONPATH=<worktree> python serve.py QUEUE"""
import sys, time
from pathlib import Path
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import numpy as np
import match_gin_openspiel as M
from simcore.games.gin_rummy import expert as EX

kern = None
bases = {}

def run(params, seeds, deals):
    global kern
    if kern is None:
        t = time.perf_counter(); kern = M._kernel()
        # warm compile
        o = np.zeros((2, 2, 7), np.int64)
        kern(np.uint64(1), 2, M.os_rules_cfg(), M.policy_row(M.EXPERT, params), M.policy_row(M.SIMPLE), o)
        print(f"compiled in {time.perf_counter() - t:.0f} s", flush=True)
    outs = []
    t = time.perf_counter()
    for seed in seeds:
        out = np.zeros((deals, 2, 7), np.int64)
        kern(np.uint64(seed), deals, M.os_rules_cfg(), M.policy_row(M.EXPERT, params),
             M.policy_row(M.SIMPLE), out)
        outs.append(out)
    return np.concatenate(outs), time.perf_counter() - t

def paired(out, base):
    a = (out[:, :, 0] > 0).mean(axis=1)
    b = (base[:, :, 0] > 0).mean(axis=1)
    d = a - b
    return f"paired {100 * d.mean():+.2f} ± {196 * d.std(ddof=1) / np.sqrt(len(d)):.2f} pp"

queue = Path(sys.argv[1])
done = 0
while True:
    lines = queue.read_text().splitlines() if queue.exists() else []
    if done >= len(lines):
        time.sleep(2); continue
    line = lines[done].strip(); done += 1
    if not line or line.startswith("#"):
        continue
    deals, seeds, name, spec = line.split()
    p = list(EX.PARAMS)
    if spec != "base":
        for kv in spec.split(";"):
            k, v = kv.split("="); p[int(k)] = float(v)
    seeds_t = tuple(int(x) for x in seeds.split(","))
    out, dt = run(tuple(p), seeds_t, int(deals))
    key = (deals, seeds)
    if name == "base":
        bases[key] = out
    extra = paired(out, bases[key]) if key in bases and name != "base" else ""
    print(f"{name} {deals}x{seeds} {spec} | {M.report(out, 'row')} | {extra} | {dt:.1f} s", flush=True)
