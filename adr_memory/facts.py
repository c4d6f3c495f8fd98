"""What git says about each record, gathered once for every surface that shows records.

`adr list`/`show`, `adr export` and the MCP `get` tool all read a record through `gather`, so
the version id, dates and staleness mean the same everywhere, and every record they show has
already been through credential redaction: no surface can forget it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from adr_memory import credentials, staleness, versions
from adr_memory.errors import AdrError
from adr_memory.record import Record
from adr_memory.workspace import Workspace


@dataclass(frozen=True)
class Facts:
    record: Record  # redacted: safe to show
    version_id: str | None
    first_recorded: str | None
    versions: int  # committed versions (drafts not counted)
    verdict: staleness.Verdict | None

    @property
    def stale(self) -> bool | None:
        """True, False, or None when git cannot tell (no history, a shallow or damaged clone)."""
        if self.verdict is None or self.verdict.state == "unknown":
            return None
        return self.verdict.stale

    def staleness_json(self) -> dict[str, Any] | None:
        v = self.verdict
        return {"state": v.state, "reason": v.reason, "changed": list(v.changed[:10])} if v else None


def gather(ws: Workspace, records: Sequence[Record]) -> list[Facts]:
    """Facts per record, in the order given. When git cannot answer (no commits, a damaged clone) the record is
    still shown, with the derived facts left empty rather than guessed."""
    history: versions.History | None = None
    verdicts: dict[str, staleness.Verdict] = {}
    if records:
        try:
            history = versions.walk(ws)
            verdicts = {v.path: v for v in staleness.report(ws, history=history)}
        except AdrError as exc:  # the caller says why the facts are empty
            history, ws.unread = None, exc
    out: list[Facts] = []
    for raw in records:
        listed = versions.versions(ws, raw, history) if history is not None else []
        out.append(Facts(
            record=credentials.redacted(raw),
            version_id=listed[0].version_id if listed else None,
            first_recorded=versions.first_recorded(raw, history) if history is not None else raw.date,
            versions=sum(not v.draft for v in listed),
            verdict=verdicts.get(raw.path)))
    return out
