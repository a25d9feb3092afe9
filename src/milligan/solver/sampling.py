"""Sampling what a player cannot see: full positions consistent with an observation.

>>> from milligan.position import Position
>>> from milligan.variants import Variant
>>> view = Position.deal(Variant.named("classic"), 42).observe()
>>> len(unseen_cards(view)) == view.stock
True
>>> sample_position(view, random.Random(1)).observe() == view
True
"""

from __future__ import annotations

import random
from collections import Counter

from milligan.cards import CARDS, Card, Suit, canonical_deck
from milligan.position import Observation, Position


def unseen_cards(view: Observation) -> list[Card]:
    """The cards a player cannot see (face down or in the stock), sorted."""
    left = Counter(canonical_deck(view.variant.decks))
    for cards in view.columns:
        for card in cards:
            if card is not None:
                left[card] -= 1
    for suit, heights in zip(Suit, view.foundations, strict=True):
        for height in heights:
            for rank in range(1, height + 1):
                left[CARDS[suit][rank - 1]] -= 1
    if any(count < 0 for count in left.values()):
        raise ValueError("the observation shows more copies of a card than the deck holds")
    return sorted(left.elements(), key=lambda card: (card.suit, card.rank))


def sample_position(view: Observation, rng: random.Random) -> Position:
    """One full position consistent with ``view``, the unseen cards shuffled by ``rng``."""
    hidden = unseen_cards(view)
    slots = sum(card is None for cards in view.columns for card in cards)
    if len(hidden) != slots + view.stock:
        raise ValueError(
            f"the observation hides {slots + view.stock} cards but {len(hidden)} are unseen"
        )
    rng.shuffle(hidden)
    deal = iter(hidden)
    columns = tuple(
        tuple(next(deal) if card is None else card for card in cards) for cards in view.columns
    )
    face_down = tuple(sum(card is None for card in cards) for cards in view.columns)
    stock = tuple(deal)
    return Position(
        view.variant, columns, face_down, view.foundations, stock, view.reprieve, view.moved
    )
