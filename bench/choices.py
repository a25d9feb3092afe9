"""Does the fair player choose well among its candidates?  Each one played on.

    python bench/choices.py                               # classic deals 1-16, 8 and 4 rows left
    python bench/choices.py --deals 1-40 --rows-left 9,6,3 --stocks 8 --workers 2
    python bench/choices.py --out choices.jsonl   # and every decision, as JSON lines
    python bench/choices.py --from docs/data/choices-classic.jsonl   # the table of a saved run
    python bench/choices.py --from docs/data/choices-classic.jsonl --solve 300000 --stocks 16 \
        --workers 2   # and a clairvoyant judge of the same candidates
    python bench/choices.py --deals 1-8 --rows-left 8,4 --wide --stocks 32 \
        --play-samples 4 --play-positions 200000 --workers 2   # every sound table, and dealing

A diagnostic of one decision at a time. The fair player (as shipped) plays
each deal; at the decisions made with the given numbers of stock rows left,
its candidate plans are listed as ``fair.decide`` lists them, with the one
its look-ahead chooses. Then every candidate is *played on*: in each of
``--stocks`` stocks drawn at random from the unseen cards (the same stocks
for every candidate, none of them the true one), the candidate's moves are
played, its deal shows that stock's next row, and the fair player goes on
alone to the end of the game. So each candidate gets the share of stocks
that the fair player wins from it: its value to this player, judged by play
rather than by a heuristic or by a solver that sees the stock.

It prints the mean share won after the chosen candidate and after the best
one. "Best" is picked on half the stocks and scored on the other half (and
the other way round), so that the luck of a few stocks does not make the
best look better than it is. The gap between the two is what a perfect judge
among these candidates would add at these decisions; a small gap says the
losses come from elsewhere (the candidates themselves, or later decisions).
Only variants without face-down cards (all but ``improved``).

``--wide`` asks whether *any* choice at these decisions matters. Besides
the player's own candidates, each decision also gets the tables a wider
stage search keeps that differ from all of those in cards up, empty
columns, breaks or column heights (``WIDE_TABLES`` of them, best-scored
first), the best table under each set of ``ALTERNATIVES`` weights, and
dealing at once, without playing the stage at all. The report then tests,
for each number of rows left, whether the candidates' shares could all be
the same (Cochran's Q over the shared stocks: each stock is a block, each
candidate a treatment, and the statistic summed over the decisions), and
gives each kind of candidate's share less its decision's mean.
``--play-samples`` and ``--play-positions`` set a cheaper player for the
play-ons than the one that makes the decisions.

``--solve P`` (with ``--from``) asks what sampling and solving would make of
the same candidates: each is solved with complete knowledge (at most ``P``
positions) in ``--stocks`` stocks drawn afresh from the unseen cards, and the
candidate with the most solves won is taken (ties share the pick). Its
play-on share says whether a clairvoyant judge picks what the fair player
goes on to win from; the correlations say whether the solves track the
play-on shares within a decision (candidate against candidate) and across
decisions.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any
from unittest import mock

from milligan.cards import Card
from milligan.game import Game
from milligan.moves import DEAL, Move
from milligan.position import Observation, Position
from milligan.solver import fair
from milligan.solver.sampling import sample_position
from milligan.solver.search import run
from milligan.survey.runner import parse_deals

#: ``--wide``: the tables a wider stage search keeps, and how many of those
#: that differ from every candidate already listed (by ``signature``) join.
WIDE_KEEP = 300
WIDE_TABLES = 6
#: ``--wide``: weights (changes to ``fair.WEIGHTS``) whose best table joins too.
ALTERNATIVES: tuple[dict[str, int], ...] = (
    {"w_found": 0},
    {"w_found": 64},
    {"w_empty": 100},
    {"w_break": 32},
    {"w_depth": 8},
)


@dataclass(frozen=True)
class Decision:
    """One probed decision: where it was made and what it chose among."""

    deal: int
    line: tuple[Move, ...]  # the moves played before it
    rows_left: int
    plans: tuple[tuple[Move, ...], ...]
    chosen: int
    stocks: tuple[tuple[Card, ...], ...]
    kinds: tuple[str, ...]  # per plan: "player", "table", "weights w_found=0", "deal"


def probe(job: tuple[str, int, Sequence[int], int, int, int, bool]) -> list[Decision]:
    """Play ``deal`` with the fair player; list the decisions made at ``rows_left``.

    Each decision's candidates and choice are recorded as ``fair.decide``
    makes them (through ``fair._choose``), so nothing is searched twice.
    With ``wide``, more candidates are added to each (see ``widen``).
    """
    variant, deal, rows_left, stocks, samples, positions, wide = job
    game = Game.new(variant, deal)
    # per decision: what the player saw, the moves played before it, and its choice
    calls: list[tuple[Observation, int, list[tuple[tuple[tuple[Move, ...], ...], int | None]]]] = []
    decide, choose = fair.decide, fair._choose

    def recording_decide(
        view: Observation, history: Sequence[Observation] = (), **kw: int
    ) -> fair.Plan:
        calls.append((view, len(history), []))
        return decide(view, history, **kw)

    def recording_choose(
        worlds: Sequence[Position],
        seen: set[Observation],
        budget: int,
        proposers: Sequence[Position] | None = None,
    ) -> tuple[list[tuple[tuple[Move, ...], float]], int | None, int, list[Position]]:
        plans, chosen, spent, after = choose(worlds, seen, budget, proposers)
        calls[-1][2].append((tuple(moves for moves, _ in plans), chosen))
        return plans, chosen, spent, after

    with (
        mock.patch.object(fair, "decide", recording_decide),
        mock.patch.object(fair, "_choose", recording_choose),
    ):
        fair.autoplay(game, samples=samples, max_positions=positions)
    columns = game.variant.columns
    out = []
    for view, played, choices in calls:
        rows = view.stock // columns
        if rows not in rows_left or view.stock % columns or not choices:
            continue
        ((plans, chosen),) = choices
        if chosen is None:
            continue
        kinds = ("player",) * len(plans)
        if wide:
            # the true deal; the stage search never looks past the next deal
            here = game_after(variant, deal, game.moves[:played], ()).position
            more, more_kinds = widen(here, plans)
            plans, kinds = plans + more, kinds + more_kinds
        if len(plans) < 2:
            continue
        drawn = draw_stocks(view, random.Random(1_000_003 * deal + played), stocks)
        out.append(Decision(deal, game.moves[:played], rows, plans, chosen, drawn, kinds))
    return out


def signature(position: Position) -> tuple[object, ...]:
    """What ``--wide`` tells tables apart by: cards up, empty columns, breaks, column heights."""
    return (
        position.cards_on_foundations(),
        sum(not cards for cards in position.columns),
        fair.breaks(position),
        tuple(sorted(len(cards) for cards in position.columns)),
    )


def widen(
    here: Position, plans: Sequence[tuple[Move, ...]]
) -> tuple[tuple[tuple[Move, ...], ...], tuple[str, ...]]:
    """More candidate plans from ``here`` than the player lists, and what kind each is.

    Tables a wider stage search keeps whose signature no candidate has yet,
    the best table under each of ALTERNATIVES, and dealing at once; never a
    table already listed.
    """
    budget = fair._budgets(fair.DEFAULT_POSITIONS)[1]
    listed = [fair._after(here, plan[:-1]) for plan in plans]  # the table each plan deals from
    tables = {table.observe() for table in listed}
    signatures = {signature(table) for table in listed}
    more: list[tuple[Move, ...]] = []
    kinds: list[str] = []

    def add(plan: tuple[Move, ...], kind: str, table: Position) -> None:
        if table.observe() not in tables:
            tables.add(table.observe())
            signatures.add(signature(table))
            more.append(plan)
            kinds.append(kind)

    won, found, _ = fair._core_stage(here, budget, WIDE_KEEP)
    if won is not None:
        return (), ()
    for plan, _ in found:
        if len(more) >= WIDE_TABLES:
            break
        table = fair._after(here, plan[:-1])
        if signature(table) not in signatures:
            add(plan, "table", table)
    for weights in ALTERNATIVES:
        with mock.patch.dict(fair.WEIGHTS, weights):
            _, best, _ = fair._core_stage(here, budget, 1)
        if best:
            plan = best[0][0]
            name = "weights " + ",".join(f"{k}={v}" for k, v in weights.items())
            add(plan, name, fair._after(here, plan[:-1]))
    add((DEAL,), "deal", here)
    return tuple(more), tuple(kinds)


def draw_stocks(view: Observation, rng: random.Random, count: int) -> tuple[tuple[Card, ...], ...]:
    """``count`` stocks drawn from the cards ``view`` does not show, shuffled in turn by ``rng``."""
    unseen = list(sample_position(view, random.Random(0)).stock)
    drawn = []
    for _ in range(count):
        rng.shuffle(unseen)
        drawn.append(tuple(unseen))
    return tuple(drawn)


def game_after(
    variant: str, deal: int, moves: Sequence[Move | str], stock: tuple[Card, ...]
) -> Game:
    """Deal ``deal`` with ``stock`` in place of its own, and ``moves`` played."""
    order = Game.new(variant, deal).order
    game = Game.from_order(variant, order[: len(order) - len(stock)] + stock)
    for move in moves:
        game.play(move)
    return game


def play_on(
    job: tuple[str, int, tuple[Move, ...], tuple[Move, ...], tuple[Card, ...], int, int],
) -> bool:
    """Whether the fair player wins after ``prefix`` then ``plan``, with ``stock`` as the stock."""
    variant, deal, prefix, plan, stock, samples, positions = job
    game = game_after(variant, deal, (*prefix, *plan), stock)
    if game.status == "playing":
        fair.autoplay(game, samples=samples, max_positions=positions)
    return game.status == "won"


def solve_on(job: tuple[str, int, str, str, tuple[Card, ...], int]) -> str:
    """The complete-knowledge verdict after ``line`` then ``plan``, with ``stock`` as the stock."""
    variant, deal, line, plan, stock, positions = job
    game = game_after(variant, deal, (*line.split(), *plan.split()), stock)
    if game.status != "playing":
        return game.status
    return run(game.position, max_positions=positions, max_memory_mb=128, shorten_win=False).result


def judge_by_solving(
    entries: Sequence[dict[str, Any]], positions: int, stocks: int, workers: int
) -> None:
    """Solve every saved candidate in fresh stocks; print what that judge picks."""
    jobs = []
    for entry in entries:
        variant, deal = entry["variant"], entry["deal"]
        line = entry["line"].split()
        game = Game.new(variant, deal)
        for move in line:
            game.play(move)
        # not the play-on stocks: a judge in play never sees the stocks it is judged on
        drawn = draw_stocks(
            game.position.observe(), random.Random(7_000_001 * deal + len(line)), stocks
        )
        jobs += [
            (variant, deal, entry["line"], plan, stock, positions)
            for plan in entry["plans"]
            for stock in drawn
        ]
    began = time.perf_counter()
    with ProcessPoolExecutor(workers) as pool:
        verdicts = iter(pool.map(solve_on, jobs, chunksize=4))
        solved = [[[next(verdicts) for _ in range(stocks)] for _ in e["plans"]] for e in entries]
    print(
        f"\nsolved: {len(jobs)} solves of at most {positions:,} positions "
        f"({stocks} fresh stocks a candidate), {time.perf_counter() - began:.0f} s "
        f"on {workers} worker(s)"
    )
    print(
        "| rows left | decisions | chosen: won | most solves won: won | a candidate at random: won "
        "| solves won | unknown |"
    )
    print("|---:|---:|---:|---:|---:|---:|---:|")
    # per decision: play-on shares, and the share of solves won and unknown, per candidate
    shares = [[sum(won) / len(won) for won in e["won"]] for e in entries]
    wins = [[row.count("won") / stocks for row in verdicts_of] for verdicts_of in solved]
    unknowns = [[row.count("unknown") / stocks for row in verdicts_of] for verdicts_of in solved]
    for rows in [*sorted({e["rows_left"] for e in entries}, reverse=True), None]:
        chosen = picked = random_pick = won = unknown = 0.0
        count = 0
        for i, entry in enumerate(entries):
            if rows is not None and entry["rows_left"] != rows:
                continue
            count += 1
            ties = [c for c, w in enumerate(wins[i]) if w == max(wins[i])]
            chosen += shares[i][entry["chosen"]]
            picked += statistics.mean(shares[i][c] for c in ties)
            random_pick += statistics.mean(shares[i])
            won += statistics.mean(wins[i])
            unknown += statistics.mean(unknowns[i])
        print(
            f"| {'all' if rows is None else rows} | {count} | {chosen / count:.1%} "
            f"| {picked / count:.1%} | {random_pick / count:.1%} | {won / count:.1%} "
            f"| {unknown / count:.1%} |"
        )
    across_solved = [statistics.mean(w) for w in wins]
    across_play = [statistics.mean(s) for s in shares]
    within_solved = [w - m for ws, m in zip(wins, across_solved, strict=True) for w in ws]
    within_play = [s - m for ss, m in zip(shares, across_play, strict=True) for s in ss]
    print(
        "correlation of solves won with play-ons won: within a decision "
        f"{statistics.correlation(within_solved, within_play):+.2f} "
        f"({len(within_play)} candidates), across decisions "
        f"{statistics.correlation(across_solved, across_play):+.2f} ({len(across_play)} decisions)"
    )


def report(entries: Sequence[dict[str, Any]]) -> None:
    """The table, from decisions as ``--out`` writes them (rows_left, chosen, won)."""
    print(
        "| rows left | decisions | candidates (mean) | chosen: won "
        "| best by play (held out): won | a candidate at random: won "
        "| the best-scored table: won | chosen is best | no candidate won |"
    )
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for rows in [*sorted({e["rows_left"] for e in entries}, reverse=True), None]:
        picked = [e for e in entries if rows is None or e["rows_left"] == rows]
        chosen = held = random_pick = first = 0.0
        best_is_chosen = none_won = 0
        for entry in picked:
            won, index = entry["won"], entry["chosen"]
            half = len(won[0]) // 2
            shares = [sum(stocks) / len(stocks) for stocks in won]
            chosen += shares[index]
            random_pick += sum(shares) / len(shares)
            first += shares[0]  # the candidates come best-scored first
            # pick on one half of the stocks, score on the other, both ways
            for a, b in ((slice(0, half), slice(half, None)), (slice(half, None), slice(0, half))):
                pick = max(range(len(won)), key=lambda i: (sum(won[i][a]), i == index))
                held += sum(won[pick][b]) / len(won[pick][b]) / 2
            best_is_chosen += shares[index] == max(shares)
            none_won += max(shares) == 0
        n = len(picked)
        print(
            f"| {'all' if rows is None else rows} | {n} "
            f"| {sum(len(e['won']) for e in picked) / n:.1f} | {chosen / n:.1%} "
            f"| {held / n:.1%} | {random_pick / n:.1%} | {first / n:.1%} "
            f"| {best_is_chosen} | {none_won} |"
        )


def cochran(won: Sequence[Sequence[int]]) -> tuple[float, int]:
    """Cochran's Q and its degrees of freedom for one decision's play-ons.

    ``won[c][s]`` is 1 when candidate ``c`` was won in stock ``s``; the
    stocks are shared, so each is a block and the test asks whether all
    candidates could have the same chance.  Stocks won by all or by none
    tell nothing and drop out of the sum.
    """
    k = len(won)
    columns = [sum(row) for row in won]
    blocks = [sum(row[s] for row in won) for s in range(len(won[0]))]
    total = sum(columns)
    denominator = k * total - sum(b * b for b in blocks)
    if k < 2 or denominator == 0:
        return 0.0, k - 1
    q = (k - 1) * (k * sum(c * c for c in columns) - total * total) / denominator
    return q, k - 1


def chi_square_tail(x: float, df: int) -> float:
    """P(X >= x) for a chi-square variable with ``df`` degrees of freedom."""
    if x <= 0 or df <= 0:
        return 1.0
    a, z = df / 2, x / 2
    if z < a + 1:  # the series of the lower incomplete gamma function
        term = total = 1 / a
        n = a
        while term > total * 1e-15:
            n += 1
            term *= z / n
            total += term
        return 1 - total * math.exp(-z + a * math.log(z) - math.lgamma(a))
    # a continued fraction for the upper one (modified Lentz)
    tiny = 1e-300
    b = z + 1 - a
    c, d = 1 / tiny, 1 / b
    h = d
    for i in range(1, 1000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        step = d * c
        h *= step
        if abs(step - 1) < 1e-15:
            break
    return math.exp(-z + a * math.log(z) - math.lgamma(a)) * h


def q_table(entries: Sequence[dict[str, Any]], which: str) -> None:
    """Cochran's Q of ``entries``, by rows left and over all of them."""
    print(
        f"\n| rows left | decisions | candidates ({which}) | Cochran's Q | degrees of freedom | p |"
    )
    print("|---:|---:|---:|---:|---:|---:|")
    for rows in [*sorted({e["rows_left"] for e in entries}, reverse=True), None]:
        picked = [e for e in entries if rows is None or e["rows_left"] == rows]
        q = 0.0
        df = 0
        for entry in picked:
            one, free = cochran(entry["won"])
            q, df = q + one, df + free
        count = sum(len(e["won"]) for e in picked)
        print(
            f"| {'all' if rows is None else rows} | {len(picked)} | {count} | {q:.1f} | {df} "
            f"| {chi_square_tail(q, df):.2f} |"
        )


def homogeneity(entries: Sequence[dict[str, Any]]) -> None:
    """Could every candidate of a decision have the same chance?  And each kind's share.

    Cochran's Q summed over the decisions with the same rows left (the sum
    of independent chi-square variables is one), and each kind of candidate's
    share less the mean share of its decision, averaged over the decisions.
    With ``--wide`` candidates the test is made again without dealing at
    once, and among the tables of the stage searches alone (the player's
    and the wider search's, which are scored by the shipped weights).
    """
    q_table(entries, "every candidate")
    for which, keep in (
        ("dealing at once left out", lambda kind: kind != "deal"),
        ("the stage searches' tables alone", lambda kind: kind in ("player", "table")),
    ):
        if any(not keep(kind) for e in entries for kind in e.get("kinds", ())):
            q_table(
                [
                    {
                        **e,
                        "won": [
                            w for w, kind in zip(e["won"], e["kinds"], strict=True) if keep(kind)
                        ],
                    }
                    for e in entries
                ],
                which,
            )
    offsets: dict[str, list[float]] = {}
    for entry in entries:
        shares = [sum(won) / len(won) for won in entry["won"]]
        mean = statistics.mean(shares)
        kinds = entry.get("kinds") or ["player"] * len(shares)
        for i, (kind, share) in enumerate(zip(kinds, shares, strict=True)):
            offsets.setdefault(kind, []).append(share - mean)
            if i == entry["chosen"]:
                offsets.setdefault("player (chosen)", []).append(share - mean)
    print("\n| candidates | count | share won less its decision's mean | standard error |")
    print("|---|---:|---:|---:|")
    for kind, values in sorted(offsets.items()):
        error = statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else math.nan
        print(
            f"| {kind} | {len(values)} | {100 * statistics.mean(values):+.1f} points "
            f"| {100 * error:.1f} |"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", default="classic")
    parser.add_argument("--deals", default="1-16", help="deal numbers, e.g. 1-16 or 3,7,10-12")
    parser.add_argument("--rows-left", default="8,4", help="probe decisions with these stock rows")
    parser.add_argument(
        "--stocks", type=int, default=8, help="stocks each candidate is played in (2 or more)"
    )
    parser.add_argument("--samples", type=int, default=fair.DEFAULT_SAMPLES)
    parser.add_argument("--max-positions", type=int, default=fair.DEFAULT_POSITIONS)
    parser.add_argument(
        "--wide",
        action="store_true",
        help="more candidates than the player's: other tables, other weights, dealing at once",
    )
    parser.add_argument(
        "--play-samples", type=int, help="the play-ons' player (default: --samples)"
    )
    parser.add_argument(
        "--play-positions", type=int, help="the play-ons' player (default: --max-positions)"
    )
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--out", help="also write every decision, as JSON lines, to this file")
    parser.add_argument("--from", dest="source", help="print the table of an --out file, no play")
    parser.add_argument(
        "--solve",
        type=int,
        metavar="P",
        help="with --from: also judge the candidates by solves of at most P positions",
    )
    args = parser.parse_args()
    if args.stocks < 2:
        parser.error("--stocks: at least 2 (half of them pick the best, the other half judge it)")
    if args.source:
        with open(args.source, encoding="utf-8") as lines:
            entries = [json.loads(line) for line in lines]
        print(f"{args.source}: {len(entries)} decisions")
        report(entries)
        homogeneity(entries)
        if args.solve:
            judge_by_solving(entries, args.solve, args.stocks, args.workers)
        return
    if args.solve:
        parser.error("--solve: only with --from")
    if args.variant == "improved":
        parser.error("only variants without face-down cards")
    deals = parse_deals(args.deals)
    rows_left = [int(rows) for rows in args.rows_left.split(",")]
    began = time.perf_counter()
    with ProcessPoolExecutor(args.workers) as pool:
        probes = [
            (
                args.variant,
                deal,
                rows_left,
                args.stocks,
                args.samples,
                args.max_positions,
                args.wide,
            )
            for deal in deals
        ]
        decisions = [d for found in pool.map(probe, probes) for d in found]
        play_samples = args.play_samples or args.samples
        play_positions = args.play_positions or args.max_positions
        jobs = [
            (args.variant, d.deal, d.line, plan, stock, play_samples, play_positions)
            for d in decisions
            for plan in d.plans
            for stock in d.stocks
        ]
        results = iter(pool.map(play_on, jobs, chunksize=1))
        table = [[[next(results) for _ in d.stocks] for _ in d.plans] for d in decisions]
    elapsed = time.perf_counter() - began
    entries = [
        {
            "variant": args.variant,
            "deal": d.deal,
            "line": " ".join(map(str, d.line)),
            "rows_left": d.rows_left,
            "plans": [" ".join(map(str, plan)) for plan in d.plans],
            "chosen": d.chosen,
            "kinds": list(d.kinds),
            "won": [[int(w) for w in won] for won in t],
        }
        for d, t in zip(decisions, table, strict=True)
    ]
    if args.out:
        with open(args.out, "w", encoding="utf-8") as out:
            out.writelines(json.dumps(entry) + "\n" for entry in entries)
    print(
        f"{args.variant} deals {args.deals}, decisions with {args.rows_left} rows left: "
        f"{len(decisions)} decisions, {len(jobs)} games played on "
        f"({args.stocks} stocks a candidate), {elapsed:.0f} s on {args.workers} worker(s)"
    )
    if entries:
        report(entries)
        homogeneity(entries)


if __name__ == "__main__":
    main()
