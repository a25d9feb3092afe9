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
   position the game has already been through; with nothing face down, the
   complete-knowledge solver adds the table it deals from in each of a few
   samples it wins (a table that suits some stock, proposed, not chosen).
3. Score each plan by looking one stage ahead in every sample: play the
   plan (its deal shows the sample's next row) and search that next stage
   for the best table to deal from, scored by the table heuristic (cards
   up, fewer breaks, empty columns, needed cards near the top); after the
   last deal, solve exactly instead.  No card beyond the next row is used,
   so the choice is not biased toward lines that only work when the whole
   stock is known.  The plan with the best total wins; ties go to the plan
   whose own table scores best.
4. Estimate the chosen plan's win chance by solving the rest of the game
   in every sample with a position budget (optimistic: each sample is
   solved as if its stock were known).

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
from collections import OrderedDict
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from functools import partial
from typing import TypeVar

from milligan.cards import CARDS, Card
from milligan.errors import IllegalMoveError
from milligan.game import Game
from milligan.moves import DEAL, Move, MoveKind
from milligan.position import Observation, Position
from milligan.solver import compiled, plain
from milligan.solver.estimate import estimate
from milligan.solver.results import Hint
from milligan.solver.sampling import sample_position
from milligan.solver.shorten import simplify
from milligan.workers import usable_cores

#: Samples per decision, and the positions one decision may expand in all.
#: 16 and 2,000,000 won 283 of classic deals 1-600 against 256 for 8 and
#: 1,000,000; the solver's candidates (SOLVES) take the positions from
#: 2,000,000 to 4,000,000 (docs/SOLVER.md).  The browser's hints take the
#: same, on the cores the process may use (web.deps.HelpBudget, ``threads``).
DEFAULT_SAMPLES = 16
DEFAULT_POSITIONS = 4_000_000
#: The most threads :func:`default_threads` gives one decision: a decision
#: starts with seven searches side by side (the stage search and the six
#: solves), and speed-ups were measured on two cores only (docs/BENCHMARKS.md).
MAX_THREADS = 4
#: Candidate plans scored per decision.
CANDIDATES = 6
#: The stage search's share of a decision's positions once the solves have
#: theirs (SOLVE_SHARE; see CHANCE_SHARE for the rest).
STAGE_SHARE = 0.15
#: The position table of each search: fixed, so advice never depends on the machine.
MEMORY_MB = 64
#: Weights of the table heuristic, as the compiled core's stage score uses
#: them.  Cards up weigh far less than in the solver's staged search
#: (compiled.WEIGHTS): a card sent up early is no longer a parent, and a
#: player who cannot see the stock needs parents (docs/SOLVER.md).
#: ``w_king`` counts against each face-up King lying on other cards, and
#: ``w_down`` against each face-down card; both were measured and weigh
#: nothing (docs/SOLVER.md, "What was tried and not kept").
WEIGHTS: dict[str, int] = {
    "w_found": 8,
    "w_break": 8,
    "w_empty": 16,
    "w_depth": 1,
    "w_king": 0,
    "w_down": 0,
}


@dataclass(frozen=True, slots=True)
class Plan:
    """A decision: the moves to play from an observation, and how they fared.

    ``moves`` end with the first move that shows something new (a deal or a
    face-down card), or with the win, or are the fallback's single move.
    ``wins`` counts the samples won after the plan, and ``unsettled`` those
    whose solve ran out of positions before it found a win or proved there
    was none (they count as not won); ``score`` is the table heuristic at
    the plan's end (before its last move shows anything new).
    """

    moves: tuple[Move, ...]
    wins: int
    samples: int
    score: float
    positions: int
    repeats: bool = False
    lost: bool = False
    unsettled: int = 0


def default_threads() -> int:
    """Threads for a decision someone waits for: the cores this process may use
    (its CPU affinity, within its CPU quota: :func:`milligan.workers.usable_cores`),
    at most MAX_THREADS."""
    return min(MAX_THREADS, usable_cores())


def hint(
    view: Observation | Position | Game,
    history: Sequence[Observation] | None = None,
    *,
    samples: int = DEFAULT_SAMPLES,
    seed: int = 0,
    max_positions: int = DEFAULT_POSITIONS,
    threads: int = 1,
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
        view,
        history or (),
        samples=samples,
        seed=seed,
        max_positions=max_positions,
        threads=threads,
    )


def advise(
    view: Observation,
    history: Sequence[Observation] = (),
    *,
    samples: int = DEFAULT_SAMPLES,
    seed: int = 0,
    max_positions: int = DEFAULT_POSITIONS,
    threads: int = 1,
) -> Hint:
    """The fair player's move for ``view``, the line so far being ``history``.

    ``history`` holds what the player saw at every earlier position of the
    line (oldest first); the advice never leads back to one of them unless
    nothing else is legal, and then says so (``repeats``).  The answer depends
    only on the arguments, ``threads`` aside: budgets count positions, not
    seconds, and ``threads`` (see :func:`decide`) changes only how fast.
    """
    chosen = decide(
        view, history, samples=samples, seed=seed, max_positions=max_positions, threads=threads
    )
    return hint_of(chosen, view)


def hint_of(plan: Plan, view: Observation, moves: Sequence[Move] | None = None) -> Hint:
    """The :class:`Hint` that plays ``moves`` (by default all of ``plan``), decided at ``view``.

    Only the whole plan can repeat: a plan that leads back is the fallback's
    single move, so it is never followed move by move.
    """
    rest = plan.moves if moves is None else tuple(moves)
    return Hint(
        rest[0] if rest else None,
        plan.wins / plan.samples if plan.samples else 0.0,
        estimate(view, plan.wins, plan.samples, plan.unsettled),
        plan.samples,
        plan.wins,
        rest,
        plan.repeats and moves is None,
    )


class Advisor:
    """Hints for one game that reuse the plan in force while the player follows it.

    A decision costs a search; the moves of its plan that follow cost
    nothing, so a player pressing Hint over and over waits only at the
    start of each plan.  When the player leaves the plan (or the plan has
    shown something new), the next hint makes a new decision from what the
    player sees then.  The seed of a decision is ``seed`` plus the length of
    the line, as in :func:`autoplay`.  Asked again where the plan starts,
    with the same line and seed, it gives the plan again: the decision
    would come out the same (a server can so make a hint ahead, before the
    player asks).
    """

    def __init__(
        self,
        *,
        samples: int = DEFAULT_SAMPLES,
        seed: int = 0,
        max_positions: int = DEFAULT_POSITIONS,
        threads: int = 1,
    ) -> None:
        self.samples = samples
        self.seed = seed
        self.max_positions = max_positions
        self.threads = threads
        self._plan: Plan | None = None
        # what the player sees before each move of the plan, from its start
        self._expected: tuple[Observation, ...] = ()
        self._start = 0
        # what the decision in force was made from: its seed and a hash of its line
        self._made_from: tuple[int, int] | None = None

    def hint(self, view: Observation, history: Sequence[Observation]) -> Hint:
        """The next move for ``view`` (``history``: what was seen before it, oldest first)."""
        plan = self._plan
        seed = self.seed + len(history)
        if plan is not None:
            step = len(history) - self._start
            line = (*history[self._start :], view)
            if 0 < step < len(plan.moves) and line == self._expected[: step + 1]:
                return hint_of(plan, self._expected[0], plan.moves[step:])
            if step == 0 and self._made_from == (seed, hash((view, *history))):
                return hint_of(plan, view)
        plan = decide(
            view,
            history,
            samples=self.samples,
            seed=seed,
            max_positions=self.max_positions,
            threads=self.threads,
        )
        self._plan, self._start = plan, len(history)
        self._expected = _observations(view, plan.moves)
        self._made_from = (seed, hash((view, *history)))
        return hint_of(plan, view)


#: How many games' advisors a process keeps (least recently used go first).
ADVISORS = 256
_advisors: OrderedDict[str, Advisor] = OrderedDict()


def game_hint(
    game: str,
    view: Observation,
    history: Sequence[Observation],
    *,
    samples: int = DEFAULT_SAMPLES,
    seed: int = 0,
    max_positions: int = DEFAULT_POSITIONS,
    threads: int = 1,
) -> Hint:
    """:meth:`Advisor.hint` with one advisor per ``game`` (any key), kept in this process.

    A server calls it for every hint, so that a player who follows the plan
    gets the next move at once.  ``seed`` seeds a new decision; ``threads``
    (see :func:`decide`) changes only how fast it is made.
    """
    advisor = _advisors.pop(game, None)
    if advisor is None or (advisor.samples, advisor.max_positions) != (samples, max_positions):
        advisor = Advisor(samples=samples, max_positions=max_positions)
    advisor.seed = seed
    advisor.threads = threads
    _advisors[game] = advisor
    while len(_advisors) > ADVISORS:
        _advisors.popitem(last=False)
    return advisor.hint(view, history)


def _observations(view: Observation, moves: Sequence[Move]) -> tuple[Observation, ...]:
    """What the player sees before each of ``moves`` (all but the last show nothing new)."""
    position = sample_position(view, random.Random(0))
    seen = [view]
    for move in moves[:-1]:
        position = position.apply(move)
        seen.append(position.observe())
    return tuple(seen)


def decide(
    view: Observation,
    history: Sequence[Observation] = (),
    *,
    samples: int = DEFAULT_SAMPLES,
    seed: int = 0,
    max_positions: int = DEFAULT_POSITIONS,
    threads: int = 1,
) -> Plan:
    """The best plan from ``view`` (see the module docstring).

    With ``threads`` above 1 the decision's searches (the stage search and
    the solves, then the look-ahead, then the win chance) run that many at
    a time: each has its own budget and its own position table, and the
    compiled core searches without holding the GIL, so the plan is the same
    for any ``threads``, sooner on a machine with more than one core.
    """
    samples = max(1, samples)
    rng = random.Random(seed)
    worlds = [sample_position(view, rng) for _ in range(samples)]
    here = worlds[0]
    if here.is_won() or not here.legal_moves():
        return Plan((), 0, samples, 0.0, 0)
    seen = {old for old in history if old.stock == view.stock} | {view}
    if _in_endgame(view):
        return _endgame(here, seen, samples, max_positions)
    # with SOLVE_APART, samples of their own for the solves, drawn after the shared ones
    proposers = (
        [sample_position(view, rng) for _ in range(min(SOLVES, samples))] if SOLVE_APART else None
    )
    plans, chosen, spent, after = _choose(worlds, seen, max_positions, proposers, threads)
    if chosen is None:
        return _fallback(here, seen, samples, spent)
    moves, score = plans[chosen]
    chance_budget = _budgets(max_positions, _solves(_hidden(view)))[2]
    verdicts = []
    settled = _start(partial(_settle, budget=max(500, chance_budget // samples)), after, threads)
    # the line is shortened in Python while the samples are solved
    moves = _shorten(here, moves[:-1]) + moves[-1:]
    for verdict, positions in settled():
        verdicts.append(verdict)
        spent += positions
    wins, unsettled = verdicts.count("won"), verdicts.count("unknown")
    return Plan(moves, wins, samples, score, spent, unsettled=unsettled)


def _choose(
    worlds: Sequence[Position],
    seen: set[Observation],
    max_positions: int,
    proposers: Sequence[Position] | None = None,
    threads: int = 1,
) -> tuple[list[tuple[tuple[Move, ...], float]], int | None, int, list[Position]]:
    """(candidates, the index of the chosen one or None, positions spent, samples after it).

    Steps 2 and 3 of the module docstring: the candidate plans, each scored
    by the look-ahead summed over ``worlds``; the best total is chosen.  The
    samples as the chosen plan leaves them (empty when there is none) are
    returned for the win chance, which would otherwise play the plan again.
    The solver's candidates come from ``proposers`` when given (SOLVE_APART),
    else from the first samples of ``worlds``.  With ``threads`` above 1
    the solves run beside the stage search, and the look-ahead's searches
    side by side (:func:`_start`); the choice is the same.
    """
    hidden = _hidden(worlds[0].observe())
    solve_each, stage_budget, _, look_budget = _budgets(max_positions, _solves(hidden))
    solvers = list((proposers or worlds)[:SOLVES]) if solve_each else []
    # with threads the solves start now, on other threads, and do not wait for
    # the stage search; without a candidate (rare: a reprieve that cannot be
    # closed) their work is wasted, and on one thread they are never made
    solving = _start(partial(_search, budget=solve_each), solvers, threads)
    plans = _candidates(worlds, seen, stage_budget)
    if not plans:
        return plans, None, stage_budget, []
    spent = stage_budget
    first_solved = len(plans)
    # each plan's table before its last move, in the first sample: a stage
    # search's line can be tens of thousands of moves, so it is played once
    ends = [_after(worlds[0], moves[:-1]) for moves, _ in plans]
    if solvers:
        solved, positions = _solved_candidates(worlds[0], solvers, seen, plans, solving(), ends)
        plans += solved
        spent += positions
    per_look = max(500, look_budget // (len(plans) * len(worlds)))
    afters = [_played(worlds, end, moves[-1]) for (moves, _), end in zip(plans, ends, strict=True)]
    looks = iter(
        _each(partial(_look_ahead, budget=per_look), [w for a in afters for w in a], threads)
    )
    best: tuple[float, int, list[Position]] | None = None
    for index, after in enumerate(afters):
        total = 0.0
        for _ in after:
            value, positions = next(looks)
            total += value
            spent += positions
        if index >= first_solved:
            total += SOLVED_BONUS * len(worlds)
        # ties go to the earlier plan, whose own table scores higher
        if best is None or total > best[0]:
            best = (total, index, after)
    assert best is not None
    return plans, best[1], spent, best[2]


#: Shares of a decision's positions: the chosen plan's samples are solved
#: with CHANCE_SHARE to estimate its win chance; the rest looks ahead.
CHANCE_SHARE = 0.3
#: What a won sample is worth to the look-ahead (more than any table score).
WIN_VALUE = 1e6
#: Samples in which the complete-knowledge solver is asked for a candidate,
#: and their share of a decision's positions (split evenly among them).
#: The stage search, the look-ahead and the win chance share out the rest.
#: A budget that would give a solve fewer than SOLVE_FLOOR positions (the
#: post-game analysis, the tests) makes no solves and plays as before.
SOLVES = 6
SOLVE_SHARE = 0.45
SOLVE_FLOOR = 50_000
#: Whether the solves also run while a card is face down (``improved``); their
#: lines are then cut at the first move that shows something new.  Measured
#: on improved deals 1-200: 39 won against 38, at 1.7 times the CPU time, so
#: off (docs/SOLVER.md, "What was tried and not kept").
HIDDEN_SOLVES = False
#: Whether the solves run in samples of their own instead of the first of
#: the shared ones, so that a table the solver proposes is not judged on
#: the stock it was found for.  Classic deals 1-200: 105 won against 102,
#: within noise, so off (docs/SOLVER.md, "What was tried and not kept").
SOLVE_APART = False
#: Points added in each sample to the look-ahead value of a table the solver
#: proposes: a preference for the solver's tables over the stage search's
#: (0: none, the look-ahead alone chooses).  At 100,000, a solver's table
#: whenever there is one: classic deals 1-300, 146 won against 156, so 0
#: (docs/SOLVER.md, "What was tried and not kept").
SOLVED_BONUS = 0.0


def _solves(hidden: bool) -> bool:
    """Whether a decision asks the solver for candidates (``hidden``: a card is face down)."""
    return HIDDEN_SOLVES or not hidden


def _budgets(max_positions: int, solves: bool = True) -> tuple[int, int, int, int]:
    """(positions for each solve, the stage search, the win chance, the look-ahead).

    Without ``solves`` (something is face down; see HIDDEN_SOLVES) the solves'
    share goes to the rest.
    """
    each = int(max_positions * SOLVE_SHARE) // SOLVES if SOLVES > 0 and solves else 0
    if each < SOLVE_FLOOR:
        each = 0
    rest = max_positions - each * SOLVES
    stage = max(1000, int(rest * STAGE_SHARE))
    chance = int(rest * CHANCE_SHARE)
    return each, stage, chance, rest - stage - chance


def _solved_candidates(
    here: Position,
    proposers: Sequence[Position],
    seen: set[Observation],
    plans: Sequence[tuple[tuple[Move, ...], float]],
    searches: Sequence[tuple[str, tuple[Move, ...], int]],
    ends: list[Position],
) -> tuple[list[tuple[tuple[Move, ...], float]], int]:
    """(more candidate plans, positions): the tables the solver deals from in samples it wins.

    ``searches`` are the solves of ``proposers``, one each, in order
    (``_search(proposer, budget)``), each with its whole stock known.
    When the solver wins one, the moves of its line up to its first deal show
    nothing new (nothing is face down), so they are legal in every sample;
    the table they reach is a candidate unless it is one already or the line
    leads back to a position the player has seen.  Which table to deal from
    is still chosen by the look-ahead, which sees no card beyond the next
    row: the solver only proposes.  With a card face down (HIDDEN_SOLVES),
    the line is cut instead at its first move that shows something new, a
    deal or a card turned up, and the plan is the line up to that move.
    Each plan is replayed and scored in ``here``, the first of the shared
    samples, as the stage search's candidates are, whichever samples
    proposed it.  ``ends`` holds, for each of ``plans``, the table before
    its last move, played from ``here``; the tables of the plans found are
    appended to it.
    """
    tables = {(end.observe(), moves[-1]) for (moves, _), end in zip(plans, ends, strict=True)}
    found: list[tuple[tuple[Move, ...], float]] = []
    spent = 0
    for world, (verdict, line, positions) in zip(proposers, searches, strict=True):
        spent += positions
        news = _first_news(world, line) if verdict == "won" else None
        if news is None:
            continue
        body = _shorten(here, line[:news])  # it never comes back to ``here``
        end = _unseen_end(here, body, seen)
        if end is None:
            continue
        key = (end.observe(), line[news])
        if key in tables:
            continue
        tables.add(key)
        ends.append(end)
        found.append((body + (line[news],), _score(end)))
    return found, spent


_T = TypeVar("_T")
_R = TypeVar("_R")


def _each(function: Callable[[_T], _R], items: Sequence[_T], threads: int) -> list[_R]:
    """``[function(item) for item in items]``, run up to ``threads`` at a time."""
    return _start(function, items, threads)()


def _start(
    function: Callable[[_T], _R], items: Sequence[_T], threads: int
) -> Callable[[], list[_R]]:
    """Start ``function`` on each item, up to ``threads`` at a time, in other threads.

    The call returned waits for the results, in the order of ``items``; the
    caller's thread is free meanwhile.  Only the compiled core searches
    without the GIL, so the pure-Python search runs the items one by one,
    when their results are asked for, whatever ``threads`` says.
    """
    if threads <= 1 or len(items) <= 1 or not compiled.AVAILABLE:
        return lambda: [function(item) for item in items]
    pool = ThreadPoolExecutor(min(threads, len(items)), thread_name_prefix="fair")
    try:
        futures = [pool.submit(function, item) for item in items]
    finally:
        pool.shutdown(wait=False)  # the threads end when the work submitted is done

    def results() -> list[_R]:
        return [future.result() for future in futures]

    return results


def _after(world: Position, moves: Sequence[Move]) -> Position:
    """``world`` after ``moves``: a long line is played in the compiled core."""
    if len(moves) >= CORE_REPLAY and (played := compiled.after(world, moves)) is not None:
        return played
    for move in moves:
        world = world.apply(move)
    return world


#: Lines at least this long are replayed by the compiled core (``compiled.after``).
CORE_REPLAY = 64


def _played(worlds: Sequence[Position], end: Position, last: Move) -> list[Position]:
    """Every sample after a plan: ``end`` is its table before its ``last`` move, in the first.

    A plan's moves before its last show nothing new, so they are played once,
    in the first sample, and the table they reach is carried to the others
    (:func:`_carry`); only the last move is played in each.  A stage search's
    line can run to thousands of moves, so this saves most of a decision's
    Python work.
    """
    return [_carry(end, world).apply(last) for world in worlds]


def _carry(end: Position, world: Position) -> Position:
    """``end``, reached from another sample by moves that show nothing new, in ``world``.

    Such moves neither deal nor turn up a face-down card, so the stock is
    still ``world``'s, and so is every face-down card: they are the lowest
    cards of their columns, in the places they were dealt to.
    """
    columns = tuple(
        world.columns[c][:down] + cards[down:] if down else cards
        for c, (cards, down) in enumerate(zip(end.columns, end.face_down, strict=True))
    )
    return replace(end, columns=columns, stock=world.stock)


def _look_ahead(position: Position, budget: int) -> tuple[float, int]:
    """(value, positions): how well the next stages can go from ``position``, a sample.

    The next stage is searched for the best table to deal from; with
    ROLLOUT stages, that table is dealt on (the sample's next row) and the
    stage after it searched too, and so on.  Each table is chosen without
    any later card.  The value is the last table's heuristic, or WIN_VALUE
    for a win.  After the last deal nothing is hidden in the sample (except
    face-down cards), and an exact solve says won or not.
    """
    spent = 0
    stages = max(1, min(ROLLOUT, len(position.stock) // max(1, position.variant.columns) + 1))
    share = max(500, budget // stages)
    for depth in range(stages):
        if position.is_won():
            return WIN_VALUE, spent
        if not position.stock:
            verdict, _, positions = _search(position, max(share, budget - spent))
            return (WIN_VALUE if verdict == "won" else _score(position)), spent + positions
        if not compiled.AVAILABLE:
            found = _stage_plain(position, set(), share)
            spent += share
        else:
            won, found, positions = _core_stage(position, share, 1)
            spent += positions
            if won is not None:
                return WIN_VALUE, spent
        if not found:
            return _score(position), spent
        line, score = found[0]
        if depth == stages - 1:
            return score, spent
        position = _after(position, line)
    return _score(position), spent


#: How many stages the look-ahead plays out in each sample (1: the next one only).
ROLLOUT = 1
#: How the stage searches explore a reprieve, in turn ("plan": the reprieve
#: planner's outcomes; "cap": free moves one by one, see compiled.set_stage_mode).
REPRIEVE_MODES: tuple[str, ...] = ("plan",)


def _hidden(view: Observation) -> bool:
    """Whether the observation hides a face-down card."""
    return any(card is None for cards in view.columns for card in cards)


def _in_endgame(view: Observation) -> bool:
    """Nothing is hidden any more: the stock is empty and no card is face down."""
    return view.stock == 0 and not _hidden(view)


def _endgame(here: Position, seen: set[Observation], samples: int, budget: int) -> Plan:
    """Nothing is hidden any more: solve exactly what the player sees."""
    verdict, moves, positions = _search(here, budget)
    if verdict == "won":
        line = _shorten(here, moves)
        if _unseen_end(here, line[:1], seen) is not None:
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
            if line:  # (a line can be long: hashed once)
                found.setdefault(line, score)
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
    here = world.observe()
    keys = [_key(old, world) for old in seen if old != here]
    won, found, _ = _core_stage(world, budget, CANDIDATES * 2, keys)
    if won is not None:
        return [(won, float("inf"))]
    return found


def _core_stage(
    position: Position,
    budget: int,
    keep: int,
    forbidden: Sequence[tuple[int, int]] = (),
) -> tuple[tuple[Move, ...] | None, list[tuple[tuple[Move, ...], float]], int]:
    """The core's stage search from ``position``: (a win or None, lines, positions).

    The lines lead to the ``keep`` best-scored tables in which a deal is
    allowed, each followed by ``D``, best first.  Where there is a reprieve,
    each of REPRIEVE_MODES searches in turn with what the ones before it
    left of ``budget``, and their tables are ranked together.  Positions
    whose core keys are in ``forbidden`` are never entered.
    """
    modes = ("cap",) if position.variant.reprieve == "none" else REPRIEVE_MODES
    spent = 0
    found: dict[bytes, float] = {}
    for mode in modes:
        core = compiled.new_core(position, MEMORY_MB, mode)
        for name, value in WEIGHTS.items():
            setattr(core, name, value)
        for key in forbidden:
            core.forbid(*key)
        verdict, won, packed = core.stage(max(1, budget - spent), -1.0, keep)
        spent += int(core.positions)
        if verdict == "won":
            return compiled.decode_path(won), [], spent
        for score, tail in packed:
            if float(score) > found.get(tail, -float("inf")):
                found[tail] = float(score)
        if spent >= budget:
            break
    ranked = sorted(found.items(), key=lambda item: (-item[1], len(item[0])))[:keep]
    return None, [(compiled.unpack_line(tail) + (DEAL,), score) for tail, score in ranked], spent


def _key(view: Observation, world: Position) -> tuple[int, int]:
    """The core's key of a position the player saw earlier in this stage.

    Its hidden cards are filled in from ``world``: the stock (the core's keys
    do not look at the stock's order, and the stage is the same, so its
    length is too), and each face-down card from the one ``world`` has at
    the same place (a face-down card never moves).  A place ``world`` shows
    face up gets any card: that position cannot be ``world``'s anyway.
    """
    columns = tuple(
        tuple(
            card
            if card is not None
            else (world.columns[c][i] if i < world.face_down[c] else CARDS[0][0])
            for i, card in enumerate(cards)
        )
        for c, cards in enumerate(view.columns)
    )
    down = tuple(sum(card is None for card in cards) for cards in view.columns)
    seen = Position(
        view.variant, columns, down, view.foundations, world.stock, view.reprieve, view.moved
    )
    k1, k2 = compiled.new_core(seen, 1).key()
    return int(k1), int(k2)


def _until_news(world: Position, moves: Sequence[Move]) -> tuple[Move, ...]:
    """``moves`` up to and including the first that shows the player something new."""
    news = _first_news(world, moves)
    return tuple(moves if news is None else moves[: news + 1])


def _first_news(world: Position, moves: Sequence[Move]) -> int | None:
    """The index of the first of ``moves`` (from ``world``) that shows something new, if any.

    That is a deal, or a move that turns up a face-down card.  With nothing
    face down only a deal can, so the line is not played.
    """
    if not _hidden_count(world):
        return next((i for i, move in enumerate(moves) if move.kind is MoveKind.DEAL), None)
    position = world
    for index, move in enumerate(moves):
        hidden = _hidden_count(position)
        position = position.apply(move)
        if move.kind is MoveKind.DEAL or _hidden_count(position) < hidden:
            return index
    return None


def _hidden_count(position: Position) -> int:
    return sum(position.face_down)


def _settle(position: Position, budget: int) -> tuple[str, int]:
    """(verdict, positions): the sample ``position`` solved within ``budget`` positions.

    The verdict is ``won``, ``lost`` or ``unknown`` (the budget ran out).
    """
    if position.is_won():
        return "won", 0
    verdict, _, positions = _search(position, budget)
    return verdict, positions


def _search(position: Position, budget: int) -> tuple[str, tuple[Move, ...], int]:
    engine = compiled.search if compiled.AVAILABLE else plain.search
    return engine(
        position, timeout=None, max_positions=budget, max_memory_mb=MEMORY_MB, progress=None
    )


def _shorten(start: Position, moves: Sequence[Move]) -> tuple[Move, ...]:
    """The same line, detours and cycles cut (it visits only positions it visited)."""
    return simplify(start, moves) if moves else ()


def _unseen_end(start: Position, moves: Iterable[Move], seen: set[Observation]) -> Position | None:
    """Where ``moves`` lead from ``start``, or None if they pass a position in ``seen``."""
    position = start
    for move in moves:
        position = position.apply(move)
        if position.observe() in seen:
            return None
    return position


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

    Cards up count for; cards that do not lie on a card one rank higher
    and of the other colour (breaks, face-down cards included) count
    against, empty columns for, and so does the depth of the shallowest copy
    of each card the foundations need next (12 when it is not on the table);
    so do, with their weights in WEIGHTS, face-up Kings lying on other cards
    and face-down cards.
    """
    empty = 0
    depth: dict[Card, int] = {}
    for cards in position.columns:
        if not cards:
            empty += 1
        for i, card in enumerate(cards):
            deep = len(cards) - 1 - i
            if deep < depth.get(card, 1000):
                depth[card] = deep
    need = 0
    for suit_cards, heights in zip(CARDS, position.foundations, strict=True):
        for height in sorted(set(heights)):
            if height < 13:
                need += depth.get(suit_cards[height], 12)
    return float(
        WEIGHTS["w_found"] * position.cards_on_foundations()
        - WEIGHTS["w_break"] * breaks(position)
        + WEIGHTS["w_empty"] * empty
        - WEIGHTS["w_depth"] * need
        - WEIGHTS["w_king"] * buried_kings(position)
        - WEIGHTS["w_down"] * _hidden_count(position)
    )


def buried_kings(position: Position) -> int:
    """Face-up Kings that lie on another card (a King-led run leaves only for an empty column)."""
    return sum(
        1
        for cards, down in zip(position.columns, position.face_down, strict=True)
        for i in range(max(1, down), len(cards))
        if cards[i].is_king
    )


def breaks(position: Position) -> int:
    """The table heuristic's breaks: cards not on a card one rank higher and of the other colour.

    Face-down cards count as breaks; the bottom card of a column never does.
    """
    count = 0
    for cards, down in zip(position.columns, position.face_down, strict=True):
        for i in range(1, len(cards)):
            if i <= down or not cards[i].can_go_on(cards[i - 1]):
                count += 1
    return count


def _stage_plain(
    world: Position, seen: set[Observation], budget: int
) -> list[tuple[tuple[Move, ...], float]]:
    """:func:`_stage` without the compiled core: a plain DFS over engine positions.

    ``budget`` counts the positions made (a table in a reprieve has a
    hundred free moves or more, so counting the positions expanded, as the
    core does, would let one search take minutes).
    """
    # No move of a stage deals, so every position in it has ``world``'s
    # variant and stock: the rest of the position is enough to tell two
    # apart, and much quicker to hash.
    visited = {_in_stage(world)}
    found: list[tuple[float, tuple[Move, ...]]] = []
    stack: list[tuple[Position, tuple[Move, ...]]] = [(world, ())]
    made = 0
    while stack and made < budget:
        position, line = stack.pop()
        legal = position.legal_moves()
        if DEAL in legal:
            found.append((_score(position), line))
        for move in reversed(legal):
            if move.kind is MoveKind.DEAL:
                continue
            if made >= budget:
                break
            made += 1
            after = position.apply(move)
            before = len(visited)
            visited.add(_in_stage(after))
            if len(visited) == before or (seen and after.observe() in seen):
                continue
            if after.is_won():
                return [((*line, move), float("inf"))]
            stack.append((after, (*line, move)))
    found.sort(key=lambda item: (-item[0], len(item[1])))
    return [((*line, DEAL), score) for score, line in found[: CANDIDATES * 2]]


def _in_stage(position: Position) -> tuple[object, ...]:
    """What tells ``position`` from the others of its stage (all but variant and stock)."""
    return (
        position.columns,
        position.face_down,
        position.foundations,
        position.reprieve,
        position.moved,
    )


#: Autoplay gives up after this many moves with no card up and no deal.
STALL_MOVES = 200
#: Once the stock is empty and nothing is face down, each decision solves
#: the table exactly.  When those searches do not settle, each move after
#: the fallback's costs a fresh one: autoplay's endgame searches share at
#: most this many decisions' budgets in all, and then search with
#: ``ENDGAME_FLOOR`` positions each (docs/SOLVER.md, "The endgame").
ENDGAME_BUDGETS = 8
ENDGAME_FLOOR = 20_000


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
    threads: int = 1,
) -> Autoplay:
    """Play ``game`` to its end with the fair player alone (``game`` is changed).

    Each decision sees only the observations of the line so far; its plan is
    played through, and the next decision is made once it has shown
    something new.  The game is resigned when the only legal moves lead back
    to positions already reached, when nothing is hidden any more and an
    exhaustive search finds no win, or after ``STALL_MOVES`` moves without
    progress.  The exact searches of the endgame share ``ENDGAME_BUDGETS``
    decisions' positions, and then get ``ENDGAME_FLOOR`` each.  Each
    decision's seed comes from ``seed`` and the number of moves played, so
    the whole game repeats exactly, on any number of ``threads`` (see
    :func:`decide`).  The result is ``won``,
    ``lost`` (a dead end) or ``resigned``.
    """
    history = [position.observe() for position in game.positions]
    stalled = decisions = positions = 0
    endgame = ENDGAME_BUDGETS * max_positions  # what the endgame searches have left
    while game.status == "playing":
        view = history[-1]
        in_endgame = _in_endgame(view)
        budget = max_positions
        if in_endgame:
            budget = max(min(max_positions, endgame), min(max_positions, ENDGAME_FLOOR))
        plan = decide(
            view,
            history[:-1],
            samples=samples,
            seed=seed * 1_000_003 + len(game.moves),
            max_positions=budget,
            threads=threads,
        )
        decisions += 1
        positions += plan.positions
        if in_endgame:
            endgame -= plan.positions
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
