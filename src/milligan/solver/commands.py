"""``milligan solve`` and ``milligan hint``."""

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
    positive_float,
    positive_int,
    read_record_file,
)
from milligan.game import Game
from milligan.record import Record


def register(subparsers: Any) -> None:
    """Add ``solve`` and ``hint`` to the ``milligan`` command."""
    solve = subparsers.add_parser(
        "solve",
        help="solve a deal or a saved game with complete knowledge",
        description="Solve a deal (--variant V --number N) or the position a record reaches. "
        "Prints won with the moves, lost (proven), or unknown (a limit ran out).",
    )
    add_game_arguments(solve, number_default=None)
    solve.add_argument("record", nargs="?", metavar="RECORD.json", help="a milligan-record/1 file")
    solve.add_argument("--timeout", type=positive_float, default=60.0, metavar="S",
                       help="seconds before giving up (default 60)")
    solve.add_argument("--max-positions", type=positive_int, default=None, metavar="N",
                       help="expanded positions before giving up")
    solve.add_argument("--max-memory", type=positive_int, default=1024, metavar="MB",
                       help="position table budget in MiB (default 1024)")
    solve.add_argument("--json", action="store_true",
                       help="print a milligan-record/1 record with result, positions, seconds")
    solve.set_defaults(handler=cmd_solve)

    hint = subparsers.add_parser(
        "hint",
        help="suggest the next move from what the player can see",
        description="Sample the unseen cards, solve each sample, suggest the move that wins most.",
    )
    hint.add_argument("record", metavar="RECORD.json", help="a milligan-record/1 file")
    hint.add_argument("--samples", type=positive_int, default=16, metavar="K",
                      help="how many orders of the unseen cards to try (default 16)")
    hint.add_argument("--seed", type=int, default=0, metavar="S", help="sampling seed (default 0)")
    hint.add_argument("--max-positions", type=positive_int, default=20000, metavar="N",
                      help="position budget per sample (default 20000)")
    hint.add_argument("--json", action="store_true", help="print the hint as JSON")
    hint.set_defaults(handler=cmd_hint)


def _input_record(args: argparse.Namespace) -> Record:
    if args.record is not None:
        if args.number is not None:
            raise UsageError("give either RECORD.json or --number, not both")
        return read_record_file(args.record)
    if args.number is None:
        raise UsageError("give a deal (--variant V --number N) or a RECORD.json")
    return Record.of(Game.new(args.variant, args.number))


def cmd_solve(args: argparse.Namespace) -> int:
    from milligan.solver import solve

    record = _input_record(args)
    game = record.replay()
    with _progress_display(args.max_positions, args.timeout) as progress:
        result = solve(
            game,
            timeout=args.timeout,
            max_positions=args.max_positions,
            max_memory_mb=args.max_memory,
            progress=progress,
        )
    if args.json:
        out = Record(
            record.variant, record.deal, record.order, record.moves + result.moves, result.result
        ).to_dict()
        out["positions"] = result.positions
        out["seconds"] = round(result.seconds, 3)
        print(json.dumps(out))
        return 0
    rate = result.positions / result.seconds if result.seconds > 0 else 0.0
    print(f"{result.result}: {result.positions} positions in {result.seconds:.2f} s "
          f"({rate:,.0f}/s)")
    if result.result == "won":
        print(f"{len(result.moves)} moves:")
        print(" ".join(str(move) for move in result.moves))
    return 0


def cmd_hint(args: argparse.Namespace) -> int:
    from milligan.solver import hint

    game = read_record_file(args.record).replay()
    if game.status != "playing":
        raise UsageError(f"the game is over ({game.status}): there is nothing to hint")
    result = hint(game, samples=args.samples, seed=args.seed, max_positions=args.max_positions)
    move = None if result.move is None else str(result.move)
    if args.json:
        print(json.dumps({"move": move, "win_chance": result.win_chance,
                          "samples": result.samples, "wins": result.wins}))
        return 0
    shown = move if move is not None else "none (no sample was won)"
    print(f"move: {shown}")
    print(f"win chance: {result.win_chance:.0%} ({result.wins} of {result.samples} samples won)")
    return 0


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
