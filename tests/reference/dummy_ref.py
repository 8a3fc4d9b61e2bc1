"""Plain-Python reference of Dummy (docs/rules/dummy.md §3, DM-1 ... DM-34).

``replay`` deals a deck order and plays the engine's decision log through the rules written
out again with sets and brute force: at every decision it lists the legal actions itself and
checks that the engine offered exactly as many and that the chosen one is among them, then
applies it and scores the deal.  Nothing here is clever on purpose.

Cards are public ids (13 * suit + rank; rank 0 = '2' ... 12 = 'A', ace high only, DM-6).
Action codes are the engine's (simcore.games.dummy.layout), re-declared here.
"""

from __future__ import annotations

from itertools import combinations

DRAW, PASS, STOP = -1, -2, 0
K_ACQUIRE, K_PLAY, K_DISCARD = 0, 1, 2
A_SHIFT, TAKE_SHIFT = 58, 52
A_MELD, A_LAYOFF, A_KNOCK = 1, 2, 3
SPETOS = {0, 49}
HAND_SIZE = {2: 11, 3: 9, 4: 7}


class Mismatch(AssertionError):
    pass


def value(c: int) -> int:
    """DM-7."""
    if c in SPETOS:
        return 50
    r = c % 13
    return 5 if r <= 7 else (10 if r <= 11 else 15)


def is_meld(cards) -> bool:
    """DM-8: a set of 3-4 of one rank, or a run of 3+ consecutive cards of one suit."""
    cards = sorted(cards)
    if len(cards) < 3:
        return False
    if len({c % 13 for c in cards}) == 1:
        return len(cards) <= 4
    if len({c // 13 for c in cards}) != 1:
        return False
    return all(b == a + 1 for a, b in zip(cards, cards[1:]))


def melds_in(cards):
    """Every meld within ``cards`` (all sizes)."""
    cards = sorted(cards)
    out = []
    for s in range(4):
        suit = [c for c in cards if c // 13 == s]
        for i in range(len(suit)):
            for j in range(i + 2, len(suit)):
                run = suit[i:j + 1]
                if is_meld(run):
                    out.append(frozenset(run))
    for r in range(13):
        same = [c for c in cards if c % 13 == r]
        for k in (3, 4):
            for combo in combinations(same, k):
                out.append(frozenset(combo))
    return out


def partitions(cards) -> bool:
    """Can ``cards`` be split exactly into melds?"""
    cards = frozenset(cards)
    if not cards:
        return True
    low = min(cards)
    for m in melds_in(cards):
        if low in m and partitions(cards - m):
            return True
    return False


def fits(c, meld, qka_closed) -> bool:
    """DM-16."""
    meld = set(meld)
    if c in meld:
        return False
    if len({x % 13 for x in meld}) == 1:
        return len(meld) == 3 and c % 13 == min(meld) % 13
    if c // 13 != min(meld) // 13:
        return False
    if qka_closed and max(meld) % 13 == 12:
        return False
    return (c == min(meld) - 1 and min(meld) % 13 > 0) or (c == max(meld) + 1 and max(meld) % 13 < 12)


def _attach_all(cards, table, qka_closed) -> bool:
    """Can every card of ``cards`` be laid off, one after another, onto the table melds?"""
    if not cards:
        return True
    for c in cards:
        for j, m in enumerate(table):
            if fits(c, m, qka_closed):
                t2 = list(table)
                t2[j] = m | {c}
                if _attach_all(cards - {c}, t2, qka_closed):
                    return True
    return False


def reach(cards, table, qka_closed):
    """Cards of ``cards`` that could be laid off at all: a 3-card set's fourth card, or a card
    joined to a run's end through consecutive cards of ``cards``."""
    out = set()
    for m in table:
        m = set(m)
        low, high = min(m), max(m)
        if len({x % 13 for x in m}) == 1:
            if len(m) == 3:
                out |= {c for c in cards if c % 13 == low % 13 and c not in m}
            continue
        if qka_closed and high % 13 == 12:
            continue
        c = low - 1
        while c >= 13 * (low // 13) and c in cards:
            out.add(c)
            c -= 1
        c = high + 1
        while c <= 13 * (high // 13) + 12 and c in cards:
            out.add(c)
            c += 1
    return out


def can_go_down(cards, table, lay_left, qka_closed) -> int | None:
    """The fewest lay-offs with which all of ``cards`` go down (new melds + lay-offs onto
    ``table``, at most ``lay_left``), or None.  Tries every subset of the cards that could be
    laid off, smallest first."""
    cards = frozenset(cards)
    cand = sorted(reach(cards, table, qka_closed)) if lay_left > 0 else []
    in_meld = set().union(*melds_in(cards)) if cards else set()
    loose = {c for c in cards if c not in in_meld}
    if not loose <= set(cand):  # in no meld and cannot be laid off
        return None
    for k in range(len(loose), min(lay_left, len(cand)) + 1):
        for sub in combinations(cand, k):
            s = frozenset(sub)
            if loose <= s and _attach_all(s, [frozenset(m) for m in table], qka_closed) \
                    and partitions(cards - s):
                return k
    return None


def knock_keeps(hand, table, lay_left, qka_closed):
    return {c for c in hand if can_go_down(set(hand) - {c}, table, lay_left, qka_closed) is not None}


class Deal:
    def __init__(self, deck, dealer, starter, direction, rules: dict):
        self.r = rules
        n = self.n = rules["players"]
        hs = HAND_SIZE[n]
        self.hands = [set() for _ in range(4)]
        for i in range(n * hs):  # DM-4
            self.hands[(dealer + direction * (1 + i % n)) % n].add(int(deck[i]))
        self.dealt = [set(h) for h in self.hands]
        self.head = int(deck[n * hs])
        self.stock = [int(c) for c in deck[n * hs + 1: 52 - (5 if n == 2 and rules["two_player_cut5"] else 0)]]
        self.pile = [(self.head, -1)]  # (card, discarder), bottom first
        self.table = []                 # melds (sets)
        self.placed = [set() for _ in range(4)]
        self.opened = [False] * 4
        self.layoffs = [0] * 4
        self.penalty = [0] * 4
        self.feeds = []                 # (discarder, protected, named set)
        self.p = starter
        self.dir = direction
        self.turns = 0

    def lay_left(self, p):
        used = sum(self.layoffs) if self.r["layoff_limit_scope"] == "table" else self.layoffs[p]
        return max(0, self.r["layoff_cap"] - used)

    def takes(self, p, final):
        hand = self.hands[p]
        out = []
        for d in range(len(self.pile)):
            t = self.pile[d][0]
            taken = {c for c, _ in self.pile[d:]}
            avail = hand | taken
            for m in melds_in(avail):
                if t not in m or not (m & hand) or len(avail - m) < 1:
                    continue
                if final:
                    rest = avail - m
                    if len(rest) > 1 and not knock_keeps(rest, self.table + [set(m)], self.lay_left(p),
                                                         self.r["qka_closed"]):
                        continue
                code = (d << TAKE_SHIFT) | sum(1 << c for c in m)
                out.append(code)
        return out


def replay(deck, dealer, starter, direction, rules: dict, log):
    """Play a deal from ``deck`` with the engine's decisions ``log`` (rows seat, kind, action,
    n).  Returns a dict of results; raises Mismatch where the engine broke a rule."""
    g = Deal(deck, dealer, starter, direction, rules)
    r = rules
    qka = r["qka_closed"]
    pos = 0

    def decide(p, kind, legal):
        nonlocal pos
        if len(legal) != len(set(legal)):
            raise Mismatch(f"reference listed an action twice: {legal}")
        if pos >= len(log):
            raise Mismatch(f"log ended; seat {p} kind {kind} has {len(legal)} actions")
        seat, k, a, n = (int(x) for x in log[pos])
        pos += 1
        if (seat, k) != (p, kind):
            raise Mismatch(f"decision {pos - 1}: engine asked seat {seat} kind {k}, reference {p} {kind}")
        if n != len(legal):
            raise Mismatch(f"decision {pos - 1} (seat {p} kind {kind}): engine offered {n} actions, "
                           f"reference {len(legal)}")
        if a not in legal:
            raise Mismatch(f"decision {pos - 1}: action {a} is not legal")
        return a

    knocker, dark, fool, knock_card = -1, False, -1, -1
    while True:
        p = g.p
        g.feeds = [f for f in g.feeds if f[0] != p]  # DM-34 window closes
        final = not g.stock
        opened_before = g.opened[p]
        legal = ([PASS] if final else [DRAW]) + g.takes(p, final)
        if final and len(legal) == 1:
            break
        g.turns += 1
        a = decide(p, K_ACQUIRE, legal)
        if a == PASS:
            break
        taken = set()
        single_from = -1
        drew = a == DRAW
        if drew:
            g.hands[p].add(g.stock.pop(0))
        else:
            d = a >> TAKE_SHIFT
            meld = {c for c in range(52) if a >> c & 1 and c < 52}
            taken = {c for c, _ in g.pile[d:]}
            if d == len(g.pile) - 1 and g.pile[d][1] >= 0:
                single_from = g.pile[d][1]
            g.pile = g.pile[:d]
            g.hands[p] = (g.hands[p] | taken) - meld
            g.table.append(set(meld))
            g.placed[p] |= meld
            g.opened[p] = True
            keep = []
            for f in g.feeds:  # DM-34
                if f[0] != p and f[1] in meld and (meld & f[2]):
                    g.penalty[f[0]] -= 50
                else:
                    keep.append(f)
            g.feeds = keep
        while len(g.hands[p]) >= 2:
            h = g.hands[p]
            legal = [] if final else [STOP]
            ll = g.lay_left(p)
            if g.opened[p] and not final:
                legal += [(A_MELD << A_SHIFT) | sum(1 << c for c in m) for m in melds_in(h) if h - m]
                if ll > 0:
                    legal += [(A_LAYOFF << A_SHIFT) | (j << 8) | c
                              for j, m in enumerate(g.table) for c in sorted(h) if fits(c, m, qka)]
            if g.opened[p] or (drew and not opened_before):
                kl = ll if (g.opened[p] or r["dark_knock_layoffs"]) else 0
                legal += [(A_KNOCK << A_SHIFT) | c for c in sorted(knock_keeps(h, g.table, kl, qka))]
            if legal == [STOP] or not legal:
                break
            a = decide(p, K_PLAY, legal)
            if a == STOP:
                break
            typ, low = a >> A_SHIFT, a & ((1 << 52) - 1)
            if typ == A_MELD:
                m = {c for c in range(52) if low >> c & 1}
                g.table.append(m)
                put = m
            elif typ == A_LAYOFF:
                c, j = a & 255, (a >> 8) & 255
                g.table[j].add(c)
                put = {c}
                g.layoffs[p] += 1
            else:
                c = a & 255
                kl = ll if (g.opened[p] or r["dark_knock_layoffs"]) else 0
                put = h - {c}
                g.layoffs[p] += can_go_down(put, g.table, kl, qka)
            g.hands[p] = h - put
            g.placed[p] |= put
            if typ == A_KNOCK:
                break
        if len(g.hands[p]) == 1:  # DM-19
            knocker = p
            knock_card = next(iter(g.hands[p]))
            dark = not opened_before  # DM-22
            fool = single_from  # DM-27
            break
        if final:
            raise Mismatch("final turn without a knock")
        h = g.hands[p]
        allowed = h if (r["may_discard_taken_card"] or not (h - taken)) else h - taken
        c = decide(p, K_DISCARD, sorted(allowed))
        pile_cards = {x for x, _ in g.pile}
        if r["layoff_discard_penalty"] and any(fits(c, m, qka) for m in g.table):  # DM-32
            g.penalty[p] -= 50
        if r["full_discard_penalty"] and any(  # DM-33
                is_meld({c, x, y}) for x, y in combinations(pile_cards, 2)):
            g.penalty[p] -= 50

        def near(x):
            return {y for y in range(52) if y != x and (
                y % 13 == x % 13 or (y // 13 == x // 13 and abs(y - x) <= 2))}

        head_in = any(x == g.head for x in pile_cards)
        if r["head_feed_penalty"] and head_in and c in near(g.head):
            g.feeds.append((p, g.head, {c}))
        if r["speto_feed_penalty"]:
            for s in sorted(SPETOS & pile_cards):
                if c in near(s):
                    g.feeds.append((p, s, {c}))
        if r["speto_discard_penalty"] and c in SPETOS and near(c) & pile_cards:
            g.feeds.append((p, c, near(c) & pile_cards))
        g.hands[p] = h - {c}
        g.pile.append((c, p))
        g.p = (p + g.dir) % g.n
    # DM-24 ... DM-27, DM-30, DM-31
    if pos != len(log):
        raise Mismatch(f"engine logged {len(log)} decisions, reference used {pos}")
    if fool >= 0:
        g.penalty[fool] -= r["ngo_penalty"]
    out = {"knocker": knocker, "dark": dark, "fool": fool, "knock_card": knock_card,
           "turns": g.turns, "opened": [], "table": [], "inhand": [], "penalty": [], "score": [],
           "layoffs": g.layoffs[:g.n]}
    for s in range(g.n):
        t = sum(value(c) for c in g.placed[s])
        if r["head_card_bonus"] and g.head in g.placed[s]:
            t += (100 if g.head in SPETOS else 50) - value(g.head)
        hv = 0 if s == knocker else sum(value(c) for c in g.hands[s])
        if knocker < 0:
            base = t - hv
        elif s == knocker:
            kv = 100 if (r["speto_knock_100"] and knock_card in SPETOS) else r["knock_card_value"]
            base = (t + kv) * (r["dark_knock_multiplier"] if dark else 1)
        elif g.opened[s]:
            base = t - hv
        else:
            base = -r["unopened_multiplier"] * hv
        out["opened"].append(g.opened[s])
        out["table"].append(t)
        out["inhand"].append(hv)
        out["penalty"].append(g.penalty[s])
        out["score"].append(base + g.penalty[s])
    return out


def rules_dict(rules) -> dict:
    """The reference's view of a simcore Rules object."""
    d = rules.to_dict()
    d["layoff_cap"] = rules.layoff_cap
    return d
