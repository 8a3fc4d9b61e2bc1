"""Gin Rummy: is it worth holding out instead of knocking, and does the first player have an
advantage?

**What-if knock runs** (``simcore simulate gin-rummy --what-if knock``: every deal played once
per knock option of the non-dealer — ``now`` (at the first chance), ``at7``, ``at4``, ``at1``,
``gin`` — every other random draw the same; hands mode).  ``--data`` is one such run or a
folder of them that differ in the **dealer's** knock policy (``--policy knock=limit|at7|at4|
at1|gin_only``), and writes:

- per (run, option): the non-dealer's net points per hand (t) and the paired change against
  ``now`` (same deal, t), its hand win rate, how often the dealer's knock was undercut, the
  non-dealer's undercut and gin rates, void hands (Wilson) → ``gin_knock_whatif.csv``;
- with runs whose dealer plays the thresholds the options name (``limit`` = ``now``, ``atN``,
  ``gin_only`` = ``gin``), a strategy-against-strategy matrix: the per-hand advantage of
  strategy X over Y, both roles averaged and paired by deal (t), → ``gin_knock_matrix.csv``;
  and the **game** win rate of X against Y (games to ``target``, GR-16), assembled from those
  hands: the built-in policies never look at the score, so a game is a sequence of independent
  hands whose dealer alternates (a void hand is dealt again by the same dealer, GR-5/GR-12); the
  games are drawn from the hands measured, with a bootstrap 95% interval (resampled hands).

**Ordinary runs**: one run gives the first player's advantage (the non-dealer of the game's
first hand, GR-5, GR-7: games in games mode, hands not void in hands mode); a folder of
games-mode runs that differ in the ``knock`` policy compares their game win rates (the earlier
user-policy method; ``scripts/make_results.py`` no longer makes those runs, since a user policy
costs an uncached compile).

Writes ``gin_knock.png``, ``gin_knock.csv`` (one row per run), the tables above and
``gin_knock.md``.
"""

from __future__ import annotations

from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import polars as pl

from analyses import common
from analyses.stats import mean_aggs, mean_table, rate_table

NAME = "gin_knock"


def threshold(manifest: dict) -> int:
    """The run's knock threshold in deadwood points: gin_only = 0, atN = N, limit = the rule."""
    knock = manifest["policies"].get("knock", "limit")
    limit = int(manifest["rules"].get("knock_limit", 10))
    if knock == "gin_only":
        return 0
    if knock.startswith("at"):
        return min(int(knock[2:]), limit)
    return limit


def knock_seats(manifest: dict) -> list[int]:
    """The seats the ``knock`` decision steers (heuristic play policy)."""
    return [s for s, p in enumerate(manifest["policies"]["seats"]) if p == "heuristic"]


def run_row(run: common.RunInput) -> dict:
    """One run's outcome counts (games mode: games; hands mode: hands not void)."""
    m = run.manifest
    row = {"run": run.path.name, "knock": m["policies"].get("knock", "limit"), "threshold": threshold(m),
           "seat0_policy": m["policies"]["seats"][0], "seat1_policy": m["policies"]["seats"][1],
           "mode": m["mode"], "seed": m["seed"]}
    hands = common.one_row_per_deal(run)
    net0 = (pl.when(pl.col("winner") == 0).then(pl.col("points")).when(pl.col("winner") == 1)
            .then(-pl.col("points")).otherwise(0)).cast(pl.Float64)
    per_hand = hands.select(pl.len().alias("hands"), (pl.col("winner") >= 0).sum().alias("decided"),
                            (pl.col("winner") == 0).sum().alias("hands_won0"),
                            *mean_aggs(net0, "points0")).collect().row(0, named=True)
    row.update(per_hand)
    if m["mode"] == "games":
        first = (hands.filter(pl.col("hand_no") == 0)
                 .select("game", (1 - pl.col("dealer")).cast(pl.Int8).alias("first_player")))
        g = (run.games().join(first, on="game", how="left")
             .select(pl.len().alias("n"), (pl.col("winner") == 0).sum().alias("wins0"),
                     (pl.col("winner") == 1).sum().alias("wins1"),
                     (pl.col("winner") == pl.col("first_player")).sum().alias("first_wins"))
             .collect().row(0, named=True))
        row.update(unit="games", **g)
    else:
        non_dealer = (hands.filter(pl.col("winner") >= 0)
                      .select(pl.len().alias("n"), (pl.col("winner") == 0).sum().alias("wins0"),
                              (pl.col("winner") == 1).sum().alias("wins1"),
                              (pl.col("winner") != pl.col("dealer")).sum().alias("first_wins"))
                      .collect().row(0, named=True))
        row.update(unit="hands", **non_dealer)
    return row


def table(runs: list[common.RunInput]) -> pl.DataFrame:
    t = pl.DataFrame([run_row(r) for r in runs]).sort("threshold", "run")
    t = rate_table(t, "wins0", "n", "win_rate0")
    t = rate_table(t, "wins1", "n", "win_rate1")
    t = rate_table(t, "first_wins", "n", "first_player_rate")
    return mean_table(t.rename({"hands": "n_hands"}), "points0", "points0", "points0_std", "n_hands")


# ---------------------------------------------------------------- what-if knock runs

OPTIONS = ("now", "at7", "at4", "at1", "gin")
# the dealer's ``knock`` policy that plays the same rule as a what-if option
DEALER_POLICY = {"limit": "now", "at7": "at7", "at4": "at4", "at1": "at1", "gin_only": "gin"}
STRATEGY_TEXT = {"now": "knock at once", "at7": "knock at ≤ 7", "at4": "knock at ≤ 4",
                 "at1": "knock at ≤ 1", "gin": "gin only"}
GAMES = 20_000          # games drawn for each point estimate
BOOT, BOOT_GAMES = 100, 5_000  # bootstrap replicates, games per replicate
MAX_HANDS = 1_000       # a game longer than this (all void hands) stops the assembly with an error


def _nd_net() -> pl.Expr:
    """The non-dealer's net points in the hand: + when it scores, − when the dealer does."""
    nd = 1 - pl.col("dealer").cast(pl.Int16)
    return (pl.when(pl.col("winner") == nd).then(pl.col("points"))
            .when(pl.col("winner") == pl.col("dealer")).then(-pl.col("points"))
            .otherwise(0).cast(pl.Float64))


def dealer_strategy(manifest: dict) -> str:
    """The dealer's knock rule in a what-if run, as an option label (``now`` … ``gin``), or the
    policy's own name when no option plays it."""
    knock = manifest["policies"].get("knock", "limit")
    if knock == "limit" and "expert" in manifest["policies"].get("seats", []):
        return "expert timing"  # the expert's own knock timing, not knocking at once
    limit = int(manifest["rules"].get("knock_limit", 10))
    if knock.startswith("at") and knock[2:].isdigit() and int(knock[2:]) >= limit:
        return "now"  # a fixed threshold at the rule's limit is knocking at the first chance
    return DEALER_POLICY.get(knock, knock)


def whatif_rows(run: common.RunInput) -> pl.DataFrame:
    """Per option of one what-if knock run: the non-dealer's points, paired change against
    ``now``, hand win, undercut, gin and void rates."""
    h = run.hands
    nd = 1 - pl.col("dealer").cast(pl.Int16)
    knock = pl.col("end") == 1
    nd_knocks, d_knocks = knock & (pl.col("knocker") == nd), knock & (pl.col("knocker") == pl.col("dealer"))
    options = h.select(pl.col("option").unique(maintain_order=True)).collect()["option"].to_list()
    base_option = "now" if "now" in options else options[0]
    rows = h.select("deal", "option", _nd_net().alias("net"))
    base = rows.filter(pl.col("option") == base_option).select("deal", pl.col("net").alias("base"))
    t = (h.with_columns(_nd_net().alias("net")).join(base, on="deal", how="left")
         .group_by("option", maintain_order=True)
         .agg(pl.len().alias("n"), *mean_aggs(pl.col("net"), "points"),
              *mean_aggs(pl.col("net") - pl.col("base"), "change"),
              (pl.col("winner") == nd).sum().alias("nd_wins"),
              (d_knocks & (pl.col("winner") == nd)).sum().alias("dealer_undercut"),
              d_knocks.sum().alias("dealer_knocks"),
              (nd_knocks & (pl.col("winner") == pl.col("dealer"))).sum().alias("nd_undercut"),
              nd_knocks.sum().alias("nd_knocks"),
              ((pl.col("end") == 2) & (pl.col("knocker") == nd)).sum().alias("nd_gins"),
              (pl.col("end") == 0).sum().alias("voids"),
              pl.col("turns").cast(pl.Float64).mean().alias("mean_turns"))
         .collect())
    t = mean_table(mean_table(t, "points", "points", "points_std"), "change", "change", "change_std")
    for k, name in (("nd_wins", "nd_win_rate"), ("dealer_undercut", "dealer_undercut_rate"),
                    ("nd_undercut", "nd_undercut_rate"), ("nd_gins", "nd_gin_rate"), ("voids", "void_rate")):
        t = rate_table(t, k, "n", name)
    m = run.manifest
    return t.with_columns(pl.lit(run.path.name).alias("run"), pl.lit(m["policies"].get("knock", "limit")).alias("dealer_knock"),
                          pl.lit(dealer_strategy(m)).alias("dealer_strategy"), pl.lit(base_option).alias("baseline"),
                          pl.lit(m["seed"]).alias("seed")).select("run", "dealer_knock", "dealer_strategy", "option",
                                                                  pl.exclude("run", "dealer_knock", "dealer_strategy", "option"))


def _pools(runs: list[common.RunInput]) -> dict[tuple[str, str], pl.DataFrame]:
    """(non-dealer strategy, dealer strategy) -> per-deal non-dealer net points (deal, net)."""
    pools = {}
    for r in runs:
        d = dealer_strategy(r.manifest)
        if d not in OPTIONS:
            continue
        frame = r.hands.select("deal", "option", _nd_net().alias("net")).collect()
        for option, g in frame.group_by("option"):
            if option[0] in OPTIONS:
                pools[(option[0], d)] = g.select("deal", "net").sort("deal")
    return pools


def play_games(pool_x: np.ndarray, pool_y: np.ndarray, target: int, games: int, rng) -> float:
    """Share of games X wins against Y to ``target`` points (GR-16), drawing each hand from the
    hands measured: ``pool_x`` = X's net points as non-dealer against Y dealing, ``pool_y`` =
    Y's as non-dealer against X; 0 = void (the same dealer deals again), else the dealer
    alternates (GR-5); the first dealer is a coin toss.  Vectorised over games."""
    tx, ty = np.zeros(games), np.zeros(games)
    x_deals = rng.random(games) < 0.5
    active = np.ones(games, dtype=bool)
    x_won = np.zeros(games, dtype=bool)
    for _ in range(MAX_HANDS):
        idx = np.flatnonzero(active)
        if idx.size == 0:
            break
        xd = x_deals[idx]
        draw_x = pool_x[rng.integers(0, pool_x.size, idx.size)]
        draw_y = pool_y[rng.integers(0, pool_y.size, idx.size)]
        gain_x = np.where(xd, -draw_y, draw_x)  # + X scores, − Y scores, 0 void
        tx[idx] += np.maximum(gain_x, 0)
        ty[idx] += np.maximum(-gain_x, 0)
        x_deals[idx] = np.where(gain_x != 0, ~xd, xd)
        done = (tx[idx] >= target) | (ty[idx] >= target)
        x_won[idx[done]] = tx[idx[done]] >= target
        active[idx[done]] = False
    else:
        from simcore.errors import SimcoreError

        raise SimcoreError(f"a game assembled from the hands lasted {MAX_HANDS} hands: are all hands void?")
    return float(x_won.mean())


def matrix(runs: list[common.RunInput]) -> pl.DataFrame | None:
    """Strategy X against strategy Y, for every pair the runs cover in both roles: the per-hand
    advantage (X's net points per hand, roles averaged, paired by deal; t) and the game win
    rate assembled from the hands (bootstrap 95% interval).  None without two strategies."""
    pools = _pools(runs)
    strategies = [o for o in OPTIONS if any(k[1] == o for k in pools)]
    if len(strategies) < 2:
        return None
    rules = runs[0].manifest["rules"]
    target = int(rules.get("target", 100))
    games_ok = rules.get("next_dealer", "alternate") == "alternate"
    seeds = sorted({int(r.manifest["seed"]) for r in runs})
    rows = []
    for i, x in enumerate(strategies):
        for y in strategies[i + 1:]:
            if (x, y) not in pools or (y, x) not in pools:
                continue
            # X non-dealer against Y, and Y non-dealer against X, paired by deal (same seed: same cards)
            joined = pools[(x, y)].join(pools[(y, x)], on="deal", suffix="_y")
            adv = 0.5 * (joined["net"] - joined["net_y"])
            row = {"x": x, "y": y, "n_hands": pools[(x, y)].height, "n_paired": joined.height,
                   "advantage": float(adv.mean()), "advantage_std": float(adv.std())}
            if games_ok:
                px, py = pools[(x, y)]["net"].to_numpy(), pools[(y, x)]["net"].to_numpy()
                rng = np.random.default_rng([*seeds, i, len(strategies), strategies.index(y)])
                row["game_win"] = play_games(px, py, target, GAMES, rng)
                boot = [play_games(px[rng.integers(0, px.size, px.size)], py[rng.integers(0, py.size, py.size)],
                                   target, BOOT_GAMES, rng) for _ in range(BOOT)]
                row["game_win_low"], row["game_win_high"] = (float(v) for v in np.percentile(boot, [2.5, 97.5]))
            rows.append(row)
    if not rows:
        return None
    t = pl.DataFrame(rows)
    t = mean_table(t, "advantage", "advantage", "advantage_std", "n_paired")
    # the same pair seen from Y: complements
    flipped = t.select(pl.col("y").alias("x"), pl.col("x").alias("y"), "n_hands", "n_paired",
                       -pl.col("advantage"), "advantage_std", *([(1 - pl.col("game_win")).alias("game_win"), (1 - pl.col("game_win_high")).alias("game_win_low"),
                                                                  (1 - pl.col("game_win_low")).alias("game_win_high")] if games_ok else []),
                       -pl.col("advantage_high").alias("advantage_low"), -pl.col("advantage_low").alias("advantage_high"))
    order = {o: k for k, o in enumerate(OPTIONS)}
    both = pl.concat([t, flipped.select(t.columns)])
    return both.sort(pl.col("x").replace_strict(order), pl.col("y").replace_strict(order))


def whatif_report(runs: list[common.RunInput], out: Path, data) -> list[Path]:
    rules = {tuple(sorted(r.manifest["rules"].items())) for r in runs}
    if len(rules) > 1:
        from simcore.errors import SimcoreError

        raise SimcoreError(f"the what-if knock runs in {data} use different rules; compare runs of one rule set")
    order = {o: k for k, o in enumerate(OPTIONS)}
    t = pl.concat([whatif_rows(r) for r in runs]).sort(
        pl.col("dealer_strategy").replace_strict(order, default=len(order)), "run",
        pl.col("option").replace_strict(order, default=len(order)), maintain_order=True)
    mat = matrix(runs)
    manifest = common.varying(runs[0].manifest, runs, "policies", "knock")
    n_deals = int(t.group_by("run").agg(pl.col("n").first())["n"].sum())
    fig, axes = plt.subplots(2, 2, figsize=(14, 11), constrained_layout=True)
    axes = axes.ravel()
    xs = np.arange(len(OPTIONS))
    dealers = t["dealer_strategy"].unique(maintain_order=True).to_list()
    width = 0.8 / max(len(dealers), 1)
    for k, d in enumerate(dealers):
        g = t.filter(pl.col("dealer_strategy") == d)
        x = np.array([order[o] for o in g["option"]]) + (k - (len(dealers) - 1) / 2) * width
        common.error_bars(axes[0], x, g, "points", "points_low", "points_high", fmt="o-", ms=4,
                          label=f"dealer: {STRATEGY_TEXT.get(d, d)}")
        common.error_bars(axes[1], x, g, "dealer_undercut_rate", "dealer_undercut_rate_low",
                          "dealer_undercut_rate_high", scale=100, fmt="s-", ms=4, label=f"dealer: {STRATEGY_TEXT.get(d, d)}")
    for ax in axes[:2]:
        ax.set_xticks(xs, [f"{o}\n({STRATEGY_TEXT[o]})" for o in OPTIONS], fontsize=8)
        ax.set_xlabel("non-dealer's knock option (what-if, same deals)")
        ax.legend(fontsize=8)
    axes[0].axhline(0, color="grey", lw=0.8)
    axes[0].set_ylabel("non-dealer's net points per hand")
    axes[0].set_title("Points per hand by knock option (95% t)")
    axes[1].set_ylabel("hands where the dealer knocked and was undercut (%)")
    axes[1].set_title("Undercuts of the dealer's knocks (95% Wilson)")
    if mat is not None:
        strategies = [o for o in OPTIONS if o in set(mat["x"])]
        for ax, col, fmt, title, cmap, centre in (
            (axes[2], "game_win", "{:.0%}", "Game win rate, row against column (games to {target}; bootstrap 95%)", "RdBu", 0.5),
            (axes[3], "advantage", "{:+.1f}", "Net points per hand, row against column (roles averaged; 95% t)", "RdBu", 0.0),
        ):
            if col not in mat.columns:
                ax.axis("off")
                continue
            grid = np.full((len(strategies), len(strategies)), np.nan)
            lows, highs = grid.copy(), grid.copy()
            for r in mat.iter_rows(named=True):
                i, j = strategies.index(r["x"]), strategies.index(r["y"])
                grid[i, j], lows[i, j], highs[i, j] = r[col], r[f"{col}_low"], r[f"{col}_high"]
            span = np.nanmax(np.abs(grid - centre)) or 1
            ax.imshow(grid, cmap=cmap, vmin=centre - span, vmax=centre + span)
            for i in range(len(strategies)):
                for j in range(len(strategies)):
                    text = "—" if i == j else (fmt.format(grid[i, j]) + "\n[" + fmt.format(lows[i, j]) + ", "
                                               + fmt.format(highs[i, j]) + "]") if not np.isnan(grid[i, j]) else ""
                    dark = not np.isnan(grid[i, j]) and abs(grid[i, j] - centre) > 0.6 * span
                    ax.text(j, i, text, ha="center", va="center", fontsize=7, color="white" if dark else "black")
            labels = [STRATEGY_TEXT[s] for s in strategies]
            ax.set_xticks(range(len(strategies)), labels, fontsize=8, rotation=20)
            ax.set_yticks(range(len(strategies)), labels, fontsize=8)
            ax.set_xlabel("opponent's knock strategy")
            ax.set_ylabel("player's knock strategy")
            ax.set_title(title.format(target=runs[0].manifest["rules"].get("target", 100)), fontsize=10)
    else:
        for ax in axes[2:]:
            ax.axis("off")
        axes[2].text(0, 0.5, "A strategy-against-strategy matrix needs what-if runs whose dealer plays\n"
                             "two of the options' rules (--policy knock=limit, at7, at4, at1, gin_only).",
                     fontsize=9, transform=axes[2].transAxes)
    common.suptitle(fig, f"Gin Rummy: knocking now or holding out — what-if knock, {n_deals:,} deals in "
                         f"{plural(len(runs), 'run')} × {len(OPTIONS)} options (paired)", manifest)
    chart = common.save_chart(fig, out, NAME)
    written = [chart, common.write_table(t, out, f"{NAME}_whatif")]
    if mat is not None:
        written.append(common.write_table(mat, out, f"{NAME}_matrix"))
    method = ("what-if knock (hands mode): every deal played once per non-dealer knock option with the "
              "same cards and policy streams; t intervals for points per hand and for the paired change "
              "against `now`; Wilson intervals for rates (hand wins, undercuts, gins, voids over all "
              "deals). Matrix: X against Y = X's net points as non-dealer against Y dealing and Y's as "
              "non-dealer against X, averaged per deal (t); game win rates are games to the target drawn "
              f"from those hands ({GAMES:,} games; {BOOT} bootstrap resamples of the hands × "
              f"{BOOT_GAMES:,} games for the 95% interval, which also carries their Monte Carlo noise, so it errs wide), valid because the built-in policies ignore "
              "the score, so hands are independent given the dealer")
    written.append(common.write_summary(
        out, NAME, "Gin Rummy: knocking now or holding out (what-if knock)", chart, _whatif_finding(t, mat),
        f"{n_deals:,} deals × {len(OPTIONS)} options in {plural(len(runs), 'run')} from `{data}`", manifest,
        common.command("gin-knock", data, out), written[1:], method))
    return written


def plural(n, word):
    return common.plural(n, word)


def _whatif_finding(t: pl.DataFrame, mat: pl.DataFrame | None) -> str:
    parts = []
    ref = t.filter(pl.col("dealer_strategy") == "now")
    if ref.height == 0:
        ref = t.filter(pl.col("run") == t["run"][0])
    best = ref.sort("points", descending=True).row(0, named=True)
    now = ref.filter(pl.col("option") == best["baseline"]).row(0, named=True)
    dealer = STRATEGY_TEXT.get(best["dealer_strategy"], best["dealer_strategy"])
    parts.append(f"Against a dealer who plays '{dealer}', the non-dealer's best option was "
                 f"'{STRATEGY_TEXT.get(best['option'], best['option'])}' ({best['points']:+.2f} points per hand, "
                 f"{best['change']:+.2f} against '{best['baseline']}', 95% CI {best['change_low']:+.2f} to "
                 f"{best['change_high']:+.2f}); the dealer's knocks were undercut in "
                 f"{common.pct(best['dealer_undercut_rate'])} of hands against {common.pct(now['dealer_undercut_rate'])} "
                 f"when both knocked at once")
    if mat is not None and "game_win" in mat.columns:
        g = mat.filter((pl.col("x") == "gin") & (pl.col("y") == "now"))
        if g.height:
            r = g.row(0, named=True)
            parts.append(f"assembled into games to the target, 'gin only' beat 'knock at once' in "
                         f"{common.pct(r['game_win'])} of games (95% CI {common.pct(r['game_win_low'])}–"
                         f"{common.pct(r['game_win_high'])})")
        top = (mat.group_by("x").agg(pl.col("game_win").min().alias("worst"))
               .sort("worst", descending=True).row(0, named=True))
        parts.append(f"the strategy whose worst matchup was best: '{STRATEGY_TEXT[top['x']]}' "
                     f"(at least {common.pct(top['worst'])} of games against every other)")
    return "; ".join(parts) + "."


def run(hands: pl.LazyFrame, manifest: dict, out: Path, data) -> list[Path]:
    """One run folder: a what-if knock run or an ordinary run (first player's advantage)."""
    return run_set([common.RunInput(Path(data), manifest, hands)], out, data)


def run_set(runs: list[common.RunInput], out: Path, data) -> list[Path]:
    kinds = {common.what_if(r) is not None for r in runs}
    if kinds == {True}:
        bad = [r.path.name for r in runs if common.what_if(r) not in ("knock", "unknown decision")]
        if bad:
            from simcore.errors import SimcoreError

            raise SimcoreError(f"gin-knock reads --what-if knock runs; {', '.join(bad)} in {data} is another what-if")
        return whatif_report(runs, out, data)
    if len(kinds) > 1:
        from simcore.errors import SimcoreError

        raise SimcoreError(f"{data} mixes what-if and ordinary runs; put them in separate folders")
    t = table(runs)
    manifest = common.varying(runs[0].manifest, runs, "policies", "knock")
    several = t.height > 1
    unit = t["unit"][0]
    fig, axes = plt.subplots(1, 2, figsize=(12, 5), constrained_layout=True)
    x = t["threshold"].to_numpy()
    ax = axes[0]
    if several:
        seats = sorted({s for r in runs for s in knock_seats(r.manifest)})
        for s in seats or [0]:
            common.error_bars(ax, x, t, f"win_rate{s}", f"win_rate{s}_low", f"win_rate{s}_high", scale=100,
                              fmt="o-", label=f"seat {s} ({t[f'seat{s}_policy'][0]}, knocks at the threshold)")
        others = [s for s in (0, 1) if s not in seats]
        for s in others:
            ax.plot(x, 100 * t[f"win_rate{s}"].to_numpy(), ls=":", color="grey",
                    label=f"seat {s} ({t[f'seat{s}_policy'][0]}, fixed)")
        ax.axhline(50, color="grey", lw=0.8)
        ax.set_xlabel("knock threshold of the heuristic seat (deadwood points; 0 = gin only)")
        ax.set_ylabel(f"{unit} won (%)")
        ax.set_title(f"{unit.capitalize()[:-1]} win rate by knock threshold (95% Wilson)")
        ax.legend(fontsize=8)
    else:
        bars = [("seat 0", "win_rate0"), ("seat 1", "win_rate1"), ("first player", "first_player_rate")]
        xs = np.arange(len(bars))
        vals = [100 * t[c][0] for _, c in bars]
        ax.bar(xs, vals, color=["#4C72B0", "#55A868", "#C44E52"])
        for i, (_, c) in enumerate(bars):
            common.error_bars(ax, [i], t, c, f"{c}_low", f"{c}_high", scale=100, fmt="none", ecolor="black")
        ax.set_xticks(xs, [b for b, _ in bars])
        ax.axhline(50, color="grey", lw=0.8)
        ax.set_ylabel(f"{unit} won (%)")
        ax.set_title(f"Who wins, knock={t['knock'][0]} (95% Wilson; n = {t['n'][0]:,} {unit})")
    ax = axes[1]
    common.error_bars(ax, x if several else [0], t, "first_player_rate", "first_player_rate_low",
                      "first_player_rate_high", scale=100, fmt="o-", color="#C44E52")
    ax.axhline(50, color="grey", lw=0.8)
    if several:
        ax.set_xlabel("knock threshold of the heuristic seat (deadwood points)")
    else:
        ax.set_xticks([0], [f"knock={t['knock'][0]}"])
    ax.set_ylabel(f"{unit} won by the first player (non-dealer of hand 1) (%)")
    ax.set_title("First player's advantage (95% Wilson)")
    total = int(t["n"].sum())
    mode = (f"{t.height} runs, one per threshold, seeds {sorted(set(t['seed'].to_list()))}" if several
            else "one run (observational)")
    common.suptitle(fig, f"Gin Rummy: knock threshold and first player — {total:,} {unit}; {mode}", manifest)
    chart = common.save_chart(fig, out, NAME)
    written = [chart, common.write_table(t, out, NAME)]
    finding = _finding(t, runs, several, unit)
    written.append(common.write_summary(
        out, NAME, "Gin Rummy: knock threshold and first player's advantage", chart, finding,
        f"{total:,} {unit} in {t.height} run(s) from `{data}`", manifest,
        common.command("gin-knock", data, out), written[1:],
        f"{mode}; Wilson intervals for win rates, t intervals for points per hand"))
    return written


def _finding(t: pl.DataFrame, runs, several: bool, unit: str) -> str:
    first_n, first_w = int(t["n"].sum()), int(t["first_wins"].sum())
    from analyses.stats import wilson

    lo, hi = wilson([first_w], [first_n])
    first = (f"the first player won {common.pct(first_w / first_n)} of {first_n:,} {unit} "
             f"(95% CI {common.pct(lo[0])}–{common.pct(hi[0])})")
    if not several:
        return f"With knock={t['knock'][0]}, {first}."
    seats = sorted({s for r in runs for s in knock_seats(r.manifest)}) or [0]
    s = seats[-1]
    best = t.sort(f"win_rate{s}", descending=True).row(0, named=True)
    worst = t.sort(f"win_rate{s}").row(0, named=True)
    def at(row):
        return "gin only" if row["threshold"] == 0 else f"deadwood ≤ {row['threshold']}"

    return (f"Seat {s} ({best[f'seat{s}_policy']}) won most often knocking at {at(best)} "
            f"({common.pct(best[f'win_rate{s}'])}, 95% CI {common.pct(best[f'win_rate{s}_low'])}–"
            f"{common.pct(best[f'win_rate{s}_high'])}) and least at {at(worst)} "
            f"({common.pct(worst[f'win_rate{s}'])}); over all runs {first}.")


def level_claims(out: Path) -> list:
    """The answers compared across levels of play (``analyses.levels``), from this level's tables."""
    from analyses.levels import mean_claim, rate_claim

    path = out / f"{NAME}_whatif.csv"
    if not path.is_file():
        t = pl.read_csv(out / f"{NAME}.csv")
        unit = t["unit"][0]
        return [rate_claim(f"The first player's share of {unit} won (non-dealer of the first hand)",
                           int(t["first_wins"].sum()), int(t["n"].sum()), "the first player is at a disadvantage",
                           "the first player has an advantage", "no significant first-player advantage",
                           f"{unit} won by the first player (%)")]
    t = pl.read_csv(path)
    ref = t.filter(pl.col("dealer_strategy") == "now")
    ref = ref if ref.height else t.filter(pl.col("run") == t["run"][0])
    best = ref.sort("points", descending=True).row(0, named=True)
    name = STRATEGY_TEXT.get(best["option"], best["option"])
    dealer = STRATEGY_TEXT.get(best["dealer_strategy"], best["dealer_strategy"])
    # the option's name is the answer only when it beats the baseline: near-ties of the point
    # estimates must not read as a change of answer between levels
    base = best["baseline"]
    return [mean_claim(f"The non-dealer's best knock option against a dealer who plays '{dealer}', against "
                       f"'{base}' (what-if knock, paired)", best["change"], best["change_std"], best["n"],
                       f"no option beats '{base}'", f"'{name}' is best, significantly better than '{base}'",
                       f"no option beats '{base}' significantly", "net points per hand over the baseline")]
