"""Regenerate ``results/``: the simulations behind every answer, every analysis, and
``results/README.md`` (the answers first, one row per question, then a section per question).

    python scripts/make_results.py            # what `make results` runs
    python scripts/make_results.py --only spades-bids,dealing-check   # these analyses again

**Sizes.** ``SIZES`` is the one table of sample sizes: raise a level's size there (the strong
levels — ``pimc``, open-hand solves — are small because their play costs seconds a deal) and run
``make results`` again; docs/analyses.md gives larger runs' commands and costs.

Runs go to ``data/`` (git-ignored) and are reused: every simulation passes ``--resume``, so a
finished run is read again, not recomputed.  The simulations run in two worker processes, one
game after another in each (``LANES``): compiling a game's kernels takes one core, so two games
compile side by side.  Timings go to the console and to ``data/make_results_timings.json``,
never into ``results/``, so the report regenerates byte for byte.

``results/fingerprints.json`` ties ``results/`` to the code that made it: for every batch, its
manifest's options and a digest of each column of its first ``FINGERPRINT_DEALS`` deals
(games), and for every analysis a digest of its source.  A run in data/ whose options or first
deals differ from a fresh run of the same command (older code made it) is simulated again.
tests/test_results.py makes the same small runs and fails when they, or an analysis's source,
no longer match the file.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))  # results_report.py, the report's words

DATA = Path("data")
RESULTS = Path("results")
FINGERPRINTS = RESULTS / "fingerprints.json"
TIMINGS = DATA / "make_results_timings.json"
# the first deals (games) of each batch whose rows the fingerprint records: enough for every
# rule and policy branch to show in some column, few enough that a test remakes all of them in
# seconds (a deal's rows depend on the seed and the deal only, so these are the batch's rows)
FINGERPRINT_DEALS = {"hands": 10_000, "games": 200}

# ---------------------------------------------------------------- sizes: the one table to raise

# Deals (games for "gin-games") per batch.  The strong levels are what the time target allows
# on the 2-core machine (a cold `make results` within 15 minutes); raise them here as the search
# and the solvers get faster, and every answer is re-decided at its new size.
SIZES = {
    "trump-friend": 400_000,        # heuristic, what-if trump and what-if friend (× 5 and × 2 rows)
    "trump-friend-searched": 10_000,  # searched trump calls (trump=pimc, about 2.5 ms of CPU a call)
    "trump-friend-pimc": 1_500,     # pimc play at every seat, what-if trump and friend
    "trump-friend-dd": 10,          # open-hand solves: seconds to minutes a deal (docs/solving.md)
    "spades": 400_000,
    "spades-nil": 200_000,          # what-if nil
    "spades-pimc": 1_500,
    "spades-dd": 300,               # open-hand, --nil safe (about 1 s of CPU a deal)
    "euchre-whatif": 200_000,       # each of the four order-up seats and the alone what-if
    "euchre-pimc8": 10_000,         # pimc:8, each of the four order-up seats and the alone what-if
    "euchre-dd": 20_000,
    "gin-whatif": 100_000,          # each of the five dealer strategies, and undercut_bonus=0
    "gin-expert": 50_000,
    "gin-games": 5_000,
    "dummy": 100_000,               # each table size
    "dummy-expert": 50_000,
}

# the dealer's knock policy of each Gin what-if run: the rules of the five what-if options
# (now = at10, at7, at4, at1, gin = gin_only), so gin-knock can put every option against every other
GIN_DEALER_KNOCKS = ("at10", "at7", "at4", "at1", "gin_only")
EUCHRE_WHATIFS = ("order-up", "order-up-partner", "order-up-right", "order-up-dealer", "alone")


@dataclass
class Batch:
    """One simulation (or ``simcore solve`` run): its folder under data/, its entry of SIZES
    and the CLI arguments after ``GAME --deals N``."""

    folder: str
    game: str
    size: str
    rest: list[str]
    needs: str = ""  # "dummy" or "what-if": made only when simcore supports it
    verb: str = "simulate"  # or "solve"
    check_deals: int = 0  # deals the fingerprint covers, when fewer than FINGERPRINT_DEALS (slow policies)

    @property
    def args(self) -> list[str]:
        return ["--deals", str(SIZES[self.size]), *self.rest]

    def command(self) -> list[str]:
        return ["simcore", self.verb, self.game, *self.args, "--out", str(DATA / self.folder), "--resume", "--quiet"]

    @property
    def checked(self) -> int:
        """The deals (games) the fingerprint covers."""
        return min(self.check_deals or FINGERPRINT_DEALS[self.mode], FINGERPRINT_DEALS[self.mode])

    @property
    def mode(self) -> str:
        return self.args[self.args.index("--mode") + 1] if "--mode" in self.args else "hands"

    def first_deals(self) -> list[str]:
        """This batch's arguments for its first FINGERPRINT_DEALS deals (games) only."""
        args = list(self.args)
        deals = args.index("--deals") + 1
        args[deals] = str(min(int(args[deals]), self.checked))
        return args


BATCHES = [
    # Trump Friend: every deal under all five trump calls (paired), the searched calls of the same
    # deals, the same at pimc play; friend or none; open-hand solves of the first deals of seed 1
    Batch("trump-friend-calls/whatif", "trump-friend", "trump-friend", ["--seed", "1", "--what-if", "trump"],
          needs="what-if"),
    Batch("trump-friend-calls/searched", "trump-friend", "trump-friend-searched", ["--seed", "1", "--policy",
                                                               "trump=pimc"], check_deals=100),
    Batch("trump-friend-calls-pimc/whatif", "trump-friend", "trump-friend-pimc", ["--seed", "1", "--what-if",
                                                                  "trump", "--policy", "pimc"],
          needs="what-if", check_deals=16),
    Batch("trump-friend-calls-pimc/searched", "trump-friend", "trump-friend-pimc", ["--seed", "1", "--policy",
                                                                    "trump=pimc"], check_deals=100),
    Batch("trump-friend-friend", "trump-friend", "trump-friend", ["--seed", "2", "--what-if", "friend"],
          needs="what-if"),
    Batch("trump-friend-friend-pimc", "trump-friend", "trump-friend-pimc", ["--seed", "2", "--what-if", "friend",
                                                            "--policy", "pimc"], needs="what-if", check_deals=16),
    Batch("trump-friend-dd", "trump-friend", "trump-friend-dd", ["--seed", "1"], verb="solve", check_deals=2),
    # Spades: ordinary play (bids), what-if nil, pimc at every seat, open-hand solves with the bids
    Batch("spades-main", "spades", "spades", ["--seed", "1"]),
    Batch("spades-nil", "spades", "spades-nil", ["--seed", "2", "--what-if", "nil"], needs="what-if"),
    Batch("spades-pimc", "spades", "spades-pimc", ["--seed", "1", "--policy", "pimc"], check_deals=40),
    Batch("spades-dd/solve", "spades", "spades-dd", ["--seed", "1", "--nil", "safe"], verb="solve",
          check_deals=4),  # deal 5 of seed 1 alone takes 30 s
    Batch("spades-dd/play", "spades", "spades-dd", ["--seed", "1"]),
    # Euchre: order up or pass at each of the four seats, alone or with the partner, heuristic and
    # pimc:8 play; open-hand solves of the same deals (seed 2)
    *[Batch(f"euchre-whatif/{w}", "euchre", "euchre-whatif", ["--seed", "2", "--what-if", w], needs="what-if")
      for w in EUCHRE_WHATIFS],
    *[Batch(f"euchre-pimc8/{w}", "euchre", "euchre-pimc8", ["--seed", "2", "--what-if", w, "--policy", "pimc:8"],
            needs="what-if", check_deals=40) for w in EUCHRE_WHATIFS],
    Batch("euchre-dd", "euchre", "euchre-dd", ["--seed", "2"], verb="solve", check_deals=500),
    # Gin Rummy: the non-dealer's knock options against each dealer strategy, against the expert,
    # and without the undercut bonus; games for the first player's advantage
    *[Batch(f"gin-knock/{k}", "gin-rummy", "gin-whatif", ["--seed", "1", "--what-if", "knock", "--policy",
                                                 f"knock={k}"], needs="what-if") for k in GIN_DEALER_KNOCKS],
    Batch("gin-knock-expert/expert", "gin-rummy", "gin-expert", ["--seed", "1", "--what-if", "knock", "--policy",
                                                        "expert"], needs="what-if", check_deals=2000),
    Batch("gin-knock-undercut0/at10", "gin-rummy", "gin-whatif", ["--seed", "1", "--what-if", "knock", "--policy",
                                                         "knock=at10", "--rules", "undercut_bonus=0"], needs="what-if"),
    Batch("gin-rummy-games", "gin-rummy", "gin-games", ["--seed", "1", "--mode", "games"]),
    # Dummy: each table size, heuristic and expert play (the same deals: seed 1)
    *[Batch(f"dummy/players-{n}", "dummy", "dummy", ["--seed", "1", "--rules", f"players={n}"], needs="dummy")
      for n in (2, 3, 4)],
    *[Batch(f"dummy-expert/players-{n}", "dummy", "dummy-expert", ["--seed", "1", "--rules", f"players={n}",
                                                        "--policy", "expert"], needs="dummy", check_deals=2000)
      for n in (2, 3, 4)],
]


def set_sizes(sizes: dict) -> None:
    """Use ``sizes`` (entries of SIZES) for this run: every batch's --deals follows its entry."""
    unknown = [k for k in sizes if k not in SIZES]
    if unknown:
        raise SystemExit(f"--sizes: unknown entries {', '.join(unknown)}; known: {', '.join(SIZES)}")
    SIZES.update({k: int(v) for k, v in sizes.items()})


# Simulation lanes: the batches of one game run one after another in one worker (its kernels
# compile once, then load from the cache); two workers take the lanes in this order.
LANES = ["trump-friend", "spades", "euchre", "gin-rummy", "dummy"]
WORKERS = 2


@dataclass
class Job:
    """One analysis: name, run folder (or folders: levels of play), output folder, its section."""

    analysis: str
    data: str | list[str]
    out: str
    section: str
    needs: str = ""
    labels: dict = field(default_factory=dict)

    @property
    def folders(self) -> list[str]:
        return [self.data] if isinstance(self.data, str) else list(self.data)

    def command(self) -> str:
        labels = "".join(f" --label {k}={v!r}" for k, v in self.labels.items())
        return (f"simcore analyze {self.analysis} " + " ".join(f"--data {d}" for d in self.folders) + labels
                + f" --out {self.out}")


UNDERCUT0 = "heuristic, undercut bonus 0"
JOBS = [
    Job("trump-call", ["data/trump-friend-calls", "data/trump-friend-calls-pimc", "data/trump-friend-dd"],
        "results/trump-friend-calls", "trump", needs="what-if"),
    Job("friend-call", ["data/trump-friend-friend", "data/trump-friend-friend-pimc", "data/trump-friend-dd"],
        "results/trump-friend-friend", "friend", needs="what-if"),
    Job("spades-bids", ["data/spades-main", "data/spades-pimc", "data/spades-dd"], "results/spades-bids", "bids"),
    Job("spades-nil", "data/spades-nil", "results/spades-nil", "nil", needs="what-if"),
    Job("euchre-makers", ["data/euchre-whatif", "data/euchre-pimc8", "data/euchre-dd"], "results/euchre", "euchre",
        needs="what-if"),
    Job("gin-knock", ["data/gin-knock", "data/gin-knock-expert", "data/gin-knock-undercut0"], "results/gin-knock",
        "knock", needs="what-if", labels={"data/gin-knock-undercut0": UNDERCUT0}),
    Job("gin-knock", "data/gin-rummy-games", "results/gin-first-player", "gin-first"),
    Job("dummy-advantage", ["data/dummy", "data/dummy-expert"], "results/dummy", "dummy", needs="dummy"),
    Job("dealing-check", "data/trump-friend-calls/whatif", "results/checks/trump-friend", "dealing", needs="what-if"),
    Job("dealing-check", "data/spades-main", "results/checks/spades", "dealing"),
    Job("dealing-check", "data/euchre-whatif/order-up", "results/checks/euchre", "dealing", needs="what-if"),
    Job("dealing-check", "data/gin-knock/at10", "results/checks/gin-rummy", "dealing", needs="what-if"),
    Job("dealing-check", "data/dummy/players-4", "results/checks/dummy", "dealing", needs="dummy"),
]


def available(needs: str) -> bool:
    if not needs:
        return True
    if needs == "dummy":
        from simcore import games
        from simcore.errors import SimcoreError

        try:
            games.get("dummy")
        except SimcoreError:
            return False
        return True
    if needs == "what-if":
        import inspect

        from simcore.batch import simulate as simulate_fn

        return "what_if" in inspect.signature(simulate_fn).parameters
    raise ValueError(needs)


def finished(folder: Path) -> bool:
    try:
        return bool(json.loads((folder / "manifest.json").read_text()).get("finished"))
    except (OSError, ValueError):
        return False


def simulate(batch: Batch) -> bool:
    """Run (or finish) one batch; returns whether it was already finished.  A run in data/
    made with other options, or whose first deals are not what the code makes now (older
    code made it), is made again."""
    folder = DATA / batch.folder
    fresh = fresh_fingerprint(batch)
    reused = finished(folder)
    if (folder / "manifest.json").is_file() and run_identity(folder) != fresh["run"]:
        remove_stale(folder, "with other options")
        reused = False
    run_command(batch)
    if fingerprint(folder, batch.mode, batch.checked) != fresh:
        remove_stale(folder, "by other code (its first deals differ)")
        reused = False
        run_command(batch)
        if fingerprint(folder, batch.mode, batch.checked) != fresh:
            raise RuntimeError(f"{folder}: the first deals of a full run differ from a run of those "
                               "deals alone, so its rows depend on more than (seed, deal)")
    return reused


def remove_stale(folder: Path, why: str) -> None:
    print(f"  {folder} was made {why}: simulating it again", flush=True)
    shutil.rmtree(folder)


def run_command(batch: Batch) -> None:
    """The batch's command line, run in this process (a lane's worker): its kernels are already
    loaded by the fingerprint's run of the first deals, so nothing is imported or loaded twice."""
    from simcore.cli import main as cli

    cmd = batch.command()
    started = time.perf_counter()
    print("$", " ".join(cmd), flush=True)
    if cli(cmd[1:]) != 0:
        raise RuntimeError(f"`{' '.join(cmd)}` failed")
    print(f"  {time.perf_counter() - started:.0f} s", flush=True)


# ---------------------------------------------------------------- simulation workers


def run_lane(game: str) -> dict:
    """Every batch of one game, in order (in this process: the worker of a lane)."""
    out = {"game": game, "batches": {}, "reused": 0, "steps": 0}
    for batch in BATCHES:
        if batch.game != game or not available(batch.needs):
            continue
        started = time.perf_counter()
        reused = simulate(batch)
        out["batches"][batch.folder] = round(time.perf_counter() - started, 1)
        out["reused"] += int(reused)
        out["steps"] += 1
    return out


def simulate_all(games: list[str]) -> dict:
    """The lanes of ``games`` in ``WORKERS`` worker processes (each a ``--lane GAME`` run of
    this script, its output in data/logs/), the next lane to the first worker free."""
    logs = DATA / "logs"
    logs.mkdir(parents=True, exist_ok=True)
    todo = [g for g in LANES if g in games]
    running: list[tuple[str, subprocess.Popen, Path, float]] = []
    done = {}
    while todo or running:
        while todo and len(running) < WORKERS:
            game = todo.pop(0)
            result = logs / f"{game}.json"
            result.unlink(missing_ok=True)
            log = open(logs / f"{game}.log", "w")
            proc = subprocess.Popen([sys.executable, str(Path(__file__).resolve()), "--lane", game, "--lane-out",
                                     str(result), "--sizes", json.dumps(SIZES)], cwd=ROOT, stdout=log,
                                    stderr=subprocess.STDOUT)
            running.append((game, proc, result, time.perf_counter()))
            print(f"simulating {game} (log: {logs / (game + '.log')})", flush=True)
        time.sleep(1)
        for item in list(running):
            game, proc, result, started = item
            if proc.poll() is None:
                continue
            running.remove(item)
            if proc.returncode != 0:
                for p in running:
                    p[1].kill()
                sys.stdout.write((logs / f"{game}.log").read_text()[-3000:])
                raise RuntimeError(f"simulating {game} failed: see {logs / (game + '.log')}")
            done[game] = json.loads(result.read_text())
            print(f"  {game}: {time.perf_counter() - started:.0f} s", flush=True)
    return done


# ---------------------------------------------------------------- fingerprints


# what a run's manifest says about how it was made, but its size (the summaries print these)
RUN_KEYS = ("game", "mode", "seed", "rules", "policies", "log_plays", "what_if", "predeal", "conditions")


def run_identity(folder: Path) -> dict:
    from simcore.runs import read_manifest

    manifest = read_manifest(folder)
    return {key: manifest.get(key) for key in RUN_KEYS}


def fingerprint(folder: Path, mode: str, limit: int) -> dict:
    """The run in ``folder``: how it was made (``run``) and, per table, the rows of its first
    ``limit`` deals (games) and a digest of each column, in deal (and what-if option) order."""
    import polars as pl

    from simcore.runs import load

    key = "game" if mode == "games" else "deal"
    tables = {}
    for table in ("hands", "games") if mode == "games" else ("hands",):
        frame = load(folder, table).filter(pl.col(key) < limit).collect()
        order = [c for c in (key, "deal", "option") if c in frame.columns]
        frame = frame.sort(list(dict.fromkeys(order)))
        tables[table] = {"rows": frame.height,
                         "columns": {c: column_digest(frame[c]) for c in frame.columns}}
    return {"run": run_identity(folder), "tables": tables}


def column_digest(column) -> str:
    # the values as JSON (exact for integers, repr for floats) and the type: stable across
    # polars versions, unlike its own row hashes
    digest = hashlib.sha256(f"{column.name}:{column.dtype}:".encode())
    digest.update(json.dumps(column.to_list()).encode())
    return digest.hexdigest()[:16]


def fresh_fingerprint(batch: Batch) -> dict:
    """The fingerprint of the batch's first deals, simulated now (in this process, by the
    same command line)."""
    from simcore.cli import main as cli

    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "run"
        status = cli([batch.verb, batch.game, *batch.first_deals(), "--out", str(out), "--quiet"])
        if status != 0:
            raise RuntimeError(f"simcore {batch.verb} {batch.game} {' '.join(batch.first_deals())} failed")
        return fingerprint(out, batch.mode, batch.checked)


# the simcore modules whose code shapes what an analysis writes (beside the analyses package)
ANALYSIS_SIMCORE = ("simcore.frames",)


def analysis_digest(name: str) -> str:
    """A digest of the source of analysis ``name``: its module and every module of the
    analyses package it imports, directly or not, and ``ANALYSIS_SIMCORE``."""
    import ast

    from analyses import ANALYSES, OPEN_HAND_OF

    todo, seen = [ANALYSES[name][0], "analyses", *ANALYSIS_SIMCORE], {}
    if name in OPEN_HAND_OF:  # its open-hand level is read by another analysis's module
        todo.append(ANALYSES[OPEN_HAND_OF[name]][0])
    while todo:
        module = todo.pop()
        if module in seen:
            continue
        path = ROOT / (module.replace(".", "/") + ".py")
        if not path.is_file():
            path = ROOT / module.replace(".", "/") / "__init__.py"
        seen[module] = path.read_bytes()
        for node in ast.walk(ast.parse(seen[module])):
            if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "analyses":
                todo += [node.module] + [f"{node.module}.{a.name}" for a in node.names
                                         if (ROOT / node.module.replace(".", "/") / f"{a.name}.py").is_file()]
    digest = hashlib.sha256()
    for module in sorted(seen):
        digest.update(module.encode() + b"\0" + seen[module] + b"\0")
    return digest.hexdigest()[:16]


def write_fingerprints(batches: list[Batch], analyses: set[str]) -> None:
    """Record the fingerprints of ``batches`` (their runs in data/) and ``analyses``, keeping
    the entries of the others (``--only``)."""
    old = json.loads(FINGERPRINTS.read_text()) if FINGERPRINTS.is_file() else {}
    known = {b.folder for b in BATCHES}
    record = {
        "about": "made by scripts/make_results.py; checked by tests/test_results.py",
        "deals": FINGERPRINT_DEALS,
        "batches": {k: v for k, v in old.get("batches", {}).items() if k in known} | {
            b.folder: {"command": " ".join(["simcore", b.verb, b.game, *b.first_deals()]),
                       **fingerprint(DATA / b.folder, b.mode, b.checked)} for b in batches},
        "analyses": {k: v for k, v in old.get("analyses", {}).items() if k in {j.analysis for j in JOBS}}
        | {a: analysis_digest(a) for a in sorted(analyses)},
    }
    FINGERPRINTS.write_text(json.dumps(record, indent=1) + "\n")


# ---------------------------------------------------------------- main


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", default="", help="comma-separated analysis names to (re)make")
    parser.add_argument("--sizes", default="", help="JSON object of SIZES entries to use instead of the table's, "
                        "e.g. '{\"spades-pimc\": 1500}' (the committed results use the table)")
    parser.add_argument("--lane", help=argparse.SUPPRESS)  # a worker: simulate one game's batches
    parser.add_argument("--lane-out", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    os.chdir(ROOT)
    if args.sizes:
        set_sizes(json.loads(args.sizes))
    if args.lane:
        result = run_lane(args.lane)
        Path(args.lane_out).write_text(json.dumps(result))
        return 0
    only = {s.strip() for s in args.only.split(",") if s.strip()}
    started = time.perf_counter()
    jobs = [j for j in JOBS if (not only or j.analysis in only) and available(j.needs)]
    wanted = {d for j in jobs for d in j.folders}
    batches = [b for b in BATCHES if available(b.needs)
               and any(str(DATA / b.folder) == w or str(DATA / b.folder).startswith(w + "/") for w in wanted)]
    lanes = simulate_all(sorted({b.game for b in batches}))
    simulated = time.perf_counter() - started
    from results_report import make_report

    times = make_report(jobs, sys.modules[__name__], write_readme=not only)
    write_fingerprints(batches, {job.analysis for job in jobs})
    print(f"wrote {FINGERPRINTS}")
    total = time.perf_counter() - started
    steps = sum(v["steps"] for v in lanes.values())
    reused = sum(v["reused"] for v in lanes.values())
    TIMINGS.write_text(json.dumps({"total_s": round(total, 1), "simulations_s": round(simulated, 1),
                                   "lanes": lanes, "analyses_s": times,
                                   "load_average": os.getloadavg()}, indent=1) + "\n")
    print(f"make results: {total / 60:.1f} minutes ({simulated / 60:.1f} simulating; {reused} of {steps} "
          f"simulation steps reused from data/; load average {os.getloadavg()[0]:.1f}); timings in {TIMINGS}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
