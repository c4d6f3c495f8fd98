"""`adr show ID`: one decision, now or as it was, with its sections, rules and links both ways."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from adr_memory.commands import views
from adr_memory.commands.listing import record_json
from adr_memory.history import Workspace
from adr_memory.records import Record, redacted


@dataclass(frozen=True)
class Shown:
    record: Record
    extra: Mapping[str, Any]

    def to_json(self) -> dict[str, Any]:
        return record_detail_json(self.record, self.extra)


def run(ws: Workspace, id: str, version: str | None = None, at: str | None = None) -> Shown:
    """One decision by its id (7, 0007, ADR-7, ADR-0007); `version` an earlier version (vN, a
    version id or a commit), `at` the decision as it was at a commit."""
    rec, extra = views.shown(ws, id, version=version, at=at)
    return Shown(rec, extra)


def record_detail_json(rec: Record, extra: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The `adr show --json` object: the list object plus sections, rules and links."""
    rec = redacted(rec)
    data = record_json(rec, extra)
    data["sections"] = [{"heading": s.heading, "text": s.text} for s in rec.parts]
    data["rules"] = list(extra.get("rules", rec.rules) if extra else rec.rules)
    data["links"] = [{"rel": link.rel, "id": link.target} for link in rec.links]
    data["backlinks"] = list(extra.get("backlinks", [])) if extra else []
    data["heading"] = rec.heading
    data["format"] = rec.format
    return data
