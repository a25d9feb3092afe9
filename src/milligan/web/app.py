"""The FastAPI application: players, body limits, errors as JSON, the single-page front end.

- Each browser is an anonymous player: a random 128-bit token in an
  HttpOnly, SameSite=Lax cookie; only its SHA-256 hash is stored.
- The outer guard (:mod:`milligan.web.guard`) checks the ``Host`` header and the
  ``Origin`` of writes, limits bodies to 16 KiB and 10 seconds, and adds the
  security headers to every answer.
- Every error is ``{"error": CODE, "message": TEXT}``; the engine's errors
  are mapped to HTTP statuses here, in one place.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import re
import secrets
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.requests import cookie_parser
from starlette.routing import Match, Mount
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from milligan.errors import IllegalMoveError, MilliganError
from milligan.store.database import Database
from milligan.store.games import GameNotFoundError, Games, StaleGameError
from milligan.web.analysis import router as analysis_router
from milligan.web.daily import router as daily_router
from milligan.web.deps import ApiError, GameQuota, HelpBudget, SolverPool
from milligan.web.guard import BODY_LIMIT, BodyLimitMiddleware, GuardMiddleware
from milligan.web.routes import router
from milligan.web.settings import ServerSettings
from milligan.web.tutorial import router as tutorial_router
from milligan.web.winnable import WinnableFiller

#: The API's routers: the game, the daily deal, post-game analysis, the tutorial.
ROUTERS = (router, daily_router, analysis_router, tutorial_router)

STATIC = Path(__file__).parent / "static"
COOKIE = "milligan_player"
COOKIE_MAX_AGE = 10 * 365 * 24 * 3600
_TOKEN = re.compile(r"[0-9a-f]{32}")

#: The front end's pages: each answers with the single page, which routes itself.
PAGES = (
    "/",
    "/play",
    "/play/{variant}",
    "/play/{variant}/{deal}",
    "/game/{game_id}",
    "/rules",
    "/stats",
    "/about",
    "/daily",
    "/tutorial",
)

PLACEHOLDER = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Milligan</title></head>
<body><h1>Milligan</h1><p>The game server is running; the browser game is not installed.
The API schema is at <a href="/openapi.json">/openapi.json</a>.</p></body></html>
"""


def error_reply(
    status: int, code: str, message: str, headers: dict[str, str] | None = None, **extra: Any
) -> JSONResponse:
    """The one shape of every error answer."""
    return JSONResponse(
        {"error": code, "message": message, **extra}, status_code=status, headers=headers
    )


def player_hash(token: str) -> str:
    """What is stored of a player's token."""
    return hashlib.sha256(token.encode()).hexdigest()


class PlayerMiddleware:
    """Put the player's hash in ``request.state.player``; give new browsers a token."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        token = None
        for name, value in scope["headers"]:
            if name == b"cookie":
                token = cookie_parser(value.decode("latin-1")).get(COOKIE)
                break
        new = token is None or not _TOKEN.fullmatch(token)
        if new:
            token = secrets.token_hex(16)
        assert token is not None
        scope.setdefault("state", {})["player"] = player_hash(token)
        if not new:
            await self.app(scope, receive, send)
            return
        cookie = (
            f"{COOKIE}={token}; Max-Age={COOKIE_MAX_AGE}; Path=/; HttpOnly; SameSite=Lax"
        ).encode()

        async def send_with_cookie(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), (b"set-cookie", cookie)]
            await send(message)

        await self.app(scope, receive, send_with_cookie)


def _validation_message(error: RequestValidationError) -> str:
    parts = []
    for item in error.errors()[:5]:
        if item.get("type") == "json_invalid":
            parts.append("the body is not valid JSON")
            continue
        where = ".".join(str(part) for part in item.get("loc", ()) if part != "body")
        parts.append(f"{where}: {item.get('msg', 'invalid')}" if where else item.get("msg", ""))
    return "; ".join(parts) or "invalid request"


def _methods_at(request: Request) -> list[str]:
    """The methods this request's path takes.

    Starlette's own 405 names the methods of one route, and ``GET
    /api/games`` and ``POST /api/games`` are two.  So the API's paths are
    looked up in the schema, where a path written out (``/api/games/import``)
    comes before one with a parameter (``/api/games/{game_id}``); the pages
    take GET, and static files GET and HEAD.
    """
    path = request.scope["path"]
    found: dict[int, list[str]] = {}
    for template, item in request.app.openapi()["paths"].items():
        if re.fullmatch(re.sub(r"\{[^/]+\}", "[^/]+", template), path):
            found.setdefault(template.count("{"), []).extend(m.upper() for m in item)
    if found:
        return sorted(found[min(found)])
    scope = {**request.scope, "root_path": request.scope.get("app_root_path", ""), "method": "GET"}
    for route in request.app.routes:
        if route.matches(scope)[0] is Match.FULL:
            return ["GET", "HEAD"] if isinstance(route, Mount) else ["GET"]
    return []


def _install_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(ApiError)
    async def api_error(request: Request, error: ApiError) -> Response:
        return error_reply(error.status, error.code, error.message, **error.extra)

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, error: RequestValidationError) -> Response:
        return error_reply(422, "invalid", _validation_message(error))

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, error: StarletteHTTPException) -> Response:
        if error.status_code == 405:
            allow = ", ".join(_methods_at(request))
            return error_reply(
                405,
                "not_allowed",
                f"{request.url.path} does not take {request.method}; it takes {allow}",
                headers={"Allow": allow},
            )
        if error.status_code == 404:
            return error_reply(404, "not_found", f"there is nothing at {request.url.path}")
        if error.status_code == 413:
            return error_reply(413, "too_large", str(error.detail))
        if error.status_code == 400:
            # FastAPI's "error parsing the body": bad UTF-8, a number of over 4,300
            # digits, JSON nested too deep. As with any other malformed body: 422.
            return error_reply(422, "invalid", "the body is not valid JSON")
        code = "invalid" if 400 <= error.status_code < 500 else "internal"
        return error_reply(error.status_code, code, str(error.detail))

    @app.exception_handler(GameNotFoundError)
    async def not_found(request: Request, error: GameNotFoundError) -> Response:
        return error_reply(404, "not_found", "there is no such game")

    @app.exception_handler(StaleGameError)
    async def stale(request: Request, error: StaleGameError) -> Response:
        return error_reply(409, "stale", str(error), revision=error.revision)

    @app.exception_handler(IllegalMoveError)
    async def illegal(request: Request, error: IllegalMoveError) -> Response:
        extra: dict[str, Any] = {}
        if error.cards:
            extra["cards"] = [list(place) for place in error.cards]
        if error.code is not None:
            # The reason as data, for the browser to word in the player's language.
            extra["reason"] = {"code": error.code, "params": error.params}
        return error_reply(409, "illegal", str(error), **extra)

    @app.exception_handler(MilliganError)
    async def invalid_input(request: Request, error: MilliganError) -> Response:
        # InvalidMoveError, InvalidVariantError, InvalidDealError, InvalidRecordError, ...
        return error_reply(422, "invalid", str(error))

    @app.exception_handler(Exception)
    async def failure(request: Request, error: Exception) -> Response:
        # A bug or a lost database: still JSON, and nothing was acknowledged.
        return error_reply(500, "internal", f"the server failed: {type(error).__name__}")

    @app.exception_handler(json.JSONDecodeError)
    async def bad_json(request: Request, error: json.JSONDecodeError) -> Response:
        return error_reply(422, "invalid", f"the body is not JSON: {error}")


def _index() -> Response:
    index = STATIC / "index.html"
    if index.is_file():
        return FileResponse(index, media_type="text/html", headers={"cache-control": "no-cache"})
    return HTMLResponse(PLACEHOLDER)


def create_app(
    database: Database,
    *,
    games: Games | None = None,
    budget: HelpBudget | None = None,
    settings: ServerSettings | None = None,
    owns_database: bool = False,
) -> FastAPI:
    """The whole web application over ``database`` (closed at the end if it ``owns_database``).

    The generated OpenAPI schema is at ``/openapi.json``; the Swagger page
    is not served, since it would load its code from another site.
    """
    settings = settings if settings is not None else ServerSettings()
    pool = SolverPool(settings.solver_queue)
    filler = WinnableFiller(
        database,
        pool.background,
        size=settings.winnable_pool,
        max_positions=settings.winnable_positions,
    )

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        if settings.fill_winnable:
            filler.start()
        yield
        filler.stop()
        pool.close()
        if owns_database:
            database.close()

    app = FastAPI(
        lifespan=lifespan,
        title="Milligan",
        summary="Miss Milligan patience: the game server's JSON API",
        version=_version(),
        description=(
            "Positions follow RULES.md §8: face-down cards are `??` and the stock is a count. "
            'Errors are `{"error": CODE, "message": TEXT}`.'
        ),
        docs_url=None,
        redoc_url=None,
    )
    app.state.database = database
    app.state.settings = settings
    app.state.games = (
        games if games is not None else Games(database, cache_bytes=settings.cache_bytes)
    )
    if budget is None:
        budget = HelpBudget.for_this_build()
        if settings.hint_positions is not None:
            budget = dataclasses.replace(budget, hint_positions=settings.hint_positions)
        if settings.hint_threads is not None:
            budget = dataclasses.replace(budget, hint_threads=settings.hint_threads)
        if settings.solution_positions is not None:
            budget = dataclasses.replace(budget, solution_positions=settings.solution_positions)
    app.state.budget = budget
    app.state.solver_pool = pool
    app.state.quota = GameQuota(settings.games_per_minute)
    app.state.winnable = filler
    for api_router in ROUTERS:
        app.include_router(api_router)
    for page in PAGES:
        app.add_api_route(page, _index, methods=["GET"], include_in_schema=False)
    app.mount("/static", StaticFiles(directory=STATIC, check_dir=False), name="static")
    _install_error_handlers(app)
    _document_the_guard(app)
    app.add_middleware(PlayerMiddleware)
    app.add_middleware(BodyLimitMiddleware, limit=BODY_LIMIT, timeout=settings.body_timeout)
    app.add_middleware(GuardMiddleware, settings=settings)
    return app


#: Answers that come before any route (guard.py, ``json_writes``), for the schema.
GUARDED = {421: "the Host header is not one of the server's names (`unknown_host`)"}
GUARDED_WRITES = {
    **GUARDED,
    403: "the Origin header is another site's (`cross_origin`)",
    408: "the body did not arrive whole in time (`timeout`)",
    413: f"the body is over {BODY_LIMIT // 1024} KiB (`too_large`)",
    415: "the write was not sent as Content-Type: application/json (`not_json`)",
}


def _document_the_guard(app: FastAPI) -> None:
    """Put the answers of the guard and the body limit in every operation of the schema.

    They come before any route is reached, so FastAPI cannot see them; a
    client reading ``/openapi.json`` should.
    """
    generate = app.openapi
    error = {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorPublic"}}}

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is not None:
            return app.openapi_schema
        schema = generate()
        for item in schema["paths"].values():
            for method, operation in item.items():
                answers = operation.setdefault("responses", {})
                guarded = GUARDED_WRITES if method == "post" else GUARDED
                for status, description in sorted(guarded.items()):
                    answers.setdefault(str(status), {"description": description, "content": error})
        return schema

    app.openapi = openapi  # type: ignore[method-assign]


def app_from_env() -> FastAPI:
    """The application for one of several server processes (``milligan serve --workers``).

    Its settings, the database included, come from the environment
    (:meth:`ServerSettings.from_env`); the database is closed when the
    process stops.
    """
    from milligan.store import open_database

    settings = ServerSettings.from_env()
    database = open_database(settings.database)
    return create_app(database, settings=settings, owns_database=True)


def _version() -> str:
    from milligan import __version__

    return __version__
