"""`adr review --base REF`: what a reviewer needs to know about a pull request's decisions, as
data (surfaces/review.py writes it as the markdown a pull request's comment shows)."""

from __future__ import annotations

from typing import Any

from adr_memory.commands import views
from adr_memory.history import Workspace
from adr_memory.policy import branch, check
from adr_memory.records import standing

_MAX_GOVERNED = 20


def report(ws: Workspace, base: str) -> dict[str, Any]:
    change = branch.compare(ws, base)
    outcome = check.run(ws, base=base, change=change)  # exactly what `adr check --base` says
    held = standing.of(ws.decisions)  # each decision's standing at HEAD, rendered, never re-judged

    def _held(path: str) -> dict[str, Any] | None:
        found = held.get(path)
        return found.to_json() if found else None

    def _brief(rec: Any) -> dict[str, Any]:
        return {**_plain(rec), "standing": _held(rec.path)}

    return {
        "base": change.ref,
        "merge_base": change.base,
        "head": change.head,
        "added": [_brief(r) for r in change.added()],
        "new_versions": [
            {**_brief(new), "diff": views.render_diff(old, new, change.base[:10], "HEAD")}
            for old, new in change.new_versions()
            if old.id not in _ids(change.added())
        ],
        "status_changes": [
            {**_brief(new), "from": old.status, "to": new.status, "superseded_by": list(new.superseded_by)}
            for old, new in change.status_changes()
        ],
        "deleted": [_brief(r) for r in change.deleted()],
        "governing": [
            {
                **_brief(rec),
                "files": files[:10],
                "excerpt": views.excerpt(rec),
                "state": change.verdicts[rec.path].state if rec.path in change.verdicts else None,
            }
            for rec, files in change.governing_changed()
        ][:_MAX_GOVERNED],
        "made_stale": [
            {**v.to_json(), "standing": _held(v.path), "advice": branch.stale_advice(change, v)[1]}
            for v in change.made_stale()
        ],
        "disputed": [v.to_json() for v in change.verdicts.values() if v.disputed],
        "sources_moved": _sources_moved(ws, change.base, outcome.findings),
        "findings": [f.to_json() for f in outcome.findings],
        "untouched": outcome.untouched_line(),
    }


def _sources_moved(ws: Workspace, base: str, found: list[Any]) -> list[dict[str, Any]]:
    """For each source this branch re-pins: the decisions it adds, changes (with their diff)
    and retires, and where this repository's code breaks the rules it brings."""
    if not ws.config.sources:
        return []
    from adr_memory.history import sources

    return [
        {
            "source": m.name,
            "before": m.before,
            "after": m.after,
            "added": [_plain(r) for r in m.added],
            "changed": [
                {**_plain(new), "diff": views.render_diff(old, new, m.before[:10], m.after[:10])}
                for old, new in m.changed
            ],
            "retired": [_plain(r) for r in m.retired],
            "violations": [
                f.to_json()
                for f in found
                if f.kind == "rule" and f.id in {r.id for r in [*m.added, *(new for _old, new in m.changed)]}
            ],
        }
        for m in sources.moved(ws, base)
    ]


def _plain(rec: Any) -> dict[str, Any]:
    return {
        "id": rec.id,
        "title": rec.title,
        "status": rec.status,
        "path": rec.path,
        "supersedes": list(rec.supersedes),
    }


def _ids(records: Any) -> set[str]:
    return {r.id for r in records}
