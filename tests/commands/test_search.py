"""commands.search: the search contract, with its status filter and other phrasings."""

from __future__ import annotations

from adr_memory.commands import search
from adr_memory.history import Workspace
from tests.helpers import adr_text, commit


def test_the_status_filter_and_the_contract(repo):
    commit(
        repo,
        {
            "docs/adr/0001-a.md": adr_text("Queue jobs with Redis", status="rejected"),
            "docs/adr/0002-b.md": adr_text("Queue jobs with RabbitMQ"),
        },
    )
    ws = Workspace.discover(repo)
    answer = search.run(ws, "queue jobs", mode="keyword", status="rejected")
    assert [r["id"] for r in answer["results"]] == ["ADR-0001"] and answer["by_rephrasing"] == []
