"""The docs and the code speak of the project, not of how it was made, and the docs' links work.

History belongs in git and, briefly, in CHANGELOG.md: no work sessions or rounds of work by
number, issue numbers, branches, commits, dates of work, scratch scripts in /tmp or figures of
code that is gone, in the docs, code comments, docstrings or test names.  The one date allowed
is the measurement date of the performance table (the line scripts/bench.py writes).
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
MONTHS = "January|February|March|April|May|June|July|August|September|October|November|December"

HISTORY = {
    "a work session": r"\bsessions?[- ]?\d|\b(this|that|next|previous|last|earlier|later|each|every) session\b",
    "an issue number": r"\bissues? #?\d+",
    "a round of work": r"\b(work|development|review|coding) rounds?\b|\bround \d+ of (the )?(work|development|review)",
    "a branch": r"\bbranch(es)? [`'\"]|`tf-[a-z0-9-]+`",
    "a commit": r"\bcommits? [0-9a-f]{7,40}\b|\brevert(ed|s)? (by |in )?[0-9a-f]{7,40}\b",
    "a date": rf"\b20\d\d-\d\d-\d\d\b|\b\d{{1,2}} ({MONTHS}) 20\d\d\b|\b({MONTHS}) \d{{1,2}},? 20\d\d\b",
    "a /tmp script": r"/tmp\b",
    "the people at work": r"\b(other|another) helpers?\b",
    "a figure of code that is gone": (r"\b(was|were) [0-9][0-9.,]*(\s+(ms|s|µs|ns|nodes|M)\b|(%|x|×)(?=[\s.,;:)]|$))"
                                      r"|\bbefore (this|the) (change|fix|speed-up)\b|\bmain's code\b"),
}
PATTERN = re.compile("|".join(f"(?P<p{i}>{p})" for i, p in enumerate(HISTORY.values())), re.I)
NAMES = list(HISTORY)
# scripts/bench.py heads its table with the measurement's date; docs/performance.md holds it
MEASURED = re.compile(r"^Measured 20\d\d-\d\d-\d\d\b")


def _text_files() -> list[Path]:
    files = [ROOT / "README.md", ROOT / "CHANGELOG.md", ROOT / "Makefile", ROOT / "pyproject.toml"]
    files += sorted((ROOT / "docs").rglob("*.md"))
    for package in ("simcore", "analyses", "scripts", "tests"):
        files += sorted(p for p in (ROOT / package).rglob("*.py") if "__pycache__" not in p.parts)
    return [f for f in files if f.is_file() and f != Path(__file__).resolve()]


def _history(path: Path) -> list[str]:
    found = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        for match in PATTERN.finditer(line):
            what = NAMES[int(match.lastgroup[1:])]
            if what == "a date" and path.name == "performance.md" and MEASURED.match(line):
                continue
            found.append(f"{path.relative_to(ROOT)}:{number}: {what}: {match.group(0)!r} in {line.strip()[:100]!r}")
    return found


def test_nothing_narrates_the_development():
    found = [hit for path in _text_files() for hit in _history(path)]
    assert not found, "history belongs in git and CHANGELOG.md:\n" + "\n".join(found)


HISTORY_LINES = [
    ("measured in session " + "12 on the busy machine", "a work session"),  # split: the repo itself stays clean of them
    ("see issue " + "#38 for why", "an issue number"),
    ("the third development round", "a round of work"),
    ("merged from branch " + "`tf-top`", "a branch"),
    ("kept in commit " + "499937b", "a commit"),
    ("measured 2026-" + "12-05 21:16 UTC", "a date"),
    ("on 1 December " + "2026, load 4", "a date"),
    ("a `/tmp` script compared them", "a /tmp script"),
    ("while other helpers used both cores", "the people at work"),
    ("200 ms mean a call, was 472 ms", "a figure of code that is gone"),
]


# Ids name only what each line shows: the lines themselves stay out of pytest's cache of ids.
@pytest.mark.parametrize("line, what", HISTORY_LINES, ids=[what for _, what in HISTORY_LINES])
def test_the_history_patterns_catch_what_they_name(line, what):
    match = PATTERN.search(line)
    assert match and NAMES[int(match.lastgroup[1:])] == what


@pytest.mark.parametrize("line", [
    "The dealer's left orders up in round 1 or names trump in round 2 (EU-9).",
    "`bid_round` is 1 or 2; a session of play is a game to 10.",
    "Pick the strongest card; a branch-free trick winner.",
    "The card that was played before the trick ended.",
    "the position's two 1s were 0s: sorted (1, 1) against (2, 0)",
])
def test_game_words_are_not_history(line):
    assert not PATTERN.search(line)


LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


def _doc_pages() -> list[Path]:
    return [ROOT / "README.md", ROOT / "CHANGELOG.md", *sorted((ROOT / "docs").rglob("*.md"))]


def _anchors(page: Path) -> set[str]:
    """The heading anchors of a Markdown page, as GitHub makes them."""
    seen: dict[str, int] = {}
    anchors = set()
    in_code = False
    for line in page.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            in_code = not in_code
        if in_code or not line.startswith("#"):
            continue
        slug = re.sub(r"[^\w\- ]", "", line.lstrip("#").strip().lower()).replace(" ", "-")
        anchors.add(slug if slug not in seen else f"{slug}-{seen[slug]}")
        seen[slug] = seen.get(slug, 0) + 1
    return anchors


def test_every_relative_link_in_the_docs_reaches_a_file_and_heading():
    broken = []
    for page in _doc_pages():
        for number, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1):
            for target in LINK.findall(line):
                if re.match(r"^[a-z][a-z0-9+.-]*:", target):
                    continue  # a web address
                path, _, anchor = target.partition("#")
                file = page if not path else page.parent / path
                if not file.exists():
                    broken.append(f"{page.relative_to(ROOT)}:{number}: {target}")
                elif anchor and file.suffix == ".md" and anchor not in _anchors(file):
                    broken.append(f"{page.relative_to(ROOT)}:{number}: {target} (no such heading)")
    assert not broken, "links to nothing:\n" + "\n".join(broken)


def test_every_docs_page_the_code_names_exists():
    named = set()
    for path in _text_files():
        if path.suffix == ".py" or path.name == "Makefile":
            named.update(re.findall(r"\bdocs/[\w/.-]+?\.md\b", path.read_text(encoding="utf-8")))
    missing = sorted(p for p in named if not (ROOT / p).is_file())
    assert not missing, "the code names docs pages that do not exist: " + ", ".join(missing)


# ---------------------------------------------------------------- the examples run


def _code_blocks(page: Path, language: str) -> list[str]:
    """The ``language`` code blocks of ``page``, in order, without those an HTML comment
    ``<!-- not run ... -->`` right above marks as not run by the tests."""
    pattern = re.compile(rf"(<!-- not run[^>]*-->\n)?```{language}\n(.*?)```", re.S)
    return [body for skip, body in pattern.findall(page.read_text(encoding="utf-8")) if not skip]


def _run_python(blocks: list[str]) -> None:
    import matplotlib

    matplotlib.use("Agg")
    scope: dict = {"__name__": "__docs__"}
    for code in blocks:
        exec(compile(code, "<docs>", "exec"), scope)


def test_the_readme_quickstart_runs(tmp_path, monkeypatch, capsys):
    """The quickstart's commands (on 2,000 deals instead of 200,000) and its Python."""
    from simcore import cli

    monkeypatch.chdir(tmp_path)
    [shell] = [b for b in _code_blocks(ROOT / "README.md", "sh") if "simcore simulate" in b]
    commands = [shlex.split(line, comments=True) for line in shell.splitlines() if line.startswith("simcore ")]
    assert [c[1] for c in commands] == ["simulate", "analyze", "show"]
    for words in commands:
        if "--deals" in words:
            words[words.index("--deals") + 1] = "2000"
        assert cli.main(words[1:]) == 0, words
    assert "seat 0  declarer" in capsys.readouterr().out
    _run_python(_code_blocks(ROOT / "README.md", "python"))
    assert (tmp_path / "spades_call.png").stat().st_size > 0


@pytest.mark.parametrize("page", ["docs/python.md", "docs/solving.md"])
def test_the_python_examples_of_the_reference_pages_run(page, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    blocks = _code_blocks(ROOT / page, "python")
    assert blocks
    _run_python(blocks)
