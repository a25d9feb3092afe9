"""What the API's handlers share, each behind one dependency alias, and the API's own error.

Everything lives on the application (``app.state``, set up by
:func:`milligan.web.app.create_app`); a handler names what it needs by its
alias (``GamesDep``, ``PoolDep``...), never reaching into the application itself.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Annotated, Any, TypeVar

from fastapi import Depends, Request

from milligan.store.database import Database
from milligan.store.games import GameNotFoundError, Games
from milligan.web.settings import ServerSettings
from milligan.web.winnable import WinnableFiller
from milligan.web.worker import Lane, WorkerStopped

#: Game ids are 22 characters; anything much longer is not one.
ID_LENGTH_LIMIT = 64


def checked_id(game_id: str) -> str:
    """A game id from a path, refused as unknown (404) when it is far too long to be one."""
    if len(game_id) > ID_LENGTH_LIMIT:
        raise GameNotFoundError(game_id)
    return game_id


T = TypeVar("T")


class ApiError(Exception):
    """An error answer: HTTP status, code, message and optional extra keys."""

    def __init__(self, status: int, code: str, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.extra = extra


@dataclass(frozen=True, slots=True)
class HelpBudget:
    """How much work a hint or a solution may take.

    A fair hint's decision scores its plans on ``hint_samples`` deals
    consistent with what the player sees and expands at most
    ``hint_positions`` positions in all (budgets in positions, not seconds,
    so a hint is the same on every machine); the moves of a plan the player
    follows cost nothing.  ``None`` takes the fair player's own, so the
    browser's hints play as ``milligan autoplay`` and the skill study do:
    16 samples and 4,000,000 positions.  A decision runs ``hint_threads``
    searches at once, which keeps the hints within a second at the 95th
    percentile on two cores (docs/BENCHMARKS.md); until 7 December 2026,
    with one search at a time, the browser's hints took 2,000,000, and on a
    machine with one core they still do (:data:`ONE_CORE_POSITIONS`).
    """

    hint_samples: int | None = None
    hint_positions: int | None = None
    #: Searches a hint's decision runs at once (the answer is the same for any).
    hint_threads: int = 1
    solution_seconds: float = 10.0
    solution_positions: int = 1_000_000
    solution_memory_mb: int = 512

    @classmethod
    def for_this_build(cls) -> HelpBudget:
        """The defaults, or :data:`PLAIN_BUDGET` when the compiled core was not built.

        The pure-Python fallback searches some 1,000 times more slowly
        (docs/BENCHMARKS.md), so a hint at the default budget would take
        minutes; with the smaller one it answers in a few seconds, and it
        plays much worse.  With the compiled core a hint's decision runs
        its searches on the cores this process may use
        (``fair.default_threads``: its CPU affinity within its control
        group's CPU quota, so a container given one CPU counts as one core);
        with one core it takes :data:`ONE_CORE_POSITIONS`, as 4,000,000
        positions one search at a time would put the hints' 95th percentile
        at about a second.
        """
        try:
            from milligan.solver import compiled
        except ImportError:  # no solver at all: hints and solutions answer 501
            return cls()
        if not compiled.AVAILABLE:
            return PLAIN_BUDGET
        from milligan.solver.fair import default_threads

        threads = default_threads()
        if threads == 1:
            return cls(hint_positions=ONE_CORE_POSITIONS)
        return cls(hint_threads=threads)


#: A hint's positions on a machine with one core: the browser's hints of
#: before 7 December 2026.  On one core, its pools filled on the same core,
#: a server's hints took 622 ms at the 95th percentile with these, and
#: 1,019 ms with the fair player's own 4,000,000 (docs/BENCHMARKS.md).
ONE_CORE_POSITIONS = 2_000_000


#: The server's hints when the compiled core was not built (see
#: :meth:`HelpBudget.for_this_build`).
PLAIN_BUDGET = HelpBudget(hint_samples=2, hint_positions=4_000, solution_positions=20_000)


class SolverPool:
    """Solver work in worker processes, bounded per player and in total.

    Hints and solutions (and winnable deals wanted at once) share the
    ``help`` worker; the ``background`` worker (lower priority) keeps the
    pool of winnable deals filled. The handlers await the work without
    holding a thread, so moves never wait behind the solver. A player has
    one request at the solver at a time (429 for a second), at most
    ``queue_limit`` wait in all (503 beyond), and a request whose client
    has gone is dropped, or stopped if it is running.
    """

    def __init__(self, queue_limit: int = 16) -> None:
        # Below the server's priority: on a busy machine, moves come first.
        self.help = Lane("help", niceness=5)
        self.background = Lane("background", niceness=15)
        self.queue_limit = queue_limit
        self._lock = threading.Lock()
        self._players: set[str] = set()
        self._waiting = 0

    @contextlib.contextmanager
    def turn(self, player: str) -> Iterator[None]:
        """Admit one request of ``player`` to the solver (429 or 503 if not), for a ``with``.

        Checked before anything else is done for the request, so that a
        refusal costs next to nothing.
        """
        with self._lock:
            if player in self._players:
                raise ApiError(
                    429,
                    "too_many",
                    "you already have a hint, a solution or a winnable deal on its way; "
                    "wait for it before asking again",
                )
            if self._waiting >= self.queue_limit:
                raise ApiError(
                    503,
                    "busy",
                    "the solver is busy with other players' requests; try again in a minute",
                )
            self._players.add(player)
            self._waiting += 1
        try:
            yield
        finally:
            with self._lock:
                self._players.discard(player)
                self._waiting -= 1

    async def call(
        self, request: Request | None, function: Callable[..., T], *args: Any, **kwargs: Any
    ) -> T:
        """``function(*args, **kwargs)`` in the help worker (within a :meth:`turn`).

        Stopped when the client of ``request`` disconnects.
        """
        job = self.help.submit(function, *args, **kwargs)
        try:
            waiter = asyncio.wrap_future(job.future)
            while True:
                done, _ = await asyncio.wait({waiter}, timeout=0.25)
                if done:
                    break
                if request is not None and await request.is_disconnected():
                    self.help.cancel(job)
                    raise ApiError(499, "gone", "the client went away; the work was stopped")
            try:
                result: T = waiter.result()
            except WorkerStopped:
                raise ApiError(503, "not_available", "the solver stopped; try again") from None
            return result
        except BaseException:
            self.help.cancel(job)  # a no-op once it has ended
            raise

    async def run(
        self,
        player: str,
        request: Request | None,
        function: Callable[..., T],
        *args: Any,
        **kwargs: Any,
    ) -> T:
        """``function(*args, **kwargs)`` in the help worker, in a turn of ``player``."""
        with self.turn(player):
            return await self.call(request, function, *args, **kwargs)

    def close(self) -> None:
        """Stop the workers."""
        self.help.close()
        self.background.close()


class GameQuota:
    """How many games a player may create or import in a minute (429 beyond).

    Counted in this server process: with ``--workers N``, a player may get
    up to N times as many.
    """

    def __init__(self, per_minute: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.per_minute = per_minute
        self.clock = clock
        self._lock = threading.Lock()
        self._times: dict[str, deque[float]] = {}

    def take(self, player: str) -> None:
        """Count one new game for ``player``, or raise 429."""
        now = self.clock()
        with self._lock:
            if len(self._times) > 10_000:  # forget players who have been quiet for a minute
                self._times = {k: v for k, v in self._times.items() if v and v[-1] > now - 60}
            times = self._times.setdefault(player, deque())
            while times and times[0] <= now - 60:
                times.popleft()
            if len(times) >= self.per_minute:
                wait = max(1, round(times[0] + 60 - now))
                raise ApiError(
                    429,
                    "too_many",
                    f"at most {self.per_minute} new games a minute; try again in {wait} s",
                    retry_after=wait,
                )
            times.append(now)


# -- the dependencies -----------------------------------------------------------------


async def current_player(request: Request) -> str:
    """The hash of the player's token (set by the player middleware)."""
    player: str = request.state.player
    return player


def _app_state(name: str) -> Any:
    """The dependency that gives the application's ``app.state.<name>`` (None if it has none)."""

    async def dependency(request: Request) -> Any:
        return getattr(request.app.state, name, None)

    dependency.__name__ = f"current_{name}"
    return Depends(dependency)


async def solver_module() -> Any:
    """The solver package (501 ``not_available`` when it is not installed)."""
    try:
        import milligan.solver as solver
    except ImportError:
        raise ApiError(501, "not_available", "the solver is not installed") from None
    return solver


PlayerDep = Annotated[str, Depends(current_player)]
#: The server's games.
GamesDep = Annotated[Games, _app_state("games")]
#: The database under the games (for the pools of winnable deals).
DatabaseDep = Annotated[Database, _app_state("database")]
SettingsDep = Annotated[ServerSettings, _app_state("settings")]
#: How much work the solver may do for a request.
BudgetDep = Annotated[HelpBudget, _app_state("budget")]
#: The solver's worker processes.
PoolDep = Annotated[SolverPool, _app_state("solver_pool")]
#: How many new games a player may still start this minute.
QuotaDep = Annotated[GameQuota, _app_state("quota")]
#: What keeps the pools of winnable deals filled, if the server has one.
FillerDep = Annotated[WinnableFiller | None, _app_state("winnable")]
SolverDep = Annotated[Any, Depends(solver_module)]


async def json_writes(request: Request) -> None:
    """Every write must say ``Content-Type: application/json``, with a body or without.

    A page on another site can send a form or a ``text/plain`` body without
    asking first; it cannot send this content type without a CORS preflight,
    which this server never grants.
    """
    if request.method not in ("POST", "PUT", "PATCH", "DELETE"):
        return
    media = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if media != "application/json":
        raise ApiError(
            415,
            "not_json",
            "writes must be sent as Content-Type: application/json (even without a body)",
        )
