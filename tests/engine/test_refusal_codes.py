"""Every refusal of the engine has a code from the documented list, and every code is used.

The codes, their params and their English words are in
``milligan.errors.REASONS`` and in docs/API.md ("Refusal reasons"); the
browser words the same codes in every language (tests/i18n).
"""

from __future__ import annotations

import ast
import json
import random
import re
from collections.abc import Callable
from pathlib import Path

import pytest

import milligan
from milligan import Game, IllegalMoveError, Move, Position, Record, Variant
from milligan.errors import REASONS, describe
from milligan.moves import DEAL, STOP
from milligan.web import routes

from .conftest import build_position as build
from .test_boundaries import ENGINE

API = Path(__file__).parents[2] / "docs" / "API.md"


def resigned() -> Game:
    game = Game.new("classic", 42)
    game.resign()
    return game


def strict(columns: list[str], **kwargs: object) -> Position:
    return build(columns, variant="strict", reprieve=2, **kwargs)  # type: ignore[arg-type]


# One refusal of each code: what is tried, and the params it must carry.
CASES: dict[str, tuple[Callable[[], object], dict[str, object]]] = {
    "no_such_column": (lambda: build(["KH"]).apply(Move.parse("1>9")), {"column": 9, "columns": 8}),
    "column_empty": (lambda: build(["KH"]).apply(Move.parse("2>1")), {"column": 2}),
    "too_few_cards": (lambda: build(["KH"]).apply(Move.parse("1:3>2")), {"column": 1, "size": 1}),
    "face_down_cards": (
        lambda: build(["TC 9D", "JD"], variant="improved", face_down=[1]).apply(
            Move.parse("1:2>2")
        ),
        {"count": 2, "column": 1},
    ),
    "not_a_run": (
        lambda: build(["KH QC 9D", "KS"]).apply(Move.parse("1:2>2")),
        {"count": 2, "column": 1, "upper": "9D", "lower": "QC"},
    ),
    "wrong_colour": (
        lambda: build(["9H", "TD"]).apply(Move.parse("1>2")),
        {"card": "9H", "target": "TD", "needs": ["TC", "TS"]},
    ),
    "not_one_lower": (
        lambda: build(["9H", "8S"]).apply(Move.parse("1>2")),
        {"card": "9H", "target": "8S", "needs": ["TC", "TS"]},
    ),
    "empty_needs_king": (
        lambda: build(["9D"]).apply(Move.parse("1>2")),
        {"card": "9D", "column": 2},
    ),
    "king_needs_empty": (
        lambda: build(["KS", "AH"]).apply(Move.parse("1>2")),
        {"card": "KS", "target": "AH"},
    ),
    "no_empty_foundation": (
        lambda: build(["AH"], foundations={"H": [1, 1]}).apply(Move.parse("1>F")),
        {"card": "AH", "suit": "H"},
    ),
    "foundation_needs_below": (
        lambda: build(["5C"]).apply(Move.parse("1>F")),
        {"card": "5C", "suit": "C", "below": "4C"},
    ),
    "stock_empty": (lambda: build(["KH"]).apply(DEAL), {}),
    "no_deal_in_reprieve": (
        lambda: build(["TS"], reprieve=2, stock="AS 2S 3S 4S 5S 6S 7S 8S").apply(DEAL),
        {},
    ),
    "strict_face_down": (
        lambda: build(
            ["5D 9S 8H", "", "4C"],
            reprieve=2,
            face_down=[2],
            variant=Variant(opening_rows=3, face_down_rows=2, reprieve="strict"),
        ).apply(Move.parse("1:2>3")),
        {"column": 1},
    ),
    "strict_splits_run": (
        lambda: strict(["KH QC JD", "", "4C"]).apply(Move.parse("1>3")),
        {"card": "JD", "lower": "QC"},
    ),
    "no_reprieve": (lambda: build(["KH"]).apply(STOP), {}),
    "reprieve_unsettled": (
        lambda: build(["9C 4D", "", "7H", "5H"], reprieve=2).apply(Move.parse("4>1")).apply(STOP),
        {"places": [["5H", 1]]},
    ),
    "game_won": (lambda: _won().play("S"), {}),
    "game_resigned": (lambda: resigned().play("5>F"), {}),
    "already_won": (lambda: _won().resign(), {}),
    "already_resigned": (lambda: resigned().resign(), {}),
    # refused by the server, which ends the game at a dead end (D9)
    "game_lost": (lambda: routes._must_be_playing(_lost(), "help"), {}),
    "already_lost": (lambda: routes.give_up(_lost()), {}),
    "not_over": (lambda: routes.record_of(Game.new("classic", 42)), {}),
    "no_undo": (lambda: Game.new("classic", 42).undo(), {}),
    "no_redo": (lambda: Game.new("classic", 42).redo(), {}),
}


def _lost() -> Game:
    """One-deck deal 1 played into a dead end."""
    game = Game.new("one-deck", 1)
    line = "4>2 S D 2>4 D D 2>1 D 4>F D D 3>2 D D 1>F 3>F D D 4>F D 2>F 2>1 D 1>F 2>F"
    for move in line.split(" "):
        game.play(move)
    assert game.status == "lost"
    return game


def _won() -> Game:
    """A game won by its last move: one column, a deck in foundation order."""
    order = [f"{rank}{suit}" for suit in "CDHS" for rank in "A23456789TJQK"]
    variant = {"decks": 1, "columns": 1, "opening_rows": 1, "face_down_rows": 0, "reprieve": "free"}
    moves = ["1>F", "S", "D"] * 51 + ["1>F"]
    record = {"format": "milligan-record/1", "variant": variant, "order": order, "moves": moves}
    game = Record.from_dict(record).replay()
    assert game.status == "won"
    return game


@pytest.mark.parametrize("code", sorted(REASONS))
def test_every_code_is_produced_by_an_engine_refusal(code: str) -> None:
    attempt, params = CASES[code]
    with pytest.raises(IllegalMoveError) as info:
        attempt()
    error = info.value
    assert error.code == code, error
    assert error.params == params
    assert error.reason == describe(code, params)
    assert json.loads(json.dumps(error.params)) == error.params  # plain JSON values


def test_every_case_is_a_documented_code() -> None:
    assert set(CASES) == set(REASONS)


def test_docs_list_every_code_with_its_english_words() -> None:
    text = API.read_text("utf-8")
    section = text.split("## Refusal reasons", 1)[1].split("\n## ", 1)[0]
    rows = re.findall(r"^\| `(\w+)` \| ([^|]*) \| [^|]* \| (.*) \|$", section, re.M)
    assert [code for code, _, _ in rows] == list(REASONS)
    for code, params, words in rows:
        assert words.strip("` ") == REASONS[code], code
        named = set(re.findall(r"`(\w+)`", params))
        assert named == set(CASES[code][1]), code
        assert set(re.findall(r"\{(\w+)\}", REASONS[code])) <= named, code


def test_refusals_keep_their_code_in_a_record() -> None:
    error = IllegalMoveError.refuse("D", "stock_empty").at(4)
    assert (error.code, error.params, str(error)) == (
        "stock_empty",
        {},
        "move 5 (D) is illegal: the stock is empty",
    )


def test_every_engine_refusal_is_made_from_a_code() -> None:
    """No engine module words a refusal by hand: each raise names a code."""
    package = Path(milligan.__file__).parent
    for name in ENGINE:
        tree = ast.parse((package / f"{name}.py").read_text())
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "IllegalMoveError"
                and name != "errors"
            ):
                assert any(k.arg == "code" for k in node.keywords), (name, node.lineno)


def test_every_refusal_of_random_positions_has_a_code() -> None:
    rng = random.Random(14)
    codes = set()
    for variant, deal in (("classic", 42), ("improved", 7), ("strict", 5), ("one-deck", 3)):
        game = Game.new(variant, deal)
        for _ in range(60):
            legal = [str(move) for move in game.legal_moves()]
            if game.status != "playing" or not legal:
                break
            position = game.position
            n = len(position.columns)
            tried = ["D", "S", f"{n + 1}>1"] + [f"{a}>F" for a in range(1, n + 1)]
            tried += [
                f"{a}:{k}>{b}" if k > 1 else f"{a}>{b}"
                for a in range(1, n + 1)
                for b in range(1, n + 1)
                if a != b
                for k in range(1, 4)
            ]
            for text in tried:
                try:
                    position.apply(Move.parse(text))
                except IllegalMoveError as error:
                    assert error.code in REASONS, (text, error)
                    assert error.reason == describe(error.code, error.params)
                    codes.add(error.code)
            others = [move for move in legal if move != "D"]
            game.play(rng.choice(others) if others and rng.random() < 0.85 else rng.choice(legal))
    assert len(codes) >= 10, codes
