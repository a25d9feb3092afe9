"""What the fair player loses by not seeing the stock: the same player, told the next rows.

    python bench/oracle.py                          # classic deals 1-40: rows 0, 1 and 12
    python bench/oracle.py --deals 41-100 --rows 0,1 --workers 2
    python bench/oracle.py --rows 0,12 --rollout 3  # the look-ahead played out 3 stages
    python bench/oracle.py --variant improved --rows 0,0+down  # told the face-down cards

A diagnostic, not a player: it deliberately breaks the fair player's rule.
For ``--rows K`` every sample the player draws keeps its shuffled cards
except the first K rows of the stock, which are the true ones (K = 0 is the
fair player as shipped; K = 12 in classic is the whole stock). The decision
procedure is unchanged (candidate tables, one stage of look-ahead scored by
the table heuristic), so the gap between K = 0 and K = 1 is what not knowing
the next row costs, and the gap between K = 1 and 97% (the survey's
complete-knowledge rate) is what the procedure itself leaves on the table.
``K+down`` tells the samples the true face-down cards (``improved``) as well,
so ``0+down`` is what the face-down cards alone cost.

``--rollout N`` plays the look-ahead out over N stages (``fair.ROLLOUT``;
the shipped player looks one stage ahead), so a deeper procedure can be
given the same information.

It prints, per K, the games won and the deals won only with K, or only with
K = 0 (the first K listed): the deals are played in pairs, so those counts
are what tells two settings apart.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from unittest import mock

from milligan.game import Game
from milligan.position import Observation, Position
from milligan.solver import fair
from milligan.survey.runner import parse_deals


def told(
    game: Game, rows: int, down: bool = False
) -> Callable[[Observation, random.Random], Position]:
    """A sampler that draws as the fair player's does, then puts back the true next ``rows``.

    With ``down`` the true face-down cards go back too.
    """
    draw = fair.sample_position

    def sample(view: Observation, rng: random.Random) -> Position:
        world = draw(view, rng)
        truth = game.position
        if (rows == 0 and not down) or truth.observe() != view:
            return world
        known = truth.stock[: rows * truth.variant.columns]
        true_down = [
            cards[:count] if down else (None,) * count
            for cards, count in zip(truth.columns, truth.face_down, strict=True)
        ]
        # The sample's hidden cards, face-down ones first, less the known rows
        # and the face-down cards told, fill the face-down places not told and
        # then go behind the known rows.
        hidden = [
            card
            for cards, count in zip(world.columns, world.face_down, strict=True)
            for card in cards[:count]
        ]
        hidden += world.stock
        for card in [*known, *(card for cards in true_down for card in cards if card is not None)]:
            hidden.remove(card)
        deal = iter(hidden)
        columns = tuple(
            tuple(
                (next(deal) if truth_cards[i] is None else truth_cards[i]) if i < count else card
                for i, card in enumerate(cards)
            )
            for cards, count, truth_cards in zip(
                world.columns, world.face_down, true_down, strict=True
            )
        )
        return Position(
            world.variant,
            columns,
            world.face_down,
            world.foundations,
            (*known, *deal),
            world.reprieve,
            world.moved,
        )

    return sample


def play(job: tuple[str, int, str, int, int, int]) -> tuple[str, int, str, int, float]:
    """(setting, deal, result, cards up, CPU seconds) of one autoplayed game."""
    variant, deal, setting, rollout, samples, positions = job
    rows, _, down = setting.partition("+")
    game = Game.new(variant, deal)
    began = time.process_time()
    with (
        mock.patch.object(fair, "sample_position", told(game, int(rows), down == "down")),
        mock.patch.object(fair, "ROLLOUT", rollout),
    ):
        outcome = fair.autoplay(game, samples=samples, max_positions=positions)
    cpu = time.process_time() - began
    return setting, deal, outcome.result, game.position.cards_on_foundations(), cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", default="classic")
    parser.add_argument("--deals", default="1-40", help="deal numbers, e.g. 1-40 or 3,7,10-12")
    parser.add_argument(
        "--rows",
        default="0,1,12",
        help="stock rows the samples know, each as K or K+down (the face-down cards too)",
    )
    parser.add_argument("--rollout", type=int, default=fair.ROLLOUT, help="look-ahead stages")
    parser.add_argument("--samples", type=int, default=fair.DEFAULT_SAMPLES)
    parser.add_argument("--max-positions", type=int, default=fair.DEFAULT_POSITIONS)
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args()
    deals = parse_deals(args.deals)
    settings = [part.strip() for part in args.rows.split(",")]
    for part in settings:
        rows, plus, down = part.partition("+")
        if not rows.isdigit() or (plus and down != "down"):
            parser.error(f"--rows: {part!r} is not K or K+down")
    jobs = [
        (args.variant, deal, rows, args.rollout, args.samples, args.max_positions)
        for rows in settings
        for deal in deals
    ]
    won: dict[str, set[int]] = {rows: set() for rows in settings}
    cpu: dict[str, float] = dict.fromkeys(settings, 0.0)
    with ProcessPoolExecutor(args.workers) as pool:
        for rows, deal, result, _up, seconds in pool.map(play, jobs):
            cpu[rows] += seconds
            if result == "won":
                won[rows].add(deal)
    base = settings[0]
    print(
        f"{args.variant} deals {args.deals}: {args.samples} samples, "
        f"{args.max_positions:,} positions a decision, look-ahead {args.rollout} stage(s)"
    )
    print(f"| rows known | won | only with these rows | only with {base} | CPU s per game |")
    print("|---:|---:|---:|---:|---:|")
    for rows in settings:
        print(
            f"| {rows} | {len(won[rows])} of {len(deals)} | {len(won[rows] - won[base])} "
            f"| {len(won[base] - won[rows])} | {cpu[rows] / len(deals):.1f} |"
        )
    for rows in settings:  # to pair with other runs, such as the study's games
        print(f"won with {rows}: {' '.join(map(str, sorted(won[rows]))) or '-'}")


if __name__ == "__main__":
    main()
