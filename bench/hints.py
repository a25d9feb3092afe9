"""Hint latency as a player meets it: Hint pressed over and over on a real server.

Starts ``milligan serve`` (a fresh SQLite file, the server's default hint
budget: the fair player's 16 samples and 4,000,000 positions a decision, or
2,000,000 where the server may use only one core) and, for each deal,
creates a game through the API, asks for a hint, plays the hinted move, and
asks again, until the game ends or ``--moves`` moves are played. It prints
the hint latency the client saw (p50, p95, max), and the same for the hints
that start a plan (the first of a game, and each after the last move of a
plan): they need a new decision, unless it was made ahead, and they are what
a player who asks only now and then waits. ``--think`` pauses that many
seconds before each of those hints but a game's first, as a player looks
at a new row; the server makes the hint ahead meanwhile (``--no-ahead``
stops it). ``--slowest N`` lists the N slowest hints: the deal, the moves
played before, the cards left in the stock, and whether the hint started a
plan.
``--positions`` sets the server's hint budget, and ``--threads`` the
searches a decision runs at once (by default the machine's cores, at most
four; the hints are the same for any). The server fills its pools of
proven-won random deals when it starts, in a worker at lower priority;
``--no-fill`` keeps it from doing so, to measure the hints alone.

    python bench/hints.py                       # classic deals 1-10
    python bench/hints.py --variant spanish --deals 1-5 --moves 100
    python bench/hints.py --think 1 --positions 4000000
    python bench/hints.py --threads 1               # one search at a time
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import httpx2

from milligan.survey.runner import parse_deals

sys.path.insert(0, str(Path(__file__).parent))
from web import percentile, start_server


@dataclass(frozen=True)
class Asked:
    """One hint: how long it took, and where in which game it was asked."""

    seconds: float
    deal: int
    played: int
    stock: int
    starts: bool


def play(
    client: httpx2.Client, variant: str, deal: int, moves: int, think: float
) -> tuple[list[Asked], str]:
    """Follow the hints on one deal: every hint asked, and how the game ended."""
    game = client.post("/api/games", json={"variant": variant, "deal": deal}).json()
    base = f"/api/games/{game['id']}"
    asked: list[Asked] = []
    starting = True
    for _ in range(moves):
        if game["status"] != "playing":
            break
        if starting and asked:
            time.sleep(think)
        began = time.perf_counter()
        answer = client.get(f"{base}/hint")
        seconds = time.perf_counter() - began
        asked.append(Asked(seconds, deal, len(asked), game["stock"], starting))
        answer.raise_for_status()
        hint = answer.json()
        if hint["move"] is None:
            break
        starting = len(hint["plan"]) <= 1
        played = {"move": hint["move"], "expect": game["revision"]}
        reply = client.post(f"{base}/moves", json=played)
        reply.raise_for_status()
        game = reply.json()
    return asked, game["status"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", default="classic")
    parser.add_argument("--deals", default="1-10", help="a range or a list, e.g. 1-10 or 2,7")
    parser.add_argument("--moves", type=int, default=400, help="moves per game at most")
    parser.add_argument(
        "--think",
        type=float,
        default=0.0,
        help="seconds before each hint that starts a plan (but a game's first)",
    )
    parser.add_argument("--no-ahead", action="store_true", help="the server makes no hint ahead")
    parser.add_argument("--positions", type=int, help="the server's positions a hint decision")
    parser.add_argument("--threads", type=int, help="searches a hint decision runs at once")
    parser.add_argument(
        "--no-fill", action="store_true", help="the server fills no winnable-deal pools"
    )
    parser.add_argument("--slowest", type=int, default=0, help="list the N slowest hints")
    args = parser.parse_args()
    deals = parse_deals(args.deals)
    settings = {
        "hints_ahead": not args.no_ahead,
        "hint_positions": args.positions,
        "hint_threads": args.threads,
        "fill_winnable": not args.no_fill,
    }
    with tempfile.TemporaryDirectory() as folder:
        process, port = start_server(str(Path(folder) / "games.sqlite3"), **settings)
        try:
            url = f"http://127.0.0.1:{port}"
            ends: dict[str, int] = {}
            every: list[Asked] = []
            began = time.perf_counter()
            with httpx2.Client(base_url=url, timeout=120) as client:
                for deal in deals:
                    asked, status = play(client, args.variant, deal, args.moves, args.think)
                    every += asked
                    ends[status] = ends.get(status, 0) + 1
                    print(
                        f"deal {deal}: {status} after {len(asked)} hints, "
                        f"slowest {max((hint.seconds for hint in asked), default=0):.2f} s",
                        flush=True,
                    )
        finally:
            process.terminate()
            process.wait(10)
    wall = time.perf_counter() - began
    latencies = [hint.seconds for hint in every]
    starts = [hint.seconds for hint in every if hint.starts]
    print(
        f"{args.variant}, deals {args.deals}: {len(latencies)} hints; p50 "
        f"{1000 * statistics.median(latencies):.0f} ms, p95 "
        f"{1000 * percentile(latencies, 0.95):.0f} ms, max {max(latencies):.2f} s; "
        f"{len(starts)} started a plan, their p50 {1000 * statistics.median(starts):.0f} ms, "
        f"p95 {1000 * percentile(starts, 0.95):.0f} ms; games: {ends}; "
        f"{wall:.0f} s in all (think {args.think:g} s, "
        f"{'no hints' if args.no_ahead else 'hints'} made ahead, "
        f"{args.positions or 'default'} positions, {args.threads or 'default'} threads"
        f"{', no winnable pools filled' if args.no_fill else ''})"
    )
    for hint in sorted(every, key=lambda hint: -hint.seconds)[: args.slowest]:
        print(
            f"  {hint.seconds:.2f} s: deal {hint.deal}, after {hint.played} moves, "
            f"{hint.stock} cards in the stock{', started a plan' if hint.starts else ''}"
        )


if __name__ == "__main__":
    main()
