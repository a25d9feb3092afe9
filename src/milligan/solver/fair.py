"""The fair player: advice from what the player sees, never from hidden cards.

Everything here takes :class:`~milligan.position.Observation` values, so the
stock order and face-down cards are out of reach by construction.  The method
(docs/SOLVER.md, "The fair player") is determinized search over stage plans:

1. Sample ``samples`` full positions consistent with the observation (the
   same samples for every candidate: common random numbers).
2. List candidate *plans*: move sequences that end with the first move that
   shows something new (a deal, or a face-down card turned up).  Until then
   every sample agrees on what the player sees, so a plan is legal in all of
   them.  The candidates are the best-scored tables in which a deal is
   allowed, found by the compiled core's stage search, which never enters a
   position the game has already been through.
3. Solve the rest of the game in every sample after every plan, with a
   position budget, and pick the plan that wins the most samples (ties and
   the no-win case go to the table heuristic: cards up, fewer breaks, empty
   columns, needed cards near the top).

>>> from milligan.game import Game
>>> advice = advise(Game.new("classic", 42).position.observe(), samples=2,
...                 max_positions=40_000)
>>> advice.move in Game.new("classic", 42).legal_moves()
True
>>> advice.plan[0] == advice.move
True
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from milligan.errors import IllegalMoveError
from milligan.game import Game
from milligan.moves import DEAL, Move, MoveKind
from milligan.position import Observation, Position
from milligan.solver import compiled, plain
from milligan.solver.results import Hint
from milligan.solver.sampling import sample_position
from milligan.solver.shorten import _merge_runs, _shortcuts

#: Samples per decision, and the positions one decision may expand in all.
DEFAULT_SAMPLES = 8
DEFAULT_POSITIONS = 600_000
#: Candidate plans scored per decision.
CANDIDATES = 6
#: The stage search's share of a decision's positions (the rest solves samples).
STAGE_SHARE = 0.15
#: The position table of each search: fixed, so advice never depends on the machine.
MEMORY_MB = 64
#: Weights of the table heuristic (the compiled core's stage score uses the same).
WEIGHTS: dict[str, int] = compiled.WEIGHTS


@dataclass(frozen=True, slots=True)
class Plan:
    """A decision: the moves to play from an observation, and how they fared.

    ``moves`` end with the first move that shows something new (a deal or a
    face-down card), or with the win, or are the fallback's single move.
    ``wins`` counts the samples won after the plan; ``score`` is the table
    heuristic at the plan's end (before its last move shows anything new).
    """

    moves: tuple[Move, ...]
    wins: int
    samples: int
    score: float
    positions: int
    repeats: bool = False
    lost: bool = False


def hint(
    view: Observation | Position | Game,
    history: Sequence[Observation] | None = None,
    *,
    samples: int = DEFAULT_SAMPLES,
    seed: int = 0,
    max_positions: int = DEFAULT_POSITIONS,
) -> Hint:
    """:func:`advise` for an observation, a position or a game.

    A position or a game is turned into what its player sees before anything
    else happens; a game also gives its line of play as the history.
    """
    if isinstance(view, Game):
        if history is None:
            history = [position.observe() for position in view.positions[:-1]]
        view = view.position
    if isinstance(view, Position):
        view = view.observe()
    return advise(
        view, history or (), samples=samples, seed=seed, max_positions=max_positions
    )


def advise(
    view: Observation,
    history: Sequence[Observation] = (),
    *,
    samples: int = DEFAULT_SAMPLES,
    seed: int = 0,
    max_positions: int = DEFAULT_POSITIONS,
) -> Hint:
    """The fair player's move for ``view``, the line so far being ``history``.

    ``history`` holds what the player saw at every earlier position of the
    line (oldest first); the advice never leads back to one of them unless
    nothing else is legal, and then says so (``repeats``).  The answer depends
    only on the arguments: budgets count positions, not seconds.
    """
    chosen = decide(view, history, samples=samples, seed=seed, max_positions=max_positions)
    return hint_of(chosen)


def hint_of(plan: Plan) -> Hint:
    """The :class:`Hint` that starts ``plan``."""
    move = plan.moves[0] if plan.moves else None
    chance = plan.wins / plan.samples if plan.samples else 0.0
    return Hint(move, chance, plan.samples, plan.wins, plan.moves, plan.repeats)


def decide(
    view: Observation,
    history: Sequence[Observation] = (),
    *,
    samples: int = DEFAULT_SAMPLES,
    seed: int = 0,
    max_positions: int = DEFAULT_POSITIONS,
) -> Plan:
    """The best plan from ``view`` (see the module docstring)."""
    samples = max(1, samples)
    rng = random.Random(seed)
    worlds = [sample_position(view, rng) for _ in range(samples)]
    here = worlds[0]
    if here.is_won() or not here.legal_moves():
        return Plan((), 0, samples, 0.0, 0)
    seen = {old for old in history if old.stock == view.stock} | {view}
    if view.stock == 0 and not _hidden(view):
        return _endgame(here, seen, samples, max_positions)
    stage_budget = max(1000, int(max_positions * STAGE_SHARE))
    plans = _candidates(worlds, seen, stage_budget)
    spent = stage_budget
    if GEN:
        per_world = max(1000, int(max_positions * GEN) // samples)
        solved, cost = _from_solutions(worlds, seen, per_world)
        spent += cost
        known = {moves for moves, _ in solved}
        plans = solved + [plan for plan in plans if plan[0] not in known]
        plans = plans[:CANDIDATES + 2]
    if not plans:
        return _fallback(here, seen, samples, 0)
    if VALUE != "wins":
        per_solve = max(500, (max_positions - stage_budget) // (len(plans) * samples))
        return _by_lookahead(here, worlds, plans, per_solve, spent)
    if VALUE == "wins" and HALVING:
        return _halving(here, worlds, plans, max_positions, spent)
    per_solve = max(500, (max_positions - stage_budget) // (len(plans) * samples))
    # candidates come best-scored first and ties go to the earlier one, so a
    # later candidate must win more samples than the best so far: its
    # evaluation stops as soon as it cannot
    best: tuple[tuple[Move, ...], int, float] | None = None
    for moves, score in plans:
        wins = lost = 0
        for world in worlds:
            if best is not None and lost >= samples - best[1]:
                break
            won, positions = _wins_after(world, moves, per_solve)
            wins += won
            lost += 1 - won
            spent += positions
        if best is None or wins > best[1]:
            best = (moves, wins, score)
        if best[1] == samples:
            break
    assert best is not None
    moves = _shorten(here, best[0][:-1]) + best[0][-1:]
    return Plan(moves, best[1], samples, best[2], spent)


HALVING = True
FIRST_SOLVE = 20_000
GROWTH = 4


def _halving(
    here: Position,
    worlds: Sequence[Position],
    plans: Sequence[tuple[tuple[Move, ...], float]],
    max_positions: int,
    spent: int,
) -> Plan:
    """Score plans by samples won, in rounds of growing solve budgets.

    Round one solves every (plan, sample) pair with FIRST_SOLVE positions;
    each later round keeps the better half of the plans and solves their
    samples not yet won with GROWTH times the budget.  A win found at any
    budget stays a win.  It ends with one plan left, or when the next round
    would pass ``max_positions``.
    """
    samples = len(worlds)
    won: dict[int, set[int]] = {i: set() for i in range(len(plans))}
    alive = list(range(len(plans)))
    budget = FIRST_SOLVE
    while True:
        need = sum(samples - len(won[i]) for i in alive) * budget
        if spent + need > max_positions and budget > FIRST_SOLVE:
            break
        for i in alive:
            for s, world in enumerate(worlds):
                if s not in won[i]:
                    win, positions = _wins_after(world, plans[i][0], budget)
                    spent += positions
                    if win:
                        won[i].add(s)
        # the order of ``plans`` (best heuristic score first) breaks ties
        alive.sort(key=lambda i: (-len(won[i]), i))
        if len(alive) == 1 or len(won[alive[0]]) == samples:
            break
        alive = alive[: max(1, (len(alive) + 1) // 2)]
        budget *= GROWTH
    best = alive[0]
    moves = plans[best][0]
    moves = _shorten(here, moves[:-1]) + moves[-1:]
    return Plan(moves, len(won[best]), samples, plans[best][1], spent)


VALUE = "wins"
GEN = 0.0


def _from_solutions(
    worlds: Sequence[Position], seen: set[Observation], budget: int
) -> tuple[list[tuple[tuple[Move, ...], float]], int]:
    """Plans taken from sampled solutions: each won sample's line up to its first news."""
    counts: dict[Observation, int] = {}
    lines: dict[Observation, tuple[Move, ...]] = {}
    spent = 0
    for world in worlds:
        verdict, moves, positions = _search(world, budget)
        spent += positions
        if verdict != "won":
            continue
        line = _until_news(world, moves)
        if _visits(world, line[:-1], seen):
            continue
        end = world
        for move in line[:-1]:
            end = end.apply(move)
        key = end.observe()
        counts[key] = counts.get(key, 0) + 1
        if key not in lines or len(line) < len(lines[key]):
            lines[key] = line
    ranked = sorted(lines, key=lambda key: -counts[key])
    return [(lines[key], float(counts[key])) for key in ranked], spent


def _by_lookahead(
    here: Position,
    worlds: Sequence[Position],
    plans: Sequence[tuple[tuple[Move, ...], float]],
    per_solve: int,
    spent: int,
) -> Plan:
    samples = len(worlds)
    best: tuple[float, int, tuple[Move, ...]] | None = None
    for moves, _score_here in plans:
        total = 0.0
        wins = 0
        for world in worlds:
            position = world
            for move in moves:
                position = position.apply(move)
            value, won, positions = _lookahead(position, per_solve)
            spent += positions
            total += value
            wins += won
        key = (total / samples + (1000.0 * wins / samples if VALUE == "both" else 0.0), wins, moves)
        if best is None or key[0] > best[0]:
            best = key
    assert best is not None
    moves = _shorten(here, best[2][:-1]) + best[2][-1:]
    return Plan(moves, best[1], samples, best[0], spent)


def _lookahead(position: Position, budget: int) -> tuple[float, int, int]:
    """(value, won, positions): the best table score of the next stage."""
    if position.is_won():
        return 1e6, 1, 0
    won = 0
    spent = 0
    if VALUE == "both" or not position.stock:
        verdict, _, spent = _search(position, budget // 2 if VALUE == "both" else budget)
        won = verdict == "won"
        if not position.stock:
            return (1e6 if won else _score(position)), int(won), spent
    core = compiled.new_core(position, MEMORY_MB, _mode(position))
    verdict, _, found = core.stage(budget // 2 if VALUE == "both" else budget, -1.0, 1)
    spent += int(core.positions)
    if verdict == "won":
        return 1e6, 1, spent
    return (float(found[0][0]) if found else _score(position)), int(won), spent


def _hidden(view: Observation) -> bool:
    """Whether the observation hides a face-down card."""
    return any(card is None for cards in view.columns for card in cards)


def _endgame(here: Position, seen: set[Observation], samples: int, budget: int) -> Plan:
    """Nothing is hidden any more: solve exactly what the player sees."""
    verdict, moves, positions = _search(here, budget)
    if verdict == "won":
        line = _shorten(here, moves)
        if not _visits(here, line[:1], seen):
            return Plan(line, samples, samples, _score(here), positions)
    plan = _fallback(here, seen, samples, positions)
    # with nothing hidden, an exhaustive "lost" is the player's own knowledge
    return replace(plan, lost=verdict == "lost")


def _candidates(
    worlds: Sequence[Position], seen: set[Observation], budget: int
) -> list[tuple[tuple[Move, ...], float]]:
    """Candidate plans (moves, heuristic score), best-scored first, at most CANDIDATES.

    With nothing face down the table is the same in every sample, so one
    stage search serves all; otherwise each of a few samples gets its own,
    and its lines are cut at the first card they turn up.
    """
    hidden = _hidden(worlds[0].observe())
    sources = worlds[: min(len(worlds), 4)] if hidden else worlds[:1]
    share = max(500, budget // len(sources))
    found: dict[tuple[Move, ...], float] = {}
    for world in sources:
        for moves, score in _stage(world, seen, share):
            line = _until_news(world, moves)
            if line and line not in found:
                found[line] = score
    ranked = sorted(found.items(), key=lambda item: (-item[1], len(item[0])))
    return ranked[:CANDIDATES]


def _stage(
    world: Position, seen: set[Observation], budget: int
) -> list[tuple[tuple[Move, ...], float]]:
    """Lines to the best-scored tables of this stage where a deal is allowed, plus ``D``.

    No line passes through a position whose observation is in ``seen``.
    """
    if not compiled.AVAILABLE:
        return _stage_plain(world, seen, budget)
    core = compiled.new_core(world, MEMORY_MB, _mode(world))
    for old in seen:
        if old != world.observe():
            core.forbid(*_key(old, world))
    verdict, won, found = core.stage(budget, -1.0, CANDIDATES * 2)
    if verdict == "won":
        return [(compiled._moves(won), float("inf"))]
    out = []
    for score, tail in found:
        out.append((compiled.unpack_line(tail) + (DEAL,), float(score)))
    return out


def _mode(position: Position) -> str:
    """How the stage search explores a reprieve: the planner where there is one."""
    return "cap" if position.variant.reprieve == "none" else "plan"


def _key(view: Observation, world: Position) -> tuple[int, int]:
    """The core's key of a position the player saw (hidden cards from ``world``'s stock).

    Only positions with as many cards in the stock as ``world`` are compared,
    and the core's keys do not look at the stock's order, so any filling
    gives the same key.
    """
    rng = random.Random(0)
    filled = sample_position(view, rng)
    core = compiled.new_core(filled, 1)
    k1, k2 = core.key()
    return int(k1), int(k2)


def _until_news(world: Position, moves: Sequence[Move]) -> tuple[Move, ...]:
    """``moves`` up to and including the first that shows the player something new."""
    position = world
    out: list[Move] = []
    for move in moves:
        hidden = _hidden_count(position)
        position = position.apply(move)
        out.append(move)
        if move.kind is MoveKind.DEAL or _hidden_count(position) < hidden:
            break
    return tuple(out)


def _hidden_count(position: Position) -> int:
    return sum(position.face_down)


def _wins_after(world: Position, moves: Sequence[Move], budget: int) -> tuple[int, int]:
    """(1 if the sample is won after ``moves`` within ``budget`` positions else 0, positions)."""
    position = world
    for move in moves:
        position = position.apply(move)
    if position.is_won():
        return 1, 0
    verdict, _, positions = _search(position, budget)
    return (1 if verdict == "won" else 0), positions


def _search(position: Position, budget: int) -> tuple[str, tuple[Move, ...], int]:
    engine = compiled.search if compiled.AVAILABLE else plain.search
    return engine(
        position, timeout=None, max_positions=budget, max_memory_mb=MEMORY_MB, progress=None
    )


def _shorten(start: Position, moves: Sequence[Move]) -> tuple[Move, ...]:
    """The same line, detours and cycles cut (it visits only positions it visited)."""
    if not moves:
        return ()
    return _merge_runs(start, _shortcuts(start, tuple(moves)))


def _visits(start: Position, moves: Iterable[Move], seen: set[Observation]) -> bool:
    """Whether playing ``moves`` from ``start`` reaches a position the player saw before."""
    position = start
    for move in moves:
        position = position.apply(move)
        if position.observe() in seen:
            return True
    return False


def _fallback(here: Position, seen: set[Observation], samples: int, positions: int) -> Plan:
    """No plan: the legal move whose table scores best, new positions first.

    A deal scores as the table it is made from.  A move back to a position
    already seen is chosen only when every legal move is one (``repeats``).
    """
    best: tuple[bool, float, int] | None = None
    choice: Move | None = None
    for index, move in enumerate(here.legal_moves()):
        try:
            after = here.apply(move)
        except IllegalMoveError:  # pragma: no cover - legal moves apply
            continue
        fresh = after.observe() not in seen
        score = _score(here if move.kind is MoveKind.DEAL else after)
        key = (fresh, score, -index)
        if best is None or key > best:
            best, choice = key, move
    if choice is None or best is None:
        return Plan((), 0, samples, 0.0, positions)
    return Plan((choice,), 0, samples, best[1], positions, repeats=not best[0])


def _score(position: Position) -> float:
    """The table heuristic, as the compiled core's stage score computes it.

    Cards up count most; cards that do not lie on a card one rank higher
    and of the other colour (breaks, face-down cards included) count
    against, empty columns for, and so does the depth of the shallowest copy
    of each card the foundations need next (12 when it is not on the table).
    """
    up = position.cards_on_foundations()
    breaks = empty = 0
    depth: dict[object, int] = {}
    for cards, down in zip(position.columns, position.face_down, strict=True):
        if not cards:
            empty += 1
            continue
        for i, card in enumerate(cards):
            deep = len(cards) - 1 - i
            if deep < depth.get(card, 1000):
                depth[card] = deep
            if i and (i <= down or not card.can_go_on(cards[i - 1])):
                breaks += 1
    need = 0
    for suit_cards, heights in zip(_suits(), position.foundations, strict=True):
        for height in sorted(set(heights)):
            if height < 13:
                need += min(depth.get(suit_cards[height], 12), 12)
    return float(
        WEIGHTS["w_found"] * up
        - WEIGHTS["w_break"] * breaks
        + WEIGHTS["w_empty"] * empty
        - WEIGHTS["w_depth"] * need
    )


def _suits() -> tuple[tuple[object, ...], ...]:
    from milligan.cards import CARDS

    return tuple(tuple(cards) for cards in CARDS)


def _stage_plain(
    world: Position, seen: set[Observation], budget: int
) -> list[tuple[tuple[Move, ...], float]]:
    """:func:`_stage` without the compiled core: a plain DFS over engine positions."""
    visited: set[Position] = {world}
    found: list[tuple[float, tuple[Move, ...]]] = []
    stack: list[tuple[Position, tuple[Move, ...]]] = [(world, ())]
    expanded = 0
    while stack and expanded < budget:
        position, line = stack.pop()
        expanded += 1
        legal = position.legal_moves()
        if DEAL in legal:
            found.append((_score(position), line))
        for move in reversed(legal):
            if move.kind is MoveKind.DEAL:
                continue
            after = position.apply(move)
            if after in visited or after.observe() in seen:
                continue
            if after.is_won():
                return [((*line, move), float("inf"))]
            visited.add(after)
            stack.append((after, (*line, move)))
    found.sort(key=lambda item: (-item[0], len(item[1])))
    return [((*line, DEAL), score) for score, line in found[: CANDIDATES * 2]]


#: Autoplay gives up after this many moves with no card up and no deal.
STALL_MOVES = 200


@dataclass(frozen=True, slots=True)
class Autoplay:
    """How a game played by :func:`autoplay` ended, and what it cost."""

    result: str
    decisions: int
    positions: int


def autoplay(
    game: Game,
    *,
    samples: int = DEFAULT_SAMPLES,
    seed: int = 0,
    max_positions: int = DEFAULT_POSITIONS,
) -> Autoplay:
    """Play ``game`` to its end with the fair player alone (``game`` is changed).

    Each decision sees only the observations of the line so far; its plan is
    played through, and the next decision is made once it has shown
    something new.  The game is resigned when the only legal moves lead back
    to positions already reached, when nothing is hidden any more and an
    exhaustive search finds no win, or after ``STALL_MOVES`` moves without
    progress.  Each decision's seed comes from ``seed`` and the number of
    moves played, so the whole game repeats exactly.  The result is ``won``,
    ``lost`` (a dead end) or ``resigned``.
    """
    history = [position.observe() for position in game.positions]
    stalled = decisions = positions = 0
    while game.status == "playing":
        plan = decide(
            history[-1],
            history[:-1],
            samples=samples,
            seed=seed * 1_000_003 + len(game.moves),
            max_positions=max_positions,
        )
        decisions += 1
        positions += plan.positions
        if not plan.moves or plan.repeats or plan.lost:
            game.resign()
            break
        for move in plan.moves:
            before = game.position.cards_on_foundations()
            game.play(move)
            history.append(game.position.observe())
            progress = move.kind is MoveKind.DEAL or game.position.cards_on_foundations() > before
            stalled = 0 if progress else stalled + 1
            if game.status != "playing" or history[-1] in history[:-1]:
                break
        if stalled >= STALL_MOVES and game.status == "playing":
            game.resign()
    return Autoplay(game.status, decisions, positions)
