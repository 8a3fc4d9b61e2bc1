"""The registry of games.  Each game package exposes ``GAME`` (see ``simcore.games.base``).

A game is one line of :data:`GAMES`: its command-line name and its package.  Everything else
the upper layers need (seats, rules, policies, solving, show, advise) is in that package's
``GAME`` record; docs/adding_a_game.md says how to write one.
"""

from __future__ import annotations

import importlib

from simcore.errors import SimcoreError

GAMES = {
    "trump-friend": "simcore.games.trump_friend",
    "spades": "simcore.games.spades",
    "euchre": "simcore.games.euchre",
    "gin-rummy": "simcore.games.gin_rummy",
    "dummy": "simcore.games.dummy",
}


def names() -> tuple[str, ...]:
    """Every game's command-line name, in registry order (imports no game package)."""
    return tuple(GAMES)


def key(name) -> str:
    """A game name as the registry spells it (``Trump_Friend`` -> ``trump-friend``)."""
    return str(name).strip().lower().replace("_", "-")


def get(name: str):
    """The :class:`~simcore.games.base.Game` called ``name`` (e.g. ``"trump-friend"``)."""
    name_key = key(name)
    if name_key not in GAMES:
        raise SimcoreError(f"unknown game {name!r}; known: {', '.join(GAMES)}")
    try:
        module = importlib.import_module(GAMES[name_key])
    except ModuleNotFoundError as e:
        if e.name != GAMES[name_key]:
            raise
        raise SimcoreError(f"game {name_key!r} is not available in this version of simcore") from None
    return module.GAME


def names_with(field: str) -> tuple[str, ...]:
    """The games whose record sets ``field`` (e.g. ``"advisor"``), in registry order.  This
    imports every game package: call it where a command needs the list, not on every start."""
    return tuple(name for name in GAMES if getattr(get(name), field) is not None)
