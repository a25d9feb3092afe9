"""Foundation moves that can never spoil a win, for one and two decks.

The argument is in docs/SOLVER.md ("Safe foundation moves"). In short, a
card of rank r goes up safely when

1. every card of its suit below r is already up (both foundations of the
   suit are at least r - 1: with two decks, sending one copy of r up while
   the other foundation is lower could strand the *other* copy), and
2. every card that could ever lie on it (rank r - 1, other colour: four
   physical cards with two decks) is already up, so it is no one's parent;
3. with a free reprieve, it is not a King and not alone in its column, so
   it is never the only pile a free move could land on (an Ace used as
   scratch, see notes/reprieve.md).

Strict reprieves get no auto-moves: a free move there may not split a run,
and lifting a card can join the card dealt on it into a run with the card
below, which would forbid a free move the original position allowed.
"""

from __future__ import annotations

from milligan.cards import Rank, Suit
from milligan.moves import Move
from milligan.position import Position


def safe_auto_moves(position: Position) -> tuple[Move, ...]:
    """The foundation moves that can never spoil a win (see the module docstring).

    >>> from milligan.variants import Variant
    >>> start = Position.deal(Variant.named("classic"), 42)
    >>> [str(move) for move in safe_auto_moves(start)]
    []
    >>> spanish = Position.deal(Variant.named("spanish"), 42)
    >>> [str(move) for move in safe_auto_moves(spanish)]
    ['5>F']
    """
    rule = position.variant.reprieve
    if rule == "strict":
        return ()
    low = [min(heights) for heights in position.foundations]
    moves: list[Move] = []
    for number, cards in enumerate(position.columns, start=1):
        if not cards:
            continue
        card = cards[-1]
        below = card.rank - 1
        if low[card.suit] < below:
            continue
        if any(low[suit] < below for suit in Suit if suit.is_red != card.is_red):
            continue
        if rule == "free" and (card.rank == Rank.KING or len(cards) == 1):
            continue
        moves.append(Move.foundation(number))
    return tuple(moves)
