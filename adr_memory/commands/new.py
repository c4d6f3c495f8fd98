"""`adr new`: the next record, in the folder's own style, with its reasons and keys."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from adr_memory import policy
from adr_memory.history import Workspace
from adr_memory.records import content


def run(
    ws: Workspace,
    title: str,
    governs: list[str] | None = None,
    tags: list[str] | None = None,
    supersedes: list[str] | None = None,
    context: str = "",
    options: list[str] | None = None,
    decision: str = "",
    consequences: str = "",
    key: str = "",
    value: str = "",
    cardinality: str = "single",
    spelled: Sequence[str] = (),
) -> dict[str, Any]:
    """Record a decision (status proposed) with its reasons: the context, the options
    considered, the decision and why, its consequences; `governs` are globs of the code it
    describes. `key` (e.g. project.primary_database) names the question it answers: refused
    when another decision in force holds it, unless `supersedes` names that one or
    `cardinality` is multi. Call it when you and the user settle a design question worth
    remembering."""
    reasons = content.Reasons(context, tuple(options or ()), decision, consequences)
    chosen = policy.Key(key, cardinality, value, (spelled[0], spelled[1])) if key and len(spelled) == 2 else None
    path = policy.create(
        ws,
        title,
        governs=governs or (),
        tags=tags or (),
        supersedes=supersedes or (),
        reasons=reasons if any((context, options, decision, consequences)) else None,
        key=chosen or (policy.Key(key, cardinality, value) if key else None),
    )
    return {"created": path.relative_to(ws.root).as_posix()}
