"""Interval estimates and tests used on every chart (95% unless told otherwise).

Rates get Wilson score intervals, means get Student-t intervals, distributions get a
chi-square goodness-of-fit test.  All take the per-group aggregates polars computes, so no
Python loop ever touches individual rows.
"""

from __future__ import annotations

import numpy as np
import polars as pl
from scipy import stats


def wilson(successes, trials, confidence: float = 0.95) -> tuple[np.ndarray, np.ndarray]:
    """Wilson score interval for each (successes, trials) pair; NaN where trials == 0.

    The closed form (Wilson 1927), the same as scipy's ``binomtest(k, n).proportion_ci(
    method="wilson")`` (a test checks both), vectorised over the groups."""
    k = np.asarray(successes, dtype=float)
    n = np.asarray(trials, dtype=float)
    if np.any(k < 0) or np.any(k > n):
        raise ValueError("successes must lie between 0 and the number of trials")
    z = stats.norm.ppf(0.5 + confidence / 2)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = k / n
        centre = (p + z * z / (2 * n)) / (1 + z * z / n)
        half = z / (1 + z * z / n) * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
        low, high = centre - half, centre + half
    low = np.where(n > 0, np.clip(low, 0.0, 1.0), np.nan)
    high = np.where(n > 0, np.clip(high, 0.0, 1.0), np.nan)
    return low, high


def t_interval(mean, std, n, confidence: float = 0.95) -> tuple[np.ndarray, np.ndarray]:
    """Student-t interval for a mean from its sample standard deviation and size."""
    mean = np.asarray(mean, dtype=float)
    std = np.asarray(std, dtype=float)
    n = np.asarray(n, dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        half = stats.t.ppf(0.5 + confidence / 2, np.maximum(n - 1, 1)) * std / np.sqrt(n)
    half = np.where(n > 1, half, np.nan)
    return mean - half, mean + half


def rate_table(frame: pl.DataFrame, success: str = "successes", trials: str = "n",
               prefix: str = "rate") -> pl.DataFrame:
    """Add ``{prefix}``, ``{prefix}_low`` and ``{prefix}_high`` columns to per-group counts."""
    low, high = wilson(frame[success].to_numpy(), frame[trials].to_numpy())
    return frame.with_columns(
        (pl.col(success) / pl.col(trials)).alias(prefix),
        pl.Series(f"{prefix}_low", low),
        pl.Series(f"{prefix}_high", high),
    )


def mean_table(frame: pl.DataFrame, prefix: str, mean: str, std: str, n: str = "n") -> pl.DataFrame:
    """Add ``{prefix}_low`` and ``{prefix}_high`` t-interval columns for a mean column."""
    low, high = t_interval(frame[mean].to_numpy(), frame[std].to_numpy(), frame[n].to_numpy())
    return frame.with_columns(pl.Series(f"{prefix}_low", low), pl.Series(f"{prefix}_high", high))


def mean_aggs(value: pl.Expr, prefix: str) -> list[pl.Expr]:
    """polars aggregations for ``mean_table``: ``{prefix}`` (mean) and ``{prefix}_std``."""
    v = value.cast(pl.Float64)
    return [v.mean().alias(prefix), v.std().alias(f"{prefix}_std")]


def chi_square(observed, probabilities, min_expected: float = 5.0) -> tuple[float, int, float]:
    """Pearson goodness-of-fit of counts against exact probabilities: (statistic, degrees of
    freedom, p-value).  Neighbouring bins are pooled until each expects at least
    ``min_expected`` (the usual condition for the chi-square approximation); bins the exact
    law gives probability 0 must be empty, else the p-value is 0."""
    obs = np.asarray(observed, dtype=float)
    prob = np.asarray(probabilities, dtype=float)
    if obs.shape != prob.shape or obs.ndim != 1:
        raise ValueError("observed and probabilities must be 1-d and of the same length")
    if np.any(obs[prob == 0] > 0):
        return float("inf"), max(int((prob > 0).sum()) - 1, 0), 0.0
    obs, prob = obs[prob > 0], prob[prob > 0] / prob[prob > 0].sum()
    expected = obs.sum() * prob
    pooled_o, pooled_e, acc_o, acc_e = [], [], 0.0, 0.0
    for o, e in zip(obs, expected):
        acc_o, acc_e = acc_o + o, acc_e + e
        if acc_e >= min_expected:
            pooled_o.append(acc_o)
            pooled_e.append(acc_e)
            acc_o = acc_e = 0.0
    if acc_e > 0:
        if pooled_e:
            pooled_o[-1] += acc_o
            pooled_e[-1] += acc_e
        else:
            pooled_o, pooled_e = [acc_o], [acc_e]
    dof = len(pooled_o) - 1
    if dof < 1:
        return 0.0, 0, 1.0
    o, e = np.array(pooled_o), np.array(pooled_e)
    statistic = float(((o - e) ** 2 / e).sum())
    return statistic, dof, float(stats.chi2.sf(statistic, dof))


def group_moments(keys, columns: dict, key: str = "key") -> pl.DataFrame:
    """Per distinct key: ``n`` and, for each named value array, ``{name}_sum``, ``{name}`` (the
    mean) and ``{name}_std`` (sample standard deviation; NaN when n = 1).

    The same figures as a polars ``group_by(...).agg(sum, mean, std)``, computed with
    ``np.bincount`` (one pass per column, no hashing), which is several times faster on tens of
    millions of rows with small integer keys.  Keys outside 0 … 2**20 go through ``np.unique``."""
    keys = np.asarray(keys).astype(np.int64)
    if keys.size and keys.min() >= 0 and keys.max() < 1 << 20:
        index, size = keys, int(keys.max()) + 1
        values = np.arange(size)
    else:
        values, index = np.unique(keys, return_inverse=True)
        size = values.size
    n = np.bincount(index, minlength=size)
    out = {key: values, "n": n}
    with np.errstate(invalid="ignore", divide="ignore"):
        for name, v in columns.items():
            v = np.asarray(v, dtype=float)
            s1 = np.bincount(index, v, minlength=size)
            s2 = np.bincount(index, v * v, minlength=size)
            mean = s1 / n
            var = np.maximum(s2 - s1 * mean, 0) / (n - 1)
            out[f"{name}_sum"] = s1
            out[name] = mean
            out[f"{name}_std"] = np.where(n > 1, np.sqrt(var), np.nan)
    return pl.DataFrame(out).filter(pl.col("n") > 0)
