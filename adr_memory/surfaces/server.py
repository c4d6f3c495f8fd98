"""`adr hub serve`: the organisation's hub over HTTP (Starlette, run by uvicorn). A JSON API in
the shapes of the CLI's `--json`, behind tokens unless served `--public`: `Authorization: Bearer`
(or the page's cookie), 401 without a live token, 403 with one that lacks the scope. Stateless
over PostgreSQL (any number of workers or machines); the folder store with one worker. No stack
trace, SQL or URL with a password reaches a response: every error is `{"error", "hint"}`."""

from __future__ import annotations

import contextlib
import logging
import os
from collections.abc import AsyncIterator, Callable
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from adr_memory.errors import AdrError, ReadOnlyHub, UsageError
from adr_memory.surfaces.pages import (  # what failed on the server's side: the operator's log
    COOKIE,  # HttpOnly, SameSite=Strict: the pages' way to carry a token
    LOG,
    lost,
    refused,
    security_headers,
)

PUBLIC = "ADR_HUB_PUBLIC"  # set by `adr hub serve --public` for its workers

MAX_LIMIT = 50
READ_ONLY_HINT = "its operator grants the server's database user INSERT and DELETE (docs/hub.md)"


def build(url: str, *, public: bool = False, searching: int = 0) -> Starlette:
    """The application over the hub `url` names (its store opened once per process); its searches
    answered by `searching` processes of their own (ADR-0112), or in this one when 0."""
    import functools

    from adr_memory.commands import hub as commands
    from adr_memory.hub import tokens
    from adr_memory.surfaces import pages, searchers

    store = commands.open_hub(url)
    pool = searchers.Searchers(url, searching) if searching else None
    find: Callable[..., dict[str, Any]] = pool or functools.partial(commands.search, store)

    def caller(request: Request) -> dict[str, Any] | None:
        header = request.headers.get("authorization", "")
        token = header[7:].strip() if header[:7].lower() == "bearer " else request.cookies.get(COOKIE, "")
        return store.token(tokens.digest(token)) if token else None

    def reads(answer: Callable[[Request], Any], *, slot: bool = False) -> Callable[[Request], Any]:
        """An endpoint that reads behind a token. A search (`slot`) waits for a search slot
        before anything else, its token's lookup too: searches queued beyond the slots then
        hold none of the store's connections, and none of the threads, a page needs."""

        def endpoint(request: Request) -> JSONResponse:
            def gated() -> Any:  # the token is read from the store too: a store lost is a 503 here
                if not public:
                    who = caller(request)
                    if who is None:
                        raise _unauthorized(request)
                    if not tokens.allows(who["scopes"], tokens.READ):
                        raise _Forbidden("this token may not read the hub", hint="a read (or publish) token reads it")
                return answer(request)

            return _answered(gated)

        return pages.slotted(endpoint) if slot else endpoint

    def search(request: Request) -> Any:
        query = request.query_params.get("q", "").strip()
        if not query:
            raise UsageError("the question is missing", hint="GET /api/search?q=which+database+do+we+use")
        limit = _int(request.query_params.get("limit", "5"), "limit")
        if not 1 <= limit <= MAX_LIMIT:
            raise UsageError(f"limit must be 1 to {MAX_LIMIT}, not {limit}", hint="e.g. limit=5")
        return find(  # in a search slot: reads(..., slot=True)
            query,
            limit=limit,
            repository=request.query_params.get("repository") or None,
            status=request.query_params.get("status", ""),  # refused there when no record can have it
            tag=request.query_params.get("tag", ""),
        )

    def decisions(request: Request) -> Any:
        repository, status = request.query_params.get("repository") or None, request.query_params.get("status", "")
        return commands.listing(store, repository, status)  # `adr hub list --json`: a list; unknown names refused there

    def decision(request: Request) -> Any:
        return commands.shown(store, request.path_params["repository"], request.path_params["id"])

    def diff(request: Request) -> Any:
        repository, ident = request.path_params["repository"], request.path_params["id"]
        asked = request.query_params
        return commands.version_diff(store, repository, ident, asked.get("from", ""), asked.get("to", ""))

    async def publish(request: Request) -> JSONResponse:
        """A repository's state from its CI, under a token that publishes that repository."""
        from starlette.concurrency import run_in_threadpool

        try:
            who = await run_in_threadpool(caller, request)
        except AdrError as exc:
            return _error(503, *lost(exc))
        if who is None:
            refused = _unauthorized(request, "publish to")
            return _error(401, refused.message, refused.hint)
        body = await _body(request)
        if body is None:
            return _error(
                413, f"the publish is over {MAX_BODY // 1_000_000} MB", "a folder this large: ask for a bigger cap"
            )
        return await run_in_threadpool(_published, store, who, body)

    agents = _Agents(store, caller, public, find, pool)
    routes = [
        Route("/mcp", agents, methods=["GET", "POST", "DELETE"]),
        Route("/api/publish", publish, methods=["POST"]),
        Route("/healthz", lambda _r: _answered(lambda: {"ok": True, "repositories": store.count()})),
        Route("/api/search", reads(search, slot=True)),
        Route("/api/repositories", reads(lambda _r: {"repositories": store.repositories()})),
        Route("/api/decisions", reads(decisions)),
        Route("/api/decisions/{repository:path}/{id}/diff", reads(diff)),
        Route("/api/decisions/{repository:path}/{id}", reads(decision)),
        Route("/api/stale", reads(lambda _r: commands.stale(store))),
        Route("/api/conflicts", reads(lambda _r: commands.conflicts(store))),
        Route("/api/exceptions", reads(lambda _r: commands.excepted(store))),
        Route("/api/timeline", reads(lambda r: commands.timeline(store, None, r.query_params.get("since", "")))),
    ]

    def allowed(request: Request) -> str | None:
        if request.headers.get("authorization") or request.cookies.get(COOKIE):
            who = caller(request)
            if who is not None and tokens.allows(who["scopes"], tokens.READ):
                return None
            return "That token is not valid (unknown or revoked): paste a new one."
        return "Paste the token you were given to read this hub."

    routes += pages.routes(store, allowed, public, find)
    from starlette.middleware import Middleware

    handlers: Any = {404: _unknown_route, 405: _unknown_route}
    return Starlette(
        routes=routes, lifespan=agents.lifespan, exception_handlers=handlers, middleware=[Middleware(_NoNul)]
    )


class _Agents:
    """The hub's MCP tools at /mcp, through the SDK's streamable HTTP transport (stateless: any
    worker answers any request), behind a read token unless the hub is public."""

    def __init__(
        self,
        store: Any,
        caller: Callable[[Request], dict[str, Any] | None],
        public: bool,
        find: Callable[..., dict[str, Any]],
        pool: Any,
    ) -> None:
        from mcp.server.transport_security import TransportSecuritySettings

        from adr_memory.surfaces import mcp_hub

        self.server, self.pool = mcp_hub.build(store, find), pool
        # The token is the guard here (a reverse proxy names its own host): no Host allow-list.
        security = TransportSecuritySettings(enable_dns_rebinding_protection=False)
        inner = self.server.streamable_http_app(
            streamable_http_path="/mcp", stateless_http=True, json_response=True, transport_security=security
        )
        self.app, self.caller, self.public = inner, caller, public

    @contextlib.asynccontextmanager
    async def lifespan(self, _app: Any) -> AsyncIterator[None]:
        try:
            async with self.server.session_manager.run():
                yield
        finally:  # the search processes end with the server (and watch for it, were it killed)
            if self.pool is not None:
                self.pool.close()

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        from starlette.concurrency import run_in_threadpool

        from adr_memory.hub import tokens

        if not self.public:
            request = Request(scope)
            try:
                who = await run_in_threadpool(self.caller, request)
            except AdrError as exc:
                await _error(503, *lost(exc))(scope, receive, send)
                return
            if who is None or not tokens.allows(who["scopes"], tokens.READ):
                refused = _unauthorized(request)
                await _error(401, refused.message, refused.hint)(scope, receive, send)
                return
        await self.app(scope, receive, send)


MAX_BODY = 256_000_000  # bytes of one publish: 50,000 chunks and their vectors fit in a quarter of it


async def _body(request: Request) -> bytes | None:
    """The request's body, or None past MAX_BODY (read no further than that)."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > MAX_BODY:
        return None
    parts, size = [], 0
    async for part in request.stream():
        size += len(part)
        if size > MAX_BODY:
            return None
        parts.append(part)
    return b"".join(parts)


def _published(store: Any, who: dict[str, Any], body: bytes) -> JSONResponse:
    import json

    from adr_memory.commands import hub as commands
    from adr_memory.hub import postgres, snapshot, tokens

    def answer() -> dict[str, Any]:
        try:
            data = json.loads(body)
        except (ValueError, RecursionError):  # RecursionError: JSON nested past what any publish holds
            raise UsageError(
                "the publish is not JSON a publish holds", hint="publish with adr hub publish --to URL"
            ) from None
        if not isinstance(data, dict) or not isinstance(data.get("repository"), str):
            raise UsageError("the publish names no repository", hint="publish with adr hub publish --to URL")
        name = data["repository"]
        if not tokens.allows(who["scopes"], "publish", name):
            raise _Forbidden(
                f"this token may not publish {name!r}", hint="a token made with --publish NAME publishes it"
            )
        return commands.published(store, snapshot.checked(data, postgres.DIM))

    return _answered(answer)


class _Forbidden(UsageError):
    """A token that may not do what it asked (a 403, not a 400)."""


def from_environment() -> Starlette:
    """The application a worker builds (uvicorn's factory, `--workers N`): the hub ADR_HUB_URL names."""
    from adr_memory.hub import store

    plain_logs()
    app = build(store.url_of(None), public=bool(os.environ.get(PUBLIC)), searching=_searching())
    _ends_with_supervisor()
    settled()
    return app


def _ends_with_supervisor() -> None:
    """A worker of `--workers N` ends, as on a Ctrl-C, once the process that started it is gone:
    uvicorn's supervisor, killed, cannot tell it, and it would go on holding the port and its
    search process."""
    import signal
    import threading
    import time

    supervisor = os.getppid()

    def watch() -> None:
        while os.getppid() == supervisor:
            time.sleep(0.5)
        os.kill(os.getpid(), signal.SIGTERM)

    threading.Thread(target=watch, name="supervisor-watch", daemon=True).start()


async def _unknown_route(request: Request, exc: Exception) -> Any:
    """Starlette's own 404 and 405, in the API's one shape under /api, as text elsewhere."""
    from starlette.responses import PlainTextResponse

    code = int(getattr(exc, "status_code", 404))
    said = "no such endpoint" if code == 404 else f"{request.method} is not taken here"
    if request.url.path.startswith("/api/"):
        return _error(code, said, "docs/hub.md lists the API: /api/search, /api/decisions, ...")
    return PlainTextResponse(said, status_code=code, headers=security_headers())  # as every page


class _NoNul:
    """Refuses a request whose path or query holds a NUL character (a 400): no name holds one,
    and PostgreSQL cannot take one in a text."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        from urllib.parse import unquote_to_bytes

        if scope["type"] == "http" and (
            "\0" in scope.get("path", "") or b"\0" in unquote_to_bytes(scope.get("query_string", b""))
        ):
            refused = _error(400, "the request holds a NUL character", "names and questions never hold one")
            await refused(scope, receive, send)
            return
        await self.app(scope, receive, send)


def _answered(answer: Callable[[], Any]) -> JSONResponse:
    """The answer as JSON with credentials redacted, or the error it raised in one shape."""
    from adr_memory.records import credentials
    from adr_memory.surfaces import boundary

    def told(exc: AdrError) -> JSONResponse:
        if type(exc) is AdrError and exc.hint == boundary.BUG_HINT:  # a bug: said without what it quotes
            LOG.error("%s", credentials.scrub(exc.message))  # the operator's log says what ("internal error: ...")
            return _error(500, "internal error", "report how to repeat it; the server's log says what failed")
        if isinstance(exc, _Forbidden):
            return _error(403, exc.message, exc.hint)
        if isinstance(exc, _Unauthorized):
            return _error(401, exc.message, exc.hint)
        if isinstance(exc, ReadOnlyHub):  # the operator's choice, said as such: the store is there
            return _error(503, "this hub takes no publishes: its database user may only read", READ_ONLY_HINT)
        if isinstance(exc, UsageError):
            return _error(refused(exc), exc.message, exc.hint)
        return _error(503, *lost(exc))  # where the store is, and why it fails, is the operator's to read

    return boundary.guarded(lambda: JSONResponse(credentials.scrub_data(answer())), told)


class _Unauthorized(UsageError):
    """No live token (a 401): none was sent, or the one sent is unknown or revoked."""


def _unauthorized(request: Request, to: str = "read") -> _Unauthorized:
    if request.headers.get("authorization") or request.cookies.get(COOKIE):
        return _Unauthorized("the token is not valid (unknown or revoked)", hint="ask the hub's operator for a new one")
    return _Unauthorized(
        f"a token is needed to {to} this hub", hint="send Authorization: Bearer TOKEN (adr hub token add)"
    )


def _error(status: int, message: str, hint: str | None) -> JSONResponse:
    from adr_memory.records import credentials

    return JSONResponse({"error": credentials.scrub(message), "hint": hint or ""}, status_code=status)


def _int(text: str, name: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise UsageError(f"{name} must be a whole number, not {text[:20]!r}", hint=f"e.g. {name}=5") from None


def serve(url: str, *, host: str, port: int, public: bool, workers: int) -> None:
    """Run the application with uvicorn until interrupted: an access log line per request on
    standard output, what failed on the server's side on standard error. uvicorn picks
    httptools and uvloop (dependencies): under 32 searches, pure Python's h11 held pages back."""
    import uvicorn

    logging.getLogger("mcp").setLevel(logging.WARNING)  # the SDK says each session start at INFO
    plain_logs()

    from adr_memory.hub import store

    if workers > 1:
        os.environ[store.ENV] = url
        os.environ[PUBLIC] = "1" if public else ""
        target: Any = "adr_memory.surfaces.server:from_environment"
        uvicorn.run(target, host=host, port=port, workers=workers, factory=True, log_level="info")
        return
    app = build(url, public=public, searching=_searching())
    settled()
    uvicorn.run(app, host=host, port=port, log_level="info")


def plain_logs() -> None:
    """One line per message on standard error, as log collectors read them: set before the MCP
    SDK would set its own (rich's handler, which folds a line at 80 columns off a terminal)."""
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s:  %(name)s: %(message)s")


def _searching() -> int:
    """How many search processes a served hub runs: one per search slot."""
    from adr_memory.surfaces import pages

    return pages.SEARCHES


def settled() -> None:
    """What a server holds from its start (modules, templates, the store) is set aside from
    Python's collector: each full collection would otherwise walk it again, a pause every
    request waits for (under 32 searches, alternating runs: a page's p95 88 -> 81, 96 -> 88,
    80 -> 68 ms)."""
    import gc

    gc.collect()
    gc.freeze()
