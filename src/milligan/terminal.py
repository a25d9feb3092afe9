"""Terminal rendering and the interactive ``milligan play`` loop."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TextIO

from milligan.cards import CARDS, Card
from milligan.errors import MilliganError
from milligan.game import Game
from milligan.record import Record
from milligan.variants import TITLES

RED = "\033[31m"
DIM = "\033[2m"
BOLD = "\033[1m"
REVERSE = "\033[7m"
RESET = "\033[0m"

HELP = """\
Moves:   3>F  top card of column 3 to a foundation
         3>5  top card of column 3 onto column 5
         3:2>5  top two cards of column 3 onto column 5
         D    deal a row from the stock      S  stop the open reprieve
Other:   ?  list legal moves    u  undo    r  redo    restart    resign
         save [FILE]  save the game as a record    help    q  quit"""


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def use_colour(stream: TextIO) -> bool:
    """Colours only on a terminal, and never when NO_COLOR is set."""
    return stream.isatty() and "NO_COLOR" not in os.environ and os.environ.get("TERM") != "dumb"


def _face(card: Card, colour: bool, bold: bool = False) -> str:
    """``Q♦``, red and bold where asked and the terminal has colours."""
    text = card.symbol_text
    if colour and card.is_red:
        text = f"{RED}{text}{RESET}"
    if colour and bold:
        text = f"{BOLD}{text}{RESET}"
    return text


def render_game(game: Game, colour: bool = False) -> str:
    """The table as text: header, foundations, columns; hidden cards stay hidden."""
    position = game.position
    variant = position.variant
    name = variant.name
    title = TITLES.get(name, "Custom Milligan") if name else "Custom Milligan"
    deal = f"deal {game.deal}" if game.deal is not None else "explicit deal"
    rows_left = -(-len(position.stock) // variant.columns)
    lines = [
        f"{title} ({variant}) · {deal} · {_plural(len(game.moves), 'move')} · "
        f"stock {len(position.stock)} cards ({rows_left} rows)"
    ]
    founds = []
    for suit, heights in enumerate(position.foundations):
        tops = []
        for height in heights:
            if height == 0:
                tops.append("--")
            else:
                tops.append(_face(CARDS[suit][height - 1], colour))
        founds.append(" ".join(tops))
    lines.append("Foundations: " + "   ".join(founds))
    # The winning move may open a reprieve (docs/RULES.md §6.1, D8) with nothing left
    # to do: not shown.
    reprieve = None if position.is_won() else position.reprieve
    if reprieve is not None:
        banner = (
            f"Reprieve open: column {reprieve} is empty. Move any cards freely onto "
            f"other cards; end with a King-led run into column {reprieve}, or S."
        )
        lines.append(f"{REVERSE}{banner}{RESET}" if colour else banner)
        if position.moved:
            unsettled = position.unsettled()
            if unsettled:
                lines.append("Moved cards (*) out of place: " + position.describe_places(unsettled))
            else:
                lines.append("Every moved card (*) is in place: S ends the reprieve.")
        if position.reprieve_hopeless():
            lines.append("This reprieve can no longer be settled: undo (u) to go back.")
    columns = position.columns
    labels = [
        f"[{i + 1}]" if reprieve == i + 1 else str(i + 1) for i in range(len(columns))
    ]
    lines.append("  ".join(f"{label:^4}" for label in labels).rstrip())
    height = max((len(c) for c in columns), default=0)
    for row in range(height):
        cells = []
        for c, cards in enumerate(columns):
            if row >= len(cards):
                cells.append("    ")
            elif row < position.face_down[c]:
                cells.append(f"{DIM}## {RESET} " if colour else "##  ")
            else:
                moved = (c + 1, row) in position.moved
                cells.append(" " + _face(cards[row], colour, bold=moved) + ("*" if moved else " "))
        lines.append("  ".join(cells).rstrip())
    if height == 0:
        lines.append("(every column is empty)")
    status = game.status
    if status == "won":
        lines.append("You won: every card is on a foundation.")
    elif status == "lost":
        lines.append("Dead end: the stock is empty and no move can make progress.")
    elif status == "resigned":
        lines.append("Resigned.")
    return "\n".join(lines)


def save_game(game: Game, path: str) -> None:
    """Write the game's record to ``path``."""
    Path(path).write_text(Record.of(game).to_json(indent=None) + "\n", encoding="utf-8")


def play(
    game: Game,
    save_path: str | None = None,
    read: Callable[[str], str] = input,
    out: TextIO = sys.stdout,
) -> int:
    """Play interactively until a win, a quit or end of input."""
    colour = use_colour(out)

    def say(text: str) -> None:
        print(text, file=out, flush=True)

    say(render_game(game, colour))
    say("Type a move such as 3>5, ? for the legal moves, help for more.")
    while True:
        try:
            line = read("move> ").strip()
        except EOFError:
            say("")
            line = "quit"
        except KeyboardInterrupt:
            say("")
            line = "quit"
        if not line:
            continue
        word, _, rest = line.partition(" ")
        word = word.lower()
        try:
            if word in ("q", "quit", "exit"):
                if save_path is not None and game.moves:
                    save_game(game, save_path)
                    say(f"Saved to {save_path}.")
                return 0
            if word in ("h", "help"):
                say(HELP)
                continue
            if word == "?":
                moves = game.legal_moves()
                say("Legal moves: " + (" ".join(str(m) for m in moves) or "none"))
                continue
            if word in ("u", "undo"):
                say(f"Undid {game.undo()}.")
            elif word in ("r", "redo"):
                say(f"Redid {game.redo()}.")
            elif word == "restart":
                game.restart()
            elif word == "resign":
                game.resign()
                say(render_game(game, colour))
                if game.deal is not None:
                    say(f"You resigned deal {game.deal}.")
                return 0
            elif word == "save":
                path = rest.strip() or save_path
                if not path:
                    say("Save where? Type save FILE.")
                    continue
                try:
                    save_game(game, path)
                except OSError as error:
                    say(f"Cannot save to {path}: {error.strerror}")
                    continue
                save_path = path
                say(f"Saved to {path}.")
                continue
            else:
                game.play(line)
        except MilliganError as error:
            say(str(error))
            continue
        say(render_game(game, colour))
        if game.status == "won":
            say(f"Congratulations! You won in {len(game.moves)} moves.")
            if save_path is not None:
                save_game(game, save_path)
            return 0
        if game.status == "lost":
            say("No progress is possible any more. Type u to undo, or q to quit.")
