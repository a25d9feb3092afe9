"""The ``milligan`` command.

Engine commands (``deal``, ``replay``, ``play``) live here; the solver, the
server and the survey add theirs through a ``register(subparsers)`` function
in their own ``commands`` module, so each part owns its command line.

Bad input never shows a traceback: one line on stderr and exit status 2.
Numbers are read in ASCII digits only:

>>> deal_number_arg("0x2A")
42
>>> positive_int("٥")
Traceback (most recent call last):
...
argparse.ArgumentTypeError: '٥' is not a whole number of at least 1
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import re
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NoReturn

from milligan.cards import quoted
from milligan.errors import MilliganError
from milligan.game import Game
from milligan.record import MAX_RECORD_BYTES, Record, decode_json, game_to_json
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
            return Variant.from_json(decode_json(text))
        except MilliganError as error:
            raise argparse.ArgumentTypeError(str(error)) from None
        except ValueError as error:
            raise argparse.ArgumentTypeError(f"bad variant JSON: {error}") from None
    try:
        return Variant.named(text)
    except MilliganError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


_DEAL_NUMBER = re.compile(r"[0-9]{1,40}|0[xX][0-9a-fA-F]{1,40}", re.ASCII)
_WHOLE = re.compile(r"[0-9]{1,40}", re.ASCII)
_DIGITS = re.compile(r"-?[0-9]+", re.ASCII)


def deal_number_arg(text: str) -> int:
    """``--number``: a deal number from 0 to 2**64-1 (decimal or 0x hex), in ASCII digits."""
    clean = text.strip(" ")
    if _DIGITS.fullmatch(clean) and not _DEAL_NUMBER.fullmatch(clean):
        raise argparse.ArgumentTypeError(
            f"deal number {quoted(text)} is out of range (0 to 2**64-1)"
        )
    if not _DEAL_NUMBER.fullmatch(clean):
        raise argparse.ArgumentTypeError(
            f"{quoted(text)} is not a deal number (digits 0-9, or hex as 0x...)"
        )
    number = int(clean, 0 if clean[:2].lower() == "0x" else 10)
    if not 0 <= number < 2**64:
        raise argparse.ArgumentTypeError(f"deal number {text} is out of range (0 to 2**64-1)")
    return number


#: The largest count or budget the command line takes: what a C ``long`` holds.
MAX_COUNT = 2**63 - 1


def positive_int(text: str) -> int:
    """A whole number from 1 to :data:`MAX_COUNT` (counts and budgets), in ASCII digits."""
    clean = text.strip(" ")
    if not _DIGITS.fullmatch(clean) or clean.startswith("-"):
        raise argparse.ArgumentTypeError(f"{quoted(text)} is not a whole number of at least 1")
    if not _WHOLE.fullmatch(clean) or int(clean) > MAX_COUNT:
        raise argparse.ArgumentTypeError(f"{quoted(text)} is too large (at most {MAX_COUNT})")
    value = int(clean)
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text} must be at least 1")
    return value


def positive_float(text: str) -> float:
    """A number above 0 (seconds), in ASCII; ``inf`` means no limit."""
    if not text.isascii():
        raise argparse.ArgumentTypeError(f"{quoted(text)} is not a number")
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{quoted(text)} is not a number") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"{text} must be more than 0")
    return value


#: The most memory a command may be told to use, however much the machine has.
MAX_MEMORY_MB = 64 * 1024


def machine_memory_mb() -> int:
    """The machine's memory in MiB (:data:`MAX_MEMORY_MB` where it cannot be read)."""
    try:
        total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, ValueError, OSError):
        return MAX_MEMORY_MB
    return total >> 20 if total > 0 else MAX_MEMORY_MB


def memory_mb(text: str) -> int:
    """``--max-memory``: MiB, from 1 to the machine's memory (never over :data:`MAX_MEMORY_MB`)."""
    value = positive_int(text)
    limit = min(machine_memory_mb(), MAX_MEMORY_MB)
    if value > limit:
        raise argparse.ArgumentTypeError(
            f"{value} MiB is more than this machine can give (at most {limit} MiB)"
        )
    return value


def read_record_bytes(path: str) -> bytes:
    """A record file's bytes (``-`` for stdin); one-line errors for unreadable or large files."""
    try:
        if path == "-":
            text = sys.stdin.buffer.read(MAX_RECORD_BYTES + 1)
        else:
            with Path(path).open("rb") as file:
                text = file.read(MAX_RECORD_BYTES + 1)
    except OSError as error:
        raise UsageError(f"cannot read {path}: {error.strerror}") from None
    if len(text) > MAX_RECORD_BYTES:
        raise UsageError(f"{path} is not a record: it is over {MAX_RECORD_BYTES >> 20} MiB")
    return text


def read_record_file(path: str) -> Record:
    """Read a record file; one-line errors for missing files, large files and bad JSON."""
    return Record.from_json(read_record_bytes(path))


def add_game_arguments(
    parser: argparse.ArgumentParser,
    number_default: int | None,
    variant_default: Variant | None = PRESETS["classic"],
) -> None:
    """The shared ``--variant`` and ``--number`` options.

    With ``variant_default=None`` the command can tell whether ``--variant``
    was given (it then means classic).
    """
    parser.add_argument(
        "--variant",
        type=variant_arg,
        default=variant_default,
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
        given = [
            option
            for option, value in (
                ("--variant", args.variant),
                ("--number", args.number),
                ("--daily", args.daily or None),
                ("--date", args.date),
            )
            if value is not None
        ]
        if given:
            raise UsageError(f"--resume plays the record's own deal: drop {' and '.join(given)}")
        if args.resume == "-":
            raise UsageError("--resume takes a file, which the game is saved back to")
        text = read_record_bytes(args.resume)
        game = Record.from_json(text).replay()
        # Valid JSON by now; its keys beyond the record's own are kept when saving.
        return play(game, save_path=args.resume, base=json.loads(text))
    if args.daily or args.date is not None:
        return _play_daily(args)
    game = Game.new(args.variant or PRESETS["classic"], _number_or_random(args.number))
    return play(game)


def _play_daily(args: argparse.Namespace) -> int:
    """``play --daily``: the daily deal (docs/RULES.md §10), then the share text."""
    import time

    from milligan import daily
    from milligan.terminal import play, read_line

    if not args.daily:
        raise UsageError("--date goes with --daily")
    if args.number is not None:
        raise UsageError("--daily plays the day's own deal: drop --number")
    variant_id = (args.variant or PRESETS["classic"]).name
    if variant_id is None:
        raise UsageError("--daily is for the five presets, not custom settings")
    today = daily.today()
    day = today if args.date is None else daily.parse_date(args.date)
    if day > today:
        raise UsageError(f"the daily deal of {day} is not out yet (today is {today} UTC)")
    number = daily.daily_deal(day, variant_id)
    print(f"Daily deal of {day} ({variant_id}): deal {number}")
    hints = 0

    def read(prompt: str) -> str:
        nonlocal hints
        line = read_line(prompt)
        hints += line.strip().lower() in ("h", "hint")
        return line

    game = Game.new(variant_id, number)
    began = time.monotonic()
    status = play(game, read=read)
    if game.is_over():
        print(
            daily.share_text(
                day,
                variant_id,
                won=game.status == "won",
                moves=len(game.moves),
                seconds=time.monotonic() - began,
                hints=hints,
            )
        )
    return status


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
    add_game_arguments(play, number_default=None, variant_default=None)
    play.add_argument("--resume", metavar="RECORD.json", help="resume a saved game")
    play.add_argument("--daily", action="store_true", help="play today's daily deal (UTC)")
    play.add_argument("--date", metavar="YYYY-MM-DD", help="with --daily: an earlier day's deal")
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
