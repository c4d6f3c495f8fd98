"""commands.listing: the decisions, filtered, with versions and staleness; as they were at a commit."""

from __future__ import annotations

from adr_memory.commands import listing
from adr_memory.history import Workspace
from tests.helpers import adr_text, commit


def test_filters_and_the_json_shape(repo):
    commit(
        repo,
        {
            "docs/adr/0001-a.md": adr_text("A", extra="tags: [db]"),
            "docs/adr/0002-b.md": adr_text("B", status="proposed"),
        },
    )
    ws = Workspace.discover(repo)
    assert [r.id for r in listing.run(ws, status=["proposed"]).records] == ["ADR-0002"]
    assert [r.id for r in listing.run(ws, tag=["db"]).records] == ["ADR-0001"]
    (row, _) = listing.run(ws).to_json()
    assert row["version_id"].startswith("v") and row["tags"] == ["db"]


def test_at_a_commit_the_records_are_as_they_were_without_derived_facts(repo):
    first = commit(repo, {"docs/adr/0001-a.md": adr_text("A")}, "one")
    commit(repo, {"docs/adr/0002-b.md": adr_text("B")}, "two")
    then = listing.run(Workspace.discover(repo), at=first)
    assert [r.id for r in then.records] == ["ADR-0001"] and then.to_json()[0]["version_id"] is None
