"""commands.migrate: body-stated status moved into frontmatter, only when asked."""

from __future__ import annotations

import pytest

from adr_memory.commands import migrate
from adr_memory.errors import UsageError
from adr_memory.history import Workspace
from tests.helpers import commit


def test_migrate_needs_records_named_and_a_dry_run_writes_nothing(repo):
    text = "# 1. Use X\n\nDate: 2024-01-02\n\n## Status\n\nAccepted\n\n## Context\n\nc\n"
    commit(repo, {"docs/adr/0001-use-x.md": text})
    with pytest.raises(UsageError, match="name the records to migrate"):
        migrate.run(Workspace.discover(repo))
    dry = migrate.run(Workspace.discover(repo), ["1"], dry_run=True)
    assert not dry.refused and dry.to_json()["dry_run"] is True
    assert (repo / "docs/adr/0001-use-x.md").read_text() == text
    done = migrate.run(Workspace.discover(repo), every=True)
    assert [m["id"] for m in done.to_json()["migrated"]] == ["ADR-0001"]
    assert (repo / "docs/adr/0001-use-x.md").read_text().startswith("---\n")
