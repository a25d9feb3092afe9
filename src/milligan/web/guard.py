"""The server's outer guard: who may ask, how long a body may take, what every answer says.

- The ``Host`` header must name this server (loopback by default, more with
  ``--allowed-host``): a page on another name that resolves here (DNS
  rebinding) gets 421.
- A write (POST, PUT, PATCH, DELETE) whose ``Origin`` is another site's is
  refused with 403; the JSON content type that the API requires on writes
  (415 otherwise, see :func:`milligan.web.routes.json_writes`) keeps plain
  HTML forms out too.
- A body must arrive whole within the body timeout (408), and is limited to
  16 KiB (413), whether or not it declares its length.
- Every answer carries a Content-Security-Policy (own origin only, no inline
  script or style, no framing), ``nosniff``, and a same-origin referrer policy.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any
from urllib.parse import urlsplit

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from milligan.web.settings import ServerSettings

BODY_LIMIT = 16 * 1024
WRITES = frozenset({"POST", "PUT", "PATCH", "DELETE"})

CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self'",
        "font-src 'self'",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)

#: Sent with every answer.
SECURITY_HEADERS = [
    (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),
    (b"x-frame-options", b"DENY"),
    (b"cross-origin-opener-policy", b"same-origin"),
]


async def send_error(
    send: Send, status: int, code: str, message: str, *, close: bool = False
) -> None:
    """An error answer in the API's one shape, straight onto the ASGI channel."""
    body = json.dumps({"error": code, "message": message}).encode()
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
    ]
    if close:
        headers.append((b"connection", b"close"))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


def _header(scope: Scope, wanted: bytes) -> str | None:
    for name, value in scope["headers"]:
        if name == wanted:
            text: str = value.decode("latin-1")
            return text
    return None


class GuardMiddleware:
    """Allowed hosts, same-origin writes, and the security headers on every answer."""

    def __init__(self, app: ASGIApp, settings: ServerSettings) -> None:
        self.app = app
        self.settings = settings

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *SECURITY_HEADERS]
            await send(message)

        host = _header(scope, b"host") or ""
        if not self.settings.host_allowed(host):
            await send_error(
                send_with_headers,
                421,
                "unknown_host",
                f"this server does not answer to the host {host!r}; "
                "start it with --allowed-host NAME to add a name",
            )
            return
        origin = _header(scope, b"origin")
        if scope["method"] in WRITES and origin is not None and not _same_origin(origin, host):
            await send_error(
                send_with_headers,
                403,
                "cross_origin",
                f"writes from another site ({origin}) are refused",
            )
            return
        await self.app(scope, receive, send_with_headers)


def _same_origin(origin: str, host: str) -> bool:
    parts = urlsplit(origin.strip().lower())
    return (
        parts.scheme in ("http", "https")
        and bool(parts.netloc)
        and (parts.netloc == host.strip().lower())
    )


class BodyLimitMiddleware:
    """Refuse bodies over ``limit`` bytes (413) or slower than ``timeout`` seconds (408).

    The body is read whole before the application runs, so a refused
    request never reaches a handler, and a client that sends its headers
    and then trickles (or withholds) its body does not hold a handler.
    """

    def __init__(self, app: ASGIApp, limit: int = BODY_LIMIT, timeout: float = 10.0) -> None:
        self.app = app
        self.limit = limit
        self.timeout = timeout

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = _header(scope, b"content-length")
        if declared is not None and declared.strip().isdigit() and int(declared) > self.limit:
            await self._too_large(send)
            return
        try:
            async with asyncio.timeout(self.timeout):
                body = await self._read(receive)
        except TimeoutError:
            await send_error(
                send,
                408,
                "timeout",
                f"the request body did not arrive within {self.timeout:g} seconds",
                close=True,
            )
            return
        if body is None:
            await self._too_large(send)
            return
        delivered = False

        async def replay() -> Message:
            nonlocal delivered
            if not delivered:
                delivered = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    async def _read(self, receive: Receive) -> bytes | None:
        """The whole body, or None when it is over the limit."""
        chunks: list[bytes] = []
        size = 0
        while True:
            message: dict[str, Any] = dict(await receive())
            if message["type"] != "http.request":
                break  # the client went away; the app will see it
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.limit:
                return None
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        return b"".join(chunks)

    async def _too_large(self, send: Send) -> None:
        await send_error(
            send, 413, "too_large", f"request bodies are limited to {self.limit} bytes", close=True
        )
