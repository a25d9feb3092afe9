"""Hint latency as a player meets it: Hint pressed over and over on a real server.

Starts ``milligan serve`` (a fresh SQLite file, the server's default hint
budget: the fair player's 16 samples and 2,000,000 positions a decision) and, for each deal,
creates a game through the API, asks for a hint, plays the hinted move, and
asks again, until the game ends or ``--moves`` moves are played. It prints
the hint latency the client saw (p50, p95, max), how many hints were new
decisions (the rest follow the plan in force) and their own p95 (what a
player who asks only now and then waits), and how the games ended.

    python bench/hints.py                       # classic deals 1-10
    python bench/hints.py --variant spanish --deals 1-5 --moves 100
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).parent))
from web import percentile, start_server


def play(client: httpx.Client, variant: str, deal: int, moves: int) -> tuple[list[float], str]:
    """Follow the hints on one deal: the latency of each hint, and how the game ended."""
    game = client.post("/api/games", json={"variant": variant, "deal": deal}).json()
    base = f"/api/games/{game['id']}"
    latencies: list[float] = []
    for _ in range(moves):
        if game["status"] != "playing":
            break
        began = time.perf_counter()
        answer = client.get(f"{base}/hint")
        latencies.append(time.perf_counter() - began)
        answer.raise_for_status()
        move = answer.json()["move"]
        if move is None:
            break
        reply = client.post(f"{base}/moves", json={"move": move, "expect": game["revision"]})
        reply.raise_for_status()
        game = reply.json()
    return latencies, game["status"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", default="classic")
    parser.add_argument("--deals", default="1-10", help="a range, e.g. 1-10")
    parser.add_argument("--moves", type=int, default=400, help="moves per game at most")
    args = parser.parse_args()
    first, _, last = args.deals.partition("-")
    deals = range(int(first), int(last or first) + 1)
    with tempfile.TemporaryDirectory() as folder:
        process, port = start_server(str(Path(folder) / "games.sqlite3"))
        try:
            url = f"http://127.0.0.1:{port}"
            latencies: list[float] = []
            ends: dict[str, int] = {}
            with httpx.Client(base_url=url, timeout=120) as client:
                for deal in deals:
                    seen, status = play(client, args.variant, deal, args.moves)
                    latencies += seen
                    ends[status] = ends.get(status, 0) + 1
                    print(
                        f"deal {deal}: {status} after {len(seen)} hints, "
                        f"slowest {max(seen, default=0):.2f} s",
                        flush=True,
                    )
        finally:
            process.terminate()
            process.wait(10)
    slow = [value for value in latencies if value > 0.05]
    print(
        f"{args.variant}, deals {args.deals}: {len(latencies)} hints; p50 "
        f"{1000 * statistics.median(latencies):.0f} ms, p95 "
        f"{1000 * percentile(latencies, 0.95):.0f} ms, max {max(latencies):.2f} s; "
        f"{len(slow)} took over 50 ms (new decisions), their p95 "
        f"{1000 * percentile(slow, 0.95):.0f} ms; games: {ends}"
    )


if __name__ == "__main__":
    main()
