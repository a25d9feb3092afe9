"""Narrow rounds under many scores: which deals one width-100 round wins under each.

    python3 bench/scores.py --variant strict --deals 23,24,37
    python3 bench/scores.py --variant strict --study checked
    python3 bench/scores.py --variant classic --study picked --score 16/32/16/1 --each

A large budget's first rounds are width-100 beams (``compiled.LARGE_ROUNDS``),
and a beam that dies out under one stage score often lives under another.
For each deal this runs one such round (1,000 positions per beam position,
with the reprieve planner and then with capped free moves where the variant
has a reprieve) under each score in turn: by default ``compiled.SCORES``
then ``compiled.NARROW_SCORES``, or the ``--score`` options, written
``w_found/w_break/w_empty/w_depth``. It stops at the first score that wins
a deal, so the count of a score is what it adds to the scores before it;
``--each`` runs every score on every deal instead, for what each wins alone.

``--study picked`` and ``--study checked`` take the variant's deals from
``docs/data/narrow-scores.json``: the deals the narrow scores were chosen
on and the deals they were checked on (docs/BENCHMARKS.md, "More scores at
the narrowest width"). Nothing is written; positions are counted, not seconds.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Mapping
from pathlib import Path

from milligan.position import Position
from milligan.solver import compiled
from milligan.variants import Variant

STUDY = Path(__file__).resolve().parent.parent / "docs" / "data" / "narrow-scores.json"
#: The narrowest round, where compiled.NARROW_SCORES run: width 100, 1,000 positions each.
WIDTH, PER_POSITION = compiled.STAGED_ROUNDS[0].width, compiled.STAGED_ROUNDS[0].per_position
#: A round's own position cap; a width-100 round of 13 stages needs about 1.3M.
ROUND_LIMIT = 3_000_000
NAMES = ("w_found", "w_break", "w_empty", "w_depth")


def score_of(text: str) -> dict[str, int]:
    """A score from ``F/B/E/D`` (cards up, breaks, empty columns, depth)."""
    values = text.split("/")
    if len(values) != len(NAMES):
        raise argparse.ArgumentTypeError(f"a score is {'/'.join(NAMES)}, four integers: {text!r}")
    try:
        return dict(zip(NAMES, map(int, values), strict=True))
    except ValueError:
        raise argparse.ArgumentTypeError(f"not four integers: {text!r}") from None


def label(weights: Mapping[str, int]) -> str:
    return "/".join(str(weights[name]) for name in NAMES)


def wins(start: Position, weights: Mapping[str, int], modes: tuple[str, ...]) -> tuple[bool, int]:
    """Whether one width-100 round under ``weights`` wins from ``start``, and its positions."""
    spent = 0
    for mode in modes:
        core = compiled.new_core(start, 256)
        verdict, _ = compiled.staged(
            core, mode, WIDTH, PER_POSITION, ROUND_LIMIT, -1.0, lambda p, s: None, weights
        )
        spent += int(core.positions)
        del core
        if verdict == "won":
            return True, spent
    return False, spent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="classic")
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--deals", help="comma-separated deal numbers")
    source.add_argument("--study", choices=("picked", "checked"), help="a list of " + STUDY.name)
    parser.add_argument(
        "--score",
        action="append",
        type=score_of,
        metavar="F/B/E/D",
        help="a score to try, in order (repeatable; default SCORES then NARROW_SCORES)",
    )
    parser.add_argument("--each", action="store_true", help="run every score on every deal")
    args = parser.parse_args()
    if not compiled.AVAILABLE:
        raise SystemExit("the compiled core is needed (pip install . with a C compiler)")
    variant = Variant.named(args.variant)
    if args.study:
        lists = json.loads(STUDY.read_text())[args.study]
        if args.variant not in lists:
            raise SystemExit(f"{STUDY.name} has no {args.study} list for {args.variant}")
        deals = [int(deal) for deal in lists[args.variant]]
    else:
        deals = [int(text) for text in args.deals.split(",")]
    scores = args.score or [dict(w) for w in compiled.SCORES + compiled.NARROW_SCORES]
    modes = ("plan", "cap") if variant.reprieve != "none" else ("cap",)
    won: list[list[int]] = [[] for _ in scores]
    positions = 0
    began = time.process_time()
    for deal in deals:
        start = Position.deal(variant, deal)
        by: list[str] = []
        for index, weights in enumerate(scores):
            won_here, spent = wins(start, weights, modes)
            positions += spent
            if won_here:
                won[index].append(deal)
                by.append(label(weights))
                if not args.each:
                    break
        verdict = "won by " + ", ".join(by) if by else "unknown"
        print(f"{args.variant} {deal}: {verdict}", flush=True)
    verb = "won" if args.each else "added"
    for weights, deals_won in zip(scores, won, strict=True):
        print(f"score {label(weights)}: {verb} {len(deals_won)} ({', '.join(map(str, deals_won))})")
    together = len({deal for deals_won in won for deal in deals_won})
    print(
        f"{args.variant}: {together} of {len(deals)} won by some score at width {WIDTH}; "
        f"{positions:,} positions, {time.process_time() - began:.0f} CPU s"
    )


if __name__ == "__main__":
    main()
