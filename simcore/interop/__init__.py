"""Bridges from simcore's policies to other frameworks (OpenSpiel: :mod:`.openspiel`).

Nothing in simcore imports this package: it sits on top of the game packages, and its
frameworks are imported lazily, so the batch runner never needs them.
"""
