"""Spades scoring (SP-11 ... SP-14) as pure functions of one side's bids and tricks.

Jitted for the engine and callable from Python as they are (tests, analyses).
"""

import numba as nb


@nb.njit(cache=True)
def nil_result(tricks, blind, nil_value, blind_nil_value):
    """SP-5 / SP-6: +value when the nil bidder took no trick, -value otherwise."""
    value = blind_nil_value if blind else nil_value
    return value if tricks == 0 else -value


@nb.njit(inline="always", cache=True)
def _bidder(bid, blind, tricks, nil_value, blind_nil_value):
    """One member's part of the side's hand: (contract, tricks counted toward it, nil points,
    bags).  A non-nil bid adds to the contract and its tricks count (SP-4, SP-13); a nil scores
    (SP-5, SP-6) and its tricks are bags."""
    if bid > 0:
        return bid, tricks, 0, 0
    return 0, 0, nil_result(tricks, blind, nil_value, blind_nil_value), tricks


@nb.njit(cache=True)
def score_side(bid_a, blind_a, tricks_a, bid_b, blind_b, tricks_b, bags_before, bag_limit,
               bag_penalty, nil_value, blind_nil_value):
    """One side's hand: (score, bags, contract, nil_points, penalty, bags_after).

    ``bid_x`` 0 is a nil (a blind nil when ``blind_x``).  The contract is the sum of the
    non-nil bids (SP-4) and only non-nil members' tricks count toward it (SP-13); each trick
    of a nil bidder scores +1 and is a bag, whether or not the contract is made.  ``bags`` are
    this hand's bags; ``bags_after`` the running count after the SP-14 penalties.
    """
    contract_a, counted_a, nil_a, bags_a = _bidder(bid_a, blind_a, tricks_a, nil_value,
                                                   blind_nil_value)
    contract_b, counted_b, nil_b, bags_b = _bidder(bid_b, blind_b, tricks_b, nil_value,
                                                   blind_nil_value)
    contract = contract_a + contract_b
    counted = counted_a + counted_b
    nil_points = nil_a + nil_b
    bags = bags_a + bags_b
    if counted >= contract:  # SP-11 (a contract of 0 is always made, with no points)
        contract_points = 10 * contract
        bags += counted - contract
    else:  # SP-12
        contract_points = -10 * contract
    running = bags_before + bags
    penalty = 0
    while running >= bag_limit:  # SP-14
        running -= bag_limit
        penalty -= bag_penalty
    score = contract_points + bags + nil_points + penalty
    return score, bags, contract, nil_points, penalty, running


@nb.njit(cache=True)
def game_winner(total0, total1, target):
    """SP-16: the side (0 or 1) that has won, or -1 when another hand is played (nobody at
    the target yet, or both level at or over it)."""
    if max(total0, total1) >= target and total0 != total1:
        return 0 if total0 > total1 else 1
    return -1
