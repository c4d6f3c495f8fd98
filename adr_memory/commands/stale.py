"""`adr stale`: a verdict for every decision, from git (ARCHITECTURE.md §3)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from adr_memory.history import Workspace, staleness


@dataclass(frozen=True)
class Staled:
    verdicts: list[Any]

    def to_json(self) -> dict[str, Any]:
        return {"decisions": [v.to_json() for v in self.verdicts]}

    def fails(self, *, allow_unknown: bool = False) -> bool:
        return staleness.fails(self.verdicts, allow_unknown=allow_unknown)


def run(ws: Workspace, worktree: bool = False) -> Staled:
    """Every decision's state (fresh, stale, at-risk, scope-missing, orphaned, unknown,
    not-accepted); `worktree` counts uncommitted changes too."""
    own = staleness.report(ws, worktree=worktree, count=staleness.COUNT_WINDOW)  # the table shows the count
    if not ws.config.sources:
        return Staled(own)
    from adr_memory.history import sources

    return Staled(own + sources.verdicts(ws))  # the sources' decisions, judged against this repository's code
