"""`adr new`: the next record, in the folder's own style, with its reasons and keys."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from adr_memory import policy, records
from adr_memory.base import safe
from adr_memory.errors import UsageError
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
    if written.template not in (None, "madr", "nygard"):  # as `adr init` says it, before anything is read
        raise UsageError(f"unknown template {written.template!r}", hint="use --template madr or nygard")
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


def rule_from_text(text: str) -> dict[str, Any]:
    """`--rule "forbid: import requests"` (or a flow mapping, `{forbid: x, in: [src/**]}`), read
    as the record's frontmatter will be, by the records' own reader (its caps included)."""
    import textwrap

    read = records.parse(f"---\nrule:\n{textwrap.indent(text, '  ')}\n---\n# Rule\n", "rule.md")
    parsed = read.meta.get("rule")
    if not isinstance(parsed, dict) or read.problems:
        raise UsageError(
            f"--rule {safe.one_line(text)[:200]!r} is not a rule",
            hint='write it as YAML: --rule "forbid: import requests" (see docs/checks.md, Rules)',
        )
    return {str(k): v for k, v in parsed.items()}
