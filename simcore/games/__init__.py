"""The registry of games.  Each game package exposes ``GAME`` (see ``simcore.games.base``)."""

from __future__ import annotations

import importlib

from simcore.errors import SimcoreError

_MODULES = {
    "trump-friend": "simcore.games.trump_friend",
    "spades": "simcore.games.spades",
    "euchre": "simcore.games.euchre",
    "gin-rummy": "simcore.games.gin_rummy",
    "dummy": "simcore.games.dummy",
}

NAMES = tuple(_MODULES)


def get(name: str):
    """The :class:`~simcore.games.base.Game` called ``name`` (e.g. ``"trump-friend"``)."""
    key = name.strip().lower().replace("_", "-")
    if key not in _MODULES:
        raise SimcoreError(f"unknown game {name!r}; known: {', '.join(_MODULES)}")
    try:
        module = importlib.import_module(_MODULES[key])
    except ModuleNotFoundError as e:
        if e.name != _MODULES[key]:
            raise
        raise SimcoreError(f"game {key!r} is not available in this version of simcore") from None
    return module.GAME
