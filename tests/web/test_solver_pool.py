"""Solver work stays off the path of moves: bounded per player and in total, cancelled when
the client goes."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import anyio.to_thread
import pytest
from fastapi.testclient import TestClient

from milligan.solver import compiled, fair
from milligan.store import open_database
from milligan.web.app import COOKIE, create_app
from milligan.web.deps import ONE_CORE_POSITIONS, ApiError, HelpBudget, SolverPool
from milligan.web.settings import ServerSettings
from milligan.web.worker import Job, JobCancelled, Lane

from .conftest import TEST_BUDGET, TEST_SETTINGS


class HeldLane:
    """A stand-in for the help worker: each job waits until the test lets it end."""

    def __init__(self) -> None:
        self.jobs: list[Job] = []
        self.cancelled: list[Job] = []
        self.submitted = threading.Semaphore(0)

    def submit(self, function: Callable[..., Any], *args: Any, **kwargs: Any) -> Job:
        job = Job(function, args, kwargs)
        self.jobs.append(job)
        self.submitted.release()
        return job

    def cancel(self, job: Job) -> None:
        if not job.future.done():
            self.cancelled.append(job)
            job.future.set_exception(JobCancelled())

    def close(self) -> None:
        pass


def run_alone(coroutine: Any) -> None:
    """Run a coroutine in a thread of its own: the browser tests' Playwright may still
    hold an event loop in this one."""
    failures: list[BaseException] = []

    def target() -> None:
        try:
            asyncio.run(coroutine)
        except BaseException as error:
            failures.append(error)

    thread = threading.Thread(target=target)
    thread.start()
    thread.join()
    if failures:
        raise failures[0]


def player_headers(number: int) -> dict[str, str]:
    return {"cookie": f"{COOKIE}={number:032x}"}


def test_moves_go_on_while_solutions_wait(client: TestClient) -> None:
    """Solutions hold no server thread: with one thread for sync handlers and three
    solutions in the works, another player's move is answered at once."""
    held = HeldLane()
    client.app.state.solver_pool.help = held  # type: ignore[attr-defined]
    portal = client.portal  # type: ignore[attr-defined]
    assert portal is not None
    portal.call(
        lambda: setattr(anyio.to_thread.current_default_thread_limiter(), "total_tokens", 1)
    )
    games = []
    for number in range(4):
        answer = client.post(
            "/api/games", json={"variant": "classic", "deal": 42}, headers=player_headers(number)
        )
        games.append(answer.json())
    answers: dict[int, Any] = {}

    def ask(number: int) -> None:
        answers[number] = client.get(
            f"/api/games/{games[number]['id']}/solution", headers=player_headers(number)
        )

    askers = [threading.Thread(target=ask, args=(number,)) for number in range(1, 4)]
    for thread in askers:
        thread.start()
    for _ in askers:
        assert held.submitted.acquire(timeout=60)
    moved: list[Any] = []
    mover = threading.Thread(
        target=lambda: moved.append(
            client.post(
                f"/api/games/{games[0]['id']}/moves",
                json={"move": "5>F"},
                headers=player_headers(0),
            )
        )
    )
    mover.start()
    mover.join(timeout=60)  # a guard against a hang, not a measure of speed
    assert moved and moved[0].status_code == 200
    assert not any(job.future.done() for job in held.jobs)  # the solutions are still waiting
    for job in held.jobs:
        job.future.set_result(SimpleNamespace(result="unknown", moves=()))
    for thread in askers:
        thread.join(timeout=60)
    assert [answers[number].json()["result"] for number in (1, 2, 3)] == ["unknown"] * 3


def test_one_request_per_player_and_a_bounded_queue(client: TestClient) -> None:
    held = HeldLane()
    pool: SolverPool = client.app.state.solver_pool  # type: ignore[attr-defined]
    pool.help = held  # type: ignore[assignment]
    pool.queue_limit = 2
    games = [
        client.post(
            "/api/games", json={"variant": "classic", "deal": 42}, headers=player_headers(number)
        ).json()
        for number in range(3)
    ]
    first = threading.Thread(
        target=lambda: client.get(
            f"/api/games/{games[0]['id']}/solution", headers=player_headers(0)
        )
    )
    first.start()
    assert held.submitted.acquire(timeout=60)
    again = client.get(f"/api/games/{games[0]['id']}/hint", headers=player_headers(0))
    assert again.status_code == 429 and again.json()["error"] == "too_many"
    assert "wait" in again.json()["message"]
    second = threading.Thread(
        target=lambda: client.get(f"/api/games/{games[1]['id']}/hint", headers=player_headers(1))
    )
    second.start()
    assert held.submitted.acquire(timeout=60)
    full = client.get(f"/api/games/{games[2]['id']}/solution", headers=player_headers(2))
    assert full.status_code == 503 and full.json()["error"] == "busy"
    for job in held.jobs:
        job.future.set_result(
            SimpleNamespace(
                result="unknown",
                moves=(),
                move=None,
                win_chance=0.0,
                win_estimate=0.0,
                samples=0,
                plan=(),
                repeats=False,
            )
        )
    first.join(timeout=60)
    second.join(timeout=60)
    assert (
        client.get(f"/api/games/{games[2]['id']}", headers=player_headers(2)).json()["assisted"]
        is False
    )  # the refused solution was not counted


class GoneAfter:
    """A request whose client disconnects after ``checks`` looks."""

    def __init__(self, checks: int) -> None:
        self.checks = checks

    async def is_disconnected(self) -> bool:
        self.checks -= 1
        return self.checks < 0


def test_a_job_whose_client_goes_is_stopped_in_the_worker() -> None:
    pool = SolverPool()
    try:

        async def scenario() -> None:
            with pytest.raises(ApiError) as gone:
                await pool.run("alice", GoneAfter(2), time.sleep, 3600)  # type: ignore[arg-type]
            assert gone.value.code == "gone"
            # The worker that ran the long sleep was killed; a new one answers.
            assert await pool.run("alice", None, sum, [1, 2, 3]) == 6

        run_alone(asyncio.wait_for(scenario(), timeout=120))
    finally:
        pool.close()


def test_a_lane_drops_a_waiting_job_and_kills_a_running_one() -> None:
    lane = Lane("test")
    try:
        running = lane.submit(time.sleep, 3600)
        waiting = lane.submit(sum, [1, 2])
        deadline = time.monotonic() + 60
        while lane._current is not running and time.monotonic() < deadline:
            time.sleep(0.02)
        lane.cancel(waiting)
        lane.cancel(running)
        with pytest.raises(JobCancelled):
            running.future.result(timeout=60)
        with pytest.raises(JobCancelled):
            waiting.future.result(timeout=60)
        assert lane.submit(sum, [4, 5]).future.result(timeout=60) == 9
        with pytest.raises(ZeroDivisionError):
            lane.submit(divmod, 1, 0).future.result(timeout=60)
    finally:
        lane.close()


def test_a_client_that_hangs_up_cancels_its_solution(app: Any) -> None:
    """Through a real uvicorn: closing the connection cancels the job it was waiting for."""
    import socket

    import uvicorn

    from milligan.store.testing import free_port

    held = HeldLane()
    app.state.solver_pool.help = held
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 60
        while not server.started and time.monotonic() < deadline:
            time.sleep(0.05)
        cookie = player_headers(5)["cookie"]

        def send(request: bytes) -> socket.socket:
            connection = socket.create_connection(("127.0.0.1", port), timeout=30)
            connection.sendall(request)
            return connection

        head = f"Host: 127.0.0.1:{port}\r\nCookie: {cookie}\r\n".encode()
        body = b'{"variant": "classic", "deal": 42}'
        created = send(
            b"POST /api/games HTTP/1.1\r\n" + head + b"Content-Type: application/json"
            b"\r\nContent-Length: %d\r\nConnection: close\r\n\r\n" % len(body) + body
        )
        reply = b""
        while chunk := created.recv(65536):
            reply += chunk
        created.close()
        game_id = reply.split(b'"id":"')[1].split(b'"')[0].decode()
        asking = send(f"GET /api/games/{game_id}/solution HTTP/1.1\r\n".encode() + head + b"\r\n")
        assert held.submitted.acquire(timeout=60)
        asking.close()  # the player gives up
        deadline = time.monotonic() + 60
        while not held.cancelled and time.monotonic() < deadline:
            time.sleep(0.05)
        assert held.cancelled == held.jobs  # the job was cancelled, not left to run
    finally:
        server.should_exit = True
        thread.join(timeout=30)


def test_spare_work_waits_for_submitted_jobs_and_newer_work_replaces_older() -> None:
    lane = Lane("test", spare_limit=2)
    try:
        busy = lane.submit(time.sleep, 2)
        deadline = time.monotonic() + 60
        while lane._current is not busy and time.monotonic() < deadline:
            time.sleep(0.02)
        replaced = lane.offer("a", time.monotonic)
        dropped = lane.offer("a", time.monotonic)  # the latest change of game "a"
        spare = lane.offer("b", time.monotonic)
        asked = lane.submit(time.monotonic)
        last = lane.offer("c", time.monotonic)  # beyond the limit: the oldest, "a", goes
        for job in (replaced, dropped):
            with pytest.raises(JobCancelled):
                job.future.result(timeout=60)
        # CLOCK_MONOTONIC is the machine's: the worker's times compare with each other
        assert asked.future.result(timeout=60) < spare.future.result(timeout=60)
        assert spare.future.result(timeout=60) < last.future.result(timeout=60)
        assert busy.future.result(timeout=60) is None
        lane.submit(time.sleep, 3600)
        waiting = lane.offer("d", sum, [1])
        lane.close()
        with pytest.raises(JobCancelled):
            waiting.future.result(timeout=60)
    finally:
        lane.close()


class Spied:
    """A real help worker whose offers and submissions are written down."""

    def __init__(self, lane: Lane) -> None:
        self.lane = lane
        self.offered: list[tuple[tuple[Any, ...], dict[str, Any], Job]] = []
        self.submitted: list[tuple[tuple[Any, ...], dict[str, Any]]] = []

    def offer(self, key: Any, function: Any, *args: Any, **kwargs: Any) -> Job:
        job = self.lane.offer(key, function, *args, **kwargs)
        self.offered.append((args, kwargs, job))
        return job

    def submit(self, function: Any, *args: Any, **kwargs: Any) -> Job:
        self.submitted.append((args, kwargs))
        return self.lane.submit(function, *args, **kwargs)

    def cancel(self, job: Job) -> None:
        self.lane.cancel(job)

    def close(self) -> None:
        self.lane.close()


@contextlib.contextmanager
def spied_server(path: Path, settings: ServerSettings) -> Iterator[tuple[TestClient, Spied]]:
    """A client of a real server over a new SQLite file, with its help worker spied on."""
    database = open_database(path)
    app = create_app(database, budget=TEST_BUDGET, settings=settings)
    spied = Spied(app.state.solver_pool.help)
    app.state.solver_pool.help = spied
    try:
        with TestClient(app, base_url="http://localhost") as client:
            yield client, spied
    finally:
        database.close()


def hint_after_a_deal(tmp_path: Path, ahead: bool) -> dict[str, Any]:
    """Deal, ask for a hint, deal again (which ends any plan), and ask again."""
    settings = dataclasses.replace(TEST_SETTINGS, hints_ahead=ahead)
    with spied_server(tmp_path / f"games-{ahead}.sqlite3", settings) as (client, spied):
        game = client.post("/api/games", json={"variant": "classic", "deal": 42}).json()
        base = f"/api/games/{game['id']}"
        assert client.post(f"{base}/moves", json={"move": "D"}).status_code == 200
        assert spied.offered == []  # no hint asked in this game yet
        client.get(f"{base}/hint").raise_for_status()
        assert client.post(f"{base}/moves", json={"move": "D"}).status_code == 200
        assert len(spied.offered) == (1 if ahead else 0)
        answer = client.get(f"{base}/hint")
        answer.raise_for_status()
        if ahead:  # the very call the hint makes, and its answer
            args, kwargs, job = spied.offered[0]
            assert spied.submitted[-1] == (args, kwargs)
            assert answer.json()["move"] == str(job.future.result(timeout=120).move)
        assert client.post(f"{base}/undo", json={}).status_code == 200
        assert len(spied.offered) == (2 if ahead else 0)
        assert client.post(f"{base}/resign", json={}).status_code == 200
        assert len(spied.offered) == (2 if ahead else 0)  # a game over makes no hint
        return dict(answer.json())


def test_a_hint_is_made_ahead_once_the_player_has_asked_for_one(tmp_path: Path) -> None:
    """Through a real solver worker: after a change to a game with a hint, its next hint
    is offered as spare work, the very call the hint then makes; the answer is the one a
    server that makes no hints ahead gives."""
    assert hint_after_a_deal(tmp_path, ahead=True) == hint_after_a_deal(tmp_path, ahead=False)


def test_the_settings_can_set_the_budgets_of_hints_and_solutions(tmp_path: Path) -> None:
    database = open_database(tmp_path / "games.sqlite3")
    try:
        settings = dataclasses.replace(
            TEST_SETTINGS, hint_positions=1234, hint_threads=3, solution_positions=5678
        )
        budget = create_app(database, settings=settings).state.budget
        assert (budget.hint_positions, budget.hint_threads) == (1234, 3)
        assert budget.solution_positions == 5678
        default = create_app(database).state.budget
        assert budget.hint_samples == default.hint_samples
        assert default.solution_positions == 1_000_000
        assert default.hint_threads == (fair.default_threads() if compiled.AVAILABLE else 1)
    finally:
        database.close()


@pytest.mark.skipif(not compiled.AVAILABLE, reason="the compiled core was not built")
@pytest.mark.parametrize("cores", [1, 2, 4])
def test_a_machine_with_one_core_takes_fewer_positions_a_hint(
    cores: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # one search at a time at 4,000,000 positions would put the hints'
    # 95th percentile at about a second (docs/BENCHMARKS.md)
    monkeypatch.setattr(fair, "default_threads", lambda: cores)
    budget = HelpBudget.for_this_build()
    assert budget.hint_threads == cores
    assert budget.hint_positions == (ONE_CORE_POSITIONS if cores == 1 else None)


def test_a_move_stands_when_its_hint_cannot_be_made_ahead(tmp_path: Path) -> None:
    """A server that is stopping refuses spare work; the move is played all the same."""
    with spied_server(tmp_path / "games.sqlite3", TEST_SETTINGS) as (client, spied):
        game = client.post("/api/games", json={"variant": "classic", "deal": 42}).json()
        base = f"/api/games/{game['id']}"
        client.get(f"{base}/hint").raise_for_status()
        spied.close()
        moved = client.post(f"{base}/moves", json={"move": "D"})
        assert moved.status_code == 200 and moved.json()["revision"] == game["revision"] + 1


def test_the_opening_hint_is_made_ahead_for_a_player_who_asked_for_one_last_time(
    tmp_path: Path,
) -> None:
    with spied_server(tmp_path / "games.sqlite3", TEST_SETTINGS) as (client, spied):
        first = client.post("/api/games", json={"variant": "classic", "deal": 42}).json()
        assert spied.offered == []  # a new player, who has asked for nothing
        client.get(f"/api/games/{first['id']}/hint").raise_for_status()
        second = client.post("/api/games", json={"variant": "classic", "deal": 7}).json()
        assert len(spied.offered) == 1
        args, kwargs, job = spied.offered[0]
        assert args[0] == second["id"] and not args[2]  # the opening: nothing seen before
        made = job.future.result(timeout=120)
        answer = client.get(f"/api/games/{second['id']}/hint").json()
        assert spied.submitted[-1] == (args, kwargs) and answer["move"] == str(made.move)
        client.post("/api/games", json={"variant": "classic", "deal": 8})
        assert len(spied.offered) == 2  # the game changed last had a hint: the second
        fourth = client.post("/api/games", json={"variant": "classic", "deal": 9}).json()
        assert len(spied.offered) == 2  # now it had none
        client.get(f"/api/games/{fourth['id']}/hint").raise_for_status()
        daily = client.post("/api/daily/games", json={"variant": "classic"}).json()
        assert len(spied.offered) == 3 and spied.offered[-1][0][0] == daily["id"]
