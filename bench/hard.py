"""Hard deals: where a fixed budget goes, and what wider staged rounds would win.

    python3 bench/hard.py --variant classic --deals 37,40,53 --max-positions 10000000
    python3 bench/hard.py --variant classic --deals 37,40,53 --wider 4000

For each deal: the positions the staged rounds used before their beams ran
out (the rest of the budget goes to the complete DFS), and the verdict of
the whole search (``compiled.search``, as ``solve`` runs it, without the
shortening).  ``--wider W,...`` appends rounds of those widths (2,000
positions per beam position, both reprieve modes, "cap" only without a
reprieve) after a large budget's rounds (so with --max-positions of
5,000,000 or more), for this run only: nothing is written.
``--add MODE:WIDTH:PER:K=V,...`` appends one round with its own weights.
``--timeout S`` gives each deal S seconds and no position limit, with the
survey's 512 MB (``--max-memory MB`` for another table size), and
``--staged-share F`` changes the staged rounds' share of the budget
(``compiled.STAGED_SHARE``; the rest goes to the complete DFS).
``--no-wide`` runs the small budgets' rounds (``STAGED_ROUNDS``) instead
of a large budget's (``LARGE_ROUNDS``), to measure what those win, and
``--previous`` the large budgets' rounds before 1 December 2026 (the
small budgets' six, then the same width under the two other scores, then
width 4,000), and ``--no-narrow`` the large budgets' rounds without the
narrow rounds' extra scores (``compiled.NARROW_SCORES``, since 1 December 2026)
and without re-rooting. ``--reroot N`` re-roots the narrowest rounds of the
first N scores of ``compiled.SCORES`` only (0: none; since 2 December 2026
the solver re-roots all of them, ``compiled.reroot``):

    python3 bench/hard.py --variant classic --deals 37,40,53 --no-wide
    python3 bench/hard.py --variant classic --deals 37,40,53 --previous
    python3 bench/hard.py --variant classic --deals 37,40,53 --no-narrow
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

from milligan.game import Game
from milligan.position import Position
from milligan.solver import compiled
from milligan.variants import Variant


def search(
    position: Position,
    max_positions: int | None,
    timeout: float | None = None,
    memory_mb: int = 256,
) -> tuple[str, int, int]:
    """``compiled.search`` from ``position``: (verdict, positions, positions of the staged rounds).

    The staged rounds' share is what the budget had spent when the search
    handed over to the complete DFS (all of it when a round won).
    """
    staged: list[int] = []
    complete = compiled.complete

    def handover(arguments: dict[str, object], table: int, budget: compiled.Budget) -> Any:
        staged.append(budget.spent)
        return complete(arguments, table, budget)

    # re-rooting runs searches of its own, and their hand-overs do not count
    reroot = compiled.reroot
    inside = []

    def rerooting(*args: Any) -> Any:
        inside.append(True)
        try:
            return reroot(*args)
        finally:
            inside.pop()

    def outer(arguments: dict[str, object], table: int, budget: compiled.Budget) -> Any:
        return complete(arguments, table, budget) if inside else handover(arguments, table, budget)

    compiled.complete = outer
    compiled.reroot = rerooting
    try:
        verdict, _, positions = compiled.search(
            position,
            timeout=timeout,
            max_positions=max_positions,
            max_memory_mb=memory_mb,
            progress=None,
        )
    finally:
        compiled.complete = complete
        compiled.reroot = reroot
    return verdict, positions, staged[0] if staged else positions


#: The rounds a large budget ran before 1 December 2026 (``--previous``).
PREVIOUS: tuple[compiled.Round, ...] = (
    compiled.STAGED_ROUNDS
    + tuple(
        compiled.Round(mode, 1500, 2000, weights)
        for weights in compiled.SCORES[1:]
        for mode in ("plan", "cap")
    )
    + (compiled.Round("plan", 4000, 2000), compiled.Round("cap", 4000, 2000))
)


#: The rounds a large budget ran before NARROW_SCORES (``--no-narrow``).
NO_NARROW: tuple[compiled.Round, ...] = compiled.large_rounds(narrow_scores=(), reroot=())


def round_of(text: str) -> compiled.Round:
    """A round from ``MODE:WIDTH:PER[:K=V,...]``, as ``--add`` takes it."""
    mode, width, per, *rest = text.split(":")
    weights = dict(compiled.WEIGHTS)
    for pair in filter(None, ",".join(rest).split(",")):
        name, value = pair.split("=")
        if name not in weights:
            raise SystemExit(f"unknown weight {name!r}: {', '.join(weights)}")
        weights[name] = int(value)
    return compiled.Round(mode, int(width), int(per), weights)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="classic")
    parser.add_argument("--deals", required=True, help="comma-separated deal numbers")
    parser.add_argument("--max-positions", type=int, default=10_000_000)
    parser.add_argument("--wider", default="", help="widths of extra rounds, e.g. 4000")
    parser.add_argument(
        "--add",
        action="append",
        default=[],
        metavar="MODE:WIDTH:PER[:K=V,...]",
        help="append one round, e.g. cap:1500:2000:w_found=0,w_break=16 "
        "(weights not given keep the solver's); repeatable",
    )
    parser.add_argument(
        "--timeout",
        type=float,
        help="seconds per deal with no position limit instead (as the survey's time passes)",
    )
    parser.add_argument(
        "--staged-share",
        type=float,
        help=f"the staged rounds' share of the budget (default {compiled.STAGED_SHARE})",
    )
    parser.add_argument(
        "--max-memory",
        type=int,
        metavar="MB",
        help="the position table of each round (default 512 with --timeout, as the survey's "
        "time passes, else 256)",
    )
    order = parser.add_mutually_exclusive_group()
    order.add_argument(
        "--no-wide",
        action="store_true",
        help="a large budget runs the small budgets' rounds (compiled.STAGED_ROUNDS)",
    )
    order.add_argument(
        "--previous",
        action="store_true",
        help="a large budget runs the rounds it ran before 1 December 2026",
    )
    order.add_argument(
        "--no-narrow",
        action="store_true",
        help="a large budget runs its rounds without compiled.NARROW_SCORES",
    )
    parser.add_argument(
        "--reroot",
        type=int,
        metavar="N",
        help="re-root the narrowest rounds of the first N scores of compiled.SCORES only "
        f"(0: none; the solver re-roots those of all {len(compiled.SCORES)})",
    )
    args = parser.parse_args()
    if not compiled.AVAILABLE:
        raise SystemExit("the compiled core is needed (pip install . with a C compiler)")
    deals = [int(text) for text in args.deals.split(",")]
    if args.no_wide:
        compiled.LARGE_ROUNDS = compiled.STAGED_ROUNDS
    elif args.previous:
        compiled.LARGE_ROUNDS = PREVIOUS
    elif args.no_narrow:
        compiled.LARGE_ROUNDS = NO_NARROW
    elif args.reroot is not None:
        compiled.LARGE_ROUNDS = compiled.large_rounds(reroot=compiled.SCORES[: args.reroot])
    if args.wider:
        extra = [int(text) for text in args.wider.split(",")]
        compiled.LARGE_ROUNDS = compiled.LARGE_ROUNDS + tuple(
            compiled.Round(mode, width, 2000) for width in extra for mode in ("plan", "cap")
        )
    # with --timeout, as the survey's time passes: no position limit, 512 MB
    budget: int | None = None if args.timeout else args.max_positions
    memory_mb = args.max_memory or (512 if args.timeout else 256)
    if args.staged_share is not None:
        compiled.STAGED_SHARE = args.staged_share
    for text in args.add:
        compiled.LARGE_ROUNDS = compiled.LARGE_ROUNDS + (round_of(text),)
    used = []
    won = []
    began = time.process_time()
    for deal in deals:
        verdict, positions, spent = search(
            Game.new(args.variant, deal).position, budget, args.timeout or None, memory_mb
        )
        used.append(spent)
        if verdict == "won":
            won.append(deal)
        print(
            f"{args.variant} {deal}: staged rounds {spent:,} positions; {verdict} at {positions:,}",
            flush=True,
        )
    rounds = len(compiled.staged_rounds(Variant.named(args.variant), budget))
    limit = f"{args.timeout:g} s" if args.timeout else f"{args.max_positions:,} positions"
    print(
        f"rounds {rounds}; won {len(won)} of {len(deals)} "
        f"({', '.join(map(str, won)) or 'none'}); staged rounds used a median of "
        f"{statistics.median(used):,.0f} positions (limit {limit}, staged share "
        f"{compiled.STAGED_SHARE:g}); {time.process_time() - began:.0f} CPU s"
    )


if __name__ == "__main__":
    main()
