"""OpenSpiel's simple gin bot (``open_spiel/bots/gin_rummy/simple_gin_rummy_bot.cc``) as
simcore's rules: the model of the opponent in the ``pimc`` policy's reading
(:mod:`simcore.games.gin_rummy.pimc`) and the opponent of ``scripts/match_gin_openspiel.py``.

The bot takes the upcard if it then could knock or if the card lies in its best meld group;
discards the highest-ranked card (A low, ties by OpenSpiel's suit order) of its best meld
group's deadwood; knocks as soon as it may; never lays off.  Where OpenSpiel's best meld group
is one of several, this copy takes the highest such card of any, so a few decisions differ
(``scripts/match_gin_openspiel.py --check``).
"""

import numba as nb
import numpy as np

from simcore.cards import bit, lowest_bit
from simcore.games.gin_rummy.layout import K_DISCARD, K_DRAW, K_UPCARD, V_KNOCK_LIMIT, V_TOP
from simcore.games.gin_rummy.policies import _card_value
from simcore.melds import gin_deadwood, gin_loose, meldable, to_sequence

_ONE = np.uint64(1)


@nb.njit(inline="always", cache=True)
def _os_rank_key(c):
    """OpenSpiel's RankComparator order of public card c: rank A..K, then suit s c d h."""
    return ((c % 13 + 1) % 13) * 4 + (c // 13 + 1) % 4


@nb.njit(cache=True)
def simple_bot_discard(hand):
    """The highest-ranked card that is deadwood in a minimum-deadwood arrangement of the 11
    cards; with 11-card gin, the first card (OpenSpiel's order) whose discard keeps gin.

    A card that melds with nothing in the hand is deadwood in every arrangement, so the best
    such card is found without a deadwood search; only melding cards ranked above it are
    searched (``tests/test_gin_rummy_pimc.py`` checks it against the search of every card)."""
    hand = np.uint64(hand)
    loose = gin_loose(hand)
    best, best_key = -1, -1
    m = loose
    while m:
        c = lowest_bit(m)
        m &= m - _ONE
        if _os_rank_key(c) > best_key:
            best, best_key = c, _os_rank_key(c)
    full = -1
    m = hand & ~loose
    while m:
        c = lowest_bit(m)
        m &= m - _ONE
        if _os_rank_key(c) <= best_key:
            continue
        if full < 0:
            full = gin_deadwood(hand)
        if gin_deadwood(hand & ~bit(c)) == full - _card_value(c):
            best, best_key = c, _os_rank_key(c)
    if best >= 0:
        return best
    first = 1 << 30
    m = hand
    while m:
        c = lowest_bit(m)
        m &= m - _ONE
        os_id = ((c // 13 + 1) % 4) * 13 + (c % 13 + 1) % 13
        if gin_deadwood(hand & ~bit(c)) == 0 and os_id < first:
            first, best = os_id, c
    return best


@nb.njit(cache=True)
def simple_bot_takes(hand, top, limit):
    """Would the bot holding ``hand`` (10 cards) take ``top``?  (take, and whether it could
    knock at once after taking)."""
    with_top = np.uint64(hand) | bit(top)
    if gin_deadwood(with_top & ~bit(simple_bot_discard(with_top))) <= limit:
        return True, True
    if not (meldable(to_sequence(with_top, True)) & to_sequence(bit(top), True)):
        return False, False  # it melds with nothing: deadwood in every arrangement
    # the top card melded in every best arrangement (it is in no best deadwood)
    return gin_deadwood(np.uint64(hand)) != gin_deadwood(with_top) - _card_value(top), False


@nb.njit(cache=True)
def simple_bot_play(kind, seat, hand, view, st):
    """The bot as a simcore play policy (knocks whenever asked)."""
    if kind == K_UPCARD or kind == K_DRAW:
        top = view[V_TOP]
        if top < 0:
            return 0
        take, _ = simple_bot_takes(hand, top, view[V_KNOCK_LIMIT])
        return 1 if take else 0
    if kind == K_DISCARD:
        return simple_bot_discard(np.uint64(hand))
    return 1
