"""The served hub's pages for people (`adr hub serve`): a home page whose search form works
without script (the server answers) and as you type where script runs, a page per repository
and per decision, the timeline, the stale decisions and the conflicts. The static hub site's
templates and escaping (every value printed is escaped; record text rendered with raw HTML off)
and a content security policy that lets nothing a record supplies run."""

from __future__ import annotations

import logging
import os
import weakref
from collections.abc import Callable
from importlib import resources
from typing import Any
from urllib.parse import quote

from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response
from starlette.routing import Route

from adr_memory.errors import AdrError, UsageError

COOKIE = "adr_hub_token"
LOG = logging.getLogger("adr_memory.hub")  # what failed on the server's side: the operator's log
LOST = ("the hub's store cannot be reached", "try again shortly; the server's log says why")


def refused(exc: UsageError) -> int:
    """A page's and the API's status for a usage error: 404 for a repository or decision not
    there (the error names the nearest), 400 for anything else asked wrong."""
    return 404 if exc.message.startswith(("no repository", "no decision")) else 400


def lost(exc: AdrError) -> tuple[str, str]:
    """A store that cannot be read, told to the operator's log in full and to a client only as
    LOST: where the store is, and why it fails, is not a reader's to know."""
    LOG.warning("%s (%s)", exc.message, exc.hint or "")
    return LOST


CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)
# Searches run at once (each embeds the question and ranks: CPU); the rest wait their turn, so a
# page or a list is answered beside them (32 searches at once held pages at 382 ms p95). They
# wait on the event loop, holding no thread: the threads stay free for pages, however many ask.
SEARCHES = max(2, os.cpu_count() or 2)
_slots: weakref.WeakKeyDictionary[Any, Any] = weakref.WeakKeyDictionary()  # one per event loop


def _local(path: str) -> str:
    """`path` when it is a page of this hub (`/r/name?x=1`), else `/`: a login never sends its
    reader to another site (`//evil.example`, `/\\evil.example`, `https://...`)."""
    if not path.startswith("/") or path.startswith(("//", "/\\")) or any(c in path for c in "\r\n\0"):
        return "/"
    return path


def slotted(
    endpoint: Callable[[Request], Response], asks: Callable[[Request], bool] = lambda _r: True
) -> Callable[[Request], Any]:
    """`endpoint`, run in a thread once a search slot is free when the request `asks` a search
    (a page without a question waits for none)."""
    import asyncio

    from starlette.concurrency import run_in_threadpool

    async def waiting(request: Request) -> Response:
        if not asks(request):
            return await run_in_threadpool(endpoint, request)
        loop = asyncio.get_running_loop()
        if loop not in _slots:
            _slots[loop] = asyncio.Semaphore(SEARCHES)
        async with _slots[loop]:
            return await run_in_threadpool(endpoint, request)

    return waiting


_ASSETS = {"site.css": "text/css", "icon.svg": "image/svg+xml", "hub.js": "text/javascript"}


def routes(
    store: Any, allowed: Callable[[Request], str | None], public: bool, find: Callable[..., dict[str, Any]]
) -> list[Route]:
    """The pages over `store`; `allowed(request)` says why a request may not read (None: it may);
    `find` answers the home page's search (`commands.hub.search`, or the server's search processes)."""
    from adr_memory.commands import hub as commands
    from adr_memory.hub import tokens
    from adr_memory.surfaces.site import hub as site

    def page(template: str, request: Request, status: int = 200, **values: Any) -> HTMLResponse:
        from adr_memory.surfaces.site.build import environment

        # The repositories are counted for the home page alone: a count of every decision on each
        # page was most of a page's time with a thousand repositories.
        held: list[dict[str, Any]] = values.pop("held", [])  # the repositories, counted: the home page's alone
        common: dict[str, Any] = {
            "site": {"title": "Decisions"},
            "canonical": None,
            "root": "/",
            "repositories": [],  # the navigation names no repository: an organisation has hundreds
            "footer": site.footer_line(sum(r["records"] for r in held), len(held)) if held else site.signature(),
            "live": True,
            "public": public,
            "current": None,
            "link": None,
        }
        html = environment().get_template(template).render({**common, **values})
        return HTMLResponse(html, status_code=status, headers=security_headers())

    def failed(request: Request, status: int, exc: AdrError) -> HTMLResponse:
        heading, hint = (exc.message, exc.hint or "") if isinstance(exc, UsageError) else lost(exc)
        said = {"heading": heading, "empty": hint, "rows": [], "columns": []}
        return page("served_list.html", request, status, kind="error", **said)

    def guarded(render: Callable[[Request], HTMLResponse]) -> Callable[[Request], Response]:
        def endpoint(request: Request) -> Response:
            try:
                why = None if public else allowed(request)
                if why is not None:
                    asked = request.url.path + (f"?{request.url.query}" if request.url.query else "")
                    return page("served_login.html", request, 401, kind="login", said=why, back=asked)
                return render(request)
            except AdrError as exc:  # a usage error: what is not there, or what was asked wrong; else the store lost
                return failed(request, refused(exc) if isinstance(exc, UsageError) else 503, exc)

        return endpoint

    def rows(decisions: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [
            {**_DEFAULTS, "title": d["id"], **d}
            | {"page": _decision_page(d), "repository_page": f"r/{quote(d['repository'], safe='')}"}
            for d in sorted(decisions, key=lambda d: (d["repository"], d["id"]))
        ]

    def home(request: Request) -> HTMLResponse:
        q = request.query_params.get("q", "").strip()
        answer = find(q, limit=10) if q else None  # in a search slot: routes()
        held = sorted(store.repositories(), key=lambda r: r["name"])
        repositories = [
            [
                {"text": r["name"], "href": f"/r/{quote(r['name'], safe='')}"},
                {"text": r["records"]},
                {"text": (r["published_at"] or "")[:10]},
            ]
            for r in held
        ]
        columns = ["Repository", "Decisions", "Published"]
        return page(
            "served_index.html",
            request,
            kind="index",
            q=q,
            answer=answer,
            held=held,
            columns=columns,
            rows=repositories,
        )

    def repository(request: Request) -> HTMLResponse:
        name = request.path_params["name"]
        commands.held(store, name)
        own = rows(store.records(name))
        link = next((d["link"].split("/blob/", 1)[0] for d in own if d.get("link")), None)
        return page(
            "served_index.html", request, kind="repository", current=name, q="", answer=None, decisions=own, link=link
        )

    def decision(request: Request) -> HTMLResponse:
        name, ident = request.path_params["name"], request.path_params["id"]
        commands.held(store, name)
        d = rows([commands.shown(store, name, ident)])[0]
        # Its links both ways, each to its page here: what it says of others, and what they say of it.
        # A link both records state (adr-tools writes the reverse into each) is listed once.
        ours = {link.get("id") for link in d.get("links") or [] if isinstance(link, dict)}
        theirs = [
            {"rel": f"{link.get('rel', '')} this, says", "id": other["id"]}
            for other in store.records(name)
            if other["id"] != d["id"] and other["id"] not in ours
            for link in other.get("links") or []
            if isinstance(link, dict) and link.get("id") == d["id"]
        ]
        # A source's decision (`platform:ADR-0002`) is its own repository's page in the hub.
        elsewhere = {
            f"{e.get('source')}:{e.get('id')}": {"repository": e["repository"], "id": e["id"]}
            for e in d.get("exceptions") or []
            if isinstance(e, dict) and isinstance(e.get("repository"), str) and isinstance(e.get("id"), str)
        }
        d["linked"] = [
            {
                "rel": link.get("rel", ""),
                "id": link["id"],
                "href": "/" + _decision_page(elsewhere.get(link["id"], {"repository": name, "id": link["id"]})),
            }
            for link in [*(d.get("links") or []), *theirs]
            if isinstance(link, dict) and isinstance(link.get("id"), str)
        ]
        compared = _compared(store, name, d, request.query_params)
        return page(
            "served_decision.html",
            request,
            kind="decision",
            current=name,
            d=d,
            body=site.body(d, "/"),
            compared=compared,
        )

    def listing(
        kind: str,
        heading: str,
        empty: str,
        columns: list[str],
        cells: Callable[[Request], list[list[dict[str, Any]]]],
    ) -> Route:
        def render(request: Request) -> HTMLResponse:
            rows = cells(request)
            return page(
                "served_list.html", request, kind=kind, heading=heading, empty=empty, columns=columns, rows=rows
            )

        return Route(f"/{kind}", guarded(render))

    def linked(d: dict[str, Any]) -> dict[str, Any]:
        return {"text": f"{d['repository']} {d['id']}", "href": "/" + _decision_page(d)}

    def login(request: Request) -> Response:
        asked = request.query_params.get("next", "")
        back = _local(asked) if asked else ""  # where to go once a token is given (never another site)
        return page("served_login.html", request, kind="login", said="Paste the token you were given.", back=back)

    def log_out(request: Request) -> Response:
        """The token's cookie forgotten: the next page asks for a token again."""
        done = RedirectResponse("/login", status_code=303, headers=security_headers())
        done.delete_cookie(COOKIE, httponly=True, samesite="strict", secure=request.url.scheme == "https")
        return done

    async def log_in(request: Request) -> Response:
        from starlette.concurrency import run_in_threadpool

        form = await request.form()
        token = str(form.get("token") or "").strip()
        back = _local(str(form.get("next") or "/"))
        try:
            held = await run_in_threadpool(store.token, tokens.digest(token)) if token else None
        except AdrError as exc:
            return await run_in_threadpool(failed, request, 503, exc)
        if held is None or not tokens.allows(held["scopes"], tokens.READ):
            return await run_in_threadpool(
                lambda: page(
                    "served_login.html",
                    request,
                    401,
                    kind="login",
                    said="That token is not valid (unknown or revoked).",
                    back=back,
                )
            )
        done = RedirectResponse(back, status_code=303, headers=security_headers())  # to the page that asked
        secure = request.url.scheme == "https"
        done.set_cookie(COOKIE, token, httponly=True, samesite="strict", secure=secure, max_age=30 * 24 * 3600)
        return done

    return [
        Route("/", slotted(guarded(home), _asks)),
        Route("/index.html", slotted(guarded(home), _asks)),
        Route("/r/{name:path}", guarded(repository)),
        Route("/d/{name:path}/{id}", guarded(decision)),
        listing(
            "timeline",
            "Every repository's decision events",
            "No events yet.",
            ["Date", "Decision", "Event", "Detail"],
            lambda r: [
                [
                    {"text": (e.get("date") or "")[:10]},
                    linked(e),
                    {"text": e.get("kind", "")},
                    {"text": e.get("detail") or e.get("title") or ""},
                ]
                for e in commands.timeline(store, None, r.query_params.get("since", ""))["events"][:500]
            ],
        ),
        listing(
            "stale",
            "Decisions whose code changed since they were last reviewed",
            "Nothing stale across the organisation.",
            ["Decision", "Title", "Why"],
            lambda _r: [
                [linked(d), {"text": d.get("title", "")}, {"text": d.get("reason") or ""}]
                for d in commands.stale(store)["decisions"]
            ],
        ),
        listing(
            "conflicts",
            "Organisation keys held two ways",
            "No conflicts: where repositories differ, they recorded an exception.",
            ["Key", "Held as"],
            lambda _r: [
                [
                    {"text": c.get("key", "")},
                    {
                        "text": "; ".join(
                            f"{h.get('repository')} {h.get('id')}: {h.get('value')}" for h in c.get("holders", [])
                        )
                    },
                ]
                for c in commands.conflicts(store)["conflicts"]
            ],
        ),
        listing(
            "exceptions",
            "Exceptions to the organisation's decisions",
            "No repository recorded an exception.",
            ["Decision", "Exception", "Title"],
            lambda _r: [
                [
                    linked(e),
                    linked({"repository": e["by"], "id": e["record"]}),
                    {"text": e.get("title") or ""},
                ]
                for e in commands.excepted(store)["exceptions"]
            ],
        ),
        Route("/logout", log_out, methods=["GET", "POST"]),
        Route("/login", login, methods=["GET"]),
        Route("/login", log_in, methods=["POST"]),
        Route("/assets/{name}", asset),
    ]


def _asks(request: Request) -> bool:
    return bool(request.query_params.get("q", "").strip())


# What a page reads of a record that a publish over HTTP may leave out (it is checked for its id).
_DEFAULTS: dict[str, Any] = {"status": "", "state": None, "governs": [], "tags": [], "link": None, "path": ""}
_DEFAULTS |= {"versions": [], "sections": []}


def _compared(store: Any, name: str, d: dict[str, Any], asked: Any) -> dict[str, Any]:
    """The versions the form compares (the latest and the one before, until asked), and the
    diff's lines, each with its kind, when asked: a version the hub holds no text of says so."""
    from adr_memory.commands import hub as commands

    listed = [v.get("version_id") for v in d.get("versions") or [] if isinstance(v, dict)]
    shown: dict[str, Any] = {
        "from": listed[1] if len(listed) > 1 else None,
        "to": listed[0] if listed else None,
        "lines": [],
    }
    if "from" not in asked and "to" not in asked:
        return shown
    try:
        said = commands.version_diff(store, name, d["id"], asked.get("from", ""), asked.get("to", ""))
    except UsageError as exc:
        return {**shown, "said": f"{exc.message} ({exc.hint})" if exc.hint else exc.message}
    kinds = {"+": "ins", "-": "del", "~": "ins"}
    lines = [
        (kinds.get(line[:1], "same") if not line.startswith(("+++", "---")) else "same", line)
        for line in said["diff"].splitlines()
    ]
    return {"from": said["from"], "to": said["to"], "lines": lines}


def _decision_page(d: dict[str, Any]) -> str:
    return f"d/{quote(d['repository'], safe='')}/{quote(d['id'], safe='')}"


def asset(request: Request) -> Response:
    name = request.path_params["name"]
    if name not in _ASSETS:
        return Response("not found", status_code=404, media_type="text/plain")
    data = resources.files("adr_memory.surfaces.site").joinpath("assets", name).read_bytes()
    return Response(data, media_type=_ASSETS[name], headers=security_headers())


def security_headers() -> dict[str, str]:
    """The headers every answer of the served hub carries (the content security policy among them)."""
    return {
        "Content-Security-Policy": CSP,
        "X-Content-Type-Options": "nosniff",
        "Referrer-Policy": "no-referrer",
        "Cache-Control": "no-store",
    }
