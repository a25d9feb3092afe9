"""Load benchmark of the game server: simulated players on loopback.

Starts ``milligan serve`` as a subprocess (a fresh SQLite file, or a
throwaway PostgreSQL server with ``--postgres``) and lets N players play
at once. Each player starts a random classic game and plays legal moves,
thinking between moves (exponential, one second on average, as people do);
a finished game, or one stuck in a reprieve, is undone or replaced. For
N = 10, 100 and 300 it prints the moves per second the server committed and
the p50 and p99 latency a player saw; then the saturation throughput:
players with no think time at all.

    python bench/web.py                  # about 90 seconds
    python bench/web.py --seconds 5 --players 10,100 --saturation 8
"""

from __future__ import annotations

import argparse
import asyncio
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

import httpx

from milligan.store.testing import TemporaryPostgres, free_port


@dataclass
class Tally:
    """What the players measured during the window."""

    latencies: list[float] = field(default_factory=list)
    moves: int = 0
    errors: int = 0


def start_server(database: str) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "milligan.cli", "serve", "--port", str(port),
         "--database", database],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            httpx.get(f"{url}/api/variants", timeout=1).raise_for_status()
            return process, url
        except httpx.HTTPError:
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


async def player(
    transport: httpx.AsyncHTTPTransport,
    url: str,
    think: float,
    start: float,
    begin: float,
    end: float,
    tally: Tally,
    seed: int,
) -> None:
    rng = random.Random(seed)
    # One client (one cookie jar: one player) each, over a shared connection pool:
    # a client of its own would build an SSL context, which takes long.
    client = httpx.AsyncClient(base_url=url, timeout=30, transport=transport)
    await asyncio.sleep(max(0.0, start - time.monotonic()))
    game = (await client.post("/api/games", json={"variant": "classic"})).json()
    while True:
        if think:
            await asyncio.sleep(rng.expovariate(1 / think))
        if time.monotonic() >= end:
            return
        if game["status"] != "playing" and not game["can_undo"]:
            game = (await client.post("/api/games", json={"variant": "classic"})).json()
            continue
        path, body = choose(game, rng)
        sent = time.monotonic()
        answer = await client.post(path, json=body)
        done = time.monotonic()
        if begin <= sent and done <= end:
            if answer.status_code == 200:
                tally.moves += 1
                tally.latencies.append(done - sent)
            else:
                tally.errors += 1
        if answer.status_code == 200:
            game = answer.json()
        else:
            game = (await client.get(f"/api/games/{game['id']}")).json()


async def run(url: str, players: int, think: float, seconds: float) -> tuple[Tally, float]:
    tally = Tally()
    now = time.monotonic()
    ramp = min(2.0, think) if think else 0.5
    begin = now + ramp + 1.0  # measure once everyone is playing
    end = begin + seconds
    limits = httpx.Limits(max_connections=players, max_keepalive_connections=players)
    transport = httpx.AsyncHTTPTransport(limits=limits)
    tasks = [
        player(transport, url, think, now + ramp * i / players, begin, end, tally, seed=i)
        for i in range(players)
    ]
    await asyncio.gather(*tasks)
    await transport.aclose()
    return tally, seconds


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
    parser.add_argument("--saturation", type=int, default=16,
                        help="players with no think time (0 to skip)")
    parser.add_argument("--postgres", action="store_true",
                        help="use a throwaway PostgreSQL server instead of a SQLite file")
    args = parser.parse_args()

    with ExitStack() as stack:
        if args.postgres:
            database = stack.enter_context(TemporaryPostgres(database="bench")).url
        else:
            folder = stack.enter_context(tempfile.TemporaryDirectory())
            database = str(Path(folder) / "bench.sqlite3")
        process, url = start_server(database)
        stack.callback(process.wait)
        stack.callback(process.terminate)
        backend = "PostgreSQL" if args.postgres else "SQLite (WAL, synchronous=FULL)"
        load = ", ".join(f"{value:.1f}" for value in os.getloadavg())
        print(f"milligan serve on {url}, {backend}; {os.cpu_count()} cores, load average "
              f"{load} before the run; {args.seconds:g} s per run", flush=True)
        for count in (int(text) for text in args.players.split(",") if text):
            tally, seconds = asyncio.run(run(url, count, args.think, args.seconds))
            report(f"{count} players, think {args.think:g} s", tally, seconds)
        if args.saturation:
            tally, seconds = asyncio.run(run(url, args.saturation, 0.0, args.seconds))
            report(f"{args.saturation} players, no think", tally, seconds)
        load = ", ".join(f"{value:.1f}" for value in os.getloadavg())
        print(f"load average {load} after the run", flush=True)


if __name__ == "__main__":
    main()
