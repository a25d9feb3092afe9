"""The solver: proven verdicts, replay-checked wins, fair hints.

>>> from milligan.game import Game
>>> result = solve(Game.new("spanish", 3), max_positions=50_000)
>>> result.result in ("won", "lost", "unknown")
True
"""

from milligan.solver.fair import advise, hint
from milligan.solver.results import Hint, SolveResult
from milligan.solver.safe import safe_auto_moves
from milligan.solver.search import solve

__all__ = ["Hint", "SolveResult", "advise", "hint", "safe_auto_moves", "solve"]
