"""``results/README.md``: the answers first — one row per question, in a player's words, with
the effect and its 95% interval, n, the levels of play it holds at and the caveat that bounds
it — then one section per question (its answer in at most three sentences, its figures, the
estimates at every level and their differences), the methods once, and the simulations.

Used by scripts/make_results.py: ``make_report(jobs)`` runs every analysis of ``jobs`` into its
folder (``simcore.analyze``) and writes the README from the analyses' claims.  Nothing in it
depends on the run's timing or machine, so the same data give the same bytes.
"""

from __future__ import annotations

import shutil
import time
from dataclasses import dataclass
from pathlib import Path

from analyses.common import upper_first

RESULTS = Path("results")

SECTIONS = {
    "trump": "Trump Friend: which trump should the declarer call?",
    "friend": "Trump Friend: call a friend, or play alone?",
    "bids": "Spades: how many tricks does a bid take?",
    "nil": "Spades: when is nil worth bidding?",
    "euchre": "Euchre: when to order up, and when to go alone?",
    "knock": "Gin Rummy: knock now, or wait?",
    "gin-first": "Gin Rummy: does the first player have an advantage?",
    "dummy": "Dummy: what are the first turn and a speto worth?",
    "dealing": "Checks: are the deals uniform?",
}


def make_report(jobs, mr, write_readme: bool = True) -> dict:
    """Run every job's analysis into its folder (emptied first) and, with ``write_readme``,
    write results/README.md (``mr``: the make_results module, for the sizes and commands);
    returns each analysis's seconds (for the console, not the report)."""
    import analyses

    done, times = [], {}
    if write_readme and RESULTS.is_dir():  # the whole report: folders no job writes any more are stale
        tops = {Path(job.out).relative_to(RESULTS).parts[0] for job in jobs}
        for stale in sorted(p for p in RESULTS.iterdir() if p.is_dir() and p.name not in tops):
            shutil.rmtree(stale)
    for job in jobs:
        out = Path(job.out)
        if out.exists() and not any(j.out != job.out and Path(j.out).is_relative_to(out) for j in jobs):
            shutil.rmtree(out)
    for job in jobs:
        started = time.perf_counter()
        result = analyses.analyze(job.analysis, job.data, out=job.out, labels=job.labels or None)
        for a in [result, *result.levels.values()]:
            a.close()
        seconds = round(time.perf_counter() - started, 1)
        times[f"{job.analysis} -> {job.out}"] = seconds
        print(f"$ {job.command()}  ({seconds:.1f} s)", flush=True)
        done.append((job, result))
    if write_readme:
        (RESULTS / "README.md").write_text(readme(done, mr))
        print(f"wrote {RESULTS / 'README.md'}")
    return times


# ---------------------------------------------------------------- claims by level


def levels_of(result) -> list[tuple[str, dict]]:
    """[(level label, {key: claim})] of an analysis: its levels, or its one level."""
    if hasattr(result, "per_level"):
        return [(lv.label, {c.key: c for c in claims}) for lv, claims in result.per_level]
    label = result.level.split(" (")[0].split(";")[0]
    return [(label, {c.key: c for c in result.claims})]


@dataclass
class Row:
    """One answer of the answers table."""

    section: str
    question: str
    answer: str
    effect: str
    n: str
    holds: str
    caveat: str


def holds_at(levels, keys: list[str], reference_outcome: str | None = None) -> str:
    """The levels at which every claim of ``keys`` has the reference level's outcome, the
    levels without enough deals, and the levels whose decided answer differs."""
    same, small, other = [], [], []
    ref = reference_outcome
    for label, claims in levels:
        cs = [claims[k] for k in keys if k in claims]
        if not cs:
            continue
        outcomes = {c.outcome for c in cs}
        if ref is None:
            ref = next(iter(outcomes)) if len(outcomes) == 1 else None
        if len(outcomes) == 1 and next(iter(outcomes)) == ref and ref in ("below", "above", "equal"):
            same.append(label)
        elif all(c.outcome in ("open", "small") for c in cs):
            small.append(f"{label} (n = {min(c.n for c in cs):,})")
        else:
            other.append(f"{label}: " + "; ".join(c.verdict for c in cs if c.decided))
    text = ", ".join(same) if same else "no level"
    if small:
        text += "; not enough deals at " + ", ".join(small)
    if other:
        text += "; differs at " + "; ".join(other)
    return text


def est(c, unit: bool = True) -> str:
    u = f" {c.unit}" if unit and c.unit and c.scale != 100 else ""
    return f"{c.estimate()}{u}"


def first_sentence(text: str) -> str:
    cut = text.find(". ")
    return text if cut < 0 else text[:cut + 1]


def rows(done) -> list[Row]:
    by = {}
    for job, result in done:
        by.setdefault(job.section, []).append(result)
    out = []

    def add(section, question, answer, effect, n, holds, caveat):
        out.append(Row(section, question, answer, effect, n, holds, caveat))

    if "trump" in by:
        r = by["trump"][0]
        levels = levels_of(r)
        ref = levels[0][1]
        keys = ["tf.second", "tf.third", "tf.notrump"]
        if all(k in ref for k in keys):
            all_below = all(ref[k].outcome == "below" for k in keys)
            answer = ("Call your longest suit: the second or third longest, or no trump, scores less on the same hand."
                      if all_below else upper_first("; ".join(ref[k].verdict for k in keys)) + ".")
            sub = next(iter(r.levels.values())) if r.levels else r
            exceptions = [d for d in sub.details if d.startswith("The second longest suit beats")]
            if exceptions:
                answer += " " + exceptions[0].replace("The second longest suit beats the longest (95% interval above "
                                                      "zero) only when it is", "Exception: the second longest when it is")
            effect = "; ".join(f"{w} {est(ref[k], False)}" for w, k in zip(("2nd longest", "3rd longest", "no trump"),
                                                                            keys)) + " points a round against the longest"
            add("trump", "Trump Friend: which trump to call?", answer, effect, f"{ref['tf.second'].n:,} deals", holds_at(levels, keys, "below"),
                ref["tf.second"].caveat)
        if "tf.searched" in ref:
            c = ref["tf.searched"]
            words = {"equal": f"No: searching the trump call gains nothing over calling the longest suit (within "
                              f"±{c.margin:g} a round).",
                     "above": "Yes: a searched trump call beats calling the longest suit.",
                     "below": "No: a searched trump call does worse than calling the longest suit."}
            add("trump", "Trump Friend: does searching the trump call beat the longest suit?", words.get(c.outcome, f"Not decided: {c.verdict}."), f"{est(c)} (searched − longest suit)",
                f"{c.n:,} deals", holds_at(levels, ["tf.searched"]), c.caveat)
    if "friend" in by:
        r = by["friend"][0]
        levels = levels_of(r)
        c = levels[0][1].get("tf.friend")
        if c:
            sub = next(iter(r.levels.values())) if r.levels else r
            extra = sub.answer.split("; ", 1)[1].rstrip(".") if "; " in sub.answer else ""
            add("friend", "Trump Friend: call a friend or play alone?", f"{upper_first(c.verdict)}" + (f" ({extra})." if extra else "."),
                f"{est(c)} without a friend (score relative to the others)", f"{c.n:,} deals",
                holds_at(levels, ["tf.friend"]), c.caveat)
    if "bids" in by:
        r = by["bids"][0]
        levels = levels_of(r)
        parts = [f"{label}: {claims['sp.over'].verdict} ({est(claims['sp.over'])})" for label, claims in levels
                 if "sp.over" in claims and claims["sp.over"].decided]
        sub = next(iter(r.levels.values())) if r.levels else r
        detail = sub.answer.split("; ", 1)[1].split(".")[0] if "; bids of" in sub.answer else ""
        c = levels[0][1].get("sp.over")
        if c:
            add("bids", "Spades: how many tricks does a bid take?", upper_first("; ".join(parts))
                + (f". Heuristic {detail}." if detail else "."),
                f"{est(c)} taken − bid ({levels[0][0]})", f"{c.n:,} deals", holds_at(levels, ["sp.over"]), c.caveat)
    if "nil" in by:
        r = by["nil"][0]
        levels = levels_of(r)
        ref = levels[0][1]
        c = ref.get("sp.nil_good_value")
        if c:
            add("nil", "Spades: when is nil worth bidding?", first_sentence(r.answer), f"{est(c)} nil − number with at most one spade and no ace or king",
                f"{c.n:,} deals", holds_at(levels, ["sp.nil_good_value"]), c.caveat)
    if "euchre" in by:
        r = by["euchre"][0]
        levels = levels_of(r)
        ref = levels[0][1]
        sub = next(iter(r.levels.values())) if r.levels else r
        sentences = [s.strip() + "." for s in sub.answer.split(". ") if s.strip()]
        for what, word, sentence in (("order", "Order up", sentences[0] if sentences else ""),
                                     ("alone", "Go alone", sentences[1] if len(sentences) > 1 else "")):
            key = f"eu.{what}.1.t3" if what == "order" else "eu.alone.4.t4"
            c = ref.get(key)
            if c and sentence:
                add("euchre", f"Euchre: when to {word.lower()}?", upper_first(sentence.split(" — ", 1)[-1].rstrip(".")) + ".",
                    f"{est(c)} ({c.question.split(': ', 1)[1]})", f"{c.n:,} deals", holds_at(levels, [key]), c.caveat)
    if "knock" in by:
        r = by["knock"][0]
        levels = levels_of(r)
        key = "gin.now_vs_gin.late.7–10"
        parts = [f"against {'the expert' if 'expert' in label else 'a dealer who knocks at once'}"
                 f"{' without the undercut bonus' if 'undercut' in label else ''}: {claims[key].verdict} "
                 f"({est(claims[key], False)})" for label, claims in levels if key in claims]
        c = levels[0][1].get(key)
        if c:
            add("knock", "Gin Rummy: knock now or wait for gin?", "Late in the hand with deadwood 7–10, " + "; ".join(parts) + ".",
                f"{est(c)} knock now − wait for gin ({levels[0][0]})", f"{c.n:,} deals",
                holds_at(levels, [key]), "the undercut bonus (25) carries the answer; hands, not games")
    if "gin-first" in by:
        r = by["gin-first"][0]
        c = r.claims[0] if r.claims else None
        if c:
            add("gin-first", "Gin Rummy: is the first player favoured?", f"{upper_first(c.verdict)}.", est(c), f"{c.n:,} {c.unit}", holds_at(levels_of(r), [c.key]),
                "heuristic play (it knocks only with gin)")
    if "dummy" in by:
        r = by["dummy"][0]
        levels = levels_of(r)
        ref = levels[0][1]
        firsts = sorted(k for k in ref if k.startswith("dm.first."))
        if firsts:
            answer = "; ".join(f"{k.rsplit('.', 1)[1]} players: {ref[k].verdict}" for k in firsts) + "."
            add("dummy", "Dummy: what is the first turn worth?", upper_first(answer), "; ".join(f"{k.rsplit('.', 1)[1]}p {est(ref[k], False)}" for k in firsts)
                + " points a deal", f"{ref[firsts[0]].n:,} deals a size", holds_at(levels, firsts[-1:]),
                "first player's score against the others' mean, paired per deal")
        spetos = sorted(k for k in ref if k.startswith("dm.speto."))
        if spetos:
            answer = ("Observational only: " + "; ".join(f"{k.rsplit('.', 1)[1]} players {est(ref[k], False)}"
                                                        for k in spetos) + " points a deal for one speto dealt.")
            add("dummy", "Dummy: what is a speto worth?", answer, "; ".join(f"{k.rsplit('.', 1)[1]}p {est(ref[k], False)}" for k in spetos),
                f"{ref[spetos[0]].n:,} deals a size", holds_at(levels, spetos[-1:]), ref[spetos[0]].caveat)
    if "dealing" in by:
        worst = min(by["dealing"], key=lambda a: float(a.tables["dealing_check_tests"]["p_value"].min()))
        p = float(worst.tables["dealing_check_tests"]["p_value"].min())
        ok = all("do NOT" not in a.answer for a in by["dealing"])
        add("dealing", "Are the deals uniform?", "Yes: every game's dealt hands fit the exact laws." if ok else "No: see the checks.",
            f"smallest p = {p:.3f} ({worst.title.split(':')[0]})", "100,000–400,000 deals a game", "every run",
            "seat 0's hand, chi-square with a Bonferroni correction")
    return out


# ---------------------------------------------------------------- the README


def anchor(title: str) -> str:
    """GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens."""
    kept = "".join(ch for ch in title.lower() if ch.isalnum() or ch in " -")
    return kept.replace(" ", "-")


def cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def readme(done, mr) -> str:
    from analyses.levels import claim_markdown

    table = rows(done)
    lines = [
        "# Results",
        "",
        "What the simulations say about each game's decisions, at every level of play measured: `heuristic` "
        "(the built-in policies, hundreds of thousands of deals), `expert` (the rummy games), `pimc` (a searching "
        "player, hundreds to thousands of deals) and `open-hand` (`simcore solve`: every seat plays perfectly with "
        "every card seen).  Each answer carries its 95% interval, its sample and the levels at which it holds; an "
        "answer the sample cannot decide says \"not enough deals (n = …)\".  Regenerated by `make results`; "
        "methods once, at the end.",
        "",
        "## Answers",
        "",
        "| question | answer | effect [95% CI] | n | holds at | caveat |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for r in table:
        lines.append(f"| [{cell(r.question)}](#{anchor(SECTIONS[r.section])}) | {cell(r.answer)} | {cell(r.effect)} | "
                     f"{cell(r.n)} | {cell(r.holds)} | {cell(r.caveat)} |")
    lines.append("")
    for key, title in SECTIONS.items():
        parts = [(job, result) for job, result in done if job.section == key]
        if not parts:
            continue
        lines += [f"## {title}", ""]
        mine = [r for r in table if r.section == key]
        if mine:  # the section's answer: the answers table's rows, in words
            lines += [" ".join(f"*{r.question.split(': ', 1)[-1]}* **{r.answer}**" for r in mine), ""]
        for job, result in parts:
            lines += section(job, result, claim_markdown)
    lines += methods(done) + simulations(mr)
    return "\n".join(lines).rstrip() + "\n"


def section(job, result, claim_markdown) -> list[str]:
    rel = Path(job.out).relative_to(RESULTS)
    lines = []
    if job.section == "dealing":
        lines += [f"### {result.title}", "", result.answer, ""]
    for name in result.figures:
        lines += [f"![{result.title}]({rel}/{name}.png)", ""]
    subs = list(result.levels.items())
    if subs:
        slug, ref = subs[0]
        for name in ref.figures:
            lines += [f"![{ref.title} ({slug})]({rel}/{slug}/{name}.png)", ""]
        lines += claim_markdown(result.per_level, result.differences, compared_only=True) + [""]
        for d in ref.details:
            lines.append(f"- {d}")
        for slug, sub in subs:
            figs = ", ".join(f"[{n}.png]({rel}/{slug}/{n}.png)" for n in sub.figures) or "no figure (too few deals)"
            lines.append(f"- Level **{slug}**: {sub.sample}; {sub.level}; rules {sub.rules}; figures: {figs}.")
    else:
        if result.claims:
            lines += claim_markdown([(levels_of(result)[0][0], result.claims)], []) + [""]
        for d in result.details:
            lines.append(f"- {d}")
        lines.append(f"- Sample: {result.sample}; {result.level}; rules {result.rules}.")
    lines += [f"- Made by: `{job.command()}`", f"- Tables: [`{rel}/`]({rel}/)", ""]
    return lines


METHODS = [
    "Intervals are 95%: Wilson score intervals for rates, Student t for means.  A group without variance "
    "(every value equal) gets no interval rather than one of zero width.",
    "What-if runs play every deal once per option of one decision with the same cards and random streams, so "
    "options are compared **paired**, deal by deal (the mean of per-deal differences, t interval).  Observational "
    "figures (the hands a policy chose) say so.",
    "Seats of one deal are not independent: figures over seats (Spades bids, Dummy spetos) use intervals "
    "clustered by deal (cluster-robust variance, t with deals − 1 degrees of freedom) and count n in deals; "
    "the Dummy first-player contrast is paired within each deal.",
    "Verdicts: an answer is decided when its interval excludes zero (or 50% for \"most\"); \"the same\" is "
    "claimed only when the interval lies within the question's stated margin (Trump Friend ±0.25 points a round, "
    "Spades ±0.25 tricks and ±10 points a hand for nil, Euchre ±0.1 points a hand, Gin ±1 point a hand, Dummy ±2 "
    "points a deal, rates ±5 percentage points); otherwise \"not enough deals (n = …)\".  Groups under 30 deals "
    "are not drawn and not decided (they stay in the tables).",
    "Levels of play are compared by the **difference** of their estimates with its interval: paired on the deals "
    "both share where deal k is the same deal at both (same seed, rules and dealing: what-if, pimc and solve runs "
    "of one seed), else Welch's t (means) or Newcombe's score interval (rates); \"differs\" when it excludes zero, "
    "\"the same\" only within the margin.",
    "Gin games to 100 are computed exactly from the what-if hands (a Markov chain over the two scores and the "
    "dealer: the built-in policies ignore the score), with an interval from 200 bootstrap resamples of the deals "
    "(both players' hands resampled together; each resample exact, so no simulation noise).",
    "Open-hand values are those of perfect play by every seat with every card seen (`simcore solve`): perfect "
    "defence too, so real play can score more or less; a `pimc` player decides as if its sampled deals were "
    "open (strategy fusion, docs/search_policies.md).",
]


def methods(done) -> list[str]:
    lines = ["## Methods", ""] + [f"- {m}" for m in METHODS] + [""]
    seen = set()
    for job, result in done:
        subs = list(result.levels.values()) or [result]  # each level's own method (the comparison's is above)
        for a in subs:
            if a.name in seen or not a.method:
                continue
            seen.add(a.name)
            lines.append(f"- `{a.name}`: {a.method}.")
    lines += ["", "How each analysis works: [docs/analyses.md](../docs/analyses.md).", ""]
    return lines


def simulations(mr) -> list[str]:
    lines = ["## Simulations", "", "Sample sizes (`SIZES` in `scripts/make_results.py`: raise a level there and run "
             "`make results` again):", "", "| batch | deals |", "| --- | --- |"]
    lines += [f"| `{k}` | {v:,} |" for k, v in mr.SIZES.items()]
    lines += ["", "```", *[" ".join(b.command()) for b in mr.BATCHES if mr.available(b.needs)], "```", "",
              f"[fingerprints.json](fingerprints.json) ties these results to the code: a digest of every column of "
              f"each batch's first {mr.FINGERPRINT_DEALS['hands']:,} deals ({mr.FINGERPRINT_DEALS['games']} games in "
              "games mode) and of each analysis's source.  `tests/test_results.py` remakes those first deals and fails "
              "when the rows or an analysis no longer match: then `make results` is due.", ""]
    return lines
