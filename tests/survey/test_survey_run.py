"""Real surveys: the local pool, a Dask LocalCluster, a Dask cluster on loopback, resume.

Every run uses the real solver on one-deck deals with a small position limit
(each deal takes well under a second), real worker processes and a real SQLite
file. Verdicts are checked for consistency (a win replays to a won game), never
for timing.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import time
import types
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from milligan.game import Game
from milligan.survey.results import Limits, Result, ResultStore
from milligan.survey.runner import Lost, Task, run_survey
from milligan.variants import Variant

from .conftest import run_survey_command

pytestmark = pytest.mark.timeout(120)

LIMITS = ["--timeout", "20", "--max-positions", "2000", "--max-memory", "200"]
# Classic deals at 200,000 positions take a tenth to a quarter of a second each:
# long enough to interrupt a survey of a few dozen of them mid-way.
SLOW = ("--max-positions", "200000")


def survey(
    results: Path, deals: str, *extra: str, variants: Sequence[str] = ("one-deck",)
) -> list[str]:
    return [
        sys.executable,
        "-m",
        "milligan.cli",
        "survey",
        "run",
        *(f"--variant={variant}" for variant in variants),
        "--deals",
        deals,
        "--results",
        str(results),
        "--quiet",
        *LIMITS,
        *extra,
    ]


def rows(path: Path, variant: str = "one-deck") -> list[tuple[int, str, int | None, str | None]]:
    db = sqlite3.connect(path, timeout=30)
    try:
        return db.execute(
            "SELECT deal, verdict, solution_length, solution FROM results WHERE variant = ?"
            " ORDER BY id",
            (variant,),
        ).fetchall()
    finally:
        db.close()


def check_complete(path: Path, deals: range, variant: str = "one-deck") -> None:
    """Every deal solved exactly once, wins replayed to a won game."""
    stored = rows(path, variant)
    assert sorted(deal for deal, *_ in stored) == list(deals), "a deal missing or solved twice"
    for deal, verdict, length, solution in stored:
        assert verdict in ("won", "lost", "unknown")
        assert (length is not None) == (verdict == "won")
        if solution is not None:
            assert verdict == "won"
            moves = solution.split()
            assert length == len(moves)
            game = Game.new(Variant.named(variant), deal)
            for move in moves:
                game.play(move)
            assert game.status == "won"


def test_local_pool(tmp_path: Path) -> None:
    path = tmp_path / "survey.sqlite3"
    run = subprocess.run(
        survey(path, "1-8", "--workers", "2"), capture_output=True, text=True, timeout=100
    )
    assert run.returncode == 0, run.stderr
    assert "8 deals solved" in run.stdout
    check_complete(path, range(1, 9))
    hosts = sqlite3.connect(path).execute("SELECT DISTINCT host, max_positions FROM results")
    assert list(hosts) == [(socket.gethostname(), 2000)]
    # A rerun under the same limits has nothing left to do.
    again = subprocess.run(
        survey(path, "1-10", "--workers", "2"), capture_output=True, text=True, timeout=100
    )
    assert again.returncode == 0, again.stderr
    assert "2 deals solved" in again.stdout and "8 already decided" in again.stdout
    check_complete(path, range(1, 11))
    # After the solver got stronger: the unknown deals again, never a verdict
    # (deal 3 is decided here by hand, as a larger pass would have).
    with ResultStore(path) as store:
        store.add(Result("one-deck", 3, Limits(20.0, 2000, 200), "lost", 0.1, 10))
    stored = rows(path)
    unknown = sorted({deal for deal, verdict, *_ in stored if verdict == "unknown"} - {3})
    assert unknown, "2,000 positions leave some one-deck deals unknown"
    retry = subprocess.run(
        survey(path, "1-10", "--workers", "2", "--retry-unknown"),
        capture_output=True,
        text=True,
        timeout=100,
    )
    assert retry.returncode == 0, retry.stderr
    assert f"{len(unknown)} deals solved" in retry.stdout
    assert sorted(deal for deal, *_ in rows(path)[len(stored) :]) == unknown


def test_local_pool_keeps_winning_lines(tmp_path: Path) -> None:
    # Strict deal 2 is won within a few thousand positions (the last option wins).
    path = tmp_path / "survey.sqlite3"
    more = ("--max-positions", "50000", "--solutions")
    run = subprocess.run(
        survey(path, "1-2", "--workers", "2", *more, variants=("classic", "strict")),
        capture_output=True,
        text=True,
        timeout=100,
    )
    assert run.returncode == 0, run.stderr
    check_complete(path, range(1, 3), "classic")
    check_complete(path, range(1, 3), "strict")
    verdicts = {deal: (verdict, solution) for deal, verdict, _, solution in rows(path, "strict")}
    verdict, solution = verdicts[2]
    assert verdict == "won" and solution, "--solutions keeps the winning line"
    # The rows of the web's "winnable deals only".
    listed = run_survey_command("winnable", "--variant", "strict", "--results", str(path))
    assert listed.returncode == 0 and "2" in listed.stdout.split()


def test_dask_local_cluster(tmp_path: Path) -> None:
    path = tmp_path / "survey.sqlite3"
    run = subprocess.run(
        survey(path, "1-6", "--scheduler", "local", "--workers", "2"),
        capture_output=True,
        text=True,
        timeout=100,
    )
    assert run.returncode == 0, run.stderr
    assert "6 deals solved" in run.stdout
    check_complete(path, range(1, 7))


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@contextlib.contextmanager
def processes(*commands: Sequence[str], log: Path) -> Iterator[list[subprocess.Popen[bytes]]]:
    """Start each command in its own process group; kill the groups at the end."""
    started: list[subprocess.Popen[bytes]] = []
    try:
        for index, command in enumerate(commands):
            out = open(log / f"process-{index}.log", "wb")  # noqa: SIM115 (closed with the process)
            started.append(
                subprocess.Popen(
                    command, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
                )
            )
        yield started
    finally:
        for process in started:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=30)


def dask_command() -> str:
    """The ``dask`` command of this Python (not whatever is first on PATH)."""
    beside = Path(sys.executable).parent / "dask"
    found = str(beside) if beside.exists() else shutil.which("dask")
    assert found, "the dask command is missing"
    return found


def scheduler_command(port: int) -> list[str]:
    """A Dask scheduler on loopback, without its dashboard."""
    return [
        dask_command(),
        "scheduler",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--no-dashboard",
    ]


def worker_command(address: str) -> list[str]:
    """One single-threaded Dask worker process (and its nanny) on loopback."""
    return [
        dask_command(),
        "worker",
        address,
        "--nworkers",
        "1",
        "--nthreads",
        "1",
        "--host",
        "127.0.0.1",
        "--no-dashboard",
        "--memory-limit",
        "1GB",
    ]


def wait_for_workers(address: str, count: int) -> None:
    from distributed import Client

    with Client(address, timeout="30s") as client:
        client.wait_for_workers(count, timeout=60)


def wait_for_rows(path: Path, count: int, timeout: float = 60, variant: str = "one-deck") -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with contextlib.suppress(sqlite3.OperationalError):
            if path.exists() and len(rows(path, variant)) >= count:
                return
        time.sleep(0.05)
    raise AssertionError(f"fewer than {count} results after {timeout} s")


@contextlib.contextmanager
def frozen_survey(path: Path, address: str, deals: range) -> Iterator[subprocess.Popen[str]]:
    """A classic survey of ``deals`` on ``address``, stopped (SIGSTOP) once it has stored a result.

    The caller changes the cluster, then resumes it (SIGCONT) and collects its
    output; a survey still running on the way out is killed.
    """
    run = subprocess.Popen(
        survey(
            path,
            f"{deals.start}-{deals.stop - 1}",
            "--scheduler",
            address,
            *SLOW,
            variants=("classic",),
        ),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        wait_for_rows(path, 1, variant="classic")
        run.send_signal(signal.SIGSTOP)
        assert run.poll() is None, "the survey ended before it could be stopped"
        assert len(rows(path, "classic")) < len(deals)
        yield run
    finally:
        if run.poll() is None:
            run.send_signal(signal.SIGCONT)
            run.kill()
            run.wait(timeout=30)


def test_dask_cluster_on_loopback_survives_a_dying_worker(tmp_path: Path) -> None:
    port = free_port()
    address = f"tcp://127.0.0.1:{port}"
    worker = worker_command(address)
    with processes(scheduler_command(port), worker, worker, log=tmp_path) as (_, first, _second):
        wait_for_workers(address, 2)
        path = tmp_path / "survey.sqlite3"
        # Classic deals 1-24 on the two workers. A result the dead worker still
        # held may be fetched in vain until a connect timeout (30 s by
        # default), then recomputed: loopback needs far less.
        env = {**os.environ, "DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT": "3s"}
        survey_run = subprocess.Popen(
            survey(path, "1-24", "--scheduler", address, *SLOW, variants=("classic",)),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
        try:
            wait_for_rows(path, 1, variant="classic")
            assert survey_run.poll() is None, "the worker should die mid-survey"
            os.killpg(first.pid, signal.SIGKILL)  # a machine of the cluster goes away
            out, err = survey_run.communicate(timeout=100)
        finally:
            if survey_run.poll() is None:
                survey_run.kill()
        assert survey_run.returncode == 0, err
        assert "24 deals solved" in out
    check_complete(path, range(1, 25), "classic")


def test_dask_worker_joining_mid_survey_gets_deals(tmp_path: Path) -> None:
    """A second worker started while a survey runs on one is given deals.

    The survey is frozen (SIGSTOP) from its first stored result until the new
    worker has joined: however slow the machine, most deals are then still to
    do, and no timing decides the outcome.
    """
    from distributed import Client

    port = free_port()
    address = f"tcp://127.0.0.1:{port}"
    path = tmp_path / "survey.sqlite3"
    deals = range(1, 121)  # classic deals: some ten seconds of work for one worker
    (tmp_path / "joining").mkdir()
    with processes(scheduler_command(port), worker_command(address), log=tmp_path):
        wait_for_workers(address, 1)
        with Client(address, timeout="30s") as client:
            before = set(client.scheduler_info()["workers"])
            # Frozen while the second worker starts, so that it joins with
            # most deals still to do however slow the machine is.
            with (
                frozen_survey(path, address, deals) as run,
                processes(worker_command(address), log=tmp_path / "joining"),
            ):
                wait_for_workers(address, 2)
                run.send_signal(signal.SIGCONT)
                out, err = run.communicate(timeout=100)
                (joined,) = set(client.scheduler_info()["workers"]) - before
                executed = client.run(
                    lambda dask_worker: dask_worker.state.executed_count,
                    workers=[joined],
                )[joined]
    assert run.returncode == 0, err
    assert f"{len(deals)} deals solved" in out
    check_complete(path, deals, "classic")
    # Only the survey's deals run on this cluster: each task the new worker
    # executed is a deal it solved.
    assert executed > 0, "the worker that joined got no deals"


@pytest.mark.timeout(300)
def test_dask_scheduler_dying_mid_survey_is_one_line_and_keeps_results(tmp_path: Path) -> None:
    """A scheduler killed mid-survey: exit 2 with one line, the stored results stay.

    The survey is frozen (SIGSTOP) from its first stored result until the
    scheduler is dead, so that it learns of the loss mid-way however slow the
    machine is. A rerun on a new cluster then does every other deal once.
    """
    path = tmp_path / "survey.sqlite3"
    deals = range(1, 41)
    port = free_port()
    address = f"tcp://127.0.0.1:{port}"
    (tmp_path / "first").mkdir()
    cluster = (scheduler_command(port), worker_command(address))
    with processes(*cluster, log=tmp_path / "first") as (scheduler, _worker):
        wait_for_workers(address, 1)
        with frozen_survey(path, address, deals) as run:
            os.killpg(scheduler.pid, signal.SIGKILL)
            scheduler.wait(timeout=30)
            run.send_signal(signal.SIGCONT)
            out, err = run.communicate(timeout=100)
    assert run.returncode == 2, err
    assert "Traceback" not in err
    # Besides the survey's opening line, only the error, in one line.
    lines = [line for line in err.splitlines() if line.strip() and not line.startswith("survey ")]
    assert len(lines) == 1, err
    stored = rows(path, "classic")
    assert 1 <= len(stored) < len(deals)
    assert len({deal for deal, *_ in stored}) == len(stored)
    (message,) = lines
    assert message.startswith(f"milligan survey: error: lost the Dask scheduler at {address}")
    assert f"the {len(stored)} result" in message
    assert message.endswith("run the same command again to resume")
    assert "deals solved" not in out

    # The same command against a new scheduler and worker does the rest.
    port = free_port()
    address = f"tcp://127.0.0.1:{port}"
    (tmp_path / "second").mkdir()
    with processes(scheduler_command(port), worker_command(address), log=tmp_path / "second"):
        wait_for_workers(address, 1)
        again = subprocess.run(
            survey(path, "1-40", "--scheduler", address, *SLOW, variants=("classic",)),
            capture_output=True,
            text=True,
            timeout=150,
        )
    assert again.returncode == 0, again.stderr
    assert f"{len(stored)} already decided" in again.stdout
    assert rows(path, "classic")[: len(stored)] == stored  # nothing stored touched or redone
    check_complete(path, deals, "classic")


def without_dask_settings(tmp_path: Path) -> dict[str, str]:
    """The environment, minus every Dask setting (variables and configuration files)."""
    empty = tmp_path / "dask-config"
    empty.mkdir(exist_ok=True)
    env = {name: value for name, value in os.environ.items() if not name.startswith("DASK_")}
    return {**env, "DASK_CONFIG": str(empty), "DASK_ROOT_CONFIG": str(empty)}


def test_dask_tls_address_without_tls_settings_is_one_line(tmp_path: Path) -> None:
    path = tmp_path / "survey.sqlite3"
    with ResultStore(path) as store:
        store.add(Result("one-deck", 7, Limits(20.0, 2000, 200), "lost", 0.1, 10))
    before = rows(path)
    address = f"tls://127.0.0.1:{free_port()}"  # nobody listening, and no TLS settings
    run = subprocess.run(
        survey(path, "1-3", "--scheduler", address),
        capture_output=True,
        text=True,
        timeout=100,
        env=without_dask_settings(tmp_path),
    )
    assert run.returncode == 2, run.stderr
    assert "Traceback" not in run.stderr
    (line,) = run.stderr.splitlines()
    assert line.startswith(f"milligan survey: error: cannot reach the Dask scheduler at {address}")
    assert "TLS settings" in line and "DASK_DISTRIBUTED__COMM__TLS__" in line
    assert rows(path) == before


@pytest.mark.parametrize("address", ["foo://127.0.0.1:8786", "127.0.0.1", "inproc://x"])
def test_dask_bad_scheduler_address_is_one_line(tmp_path: Path, address: str) -> None:
    run = subprocess.run(
        survey(tmp_path / "survey.sqlite3", "1-3", "--scheduler", address),
        capture_output=True,
        text=True,
        timeout=100,
    )
    assert run.returncode == 2, run.stderr
    assert "Traceback" not in run.stderr
    (line,) = run.stderr.splitlines()
    assert line.startswith(f"milligan survey: error: cannot reach the Dask scheduler at {address}:")


class FakeClient:
    """A Dask client of which only the cluster's threads are asked."""

    def __init__(self) -> None:
        self.threads = {"tcp://10.0.0.1:40001": 1}

    def nthreads(self) -> dict[str, int]:
        return dict(self.threads)


def test_dask_window_follows_workers_joining_and_leaving(monkeypatch: pytest.MonkeyPatch) -> None:
    from milligan.survey import runner

    now = [100.0]
    monkeypatch.setattr(runner, "time", types.SimpleNamespace(monotonic=lambda: now[0]))
    client = FakeClient()
    engine = runner.DaskEngine(client=client)
    assert engine.slots() == 1
    client.threads["tcp://10.0.0.2:40002"] = 4  # a machine joins
    assert engine.slots() == 1  # not asked again yet
    now[0] += runner.SLOTS_REFRESH
    assert engine.slots() == 5
    client.threads.clear()  # every worker gone: one task still waits for the next
    now[0] += runner.SLOTS_REFRESH
    assert engine.slots() == 1
    engine.close()  # not its own client: left open


def test_resume_after_kill(tmp_path: Path) -> None:
    import psutil

    path = tmp_path / "survey.sqlite3"
    command = survey(path, "1-40", "--workers", "2", *SLOW, variants=("classic",))
    first = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        wait_for_rows(path, 2, variant="classic")
        workers = psutil.Process(first.pid).children(recursive=True)
        first.kill()  # SIGKILL: no chance to clean up
        first.wait(timeout=30)
    finally:
        if first.poll() is None:
            first.kill()
    # The workers die with their parent.
    _gone, alive = psutil.wait_procs(workers, timeout=30)
    assert not alive
    before = rows(path, "classic")
    assert 2 <= len(before) < 40, "the kill should come mid-way"
    assert len({deal for deal, *_ in before}) == len(before)

    second = subprocess.run(command, capture_output=True, text=True, timeout=100)
    assert second.returncode == 0, second.stderr
    assert f"{len(before)} already decided" in second.stdout
    after = rows(path, "classic")
    assert after[: len(before)] == before  # nothing stored was touched or redone
    check_complete(path, range(1, 41), "classic")


def test_interrupt_stops_workers_and_keeps_results(tmp_path: Path) -> None:
    import psutil

    path = tmp_path / "survey.sqlite3"
    run = subprocess.Popen(
        survey(path, "1-40", "--workers", "2", *SLOW, variants=("classic",)),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        wait_for_rows(path, 1, variant="classic")
        workers = psutil.Process(run.pid).children(recursive=True)
        run.send_signal(signal.SIGINT)
        _out, err = run.communicate(timeout=30)
    finally:
        if run.poll() is None:
            run.kill()
    assert run.returncode == 130
    assert "Run the same command again to resume" in err
    _gone, alive = psutil.wait_procs(workers, timeout=30)
    assert not alive
    stored = rows(path, "classic")
    assert len({deal for deal, *_ in stored}) == len(stored) >= 1
    assert len(stored) < 40


class FakeEngine:
    """An engine whose workers die on some deals: tests the survey loop's bookkeeping."""

    def __init__(self, deaths: dict[int, int], broken: set[int]) -> None:
        self.deaths = deaths  # deal -> how many times its worker dies
        self.broken = broken  # deals whose solver raises
        self.submitted: list[int] = []
        self.order: list[tuple[str, int]] = []
        self.closed: bool | None = None

    def slots(self) -> int:
        return 2

    def memory_per_slot_mb(self) -> int | None:
        return None

    def submit(self, task: Task) -> Task:
        self.submitted.append(task.deal)
        self.order.append((task.variant, task.deal))
        return task

    def wait(self, handles: Sequence[Any], timeout: float) -> list[tuple[Any, Any]]:
        task = handles[0]
        if self.deaths.get(task.deal, 0) > 0:
            self.deaths[task.deal] -= 1
            return [(task, Lost("worker died"))]
        if task.deal in self.broken:
            return [(task, RuntimeError("solver bug"))]
        return [(task, Result(task.variant, task.deal, task.limits, "lost", 0.1, 10))]

    def close(self, abort: bool = False) -> None:
        self.closed = abort


def test_lost_deals_are_resubmitted_and_failures_not_stored(tmp_path: Path) -> None:
    engine = FakeEngine(deaths={2: 1, 3: 5}, broken={4})
    with ResultStore(tmp_path / "r.sqlite3") as store:
        progress = run_survey(store, "one-deck", range(1, 6), Limits(1.0), engine)
        stored = sorted(r.deal for r in store.attempts())
    assert engine.submitted.count(2) == 2  # lost once, then solved
    assert engine.submitted.count(3) == 3  # lost three times: given up
    assert stored == [1, 2, 5]
    assert (progress.lost, progress.failed) == (3, 2)
    assert any("deal 4: RuntimeError: solver bug" in f for f in progress.failures)
    assert engine.closed is False


def test_several_variants_go_deal_by_deal(tmp_path: Path) -> None:
    engine = FakeEngine(deaths={}, broken=set())
    with ResultStore(tmp_path / "r.sqlite3") as store:
        store.add(Result("classic", 2, Limits(1.0), "won", 0.1, 10))
        progress = run_survey(store, ["classic", "strict"], [3, 2, 1], Limits(1.0), engine)
    assert engine.order == [
        ("classic", 3),
        ("strict", 3),
        ("strict", 2),
        ("classic", 1),
        ("strict", 1),
    ]
    assert (progress.total, progress.skipped, progress.lost) == (5, 1, 5)


def test_a_run_says_when_attempts_were_starved(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # The solver's side is a stand-in: an attempt out of wall time after 0.1 s of CPU.
    from milligan.cli import main
    from milligan.survey import runner

    def starved_run(
        store: ResultStore, variants: Any, deals: Any, limits: Limits, engine: Any, **options: Any
    ) -> runner.SurveyProgress:
        progress = runner.SurveyProgress(total=1, skipped=0)
        attempt = Result("one-deck", 5, limits, "unknown", 1.0, 10, cpu_seconds=0.1)
        store.add(attempt)
        progress.count(attempt)
        options["on_progress"](progress, attempt)
        return progress

    monkeypatch.setattr(runner, "run_survey", starved_run)
    monkeypatch.setattr(signal, "signal", lambda *_: None)
    results = tmp_path / "r.sqlite3"
    argv = ["survey", "run", "--variant", "one-deck", "--deals", "5", "--timeout", "1"]
    assert main([*argv, "--results", str(results), "--quiet"]) == 0
    assert "1 unknown after less than half a core" in capsys.readouterr().out
    # ... and the rerun tries that deal again.
    with ResultStore(results) as store:
        (attempt,) = store.attempts()
        assert attempt.starved
        assert runner.pending_deals(store, "one-deck", [5], attempt.limits) == ([5], 0)


def test_players_games_are_stored_with_their_settings_and_resume(tmp_path: Path) -> None:
    """``survey run --player``: real games in the store, replayable, keyed by settings."""
    path = tmp_path / "plays.sqlite3"
    fair = ("--player", "fair", "--samples", "2", "--max-positions", "20000", "--workers", "2")
    common = ("--variant", "classic", "--variant", "spanish", "--results", str(path))
    first = run_survey_command("run", *common, "--deals", "1-2", *fair, timeout=300)
    assert first.returncode == 0, first.stderr
    greedy = run_survey_command(
        "run", *common, "--deals", "1-3", "--player", "greedy", "--workers", "1", timeout=120
    )
    assert greedy.returncode == 0, greedy.stderr
    with ResultStore(path) as store:
        plays = store.plays()
    assert sorted((p.variant, p.player, p.deal) for p in plays) == sorted(
        [(v, "fair", d) for v in ("classic", "spanish") for d in (1, 2)]
        + [(v, "greedy", d) for v in ("classic", "spanish") for d in (1, 2, 3)]
    )
    settings = {(p.variant, p.player): p.settings for p in plays}
    assert settings[("classic", "fair")] == '{"max_positions":20000,"samples":2,"seed":0}'
    assert settings[("spanish", "fair")] == settings[("classic", "fair")]  # same command
    assert settings[("spanish", "greedy")] == "{}"
    for play in plays:
        game = Game.new(Variant.from_key(play.variant), play.deal)
        for move in play.moves:
            game.play(move)
        assert (game.status == "won") == (play.result == "won"), play
    # The same command again finds every game played; one more deal is one more game.
    again = run_survey_command("run", *common, "--deals", "1-3", *fair, timeout=300)
    assert again.returncode == 0, again.stderr
    with ResultStore(path) as store:
        fair_deals = sorted((p.variant, p.deal) for p in store.plays(player="fair"))
    assert fair_deals == [(v, d) for v in ("classic", "spanish") for d in (1, 2, 3)]
    report = run_survey_command("report", "--results", str(path))
    assert report.returncode == 0, report.stderr
    assert '{"max_positions":20000,"samples":2,"seed":0}' in report.stdout
