"""Baseline win rates per preset: a random agent, a greedy agent, OpenSpiel's IS-MCTS.

    nice -n 19 python bench/baselines.py                     # deals 1-100, IS-MCTS on 1-5
    nice -n 19 python bench/baselines.py --variants one-deck --ismcts-deals 1-20
    python bench/baselines.py --agents random,greedy --deals 1-1000

Every agent sees only what a player sees.  It prints a Markdown table: won
deals, win rate and the mean number of cards on the foundations at the end
per agent, with the complete-knowledge winnability of the
same deals from the survey database (docs/WINNABILITY.md) for comparison.

- random: a uniformly random legal action (the Gymnasium action mask) each
  step, for at most ``--max-steps`` steps;
- greedy: :func:`milligan.solver.baseline.greedy_move` (a foundation move,
  else ``S``, else a build to a position not seen before, else ``D``); it
  stops when none is left;
- ismcts: OpenSpiel's ISMCTSBot on ``python_milligan`` with ``--simulations``
  simulations per move, ``--worlds`` resampled deals per move, the leaf
  values of :class:`FoundationValue`, at most ``--ismcts-moves`` moves.
"""

from __future__ import annotations

import argparse
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from milligan.env import MilliganEnv
from milligan.solver.baseline import greedy_move
from milligan.variants import PRESETS

#: An agent: (variant, deal, step cap) -> (won, cards on the foundations at the end).
Player = Callable[[str, int, int], tuple[bool, int]]
SURVEY = Path(__file__).resolve().parent.parent / "docs" / "data" / "survey.sqlite3"


def deal_range(text: str) -> range:
    """``1-100`` or ``7``."""
    first, _, last = text.partition("-")
    return range(int(first), int(last or first) + 1)


# -- agents: each plays one deal and says whether it won -----------------------------


def play_random(variant: str, deal: int, max_steps: int) -> tuple[bool, int]:
    """Uniformly random legal actions."""
    env = MilliganEnv(variant)
    rng = np.random.default_rng(deal)
    _, info = env.reset(options={"deal": deal})
    for _ in range(max_steps):
        legal = np.flatnonzero(info["action_mask"])
        if not len(legal):
            break
        _, _, terminated, _, info = env.step(int(rng.choice(legal)))
        if terminated:
            break
    return bool(info["status"] == "won"), env.position.cards_on_foundations()


def play_greedy(variant: str, deal: int, max_steps: int) -> tuple[bool, int]:
    """The library's greedy baseline (:mod:`milligan.solver.baseline`) through the env."""
    env = MilliganEnv(variant)
    _, info = env.reset(options={"deal": deal})
    seen = {env.position}
    for _ in range(max_steps):
        move = greedy_move(env.position, seen)
        if move is None:
            break
        _, _, terminated, _, info = env.step(env.actions.index(move))
        seen.add(env.position)
        if terminated:
            break
    return bool(info["status"] == "won"), env.position.cards_on_foundations()


class FoundationValue:
    """An MCTS evaluator from what the player sees: a win 1, a loss 0, a game still on
    ½ + ⅖ × the share of the deck on the foundations, less 0.02 per card out of
    place and 0.05 while a reprieve is open (so that a search closes it)."""

    def evaluate(self, state: Any) -> np.ndarray:
        position = state.position
        if state.status != "playing":
            return np.array(state.returns())
        share = position.cards_on_foundations() / position.variant.deck_size
        value = 0.5 + 0.4 * share - 0.02 * len(position.unsettled())
        if position.reprieve is not None:
            value -= 0.05
        return np.array([max(value, 0.01)])

    def prior(self, state: Any) -> list[tuple[int, float]]:
        if state.is_chance_node():
            return list(state.chance_outcomes())
        legal = state.legal_actions()
        return [(action, 1.0 / len(legal)) for action in legal]


def ismcts_player(simulations: int, worlds: int, max_moves: int) -> Player:
    """An agent that plays OpenSpiel's IS-MCTS bot."""
    import pyspiel
    from open_spiel.python.algorithms import ismcts

    from milligan.openspiel_game import deal_state

    def play(variant: str, deal: int, max_steps: int) -> tuple[bool, int]:
        game = pyspiel.load_game("python_milligan", {"variant": variant, "max_moves": max_moves})
        bot = ismcts.ISMCTSBot(
            game,
            FoundationValue(),
            uct_c=1.4,
            max_simulations=simulations,
            max_world_samples=worlds,
            random_state=np.random.RandomState(deal),
        )
        state = deal_state(game, deal)
        while not state.is_terminal():
            state.apply_action(bot.step(state))
        return bool(state.status == "won"), state.position.cards_on_foundations()

    return play


# -- the table ---------------------------------------------------------------------


def solver_wins(variant: str, deals: range) -> tuple[int, int] | None:
    """Proven-won deals and deals surveyed, from the shipped survey database."""
    if not SURVEY.exists():
        return None
    with sqlite3.connect(f"file:{SURVEY}?mode=ro", uri=True) as db:
        row = db.execute(
            "SELECT COUNT(DISTINCT deal), COUNT(DISTINCT CASE WHEN verdict = 'won' THEN deal END)"
            " FROM results WHERE variant = ? AND deal BETWEEN ? AND ?",
            (variant, deals.start, deals.stop - 1),
        ).fetchone()
    surveyed, won = row
    return (won, surveyed) if surveyed else None


def cell(won: int, deals: int) -> str:
    """``won/deals (rate%)``."""
    return f"{won}/{deals} ({100 * won / deals:.0f}%)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variants", default=",".join(PRESETS))
    parser.add_argument("--agents", default="random,greedy,ismcts")
    parser.add_argument("--deals", type=deal_range, default=deal_range("1-100"))
    parser.add_argument("--ismcts-deals", type=deal_range, default=deal_range("1-5"))
    parser.add_argument("--max-steps", type=int, default=2000)
    parser.add_argument("--simulations", type=int, default=100)
    parser.add_argument("--worlds", type=int, default=4)
    parser.add_argument("--ismcts-moves", type=int, default=400)
    args = parser.parse_args()
    agents = args.agents.split(",")
    players: dict[str, Player] = {
        "random": play_random,
        "greedy": play_greedy,
    }
    if "ismcts" in agents:
        players["ismcts"] = ismcts_player(args.simulations, args.worlds, args.ismcts_moves)
    labels = {
        "random": "random masked agent",
        "greedy": "greedy, milligan.solver.baseline",
        "ismcts": f"OpenSpiel IS-MCTS ({args.simulations} simulations, {args.worlds} worlds)",
    }
    rows: dict[str, dict[str, str]] = {agent: {} for agent in agents}
    rows["solver"] = {}
    seconds: dict[str, float] = dict.fromkeys(agents, 0.0)
    variants = args.variants.split(",")
    for variant in variants:
        for agent in agents:
            deals = args.ismcts_deals if agent == "ismcts" else args.deals
            start = time.process_time()
            results = [players[agent](variant, deal, args.max_steps) for deal in deals]
            seconds[agent] += time.process_time() - start
            won = sum(result[0] for result in results)
            cards = sum(result[1] for result in results) / len(results)
            rows[agent][variant] = f"{cell(won, len(deals))}, {cards:.1f}"
        proven = solver_wins(variant, args.deals)
        rows["solver"][variant] = cell(*proven) if proven else "n/a"
    labels["solver"] = "complete knowledge (solver, proven won)"
    print("| agent | " + " | ".join(variants) + " |")
    print("|---|" + "---:|" * len(variants))
    for agent, cells in rows.items():
        print(f"| {labels[agent]} | " + " | ".join(cells[v] for v in variants) + " |")
    print()
    print("CPU seconds: " + ", ".join(f"{agent} {s:.1f}" for agent, s in seconds.items()))


if __name__ == "__main__":
    main()
