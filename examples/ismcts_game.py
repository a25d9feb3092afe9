"""OpenSpiel's IS-MCTS bot plays one deal of Miss Milligan, seeing what a player sees.

    python examples/ismcts_game.py                      # one-deck, deal 3
    python examples/ismcts_game.py classic 1 50         # variant, deal, simulations per move

The bot resamples the unseen cards (stock and face-down) from its information
state before each search, so its choices depend only on what it has seen.
"""

import sys
import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from milligan.openspiel_game import deal_state  # importing it registers python_milligan

variant = sys.argv[1] if len(sys.argv) > 1 else "one-deck"
deal = int(sys.argv[2]) if len(sys.argv) > 2 else 3
simulations = int(sys.argv[3]) if len(sys.argv) > 3 else 50

game = pyspiel.load_game("python_milligan", {"variant": variant, "max_moves": 300})
rng = np.random.RandomState(deal)
evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng, max_length=30)
bot = ismcts.ISMCTSBot(
    game, evaluator, uct_c=1.4, max_simulations=simulations, max_world_samples=4, random_state=rng
)

state = deal_state(game, deal)  # chance deals deal number `deal`; or apply chance outcomes
start = time.perf_counter()
moves = []
while not state.is_terminal():
    action = bot.step(state)
    moves.append(state.action_to_string(action))
    state.apply_action(action)
print(" ".join(moves))
print(
    f"{variant} deal {deal}: {state.status} after {len(moves)} moves, "
    f"{state.position.cards_on_foundations()} cards on the foundations, "
    f"{time.perf_counter() - start:.1f} s"
)
