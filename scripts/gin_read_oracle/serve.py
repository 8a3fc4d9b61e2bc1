import sys, time
sys.path.insert(0, str(__import__("pathlib").Path(__file__).parent))
import tune
from simcore.games.gin_rummy import expert as EX
# lines: HANDS SEEDS SPEC
while True:
    line = sys.stdin.readline()
    if not line:
        time.sleep(1); continue
    line = line.strip()
    if not line: continue
    hands, seeds, spec = line.split()
    p = list(EX.PARAMS)
    if spec != "base":
        for kv in spec.split(";"):
            k, v = kv.split("="); p[int(k)] = float(v)
    print(hands, seeds, spec, "|", tune.run(tuple(p), tuple(int(x) for x in seeds.split(",")), int(hands)), flush=True)
