"""The page words every refusal the engine makes, by its code, in every language.

The engine refuses a move with a code and params (docs/API.md, "Refusal
reasons"); the page looks the code up in its catalogue (``errorText`` in
``reasons.js``) and knows no rules of its own. Here every illegal move of many
positions from random playouts is refused by the engine, and the page must word
each one from its code, with every card named, in all five languages; every
documented code is worded too. The tests assert on codes, never on English text.
"""

from __future__ import annotations

import random
import re
from typing import Any

from playwright.sync_api import Page

from milligan.errors import REASONS, IllegalMoveError
from milligan.game import Game
from milligan.moves import Move
from milligan.position import Position
from milligan.web import i18n

CARDS = {"card": "5H", "target": "6C", "upper": "9D", "lower": "QC", "below": "4H"}
OTHERS = {
    "column": 3,
    "columns": 8,
    "count": 2,
    "size": 1,
    "suit": "H",
    "needs": ["TC", "TS"],
    "places": [["5H", 3], ["9C", 5]],
}


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
    """Every illegal move of a position, as the server's error answer would carry it."""
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
            assert error.code in REASONS, (text, str(error))
            found.append(
                {
                    "code": "illegal",
                    "message": str(error),
                    "reason": {"code": error.code, "params": error.params},
                }
            )
    return found


def example(code: str) -> dict[str, Any]:
    """An error answer for ``code`` with made-up params of the right kinds."""
    names = re.findall(r"\{(\w+)\}", REASONS[code])
    params = {name: CARDS.get(name, OTHERS.get(name)) for name in names}
    return {
        "code": "illegal",
        "message": f"X is illegal: {code}",
        "reason": {"code": code, "params": params},
    }


def test_the_page_words_every_refusal_by_its_code(page: Page, server: str) -> None:
    rng = random.Random(2024)
    cases: list[dict[str, Any]] = []
    for variant, deal in (
        ("classic", 42),
        ("improved", 7),
        ("strict", 5),
        ("one-deck", 3),
        ("strict", 11),
        ("classic", 17),
    ):
        for position in positions(variant, deal, 90, rng):
            cases.extend(refusals(position))
    rng.shuffle(cases)
    cases = cases[:1500] + [example(code) for code in REASONS]
    codes = {case["reason"]["code"] for case in cases}
    assert len({c["reason"]["code"] for c in cases[:1500]}) >= 10  # the playouts reach most
    page.goto(f"{server}/about")
    worded: dict[str, list[dict[str, Any]]] = page.evaluate(
        """async ([cases, languages]) => {
            const { errorText } = await import('/static/js/reasons.js');
            const { cardName } = await import('/static/js/cards.js');
            const { loadLanguage } = await import('/static/js/i18n.js');
            const out = {};
            for (const lang of languages) {
                await loadLanguage(lang);
                out[lang] = cases.map((c) => {
                    const params = c.reason.params;
                    const cards = Object.entries(params)
                        .filter(([k]) => ['card', 'target', 'upper', 'lower', 'below'].includes(k))
                        .map(([, v]) => v)
                        .concat((params.needs || []), (params.places || []).map(([card]) => card));
                    return { text: errorText(c), names: cards.map(cardName) };
                });
            }
            return out;
        }""",
        [cases, list(i18n.LANGUAGES)],
    )
    for language in i18n.LANGUAGES:
        messages = i18n.compiled(language)["messages"]
        prefix = messages.get("Not allowed: {reason}", "Not allowed: {reason}").split("{")[0]
        for case, answer in zip(cases, worded[language], strict=True):
            text = answer["text"]
            code = case["reason"]["code"]
            assert text.startswith(prefix), (language, code, text)
            assert "{" not in text and "is illegal" not in text, (language, code, text)
            for name in answer["names"]:
                assert name in text, (language, code, name, text)
        if language != "en":
            english = [answer["text"] for answer in worded["en"]]
            translated = [answer["text"] for answer in worded[language]]
            same = {
                c["reason"]["code"]
                for c, a, b in zip(cases, english, translated, strict=True)
                if a == b
            }
            assert not same, (language, same)
    assert codes == set(REASONS)
