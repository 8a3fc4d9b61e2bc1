"""The statistics behind every answer (analyses/stats.py, the Gin games computation), each
checked against a known case: textbook values, scipy, an independent matrix computation or an
exact recursion."""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np
import polars as pl
import pytest
from scipy import stats

from analyses.levels import Claim, Level, difference, mean_claim
from analyses.stats import (chi_square, cluster_difference, cluster_means, mean_interval, rate_difference,
                            t_interval, verdict, welch_difference, wilson)

RNG = np.random.default_rng(37)


# ---------------------------------------------------------------- rates and means


@pytest.mark.parametrize("k, n, low, high", [
    # Newcombe (1998), Statistics in Medicine 17:857, Table I, method 3 (Wilson score)
    (81, 263, 0.2553, 0.3662),
    (15, 148, 0.0624, 0.1605),
    (0, 20, 0.0000, 0.1611),
    (1, 29, 0.0061, 0.1718),
])
def test_wilson_matches_textbook_values(k, n, low, high):
    lo, hi = wilson([k], [n])
    assert lo[0] == pytest.approx(low, abs=5e-5)
    assert hi[0] == pytest.approx(high, abs=5e-5)


def test_wilson_matches_scipy_on_random_counts():
    n = RNG.integers(1, 5000, 200)
    k = RNG.integers(0, n + 1)
    lo, hi = wilson(k, n)
    for i in range(len(n)):
        ci = stats.binomtest(int(k[i]), int(n[i])).proportion_ci(0.95, method="wilson")
        assert lo[i] == pytest.approx(ci.low, abs=1e-9) and hi[i] == pytest.approx(ci.high, abs=1e-9)
    assert np.isnan(wilson([0], [0])[0][0])


def test_t_interval_matches_scipy_and_refuses_groups_without_variance():
    lo, hi = t_interval([10.0], [2.0], [16])
    assert (lo[0], hi[0]) == pytest.approx(stats.t.interval(0.95, 15, loc=10, scale=2 / 4))
    assert np.isnan(t_interval([1.0], [0.0], [1])[0][0])
    # n = 3 hands that all scored the same: no interval, not one of zero width
    lo, hi = t_interval([4.0], [0.0], [3])
    assert np.isnan(lo[0]) and np.isnan(hi[0])
    v = RNG.normal(1, 3, 50)
    m, lo, hi, n = mean_interval(v)
    ref = stats.ttest_1samp(v, 0).confidence_interval(0.95)
    assert (lo, hi) == pytest.approx((ref.low, ref.high)) and m == pytest.approx(v.mean()) and n == 50


def test_welch_difference_matches_scipy():
    for _ in range(20):
        a, b = RNG.normal(0, 2, RNG.integers(3, 200)), RNG.normal(0.5, 5, RNG.integers(3, 200))
        d, lo, hi = welch_difference(a.mean(), a.std(ddof=1), a.size, b.mean(), b.std(ddof=1), b.size)
        ref = stats.ttest_ind(a, b, equal_var=False).confidence_interval(0.95)
        assert d == pytest.approx(a.mean() - b.mean())
        assert (lo, hi) == pytest.approx((ref.low, ref.high))
    assert np.isnan(welch_difference(1, 0, 5, 1, 0, 5)[1])


@pytest.mark.parametrize("a, b, low, high", [
    # Newcombe (1998), Statistics in Medicine 17:873, Table II, method 10 (hybrid score)
    ((56, 70), (48, 80), 0.0524, 0.3339),
    ((9, 10), (3, 10), 0.1705, 0.8090),
    ((5, 56), (0, 29), -0.0381, 0.1926),
    ((0, 10), (0, 20), -0.1611, 0.2775),
    ((10, 10), (0, 20), 0.6791, 1.0000),
])
def test_rate_difference_matches_newcombes_table(a, b, low, high):
    d, lo, hi = rate_difference(*a, *b)
    assert d == pytest.approx(a[0] / a[1] - b[0] / b[1])
    assert lo == pytest.approx(low, abs=5e-4) and hi == pytest.approx(high, abs=5e-4)


# ---------------------------------------------------------------- clustered intervals


def sandwich(y, x, groups):
    """Cluster-robust (CR1 with the G/(G − 1) factor only) covariance of OLS coefficients,
    computed with matrices: the independent oracle of the cluster formulas."""
    xtx_inv = np.linalg.inv(x.T @ x)
    beta = xtx_inv @ x.T @ y
    e = y - x @ beta
    meat = np.zeros((x.shape[1], x.shape[1]))
    ids = np.unique(groups)
    for g in ids:
        s = x[groups == g].T @ e[groups == g]
        meat += np.outer(s, s)
    g = ids.size
    return beta, g / (g - 1) * xtx_inv @ meat @ xtx_inv, g


def test_cluster_difference_is_the_clustered_regression_on_a_group_indicator():
    deals = np.repeat(np.arange(60), 4)  # four seats a deal
    a = RNG.random(deals.size) < 0.3
    b = ~a & (RNG.random(deals.size) < 0.8)
    y = RNG.normal(0, 10, deals.size) + np.repeat(RNG.normal(0, 10, 60), 4) + 3 * a  # a shared deal effect
    d, lo, hi, g = cluster_difference(y, a, b, deals)
    keep = a | b
    x = np.column_stack([np.ones(keep.sum()), a[keep].astype(float)])
    beta, cov, groups = sandwich(y[keep], x, deals[keep])
    half = stats.t.ppf(0.975, groups - 1) * math.sqrt(cov[1, 1])
    assert g == groups and d == pytest.approx(beta[1])
    assert (lo, hi) == pytest.approx((beta[1] - half, beta[1] + half))


def test_cluster_intervals_are_the_plain_ones_when_every_deal_has_one_seat():
    y = RNG.normal(2, 3, 80)
    frame = pl.DataFrame({"deal": np.arange(80), "v": y, "k": np.zeros(80, int)})
    t = cluster_means(frame, ["k"], "v").row(0, named=True)
    ref = stats.ttest_1samp(y, 0).confidence_interval(0.95)
    assert t["deals"] == 80 and (t["v_low"], t["v_high"]) == pytest.approx((ref.low, ref.high))


def test_cluster_means_are_the_clustered_regression_on_a_constant():
    deals = np.repeat(np.arange(40), 4)
    y = RNG.normal(0, 5, deals.size) + np.repeat(RNG.normal(0, 5, 40), 4)
    group = RNG.integers(0, 2, deals.size)
    frame = pl.DataFrame({"deal": deals, "v": y, "k": group})
    t = cluster_means(frame, ["k"], "v")
    for k in (0, 1):
        sel = group == k
        beta, cov, g = sandwich(y[sel], np.ones((sel.sum(), 1)), deals[sel])
        half = stats.t.ppf(0.975, g - 1) * math.sqrt(cov[0, 0])
        r = t.filter(pl.col("k") == k).row(0, named=True)
        assert r["deals"] == g and r["v"] == pytest.approx(beta[0])
        assert (r["v_low"], r["v_high"]) == pytest.approx((beta[0] - half, beta[0] + half))


# ---------------------------------------------------------------- verdicts and levels


def test_verdicts_decide_a_sign_or_equality_within_a_margin_only():
    assert verdict(-2, -1, 0.5) == "below" and verdict(1, 2, 0.5) == "above"
    assert verdict(-0.2, 0.3, 0.5) == "equal"
    assert verdict(-0.2, 0.6, 0.5) == "open"  # spans zero but wider than the margin: undecided
    assert verdict(-0.2, 0.3, 0.0) == "open"  # no margin stated: never "the same"
    assert verdict(float("nan"), 1, 0.5) == "open"
    assert verdict(0.55, 0.6, 0.1, against=0.5) == "above"


def test_a_claim_with_few_deals_has_no_verdict():
    c = mean_claim("k", "q", RNG.normal(5, 1, 10), "points", ("less", "more", "same"), 0.5)
    assert c.low > 0 and c.outcome == "small" and c.verdict == "not enough deals (n = 10)"
    c = mean_claim("k", "q", RNG.normal(5, 1, 100), "points", ("less", "more", "same"), 0.5)
    assert c.verdict == "more"


def test_levels_are_paired_on_the_deals_they_share_and_welch_otherwise():
    deals = np.arange(500)
    common = RNG.normal(0, 10, 500)  # the deal's own effect, shared by both levels
    a = mean_claim("k", "q", common + RNG.normal(0, 1, 500), "p", ("l", "h", "s"), 0.1, deals=deals)
    b = mean_claim("k", "q", common[:300] + 0.5 + RNG.normal(0, 1, 300), "p", ("l", "h", "s"), 0.1,
                   deals=deals[:300])
    same = dict(game="g", seed=1, rules={}, predeal=None, conditions=None)
    level = lambda label, seed: Level(label, None, [type("R", (), {"manifest": dict(same, seed=seed), "solved": False})()])
    d = difference(a, b, level("a", 1), level("b", 1))
    diffs = b.deals["value"].to_numpy() - a.deals["value"].to_numpy()[:300]
    ref = stats.ttest_1samp(diffs, 0).confidence_interval(0.95)
    assert d.paired and d.n == 300 and d.value == pytest.approx(diffs.mean())
    assert (d.low, d.high) == pytest.approx((ref.low, ref.high)) and d.verdict == "differs"
    d = difference(a, b, level("a", 1), level("b", 2))  # another seed: other deals
    assert not d.paired and d.high - d.low > 5 * (ref.high - ref.low)
    r = difference(Claim("k", "q", 0.5, 0, 1, 100, successes=50), Claim("k", "q", 0.6, 0, 1, 100, successes=60),
                   level("a", 1), level("b", 2))
    assert (r.value, r.low, r.high) == pytest.approx(rate_difference(60, 100, 50, 100))


def test_chi_square_matches_scipy_without_pooling_and_pools_small_bins():
    obs = [18, 22, 30, 30]
    p = [0.2, 0.2, 0.3, 0.3]
    stat, dof, pv = chi_square(obs, p)
    ref = stats.chisquare(obs, np.array(p) * sum(obs))
    assert stat == pytest.approx(ref.statistic) and pv == pytest.approx(ref.pvalue) and dof == 3
    stat, dof, pv = chi_square([50, 48, 1, 1], [0.49, 0.49, 0.01, 0.01])
    assert dof == 1 and 0 <= pv <= 1
    assert chi_square([1, 1], [1.0, 0.0])[2] == 0.0


# ---------------------------------------------------------------- Gin games from hands


def exact_game_win(pool_x, pool_y, target):
    """Oracle: X's chance to win a game to ``target`` by plain recursion over (scores, dealer)."""
    def outcomes(pool, x_is_nondealer):
        gains = [v if x_is_nondealer else -v for v in pool]
        void = gains.count(0) / len(gains)
        return [(g, 1 / len(gains)) for g in gains if g != 0], void

    @lru_cache(maxsize=None)
    def p(tx, ty, x_deals):
        if tx >= target:
            return 1.0
        if ty >= target:
            return 0.0
        moves, void = outcomes(pool_y if x_deals else pool_x, not x_deals)
        return sum(w * p(tx + max(g, 0), ty + max(-g, 0), not x_deals) for g, w in moves) / (1 - void)

    return 0.5 * p(0, 0, True) + 0.5 * p(0, 0, False)


@pytest.mark.parametrize("pool_x, pool_y, target", [
    ([30, -20, 0, 50], [40, -30, 0, -10], 100), ([100, -100], [100, -100], 100), ([60], [-10], 100),
    ([20, 20, -40, 0, 0], [10, -60, 30], 100), ([1, -1], [1, -1], 3), ([7, -3, 12, -25], [5, 5, -9], 40)])
def test_games_from_hands_match_the_exact_recursion(pool_x, pool_y, target):
    from analyses.gin_knock import game_win

    assert game_win(np.array(pool_x), np.array(pool_y), target) == pytest.approx(
        exact_game_win(tuple(pool_x), tuple(pool_y), target), abs=1e-12)


def test_games_from_hands_closed_forms_and_weights():
    from analyses.gin_knock import game_win
    from simcore.errors import SimcoreError

    # one hand decides a game to 1: X wins its own non-dealer hands with chance p, loses Y's with q
    assert game_win(np.array([1, 1, -1]), np.array([1]), 1) == pytest.approx(0.5 * (2 / 3) + 0.5 * 0)
    # a weight of 2 counts a hand twice
    assert game_win(np.array([1, -1]), np.array([1, -1]), 1, [2, 1], [1, 1]) == pytest.approx(
        game_win(np.array([1, 1, -1]), np.array([1, -1]), 1))
    with pytest.raises(SimcoreError, match="void"):
        game_win(np.zeros(3), np.zeros(3), 100)
