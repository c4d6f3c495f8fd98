"""`adr hub ...`: publish this repository's decisions to the organisation's hub, and read the
organisation's (docs/hub.md). The hub is named by --to/--from or ADR_HUB_URL, never by a
repository; its URL is never printed with its credentials."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from adr_memory.surfaces import render
from adr_memory.surfaces.app import JsonFlag, _show, app, command, workspace

hub_app = typer.Typer(help="The organisation's decisions in one place: publish, search, list.", no_args_is_help=True)
app.add_typer(hub_app, name="hub")

ToOption = Annotated[
    str | None, typer.Option("--to", metavar="URL", help="A hub folder or postgresql://... (else ADR_HUB_URL).")
]
FromOption = Annotated[
    str | None, typer.Option("--from", metavar="URL", help="A hub folder or postgresql://... (else ADR_HUB_URL).")
]
RepoOption = Annotated[str | None, typer.Option("--repository", metavar="NAME", help="Only this repository's.")]


@command(hub_app, name="init")
def hub_init(to: ToOption = None) -> None:
    """Create the hub (a folder, or the schema in PostgreSQL), or move its schema forward."""
    from adr_memory.commands import hub

    done = hub.init(to)
    render.line("\n".join(done["steps"]) if done["steps"] else f"{done['hub']}: the hub is up to date")


@command(hub_app, name="publish")
def hub_publish(
    to: ToOption = None,
    name: Annotated[
        str | None, typer.Option("--name", help="The repository's name (else its origin remote's).")
    ] = None,
    token: Annotated[
        str | None,
        typer.Option("--token", metavar="TOKEN", help="A served hub's publish token (else ADR_HUB_TOKEN)."),
    ] = None,
    as_json: JsonFlag = False,
) -> None:
    """Replace this repository's state in the hub with its catalog at HEAD, in one step."""
    from adr_memory.commands import hub

    done = hub.publish(workspace(), to, name, token)
    said = (
        " (kept: the hub holds a later commit of it)"
        if done["kept_later"]
        else " (unchanged)"
        if not done["changed"]
        else " (a new repository in the hub)"
        if done["created"]
        else ""
    )
    _show(
        done,
        as_json,
        lambda d: render.line(
            f"{d['repository']}: {render.counted(d['records'], 'decision')} at {str(d['commit'])[:10]}{said}"
        ),
    )


@command(hub_app, name="search")
def hub_search(
    query: Annotated[list[str], typer.Argument(metavar="QUERY...")],
    source: FromOption = None,
    repository: RepoOption = None,
    status: Annotated[str, typer.Option("--status", help="Only decisions of this status.")] = "",
    tag: Annotated[str, typer.Option("--tag", help="Only decisions with this tag.")] = "",
    limit: Annotated[int, typer.Option(min=1, max=50)] = 5,
    as_json: JsonFlag = False,
) -> None:
    """Find decisions across every repository; says so when nothing matches well."""
    from adr_memory.commands import hub

    answer = hub.search(source, " ".join(query), limit=limit, repository=repository, status=status, tag=tag)
    _show(answer, as_json, _answer)


def _answer(answer: dict[str, Any]) -> None:
    if answer["no_strong_match"]:
        render.line(f"No strong match. {answer['reason'] or ''}".strip())
    for row in answer["results"] or answer["best_weak"]:
        render.line(f"{row['repository']} {row['id']} {row['title']}  [{_standing(row)}] {row['score']:.2f}")
        render.line(f"    {row['section']}: {row['snippet']}")


def _standing(doc: dict[str, Any]) -> str:
    """What holds, as the repository's standing said when it published ("superseded by ADR-0003",
    "accepted; ADR-0004 proposed"), or its status where it sent none."""
    held = doc.get("standing")
    said = held.get("label") if isinstance(held, dict) else None
    return str(said) if said else str(doc.get("status", ""))


@command(hub_app, name="list")
def hub_list(
    source: FromOption = None,
    repository: RepoOption = None,
    status: Annotated[str, typer.Option("--status")] = "",
    tag: Annotated[str, typer.Option("--tag")] = "",
    as_json: JsonFlag = False,
) -> None:
    """Every repository's decisions (with their repository)."""
    from adr_memory.commands import hub

    rows = hub.listing(source, repository, status, tag)
    _show(rows, as_json, _rows)


def _rows(rows: list[dict[str, Any]]) -> None:
    if not rows:
        render.line("No decisions in the hub (adr hub publish --to URL sends a repository's).")
    for r in rows:
        render.line(f"{r['repository']:<20} {r['id']:<10} {_standing(r):<10} {r['title']}")


@command(hub_app, name="stale")
def hub_stale(source: FromOption = None, as_json: JsonFlag = False) -> None:
    """Decisions across the organisation whose governed code changed since they were last reviewed."""
    from adr_memory.commands import hub

    _show(hub.stale(source), as_json, _stale_rows)


def _stale_rows(data: dict[str, Any]) -> None:
    if not data["decisions"]:
        render.line("Nothing stale across the organisation.")
    for r in data["decisions"]:
        render.line(f"{r['repository']} {r['id']} {r['state']}: {r['reason']}")


@command(hub_app, name="conflicts")
def hub_conflicts(
    source: FromOption = None,
    as_json: JsonFlag = False,
    fail: Annotated[bool, typer.Option("--fail", help="Exit 1 when repositories conflict (for CI).")] = False,
) -> None:
    """Repositories holding one organisation key (`org.` keys) with different values; a
    repository's recorded exception to the organisation's decision is not one."""
    from adr_memory.commands import hub

    found = hub.conflicts(source)
    _show(found, as_json, _conflict_rows)
    if fail and found["conflicts"]:
        raise typer.Exit(1)


def _conflict_rows(data: dict[str, Any]) -> None:
    for c in data["conflicts"]:
        render.line(c["message"])
    if not data["conflicts"]:
        render.line("No conflicts across repositories.")


@command(hub_app, name="show")
def hub_show(
    repository: Annotated[str, typer.Argument(metavar="REPOSITORY")],
    ident: Annotated[str, typer.Argument(metavar="ID")],
    source: FromOption = None,
    as_json: JsonFlag = False,
) -> None:
    """One repository's decision as published: its sections, state and versions."""
    from adr_memory.commands import hub

    doc = hub.shown(source, repository, ident)
    _show(doc, as_json, _shown_doc)


@command(hub_app, name="exceptions")
def hub_exceptions(source: FromOption = None, as_json: JsonFlag = False) -> None:
    """The exceptions repositories recorded to organisation decisions, by decision."""
    from adr_memory.commands import hub

    def shown(said: dict[str, Any]) -> None:
        if not said["exceptions"]:
            render.line("No repository recorded an exception to an organisation decision.")
        for e in said["exceptions"]:
            render.line(f"{e['repository']} {e['id']}: {e['by']} {e['record']} ({e.get('title') or ''})")

    _show(hub.excepted(source), as_json, shown)


@command(hub_app, name="diff")
def hub_diff(
    repository: Annotated[str, typer.Argument(metavar="REPOSITORY")],
    ident: Annotated[str, typer.Argument(metavar="ID")],
    old: Annotated[
        str, typer.Argument(metavar="OLD", help="A version id or commit (default: the one before NEW).")
    ] = "",
    new: Annotated[str, typer.Argument(metavar="NEW", help="A version id or commit (default: the latest).")] = "",
    source: FromOption = None,
    as_json: JsonFlag = False,
) -> None:
    """What changed in a published decision between two versions, as `adr diff` says it."""
    from adr_memory.commands import hub

    _show(hub.version_diff(source, repository, ident, old, new), as_json, lambda d: render.line(d["diff"]))


def _shown_doc(doc: dict[str, Any]) -> None:
    render.line(f"{doc['repository']} {doc['id']}: {doc['title']}")
    render.line(
        f"status {_standing(doc)}; state {doc.get('state') or 'unknown'}; {len(doc.get('versions') or [])} versions"
    )
    for section in doc.get("sections") or []:
        render.line(f"\n## {section['heading']}\n\n{section['text']}")


@command(hub_app, name="timeline")
def hub_timeline(
    source: FromOption = None,
    repository: RepoOption = None,
    since: Annotated[str, typer.Option("--since", metavar="YYYY-MM-DD")] = "",
    as_json: JsonFlag = False,
) -> None:
    """Every repository's decision events, newest first (versions and status changes)."""
    from adr_memory.commands import hub

    _show(hub.timeline(source, repository, since), as_json, _events)


def _events(data: dict[str, Any]) -> None:
    if not data["events"]:
        render.line("No decision events.")
    for e in data["events"]:
        render.line(f"{(e['date'] or '')[:10]}  {e['repository']:<16} {e['id']:<10} {e['kind']:<7} {e['detail'] or ''}")


@command(hub_app, name="site")
def hub_site(
    source: FromOption = None,
    out: Annotated[Path, typer.Option("--out", metavar="DIR", help="Where to write it.")] = Path("hub-site"),
    repository: RepoOption = None,
    title: Annotated[str, typer.Option("--title", help="The site's name.")] = "Decisions",
) -> None:
    """The organisation's decisions as one static site: a page per repository and per decision,
    each linking back to its file in its repository."""
    from adr_memory.commands import hub
    from adr_memory.surfaces.site import hub as hub_site_pages

    docs = hub.listing(source, repository)
    pages = hub_site_pages.build(docs, out, title)
    repositories = len({d["repository"] for d in docs})
    render.line(
        f"wrote {render.counted(len(docs), 'decision')} of {render.counted(repositories, 'repository', 'repositories')}, {pages} pages, to {out}"
    )
    render.line(f"open {out / 'index.html'}")


# ---------------------------------------------------------------------------- serving, and its operator's verbs


@command(hub_app, name="serve")
def hub_serve(
    source: FromOption = None,
    host: Annotated[str, typer.Option("--host", help="The address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", min=1, max=65535, help="The port.")] = 8080,
    public: Annotated[bool, typer.Option("--public", help="Reads need no token.")] = False,
    workers: Annotated[int, typer.Option("--workers", min=1, max=64, help="Processes (PostgreSQL only).")] = 1,
) -> None:
    """Serve the hub over HTTP until Ctrl-C: pages with search for people, a JSON API, and MCP at
    /mcp for agents, behind tokens unless --public (docs/hub.md#served-adr-hub-serve)."""
    from adr_memory.commands import serving
    from adr_memory.surfaces import server

    served = serving.hub(source, host=host, port=port, public=public, workers=workers)
    render.note(f"serving {redacted(served.url)} on http://{host}:{port} ({'public' if public else 'tokens needed'})")
    server.serve(served.url, host=host, port=port, public=public, workers=workers)


token_app = typer.Typer(help="Tokens for the served hub: read, or publish named repositories.", no_args_is_help=True)
hub_app.add_typer(token_app, name="token")


@command(token_app, name="add")
def hub_token_add(
    name: Annotated[str, typer.Argument(metavar="NAME")],
    read: Annotated[bool, typer.Option("--read", help="Reads every repository's decisions.")] = False,
    publish: Annotated[
        list[str] | None, typer.Option("--publish", metavar="REPOSITORY", help="Publishes this repository (repeat).")
    ] = None,
    source: FromOption = None,
    as_json: JsonFlag = False,
) -> None:
    """Make a token; it is printed once, on a line of its own, and kept only as a hash."""
    from adr_memory.commands import hub

    made = hub.token_add(source, name, read, publish or [])
    if as_json:
        render.emit_json(made)
        return
    render.note(f"token {made['name']} ({', '.join(made['scopes'])}): shown this once, keep it now")
    render.line(made["token"])


@command(token_app, name="list")
def hub_token_list(source: FromOption = None, as_json: JsonFlag = False) -> None:
    """The hub's tokens: names, scopes, when made and last used (never a token)."""
    from adr_memory.commands import hub

    listed = hub.token_list(source)

    def human(d: dict[str, Any]) -> None:
        if not d["tokens"]:
            render.line("No tokens yet: adr hub token add NAME --read")
        for t in d["tokens"]:
            state = f"revoked {t['revoked']}" if t["revoked"] else f"last used {t['last_used'] or 'never'}"
            render.line(f"{t['name']}  {', '.join(t['scopes'])}  made {t['created']}  {state}")

    _show(listed, as_json, human)


@command(token_app, name="revoke")
def hub_token_revoke(name: Annotated[str, typer.Argument(metavar="NAME")], source: FromOption = None) -> None:
    """Refuse a token from now on."""
    from adr_memory.commands import hub

    done = hub.token_revoke(source, name)
    render.line(f"token {name} {'was already revoked' if done['already'] else 'revoked'}")


@command(hub_app, name="remove")
def hub_remove(repository: Annotated[str, typer.Argument(metavar="NAME")], source: FromOption = None) -> None:
    """Take a repository's decisions out of the hub (archived, or gone)."""
    from adr_memory.commands import hub

    hub.remove(source, repository)
    render.line(f"removed {repository} from the hub")


@command(hub_app, name="rename")
def hub_rename(
    old: Annotated[str, typer.Argument(metavar="OLD")],
    new: Annotated[str, typer.Argument(metavar="NEW")],
    source: FromOption = None,
) -> None:
    """Keep a repository's decisions under its new name (publish from it with --name NEW)."""
    from adr_memory.commands import hub

    hub.rename(source, old, new)
    render.line(f"{old} is {new} in the hub")


def redacted(url: str) -> str:
    from adr_memory.records import redact_url

    return redact_url(url)
