"""Cards, ranks, suits and their text forms (docs/RULES.md §1).

>>> Card.parse("10h")
Card.parse('TH')
>>> str(Card.parse("q♣"))
'QC'
>>> Card.parse("9H").can_go_on(Card.parse("TS"))
True
>>> Card.parse("Aſ")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
milligan.errors.InvalidMoveError: 'Aſ' is not a card: 'ſ' (U+017F) is not allowed ...
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import IntEnum

from milligan.errors import InvalidMoveError

RANK_CHARS = "A23456789TJQK"
SUIT_CHARS = "CDHS"
SUIT_SYMBOLS = "♣♦♥♠"
_ASCII_SPACE = " \t\n\r\f\v"


def describe_char(char: str) -> str:
    """A character named so that look-alikes can be told apart: ``'ſ' (U+017F)``.

    >>> describe_char("５")
    "'５' (U+FF15)"
    """
    return f"{char!r} (U+{ord(char):04X})"


def quoted(text: object, limit: int = 40) -> str:
    """``repr(text)`` for a message, cut in the middle when it is long.

    >>> quoted("9" * 5000 + ">F")
    "'999999999999999999999999...99>F' (5002 characters)"
    """
    shown = repr(text)
    if len(shown) <= limit:
        return shown
    size = f" ({len(text)} characters)" if isinstance(text, str) else ""
    return f"{shown[: limit - 15]}...{shown[-5:]}{size}"


class Rank(IntEnum):
    """A card's rank, Ace low (1) to King (13)."""

    ACE = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13

    @property
    def char(self) -> str:
        """The rank's one-letter form: ``A 2 … 9 T J Q K``."""
        return RANK_CHARS[self - 1]


class Suit(IntEnum):
    """A suit, in the canonical deck order ``C D H S``."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def char(self) -> str:
        """The suit's letter: ``C D H S``."""
        return SUIT_CHARS[self]

    @property
    def symbol(self) -> str:
        """The suit's symbol: ``♣ ♦ ♥ ♠``."""
        return SUIT_SYMBOLS[self]

    @property
    def is_red(self) -> bool:
        """Diamonds and hearts are red; clubs and spades are black."""
        return self in (Suit.DIAMONDS, Suit.HEARTS)


@dataclass(frozen=True, slots=True)
class Card:
    """One card.  Two copies of a card in a two-deck game are equal values."""

    rank: Rank
    suit: Suit
    #: True for diamonds and hearts (stored: the move generator asks often).
    is_red: bool = field(init=False, repr=False, compare=False)
    #: 4 × rank + suit, the card's hash (stored: positions are hashed card by
    #: card, and a hash of the (rank, suit) pair costs three calls).
    key: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "is_red", self.suit in (Suit.DIAMONDS, Suit.HEARTS))
        object.__setattr__(self, "key", 4 * int(self.rank) + int(self.suit))

    def __hash__(self) -> int:
        return self.key

    @property
    def is_king(self) -> bool:
        """True for the Kings, the only cards an empty column takes."""
        return self.rank == Rank.KING

    def can_go_on(self, other: Card) -> bool:
        """Whether this card builds on ``other``: one rank lower, other colour."""
        return other.rank == self.rank + 1 and other.is_red != self.is_red

    def parent_text(self) -> str:
        """What this card needs under it, in words: ``a black 10``."""
        if self.rank == Rank.KING:
            return "an empty column"
        colour = "black" if self.is_red else "red"
        return f"a {colour} {_RANK_WORDS[Rank(self.rank + 1)]}"

    def __str__(self) -> str:
        return RANK_CHARS[self.rank - 1] + SUIT_CHARS[self.suit]

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"

    @property
    def symbol_text(self) -> str:
        """The card with its suit symbol, e.g. ``T♥``."""
        return RANK_CHARS[self.rank - 1] + SUIT_SYMBOLS[self.suit]

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read a card: ``AS``, ``TH``, ``10H``, lower case, ``♣♦♥♠``.

        Nothing else outside ASCII: ``str.upper()`` would read look-alikes
        such as ``'ſ'`` as ``S``.
        """
        for char in text:
            if not char.isascii() and char not in SUIT_SYMBOLS:
                raise InvalidMoveError(
                    f"{quoted(text)} is not a card: {describe_char(char)} is not allowed "
                    f"(expected e.g. AS, TH, 10H or A♠)"
                )
        clean = text.strip(_ASCII_SPACE).upper()
        if len(clean) < 2:
            raise InvalidMoveError(f"{quoted(text)} is not a card (expected e.g. AS, TH, 10H)")
        rank_text, suit_text = clean[:-1], clean[-1]
        if rank_text == "10":
            rank_text = "T"
        suit = SUIT_CHARS.find(suit_text)
        if suit < 0:
            suit = SUIT_SYMBOLS.find(suit_text)
        if len(rank_text) != 1 or rank_text not in RANK_CHARS or suit < 0:
            raise InvalidMoveError(f"{quoted(text)} is not a card (expected e.g. AS, TH, 10H)")
        return CARDS[Suit(suit)][RANK_CHARS.index(rank_text)]


_RANK_WORDS = {
    Rank.ACE: "Ace",
    Rank.TWO: "2",
    Rank.THREE: "3",
    Rank.FOUR: "4",
    Rank.FIVE: "5",
    Rank.SIX: "6",
    Rank.SEVEN: "7",
    Rank.EIGHT: "8",
    Rank.NINE: "9",
    Rank.TEN: "10",
    Rank.JACK: "Jack",
    Rank.QUEEN: "Queen",
    Rank.KING: "King",
}

#: Every card, ``CARDS[suit][rank - 1]``; shared instances keep memory low.
CARDS: tuple[tuple[Card, ...], ...] = tuple(
    tuple(Card(rank, suit) for rank in Rank) for suit in Suit
)


def canonical_deck(decks: int) -> tuple[Card, ...]:
    """The unshuffled deck: per deck, suits ``C D H S``, each ``A`` to ``K``."""
    return tuple(card for _ in range(decks) for suit_cards in CARDS for card in suit_cards)
