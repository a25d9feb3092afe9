"""Milligan: the Miss Milligan patience family — rules engine, solver and game.

The engine (``cards``, ``variants``, ``deal``, ``moves``, ``position``,
``game``, ``record``, ``errors``) uses only the standard library.

>>> import milligan
>>> game = milligan.Game.new("classic", 42)
>>> [str(move) for move in game.legal_moves()]
['5>F', '3>6', '4>2', 'D']
"""

from milligan.cards import Card, Rank, Suit
from milligan.deal import deal_order
from milligan.errors import (
    IllegalMoveError,
    InvalidDealError,
    InvalidMoveError,
    InvalidRecordError,
    InvalidVariantError,
    MilliganError,
)
from milligan.game import Game
from milligan.moves import Move, MoveKind
from milligan.position import LegalMoves, Observation, Position
from milligan.record import Record, game_to_json, position_to_json
from milligan.variants import PRESETS, Variant

__all__ = [
    "PRESETS",
    "Card",
    "Game",
    "IllegalMoveError",
    "InvalidDealError",
    "InvalidMoveError",
    "InvalidRecordError",
    "InvalidVariantError",
    "LegalMoves",
    "MilliganError",
    "Move",
    "MoveKind",
    "Observation",
    "Position",
    "Rank",
    "Record",
    "Suit",
    "Variant",
    "deal_order",
    "game_to_json",
    "position_to_json",
]
__version__ = "0.1.0"
