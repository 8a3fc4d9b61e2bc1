"""Speed of the open-hand solvers, single thread, on the same random deals in one run.

    python scripts/bench_solve.py [--spades N] [--spades-cards K] [--spades-nil N]
                                  [--spades-break N] [--spades-budget NODES] [--euchre N] [--trump-friend N] [--seed S]

* Spades: the exact value (tricks of seats 0+2, seat 0 leading, must_break_spades=false) of N
  deals of K cards a seat, timed against DDS (endplay's ``solve_board`` with
  ``SolveMode.OptimalOne``, one call per deal, single-threaded), interleaved deal by deal, and
  checked equal.  Also breaking on (SP-7), and (--spades-nil N) N deals solved as ``simcore solve
  spades`` does: the trick count and the nil of each of the four seats, timed per solve.
* Euchre: the full 20-value DD table of a deal (``euchre.solver.deal_table``: dd_t0..3 with the
  dealer's best discard when t is the upcard's suit, dd_alone{s}_t{t}), deals per second.
* Trump Friend: one exact solve of a full deal (5 x 10 cards; ``--trump-friend-cards K`` for
  endings of K cards a seat) per trump call 0..4, the declarer's team = the declarer + the
  holder of the highest card of the call it lacks; on a table of the size ``simcore.solve``
  and ``simcore solve trump-friend`` use (``trump_friend.new_tables``' default,
  ``SOLVE_TABLE_BITS``: 2**20 entries).

Nodes searched per solve are the search's own counter (``simcore.solver.nodes``).  Times are
the solving thread's CPU time (``time.thread_time``), ours and DDS's alike (DDS solves in the
calling thread): on a machine shared with other jobs, wall-clock times mostly measure the wait
for a core.
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np

from simcore import solver
from simcore.games.euchre import solver as euchre
from simcore.games.spades import solver as spades
from simcore.games.trump_friend import solver as trump_friend

RANKS = "23456789TJQKA"
NO_TRICK = np.zeros(5, np.int64)


def deal_masks(rng, n_seats, per_seat, deck=range(52)):
    cards = list(deck)
    rng.shuffle(cards)
    hands = [sum(1 << c for c in cards[per_seat * i:per_seat * (i + 1)]) for i in range(n_seats)]
    return np.array(hands, np.uint64), cards[per_seat * n_seats:]


def pbn(hands):
    """endplay's deal text, seat 0 = north, then east, south, west; suits S H D C."""
    seats = []
    for h in hands:
        h = int(h)
        suits = ("".join(RANKS[r] for r in range(12, -1, -1) if h >> (13 * s + r) & 1)
                 for s in (3, 2, 1, 0))
        seats.append(".".join(suits))
    return "N:" + " ".join(seats)


def stats(values):
    a = np.asarray(values, dtype=float)
    return a.mean(), float(np.median(a)), a.max()


def row(label, times, nodes, extra=""):
    tm, tmed, tmax = stats(np.asarray(times) * 1000)
    nm, nmed, nmax = stats(nodes)
    print(f"| {label} | {len(times)} | {tm:.2f} | {tmed:.2f} | {tmax:.1f} | "
          f"{nm:,.0f} | {nmed:,.0f} | {nmax:,.0f} | {extra} |")


def bench_spades(rng, n, cards, must_break, nil, with_dds):
    tab = solver.table_of(spades.new_tables(1), 0)
    warm, _ = deal_masks(rng, 4, cards)
    spades.solve_value(warm, 0, NO_TRICK, 0, False, must_break, nil, tab)
    if with_dds:
        from endplay.dds import solve_board
        from endplay.dds.solve import SolveMode
        from endplay.types import Deal, Denom, Player
    ours, nodes, theirs, agree = [], [], [], 0
    for _ in range(n):
        hands, _ = deal_masks(rng, 4, cards)
        t = time.thread_time()
        v = spades.solve_value(hands, 0, NO_TRICK, 0, False, must_break, nil, tab)
        ours.append(time.thread_time() - t)
        nodes.append(solver.nodes(tab))
        if with_dds:
            deal = Deal(pbn(hands), first=Player.north, trump=Denom.spades)
            t = time.thread_time()
            solved = solve_board(deal, SolveMode.OptimalOne)
            theirs.append(time.thread_time() - t)
            agree += v == max(score for _, score in solved)
    return ours, nodes, theirs, agree


def bench_spades_nil(rng, n, cards, budget):
    """Per deal (breaking on, seat 0 leading): the trick count, then the nil of seats 0..3,
    each timed on its own (the five solves of a deal's `simcore solve spades` row)."""
    tab = solver.table_of(spades.new_tables(1), 0)
    warm, _ = deal_masks(rng, 4, cards)
    for nil in (-1, 0):
        spades.solve_value(warm, 0, NO_TRICK, 0, False, True, nil, tab)
    solver.set_budget(tab, budget)
    times = {"tricks": [], "nil": []}
    nodes = {"tricks": [], "nil": []}
    out = 0
    for _ in range(n):
        hands, _ = deal_masks(rng, 4, cards)
        for nil in (-1, 0, 1, 2, 3):
            t = time.thread_time()
            spades.solve_value(hands, 0, NO_TRICK, 0, False, True, nil, tab)
            kind = "tricks" if nil < 0 else "nil"
            times[kind].append(time.thread_time() - t)
            nodes[kind].append(solver.nodes(tab))
            out += solver.aborted(tab)
    solver.set_budget(tab, 0)
    return times, nodes, out


def bench_euchre(rng, n):
    tab = solver.table_of(euchre.new_tables(1), 0)
    deck = [13 * s + r for s in range(4) for r in range(7, 13)]
    out = np.zeros(euchre.N_TABLE, np.int64)
    deals = []
    for _ in range(n + 1):
        hands, rest = deal_masks(rng, 4, 5, deck)
        deals.append((hands, rng.randrange(4), rest[0]))
    euchre.deal_table(*deals[0], tab, out)
    t = time.thread_time()
    for hands, dealer, upcard in deals[1:]:
        euchre.deal_table(hands, dealer, upcard, tab, out)
    elapsed = time.thread_time() - t
    nodes = []  # per solve, in a second (untimed) pass
    for hands, dealer, upcard in deals[1:]:
        for trump in range(4):
            for alone in range(-1, 4):
                euchre._table_entry(hands, dealer, upcard, trump, alone, tab)
                nodes.append(solver.nodes(tab))
    return n / elapsed, elapsed, nodes


def friend_team(hands, declarer, trump):
    """Declarer + the holder of the highest card of the call (TF-3 order) it lacks."""
    order = [1, 0, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2]  # ranks 3, 2, A, K, ..., 4
    suits = [trump] if trump < 4 else [3, 2, 1, 0]
    for r in order:
        for s in suits:
            c = 13 * s + r
            if not int(hands[declarer]) >> c & 1:
                holder = [p for p in range(5) if int(hands[p]) >> c & 1]
                return (1 << declarer) | (1 << holder[0] if holder else 0)
    return 1 << declarer


def bench_trump_friend(rng, n, cards=10):
    tab = solver.table_of(trump_friend.new_tables(1), 0)
    warm, _ = deal_masks(rng, 5, 3)
    trump_friend.solve_value(warm, 1, NO_TRICK, 0, 0, 1, tab)
    times, nodes = [], []
    for _ in range(n):
        hands, _ = deal_masks(rng, 5, cards)
        declarer = rng.randrange(5)
        for trump in range(5):
            team = friend_team(hands, declarer, trump)
            t = time.thread_time()
            trump_friend.solve_value(hands, (declarer + 1) % 5, NO_TRICK, 0, trump, team, tab)
            times.append(time.thread_time() - t)
            nodes.append(solver.nodes(tab))
    return times, nodes


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--spades", type=int, default=10, help="deals against DDS")
    p.add_argument("--spades-cards", type=int, default=13, help="cards a seat")
    p.add_argument("--spades-nil", type=int, default=3)
    p.add_argument("--spades-break", type=int, default=3)
    p.add_argument("--spades-budget", type=int, default=0,
                   help="node budget of the nil deals' solves (0 = none); solves that run out are counted")
    p.add_argument("--euchre", type=int, default=300)
    p.add_argument("--trump-friend", type=int, default=4, help="deals, each solved for 5 calls")
    p.add_argument("--trump-friend-cards", type=int, default=10, help="cards a seat (10 = full deal)")
    p.add_argument("--seed", type=int, default=1)
    a = p.parse_args()
    rng = random.Random(a.seed)
    k = a.spades_cards
    print("| solve | n | mean ms | median ms | max ms | nodes mean | nodes median | nodes max | note |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    if a.spades:
        ours, nodes, dds, agree = bench_spades(rng, a.spades, k, False, -1, True)
        ratio = np.mean(dds) / np.mean(ours)
        row(f"spades {k} cards, breaking off", ours, nodes,
            f"DDS mean {1000 * np.mean(dds):.2f} ms, median {1000 * np.median(dds):.2f} ms; "
            f"speed vs DDS {ratio:.3f}x (mean time ratio); values equal {agree}/{a.spades}")
    if a.spades_break:
        ours, nodes, _, _ = bench_spades(rng, a.spades_break, k, True, -1, False)
        row(f"spades {k} cards, breaking on", ours, nodes)
    if a.spades_nil:
        times, nodes, out = bench_spades_nil(rng, a.spades_nil, k, a.spades_budget)
        note = f"{out} solves ran out of the {a.spades_budget:,}-node budget" if a.spades_budget else ""
        row(f"spades {k} cards, breaking on, trick count (same deals)", times["tricks"], nodes["tricks"])
        row(f"spades {k} cards, breaking on, nil of each seat", times["nil"], nodes["nil"], note)
    if a.euchre:
        rate, elapsed, nodes = bench_euchre(rng, a.euchre)
        per = elapsed / len(nodes)  # the mean only: the table is timed as a whole
        row("euchre, one of the 20 table values (time = mean)", [per] * len(nodes), nodes,
            f"**{rate:,.0f} full 20-value tables/s** ({a.euchre} deals in {elapsed:.2f} s)")
    if a.trump_friend:
        k = a.trump_friend_cards
        times, nodes = bench_trump_friend(rng, a.trump_friend, k)
        row(f"trump friend, {k} cards a seat{' (full deal)' if k == 10 else ''}, one call",
            times, nodes)


if __name__ == "__main__":
    main()
