"""The game object: history, undo, redo, restart, resign, status."""

from __future__ import annotations

import pytest

from milligan import Game, IllegalMoveError, InvalidMoveError, Record


def test_play_undo_redo_and_revision() -> None:
    game = Game.new("classic", 42)
    assert game.revision == 0 and not game.can_undo() and not game.can_redo()
    game.play("5>F")
    game.play("S")
    assert game.revision == 2 and [str(m) for m in game.moves] == ["5>F", "S"]
    assert str(game.undo()) == "S" and game.position.reprieve == 5
    assert game.can_redo()
    assert str(game.redo()) == "S" and game.revision == 4
    game.undo()
    game.play("S")  # playing the move that redo would play keeps the rest of the redo line
    game.undo()
    game.undo()
    game.play("3>6")  # a different move clears the redo line
    assert not game.can_redo()


def test_bad_moves_leave_the_game_unchanged() -> None:
    game = Game.new("classic", 42)
    game.play("5>F")
    before = (game.position, game.moves, game.revision)
    with pytest.raises(InvalidMoveError):
        game.play("5>>F")
    with pytest.raises(IllegalMoveError) as info:
        game.play("D")
    assert info.value.code == "no_deal_in_reprieve"
    assert (game.position, game.moves, game.revision) == before
    with pytest.raises(IllegalMoveError) as info:
        Game.new("classic", 42).undo()
    assert info.value.code == "no_undo"


def test_restart_and_resign() -> None:
    game = Game.new("classic", 42)
    game.play("5>F")
    game.restart()
    assert game.position == game.start and [str(m) for m in game.redo_moves] == ["5>F"]
    game.resign()
    assert game.status == "resigned" and not game.legal_moves()
    with pytest.raises(IllegalMoveError):
        game.play("5>F")
    assert Record.of(game).result == "resigned"


def deal_everything(number: int) -> Game:
    game = Game.new("one-deck", number)
    while game.position.stock:
        game.play("D")
    return game


def test_status_lost_at_a_plain_dead_end() -> None:
    assert deal_everything(4).status == "lost" and not deal_everything(4).legal_moves()
    game = deal_everything(1)
    assert game.status == "lost" and [str(m) for m in game.legal_moves()] == ["2>1"]
    game.play("2>1")  # builds that lead nowhere do not change the verdict
    assert game.status == "lost"
    game.undo()
    game.undo()  # with a row back in the stock, the game goes on
    assert game.status == "playing"


def test_status_playing_while_progress_is_possible() -> None:
    assert deal_everything(5).status == "playing"  # a foundation move
    game = deal_everything(15)
    assert game.status == "playing"
    # Builds alone reach a foundation move: 9D onto TC, 6H onto 7C, then AS goes up.
    for move in ("1>4", "2>1"):
        assert [str(m) for m in game.legal_moves()] == [move]
        game.play(move)
        assert game.status == "playing"
    assert [str(m) for m in game.legal_moves()] == ["2>F"]


def test_nothing_is_played_after_a_win() -> None:
    # One column, a deck in foundation order: the last card up wins (and empties the column).
    order = [f"{rank}{suit}" for suit in "CDHS" for rank in "A23456789TJQK"]
    variant = {"decks": 1, "columns": 1, "opening_rows": 1, "face_down_rows": 0, "reprieve": "free"}
    game = Record.from_dict(
        {
            "format": "milligan-record/1",
            "variant": variant,
            "order": order,
            "moves": ["1>F", "S", "D"] * 51 + ["1>F"],
        }
    ).replay()
    assert game.status == "won" and not game.legal_moves()
    with pytest.raises(IllegalMoveError, match="it is won") as info:
        game.play("S")
    assert info.value.code == "game_won"
    with pytest.raises(IllegalMoveError, match="already won") as info:
        game.resign()
    assert info.value.code == "already_won"
    game.undo()
    assert game.status == "playing" and [str(m) for m in game.legal_moves()] == ["1>F"]
