"""The solver's typed answers."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from milligan.moves import Move

Verdict = Literal["won", "lost", "unknown"]


@dataclass(frozen=True, slots=True)
class SolveResult:
    """What :func:`milligan.solver.solve` found.

    ``moves`` is the solution from the start position given (empty unless
    ``result == "won"``); ``positions`` counts expanded positions (nodes whose
    moves were generated); ``seconds`` is the wall time spent.
    """

    result: Verdict
    moves: tuple[Move, ...]
    positions: int
    seconds: float


@dataclass(frozen=True, slots=True)
class Hint:
    """A suggested move from what the player can see.

    ``move`` is None only when nothing is legal; ``win_chance`` is
    ``wins / samples``, the share of sampled deals the chosen plan won (each
    sample is solved as if its unseen cards were known), and
    ``win_estimate`` the chance of winning by following the hints, that
    share corrected by what the study's games did
    (:mod:`milligan.solver.estimate`); both are 0 when no sample was won.
    ``plan`` is the chosen line, starting with ``move``; ``repeats`` says that
    ``move`` leads back to a position already reached, which happens only
    when every legal move does.
    """

    move: Move | None
    win_chance: float
    win_estimate: float
    samples: int
    wins: int
    plan: tuple[Move, ...] = ()
    repeats: bool = False
