"""simcore's built-in policies as ``pyspiel.Bot`` players of OpenSpiel's own games.

``make_bot(game, player_id, policy="heuristic", seed=0)`` takes a loaded ``pyspiel`` game
(``euchre``, ``spades`` or ``gin_rummy``) and returns a bot that plays it in OpenSpiel's
engine, bidding and every other decision included.  Each game's glue module
(``os_euchre``, ``os_spades``, ``os_gin_rummy``) maps OpenSpiel's parameters onto simcore's
rules options (refusing what simcore cannot play), rebuilds the seat's view from what that
player has seen of the history (its own cards, public actions; never a hidden card), and
turns the answer of simcore's Numba policy into one of OpenSpiel's legal actions.

A decision depends only on the seat's information and its random stream, and the stream of
a decision is keyed by (bot seed, player, the player's information state): two fresh bots
with the same seed choose the same action in any two states the player cannot tell apart,
and a bot gives the same answer to the same question however often it is asked.

pyspiel is a development dependency only: it is imported when a bot is made.

Policies per game: each glue module has a ``POLICIES`` table, name -> factory(argument) ->
that game's ``Decisions`` (one function per decision).  ``"pimc:32"`` looks up ``"pimc"`` and
passes ``"32"``; a search policy is plugged in by adding its factory to the table.
"""

from __future__ import annotations

import hashlib
import importlib

import numpy as np

from simcore.errors import SimcoreError
from simcore.games.searching import MAX_WORLDS
from simcore.rng import stream_key

# OpenSpiel short name -> glue module
GLUE = {
    "euchre": "simcore.interop.os_euchre",
    "spades": "simcore.interop.os_spades",
    "gin_rummy": "simcore.interop.os_gin_rummy",
}


def _pyspiel():
    # imported here, not at the top: pyspiel is a dev dependency and simcore.interop the only
    # module that needs it (the main job never imports simcore.interop)
    try:
        import pyspiel
        return pyspiel
    except ImportError:  # pragma: no cover - depends on the environment
        raise SimcoreError("OpenSpiel bots need pyspiel: pip install open_spiel") from None


def glue_for(game):
    name = game.get_type().short_name
    if name not in GLUE:
        raise SimcoreError(f"no simcore bot for OpenSpiel game {name!r}; "
                           f"simcore plays {', '.join(GLUE)}")
    return importlib.import_module(GLUE[name])


def resolve_policy(table: dict, game_name: str, policy: str):
    """The ``Decisions`` a policy name stands for (``name`` or ``name:ARG``)."""
    if not isinstance(policy, str):
        raise SimcoreError(f"policy must be a name such as 'heuristic', not {policy!r}")
    name, _, arg = policy.partition(":")
    if name not in table:
        raise SimcoreError(f"unknown policy {policy!r} for OpenSpiel {game_name}; "
                           f"choose from {', '.join(table)}")
    return table[name](arg or None)


def no_argument(make):
    """A table factory for a policy that takes no ``:ARG``."""
    def factory(arg):
        if arg is not None:
            raise SimcoreError(f"this policy takes no ':{arg}' argument")
        return make()
    return factory


def policy_table(play_policies, builtin, search=None) -> dict:
    """A glue's policy table from its game's one table of play-policy names (the ``pimc``
    module's ``PLAY_POLICIES``: the built-in names, then ``pimc``, ``pimc:W``,
    ``pimc-uniform``, ``pimc-uniform:W`` and ``dd`` where the game has them): each built-in
    name -> ``builtin(name)``; with ``search``, ``pimc`` (``pimc:W``), ``pimc-uniform``
    (``pimc-uniform:W``) and ``dd`` -> ``search(policy_id)``, the id the same table gives."""
    table = {}
    for name in play_policies:
        if name not in ("pimc", "pimc:W", "pimc-uniform", "pimc-uniform:W", "dd"):
            table[name] = no_argument(lambda name=name: builtin(name))
        elif name == "dd" and search is not None:
            table[name] = no_argument(lambda: search(play_policies["dd"]))
        elif name in ("pimc", "pimc-uniform") and search is not None:
            table[name] = _worlds_factory(play_policies, search, name)
    return table


def _worlds_factory(play_policies, search, prefix="pimc"):
    """``pimc`` (the game's default worlds) or ``pimc:W`` (or the same of ``pimc-uniform``)."""
    def factory(arg):
        name = prefix if arg is None else f"{prefix}:{arg}"
        if name not in play_policies:
            raise SimcoreError(f"{prefix}:{arg}: W must be a whole number of worlds 1 ... "
                               f"{MAX_WORLDS}")
        return search(play_policies[name])
    return factory


def information_key(visible) -> np.uint64:
    """64 bits naming a player's information state (its visible history, ints)."""
    data = np.asarray(visible, np.int64).tobytes()
    return np.uint64(int.from_bytes(hashlib.blake2b(data, digest_size=8).digest(), "little"))


def decision_stream(seed: int, player: int, visible) -> np.ndarray:
    """The policy stream of one decision: keyed by seed, player and information state."""
    st = np.zeros(1, np.uint64)
    st[0] = stream_key(np.uint64(seed), np.uint64(player), information_key(visible),
                       np.uint64(0))
    return st


def check_action(action: int, legal, game_name: str, policy: str) -> int:
    if action not in legal:  # a glue bug, never a user error: say exactly what happened
        raise SimcoreError(f"simcore {policy} bot chose action {action}, not legal in this "
                           f"{game_name} state (legal: {sorted(legal)})")
    return int(action)


def make_bot(game, player_id: int, policy: str = "heuristic", seed: int = 0):
    """A ``pyspiel.Bot`` playing seat ``player_id`` of ``game`` with simcore's ``policy``."""
    pyspiel = _pyspiel()
    glue = glue_for(game)
    if not isinstance(player_id, (int, np.integer)) or not 0 <= player_id < game.num_players():
        raise SimcoreError(f"player_id must be 0 ... {game.num_players() - 1}, not {player_id!r}")
    if not isinstance(seed, (int, np.integer)) or not 0 <= seed < 2 ** 64:
        raise SimcoreError(f"seed must be an integer 0 ... 2**64-1, not {seed!r}")
    table = glue.setup(game.get_parameters())  # refuses settings simcore cannot play
    # a glue whose search policies depend on the settings builds its table from them
    names = glue.policies(table) if hasattr(glue, "policies") else glue.POLICIES
    decisions = resolve_policy(names, game.get_type().short_name, policy)
    return _bot_class(pyspiel)(glue, table, decisions, int(player_id), int(seed), policy)


_BOT_CLASS = None


def _bot_class(pyspiel):
    global _BOT_CLASS
    if _BOT_CLASS is None:
        _BOT_CLASS = _define_bot(pyspiel)
    return _BOT_CLASS


def _define_bot(pyspiel):
    class SimcoreBot(pyspiel.Bot):
        """One seat played by a simcore policy; stateless between calls (``restart`` is a
        no-op): every step reads the seat's view afresh from the state's history."""

        def __init__(self, glue, table, decisions, player_id, seed, policy):
            pyspiel.Bot.__init__(self)
            self.glue = glue
            self.table = table  # the game's settings as the glue reads them (rules included)
            self.rules = table.rules
            self.decisions = decisions
            self.player_id = player_id
            self.seed = seed
            self.policy = policy

        def step(self, state):
            if state.current_player() != self.player_id:
                raise SimcoreError(f"simcore bot for player {self.player_id} asked to act "
                                   f"for player {state.current_player()}")
            obs = self.glue.observe(state, self.player_id, self.table)
            legal = state.legal_actions(self.player_id)
            see_all = getattr(self.decisions, "see_all", None)
            if see_all is not None:  # dd, omniscient by definition: reads every hand
                see_all(state)
            action = self.glue.act(obs, legal, self.decisions, self.table, self.stream_of)
            return check_action(action, legal, self.glue.NAME, self.policy)

        def stream_of(self, visible):
            """The stream of this decision (a replay of simcore's engine may put the engine's
            stream here instead, scripts/match_openspiel.py)."""
            return decision_stream(self.seed, self.player_id, visible)

        @property
        def omniscient(self):
            """Whether the policy reads cards its player cannot see (``dd``)."""
            return getattr(self.decisions, "see_all", None) is not None

        def restart_at(self, state):
            pass

        def inform_action(self, state, player_id, action):
            pass

        def provides_policy(self):
            return False

        def __repr__(self):
            return f"SimcoreBot({self.glue.NAME}, player={self.player_id}, " \
                   f"policy={self.policy!r}, seed={self.seed})"

    return SimcoreBot
