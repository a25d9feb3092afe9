"""Random deals proven winnable, dealt without giving their number away.

A "winnable" game gets a fresh random 64-bit deal number that the solver has
proven won: its opening layout says nothing about which deal it is, as a
number from a published list would. Proven deals wait in the database (one
pool per variant, kept filled by a background worker process) and each is
dealt once; when a variant's pool is empty, a few random deals are tried on
demand in the help worker.

:func:`find_winnable` runs in a worker process: this module imports only the
engine and the solver.
"""

from __future__ import annotations

import contextlib
import logging
import secrets
import threading
import time
from typing import TYPE_CHECKING

from milligan.game import Game
from milligan.variants import PRESETS, Variant

if TYPE_CHECKING:
    from milligan.store.database import Database
    from milligan.web.worker import Lane

log = logging.getLogger(__name__)


def find_winnable(
    variant: str, max_positions: int, attempts: int, seconds: float = 10.0
) -> int | None:
    """A random deal number of the variant with this key that the solver proves won, or None.

    Tries up to ``attempts`` random numbers, within ``max_positions`` each,
    for ``seconds`` at most.
    """
    from milligan.solver import solve

    settings = Variant.from_key(variant)
    deadline = time.monotonic() + seconds
    for _ in range(attempts):
        if time.monotonic() > deadline:
            break
        number = secrets.randbits(64)
        solved = solve(Game(settings, deal=number), max_positions=max_positions)
        if str(getattr(solved.result, "value", solved.result)).lower() == "won":
            return number
    return None


class WinnableFiller:
    """Keeps ``size`` proven-won deals ready for each preset, in a background worker.

    It works while a pool is short and sleeps otherwise; :meth:`wake` (after a
    deal is taken) sets it going again.
    """

    def __init__(self, database: Database, lane: Lane, *, size: int, max_positions: int) -> None:
        self.database = database
        self.lane = lane
        self.size = size
        self.max_positions = max_positions
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        """Begin filling, in a thread of this process (the solving is in the worker)."""
        if self.size > 0 and self._thread is None:
            self._thread = threading.Thread(target=self._fill, name="winnable", daemon=True)
            self._thread.start()

    def wake(self) -> None:
        """A deal was taken: look again at the pools."""
        self._wake.set()

    def stop(self) -> None:
        self._stop.set()
        self._wake.set()

    def fill_once(self) -> int:
        """Top up every preset's pool once; how many deals were added."""
        added = 0
        for name in PRESETS:
            while not self._stop.is_set() and self.database.count_winnable(name) < self.size:
                job = self.lane.submit(find_winnable, name, self.max_positions, 1)
                number = job.future.result()
                if number is not None:
                    self.database.add_winnable(name, number)
                    added += 1
        return added

    def _fill(self) -> None:
        while not self._stop.is_set():
            self._wake.clear()
            try:
                self.fill_once()
            except Exception as error:  # a closed worker or a lost database: try later
                if self._stop.is_set():
                    return
                log.warning("filling the winnable pool failed: %r", error)
                with contextlib.suppress(Exception):
                    self._stop.wait(30.0)
                continue
            self._wake.wait(600.0)
