"""Regret of decisions: on the deals where a policy chose option A of a decision, what each
option B of the same decision would have scored instead (B − A), paired deal by deal.

    .venv/bin/python scripts/regret.py --games spades --policies heuristic --deals 20000
    .venv/bin/python scripts/regret.py --deals 40000 --deals pimc=200 --out regret.csv

Each decision is one what-if decision of a game's ``Game.what_if`` (docs/conditions.md): the
what-if run (``simcore.simulate(..., what_if=NAME)``) plays every deal once per option, the
ordinary run of the same seed and policies plays it as the policies choose, and deal k is the
same deal in both.  Per deal:

- **decided**: the what-if rows of the deal differ (a deal on which the deciding seat is never
  asked, or on which every option plays out identically, holds no decision and is left out);
- **chosen** (A): the option the unforced policy took, read from the ordinary row (or a label
  outside the what-if's options, such as Spades' blind nil: ``Decision.chosen``);
- **A's value**: the ordinary row's value (what the policy scored); **B's value**: the value of
  the what-if row of B.  The value is the deciding seat's side's points in the game's units
  (``Decision.value_doc``), the measure the game's analysis uses.

For each A and each option B: n deals, the mean of B − A with its Student-t 95% interval
(``analyses.stats.mean_interval``) and a verdict (``analyses.stats.verdict`` with the analysis's
margin): ``better`` when the interval lies above zero — a significantly better alternative on
the deals where the policy chose A — ``worse``, ``same`` (within the margin) or ``open``.  The row
B = A compares the what-if's replay of A with the ordinary row: ``replay`` when they are equal on
every deal (the what-if reproduces the policy's play), else its own verdict.

Output: one Markdown table per game × policy level on stdout, and every row as CSV with
``--out FILE``.  Bad input: one line on stderr, exit status 2.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import numpy as np
import polars as pl
from tqdm import tqdm

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import simcore  # noqa: E402
from analyses import euchre_makers, friend_call, gin_knock, spades_nil, trump_call  # noqa: E402
from analyses.stats import mean_interval, verdict  # noqa: E402
from simcore import games  # noqa: E402
from simcore.errors import SimcoreError  # noqa: E402
from simcore.frames import seat_value  # noqa: E402

# The policy levels: each game's policy specs (simcore.simulate's ``policy``).  Trump Friend's
# pimc names trump=pimc and friend=pimc too: a searching declarer calls for itself in an
# ordinary run, and in a what-if run the call not forced is the run's trump=/friend= policy's,
# so these make the what-if's other call the searching player's own.
LEVELS = {
    "trump-friend": {"heuristic": ["heuristic"], "pimc": ["pimc", "trump=pimc", "friend=pimc"]},
    "spades": {"heuristic": ["heuristic"], "pimc": ["pimc"]},
    "euchre": {"heuristic": ["heuristic"], "pimc": ["pimc"]},
    "gin-rummy": {"heuristic": ["heuristic"], "expert": ["expert"], "pimc": ["pimc"]},
}
LEVEL_ORDER = ("heuristic", "expert", "pimc")  # and pimc:W, W worlds a decision (base level pimc)


def base_level(level: str) -> str:
    """``pimc`` for ``pimc:W``, else the level itself."""
    return level.partition(":")[0]


def level_specs(game: str, level: str) -> list[str]:
    """The policy specs of ``game`` at ``level``; ``pimc:W`` is the ``pimc`` level with W worlds."""
    specs = LEVELS[game][base_level(level)]
    return [s.replace("pimc", level) for s in specs] if level != base_level(level) else specs


def valid_level(level: str) -> bool:
    base, sep, worlds = level.partition(":")
    return base in LEVEL_ORDER and (not sep or base == "pimc" and worlds.isdigit() and int(worlds) > 0)
DEFAULT_DEALS = {"heuristic": 20_000, "expert": 20_000, "pimc": 100}
SEARCH_CHUNK = 20  # deals per part of a searching level: the progress bar moves, --keep resumes


@dataclass(frozen=True)
class Decision:
    """One what-if decision: its per-row value and how to read the unforced choice.

    ``value()`` is a polars expression of a hand row; ``chosen(ordinary, whatif)`` returns a
    Utf8 Series (one label per ordinary row, in deal order) of the option the policy took."""

    game: str
    what_if: str
    value: Callable[[], pl.Expr]
    chosen: Callable[[pl.DataFrame, pl.DataFrame], pl.Series]
    value_doc: str
    margin: float


def _spades_net() -> pl.Expr:
    """The first bidder's (the dealer's left) side's points minus the other side's."""
    side = (pl.col("dealer").cast(pl.Int64) + 1) % 2
    return (pl.when(side == 0).then(pl.col("score0").cast(pl.Float64) - pl.col("score1"))
            .otherwise(pl.col("score1").cast(pl.Float64) - pl.col("score0")))


def _spades_chosen(ordinary: pl.DataFrame, whatif: pl.DataFrame) -> pl.Series:
    first = (pl.col("dealer").cast(pl.Int64) + 1) % 4
    return ordinary.select(pl.when(seat_value("blind", first, 4)).then(pl.lit("blind nil"))
                           .when(seat_value("bid", first, 4) == 0).then(pl.lit("nil"))
                           .otherwise(pl.lit("bid"))).to_series()


def _euchre_order(place: int) -> tuple[Callable, Callable]:
    """Value and choice of the round-1 seat at ``place`` after the dealer (4: the dealer)."""
    def seat():
        return (pl.col("dealer").cast(pl.Int64) + place) % 4

    def chosen(ordinary, whatif):
        ordered = (pl.col("maker") == seat()) & (pl.col("bid_round") == 1)
        return ordinary.select(pl.when(ordered).then(pl.lit("order")).otherwise(pl.lit("pass"))).to_series()

    return (lambda: euchre_makers.net(seat())), chosen


def _euchre_alone_chosen(ordinary: pl.DataFrame, whatif: pl.DataFrame) -> pl.Series:
    return ordinary.select(pl.when(pl.col("alone_maker") == pl.col("maker")).then(pl.lit("alone"))
                           .when(pl.col("alone_maker") < 0).then(pl.lit("partner"))
                           .otherwise(pl.lit("partner alone"))).to_series()


def _tf_trump_chosen(ordinary: pl.DataFrame, whatif: pl.DataFrame) -> pl.Series:
    labels = games.get("trump-friend").what_if["trump"]
    return ordinary.select(pl.col("trump").cast(pl.Int64).replace_strict(
        dict(enumerate(labels)), default="another call", return_dtype=pl.Utf8)).to_series()


def _tf_relative() -> pl.Expr:
    """The declarer's score change minus the other four's mean (friend_call's measure)."""
    delta = trump_call.declarer_delta()
    others = (pl.sum_horizontal([pl.col(f"delta{s}").cast(pl.Float64) for s in range(5)]) - delta) / 4
    return delta - others


def _tf_friend_chosen(ordinary: pl.DataFrame, whatif: pl.DataFrame) -> pl.Series:
    """``none``, ``highest`` (the card the what-if's ``highest`` row called), or another card
    (a searching declarer weighs the strongest cards of every suit)."""
    highest = whatif.filter(pl.col("option") == "highest").select("deal", pl.col("friend_card").alias("_high"))
    joined = ordinary.select("deal", "friend_card").join(highest, on="deal", how="left", maintain_order="left")
    return joined.select(pl.when(pl.col("friend_card") < 0).then(pl.lit("none"))
                         .when(pl.col("friend_card") == pl.col("_high")).then(pl.lit("highest"))
                         .otherwise(pl.lit("another card"))).to_series()


def _gin_chosen(ordinary: pl.DataFrame, whatif: pl.DataFrame) -> pl.Series:
    """A knock timing is a rule over the whole hand, not one move: the policy took the first
    option (now, at7, ... gin) whose what-if row is the ordinary row, else ``other timing``
    (options whose rows are equal on a deal have zero regret against each other)."""
    options = games.get("gin-rummy").what_if["knock"]
    mine = _row_hash(ordinary).alias("_h")
    forced = whatif.select("deal", "option", _row_hash(whatif.drop("option")).alias("_f"))
    match = (ordinary.select("deal").with_columns(mine).join(forced, on="deal", maintain_order="left")
             .filter(pl.col("_h") == pl.col("_f"))
             .with_columns(pl.col("option").replace_strict(options, list(range(len(options))),
                                                           return_dtype=pl.Int64).alias("_k"))
             .group_by("deal").agg(pl.col("option").sort_by("_k").first()))
    out = ordinary.select("deal").join(match, on="deal", how="left", maintain_order="left")
    return out["option"].fill_null("other timing")


def _row_hash(frame: pl.DataFrame) -> pl.Series:
    """One hash per row over every column but ``deal`` and ``seed`` (sorted by name, so an
    ordinary frame and a what-if frame without ``option`` hash alike)."""
    columns = sorted(c for c in frame.columns if c not in ("deal", "seed", "option"))
    return frame.select(columns).hash_rows(seed=0)


def decisions(game: str) -> list[Decision]:
    """Every what-if decision of ``game`` (its ``Game.what_if``), with its value and choice."""
    order = {name: _euchre_order(place) for name, place in euchre_makers.ORDER_WHATIF.items()}
    known = {
        ("spades", "nil"): (_spades_net, _spades_chosen,
                            "the first bidder's side's net points a hand (its points − the other side's)",
                            spades_nil.MARGIN),
        ("euchre", "alone"): (lambda: euchre_makers.net(pl.col("maker").cast(pl.Int64)), _euchre_alone_chosen,
                              "the makers' net points a hand", euchre_makers.MARGIN),
        **{("euchre", name): (*order[name], f"the net points a hand of the {euchre_makers.PLACES[place]}'s side",
                              euchre_makers.MARGIN) for name, place in euchre_makers.ORDER_WHATIF.items()},
        ("trump-friend", "trump"): (trump_call.declarer_delta, _tf_trump_chosen,
                                    "the declarer's score change a round (TF-12)", trump_call.MARGIN),
        ("trump-friend", "friend"): (_tf_relative, _tf_friend_chosen,
                                     "the declarer's score change a round minus the other four's mean "
                                     "(TF-12, TF-13)", friend_call.MARGIN),
        ("gin-rummy", "knock"): (gin_knock._nd_net, _gin_chosen, "the non-dealer's net points a hand", gin_knock.MARGIN),
    }
    record = games.get(game)
    missing = [w for w in record.what_if if (record.name, w) not in known]
    if missing:
        raise SimcoreError(f"{record.name}: no value defined for what-if {', '.join(missing)}")
    return [Decision(record.name, w, *known[(record.name, w)]) for w in record.what_if]


# ---------------------------------------------------------------- per deal, then the table


def per_deal(decision: Decision, ordinary: pl.DataFrame, whatif: pl.DataFrame) -> pl.DataFrame:
    """One row per decided deal: ``deal``, ``chosen``, ``actual`` (the ordinary row's value)
    and one column per option (the value of that option's what-if row)."""
    options = list(games.get(decision.game).what_if[decision.what_if])
    ordinary = ordinary.sort("deal")
    values = (whatif.select("deal", "option", decision.value().alias("_v"))
              .pivot("option", index="deal", values="_v").select("deal", *options))
    decided = (whatif.select("deal", _row_hash(whatif).alias("_h")).group_by("deal")
               .agg((pl.col("_h").n_unique() > 1).alias("_decided")))
    mine = ordinary.select("deal", decision.value().alias("actual"),
                           decision.chosen(ordinary, whatif).alias("chosen"))
    return (mine.join(values, on="deal").join(decided, on="deal")
            .filter("_decided").drop("_decided").sort("deal"))


COLUMNS = ("game", "policy", "decision", "chosen", "deals", "share", "alternative", "n", "gain", "low",
           "high", "verdict")
VERDICT = {"above": "better", "below": "worse", "equal": "same", "open": "open"}


def regret_table(decision: Decision, level: str, deals: pl.DataFrame) -> pl.DataFrame:
    """For each chosen option A (the what-if's order, then labels outside it) and each option
    B: n, the mean of B − A over the deals where the policy chose A, its t 95% interval and the
    verdict (B = A: ``replay`` when the what-if's row of A scored what the policy scored on
    every deal)."""
    options = list(games.get(decision.game).what_if[decision.what_if])
    seen = deals["chosen"].unique().to_list()
    chosen = [o for o in options if o in seen] + sorted(c for c in seen if c not in options)
    rows = []
    for a in chosen:
        part = deals.filter(pl.col("chosen") == a)
        actual = part["actual"].to_numpy()
        for b in options:
            diff = part[b].to_numpy() - actual
            gain, low, high, n = mean_interval(diff)
            word = VERDICT[verdict(low, high, decision.margin)]
            if a == b and not np.any(diff):
                word = "replay"
            rows.append({"game": decision.game, "policy": level, "decision": decision.what_if, "chosen": a,
                         "deals": part.height, "share": part.height / deals.height, "alternative": b,
                         "n": n, "gain": gain, "low": low, "high": high, "verdict": word})
    schema = {"game": pl.Utf8, "policy": pl.Utf8, "decision": pl.Utf8, "chosen": pl.Utf8, "deals": pl.Int64,
              "share": pl.Float64, "alternative": pl.Utf8, "n": pl.Int64, "gain": pl.Float64,
              "low": pl.Float64, "high": pl.Float64, "verdict": pl.Utf8}
    return pl.DataFrame(rows, schema=schema)


# ---------------------------------------------------------------- the runs


def hands(game: str, level: str, deals: int, seed: int, threads, what_if, folder: Path | None,
          quiet: bool) -> pl.DataFrame:
    """The rows of one run (ordinary when ``what_if`` is None) at a policy level; with
    ``folder`` the run is written there and reused (resumed) when it is already there."""
    out = None if folder is None else folder / f"{game}-{level}-{what_if or 'ordinary'}-seed{seed}-{deals}"
    search = base_level(level) == "pimc"
    run = simcore.simulate(game, deals, seed=seed, policy=level_specs(game, level), what_if=what_if, out=out,
                           threads=threads, resume=out is not None, quiet=quiet or not search,
                           chunk_size=min(deals, SEARCH_CHUNK) if search else None)
    return run.hands().collect()


def level_tables(game: str, level: str, deals: int, seed: int, threads=None, folder: Path | None = None,
                 bar=None) -> pl.DataFrame:
    """Every decision of ``game`` at one policy level: its ordinary run, one what-if run per
    decision, and the regret rows (runs in memory without ``folder``; ``bar`` counts runs)."""
    quiet = bar is None or bar.disable

    def step(what):
        if bar is not None:
            bar.set_postfix_str(f"{game} {level} {what}")
        return hands(game, level, deals, seed, threads, None if what == "ordinary" else what, folder, quiet)

    ordinary = step("ordinary")
    tables = []
    for decision in decisions(game):
        if bar is not None:
            bar.update()
        whatif = step(decision.what_if)
        tables.append(regret_table(decision, level, per_deal(decision, ordinary, whatif)))
    if bar is not None:
        bar.update()
    return pl.concat(tables)


def plan(game_names, levels) -> list[tuple[str, str]]:
    """(game, level) pairs to run; SimcoreError for a game without what-if decisions or a
    level that none of the games has."""
    pairs = []
    for name in game_names:
        record = games.get(name)
        if not record.what_if:
            raise SimcoreError(f"{record.name} has no what-if decisions, so no regret to measure; games with "
                               "them: " + ", ".join(LEVELS))
        pairs += [(record.name, level) for level in levels if base_level(level) in LEVELS[record.name]]
    unused = [level for level in levels
              if all(base_level(level) not in LEVELS[games.get(g).name] for g in game_names)]
    if unused:
        raise SimcoreError(f"no game of --games plays the level {', '.join(unused)}; levels: "
                           + "; ".join(f"{g} {', '.join(LEVELS[g])}" for g in LEVELS))
    return pairs


# ---------------------------------------------------------------- output


def markdown(table: pl.DataFrame, deals: dict[str, int], seed: int) -> str:
    """One Markdown table per game × level: every alternative B of every chosen A; the row
    B = A only when the what-if did not replay the policy's own row."""
    out = []
    for (game, level), part in table.group_by("game", "policy", maintain_order=True):
        record = games.get(game)
        places = 3 if game == "euchre" else 2
        units = {d.what_if: d.value_doc for d in decisions(game)}
        out += [f"### {record.title}, {level} ({deals[level]:,} deals, seed {seed})", "",
                "Values: " + "; ".join(f"`{w}`: {u}" for w, u in units.items()) + ".", "",
                "| decision | chose (deals, share) | instead | n | gain B − A | 95% interval | verdict |",
                "| --- | --- | --- | ---: | ---: | --- | --- |"]
        for row in part.iter_rows(named=True):
            if row["alternative"] == row["chosen"] and row["verdict"] == "replay":
                continue
            interval = ("—" if not np.isfinite(row["low"])
                        else f"[{row['low']:+.{places}f}, {row['high']:+.{places}f}]")
            gain = "—" if not np.isfinite(row["gain"]) else f"{row['gain']:+.{places}f}"
            verdict_text = f"**{row['verdict']}**" if row["verdict"] == "better" else row["verdict"]
            out.append(f"| `{row['decision']}` | {row['chosen']} ({row['deals']:,}, {row['share']:.1%}) | "
                       f"{row['alternative']} | {row['n']:,} | {gain} | {interval} | {verdict_text} |")
        replays = part.filter(pl.col("alternative") == pl.col("chosen"))
        if replays.height and (replays["verdict"] == "replay").all():
            out.append("")
            out.append("The what-if row of each chosen option scored what the policy scored, on every deal.")
        out.append("")
    return "\n".join(out)


# ---------------------------------------------------------------- command line


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # one line, exit status 2
        print(f"regret: {message}", file=sys.stderr)
        raise SystemExit(2)


def _names(text: str) -> list[str]:
    return [t.strip() for t in text.split(",") if t.strip()]


def deals_per_level(specs: list[str], levels: list[str]) -> dict[str, int]:
    """``--deals N`` (every level) and ``--deals LEVEL=N`` (one level), later ones winning."""
    out = dict(DEFAULT_DEALS)
    for spec in specs:
        level, sep, number = spec.rpartition("=")
        if sep and level not in LEVEL_ORDER:
            raise SimcoreError(f"--deals {spec}: unknown level {level!r}; levels: {', '.join(LEVEL_ORDER)}")
        try:
            n = int(number)
        except ValueError:
            n = 0
        if n <= 0:
            raise SimcoreError(f"--deals {spec}: the number of deals must be a positive whole number")
        for name in ([level] if sep else LEVEL_ORDER):
            out[name] = n
    return {level: out[base_level(level)] for level in levels}


def arguments(argv=None) -> argparse.Namespace:
    parser = _Parser(prog="regret.py", description=__doc__.split("\n\n")[0],
                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", default=",".join(LEVELS), help="comma-separated (default: %(default)s)")
    parser.add_argument("--policies", default=",".join(LEVEL_ORDER),
                        help="policy levels, comma-separated (default: %(default)s; pimc:W: pimc with W worlds; "
                             "expert: Gin Rummy only)")
    parser.add_argument("--deals", action="append", default=[], metavar="N | LEVEL=N",
                        help="deals a run, for every level or one (default: "
                             + ", ".join(f"{k}={v}" for k, v in DEFAULT_DEALS.items()) + ")")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--threads", type=int, default=None, help="Numba threads (default: all)")
    parser.add_argument("--out", type=Path, help="write every row of the tables to this CSV file")
    parser.add_argument("--keep", type=Path, help="keep the runs in this folder (and reuse them when run again)")
    return parser.parse_args(argv)


def main(argv=None) -> int:
    args = arguments(argv)
    try:
        levels = _names(args.policies)
        unknown = [level for level in levels if not valid_level(level)]
        if unknown or not levels:
            raise SimcoreError(f"unknown policy level {', '.join(unknown) or '(none)'}; levels: "
                               + ", ".join(LEVEL_ORDER))
        if args.seed < 0:
            raise SimcoreError(f"the seed must be a whole number from 0, not {args.seed}")
        if args.out is not None and not args.out.parent.is_dir():
            raise SimcoreError(f"--out {args.out}: the folder {args.out.parent} does not exist")
        deals = deals_per_level(args.deals, levels)
        pairs = plan(_names(args.games), levels)
        table = run(pairs, deals, args.seed, args.threads, args.keep)
    except SimcoreError as e:
        print(f"regret: {e}", file=sys.stderr)
        return 2
    print(markdown(table, deals, args.seed))
    if args.out is not None:
        table.write_csv(args.out)
    return 0


def run(pairs, deals: dict[str, int], seed: int, threads, keep: Path | None) -> pl.DataFrame:
    """The regret rows of every (game, level) pair, its runs in ``keep`` or a temporary folder."""
    total = sum(1 + len(games.get(game).what_if) for game, _ in pairs)
    with tempfile.TemporaryDirectory(prefix="regret-") as scratch, \
            tqdm(total=total, unit="run", desc="regret", disable=not sys.stderr.isatty()) as bar:
        folder = Path(keep) if keep is not None else Path(scratch)
        return pl.concat([level_tables(game, level, deals[level], seed, threads, folder, bar)
                          for game, level in pairs])


if __name__ == "__main__":
    raise SystemExit(main())
