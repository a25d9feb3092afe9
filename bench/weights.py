"""The fair player with other table weights, against the shipped ones on the same deals.

    python3 bench/weights.py --set w_depth=0                 # classic deals 1-100
    python3 bench/weights.py --deals 101-200 --set w_depth=0 --set w_depth=0,w_break=16 --workers 2
    python3 bench/weights.py --set modes=plan+cap            # how stage searches explore a reprieve

Each ``--set`` is one player: the shipped weights (``fair.WEIGHTS``) with
the given ones changed; ``modes`` replaces ``fair.REPRIEVE_MODES`` (the
stage searches' ways of exploring a reprieve, in turn, joined by ``+``).
Every player autoplays every deal with the same seeds; the first row is
the shipped player (``--against RESULTS`` takes its games from the skill
study instead of playing them: the player as shipped replays them).
Single deals flip with the smallest change, so what tells two players
apart is how many deals each wins that the other does not, printed beside
the totals.
"""

from __future__ import annotations

import argparse
import time
from concurrent.futures import ProcessPoolExecutor
from unittest import mock

from milligan.game import Game
from milligan.solver import fair
from milligan.survey.results import ResultStore
from milligan.survey.runner import Player, parse_deals

MODES = ("plan", "cap")


def parse_weights(text: str) -> dict[str, int | str]:
    """``w_depth=0,w_break=16`` as a dict (names checked against fair.WEIGHTS, and ``modes``)."""
    out: dict[str, int | str] = {}
    for part in filter(None, text.split(",")):
        name, _, value = part.partition("=")
        if name == "modes":
            if not value or any(mode not in MODES for mode in value.split("+")):
                raise argparse.ArgumentTypeError(f"modes: {' or '.join(MODES)}, joined by +")
            out[name] = value
            continue
        if name not in fair.WEIGHTS:
            raise argparse.ArgumentTypeError(
                f"no weight {name!r}: {', '.join(fair.WEIGHTS)} (or modes)"
            )
        out[name] = int(value)
    return out


def play(job: tuple[str, int, tuple[tuple[str, int | str], ...]]) -> tuple[int, str, float]:
    """(deal, result, CPU seconds) of one autoplayed game with the weights changed."""
    variant, deal, changed = job
    settings = dict(changed)
    modes = str(settings.pop("modes", "+".join(fair.REPRIEVE_MODES))).split("+")
    began = time.process_time()
    with (
        mock.patch.dict(fair.WEIGHTS, settings),
        mock.patch.object(fair, "REPRIEVE_MODES", tuple(modes)),
    ):
        outcome = fair.autoplay(Game.new(variant, deal))
    return deal, outcome.result, time.process_time() - began


def stored(path: str, variant: str, deals: list[int]) -> list[tuple[int, str, float]]:
    """The shipped player's games of ``deals`` from a study, as :func:`play` gives them."""
    with ResultStore(path) as store:
        rows = {
            play.deal: (play.result, play.cpu_seconds or 0.0)
            for play in store.plays(variant, "fair", Player.fair().settings())
        }
    missing = [deal for deal in deals if deal not in rows]
    if missing:
        raise SystemExit(f"{path} has no shipped game of {variant} deal {missing[0]}")
    return [(deal, *rows[deal]) for deal in deals]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", default="classic")
    parser.add_argument("--deals", default="1-100", help="deal numbers, e.g. 1-100 or 3,7,10-12")
    parser.add_argument(
        "--set", action="append", type=parse_weights, default=[], help="e.g. w_depth=0"
    )
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument(
        "--against",
        metavar="RESULTS",
        help="take the shipped player's games from this study (milligan survey run "
        "--player fair at the shipped settings) instead of playing them",
    )
    args = parser.parse_args()
    deals = parse_deals(args.deals)
    players = [{}, *args.set]
    jobs = [
        (args.variant, deal, tuple(sorted(changed.items())))
        for changed in players[1 if args.against else 0 :]
        for deal in deals
    ]
    with ProcessPoolExecutor(args.workers) as pool:
        results = list(pool.map(play, jobs, chunksize=1))
    if args.against:
        results = stored(args.against, args.variant, deals) + results
    print(f"{args.variant} deals {args.deals}, shipped weights {fair.WEIGHTS}")
    print("| weights changed | won | only this player | only the shipped | CPU s per game |")
    print("|---|---:|---:|---:|---:|")
    shipped: set[int] = set()
    for index, changed in enumerate(players):
        mine = results[index * len(deals) : (index + 1) * len(deals)]
        won = {deal for deal, result, _ in mine if result == "won"}
        if index == 0:
            shipped = won
        cpu = sum(seconds for _, _, seconds in mine) / len(deals)
        label = ", ".join(f"{k}={v}" for k, v in changed.items()) or "none (shipped)"
        print(
            f"| {label} | {len(won)} of {len(deals)} | {len(won - shipped)} "
            f"| {len(shipped - won)} | {cpu:.1f} |"
        )


if __name__ == "__main__":
    main()
