"""Notation (§7), records (§7) and the JSON position (§8)."""

from __future__ import annotations

import dataclasses
import json
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from milligan import (
    Game,
    IllegalMoveError,
    InvalidMoveError,
    InvalidRecordError,
    Move,
    Record,
    Variant,
    game_to_json,
)
from milligan.moves import DEAL, STOP, MoveKind

RULES_EXAMPLE = {
    "format": "milligan-record/1",
    "variant": "classic",
    "deal": 42,
    "moves": ["5>F", "S", "D"],
}


@pytest.mark.parametrize(
    "text, written",
    [
        ("3>F", "3>F"),
        ("3>f", "3>F"),
        ("3:2>5", "3:2>5"),
        ("3>5", "3>5"),
        ("3:1>5", "3>5"),
        (" 3 : 2 > 5 ", "3:2>5"),
        ("D", "D"),
        ("d", "D"),
        ("S", "S"),
        (" s ", "S"),
        ("12:13>11", "12:13>11"),
        ("3:1>F", "3>F"),
    ],
)
def test_notation_round_trip(text: str, written: str) -> None:
    move = Move.parse(text)
    assert str(move) == written
    assert Move.parse(written) == move


@pytest.mark.parametrize(
    "text", ["", "3", "3>", ">5", "3>3", "0>2", "3:0>5", "3:2>F", "X", "DD", "3-5", "3>5>6", "a>b"]
)
def test_malformed_notation(text: str) -> None:
    with pytest.raises(InvalidMoveError):
        Move.parse(text)


@pytest.mark.parametrize(
    "text, char",
    [
        ("ſ", "U+017F"),  # long s: "ſ".upper() == "S"
        ("3>５", "U+FF15"),  # fullwidth 5
        ("٥>F", "U+0665"),  # Arabic-Indic 5
        ("3:２>5", "U+FF12"),
        ("3>ꜰ", "U+A730"),  # small capital F
        ("\u00a03>F", "U+00A0"),  # no-break space
        ("3\u3000>5", "U+3000"),  # ideographic space
        ("𝟑>F", "U+1D7D1"),  # mathematical bold 3
    ],
)
def test_notation_is_ascii_only(text: str, char: str) -> None:
    with pytest.raises(InvalidMoveError, match=re.escape(char)):
        Move.parse(text)


@given(st.text(min_size=1, max_size=8).filter(lambda text: not text.isascii()))
def test_no_text_outside_ascii_is_a_move(text: str) -> None:
    with pytest.raises(InvalidMoveError, match="is not ASCII"):
        Move.parse(text)


def test_a_record_with_a_look_alike_move_is_refused() -> None:
    with pytest.raises(InvalidRecordError, match=re.escape("U+017F")):
        Record.from_dict({**RULES_EXAMPLE, "moves": ["5>F", "ſ"]})


def test_move_kinds() -> None:
    assert Move.parse("3:2>5") == Move(MoveKind.COLUMN, 3, 2, 5)
    assert Move.parse("4>F") == Move.foundation(4)
    assert (Move.parse("D"), Move.parse("S")) == (DEAL, STOP)
    assert len({Move.parse("3>5"), Move.parse("3:1>5")}) == 1


def test_a_moves_stored_hash_follows_equality() -> None:
    # the hash is stored (Move.key), as a solver hashes long lines move by
    # move; it stays out of equality, the text and the repr
    moves = [Move.parse(t) for t in ("3:1>5", "3>5", "3:2>5", "3>F", "D", "S", "5>3")]
    for a in moves:
        for b in moves:
            assert (a == b) == (hash(a) == hash(b)) == (str(a) == str(b))
    assert repr(Move.parse("3:2>5")) == "Move.parse('3:2>5')"
    assert Move(MoveKind.COLUMN, 3, 2, 5) == dataclasses.replace(Move.parse("3:2>6"), target=5)
    assert hash(dataclasses.replace(Move.parse("3:2>6"), target=5)) == hash(Move.parse("3:2>5"))
    with pytest.raises(InvalidMoveError, match="not a kind of move"):
        Move("deal")  # type: ignore[arg-type]


def test_the_rules_example_record() -> None:
    record = Record.from_dict(RULES_EXAMPLE)
    game = record.replay()
    assert game.position.reprieve is None
    assert len(game.position.stock) == 88
    assert record.to_dict() == RULES_EXAMPLE
    assert json.loads(record.to_json()) == RULES_EXAMPLE


def test_records_with_an_order_and_a_variant_object() -> None:
    variant = Variant(decks=1, columns=5, reprieve="strict")
    game = Game.new(variant, 9)
    game.play("D")
    record = Record(variant, None, game.order, game.moves)
    data = record.to_dict()
    assert "deal" not in data and len(data["order"]) == 52
    assert data["variant"] == {
        "decks": 1,
        "columns": 5,
        "opening_rows": 1,
        "face_down_rows": 0,
        "reprieve": "strict",
    }
    again = Record.from_json(json.dumps(data)).replay()
    assert again.position == game.position and again.deal is None


def test_replay_names_the_first_illegal_move() -> None:
    record = Record.from_dict({**RULES_EXAMPLE, "moves": ["5>F", "D", "S"]})
    with pytest.raises(IllegalMoveError) as info:
        record.replay()
    assert info.value.index == 1 and info.value.move == "D"
    assert info.value.code == "no_deal_in_reprieve" and info.value.params == {}
    assert str(info.value).startswith("move 2 (D) is illegal: no dealing while a reprieve is open")


def test_a_replayed_win_must_be_a_win() -> None:
    with pytest.raises(InvalidRecordError, match="says won"):
        Record.from_dict({**RULES_EXAMPLE, "result": "won"}).replay()


@pytest.mark.parametrize(
    "data, message",
    [
        ([], "JSON object"),
        ({**RULES_EXAMPLE, "format": "milligan-record/2"}, "format"),
        ({k: v for k, v in RULES_EXAMPLE.items() if k != "variant"}, "no variant"),
        ({**RULES_EXAMPLE, "variant": "hearts"}, "unknown variant"),
        ({**RULES_EXAMPLE, "variant": {"decks": 3}}, "decks"),
        ({**RULES_EXAMPLE, "deal": -4}, "deal"),
        ({**RULES_EXAMPLE, "deal": 2**64}, "deal"),
        ({**RULES_EXAMPLE, "deal": "42"}, "deal"),
        ({**RULES_EXAMPLE, "order": ["AS"]}, "either"),
        ({k: v for k, v in RULES_EXAMPLE.items() if k != "deal"}, "either"),
        ({**{k: v for k, v in RULES_EXAMPLE.items() if k != "deal"}, "order": ["ZZ"]}, "bad card"),
        ({**{k: v for k, v in RULES_EXAMPLE.items() if k != "deal"}, "order": ["AS"]}, "order"),
        ({**RULES_EXAMPLE, "moves": "5>F"}, "list"),
        ({**RULES_EXAMPLE, "moves": [5]}, "move 1 is not text"),
        ({**RULES_EXAMPLE, "moves": ["5>F", "5>>F"]}, "move 2: '5>>F'"),
        ({**RULES_EXAMPLE, "result": "draw"}, "result"),
    ],
)
def test_malformed_records(data: object, message: str) -> None:
    with pytest.raises(InvalidRecordError, match=message):
        Record.from_dict(data).replay()


def test_record_text_must_be_json() -> None:
    with pytest.raises(InvalidRecordError, match="JSON"):
        Record.from_json("{not json")
    with pytest.raises(InvalidRecordError):
        Record.from_json(b"\xff\xfe")


def test_position_json_has_the_section_8_shape() -> None:
    game = Game.new("improved", 42)
    shape = game_to_json(game)
    assert list(shape) == [
        "variant",
        "deal",
        "columns",
        "foundations",
        "stock",
        "reprieve",
        "moved",
        "status",
        "moves",
        "revision",
    ]
    assert shape["variant"] == "improved" and shape["deal"] == 42
    assert shape["columns"][0] == ["??", "??", "5D"]
    assert shape["foundations"] == {"C": [0, 0], "D": [0, 0], "H": [0, 0], "S": [0, 0]}
    assert shape["stock"] == 80 and shape["reprieve"] is None and shape["moved"] == []
    game.play("8>F")
    shape = game_to_json(game, hide_deal=True)
    assert shape["deal"] is None
    assert shape["foundations"]["D"] == [0, 1] and shape["columns"][7] == ["??", "QC"]
    assert (shape["moves"], shape["revision"]) == (1, 1)
    game.undo()
    shape = game_to_json(game)
    assert (shape["moves"], shape["revision"]) == (0, 2)


def test_position_json_during_a_reprieve() -> None:
    game = Game.new("classic", 42)
    game.play("5>F")
    game.play("3>1")  # 9C freely onto QD
    shape = game_to_json(game)
    assert shape["reprieve"] == 5 and shape["moved"] == [[1, 1]]
    assert shape["status"] == "playing"
