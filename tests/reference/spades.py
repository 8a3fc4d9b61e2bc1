"""A slow, plain-Python Spades referee: replays a logged hand and recomputes its facts.

Written from docs/rules/spades.md alone (no engine code), so the engine can be checked
against it on many random deals.
"""

from __future__ import annotations

from dataclasses import dataclass

SPADES = 3


def suit(card: int) -> int:
    return card // 13


def rank(card: int) -> int:
    return card % 13


def cards_of(mask: int) -> set[int]:
    return {c for c in range(52) if int(mask) >> c & 1}


class IllegalPlay(AssertionError):
    pass


@dataclass
class HandReplay:
    trick_winners: list[int]
    tricks: list[int]
    spades_broken_trick: int


def trick_winner(cards: list[int], leader: int) -> int:
    """SP-10: the highest spade wins, else the highest card of the led suit."""
    spades = [c for c in cards if suit(c) == SPADES]
    if spades:
        win = max(spades)
    else:
        win = max(c for c in cards if suit(c) == suit(cards[0]))
    return (leader + cards.index(win)) % 4


def legal_cards(hand: set[int], trick: list[int], broken: bool,
                must_break: bool = True) -> set[int]:
    """SP-7, SP-8; ``must_break`` is the rules option ``must_break_spades`` (false: the house
    rule that spades may be led at any time)."""
    if not trick:  # SP-7
        non_spades = {c for c in hand if suit(c) != SPADES}
        return hand if broken or not must_break or not non_spades else non_spades
    follow = {c for c in hand if suit(c) == suit(trick[0])}  # SP-8
    return follow or hand


def replay(hands: list[int], dealer: int, plays: list[int], must_break: bool = True) -> HandReplay:
    """Replay 52 plays from the hands held at the start of play; raise IllegalPlay on any
    card a seat did not hold or could not play."""
    held = [cards_of(h) for h in hands]
    if any(len(h) != 13 for h in held) or set().union(*held) != set(range(52)):
        raise IllegalPlay("hands are not a partition of the deck into 13s")
    leader = (dealer + 1) % 4  # SP-7
    broken = False
    broken_trick = -1
    winners = []
    tricks = [0, 0, 0, 0]
    for t in range(13):
        trick = []
        for i in range(4):
            seat = (leader + i) % 4
            card = int(plays[4 * t + i])
            if card not in legal_cards(held[seat], trick, broken, must_break):
                raise IllegalPlay(f"trick {t}: seat {seat} may not play {card}")
            held[seat].remove(card)
            trick.append(card)
            if suit(card) == SPADES and not broken:  # SP-9 (with the option off: any spade)
                broken = True
                broken_trick = t
        leader = trick_winner(trick, leader)
        winners.append(leader)
        tricks[leader] += 1
    return HandReplay(winners, tricks, broken_trick)


@dataclass
class SideScore:
    score: int
    bags: int
    contract: int
    nil_points: int
    penalty: int
    bags_after: int


def score_side(bids, blinds, tricks, bags_before, *, bag_limit=10, bag_penalty=100,
               nil_value=100, blind_nil_value=200) -> SideScore:
    """SP-11 ... SP-14 for one side: ``bids``, ``blinds``, ``tricks`` of its two members."""
    contract = sum(b for b in bids if b > 0)
    made_by_bidders = sum(t for b, t in zip(bids, tricks) if b > 0)
    nil_tricks = sum(t for b, t in zip(bids, tricks) if b == 0)
    nil_points = 0
    for b, blind, t in zip(bids, blinds, tricks):
        if b == 0:
            value = blind_nil_value if blind else nil_value
            nil_points += value if t == 0 else -value
    if made_by_bidders >= contract:
        points = 10 * contract
        bags = made_by_bidders - contract + nil_tricks
    else:
        points = -10 * contract
        bags = nil_tricks
    running = bags_before + bags
    penalties = running // bag_limit
    running -= penalties * bag_limit
    penalty = -bag_penalty * penalties
    return SideScore(points + bags + nil_points + penalty, bags, contract, nil_points, penalty,
                     running)


def check_exchange(dealt: list[int], hands: list[int], passed: list[int], blind: list[bool]):
    """SP-6: one blind-nil bidder per side swaps three cards with the partner; otherwise the
    hands are as dealt."""
    for a in (0, 1):
        b = a + 2
        if blind[a] != blind[b]:
            for s, p in ((a, b), (b, a)):
                give = cards_of(passed[s])
                assert len(give) == 3 and give <= cards_of(dealt[s])
                assert cards_of(hands[s]) == (cards_of(dealt[s]) - give) | cards_of(passed[p])
        else:
            for s in (a, b):
                assert hands[s] == dealt[s] and passed[s] == 0


def check_row(row: dict, rules=None, bags_before=(0, 0)) -> tuple[int, int]:
    """Check one logged hand row against the rules; returns the bags carried after it."""
    kw = {}
    must_break = rules is None or rules.must_break_spades
    if rules is not None:
        kw = dict(bag_limit=rules.bag_limit, bag_penalty=rules.bag_penalty,
                  nil_value=rules.nil_value, blind_nil_value=rules.blind_nil_value)
    hands = [row[f"hand{s}"] for s in range(4)]
    bids = [row[f"bid{s}"] for s in range(4)]
    blind = [row[f"blind{s}"] for s in range(4)]
    check_exchange([row[f"dealt{s}"] for s in range(4)], hands,
                   [row[f"passed{s}"] for s in range(4)], blind)
    for s in range(4):
        assert 0 <= bids[s] <= 13
        assert not blind[s] or bids[s] == 0
    r = replay(hands, row["dealer"], row["plays"], must_break)
    assert list(row["trick_winners"]) == r.trick_winners
    assert [row[f"tricks{s}"] for s in range(4)] == r.tricks
    assert row["spades_broken_trick"] == r.spades_broken_trick
    carried = []
    for p in (0, 1):
        sc = score_side([bids[p], bids[p + 2]], [blind[p], blind[p + 2]],
                        [r.tricks[p], r.tricks[p + 2]], bags_before[p], **kw)
        assert (row[f"score{p}"], row[f"bags{p}"], row[f"contract{p}"], row[f"nil_points{p}"],
                row[f"bag_penalty{p}"]) == (sc.score, sc.bags, sc.contract, sc.nil_points,
                                            sc.penalty), (p, row)
        carried.append(sc.bags_after)
    return carried[0], carried[1]
