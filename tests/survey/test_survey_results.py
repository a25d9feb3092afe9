"""The results file, the statistics and the report, on fixed rows (no solver needed)."""

from __future__ import annotations

import dataclasses
import json
import sqlite3
from pathlib import Path

import pytest

from milligan.solver import fair
from milligan.survey.report import PlaySummary, charted_runs, collect, markdown, solver_rows
from milligan.survey.results import (
    BUNDLED,
    Limits,
    Play,
    Result,
    ResultStore,
    pending_deals,
    pending_plays,
    winnable_deals,
)
from milligan.survey.runner import Player, SurveyError, parse_deals
from milligan.survey.stats import percentile, wilson_interval
from milligan.variants import Variant

from .conftest import run_survey_command

SMALL = Limits(timeout=1.0, max_positions=1000, max_memory_mb=256)
LARGE = Limits(timeout=10.0, max_positions=None, max_memory_mb=256)


def result(
    deal: int, verdict: str, seconds: float = 0.5, limits: Limits = SMALL, variant: str = "one-deck"
) -> Result:
    return Result(
        variant=variant,
        deal=deal,
        limits=limits,
        verdict=verdict,
        seconds=seconds,
        positions=100 * (deal % 1000),
        solution=("1>F", "D") if verdict == "won" else None,
        solver="test",
        host="here",
        finished_at="2026-11-29T19:00:00+00:00",
    )


# -- Wilson interval -----------------------------------------------------------


@pytest.mark.parametrize(
    ("successes", "trials", "low", "high"),
    [
        # Closed forms: with no success the upper bound is z²/(n+z²), and symmetrically.
        (0, 10, 0.0, 0.277533),
        (10, 10, 0.722467, 1.0),
        (5, 10, 0.236593, 0.763407),
        # Newcombe (1998), Statistics in Medicine 17:857, table I, method 3 (4 decimals).
        (81, 263, 0.2553, 0.3662),
        (15, 148, 0.0624, 0.1605),
        (0, 20, 0.0, 0.1611),
        (1, 29, 0.0061, 0.1718),
        (29, 29, 0.8830, 1.0),
    ],
)
def test_wilson_interval_known_values(successes: int, trials: int, low: float, high: float) -> None:
    got_low, got_high = wilson_interval(successes, trials)
    assert got_low == pytest.approx(low, abs=5e-5)
    assert got_high == pytest.approx(high, abs=5e-5)


def test_wilson_interval_rejects_impossible_counts() -> None:
    with pytest.raises(ValueError):
        wilson_interval(11, 10)


def test_percentile_interpolates() -> None:
    assert percentile([], 50) is None
    assert percentile([4.0], 95) == 4.0
    assert percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11], 50) == 6
    assert percentile(list(range(1, 101)), 95) == pytest.approx(95.05)


# -- storage ------------------------------------------------------------------------


def test_results_round_trip_in_wal_mode(tmp_path: Path) -> None:
    path = tmp_path / "survey.sqlite3"
    with ResultStore(path) as store:
        store.add(result(7, "won"))
        store.add(result(2**64 - 1, "lost"))
    with ResultStore(path) as store:
        attempts = list(store.attempts())
    assert [(a.deal, a.verdict) for a in attempts] == [(7, "won"), (2**64 - 1, "lost")]
    assert attempts[0] == result(7, "won")
    assert attempts[0].solution_length == 2
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert db.execute("SELECT solution_length FROM results WHERE verdict='won'").fetchone() == (2,)


def test_best_attempt_and_what_a_rerun_skips(tmp_path: Path) -> None:
    with ResultStore(tmp_path / "r.sqlite3") as store:
        store.add(result(1, "won"))
        store.add(result(2, "lost"))
        store.add(result(3, "unknown", limits=SMALL))
        store.add(result(4, "unknown", limits=LARGE))
        store.add(result(5, "unknown", limits=SMALL))
        store.add(result(5, "won", limits=LARGE))
        store.add(result(6, "unknown", limits=SMALL, variant="classic"))
        best = store.verdicts("one-deck")
        assert {deal: r.verdict for (_, deal), r in best.items()} == {
            1: "won",
            2: "lost",
            3: "unknown",
            4: "unknown",
            5: "won",
        }
        # Same limits: only never-tried deals are left.
        assert pending_deals(store, "one-deck", range(1, 8), SMALL) == ([6, 7], 5)
        # Larger limits retry the unknown that had smaller ones, never a verdict.
        assert pending_deals(store, "one-deck", range(1, 8), LARGE) == ([3, 6, 7], 4)
        # Any limit larger than the unknown attempt's is worth a retry...
        mixed = Limits(timeout=20.0, max_positions=1000, max_memory_mb=256)
        assert pending_deals(store, "one-deck", [3, 4], mixed) == ([3, 4], 0)
        # ...and none larger is not.
        smaller = Limits(timeout=0.5, max_positions=500, max_memory_mb=128)
        assert pending_deals(store, "one-deck", [3, 4], smaller) == ([], 2)
        assert pending_deals(store, "classic", [6], SMALL) == ([], 1)
        # A stronger solver retries every unknown, never a verdict.
        assert pending_deals(store, "one-deck", range(1, 8), SMALL, retry_unknown=True) == (
            [3, 4, 6, 7],
            3,
        )


def test_a_rerun_skips_a_deal_tried_under_limits_of_two_kinds(tmp_path: Path) -> None:
    # A position pass, then a time pass: two unknowns, neither covering the other.
    positions = Limits(timeout=None, max_positions=2_000_000, max_memory_mb=256)
    seconds = Limits(timeout=10.0, max_positions=None, max_memory_mb=512)
    with ResultStore(tmp_path / "r.sqlite3") as store:
        for deal in (1, 2):
            store.add(result(deal, "unknown", limits=positions))
        store.add(result(1, "unknown", seconds=10.0, limits=seconds))
        assert pending_deals(store, "one-deck", [1, 2], seconds) == ([2], 1)
        assert pending_deals(store, "one-deck", [1, 2], positions) == ([], 2)


def test_a_starved_attempt_is_tried_again(tmp_path: Path) -> None:
    # Out of (wall) time after 0.3 s of CPU: the machine was busy, not the solver.
    seconds = Limits(timeout=10.0, max_positions=None, max_memory_mb=512)
    starved = dataclasses.replace(
        result(1, "unknown", seconds=10.1, limits=seconds), cpu_seconds=0.3
    )
    fed = dataclasses.replace(result(2, "unknown", seconds=10.0, limits=seconds), cpu_seconds=9.7)
    # Stopped early by its memory limit: a real unknown under these limits.
    early = dataclasses.replace(result(3, "unknown", seconds=2.0, limits=seconds), cpu_seconds=0.3)
    assert (starved.starved, fed.starved, early.starved) == (True, False, False)
    with ResultStore(tmp_path / "r.sqlite3") as store:
        for attempt in (starved, fed, early):
            store.add(attempt)
        assert pending_deals(store, "one-deck", [1, 2, 3], seconds) == ([1], 2)


def test_winnable_deals_for_the_web_server(tmp_path: Path) -> None:
    path = tmp_path / "r.sqlite3"
    assert winnable_deals(path, "one-deck") == []
    with ResultStore(path) as store:
        for deal, verdict in [(9, "won"), (3, "won"), (4, "lost"), (5, "unknown")]:
            store.add(result(deal, verdict))
        store.add(result(3, "won"))
        store.add(result(8, "won", variant="classic"))
    assert winnable_deals(path, Variant.named("one-deck")) == [3, 9]
    assert winnable_deals(path, "classic") == [8]
    assert winnable_deals(path, "spanish") == []


def test_deal_ranges() -> None:
    assert parse_deals("1-5") == [1, 2, 3, 4, 5]
    assert parse_deals("3,1-2,3") == [3, 1, 2]
    for bad in ["", "5-1", "x", "1-2**70", f"0-{2**64}", "1-100000000"]:
        with pytest.raises(SurveyError):
            parse_deals(bad)


# -- files written before ----------------------------------------------------------

OLD_SCHEMA = """
CREATE TABLE results (
    id INTEGER PRIMARY KEY, variant TEXT NOT NULL, deal INTEGER NOT NULL, timeout REAL,
    max_positions INTEGER, max_memory_mb INTEGER,
    verdict TEXT NOT NULL CHECK (verdict IN ('won', 'lost', 'unknown')),
    seconds REAL NOT NULL, positions INTEGER NOT NULL, solution_length INTEGER,
    solution TEXT, solver TEXT, host TEXT, finished_at TEXT NOT NULL
);
CREATE INDEX results_variant_deal ON results (variant, deal);
"""


def test_a_results_file_from_before_reads_by_variant_key(tmp_path: Path) -> None:
    """A file without the plays table or cpu_seconds, a custom variant spelled two ways."""
    custom = Variant(columns=6)
    path = tmp_path / "old.sqlite3"
    db = sqlite3.connect(path)
    db.executescript(OLD_SCHEMA)
    rows = [
        ("one-deck", 1, "won"),
        (custom.key, 2, "won"),  # how the survey always wrote it
        ('{"columns": 6, "decks": 2}', 3, "won"),  # another spelling of the same settings
        ('{"columns": 6}', 4, "lost"),
        ('{"reprieve": "none"}', 5, "won"),  # a preset's settings written out
    ]
    db.executemany(
        "INSERT INTO results (variant, deal, timeout, max_positions, max_memory_mb, verdict,"
        " seconds, positions, finished_at) VALUES (?, ?, 1.0, 1000, 256, ?, 0.5, 10, 'then')",
        rows,
    )
    db.commit()
    db.close()
    # Read-only, as the web server reads it: every spelling counts.
    assert winnable_deals(path, custom) == [2, 3]
    assert winnable_deals(path, '{"decks":2,"columns":6}') == [2, 3]
    assert winnable_deals(path, "spanish") == [5]
    with ResultStore(path) as store:
        assert store.variants() == ["spanish", "one-deck", custom.key]
        verdicts = store.verdicts(custom.key)
        assert sorted(deal for _, deal in verdicts) == [2, 3, 4]
        assert all(result.cpu_seconds is None for result in verdicts.values())
        assert store.plays() == []
    with sqlite3.connect(path) as db:
        stored = {row[0] for row in db.execute("SELECT variant FROM results")}
    assert stored == {"one-deck", "spanish", custom.key}
    report = run_survey_command("report", "--results", str(path), "--variant", custom.key)
    assert report.returncode == 0, report.stderr
    assert "3 (2–4)" in report.stdout


def test_the_committed_survey_reads_as_before(tmp_path: Path) -> None:
    """docs/data/survey.sqlite3: the same variants and the same winnable deals as shipped."""
    import json

    committed = Path(__file__).parents[2] / "docs" / "data" / "survey.sqlite3"
    path = tmp_path / "survey.sqlite3"
    # A copy (opening the file writes to it), through SQLite: a survey may be adding to it.
    source, copy = sqlite3.connect(f"file:{committed}?mode=ro", uri=True), sqlite3.connect(path)
    source.backup(copy)
    source.close()
    copy.close()
    with sqlite3.connect(path) as db:
        counts = dict(db.execute("SELECT variant, COUNT(*) FROM results GROUP BY variant"))
    shipped = json.loads(BUNDLED.read_text(encoding="utf-8"))
    assert set(counts) == set(shipped) == {"classic", "spanish", "improved", "one-deck", "strict"}
    for key, deals in shipped.items():
        assert winnable_deals(path, Variant.named(key)) == deals
    with ResultStore(path) as store:
        assert store.variants() == ["classic", "spanish", "improved", "one-deck", "strict"]
        assert sum(1 for _ in store.attempts()) == sum(counts.values())
        assert {key: len(winnable_deals(path, key)) for key in counts} == {
            key: len(deals) for key, deals in shipped.items()
        }


# -- the report ---------------------------------------------------------------------


def fixed_set(path: Path) -> None:
    """One-deck: 10 deals, 6 won, 3 lost, 1 unknown; classic: 4 deals."""
    with ResultStore(path) as store:
        verdicts = ["won", "won", "lost", "won", "unknown", "won", "lost", "won", "lost", "won"]
        for deal, verdict in enumerate(verdicts, start=1):
            store.add(result(deal, verdict, seconds=0.1 * deal))
        store.add(result(5, "unknown", seconds=1.0, limits=LARGE))  # retried, still unknown
        for deal, verdict in enumerate(["won", "lost", "lost", "unknown"], start=101):
            store.add(result(deal, verdict, seconds=2.0, variant="classic", limits=LARGE))


def test_summary_of_a_fixed_set(tmp_path: Path) -> None:
    fixed_set(tmp_path / "r.sqlite3")
    with ResultStore(tmp_path / "r.sqlite3") as store:
        classic, one_deck = collect(store)  # presets in their usual order
    assert (classic.variant, one_deck.variant) == ("classic", "one-deck")
    assert (one_deck.deals, one_deck.won, one_deck.lost, one_deck.unknown) == (10, 6, 3, 1)
    assert one_deck.won_share == pytest.approx((0.6, 0.7))
    low, high = one_deck.interval
    assert low == pytest.approx(wilson_interval(6, 10)[0])
    assert high == pytest.approx(wilson_interval(7, 10)[1])
    # Decided deals only: 0.1 × (1 2 3 4 6 7 8 9 10).
    assert one_deck.median_seconds == pytest.approx(0.6)
    assert one_deck.p95_seconds == pytest.approx(0.96)
    assert one_deck.limits == (SMALL, LARGE)
    assert (classic.deals, classic.won, classic.lost, classic.unknown) == (4, 1, 2, 1)


def test_markdown_report_of_a_fixed_set(tmp_path: Path) -> None:
    path = tmp_path / "r.sqlite3"
    fixed_set(path)
    with ResultStore(path) as store:
        text = markdown(collect(store))
    lines = text.splitlines()
    assert lines[0].startswith("| variant | deals | won | lost | unknown | won % |")
    assert lines[3] == (
        "| one-deck | 10 (1–10) | 6 | 3 | 1 | 60.0% | 31.3% – 89.2% | 0.600 | 0.960 |"
        " 1 s, 1,000 positions, 256 MB; 10 s, 256 MB |"
    )
    assert lines[2].startswith("| classic | 4 (101–104) | 1 | 2 | 1 | 25.0% | 4.6% – ")


def test_report_command_and_plots(tmp_path: Path) -> None:
    path = tmp_path / "r.sqlite3"
    fixed_set(path)
    plots = tmp_path / "plots"
    run = run_survey_command("report", "--results", str(path), "--markdown", "--plots", str(plots))
    assert run.returncode == 0, run.stderr
    assert "| one-deck | 10 (1–10) | 6 | 3 | 1 | 60.0% |" in run.stdout
    for stem in ["solve-times", "decided-vs-limit", "decided-vs-positions", "win-rate"]:
        png = plots / f"{stem}.png"
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        assert b"<svg" in (plots / f"{stem}.svg").read_bytes()[:1000]
    table = run_survey_command("report", "--results", str(path))
    assert table.returncode == 0, table.stderr
    assert "one-deck" in table.stdout and "60.0%" in table.stdout
    # the same data gives the same SVG files, so a report run changes no chart for nothing
    again = tmp_path / "again"
    run = run_survey_command("report", "--results", str(path), "--plots", str(again))
    assert run.returncode == 0, run.stderr
    for stem in ["solve-times", "decided-vs-limit", "decided-vs-positions", "win-rate"]:
        assert (again / f"{stem}.svg").read_bytes() == (plots / f"{stem}.svg").read_bytes()


def test_report_updates_the_table_of_a_document(tmp_path: Path) -> None:
    path = tmp_path / "r.sqlite3"
    fixed_set(path)
    document = tmp_path / "WINNABILITY.md"
    document.write_text(
        "# Title\n\n<!-- survey-table -->\nold table\n<!-- /survey-table -->\nEnd\n"
    )
    run = run_survey_command("report", "--results", str(path), "--update", str(document))
    assert run.returncode == 0, run.stderr
    text = document.read_text()
    assert "old table" not in text and text.startswith(
        "# Title\n\n<!-- survey-table -->\n| variant"
    )
    assert "| one-deck | 10 (1–10) | 6 | 3 | 1 | 60.0% |" in text
    assert text.endswith("|\n<!-- /survey-table -->\nEnd\n")
    document.write_text("no markers")
    refused = run_survey_command("report", "--results", str(path), "--update", str(document))
    assert refused.returncode == 2 and "survey-table" in refused.stderr
    document.write_text("<!-- survey-table -->\nthe end marker is missing\n")
    refused = run_survey_command("report", "--results", str(path), "--update", str(document))
    assert refused.returncode == 2 and "Traceback" not in refused.stderr
    assert refused.stderr.count("\n") == 1 and "/survey-table" in refused.stderr


def test_report_lists_the_solver_behind_every_verdict(tmp_path: Path) -> None:
    """The standing verdict of each deal counts for the solver version that gave it."""
    path = tmp_path / "r.sqlite3"
    fixed_set(path)
    with ResultStore(path) as store:
        newer = dataclasses.replace(result(5, "won", seconds=3.0, limits=LARGE), solver="newer")
        store.add(dataclasses.replace(newer, finished_at="2026-11-30T19:00:00+00:00"))
        assert solver_rows(store) == [
            ("classic", "test", "1", "2", "1"),
            ("one-deck", "test", "6", "3", "0"),
            ("one-deck", "newer", "1", "0", "0"),
        ]
    document = tmp_path / "WINNABILITY.md"
    document.write_text(
        "<!-- survey-table -->\n<!-- /survey-table -->\n"
        "<!-- solver-table -->\nold\n<!-- /solver-table -->\n"
    )
    run = run_survey_command("report", "--results", str(path), "--update", str(document))
    assert run.returncode == 0, run.stderr
    text = document.read_text()
    assert "old" not in text
    assert "| one-deck | newer | 1 | 0 | 0 |\n<!-- /solver-table -->" in text


def test_the_report_raises_its_own_error(tmp_path: Path) -> None:
    """Library code: a MilliganError of its own, which the command line prints on one line."""
    import ast
    import inspect

    import milligan.survey.report as report
    from milligan.errors import MilliganError

    assert issubclass(report.ReportError, MilliganError)
    imported = {
        node.module if isinstance(node, ast.ImportFrom) else alias.name
        for node in ast.walk(ast.parse(inspect.getsource(report)))
        if isinstance(node, ast.Import | ast.ImportFrom)
        for alias in node.names
    }
    assert "milligan.cli" not in imported
    with pytest.raises(report.ReportError, match="cannot read"):
        report.update_document(tmp_path / "missing.md", "table")
    (tmp_path / "plain.md").write_text("no markers")
    with pytest.raises(report.ReportError, match="no <!-- survey-table -->"):
        report.update_document(tmp_path / "plain.md", "table")


def test_winnable_and_report_commands_need_a_results_file(tmp_path: Path) -> None:
    path = tmp_path / "r.sqlite3"
    fixed_set(path)
    run = run_survey_command("winnable", "--variant", "one-deck", "--results", str(path))
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == ["1", "2", "4", "6", "8", "10"]
    missing = run_survey_command("report", "--results", str(tmp_path / "none.sqlite3"))
    assert missing.returncode == 2
    assert "no results file" in missing.stderr


def test_a_file_from_before_cpu_seconds_is_upgraded(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    db = sqlite3.connect(path)
    db.execute(
        "CREATE TABLE results (id INTEGER PRIMARY KEY, variant TEXT NOT NULL, deal INTEGER NOT"
        " NULL, timeout REAL, max_positions INTEGER, max_memory_mb INTEGER, verdict TEXT NOT"
        " NULL, seconds REAL NOT NULL, positions INTEGER NOT NULL, solution_length INTEGER,"
        " solution TEXT, solver TEXT, host TEXT, finished_at TEXT NOT NULL)"
    )
    db.execute(
        "INSERT INTO results (variant, deal, timeout, verdict, seconds, positions, finished_at)"
        " VALUES ('classic', 3, 5.0, 'lost', 2.5, 999, '2026-11-29T19:00:00+00:00')"
    )
    db.commit()
    db.close()
    with ResultStore(path) as store:
        store.add(result(4, "won", seconds=3.0))
        old, new = store.attempts()
    assert (old.deal, old.cpu_seconds, old.solve_time) == (3, None, 2.5)
    assert new == result(4, "won", seconds=3.0)


def test_the_skill_chart_shows_the_shipped_player_else_the_largest_run() -> None:
    """The fair player is charted at its shipped settings when it has a run
    with them, other runs and players by the run with most games."""

    def run(player: str, settings: str, games: int, variant: str = "classic") -> PlaySummary:
        return PlaySummary(variant, player, settings, games, games // 2, games, games, 1.0)

    shipped = Player.fair().settings()
    default, stronger = run("fair", shipped, 1000), run("fair", "16 samples", 400)
    greedy, other = run("greedy", "{}", 200), run("fair", shipped, 5000, "spanish")
    for plays in ([default, stronger, greedy, other], [stronger, other, greedy, default]):
        assert charted_runs(plays, "classic") == {"fair": default, "greedy": greedy}
    # the shipped settings win over a larger run with other settings
    assert shipped == json.dumps(
        {"max_positions": fair.DEFAULT_POSITIONS, "samples": fair.DEFAULT_SAMPLES, "seed": 0},
        separators=(",", ":"),
    )
    larger = run("fair", "16 samples", 9000)
    assert charted_runs([larger, default], "classic") == {"fair": default}
    assert charted_runs([larger, stronger], "classic") == {"fair": larger}


def test_plays_can_be_asked_for_one_players_settings(tmp_path: Path) -> None:
    def play(deal: int, settings: str, variant: str = "classic") -> Play:
        return Play(variant, deal, "fair", settings, "won", (), 104, 12, 1000, 1.0)

    small, large = '{"samples":2}', '{"samples":16}'
    with ResultStore(tmp_path / "r.sqlite3") as store:
        for one in (play(1, small), play(2, large), play(1, large), play(1, large, "spanish")):
            store.add_play(one)
        assert [(p.deal, p.settings) for p in store.plays("classic", "fair", large)] == [
            (2, large),
            (1, large),
        ]
        assert [p.deal for p in store.plays("classic", "fair", small)] == [1]
        assert len(store.plays("classic", "fair")) == 3
        assert store.plays("classic", "greedy", large) == []
        assert pending_plays(store, "classic", [1, 2, 3], "fair", small) == ([2, 3], 1)
