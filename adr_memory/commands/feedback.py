"""`adr feedback`: how a decision served (local only: it never changes a verdict CI reads)."""

from __future__ import annotations

from typing import Any

from adr_memory.errors import UsageError
from adr_memory.history import Workspace
from adr_memory.history import feedback as kept

VERDICTS = ("used", "not_applicable", "wrong")


def run(ws: Workspace, id: str, verdict: str, note: str = "", via: str = "cli") -> dict[str, Any]:
    """Say how a decision served: `used` (it helped), `not_applicable` (it did not apply) or
    `wrong` (it misled: say why in `note`; the decision shows as disputed)."""
    if verdict not in VERDICTS:
        raise UsageError(f"unknown verdict {verdict!r}", hint="used, not_applicable or wrong")
    rec = ws.catalog.get(id)
    kept.record(ws.cache_path, rec.id, verdict, note, source=via, head=ws.repo.head())
    return {"id": rec.id, "verdict": verdict, "stored": "local cache"}
