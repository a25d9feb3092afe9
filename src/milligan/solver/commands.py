"""``milligan solve``, ``hint``, ``autoplay`` and ``analyse``."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from milligan.cli import (
    UsageError,
    add_game_arguments,
    memory_mb,
    positive_float,
    positive_int,
    read_record_file,
)
from milligan.game import Game
from milligan.record import Record
from milligan.solver.results import SolveResult


def register(subparsers: Any) -> None:
    """Add ``solve``, ``hint``, ``autoplay`` and ``analyse`` to the ``milligan`` command."""
    solve = subparsers.add_parser(
        "solve",
        help="solve a deal or a saved game with complete knowledge",
        description="Solve a deal (--variant V --number N) or the position a record reaches. "
        "Prints won with the moves, lost (proven), or unknown (a limit ran out).",
    )
    add_game_arguments(solve, number_default=None)
    solve.add_argument("record", nargs="?", metavar="RECORD.json", help="a milligan-record/1 file")
    solve.add_argument(
        "--timeout",
        type=positive_float,
        default=60.0,
        metavar="S",
        help="seconds before giving up (default 60)",
    )
    solve.add_argument(
        "--max-positions",
        type=positive_int,
        default=None,
        metavar="N",
        help="expanded positions before giving up",
    )
    solve.add_argument(
        "--max-memory",
        type=memory_mb,
        default=1024,
        metavar="MB",
        help="position table budget in MiB (default 1024)",
    )
    solve.add_argument(
        "--json",
        action="store_true",
        help="print a milligan-record/1 record with result, positions, seconds",
    )
    solve.set_defaults(handler=cmd_solve)

    hint = subparsers.add_parser(
        "hint",
        help="suggest the next move from what the player can see",
        description="The fair player's advice for the position a record reaches: it sees only "
        "what the player sees, plans up to the next deal (or face-down card), and scores its "
        "candidate plans on the same sampled deals. The win chance is an estimate.",
    )
    hint.add_argument("record", metavar="RECORD.json", help="a milligan-record/1 file")
    _add_fair_arguments(hint)
    hint.add_argument(
        "--json",
        action="store_true",
        help="print the hint as JSON: move, win_chance, win_estimate, samples, wins, plan, repeats",
    )
    hint.set_defaults(handler=cmd_hint)

    from milligan.solver.fair import DEFAULT_POSITIONS, DEFAULT_SAMPLES

    auto = subparsers.add_parser(
        "autoplay",
        help="play a deal or a saved game to its end with the fair player",
        description="Play with the fair player alone, from a deal (--variant V --number N) or "
        "from the position a record reaches, and print the game as a record with its result: "
        "won, lost (a dead end) or resigned (no progress possible). At the default budget "
        f"({DEFAULT_SAMPLES} samples, {DEFAULT_POSITIONS:,} positions per decision) a game of "
        "classic takes about 16 CPU seconds on one core, the slowest of deals 1-2400 93 seconds "
        '(measured in docs/BENCHMARKS.md, "The fair player").',
    )
    add_game_arguments(auto, number_default=None)
    auto.add_argument("record", nargs="?", metavar="RECORD.json", help="a milligan-record/1 file")
    _add_fair_arguments(auto)
    auto.add_argument("--json", action="store_true", help="print a milligan-record/1 record")
    auto.set_defaults(handler=cmd_autoplay)

    analyse = subparsers.add_parser(
        "analyse",
        help="find the move where a game that was not won threw the win away",
        description="Binary search over the line of a record with complete-knowledge solves: "
        "the turning point is the last move after which a win was no longer possible, with a "
        "winning line from just before it. A won game has nothing to analyse (status 2).",
    )
    analyse.add_argument("record", metavar="RECORD.json", help="a milligan-record/1 file")
    analyse.add_argument(
        "--timeout",
        type=positive_float,
        default=10.0,
        metavar="S",
        help="seconds per solve (default 10)",
    )
    analyse.add_argument(
        "--max-positions",
        type=positive_int,
        default=None,
        metavar="N",
        help="expanded positions per solve (makes the result reproducible)",
    )
    analyse.add_argument("--json", action="store_true", help="print the analysis as JSON")
    analyse.set_defaults(handler=cmd_analyse)


def _input_record(args: argparse.Namespace) -> Record:
    if args.record is not None:
        if args.number is not None:
            raise UsageError("give either RECORD.json or --number, not both")
        return read_record_file(args.record)
    if args.number is None:
        raise UsageError("give a deal (--variant V --number N) or a RECORD.json")
    return Record.of(Game.new(args.variant, args.number))


def warn_if_plain() -> None:
    """Say on standard error that searches will be slow, when the core is missing."""
    from milligan.solver import compiled

    if not compiled.AVAILABLE:
        print(f"warning: {compiled.MISSING}", file=sys.stderr, flush=True)


def cmd_solve(args: argparse.Namespace) -> int:
    from milligan.solver import solve

    record = _input_record(args)
    game = record.replay()
    warn_if_plain()
    if game.position.is_won():
        # nothing to solve: a win needs no more moves (not even the S of the
        # reprieve the winning move may have opened)
        return _print_solution(args, record, SolveResult("won", (), 0, 0.0))
    with _progress_display(args.max_positions, args.timeout) as progress:
        result = solve(
            game,
            timeout=args.timeout,
            max_positions=args.max_positions,
            max_memory_mb=args.max_memory,
            progress=progress,
        )
    return _print_solution(args, record, result)


def _print_solution(args: argparse.Namespace, record: Record, result: SolveResult) -> int:
    if args.json:
        out = Record(
            record.variant, record.deal, record.order, record.moves + result.moves, result.result
        ).to_dict()
        out["positions"] = result.positions
        out["seconds"] = round(result.seconds, 3)
        print(json.dumps(out))
        return 0
    rate = result.positions / result.seconds if result.seconds > 0 else 0.0
    print(
        f"{result.result}: {result.positions} positions in {result.seconds:.2f} s ({rate:,.0f}/s)"
    )
    if result.result == "won":
        print(f"{len(result.moves)} moves:")
        print(" ".join(str(move) for move in result.moves))
    return 0


def cmd_hint(args: argparse.Namespace) -> int:
    from milligan.solver import hint
    from milligan.solver.estimate import counted

    game = read_record_file(args.record).replay()
    if game.status != "playing":
        raise UsageError(f"the game is over ({game.status}): there is nothing to hint")
    warn_if_plain()
    result = hint(game, None, **_fair_options(args))
    move = None if result.move is None else str(result.move)
    plan = [str(step) for step in result.plan]
    if args.json:
        print(
            json.dumps(
                {
                    "move": move,
                    "win_chance": result.win_chance,
                    "win_estimate": result.win_estimate,
                    "samples": result.samples,
                    "wins": result.wins,
                    "plan": plan,
                    "repeats": result.repeats,
                }
            )
        )
        return 0
    print(f"move: {move if move is not None else 'none (nothing is legal)'}")
    if result.repeats:
        print("note: every legal move leads back to a position already reached")
    about = (
        f"about {result.win_estimate:.0%} "
        f"(an estimate; the plan won {result.wins} of {result.samples} sampled deals)"
    )
    # none won, or all: said as a count, not as a certainty
    print(f"win chance: {counted(result.wins, result.samples) or about}")
    if len(plan) > 1:
        print(f"plan: {' '.join(plan)}")
    return 0


def cmd_autoplay(args: argparse.Namespace) -> int:
    from milligan.solver.fair import autoplay

    record = _input_record(args)
    game = record.replay()
    if game.status != "playing":
        raise UsageError(f"the game is over ({game.status}): there is nothing to play")
    warn_if_plain()
    played = autoplay(game, **_fair_options(args))
    result = played.result
    out = Record.of(game, result)
    if args.json:
        print(json.dumps(out.to_dict()))
        return 0
    print(
        f"{result} after {len(game.moves)} moves, {game.position.cards_on_foundations()} cards up"
    )
    print(" ".join(str(move) for move in game.moves))
    return 0


def cmd_analyse(args: argparse.Namespace) -> int:
    from milligan.solver.analysis import NothingToAnalyse, analyse

    game = read_record_file(args.record).replay()
    try:
        found = analyse(game, timeout=args.timeout, max_positions=args.max_positions)
    except NothingToAnalyse as error:
        raise UsageError(str(error)) from None
    if args.json:
        print(json.dumps(found.to_dict()))
        return 0
    print(found.note)
    if found.better_from is not None and found.better and not found.still_winnable:
        print(
            f"a win from move {found.better_from + 1} on: "
            + " ".join(str(move) for move in found.better)
        )
    elif found.still_winnable:
        print("a win from the end: " + " ".join(str(move) for move in found.better))
    for drop in found.fair_drops:
        print(
            f"fair win chance fell from {drop.before:.0%} to {drop.after:.0%} "
            f"over moves {drop.first}-{drop.index}"
        )
    print(
        f"{len(found.verdicts)} solves in {found.seconds:.1f} s: "
        + ", ".join(f"{probe.index}={probe.verdict}" for probe in found.verdicts)
    )
    return 0


#: More samples than this would make one decision take hours.
MAX_SAMPLES = 1000


def _samples(text: str) -> int:
    value = positive_int(text)
    if value > MAX_SAMPLES:
        raise argparse.ArgumentTypeError(f"at most {MAX_SAMPLES} samples, not {value}")
    return value


def _fair_options(args: argparse.Namespace) -> dict[str, int]:
    """The fair player's keyword arguments from ``_add_fair_arguments``'s options."""
    from milligan.solver.fair import default_threads

    return {
        "samples": args.samples,
        "seed": args.seed,
        "max_positions": args.max_positions,
        "threads": args.threads if args.threads is not None else default_threads(),
    }


def _add_fair_arguments(parser: argparse.ArgumentParser) -> None:
    from milligan.solver.fair import DEFAULT_POSITIONS, DEFAULT_SAMPLES, MAX_THREADS

    parser.add_argument(
        "--samples",
        type=_samples,
        default=DEFAULT_SAMPLES,
        metavar="K",
        help=f"sampled deals a decision is scored on (default {DEFAULT_SAMPLES}, "
        f"at most {MAX_SAMPLES})",
    )
    parser.add_argument(
        "--seed", type=int, default=0, metavar="S", help="sampling seed (default 0)"
    )
    parser.add_argument(
        "--max-positions",
        type=positive_int,
        default=DEFAULT_POSITIONS,
        metavar="N",
        help=f"positions one decision may expand in all (default {DEFAULT_POSITIONS:,})",
    )
    parser.add_argument(
        "--threads",
        type=positive_int,
        default=None,
        metavar="T",
        help="searches a decision runs at once; only the speed changes, never the moves "
        f"(default: the cores this process may use, at most {MAX_THREADS})",
    )


@contextmanager
def _progress_display(
    max_positions: int | None, timeout: float | None
) -> Iterator[Callable[[int, float], None] | None]:
    """A rich progress line on stderr when it is a terminal, else nothing."""
    if not sys.stderr.isatty():
        yield None
        return
    from rich.console import Console
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    console = Console(stderr=True)
    total = float(max_positions) if max_positions is not None else timeout
    with Progress(
        TextColumn("solving"),
        BarColumn(),
        TextColumn("{task.fields[positions]:>12,} positions  {task.fields[rate]:>10,.0f}/s"),
        TimeElapsedColumn(),
        console=console,
        transient=True,
    ) as bar:
        task = bar.add_task("solve", total=total, positions=0, rate=0.0)

        def update(positions: int, seconds: float) -> None:
            done = positions if max_positions is not None else seconds
            rate = positions / seconds if seconds > 0 else 0.0
            bar.update(task, completed=done, positions=positions, rate=rate)

        yield update
