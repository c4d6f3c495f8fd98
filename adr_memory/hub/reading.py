"""What readers ask of the hub besides search (search/across.py ranks its passages as the local
search does): the decisions, the stale ones, the timeline and the organisation's conflicts. The
answers keep the local commands' shapes, plus `repository`."""

from __future__ import annotations

from typing import Any

from adr_memory.hub.store import Store

ORG_KEY = "org."  # a conflict key the organisation shares: `conflict-key: org.primary_database`


def listed(store: Store, repository: str | None = None, status: str = "", tag: str = "") -> list[dict[str, Any]]:
    return [
        d
        for d in store.records(repository)
        if (not status or d.get("status") == status) and (not tag or tag in (d.get("tags") or []))
    ]


def stale(store: Store) -> list[dict[str, Any]]:
    """Every repository's decisions whose governed code changed since they were last reviewed."""
    return [
        {k: d.get(k) for k in ("repository", "id", "title", "path", "state", "reason")}
        for d in store.records()
        if d.get("state") in ("stale", "at-risk")
    ]


def excepted(store: Store) -> list[dict[str, Any]]:
    """Each organisation decision a repository recorded an exception to (a local record in force
    that supersedes it: one only proposed is none yet), by the decision: which repository's
    which record, and its title."""
    docs = store.records()
    rows = [
        {
            "repository": e["repository"],
            "id": e["id"],
            "by": d["repository"],
            "record": d["id"],
            "title": d.get("title"),
        }
        for d in docs
        if _in_force(d)
        for e in d.get("exceptions") or ()
        if isinstance(e, dict) and isinstance(e.get("repository"), str) and isinstance(e.get("id"), str)
    ]
    held = {d["repository"] for d in docs}  # an organisation repository removed from the hub: its page is gone
    return sorted(
        (r for r in rows if r["repository"] in held), key=lambda r: (r["repository"], r["id"], r["by"], r["record"])
    )


def _in_force(doc: dict[str, Any]) -> bool:
    """As the repository's own standing said when it published (its status, where it sent none)."""
    held = doc.get("standing")
    return bool(held.get("in_force")) if isinstance(held, dict) else doc.get("status") == "accepted"


def conflicts(store: Store) -> list[dict[str, Any]]:
    """In-force decisions of different repositories holding one single-valued key the
    organisation shares (`org.` keys) with different values."""
    holders: dict[str, list[dict[str, Any]]] = {}
    for d in store.records():
        key = d.get("key") or ""
        if key.startswith(ORG_KEY) and d.get("status") == "accepted" and (d.get("cardinality") or "single") == "single":
            holders.setdefault(key, []).append(d)
    out = []
    for key, docs in sorted(holders.items()):
        # a repository's recorded exception to another's decision (a local record superseding
        # the source's) is an exception, not a disagreement between teams
        held = {(d["repository"], d["id"]) for d in docs}
        docs = [d for d in docs if not any((e["repository"], e["id"]) in held for e in d.get("exceptions") or ())]
        repos = {d["repository"] for d in docs}
        values = {(d.get("value") or "").lower() for d in docs}
        if len(repos) > 1 and len(values) > 1:
            out.append(
                {
                    "key": key,
                    "holders": [{"repository": d["repository"], "id": d["id"], "value": d.get("value")} for d in docs],
                    "message": f"{key} is decided differently: "
                    + "; ".join(f"{d['repository']} {d['id']} says {d.get('value')}" for d in docs),
                }
            )
    return out


def shown(store: Store, repository: str, ident: str) -> dict[str, Any]:
    """One repository's decision as published (its `show` JSON, versions and state)."""
    from adr_memory.errors import UsageError
    from adr_memory.records import normalise_id

    key = (repository, normalise_id(ident))
    found = store.docs([key]).get(key)
    if found is None:
        near = [d["id"] for d in store.records(repository)][:5]
        raise UsageError(
            f"no decision {ident!r} of {repository} in the hub",
            hint=f"its decisions: {', '.join(near)}" if near else "`adr hub list` names the repositories",
        )
    # Across the organisation: which repositories follow it (fresh, or stale where its governed
    # code changed there since they last affirmed it), and which recorded an exception.
    return {**found, "followed_by": store.followers(repository, key[1])}


def timeline(store: Store, repository: str | None = None, since: str = "") -> list[dict[str, Any]]:
    """Every repository's decision events, newest first: each version and each status change,
    with who and why, as the repositories' own `adr log` gives them."""
    import datetime

    try:
        since = datetime.date.fromisoformat(since).isoformat() if since else ""
    except ValueError:
        from adr_memory.errors import UsageError

        raise UsageError(f"since {since!r} is not a date", hint="write it as YYYY-MM-DD, e.g. 2026-01-31") from None
    events = [e for doc in store.records(repository) for e in _events(doc)]
    kept = [e for e in events if (e["date"] or "") >= since]
    return sorted(kept, key=lambda e: e["date"] or "", reverse=True)


def _events(doc: dict[str, Any]) -> list[dict[str, Any]]:
    """One record's events. A status changes either with new content (a version whose status
    differs from the one before) or alone (a transition inside a version)."""

    def event(kind: str, at: dict[str, Any], detail: str | None) -> dict[str, Any]:
        who = at.get("author")
        return {
            "date": at.get("date"),
            "repository": doc["repository"],
            "id": doc["id"],
            "kind": kind,
            "author": who,
            "detail": detail,
        }

    out = []
    before = None
    for v in reversed(doc.get("versions") or []):  # oldest first
        if v.get("commit"):
            out.append(event("version", v, v.get("message")))
            if before is not None and v.get("status") != before:
                out.append(event("status", v, f"{before} -> {v.get('status')}"))
        for t in v.get("transitions") or []:
            out.append(
                event(
                    "status", t, f"{t.get('from')} -> {t.get('to')}" + (f": {t['reason']}" if t.get("reason") else "")
                )
            )
        before = (v.get("transitions") or [{}])[-1].get("to") or v.get("status")
    return out
