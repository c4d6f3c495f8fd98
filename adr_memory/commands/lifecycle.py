"""The lifecycle commands: accept, reject, deprecate, supersede, link, affirm. Each changes only
the keys it owns, byte for byte, and answers with what it did."""

from __future__ import annotations

from typing import Any

from adr_memory.history import Workspace, sources
from adr_memory.policy import check, lifecycle
from adr_memory.records import standing

VERBS = {"accept": "accepted", "reject": "rejected", "deprecate": "deprecated"}


def set_status(ws: Workspace, id: str, status: str, reason: str = "", by: list[str] | None = None) -> dict[str, Any]:
    """Mark a decision accepted, rejected or deprecated (only its status changes; `by`: who made
    the decision, added to the folder's own field, MADR's `decision-makers`)."""
    held = ws.catalog.find(id)  # a source's decision is refused below, by name
    before, stated = (_makers(held) if by and held else []), held is None or held.status_stated
    rec, was = lifecycle.set_status(ws, id, status, reason=reason or None, by=by or ())
    retired = [r.id for r in ws.catalog if rec.id in r.superseded_by and r.status == "superseded"]
    return {
        "id": rec.id,
        "path": rec.path,
        "status": rec.status,
        # A status read from the folder's convention and now written down is a change too.
        "changed": not (was == rec.status and stated and not reason and _makers(rec) == before),
        "decision_makers": _makers(rec),
        "superseded": retired if rec.status == "accepted" else [],
        # An accepted decision that says nothing yet: said now, as `check` will say it.
        "warnings": [f"{f.message} (line {f.line})" for f in check.placeholders(rec)]
        if rec.status == "accepted"
        else [],
    }


def _makers(rec: Any) -> list[str]:
    for key in lifecycle.MAKERS_KEYS:
        if (held := rec.meta.get(key)) is not None:
            return (
                [str(n).strip() for n in held]
                if isinstance(held, list)
                else [n.strip() for n in str(held).split(",") if n.strip()]
            )
    return []


def accept(ws: Workspace, id: str, reason: str = "", by: list[str] | None = None) -> dict[str, Any]:
    """Mark a decision accepted (only its status changes; `by`: who decided, as MADR records it)."""
    return set_status(ws, id, "accepted", reason, by)


def reject(ws: Workspace, id: str, reason: str = "") -> dict[str, Any]:
    """Mark a decision rejected (only its status changes)."""
    return set_status(ws, id, "rejected", reason)


def deprecate(ws: Workspace, id: str, reason: str = "") -> dict[str, Any]:
    """Mark a decision deprecated (only its status changes)."""
    return set_status(ws, id, "deprecated", reason)


def supersede(ws: Workspace, old: str, by: str, reason: str = "") -> dict[str, Any]:
    """Record that `by` supersedes `old`: on both records when `by` is in force; while `by` is
    only proposed, on `by` alone (`old` stays in force until `by` is accepted)."""
    old_rec, new_rec = lifecycle.supersede(ws, old, by, reason=reason or None)
    held = standing.of(ws.catalog)[old_rec.path]
    return {"superseded": old_rec.id, "by": new_rec.id, "completed": not held.in_force, "standing": held.to_json()}


def link(ws: Workspace, source: str, rel: str, target: str, reverse: str = "") -> dict[str, Any]:
    """Link two decisions as adr-tools does (`link 5 Amends 2 "Amended by"`); any text is a relation."""
    src, tgt = lifecycle.link(ws, source, rel, target, reverse or None)
    return {"source": src.id, "rel": rel.strip().lower(), "target": tgt.id, "reverse": reverse.strip().lower() or None}


def affirm(ws: Workspace, id: str, note: str = "") -> dict[str, Any]:
    """Record that a decision still holds; committing it moves its anchor. A source's decision
    (`platform:12`) is reviewed here, against this repository's code: the review is kept in
    adr-sources.lock, and the source is left as it is."""
    if ws.config.sources and sources.find(ws, id) is not None:
        rec = sources.affirm(ws, id, note)
        return {"affirmed": rec.id, "path": sources.LOCK, "commit_to_move_anchor": True}
    rec = lifecycle.affirm(ws, id, note=note or None)
    return {"affirmed": rec.id, "path": rec.path, "commit_to_move_anchor": True}
