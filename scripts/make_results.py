"""Regenerate ``results/``: a default batch for each game, every analysis, and
``results/README.md`` (each chart with its finding, sample, policies, rules and command).

    python scripts/make_results.py            # what `make results` runs
    python scripts/make_results.py --only spades-bids,dealing-check

Runs go to ``data/`` (git-ignored) and are reused: every simulation passes ``--resume``, so
a finished run is read again, not recomputed.  Batches the installed simcore cannot make yet
(the game ``dummy``, ``--what-if`` runs) are skipped with a note in the README.  Every batch is
a plain ``simcore simulate`` command with built-in policies, so the cached kernels serve them
(no user-policy compile).

``results/fingerprints.json`` ties ``results/`` to the code that made it: for every batch, its
manifest's options and a digest of each column of its first ``FINGERPRINT_DEALS`` deals
(games), and for every analysis a digest of its source.  A run in data/ whose options or
first deals differ from a fresh run of the same command (older code made it) is simulated
again.  tests/test_results.py makes the same small runs and fails when they, or an
analysis's source, no longer match the file.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import tempfile
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

DATA = Path("data")
RESULTS = Path("results")
FINGERPRINTS = RESULTS / "fingerprints.json"
# the first deals (games) of each batch whose rows the fingerprint records: enough for every
# rule and policy branch to show in some column, few enough that a test remakes all of them in
# seconds (a deal's rows depend on the seed and the deal only, so these are the batch's rows)
FINGERPRINT_DEALS = {"hands": 10_000, "games": 200}
# the dealer's knock policy of each Gin what-if run: the rules of the five what-if options
# (now = limit, at7, at4, at1, gin = gin_only), so gin-knock can put every option against every other
GIN_DEALER_KNOCKS = ("limit", "at7", "at4", "at1", "gin_only")
# deals of the open-hand Trump Friend level: its solves are heavy-tailed (docs/solving.md), so
# this is what keeps `make results` near 15 minutes; docs/analyses.md gives larger runs' cost
TF_DD_DEALS = "10"


@dataclass
class Batch:
    """One simulation (or ``simcore solve`` run): its folder under data/ and the CLI arguments
    after ``GAME``."""

    folder: str
    game: str
    args: list[str]
    needs: str = ""  # "dummy" or "what-if": made only when simcore supports it
    verb: str = "simulate"  # or "solve"
    check_deals: int = 0  # deals the fingerprint covers, when fewer than FINGERPRINT_DEALS (slow policies)

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


@dataclass
class Job:
    """One analysis: name, run folder (or folder of runs), output folder, its batches."""

    analysis: str
    data: str | list[str]  # several folders: the same analysis at several levels of play
    out: str
    needs: str = ""
    question: str = ""  # the README section (QUESTIONS) this analysis answers

    @property
    def folders(self) -> list[str]:
        return [self.data] if isinstance(self.data, str) else list(self.data)

    @property
    def data_args(self) -> str:
        return " ".join(f"--data {d}" for d in self.folders)


BATCHES = [
    # 400,000 deals x 5 calls = 2,000,000 rows, heuristic play (about 25 s on 2 busy cores)
    Batch("trump-friend-trump", "trump-friend", ["--deals", "400000", "--seed", "1", "--what-if", "trump"],
          needs="what-if"),
    Batch("trump-friend-friend", "trump-friend", ["--deals", "400000", "--seed", "2", "--what-if", "friend"],
          needs="what-if"),
    Batch("spades-main", "spades", ["--deals", "400000", "--seed", "1"]),
    Batch("spades-nil", "spades", ["--deals", "200000", "--seed", "2", "--what-if", "nil"], needs="what-if"),
    Batch("euchre-main", "euchre", ["--deals", "400000", "--seed", "1"]),
    Batch("euchre-order-up", "euchre", ["--deals", "200000", "--seed", "2", "--what-if", "order-up"], needs="what-if"),
    Batch("gin-rummy-main", "gin-rummy", ["--deals", "100000", "--seed", "1"]),
    Batch("gin-rummy-games", "gin-rummy", ["--deals", "5000", "--seed", "1", "--mode", "games"]),
    *[Batch(f"gin-knock-whatif/{k}", "gin-rummy", ["--deals", "100000", "--seed", "1", "--what-if", "knock",
                                                   "--policy", f"knock={k}"], needs="what-if")
      for k in GIN_DEALER_KNOCKS],
    *[Batch(f"dummy/players-{n}", "dummy", ["--deals", "100000", "--seed", "1", "--rules", f"players={n}"],
            needs="dummy") for n in (2, 3, 4)],
    # levels of play: the same questions under stronger play and open-handed
    Batch("euchre-order-up-pimc8", "euchre", ["--deals", "2000", "--seed", "2", "--what-if", "order-up",
                                              "--policy", "pimc:8"], needs="what-if", check_deals=40),
    # Spades and Trump Friend under pimc play at every seat (pimc:20: about 10 Spades deals and
    # 4 Trump Friend deals x 5 calls a second on one core): the first deals of the heuristic
    # batches of the same seed, played again
    Batch("spades-pimc", "spades", ["--deals", "600", "--seed", "1", "--policy", "pimc"], check_deals=40),
    Batch("trump-friend-trump-pimc", "trump-friend", ["--deals", "400", "--seed", "1", "--what-if", "trump",
                                                      "--policy", "pimc"], needs="what-if", check_deals=16),
    Batch("trump-friend-friend-pimc", "trump-friend", ["--deals", "400", "--seed", "2", "--what-if", "friend",
                                                       "--policy", "pimc"], needs="what-if", check_deals=16),
    Batch("euchre-dd", "euchre", ["--deals", "20000", "--seed", "2"], verb="solve", check_deals=500),
    # Spades open-handed: the first deals of spades-main solved (whether each nil holds, not its
    # tricks: --nil safe, about 1 s of CPU a deal) beside the same deals played, for their bids
    Batch("spades-dd/solve", "spades", ["--deals", "300", "--seed", "1", "--nil", "safe"], verb="solve",
          check_deals=8),
    Batch("spades-dd/play", "spades", ["--deals", "300", "--seed", "1"]),
    # Trump Friend open-handed: the first deals of trump-friend-trump (and -pimc) solved, ten
    # calls a deal (five trumps, with the friend and alone); a deal costs seconds to minutes
    Batch("trump-friend-dd", "trump-friend", ["--deals", TF_DD_DEALS, "--seed", "1"], verb="solve",
          check_deals=2),
    Batch("gin-knock-expert/at10", "gin-rummy", ["--deals", "50000", "--seed", "1", "--what-if", "knock",
                                                 "--policy", "expert", "--policy", "knock=at10"],
          needs="what-if", check_deals=2000),
    *[Batch(f"dummy-expert/players-{n}", "dummy", ["--deals", "50000", "--seed", "1", "--rules", f"players={n}",
                                                   "--policy", "expert"], needs="dummy", check_deals=2000)
      for n in (2, 3, 4)],
]

# The README's sections: each question a user asks, answered by one or more analyses at one
# or more levels of play (in this order); the dealing checks close the report.
QUESTIONS = {
    "trump": "Trump Friend: which trump should the declarer call?",
    "friend": "Trump Friend: call a friend, or play alone?",
    "spades": "Spades: how many tricks does a bid take, and when is nil safe?",
    "euchre": "Euchre: when to order up, and when to go alone?",
    "gin": "Gin Rummy: when to knock?",
    "dummy": "Dummy: how much is the first turn worth, and a speto?",
    "dealing": "Checks: are the deals uniform?",
}

JOBS = [
    Job("trump-call", ["data/trump-friend-trump", "data/trump-friend-trump-pimc", "data/trump-friend-dd"],
        "results/trump-friend-levels", needs="what-if", question="trump"),
    Job("trump-friend-dd", "data/trump-friend-dd", "results/trump-friend-dd", question="trump"),
    Job("trump-call", "data/trump-friend-trump", "results/trump-friend", needs="what-if", question="trump"),
    Job("friend-call", ["data/trump-friend-friend", "data/trump-friend-friend-pimc", "data/trump-friend-dd"],
        "results/trump-friend-friend-levels",
        needs="what-if", question="friend"),
    Job("friend-call", "data/trump-friend-friend", "results/trump-friend-friend", needs="what-if",
        question="friend"),
    Job("spades-bids", ["data/spades-main", "data/spades-pimc", "data/spades-dd"], "results/spades-levels",
        question="spades"),
    Job("spades-dd-bids", "data/spades-dd", "results/spades-dd", question="spades"),
    Job("spades-bids", "data/spades-main", "results/spades", question="spades"),
    Job("spades-bids", "data/spades-nil", "results/spades-nil", needs="what-if", question="spades"),
    Job("euchre-makers", "data/euchre-main", "results/euchre", question="euchre"),
    Job("euchre-makers", ["data/euchre-order-up", "data/euchre-order-up-pimc8", "data/euchre-dd"],
        "results/euchre-levels", needs="what-if", question="euchre"),
    Job("euchre-dd-order", "data/euchre-dd", "results/euchre-dd", question="euchre"),
    Job("gin-knock", ["data/gin-knock-whatif", "data/gin-knock-expert"], "results/gin-rummy-knock-levels",
        needs="what-if", question="gin"),
    Job("gin-knock", "data/gin-rummy-games", "results/gin-rummy", question="gin"),
    Job("dummy-advantage", ["data/dummy", "data/dummy-expert"], "results/dummy-levels", needs="dummy",
        question="dummy"),
    Job("dealing-check", "data/trump-friend-trump", "results/trump-friend", needs="what-if",
        question="dealing"),
    Job("dealing-check", "data/spades-main", "results/spades", question="dealing"),
    Job("dealing-check", "data/euchre-main", "results/euchre", question="dealing"),
    Job("dealing-check", "data/gin-rummy-main", "results/gin-rummy", question="dealing"),
    Job("dealing-check", "data/dummy/players-4", "results/dummy", needs="dummy", question="dealing"),
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


def simcore_bin() -> str:
    return str(Path(sys.executable).with_name("simcore"))


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
    cmd = batch.command()
    started = time.perf_counter()
    print("$", " ".join(cmd), flush=True)
    subprocess.run([simcore_bin(), *cmd[1:]], check=True, cwd=ROOT)
    print(f"  {time.perf_counter() - started:.0f} s", flush=True)


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


def analysis_digest(name: str) -> str:
    """A digest of the source of analysis ``name``: its module and every module of the
    analyses package it imports, directly or not."""
    import ast

    from analyses import ANALYSES

    todo, seen = [ANALYSES[name][0], "analyses"], {}
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
    record = {
        "about": "made by scripts/make_results.py; checked by tests/test_results.py",
        "deals": FINGERPRINT_DEALS,
        "batches": old.get("batches", {}) | {
            b.folder: {"command": " ".join(["simcore", b.verb, b.game, *b.first_deals()]),
                       **fingerprint(DATA / b.folder, b.mode, b.checked)} for b in batches},
        "analyses": old.get("analyses", {}) | {a: analysis_digest(a) for a in sorted(analyses)},
    }
    FINGERPRINTS.write_text(json.dumps(record, indent=1) + "\n")


# ---------------------------------------------------------------- README


def readme(done: list[tuple[Job, list[Path]]], skipped: list[str], seconds: float, reused: tuple[int, int]) -> str:
    lines = [
        "# Results",
        "",
        "Regenerated by `make results` (`python scripts/make_results.py`): the simulations below "
        "(reused from `data/` when finished and still what the code makes), then every analysis.  "
        "Each section is the analysis's "
        "own summary: the chart, a one-sentence finding computed from the data, the sample, the "
        "policies and rules, and the exact command.  Intervals are 95% (Wilson for rates, Student t "
        "for means, a bootstrap for the Gin Rummy games assembled from what-if hands).  How each analysis works: [docs/analyses.md](../docs/analyses.md).",
        "",
        "## Simulations",
        "",
        "```",
        *[" ".join(b.command()) for b in BATCHES if available(b.needs)],
        "```",
        "",
        f"The last regeneration took {seconds / 60:.1f} minutes on the 2-core development machine "
        f"(load average {os.getloadavg()[0]:.1f} at the end: it is shared); "
        f"{reused[0]} of its {reused[1]} simulation steps were already finished in `data/` and were reused.",
        "",
        f"[fingerprints.json](fingerprints.json) ties these results to the code: a digest of every column "
        f"of each batch's first {FINGERPRINT_DEALS['hands']:,} deals ({FINGERPRINT_DEALS['games']} games "
        "in games mode) and of each analysis's source.  `tests/test_results.py` remakes those first "
        "deals and fails when the rows or an analysis no longer match: then `make results` is due.",
        "",
        "## Levels of play",
        "",
        "Some questions are asked at more than one level of play: `heuristic` (the built-in policies, "
        "hundreds of thousands of deals), `pimc:8` (a searching player over 8 sampled deals of the unseen "
        "cards per decision, a few thousand deals), `expert` (the rummy games), and `open-hand` "
        "(`simcore solve`: every card seen, best play by every seat, which real play cannot reach; a `pimc` player decides as if the sampled deals were open, so it suffers strategy fusion: docs/search_policies.md).  A "
        "section made from several levels shows each question's answer per level with its 95% interval, "
        "every level's own chart below, and one sentence per question: the same at every level, not "
        "decided at a level (its interval spans the decision, usually the smaller sample), or the answer "
        "changes with the level.  Levels are independent samples of different sizes, so a threshold such "
        "as \"from 3 trumps up\" also moves with the sample size.  Each level's charts and tables are in a "
        "sub-folder of the section's folder.  Spades and Trump Friend `pimc` runs (every seat searching) "
        "play a few deals a second, so their samples are hundreds of deals against the heuristic's "
        "hundreds of thousands.  A `simcore solve` run is a question's open-hand level (the Euchre "
        "section: `euchre-dd-order`'s answers beside the simulate levels; the Spades section: "
        "`spades-dd-bids` on 300 deals solved with `--nil safe`, whether each nil holds without counting "
        "a failing nil's tricks, about 1.5 s a deal on two cores; the Trump Friend sections: "
        f"`trump-friend-dd` on the first {TF_DD_DEALS} deals of seed 1 solved for all five calls with the "
        "friend and alone).  Trump Friend solves are slow and heavy-tailed (seconds to minutes a deal, "
        "docs/solving.md), so that level's sample is small, its intervals wide and most of its answers "
        "not decided; docs/analyses.md gives the commands and cost of larger runs.",
        "",
    ]
    if skipped:
        lines += ["Not made yet (this simcore lacks what they need):", ""] + [f"- {s}" for s in skipped] + [""]
    lines += ["## Questions", "", *[f"- [{title}](#{_anchor(title)})" for key, title in QUESTIONS.items()
                                    if any(job.question == key for job, _ in done)], ""]
    for key, title in QUESTIONS.items():
        answers = [(job, written) for job, written in done if job.question == key]
        if not answers:
            continue
        lines += [f"## {title}", ""]
        for job, written in answers:
            summary = next(p for p in written if p.suffix == ".md")
            text = summary.read_text()
            rel = Path(job.out).relative_to(RESULTS)
            # the analysis's own "###" title is a sub-section of the question; links into its folder
            text = text.replace("](", f"]({rel}/", 1)
            lines += [text, ""]
    return "\n".join(lines)


def _anchor(title: str) -> str:
    """GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens."""
    kept = "".join(ch for ch in title.lower() if ch.isalnum() or ch in " -")
    return kept.replace(" ", "-")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", default="", help="comma-separated analysis names to (re)make")
    args = parser.parse_args(argv)
    only = {s.strip() for s in args.only.split(",") if s.strip()}
    os.chdir(ROOT)
    started = time.perf_counter()
    jobs = [j for j in JOBS if not only or j.analysis in only]
    wanted = {d for j in jobs for d in j.folders}
    skipped = []
    steps = []
    made = []
    for batch in BATCHES:
        target = str(DATA / batch.folder)
        if not any(target == w or target.startswith(w + "/") for w in wanted):
            continue
        if not available(batch.needs):
            skipped.append(f"`{' '.join(batch.command())}` (needs {batch.needs})")
            continue
        steps.append(simulate(batch))
        made.append(batch)
    from analyses import run_analysis

    done = []
    for job in jobs:
        if not available(job.needs):
            skipped.append(f"`simcore analyze {job.analysis} {job.data_args} --out {job.out}` (needs {job.needs})")
            continue
        t = time.perf_counter()
        written = run_analysis(job.analysis, job.data, job.out)
        print(f"$ simcore analyze {job.analysis} {job.data_args} --out {job.out}  "
              f"({time.perf_counter() - t:.1f} s)", flush=True)
        done.append((job, written))
    write_fingerprints(made, {job.analysis for job, _ in done})
    print(f"wrote {FINGERPRINTS}")
    if not only:
        (RESULTS / "README.md").write_text(readme(done, skipped, time.perf_counter() - started,
                                                  (sum(steps), len(steps))))
        print(f"wrote {RESULTS / 'README.md'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
