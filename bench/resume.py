"""The fair player's last stages with other settings, on the study's own games.

    python3 bench/resume.py --rows 2                            # reproduces the games
    python3 bench/resume.py --deals 1-300 --rows 4 --workers 2 --set CANDIDATES=12
    python3 bench/resume.py --deals 869,877 --rows 0 --each       # the endgames alone
    python3 bench/resume.py --deals 1-100 --rows 12 --max-positions 2000000   # another budget
    python3 bench/resume.py --deals 1-200 --rows 8 --deal-at-once --workers 2  # skip a stage

Each committed game of the shipped player (the ``plays`` table of
``--results``, at the shipped settings) is replayed move by move up to the
deal that leaves ``--rows`` rows in the stock, and the fair player plays on
from there with the module settings given by ``--set`` (names of
``milligan.solver.fair``'s constants, values as Python literals). Nothing
before that deal changes, and the seeds of the decisions after it are the
ones the shipped player had, so with no ``--set`` the run reproduces the
committed games exactly; a change that only matters near the end of the
game is measured at a fraction of the cost of whole games. The table gives
the games won, and the deals won only by one of the two players.
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import time
from concurrent.futures import ProcessPoolExecutor
from unittest import mock

from milligan.game import Game
from milligan.moves import DEAL, Move
from milligan.solver import fair
from milligan.survey.results import ResultStore
from milligan.survey.runner import Player, parse_deals


def parse_setting(text: str) -> tuple[str, object]:
    """``NAME=VALUE``: a constant of ``milligan.solver.fair`` and a Python literal."""
    name, _, value = text.partition("=")
    if not hasattr(fair, name) or not name.isupper():
        raise argparse.ArgumentTypeError(f"milligan.solver.fair has no setting {name!r}")
    try:
        return name, ast.literal_eval(value)
    except (SyntaxError, ValueError) as error:
        raise argparse.ArgumentTypeError(f"{name}: {value!r} is not a literal") from error


def study_arguments(parser: argparse.ArgumentParser, decisions: str) -> None:
    """The arguments shared by the scripts that replay the study's games.

    ``--variant``, ``--deals``, ``--max-positions`` (the budget of each
    decision that is ``decisions``, e.g. "played on"), ``--results`` and
    ``--workers``; the games are then :func:`shipped_games`.
    """
    parser.add_argument("--variant", default="classic")
    parser.add_argument("--deals", default="1-100", help="deal numbers, e.g. 1-100 or 3,7,10-12")
    parser.add_argument(
        "--max-positions",
        type=int,
        default=fair.DEFAULT_POSITIONS,
        help=f"the budget of each decision {decisions} (default: the shipped one)",
    )
    parser.add_argument("--results", default="docs/data/survey.sqlite3")
    parser.add_argument("--workers", type=int, default=1)


def shipped_games(results: str, variant: str, deals: str) -> list[tuple[int, str, tuple[str, ...]]]:
    """(deal, result, moves) of the shipped player's committed games of ``deals`` (sorted)."""
    wanted = set(parse_deals(deals))
    with ResultStore(results) as store:
        games = sorted(
            (play.deal, play.result, play.moves)
            for play in store.plays(variant, "fair", Player.fair().settings())
            if play.deal in wanted
        )
    if not games:
        raise SystemExit(f"{results} has no shipped game of {variant} {deals}")
    return games


def resume(
    job: tuple[str, int, tuple[str, ...], int, dict[str, object], int, bool],
) -> tuple[int, str, float]:
    """(deal, result, CPU seconds after the replayed part) of one game played on."""
    variant, deal, moves, rows, settings, positions, deal_at_once = job
    game = Game.new(variant, deal)
    room = rows * game.position.variant.columns
    for text in moves:
        if len(game.position.stock) <= room:
            break
        game.play(Move.parse(text))
    if deal_at_once and game.status == "playing" and DEAL in game.position.legal_moves():
        game.play(DEAL)
    began = time.process_time()
    with contextlib.ExitStack() as patches:
        for name, value in settings.items():
            patches.enter_context(mock.patch.object(fair, name, value))
        outcome = fair.autoplay(game, max_positions=positions)
    return deal, outcome.result, time.process_time() - began


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    study_arguments(parser, "played on")
    parser.add_argument("--rows", type=int, default=4, help="rows left when play resumes")
    parser.add_argument(
        "--set",
        action="append",
        type=parse_setting,
        default=[],
        metavar="NAME=VALUE",
        help="e.g. CANDIDATES=12",
    )
    parser.add_argument(
        "--deal-at-once",
        action="store_true",
        help="skip the stage: deal the next row before any move after the deal at --rows",
    )
    parser.add_argument("--each", action="store_true", help="also print every game's result")
    args = parser.parse_args()
    games = shipped_games(args.results, args.variant, args.deals)
    settings = dict(args.set)
    jobs = [
        (args.variant, deal, moves, args.rows, settings, args.max_positions, args.deal_at_once)
        for deal, _, moves in games
    ]
    with ProcessPoolExecutor(args.workers) as pool:
        results = list(pool.map(resume, jobs, chunksize=1))
    before = {deal for deal, result, _ in games if result == "won"}
    after = {deal for deal, result, _ in results if result == "won"}
    cpu = sum(seconds for _, _, seconds in results) / len(results)
    slowest = max(results, key=lambda result: result[2])
    label = ", ".join(f"{name}={value!r}" for name, value in settings.items()) or "none"
    if args.deal_at_once:
        label = f"deal at once; {label}"
    print(f"{args.variant}, {len(games)} games of deals {args.deals}, from {args.rows} rows left")
    print(
        "| settings | won | shipped | only these | only shipped "
        "| CPU s per game from there | slowest |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|")
    print(
        f"| {label} | {len(after)} | {len(before)} | {len(after - before)} "
        f"| {len(before - after)} | {cpu:.2f} | {slowest[2]:.1f} (deal {slowest[0]}) |"
    )
    if args.each:
        shipped_result = {deal: result for deal, result, _ in games}
        for deal, result, seconds in results:
            print(f"deal {deal}: {result} (shipped {shipped_result[deal]}), {seconds:.1f} CPU s")
    for name, only in (("these settings", after - before), ("the shipped player", before - after)):
        if only:
            print(f"won only by {name}: {', '.join(map(str, sorted(only)))}")


if __name__ == "__main__":
    main()
