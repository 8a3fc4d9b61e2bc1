"""Exact posteriors of small positions, the reference the search policies' weighted worlds
are checked against (Spades, Euchre and Trump Friend ``pimc``)."""

from __future__ import annotations

import numpy as np


def exact_posterior(cards, allowed, need, known, likelihood):
    """Every deal of ``cards`` in which holder h gets ``need[h]`` of them, all within
    ``allowed[h]`` (a mask), each world the tuple of holders' masks with ``known[h]`` added,
    weighted by ``likelihood(world)`` and normalised: {world: probability}."""
    worlds = {}

    def deal(i, got):
        if i == len(cards):
            world = tuple(g | k for g, k in zip(got, known))
            worlds[world] = likelihood(world)
            return
        for h in range(len(need)):
            if allowed[h] >> cards[i] & 1 and bin(got[h]).count("1") < need[h]:
                got[h] |= 1 << cards[i]
                deal(i + 1, got)
                got[h] &= ~(1 << cards[i])

    deal(0, [0] * len(need))
    total = sum(worlds.values())
    return {w: like / total for w, like in worlds.items()}


def chi_square_p(counts, expected):
    """Pearson's test, cells with fewer than 5 expected merged into one."""
    from scipy.stats import chisquare

    counts, expected = np.asarray(counts), np.asarray(expected)
    small = expected < 5
    obs = np.append(counts[~small], counts[small].sum())
    exp = np.append(expected[~small], expected[small].sum())
    if not small.any():
        obs, exp = obs[:-1], exp[:-1]
    return chisquare(obs, exp).pvalue
