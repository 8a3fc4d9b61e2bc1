"""Interval estimates and tests used on every chart and answer (95% unless told otherwise).

- rates: Wilson score intervals; the difference of two rates: Newcombe's hybrid score interval;
- means: Student-t intervals (none for a group without variance: its t interval would have
  zero width), the difference of two independent means: Welch's t interval; paired
  differences are means of per-deal differences;
- means over seats of the same deals: intervals clustered by deal (``cluster_difference``),
  with n counted in deals;
- verdicts: an interval decides a sign when it excludes zero, and "about equal" only when it
  lies within a stated margin (``verdict``);
- distributions: a chi-square goodness-of-fit test.

All take per-group aggregates or whole arrays: no Python loop touches individual rows.
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
    """Student-t interval for a mean from its sample standard deviation and size; NaN for a
    group of one or a group without variance (every value equal: n = 2 or 3 groups of rare
    hands), whose t interval would have zero width and claim a certainty it does not have."""
    mean = np.asarray(mean, dtype=float)
    std = np.asarray(std, dtype=float)
    n = np.asarray(n, dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        half = stats.t.ppf(0.5 + confidence / 2, np.maximum(n - 1, 1)) * std / np.sqrt(n)
    half = np.where((n > 1) & (std > 0), half, np.nan)
    return mean - half, mean + half


def mean_interval(values, confidence: float = 0.95) -> tuple[float, float, float, int]:
    """(mean, low, high, n) of an array with its t interval (a paired comparison: the array of
    per-deal differences)."""
    v = np.asarray(values, dtype=float)
    v = v[np.isfinite(v)]
    if v.size == 0:
        return float("nan"), float("nan"), float("nan"), 0
    sd = float(v.std(ddof=1)) if v.size > 1 else float("nan")
    lo, hi = t_interval([v.mean()], [sd], [v.size], confidence)
    return float(v.mean()), float(lo[0]), float(hi[0]), int(v.size)


def welch_difference(mean_a, std_a, n_a, mean_b, std_b, n_b,
                     confidence: float = 0.95) -> tuple[float, float, float]:
    """a − b of two independent means and its Welch t interval (Welch-Satterthwaite degrees
    of freedom); NaN bounds when a side has fewer than two members or no variance at all."""
    va, vb = (np.nan if n < 2 else s * s / n for s, n in ((std_a, n_a), (std_b, n_b)))
    d = float(mean_a - mean_b)
    se2 = va + vb
    if not np.isfinite(se2) or se2 <= 0:
        return d, float("nan"), float("nan")
    dof = se2 ** 2 / ((va ** 2 / (n_a - 1) if va else 0.0) + (vb ** 2 / (n_b - 1) if vb else 0.0))
    half = float(stats.t.ppf(0.5 + confidence / 2, dof) * np.sqrt(se2))
    return d, d - half, d + half


def rate_difference(k_a, n_a, k_b, n_b, confidence: float = 0.95) -> tuple[float, float, float]:
    """p_a − p_b of two independent rates and Newcombe's hybrid score interval (his method 10,
    from the two Wilson intervals), which keeps its coverage near 0 and 1 where the normal
    interval fails."""
    if not n_a or not n_b:
        return float("nan"), float("nan"), float("nan")
    pa, pb = k_a / n_a, k_b / n_b
    (la, ua), (lb, ub) = ((float(x[0]) for x in wilson([k], [n], confidence)) for k, n in ((k_a, n_a), (k_b, n_b)))
    d = pa - pb
    low = d - np.sqrt((pa - la) ** 2 + (ub - pb) ** 2)
    high = d + np.sqrt((ua - pa) ** 2 + (pb - lb) ** 2)
    return float(d), float(low), float(high)


def cluster_difference(values, in_a, in_b, clusters, confidence: float = 0.95) -> tuple[float, float, float, int]:
    """mean(values | a) − mean(values | b) with an interval clustered by ``clusters`` (the
    deal): seats of one deal are not independent, so the variance is the sum over deals of
    each deal's squared contribution (the cluster-robust sandwich of the regression on a
    group indicator, with the G/(G − 1) small-sample factor), and n counts deals.  A t
    quantile with G − 1 degrees of freedom.  Returns (difference, low, high, deals)."""
    y = np.asarray(values, dtype=float)
    a, b = np.asarray(in_a, dtype=bool), np.asarray(in_b, dtype=bool)
    keep = a | b
    y, a, b, g = y[keep], a[keep], b[keep], np.asarray(clusters)[keep]
    na, nb = a.sum(), b.sum()
    if na == 0 or nb == 0:
        return float("nan"), float("nan"), float("nan"), 0
    ma, mb = y[a].mean(), y[b].mean()
    # each observation's influence on the difference of means
    infl = np.where(a, (y - ma) / na, -(y - mb) / nb)
    _, index = np.unique(g, return_inverse=True)
    per_cluster = np.bincount(index, infl)
    groups = per_cluster.size
    if groups < 2:
        return float(ma - mb), float("nan"), float("nan"), int(groups)
    var = groups / (groups - 1) * float((per_cluster ** 2).sum())
    if var <= 0:
        return float(ma - mb), float("nan"), float("nan"), int(groups)
    half = float(stats.t.ppf(0.5 + confidence / 2, groups - 1) * np.sqrt(var))
    return float(ma - mb), float(ma - mb - half), float(ma - mb + half), int(groups)


def verdict(low: float, high: float, margin: float, against: float = 0.0) -> str:
    """What a 95% interval decides about ``value − against``: ``"below"`` or ``"above"`` when
    it excludes zero, ``"equal"`` when it lies within ± ``margin`` (the same, to a stated
    margin), else ``"open"`` (the sample cannot tell; also when there is no interval)."""
    if not (np.isfinite(low) and np.isfinite(high)):
        return "open"
    low, high = low - against, high - against
    if high < 0:
        return "below"
    if low > 0:
        return "above"
    if margin > 0 and -margin <= low and high <= margin:
        return "equal"
    return "open"


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


def grouped_means(frame: pl.DataFrame, keys: list[str], columns: list[str]) -> pl.DataFrame:
    """Per group of ``keys`` (every row when empty): ``n`` and, for each column, its mean,
    ``_std`` and the t interval's ``_low`` / ``_high``."""
    aggs = [pl.len().alias("n")]
    for c in columns:
        aggs += [pl.col(c).cast(pl.Float64).mean().alias(c), pl.col(c).cast(pl.Float64).std().alias(f"{c}_std")]
    t = frame.group_by(keys).agg(aggs).sort(keys) if keys else frame.select(aggs)
    for c in columns:
        t = mean_table(t, c, c, f"{c}_std")
    return t


def cluster_means(frame: pl.DataFrame, keys: list[str], value: str, cluster: str = "deal",
                  confidence: float = 0.95) -> pl.DataFrame:
    """Per group of ``keys``: the mean of ``value`` over its rows with an interval clustered by
    ``cluster`` (rows of one deal — the seats of a table — are not independent): the
    cluster-robust variance of a mean, G/(G − 1) Σ_g (s_g − mean·m_g)² / (Σ m_g)², with s_g and m_g
    the sum and count of group rows in deal g, and a t quantile with G − 1 degrees of freedom.
    Columns: ``n`` (rows), ``deals`` (G), ``{value}``, ``{value}_low``, ``{value}_high``; no
    interval from fewer than two deals or without variance."""
    y = pl.col(value).cast(pl.Float64)
    per = frame.group_by([*keys, cluster]).agg(y.sum().alias("_s"), pl.len().alias("_m"))
    totals = per.group_by(keys).agg(pl.col("_s").sum().alias("_S"), pl.col("_m").sum().alias("n"),
                                    pl.len().alias("deals")) if keys else \
        per.select(pl.col("_s").sum().alias("_S"), pl.col("_m").sum().alias("n"), pl.len().alias("deals"))
    totals = totals.with_columns((pl.col("_S") / pl.col("n")).alias(value))
    joined = per.join(totals, on=keys) if keys else per.join(totals, how="cross")
    resid = joined.with_columns((pl.col("_s") - pl.col(value) * pl.col("_m")).pow(2).alias("_e2"))
    var = (resid.group_by(keys).agg(pl.col("_e2").sum()) if keys else resid.select(pl.col("_e2").sum()))
    t = totals.join(var, on=keys) if keys else totals.with_columns(var["_e2"])
    g = t["deals"].to_numpy().astype(float)
    with np.errstate(invalid="ignore", divide="ignore"):
        se = np.sqrt(g / (g - 1) * t["_e2"].to_numpy() / t["n"].to_numpy().astype(float) ** 2)
        half = stats.t.ppf(0.5 + confidence / 2, np.maximum(g - 1, 1)) * se
    half = np.where((g > 1) & (se > 0), half, np.nan)
    m = t[value].to_numpy()
    t = t.with_columns(pl.Series(f"{value}_low", m - half), pl.Series(f"{value}_high", m + half))
    t = t.select(*keys, "n", "deals", value, f"{value}_low", f"{value}_high")
    return t.sort(keys) if keys else t
