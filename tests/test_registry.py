"""The registry of games: the upper layers (command line, batch runner, solve, show, advise)
name no game, and a game they have never heard of works through its ``Game`` record alone.

A sixth game is one package plus one line of ``simcore.games.GAMES`` (docs/adding_a_game.md).
The first tests read the upper layers' source; the others register a throwaway game (Euchre's
functions under a new name) and run the commands on it.
"""

from __future__ import annotations

import ast
import dataclasses
import json
import re
import sys
import types
from pathlib import Path

import polars as pl
import pytest

import simcore
from simcore import games
from simcore.cli import main

ROOT = Path(__file__).resolve().parent.parent
UPPER_LAYERS = ("cli", "batch", "solve", "show", "advise")
# phrases with a game's name in them that name no game: bridge's word for open-hand play
GENERIC_PHRASES = ("double-dummy", "double dummy")


def words(text: str) -> set[str]:
    """The lower-case words of source text: identifiers split at ``_`` and at camelCase humps,
    and every word of strings, docstrings and comments."""
    for phrase in GENERIC_PHRASES:
        text = re.sub(re.escape(phrase), " ", text, flags=re.I)
    text = re.sub(r"(?<=[a-z])(?=[A-Z])", " ", text)
    return set(re.findall(r"[a-z]+", text.lower()))


def game_words() -> set[str]:
    """Every word of every registered game's name, title and package name."""
    found = set()
    for name, module in games.GAMES.items():
        found |= words(name) | words(games.get(name).title) | words(module.rsplit(".", 1)[-1])
    return found


def game_packages() -> set[str]:
    """The dotted names of the game packages (folders of simcore/games with an __init__.py)."""
    return {f"simcore.games.{p.parent.name}" for p in (ROOT / "simcore" / "games").glob("*/__init__.py")}


def game_imports(source: str) -> list[str]:
    """The imports in ``source`` of a game package or anything inside one."""
    packages = game_packages()
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            names = [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
        else:
            continue
        found += [n for n in names if any(n == p or n.startswith(p + ".") for p in packages)]
    return found


@pytest.mark.parametrize("module", UPPER_LAYERS)
def test_upper_layers_name_no_game(module):
    """Code, strings, help text, docstrings and comments: no word of a game's name; every game
    fact comes from the registry's records."""
    source = (ROOT / "simcore" / f"{module}.py").read_text()
    named = sorted(words(source) & game_words())
    assert not named, f"simcore/{module}.py names a game: {named}"


@pytest.mark.parametrize("module", UPPER_LAYERS)
def test_upper_layers_import_no_game_package(module):
    source = (ROOT / "simcore" / f"{module}.py").read_text()
    assert not game_imports(source), game_imports(source)


def test_the_checks_see_names_and_imports():
    """The checks themselves: a name in an identifier, a camelCase class, a string or a comment
    is found, a generic phrase and a word merely containing a name are not; an import of a game
    package or of a module inside one is found, the shared records are not."""
    assert {"gin", "rummy", "trump", "friend", "spades", "euchre", "dummy"} <= game_words()
    assert "euchre" in words("def _euchre_dd(row): pass")
    assert {"gin", "rummy"} <= words("class GinRummyAdvisor: pass")
    assert "spades" in words("x = 'one of: spades'  # a comment")
    assert "trump" in words("# trump=notrump")
    assert not words("a double-dummy table; margin, begin, engine") & game_words()
    assert game_imports("from simcore.games.spades import show") == ["simcore.games.spades",
                                                                      "simcore.games.spades.show"]
    assert game_imports("import simcore.games.euchre.advice") == ["simcore.games.euchre.advice"]
    assert "simcore.games.dummy" in game_imports("from simcore.games import dummy")
    assert not game_imports("from simcore.games import showing\nfrom simcore import games")


# ---------------------------------------------------------------- a game the upper layers never saw


@pytest.fixture
def toy(monkeypatch):
    """A sixth game, registered by one line: a package (a module object here) whose ``GAME``
    is Euchre's record under another name."""
    package = types.ModuleType("toy_game")
    package.GAME = dataclasses.replace(games.get("euchre"), name="toy", title="Toy")
    monkeypatch.setitem(sys.modules, "toy_game", package)
    monkeypatch.setitem(games.GAMES, "toy", "toy_game")
    return package.GAME


def _cli(args, capsys) -> str:
    assert main(args) == 0
    return capsys.readouterr().out


def _split(text: str) -> tuple[str, str]:
    """(the first line, the rest): the first line names the game."""
    first, _, rest = text.partition("\n")
    return first, rest


def test_describe_a_new_game(toy, capsys):
    first, rest = _split(_cli(["describe", "toy"], capsys))
    assert first == "toy: 4 seats"
    assert rest == _split(_cli(["describe", "euchre"], capsys))[1]


def test_simulate_and_show_a_new_game(toy, capsys, tmp_path):
    """The toy's rows are Euchre's (the same functions and seed), its manifest names it, and
    show lays its deals out as Euchre's, trick log included."""
    for name in ("toy", "euchre"):
        _cli(["simulate", name, "--deals", "40", "--seed", "3", "--quiet", "--log-plays",
              "--out", str(tmp_path / name)], capsys)
    toy_run, euchre_run = simcore.load(tmp_path / "toy"), simcore.load(tmp_path / "euchre")
    assert json.loads((tmp_path / "toy" / "manifest.json").read_text())["game"] == "toy"
    assert toy_run.collect().equals(euchre_run.collect())
    # the head (title, run folder) names the game; the rest is the deal
    shown = {name: _cli(["show", str(tmp_path / name), "--deal", "2", "--log-plays"], capsys)
             .partition("\n\n") for name in ("toy", "euchre")}
    assert shown["toy"][0].startswith("toy  deal 2")
    assert shown["toy"][2] == shown["euchre"][2]
    assert "tricks (seat:card in play order" in shown["toy"][2]


def test_solve_a_new_game(toy, capsys, tmp_path):
    """``simcore solve`` lists the toy among the solvable games and solves its deals; the
    Python ``simcore.solve`` solves one of its positions."""
    with pytest.raises(SystemExit):
        main(["solve", "--help"])
    assert "toy" in capsys.readouterr().out
    for name in ("toy", "euchre"):
        _cli(["solve", name, "--deals", "3", "--seed", "4", "--quiet", "--out", str(tmp_path / name)],
             capsys)
    assert pl.scan_parquet(tmp_path / "toy" / "hands" / "*.parquet").collect().equals(
        pl.scan_parquet(tmp_path / "euchre" / "hands" / "*.parquet").collect())
    shown = _cli(["show", str(tmp_path / "toy"), "--deal", "1"], capsys)
    assert "open-hand tricks per trump" in shown
    hands = ["JH JD AH KH QH", "9S TS JS QS KS", "9C TC JC QC KC", "9D TD QD KD AD"]
    assert simcore.solve("toy", hands, leader=1, trump=2) == simcore.solve("euchre", hands, leader=1, trump=2)


def test_advise_a_new_game(toy, tmp_path):
    """``simcore advise`` offers the toy the advisor of its record."""
    result = simcore.advise("toy", "JH,JD,AH,KH,9C", upcard="9H", levels="heuristic", deals=50,
                            out=tmp_path / "adv")
    assert result.table["option"].to_list() == ["pass", "order", "order-alone"]
    assert "simcore simulate toy" in (tmp_path / "adv" / "advise.md").read_text()


# ---------------------------------------------------------------- rules to kernels, one way

@pytest.mark.parametrize("name", games.names())
def test_every_game_gives_its_rules_to_the_kernels_as_one_vector(name):
    """Each game's ``rules.rules_vector`` is the only way its options reach the kernels: one
    int64 slot per option named in ``layout.RULES_VECTOR`` (an option of the game, or a value
    derived from the options, e.g. Dummy's hand size by players), text options coded as the kernels read them ("random" -1, a seat its number, any other
    choice its index)."""
    game = games.get(name)
    package = sys.modules[game.rules_cls.__module__.rsplit(".", 1)[0]]
    rules_module = sys.modules[game.rules_cls.__module__]
    names = package.layout.RULES_VECTOR
    options = {f.name: f for f in dataclasses.fields(game.rules_cls)}
    default = game.rules_cls()
    assert all(hasattr(default, option) for option in names) and len(set(names)) == len(names)
    vector = rules_module.rules_vector(default)
    assert vector.dtype.name == "int64" and vector.shape == (len(names),)
    for slot, option in enumerate(names):
        for choice in (options[option].metadata["choices"] or ()) if option in options else ():
            if not isinstance(choice, str):
                continue
            try:
                rules = game.rules_cls(**{option: choice})
            except simcore.SimcoreError:  # a choice that needs another option set too
                continue
            code = rules_module.rules_vector(rules)[slot]
            want = (-1 if choice == "random" else int(choice) if choice.isdigit()
                    else options[option].metadata["choices"].index(choice))
            assert code == want, (option, choice)
