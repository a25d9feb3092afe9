"""Post-game analysis: where a game that was not won threw the win away.

Along one line of play, winnability can only fall: a position that can be
won makes every earlier position of the line winnable too.  So the solver
finds the *turning point*, the last position from which a win was possible
and the move played there, by a binary search over the line.  Every probe is
a budgeted :func:`~milligan.solver.solve`:

- ``won`` moves the lower end up, ``lost`` (a proof) moves the upper end
  down, and ``unknown`` narrows nothing: the next probe avoids it.
- The search is pinned when a proven-won position is followed directly by a
  proven-lost one.  Otherwise it reports the range of moves that still
  holds the turning point, and says why.
- A start position proven lost means the deal was never winnable.

A second, cheaper look uses the fair player (what the player could see):
its win chance at the start and at the end of every stretch between two
deals.  Stretches where it fell most are the ``fair_drops``.

>>> from milligan.game import Game
>>> game = Game.new("one-deck", 1)
>>> for move in game.legal_moves()[:1]:
...     _ = game.play(move)
>>> result = analyse(game, max_positions=20_000, timeout=None, fair=False)
>>> result.verdicts[0].index
0
>>> result.to_dict()["moves"]
1
"""

from __future__ import annotations

import functools
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from milligan.game import Game
from milligan.moves import Move, MoveKind
from milligan.position import Position
from milligan.record import Record
from milligan.solver.results import Verdict
from milligan.solver.search import solve

#: Default budget of one solve.
DEFAULT_TIMEOUT = 10.0
#: The fair player's budget at each point it is asked (observations only).
FAIR_SAMPLES = 4
FAIR_POSITIONS = 20_000
#: At most this many fair evaluations per game, and this many drops reported.
FAIR_POINTS = 40
FAIR_DROPS = 5


class NothingToAnalyse(ValueError):
    """The game was won: no move threw anything away."""


@dataclass(frozen=True, slots=True)
class Probe:
    """One solve of the analysis: ``index`` moves had been played before the position."""

    index: int
    verdict: Verdict
    positions: int
    seconds: float


@dataclass(frozen=True, slots=True)
class FairDrop:
    """The fair win chance over moves ``first``..``index`` (counting from 1).

    ``before`` is the chance before move ``first``, ``after`` the chance
    after move ``index``; ``move`` is move ``index``.
    """

    first: int
    index: int
    move: Move
    before: float
    after: float


@dataclass(frozen=True, slots=True)
class Analysis:
    """What :func:`analyse` found.  Indexes of moves count from 1, as in records.

    ``turning_point`` is the move that threw the win away (None when it was
    not pinned); ``range`` the first and last move it may be when it was not
    pinned (None when pinned or when there is nothing to find).
    ``better_from`` is the number of moves played before ``better``, a
    replay-checked winning line from the last position proven winnable.
    """

    moves: int
    turning_point: int | None
    move: Move | None
    range: tuple[int, int] | None
    better_from: int | None
    better: tuple[Move, ...]
    never_winnable: bool
    still_winnable: bool
    note: str
    verdicts: tuple[Probe, ...]
    fair_drops: tuple[FairDrop, ...]
    seconds: float

    def to_dict(self) -> dict[str, Any]:
        """The analysis as JSON-ready data (the ``--json`` output and the API's answer)."""
        return {
            "moves": self.moves,
            "turning_point": self.turning_point,
            "move": None if self.move is None else str(self.move),
            "range": None if self.range is None else list(self.range),
            "better_from": self.better_from,
            "better": [str(move) for move in self.better],
            "never_winnable": self.never_winnable,
            "still_winnable": self.still_winnable,
            "note": self.note,
            "verdicts": [
                {
                    "index": probe.index,
                    "verdict": probe.verdict,
                    "positions": probe.positions,
                    "seconds": round(probe.seconds, 3),
                }
                for probe in self.verdicts
            ],
            "fair_drops": [
                {
                    "first": drop.first,
                    "index": drop.index,
                    "move": str(drop.move),
                    "before": drop.before,
                    "after": drop.after,
                }
                for drop in self.fair_drops
            ],
            "seconds": round(self.seconds, 3),
        }


def default_solves(moves: int) -> int:
    """The solve cap for a line of ``moves`` moves: twice a plain binary search, plus 4."""
    return 2 * (moves + 2).bit_length() + 4


def analyse(
    line: Game | Record,
    *,
    timeout: float | None = DEFAULT_TIMEOUT,
    max_positions: int | None = None,
    max_memory_mb: int = 256,
    max_solves: int | None = None,
    fair: bool = True,
    fair_samples: int = FAIR_SAMPLES,
    fair_positions: int = FAIR_POSITIONS,
    fair_points: int = FAIR_POINTS,
    seed: int = 0,
) -> Analysis:
    """Find where ``line`` (a game or a record, not won) threw the win away.

    Each solve gets ``timeout`` seconds and ``max_positions`` positions;
    with a position budget and no timeout the answer is reproducible.  At
    most ``max_solves`` solves are made (default :func:`default_solves`).
    Raises :class:`NothingToAnalyse` for a won game, and the record's own
    errors for a record that does not replay.
    """
    began = time.monotonic()
    game = line.replay() if isinstance(line, Record) else line
    if game.status == "won" or game.position.is_won():
        raise NothingToAnalyse("the game was won: there is nothing to analyse")
    positions = game.positions
    moves = game.moves
    count = len(moves)
    cap = default_solves(count) if max_solves is None else max(1, max_solves)

    probes: list[Probe] = []
    wins: dict[int, tuple[Move, ...]] = {}
    unknown: set[int] = set()
    low, high = -1, count + 1  # highest proven won, lowest proven lost

    def probe(index: int) -> Verdict:
        result = solve(
            positions[index],
            timeout=timeout,
            max_positions=max_positions,
            max_memory_mb=max_memory_mb,
        )
        probes.append(Probe(index, result.result, result.positions, result.seconds))
        if result.result == "won":
            wins[index] = _checked(positions[index], result.moves)
        elif result.result == "unknown":
            unknown.add(index)
        return result.result

    # every answer below shares these; they differ in what was found
    finish = functools.partial(_finish, began, count, moves, probes, wins)

    first = probe(0)
    if first == "lost":
        return finish(
            fair_drops=(),
            turning=None,
            span=None,
            low=-1,
            never=True,
            still=False,
            note="the deal was never winnable: the start position is proven lost",
        )
    if first == "won":
        low = 0
    if count > 0 and len(probes) < cap:
        last = probe(count)
        if last == "won":
            low = count
        elif last == "lost":
            high = count
    while low < count and len(probes) < cap:
        open_ = [index for index in range(low + 1, min(high, count + 1)) if index not in unknown]
        if not open_:
            break
        middle = (low + high) / 2
        index = min(open_, key=lambda i: (abs(i - middle), i))
        verdict = probe(index)
        if verdict == "won":
            low = index
        elif verdict == "lost":
            high = index

    drops = _fair_drops(game, fair_samples, fair_positions, fair_points, seed) if fair else ()
    if low == count:
        return finish(
            drops,
            turning=None,
            span=None,
            low=low,
            never=False,
            still=True,
            note="the last position can still be won: no move threw the win away",
        )
    if low >= 0 and high == low + 1:
        move = moves[low]
        return finish(
            drops,
            turning=high,
            span=None,
            low=low,
            never=False,
            still=False,
            note=f"move {high} of {count} ({move}) threw the win away: the position "
            "before it can be won, the one after it is proven lost",
        )
    first_move, last_move = max(low + 1, 1), min(high, count)
    reasons = [f"the turning point was not pinned: it lies in moves {first_move}-{last_move}"]
    if unknown:
        reasons.append(
            f"{len(unknown)} solve(s) ran out of budget (unknown), which narrows nothing"
        )
    if low < 0:
        reasons.append("no position was proven winnable, so the deal may never have been winnable")
    if high > count:
        reasons.append("no position was proven lost, so the end may still be winnable")
    if len(probes) >= cap:
        reasons.append(f"the analysis stopped after {cap} solves")
    return finish(
        drops,
        turning=None,
        span=(first_move, last_move),
        low=low,
        never=False,
        still=False,
        note="; ".join(reasons),
    )


def _finish(
    began: float,
    count: int,
    moves: Sequence[Move],
    probes: list[Probe],
    wins: dict[int, tuple[Move, ...]],
    fair_drops: tuple[FairDrop, ...],
    *,
    turning: int | None,
    span: tuple[int, int] | None,
    low: int,
    never: bool,
    still: bool,
    note: str,
) -> Analysis:
    better_from = low if low >= 0 else None
    better = wins.get(low, ()) if low >= 0 else ()
    move = moves[turning - 1] if turning is not None else None
    return Analysis(
        count,
        turning,
        move,
        span,
        better_from,
        better,
        never,
        still,
        note,
        tuple(probes),
        fair_drops,
        time.monotonic() - began,
    )


def _checked(start: Position, moves: Sequence[Move]) -> tuple[Move, ...]:
    """``moves`` after replaying them from ``start`` through the engine to a win."""
    position = start
    for move in moves:
        position = position.apply(move)
    if not position.is_won():
        raise AssertionError("a winning line from the solver does not win on replay")
    return tuple(moves)


def _fair_drops(
    game: Game, samples: int, max_positions: int, points: int, seed: int
) -> tuple[FairDrop, ...]:
    """The stretches between deals where the fair player's win chance fell most.

    Between two deals every card that can be acted on is seen (or turns up
    in the stretch), so a fall of the chance over a stretch is the player's
    doing; the deal itself is luck and is left out.  The chance is asked at
    the start of each stretch (after a deal) and at its end (before the next
    deal, or the end of the game), at most ``points`` times in all, from the
    first stretch on.
    """
    from milligan.solver.fair import decide

    moves = game.moves
    positions = game.positions
    views = [position.observe() for position in positions]
    starts = [0] + [index + 1 for index, move in enumerate(moves) if move.kind is MoveKind.DEAL]
    chances: dict[int, float] = {}

    def chance(index: int) -> float:
        if index not in chances:
            plan = decide(
                views[index], views[:index], samples=samples, seed=seed, max_positions=max_positions
            )
            chances[index] = plan.wins / plan.samples if plan.moves and plan.samples else 0.0
        return chances[index]

    drops: list[FairDrop] = []
    for number, start in enumerate(starts):
        end = starts[number + 1] - 1 if number + 1 < len(starts) else len(moves)
        if end <= start:
            continue
        if len(chances) + 2 > points:
            break
        before, after = chance(start), chance(end)
        if after < before:
            drops.append(FairDrop(start + 1, end, moves[end - 1], before, after))
    drops.sort(key=lambda drop: (drop.after - drop.before, drop.index))
    return tuple(drops[:FAIR_DROPS])
