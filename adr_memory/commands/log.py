"""`adr log [ID]`: a decision's versions, newest first, with the status changes and reviews each
went through; without an id, every decision event of the repository; and a decision's story (its
versions and the decisions recorded just before and after it), asked by id or by a question."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from adr_memory import history as history_pkg
from adr_memory.errors import UsageError
from adr_memory.history import Workspace, versions
from adr_memory.records import MAX_TITLE, Record, credentials, iso_moment

MAX_LISTED = 20  # versions a story lists (the total is said)


@dataclass(frozen=True)
class Logged:
    record: Record
    versions: list[Any]
    outside: str | None = None  # the submodule that holds the record, when one does

    def to_json(self) -> dict[str, Any]:
        return log_json(self.record, self.versions)


@dataclass(frozen=True)
class Timeline:
    events: list[Any]

    def to_json(self) -> dict[str, Any]:
        return {"events": [event_json(e) for e in self.events]}


def run(ws: Workspace, id: str) -> Logged:
    """The versions of one decision, newest first."""
    from adr_memory.history import sources

    theirs = sources.find(ws, id) if ws.config.sources else None
    if theirs is not None:  # a source's decision: its versions are its own repository's git
        there, own = sources.history_of(ws, theirs)
        return Logged(theirs, versions.versions(there, own))
    rec = ws.catalog.get(id)
    listed = versions.versions(ws, rec)
    head = ws.repo.head()
    outside = (
        ws.repo.submodule_above(ws.repo.commit(head).tree, rec.path) if head and all(v.draft for v in listed) else None
    )
    return Logged(rec, listed, outside)


def timeline(ws: Workspace, since: str | None = None) -> Timeline:
    """Every decision event of the repository, newest first (`since`: on or after that day)."""
    events = history_pkg.events(ws, versions.walk(ws))
    if since:
        events = [e for e in events if (iso_moment(e.date) or "")[:10] >= since]
    return Timeline(events)


def event_json(e: Any) -> dict[str, Any]:
    return {
        "commit": e.commit,
        "date": iso_moment(e.date),
        "author": e.author,
        "written_in": e.written_in,
        "id": e.id,
        "title": e.title,
        "kind": e.kind,
        "detail": e.detail,
    }


def log_json(rec: Record, versions: Sequence[Any]) -> dict[str, Any]:
    return {"id": rec.id, "versions": [version_json(v) for v in versions]}


def version_json(v: Any) -> dict[str, Any]:
    """A version as `adr log --json` gives it: who wrote it, in which commit (and along which
    merged branch), its status changes and reviews with who and why."""
    return {
        "version_id": v.version_id or None,  # null: worked out from a version this clone lacks
        "digest": None if v.unknown else v.digest,
        "commit": v.commit,
        "author": v.author,
        "date": iso_moment(v.date),
        "message": v.message,
        "status": v.status,
        "draft": v.draft,
        "path": v.path,
        "written_in": v.written_in,  # a merged branch's commit that wrote it (`commit`: the merge)
        "reviews": [
            {
                "commit": r.commit,
                "date": iso_moment(r.date),
                "author": r.author,
                "note": r.note or None,
                "written_in": r.written_in,
            }
            for r in v.reviews
        ],
        "transitions": [
            {
                "commit": t.commit,
                "date": iso_moment(t.date),
                "from": t.before,
                "to": t.after,
                "author": t.author or None,
                "reason": t.reason or None,
                "written_in": t.written_in,
            }
            for t in v.transitions
        ],
    }


@dataclass(frozen=True)
class Story:
    record: Record
    versions: list[Any]  # newest first
    before: list[Record]  # recorded just before it, oldest first
    after: list[Record]  # recorded just after it

    def to_json(self) -> dict[str, Any]:
        rec = self.record
        return {
            "id": rec.id,
            "title": credentials.scrub(rec.title),
            # As `adr log --json` gives them: who made each change, and each status change too.
            "versions": [version_json(v) for v in self.versions[:MAX_LISTED]],
            "versions_total": len(self.versions),
            "before": [_brief(r) for r in self.before],
            "after": [_brief(r) for r in self.after],
            "supersedes": list(rec.supersedes),
            "superseded_by": list(rec.superseded_by),
        }


def story(ws: Workspace, id_or_query: str) -> Story:
    """How a decision changed (its versions) and the decisions recorded just before and after
    it. Takes an id, or a question that search answers with confidence."""
    rec = ws.catalog.find(id_or_query)
    if rec is None and _names_an_id(id_or_query):  # an id that names none: never another's history
        ws.catalog.get(id_or_query)
    if rec is None:  # a question: only a strong answer names the decision, never a weak guess
        from adr_memory.search import search

        answer = search.search(ws, id_or_query, limit=1)
        top = answer["results"][0] if answer["results"] and answer["confidence"] == "high" else None
        rec = ws.catalog.find(top["id"]) if top else None
    if rec is None:
        raise UsageError(
            f"no decision matches {id_or_query!r} clearly enough to show its history",
            hint="`search` finds decisions by words and meaning; then ask for one by its id",
        )
    history = versions.walk(ws)
    dated = sorted(ws.catalog, key=lambda r: (history_pkg.first_recorded(r, history) or "", r.id))
    at = dated.index(rec)
    return Story(rec, versions.versions(ws, rec, history), dated[max(0, at - 2) : at], dated[at + 1 : at + 3])


def _names_an_id(text: str) -> bool:
    """Whether `text` is written as an id (`42`, `ADR-0042`, `adr 7`), not a question."""
    import re

    return re.fullmatch(r"(?i)\s*(?:adr[-\s]?)?#?\d+\s*", text) is not None


def _brief(rec: Record) -> dict[str, Any]:
    return {"id": rec.id, "title": credentials.scrub(rec.title)[:MAX_TITLE], "status": rec.status}
