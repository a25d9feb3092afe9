"""``milligan survey run | report | winnable``.

Heavy imports (Dask, rich, matplotlib) wait until a survey command runs, so
that every other ``milligan`` command starts fast.
"""

from __future__ import annotations

import argparse
import signal
import sys
import time
from pathlib import Path
from types import FrameType
from typing import Any

from milligan.cli import UsageError, memory_mb, positive_int, variant_arg
from milligan.survey.results import (
    PLAYERS,
    Limits,
    Play,
    Result,
    ResultStore,
    default_path,
)
from milligan.variants import PRESETS
from milligan.workers import restore_interrupts


def register(subparsers: Any) -> None:
    """Add ``survey`` and its subcommands to the ``milligan`` command line."""
    survey = subparsers.add_parser(
        "survey", help="solve many deals and publish how winnable a variant is"
    )
    commands = survey.add_subparsers(dest="survey_command", metavar="SUBCOMMAND")
    commands.required = True

    run = commands.add_parser(
        "run",
        help="solve a range of deals on this machine or a Dask cluster",
        description="Solve every deal of a range and store each verdict as it arrives. "
        "Deals already decided under the same or larger limits are skipped, so a "
        "survey can be interrupted and resumed or extended.",
    )
    run.add_argument(
        "--variant",
        type=variant_arg,
        action="append",
        metavar="V",
        help=f"{', '.join(PRESETS)} or settings as JSON (default classic); repeat it to "
        "survey several variants deal by deal",
    )
    run.add_argument(
        "--deals", required=True, metavar="RANGE", help="deal numbers, e.g. 1-10000 or 1-10,42"
    )
    run.add_argument(
        "--timeout",
        type=_non_negative_float,
        default=10.0,
        metavar="S",
        help="seconds per deal (default 10; 0 for none)",
    )
    run.add_argument(
        "--max-positions",
        type=positive_int,
        default=None,
        metavar="N",
        help="positions per deal (default: no limit); with --player fair, positions per "
        "decision (default that of milligan autoplay)",
    )
    run.add_argument(
        "--max-memory",
        type=memory_mb,
        default=None,
        metavar="MB",
        help="memory per deal (default: a share per worker of the memory free to this process, "
        "within its container's limit; at most 1024)",
    )
    run.add_argument(
        "--workers",
        type=positive_int,
        default=None,
        metavar="N",
        help="worker processes on this machine (default: the cores this process may use)",
    )
    run.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        default=None,
        help="a Dask scheduler, e.g. tcp://10.0.0.5:8786; 'local' starts a "
        "Dask LocalCluster of --workers processes",
    )
    run.add_argument(
        "--results", metavar="PATH", default=None, help=f"results file (default {default_path()})"
    )
    run.add_argument(
        "--solutions",
        action="store_true",
        help="keep each winning line, shortened (slower: shortening often costs more than "
        "the search); without it only the length of the line found is kept",
    )
    run.add_argument(
        "--retry-unknown",
        action="store_true",
        help="also retry the deals an earlier attempt left unknown under limits as large as "
        "these (after the solver got stronger); decided deals are still skipped",
    )
    run.add_argument(
        "--player",
        choices=("solve", *PLAYERS),
        default="solve",
        help="solve: prove each deal won or lost with complete knowledge (default); fair: "
        "play it to its end with the fair player, which sees only what a person sees; greedy: "
        "the naive baseline (foundation moves, then builds, then deal)",
    )
    run.add_argument(
        "--samples",
        type=positive_int,
        default=None,
        metavar="K",
        help="with --player fair: sampled deals per decision (default that of milligan autoplay)",
    )
    run.add_argument(
        "--seed", type=int, default=0, metavar="S", help="with --player fair: its seed (default 0)"
    )
    run.add_argument("--quiet", action="store_true", help="no progress bar")
    run.set_defaults(handler=cmd_run)

    report = commands.add_parser("report", help="the winnability table of the stored results")
    report.add_argument("--results", metavar="PATH", default=None, help="results file")
    report.add_argument(
        "--variant",
        action="append",
        type=variant_arg,
        metavar="V",
        help="only this variant (repeatable)",
    )
    report.add_argument(
        "--plots", metavar="DIR", default=None, help="also write the charts (PNG and SVG) into DIR"
    )
    report.add_argument("--markdown", action="store_true", help="print a Markdown table")
    report.add_argument(
        "--update",
        metavar="FILE.md",
        default=None,
        help="also put the Markdown table into FILE.md, between the lines "
        "<!-- survey-table --> and <!-- /survey-table -->",
    )
    report.set_defaults(handler=cmd_report)

    winnable = commands.add_parser("winnable", help="list the deal numbers proven won")
    winnable.add_argument(
        "--variant",
        type=variant_arg,
        default=PRESETS["classic"],
        metavar="V",
        help="variant (default classic)",
    )
    winnable.add_argument(
        "--results",
        metavar="PATH",
        default=None,
        help="only this results file (default: the deals shipped with Milligan and those in "
        f"{default_path()})",
    )
    winnable.set_defaults(handler=cmd_winnable)


def _non_negative_float(text: str) -> float:
    """Seconds, where 0 means no limit."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"{text} is negative")
    return value


def _results_path(args: argparse.Namespace) -> Path:
    return Path(args.results) if args.results else default_path()


def _existing_results(args: argparse.Namespace) -> Path:
    path = _results_path(args)
    if not path.exists():
        raise UsageError(f"no results file at {path} (run 'milligan survey run' first)")
    return path


# -- run ----------------------------------------------------------------------------


def _terminate(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt


def cmd_run(args: argparse.Namespace) -> int:
    from milligan.survey.runner import (
        DEFAULT_MEMORY_MB,
        DaskEngine,
        Engine,
        LocalEngine,
        parse_deals,
        run_survey,
    )

    deals = parse_deals(args.deals)
    variants = [v.key for v in args.variant or [PRESETS["classic"]]]
    try:
        import milligan.solver  # noqa: F401
    except ImportError as error:
        raise UsageError(f"the solver is not available: {error}") from None

    # A kill is handled like Ctrl-C: stop the workers, keep what is stored.
    signal.signal(signal.SIGTERM, _terminate)
    # and Ctrl-C works even when the shell that started this run ignores it
    restore_interrupts()
    engine: Engine
    if args.scheduler is None:
        engine = LocalEngine(args.workers)
    elif args.scheduler == "local":
        engine = DaskEngine(None, args.workers)
    else:
        engine = DaskEngine(args.scheduler)
    try:
        memory = args.max_memory
        if memory is None:
            share = engine.memory_per_slot_mb()
            memory = DEFAULT_MEMORY_MB if share is None else max(64, min(DEFAULT_MEMORY_MB, share))
        limits = Limits(args.timeout or None, args.max_positions, memory)
        player = _player(args)
        with ResultStore(_results_path(args)) as store:
            return _run_with_progress(
                args, store, variants, deals, limits, player, engine, run_survey
            )
    except BaseException:
        engine.close(abort=True)
        raise


def _player(args: argparse.Namespace) -> Any:
    """The survey's player (None: the solver), from ``--player`` and its settings."""
    from milligan.survey.runner import Player

    if args.player == "solve":
        return None
    if args.player == "greedy":
        return Player("greedy")
    return Player.fair(args.samples, args.seed, args.max_positions)


def _run_with_progress(
    args: argparse.Namespace,
    store: ResultStore,
    variants: list[str],
    deals: list[int],
    limits: Limits,
    player: Any,
    engine: Any,
    run_survey: Any,
) -> int:
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        ProgressColumn,
        Task,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )
    from rich.text import Text

    from milligan.survey.runner import SurveyProgress

    class RateColumn(ProgressColumn):
        """Deals per minute since the start."""

        def render(self, task: Task) -> Text:
            elapsed = task.elapsed or 0.0
            if not elapsed or not task.completed:
                return Text("– deals/min", style="progress.data.speed")
            return Text(
                f"{60 * task.completed / elapsed:,.1f} deals/min", style="progress.data.speed"
            )

    console = Console(stderr=True, soft_wrap=True)
    slots = engine.slots()
    where = args.scheduler or f"{slots} local worker{'s' if slots > 1 else ''}"
    doing = f"limits {limits}" if player is None else f"{player.name} player {player.settings()}"
    console.print(
        f"survey {', '.join(variants)}, deals {args.deals}: {doing}; on {where}; "
        f"results in {store.path}"
    )
    unknown = "unknown" if player is None else "resigned"
    bar = Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        RateColumn(),
        TimeElapsedColumn(),
        TextColumn("ETA"),
        TimeRemainingColumn(),
        console=console,
        disable=args.quiet,
    )
    task_id = bar.add_task("starting", total=None)

    def show(progress: SurveyProgress, result: Result | Play | None) -> None:
        description = f"won {progress.won} lost {progress.lost} {unknown} {progress.unknown}"
        if progress.failed:
            description += f" failed {progress.failed}"
        bar.update(task_id, total=progress.total, completed=progress.done, description=description)

    started = time.monotonic()
    progress: SurveyProgress | None = None
    try:
        with bar:
            progress = run_survey(
                store,
                variants,
                deals,
                limits,
                engine,
                solutions=args.solutions,
                player=player,
                retry_unknown=args.retry_unknown,
                on_progress=show,
            )
    except KeyboardInterrupt:
        console.print(
            "interrupted: the deals in flight are lost; the rest is stored. "
            "Run the same command again to resume."
        )
        raise
    seconds = time.monotonic() - started
    for failure in progress.failures:
        console.print(f"failed: {failure}")
    print(
        f"{', '.join(variants)}: {progress.done} deals "
        f"{'solved' if player is None else 'played'} in {seconds:.1f} s "
        f"(won {progress.won}, lost {progress.lost}, {unknown} {progress.unknown}, "
        f"failed {progress.failed}); {progress.skipped} already "
        f"{'decided' if player is None else 'played'}, skipped"
    )
    if progress.starved:
        print(
            f"{progress.starved} unknown after less than half a core over the time limit "
            "(the machine was busy): run the same command again to retry them"
        )
    return 1 if progress.failed else 0


# -- report and winnable ------------------------------------------------------------


def cmd_report(args: argparse.Namespace) -> int:
    from milligan.survey.report import (
        PLAY_TABLE_END,
        PLAY_TABLE_START,
        SOLVER_TABLE_END,
        SOLVER_TABLE_START,
        TABLE_END,
        TABLE_START,
        collect,
        collect_plays,
        markdown,
        play_markdown,
        print_play_table,
        print_table,
        solver_markdown,
        solver_rows,
        update_document,
        write_plots,
    )

    variants = [v.key for v in args.variant] if args.variant else None
    with ResultStore(_existing_results(args)) as store:
        summaries = collect(store, variants)
        plays = collect_plays(store, variants)
        if args.markdown:
            print(markdown(summaries))
            if plays:
                print()
                print(play_markdown(plays))
        else:
            print_table(summaries)
            if plays:
                print_play_table(plays)
        if args.update:
            path = Path(args.update)
            text = path.read_text(encoding="utf-8") if path.exists() else ""
            tables = [(TABLE_START, TABLE_END, markdown(summaries))]
            if plays:
                tables.append((PLAY_TABLE_START, PLAY_TABLE_END, play_markdown(plays)))
            if SOLVER_TABLE_START in text:
                solvers = solver_markdown(solver_rows(store, variants))
                tables.append((SOLVER_TABLE_START, SOLVER_TABLE_END, solvers))
            filled = [(start, end, table) for start, end, table in tables if start in text]
            if not filled:
                raise UsageError(f"{path} has no {TABLE_START} or {PLAY_TABLE_START} lines to fill")
            for start, end, table in filled:
                update_document(path, table, start, end)
            print(f"updated {args.update}", file=sys.stderr)
        if args.plots:
            for written in write_plots(store, args.plots, variants):
                print(f"wrote {written}", file=sys.stderr)
    return 0


def cmd_winnable(args: argparse.Namespace) -> int:
    from milligan.survey.results import known_winnable, winnable_deals

    if args.results:
        deals = winnable_deals(_existing_results(args), args.variant)
    else:  # the deals shipped with Milligan, and the ones your own surveys proved
        deals = known_winnable(args.variant)
    for deal in deals:
        print(deal)
    return 0
