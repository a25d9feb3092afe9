"""``milligan serve``: run the game server (FastAPI on uvicorn)."""

from __future__ import annotations

import argparse
import threading
import time
import webbrowser
from typing import Any

from milligan.cli import UsageError


def register(subparsers: Any) -> None:
    """Add ``serve`` to the ``milligan`` command."""
    serve = subparsers.add_parser(
        "serve",
        help="run the game server (browser game and JSON API)",
        description="Run the game server. It listens on loopback unless told otherwise.",
    )
    serve.add_argument(
        "--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)"
    )
    serve.add_argument("--port", type=int, default=8000, help="port to listen on (default 8000)")
    serve.add_argument(
        "--database",
        metavar="PATH-or-URL",
        help="a SQLite file, or a postgresql:// URL (default: a file in your data folder)",
    )
    serve.add_argument("--open", action="store_true", help="open the game in a browser")
    serve.add_argument(
        "--allowed-host",
        action="append",
        default=[],
        metavar="NAME",
        help="another name (or NAME:PORT) the server answers to, besides the loopback names;"
        " repeatable",
    )
    serve.add_argument(
        "--workers",
        type=int,
        default=1,
        metavar="N",
        help="run N server processes on the one database (default 1)",
    )
    serve.set_defaults(handler=cmd_serve)


def _open_browser(url: str) -> None:
    """Open ``url`` in a browser, or say where to go when none can be started."""
    try:
        opened = webbrowser.open(url)
    except webbrowser.Error:
        opened = False
    if not opened:
        print(f"No browser could be started: open {url} in your browser.", flush=True)


def _page_url(host: str, port: int) -> str:
    shown = "127.0.0.1" if host in ("0.0.0.0", "") else host
    if ":" in shown:
        shown = f"[{shown}]" if shown != "::" else "[::1]"
    return f"http://{shown}:{port}/"


def _check_listen(host: str, port: int) -> int:
    """The port ``serve`` can listen on at ``host`` (the real one for port 0).

    Binds and closes a probe socket for every address of ``host``, so a port in
    use or a host that does not resolve is one line of error, not a log.
    """
    import errno
    import socket

    try:
        addresses = socket.getaddrinfo(
            host or None, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )
    except (socket.gaierror, UnicodeError) as error:
        reason = error.strerror if isinstance(error, socket.gaierror) else "not a host name"
        raise UsageError(f"cannot listen on host {host!r}: {reason}") from None
    for family, kind, proto, _, address in addresses:
        with socket.socket(family, kind, proto) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                probe.bind((address[0], port, *address[2:]))
            except OSError as error:
                if error.errno == errno.EADDRINUSE:
                    raise UsageError(f"port {port} on {host} is already in use") from None
                raise UsageError(f"cannot listen on {host} port {port}: {error.strerror}") from None
            port = probe.getsockname()[1]  # port 0 gets a free one: keep it for every address
    return port


def cmd_serve(args: argparse.Namespace) -> int:
    import dataclasses
    import os

    import uvicorn

    from milligan.store import open_database
    from milligan.web.app import create_app
    from milligan.web.settings import ENVIRON, ServerSettings

    if not 0 <= args.port < 65536:
        raise UsageError(f"port {args.port} is out of range")
    args.port = _check_listen(args.host, args.port)
    if not 1 <= args.workers <= 64:
        raise UsageError(f"--workers {args.workers} is out of range (1 to 64)")
    # Settings not on the command line (limits, budgets) can come from the environment.
    settings = dataclasses.replace(
        ServerSettings.from_env(),
        port=args.port,
        allowed_hosts=tuple(args.allowed_host),
    )
    database = open_database(args.database)  # creates or migrates the schema, once
    limits: dict[str, Any] = {
        "timeout_keep_alive": 5,  # seconds an idle connection is kept
        "h11_max_incomplete_event_size": 16 * 1024,  # request line and headers
        "limit_concurrency": 1000,
        "timeout_graceful_shutdown": 5,
        "log_level": "warning",
        "access_log": False,
    }
    if args.workers == 1:
        app: Any = create_app(database, settings=settings)
        config = uvicorn.Config(app, host=args.host, port=args.port, **limits)
    else:
        target = args.database if args.database is not None else str(database.description)
        database.close()
        os.environ[ENVIRON] = dataclasses.replace(settings, database=target).to_env()
        config = uvicorn.Config(
            "milligan.web.app:app_from_env",
            factory=True,
            host=args.host,
            port=args.port,
            workers=args.workers,
            **limits,
        )
    server = uvicorn.Server(config)
    url = _page_url(args.host, args.port)

    def announce() -> None:
        while not server.started and not server.should_exit:
            time.sleep(0.05)
        if server.started:
            print(f"Milligan is served at {url} (games in {database.description})", flush=True)
            _warn_if_plain()
            if args.open:
                _open_browser(url)

    if args.workers > 1:
        print(
            f"Milligan is served at {url} by {args.workers} processes "
            f"(games in {database.description})",
            flush=True,
        )
        _warn_if_plain()
        if args.open:
            threading.Timer(2.0, _open_browser, args=(url,)).start()
        from uvicorn.supervisors import Multiprocess

        sock = config.bind_socket()
        Multiprocess(config, sockets=[sock]).run()
        return 0
    threading.Thread(target=announce, name="announce", daemon=True).start()
    try:
        server.run()
    finally:
        database.close()
    return 0 if server.started else 1


def _warn_if_plain() -> None:
    """Say that hints will be weak when the solver's compiled core is missing."""
    try:
        from milligan.solver import compiled
    except ImportError:  # no solver at all: hints and solutions answer 501
        return
    if not compiled.AVAILABLE:
        print(f"Note: {compiled.MISSING}; hints take a small budget and play much worse.",
              flush=True)  # fmt: skip
