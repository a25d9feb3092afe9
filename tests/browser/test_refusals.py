"""The table's own explanation of a refused move agrees with the engine's reason.

The browser explains refusals in the player's language from the position it
shows (``explainRefusal`` in ``table.js``). Here every illegal move of many
positions from random playouts is refused by the engine, explained by the page,
and the two reasons must name the same rule.
"""

from __future__ import annotations

import random
from typing import Any

from playwright.sync_api import Page

from milligan.errors import IllegalMoveError
from milligan.game import Game
from milligan.moves import Move
from milligan.position import Position
from milligan.record import position_to_json

# (words in the engine's reason, words in the page's English explanation)
RULES = [
    ("out of place", "The reprieve cannot end yet. Out of place:"),
    ("a King goes only into an empty column", "A king goes only into an empty column."),
    ("cannot go into empty column", "Only a king, or a run that starts with a king"),
    ("are not a run", "These cards are not a run:"),
    ("include face-down cards", "Face-down cards cannot be moved."),
    ("cannot go to a foundation", "cannot go to a foundation yet."),
    ("no dealing while a reprieve is open", "No dealing while a reprieve is open"),
    ("takes face-up cards only", "a free move takes face-up cards only."),
    ("may not split a run", "a free move may not split a run."),
    ("cannot go on", "it needs a card one rank higher and of the other colour."),
    ("no reprieve is open", "No reprieve is open."),
    ("the stock is empty", "The stock is empty."),
    ("is empty", ": empty"),
]


def positions(variant: str, deal: int, moves: int, rng: random.Random) -> list[Position]:
    """Positions along a random playout that prefers building and reprieves to dealing."""
    game = Game.new(variant, deal)
    seen = []
    for _ in range(moves):
        if game.status != "playing":
            break
        legal = [str(move) for move in game.legal_moves()]
        if not legal:
            break
        others = [move for move in legal if move != "D"]
        move = rng.choice(others) if others and rng.random() < 0.85 else rng.choice(legal)
        game.play(move)
        seen.append(game.position)
    return seen[::3]


def refusals(position: Position) -> list[dict[str, Any]]:
    """Every illegal move of a position with the engine's reason."""
    n = len(position.columns)
    texts = ["D", "S"]
    for source in range(1, n + 1):
        texts.append(f"{source}>F")
        for count in range(1, len(position.columns[source - 1]) + 1):
            for target in range(1, n + 1):
                if target != source:
                    texts.append(str(Move.column(source, target, count)))
    found = []
    for text in texts:
        try:
            position.apply(Move.parse(text))
        except IllegalMoveError as error:
            found.append({"move": text, "reason": error.reason,
                          "cards": [list(place) for place in error.cards]})
    return found


def test_the_page_explains_refusals_as_the_engine_does(page: Page, server: str) -> None:
    rng = random.Random(2024)
    cases: list[dict[str, Any]] = []
    for variant, deal in (("classic", 42), ("improved", 7), ("strict", 5), ("one-deck", 3),
                          ("strict", 11), ("classic", 17)):
        for position in positions(variant, deal, 90, rng):
            game = position_to_json(position)
            game["variant"] = variant
            for refusal in refusals(position):
                cases.append({"game": game, **refusal})
    rng.shuffle(cases)
    page.goto(f"{server}/about")
    explained: list[str] = page.evaluate(
        """async (cases) => {
            const { explainRefusal } = await import('/static/js/table.js');
            return cases.map((c) => explainRefusal(
                {code: 'illegal', message: c.reason, cards: c.cards}, c.move, c.game));
        }""",
        cases,
    )
    covered = set()
    for case, text in zip(cases, explained, strict=True):
        rule = next((r for r in RULES if r[0] in case["reason"]), None)
        if rule is None:
            assert text == f"Not allowed: {case['reason']}", case
        else:
            assert rule[1] in text, (case["move"], case["reason"], text)
            covered.add(rule[0])
    assert len(cases) > 1000
    # The playouts reach most kinds of refusal.
    assert len(covered) >= 10, covered
