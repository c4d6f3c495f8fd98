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
