"""Terminal rendering and the interactive ``milligan play`` loop.

Cards are written as everywhere else (``QD``); a face-down card is ``##`` in
the same two places:

>>> from milligan import Game
>>> print(*render_game(Game.new("improved", 42)).splitlines()[2:], sep="\\n")
 1     2     3     4     5     6     7     8
 ##    ##    ##    ##    ##    ##    ##    ##
 ##    ##    ##    ##    ##    ##    ##    ##
 5D    7H    JD    KH    9D    3D    TC    AD
"""

from __future__ import annotations

import json
import os
import select
import signal
import sys
import threading
from collections.abc import Callable, Mapping
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any, TextIO

from milligan.cards import CARDS, Card
from milligan.errors import MilliganError
from milligan.game import Game
from milligan.record import Record
from milligan.workers import restore_interrupts

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
Other:   ?  list legal moves    h  hint (sees only what you see)    u  undo    r  redo
         restart    resign    save [FILE]  save the game as a record    help    q  quit"""


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def use_colour(stream: TextIO) -> bool:
    """Colours only on a terminal, and never when NO_COLOR is set."""
    return stream.isatty() and "NO_COLOR" not in os.environ and os.environ.get("TERM") != "dumb"


def _face(card: Card, colour: bool, bold: bool = False) -> str:
    """``QD``, the card as every message writes it; red and bold where the terminal can."""
    text = str(card)
    if colour and card.is_red:
        text = f"{RED}{text}{RESET}"
    if colour and bold:
        text = f"{BOLD}{text}{RESET}"
    return text


def render_game(game: Game, colour: bool = False) -> str:
    """The table as text: header, foundations, columns; hidden cards stay hidden."""
    position = game.position
    variant = position.variant
    deal = f"deal {game.deal}" if game.deal is not None else "explicit deal"
    rows_left = variant.stock_rows(len(position.stock))
    lines = [
        f"{variant.title} ({variant}) · {deal} · {_plural(len(game.moves), 'move')} · "
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
    labels = [f"[{i + 1}]" if reprieve == i + 1 else str(i + 1) for i in range(len(columns))]
    lines.append("  ".join(f"{label:^4}" for label in labels).rstrip())
    height = max((len(c) for c in columns), default=0)
    for row in range(height):
        cells = []
        for c, cards in enumerate(columns):
            if row >= len(cards):
                cells.append("    ")
            elif row < position.face_down[c]:
                # Two characters where a card's rank and suit would be.
                cells.append(f" {DIM}##{RESET} " if colour else " ## ")
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


#: The keys a record's own fields use; any other key in a resumed file is kept.
RECORD_KEYS = ("format", "variant", "deal", "order", "moves", "result")


def record_data(game: Game, base: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The game's record as JSON data, keeping ``base``'s other keys in their order."""
    fields = Record.of(game).to_dict()
    data: dict[str, Any] = {}
    for key, value in (base or {}).items():
        if key not in RECORD_KEYS:
            data[key] = value
        elif key in fields:
            data[key] = fields[key]
    for key, value in fields.items():
        data.setdefault(key, value)
    return data


def save_game(game: Game, path: str, base: Mapping[str, Any] | None = None) -> None:
    """Write the game's record to ``path`` (whole or not at all), with ``base``'s extra keys."""
    target = Path(path)
    text = json.dumps(record_data(game, base), ensure_ascii=False) + "\n"
    temporary = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    try:
        temporary.write_text(text, encoding="utf-8")
        os.replace(temporary, target)
    finally:
        temporary.unlink(missing_ok=True)


class _Session:
    """One ``milligan play`` session: the game, where it is saved, and what was saved."""

    def __init__(
        self,
        game: Game,
        save_path: str | None,
        base: Mapping[str, Any] | None,
        read: Callable[[str], str],
        out: TextIO,
    ) -> None:
        self.game = game
        self.save_path = save_path
        self.base = base
        self.read = read
        self.out = out
        self.colour = use_colour(out)
        self.saved = self._state()
        self.advisor: Any = None
        # once the player has asked for a hint, the next one is made in this
        # thread while the player looks at the table (see ``think_ahead``)
        self.ahead: ThreadPoolExecutor | None = None
        self.thinking: Future[Any] | None = None

    def hint(self) -> str:
        """The fair player's advice, worded; it follows its plan while the player does."""
        from milligan.solver.estimate import in_words
        from milligan.solver.fair import Advisor, default_threads

        game = self.game
        if game.is_over():
            return f"The game is over ({game.status}): there is nothing to hint."
        if self.advisor is None:
            self.advisor = Advisor(threads=default_threads())
            self.ahead = ThreadPoolExecutor(1, thread_name_prefix="hint-ahead")
        self._wait_ahead()
        seen = [position.observe() for position in game.positions]
        advice = self.advisor.hint(seen[-1], seen[:-1])
        if advice.move is None:
            return "No legal move."
        chance = in_words(advice.win_estimate, advice.wins, advice.samples)
        text = f"Hint: {advice.move} ({chance})"
        if len(advice.plan) > 1:
            text += "; then " + " ".join(str(move) for move in advice.plan[1:])
        if advice.repeats:
            text += ". Every legal move leads back to a position already reached."
        return text

    def think_ahead(self) -> None:
        """After a change, make the next hint while the player looks at the table.

        Only once the player has asked for a hint in this session. It is the
        call the hint then makes, so the hint is the same; the advisor,
        asked again where its plan starts, gives it at once. One call runs
        at a time, and a newer position replaces one still waiting.
        """
        if self.ahead is None or self.game.is_over():
            return
        if self.thinking is not None:
            self.thinking.cancel()  # still waiting: the position is old
        seen = [position.observe() for position in self.game.positions]
        self.thinking = self.ahead.submit(self.advisor.hint, seen[-1], seen[:-1])

    def _wait_ahead(self) -> None:
        """Let the hint made ahead end: the advisor serves one call at a time."""
        if self.thinking is not None:
            if not self.thinking.cancelled():
                self.thinking.exception()  # waits; an error shows again when the hint is asked
            self.thinking = None

    def close(self) -> None:
        """Stop making hints ahead: waiting ones are dropped, a running one ends alone."""
        if self.ahead is not None:
            self.ahead.shutdown(wait=False, cancel_futures=True)

    def _state(self) -> tuple[object, ...]:
        return (self.game.moves, self.game.resigned)

    def say(self, text: str) -> None:
        print(text, file=self.out, flush=True)

    def show(self) -> None:
        self.say(render_game(self.game, self.colour))

    def unsaved(self) -> bool:
        """Whether the game changed since it was resumed or last saved."""
        return self._state() != self.saved

    def answer(self, question: str) -> str | None:
        """The player's answer, or None when there is none (Ctrl-D or Ctrl-C)."""
        try:
            return self.read(question).strip()
        except (EOFError, KeyboardInterrupt):
            self.say("")
            return None

    def save(self, path: str) -> bool:
        """Save to ``path``; says what happened and whether it worked."""
        try:
            save_game(self.game, path, self.base)
        except OSError as error:
            self.say(f"Cannot save to {path}: {error.strerror or error}")
            return False
        self.save_path = path
        self.saved = self._state()
        self.say(f"Saved to {path}.")
        return True

    def offer_save(self, why: str, can_stay: bool) -> bool:
        """Offer to save unsaved moves; False when the player chose to keep playing.

        With no answer (input ended, Ctrl-C), a game resumed from a file is
        saved there, and any other game is not saved.
        """
        stay = ", c to keep playing" if can_stay else ""
        while self.unsaved():
            if self.save_path is not None:
                reply = self.answer(f"Save your moves to {self.save_path} {why}? [Y/n{stay}] ")
                if reply is None:
                    self.save(self.save_path)
                    return True
                choice = reply.lower() or "y"
                if choice in ("y", "yes"):
                    if self.save(self.save_path):
                        return True
                    continue  # the file cannot be written: ask again (n gives up)
            else:
                reply = self.answer(
                    f"Save your moves {why}? Type a file name, or press Enter not to save"
                    f"{' (c to keep playing)' if can_stay else ''}: "
                )
                choice = (reply or "n").lower()
                if choice not in ("n", "no") and not (can_stay and choice == "c"):
                    if self.save(reply or ""):
                        return True
                    continue
            if choice in ("n", "no"):
                self.say("Not saved.")
                return True
            if can_stay and choice == "c":
                return False
            self.say(f"Please answer y (save), n (do not save){' or c' if can_stay else ''}.")
        return True

    def run(self) -> int:
        game = self.game
        self.show()
        self.say("Type a move such as 3>5, ? for the legal moves, h for a hint, help for more.")
        while True:
            try:
                line = self.read("move> ").strip()
            except (EOFError, KeyboardInterrupt):
                self.say("")
                line = "quit"
            if not line:
                continue
            word, _, rest = line.partition(" ")
            word = word.lower()
            try:
                if word in ("q", "quit", "exit"):
                    if self.offer_save("before quitting", can_stay=True):
                        return 0
                    continue
                if word == "help":
                    self.say(HELP)
                    continue
                if word in ("h", "hint"):
                    self.say(self.hint())
                    continue
                if word == "?":
                    moves = game.legal_moves()
                    self.say("Legal moves: " + (" ".join(str(m) for m in moves) or "none"))
                    continue
                if word in ("u", "undo"):
                    number = len(game.moves)
                    self.say(f"Undid move {number} ({game.undo()}).")
                elif word in ("r", "redo"):
                    move = game.redo()
                    self.say(f"Redid move {len(game.moves)} ({move}).")
                elif word == "restart":
                    game.restart()
                elif word == "resign":
                    if game.is_over():
                        self.say(f"The game is over ({game.status}): there is nothing to resign.")
                        continue
                    reply = self.answer("Resign this game? It counts as a loss. [y/N] ")
                    if (reply or "").lower() not in ("y", "yes"):
                        self.say("Not resigned.")
                        continue
                    game.resign()
                    self.show()
                    self.say(
                        f"You resigned deal {game.deal}."
                        if game.deal is not None
                        else "You resigned."
                    )
                    self.offer_save("with the resignation", can_stay=False)
                    return 0
                elif word == "save":
                    path = rest.strip() or self.save_path
                    if not path:
                        self.say("Save where? Type save FILE.")
                    elif path == self.save_path and not self.unsaved():
                        self.say(f"Nothing new to save: {path} is up to date.")
                    else:
                        self.save(path)
                    continue
                else:
                    game.play(line)
            except MilliganError as error:
                self.say(str(error))
                continue
            self.think_ahead()
            self.show()
            if game.status == "won":
                self.say(f"Congratulations! You won in {len(game.moves)} moves.")
                if self.save_path is not None:
                    self.save(self.save_path)
                else:
                    self.offer_save("as a won game", can_stay=False)
                return 0
            if game.status == "lost":
                self.say("No progress is possible any more. Type u to undo, or q to quit.")


def read_line(prompt: str) -> str:
    """Like :func:`input`, except that a Ctrl-C typed at the prompt is never lost.

    ``input()`` writes the prompt and then blocks in ``read()``: a SIGINT that
    arrives between the two sets Python's flag but does not interrupt the
    read, so the game sits waiting with ``^C`` on the screen until the player
    presses Enter.  Here the signal handler also writes to a pipe
    (:func:`signal.set_wakeup_fd`) and the line is read only once ``select``
    finds the terminal readable, so a signal that lands at any moment wakes
    the wait and is raised as :class:`KeyboardInterrupt`.  Anything that is
    not a terminal (a pipe, a file) goes to ``input()``.
    """
    if (
        os.name != "posix"
        or not sys.stdin.isatty()
        or threading.current_thread() is not threading.main_thread()
    ):
        return input(prompt)
    fd = sys.stdin.fileno()
    wake_read, wake_write = os.pipe()
    os.set_blocking(wake_write, False)
    previous = signal.set_wakeup_fd(wake_write, warn_on_full_buffer=False)
    try:
        sys.stdout.write(prompt)
        sys.stdout.flush()
        data = b""
        while not data.endswith(b"\n"):
            ready, _, _ = select.select([fd, wake_read], [], [])
            # A signal's handler has run by now (KeyboardInterrupt for Ctrl-C);
            # for any other signal, keep waiting.
            if wake_read in ready:
                os.read(wake_read, 512)
            if fd in ready:
                # The terminal is line-buffered (canonical mode): one read is a line.
                chunk = os.read(fd, 4096)
                if not chunk:  # Ctrl-D on an empty line
                    if data:
                        break  # ends the text typed so far, as input() does
                    raise EOFError
                data += chunk
    finally:
        signal.set_wakeup_fd(previous)
        os.close(wake_read)
        os.close(wake_write)
    return data.decode(sys.stdin.encoding or "utf-8", "replace").rstrip("\r\n")


def play(
    game: Game,
    save_path: str | None = None,
    read: Callable[[str], str] = read_line,
    out: TextIO = sys.stdout,
    base: Mapping[str, Any] | None = None,
) -> int:
    """Play interactively until a win, a resignation or a quit.

    ``save_path`` is the file the game was resumed from (``base`` its JSON
    data, whose extra keys a save keeps); it is rewritten only when the game
    changed.  Quitting (``q``, Ctrl-C, Ctrl-D) or resigning with unsaved moves
    offers to save them first.
    """
    # Ctrl-C must reach the game as KeyboardInterrupt even when whatever
    # started it ignores or blocks SIGINT
    restore_interrupts()
    session = _Session(game, save_path, base, read, out)
    try:
        return session.run()
    finally:
        session.close()
