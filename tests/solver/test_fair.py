"""The fair player: it sees only what a player sees, never loops, and finds the obvious."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from collections.abc import Sequence
from typing import Any

import pytest

from milligan.cards import canonical_deck
from milligan.game import Game
from milligan.moves import Move
from milligan.position import Observation, Position
from milligan.record import Record
from milligan.solver import fair, hint
from milligan.solver.baseline import play_greedy
from milligan.solver.fair import Advisor, autoplay, decide
from milligan.solver.sampling import sample_position
from milligan.variants import Variant

from .conftest import cards

#: Small budgets: the tests check behaviour, not strength.
SMALL = {"samples": 2, "max_positions": 30_000}


def twin_orders(variant: str, number: int, first: int, second: int) -> tuple[Game, Game]:
    """Two games whose dealing orders differ only in the cards at two indexes."""
    game = Game.new(variant, number)
    order = list(game.order)
    assert order[first] != order[second]
    order[first], order[second] = order[second], order[first]
    return Game.from_order(variant, game.order), Game.from_order(variant, order)


def observations(game: Game) -> list[Observation]:
    return [position.observe() for position in game.positions]


def test_twins_in_the_stock_get_the_same_hint_and_the_same_play_until_dealt() -> None:
    # classic deal 5: two cards of the last stock row trade places
    one, two = twin_orders("classic", 5, 97, 102)
    assert one.position.observe() == two.position.observe()
    assert one.position != two.position
    assert hint(one, **SMALL) == hint(two, **SMALL)  # type: ignore[arg-type]
    _same_until_shown(one, two)


def test_twins_with_face_down_cards_play_alike_until_one_turns_up() -> None:
    # improved: indexes 0-15 are the two face-down rows; swap two of them
    one, two = twin_orders("improved", 8, 2, 13)
    assert one.position.observe() == two.position.observe()
    assert hint(one, **SMALL) == hint(two, **SMALL)  # type: ignore[arg-type]
    _same_until_shown(one, two)


def _same_until_shown(one: Game, two: Game) -> None:
    first = autoplay(one, **SMALL)  # type: ignore[arg-type]
    second = autoplay(two, **SMALL)  # type: ignore[arg-type]
    seen_one, seen_two = observations(one), observations(two)
    differ = next(
        (i for i, (a, b) in enumerate(zip(seen_one, seen_two, strict=False)) if a != b), None
    )
    if differ is None:  # the difference never showed: the two games are one game
        assert one.moves == two.moves and first == second
    else:
        assert differ > 0
        assert one.moves[:differ] == two.moves[:differ]


DEALS = [("classic", n) for n in range(1, 9)] + [
    ("spanish", 1), ("spanish", 2), ("spanish", 3), ("spanish", 4),
    ("improved", 1), ("improved", 2), ("improved", 3), ("improved", 4),
    ("strict", 1), ("strict", 2), ("one-deck", 1), ("one-deck", 2),
]  # fmt: skip


@pytest.mark.parametrize(("variant", "number"), DEALS)
def test_following_hints_never_comes_back_to_a_position(variant: str, number: int) -> None:
    game = Game.new(variant, number)
    advisor = Advisor(**SMALL)  # type: ignore[arg-type]
    seen = {game.position.observe()}
    for _ in range(300):
        if game.status != "playing":
            break
        history = observations(game)
        advice = advisor.hint(history[-1], history[:-1])
        if advice.move is None:  # stuck in a reprieve (improved: a card turned up)
            assert not game.legal_moves() and game.position.reprieve is not None
            break
        assert not advice.repeats
        assert advice.plan[0] == advice.move
        game.play(advice.move)
        view = game.position.observe()
        assert view not in seen, f"move {len(game.moves)} ({advice.move}) repeats a position"
        seen.add(view)


def test_the_only_move_that_frees_a_needed_ace_is_hinted() -> None:
    # one deck, no reprieve: the ace of spades lies under the five of hearts,
    # which can go on the six of clubs; the only other move is to deal
    variant = Variant(decks=1, columns=4, opening_rows=1, face_down_rows=0, reprieve="none")
    table = (cards("AS 5H"), cards("6C"), cards("KD"), cards("9S"))
    used = [card for column in table for card in column]
    stock = list(canonical_deck(1))
    for card in used:
        stock.remove(card)
    position = Position(variant, table, (0,) * 4, ((0,),) * 4, tuple(stock), None, frozenset())
    assert set(position.legal_moves()) == {Move.parse("1>2"), Move.parse("D")}
    advice = hint(position, samples=4, max_positions=50_000)
    assert advice.move == Move.parse("1>2")
    assert advice.plan[:2] == (Move.parse("1>2"), Move.parse("1>F"))


def test_no_winning_sample_still_gives_a_move_with_chance_zero() -> None:
    # greedy play leaves a hopeless-looking table; whatever the samples say,
    # a legal move comes back, and with no win its chance is 0
    game = Game.new("spanish", 7)
    play_greedy(game, max_moves=40)
    if game.status != "playing":
        game = Game.new("spanish", 7)
    plan = decide(game.position.observe(), samples=2, max_positions=2_000)
    assert plan.moves and plan.moves[0] in game.position.legal_moves()
    assert plan.wins == 0 or plan.wins <= plan.samples


def test_samples_whose_solve_runs_out_are_unsettled_not_lost() -> None:
    # at the opening no solve of a few hundred positions settles a sample
    plan = decide(Game.new("classic", 1).position.observe(), samples=2, max_positions=5_000)
    assert plan.moves and (plan.wins, plan.unsettled) == (0, 2)
    # dealt out to the last row without a move played, every sample is
    # settled, and lost: not counted as unsettled
    game = Game.new("spanish", 3)
    while len(game.position.stock) > game.variant.columns:
        game.play("D")
    plan = decide(game.position.observe(), samples=2, max_positions=200_000)
    assert plan.moves and (plan.wins, plan.unsettled) == (0, 0)


def test_the_same_arguments_give_the_same_advice() -> None:
    game = Game.new("classic", 11)
    game.play("D")
    view, history = game.position.observe(), observations(game)[:-1]
    assert decide(view, history, seed=3, **SMALL) == decide(view, history, seed=3, **SMALL)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("variant", "number", "opening"),
    [("classic", 11, "D"), ("spanish", 4, "D D"), ("improved", 8, "")],
)
def test_threads_change_how_fast_a_decision_is_made_not_what_it_decides(
    variant: str, number: int, opening: str
) -> None:
    """The same plan, win count and positions on one thread and on three.

    700,000 positions give each of the six solves 52,500, so the solves run
    beside the stage search; improved deal 8 has cards face down, so it has
    no solves and four stage searches.
    """
    game = Game.new(variant, number)
    for move in opening.split():
        game.play(move)
    view, history = game.position.observe(), observations(game)[:-1]
    budget = {"samples": 6, "max_positions": 700_000, "seed": 2}
    alone = decide(view, history, threads=1, **budget)  # type: ignore[arg-type]
    assert alone.moves
    assert decide(view, history, threads=3, **budget) == alone  # type: ignore[arg-type]
    assert hint(game, threads=2, **budget) == hint(game, **budget)  # type: ignore[arg-type]


def test_asked_again_where_its_plan_starts_an_advisor_does_not_decide_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The same line and seed give the plan in force; another seed or line decides anew."""
    made: list[int] = []

    def counted(*args: Any, **kwargs: Any) -> fair.Plan:
        made.append(kwargs["seed"])
        return decide(*args, **kwargs)

    monkeypatch.setattr(fair, "decide", counted)
    game = Game.new("classic", 11)
    game.play("D")
    seen = observations(game)
    advisor = Advisor(seed=3, **SMALL)  # type: ignore[arg-type]
    first = advisor.hint(seen[-1], seen[:-1])
    assert advisor.hint(seen[-1], seen[:-1]) == first and made == [4]
    advisor.seed = 5  # a server's seed changes with the game's revision
    advisor.hint(seen[-1], seen[:-1])
    advisor.hint(seen[-1], seen[:-1])
    assert made == [4, 6]
    # the same length of line and the same view, reached another way
    advisor.hint(seen[-1], [seen[-1]])
    assert made == [4, 6, 6]


def test_an_autoplayed_win_is_a_record_that_replays_as_won() -> None:
    game = Game.new("classic", 1)
    played = autoplay(game, samples=4, max_positions=200_000)
    assert played.result == "won"
    record = Record.from_json(Record.of(game, played.result).to_json())
    assert record.replay().status == "won"


def test_the_endgame_searches_share_a_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    """Classic deal 4 at a small budget: its endgame searches do not settle."""
    real = fair.decide
    endgame: list[tuple[int, int]] = []  # (budget, positions spent) of each endgame decision

    def spy(view: Observation, history: object = (), **options: int) -> fair.Plan:
        plan = real(view, history, **options)  # type: ignore[arg-type]
        if view.stock == 0 and not any(None in column for column in view.columns):
            endgame.append((options["max_positions"], plan.positions))
        return plan

    monkeypatch.setattr(fair, "decide", spy)
    monkeypatch.setattr(fair, "ENDGAME_BUDGETS", 2)
    monkeypatch.setattr(fair, "ENDGAME_FLOOR", 500)
    played = autoplay(Game.new("classic", 4), samples=2, max_positions=20_000)
    assert played.result in ("lost", "resigned")
    budgets = [budget for budget, _ in endgame]
    assert budgets[:2] == [20_000, 20_000]  # two unsettled searches use up the share
    assert len(budgets) > 3 and set(budgets[2:]) == {500}
    assert all(spent <= budget for budget, spent in endgame)


def test_greedy_baseline_plays_to_an_end() -> None:
    results = {play_greedy(Game.new("classic", n)) for n in range(1, 4)}
    assert results <= {"won", "lost", "resigned"}


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "milligan.cli", *args], capture_output=True, text=True, timeout=300
    )


def test_hint_command_prints_the_plan(tmp_path: object) -> None:
    from pathlib import Path

    path = Path(str(tmp_path)) / "game.json"
    path.write_text(Record.of(Game.new("classic", 42)).to_json())
    done = run("hint", str(path), "--json", "--samples", "2", "--max-positions", "20000")
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert set(answer) == {
        "move",
        "win_chance",
        "win_estimate",
        "samples",
        "wins",
        "plan",
        "repeats",
    }
    assert answer["plan"][0] == answer["move"]
    assert answer["samples"] == 2 and 0 <= answer["win_chance"] <= 1


def test_hint_command_says_a_sample_won_or_not_as_a_count(tmp_path: object) -> None:
    # with one sample the plan wins all or none: a count, never "about 0%" or "about 100%"
    from pathlib import Path

    path = Path(str(tmp_path)) / "game.json"
    path.write_text(Record.of(Game.new("classic", 42)).to_json())
    budget = ("--samples", "1", "--max-positions", "20000")
    wins = json.loads(run("hint", str(path), "--json", *budget).stdout)["wins"]
    done = run("hint", str(path), *budget)
    assert done.returncode == 0, done.stderr
    said = "won in 1 sampled deal" if wins else "no win in 1 sampled deal"
    assert f"win chance: {said}" in done.stdout.splitlines()


def test_the_pure_python_fallback_plays_fairly(monkeypatch: pytest.MonkeyPatch) -> None:
    # without the compiled core (a build with no C compiler) the stage
    # searches are fair._stage_plain's: twins still get the same hint, the
    # hint is legal and the same when asked again, and whole games end
    from milligan.solver import compiled

    monkeypatch.setattr(compiled, "AVAILABLE", False)
    tiny = {"samples": 4, "max_positions": 8_000}
    for variant, number, first, second in (("classic", 5, 97, 102), ("improved", 8, 2, 13)):
        one, two = twin_orders(variant, number, first, second)
        answer = hint(one, **tiny)  # type: ignore[arg-type]
        assert answer == hint(two, **tiny) == hint(one, **tiny)  # type: ignore[arg-type]
        assert answer.move in one.legal_moves()
    game = Game.new("one-deck", 3)
    played = autoplay(game, samples=2, max_positions=4_000)
    assert played.result in ("won", "lost", "resigned")
    assert Record.of(game).replay().position == game.position


def test_the_commands_say_when_they_search_in_pure_python(tmp_path: object) -> None:
    from pathlib import Path

    from milligan.solver import compiled

    path = Path(str(tmp_path)) / "game.json"
    path.write_text(Record.of(Game.new("classic", 42)).to_json())
    args = ("hint", str(path), "--json", "--samples", "2", "--max-positions", "4000")
    plain = subprocess.run(
        [sys.executable, "-m", "milligan.cli", *args], capture_output=True, text=True,
        timeout=300, env={**os.environ, "MILLIGAN_PURE_PYTHON": "1"},
    )  # fmt: skip
    assert plain.returncode == 0, plain.stderr
    assert plain.stderr.strip() == f"warning: {compiled.MISSING}"
    assert json.loads(plain.stdout)["samples"] == 2  # the JSON on stdout is untouched
    if compiled.AVAILABLE:  # when this build has the core, the commands say nothing
        built = run(*args)
        assert built.returncode == 0 and compiled.MISSING not in built.stderr


def test_autoplay_command_prints_a_record_that_replays() -> None:
    done = run(
        "autoplay", "--variant", "one-deck", "--number", "3", "--json",
        "--samples", "2", "--max-positions", "20000",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["format"] == "milligan-record/1"
    assert data["result"] in ("won", "lost", "resigned")
    game = Record.from_dict(data).replay()
    assert game.status == data["result"] or data["result"] == "resigned"


#: Each weight at a different odd value, so that a term counted in Python and
#: not in the core (buried Kings, face-down cards) shows as a difference.
ODD_WEIGHTS = {"w_found": 3, "w_break": 5, "w_empty": 7, "w_depth": 11, "w_king": 13, "w_down": 17}


@pytest.mark.parametrize("odd", [False, True], ids=["shipped", "odd"])
@pytest.mark.parametrize("variant", ["classic", "spanish", "improved", "one-deck", "strict"])
def test_the_python_table_score_is_the_cores(
    variant: str, odd: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the fallback and the endgame score tables in Python; the stage search in
    # the core: along random lines of play the two must agree exactly
    compiled = pytest.importorskip("milligan.solver.compiled")
    if not compiled.AVAILABLE:
        pytest.skip("the compiled core is not built")
    from milligan.solver import fair

    assert set(ODD_WEIGHTS) == set(fair.WEIGHTS)
    if odd:
        monkeypatch.setattr(fair, "WEIGHTS", dict(ODD_WEIGHTS))
    rng = random.Random(variant)
    checked = kings = downs = 0
    for number in range(1, 25):
        game = Game.new(variant, number)
        for _ in range(120):
            legal = game.legal_moves()
            if game.status != "playing" or not legal:
                break
            position = game.position
            core = compiled.new_core(position, 1)
            for name, value in fair.WEIGHTS.items():
                setattr(core, name, value)
            assert core.score() == fair._score(position), (number, len(game.moves))
            checked += 1
            kings += fair.buried_kings(position)
            downs += sum(position.face_down)
            game.play(rng.choice(legal))
    assert checked > 200
    assert kings > 0
    assert (downs > 0) == (variant == "improved")


def test_both_reprieve_modes_rank_their_tables_together() -> None:
    # fair.REPRIEVE_MODES ("plan" as shipped; "cap" may follow): the planner
    # searches first with the whole budget, so adding the free moves' tables
    # never makes the best table worse; every line is legal and ends with D
    compiled = pytest.importorskip("milligan.solver.compiled")
    if not compiled.AVAILABLE:
        pytest.skip("the compiled core is not built")
    from milligan.solver import fair

    game = Game.new("classic", 5)
    play_greedy(game, max_moves=60)
    position = game.position
    assert position.stock and position.reprieve is None
    alone = fair._core_stage(position, 20_000, 6)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(fair, "REPRIEVE_MODES", ("plan", "cap"))
        both = fair._core_stage(position, 20_000, 6)
    assert alone[0] is None and both[0] is None
    scores = [score for _, score in both[1]]
    assert scores == sorted(scores, reverse=True) and len(scores) <= 6
    assert scores[0] >= alone[1][0][1]
    assert both[2] > alone[2]
    for line, _ in both[1]:
        assert line[-1] == Move.parse("D")
        after = position
        for move in line:
            assert move in after.legal_moves()
            after = after.apply(move)


@pytest.mark.parametrize(("variant", "number"), [("improved", 2), ("improved", 11), ("classic", 5)])
def test_a_plan_carried_between_samples_reaches_what_playing_it_reaches(
    variant: str, number: int
) -> None:
    """``_played`` carries a plan's table to every sample: the same positions,
    face-down cards and stock included, as the engine playing it in each."""
    game = Game.new(variant, number)
    view = game.position.observe()
    rng = random.Random(7)
    worlds = [sample_position(view, rng) for _ in range(4)]
    assert len({(world.columns, world.stock) for world in worlds}) == len(worlds)
    plans = fair._candidates(worlds, {view}, 20_000)
    assert plans
    for moves, _ in plans:
        carried = fair._played(worlds, fair._after(worlds[0], moves[:-1]), moves[-1])
        assert carried == [_apply_all(world, moves) for world in worlds]


def _apply_all(position: Position, moves: Sequence[Move]) -> Position:
    for move in moves:
        position = position.apply(move)
    return position


def test_the_solver_proposes_legal_new_tables_only_from_budgets_that_allow_it() -> None:
    """``_solved_candidates``: each plan is the solver's line in some sample up to
    its first deal, legal from the table the player sees, ending with ``D``, at a
    table no other candidate reaches; small budgets make no solves at all."""
    compiled = pytest.importorskip("milligan.solver.compiled")
    if not compiled.AVAILABLE:
        pytest.skip("the compiled core is not built")
    assert fair._budgets(SMALL["max_positions"])[0] == 0
    assert fair._budgets(fair.DEFAULT_POSITIONS)[0] >= fair.SOLVE_FLOOR
    game = Game.new("classic", 2)
    _play_to_three_rows_left(game)
    view = game.position.observe()
    rng = random.Random(5)
    worlds = [sample_position(view, rng) for _ in range(fair.SOLVES)]
    plans = fair._candidates(worlds, {view}, 20_000)
    found, spent = _solved(worlds, view, plans)
    assert found and spent > 0
    tables = [fair._after(game.position, moves[:-1]) for moves, _ in plans + found]
    assert len({table.observe() for table in tables}) == len(tables)
    for moves, score in found:
        assert moves[-1] == Move.parse("D") and Move.parse("D") not in moves[:-1]
        after = game.position
        for move in moves:
            assert move in after.legal_moves()
            after = after.apply(move)
        assert score == fair._score(fair._after(game.position, moves[:-1]))


def _solved(
    worlds: list[Position], view: Observation, plans: list[tuple[tuple[Move, ...], float]]
) -> tuple[list[tuple[tuple[Move, ...], float]], int]:
    """``_solved_candidates`` as a decision calls it, with solves of 60,000 positions."""
    searches = [fair._search(world, 60_000) for world in worlds]
    ends = [fair._after(worlds[0], moves[:-1]) for moves, _ in plans]
    return fair._solved_candidates(worlds[0], worlds, {view}, plans, searches, ends)


def _play_to_three_rows_left(game: Game, *twins: Game) -> None:
    """Play ``game`` with the fair player at SMALL until three rows are left,
    playing the same moves in ``twins``; there the solver wins samples quickly."""
    while len(game.position.stock) > 3 * game.variant.columns:
        view, history = game.position.observe(), observations(game)[:-1]
        plan = decide(view, history, seed=len(game.moves), **SMALL)  # type: ignore[arg-type]
        for move in plan.moves:
            for each in (game, *twins):
                each.play(move)


def test_twins_get_the_same_hint_when_the_solver_proposes_candidates(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # a budget large enough for the solves: they run in samples drawn from
    # what the player sees, so the twins' hidden difference cannot reach them
    budget = {"samples": fair.SOLVES, "max_positions": 700_000}
    assert fair._budgets(budget["max_positions"])[0] >= fair.SOLVE_FLOOR
    proposed: list[int] = []
    real = fair._solved_candidates

    def spy(*args: Any) -> tuple[list[tuple[tuple[Move, ...], float]], int]:
        found = real(*args)
        proposed.append(len(found[0]))
        return found

    monkeypatch.setattr(fair, "_solved_candidates", spy)
    # classic deal 2: two cards of the last stock row trade places
    one, two = twin_orders("classic", 2, 97, 102)
    _play_to_three_rows_left(one, two)
    assert one.position.observe() == two.position.observe()
    assert one.position != two.position
    assert hint(one, **budget) == hint(two, **budget)  # type: ignore[arg-type]
    assert len(proposed) == 2 and proposed[0] > 0 and proposed[0] == proposed[1]


def test_with_cards_face_down_the_solver_proposes_lines_cut_at_the_first_news(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``improved`` with cards still face down (HIDDEN_SOLVES): each plan the
    solver proposes is legal from the table the player sees, shows nothing new
    before its last move, which deals or turns up a card, and differs from
    every other candidate.  Here the solver proposes plans of both kinds."""
    compiled = pytest.importorskip("milligan.solver.compiled")
    if not compiled.AVAILABLE:
        pytest.skip("the compiled core is not built")
    monkeypatch.setattr(fair, "HIDDEN_SOLVES", True)
    game = Game.new("improved", 11)
    while len(game.position.stock) > game.variant.columns:
        view, history = game.position.observe(), observations(game)[:-1]
        for move in decide(view, history, seed=len(game.moves), **SMALL).moves:  # type: ignore[arg-type]
            game.play(move)
    view = game.position.observe()
    assert fair._hidden(view)
    rng = random.Random(5)
    worlds = [sample_position(view, rng) for _ in range(fair.SOLVES)]
    plans = fair._candidates(worlds, {view}, 20_000)
    found, spent = _solved(worlds, view, plans)
    assert spent > 0
    deal = Move.parse("D")
    assert {moves[-1] == deal for moves, _ in found} == {True, False}
    ends = [
        (fair._after(game.position, moves[:-1]).observe(), moves[-1]) for moves, _ in plans + found
    ]
    assert len(set(ends)) == len(ends)
    for moves, score in found:
        after = game.position
        for index, move in enumerate(moves):
            assert move in after.legal_moves()
            before, after = after, after.apply(move)
            news = move == deal or sum(after.face_down) < sum(before.face_down)
            assert news == (index == len(moves) - 1)
        # scored in the first sample: the depth of a needed card may be a face-down one's
        assert score == fair._score(fair._after(worlds[0], moves[:-1]))


def test_with_solve_apart_the_solves_take_samples_of_their_own(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """SOLVE_APART: the solver proposes from samples drawn after the shared
    ones, so a table it proposes is not judged on the stock it was found for;
    the samples still come from what the player sees alone."""
    monkeypatch.setattr(fair, "SOLVE_APART", True)
    given: list[tuple[Position, Sequence[Position]]] = []
    real = fair._solved_candidates

    def spy(here: Position, worlds: Sequence[Position], *args: Any) -> tuple[list[Any], int]:
        given.append((here, worlds))
        return real(here, worlds, *args)

    monkeypatch.setattr(fair, "_solved_candidates", spy)
    game = Game.new("classic", 2)
    budget = {"samples": 8, "max_positions": 700_000}
    assert fair._budgets(budget["max_positions"])[0] >= fair.SOLVE_FLOOR
    view = game.position.observe()
    advice = hint(view, seed=3, **budget)  # type: ignore[arg-type]
    assert advice.move in game.legal_moves()
    rng = random.Random(3)
    shared = [sample_position(view, rng) for _ in range(budget["samples"])]
    own = [sample_position(view, rng) for _ in range(fair.SOLVES)]
    assert len(given) == 1 and list(given[0][1]) == own
    # the plans they propose are scored where every other candidate is
    assert given[0][0] == shared[0]
    assert not set(own) & set(shared)
    assert all(world.observe() == view for world in own)


@pytest.mark.parametrize("bonus", [0.0, 1e12])
def test_a_bonus_for_the_solvers_tables_makes_the_look_ahead_take_one(
    monkeypatch: pytest.MonkeyPatch, bonus: float
) -> None:
    """SOLVED_BONUS: added in every sample to the look-ahead value of each
    table the solver proposes.  So large a bonus that nothing outweighs it
    chooses one of the solver's tables whenever there is one; at 0, the
    shipped setting, the stage search's candidates chosen here stay chosen."""
    monkeypatch.setattr(fair, "SOLVED_BONUS", bonus)
    counts: list[tuple[int, int]] = []
    real = fair._solved_candidates

    def spy(here: Position, worlds: Sequence[Position], seen: Any, plans: Any, *rest: Any) -> Any:
        found = real(here, worlds, seen, plans, *rest)
        counts.append((len(plans), len(found[0])))
        return found

    monkeypatch.setattr(fair, "_solved_candidates", spy)
    game = Game.new("classic", 2)
    _play_to_three_rows_left(game)
    view = game.position.observe()
    rng = random.Random(4)
    worlds = [sample_position(view, rng) for _ in range(fair.SOLVES)]
    plans, chosen, _, _ = fair._choose(worlds, {view}, 700_000)
    [(staged, proposed)] = counts
    assert proposed > 0 and len(plans) == staged + proposed
    assert chosen is not None
    assert (chosen >= staged) == (bonus > 0)
