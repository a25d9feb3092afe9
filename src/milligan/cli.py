"""The ``milligan`` command.

Engine commands (``deal``, ``replay``, ``play``) live here; the solver, the
server and the survey add theirs through a ``register(subparsers)`` function
in their own ``commands`` module, so each part owns its command line.

Bad input never shows a traceback: one line on stderr and exit status 2.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NoReturn

from milligan.errors import MilliganError
from milligan.game import Game
from milligan.record import Record, game_to_json
from milligan.variants import PRESETS, Variant

#: Modules that add subcommands; each has ``register(subparsers)``.
COMMAND_MODULES = ("milligan.solver.commands", "milligan.web.commands", "milligan.survey.commands")

EXIT_BAD_INPUT = 2


class UsageError(MilliganError):
    """Bad command-line input that no other error covers."""


class Parser(argparse.ArgumentParser):
    """An argument parser that reports errors in one line, exit status 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_BAD_INPUT, f"{self.prog}: error: {message}\n")


def variant_arg(text: str) -> Variant:
    """``--variant``: a preset name, or settings as JSON."""
    text = text.strip()
    if text.startswith("{"):
        try:
            return Variant.from_json(json.loads(text))
        except json.JSONDecodeError as error:
            raise argparse.ArgumentTypeError(f"bad variant JSON: {error}") from None
        except MilliganError as error:
            raise argparse.ArgumentTypeError(str(error)) from None
    try:
        return Variant.named(text)
    except MilliganError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def deal_number_arg(text: str) -> int:
    """``--number``: a deal number from 0 to 2**64-1 (decimal or 0x hex)."""
    try:
        number = int(text, 0)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a deal number") from None
    if not 0 <= number < 2**64:
        raise argparse.ArgumentTypeError(f"deal number {text} is out of range (0 to 2**64-1)")
    return number


def positive_int(text: str) -> int:
    """A whole number of at least 1 (counts and budgets)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text} must be at least 1")
    return value


def positive_float(text: str) -> float:
    """A number above 0 (seconds)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"{text} must be more than 0")
    return value


def read_record_file(path: str) -> Record:
    """Read a record file; one-line errors for missing files and bad JSON."""
    try:
        text = Path(path).read_bytes() if path != "-" else sys.stdin.buffer.read()
    except OSError as error:
        raise UsageError(f"cannot read {path}: {error.strerror}") from None
    return Record.from_json(text)


def add_game_arguments(parser: argparse.ArgumentParser, number_default: int | None) -> None:
    """The shared ``--variant`` and ``--number`` options."""
    parser.add_argument(
        "--variant",
        type=variant_arg,
        default=PRESETS["classic"],
        metavar="V",
        help=f"variant: {', '.join(PRESETS)} or settings as JSON (default classic)",
    )
    parser.add_argument(
        "--number",
        type=deal_number_arg,
        default=number_default,
        metavar="N",
        help="deal number, 0 to 2**64-1"
        + (" (default: random)" if number_default is None else f" (default {number_default})"),
    )


def _number_or_random(number: int | None) -> int:
    """The deal number asked for, or a random one (shown to the player)."""
    if number is not None:
        return number
    import secrets

    return secrets.randbits(32)


# -- deal ---------------------------------------------------------------------


def cmd_deal(args: argparse.Namespace) -> int:
    from milligan.terminal import render_game, use_colour

    game = Game.new(args.variant, _number_or_random(args.number))
    if args.json:
        out = game_to_json(game)
        out["order"] = [str(card) for card in game.order]
        print(json.dumps(out))
    else:
        print(render_game(game, colour=use_colour(sys.stdout)))
    return 0


# -- replay -------------------------------------------------------------------


def cmd_replay(args: argparse.Namespace) -> int:
    from milligan.terminal import render_game, use_colour

    record = read_record_file(args.record)
    game = record.replay()
    if args.json:
        print(json.dumps(game_to_json(game)))
    else:
        print(render_game(game, colour=use_colour(sys.stdout)))
    return 0


# -- play -------------------------------------------------------------------------


def cmd_play(args: argparse.Namespace) -> int:
    from milligan.terminal import play

    if args.resume is not None:
        record = read_record_file(args.resume)
        game = record.replay()
        save_path: str | None = args.resume
    else:
        game = Game.new(args.variant, _number_or_random(args.number))
        save_path = None
    return play(game, save_path=save_path)


def build_parser() -> Parser:
    """The whole ``milligan`` command line."""
    parser = Parser(
        prog="milligan",
        description="Miss Milligan patience: play, replay, solve and survey.",
    )
    parser.add_argument("--version", action="version", version=_version())
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    sub.required = True

    deal = sub.add_parser("deal", help="show a deal's opening layout")
    add_game_arguments(deal, number_default=None)
    deal.add_argument("--json", action="store_true", help="print the position and order as JSON")
    deal.set_defaults(handler=cmd_deal)

    replay = sub.add_parser("replay", help="replay a record and show the final position")
    replay.add_argument(
        "record", metavar="RECORD.json", help="a milligan-record/1 file (- for stdin)"
    )
    replay.add_argument("--json", action="store_true", help="print the position as JSON")
    replay.set_defaults(handler=cmd_replay)

    play = sub.add_parser("play", help="play a game in the terminal")
    add_game_arguments(play, number_default=None)
    play.add_argument("--resume", metavar="RECORD.json", help="resume a saved game")
    play.set_defaults(handler=cmd_play)

    for name in COMMAND_MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as error:
            if error.name is not None and name.startswith(error.name):
                continue  # that part of the package is not there
            raise
        register: Callable[[Any], None] = module.register
        register(sub)
    return parser


def _version() -> str:
    from milligan import __version__

    return f"milligan {__version__}"


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        status: int = args.handler(args)
    except MilliganError as error:
        message = " ".join(str(error).split())  # always one line
        print(f"milligan {args.command}: error: {message}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    return status


if __name__ == "__main__":
    sys.exit(main())
