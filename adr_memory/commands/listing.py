"""`adr list`: the decisions, each with its version and staleness (README: JSON output)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from adr_memory.commands import views
from adr_memory.errors import UsageError
from adr_memory.history import Workspace, folder_at
from adr_memory.records import Record, iso_date, redacted


@dataclass(frozen=True)
class Listed:
    records: list[Record]
    extras: Mapping[str, Mapping[str, Any]]
    at: str | None = None

    def to_json(self) -> list[dict[str, Any]]:
        return [record_json(r, self.extras.get(r.path)) for r in self.records]


def run(
    ws: Workspace, status: Sequence[str] = (), tag: Sequence[str] = (), at: str | None = None, source: str = ""
) -> Listed:
    """The decisions (with `status`, only those; with `tag`, those tagged so; with `at`, as they
    were at that commit, without versions or staleness, which describe HEAD). `source`: "all"
    adds every source's decisions, a source's name lists that source's alone."""
    wanted = {s.strip().lower() for item in status for s in item.split(",") if s.strip()}
    catalog = list(folder_at(ws, at).catalog if at is not None else ws.catalog)
    if source:
        catalog = _with_sources(ws, catalog, source)
    records = [
        r
        for r in catalog
        if (not wanted or "all" in wanted or r.status in wanted) and (not tag or set(tag) & set(r.tags))
    ]
    extras = views.extras(ws, [r for r in records if not r.source], at=at)
    held = views.with_standing(ws, records, extras, everything=catalog if at else None, changed=at is None)
    return Listed(records, held, at)


def _with_sources(ws: Workspace, local: list[Record], source: str) -> list[Record]:
    names = {f.spec.name for f in ws.sources}
    if source != "all" and source not in names:
        raise UsageError(
            f"no source {source!r}", hint="known: " + (", ".join(sorted(names)) or "none: adr sources add")
        )
    theirs = [r for f in ws.sources if source in ("all", f.spec.name) for r in f.records]
    return (local if source == "all" else []) + theirs


def record_json(rec: Record, extra: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The `adr list --json` object for one record."""
    rec = redacted(rec)
    data: dict[str, Any] = {
        "id": rec.id,
        "number": rec.number,
        "title": rec.title,
        "status": rec.status,
        "status_text": rec.status_text,
        "status_stated": rec.status_stated,
        "path": rec.path,
        "date": iso_date(rec.date),  # ISO 8601, as every machine-readable date; None when unreadable
        "date_text": rec.date,  # as the record writes it
        "tags": list(rec.tags),
        "governs": list(rec.governs),
        "supersedes": list(rec.supersedes),
        "superseded_by": list(rec.superseded_by),
        "version_id": None,
        "stale": None,
        "source": rec.source or None,
    }
    data.update(extra or {})
    return data
