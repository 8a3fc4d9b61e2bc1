"""A plain-Python reference of Trump Friend (docs/rules/trump_friend.md), for cross-checks.

Deliberately slow and literal: cards are public ids (``simcore.cards``), hands are Python sets,
and every rule is written out the way the rules file states it.  Nothing here imports the
engine, so a bug there cannot hide in a shared helper.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from simcore.cards import RANKS, cards_of_hand, format_card, rank_of, suit_of

N_SEATS = 5
N_TRICKS = 10
CARDS_PER_HAND = 10
NO_TRUMP = 4
NO_FRIEND = -1

# TF-3: rank order within a suit, lowest first (3 highest, 4 lowest).
TF_RANK_ORDER = "456789TJQKA23"
_STRENGTH = {r: i for i, r in enumerate(TF_RANK_ORDER)}

# Point cards: every Ace 2, every K, Q, J 1 (20 in the deck).
_POINTS_BY_RANK = {"A": 2, "K": 1, "Q": 1, "J": 1}
DECK_POINTS = 20


class RuleViolation(AssertionError):
    """A logged round that the rules do not allow (an illegal play, a wrong leader, ...)."""


def strength(card: int) -> int:
    """TF-3 strength of a card within its suit: 0 for a 4 ... 12 for a 3."""
    return _STRENGTH[RANKS[rank_of(card)]]


def card_points(card: int) -> int:
    return _POINTS_BY_RANK.get(RANKS[rank_of(card)], 0)


def cards_points(cards) -> int:
    return sum(card_points(c) for c in cards)


def left_of(seat: int) -> int:
    """TF-1: play passes to the left, seat s -> (s + 1) mod 5."""
    return (seat + 1) % N_SEATS


def trick_winner(cards: list[int], trump: int) -> int:
    """TF-8: position (0 = led) of the card that wins ``cards``.

    The highest trump wins if any trump was played (TF-8.1); otherwise the highest card of the
    led suit (TF-8.2).  In No Trump (trump 4) no suit is a trump.
    """
    led = suit_of(cards[0])
    trumps = [i for i, c in enumerate(cards) if suit_of(c) == trump]
    candidates = trumps or [i for i, c in enumerate(cards) if suit_of(c) == led]
    return max(candidates, key=lambda i: strength(cards[i]))


def legal_cards(hand: set[int], led_suit: int | None) -> set[int]:
    """TF-7: the led suit if held, otherwise anything (no obligation to trump)."""
    if led_suit is None:
        return set(hand)
    same = {c for c in hand if suit_of(c) == led_suit}
    return same or set(hand)


def check_deal(hands: list[int], kitty: int) -> None:
    """TF-2 / TF-4: five hands of 10 and a kitty of 2 that together are the 52-card deck."""
    cards = [set(cards_of_hand(h)) for h in hands]
    if [len(h) for h in cards] != [CARDS_PER_HAND] * N_SEATS:
        raise RuleViolation(f"hand sizes {[len(h) for h in cards]}, expected 10 each")
    kitty_cards = set(cards_of_hand(kitty))
    if len(kitty_cards) != 2:
        raise RuleViolation(f"kitty has {len(kitty_cards)} cards, expected 2")
    everything = kitty_cards.union(*cards)
    if len(everything) != 52 or sum(len(h) for h in cards) + 2 != 52:
        raise RuleViolation("hands and kitty do not partition the deck")


def friend_holder(hands: list[int], friend_card: int) -> int:
    """The seat dealt the friend card, or -1 (no friend called, or the card is in the kitty)."""
    if friend_card < 0:
        return -1
    for s in range(N_SEATS):
        if int(hands[s]) >> friend_card & 1:
            return s
    return -1


@dataclass
class RoundScore:
    team: frozenset[int]  # the declarer's team (TF-5.2 ... TF-5.4)
    declarer_points: int  # D
    defender_points: int  # O
    delta: list[int]  # score change per seat


def score_round(points: list[int], declarer: int, friend_card: int, holder: int) -> RoundScore:
    """TF-11 ... TF-13.

    ``holder`` is the seat dealt the friend card (-1 if no friend or in the kitty).  With a
    friend card in the kitty (TF-5.3) or in the declarer's own hand (TF-5.4) the team is the
    declarer alone, but the round is still a with-friend round: no 2D - O bonus.
    """
    no_friend = friend_card < 0
    team = {declarer}
    if not no_friend and holder >= 0:
        team.add(holder)
    d = sum(points[s] for s in team)
    o = sum(points[s] for s in range(N_SEATS) if s not in team)
    delta = [0] * N_SEATS
    if d > o:  # defenders lose
        loss = 2 * d - o if no_friend else d - o  # TF-13 bonus only when "No friend" was called
        for s in range(N_SEATS):
            if s not in team:
                delta[s] = -loss
    elif o > d:  # the declarer's team loses (TF-12; TF-13 "as usual")
        for s in team:
            delta[s] = -(o - d)
    return RoundScore(frozenset(team), d, o, delta)


@dataclass
class RoundReplay:
    leaders: list[int] = field(default_factory=list)
    trick_winners: list[int] = field(default_factory=list)
    trick_points: list[int] = field(default_factory=list)
    points: list[int] = field(default_factory=lambda: [0] * N_SEATS)
    friend_seat: int = -1  # seat dealt the friend card (-1 none / kitty)
    friend_played_by: int = -1  # seat that actually played the friend card
    friend_own: bool = False
    score: RoundScore | None = None


def replay_round(hands: list[int], kitty: int, declarer: int, trump: int, friend_card: int,
                 plays: list[int]) -> RoundReplay:
    """Replay a logged round (public ids) and score it; raise RuleViolation on any illegality.

    Checks TF-2/TF-4 (the deal), TF-6 (first leader), TF-7 (each card held, suit followed),
    TF-9 (next leader = last winner), TF-10 (10 tricks, every card of every hand played once),
    and computes TF-8 trick winners and TF-11 ... TF-13 scores.
    """
    check_deal(hands, kitty)
    if not 0 <= declarer < N_SEATS:
        raise RuleViolation(f"declarer {declarer} is not a seat")
    if not 0 <= trump <= NO_TRUMP:
        raise RuleViolation(f"trump {trump} is not a suit or No Trump")
    if len(plays) != N_SEATS * N_TRICKS:
        raise RuleViolation(f"{len(plays)} plays, expected 50")
    if friend_card >= 0 and int(kitty) >> friend_card & 1 == 0 and friend_holder(hands, friend_card) < 0:
        raise RuleViolation("friend card is nowhere")
    held = [set(cards_of_hand(h)) for h in hands]
    out = RoundReplay()
    out.friend_seat = friend_holder(hands, friend_card)
    out.friend_own = friend_card >= 0 and out.friend_seat == declarer
    leader = left_of(declarer)  # TF-6
    for t in range(N_TRICKS):
        out.leaders.append(leader)
        trick = [int(c) for c in plays[N_SEATS * t: N_SEATS * (t + 1)]]
        led_suit = None
        seat = leader
        for i, card in enumerate(trick):
            if card not in held[seat]:
                raise RuleViolation(
                    f"trick {t}: seat {seat} played {format_card(card) if 0 <= card < 52 else card}, "
                    "which it does not hold"
                )
            if card not in legal_cards(held[seat], led_suit):
                raise RuleViolation(
                    f"trick {t}: seat {seat} played {format_card(card)} but could follow "
                    f"{'CDHS'[led_suit]}"
                )
            held[seat].remove(card)
            if card == friend_card:
                out.friend_played_by = seat
            if i == 0:
                led_suit = suit_of(card)
            seat = left_of(seat)  # TF-1
        winner = (leader + trick_winner(trick, trump)) % N_SEATS
        p = cards_points(trick)
        out.trick_winners.append(winner)
        out.trick_points.append(p)
        out.points[winner] += p  # TF-9: the winner keeps the trick's point cards
        leader = winner  # TF-9: and leads the next trick
    if any(held):
        raise RuleViolation("cards left in hand after 10 tricks")
    out.score = score_round(out.points, declarer, friend_card, out.friend_seat)
    return out


# ---------------------------------------------------------------- whole games (TF-14 ... TF-18)


def game_over(totals: list[int], losing_line: int, end_at: str) -> bool:
    """TF-17: reach = some score <= -L; exceed = some score < -L."""
    if end_at == "reach":
        return min(totals) <= -losing_line
    if end_at == "exceed":
        return min(totals) < -losing_line
    raise ValueError(end_at)


def winners(totals: list[int]) -> list[int]:
    """TF-18: every seat with the highest (least negative) score."""
    best = max(totals)
    return [s for s in range(N_SEATS) if totals[s] == best]


@dataclass
class GameReplay:
    declarers: list[int]
    totals: list[list[int]]  # running scores after each hand
    finals: list[int]
    winners: list[int]


def replay_game(hand_deltas: list[list[int]], first_declarer: int, losing_line: int,
                end_at: str) -> GameReplay:
    """Running totals from each hand's deltas (everyone starts at 0, TF-14), the declarer of
    each hand (TF-15 first, then to the left, TF-16), and the end of the game (TF-17): the
    game must end after the first hand that crosses the line and not before.
    """
    totals = [0] * N_SEATS
    declarer = first_declarer
    declarers, history = [], []
    for k, deltas in enumerate(hand_deltas):
        if k > 0 and game_over(totals, losing_line, end_at):
            raise RuleViolation(f"hand {k} was played after the game had ended")
        declarers.append(declarer)
        totals = [totals[s] + int(deltas[s]) for s in range(N_SEATS)]
        history.append(list(totals))
        declarer = left_of(declarer)
    if not hand_deltas or not game_over(totals, losing_line, end_at):
        raise RuleViolation("the game stopped before anyone crossed the losing line")
    return GameReplay(declarers, history, list(totals), winners(totals))
