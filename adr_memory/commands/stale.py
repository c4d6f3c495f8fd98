"""`adr stale`: a verdict for every decision, from git (ARCHITECTURE.md §3)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from adr_memory.history import Workspace, staleness
from adr_memory.records import standing


@dataclass(frozen=True)
class Staled:
    verdicts: list[Any]
    standings: dict[str, Any] = field(default_factory=dict)  # record path -> its Standing

    def to_json(self) -> dict[str, Any]:
        return {"decisions": [self._row(v) for v in self.verdicts]}

    def _row(self, verdict: Any) -> dict[str, Any]:
        held = self.standings.get(verdict.path)
        return {**verdict.to_json(), "standing": held.to_json() if held is not None else None}

    def fails(self, *, allow_unknown: bool = False) -> bool:
        return staleness.fails(self.verdicts, allow_unknown=allow_unknown)


def run(ws: Workspace, worktree: bool = False) -> Staled:
    """Every decision's state (fresh, stale, at-risk, scope-missing, orphaned, unknown,
    not-accepted); `worktree` counts uncommitted changes too."""
    own = staleness.report(ws, worktree=worktree, count=staleness.COUNT_WINDOW)  # the table shows the count
    held = standing.of(ws.decisions)  # each decision's standing, beside its verdict
    if not ws.config.sources:
        return Staled(own, held)
    from adr_memory.history import sources

    return Staled(own + sources.verdicts(ws), held)  # the sources' decisions, judged against this repository's code
