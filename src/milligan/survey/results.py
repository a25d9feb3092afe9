"""Survey results: one SQLite file, a row per solver attempt.

Every attempt is kept (an ``unknown`` later retried with larger limits leaves
both rows), and the *verdict of a deal* is its best attempt: a ``won`` or
``lost`` is final, otherwise the ``unknown`` with the largest limits. Rows are
written one transaction each as they arrive, in WAL mode, so a killed survey
loses only the deals that were still being solved.

The web server's "winnable deals only" option reads :func:`winnable_deals`.
"""

from __future__ import annotations

import functools
import json
import math
import sqlite3
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from milligan.errors import InvalidVariantError, MilliganError
from milligan.variants import Variant

VERDICTS = ("won", "lost", "unknown")

SCHEMA = """
CREATE TABLE IF NOT EXISTS results (
    id INTEGER PRIMARY KEY,
    variant TEXT NOT NULL,
    deal INTEGER NOT NULL,
    timeout REAL,
    max_positions INTEGER,
    max_memory_mb INTEGER,
    verdict TEXT NOT NULL CHECK (verdict IN ('won', 'lost', 'unknown')),
    seconds REAL NOT NULL,
    positions INTEGER NOT NULL,
    solution_length INTEGER,
    solution TEXT,
    solver TEXT,
    host TEXT,
    finished_at TEXT NOT NULL,
    cpu_seconds REAL
);
CREATE INDEX IF NOT EXISTS results_variant_deal ON results (variant, deal);
CREATE TABLE IF NOT EXISTS plays (
    id INTEGER PRIMARY KEY,
    variant TEXT NOT NULL,
    deal INTEGER NOT NULL,
    player TEXT NOT NULL,
    settings TEXT NOT NULL,
    result TEXT NOT NULL CHECK (result IN ('won', 'lost', 'resigned')),
    moves TEXT NOT NULL,
    cards_up INTEGER NOT NULL,
    decisions INTEGER NOT NULL,
    positions INTEGER NOT NULL,
    seconds REAL NOT NULL,
    cpu_seconds REAL,
    solver TEXT,
    host TEXT,
    finished_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS plays_variant_player ON plays (variant, player, settings);
"""

#: The players a survey can run instead of the solver (see :class:`Play`).
PLAYERS = ("fair", "greedy")
PLAY_RESULTS = ("won", "lost", "resigned")
_PLAY_COLUMNS = (
    "variant, deal, player, settings, result, moves, cards_up, decisions, positions, seconds,"
    " cpu_seconds, solver, host, finished_at"
)

_COLUMNS = (
    "variant, deal, timeout, max_positions, max_memory_mb, verdict, seconds, positions,"
    " solution_length, solution, solver, host, finished_at, cpu_seconds"
)


class ResultsError(MilliganError):
    """A results file that cannot be opened or read."""


def default_path() -> Path:
    """The results file used when no ``--results`` is given (the user's data dir)."""
    from platformdirs import user_data_path

    return user_data_path("milligan", appauthor=False) / "survey.sqlite3"


@functools.lru_cache(maxsize=1024)
def canonical_key(text: str) -> str:
    """A variant as a results file names it, as its :attr:`Variant.key`.

    Other spellings of the same settings (spaces, key order, a preset's
    settings written out) read as the key; text that is no variant stays as it is.

    >>> canonical_key('{"reprieve": "none"}')
    'spanish'
    """
    try:
        return Variant.from_key(text).key
    except InvalidVariantError:
        return text


# SQLite integers are signed 64-bit; deal numbers go up to 2**64 - 1.
def _deal_to_db(deal: int) -> int:
    return deal - 2**64 if deal >= 2**63 else deal


def _deal_from_db(value: int) -> int:
    return value + 2**64 if value < 0 else value


@dataclass(frozen=True, slots=True)
class Limits:
    """The per-deal limits of a solver run; None means no limit."""

    timeout: float | None = None
    max_positions: int | None = None
    max_memory_mb: int | None = None

    def covers(self, other: Limits) -> bool:
        """True when every limit here is at least as large as ``other``'s.

        >>> Limits(10, None, 512).covers(Limits(5, 10**6, 512))
        True
        >>> Limits(10, 10**6).covers(Limits(10, None))
        False
        """
        return all(
            _at_least(mine, theirs)
            for mine, theirs in (
                (self.timeout, other.timeout),
                (self.max_positions, other.max_positions),
                (self.max_memory_mb, other.max_memory_mb),
            )
        )

    def __str__(self) -> str:
        parts = []
        if self.timeout is not None:
            parts.append(f"{self.timeout:g} s")
        if self.max_positions is not None:
            parts.append(f"{self.max_positions:,} positions")
        if self.max_memory_mb is not None:
            parts.append(f"{self.max_memory_mb} MB")
        return ", ".join(parts) or "no limits"


def _at_least(mine: float | None, theirs: float | None) -> bool:
    mine_value = math.inf if mine is None else mine
    theirs_value = math.inf if theirs is None else theirs
    return mine_value >= theirs_value


#: An unknown whose worker had less than this share of a core over its time
#: limit is :attr:`Result.starved`.
STARVED_SHARE = 0.5


@dataclass(frozen=True, slots=True)
class Result:
    """One solver attempt at one deal."""

    variant: str
    deal: int
    limits: Limits
    verdict: str
    seconds: float
    positions: int
    solution: tuple[str, ...] | None = None
    solution_length: int | None = None
    solver: str | None = None
    host: str | None = None
    finished_at: str = ""
    cpu_seconds: float | None = None

    def __post_init__(self) -> None:
        if self.solution is not None and self.solution_length is None:
            object.__setattr__(self, "solution_length", len(self.solution))

    @property
    def decided(self) -> bool:
        return self.verdict != "unknown"

    @property
    def starved(self) -> bool:
        """An unknown that ran out of time while its worker got less than half a core.

        The time limit is wall time, so on a machine busy with other work an
        attempt can end having searched for a fraction of its limit.  Such an
        attempt does not count as tried under its limits: a rerun tries the
        deal again (:func:`pending_deals`).
        """
        timeout = self.limits.timeout
        return (
            not self.decided
            and timeout is not None
            and self.cpu_seconds is not None
            and self.seconds >= 0.95 * timeout
            and self.cpu_seconds < STARVED_SHARE * timeout
        )

    @property
    def solve_time(self) -> float:
        """The worker's CPU seconds when known (they do not grow with the load), else wall."""
        return self.seconds if self.cpu_seconds is None else self.cpu_seconds

    def better_than(self, other: Result) -> bool:
        """True when this attempt says more about the deal than ``other``."""
        if other.decided:
            return False
        return self.decided or (self.limits.covers(other.limits) and self.limits != other.limits)


@dataclass(frozen=True, slots=True)
class Play:
    """One game played to its end by a player that sees only what a person sees.

    ``player`` is ``fair`` (the fair player of :mod:`milligan.solver.fair`) or
    ``greedy`` (the naive baseline); ``settings`` is its settings as compact
    JSON (samples, seed, positions per decision), so runs with other settings
    are kept apart.  ``result`` is ``won``, ``lost`` (a dead end) or
    ``resigned``; ``moves`` is the whole line, which replays the game.
    """

    variant: str
    deal: int
    player: str
    settings: str
    result: str
    moves: tuple[str, ...]
    cards_up: int
    decisions: int
    positions: int
    seconds: float
    cpu_seconds: float | None = None
    solver: str | None = None
    host: str | None = None
    finished_at: str = ""


class ResultStore:
    """An open results file; a context manager that closes it."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(self.path, timeout=30)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.executescript(SCHEMA)
            columns = {row[1] for row in self._db.execute("PRAGMA table_info(results)")}
            if "cpu_seconds" not in columns:  # a file from before that column
                self._db.execute("ALTER TABLE results ADD COLUMN cpu_seconds REAL")
            self._rekey()
        except (OSError, sqlite3.Error) as error:
            raise ResultsError(f"cannot open results file {self.path}: {error}") from None

    def _rekey(self) -> None:
        """Write every variant as its key, so that lookups by key find all its rows."""
        for table in ("results", "plays"):
            for (text,) in self._db.execute(f"SELECT DISTINCT variant FROM {table}").fetchall():
                key = canonical_key(text)
                if key != text:
                    with self._db:
                        self._db.execute(
                            f"UPDATE {table} SET variant = ? WHERE variant = ?", (key, text)
                        )

    def __enter__(self) -> ResultStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Close the file; the last connection out folds the WAL back into it."""
        self._db.close()

    def add(self, result: Result) -> None:
        """Store one attempt (its own transaction, so it survives a kill)."""
        limits = result.limits
        with self._db:
            self._db.execute(
                f"INSERT INTO results ({_COLUMNS}) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                (
                    result.variant,
                    _deal_to_db(result.deal),
                    limits.timeout,
                    limits.max_positions,
                    limits.max_memory_mb,
                    result.verdict,
                    result.seconds,
                    result.positions,
                    result.solution_length,
                    None if result.solution is None else " ".join(result.solution),
                    result.solver,
                    result.host,
                    result.finished_at,
                    result.cpu_seconds,
                ),
            )

    def add_play(self, play: Play) -> None:
        """Store one played game (its own transaction, so it survives a kill)."""
        with self._db:
            self._db.execute(
                f"INSERT INTO plays ({_PLAY_COLUMNS}) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                (
                    play.variant,
                    _deal_to_db(play.deal),
                    play.player,
                    play.settings,
                    play.result,
                    " ".join(play.moves),
                    play.cards_up,
                    play.decisions,
                    play.positions,
                    play.seconds,
                    play.cpu_seconds,
                    play.solver,
                    play.host,
                    play.finished_at,
                ),
            )

    def plays(
        self, variant: str | None = None, player: str | None = None, settings: str | None = None
    ) -> list[Play]:
        """The stored games, optionally of one variant, player and settings, the first of
        each deal and settings only (a rerun never adds a second, but two runs at once might)."""
        query = f"SELECT {_PLAY_COLUMNS} FROM plays"
        where: list[str] = []
        params: list[str] = []
        if variant is not None:
            where.append("variant = ?")
            params.append(variant)
        if player is not None:
            where.append("player = ?")
            params.append(player)
        if settings is not None:
            where.append("settings = ?")
            params.append(settings)
        if where:
            query += " WHERE " + " AND ".join(where)
        out: dict[tuple[str, int, str, str], Play] = {}
        try:
            for row in self._db.execute(query + " ORDER BY id", params):
                play = _row_to_play(row)
                out.setdefault((play.variant, play.deal, play.player, play.settings), play)
        except sqlite3.DatabaseError as error:
            raise ResultsError(f"cannot read results file {self.path}: {error}") from None
        return list(out.values())

    def attempts(self, variant: str | None = None) -> Iterator[Result]:
        """Every stored attempt, optionally of one variant, in the order stored."""
        query = f"SELECT {_COLUMNS} FROM results"
        params: tuple[str, ...] = ()
        if variant is not None:
            query += " WHERE variant = ?"
            params = (variant,)
        try:
            rows = self._db.execute(query + " ORDER BY id", params)
            for row in rows:
                yield _row_to_result(row)
        except sqlite3.DatabaseError as error:
            raise ResultsError(f"cannot read results file {self.path}: {error}") from None

    def verdicts(self, variant: str | None = None) -> dict[tuple[str, int], Result]:
        """The best attempt per (variant, deal)."""
        best: dict[tuple[str, int], Result] = {}
        for result in self.attempts(variant):
            key = (result.variant, result.deal)
            current = best.get(key)
            if current is None or result.better_than(current):
                best[key] = result
        return best

    def variants(self) -> list[str]:
        """The variants that have results, presets first in their usual order."""
        names = [row[0] for row in self._db.execute("SELECT DISTINCT variant FROM results")]
        return sorted(names, key=_variant_order)


def _variant_order(name: str) -> tuple[int, str]:
    from milligan.variants import PRESETS

    order = list(PRESETS)
    return (order.index(name) if name in order else len(order), name)


def _row_to_result(row: tuple[object, ...]) -> Result:
    (
        variant,
        deal,
        timeout,
        max_positions,
        max_memory_mb,
        verdict,
        seconds,
        positions,
        length,
        solution,
        solver,
        host,
        finished_at,
        cpu_seconds,
    ) = row
    return Result(
        variant=str(variant),
        deal=_deal_from_db(int(deal)),  # type: ignore[call-overload]
        limits=Limits(
            None if timeout is None else float(timeout),  # type: ignore[arg-type]
            None if max_positions is None else int(max_positions),  # type: ignore[call-overload]
            None if max_memory_mb is None else int(max_memory_mb),  # type: ignore[call-overload]
        ),
        verdict=str(verdict),
        seconds=float(seconds),  # type: ignore[arg-type]
        positions=int(positions),  # type: ignore[call-overload]
        solution=None if solution is None else tuple(str(solution).split()),
        solution_length=None if length is None else int(length),  # type: ignore[call-overload]
        solver=None if solver is None else str(solver),
        host=None if host is None else str(host),
        finished_at=str(finished_at),
        cpu_seconds=None if cpu_seconds is None else float(cpu_seconds),  # type: ignore[arg-type]
    )


def _row_to_play(row: tuple[object, ...]) -> Play:
    (variant, deal, player, settings, result, moves, cards_up, decisions, positions, seconds,
     cpu_seconds, solver, host, finished_at) = row  # fmt: skip
    return Play(
        variant=str(variant),
        deal=_deal_from_db(int(deal)),  # type: ignore[call-overload]
        player=str(player),
        settings=str(settings),
        result=str(result),
        moves=tuple(str(moves).split()),
        cards_up=int(cards_up),  # type: ignore[call-overload]
        decisions=int(decisions),  # type: ignore[call-overload]
        positions=int(positions),  # type: ignore[call-overload]
        seconds=float(seconds),  # type: ignore[arg-type]
        cpu_seconds=None if cpu_seconds is None else float(cpu_seconds),  # type: ignore[arg-type]
        solver=None if solver is None else str(solver),
        host=None if host is None else str(host),
        finished_at=str(finished_at),
    )


def pending_plays(
    store: ResultStore, variant: str, deals: Iterable[int], player: str, settings: str
) -> tuple[list[int], int]:
    """The deals ``player`` with ``settings`` has not played yet, and how many it has."""
    done = {play.deal for play in store.plays(variant, player, settings)}
    deals = list(deals)
    todo = [deal for deal in deals if deal not in done]
    return todo, len(deals) - len(todo)


def pending_deals(
    store: ResultStore,
    variant: str,
    deals: Iterable[int],
    limits: Limits,
    *,
    retry_unknown: bool = False,
) -> tuple[list[int], int]:
    """The deals that still need solving under ``limits``, and how many are skipped.

    A deal is skipped when it is won or lost, or when an attempt with limits at
    least as large as these already ended ``unknown`` (unless ``retry_unknown``:
    a stronger solver may decide it under the same limits).  Every attempt
    counts, not only the best one: a deal tried with a time limit after a pass
    with a position limit has two unknowns, neither larger than the other.  A
    :attr:`~Result.starved` attempt does not count.
    """
    done: set[int] = set()
    for result in store.attempts(variant):
        if result.decided or (
            not retry_unknown and not result.starved and result.limits.covers(limits)
        ):
            done.add(result.deal)
    todo: list[int] = []
    skipped = 0
    for deal in deals:
        if deal in done:
            skipped += 1
        else:
            todo.append(deal)
    return todo, skipped


def winnable_deals(path: str | Path | None, variant: Variant | str) -> list[int]:
    """The deal numbers of ``variant`` that a solver proved won, ascending.

    ``path`` None means the default results file; a missing file has no deals.
    """
    path = default_path() if path is None else Path(path)
    if not path.exists():
        return []
    key = canonical_key(variant) if isinstance(variant, str) else variant.key
    try:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=30)
        try:
            # Read-only, so not rekeyed: every spelling of the variant counts.
            names = [
                text
                for (text,) in db.execute("SELECT DISTINCT variant FROM results")
                if canonical_key(text) == key
            ]
            rows = db.execute(
                f"SELECT DISTINCT deal FROM results WHERE verdict = 'won' "
                f"AND variant IN ({', '.join('?' * len(names))})",
                names,
            ).fetchall()
        finally:
            db.close()
    except sqlite3.Error as error:
        raise ResultsError(f"cannot read results file {path}: {error}") from None
    return sorted(_deal_from_db(row[0]) for row in rows)


#: Proven-won deals of the project's own survey (docs/data), shipped with the package.
BUNDLED = Path(__file__).with_name("winnable.json")


def bundle_winnable(path: str | Path, out: str | Path = BUNDLED) -> dict[str, list[int]]:
    """Write the proven-won deals of every variant in ``path`` to ``out`` (JSON).

    After the committed survey grows, refresh the list shipped with the package:
    ``python3 -c "from milligan.survey.results import bundle_winnable;
    bundle_winnable('docs/data/survey.sqlite3')"``.
    """
    with ResultStore(path) as store:
        keys = store.variants()
    bundle = {key: winnable_deals(path, key) for key in keys}
    Path(out).write_text(json.dumps(bundle, separators=(",", ":")) + "\n", encoding="utf-8")
    return bundle


def known_winnable(variant: Variant | str) -> list[int]:
    """Proven-won deals: the shipped list plus the user's own survey results."""
    key = canonical_key(variant) if isinstance(variant, str) else variant.key
    return sorted(set(_shipped().get(key, ())).union(winnable_deals(None, key)))


@functools.cache
def _shipped() -> dict[str, list[int]]:
    """The list shipped with the package, read once."""
    if not BUNDLED.exists():
        return {}
    shipped: dict[str, list[int]] = json.loads(BUNDLED.read_text(encoding="utf-8"))
    return shipped
