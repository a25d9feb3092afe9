"""The server's settings, in one object: limits, allowed hosts, budgets.

``milligan serve`` builds them from its options; a server process started by
uvicorn's ``--workers`` reads them from ``MILLIGAN_*`` environment variables
(:meth:`ServerSettings.from_env`), which ``milligan serve`` sets for it.

>>> ServerSettings(port=8000).host_allowed("localhost:8000")
True
>>> ServerSettings(port=8000).host_allowed("evil.example:8000")
False
"""

from __future__ import annotations

import dataclasses
import json
import os
from dataclasses import dataclass

#: The names a server on loopback answers to.
LOOPBACK = ("127.0.0.1", "localhost", "[::1]")
#: The environment variable that carries the settings to worker processes.
ENVIRON = "MILLIGAN_SERVER_SETTINGS"


def split_host(host: str) -> tuple[str, int | None]:
    """``"name:port"`` (or ``"[::1]:port"``) as the lower-case name and the port, if any.

    >>> split_host("[::1]:8000")
    ('[::1]', 8000)
    >>> split_host("Example.org")
    ('example.org', None)
    """
    host = host.strip().lower()
    if host.startswith("["):
        name, bracket, rest = host.partition("]")
        name += bracket
        if not bracket:
            return host, -1
    elif host.count(":") > 1:
        return host, -1  # an IPv6 address must be in brackets
    else:
        name, colon, rest = host.partition(":")
        rest = colon + rest
    if not rest:
        return name, None
    if rest[0] != ":" or not rest[1:].isdigit():
        return name, -1
    return name, int(rest[1:])


@dataclass(frozen=True, slots=True)
class ServerSettings:
    """How the server guards itself.

    ``allowed_hosts`` are the names the ``Host`` header may carry besides
    the loopback names; an entry may name a port (``"example.org:443"``).
    With ``port`` set, the loopback names must come with it.
    """

    database: str | None = None
    port: int | None = None
    allowed_hosts: tuple[str, ...] = ()
    #: Seconds to receive a whole request body (else 408).
    body_timeout: float = 10.0
    #: Games a player may create or import in one minute (else 429).
    games_per_minute: int = 60
    #: Hints and solutions waiting for the solver, over all players (else 503).
    solver_queue: int = 16
    #: Proven-won random deals kept ready for each preset.
    winnable_pool: int = 3
    #: Positions the solver may expand to prove a random deal won.
    winnable_positions: int = 500_000
    #: Random deals tried on demand, when the pool is empty, before 503 ...
    winnable_attempts: int = 100
    #: ... and the seconds they may take.
    winnable_seconds: float = 10.0
    #: What the cache of replayed games may hold, in (estimated) bytes.
    cache_bytes: int = 64 * 1024 * 1024
    #: Start filling the winnable pool when the server starts.
    fill_winnable: bool = True
    #: Make a game's next hint ahead, while the player thinks, once they have asked for one.
    hints_ahead: bool = True
    #: Positions a hint's decision may expand (None: the build's own, ``HelpBudget``).
    hint_positions: int | None = None
    #: Searches a hint's decision runs at once (None: the cores the server may use,
    #: within a container's CPU quota, at most four).
    #: Only the wait changes, never the hint.
    hint_threads: int | None = None
    #: Positions a solution (and each solve of an analysis) may expand (None: 1,000,000).
    solution_positions: int | None = None

    def host_allowed(self, host: str) -> bool:
        """Whether a request's ``Host`` header names this server."""
        name, port = split_host(host)
        if port == -1 or not name:
            return False
        for entry in (*LOOPBACK, *self.allowed_hosts):
            allowed, allowed_port = split_host(entry)
            if allowed != name:
                continue
            if allowed_port is not None:
                if port == allowed_port:
                    return True
            elif entry in LOOPBACK and self.port is not None:
                if port == self.port:
                    return True
            else:
                return True
        return False

    def to_env(self) -> str:
        """These settings as text, for :data:`ENVIRON`."""
        return json.dumps(dataclasses.asdict(self))

    @classmethod
    def from_env(cls) -> ServerSettings:
        """The settings :meth:`to_env` put in the environment (defaults without it)."""
        text = os.environ.get(ENVIRON)
        if not text:
            return cls()
        data = json.loads(text)
        data["allowed_hosts"] = tuple(data.get("allowed_hosts", ()))
        return cls(**data)
