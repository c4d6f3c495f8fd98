"""`adr new`: the next record, in the folder's own style, with its reasons and keys."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from adr_memory import policy
from adr_memory.history import Workspace
from adr_memory.records import content


@dataclass(frozen=True)
class Written:
    """How a person at a terminal may start a record, which an agent may not: another status
    than proposed, a template of their choosing, a whole body written beforehand."""

    status: str = "proposed"
    template: str | None = None
    body: str | None = None


def run(
    ws: Workspace,
    title: str,
    governs: list[str] | None = None,
    tags: list[str] | None = None,
    supersedes: list[str] | None = None,
    links: list[str] | None = None,
    rules: list[dict[str, Any]] | None = None,
    context: str = "",
    options: list[str] | None = None,
    decision: str = "",
    consequences: str = "",
    key: str = "",
    value: str = "",
    cardinality: str = "single",
    spelled: Sequence[str] = (),
    written: Written = Written(),
) -> dict[str, Any]:
    """Record a decision (status proposed) with its reasons: the context, the options
    considered, the decision and why, its consequences; `governs` are globs of the code it
    describes. `links` are "ID:Link:Reverse link" (e.g. "3:Amends:Amended by"). `rules`
    are the checks `adr check` enforces once it is accepted, as its frontmatter holds them:
    {"forbid": "import requests", "in": ["src/**"], "message": "use httpx"} (types forbid,
    require, forbid-path, require-path; `regex: true` for a pattern). `key` (e.g.
    project.primary_database) names the question it answers: refused when another decision
    in force holds it, unless `supersedes` names that one or `cardinality` is multi. Call it
    when you and the user settle a design question worth remembering."""
    reasons = content.Reasons(context, tuple(options or ()), decision, consequences)
    chosen = policy.Key(key, cardinality, value, (spelled[0], spelled[1])) if key and len(spelled) == 2 else None
    path = policy.create(
        ws,
        title,
        governs=governs or (),
        tags=tags or (),
        supersedes=supersedes or (),
        links=[policy.LinkSpec.parse(x) for x in links or ()],
        rules=rules or (),
        status=written.status,
        template=written.template,
        reasons=reasons if any((context, options, decision, consequences)) else None,
        body=written.body,
        key=chosen or (policy.Key(key, cardinality, value) if key else None),
    )
    return {"created": path.relative_to(ws.root).as_posix()}
