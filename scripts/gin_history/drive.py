"""Rows of the session-18 experiment on the same deals (pf.py), paired against the first
``expert`` row:

    .venv/bin/python scripts/gin_history/drive.py 4000 3 expert pimc:n=256:moves=4:w=256

Arguments: deals (each played in both seats), seed, then rows ``kind[:key=value...]`` with
kind expert | pf | oracle | pimc and keys n (particles), moves, cost, kw, tw, k, w, truew
(pf.row).  OPP=heuristic in the environment plays simcore's heuristic instead of the copy
of the simple bot.  The kernel compiles once a process (about 7 minutes).
"""
import os
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import pf  # noqa: E402

def summ(out, label, base=None):
    m = out[:, :, 0]
    won = (m > 0).mean()
    s = f"{label}: won {won:.2%} pts {m.mean():+.2f} takes {out[:,:,6].mean():.3f}"
    if base is not None:
        d = ((m > 0).astype(float) - (base[:, :, 0] > 0)).mean(axis=1)
        s += f" paired {d.mean()*100:+.2f} ± {1.96*d.std(ddof=1)/np.sqrt(len(d))*100:.2f} pp"
    return s

n = int(sys.argv[1]); seed = int(sys.argv[2])
rows = sys.argv[3:]
res = {}
for spec in rows:
    kind, *kv = spec.split(':')
    kw = dict(x.split('=') for x in kv)
    kw = {k: (float(v) if '.' in v else int(v)) for k, v in kw.items()}
    pid = {'expert': pf.EXPERT, 'pf': pf.PF, 'oracle': pf.ORACLE, 'pimc': pf.PIMC}[kind]
    t = time.perf_counter()
    opp = pf.HEURISTIC if os.environ.get('OPP') == 'heuristic' else pf.SIMPLE
    out, st = pf.run(n, seed, pf.row(pid, **kw), opp)
    dt = time.perf_counter() - t
    base = res.get('expert')
    res.setdefault(kind if kind == 'expert' else spec, out)
    print(summ(out, spec, base), f"time {dt:.1f}s fallbacks {st[:,0].sum()} decisions {st[:,1].sum()} acc {st[:,2].sum()/max(st[:,3].sum(),1):.3f}", flush=True)
