"""The position: an immutable, hashable snapshot of the table (docs/RULES.md §4–§6).

>>> from milligan.variants import Variant
>>> position = Position.deal(Variant.named("classic"), 42)
>>> " ".join(str(column[-1]) for column in position.columns)
'QD 6C 9C 5H AD TD 8S 4H'
>>> after = position.apply(Move.parse("5>F"))
>>> after.reprieve
5
>>> Move.parse("S") in after.legal_moves()
True
"""

from __future__ import annotations

import functools
from collections import deque
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import overload

from milligan.cards import Card, Rank, Suit
from milligan.deal import check_order, deal_order
from milligan.errors import IllegalMoveError, describe
from milligan.moves import DEAL, STOP, Move, MoveKind
from milligan.variants import Variant

Column = tuple[Card, ...]
#: A card's place on the table: (column from 1, index from 0 at the bottom).
Place = tuple[int, int]

#: How many positions the dead-end check looks at before it gives up (§6).
DEAD_END_LIMIT = 100_000


@dataclass(frozen=True, slots=True)
class Observation:
    """What a player may see of a position: no stock order, no face-down cards.

    ``columns`` holds ``None`` for each face-down card; ``stock`` is a count.
    """

    variant: Variant
    columns: tuple[tuple[Card | None, ...], ...]
    foundations: tuple[tuple[int, ...], ...]
    stock: int
    reprieve: int | None
    moved: frozenset[Place]

    def reprieve_hopeless(self) -> bool:
        """True when the open reprieve can never settle, whatever the face-down cards are.

        A conservative test: some moved card has no possible parent and
        cannot reach a foundation.  A card the player cannot see counts as
        any card that is neither visible nor on a foundation, so two positions
        that look the same always get the same answer.  False means "not
        known to be hopeless", not "can settle".
        """
        if self.reprieve is None:
            return False
        visible: dict[Card, int] = {}
        hidden = 0
        for cards in self.columns:
            for card in cards:
                if card is None:
                    hidden += 1
                else:
                    visible[card] = visible.get(card, 0) + 1

        def unseen(card: Card) -> int:
            """Copies of ``card`` that a face-down card could be."""
            went_up = sum(1 for height in self.foundations[card.suit] if height >= card.rank)
            return self.variant.decks - visible.get(card, 0) - went_up

        def may_be_on_table(card: Card) -> bool:
            return visible.get(card, 0) > 0 or (hidden > 0 and unseen(card) > 0)

        for column, index in self.moved:
            card = self.columns[column - 1][index]
            if card is None or card.is_king:
                continue
            if any(
                may_be_on_table(Card(Rank(card.rank + 1), suit))
                for suit in Suit
                if suit.is_red != card.is_red
            ):
                continue
            reachable = False
            for height in self.foundations[card.suit]:
                if height >= card.rank:
                    continue
                missing = [
                    Card(Rank(rank), card.suit)
                    for rank in range(height + 1, card.rank)
                    if not visible.get(Card(Rank(rank), card.suit), 0)
                ]
                # Each missing card must be face down: one hidden card apiece.
                if len(missing) <= hidden and all(unseen(c) > 0 for c in missing):
                    reachable = True
                    break
            if not reachable:
                return True
        return False


@dataclass(frozen=True, slots=True)
class Position:
    """The whole table, including what the player cannot see.

    - ``columns``: bottom card first; the lowest ``face_down[i]`` cards of
      column ``i`` are face down.
    - ``foundations``: per suit (``C D H S``), the heights of its foundations,
      ascending (0 = empty, 13 = complete).
    - ``stock``: the cards still to deal, in dealing order.
    - ``reprieve``: the reprieve column's number (from 1) while one is open.
    - ``moved``: places of the cards moved during the open reprieve.
    """

    variant: Variant
    columns: tuple[Column, ...]
    face_down: tuple[int, ...]
    foundations: tuple[tuple[int, ...], ...]
    stock: tuple[Card, ...]
    reprieve: int | None = None
    moved: frozenset[Place] = frozenset()

    # -- construction ---------------------------------------------------

    @classmethod
    def deal(cls, variant: Variant, number: int) -> Position:
        """The opening position of deal ``number``."""
        return cls.from_order(variant, deal_order(variant, number))

    @classmethod
    def from_order(cls, variant: Variant, order: Iterable[Card]) -> Position:
        """The opening position for an explicit dealing order."""
        cards = check_order(variant, order)
        n = variant.columns
        opening = variant.opening_rows * n
        columns = tuple(tuple(cards[c:opening:n]) for c in range(n))
        return cls(
            variant=variant,
            columns=columns,
            face_down=(variant.face_down_rows,) * n,
            foundations=((0,) * variant.decks,) * 4,
            stock=cards[opening:],
        )

    # -- simple questions ---------------------------------------------

    def is_face_up(self, column: int, index: int) -> bool:
        """Whether the card at (column from 1, index from 0) is face up."""
        return index >= self.face_down[column - 1]

    def run_length(self, column: int) -> int:
        """How many cards at the top of ``column`` (from 1) form a face-up run."""
        cards = self.columns[column - 1]
        if not cards:
            return 0
        lowest = self.face_down[column - 1]
        i = len(cards) - 1
        while i > lowest and cards[i].can_go_on(cards[i - 1]):
            i -= 1
        return len(cards) - i

    def foundation_accepts(self, card: Card) -> bool:
        """Whether some foundation of the card's suit takes it now."""
        return card.rank - 1 in self.foundations[card.suit]

    def is_won(self) -> bool:
        """Every card is on a foundation."""
        return all(height == Rank.KING for heights in self.foundations for height in heights)

    def cards_on_foundations(self) -> int:
        """How many cards have gone up."""
        return sum(sum(heights) for heights in self.foundations)

    def unsettled(self) -> tuple[Place, ...]:
        """The moved cards not yet in a legal place (empty when settled), sorted."""
        out: list[Place] = []
        for column, index in self.moved:
            cards = self.columns[column - 1]
            card = cards[index]
            if index == 0:
                if not card.is_king:
                    out.append((column, index))
            elif not card.can_go_on(cards[index - 1]):
                out.append((column, index))
        return tuple(sorted(out))

    def is_settled(self) -> bool:
        """Every card moved during the open reprieve lies in a legal place."""
        return not self.unsettled()

    def describe_places(self, places: Iterable[Place]) -> str:
        """Cards named by place: ``5H in column 3, 9C in column 5``."""
        return ", ".join(f"{self.columns[c - 1][i]} in column {c}" for c, i in places)

    # -- moves ----------------------------------------------------------

    def legal_moves(self) -> LegalMoves:
        """Every distinct move that :meth:`apply` would accept (docs/RULES.md §7.3)."""
        return LegalMoves(self._generate())

    def is_legal(self, move: Move) -> bool:
        """Whether :meth:`apply` would accept ``move``."""
        try:
            self.apply(move)
        except IllegalMoveError:
            return False
        return True

    def _generate(self) -> tuple[Move, ...]:
        columns = self.columns
        n = len(columns)
        reprieve = self.reprieve
        moves = [
            Move.foundation(a + 1)
            for a, cards in enumerate(columns)
            if cards and self.foundation_accepts(cards[-1])
        ]
        # Top cards by (rank, colour): a base card looks its parent up directly.
        tops: dict[tuple[int, bool], list[int]] = {}
        empty: list[int] = []
        for b, target in enumerate(columns):
            if target:
                top = target[-1]
                tops.setdefault((top.rank, top.is_red), []).append(b)
            else:
                empty.append(b)
        strict = self.variant.reprieve == "strict"
        for a, cards in enumerate(columns):
            if not cards:
                continue
            size = len(cards)
            run = self.run_length(a + 1)
            others = [b for b in range(n) if b != a and columns[b]]
            for k in range(1, size + 1):
                base = cards[size - k]
                targets: list[int] = []
                if k <= run:  # builds (§4.1–4.2)
                    if base.rank == Rank.KING:
                        # Into the reprieve column, a King-led run closes the
                        # reprieve: legal only if that settles the position.
                        targets = [b for b in empty if reprieve != b + 1 or self._close_ok(a, k, b)]
                    else:
                        targets = [
                            b for b in tops.get((base.rank + 1, not base.is_red), ()) if b != a
                        ]
                if reprieve is not None and not (
                    strict and self._strict_refusal(a, size - k) is not None
                ):
                    # Free moves: onto every other non-empty column (§5).
                    targets = sorted(set(targets).union(others)) if targets else others
                elif reprieve is None and k > run:
                    break  # no free moves: nothing longer than the run moves
                moves.extend(_COLUMN_MOVE(a + 1, b + 1, k) for b in sorted(targets))
        if reprieve is None:
            if self.stock:
                moves.append(DEAL)
        elif self.is_settled():
            moves.append(STOP)
        return tuple(moves)

    def _close_ok(self, a: int, k: int, b: int) -> bool:
        return not self._move_cards(a, k, b).unsettled()

    def apply(self, move: Move) -> Position:
        """The position after ``move``; raises :class:`IllegalMoveError` with the reason."""
        kind = move.kind
        if kind is MoveKind.COLUMN:
            return self._apply_column(move)
        if kind is MoveKind.FOUNDATION:
            return self._apply_foundation(move)
        if kind is MoveKind.DEAL:
            if self.reprieve is not None:
                raise IllegalMoveError.refuse("D", "no_deal_in_reprieve")
            if not self.stock:
                raise IllegalMoveError.refuse("D", "stock_empty")
            n = self.variant.columns
            row = self.stock[:n]
            columns = tuple(
                cards + (row[i],) if i < len(row) else cards for i, cards in enumerate(self.columns)
            )
            return Position(self.variant, columns, self.face_down, self.foundations, self.stock[n:])
        # STOP
        if self.reprieve is None:
            raise IllegalMoveError.refuse("S", "no_reprieve")
        return self._closed("S")

    def _closed(self, move: str) -> Position:
        """This position with its reprieve closed by ``move``, if it is settled (§5)."""
        unsettled = self.unsettled()
        if unsettled:
            places = [[str(self.columns[c - 1][i]), c] for c, i in unsettled]
            raise IllegalMoveError.refuse(move, "reprieve_unsettled", unsettled, places=places)
        return Position(self.variant, self.columns, self.face_down, self.foundations, self.stock)

    def _check_column(self, move: Move, column: int) -> None:
        if column > len(self.columns):
            raise IllegalMoveError.refuse(
                str(move), "no_such_column", column=column, columns=len(self.columns)
            )

    def _apply_foundation(self, move: Move) -> Position:
        self._check_column(move, move.source)
        a = move.source - 1
        cards = self.columns[a]
        if not cards:
            raise IllegalMoveError.refuse(str(move), "column_empty", column=move.source)
        card = cards[-1]
        heights = self.foundations[card.suit]
        if card.rank - 1 not in heights:
            suit = str(card)[1]
            if card.rank == Rank.ACE:
                raise IllegalMoveError.refuse(
                    str(move), "no_empty_foundation", card=str(card), suit=suit
                )
            below = Card(Rank(card.rank - 1), card.suit)
            raise IllegalMoveError.refuse(
                str(move), "foundation_needs_below", card=str(card), suit=suit, below=str(below)
            )
        grown = list(heights)
        grown[grown.index(card.rank - 1)] = int(card.rank)
        foundations = tuple(
            tuple(sorted(grown)) if suit == card.suit else h
            for suit, h in enumerate(self.foundations)
        )
        rest = cards[:-1]
        columns = _replace(self.columns, a, rest)
        face_down = _replace(self.face_down, a, _face_down_after(self.face_down[a], len(rest)))
        reprieve = self.reprieve
        moved = self.moved
        if reprieve is not None:
            moved = moved - {(a + 1, len(rest))}
        elif not rest and self.variant.has_reprieve:
            reprieve = a + 1
        return Position(self.variant, columns, face_down, foundations, self.stock, reprieve, moved)

    def _is_build(self, a: int, k: int, b: int) -> bool:
        """Whether moving the top ``k`` cards of column ``a`` onto ``b`` (0-based) builds.

        :meth:`_build_refusal` is None exactly then; this is the quick test,
        without the reason, for the free moves of a reprieve, which are not
        builds and are legal.
        """
        if k > self.run_length(a + 1):
            return False
        base = self.columns[a][-k]
        target = self.columns[b]
        return base.can_go_on(target[-1]) if target else base.is_king

    def _build_refusal(self, move: Move) -> IllegalMoveError | None:
        """Why ``move`` is not a build (§4.1–4.2), or None when it is one."""
        a, k, b = move.source - 1, move.count, move.target - 1
        text = str(move)
        cards = self.columns[a]
        size = len(cards)
        if size - k < self.face_down[a]:
            return IllegalMoveError.refuse(text, "face_down_cards", count=k, column=a + 1)
        for i in range(size - k, size - 1):
            if not cards[i + 1].can_go_on(cards[i]):
                return IllegalMoveError.refuse(
                    text, "not_a_run", count=k, column=a + 1,
                    upper=str(cards[i + 1]), lower=str(cards[i]),
                )  # fmt: skip
        base = cards[size - k]
        target = self.columns[b]
        if not target:
            if base.is_king:
                return None
            return IllegalMoveError.refuse(text, "empty_needs_king", card=str(base), column=b + 1)
        top = target[-1]
        if base.can_go_on(top):
            return None
        if base.is_king:
            return IllegalMoveError.refuse(
                text, "king_needs_empty", card=str(base), target=str(top)
            )
        code = "wrong_colour" if top.rank == base.rank + 1 else "not_one_lower"
        parent = Rank(base.rank + 1)
        needs = sorted(str(Card(parent, suit)) for suit in Suit if suit.is_red != base.is_red)
        return IllegalMoveError.refuse(text, code, card=str(base), target=str(top), needs=needs)

    def _strict_refusal(self, a: int, i: int) -> tuple[str, dict[str, object]] | None:
        """Why a strict reprieve forbids a free move of column ``a`` (0-based) from index ``i``.

        The group must be face up and must not split a run: the card under
        it, when face up, must not be its parent.
        """
        cards = self.columns[a]
        lowest = self.face_down[a]
        if i < lowest:
            return "strict_face_down", {"column": a + 1}
        if i - 1 >= lowest and cards[i].can_go_on(cards[i - 1]):
            return "strict_splits_run", {"card": str(cards[i]), "lower": str(cards[i - 1])}
        return None

    def _apply_column(self, move: Move) -> Position:
        self._check_column(move, move.source)
        self._check_column(move, move.target)
        a, k, b = move.source - 1, move.count, move.target - 1
        cards = self.columns[a]
        if not cards:
            raise IllegalMoveError.refuse(str(move), "column_empty", column=move.source)
        if k > len(cards):
            raise IllegalMoveError.refuse(
                str(move), "too_few_cards", column=move.source, size=len(cards)
            )
        if not self._is_build(a, k, b):
            # Not a build; during a reprieve it may still be a free move (§5),
            # which never goes into an empty column.
            if self.reprieve is None or not self.columns[b]:
                refusal = self._build_refusal(move)
                assert refusal is not None
                raise refusal
            if self.variant.reprieve == "strict":
                strict_refusal = self._strict_refusal(a, len(cards) - k)
                if strict_refusal is not None:
                    code, params = strict_refusal
                    reason = describe(code, params)
                    raise IllegalMoveError(str(move), reason, code=code, params=params)
        after = self._move_cards(a, k, b)
        if self.reprieve is not None and self.reprieve == b + 1:
            return after._closed(str(move))  # a King-led run into the reprieve column
        return after

    def _move_cards(self, a: int, k: int, b: int) -> Position:
        """Move the top ``k`` cards of column ``a`` onto ``b`` (0-based), no checks."""
        source = self.columns[a]
        target = self.columns[b]
        split = len(source) - k
        rest = source[:split]
        columns = list(self.columns)
        columns[a] = rest
        columns[b] = target + source[split:]
        face_down = list(self.face_down)
        face_down[a] = _face_down_after(face_down[a], split)
        reprieve = self.reprieve
        moved = self.moved
        if reprieve is not None:
            moved = frozenset(
                {place for place in moved if place[0] != a + 1 or place[1] < split}
                | {(b + 1, len(target) + j) for j in range(k)}
            )
        elif not rest and target and self.variant.has_reprieve:
            reprieve = a + 1
        return Position(
            self.variant,
            tuple(columns),
            tuple(face_down),
            self.foundations,
            self.stock,
            reprieve,
            moved,
        )

    # -- end of game ------------------------------------------------------

    def dead_end(self, limit: int = DEAD_END_LIMIT) -> bool | None:
        """Whether this is a plain dead end (§6): True, False, or None if unsure.

        True when the stock is empty, no reprieve is open, and no position
        reachable by builds alone allows a foundation move or opens a
        reprieve.  None when more than ``limit`` positions would need a look,
        or when a build would turn a face-down card up: what it shows is
        hidden, and the answer must not depend on it (D16).
        """
        if self.stock or self.reprieve is not None or self.is_won():
            return False
        return _builds_lead_nowhere(self, limit)

    def _table_key(self) -> tuple[tuple[Column, ...], tuple[int, ...]]:
        return self.columns, self.face_down

    def reprieve_hopeless(self) -> bool:
        """True when the open reprieve can certainly never settle (docs/RULES.md §6.3).

        Either no move is legal (the reprieve can neither settle nor change),
        or :meth:`Observation.reprieve_hopeless` finds a moved card with no
        place left.  Both are decided from what the player sees: which moves
        are legal never depends on a face-down card, so the answer tells a
        player nothing about them.
        """
        if self.reprieve is None:
            return False
        return not self._generate() or self.observe().reprieve_hopeless()

    # -- what a player sees ---------------------------------------------

    def observe(self) -> Observation:
        """The player's view: face-down cards as None and the stock as a count."""
        return Observation(
            self.variant,
            tuple(
                (None,) * down + cards[down:] if down else cards
                for cards, down in zip(self.columns, self.face_down, strict=True)
            ),
            self.foundations,
            len(self.stock),
            self.reprieve,
            self.moved,
        )


def plain_dead_end(position: Position, limit: int = DEAD_END_LIMIT) -> bool | None:
    """:meth:`Position.dead_end` written over ``legal_moves()`` and ``apply()``.

    The definition the fast search must agree with, kept for the tests and
    for ``bench/deadend.py``; about ten times slower.
    """
    if position.stock or position.reprieve is not None or position.is_won():
        return False
    seen = {position._table_key()}
    queue = deque([position])
    while queue:
        here = queue.popleft()
        for move in here.legal_moves():
            if move.kind is MoveKind.FOUNDATION:
                return False
            after = here.apply(move)
            if after.reprieve is not None:
                return False
            if sum(after.face_down) < sum(here.face_down):
                return None
            key = after._table_key()
            if key not in seen:
                if len(seen) >= limit:
                    return None
                seen.add(key)
                queue.append(after)
    return True


def _code_kinds() -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Per card code ``rank * 4 + suit`` (4 to 55): its kind, ``rank * 2 + red``,
    and the kind it builds on (one rank higher, the other colour)."""
    size = (Rank.KING + 1) * 4
    kind, parent = [0] * size, [-1] * size
    for rank in Rank:
        for suit in Suit:
            red = suit in (Suit.DIAMONDS, Suit.HEARTS)
            kind[rank * 4 + suit] = rank * 2 + red
            parent[rank * 4 + suit] = (rank + 1) * 2 + (not red)
    return tuple(kind), tuple(parent)


#: The dead-end search's tables, made once: see :func:`_code_kinds`.
_KIND, _PARENT = _code_kinds()
_KING = Rank.KING * 4


def _builds_lead_nowhere(position: Position, limit: int) -> bool | None:
    """The breadth-first search of :meth:`Position.dead_end`, on small integers.

    It visits the positions builds reach in the order that ``legal_moves()``
    and ``apply()`` would (foundation moves, then builds by source column,
    card count and target column), and returns at the same move for the same
    reason, so its answers, ``None`` at the limit included, are theirs.  A
    card is coded ``rank * 4 + suit`` and a column is the bytes of its codes
    (bytes keep their hash, so a table's hash costs one step per column, not
    per card).  A build onto column ``b`` needs the top card of ``b`` to be
    of the kind the base builds on, ``(rank + 1) * 2 + other colour``.
    Builds never change the foundations or the stock, and a build that would
    change the face-down counts ends the search, so a table is its columns
    alone.  The tests check it against :func:`plain_dead_end`.
    """
    kind, parent, king = _KIND, _PARENT, _KING
    accepts = [False] * len(kind)
    for rank in Rank:
        for suit in Suit:
            accepts[rank * 4 + suit] = rank - 1 in position.foundations[suit]
    start = tuple(bytes(card.rank * 4 + card.suit for card in cards) for cards in position.columns)
    down = position.face_down
    opens = position.variant.has_reprieve
    seen = {start}
    queue = deque([start])
    while queue:
        columns = queue.popleft()
        tops: dict[int, list[int]] = {}
        empty: list[int] = []
        for b, cards in enumerate(columns):
            if cards:
                top = cards[-1]
                if accepts[top]:
                    return False  # a foundation move (listed first)
                tops.setdefault(kind[top], []).append(b)
            else:
                empty.append(b)
        for a, cards in enumerate(columns):
            if not cards:
                continue
            height = len(cards)
            lowest = down[a]
            i = height - 1
            while i > lowest and parent[cards[i]] == kind[cards[i - 1]]:
                i -= 1
            for split in range(height - 1, i - 1, -1):  # k = height - split cards
                base = cards[split]
                targets = empty if base >= king else tops.get(parent[base], ())
                for b in targets:
                    if b == a:
                        continue
                    target = columns[b]
                    if not split:
                        if target and opens:
                            return False  # emptying a column opens a reprieve
                    elif split == lowest:
                        return None  # a face-down card would turn up (D16)
                    after = list(columns)
                    after[a] = cards[:split]
                    after[b] = target + cards[split:]
                    key = tuple(after)
                    if key not in seen:
                        if len(seen) >= limit:
                            return None
                        seen.add(key)
                        queue.append(key)
    return True


def _face_down_after(face_down: int, size: int) -> int:
    """Face-down count once a column is cut to ``size`` cards (top turns up)."""
    if face_down >= size:
        return max(size - 1, 0)
    return face_down


def _replace(values: tuple, index: int, value: object) -> tuple:  # type: ignore[type-arg]
    return values[:index] + (value,) + values[index + 1 :]


_COLUMN_MOVE = functools.lru_cache(maxsize=4096)(Move.column)


class LegalMoves(Sequence[Move]):
    """The legal moves of a position, in a fixed order (foundation, column, D, S).

    Supports ``in``, ``len``, iteration, indexing and :meth:`count` with no
    argument (python-chess style).
    """

    __slots__ = ("_moves",)

    def __init__(self, moves: tuple[Move, ...]) -> None:
        self._moves = moves

    @overload
    def __getitem__(self, index: int) -> Move: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[Move]: ...

    def __getitem__(self, index: int | slice) -> Move | Sequence[Move]:
        return self._moves[index]

    def __len__(self) -> int:
        return len(self._moves)

    def __iter__(self) -> Iterator[Move]:
        return iter(self._moves)

    def __contains__(self, move: object) -> bool:
        return move in self._moves

    def __bool__(self) -> bool:
        return bool(self._moves)

    def count(self, value: object = None) -> int:
        """The number of legal moves (or, given a move, 1 if it is legal)."""
        if value is None:
            return len(self._moves)
        return self._moves.count(value)

    def __repr__(self) -> str:
        return f"<LegalMoves ({len(self._moves)}): {' '.join(str(m) for m in self._moves)}>"
