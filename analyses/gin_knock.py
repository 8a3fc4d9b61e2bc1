"""Gin Rummy: knock now, or wait?  And which knocking strategy wins games?

**What-if knock runs** (``simcore simulate gin-rummy --what-if knock``: every deal played once
per knock option of the non-dealer — ``now`` (at its first chance, deadwood ≤ the knock
limit), ``at7``, ``at4``, ``at1`` (only at deadwood ≤ 7, 4, 1) and ``gin`` — every other draw
the same; hands mode).  The dealer keeps the run's own knock policy: ``--policy knock=at10``
(the heuristic knocks at once: a naive opponent), or the expert's own timing (``--policy
expert``: a competent opponent).

- **Knock now or wait** (``gin_knock.png``): on every deal where the non-dealer's first chance
  to knock came with deadwood d ≥ 1 after t turns (the ``now`` row knocked then), the
  non-dealer's net points a hand (+ when it scores, − when the dealer does) with ``now`` minus
  with waiting for gin (``gin``), paired, by turns played × deadwood; ``gin_knock_wait.csv``
  also holds ``now`` against ``at4`` and ``at1`` where they would not knock at d.
- **Strategies against strategies** (a folder of what-if runs whose dealers play the options'
  rules: ``--policy knock=at10|at7|at4|at1|gin_only``): X against Y per hand (roles averaged,
  paired by deal) and the share of **games** to ``target`` X wins (GR-16), computed exactly
  from the hands measured by the chance of every score (a Markov chain over (X's score, Y's
  score, dealer): the built-in policies ignore the score, so hands are independent given the
  dealer; a void hand is dealt again by the same dealer), with a 95% interval from a bootstrap
  of the deals (both pools resampled together); ``gin_knock_matrix.png``.

**Ordinary runs**: the first player's share of games (games mode) or hands won.

The undercut bonus (GR-14, ``undercut_bonus``) and the gin bonus carry much of the answer: a
run with other rules (``--rules undercut_bonus=0``) is its own level (``--label``).
"""

from __future__ import annotations

import numba as nb
import numpy as np
import polars as pl

from analyses import common
from analyses.common import upper_first
from analyses.levels import mean_claim, rate_claim
from analyses.stats import grouped_means, mean_table, wilson
from simcore.errors import SimcoreError
from simcore.frames import seat_value

NAME = "gin_knock"
LEVELS = True
SEVERAL_RUNS = True
OPTIONS = ("now", "at7", "at4", "at1", "gin")
THRESHOLD = {"at7": 7, "at4": 4, "at1": 1, "gin": 0}
DEALER_POLICY = {"at7": "at7", "at4": "at4", "at1": "at1", "gin_only": "gin"}
STRATEGY_TEXT = {"now": "knock at once", "at7": "knock at ≤ 7", "at4": "knock at ≤ 4",
                 "at1": "knock at ≤ 1", "gin": "gin only", "expert timing": "the expert's own timing"}
TURNS = [(1, 6), (7, 10), (11, 14), (15, 18), (19, 999)]
DEADWOOD = [(1, 3), (4, 6), (7, 10)]
MARGIN = 1.0  # points a hand
BOOTSTRAP = 200   # deal resamples for the games-won interval (each exact: no simulation noise)
BOOT_SEED = 20260  # fixed: the interval is the same on every run


def _bucket(column: str, edges, name: str) -> pl.Expr:
    expr = None
    for lo, hi in edges:
        label = f"{lo}–{hi}" if hi < 999 else f"{lo}+"
        cond = pl.col(column).is_between(lo, hi)
        expr = pl.when(cond).then(pl.lit(label)) if expr is None else expr.when(cond).then(pl.lit(label))
    return expr.otherwise(pl.lit(None)).alias(name)


def _nd_net() -> pl.Expr:
    """The non-dealer's net points in the hand: + when it scores, − when the dealer does."""
    nd = 1 - pl.col("dealer").cast(pl.Int16)
    return (pl.when(pl.col("winner") == nd).then(pl.col("points"))
            .when(pl.col("winner") == pl.col("dealer")).then(-pl.col("points"))
            .otherwise(0).cast(pl.Float64))


def dealer_strategy(manifest: dict) -> str:
    """The dealer's knock rule in a what-if run, as an option label (``now`` … ``gin``), or
    ``expert timing`` for the expert's own."""
    knock = manifest["policies"].get("knock", "limit")
    if knock == "limit":
        return "expert timing" if "expert" in manifest["policies"].get("seats", []) else "gin"
    limit = int(manifest["rules"].get("knock_limit", 10))
    if knock.startswith("at") and knock[2:].isdigit() and int(knock[2:]) >= limit:
        return "now"
    return DEALER_POLICY.get(knock, knock)


def wait_deals(run: common.RunInput) -> pl.DataFrame:
    """Per deal where the non-dealer's first knock chance had deadwood ≥ 1: turns, deadwood and
    ``now`` − X for each waiting option X that would not knock then (null where it would)."""
    h = run.hands.select("deal", "option", "dealer", "end", "knocker", "turns", "deadwood0", "deadwood1",
                         _nd_net().alias("net"))
    nd = 1 - pl.col("dealer").cast(pl.Int64)
    first = (h.filter((pl.col("option") == "now") & (pl.col("end") == 1) & (pl.col("knocker") == nd))
             .select("deal", pl.col("turns").cast(pl.Int16).alias("turns"),
                     seat_value("deadwood", nd, 2).cast(pl.Int16).alias("deadwood"), pl.col("net").alias("now")))
    nets = h.collect().pivot("option", index="deal", values="net")
    out = first.collect().join(nets.drop("now"), on="deal")
    return out.with_columns(
        *[pl.when(pl.col("deadwood") > THRESHOLD[o]).then(pl.col("now") - pl.col(o)).alias(f"now_vs_{o}")
          for o in ("at4", "at1", "gin")],
        _bucket("turns", TURNS, "turn_group"), _bucket("deadwood", DEADWOOD, "deadwood_group")).sort("deal")


def wait_table(deals: pl.DataFrame) -> pl.DataFrame:
    parts = []
    for o in ("gin", "at1", "at4"):
        g = deals.filter(pl.col(f"now_vs_{o}").is_not_null())
        parts.append(grouped_means(g, ["turn_group", "deadwood_group"], [f"now_vs_{o}"])
                     .rename({f"now_vs_{o}": "change", f"now_vs_{o}_std": "change_std", f"now_vs_{o}_low": "change_low",
                              f"now_vs_{o}_high": "change_high"}).with_columns(pl.lit(o).alias("wait")))
    order = {f"{lo}–{hi}" if hi < 999 else f"{lo}+": i for i, (lo, hi) in enumerate(TURNS)}
    t = pl.concat(parts)
    return t.sort("wait", pl.col("turn_group").replace_strict(order, default=99), "deadwood_group").select(
        "wait", "turn_group", "deadwood_group", pl.exclude("wait", "turn_group", "deadwood_group"))


def wait_claims(deals: pl.DataFrame, opponent: str) -> list:
    """Knock now − wait for gin on four groups of hands: early (turns ≤ 10) or late, deadwood
    1–6 or 7–10."""
    claims = []
    for when, turns in (("early", pl.col("turns") <= 10), ("late", pl.col("turns") > 10)):
        for dw, cond in (("1–6", pl.col("deadwood") <= 6), ("7–10", pl.col("deadwood") >= 7)):
            g = deals.filter(turns & cond & pl.col("now_vs_gin").is_not_null())
            if not g.height:
                continue
            claims.append(mean_claim(f"gin.now_vs_gin.{when}.{dw}",
                                     f"Knock now instead of waiting for gin: {when} (turns {'≤' if when == 'early' else '>'} "
                                     f"10), deadwood {dw}", g["now_vs_gin"].to_numpy(), "points a hand",
                                     ("wait for gin", "knock now", "the same"), MARGIN, deals=g["deal"].to_numpy(),
                                     caveat=f"against {opponent}", group="gin.wait"))
    return claims


# ---------------------------------------------------------------- games from hands, exactly


def game_win(pool_x: np.ndarray, pool_y: np.ndarray, target: int, weights_x=None, weights_y=None) -> float:
    """X's chance to win a game to ``target`` from the hands measured: ``pool_x`` = X's net
    points as non-dealer against Y dealing, ``pool_y`` = Y's as non-dealer against X (each value
    equally likely, or by ``weights``); 0 = a void hand, dealt again by the same dealer, else
    the dealer alternates (GR-5); the first dealer a coin toss.  Exact: a backward pass over the
    score states (``_win_chance``)."""
    lx, ly = HandLaw(pool_x), HandLaw(pool_y)
    return lx.game_win(ly, target, weights_x, weights_y)


class HandLaw:
    """The distinct outcomes of a pool of hands (the non-dealer's net points) and, per hand,
    the index of its outcome: reweighting the pool (a bootstrap resample) is one bincount."""

    def __init__(self, pool):
        self.values, self.index = np.unique(np.asarray(pool, dtype=np.int64), return_inverse=True)

    def law(self, weights=None) -> tuple[np.ndarray, np.ndarray]:
        w = np.bincount(self.index, weights=weights, minlength=self.values.size).astype(np.float64)
        keep = self.values != 0
        if not keep.any() or w[keep].sum() <= 0:
            raise SimcoreError("every hand measured is void: no game can end")
        return self.values[keep], w[keep] / w[keep].sum()

    def game_win(self, other: "HandLaw", target: int, weights=None, other_weights=None) -> float:
        vx, px = self.law(weights)
        vy, py = other.law(other_weights)
        return float(_win_chance(int(target), np.maximum(vx, 0), np.maximum(-vx, 0), px,
                                 np.maximum(-vy, 0), np.maximum(vy, 0), py))


@nb.njit(cache=True)
def _win_chance(target, xa, xb, px, ya, yb, py):
    """X's chance to win from (0, 0), the first dealer a coin toss.  ``xa``/``xb``: the points X
    and Y score in a hand Y deals (X's pool), ``px`` their chances; ``ya``/``yb``, ``py`` the same
    for a hand X deals.  win0[a, b] (Y to deal) and win1[a, b] (X to deal) from the highest score
    total down: every hand that is not void raises the total, and the dealer alternates."""
    top = 0
    for k in range(xa.size):
        top = max(top, xa[k], xb[k])
    for k in range(ya.size):
        top = max(top, ya[k], yb[k])
    size = target + top + 1
    win0 = np.zeros((size, size))
    win1 = np.zeros((size, size))
    for a in range(target, size):
        for b in range(target):
            win0[a, b] = 1.0
            win1[a, b] = 1.0
    for s in range(2 * target - 2, -1, -1):
        for a in range(max(0, s - target + 1), min(s, target - 1) + 1):
            b = s - a
            acc = 0.0
            for k in range(px.size):
                acc += px[k] * win1[a + xa[k], b + xb[k]]
            win0[a, b] = acc
            acc = 0.0
            for k in range(py.size):
                acc += py[k] * win0[a + ya[k], b + yb[k]]
            win1[a, b] = acc
    return 0.5 * (win0[0, 0] + win1[0, 0])


def _pools(runs: list) -> dict[tuple[str, str], pl.DataFrame]:
    """(non-dealer strategy, dealer strategy) -> per-deal non-dealer net points (deal, net)."""
    pools = {}
    for r in runs:
        d = dealer_strategy(r.manifest)
        if d not in OPTIONS:
            continue
        frame = r.hands.select("deal", "option", _nd_net().alias("net")).collect()
        for (option,), g in frame.group_by("option"):
            if option in OPTIONS:
                pools[(option, d)] = g.select("deal", "net").sort("deal")
    return pools


def matrix(runs: list) -> pl.DataFrame | None:
    """Strategy X against Y for every pair the runs cover in both roles: the per-hand advantage
    (X's net points a hand, roles averaged, paired by deal; t) and the share of games to the
    target X wins (exact from the hands; 95% interval from a bootstrap of the shared deals)."""
    pools = _pools(runs)
    strategies = [o for o in OPTIONS if any(k[1] == o for k in pools)]
    if len(strategies) < 2:
        return None
    rules = runs[0].manifest["rules"]
    target = int(rules.get("target", 100))
    games_ok = rules.get("next_dealer", "alternate") == "alternate"
    rng = np.random.default_rng(BOOT_SEED)
    rows = []
    for i, x in enumerate(strategies):
        for y in strategies[i + 1:]:
            if (x, y) not in pools or (y, x) not in pools:
                continue
            joined = pools[(x, y)].join(pools[(y, x)], on="deal", suffix="_y")
            nx, ny = joined["net"].to_numpy(), joined["net_y"].to_numpy()
            adv = 0.5 * (nx - ny)
            row = {"x": x, "y": y, "n_paired": joined.height, "advantage": float(adv.mean()),
                   "advantage_std": float(adv.std(ddof=1))}
            if games_ok:
                lx, ly = HandLaw(nx), HandLaw(ny)
                row["game_win"] = lx.game_win(ly, target)
                boot = []
                for _ in range(BOOTSTRAP):
                    w = np.bincount(rng.integers(0, nx.size, nx.size), minlength=nx.size).astype(float)
                    boot.append(lx.game_win(ly, target, w, w))  # the same deals for both pools
                se = float(np.std(boot, ddof=1))
                row["game_win_low"], row["game_win_high"] = row["game_win"] - 1.96 * se, row["game_win"] + 1.96 * se
            rows.append(row)
    if not rows:
        return None
    t = mean_table(pl.DataFrame(rows), "advantage", "advantage", "advantage_std", "n_paired")
    flipped = t.select(pl.col("y").alias("x"), pl.col("x").alias("y"), "n_paired", -pl.col("advantage"),
                       "advantage_std", -pl.col("advantage_high").alias("advantage_low"),
                       -pl.col("advantage_low").alias("advantage_high"),
                       *([(1 - pl.col("game_win")).alias("game_win"), (1 - pl.col("game_win_high")).alias("game_win_low"),
                          (1 - pl.col("game_win_low")).alias("game_win_high")] if games_ok else []))
    order = {o: k for k, o in enumerate(OPTIONS)}
    both = pl.concat([t, flipped.select(t.columns)])
    return both.sort(pl.col("x").replace_strict(order), pl.col("y").replace_strict(order))


# ---------------------------------------------------------------- the analysis


def analyse(runs: list, data) -> common.Analysis:
    kinds = {common.what_if(r) is not None for r in runs}
    if kinds == {False}:
        return _first_player(runs, data)
    if len(kinds) > 1:
        raise SimcoreError(f"{data} mixes what-if and ordinary runs; put them in separate folders")
    bad = [r.path.name for r in runs if common.what_if(r) not in ("knock", "unknown decision")]
    if bad:
        raise SimcoreError(f"gin-knock reads --what-if knock runs; {', '.join(bad)} in {data} is another what-if")
    if len({tuple(sorted(r.manifest["rules"].items())) for r in runs}) > 1:
        raise SimcoreError(f"the what-if knock runs in {data} use different rules; give each rule set as its own "
                           "--data level")
    by_dealer = {dealer_strategy(r.manifest): r for r in runs}
    main_key = "expert timing" if "expert timing" in by_dealer else "now" if "now" in by_dealer else next(iter(by_dealer))
    main = by_dealer[main_key]
    opponent = f"a dealer playing {STRATEGY_TEXT.get(main_key, main_key)} ({common.policies_text(main.manifest)})"
    deals = wait_deals(main)
    table = wait_table(deals)
    claims = wait_claims(deals, opponent)
    level = common.level_text(main.manifest)
    rules = common.rules_text(main.manifest)
    note = (f"{level}; dealer: {STRATEGY_TEXT.get(main_key, main_key)}; rules {rules}; {deals.height:,} deals where the "
            f"non-dealer could knock with deadwood ≥ 1 (what-if knock, paired). Net points: the non-dealer's, + when it "
            f"scores. Groups of n < {common.MIN_N} not drawn.")
    figures = {}
    fig = common.figure(_wait_panels(table), f"Gin Rummy: knock at the first chance, or wait for gin? Against "
                                             f"{STRATEGY_TEXT.get(main_key, main_key)} (non-dealer's net points a "
                                             "hand, paired)", note)
    if fig is not None:
        figures[NAME] = fig
    mat = matrix(runs)
    tables = {f"{NAME}_wait": table}
    details = []
    if mat is not None:
        tables[f"{NAME}_matrix"] = mat
        target = main.manifest["rules"].get("target", 100)
        mfig = common.figure(_matrix_panels(mat), f"Gin Rummy: which knocking strategy wins games to {target}? (row "
                                                  "against column)",
                             f"{level}; rules {rules}; games computed exactly from the what-if hands "
                             f"({BOOTSTRAP} deal resamples for the 95% interval); per hand: roles averaged, paired.")
        if mfig is not None:
            figures[f"{NAME}_matrix"] = mfig
        if "game_win" in mat.columns:
            g = mat.filter((pl.col("x") == "gin") & (pl.col("y") == "now"))
            if g.height:
                r = g.row(0, named=True)
                details.append(f"In games to {target}, 'gin only' beats 'knock at once' {common.pct(r['game_win'])} "
                               f"[{common.pct(r['game_win_low'])}, {common.pct(r['game_win_high'])}] of the time.")
            top = (mat.group_by("x").agg(pl.col("game_win").min().alias("worst"))
                   .sort("worst", "x", descending=True).row(0, named=True))
            details.append(f"The strategy whose worst matchup is best: '{STRATEGY_TEXT[top['x']]}' (at least "
                           f"{common.pct(top['worst'])} of games against every other).")
    answer = _answer(claims, main_key, main.manifest)
    return common.Analysis(
        name="gin-knock", stem=NAME, title="Gin Rummy: knock now or wait", answer=answer, tables=tables,
        figures=figures, claims=claims, details=details,
        sample=f"{deals.height:,} first knock chances of the non-dealer in {main.hands.select(pl.col('deal').n_unique()).collect().item():,} "
               f"deals × {len(OPTIONS)} options from `{main.path}`" + (f"; {len(runs)} dealer strategies in `{data}`"
                                                                       if len(runs) > 1 else ""),
        level=level + f"; the dealer plays {STRATEGY_TEXT.get(main_key, main_key)}", rules=rules,
        method="what-if knock (hands mode): every deal once per non-dealer knock option, the same cards and streams; "
               "knock now − wait on the deals whose first chance came with deadwood ≥ 1, paired (t); games to the "
               "target computed exactly from the hands over the score states, interval from a bootstrap of the deals")


def _answer(claims, dealer: str, manifest: dict) -> str:
    by = {c.key: c for c in claims}
    parts = []
    for when in ("early", "late"):
        for dw in ("1–6", "7–10"):
            c = by.get(f"gin.now_vs_gin.{when}.{dw}")
            if c:
                parts.append(f"{when}, deadwood {dw}: {c.verdict} ({c.estimate()})")
    bonus = manifest["rules"].get("undercut_bonus", 25)
    text = (f"Against {STRATEGY_TEXT.get(dealer, dealer)}, knock now − wait for gin, points a hand: " + "; ".join(parts)
            + f". Undercut bonus {bonus} (GR-14): waiting is paid by the undercuts of the dealer's knocks.")
    return text


def _wait_panels(table: pl.DataFrame) -> list[common.Panel]:
    g = common.shown(table.filter(pl.col("wait") == "gin"))
    order = [f"{lo}–{hi}" if hi < 999 else f"{lo}+" for lo, hi in TURNS]

    def draw(ax):
        for dw, colour in zip([f"{lo}–{hi}" for lo, hi in DEADWOOD], ("#4C72B0", "#55A868", "#C44E52")):
            s = g.filter(pl.col("deadwood_group") == dw).with_columns(
                pl.col("turn_group").replace_strict({t: i for i, t in enumerate(order)}).alias("x")).sort("x")
            if s.height < 2:  # a lone point is not a line
                continue
            common.error_bars(ax, s["x"].to_numpy(), s, "change", "change_low", "change_high", fmt="o-", ms=3,
                              color=colour, label=f"deadwood {dw}")
        ax.axhline(0, color="grey", lw=0.8)
        ax.set_xticks(range(len(order)), order)
        ax.set_xlabel("turns played (both players) at the non-dealer's first chance to knock")
        ax.set_ylabel("knock now − wait for gin (points a hand)")
        ax.legend(fontsize=7)

    return [common.Panel("Knock now − wait for gin, by turns played and deadwood (95% t)", g.height, draw)]


def _matrix_panels(mat: pl.DataFrame) -> list[common.Panel]:
    strategies = [o for o in OPTIONS if o in set(mat["x"])]
    panels = []
    for col, fmt, title, centre in (("game_win", "{:.0%}", "Games won, row against column (95%)", 0.5),
                                    ("advantage", "{:+.1f}", "Net points a hand, row against column (95% t)", 0.0)):
        if col not in mat.columns:
            continue

        def draw(ax, col=col, fmt=fmt, centre=centre):
            grid = np.full((len(strategies), len(strategies)), np.nan)
            lows, highs = grid.copy(), grid.copy()
            for r in mat.iter_rows(named=True):
                i, j = strategies.index(r["x"]), strategies.index(r["y"])
                grid[i, j], lows[i, j], highs[i, j] = r[col], r[f"{col}_low"], r[f"{col}_high"]
            span = np.nanmax(np.abs(grid - centre)) or 1
            ax.imshow(grid, cmap="RdBu", vmin=centre - span, vmax=centre + span)
            for i in range(len(strategies)):
                for j in range(len(strategies)):
                    if i == j or np.isnan(grid[i, j]):
                        text = "—" if i == j else ""
                    else:
                        text = f"{fmt.format(grid[i, j])}\n[{fmt.format(lows[i, j])}, {fmt.format(highs[i, j])}]"
                    dark = not np.isnan(grid[i, j]) and abs(grid[i, j] - centre) > 0.6 * span
                    ax.text(j, i, text, ha="center", va="center", fontsize=7, color="white" if dark else "black")
            labels = [STRATEGY_TEXT[s] for s in strategies]
            ax.set_xticks(range(len(strategies)), labels, fontsize=7, rotation=20)
            ax.set_yticks(range(len(strategies)), labels, fontsize=7)

        panels.append(common.Panel(title, len(strategies), draw))
    return panels


def _first_player(runs: list, data) -> common.Analysis:
    """Ordinary runs: the first player's share of games (games mode) or of hands not void."""
    wins = n = 0
    unit = "games" if all(r.manifest.get("mode") == "games" for r in runs) else "hands"
    for r in runs:
        hands = common.one_row_per_deal(r)
        if unit == "games":
            first = hands.filter(pl.col("hand_no") == 0).select("game", (1 - pl.col("dealer")).alias("first"))
            g = r.games().join(first, on="game").select(pl.len().alias("n"),
                                                        (pl.col("winner") == pl.col("first")).sum().alias("w")).collect()
        else:
            g = hands.filter(pl.col("winner") >= 0).select(
                pl.len().alias("n"), (pl.col("winner") != pl.col("dealer")).sum().alias("w")).collect()
        n, wins = n + int(g["n"][0]), wins + int(g["w"][0])
    claim = rate_claim("gin.first_player", f"The first player's share of {unit} won (non-dealer of the first hand)",
                       wins, n, unit, ("the first player is at a disadvantage", "the first player has an advantage",
                                       "no first-player advantage"), margin=0.02)
    lo, hi = wilson([wins], [n])
    table = pl.DataFrame({"unit": [unit], "n": [n], "first_wins": [wins], "rate": [wins / n if n else float("nan")],
                          "rate_low": [float(lo[0])], "rate_high": [float(hi[0])]})
    m = runs[0].manifest
    return common.Analysis(
        name="gin-knock", stem=NAME, title="Gin Rummy: the first player's advantage",
        answer=f"{upper_first(claim.verdict)}: the first player wins {claim.estimate()} of {n:,} {unit}.",
        tables={NAME: table}, figures={}, claims=[claim], sample=f"{n:,} {unit} from `{data}`",
        level=common.level_text(m), rules=common.rules_text(m), method="Wilson interval for the share of games won")
