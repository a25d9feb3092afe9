"""How large a proof of loss is, by the rows still in the stock.

    python3 bench/lossproof.py                                  # spanish, 12 games, 0-4 rows left
    python3 bench/lossproof.py --variant classic --rows 0-3 --max-positions 20000000

No two-deck deal has been proven lost from its start. This measures why: it
takes games the fair player did not win (from the committed survey results),
replays each to the moment just after the deal that leaves R rows in the
stock, and runs the complete search (the core's full DFS, every free move of
a reprieve generated: reductions 1-7 of docs/SOLVER.md only) from there with
complete knowledge, for R = 0, 1, 2...  A loss it proves is a real loss; the
number of positions it expanded is the size of that position's reduced game
graph, which is what a proof of the whole deal would have to cover.

Prints one line per game and rows-left, then a summary per R: how many were
proven lost, won, or left unknown at the limit, and the positions of the
proofs (median, max).  The ratio between successive R is the growth per row.
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import statistics
import time
from pathlib import Path

from milligan.moves import Move, MoveKind
from milligan.position import Position
from milligan.solver import compiled
from milligan.variants import Variant

RESULTS = Path(__file__).resolve().parent.parent / "docs" / "data" / "survey.sqlite3"


def lost_games(results: Path, variant: str, count: int) -> list[tuple[int, list[str]]]:
    """The first ``count`` deals (by number) that the fair player did not win, with their moves."""
    with sqlite3.connect(f"file:{results}?mode=ro", uri=True) as db:
        rows = db.execute(
            "SELECT deal, moves FROM plays WHERE variant = ? AND player = 'fair' "
            "AND result != 'won' ORDER BY deal LIMIT ?",
            (variant, count),
        ).fetchall()
    return [(deal, moves.split()) for deal, moves in rows]


def after_deals(variant: Variant, deal: int, moves: list[str]) -> dict[int, Position]:
    """The position just after each deal of the line, keyed by the rows then left in the stock."""
    position = Position.deal(variant, deal)
    found = {}
    for text in moves:
        move = Move.parse(text)
        position = position.apply(move)
        if move.kind is MoveKind.DEAL:
            found[len(position.stock) // variant.columns] = position
    return found


def prove(position: Position, limit: int, memory_mb: int) -> tuple[str, int, float]:
    """The complete DFS from ``position``: (verdict, positions expanded, CPU seconds)."""
    core = compiled.new_core(position, memory_mb)
    began = time.process_time()
    verdict, _ = core.search(limit, -1.0, None, time.monotonic())
    return str(verdict), int(core.positions), time.process_time() - began


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="spanish")
    parser.add_argument("--games", type=int, default=12, help="lost fair games, lowest deals first")
    parser.add_argument("--rows", default="0-4", help="rows left in the stock, e.g. 0-4")
    parser.add_argument("--max-positions", type=int, default=10_000_000)
    parser.add_argument("--max-memory", type=int, default=512, help="MB for the position table")
    parser.add_argument("--results", type=Path, default=RESULTS)
    parser.add_argument("--json", action="store_true", help="also print every search as JSON")
    args = parser.parse_args()
    if not compiled.AVAILABLE:
        raise SystemExit("the compiled core is needed (pip install . with a C compiler)")
    variant = Variant.named(args.variant)
    low, _, high = args.rows.partition("-")
    rows = list(range(int(low), int(high or low) + 1))
    games = lost_games(args.results, args.variant, args.games)
    print(
        f"{args.variant}: {len(games)} games the fair player lost, rows left {args.rows}, "
        f"limit {args.max_positions:,} positions, table {args.max_memory} MB"
    )
    found: dict[int, list[tuple[str, int, float]]] = {r: [] for r in rows}
    for deal, moves in games:
        positions = after_deals(variant, deal, moves)
        cells = []
        for r in rows:
            if r not in positions:
                cells.append(f"{r}: -")
                continue
            verdict, expanded, seconds = prove(positions[r], args.max_positions, args.max_memory)
            found[r].append((verdict, expanded, seconds))
            cells.append(f"{r}: {verdict} {expanded:,}")
            if args.json:
                print(
                    json.dumps(
                        {
                            "deal": deal,
                            "rows_left": r,
                            "verdict": verdict,
                            "positions": expanded,
                            "cpu_seconds": round(seconds, 2),
                        }
                    )
                )
        print(f"deal {deal:>5}  " + "  ".join(cells), flush=True)
    print()
    print(
        "| rows left | searched | lost | won | unknown | proof positions median | max "
        "| positions / CPU s |"
    )
    print("|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        runs = found[r]
        proofs = [n for verdict, n, _ in runs if verdict == "lost"]
        count = {
            v: sum(1 for verdict, _, _ in runs if verdict == v) for v in ("lost", "won", "unknown")
        }
        seconds = sum(s for _, _, s in runs)
        rate = sum(n for _, n, _ in runs) / seconds if seconds else 0.0
        median = f"{statistics.median(proofs):,.0f}" if proofs else "-"
        most = f"{max(proofs):,}" if proofs else "-"
        print(
            f"| {r} | {len(runs)} | {count['lost']} | {count['won']} | {count['unknown']} "
            f"| {median} | {most} | {rate:,.0f} |"
        )


if __name__ == "__main__":
    main()
