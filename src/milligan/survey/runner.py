"""Solving many deals at once: a local process pool or a Dask cluster.

Each deal is one task: a fresh solver call with the survey's limits, in a
worker process, returning a :class:`~milligan.survey.results.Result` (or a
game played by the fair player or the greedy baseline, returning a
:class:`~milligan.survey.results.Play`). The
parent stores every result as it arrives, keeps only a small window of tasks
in flight (so an interrupted survey loses little) and resubmits the tasks of
a worker that died.
"""

from __future__ import annotations

import concurrent.futures as cf
import contextlib
import functools
import json
import logging
import os
import socket
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Protocol

from milligan.errors import MilliganError
from milligan.position import Position
from milligan.survey.results import (
    Limits,
    Play,
    Result,
    ResultStore,
    pending_deals,
    pending_plays,
)
from milligan.variants import Variant
from milligan.workers import kill_pool, memory_allowed_mb, process_pool, usable_cores

#: How often one deal may be lost with its worker before the survey gives up on it.
MAX_LOST = 3

#: The per-deal memory cap when there is room for it.
DEFAULT_MEMORY_MB = 1024

#: Seconds between two readings of a Dask cluster's thread count, which sizes
#: the window of tasks in flight: workers may join or leave during a survey.
SLOTS_REFRESH = 5.0


class SurveyError(MilliganError):
    """A survey that cannot start (bad deal range, no cluster, no solver) or go on."""


class ClusterLost(SurveyError):
    """The Dask scheduler went away during a survey.

    Every result stored so far stays; running the same command again, once
    the cluster is back, resumes. ``kept`` is how many results this run
    stored (None when not known yet) and ``before`` how many earlier runs had.
    """

    def __init__(self, where: str, cause: str, kept: int | None = None, before: int = 0) -> None:
        self.where, self.cause, self.kept, self.before = where, cause, kept, before
        if kept is None:
            stored = "the results stored so far are kept"
        else:
            earlier = f" (and the {before} from before)" if before else ""
            verb = "is" if kept == 1 and not before else "are"
            stored = f"the {kept} result{'' if kept == 1 else 's'} of this run{earlier} {verb} kept"
        super().__init__(
            f"lost the Dask scheduler {where} ({cause}); {stored}: "
            "run the same command again to resume"
        )


@dataclass(frozen=True, slots=True)
class Player:
    """Who plays a survey's deals instead of the solver, and with what settings.

    ``fair`` is the fair player (``samples`` sampled deals and
    ``max_positions`` positions per decision, ``seed``); ``greedy`` the
    naive baseline, which has no settings.
    """

    name: str
    samples: int = 0
    seed: int = 0
    max_positions: int = 0

    @classmethod
    def fair(
        cls, samples: int | None = None, seed: int = 0, max_positions: int | None = None
    ) -> Player:
        """The fair player; the settings not given (or 0) are the shipped defaults."""
        from milligan.solver.fair import DEFAULT_POSITIONS, DEFAULT_SAMPLES

        return cls(
            "fair",
            samples=samples or DEFAULT_SAMPLES,
            seed=seed,
            max_positions=max_positions or DEFAULT_POSITIONS,
        )

    def settings(self) -> str:
        """The settings as stored with each game: compact JSON, keys sorted."""
        if self.name != "fair":
            return "{}"
        values = {"max_positions": self.max_positions, "samples": self.samples, "seed": self.seed}
        return json.dumps(values, sort_keys=True, separators=(",", ":"))


@dataclass(frozen=True, slots=True)
class Task:
    """One deal to solve under some limits; small and picklable.

    ``solutions`` asks for the winning line, shortened by the solver, to be
    kept; without it only its length is (the shortening costs more than the
    search on most won deals).
    """

    variant: str
    deal: int
    limits: Limits
    solutions: bool = False
    player: Player | None = None


@functools.cache
def solver_name() -> str:
    """Which solver answers, recorded with each result: its core and a hash of its source.

    The hash tells results of different solver versions apart, should one of
    them turn out to be wrong.
    """
    import hashlib

    import milligan.solver as solver

    try:
        from milligan.solver import compiled

        core = "compiled" if compiled.AVAILABLE else "python"
    except ImportError:
        core = "python"
    digest = hashlib.sha256()
    for path in sorted(Path(solver.__file__).parent.iterdir()):
        if path.suffix in (".py", ".pyx", ".pxd", ".so"):
            digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return f"{core} core, source {digest.hexdigest()[:12]}"


def solve_task(task: Task) -> Result:
    """Solve one deal in a fresh solver call; runs in a worker process.

    The solver replays every win it reports through the rules engine.
    """
    from milligan.solver import search

    limits = task.limits
    start = Position.deal(Variant.from_key(task.variant), task.deal)
    options: dict[str, Any] = {"timeout": limits.timeout, "max_positions": limits.max_positions}
    if limits.max_memory_mb is not None:
        options["max_memory_mb"] = limits.max_memory_mb
    cpu = time.process_time()
    outcome = search.run(start, shorten_win=task.solutions, **options)
    cpu = time.process_time() - cpu
    verdict = str(outcome.result)
    moves = tuple(str(move) for move in outcome.moves) if verdict == "won" else None
    return Result(
        variant=task.variant,
        deal=task.deal,
        limits=limits,
        verdict=verdict,
        seconds=float(outcome.seconds),
        positions=int(outcome.positions),
        solution=moves if task.solutions else None,
        solution_length=None if moves is None else len(moves),
        solver=solver_name() + ("" if task.solutions else ", lines not shortened"),
        host=socket.gethostname(),
        finished_at=datetime.now(UTC).isoformat(timespec="seconds"),
        cpu_seconds=cpu,
    )


def play_task(task: Task) -> Play:
    """Play one deal to its end with the task's player; runs in a worker process."""
    from milligan.game import Game
    from milligan.solver.baseline import play_greedy
    from milligan.solver.fair import autoplay

    player = task.player
    assert player is not None
    game = Game.new(Variant.from_key(task.variant), task.deal)
    began, cpu = time.monotonic(), time.process_time()
    if player.name == "fair":
        played = autoplay(
            game, samples=player.samples, seed=player.seed, max_positions=player.max_positions
        )
        result, decisions, positions = played.result, played.decisions, played.positions
    else:
        result, decisions, positions = play_greedy(game), len(game.moves), 0
    return Play(
        variant=task.variant,
        deal=task.deal,
        player=player.name,
        settings=player.settings(),
        result=result,
        moves=tuple(str(move) for move in game.moves),
        cards_up=game.position.cards_on_foundations(),
        decisions=decisions,
        positions=positions,
        seconds=time.monotonic() - began,
        cpu_seconds=time.process_time() - cpu,
        solver=solver_name(),
        host=socket.gethostname(),
        finished_at=datetime.now(UTC).isoformat(timespec="seconds"),
    )


def run_task(task: Task) -> Result | Play:
    """A task's work: a solve, or a game played by the task's player."""
    return solve_task(task) if task.player is None else play_task(task)


def parse_deals(text: str) -> list[int]:
    """Deal numbers from ``1-1000``, ``7`` or a comma-separated list of both.

    >>> parse_deals("1-3,10,20-21")
    [1, 2, 3, 10, 20, 21]
    """
    deals: dict[int, None] = {}
    for part in text.replace(" ", "").split(","):
        if not part:
            continue
        first, dash, last = part.partition("-")
        try:
            low = int(first, 0)
            high = int(last, 0) if dash else low
        except ValueError:
            raise SurveyError(f"bad deal range {part!r} (write e.g. 1-1000 or 1-10,42)") from None
        if not 0 <= low <= high < 2**64:
            raise SurveyError(f"bad deal range {part!r}: numbers go from 0 to 2**64-1, low first")
        if high - low + len(deals) >= 10**7:
            raise SurveyError(f"deal range {text!r} is too long for one survey (10 million max)")
        deals.update(dict.fromkeys(range(low, high + 1)))
    if not deals:
        raise SurveyError("no deals given")
    return list(deals)


# -- engines ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Lost:
    """A task whose worker died before it finished: worth resubmitting."""

    reason: str


Outcome = Result | Play | Lost | BaseException


class Engine(Protocol):
    """Where tasks run: :class:`LocalEngine` or :class:`DaskEngine`."""

    def slots(self) -> int:
        """How many tasks run at once."""
        ...

    def memory_per_slot_mb(self) -> int | None:
        """The memory a task may use so that all slots fit, if known."""
        ...

    def submit(self, task: Task) -> Any: ...

    def wait(self, handles: Sequence[Any], timeout: float) -> list[tuple[Any, Outcome]]:
        """Some finished handles with their outcomes (none when ``timeout`` passes)."""
        ...

    def close(self, abort: bool = False) -> None:
        """Stop; ``abort`` kills the tasks in flight."""
        ...


def available_memory_mb() -> int | None:
    """The memory this machine can still give: /proc/meminfo's (Linux), within what
    this process's control groups allow (a container's limit, which
    /proc/meminfo does not show; :func:`milligan.workers.memory_allowed_mb`)."""
    known = [each for each in (_meminfo_available_mb(), memory_allowed_mb()) if each is not None]
    return min(known) if known else None


def _meminfo_available_mb() -> int | None:
    try:
        with open("/proc/meminfo") as meminfo:
            for line in meminfo:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) // 1024
    except (OSError, ValueError):
        pass
    return None


class LocalEngine:
    """A pool of worker processes on this machine (:func:`milligan.workers.process_pool`).

    A pool broken by a dying worker is restarted, and its lost tasks are
    reported as :class:`Lost` for the survey loop to resubmit.
    """

    def __init__(self, workers: int | None = None) -> None:
        self.workers = max(1, workers or usable_cores())
        self._executor = self._start()
        self._current: set[cf.Future[Result | Play]] = set()  # futures of the pool now running

    def _start(self) -> cf.ProcessPoolExecutor:
        # The parent runs threads (the progress display): workers of milligan.workers.
        return process_pool(self.workers)

    def slots(self) -> int:
        return self.workers

    def memory_per_slot_mb(self) -> int | None:
        available = available_memory_mb()
        return None if available is None else int(available * 0.7) // self.workers

    def submit(self, task: Task) -> cf.Future[Result | Play]:
        try:
            future = self._executor.submit(run_task, task)
        except cf.process.BrokenProcessPool:
            self._restart()
            future = self._executor.submit(run_task, task)
        self._current.add(future)
        return future

    def wait(self, handles: Sequence[Any], timeout: float) -> list[tuple[Any, Outcome]]:
        done, _ = cf.wait(handles, timeout=timeout, return_when=cf.FIRST_COMPLETED)
        outcomes: list[tuple[Any, Outcome]] = []
        broken = False
        for future in done:
            try:
                outcomes.append((future, future.result()))
            except cf.process.BrokenProcessPool:
                # Every future of a broken pool fails; restart it only once.
                broken = broken or future in self._current
                outcomes.append((future, Lost("a worker process died")))
            except Exception as error:
                outcomes.append((future, error))
            self._current.discard(future)
        if broken:
            self._restart()
        return outcomes

    def _restart(self) -> None:
        self._kill()
        self._executor.shutdown(wait=False, cancel_futures=True)
        self._executor = self._start()
        self._current = set()

    def _kill(self) -> None:
        kill_pool(self._executor)

    def close(self, abort: bool = False) -> None:
        if abort:
            self._kill()
        self._executor.shutdown(wait=not abort, cancel_futures=True)


#: Why Dask cancels every future of a client that lost its scheduler.
CONNECTION_LOST = "scheduler-connection-lost"


def connect_failure(address: str, error: BaseException) -> str:
    """One line on why a Dask client could not connect to ``address``."""
    cause = " ".join(str(error).split()) or type(error).__name__
    if address.startswith("tls://") and isinstance(error, TypeError) and "ssl" in cause.lower():
        cause = (
            "a tls:// address needs Dask TLS settings on this machine (a CA file, and a "
            "client certificate and key: the DASK_DISTRIBUTED__COMM__TLS__* variables or "
            "~/.config/dask/distributed.yaml), see docs/WINNABILITY.md, "
            '"Running a survey on several machines"'
        )
    return f"cannot reach the Dask scheduler at {address}: {cause}"


@contextlib.contextmanager
def _quiet_dask_logs() -> Iterator[None]:
    """Silence Dask's log handlers for a while (its complaints about a lost scheduler)."""
    handlers = logging.getLogger("distributed").handlers
    levels = [handler.level for handler in handlers]
    for handler in handlers:
        handler.setLevel(logging.CRITICAL + 1)
    try:
        yield
    finally:
        for handler, level in zip(handlers, levels, strict=True):
            handler.setLevel(level)


class DaskEngine:
    """Tasks on a Dask distributed cluster, through a ``Client``.

    ``address`` is a scheduler (``tcp://host:8786``); None starts a
    ``LocalCluster`` of ``workers`` single-threaded processes on this machine.
    :meth:`slots` follows the cluster (read again every :data:`SLOTS_REFRESH`
    seconds), so a worker that joins during a survey is given deals, and one
    that leaves no longer counts.

    Any failure to connect is a :class:`SurveyError`; losing the scheduler
    later is a :class:`ClusterLost` (Dask has then cancelled every task in
    flight, and their results are gone with the scheduler).
    """

    def __init__(
        self, address: str | None = None, workers: int | None = None, client: Any = None
    ) -> None:
        from distributed import Client, LocalCluster

        self._cluster: Any = None
        self._own_client = client is None
        self._lost = False
        self.where = f"at {address}" if address else "of the local cluster"
        if client is not None:
            self.client = client
        elif address is None:
            self._cluster = LocalCluster(  # type: ignore[no-untyped-call]
                n_workers=max(1, workers or usable_cores()),
                threads_per_worker=1,
                processes=True,
                dashboard_address=None,
            )
            self.client = Client(self._cluster)  # type: ignore[no-untyped-call]
        else:
            try:
                self.client = Client(address, timeout="20s")  # type: ignore[no-untyped-call]
            except Exception as error:  # a bad address, no TLS settings, nobody listening...
                raise SurveyError(connect_failure(address, error)) from None
        self._slots_checked = float("-inf")  # never read yet
        self._slots = 1

    def _gone(self, cause: str) -> ClusterLost:
        self._lost = True
        return ClusterLost(self.where, cause)

    def _check_connected(self) -> None:
        """Raise :class:`ClusterLost` once the client has lost its scheduler.

        A client that lost it reconnects in the background ("connecting"),
        but it has already cancelled every task in flight; then it closes.
        """
        status = getattr(self.client, "status", "running")
        if status == "connecting":
            raise self._gone("connection lost")
        if status not in ("running", "newly-created"):
            raise self._gone(f"the Dask client is {status}")

    @contextlib.contextmanager
    def _talking(self) -> Iterator[None]:
        """Turn the errors of a request to a scheduler that is gone into :class:`ClusterLost`."""
        from distributed.client import ClosedClientError

        self._check_connected()
        try:
            yield
        except (OSError, cf.CancelledError, ClosedClientError) as error:
            raise self._gone(" ".join(str(error).split()) or type(error).__name__) from None

    def slots(self) -> int:
        """The threads of the cluster's workers now (at least 1)."""
        now = time.monotonic()
        if now - self._slots_checked >= SLOTS_REFRESH:
            with self._talking():
                self._slots = max(1, sum(self.client.nthreads().values()))
            self._slots_checked = now
        return self._slots

    def memory_per_slot_mb(self) -> int | None:
        with self._talking():
            workers = self.client.scheduler_info().get("workers", {})
        shares = [
            int(info["memory_limit"] * 0.6) // (1024 * 1024) // max(1, info.get("nthreads", 1))
            for info in workers.values()
            if info.get("memory_limit")
        ]
        return min(shares) if shares else None

    def submit(self, task: Task) -> Any:
        with self._talking():
            return self.client.submit(
                run_task,
                task,
                pure=False,
                retries=2,
                key=f"milligan-solve-{task.deal}-{os.urandom(6).hex()}",
            )

    def wait(self, handles: Sequence[Any], timeout: float) -> list[tuple[Any, Outcome]]:
        from distributed import wait
        from distributed.scheduler import KilledWorker

        self._check_connected()
        try:
            done, _ = wait(list(handles), timeout=timeout, return_when="FIRST_COMPLETED")  # type: ignore[no-untyped-call]
        except TimeoutError:
            return []
        except cf.CancelledError as error:
            # This Dask raises as soon as one future is cancelled. A lost
            # scheduler cancels them all; anything else only some.
            groups = getattr(error, "error_groups", ())
            if any(group.reason == CONNECTION_LOST for group in groups):
                raise self._gone("connection lost") from None
            self._check_connected()
            done = {future for future in handles if future.status != "pending"}
        outcomes: list[tuple[Any, Outcome]] = []
        for future in done:
            if future.status == "finished":
                try:
                    outcomes.append((future, future.result()))
                except Exception as error:
                    self._check_connected()  # the result went with the scheduler
                    outcomes.append((future, error))
            elif future.status == "error":
                failure = future.exception()
                if isinstance(failure, KilledWorker):
                    outcomes.append((future, Lost(f"workers died running it: {failure}")))
                else:
                    outcomes.append((future, failure))
            else:  # cancelled or lost: the cluster forgot it
                outcomes.append((future, Lost(f"the cluster lost it ({future.status})")))
        return outcomes

    def close(self, abort: bool = False) -> None:
        if not self._own_client:
            return
        # Closing a client that lost its scheduler stops its attempts to
        # reconnect, which Dask logs with a traceback: the survey has said why.
        quiet = _quiet_dask_logs() if self._lost else contextlib.nullcontext()
        with quiet, contextlib.suppress(Exception):
            self.client.close()
        if self._cluster is not None:
            with contextlib.suppress(Exception):
                self._cluster.close()


# -- the survey loop ---------------------------------------------------------------


@dataclass
class SurveyProgress:
    """What a survey has done so far; passed to the progress callback."""

    total: int
    skipped: int
    won: int = 0
    lost: int = 0
    unknown: int = 0
    failed: int = 0
    failures: list[str] = field(default_factory=list)
    #: unknowns that were starved of CPU (:attr:`Result.starved`): a rerun retries them
    starved: int = 0

    @property
    def done(self) -> int:
        return self.won + self.lost + self.unknown + self.failed

    def count(self, result: Result | Play) -> None:
        """Count a solve's verdict, or a game's result (a resignation as unknown)."""
        verdict = result.verdict if isinstance(result, Result) else result.result
        if verdict == "won":
            self.won += 1
        elif verdict == "lost":
            self.lost += 1
        else:
            self.unknown += 1
            if isinstance(result, Result) and result.starved:
                self.starved += 1


def run_survey(
    store: ResultStore,
    variant: str | Sequence[str],
    deals: Iterable[int],
    limits: Limits,
    engine: Engine,
    *,
    solutions: bool = False,
    player: Player | None = None,
    retry_unknown: bool = False,
    on_progress: Callable[[SurveyProgress, Result | Play | None], None] | None = None,
) -> SurveyProgress:
    """Solve every deal not yet decided under ``limits`` and store each result.

    With several variants the work goes deal by deal (deal 1 of each variant,
    then deal 2...), so a survey stopped early covers every variant alike.
    Deals whose workers die are resubmitted up to :data:`MAX_LOST` times; a
    deal whose solver raises is counted as failed and not stored (a rerun
    tries it again). Interrupting (``KeyboardInterrupt``) kills the deals in
    flight and re-raises; everything finished before is already stored.
    ``retry_unknown`` retries deals left unknown under limits as large as
    these too.

    With a ``player``, each deal is played to its end by it instead (see
    :class:`Player`), and deals it has already played with the same settings
    are skipped.
    """
    variants = [variant] if isinstance(variant, str) else list(variant)
    deals = list(deals)
    todo: dict[str, set[int]] = {}
    skipped = 0
    for name in variants:
        if player is None:
            pending, skipped_here = pending_deals(
                store, name, deals, limits, retry_unknown=retry_unknown
            )
        else:
            pending, skipped_here = pending_plays(
                store, name, deals, player.name, player.settings()
            )
        todo[name] = set(pending)
        skipped += skipped_here
    queue = deque(
        Task(name, deal, limits, solutions, player)
        for deal in deals
        for name in variants
        if deal in todo[name]
    )
    progress = SurveyProgress(total=len(queue), skipped=skipped)
    if on_progress is not None:
        on_progress(progress, None)
    in_flight: dict[Any, Task] = {}
    lost: dict[Task, int] = {}
    finished = False
    try:
        while queue or in_flight:
            window = 2 * engine.slots()
            while queue and len(in_flight) < window:
                task = queue.popleft()
                in_flight[engine.submit(task)] = task
            for handle, outcome in engine.wait(list(in_flight), timeout=0.5):
                task = in_flight.pop(handle)
                if isinstance(outcome, Result | Play):
                    if isinstance(outcome, Play):
                        store.add_play(outcome)
                    else:
                        store.add(outcome)
                    progress.count(outcome)
                    if on_progress is not None:
                        on_progress(progress, outcome)
                    continue
                if isinstance(outcome, Lost):
                    lost[task] = lost.get(task, 0) + 1
                    if lost[task] < MAX_LOST:
                        queue.appendleft(task)
                        continue
                    reason = f"{task.variant} deal {task.deal}: lost {MAX_LOST} times"
                    reason += f" ({outcome.reason})"
                else:
                    reason = f"{task.variant} deal {task.deal}: {type(outcome).__name__}: {outcome}"
                progress.failed += 1
                progress.failures.append(reason)
                if on_progress is not None:
                    on_progress(progress, None)
        finished = True
    except ClusterLost as lost_cluster:
        stored = progress.done - progress.failed
        raise ClusterLost(lost_cluster.where, lost_cluster.cause, stored, skipped) from None
    finally:
        engine.close(abort=not finished)
    return progress
