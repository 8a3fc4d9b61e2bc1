"""Plain-Python oracle for Gin melds: enumerate every meld and every partition.

Cards are public ids (13 * suit + rank, rank 0 = '2' ... 12 = 'A').  Aces are low (GR-3):
in a run the ace comes before the 2.  Nothing here is clever on purpose.
"""

from itertools import combinations


def value(c: int) -> int:
    """GR-2: A = 1, 2-10 face value, J/Q/K = 10."""
    r = c % 13
    if r == 12:
        return 1
    return min(r + 2, 10)


def seq_pos(c: int) -> int:
    """Place in the ace-low run order: A 0, 2 1, ..., K 12."""
    return (c % 13 + 1) % 13


def is_meld(cards) -> bool:
    cards = list(cards)
    if len(cards) < 3:
        return False
    ranks = {c % 13 for c in cards}
    if len(ranks) == 1:
        return len(cards) <= 4
    suits = {c // 13 for c in cards}
    if len(suits) != 1:
        return False
    pos = sorted(seq_pos(c) for c in cards)
    return all(b == a + 1 for a, b in zip(pos, pos[1:]))


def all_melds(cards):
    """Every set (3 or 4 cards of a rank) and every run (3+ consecutive cards of a suit)."""
    cards = sorted(cards)
    out = []
    for rank in range(13):
        same = [c for c in cards if c % 13 == rank]
        for k in (3, 4):
            out.extend(frozenset(combo) for combo in combinations(same, k))
    for suit in range(4):
        by_pos = {seq_pos(c): c for c in cards if c // 13 == suit}
        for lo in range(13):
            hi = lo
            while hi in by_pos:
                if hi - lo >= 2:
                    out.append(frozenset(by_pos[p] for p in range(lo, hi + 1)))
                hi += 1
    assert all(is_meld(m) for m in out)
    return out


def partitions(cards, melds=None):
    """Every list of disjoint melds drawn from cards (the rest is deadwood)."""
    if melds is None:
        melds = all_melds(cards)
    result = []

    def go(start, used, chosen):
        result.append(list(chosen))
        for i in range(start, len(melds)):
            if not (melds[i] & used):
                chosen.append(melds[i])
                go(i + 1, used | melds[i], chosen)
                chosen.pop()

    go(0, frozenset(), [])
    return result


def deadwood_of(cards, melds) -> int:
    melded = set().union(*melds) if melds else set()
    return sum(value(c) for c in cards if c not in melded)


def min_deadwood(cards, melds=None) -> int:
    return min(deadwood_of(cards, p) for p in partitions(cards, melds))


def optimal_arrangements(cards):
    """Every partition with the minimum deadwood, as sets of frozensets."""
    parts = partitions(cards)
    best = min(deadwood_of(cards, p) for p in parts)
    return best, {frozenset(p) for p in parts if deadwood_of(cards, p) == best}


def best_discard(cards, keep=()):
    """Lowest deadwood of the 10 cards left after one allowed discard from 11."""
    melds = all_melds(cards)  # the melds of 10 of the cards are those of all 11 without c
    return min(
        min_deadwood([x for x in cards if x != c], [m for m in melds if c not in m])
        for c in cards
        if c not in keep
    )


def layoff_deadwood(defender, knocker_melds) -> int:
    """GR-11 by search: repeatedly lay any single card onto any (growing) knocker meld,
    then arrange the rest; the minimum over every reachable state."""
    best = [10**9]
    seen = set()

    def go(hand, melds):
        key = (frozenset(hand), frozenset(melds))
        if key in seen:
            return
        seen.add(key)
        best[0] = min(best[0], min_deadwood(hand))
        for c in hand:
            for i, m in enumerate(melds):
                grown = m | {c}
                if is_meld(grown):
                    go(hand - {c}, melds[:i] + (frozenset(grown),) + melds[i + 1:])

    go(frozenset(defender), tuple(frozenset(m) for m in knocker_melds))
    return best[0]
