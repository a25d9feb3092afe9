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
    serve.set_defaults(handler=cmd_serve)


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
    import uvicorn

    from milligan.store import open_database
    from milligan.web.app import create_app

    if not 0 <= args.port < 65536:
        raise UsageError(f"port {args.port} is out of range")
    args.port = _check_listen(args.host, args.port)
    database = open_database(args.database)
    app = create_app(database)
    config = uvicorn.Config(
        app,
        host=args.host,
        port=args.port,
        log_level="warning",
        access_log=False,
        timeout_graceful_shutdown=5,
    )
    server = uvicorn.Server(config)
    url = _page_url(args.host, args.port)

    def announce() -> None:
        while not server.started and not server.should_exit:
            time.sleep(0.05)
        if server.started:
            print(f"Milligan is served at {url} (games in {database.description})", flush=True)
            if args.open:
                webbrowser.open(url)

    threading.Thread(target=announce, name="announce", daemon=True).start()
    try:
        server.run()
    finally:
        database.close()
    return 0 if server.started else 1
