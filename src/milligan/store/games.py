"""Players' games: created, replayed, changed and saved, one change at a time.

:class:`Games` sits between the web layer and a :class:`Database`. It keeps
the live :class:`Game` objects of recently used games in memory (keyed by
id, checked against the stored revision) so that a move does not replay the
whole line; every change is committed before its method returns, and a
change that fails leaves the stored game, and the cache, as they were.

Another player's game is reported exactly like a missing one.
"""

from __future__ import annotations

import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TypeVar

from milligan.cards import Card
from milligan.errors import MilliganError
from milligan.game import Game
from milligan.record import Record
from milligan.store.database import Database, GameRow
from milligan.variants import Variant

T = TypeVar("T")

#: Longest pause between two actions that counts as playing time, in seconds.
IDLE_LIMIT = 300.0
#: How many live games stay cached in memory, at most ...
CACHE_SIZE = 4096
#: ... and what they may weigh, by :func:`weight`.
CACHE_BYTES = 64 * 1024 * 1024
_LOCKS = 256


class GameNotFoundError(MilliganError, LookupError):
    """No game with this id belongs to this player."""

    def __init__(self, game_id: str) -> None:
        self.game_id = game_id
        super().__init__("no such game")


class StaleGameError(MilliganError):
    """The game has changed since the client last saw it."""

    def __init__(self, revision: int, expected: int | None) -> None:
        self.revision = revision
        self.expected = expected
        super().__init__(
            f"the game has changed: it is at revision {revision}"
            + (f", not {expected}" if expected is not None else "")
            + "; reload it"
        )


@dataclass(slots=True)
class Live:
    """A saved game with its replayed :class:`Game`."""

    row: GameRow
    game: Game


def now() -> datetime:
    """The current time in UTC."""
    return datetime.now(UTC)


def timestamp(moment: datetime) -> str:
    """ISO 8601 text, in UTC, to the microsecond (sorts as text)."""
    return moment.astimezone(UTC).isoformat(timespec="microseconds")


def replay(row: GameRow) -> Game:
    """The game a row describes, with its redo list, status and revision."""
    variant = Variant.from_key(row.variant)
    if row.deal is not None:
        game = Game(variant, deal=int(row.deal))
    else:
        assert row.order is not None
        game = Game(variant, order=[Card.parse(text) for text in row.order.split()])
    for move in row.moves + row.redo:
        game.play(move)
    for _ in row.redo:
        game.undo()
    if row.status == "resigned":
        game.resign()
    game.revision = row.revision
    return game


def weight(game: Game) -> int:
    """A generous estimate of the memory a live game holds, in bytes.

    A game keeps a position for every move of its line (measured: under
    500 bytes a move, as positions share their unchanged parts), plus the
    redo list and the deal.
    """
    return 8 * 1024 + 640 * (len(game.moves) + len(game.redo_moves))


class Games:
    """Every player's games, over one database.

    The cache of live games is bounded by count (``cache_size``) and by
    weight (``cache_bytes``): a long game weighs more than a fresh one.
    """

    def __init__(
        self,
        database: Database,
        *,
        clock: Callable[[], datetime] = now,
        cache_size: int = CACHE_SIZE,
        cache_bytes: int = CACHE_BYTES,
    ) -> None:
        self.database = database
        self.clock = clock
        self.cache_size = cache_size
        self.cache_bytes = cache_bytes
        self._cache: OrderedDict[str, tuple[Game, int]] = OrderedDict()
        self._cache_weight = 0
        self._cache_lock = threading.Lock()
        self._locks = [threading.Lock() for _ in range(_LOCKS)]

    # -- the cache ------------------------------------------------------------

    def _lock(self, game_id: str) -> threading.Lock:
        return self._locks[hash(game_id) % _LOCKS]

    def _remember(self, game_id: str, game: Game) -> None:
        size = weight(game)
        with self._cache_lock:
            old = self._cache.pop(game_id, None)
            if old is not None:
                self._cache_weight -= old[1]
            if size > self.cache_bytes:
                return  # would push out everything else: replayed when asked for
            self._cache[game_id] = (game, size)
            self._cache_weight += size
            while len(self._cache) > self.cache_size or self._cache_weight > self.cache_bytes:
                _, (_, dropped) = self._cache.popitem(last=False)
                self._cache_weight -= dropped

    def _forget(self, game_id: str) -> None:
        with self._cache_lock:
            old = self._cache.pop(game_id, None)
            if old is not None:
                self._cache_weight -= old[1]

    def cache_weight(self) -> int:
        """What the cached games weigh, by :func:`weight`."""
        with self._cache_lock:
            return self._cache_weight

    def _live(self, player: str, game_id: str) -> Live:
        row = self.database.game(game_id)
        if row is None or not secrets.compare_digest(row.player, player):
            raise GameNotFoundError(game_id)
        with self._cache_lock:
            entry = self._cache.get(game_id)
        game = entry[0] if entry is not None else None
        if game is None or game.revision != row.revision or len(game.moves) != len(row.moves):
            game = replay(row)
            self._remember(game_id, game)
        return Live(row, game)

    # -- reading --------------------------------------------------------------

    def read(self, player: str, game_id: str, present: Callable[[Live], T]) -> T:
        """``present`` applied to the player's game (nothing else changes it meanwhile)."""
        with self._lock(game_id):
            return present(self._live(player, game_id))

    def list(self, player: str, status: str | None = None, limit: int = 100) -> list[GameRow]:
        """A player's saved games, most recently changed first."""
        return self.database.games(player, status, limit)

    # -- creating -------------------------------------------------------------

    def _new_row(self, player: str, game: Game, *, random: bool, imported: bool) -> GameRow:
        moment = timestamp(self.clock())
        status = game.status
        return GameRow(
            id=secrets.token_urlsafe(16),
            player=player,
            variant=game.variant.key,
            deal=str(game.deal) if game.deal is not None else None,
            order=" ".join(map(str, game.order)) if game.deal is None else None,
            secret=random and status == "playing",
            random=random,
            moves=tuple(map(str, game.moves)),
            redo=tuple(map(str, game.redo_moves)),
            revision=game.revision,
            status=status,
            assisted=False,
            hints=0,
            solutions=0,
            imported=imported,
            seconds=0.0,
            created=moment,
            updated=moment,
            finished=moment if status != "playing" else None,
        )

    def create(
        self,
        player: str,
        variant: Variant,
        deal: int | None = None,
        *,
        secret_deal: int | None = None,
    ) -> Live:
        """A new game of ``deal``, saved.

        Without ``deal`` the number is the server's choice and kept secret until
        the game ends: ``secret_deal`` (e.g. a random deal proven winnable), or a
        random 64-bit number.
        """
        random = deal is None
        if deal is not None:
            number = deal
        elif secret_deal is not None:
            number = secret_deal
        else:
            number = secrets.randbits(64)
        game = Game(variant, deal=number)
        row = self._new_row(player, game, random=random, imported=False)
        self.database.insert_game(row)
        self._remember(row.id, game)
        return Live(row, game)

    def import_record(self, player: str, record: Record) -> Live:
        """A new game replayed from a record (raises the engine's errors), saved."""
        game = record.replay()
        row = self._new_row(player, game, random=False, imported=True)
        self.database.insert_game(row)
        self._remember(row.id, game)
        return Live(row, game)

    # -- changing -------------------------------------------------------------

    def _save(self, live: Live, before: GameRow) -> Live:
        game = live.game
        moment = self.clock()
        status = game.status
        seconds = before.seconds
        if before.status == "playing":
            pause = (moment - datetime.fromisoformat(before.updated)).total_seconds()
            seconds += min(max(pause, 0.0), IDLE_LIMIT)
        assisted = before.assisted
        if before.random and not before.secret and status == "playing":
            assisted = True  # back in play after the number was shown: full knowledge
        finished = before.finished
        if status == "playing":
            finished = None
        elif before.status == "playing" or finished is None:
            finished = timestamp(moment)
        row = before.replace(
            moves=tuple(map(str, game.moves)),
            redo=tuple(map(str, game.redo_moves)),
            revision=game.revision,
            status=status,
            secret=before.secret and status == "playing",
            assisted=assisted,
            seconds=seconds,
            updated=timestamp(moment),
            finished=finished,
        )
        try:
            saved = self.database.update_game(row, before.revision, before)
        except BaseException:
            self._forget(row.id)
            raise
        if not saved:
            self._forget(row.id)
            current = self.database.game(row.id)
            raise StaleGameError(current.revision if current else before.revision, before.revision)
        return Live(row, game)

    def change(
        self,
        player: str,
        game_id: str,
        action: Callable[[Game], object],
        present: Callable[[Live], T],
        expect: int | None = None,
    ) -> T:
        """Apply ``action`` to the game, save it, and return ``present`` of the result.

        ``expect`` is the revision the client saw: on a mismatch,
        :class:`StaleGameError` and nothing changes. If ``action`` raises,
        the game is unchanged (in the database and in memory).
        """
        with self._lock(game_id):
            live = self._live(player, game_id)
            if expect is not None and expect != live.row.revision:
                raise StaleGameError(live.row.revision, expect)
            try:
                action(live.game)
            except BaseException:
                self._forget(game_id)
                raise
            saved = self._save(live, live.row)
            self._remember(game_id, saved.game)  # it weighs more (or less) now
            return present(saved)

    def count_help(
        self, player: str, game_id: str, *, hint: bool = False, solution: bool = False
    ) -> Live:
        """Count a hint, or a shown solution (which marks the game assisted)."""
        with self._lock(game_id):
            live = self._live(player, game_id)
            row = live.row
            changes: dict[str, object] = {}
            if hint:
                changes["hints"] = row.hints + 1
            if solution:
                changes["solutions"] = row.solutions + 1
                changes["assisted"] = True
            updated = row.replace(**changes)
            if not self.database.update_game(updated, row.revision, row):
                self._forget(game_id)
                raise StaleGameError(row.revision, None)
            return Live(updated, live.game)
