"""Load benchmark of the game server: simulated players on loopback.

Starts ``milligan serve`` as a subprocess (a fresh SQLite file, or a
throwaway PostgreSQL server with ``--postgres``) and lets N players play
at once. Each player starts a random classic game and plays legal moves,
thinking between moves (exponential, one second on average, as people do);
a finished game, or one stuck in a reprieve, is undone or replaced. For
N = 10, 100 and 300 it prints the moves per second the server committed and
the p50 and p99 latency a player saw; then the saturation throughput:
players with no think time at all; then a *solution storm*: while 10
players play, 60 other players ask for solutions over and over, each on
its own connection, and the moves' latency is measured again.

    python bench/web.py                  # about 110 seconds
    python bench/web.py --seconds 5 --players 10,100 --saturation 8
    python bench/web.py --players "" --saturation 0 --storm 60   # only the storm
    python bench/web.py --players "" --saturation 0 --storm 0 --imports 1304

``--imports N`` imports N records of about 16 KiB (2,000 moves) as one
player, then prints the server's resident memory before and after, and how
long ``GET /api/stats`` takes.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx2

from milligan.store.testing import TemporaryPostgres, free_port
from milligan.web.settings import ENVIRON, ServerSettings

LONG_RECORD = Path(__file__).parents[1] / "tests" / "web" / "data" / "won-13-columns.json"


@dataclass
class Tally:
    """What the players measured during the window."""

    latencies: list[float] = field(default_factory=list)
    moves: int = 0
    errors: int = 0


def start_server(database: str, **settings: Any) -> tuple[subprocess.Popen[bytes], int]:
    """``milligan serve`` on a free port over ``database``, with ``settings`` changed."""
    port = free_port()
    # No cap on new games: the import scenario is one player importing many.
    environ = ServerSettings(games_per_minute=1_000_000, **settings).to_env()
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "milligan.cli",
            "serve",
            "--port",
            str(port),
            "--database",
            database,
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env={**os.environ, ENVIRON: environ},
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            httpx2.get(f"{url}/api/variants", timeout=1).raise_for_status()
            return process, port
        except httpx2.HTTPError:
            time.sleep(0.1)
    process.kill()
    raise SystemExit("the server did not start")


def choose(game: dict[str, Any], rng: random.Random) -> tuple[str, dict[str, Any]]:
    """The player's next request: a path and its body."""
    base = f"/api/games/{game['id']}"
    legal = game["legal"]
    stuck = game["reprieve"] is not None and "S" not in legal and rng.random() < 0.3
    if not legal or stuck:
        return f"{base}/undo", {"expect": game["revision"]}
    preferred = [m for m in legal if m in ("S", "D") or m.endswith(">F")]
    move = rng.choice(preferred if preferred and rng.random() < 0.6 else legal)
    return f"{base}/moves", {"move": move, "expect": game["revision"]}


class Connection:
    """A minimal HTTP/1.1 client for one player: one keep-alive connection, one cookie.

    Much lighter than a general client, so that on a small machine the
    benchmark measures the server rather than itself.
    """

    def __init__(self, port: int) -> None:
        self.port = port
        self.cookie = ""
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def request(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        data = json.dumps(body).encode() if body is not None else b""
        head = (
            f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\n"
            f"Content-Length: {len(data)}\r\n"
            + ("Content-Type: application/json\r\n" if method == "POST" else "")
            + (f"Cookie: {self.cookie}\r\n" if self.cookie else "")
            + "\r\n"
        ).encode()
        for attempt in range(2):
            try:
                if self.writer is None:
                    self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
                assert self.reader is not None
                self.writer.write(head + data)
                status_line = await self.reader.readline()
                if not status_line:
                    raise ConnectionResetError("closed by the server")
                length = 0
                while (line := await self.reader.readline()) not in (b"\r\n", b""):
                    name, _, value = line.decode("latin-1").partition(":")
                    if name.lower() == "content-length":
                        length = int(value)
                    elif name.lower() == "set-cookie":
                        self.cookie = value.strip().split(";")[0]
                payload = await self.reader.readexactly(length)
                return int(status_line.split()[1]), json.loads(payload)
            except (ConnectionError, asyncio.IncompleteReadError):
                # An idle connection the server closed: reconnect and send again
                # (a move sent twice would be refused as stale, never played twice).
                await self.close()
                if attempt:
                    raise
        raise AssertionError("unreachable")

    async def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
            with contextlib.suppress(ConnectionError):
                await self.writer.wait_closed()
        self.reader = self.writer = None


async def player(
    port: int, think: float, start: float, begin: float, end: float, tally: Tally, seed: int
) -> None:
    rng = random.Random(seed)
    client = Connection(port)
    await asyncio.sleep(max(0.0, start - time.monotonic()))
    _, game = await client.request("POST", "/api/games", {"variant": "classic"})
    while True:
        if think:
            await asyncio.sleep(rng.expovariate(1 / think))
        if time.monotonic() >= end:
            break
        if game["status"] != "playing" and not game["can_undo"]:
            _, game = await client.request("POST", "/api/games", {"variant": "classic"})
            continue
        path, body = choose(game, rng)
        sent = time.monotonic()
        status, answer = await client.request("POST", path, body)
        done = time.monotonic()
        if begin <= sent and done <= end:
            if status == 200:
                tally.moves += 1
                tally.latencies.append(done - sent)
            else:
                tally.errors += 1
        if status == 200:
            game = answer
        else:
            _, game = await client.request("GET", f"/api/games/{game['id']}")
    await client.close()


async def asker(port: int, end: float, answers: dict[int, int], seed: int) -> None:
    """A player who asks for a solution of a fresh deal, again and again, until ``end``."""
    client = Connection(port)
    _, game = await client.request("POST", "/api/games", {"variant": "classic"})
    while time.monotonic() < end:
        status, _ = await client.request("GET", f"/api/games/{game['id']}/solution")
        answers[status] = answers.get(status, 0) + 1
        if status == 200:
            _, game = await client.request("POST", "/api/games", {"variant": "classic"})
        else:
            await asyncio.sleep(1.0)  # refused (429, 503): ask again a little later
    await client.close()


async def run(
    port: int, players: int, think: float, seconds: float, storm: int = 0
) -> tuple[Tally, float, dict[int, int]]:
    tally = Tally()
    answers: dict[int, int] = {}
    now = time.monotonic()
    ramp = min(2.0, think) if think else 0.5
    begin = now + ramp + 1.0  # measure once everyone is playing
    end = begin + seconds
    tasks = [
        player(port, think, now + ramp * i / players, begin, end, tally, seed=i)
        for i in range(players)
    ]
    tasks += [asker(port, end, answers, seed=i) for i in range(storm)]
    await asyncio.gather(*tasks)
    return tally, seconds, answers


def resident_mb(pid: int) -> float:
    """The resident memory of a process, in MB (Linux)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


async def imports(port: int, pid: int, count: int) -> None:
    """Import ``count`` long records as one player; memory before and after, stats time."""
    record = json.loads(LONG_RECORD.read_text())
    while len(json.dumps(record)) > 16 * 1024 - 200:  # under the body limit
        record["moves"] = record["moves"][:-50]
    record.pop("result", None)
    client = Connection(port)
    await client.request("GET", "/api/variants")
    before = resident_mb(pid)
    began = time.monotonic()
    for _ in range(count):
        status, _ = await client.request("POST", "/api/games/import", record)
        assert status == 201, status
    seconds = time.monotonic() - began
    after = resident_mb(pid)
    times = []
    for _ in range(20):
        sent = time.monotonic()
        await client.request("GET", "/api/stats")
        times.append(time.monotonic() - sent)
    await client.close()
    print(
        f"{count} imports of {len(json.dumps(record))} bytes ({len(record['moves'])} moves) "
        f"in {seconds:.1f} s: server RSS {before:.0f} MB before, {after:.0f} MB after; "
        f"GET /api/stats p50 {percentile(times, 0.5) * 1000:.1f} ms",
        flush=True,
    )


def percentile(values: list[float], share: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def report(label: str, tally: Tally, seconds: float) -> None:
    ms = [value * 1000 for value in tally.latencies]
    print(
        f"{label:<28} {tally.moves / seconds:8.1f} moves/s   p50 {percentile(ms, 0.5):6.1f} ms"
        f"   p99 {percentile(ms, 0.99):6.1f} ms   mean {statistics.fmean(ms) if ms else 0:6.1f} ms"
        f"   errors {tally.errors}",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", default="10,100,300", help="player counts (comma-separated)")
    parser.add_argument("--think", type=float, default=1.0, help="mean think time in seconds")
    parser.add_argument("--seconds", type=float, default=15.0, help="measured time per run")
    parser.add_argument(
        "--saturation", type=int, default=16, help="players with no think time (0 to skip)"
    )
    parser.add_argument(
        "--storm",
        type=int,
        default=60,
        help="players asking for solutions while 10 play (0 to skip)",
    )
    parser.add_argument(
        "--imports",
        type=int,
        default=0,
        help="long records to import, to measure memory (0 to skip)",
    )
    parser.add_argument(
        "--postgres",
        action="store_true",
        help="use a throwaway PostgreSQL server instead of a SQLite file",
    )
    args = parser.parse_args()

    with ExitStack() as stack:
        if args.postgres:
            database = stack.enter_context(TemporaryPostgres(database="bench")).url
        else:
            folder = stack.enter_context(tempfile.TemporaryDirectory())
            database = str(Path(folder) / "bench.sqlite3")
        process, port = start_server(database)
        stack.callback(process.wait)
        stack.callback(process.terminate)
        backend = "PostgreSQL" if args.postgres else "SQLite (WAL, synchronous=FULL)"
        load = ", ".join(f"{value:.1f}" for value in os.getloadavg())
        print(
            f"milligan serve on port {port}, {backend}; {os.cpu_count()} cores, load average "
            f"{load} before the run; {args.seconds:g} s per run",
            flush=True,
        )
        for count in (int(text) for text in args.players.split(",") if text):
            tally, seconds, _ = asyncio.run(run(port, count, args.think, args.seconds))
            report(f"{count} players, think {args.think:g} s", tally, seconds)
        if args.saturation:
            tally, seconds, _ = asyncio.run(run(port, args.saturation, 0.0, args.seconds))
            report(f"{args.saturation} players, no think", tally, seconds)
        if args.storm:
            tally, seconds, answers = asyncio.run(
                run(port, 10, args.think, args.seconds, storm=args.storm)
            )
            report(f"10 players, {args.storm} asking", tally, seconds)
            shown = ", ".join(f"{count} × {status}" for status, count in sorted(answers.items()))
            print(f"{'':<28} solution answers: {shown}", flush=True)
        if args.imports:
            asyncio.run(imports(port, process.pid, args.imports))
        load = ", ".join(f"{value:.1f}" for value in os.getloadavg())
        print(f"load average {load} after the run", flush=True)


if __name__ == "__main__":
    main()
