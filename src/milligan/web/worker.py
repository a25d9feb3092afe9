"""Solver work in worker processes, away from the requests that play moves.

A :class:`Lane` is one worker process (from :mod:`milligan.workers`: started
with ``spawn``, so that it shares nothing with the server, and dying with
it) and the jobs waiting for it, which it runs one at a time. A job whose
client has gone is dropped while it waits, and ended, by killing its worker,
while it runs: the next job gets a fresh one.

This module imports nothing heavy: the worker imports it on start.
"""

from __future__ import annotations

import contextlib
import threading
from collections import OrderedDict, deque
from collections.abc import Callable, Hashable
from concurrent.futures import Future, InvalidStateError
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any

from milligan.workers import CONTEXT, start_process


class JobCancelled(Exception):
    """The job was cancelled before it ended."""


class WorkerStopped(Exception):
    """The worker process died while it ran the job."""


@dataclass(eq=False)
class Job:
    """One call to run in a worker, and its outcome."""

    function: Callable[..., Any]
    args: tuple[Any, ...]
    kwargs: dict[str, Any]
    future: Future[Any] = field(default_factory=Future)
    cancelled: bool = False


def _settle(future: Future[Any], result: Any = None, error: BaseException | None = None) -> None:
    with contextlib.suppress(InvalidStateError):  # cancelled meanwhile
        if error is not None:
            future.set_exception(error)
        else:
            future.set_result(result)


def _serve(connection: Connection) -> None:
    """The worker's loop: receive a call, send back its result or its error."""
    while True:
        try:
            function, args, kwargs = connection.recv()
        except (EOFError, OSError):
            return
        try:
            reply: tuple[bool, Any] = (True, function(*args, **kwargs))
        except Exception as error:
            reply = (False, error)
        try:
            connection.send(reply)
        except Exception as error:  # a result that does not pickle
            connection.send((False, RuntimeError(f"{type(error).__name__}: {error}")))


class Lane:
    """One worker process that runs the jobs given to it, in order, one at a time.

    ``niceness`` lowers the worker's priority (background work). Spare work
    (:meth:`offer`) waits behind every submitted job; at most ``spare_limit``
    pieces of it wait at once (the oldest is dropped for a new one).
    """

    def __init__(self, name: str, niceness: int = 0, spare_limit: int = 8) -> None:
        self.name = name
        self.niceness = niceness
        self.spare_limit = spare_limit
        self._jobs: deque[Job] = deque()
        self._spare: OrderedDict[Hashable, Job] = OrderedDict()
        self._lock = threading.Lock()
        self._ready = threading.Condition(self._lock)
        self._process: Any = None
        self._connection: Connection | None = None
        self._current: Job | None = None
        self._thread: threading.Thread | None = None
        self._closed = False

    def submit(self, function: Callable[..., Any], *args: Any, **kwargs: Any) -> Job:
        """Queue a call; its outcome comes in ``job.future``."""
        job = Job(function, args, kwargs)
        with self._lock:
            self._wake()
            self._jobs.append(job)
            self._ready.notify()
        return job

    def offer(self, key: Hashable, function: Callable[..., Any], *args: Any, **kwargs: Any) -> Job:
        """Queue a call as spare work: it runs when no submitted job waits.

        Spare work offered earlier under ``key`` that has not started is
        dropped (its future is cancelled), and so is the oldest spare work
        beyond ``spare_limit``. Spare work that has started runs to its end.
        """
        job = Job(function, args, kwargs)
        with self._lock:
            self._wake()
            dropped: list[Job] = []
            if (earlier := self._spare.pop(key, None)) is not None:
                dropped.append(earlier)
            self._spare[key] = job
            while len(self._spare) > self.spare_limit:
                dropped.append(self._spare.popitem(last=False)[1])
            self._ready.notify()
        for old in dropped:
            old.cancelled = True
            _settle(old.future, error=JobCancelled())
        return job

    def cancel(self, job: Job) -> None:
        """Drop a waiting job, or end a running one (its worker is killed)."""
        job.cancelled = True
        with self._lock:
            if self._current is job:
                self._kill()
        _settle(job.future, error=JobCancelled())

    def close(self) -> None:
        """Stop the worker; waiting jobs are cancelled."""
        with self._lock:
            self._closed = True
            self._kill()
            waiting = [*self._jobs, *self._spare.values()]
            self._jobs.clear()
            self._spare.clear()
            self._ready.notify_all()
        for job in waiting:
            _settle(job.future, error=JobCancelled())

    def _wake(self) -> None:
        """(With the lock held.) Refuse work once closed; start the dispatcher on the first."""
        if self._closed:
            raise RuntimeError("the worker is closed")
        if self._thread is None:
            self._thread = threading.Thread(
                target=self._dispatch, name=f"solver-{self.name}", daemon=True
            )
            self._thread.start()

    # -- in the dispatcher thread ------------------------------------------------------

    def _next(self) -> Job | None:
        """(With the lock held.) The next job to run, submitted jobs first; None once closed."""
        while True:
            if self._closed:
                return None
            if self._jobs:
                return self._jobs.popleft()
            if self._spare:
                return self._spare.popitem(last=False)[1]
            self._ready.wait()

    def _start(self) -> Connection:
        ours, theirs = CONTEXT.Pipe()
        process = start_process(
            _serve, theirs, name=f"milligan-solver-{self.name}", niceness=self.niceness
        )
        theirs.close()
        self._process = process
        self._connection = ours
        return ours

    def _kill(self) -> None:
        """(With the lock held.) End the worker process; a new one starts for the next job.

        The pipe is left to the dispatcher, which may be reading it: it sees
        the end of the file and closes it.
        """
        if self._process is not None:
            with contextlib.suppress(Exception):
                self._process.kill()
        self._process = None

    def _drop_connection(self) -> None:
        """(With the lock held.) Close the pipe to a worker that is gone."""
        if self._connection is not None:
            with contextlib.suppress(Exception):
                self._connection.close()
        self._connection = None

    def _dispatch(self) -> None:
        while True:
            with self._lock:
                job = self._next()
                if job is None:
                    break
                if job.cancelled:
                    continue
                connection = self._connection
                if connection is None or self._process is None or not self._process.is_alive():
                    self._kill()
                    self._drop_connection()
                    connection = self._start()
                self._current = job
            try:
                connection.send((job.function, job.args, job.kwargs))
                ok, value = connection.recv()
            except (EOFError, OSError, ValueError):
                with self._lock:
                    if self._connection is connection:
                        self._kill()
                        self._drop_connection()
                error = JobCancelled() if job.cancelled else WorkerStopped()
                _settle(job.future, error=error)
            except Exception as failure:  # the call's arguments did not pickle
                _settle(job.future, error=failure)
            else:
                if ok:
                    _settle(job.future, value)
                else:
                    _settle(job.future, error=value)
            finally:
                with self._lock:
                    self._current = None
        with self._lock:
            self._kill()
            self._drop_connection()
