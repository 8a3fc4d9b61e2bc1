"""Gin Rummy scoring (GR-10 ... GR-18) as pure functions of deadwoods, totals and the options.

Jitted for the engine and callable from Python as they are (tests, analyses).
"""

import numba as nb

from simcore.games.gin_rummy.layout import END_GIN, END_KNOCK


@nb.njit(cache=True)
def hand_result(knocker_deadwood, defender_deadwood, gin_bonus, undercut_bonus):
    """A knocked hand, the defender's lay-offs made: (end, knocker_won, points).

    Gin (no deadwood) scores the bonus and the defender's deadwood (GR-10, GR-15); a knock with
    less deadwood scores the difference (GR-13); otherwise the defender undercuts, ties
    included, and scores the difference and the undercut bonus (GR-14)."""
    if knocker_deadwood == 0:
        return END_GIN, True, gin_bonus + defender_deadwood
    if knocker_deadwood < defender_deadwood:
        return END_KNOCK, True, defender_deadwood - knocker_deadwood
    return END_KNOCK, False, knocker_deadwood - defender_deadwood + undercut_bonus


@nb.njit(cache=True)
def game_result(total0, total1, won0, won1, shutout_doubles, game_bonus, box_bonus, box_both):
    """A finished game: (winner, winner's final, loser's final, shutout).

    The higher total wins (seat 0 on a tie).  A shutout (the loser scored nothing and won no
    hand) doubles the winner's hand points when ``shutout_doubles`` (GR-18), before the game
    bonus and the box bonus per hand won (GR-17); with ``box_both`` the loser's hands won earn
    the box bonus too."""
    winner = 0 if total0 >= total1 else 1
    final_w, won_w = (total0, won0) if winner == 0 else (total1, won1)
    final_l, won_l = (total1, won1) if winner == 0 else (total0, won0)
    shutout = final_l == 0 and won_l == 0
    if shutout and shutout_doubles:
        final_w *= 2
    final_w += game_bonus + box_bonus * won_w
    if box_both:
        final_l += box_bonus * won_l
    return winner, final_w, final_l, shutout
