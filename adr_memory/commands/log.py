"""`adr log [ID]`: a decision's versions, newest first, with the status changes and reviews each
went through; without an id, every decision event of the repository."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from adr_memory import history as history_pkg
from adr_memory.history import Workspace, versions
from adr_memory.records import Record, iso_moment


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
        "id": e.id,
        "title": e.title,
        "kind": e.kind,
        "detail": e.detail,
    }


def log_json(rec: Record, versions: Sequence[Any]) -> dict[str, Any]:
    return {
        "id": rec.id,
        "versions": [
            {
                "version_id": v.version_id,
                "digest": v.digest,
                "commit": v.commit,
                "author": v.author,
                "date": iso_moment(v.date),
                "message": v.message,
                "status": v.status,
                "draft": v.draft,
                "path": v.path,
                "written_in": v.written_in,  # a merged branch's commit that wrote it (`commit`: the merge)
                "reviews": [
                    {"commit": r.commit, "date": iso_moment(r.date), "author": r.author, "note": r.note or None}
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
                    }
                    for t in v.transitions
                ],
            }
            for v in versions
        ],
    }
