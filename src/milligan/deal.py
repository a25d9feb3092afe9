"""Deal numbers: the documented shuffle of docs/RULES.md §3.

>>> hex(SplitMix64(0).next())
'0xe220a8397b1dcdaf'
>>> " ".join(str(card) for card in deal_order(Variant.named("classic"), 42)[:8])
'QD 6C 9C 5H AD TD 8S 4H'
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from milligan.cards import Card, canonical_deck
from milligan.errors import InvalidDealError
from milligan.variants import Variant

MASK64 = (1 << 64) - 1
MAX_DEAL = MASK64


class SplitMix64:
    """The SplitMix64 generator, exactly as docs/RULES.md §3.2 writes it."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & MASK64

    def next(self) -> int:
        """The next 64-bit output."""
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)


def check_deal_number(number: object) -> int:
    """The number itself when it is a valid deal number, else InvalidDealError."""
    if not isinstance(number, int) or isinstance(number, bool) or not 0 <= number <= MAX_DEAL:
        raise InvalidDealError(f"a deal number is a whole number from 0 to 2**64-1, not {number!r}")
    return number


def deal_order(variant: Variant, number: int) -> tuple[Card, ...]:
    """The dealing order of deal ``number``: the shuffled canonical deck."""
    rng = SplitMix64(check_deal_number(number))
    cards = list(canonical_deck(variant.decks))
    for i in range(len(cards) - 1, 0, -1):
        j = rng.next() % (i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    return tuple(cards)


def check_order(variant: Variant, order: Iterable[Card]) -> tuple[Card, ...]:
    """An explicit dealing order, checked to be exactly the variant's deck."""
    cards = tuple(order)
    if Counter(cards) != Counter(canonical_deck(variant.decks)):
        raise InvalidDealError(
            f"a dealing order must hold each card exactly {variant.decks} time(s) "
            f"({variant.deck_size} cards), got {len(cards)} cards"
        )
    return cards
