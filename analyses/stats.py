"""Interval estimates used on every chart (95% unless told otherwise).

Rates get Wilson score intervals (scipy's ``binomtest(...).proportion_ci``), means get
Student-t intervals.  Both take the per-group aggregates polars computes, so no Python loop
ever touches individual rows.
"""

from __future__ import annotations

import numpy as np
import polars as pl
from scipy import stats


def wilson(successes, trials, confidence: float = 0.95) -> tuple[np.ndarray, np.ndarray]:
    """Wilson score interval for each (successes, trials) pair; NaN where trials == 0."""
    k = np.asarray(successes, dtype=np.int64)
    n = np.asarray(trials, dtype=np.int64)
    low = np.full(k.shape, np.nan)
    high = np.full(k.shape, np.nan)
    for i in np.ndindex(k.shape):
        if n[i] > 0:
            ci = stats.binomtest(int(k[i]), int(n[i])).proportion_ci(confidence, method="wilson")
            low[i], high[i] = ci.low, ci.high
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


def rate_table(frame: pl.DataFrame, success: str = "successes", trials: str = "n") -> pl.DataFrame:
    """Add ``rate``, ``rate_low`` and ``rate_high`` columns to a frame of per-group counts."""
    low, high = wilson(frame[success].to_numpy(), frame[trials].to_numpy())
    return frame.with_columns(
        (pl.col(success) / pl.col(trials)).alias("rate"),
        pl.Series("rate_low", low),
        pl.Series("rate_high", high),
    )


def mean_table(frame: pl.DataFrame, prefix: str, mean: str, std: str, n: str = "n") -> pl.DataFrame:
    """Add ``{prefix}_low`` and ``{prefix}_high`` t-interval columns for a mean column."""
    low, high = t_interval(frame[mean].to_numpy(), frame[std].to_numpy(), frame[n].to_numpy())
    return frame.with_columns(pl.Series(f"{prefix}_low", low), pl.Series(f"{prefix}_high", high))
