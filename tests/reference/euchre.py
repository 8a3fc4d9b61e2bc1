"""A plain-Python Euchre referee (docs/rules/euchre.md), written for clarity, not speed.

Cards are public ids (``13 * suit + rank``, 9 = rank 7 ... A = 12).  ``replay(row)`` takes one
hand row of the engine (with ``plays``) and re-derives everything that follows from the deal,
the bids and the plays: each play's legality (bowers included), trick winners, tricks per seat
and the points, raising AssertionError on the first disagreement with the rules.
"""

from __future__ import annotations

JACK = 9
NINE = 7


def same_colour(suit: int) -> int:
    return {0: 3, 3: 0, 1: 2, 2: 1}[suit]


def is_right(card: int, trump: int) -> bool:
    return card == 13 * trump + JACK


def is_left(card: int, trump: int) -> bool:
    return card == 13 * same_colour(trump) + JACK


def suit_of(card: int, trump: int) -> int:
    """EU-4: the left bower belongs to the trump suit."""
    return trump if is_left(card, trump) else card // 13


def strength(card: int, trump: int) -> int:
    """EU-3: right bower > left bower > A > K > Q > 10 > 9 in trump; A ... 9 elsewhere."""
    if is_right(card, trump):
        return 100
    if is_left(card, trump):
        return 99
    return card % 13


def cards_of(mask: int) -> list[int]:
    return [c for c in range(52) if mask >> c & 1]


def legal_cards(hand: list[int], led: int | None, trump: int) -> list[int]:
    """EU-14: follow the led suit (as EU-4 defines it) if able, otherwise anything."""
    if led is None:
        return list(hand)
    same = [c for c in hand if suit_of(c, trump) == led]
    return same or list(hand)


def trick_winner(cards: list[int], trump: int) -> int:
    """EU-15: position of the winning card, cards[0] led."""
    led = suit_of(cards[0], trump)

    def key(c):
        s = suit_of(c, trump)
        if s == trump:
            return (2, strength(c, trump))
        if s == led:
            return (1, strength(c, trump))
        return (0, 0)

    return max(range(len(cards)), key=lambda i: key(cards[i]))


def first_leader(dealer: int, alone_maker: int, alone_defender: int) -> int:
    """EU-13."""
    if alone_maker >= 0 and alone_defender >= 0:
        return alone_defender
    if alone_maker >= 0:
        return (alone_maker + 1) % 4
    if alone_defender >= 0:
        return (alone_defender + 1) % 4
    return (dealer + 1) % 4


def points(maker_tricks: int, maker_alone: bool, defender_alone: bool) -> tuple[int, int]:
    """EU-16 ... EU-19: (makers, defenders)."""
    if maker_tricks == 5:
        return (4 if maker_alone else 2), 0
    if maker_tricks >= 3:
        return 1, 0
    if defender_alone:
        return 0, (4 if maker_tricks == 0 else 2)
    return 0, 2


def playing_hands(row: dict) -> list[list[int]]:
    """Hands as played: the dealer adds the upcard and drops the discard after a pick-up."""
    hands = [cards_of(row[f"hand{s}"]) for s in range(4)]
    if row["picked_up"]:
        d = row["dealer"]
        assert row["discard"] in hands[d], "the discard must come from the dealer's own cards"
        hands[d] = [c for c in hands[d] if c != row["discard"]] + [row["upcard"]]
    return hands


def check_deal(row: dict) -> None:
    """EU-2, EU-6: 24 distinct cards, 5 per seat, a 4-card kitty whose top is the upcard."""
    masks = [row[f"hand{s}"] for s in range(4)] + [row["kitty"]]
    union = 0
    for m in masks:
        assert union & m == 0
        union |= m
    assert union == sum(1 << (13 * s + r) for s in range(4) for r in range(NINE, 13))
    assert all(len(cards_of(row[f"hand{s}"])) == 5 for s in range(4))
    assert row["kitty"] >> row["upcard"] & 1


def check_bidding(row: dict, *, allow_turned_down_suit=False, stick_the_dealer=False,
                  dealer_pickup_optional=True) -> None:
    """EU-7 ... EU-12 as far as a row shows them."""
    up_suit = row["upcard"] // 13
    if row["trump"] < 0:  # EU-10: thrown in
        assert not stick_the_dealer
        assert row["maker"] == -1 and row["bid_round"] == -1 and not row["picked_up"]
        assert row["points0"] == row["points1"] == 0
        return
    if row["bid_round"] == 1:  # EU-7, EU-8
        assert row["trump"] == up_suit
        if row["maker"] == row["dealer"] or not dealer_pickup_optional:
            assert row["picked_up"]
    else:  # EU-9
        assert row["bid_round"] == 2 and not row["picked_up"] and row["discard"] == -1
        if not allow_turned_down_suit:
            assert row["trump"] != up_suit
    if not row["picked_up"]:
        assert row["discard"] == -1
    am, ad = row["alone_maker"], row["alone_defender"]  # EU-12
    assert am == -1 or (am - row["maker"]) % 2 == 0
    assert ad == -1 or (ad - row["maker"]) % 2 == 1


def replay(row: dict) -> dict:
    """Replay the logged plays; returns trick_winners, tricks (per seat) and points0/1."""
    if row["trump"] < 0:
        assert not row["plays"]
        return {"trick_winners": [], "tricks": [0] * 4, "points": (0, 0)}
    trump = row["trump"]
    hands = playing_hands(row)
    active = [True] * 4
    for lone in (row["alone_maker"], row["alone_defender"]):
        if lone >= 0:
            active[(lone + 2) % 4] = False  # EU-12: the partner sits out
    n_active = sum(active)
    plays = list(row["plays"])
    assert len(plays) == 5 * n_active
    leader = first_leader(row["dealer"], row["alone_maker"], row["alone_defender"])
    assert active[leader]
    tricks = [0] * 4
    winners = []
    k = 0
    for _ in range(5):
        seats, cards = [], []
        seat = leader
        for i in range(n_active):
            card = plays[k]
            k += 1
            led = suit_of(cards[0], trump) if cards else None
            assert card in legal_cards(hands[seat], led, trump), (
                f"seat {seat} may not play {card} (hand {hands[seat]}, led {led}, trump {trump})")
            hands[seat].remove(card)
            seats.append(seat)
            cards.append(card)
            seat = (seat + 1) % 4
            while not active[seat]:  # EU-13: players sitting out are skipped
                seat = (seat + 1) % 4
        winner = seats[trick_winner(cards, trump)]
        tricks[winner] += 1
        winners.append(winner)
        leader = winner
    side = row["maker"] % 2
    made, defended = points(tricks[side] + tricks[side + 2], row["alone_maker"] >= 0,
                            row["alone_defender"] >= 0)
    pts = [0, 0]
    pts[side], pts[1 - side] = made, defended
    return {"trick_winners": winners, "tricks": tricks, "points": tuple(pts)}
