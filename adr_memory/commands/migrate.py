"""`adr migrate`: what records state in their body moved into frontmatter, when asked."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from adr_memory.errors import UsageError
from adr_memory.history import Workspace
from adr_memory.policy import migrate as migration


@dataclass(frozen=True)
class Migrated:
    outcomes: list[Any]
    dry_run: bool

    @property
    def refused(self) -> bool:
        return any(o.refused for o in self.outcomes)

    def to_json(self) -> dict[str, Any]:
        return migration.as_json(self.outcomes, dry_run=self.dry_run)


def run(ws: Workspace, idents: list[str] | None = None, every: bool = False, dry_run: bool = False) -> Migrated:
    """Move the status and dates a record states in its body into frontmatter; only those lines
    change, and no record gets a new version."""
    if not idents and not every:
        raise UsageError("name the records to migrate, or --all", hint="adr migrate 3 7, or adr migrate --all")
    return Migrated(migration.migrate(ws, [] if every else list(idents or []), dry_run=dry_run), dry_run)
