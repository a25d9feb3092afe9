"""Property tests: random legal playouts in every variant (hypothesis)."""

from __future__ import annotations

import json
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from milligan import Game, Position, Record, game_to_json
from milligan.cards import CARDS, Card, canonical_deck
from milligan.deal import deal_order
from milligan.moves import Move, MoveKind
from milligan.variants import PRESETS, Variant

variants = st.sampled_from(sorted(PRESETS))
numbers = st.integers(min_value=0, max_value=2**64 - 1)


def all_cards(position: Position) -> Counter[Card]:
    """Every card of the position: tableau, stock and foundations."""
    counts: Counter[Card] = Counter()
    for column in position.columns:
        counts.update(column)
    counts.update(position.stock)
    for suit, heights in enumerate(position.foundations):
        for height in heights:
            counts.update(CARDS[suit][:height])
    return counts


def random_playout(game: Game, data: st.DataObject, steps: int) -> None:
    """Play random legal moves, with some undo and redo, checking as it goes."""
    for _ in range(steps):
        action = data.draw(st.integers(0, 9), label="action")
        if action == 0 and game.can_undo():
            before = game.positions[-2]
            game.undo()
            assert game.position == before
            continue
        if action == 1 and game.can_redo():
            game.redo()
            continue
        legal = list(game.legal_moves())
        if not legal:
            break
        # Prefer closing moves a little, so that reprieves do not last forever.
        closing = [
            m for m in legal if m.kind in (MoveKind.STOP, MoveKind.FOUNDATION, MoveKind.DEAL)
        ]
        pool = closing if closing and action >= 7 else legal
        move = pool[data.draw(st.integers(0, len(pool) - 1), label="move")]
        before = game.position
        game.play(move)
        assert game.position == before.apply(move)
        if game.status == "won":
            break


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=variants, number=numbers, data=st.data())
def test_random_playouts_keep_every_card(name: str, number: int, data: st.DataObject) -> None:
    game = Game.new(name, number)
    deck = Counter(canonical_deck(game.variant.decks))
    random_playout(game, data, steps=60)
    for position in game.positions:
        assert all_cards(position) == deck
        assert all(
            0 <= down < max(len(c), 1)
            for c, down in zip(position.columns, position.face_down, strict=True)
        )


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=variants, number=numbers, data=st.data())
def test_undo_and_redo_restore_equal_positions(name: str, number: int, data: st.DataObject) -> None:
    game = Game.new(name, number)
    random_playout(game, data, steps=40)
    line = game.positions
    moves = game.moves
    undone = 0
    while game.can_undo():
        game.undo()
        undone += 1
        assert game.position == line[-1 - undone]
    assert game.position == game.start
    for move in moves:
        assert game.redo() == move
    assert game.positions == line
    revision = game.revision
    game.restart()
    assert game.position == game.start and game.revision == revision + 1
    assert game.redo_moves[: len(moves)] == moves


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=variants, number=numbers, data=st.data())
def test_records_round_trip_and_replay(name: str, number: int, data: st.DataObject) -> None:
    game = Game.new(name, number)
    random_playout(game, data, steps=40)
    record = Record.of(game)
    again = Record.from_json(record.to_json())
    assert again == record
    replayed = again.replay()
    assert replayed.position == game.position and replayed.moves == game.moves
    # An explicit order replays the same way.
    explicit = Record(record.variant, None, game.order, record.moves)
    assert Record.from_json(explicit.to_json()).replay().position == game.position


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=variants, number=numbers, data=st.data())
def test_observations_never_hold_a_hidden_card(name: str, number: int, data: st.DataObject) -> None:
    game = Game.new(name, number)
    random_playout(game, data, steps=40)
    for position in game.positions:
        view = position.observe()
        assert isinstance(view.stock, int) and view.stock == len(position.stock)
        for column, seen, down in zip(
            position.columns, view.columns, position.face_down, strict=True
        ):
            assert seen == tuple(None if i < down else card for i, card in enumerate(column))
        shape = game_to_json(game)
        text = json.dumps(shape)
        assert "order" not in shape and isinstance(shape["stock"], int)
        hidden = sum(game.position.face_down)
        assert text.count('"??"') == hidden


@settings(max_examples=20, deadline=None)
@given(
    decks=st.sampled_from([1, 2]),
    columns=st.integers(1, 13),
    data=st.data(),
)
def test_any_combination_of_settings_plays(decks: int, columns: int, data: st.DataObject) -> None:
    max_rows = 52 * decks // columns
    rows = data.draw(st.integers(1, min(max_rows, 4)))
    down = data.draw(st.integers(0, rows - 1))
    reprieve = data.draw(st.sampled_from(["free", "strict", "none"]))
    variant = Variant(decks, columns, rows, down, reprieve)
    game = Game.new(variant, data.draw(numbers))
    random_playout(game, data, steps=30)
    assert all_cards(game.position) == Counter(canonical_deck(decks))
    assert Record.from_json(Record.of(game).to_json()).replay().position == game.position


@settings(max_examples=200, deadline=None)
@given(number=numbers, data=st.data())
def test_hopeless_depends_only_on_what_the_player_sees(number: int, data: st.DataObject) -> None:
    # A small improved table in a reprieve, and its twin: the same visible
    # cards with the face-down cards swapped for other unseen ones.
    variant = PRESETS["improved"]
    deck = list(deal_order(variant, number))
    reprieve = data.draw(st.integers(1, variant.columns), label="reprieve")
    columns: list[tuple[Card, ...]] = []
    face_down: list[int] = []
    for column in range(1, variant.columns + 1):
        size = 0 if column == reprieve else data.draw(st.integers(0, 4), label="size")
        columns.append(tuple(deck[:size]))
        del deck[:size]
        face_down.append(data.draw(st.integers(0, max(size - 1, 0)), label="face down"))
    face_up = [
        (c + 1, i) for c, cards in enumerate(columns) for i in range(face_down[c], len(cards))
    ]
    moved = (
        frozenset(data.draw(st.lists(st.sampled_from(face_up), max_size=3)))
        if face_up
        else frozenset()
    )
    foundations = tuple((0, 0) for _ in range(4))
    position = Position(variant, tuple(columns), tuple(face_down), foundations, (), reprieve, moved)
    unseen = [card for c, cards in enumerate(columns) for card in cards[: face_down[c]]] + deck
    swapped = iter(data.draw(st.permutations(unseen), label="unseen"))
    twin_columns = tuple(
        tuple(next(swapped) if i < face_down[c] else card for i, card in enumerate(cards))
        for c, cards in enumerate(columns)
    )
    twin = Position(variant, twin_columns, tuple(face_down), foundations, (), reprieve, moved)
    assert twin.observe() == position.observe()
    assert twin.reprieve_hopeless() == position.reprieve_hopeless()


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=variants, number=numbers, data=st.data())
def test_the_quick_build_test_agrees_with_the_refusal(
    name: str, number: int, data: st.DataObject
) -> None:
    # Position._is_build is the quick form of "_build_refusal is None": along
    # random lines of play, reprieves included, for every (source, count, target)
    game = Game.new(name, number)
    random_playout(game, data, steps=data.draw(st.integers(0, 60), label="steps"))
    position = game.position
    n = len(position.columns)
    for a in range(n):
        for k in range(1, len(position.columns[a]) + 1):
            for b in range(n):
                if a != b:
                    move = Move(MoveKind.COLUMN, a + 1, k, b + 1)
                    assert position._is_build(a, k, b) == (position._build_refusal(move) is None), (
                        str(move),
                        game_to_json(game),
                    )


def test_equal_cards_hash_alike_and_distinct_cards_differ() -> None:
    # Card.__hash__ is a stored key: the same for a card made again, one per card
    deck = [card for row in CARDS for card in row]
    assert all(hash(card) == hash(Card.parse(str(card))) for card in deck)
    assert len({hash(card) for card in deck}) == 52
