"""How far to trust a hint's win chance: the chances shown in the study's games, and the results.

    python3 bench/calibration.py --deals 1-200 --workers 2
    python3 bench/calibration.py --variant strict --deals 1-200 --rows 11,8,5,2
    python3 bench/calibration.py --deals 1-200 --max-positions 2000000   # the browser's budget
    python3 bench/calibration.py --variant spanish --rows 12,9,6,3,1 --dump spanish.jsonl

A hint reports the share of its sampled deals that the complete-knowledge
solver wins after the hinted plan, each sample solved as if its stock were
known.  The player who asked will not know the stock, which makes the
figure lean optimistic; a solve that runs out of positions counts as not
won, which makes it lean the other way.  This measures where it ends up,
on the committed games of the shipped fair player (the ``plays`` table of
``--results``).

Each game is replayed to the decision made just after the deal that leaves
each of ``--rows`` rows in the stock (12 in classic: the opening), and that
decision is made again exactly as the game made it: the same observations,
seed and budget, so the plan is the one the game went on to play and the
chance is the one a hint would have shown there.  The game's own result
says whether the fair player, following those hints, won from there.  The
table groups the decisions by the chance shown and gives the share of them
whose game was won, with a Wilson interval; a second table does the same
by rows left.  With ``--max-positions`` the decision is made at another
budget (the browser's hints take 2,000,000 positions); its plan may then
differ from the one the game played, and the result is still the game's,
so the table says how a hint at that budget would have fared beside a
player at the shipped one.  The Brier score (the mean squared difference
between the chance shown and the result, 0 or 1) is given beside the
score of a hint that always showed the share of games won: lower is
better.  The last column is the share of the decisions' samples whose
solve ran out of positions, which count as not won.

``--dump FILE`` also writes every decision as one JSON object a line
(variant, deal, budget, rows left and in all, samples won and unsettled,
and whether the game was won), the data ``bench/chancefit.py`` fits the
shown chance's correction on.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import NamedTuple

from milligan.game import Game
from milligan.moves import Move, MoveKind
from milligan.solver import fair
from milligan.survey.stats import wilson_interval
from milligan.variants import Variant

sys.path.insert(0, str(Path(__file__).parent))
from resume import shipped_games, study_arguments

#: The groups of the first table: chances shown from ``low`` to ``high`` (in %).
GROUPS = ((0, 0), (1, 24), (25, 49), (50, 74), (75, 99), (100, 100))
#: The columns both tables share after their first.
COLUMNS = "decisions | mean shown | games won from there | Wilson 95% | Brier | samples unsettled |"
RULE = "|---|" + "---:|" * COLUMNS.count("|")


class Decision(NamedTuple):
    """A decision made again, beside the result of its game."""

    shown: float  # the chance shown
    won: bool  # whether the game was won
    unsettled: float  # the share of its samples whose solve ran out of positions


def chances(
    job: tuple[str, int, tuple[str, ...], tuple[int, ...], int, int],
) -> list[tuple[int, int, int, int, bool]]:
    """[(rows left, samples won, unsettled, samples, same plan)] at a game's decisions after deals.

    ``unsettled`` counts the samples whose solve ran out of positions.

    ``same plan`` says whether the decision, made again, chose the moves the
    game went on to play: at the shipped budget it always should, which
    checks that the replay is exact.
    """
    variant, deal, moves, rows, positions, samples = job
    game = Game.new(variant, deal)
    history = [game.position.observe()]
    found: list[tuple[int, int, int, int, bool]] = []
    texts = list(moves)
    for index in range(len(texts) + 1):
        left = game.position.variant.stock_rows(len(game.position.stock))
        after_deal = index == 0 or game.moves[-1].kind is MoveKind.DEAL
        if after_deal and left in rows and left > 0:  # not the endgame
            plan = fair.decide(
                history[-1],
                history[:-1],
                samples=samples,
                seed=len(game.moves),
                max_positions=positions,
            )
            played = tuple(texts[index : index + len(plan.moves)])
            same = played == tuple(str(move) for move in plan.moves)
            found.append((left, plan.wins, plan.unsettled, plan.samples, same))
        if index == len(texts):
            break
        game.play(Move.parse(texts[index]))
        history.append(game.position.observe())
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    study_arguments(parser, "made again")
    parser.add_argument(
        "--rows",
        default="12,10,8,6,4,2,1",
        help="rows left in the stock at the decisions measured (12 in classic: the opening)",
    )
    parser.add_argument("--dump", help="write every decision to this file, one JSON object a line")
    args = parser.parse_args()
    rows = tuple(int(text) for text in args.rows.split(","))
    games = shipped_games(args.results, args.variant, args.deals)
    jobs = [
        (args.variant, deal, moves, rows, args.max_positions, fair.DEFAULT_SAMPLES)
        for deal, _, moves in games
    ]
    with ProcessPoolExecutor(args.workers) as pool:
        measured = list(pool.map(chances, jobs, chunksize=1))
    by_group: dict[tuple[int, int], list[Decision]] = defaultdict(list)
    by_rows: dict[int, list[Decision]] = defaultdict(list)
    decisions: list[Decision] = []
    for (_, result, _), found in zip(games, measured, strict=True):
        for left, wins, unsettled, samples, _ in found:
            decision = Decision(wins / samples, result == "won", unsettled / samples)
            percent = round(100 * decision.shown)
            by_group[next(g for g in GROUPS if g[0] <= percent <= g[1])].append(decision)
            by_rows[left].append(decision)
            decisions.append(decision)
    same = sum(1 for found in measured for *_, alike in found if alike)
    if args.dump:
        _dump(args.dump, args.variant, args.max_positions, games, measured)
    print(
        f"{args.variant}, {len(games)} games of deals {args.deals}, "
        f"{len(decisions)} decisions at {args.rows} rows left, "
        f"{args.max_positions:,} positions each "
        f"({same} made again with the plan the game played)"
    )
    print(f"| chance shown | {COLUMNS}")
    print(RULE)
    for group in GROUPS:
        label = f"{group[0]}–{group[1]}%" if group[0] != group[1] else f"{group[0]}%"
        _print(label, by_group[group])
    share = sum(decision.won for decision in decisions) / len(decisions)
    print(
        f"Brier score {_brier(decisions):.3f}; always showing the share of games won "
        f"({100 * share:.0f}%) would score {share * (1 - share):.3f}"
    )
    print()
    print(f"| rows left | {COLUMNS}")
    print(RULE)
    for left in sorted(by_rows, reverse=True):
        _print(str(left), by_rows[left])


def _dump(
    path: str,
    variant: str,
    positions: int,
    games: list[tuple[int, str, tuple[str, ...]]],
    measured: list[list[tuple[int, int, int, int, bool]]],
) -> None:
    """Write every decision of ``measured`` to ``path`` as JSON lines."""
    total = Variant.named(variant).stock_rows()
    with open(path, "w", encoding="utf-8") as out:
        for (deal, result, _), found in zip(games, measured, strict=True):
            for left, wins, unsettled, samples, _ in found:
                record = {
                    "variant": variant,
                    "deal": deal,
                    "max_positions": positions,
                    "rows_left": left,
                    "rows": total,
                    "samples": samples,
                    "wins": wins,
                    "unsettled": unsettled,
                    "won": result == "won",
                }
                out.write(json.dumps(record) + "\n")


def _print(label: str, rows: list[Decision]) -> None:
    if not rows:
        print(f"| {label} | 0 |" + " |" * (COLUMNS.count("|") - 1))
        return
    won = sum(decision.won for decision in rows)
    low, high = wilson_interval(won, len(rows))
    mean = sum(decision.shown for decision in rows) / len(rows)
    unsettled = sum(decision.unsettled for decision in rows) / len(rows)
    print(
        f"| {label} | {len(rows)} | {100 * mean:.0f}% | {won} ({100 * won / len(rows):.0f}%) "
        f"| {100 * low:.0f}–{100 * high:.0f}% | {_brier(rows):.3f} | {100 * unsettled:.0f}% |"
    )


def _brier(decisions: list[Decision]) -> float:
    """The mean squared difference between the chance shown and the result (0 or 1)."""
    return sum((d.shown - d.won) ** 2 for d in decisions) / len(decisions)


if __name__ == "__main__":
    main()
