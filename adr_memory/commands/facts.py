"""What git says about each record, gathered once for every surface that shows records.

`adr list`/`show`, `adr export` and the MCP `get` tool all read a record through `gather`, so
the version id, dates and staleness mean the same everywhere, and every record they show has
already been through credential redaction: no surface can forget it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from adr_memory.errors import AdrError
from adr_memory.history import Workspace, first_recorded, staleness, versions
from adr_memory.records import Record, credentials


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
        if v is None:
            return None
        return {"state": v.state, "reason": v.reason, "changed": list(v.changed[:10]), "disputed": list(v.disputed)}


# What `adr list` and `adr show` read of an uncached history before they leave it out: commits
# walked, and an eighth as many record versions parsed; each about half a second on a 2-core machine
# (benchmarks/bench_history.py). A cached history costs nothing here.
BUDGET = 2_000


def gather(
    ws: Workspace,
    records: Sequence[Record],
    *,
    budget: int | None = None,
    history: versions.History | None = None,
    count_commits: bool = False,
) -> list[Facts]:
    """Facts per record, in the order given, from `history` (walked here when not given). When
    git cannot answer (no commits, a damaged clone, or more than `budget` commits not read yet)
    the record is still shown, with the derived facts left empty rather than guessed. The
    commits since a stale decision's anchor are counted only when asked (`count_commits`):
    what shows them asks; a list, a record's page in a terminal or an agent's answer do not."""
    verdicts: dict[str, staleness.Verdict] = {}
    if records:
        try:
            history = history if history is not None else versions.walk(ws, budget=budget)
            if budget is not None:
                versions.prime(ws.repo, history, max(1, budget // 8))
            asked = None if len(records) >= len(ws.catalog) else {r.path for r in records}  # `show`: one
            found = staleness.report(ws, history=history, paths=asked, count=None if count_commits else 0)
            verdicts = {v.path: v for v in found}
        except AdrError as exc:  # the caller says why the facts are empty
            history, ws.unread = None, exc
    out: list[Facts] = []
    for raw in records:
        listed = versions.versions(ws, raw, history) if history is not None else []
        out.append(
            Facts(
                record=credentials.redacted(raw),
                version_id=(listed[0].version_id or None) if listed else None,  # "": not known
                first_recorded=first_recorded(raw, history) if history is not None else raw.date,
                versions=sum(not v.draft for v in listed),
                verdict=verdicts.get(raw.path),
            )
        )
    if history is not None and history.cache is not None:
        history.cache.save()  # the summaries worked out for these versions serve the next run
    return out


def keep(ws: Workspace) -> None:
    """Keep what this command learnt of the repository's history for the next one (only where
    git was opened)."""
    from adr_memory.history import walk

    if "repo" in ws.__dict__:
        walk.keep(ws.repo)


def incomplete(ws: Workspace, *, after_error: bool = False) -> str | None:
    """What git could not give an answer, and how to fix it: a shallow clone cannot judge old
    anchors; a partial or damaged one may lack the versions the answer wanted; a HEAD, ref or
    config that does not read leaves them all out. After an error that named the object, only
    the shallow clone is news."""
    repo = ws.__dict__.get("repo")  # only where git was opened
    if repo is not None and repo.shallow():
        return (
            "shallow clone: decisions anchored before its boundary are unknown; "
            "set fetch-depth: 0 (actions/checkout) or run git fetch --unshallow"
        )
    if after_error:
        return None
    if repo is not None and repo.missing:
        fix = (
            "`git log -p -- <the ADR folder> >/dev/null` fetches them"
            if repo.partial()
            else "git fetch --refetch restores them"
        )
        return (
            f"{len(repo.missing)} git object(s) are not in this clone: what needs them is not shown "
            f"(a version so marked is unknown); {fix}"
        )
    if repo is not None and repo.damaged:
        return (
            f"{len(repo.damaged)} git object(s) are damaged: what needs them is not shown (a version "
            "so marked is unknown); `git fsck` lists them, git fetch --refetch restores them"
        )
    if ws.unread:  # HEAD, refs or config that do not read
        return f"{ws.unread.message}: versions and staleness are not shown" + (
            f" ({ws.unread.hint})" if ws.unread.hint else ""
        )
    return None
