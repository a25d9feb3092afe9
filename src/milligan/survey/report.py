"""The survey report: a table per variant, as text or Markdown, and its charts."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from milligan.errors import MilliganError
from milligan.survey.results import Limits, Play, Result, ResultStore
from milligan.survey.stats import VariantSummary, summarize, wilson_interval

if TYPE_CHECKING:
    from matplotlib.figure import Figure


class ReportError(MilliganError):
    """A document the report cannot be written into (unreadable, or without its markers)."""


HEADERS = (
    "variant",
    "deals",
    "won",
    "lost",
    "unknown",
    "won %",
    "95% interval",
    "median s",
    "p95 s",
    "limits",
)


def collect(store: ResultStore, variants: Sequence[str] | None = None) -> list[VariantSummary]:
    """The summary of each variant in the store (or of the ones named)."""
    verdicts = list(store.verdicts().values())
    names = list(variants) if variants else store.variants()
    return [summarize(name, verdicts) for name in names]


def _percent(value: float | None) -> str:
    return "–" if value is None else f"{100 * value:.1f}%"


def _seconds(value: float | None) -> str:
    if value is None:
        return "–"
    return f"{value:.3f}" if value < 10 else f"{value:.1f}"


def _limits(limits: Sequence[Limits]) -> str:
    return "; ".join(str(limit) for limit in limits) or "–"


def _deal_range(summary: VariantSummary) -> str:
    if summary.first_deal is None:
        return "0"
    span = summary.last_deal - summary.first_deal + 1 if summary.last_deal is not None else 0
    where = f"{summary.first_deal}–{summary.last_deal}"
    if span != summary.deals:
        where += ", some"
    return f"{summary.deals} ({where})"


def rows(summaries: Sequence[VariantSummary]) -> list[tuple[str, ...]]:
    """The report's cells, one tuple per variant, in :data:`HEADERS` order."""
    table: list[tuple[str, ...]] = []
    for summary in summaries:
        low, high = summary.interval
        table.append(
            (
                summary.variant,
                _deal_range(summary),
                str(summary.won),
                str(summary.lost),
                str(summary.unknown),
                _percent(summary.won_share[0] if summary.won_share else None),
                f"{_percent(low)} – {_percent(high)}",
                _seconds(summary.median_seconds),
                _seconds(summary.p95_seconds),
                _limits(summary.limits),
            )
        )
    return table


def markdown(summaries: Sequence[VariantSummary]) -> str:
    """The report as a Markdown table.

    >>> from milligan.survey.stats import VariantSummary
    >>> s = VariantSummary("one-deck", 10, 5, 5, 0, 0.5, 0.9, 1, 10, (Limits(5),))
    >>> print(markdown([s]))
    | variant | deals | won | lost | unknown | won % | 95% interval | median s | p95 s | limits |
    |---|---:|---:|---:|---:|---:|---:|---:|---:|---|
    | one-deck | 10 (1–10) | 5 | 5 | 0 | 50.0% | 23.7% – 76.3% | 0.500 | 0.900 | 5 s |
    """
    align = ("---", "---:", "---:", "---:", "---:", "---:", "---:", "---:", "---:", "---")
    lines = ["| " + " | ".join(HEADERS) + " |", "|" + "|".join(align) + "|"]
    lines += ["| " + " | ".join(row) + " |" for row in rows(summaries)]
    return "\n".join(lines)


def solver_rows(store: ResultStore, variants: Sequence[str] | None = None) -> list[tuple[str, ...]]:
    """Which solver gave each variant's standing verdicts: (variant, solver, won, lost, unknown).

    A deal's standing verdict is the one the table counts (``store.verdicts()``);
    its ``solver`` is the core and source hash the results file recorded.
    Within a variant the versions come in the order of their first standing verdict.
    """
    names = list(variants) if variants else store.variants()
    counts: dict[tuple[str, str], dict[str, int]] = {}
    first: dict[tuple[str, str], str] = {}
    for result in store.verdicts().values():
        if result.variant not in names:
            continue
        key = (result.variant, result.solver or "not recorded")
        counts.setdefault(key, {"won": 0, "lost": 0, "unknown": 0})[result.verdict] += 1
        first[key] = min(first.get(key, result.finished_at), result.finished_at)
    order = {name: index for index, name in enumerate(names)}
    keys = sorted(counts, key=lambda key: (order[key[0]], first[key]))
    return [
        (variant, solver, *(str(counts[variant, solver][v]) for v in ("won", "lost", "unknown")))
        for variant, solver in keys
    ]


def solver_markdown(table: Sequence[tuple[str, ...]]) -> str:
    """:func:`solver_rows` as a Markdown table.

    >>> print(solver_markdown([("classic", "compiled core, source 1234", "5", "0", "1")]))
    | variant | solver | won | lost | unknown |
    |---|---|---:|---:|---:|
    | classic | compiled core, source 1234 | 5 | 0 | 1 |
    """
    lines = ["| variant | solver | won | lost | unknown |", "|---|---|---:|---:|---:|"]
    lines += ["| " + " | ".join(row) + " |" for row in table]
    return "\n".join(lines)


TABLE_START = "<!-- survey-table -->"
TABLE_END = "<!-- /survey-table -->"
PLAY_TABLE_START = "<!-- play-table -->"
PLAY_TABLE_END = "<!-- /play-table -->"
SOLVER_TABLE_START = "<!-- solver-table -->"
SOLVER_TABLE_END = "<!-- /solver-table -->"


def update_document(
    path: Path, table: str, start_mark: str = TABLE_START, end_mark: str = TABLE_END
) -> None:
    """Replace what lies between two marker lines of a Markdown file with ``table``.

    Raises :class:`ReportError` when the file cannot be read or lacks the markers.
    """
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise ReportError(f"cannot read {path}: {error.strerror}") from None
    start, end = text.find(start_mark), text.find(end_mark)
    if start < 0 or end < start:
        raise ReportError(f"{path} has no {start_mark} ... {end_mark} lines to fill")
    before = text[: start + len(start_mark)]
    path.write_text(before + "\n" + table + "\n" + text[end:], encoding="utf-8")


# -- games played without hidden knowledge ------------------------------------------

PLAY_HEADERS = (
    "variant",
    "player",
    "games",
    "won",
    "won %",
    "95% interval",
    "complete knowledge",
    "ratio",
    "median s",
    "settings",
)


@dataclass(frozen=True, slots=True)
class PlaySummary:
    """How one player fared on one variant, beside the solver's verdicts on the same deals.

    ``known`` counts the played deals the solver has a verdict for, and
    ``known_won`` those proven won: the complete-knowledge win rate is
    ``known_won / known`` (a lower bound while some are unknown).
    """

    variant: str
    player: str
    settings: str
    games: int
    won: int
    known: int
    known_won: int
    median_seconds: float | None

    @property
    def rate(self) -> float | None:
        return self.won / self.games if self.games else None

    @property
    def interval(self) -> tuple[float, float]:
        return wilson_interval(self.won, self.games)

    @property
    def known_rate(self) -> float | None:
        return self.known_won / self.known if self.known else None

    @property
    def ratio(self) -> float | None:
        rate, known = self.rate, self.known_rate
        return None if rate is None or not known else rate / known


def collect_plays(store: ResultStore, variants: Sequence[str] | None = None) -> list[PlaySummary]:
    """A summary per variant, player and settings of the stored games."""
    from milligan.survey.stats import percentile

    verdicts = store.verdicts()
    groups: dict[tuple[str, str, str], list[Play]] = {}
    for play in store.plays():
        if variants and play.variant not in variants:
            continue
        groups.setdefault((play.variant, play.player, play.settings), []).append(play)
    order = {name: index for index, name in enumerate(variants or store.variants())}
    out = []
    for (variant, player, settings), plays in groups.items():
        known = [verdicts.get((variant, p.deal)) for p in plays]
        decided = [r for r in known if r is not None]
        times = [p.cpu_seconds if p.cpu_seconds is not None else p.seconds for p in plays]
        out.append(
            PlaySummary(
                variant,
                player,
                settings,
                len(plays),
                sum(p.result == "won" for p in plays),
                len(decided),
                sum(r.verdict == "won" for r in decided),
                percentile(times, 50),
            )
        )
    out.sort(key=lambda s: (order.get(s.variant, len(order)), s.variant, s.player, s.settings))
    return out


def play_rows(summaries: Sequence[PlaySummary]) -> list[tuple[str, ...]]:
    """The cells of the played-games table, in :data:`PLAY_HEADERS` order."""
    table: list[tuple[str, ...]] = []
    for summary in summaries:
        low, high = summary.interval
        known = (
            f"{_percent(summary.known_rate)} ({summary.known_won}/{summary.known})"
            if summary.known
            else "–"
        )
        ratio = "–" if summary.ratio is None else f"{summary.ratio:.2f}"
        table.append(
            (
                summary.variant,
                summary.player,
                str(summary.games),
                str(summary.won),
                _percent(summary.rate),
                f"{_percent(low)} – {_percent(high)}",
                known,
                ratio,
                _seconds(summary.median_seconds),
                summary.settings,
            )
        )
    return table


def play_markdown(summaries: Sequence[PlaySummary]) -> str:
    """The played-games table in Markdown.

    >>> s = PlaySummary("classic", "fair", "{}", 10, 8, 10, 10, 30.0)
    >>> print(play_markdown([s]).splitlines()[2])
    | classic | fair | 10 | 8 | 80.0% | 49.0% – 94.3% | 100.0% (10/10) | 0.80 | 30.0 | {} |
    """
    align = ("---", "---", "---:", "---:", "---:", "---:", "---:", "---:", "---:", "---")
    lines = ["| " + " | ".join(PLAY_HEADERS) + " |", "|" + "|".join(align) + "|"]
    lines += ["| " + " | ".join(row) + " |" for row in play_rows(summaries)]
    return "\n".join(lines)


def print_play_table(summaries: Sequence[PlaySummary]) -> None:
    """The played-games table on the terminal."""
    _print_rich(
        "Games played without seeing hidden cards",
        PLAY_HEADERS,
        (0, 1, 9),
        play_rows(summaries),
        "won %: games won (a player that never sees the stock or face-down cards); interval: "
        "95% Wilson; complete knowledge: the same deals proven won by the solver; ratio: the "
        "two rates divided; times: CPU seconds per game",
    )


def print_table(summaries: Sequence[VariantSummary]) -> None:
    """The report as a table on the terminal."""
    _print_rich(
        "Winnability survey",
        HEADERS,
        (0, 9),
        rows(summaries),
        "won %: deals proven won; interval: 95% Wilson, unknowns counted as lost (low) and as"
        " won (high); times: CPU seconds per decided deal",
    )


def _print_rich(
    title: str,
    headers: Sequence[str],
    left: Sequence[int],
    cells: Sequence[Sequence[str]],
    footnote: str,
) -> None:
    """A table on the terminal, columns ``left`` aligned left, then its footnote."""
    import sys

    from rich.console import Console
    from rich.table import Table

    table = Table(title=title, title_justify="left")
    for index, header in enumerate(headers):
        table.add_column(
            header, justify="left" if index in left else "right", no_wrap=index != left[-1]
        )
    for row in cells:
        table.add_row(*row)
    # A pipe or a file gets the whole table, not one cut to 80 columns.
    Console(width=None if sys.stdout.isatty() else 200).print(table)
    print(footnote)


# -- charts -------------------------------------------------------------------------

CHARTS = ("solve-times", "decided-vs-limit", "decided-vs-positions", "win-rate")


def write_plots(
    store: ResultStore, directory: str | Path, variants: Sequence[str] | None = None
) -> list[Path]:
    """Write the :data:`CHARTS` as PNG and SVG into ``directory``; returns the files."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    directory = Path(directory)
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise ReportError(f"cannot write the charts into {directory}: {error.strerror}") from None
    verdicts = list(store.verdicts().values())
    names = list(variants) if variants else store.variants()
    by_variant: dict[str, list[Result]] = {
        name: [r for r in verdicts if r.variant == name] for name in names
    }
    written: list[Path] = []

    def save(figure: Figure, stem: str) -> None:
        figure.tight_layout()
        for suffix in ("png", "svg"):
            path = directory / f"{stem}.{suffix}"
            # No date and a fixed salt for the ids keep the SVG identical when the data is.
            try:
                with plt.rc_context({"svg.hashsalt": "milligan"}):
                    figure.savefig(
                        path, dpi=120, metadata={"Date": None} if suffix == "svg" else None
                    )
            except OSError as error:
                plt.close(figure)
                raise ReportError(f"cannot write {path}: {error.strerror}") from None
            written.append(path)
        plt.close(figure)

    # Solve-time distribution of the decided deals, log-spaced bins.
    figure, axes = plt.subplots(figsize=(7, 4))
    times = {name: [r.solve_time for r in rows if r.decided] for name, rows in by_variant.items()}
    every = [t for values in times.values() for t in values if t > 0]
    if every:
        import numpy as np

        low, high = max(min(every), 1e-4), max(every)
        bins = list(np.logspace(np.log10(low) - 0.05, np.log10(high) + 0.05, 40))
        for name, values in times.items():
            if values:
                clipped = [max(t, low) for t in values]
                axes.hist(clipped, bins=bins, histtype="step", linewidth=1.5, label=name)
        axes.set_xscale("log")
        axes.legend()
    axes.set_xlabel("solve time of a decided deal (CPU s)")
    axes.set_ylabel("deals")
    axes.set_title("Solve-time distribution")
    save(figure, "solve-times")

    # Share of deals decided (won or lost) if the limit had been t seconds, or n positions.
    for stem, measure, label, title in [
        ("decided-vs-limit", "time", "time limit per deal (CPU s)", "the time limit"),
        ("decided-vs-positions", "positions", "position limit per deal", "the position limit"),
    ]:
        figure, axes = plt.subplots(figsize=(7, 4))
        for name, rows_ in by_variant.items():
            if measure == "time":
                decided = sorted(r.solve_time for r in rows_ if r.decided)
                limits = [r.limits.timeout for r in rows_]
            else:
                decided = sorted(float(r.positions) for r in rows_ if r.decided)
                limits = [r.limits.max_positions for r in rows_]
            if not decided:
                continue
            total = len(rows_)
            end = max([decided[-1], *(float(limit) for limit in limits if limit is not None)])
            xs = [max(x, 1e-4) for x in decided] + [end]
            ys = [100 * (i + 1) / total for i in range(len(decided))] + [100 * len(decided) / total]
            axes.step(xs, ys, where="post", label=name)
        axes.set_xscale("log")
        axes.set_ylim(0, 100)
        axes.set_xlabel(label)
        axes.set_ylabel("deals decided (%)")
        axes.set_title(f"Deals decided against {title}")
        if by_variant:
            axes.legend(loc="upper left")
        save(figure, stem)

    # Win rate per variant: the observed range (thick) inside the Wilson interval (whiskers).
    figure, axes = plt.subplots(figsize=(7, 4))
    summaries = [summarize(name, verdicts) for name in names]
    for index, summary in enumerate(summaries):
        if summary.won_share is None:
            continue
        low, high = summary.interval
        proven, possible = summary.won_share
        colour = f"C{index % 10}"
        axes.plot([index, index], [100 * low, 100 * high], color=colour, linewidth=1.5)
        for bound in (low, high):
            axes.plot([index - 0.12, index + 0.12], [100 * bound] * 2, color=colour, linewidth=1.5)
        axes.plot([index, index], [100 * proven, 100 * possible], color=colour, linewidth=8,
                  alpha=0.45, solid_capstyle="butt")  # fmt: skip
        axes.plot([index], [100 * proven], "o", color=colour, markersize=7)
    axes.set_xticks(range(len(summaries)), [s.variant for s in summaries])
    axes.set_xlim(-0.5, max(len(summaries), 1) - 0.5)
    axes.set_ylim(0, 100)
    axes.set_ylabel("win rate (%)")
    axes.set_title("Win rate: proven wins (dot), with unknowns (bar), 95% interval")
    axes.grid(axis="y", alpha=0.3)
    save(figure, "win-rate")

    plays = collect_plays(store, variants)
    if plays:
        save(_skill_chart(plays, names), "skill-vs-luck")
    return written


def charted_runs(plays: Sequence[PlaySummary], variant: str) -> dict[str, PlaySummary]:
    """The run of each player that the chart shows for ``variant``.

    The fair player's run at its shipped settings when there is one, since
    that is the player hints give; otherwise, and for the other players,
    the run with the most games.  The table lists every run.
    """
    from milligan.survey.runner import Player

    shipped = Player.fair().settings()
    mine: dict[str, PlaySummary] = {}
    for play in sorted(
        (p for p in plays if p.variant == variant),
        key=lambda p: (p.player == "fair" and p.settings == shipped, p.games),
    ):
        mine[play.player] = play
    return mine


def _skill_chart(plays: Sequence[PlaySummary], names: Sequence[str]) -> Figure:
    """Win rates side by side: each player, then complete knowledge, with 95% intervals."""
    import matplotlib.pyplot as plt

    players = sorted({p.player for p in plays}, key=lambda name: (name != "greedy", name))
    shown = [name for name in names if any(p.variant == name for p in plays)]
    figure, axes = plt.subplots(figsize=(7, 4))
    width = 0.8 / (len(players) + 1)
    for index, variant in enumerate(shown):
        mine = charted_runs(plays, variant)
        bars: list[tuple[str, int, int]] = [
            (name, mine[name].won, mine[name].games) for name in players if name in mine
        ]
        best = max(mine.values(), key=lambda p: p.known)
        bars.append(("complete knowledge", best.known_won, best.known))
        for slot, (label, won, total) in enumerate(bars):
            if not total:
                continue
            x = index - 0.4 + width * (slot + 0.5)
            low, high = wilson_interval(won, total)
            colour = f"C{slot}"
            axes.bar(x, 100 * won / total, width * 0.9, color=colour,
                     label=label if index == 0 else None)  # fmt: skip
            axes.plot([x, x], [100 * low, 100 * high], color="black", linewidth=1)
    axes.set_xticks(range(len(shown)), shown)
    axes.set_ylim(0, 100)
    axes.set_ylabel("deals won (%)")
    axes.set_title("Skill against luck: win rates with 95% intervals")
    axes.legend(loc="upper center", bbox_to_anchor=(0.5, -0.1), ncol=3, fontsize=8)
    axes.grid(axis="y", alpha=0.3)
    return figure
