"""`adr hub ...`: publish this repository's decisions to the organisation's hub and read the
organisation's (docs/hub.md). The hub is named by --to/--from or ADR_HUB_URL, never by a
repository; its URL is never shown with its credentials. Each verb is a function here, which the
CLI and the MCP server call alike."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import quote

from adr_memory.commands import log, show, views
from adr_memory.errors import UsageError
from adr_memory.history import Workspace, sources, staleness
from adr_memory.hub import Snapshot, exceptions, named, reading, store, tokens, web_url
from adr_memory.records import credentials, iso_moment, redact_url, standing

Where = str | None | Any  # a hub's URL (None: ADR_HUB_URL, else the user's config), or a store already open


def open_hub(url: Where) -> Any:
    """The hub `url` names (else ADR_HUB_URL, else the user's config); a store already open (a
    long-lived reader's, the MCP server's) as it is."""
    if url is None or isinstance(url, str):
        return store.open_store(store.url_of(url))
    return url


def model_cache() -> Path:
    """Where the hub's readers keep the query model, beside the user's own key."""
    from adr_memory.base import sealed

    key = sealed.key_path()
    return (key.parent if key else Path.home() / ".cache" / "adr-memory") / "hub-model"


def init(url: str | None) -> dict[str, Any]:
    """Create the hub (a folder, or the schema in PostgreSQL), or move its schema forward."""
    return {"hub": redact_url(store.url_of(url)), "steps": open_hub(url).init()}


TOKEN_ENV = "ADR_HUB_TOKEN"  # a served hub's publish token, as a CI secret holds it


def publish(ws: Workspace, url: Where, name: str | None = None, token: str | None = None) -> dict[str, Any]:
    """Replace this repository's state in the hub with its catalog at HEAD, in one step (a
    served hub, `https://...`, over HTTP with a publish token: never the database's password)."""
    named = store.url_of(url) if url is None or isinstance(url, str) else None
    if named is not None and store.scheme(named) == "http":
        # the token and the address are checked before anything is embedded (minutes, cold)
        return _publish_over_http(named, lambda: snapshot(ws, name), token)
    hub = open_hub(url)
    try:
        return published(hub, snapshot(ws, name))
    finally:
        hub.close()


def _unreached(exc: Exception) -> str:
    """Why a served hub did not answer, in a few words (httpx says its class, and the system why)."""
    said = str(exc).lower()
    for words, why in (
        (("refused",), "nothing listens there (connection refused)"),
        (("name or service", "nodename", "getaddrinfo", "no address"), "no such host"),
        (
            ("ssl", "tls", "certificate", "wrong_version"),
            "TLS failed (a plain http server, or a certificate not trusted)",
        ),
        (("timed out", "timeout"), "it did not answer in time"),
    ):
        if any(w in said for w in words) or any(w in type(exc).__name__.lower() for w in words):
            return why
    return type(exc).__name__


def published(hub: Any, snap: Snapshot) -> dict[str, Any]:
    """Write `snap` to the store `hub` and say what it did: the answer of a publish to the store
    and over HTTP alike."""
    created = not hub.holds(snap.repository)
    done = hub.publish(snap)
    return {
        "repository": snap.repository,
        "commit": snap.commit,
        "records": len(snap.records),
        "changed": done == "published",
        "created": created and done == "published",  # a name the hub had not seen: a new repository
        # a CI job of an earlier push that finished last leaves the later commit's state
        "kept_later": done == "older",
    }


def _publish_over_http(url: str, taken: Callable[[], Snapshot], token: str | None) -> dict[str, Any]:
    import json
    import os

    import httpx

    from adr_memory.errors import AdrError

    token = token or os.environ.get(TOKEN_ENV, "")
    if not token:
        raise UsageError(
            "a served hub takes a publish only with a token",
            hint=f"set {TOKEN_ENV} (adr hub token add NAME --publish REPO)",
        )
    shown = redact_url(url)
    host = (httpx.URL(url).host or "").lower()
    if httpx.URL(url).scheme.lower() == "http" and host not in ("localhost", "127.0.0.1", "::1"):
        raise UsageError(
            f"a publish token goes only over https (or to this machine), not to {shown}",
            hint="serve the hub behind a reverse proxy that terminates TLS (docs/hub.md), and publish to https://...",
        )
    snap = taken()
    try:
        answer = httpx.post(
            url.rstrip("/") + "/api/publish",
            content=json.dumps(snap.to_json()).encode(),
            headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
            timeout=120.0,
        )
    except httpx.HTTPError as exc:
        raise AdrError(
            f"cannot reach the hub at {shown}: {_unreached(exc)}",
            hint="check the URL and the server; nothing was published",
        ) from None
    try:
        said = answer.json()
    except ValueError:
        said = {}
    if answer.status_code != 200 or not isinstance(said, dict) or "repository" not in said:
        error = said.get("error") if isinstance(said, dict) else None
        raise AdrError(
            f"the hub at {shown} refused the publish ({answer.status_code}): {error or answer.reason_phrase}",
            hint=(said.get("hint") if isinstance(said, dict) else None) or "nothing was published",
        )
    return said


def search(
    url: Where, query: str, *, limit: int = 5, repository: str | None = None, status: str = "", tag: str = ""
) -> dict[str, Any]:
    """Decisions across every repository by words and meaning; says so when nothing matches well."""
    from adr_memory.commands import across

    hub = open_hub(url)
    if repository is not None:
        held(hub, repository)
    known_status(status)
    found = across.search(hub, query, limit=limit, repository=repository, status=status, tag=tag, cache=model_cache())
    if tag and not found.get("results"):
        tagged(hub, tag, repository)  # nothing found: a tag no decision carries is said, not "no strong match"
    return found


def tagged(hub: Any, tag: str, repository: str | None = None) -> None:
    """A tag some decision carries (here, or in `repository`), or a usage error naming the nearest."""
    import difflib

    tags = {str(t) for r in hub.records(repository) for t in (r.get("tags") or [])}
    if tag in tags:
        return
    near = difflib.get_close_matches(tag, sorted(tags), n=3, cutoff=0.4) or sorted(tags)[:3]
    raise UsageError(
        f"no decision tagged {tag[:40]!r}" + (f" in {repository}" if repository else ""),
        hint=("the nearest: " + ", ".join(near)) if near else "no decision here carries a tag",
    )


def held(hub: Any, repository: str) -> None:
    """A repository the hub holds, or a usage error naming the nearest it does: never a search
    of nothing that reads as "no strong match"."""
    import difflib

    if hub.holds(repository):
        return
    names = [r["name"] for r in hub.repositories()]
    near = difflib.get_close_matches(repository, names, n=3, cutoff=0.4) or sorted(names)[:3]
    raise UsageError(
        f"no repository {repository!r} in the hub",
        hint=("the nearest: " + ", ".join(near)) if near else "the hub holds no repository yet: adr hub publish",
    )


def listing(url: Where, repository: str | None = None, status: str = "", tag: str = "") -> list[dict[str, Any]]:
    """Every repository's decisions (with their repository); a repository the hub does not hold
    named with the nearest it does, never an empty list that reads as an empty hub."""
    hub = open_hub(url)
    if repository is not None:
        held(hub, repository)
    found = reading.listed(hub, repository, known_status(status), tag)
    if tag and not found:
        tagged(hub, tag, repository)
    return found


def known_status(status: str) -> str:
    """A status to filter by: one a record can have, or none (a typo never reads as nothing found)."""
    from adr_memory.records import STATUSES

    if status and status not in STATUSES:
        raise UsageError(f"no status {status[:40]!r}", hint="one of " + ", ".join(STATUSES))
    return status


def stale(url: Where) -> dict[str, Any]:
    """Decisions across the organisation whose governed code changed since they were last reviewed."""
    return {"decisions": reading.stale(open_hub(url))}


def conflicts(url: Where) -> dict[str, Any]:
    """Organisation keys (`org.`) held two ways by different repositories; a recorded exception is none."""
    return {"conflicts": reading.conflicts(open_hub(url))}


def excepted(url: Where) -> dict[str, Any]:
    """The exceptions repositories recorded to organisation decisions, by decision."""
    return {"exceptions": reading.excepted(open_hub(url))}


def shown(url: Where, repository: str, ident: str) -> dict[str, Any]:
    """One repository's decision as published: its sections, state and versions (a repository
    the hub does not hold named with the nearest it does)."""
    hub = open_hub(url)
    held(hub, repository)
    return reading.shown(hub, repository, ident)


def version_diff(url: Where, repository: str, ident: str, old: str = "", new: str = "") -> dict[str, Any]:
    """What changed in a published decision between two of its versions, as `adr diff` says it
    (`new`: the latest by default; `old`: the version before `new`), from the texts the
    repository's publishes sent. A version is named by its id or its commit (a prefix will do)."""
    hub = open_hub(url)
    held(hub, repository)
    doc = reading.shown(hub, repository, ident)
    listed = [v for v in doc.get("versions") or [] if isinstance(v, dict) and not v.get("draft")]
    if not listed:
        raise UsageError(
            f"{repository} {doc['id']} has no published versions", hint="its repository's history is empty"
        )
    to_v = _version(doc, listed, new) if new else listed[0]
    at = listed.index(to_v)
    from_v = _version(doc, listed, old) if old else listed[min(at + 1, len(listed) - 1)]
    a, b = (_text(hub, doc, repository, v) for v in (from_v, to_v))
    text = views.render_diff(a, b, from_v["version_id"], to_v["version_id"])
    return {
        "repository": repository,
        "id": doc["id"],
        "from": from_v["version_id"],
        "to": to_v["version_id"],
        "diff": text,
    }


def _version(doc: dict[str, Any], listed: list[dict[str, Any]], ref: str) -> dict[str, Any]:
    ref = ref.strip()
    found = [
        v
        for v in listed
        if v.get("version_id") == ref or (len(ref) >= 4 and str(v.get("commit") or "").startswith(ref.lower()))
    ]
    if not found:
        found = [v for v in listed if len(ref) >= 4 and str(v.get("version_id") or "").startswith(ref)]
    if len(found) != 1:
        named = ", ".join(str(v.get("version_id")) for v in listed[:5])
        why = "names more than one version" if found else "is no version"
        raise UsageError(f"{ref!r} {why} of {doc['id']}", hint=f"its versions, newest first: {named}")
    return found[0]


def _text(hub: Any, doc: dict[str, Any], repository: str, version: dict[str, Any]) -> Any:
    from adr_memory.records import catalog

    text = hub.version_text(repository, doc["id"], str(version.get("version_id")))
    if text is None:
        raise UsageError(
            f"the hub holds no text of {doc['id']}'s version {version.get('version_id')}",
            hint=f"publish {repository} again: adr hub publish now sends each version's text",
        )
    return catalog.parse_bytes(str(version.get("path") or doc.get("path") or "record.md"), text.encode())


def timeline(url: Where, repository: str | None = None, since: str = "") -> dict[str, Any]:
    """Every repository's decision events, newest first (a repository the hub does not hold
    named with the nearest it does)."""
    hub = open_hub(url)
    if repository is not None:
        held(hub, repository)
    return {"events": reading.timeline(hub, repository, since)}


# ---------------------------------------------------------------------------- held by whoever holds the store


def token_add(url: Where, name: str, read: bool = False, publish: list[str] | None = None) -> dict[str, Any]:
    """Make a token (`read`, or `publish` for the repositories named): shown once, kept hashed."""
    scopes = tokens.scopes(read, publish or [])
    made = tokens.new()
    open_hub(url).add_token(tokens.checked_name(name), tokens.digest(made), scopes)
    return {"name": name, "scopes": scopes, "token": made}


def token_list(url: Where) -> dict[str, Any]:
    """The hub's tokens: names, scopes, when made and last used, whether revoked; never a token."""
    return {"tokens": open_hub(url).tokens()}


def token_revoke(url: Where, name: str) -> dict[str, Any]:
    """Refuse the token `name` from now on (`already`: it was refused before)."""
    hub = open_hub(url)
    already = any(t["name"] == name and t.get("revoked") for t in hub.tokens())
    if not hub.revoke(name):
        raise UsageError(f"no token {name!r} in the hub", hint="adr hub token list names them")
    return {"name": name, "revoked": True, "already": already}


def remove(url: Where, repository: str) -> dict[str, Any]:
    """Take a repository's decisions out of the hub (archived, or renamed without `rename`)."""
    hub = open_hub(url)
    held(hub, repository)
    hub.remove(repository)
    return {"removed": repository}


def rename(url: Where, old: str, new: str) -> dict[str, Any]:
    """Keep a repository's decisions under its new name (the next publish comes from there)."""
    hub = open_hub(url)
    held(hub, old)
    if new == old:
        raise UsageError(f"{old!r} is its name already", hint="name the repository's new name")
    named(new)
    hub.rename(old, new)
    return {"renamed": old, "to": new}


# ---------------------------------------------------------------------------- what is published


def snapshot(ws: Workspace, name: str | None = None) -> Snapshot:
    """This repository's catalog at HEAD as the hub keeps it. The search index is refreshed
    first (here, in this repository's CI): only sections whose text changed are embedded."""
    from adr_memory.search import search as search_mod

    # the name first: a name no hub takes is said before anything is embedded
    repository = (
        named(name) if name else named(sources.repository_name(ws), hint="name it as the hub should: --name NAME")
    )
    records = list(ws.catalog)
    extras = views.with_standing(ws, records, views.extras(ws, records))  # each record's standing, published
    verdicts = staleness.by_path(ws)
    histories = _versions(ws, records)
    web = web_url(ws.repo.remote_url("origin") if (ws.root / ".git").exists() else None)
    head = ws.repo.head()
    out = []
    for rec in records:
        doc = show.record_detail_json(rec, extras.get(rec.path))
        doc["versions"] = histories.get(rec.path, [])  # digest, commit, author, date; status changes with who and why
        doc["link"] = f"{web}/blob/{head}/{quote(rec.path)}" if web and head else None  # its file, at this commit
        verdict = verdicts.get(rec.path)
        doc["state"] = verdict.state if verdict else None
        doc["reason"] = verdict.reason if verdict else None
        key, cardinality, value = _key(rec)
        doc |= {"key": key, "cardinality": cardinality, "value": value, "exceptions": exceptions(ws, rec)}
        out.append(credentials.scrub_data(doc))
    ctx = search_mod.prepare(ws, mode="hybrid")
    ids = {rec.path: rec.id for rec in records}
    header = ctx.index.meta.get("vectors") or {}
    rows = [i for i, c in enumerate(header.get("chunks") or []) if c["record"] in ids]
    chunks = [
        {
            "id": ids[c["record"]],
            "section": c["section"],
            "text": credentials.scrub(c["text"]),
            "offset": c.get("offset", 0),
        }
        for c in (header["chunks"][i] for i in rows)
    ]
    vectors = ctx.index.vectors[rows] if ctx.index.vectors is not None and rows else None
    committed = iso_moment(ws.repo.committed_at(head)) if head else None  # a rebased commit is new
    return Snapshot(
        repository,
        head,
        header.get("contract"),
        out,
        chunks,
        vectors,
        committed,
        following(ws),
    )


def following(ws: Workspace) -> list[dict[str, Any]]:
    """What this repository sees of its sources' decisions, as the hub names them: in force here
    (fresh, or stale where the code it governs here changed since this repository last affirmed
    it; `follows` when it governs no code), or its recorded exception (naming the local record)."""
    if not ws.config.sources:
        return []
    specs = {spec.name: spec for spec in ws.config.sources}
    held = standing.of(ws.decisions)
    verdicts = {v.id: v for v in sources.verdicts(ws)}
    out = []
    for rec in ws.decisions:
        spec = specs.get(rec.source)
        if spec is None:
            continue
        here, verdict = held[rec.path], verdicts.get(rec.id)
        state = verdict.state if verdict else ("follows" if here.in_force else here.state)
        out.append(
            {
                "repository": spec.hub_name,
                "id": rec.id.split(":", 1)[-1],
                "state": state,
                "reason": verdict.reason if verdict else here.reason,
                "exception": list(here.retired_by) if here.state == standing.EXCEPTION else [],
            }
        )
    return out


def _versions(ws: Workspace, records: list[Any]) -> dict[str, list[dict[str, Any]]]:
    """Each record's versions as `adr log --json` gives them, from one walk of the history;
    none when git cannot say (a repository with no commits)."""
    from adr_memory.errors import AdrError
    from adr_memory.history import versions

    try:
        history = versions.walk(ws)
        out = {}
        for rec in records:
            listed = versions.versions(ws, rec, history)
            out[rec.path] = log.log_json(rec, listed)["versions"]
            for shown_v, v in zip(out[rec.path], listed, strict=True):  # its text, for the hub's diffs
                shown_v["text"] = None if v.draft else _version_text(ws, v)
        return out
    except AdrError:
        return {}


def _version_text(ws: Workspace, version: Any) -> str | None:
    """A committed version's text as its file held it, a credential never sent."""
    from adr_memory.errors import TooLarge
    from adr_memory.records import catalog

    try:
        data = ws.repo.read(version.commit, version.path, limit=catalog.MAX_BYTES)
    except TooLarge:
        return None
    return None if data is None else credentials.scrub(data.decode("utf-8", "replace"))


def _key(rec: Any) -> tuple[str | None, str | None, str | None]:
    key = rec.meta.get("conflict-key")
    if not isinstance(key, str) or not key.strip():
        return None, None, None
    cardinality = str(rec.meta.get("cardinality") or "single").strip().lower()
    return key.strip(), cardinality, str(rec.meta.get("value") or "").strip()
