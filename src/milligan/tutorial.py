"""The tutorial's lessons: prepared positions that each ask for one or a few moves.

Every lesson is dealt from an explicit dealing order (docs/RULES.md §3.4) in
``one-deck`` Milligan, then brought to its position by a few setup moves, so
its table is always the same. The player's moves are checked by the engine
itself; a lesson only says which of the legal moves it is waiting for at each
step (§4 for play, §5 for the reprieve). The pseudo-move ``undo`` takes the
last move back (§6.5).

>>> lesson = LESSONS[0]
>>> lesson.key
'build'
>>> [str(move) for move in lesson.start().legal_moves() if str(move) != "D"]
['1>2']
>>> replay(lesson, ["1>2"]).status
'playing'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from milligan.cards import Card, canonical_deck
from milligan.game import Game
from milligan.moves import Move
from milligan.variants import Variant

#: Every lesson is played in one-deck Milligan (§2.2).
ONE_DECK = Variant.named("one-deck")

#: Not a move of the notation: the lesson's step takes the last move back.
UNDO = "undo"


class LessonError(ValueError):
    """A line of moves that the lesson does not lead through (the client's list is wrong)."""


@dataclass(frozen=True, slots=True)
class Lesson:
    """One lesson: its table, its setup and, for each step, the moves it accepts.

    - ``key``: the stable id of the lesson's texts (title and goals) in the page.
    - ``rows``: the first rows of the dealing order, one string of cards per row;
      the rest of the deck follows in the canonical order (§3.1).
    - ``setup``: moves played before the player's turn.
    - ``steps``: for each step, the moves accepted (``UNDO`` for taking one back).
    """

    key: str
    rows: tuple[str, ...]
    setup: tuple[str, ...]
    steps: tuple[tuple[str, ...], ...]
    variant: Variant = ONE_DECK

    def order(self) -> tuple[Card, ...]:
        """The whole dealing order: the given rows, then the unused cards in canonical order."""
        given = [Card.parse(text) for row in self.rows for text in row.split()]
        rest = list(canonical_deck(self.variant.decks))
        for card in given:
            rest.remove(card)
        return (*given, *rest)

    def start(self) -> Game:
        """The lesson's position, after its setup moves."""
        game = Game.from_order(self.variant, self.order())
        for move in self.setup:
            game.play(move)
        return game


def _kings_last() -> tuple[str, ...]:
    """Every card but the Kings, then the four Kings: the last deal leaves no move at all."""
    cards = [str(card) for card in canonical_deck(1) if str(card)[0] != "K"]
    rows = [" ".join(cards[i : i + 4]) for i in range(0, len(cards), 4)]
    return (*rows, "KC KD KH KS")


LESSONS: tuple[Lesson, ...] = (
    # 1. Building down in alternating colours: 9C onto TH.
    Lesson("build", ("4S 2C 6D QD", "9C TH 3S 8S"), ("D",), (("1>2",),)),
    # 2. A run moves as one: TH 9C onto JS.
    Lesson(
        "run",
        ("4S 2C 6D QD", "TH 3H QH 8S", "9C JS 7C 5D"),
        ("D", "D"),
        (("1:2>2",),),
    ),
    # 3. Only a King-led run goes into an empty column (emptied, then the reprieve stopped).
    Lesson(
        "king",
        ("5C 9D 6S 3H", "KH 3C 4D 2H", "QS 8C TC AH"),
        ("D", "D", "4>F", "4>F", "4>F", "S"),
        (("1:2>4",),),
    ),
    # 4. Foundations: the Ace first, then the Two.
    Lesson("foundation", ("7D JC 4H QC", "AS 2S 9S 6H"), ("D",), (("1>F",), ("2>F",))),
    # 5. Dealing a row when nothing else helps.
    Lesson("deal", ("3C 8H JD 5S",), (), (("D",),)),
    # 6. Emptying a column opens a reprieve.
    Lesson("open", ("9S TH 5C AD",), (), (("1>2", "4>F"),)),
    # 7. A free move, the card it leaves out of place, settling it, then S.
    Lesson(
        "free",
        ("9H 4C QS 2D", "5S TC 6D AD"),
        ("D", "4>F", "4>F"),
        (("1:2>2",), ("2>3",), ("S",)),
    ),
    # 8. A King-led run built into the reprieve column ends the reprieve.
    Lesson(
        "close",
        ("7C 5H 8S 3D", "KD JH 4S 2D", "QC 9C TD AD"),
        ("D", "D", "4>F", "4>F", "4>F"),
        (("1:2>4",),),
    ),
    # 9. The last deal leaves nothing to do: a dead end, and undo.
    Lesson("dead", _kings_last(), ("D",) * 11, (("D",), (UNDO,))),
)


def replay(lesson: Lesson, moves: Sequence[str]) -> Game:
    """The lesson's game after the player's ``moves`` so far, each one checked against its step.

    Raises LessonError when a move is not the one its step accepts, or there are
    more moves than steps.
    """
    if len(moves) > len(lesson.steps):
        raise LessonError(f"lesson {lesson.key} has only {len(lesson.steps)} step(s)")
    game = lesson.start()
    for step, move in zip(lesson.steps, moves, strict=False):
        if not accepts(step, move):
            raise LessonError(f"{move!r} is not a move of lesson {lesson.key}")
        if move == UNDO:
            game.undo()
        else:
            game.play(move)
    return game


def accepts(step: Sequence[str], move: str) -> bool:
    """Whether ``move`` (in any accepted spelling, §7.2) is one of the step's moves."""
    if move.strip().lower() == UNDO:
        return UNDO in step
    try:
        parsed = str(Move.parse(move))
    except ValueError:
        return False
    return parsed in step


def normalized(move: str) -> str:
    """The move as Milligan writes it (``UNDO`` stays ``UNDO``); InvalidMoveError if malformed."""
    if move.strip().lower() == UNDO:
        return UNDO
    return str(Move.parse(move))
