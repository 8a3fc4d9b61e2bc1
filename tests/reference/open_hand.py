"""A slow, plain-Python open-hand (double-dummy) oracle for Spades, Euchre and Trump Friend.

Written from docs/rules/spades.md, euchre.md, trump_friend.md and the `simcore.solve` contract
(DESIGN.md "Open-hand solving") alone -- no engine or solver code -- so the fast solvers can be
checked against it.  It is an exhaustive minimax over every legal card, memoised on the full
position (hands, leader, cards of the current trick, spades broken); no pruning, no ordering, no
equivalent-card tricks, so that its correctness can be read off the page.

    value, moves = solve(game, hands, leader, trick=(), rules=None, **state)

has exactly the meanings of `simcore.solve`: public card ids (13*suit + rank, C D H S, 2..A),
`value` counted from this position to the end of the hand (current trick included), `moves`
{card: value after the player to move plays it} for every legal card.  The caller is trusted:
only simple consistency asserts, no friendly errors (that is the fast solver's job).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from reference import on_fresh_stack
from simcore.cards import hand_from_cards, parse_hand

CLUBS, DIAMONDS, HEARTS, SPADES = range(4)
NO_TRUMP = 4
JACK, QUEEN, KING, ACE = 9, 10, 11, 12


def suit(card: int) -> int:
    return card // 13


def rank(card: int) -> int:
    return card % 13


def cards_of(mask: int) -> list[int]:
    cards = []
    while mask:
        low = mask & -mask
        cards.append(low.bit_length() - 1)
        mask ^= low
    return cards


def as_mask(hand) -> int:
    """A hand given as a mask, card text ("AS KS") or an iterable of card ids."""
    if isinstance(hand, str):
        return parse_hand(hand)
    if isinstance(hand, int):
        return hand
    try:
        return int(hand)  # numpy integers
    except TypeError:
        return hand_from_cards(hand)


# ------------------------------------------------------------------------------- the games
# Each game answers four questions: who plays (in order), which cards are legal, who wins a
# finished trick, and what a won trick is worth to the value (and which seats want it high).


@dataclass
class Spades:
    must_break_spades: bool = True
    nil: int | None = None
    n_seats = 4

    def seats_in_play(self):
        return [0, 1, 2, 3]

    def legal(self, hand: int, trick: tuple, broken: bool) -> list[int]:
        cards = cards_of(hand)
        if trick:  # SP-8: follow the led suit if able
            led = suit(trick[0])
            following = [c for c in cards if suit(c) == led]
            return following or cards
        if self.must_break_spades and not broken:  # SP-7
            others = [c for c in cards if suit(c) != SPADES]
            return others or cards
        return cards

    def breaks_spades(self, card: int, trick: tuple, hand: int, broken: bool) -> bool:
        """SP-9, literally: a spade by a player who cannot follow, or led holding only spades."""
        if not self.must_break_spades:
            return False  # broken or not changes nothing: one memo key instead of two
        if broken or suit(card) != SPADES:
            return broken
        if trick:
            return suit(trick[0]) != SPADES
        return all(suit(c) == SPADES for c in cards_of(hand))

    def winner(self, trick: tuple, seats: list[int]) -> int:
        """SP-10: the highest spade, else the highest card of the led suit."""
        led = suit(trick[0])
        best = max(range(len(trick)), key=lambda i: (suit(trick[i]) == SPADES,
                                                     suit(trick[i]) == led, rank(trick[i])))
        return seats[best]

    def maximisers(self):
        if self.nil is None:
            return {0, 2}
        return {(self.nil + 1) % 4, (self.nil + 3) % 4}  # the nil bidder's opponents

    def worth(self, trick: tuple, winner: int) -> int:
        if self.nil is None:
            return int(winner in (0, 2))
        return int(winner == self.nil)


@dataclass
class Euchre:
    trump: int
    alone: int = -1
    n_seats = 4

    def seats_in_play(self):
        if self.alone < 0:
            return [0, 1, 2, 3]
        return [s for s in range(4) if s != (self.alone + 2) % 4]  # EU-12: partner sits out

    def is_left_bower(self, card: int) -> bool:
        """EU-3: the jack of the other suit of the trump's colour (C<->S, D<->H)."""
        return rank(card) == JACK and suit(card) == 3 - self.trump

    def suit(self, card: int) -> int:
        """EU-4: the left bower belongs to the trump suit for every purpose."""
        return self.trump if self.is_left_bower(card) else suit(card)

    def strength(self, card: int) -> int:
        """EU-3 order within a suit: right bower, left bower, A, K, Q, (J), 10, 9."""
        if suit(card) == self.trump and rank(card) == JACK:
            return 100
        if self.is_left_bower(card):
            return 99
        return rank(card)

    def legal(self, hand: int, trick: tuple, broken: bool) -> list[int]:
        cards = cards_of(hand)
        if not trick:
            return cards
        led = self.suit(trick[0])  # EU-14 (with EU-4)
        following = [c for c in cards if self.suit(c) == led]
        return following or cards

    def winner(self, trick: tuple, seats: list[int]) -> int:
        """EU-15: the highest trump, else the highest card of the led suit."""
        led = self.suit(trick[0])
        best = max(range(len(trick)), key=lambda i: (self.suit(trick[i]) == self.trump,
                                                     self.suit(trick[i]) == led,
                                                     self.strength(trick[i])))
        return seats[best]

    def maximisers(self):
        return {0, 2}

    def worth(self, trick: tuple, winner: int) -> int:
        return int(winner in (0, 2))


TF_ORDER = [1, 0, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2]  # TF-3: 3, 2, A, K, Q, J, 10, ..., 4
TF_STRENGTH = {r: 13 - i for i, r in enumerate(TF_ORDER)}
TF_POINTS = {ACE: 2, KING: 1, QUEEN: 1, JACK: 1}  # TF-11 point cards


@dataclass
class TrumpFriend:
    trump: int
    team: frozenset
    n_seats = 5

    def seats_in_play(self):
        return [0, 1, 2, 3, 4]

    def legal(self, hand: int, trick: tuple, broken: bool) -> list[int]:
        cards = cards_of(hand)
        if not trick:  # TF-6/TF-9: the leader leads any card
            return cards
        led = suit(trick[0])  # TF-7
        following = [c for c in cards if suit(c) == led]
        return following or cards

    def winner(self, trick: tuple, seats: list[int]) -> int:
        """TF-8.1: the highest trump; TF-8.2: else the highest of the led suit."""
        led = suit(trick[0])
        best = max(range(len(trick)), key=lambda i: (suit(trick[i]) == self.trump,
                                                     suit(trick[i]) == led,
                                                     TF_STRENGTH[rank(trick[i])]))
        return seats[best]

    def maximisers(self):
        return set(self.team)

    def worth(self, trick: tuple, winner: int) -> int:
        if winner not in self.team:
            return 0
        return sum(TF_POINTS.get(rank(c), 0) for c in trick)


def make_game(game: str, rules: dict | None, state: dict):
    rules = dict(rules or {})
    state = dict(state)
    if game == "spades":
        broken = bool(state.pop("broken", False))
        g = Spades(must_break_spades=bool(rules.pop("must_break_spades", True)),
                   nil=state.pop("nil", None))
    elif game == "euchre":
        g, broken = Euchre(trump=state.pop("trump"), alone=state.pop("alone", -1)), False
    elif game == "trump-friend":
        g = TrumpFriend(trump=state.pop("trump"), team=frozenset(state.pop("team")))
        broken = False
    else:
        raise ValueError(f"unknown game {game!r}")
    assert not rules and not state, (rules, state)
    return g, broken


# ------------------------------------------------------------------------------- the search


@on_fresh_stack
def solve(game: str, hands, leader: int, trick=(), rules: dict | None = None, **state):
    """(value, {card: value}) of the position by exhaustive minimax; see the module docstring."""
    g, broken = make_game(game, rules, state)
    hands = tuple(as_mask(h) for h in hands)
    trick = tuple(int(c) for c in trick)
    seats = g.seats_in_play()
    assert len(hands) == g.n_seats and leader in seats and len(trick) < len(seats)
    if isinstance(g, Spades):
        # the contract: a spade already in the trick means spades are broken
        broken = g.must_break_spades and (broken or any(suit(c) == SPADES for c in trick))
    maximisers = g.maximisers()
    memo: dict = {}

    def to_move(leader, trick):
        return seats[(seats.index(leader) + len(trick)) % len(seats)]

    def play(hands, leader, trick, broken, card):
        """Value after the player to move plays `card` (the rest played best)."""
        seat = to_move(leader, trick)
        if isinstance(g, Spades):
            broken = g.breaks_spades(card, trick, hands[seat], broken)
        hands = hands[:seat] + (hands[seat] & ~(1 << card),) + hands[seat + 1:]
        trick = trick + (card,)
        if len(trick) < len(seats):
            return value(hands, leader, trick, broken)
        trick_seats = [to_move(leader, trick[:i]) for i in range(len(seats))]
        winner = g.winner(trick, trick_seats)
        return g.worth(trick, winner) + value(hands, winner, (), broken)

    def value(hands, leader, trick, broken):
        key = (hands, leader, trick, broken)
        if key not in memo:
            seat = to_move(leader, trick)
            cards = g.legal(hands[seat], trick, broken)
            if not cards:  # the hand is over
                assert not trick and not any(hands)
                memo[key] = 0
            else:
                results = [play(hands, leader, trick, broken, c) for c in cards]
                memo[key] = max(results) if seat in maximisers else min(results)
        return memo[key]

    seat = to_move(leader, trick)
    moves = {c: play(hands, leader, trick, broken, c) for c in g.legal(hands[seat], trick, broken)}
    if not moves:
        return 0, {}
    best = max(moves.values()) if seat in maximisers else min(moves.values())
    return best, moves


def player_to_move(game: str, leader: int, trick, alone: int = -1) -> int:
    n = 5 if game == "trump-friend" else 4
    seats = [s for s in range(n) if not (game == "euchre" and alone >= 0 and s == (alone + 2) % 4)]
    return seats[(seats.index(leader) + len(trick)) % len(seats)]


# ------------------------------------------------------------------------------- random endings

MAX_CARDS = {"spades": 13, "euchre": 5, "trump-friend": 10}
EUCHRE_DECK = [13 * s + r for s in range(4) for r in range(7, 13)]  # EU-2: 9, 10, J, Q, K, A


@dataclass
class Position:
    """One solve call: ``solve(game, hands, leader, trick, rules, **state)``."""

    game: str
    hands: tuple
    leader: int
    trick: tuple
    rules: dict | None
    state: dict

    def args(self):
        return (self.game, self.hands), dict(leader=self.leader, trick=self.trick,
                                             rules=self.rules, **self.state)

    def __str__(self):
        """The call as text one can paste (hands as card text, the trick as ids)."""
        from simcore.cards import format_card, format_hand

        hands = ", ".join(f"{format_hand(h)!r}" for h in self.hands)
        state = "".join(f", {k}={v!r}" for k, v in self.state.items())
        trick = " ".join(format_card(c) for c in self.trick)
        return (f"solve({self.game!r}, [{hands}], leader={self.leader}, trick={list(self.trick)}"
                f", rules={self.rules!r}{state})  # trick {trick or '-'}")


def disagreement(fast_solve, position: Position) -> str | None:
    """None if `fast_solve` gives the oracle's value and moves for `position`, else a report."""
    args, kwargs = position.args()
    value, moves = solve(*args, **kwargs)
    sol = fast_solve(*args, **kwargs)
    got_value = int(sol.value)
    got_moves = {int(c): int(v) for c, v in sol.moves.items()}
    if got_value == value and got_moves == moves:
        return None
    from simcore.cards import format_card

    def text(m):
        return "{" + ", ".join(f"{format_card(c)}: {v}" for c, v in sorted(m.items())) + "}"

    return (f"{position}\n    oracle value {value} moves {text(moves)}"
            f"\n    solver value {got_value} moves {text(got_moves)}")


def random_game(game: str, rng):
    """A random rules setting and state for `game`: (game object, rules, state, deck)."""
    if game == "spades":
        must_break = rng.random() < 0.5
        rules = None if must_break and rng.random() < 0.5 else {"must_break_spades": must_break}
        state = {"broken": rng.random() < 0.5}
        if rng.random() < 0.4:
            state["nil"] = rng.randrange(4)
        deck = list(range(52))
    elif game == "euchre":
        state = {"trump": rng.randrange(4)}
        if rng.random() < 0.5:  # "alone" given half the time: a lone seat, or -1 said explicitly
            state["alone"] = rng.randrange(4) if rng.random() < 0.7 else -1
        rules, deck = None, list(EUCHRE_DECK)
    elif game == "trump-friend":
        declarer = rng.randrange(5)
        team = {declarer}
        if rng.random() < 0.6:
            team.add(rng.choice([s for s in range(5) if s != declarer]))
        state = {"trump": rng.randrange(5), "team": tuple(sorted(team))}
        rules, deck = None, list(range(52))
    else:
        raise ValueError(game)
    g, _ = make_game(game, rules, state)
    return g, rules, state, deck


def narrow_deck(deck: list[int], n_cards: int, rng, keep: int | None = None) -> list[int]:
    """Often keep only a few suits (`keep` first): more voids, ruffs and squeezes in an ending."""
    suits = sorted({suit(c) for c in deck})
    rng.shuffle(suits)
    if keep is not None:
        suits.remove(keep)
        suits.insert(0, keep)
    for n_suits in range(rng.randrange(1, len(suits) + 1), len(suits) + 1):
        kept = [c for c in deck if suit(c) in suits[:n_suits]]
        if len(kept) >= n_cards:
            return kept
    return deck


def random_ending(game: str, rng, k: int) -> Position:
    """k cards to each seat in play at the start of the current trick, and a random partial trick.

    The seats that already played to the trick played a random legal card (SP-7/SP-8, EU-14,
    TF-7) and hold k-1, so the trick is one that could happen.
    """
    g, rules, state, deck = random_game(game, rng)
    seats = g.seats_in_play()
    leader = rng.choice(seats)
    n_played = rng.randrange(len(seats))
    order = [seats[(seats.index(leader) + i) % len(seats)] for i in range(len(seats))]
    # Spades: mostly with spades in the deck, so that SP-7/SP-9 and ruffs come up often
    keep = SPADES if game == "spades" and rng.random() < 0.7 else None
    deck = narrow_deck(deck, k * len(seats), rng, keep)
    dealt = rng.sample(deck, k * len(seats))
    hands = [0] * g.n_seats
    for i, s in enumerate(seats):
        hands[s] = hand_from_cards(dealt[i * k:(i + 1) * k])
    trick: tuple = ()
    broken = state.get("broken", False)
    for s in order[:n_played]:
        card = rng.choice(g.legal(hands[s], trick, broken))
        if game == "spades":
            broken = g.breaks_spades(card, trick, hands[s], broken)
        hands[s] &= ~(1 << card)
        trick += (card,)
    if game == "spades" and rng.random() < 0.5:
        state["broken"] = broken or state["broken"]  # said explicitly, or left to the trick
    if state.get("broken") is False and rng.random() < 0.5:
        del state["broken"]  # the default
    return Position(game, tuple(hands), leader, trick, rules, state)


# ------------------------------------------------------------------------------- DDS (bridge)
# Spades with must_break_spades=false is bridge played with spades as trumps: seats 0, 1, 2, 3
# sit North, East, South, West (bridge play goes clockwise N -> E -> S -> W, i.e. to the left,
# as SP-1 says), and the tricks of seats 0+2 are North-South's.

DDS_RANKS = "23456789TJQKA"


def dds_deal(hands, leader: int, trick, trump: int = SPADES):
    """An endplay Deal of the position, `trump` (a suit id) trumps, `leader` on lead to `trick`."""
    from endplay.types import Card, Deal, Denom, Player, Rank

    def pbn(mask):  # PBN lists spades, hearts, diamonds, clubs, high cards first
        return ".".join("".join(DDS_RANKS[r] for r in range(12, -1, -1) if mask >> (13 * s + r) & 1)
                        for s in (SPADES, HEARTS, DIAMONDS, CLUBS))

    deal = Deal("N:" + " ".join(pbn(as_mask(h)) for h in hands), first=Player(leader),
                trump=Denom(3 - trump))
    for c in trick:
        deal.play(Card(suit=Denom(3 - suit(c)), rank=Rank(4 << rank(c))), from_hand=False)
    return deal


def public_id(card) -> int:
    """An endplay Card as a public id (endplay: Denom S H D C = 0..3, Rank R2..RA = 4..2^14)."""
    return 13 * (3 - int(card.suit)) + int(card.rank).bit_length() - 3


def dds_hands(deal) -> list[int]:
    """The four hands of an endplay Deal as masks, seats 0..3 = N E S W."""
    return [hand_from_cards(public_id(c) for c in deal[p]) for p in range(4)]


def dds_solve(hands, leader: int, trick=(), trump: int = SPADES):
    """(tricks of seats 0+2 from here, {card: that value}) by DDS, every legal card."""
    from endplay.dds import solve_board
    from endplay.dds.solve import SolveMode

    mover = (leader + len(trick)) % 4
    tricks_left = bin(as_mask(hands[mover])).count("1")
    moves = {}
    for card, score in solve_board(dds_deal(hands, leader, trick, trump), SolveMode.Default):
        c = public_id(card)
        moves[c] = score if mover % 2 == 0 else tricks_left - score  # DDS: the mover's side
    value = max(moves.values()) if mover % 2 == 0 else min(moves.values())
    return value, moves


# ------------------------------------------------------------------------------- sweeps


def sweep(fast_solve, game: str, k: int, count: int, seed: int):
    """Checks `count` random endings of k cards against the oracle: (count, disagreements)."""
    rng = random.Random(f"{game}/{k}/{seed}")
    problems = []
    for _ in range(count):
        report = disagreement(fast_solve, random_ending(game, rng, k))
        if report:
            problems.append(report)
    return count, problems


def sweep_message(game: str, k: int, count: int, problems: list[str]) -> str:
    shown = "\n".join(problems[:3])
    return f"{game}: {len(problems)} of {count} random {k}-card endings disagree, e.g.\n{shown}"
