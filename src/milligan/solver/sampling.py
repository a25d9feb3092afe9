"""Fair hints: sample the unseen cards, solve each sample, vote on the first move."""

from __future__ import annotations

import random
from collections import Counter

from milligan.cards import CARDS, Card, Suit, canonical_deck
from milligan.game import Game
from milligan.moves import Move
from milligan.position import Observation, Position
from milligan.solver.results import Hint

#: The position table of each sample: fixed, so a hint never depends on the machine.
HINT_MEMORY_MB = 64


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


def hint(
    view: Observation | Position | Game,
    *,
    samples: int = 16,
    seed: int = 0,
    max_positions: int = 20000,
) -> Hint:
    """Suggest a move from what the player sees (hidden cards are never read).

    Each of ``samples`` deals consistent with the observation is solved with
    a budget of ``max_positions``; the first move of the most winning
    samples is suggested (ties go to the earlier legal move).  Only
    position budgets are used, so the same seed gives the same hint on every
    machine.
    """
    from milligan.solver.search import run

    if isinstance(view, Game):
        view = view.position
    if isinstance(view, Position):
        view = view.observe()
    rng = random.Random(seed)
    votes: Counter[Move] = Counter()
    wins = 0
    order: list[Move] = []
    for _ in range(samples):
        position = sample_position(view, rng)
        if not order:
            order = list(position.legal_moves())
        result = run(
            position,
            max_positions=max_positions,
            max_memory_mb=HINT_MEMORY_MB,
            shorten_win=False,
        )
        if result.result == "won":
            wins += 1
            if result.moves:
                votes[result.moves[0]] += 1
    move: Move | None = None
    if votes:
        best = max(votes.values())
        move = next(m for m in order if votes[m] == best)
    chance = wins / samples if samples else 0.0
    return Hint(move, chance, samples, wins)
