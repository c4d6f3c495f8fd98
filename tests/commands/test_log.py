"""commands.log: a decision's versions newest first; the repository's timeline."""

from __future__ import annotations

from adr_memory.commands import log
from adr_memory.history import Workspace
from tests.helpers import adr_text, commit


def test_versions_newest_first_and_the_timeline(repo):
    commit(repo, {"docs/adr/0001-a.md": adr_text("A", body="One.")}, "one")
    commit(repo, {"docs/adr/0001-a.md": adr_text("A", body="Two.")}, "two")
    ws = Workspace.discover(repo)
    logged = log.run(ws, "1").to_json()
    assert [v["message"] for v in logged["versions"]] == ["two", "one"]
    events = log.timeline(ws).to_json()["events"]
    assert {e["kind"] for e in events} >= {"new", "version"}
    assert log.timeline(ws, since="2999-01-01").to_json() == {"events": []}


def test_a_story_by_id_names_its_neighbours_and_an_unknown_id_is_an_error(repo):
    import pytest

    from adr_memory.errors import RecordNotFound

    for n, title in enumerate(("Use PostgreSQL", "Queue jobs with Redis", "Log as JSON", "Deploy on Fridays"), 1):
        commit(repo, {f"docs/adr/000{n}-x.md": adr_text(title)}, f"record {n}")
    commit(repo, {"docs/adr/0002-x.md": adr_text("Queue jobs with Redis", body="Streams, not lists.")}, "edit")
    told = log.story(Workspace.discover(repo), "ADR-0002").to_json()
    assert (told["id"], told["versions_total"]) == ("ADR-0002", 2)
    assert [v["message"] for v in told["versions"]] == ["edit", "record 2"]
    assert [r["id"] for r in told["before"]] == ["ADR-0001"] and [r["id"] for r in told["after"]] == [
        "ADR-0003",
        "ADR-0004",
    ]
    with pytest.raises(RecordNotFound, match="no decision 'ADR-0042'"):  # never another decision's history
        log.story(Workspace.discover(repo), "ADR-0042")
