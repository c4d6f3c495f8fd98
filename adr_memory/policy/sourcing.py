"""The checks that read other repositories: a source that cannot be read, single-valued keys held
against a source's decision, and what a branch that moves a pin brings (history/sources.py)."""

from __future__ import annotations

from typing import Any

from adr_memory.policy import conflicts
from adr_memory.records import ERROR, UNREAD_KINDS, WARNING, Finding


def across(ws: Any) -> list[Finding]:
    """What only this repository and its sources together show: a source that cannot be read
    (an error: no verdict is given without it), and a single-valued key a local decision holds
    against a source's (a conflict, unless the local one supersedes it: this repository's
    recorded exception)."""
    out = unreadable(ws) + unread_records(ws)
    for finding in conflicts.findings(ws.decisions):
        if ":" in finding.id or any(":" in part for part in finding.message.split()):
            out.append(finding)
    return out


def unreadable(ws: Any) -> list[Finding]:
    """A source that cannot be read: an error in every mode of `check` (no verdict without it)."""
    return [
        Finding(_lock(), 1, "source", ERROR, f.spec.name, f.problem or "", f"adr sources update {f.spec.name}")
        for f in ws.sources
        if f.problem
    ]


# What keeps a source's file from being read as a decision: named, so a record the organisation
# meant to bind is never missing without a word (its repository's own `check` says more).


def unread_records(ws: Any) -> list[Finding]:
    """A source's file that could not be read as a decision: a warning each."""
    return [
        Finding(
            _lock(),
            1,
            p.kind,
            WARNING,
            rec.id,
            f"source {folder.spec.name}: {rec.path}: {p.message}",
            f"its repository fixes it; until then {rec.id} binds nothing here",
        )
        for folder in ws.sources
        for rec in folder.unread
        for p in rec.problems
        if p.kind in UNREAD_KINDS
    ]


def moved_pins(ws: Any, base: str) -> list[Finding]:
    """A branch that moves a source's pin says what it brings (a warning each: what the review
    shows in full), so a new organisation decision is never adopted unseen."""
    from adr_memory.history import sources

    out = []
    for m in sources.moved(ws, base):
        parts = [
            f"{len(xs)} {word}"
            for xs, word in ((m.added, "added"), (m.changed, "changed"), (m.retired, "retired"))
            if xs
        ]
        named = ", ".join(r.id for r in [*m.added, *(new for _old, new in m.changed), *m.retired][:5])
        out.append(
            Finding(
                _lock(),
                1,
                "source",
                WARNING,
                m.name,
                f"this branch moves source {m.name} to {m.after[:10]}: "
                + (", ".join(parts) or "no decision changed")
                + (f" ({named})" if named else ""),
                "`adr review --base` shows each one; read them before you merge",
            )
        )
    return out


def _lock() -> str:
    from adr_memory.history import sources

    return sources.LOCK
