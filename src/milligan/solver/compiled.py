"""The bridge between engine positions and the compiled core (``_core.pyx``)."""

from __future__ import annotations

import math
import os
import struct
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any, NamedTuple

from milligan.cards import CARDS, Card
from milligan.moves import DEAL, STOP, Move, MoveKind
from milligan.position import Position
from milligan.variants import Variant

#: Set (to anything but "" or "0") to search in pure Python although the
#: compiled core was built: what a build without a C compiler does.
PURE_PYTHON_ENV = "MILLIGAN_PURE_PYTHON"

_core: Any
try:
    from milligan.solver import _core  # type: ignore[attr-defined,no-redef]
except ImportError:  # pragma: no cover - only when the extension was not built
    _core = None
if os.environ.get(PURE_PYTHON_ENV, "") not in ("", "0"):
    _core = None

AVAILABLE = _core is not None
#: What the commands that search say when :data:`AVAILABLE` is false.
MISSING = (
    "the solver's compiled core was not built, so it searches in pure Python, about a "
    "thousand times more slowly (a C compiler and Python's headers, then reinstall: "
    "see the README's quick start)"
)

_RULES = {"none": 0, "free": 1, "strict": 2}
#: The card byte's "moved and not yet settled" bit (see _core.pyx).
FLAG = 64
#: The complete search's first pass allows this many free moves per reprieve ...
FIRST_PASS_FREE_MOVES = 3
#: ... and gets 1/FIRST_PASS_SHARE of what the staged search left.
FIRST_PASS_SHARE = 2
#: The weights of the core's stage score: cards up, breaks, empty columns,
#: depth of the next cards the foundations need.
WEIGHTS: dict[str, int] = {"w_found": 64, "w_break": 8, "w_empty": 16, "w_depth": 1}


class Round(NamedTuple):
    """One round of the staged search.

    ``mode``: how a reprieve is explored ("plan": the planner's outcomes;
    "cap": free moves one by one, at most FIRST_PASS_FREE_MOVES per
    reprieve); ``width``: the beam; ``per_position``: positions per beam
    position; ``weights``: the stage score's weights (core attribute names);
    ``reroot``: when the round's beam dies, search again from its best
    positions of the last stage not proven lost (:func:`reroot`).
    """

    mode: str
    width: int
    per_position: int
    weights: Mapping[str, int] = WEIGHTS
    reroot: bool = False


#: Rounds of the staged search below LARGE_BUDGET positions.
STAGED_ROUNDS: tuple[Round, ...] = (
    Round("plan", 100, 1000),
    Round("cap", 100, 1000),
    Round("plan", 400, 1500),
    Round("cap", 400, 1500),
    Round("plan", 1500, 2000),
    Round("cap", 1500, 2000),
)
#: The stage scores of a large budget's rounds, in turn at each width: the
#: usual one, then two that count cards up less (and buried needed cards
#: more).  A beam that dies out under one score can live under another:
#: scoring cards up less keeps tables that free a blocked suit.
SCORES: tuple[Mapping[str, int], ...] = (
    WEIGHTS,
    {**WEIGHTS, "w_found": 16, "w_depth": 4},
    {**WEIGHTS, "w_found": 8},
)
#: More scores, tried at the narrowest width only, after SCORES there.  A
#: width-100 round is cheap (its beam mostly dies out within a second) and
#: each score keeps other tables, so each wins a few deals that every other
#: score loses: breaks weighed four times (cards up at 16); empty columns
#: four times, once with cards up at 16 and depth at 4, once with cards up
#: at 32; and the usual score without depth.  Picked on the deals that
#: SCORES left unknown at 10 s and checked on others (bench/scores.py,
#: docs/BENCHMARKS.md).
NARROW_SCORES: tuple[Mapping[str, int], ...] = (
    {**WEIGHTS, "w_found": 16, "w_break": 32},
    {**WEIGHTS, "w_found": 16, "w_empty": 64, "w_depth": 4},
    {**WEIGHTS, "w_found": 32, "w_empty": 64},
    {**WEIGHTS, "w_depth": 0},
)


def large_rounds(
    narrow_scores: tuple[Mapping[str, int], ...] = NARROW_SCORES,
    reroot: tuple[Mapping[str, int], ...] = SCORES,
) -> tuple[Round, ...]:
    """The rounds when the budget is large (LARGE_BUDGET positions or more, or no limit).

    Each width of STAGED_ROUNDS under every score of SCORES (and at the
    narrowest width ``narrow_scores`` too), both reprieve modes, before the
    next width; then width 4,000.  Trying every score at a small width
    first finds the wins that one score misses at a fraction of a wide
    round's cost.  The narrowest rounds under the scores of ``reroot`` are
    re-rooted when their beams die (:func:`reroot`).  Measured in
    docs/BENCHMARKS.md (bench/hard.py).
    """
    widths = dict.fromkeys((r.width, r.per_position) for r in STAGED_ROUNDS)
    narrowest = min(width for width, _ in widths)
    return tuple(
        Round(mode, width, per_position, weights, width == narrowest and weights in reroot)
        for width, per_position in widths
        for weights in (SCORES + narrow_scores if width == narrowest else SCORES)
        for mode in ("plan", "cap")
    ) + (Round("plan", 4000, 2000), Round("cap", 4000, 2000))


LARGE_ROUNDS: tuple[Round, ...] = large_rounds()
#: The position budget from which LARGE_ROUNDS replace STAGED_ROUNDS.
LARGE_BUDGET = 5_000_000
#: The staged search's share of the position and time budget.
STAGED_SHARE = 0.75
#: Each beam position passes on at most this many candidates.
KEEP = 6
#: The last stage (no stock left) gets this many times the per-position budget.
LAST_STAGE = 8
#: A deal, packed as the core's ``stage`` and ``goto`` write moves.
DEAL_BYTES = (2).to_bytes(4, "big")
#: A beam node of the staged search: (parent, packed moves from the parent).
Node = tuple[Any, bytes]


def card_code(card: Card) -> int:
    """The core's code of a card: ``suit * 13 + rank - 1``."""
    return int(card.suit) * 13 + int(card.rank) - 1


def encode(position: Position) -> dict[str, object]:
    """The core's constructor arguments for ``position``."""
    unsettled = set(position.unsettled())
    columns = [
        [card_code(card) | (FLAG if (c, i) in unsettled else 0) for i, card in enumerate(cards)]
        for c, cards in enumerate(position.columns, start=1)
    ]
    return {
        "decks": position.variant.decks,
        "ncols": position.variant.columns,
        "rule": _RULES[position.variant.reprieve],
        "columns": columns,
        "face_down": list(position.face_down),
        "foundations": [list(heights) for heights in position.foundations],
        "stock": [card_code(card) for card in position.stock],
        "reprieve": -1 if position.reprieve is None else position.reprieve - 1,
    }


def decode_move(kind: int, source: int, count: int, target: int) -> Move:
    """An engine move from the core's (kind, source, count, target), columns from 0."""
    if kind == 0:
        return Move.column(source + 1, target + 1, count)
    if kind == 1:
        return Move.foundation(source + 1)
    return DEAL if kind == 2 else STOP


def encode_move(move: Move) -> tuple[int, int, int, int]:
    """The core's (kind, source, count, target) of an engine move, columns from 0.

    The inverse of :func:`decode_move`; ``_core.pack_move`` packs the result.
    """
    if move.kind is MoveKind.COLUMN:
        return 0, move.source - 1, move.count, move.target - 1
    if move.kind is MoveKind.FOUNDATION:
        return 1, move.source - 1, 1, 0
    return (2, 0, 0, 0) if move.kind is MoveKind.DEAL else (3, 0, 0, 0)


class Budget:
    """What a solve may still spend; its passes take shares of it in turn."""

    def __init__(
        self,
        max_positions: int | None,
        timeout: float | None,
        progress: Callable[[int, float], None] | None,
    ) -> None:
        self.max_positions = max_positions
        self.timeout = timeout
        self.progress = progress
        self.began = time.monotonic()
        self.spent = 0

    def share(self, fraction: float) -> tuple[int, float]:
        """A position limit (-1: none) and a deadline (-1: none) for a share of what is left."""
        limit = -1
        if self.max_positions is not None:
            limit = max(1, int((self.max_positions - self.spent) * fraction))
        if self.timeout is None:
            return limit, -1.0
        return limit, time.monotonic() + (self.began + self.timeout - time.monotonic()) * fraction

    def exhausted(self) -> bool:
        return self.max_positions is not None and self.spent >= self.max_positions

    def report(self, positions: int, seconds: float) -> None:
        """Progress of the running pass: its positions added to the spent ones, the solve's time."""
        if self.progress is not None:
            self.progress(self.spent + positions, time.monotonic() - self.began)


def search(
    start: Position,
    *,
    timeout: float | None,
    max_positions: int | None,
    max_memory_mb: int,
    progress: Callable[[int, float], None] | None,
) -> tuple[str, tuple[Move, ...], int]:
    """Staged rounds (wins only), then the complete DFS: (verdict, moves, positions)."""
    assert _core is not None
    budget = Budget(max_positions, timeout, progress)
    arguments = encode(start)
    table = max_memory_mb * 1024 * 1024
    staged_limit, staged_deadline = budget.share(STAGED_SHARE)
    rounds = staged_rounds(start.variant, max_positions)
    for index, (mode, width, per_position, weights, again) in enumerate(rounds):
        left = -1 if staged_limit < 0 else staged_limit - budget.spent
        if left == 0 or (staged_deadline >= 0 and time.monotonic() >= staged_deadline):
            break
        if index == 0 and left >= 0:
            width, per_position = fit(width, per_position, left)
        core = _core.Core(table_bytes=table, **arguments)
        stages: list[list[Node]] | None = [] if again else None
        verdict, path = staged(
            core, mode, width, per_position, left, staged_deadline, budget.report, weights, stages
        )
        budget.spent += int(core.positions)
        del core
        if verdict == "won":
            return "won", decode_path(path), budget.spent
        if stages:
            # a share of what is left, so that the rounds after this one keep the rest
            limit, deadline = staged_limit, staged_deadline
            if limit >= 0:
                limit = budget.spent + int((limit - budget.spent) * REROOT_SHARE)
            if deadline >= 0:
                now = time.monotonic()
                deadline = now + (deadline - now) * REROOT_SHARE
            moves = reroot(start, stages, budget, limit, deadline, max_memory_mb)
            if moves is not None:
                return "won", moves, budget.spent
        if budget.exhausted():
            return "unknown", (), budget.spent
    return complete(arguments, table, budget)


#: Re-rooting (:func:`reroot`): the positions of the check that a stage's
#: best position is lost, and of each search from the REROOT_TOP best
#: positions of the stage where the checks stopped and the one before it.
REROOT_CHECK = 100_000
REROOT_SEARCH = 1_000_000
REROOT_TOP = 2
#: The share of what is left of the staged rounds' positions and time that
#: one re-rooting may spend.
REROOT_SHARE = 1 / 3


def reroot(
    start: Position,
    stages: Sequence[Sequence[Node]],
    budget: Budget,
    limit: int,
    deadline: float,
    memory_mb: int,
) -> tuple[Move, ...] | None:
    """Search again from a dead round's beams: a win from ``start``, or None.

    A round's beam carries its best-scored tables from deal to deal, and on
    a hard deal the tables it still holds a few deals from the end are often
    lost already: the stage before went on with tables that scored well and
    left no way through.  Going back from the last stage, the best position
    of each stage's beam gets a small search (REROOT_CHECK positions) until
    one is not proven lost; that stage's REROOT_TOP best positions and the
    stage before's then each get a search of their own (REROOT_SEARCH
    positions: a fresh staged search rooted there, then the complete
    search).  Any win on the way is the win.  ``limit`` and ``deadline``
    bound the budget's spent positions and the time (-1: no bound).
    """

    def attempt(node: Node, positions: int) -> tuple[str, tuple[Move, ...] | None]:
        if limit >= 0:
            positions = min(positions, limit - budget.spent)
        timeout = None if deadline < 0 else deadline - time.monotonic()
        if positions <= 0 or (timeout is not None and timeout <= 0):
            return "spent", None
        prefix = unpack_line(line(node))
        position = start
        for move in prefix:
            position = position.apply(move)
        verdict, moves, spent = search(
            position,
            timeout=timeout,
            max_positions=positions,
            max_memory_mb=memory_mb,
            progress=None,
        )
        budget.spent += spent
        budget.report(0, 0.0)
        return verdict, (prefix + moves if verdict == "won" else None)

    pivot = None
    for stage in range(len(stages) - 1, 0, -1):
        if not stages[stage]:
            continue
        verdict, won = attempt(stages[stage][0], REROOT_CHECK)
        if won is not None or verdict == "spent":
            return won
        if verdict == "unknown":
            pivot = stage
            break
    if pivot is None:
        return None
    for stage in (pivot, pivot - 1):
        for node in stages[stage][:REROOT_TOP] if stage > 0 else ():
            verdict, won = attempt(node, REROOT_SEARCH)
            if won is not None or verdict == "spent":
                return won
    return None


def staged_rounds(variant: Variant, max_positions: int | None) -> tuple[Round, ...]:
    """The staged rounds for ``variant`` and a position budget (None: none).

    Without a reprieve only the "cap" rounds run: the planner has nothing to
    plan; and none is re-rooted: on spanish deals that cost more wins than
    it gave (docs/BENCHMARKS.md, "Re-rooting a dead round").
    """
    large = max_positions is None or max_positions >= LARGE_BUDGET
    rounds = LARGE_ROUNDS if large else STAGED_ROUNDS
    if variant.reprieve != "none":
        return rounds
    return tuple(r._replace(reroot=False) for r in rounds if r.mode == "cap")


def fit(width: int, per_position: int, positions: int) -> tuple[int, int]:
    """A round shrunk to a small budget (hints, small limits).

    A round needs about ``width * per_position`` positions per stage, for
    twelve stages and a longer last one.  A budget below that shrinks both
    numbers by the square root of the shortfall.
    """
    need = width * per_position * 13
    if positions >= need:
        return width, per_position
    shrink = math.sqrt(positions / need)
    return max(4, int(width * shrink)), max(50, int(per_position * shrink))


def staged(
    core: Any,
    mode: str,
    width: int,
    per_position: int,
    limit: int,
    deadline: float,
    report: Callable[[int, float], None],
    weights: Mapping[str, int] = WEIGHTS,
    stages: list[list[Node]] | None = None,
) -> tuple[str, list[tuple[int, int, int, int]] | None]:
    """One round of the staged search: a beam of ``width`` positions from deal to deal.

    In each stage, every beam position gets a DFS of ``per_position``
    positions that never deals and passes on its best ``KEEP`` positions in
    which a deal is allowed (scored by the core).  The best ``width`` of all
    of them are dealt in and make the next stage's beam.  The last stage
    (stock empty) searches for the win.  Returns ("won", moves) or
    ("unknown", None); a round never proves a loss.  Each stage's beam, best
    first, is appended to ``stages`` when it is given.
    """
    set_stage_mode(core, mode, weights)
    began = time.monotonic()
    # the beam is a tree: a node is (parent, the moves from the parent's
    # position to this one), so a stage's candidates share their past
    beam: list[Node] = [(None, b"")]
    while beam:
        if stages is not None:
            stages.append(beam)
        candidates: list[tuple[int, Node]] = []
        for node in beam:
            if limit >= 0 and core.positions >= limit:
                return "unknown", None
            if deadline >= 0 and time.monotonic() >= deadline:
                return "unknown", None
            try:
                core.goto(line(node))
            except ValueError:  # longer than the core's depth cap: drop this line
                continue
            last = core.stock_left == 0
            stop = core.positions + per_position * (LAST_STAGE if last else 1)
            if limit >= 0:
                stop = min(stop, limit)
            verdict, won, found = core.stage(stop, deadline, KEEP)
            core.back()
            report(int(core.positions), time.monotonic() - began)
            if verdict == "won":
                return "won", won
            candidates.extend((score, (node, tail + DEAL_BYTES)) for score, tail in found)
        candidates.sort(key=lambda candidate: -candidate[0])
        beam = [node for _, node in candidates[:width]]
    return "unknown", None


def set_stage_mode(core: Any, mode: str, weights: Mapping[str, int] = WEIGHTS) -> None:
    """Set a core up for ``stage``: the score's weights, and how reprieves are explored.

    ``mode`` is "plan" (the planner's outcomes) or "cap" (free moves one by
    one, at most FIRST_PASS_FREE_MOVES per reprieve).
    """
    for name, value in weights.items():
        setattr(core, name, value)
    if mode == "plan":
        core.planner = True
        core.plan_goals = 1
        core.plan_work = 500
    else:
        core.max_free = FIRST_PASS_FREE_MOVES


def new_core(position: Position, memory_mb: int, mode: str | None = None) -> Any:
    """A core at ``position`` with a table of ``memory_mb``; set up for ``stage`` in ``mode``."""
    assert _core is not None
    core = _core.Core(table_bytes=memory_mb * 1024 * 1024, **encode(position))
    if mode is not None:
        set_stage_mode(core, mode)
    return core


def line(node: Node) -> bytes:
    """The packed moves from the start position to a beam node."""
    parts = []
    while node[0] is not None:
        parts.append(node[1])
        node = node[0]
    return b"".join(reversed(parts))


def complete(
    arguments: dict[str, object], table: int, budget: Budget
) -> tuple[str, tuple[Move, ...], int]:
    """The complete DFS (after a first pass with capped free moves): wins and losses."""
    assert _core is not None
    if arguments["rule"] != _RULES["none"]:
        # First pass: at most FIRST_PASS_FREE_MOVES free moves per reprieve.
        # It can prove a win; it proves a loss only if the cap never cut a
        # move (core.incomplete is False).
        core = _core.Core(table_bytes=table, **arguments)
        core.max_free = FIRST_PASS_FREE_MOVES
        limit, deadline = budget.share(1 / FIRST_PASS_SHARE)
        verdict, path = core.search(limit, deadline, budget.report, budget.began)
        budget.spent += int(core.positions)
        del core
        if verdict == "won" or verdict == "lost":
            return str(verdict), decode_path(path), budget.spent
        if budget.exhausted():
            return "unknown", (), budget.spent
    core = _core.Core(table_bytes=table, **arguments)
    limit, deadline = budget.share(1)
    verdict, path = core.search(limit, deadline, budget.report, budget.began)
    return str(verdict), decode_path(path), budget.spent + int(core.positions)


#: The card of each core code (``suit * 13 + rank - 1``).
CARD_OF = tuple(card for suit in CARDS for card in suit)


class _Packed(dict[Move, bytes]):
    """Each move's four bytes for ``goto``, made the first time the move is asked for."""

    def __missing__(self, move: Move) -> bytes:
        assert _core is not None
        packed: bytes = _core.pack_move(*encode_move(move)).to_bytes(4, "big")
        self[move] = packed
        return packed


class _Unpacked(dict[int, Move]):
    """The move of each packed code, made the first time the code is asked for."""

    def __missing__(self, code: int) -> Move:
        move = decode_move(code & 3, (code >> 2) & 15, (code >> 10) & 1023, (code >> 6) & 15)
        self[code] = move
        return move


# A stage search's lines run to tens of thousands of moves, of a few hundred
# kinds: each is made once (moves are values, so one can stand for all).
_PACKED = _Packed()
_UNPACKED = _Unpacked()


def pack_line(moves: Sequence[Move]) -> bytes:
    """Moves packed four bytes each, big-endian, as ``goto`` takes them (no free-move bit)."""
    return b"".join(map(_PACKED.__getitem__, moves))


def after(position: Position, moves: Sequence[Move]) -> Position | None:
    """``position`` after ``moves`` (legal there), played in the core; None if it cannot say.

    What applying the moves one by one gives, several times faster on the
    long lines of the stage search. None when the core was not built, the
    line is longer than the core's depth, or a reprieve is open at the end:
    the core keeps only the moved cards that are not settled, and the
    engine keeps them all.
    """
    if _core is None:
        return None
    # no position table: goto looks nothing up, and a table kept for reuse
    # here would leave less room for the searches' (see _core's spare tables)
    core = new_core(position, 0)
    try:
        core.goto(pack_line(moves))
    except ValueError:  # longer than the core's depth
        return None
    columns, face_down, foundations, dealt, reprieve = core.state()
    if reprieve >= 0:
        return None
    decks = position.variant.decks
    return Position(
        position.variant,
        tuple(tuple(CARD_OF[byte & 63] for byte in column) for column in columns),
        tuple(face_down),
        tuple(tuple(heights[:decks]) for heights in foundations),
        position.stock[dealt:],
    )


def unpack_line(tail: bytes) -> tuple[Move, ...]:
    """Moves packed four bytes each, big-endian, as ``goto`` takes and ``stage`` gives them.

    The bit layout is the core's ``pack``: kind in bits 0-1, source in 2-5,
    target in 6-9, count in 10-19.
    """
    return tuple(map(_UNPACKED.__getitem__, struct.unpack(f">{len(tail) // 4}I", tail)))


def decode_path(path: list[tuple[int, int, int, int]] | None) -> tuple[Move, ...]:
    """Engine moves from the core's (kind, source, count, target) path (None: no moves)."""
    return tuple(decode_move(*step) for step in path) if path is not None else ()


def table_bytes(max_memory_mb: int) -> int:
    """The bytes the core's position table takes for a budget (a power of two <= it)."""
    assert _core is not None
    return int(_core.table_size(max_memory_mb * 1024 * 1024))
