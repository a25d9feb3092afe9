"""The daily deal: one proven-winnable deal per variant and UTC date (docs/RULES.md §10).

The candidates of a date come from a pure function of the date, the variant
and a counter ``k``; the daily deal is the first candidate the compiled
solver proves won within :data:`BUDGET` expanded positions. Because the
compiled core and the pure-Python fallback explore differently, the runtime
never searches for dates that are shipped: it reads the chosen numbers from
``daily.json``, written by ``python -m milligan.daily build``. Dates outside
the shipped range are computed with whichever solver is installed (the
answer may then differ between builds), or refused with
:class:`DailyUnavailableError` when computing is not allowed.

This module sits above the engine (it reads its data file and may call the
solver); the engine itself does no I/O.

>>> candidate(datetime.date(2026, 12, 1), "classic", 0)
9804123658557372228
>>> daily_deal(datetime.date(2026, 12, 1), "classic")
5111223780262084134
"""

from __future__ import annotations

import argparse
import datetime
import functools
import hashlib
import json
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from milligan.deal import SplitMix64
from milligan.errors import InvalidVariantError, MilliganError
from milligan.game import Game
from milligan.variants import PRESETS

#: Expanded positions allowed to prove one candidate won (a fixed limit, never a time).
BUDGET = 100_000
#: Candidates tried per date before giving up (one-deck needs about 80 on average).
MAX_CANDIDATES = 2_000
#: Where the shipped daily deals live.
DATA = Path(__file__).with_name("daily.json")
#: The format tag of the data file.
FORMAT = "milligan-daily/1"


class DailyUnavailableError(MilliganError, ValueError):
    """The daily deal of a date is not shipped and may not be computed here."""


def candidate(date: datetime.date, variant_id: str, k: int) -> int:
    """The ``k``-th candidate deal number of ``date`` for the preset ``variant_id``.

    SplitMix64 (§3.2) seeded with the first 8 bytes, big-endian, of the
    SHA-256 of the ASCII text ``YYYY-MM-DD/variant/k``; its first output.
    """
    text = f"{date.isoformat()}/{variant_id}/{k}".encode("ascii")
    seed = int.from_bytes(hashlib.sha256(text).digest()[:8], "big")
    return SplitMix64(seed).next()


def check_variant(variant_id: str) -> str:
    """The preset id itself, or InvalidVariantError: daily deals exist for presets only."""
    if variant_id not in PRESETS:
        names = ", ".join(PRESETS)
        raise InvalidVariantError(f"no daily deal for variant {variant_id!r} (one of {names})")
    return variant_id


def parse_date(text: str) -> datetime.date:
    """A ``YYYY-MM-DD`` date, or a one-line ValueError (a MilliganError)."""
    try:
        if len(text) != 10:
            raise ValueError
        return datetime.date.fromisoformat(text)
    except ValueError:
        raise DailyDateError(f"a daily date is written YYYY-MM-DD, not {text!r}") from None


class DailyDateError(MilliganError, ValueError):
    """A date that cannot be read, or that lies in the future."""


def today() -> datetime.date:
    """Today's UTC date: the daily deal changes at midnight UTC."""
    return datetime.datetime.now(datetime.UTC).date()


def prove(date: datetime.date, variant_id: str, budget: int = BUDGET) -> tuple[int, int]:
    """Search the daily deal with the installed solver: (k, deal number).

    Raises DailyUnavailableError when no candidate out of MAX_CANDIDATES is
    proven won (never seen in practice).
    """
    from milligan.solver.search import run

    for k in range(MAX_CANDIDATES):
        number = candidate(date, variant_id, k)
        result = run(Game.new(variant_id, number).position, max_positions=budget, shorten_win=False)
        if result.result == "won":
            return k, number
    raise DailyUnavailableError(f"no proven deal for {variant_id} on {date.isoformat()}")


@functools.cache
def shipped() -> dict[str, dict[str, int]]:
    """The shipped daily deals: variant id → ISO date → deal number."""
    data: dict[str, Any] = json.loads(DATA.read_text(encoding="utf-8"))
    if data.get("format") != FORMAT:
        raise DailyUnavailableError(f"{DATA.name} is not a {FORMAT} file")
    deals: dict[str, dict[str, int]] = data["deals"]
    return deals


def shipped_range(variant_id: str) -> tuple[datetime.date, datetime.date] | None:
    """The first and last shipped dates of a variant, or None when none is shipped."""
    dates = shipped().get(variant_id, {})
    if not dates:
        return None
    return datetime.date.fromisoformat(min(dates)), datetime.date.fromisoformat(max(dates))


def daily_deal(date: datetime.date, variant_id: str, *, compute: bool = False) -> int:
    """The daily deal number of ``date`` for ``variant_id``.

    Shipped dates come from ``daily.json``. Other dates are searched with the
    installed solver when ``compute`` is true, else DailyUnavailableError.
    """
    check_variant(variant_id)
    number = shipped().get(variant_id, {}).get(date.isoformat())
    if number is not None:
        return number
    if compute:
        return prove(date, variant_id)[1]
    span = shipped_range(variant_id)
    where = (
        f"shipped for {span[0].isoformat()} to {span[1].isoformat()}" if span else "none shipped"
    )
    raise DailyUnavailableError(
        f"the {variant_id} daily deal of {date.isoformat()} is not shipped ({where})"
    )


def streaks(won_days: Iterable[datetime.date], on: datetime.date) -> tuple[int, int]:
    """The (current, best) daily streak from the dates of won daily games.

    A streak is a run of consecutive dates; the current one ends on ``on`` or
    the day before (today's deal may still be ahead), else it is 0.
    """
    days = sorted(set(won_days))
    best = run = 0
    previous: datetime.date | None = None
    for day in days:
        run = run + 1 if previous is not None and (day - previous).days == 1 else 1
        best = max(best, run)
        previous = day
    current = run if previous is not None and (on - previous).days <= 1 else 0
    return current, best


def daily_link(date: datetime.date, variant_id: str) -> str:
    """The path of a daily deal in the browser game."""
    return f"/daily?variant={variant_id}&date={date.isoformat()}"


def share_text(
    date: datetime.date,
    variant_id: str,
    *,
    won: bool,
    moves: int,
    seconds: float,
    hints: int,
    base_url: str = "",
) -> str:
    """The spoiler-free result of a daily game, to paste anywhere.

    It says the date, the variant, won or lost, the number of moves, the time
    and the hints taken, and links back to the same daily deal; never a move.
    """
    minutes, secs = divmod(int(seconds), 60)
    outcome = "won" if won else "lost"
    hint_word = "hint" if hints == 1 else "hints"
    return (
        f"Milligan daily {date.isoformat()} ({variant_id}): {outcome}"
        f" in {moves} moves, {minutes}:{secs:02d}, {hints} {hint_word}\n"
        f"{base_url}{daily_link(date, variant_id)}"
    )


# -- building the data file ---------------------------------------------------


def build(
    start: datetime.date, end: datetime.date, variants: list[str], out: Path, *, merge: bool = True
) -> dict[str, Any]:
    """Prove the daily deals from ``start`` to ``end`` and write them to ``out``."""
    from milligan.solver import compiled

    if not compiled.AVAILABLE:
        raise DailyUnavailableError("building daily.json needs the compiled solver core")
    data: dict[str, Any] = {"format": FORMAT, "budget": BUDGET, "deals": {}}
    if merge and out.exists():
        data = json.loads(out.read_text(encoding="utf-8"))
    for variant_id in variants:
        check_variant(variant_id)
        deals = data["deals"].setdefault(variant_id, {})
        day = start
        while day <= end:
            if day.isoformat() not in deals:
                k, number = prove(day, variant_id)
                deals[day.isoformat()] = number
                print(f"{variant_id} {day.isoformat()} k={k} {number}", flush=True)
                data["deals"][variant_id] = dict(sorted(deals.items()))
                write(out, data)
            day += datetime.timedelta(days=1)
    return data


def write(out: Path, data: dict[str, Any]) -> None:
    """Write the data file: one variant per block, one date per line."""
    lines = [f'{{"format": {json.dumps(data["format"])}, "budget": {data["budget"]}, "deals": {{']
    blocks = []
    for variant_id in PRESETS:
        deals = data["deals"].get(variant_id)
        if deals:
            rows = ",\n".join(f'  "{day}": {number}' for day, number in sorted(deals.items()))
            blocks.append(f' "{variant_id}": {{\n{rows}\n }}')
    lines.append(",\n".join(blocks))
    lines.append("}}")
    tmp = out.with_suffix(".tmp")
    tmp.write_text("\n".join(lines) + "\n", encoding="utf-8")
    tmp.replace(out)


def main(argv: list[str] | None = None) -> int:
    """``python -m milligan.daily build --from D --to D [--variant V ...]``."""
    parser = argparse.ArgumentParser(prog="python -m milligan.daily")
    sub = parser.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build", help="prove daily deals and write them to daily.json")
    b.add_argument("--from", dest="start", required=True)
    b.add_argument("--to", dest="end", required=True)
    b.add_argument("--variant", action="append", choices=list(PRESETS))
    b.add_argument("--out", type=Path, default=DATA)
    args = parser.parse_args(argv)
    try:
        build(parse_date(args.start), parse_date(args.end), args.variant or list(PRESETS), args.out)
    except MilliganError as error:
        print(f"milligan.daily: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
