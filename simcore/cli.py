"""The ``simcore`` command line.

    simcore simulate GAME --deals N [--seed S] [--threads T] [--out DIR] [--mode hands|games]
                     [--policy NAME | --policy SEAT=NAME | --policy DECISION=NAME ...]
                     [--rules KEY=VALUE ...] [--log-plays] [--resume] [--quiet]
                     [--cluster tcp://host:8786 | --cluster local:N]
                     [--what-if DECISION] [--predeal SEAT=CARDS ...] [--condition EXPR ...]
    simcore solve GAME --deals N [--seed S] [--threads T] [--out DIR] [--rules KEY=VALUE ...]
                  [--policy DECISION=NAME] [--predeal SEAT=CARDS ...] [--condition EXPR ...]
                  [--resume] [--cluster ADDRESS] [--quiet] [--chunk-size K] [--OPTION CHOICE]
    simcore analyze NAME --data DIR --out DIR
    simcore advise GAME --hand CARDS [--upcard CARD] [--levels open-hand,pimc,heuristic]
                   [--deals N | --open-hand-deals N --pimc-deals N --heuristic-deals N]
                   [--pimc pimc:W] [--options A,B] [--seed S] [--rules KEY=VALUE ...]
                   [--threads T] [--out DIR] [--quiet]
    simcore describe GAME
    simcore show RUN (--deal K | --game G [--hand H]) [--option X] [--log-plays] [--json]

Bad input is reported as one line on stderr with exit status 2; never a traceback.  Game
names, and what each command offers per game, come from the games' records (simcore.games).
"""

from __future__ import annotations

import argparse
import sys
import time

from simcore import games
from simcore.errors import SimcoreError


class _Parser(argparse.ArgumentParser):
    """``complete(parser)``, if given, adds the arguments that come from every game's record
    (which games solve, their solve options, what advise offers) on the command's first parse
    or help: listing them imports every game package, which the other commands never need."""

    def __init__(self, *args, complete=None, **kwargs):
        super().__init__(*args, **kwargs)
        self._complete = complete

    def _completed(self) -> None:
        if self._complete is not None:
            complete, self._complete = self._complete, None
            complete(self)

    def parse_known_args(self, args=None, namespace=None):
        self._completed()
        return super().parse_known_args(args, namespace)

    def format_help(self):
        self._completed()
        return super().format_help()

    def error(self, message):  # one line, exit 2, like every other simcore error
        raise SimcoreError(message)


def _whole_number(text: str) -> int:
    try:
        value = int(text.replace("_", ""))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    return value


def _key_values(items: list[str], what: str) -> dict[str, str]:
    result = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise SimcoreError(f"{what} {item!r} must look like KEY=VALUE")
        result[key.strip()] = value.strip()
    return result


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="simcore",
        description="Simulate millions of card-game deals and turn them into answers.",
    )
    from simcore import __version__

    parser.add_argument("--version", action="version", version=f"simcore {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    _simulate_parser(sub)
    sub.add_parser("solve", help="open-hand (double-dummy) tables of a batch of deals",
                   description="Solve each deal open-handed (every card seen, best play by "
                               "both sides) and write its DD table to Parquet. Deal k of "
                               "seed S is row k of `simcore simulate GAME --seed S`.",
                   complete=_solve_arguments)

    _analyze_parser(sub)
    _advise_parser(sub)

    desc = sub.add_parser("describe", help="list a game's rules options and policies")
    desc.add_argument("game", metavar="GAME")
    _show_parser(sub)
    return parser


def _simulate_parser(sub) -> None:
    sim = sub.add_parser("simulate", help="run a batch of deals or games to Parquet",
                         description="Run a batch of deals (or whole games) and write Parquet parts.")
    sim.add_argument("game", metavar="GAME", help="one of: " + ", ".join(games.names()))
    sim.add_argument("--deals", "-n", type=_whole_number, required=True,
                     help="number of hands (games in --mode games)")
    sim.add_argument("--seed", type=_whole_number, default=0, help="master seed (default 0)")
    sim.add_argument("--threads", type=_whole_number, default=None,
                     help="worker threads (default: all cores)")
    sim.add_argument("--out", default=None,
                     help="output folder (default: data/GAME-MODE-sSEED-nN)")
    sim.add_argument("--mode", choices=("hands", "games"), default="hands",
                     help="hands: N independent hands; games: N games played to the target")
    sim.add_argument("--policy", action="extend", nargs="+", default=[], metavar="SPEC",
                     help="NAME for every seat, SEAT=NAME, or DECISION=NAME (see `simcore describe GAME`)")
    sim.add_argument("--rules", action="extend", nargs="+", default=[], metavar="KEY=VALUE",
                     help="rules options (see `simcore describe GAME`)")
    sim.add_argument("--log-plays", action="store_true",
                     help="add the play log: plays and trick_winners lists, or the game's "
                          "turn log (docs/games)")
    sim.add_argument("--resume", action="store_true", help="finish an interrupted run in --out")
    sim.add_argument("--chunk-size", type=_whole_number, default=None,
                     help="deals (games) per Parquet part (default 250000 hands / 10000 games)")
    sim.add_argument("--cluster", default=None, metavar="ADDRESS",
                     help="compute the chunks on a Dask cluster: tcp://host:8786, or local:N "
                          "for N local worker processes")
    sim.add_argument("--quiet", "-q", action="store_true", help="no progress bar")
    sim.add_argument("--what-if", default=None, metavar="DECISION",
                     help="play every deal once per option of DECISION, with an `option` "
                          "column (see `simcore describe GAME`)")
    sim.add_argument("--predeal", action="append", default=[], metavar="SEAT=CARDS",
                     help="fix cards to a seat or slot, e.g. 0=AS,KS,3H or upcard=9H (repeatable)")
    sim.add_argument("--condition", action="append", default=[], metavar="EXPR",
                     help="keep only deals where SEAT:FEATURE OP N holds, e.g. '0:longest>=5' "
                          "(repeatable: all must hold; see docs/conditions.md)")


def _analyze_parser(sub) -> None:
    ana = sub.add_parser("analyze", help="turn a run into a chart and a table",
                         description="Run one analysis over a run folder.")
    from analyses import ANALYSES

    ana.add_argument("name", metavar="NAME", help="one of: " + ", ".join(ANALYSES))
    ana.add_argument("--data", required=True, action="append", metavar="DIR",
                     help="a run folder made by simcore simulate (or solve); repeat it for runs made "
                          "at other levels of play, shown side by side")
    ana.add_argument("--label", action="append", default=[], metavar="DIR=NAME",
                     help="the level-of-play label of one --data folder (default: from its manifest)")
    ana.add_argument("--out", required=True, help="folder for the chart and table")


def _show_parser(sub) -> None:
    shw = sub.add_parser("show", help="print one deal of a run as a player reads it",
                         description="Print one deal of a run folder: hands by suit, the calls, "
                                     "the result, the tricks or turns (--log-plays), a solve run's DD "
                                     "table.")
    shw.add_argument("run", metavar="RUN", help="a folder made by simcore simulate or solve")
    shw.add_argument("--deal", type=_whole_number, default=None, metavar="K",
                     help="hands mode: deal K, from 0")
    shw.add_argument("--game", type=_whole_number, default=None, metavar="G",
                     help="games mode: game G, from 0")
    shw.add_argument("--hand", type=_whole_number, default=None, metavar="H",
                     help="games mode: hand H of the game, from 0 (default 0)")
    shw.add_argument("--option", default=None, metavar="X",
                     help="what-if runs: the option's row (default: one line per option)")
    shw.add_argument("--log-plays", action="store_true",
                     help="every trick or turn in order (runs made with --log-plays)")
    shw.add_argument("--json", action="store_true", help="the same content as JSON")


def _solve_arguments(sol) -> None:
    solvable = [games.get(name) for name in games.names_with("solve_hands")]
    sol.add_argument("game", metavar="GAME", help="one of: " + ", ".join(g.name for g in solvable))
    sol.add_argument("--deals", "-n", type=_whole_number, required=True, help="number of deals")
    sol.add_argument("--seed", type=_whole_number, default=0, help="master seed (default 0)")
    sol.add_argument("--threads", type=_whole_number, default=None,
                     help="worker threads (default: all cores)")
    sol.add_argument("--out", default=None, help="output folder (default: data/GAME-solve-sSEED-nN)")
    decisions = "; ".join(f"{g.name} only: " + ", ".join(f"{d}=NAME, {role}" for d, role in
                                                         g.solve_decisions.items())
                          for g in solvable if g.solve_decisions)
    sol.add_argument("--policy", action="extend", nargs="+", default=[], metavar="SPEC",
                     help=_help(decisions or "no game's table reads a decision policy"))
    sol.add_argument("--rules", action="extend", nargs="+", default=[], metavar="KEY=VALUE",
                     help="rules options (see `simcore describe GAME`)")
    for option, owners in _solve_options(solvable).items():
        sol.add_argument(f"--{option}", default=None, metavar="MODE",
                         help=_help("; ".join(f"{g.name} only: {g.solve_options[option][1]}"
                                              for g in owners)))
    sol.add_argument("--resume", action="store_true", help="finish an interrupted run in --out")
    sol.add_argument("--chunk-size", type=_whole_number, default=None,
                     help="deals per Parquet part (default: per game, see docs/solving.md)")
    sol.add_argument("--cluster", default=None, metavar="ADDRESS",
                     help="compute the chunks on a Dask cluster: tcp://host:8786 or local:N")
    sol.add_argument("--quiet", "-q", action="store_true", help="no progress bar")
    sol.add_argument("--predeal", action="append", default=[], metavar="SEAT=CARDS",
                     help="fix cards to a seat or slot, e.g. 0=AS,KS,3H (repeatable)")
    sol.add_argument("--condition", action="append", default=[], metavar="EXPR",
                     help="keep only deals where SEAT:FEATURE OP N holds (repeatable)")


def _help(text: str) -> str:
    """Text from a game's record as argparse help (which %-formats it)."""
    return text.replace("%", "%%")


def _solve_options(solvable) -> dict:
    """Every solve option of the games (``--NAME``) -> the games that take it."""
    owners: dict = {}
    for g in solvable:
        for option in g.solve_options:
            owners.setdefault(option, []).append(g)
    return owners


def _advise_parser(sub) -> None:
    sub.add_parser("advise", help="which call for my hand: every option's value at three levels of play",
                   complete=_advise_arguments)


def _advise_arguments(adv) -> None:
    from simcore.games.advising import LEVELS

    advisable = [games.get(name) for name in games.names_with("advisor")]
    adv.description = ("Deal many hands consistent with yours and answer, for every option of "
                       "your decision, what it is worth with 95% intervals: open-hand "
                       "(simcore solve), under pimc play and under heuristic play "
                       "(what-if runs). "
                       + "; ".join(f"{g.title}: {g.advisor.summary}" for g in advisable)
                       + ". The default sizes (below) take under a minute of CPU once the kernels "
                       "are compiled, and decide typical questions (measured: docs/advise.md).")
    adv.add_argument("game", metavar="GAME", help="one of: " + ", ".join(g.name for g in advisable))
    adv.add_argument("--hand", required=True, metavar="CARDS", help="your cards, e.g. AS,KS,QS,3H,...")
    upcard = [g.name for g in advisable if g.advisor.upcard]
    adv.add_argument("--upcard", default=None, metavar="CARD",
                     help=", ".join(upcard) + ": the turned-up card" if upcard else "no game has one")
    adv.add_argument("--levels", default=None, metavar="LIST",
                     help="comma-separated: open-hand (or dd), pimc, heuristic (default: "
                          + _default_levels_text(advisable, LEVELS) + ")")
    adv.add_argument("--deals", "-n", type=_whole_number, default=None,
                     help="deals at every level (default: per game and level, below)")
    for level in LEVELS:
        adv.add_argument(f"--{level}-deals", type=_whole_number, default=None, metavar="N",
                         help=f"deals at the {level} level (default: {_default_deals_text(advisable, level)})")
    adv.add_argument("--pimc", default="pimc", metavar="POLICY", help="the search policy of the pimc level "
                                                                       "(pimc, pimc:W or pimc-uniform:W, default pimc)")
    adv.add_argument("--options", default=None, metavar="LIST", help="show only these options (comma-separated)")
    adv.add_argument("--seed", type=_whole_number, default=0, help="master seed (default 0)")
    adv.add_argument("--rules", action="extend", nargs="+", default=[], metavar="KEY=VALUE",
                     help="rules options (see `simcore describe GAME`)")
    adv.add_argument("--threads", type=_whole_number, default=None, help="worker threads (default: all cores)")
    adv.add_argument("--out", default=None, help="output folder (default: data/advise-GAME-HASH); "
                                                 "rerunning reuses its finished runs")
    adv.add_argument("--quiet", "-q", action="store_true", help="no progress bars")


def _default_deals_text(advisable, level: str) -> str:
    """``G1 2,000; G2 4 when asked``: each game's default size of ``level``."""
    return "; ".join(f"{g.name} {g.advisor.default_deals[level]:,}"
                     + ("" if level in g.advisor.default_levels else " when asked") for g in advisable)


def _default_levels_text(advisable, levels) -> str:
    """``all three for G1; pimc and heuristic for G2 and G3``: the games grouped by their
    default levels."""
    groups: dict[tuple, list[str]] = {}
    for g in advisable:
        groups.setdefault(tuple(g.advisor.default_levels), []).append(g.name)
    return "; ".join(("all three" if chosen == tuple(levels) else " and ".join(chosen))
                     + " for " + " and ".join(names) for chosen, names in groups.items())


def main(argv: list[str] | None = None) -> int:
    try:
        args = build_parser().parse_args(argv)
        return _dispatch(args)
    except SimcoreError as e:
        print(f"simcore: error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("simcore: interrupted; parts already written are kept (rerun with --resume)",
              file=sys.stderr)
        return 130


def _dispatch(args) -> int:
    if args.command == "simulate":
        return _simulate(args)
    if args.command == "solve":
        return _solve(args)
    if args.command == "analyze":
        from analyses import run_analysis

        data = args.data[0] if len(args.data) == 1 else args.data
        written = run_analysis(args.name, data, args.out, labels=args.label)
        for path in written:
            print(path)
        return 0
    if args.command == "advise":
        return _advise(args)
    if args.command == "describe":
        return _describe(args.game)
    if args.command == "show":
        from simcore.show import main as show_main

        return show_main(args)
    raise SimcoreError(f"unknown command {args.command!r}")


def _simulate(args) -> int:
    from simcore.batch import simulate

    out = args.out or f"data/{args.game}-{args.mode}-s{args.seed}-n{args.deals}"
    started = time.perf_counter()
    run = simulate(
        args.game,
        args.deals,
        seed=args.seed,
        out=out,
        threads=args.threads,
        mode=args.mode,
        policy=args.policy,
        rules=_key_values(args.rules, "--rules"),
        log_plays=args.log_plays,
        resume=args.resume,
        quiet=args.quiet,
        chunk_size=args.chunk_size,
        cluster=args.cluster,
        what_if=args.what_if,
        predeal=args.predeal or None,
        conditions=args.condition or None,
    )
    if not args.quiet:
        seconds = time.perf_counter() - started
        unit = "games" if args.mode == "games" else "hands"
        print(f"{run.path}: {args.deals:,} {unit} done in {seconds:.1f} s "
              f"({args.deals / seconds:,.0f} {unit}/s, this call)", file=sys.stderr)
    return 0


def _solve(args) -> int:
    from simcore.batch import solve_deals

    out = args.out or f"data/{args.game}-solve-s{args.seed}-n{args.deals}"
    started = time.perf_counter()
    run = solve_deals(args.game, args.deals, seed=args.seed, out=out, threads=args.threads,
                      policy=args.policy, rules=_key_values(args.rules, "--rules"),
                      resume=args.resume, quiet=args.quiet, chunk_size=args.chunk_size,
                      cluster=args.cluster, predeal=args.predeal or None,
                      conditions=args.condition or None,
                      options=_chosen_solve_options(args))
    if not args.quiet:
        seconds = time.perf_counter() - started
        print(f"{run.path}: {args.deals:,} deals solved in {seconds:.1f} s "
              f"({args.deals / seconds:,.1f} deals/s, this call)", file=sys.stderr)
    return 0


def _chosen_solve_options(args) -> dict[str, str] | None:
    """The solve options given on the command line (``--NAME CHOICE``), None without any."""
    solvable = [games.get(name) for name in games.names_with("solve_hands")]
    chosen = {name: getattr(args, name.replace("-", "_")) for name in _solve_options(solvable)}
    return {name: value for name, value in chosen.items() if value is not None} or None


def _advise(args) -> int:
    from simcore.advise import default_out, parse_request, run

    sizes = {lv: getattr(args, f"{lv.replace('-', '_')}_deals") for lv in ("open-hand", "pimc", "heuristic")}
    req = parse_request(args.game, args.hand, upcard=args.upcard, levels=args.levels, deals=args.deals,
                        level_deals={k: v for k, v in sizes.items() if v is not None}, seed=args.seed,
                        rules=_key_values(args.rules, "--rules"), pimc=args.pimc, options=args.options,
                        out=args.out)
    if req.out is None:  # the command line always keeps its runs and files
        req.out = default_out(req)
    advice = run(req, threads=args.threads, quiet=args.quiet)
    print(advice)
    print()
    for path in advice.files:
        print(path)
    return 0


def _describe(name: str) -> int:
    game = games.get(name)
    print(f"{game.name}: {game.n_seats} seats")
    print("rules options (--rules KEY=VALUE):")
    for line in game.rules_cls.describe():
        print(f"  {line}")
    print(f"play policies (--policy NAME or SEAT=NAME; default {game.default_play}):")
    print("  " + ", ".join(game.play_policies))
    for note in game.policy_notes:
        print(f"  {note}")
    for decision, names in game.decisions.items():
        print(f"{decision} policies (--policy {decision}=NAME; default {game.default_decisions[decision]}):")
        print("  " + ", ".join(names))
    print("what-if decisions (--what-if DECISION: one row per option):")
    if not game.what_if:
        print("  none")
    for decision, options in game.what_if.items():
        print(f"  {decision}: {' | '.join(options)}; {game.what_if_doc.get(decision, '')}")
    if game.solve_hands is not None:
        print("open-hand solving (simcore solve GAME; simcore.solve for one position):")
        print(f"  {game.solve_doc}")
        if game.solve_decisions:
            print("  reads the decision policies: " + ", ".join(game.solve_decisions))
        for name, (choices, doc) in game.solve_options.items():
            print(f"  --{name} {'|'.join(choices)}: {doc}")
    layout = game.deal_layout
    if layout is None:
        print("constrained dealing (--predeal, --condition): not supported")
        return 0
    print("predeal slots (--predeal SLOT=CARDS): " + ", ".join(layout.predeal_slots))
    seats = [name for name, _ in layout.slots] + list(layout.roles)
    print("condition seats (--condition SEAT:FEATURE OP N): " + ", ".join(seats))
    print("condition features (OP: >= <= == != > <):")
    for line in layout.describe_features():
        print(f"  {line}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
