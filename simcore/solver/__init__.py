"""Exact open-hand search over a generic trick game (the game-neutral half of our "DDS").

A position is n seats (4 or 5; a seat that sits out holds nothing and is skipped in turn order),
each holding a bitmask of *solver* card ids ``16 * suit + strength`` (see
:mod:`simcore.solver.position`), the cards already in the current trick, the leader, a trump
suit or none, follow-suit, and optionally a suit that may not be led until it is broken (unless
the leader holds nothing else).  The value is the sum, over the tricks won by seats in the
``count`` set, of a per-trick constant plus the points of the trick's cards; seats in the
``max`` set maximise it, the others minimise it.  Spades counts tricks for seats 0+2 (count =
max = {0, 2}) or, for a nil, the tricks of seat s (count = {s}, max = its opponents); Euchre
counts tricks for 0+2 or a lone seat; Trump Friend counts card points (trick constant 0) for the
declarer's team.  Each game maps its cards and state onto it in
``simcore/games/<game>/solver.py``.

The search is a zero-window (boolean) alpha-beta, "can the max side get at least t from here?",
driven by a loop over t (DDS's and the Skat solvers' threshold search).  What makes it fast,
after DDS (Haglund's published algorithm): a transposition table at trick boundaries keyed on
the cards left in relative ranks; one card per run of equivalent cards; move ordering by DDS's
weights and cheap heuristics plus the table's remembered best move; quick and later tricks that
bound a node before any search.

Where each part lives (DDS's file in brackets):

==========================  =====================================================================
``context``                 the table (preallocated arrays, one per thread), the context vector
                            of the game being solved, the slot names ``T_*``, ``C_*``, ``N_*``,
                            ``F_*``, ``V_*``; ``setup``, ``new_tables``, ``table_of``, ``nodes``,
                            ``set_budget``, ``aborted``
``position``                solver card ids, legal cards, trick resolution, what is left to win
``quick``                   quick tricks at a boundary and in second hand [QuickTricks]
``later``                   sure trumps and the side not on lead's top trumps [LaterTricks]
``keys``                    the transposition key of a position
``table``                   buckets, probe and store [TransTable]
``weights``                 DDS's lead and follow weights [Moves]
``moves``                   move generation: equivalent cards, the plain order [Moves]
``last_tricks``             the last one, two or three tricks without the table
``search``                  the boolean search over a stack of frames [ABsearch]
``interface``               the target loop and the public entry points [SolverIF]
``nil``                     the nil objective (Spades): its bounds and move order
``points``                  card points (Trump Friend): their bounds and the key's point counts
``cut_memory``              card points: the cut-move memory (a narrowly keyed killer move)
==========================  =====================================================================

The search's frame-stack state machine is described in :mod:`simcore.solver.search`.

The search's inner functions are compiled with ``_nrt=False`` (no reference counting): they
only index the table's preallocated arrays and never allocate, and without it about 40% of the
time went into the atomic reference-count updates of the table's arrays on every call.
"""

from simcore.solver.context import (
    T_HANDS, T_STACK, aborted, new_tables, nodes, set_budget, setup, table_of,
)
from simcore.solver.interface import (
    at_least_of, move_values_of, position_bound, value_between_of, value_from_of, value_of,
)
from simcore.solver.position import narrow_card, widen

__all__ = [
    "T_HANDS", "T_STACK", "aborted", "at_least_of", "move_values_of", "narrow_card", "new_tables",
    "nodes", "position_bound", "set_budget", "setup", "table_of", "value_between_of",
    "value_from_of", "value_of", "widen",
]
