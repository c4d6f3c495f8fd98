"""commands.log: a decision's versions newest first; the repository's timeline."""

from __future__ import annotations

import json

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


def test_a_story_lists_at_most_twenty_versions_and_says_how_many_there_are(repo):
    for n in range(23):
        commit(repo, {"docs/adr/0001-a.md": adr_text("Use PostgreSQL", body=f"Revision {n}.")}, f"revision {n}")
    told = log.story(Workspace.discover(repo), "1").to_json()
    assert told["versions_total"] == 23 and len(told["versions"]) == log.MAX_LISTED == 20
    assert told["versions"][0]["message"] == "revision 22"  # newest first
    # Each as `adr log --json` gives it: who made it, and each status change with who and why.
    assert set(told["versions"][0]) == {
        "version_id", "digest", "commit", "author", "date", "message", "status", "draft", "path", "written_in",
        "reviews", "transitions",
    }  # fmt: skip
    assert told["versions"][0]["author"] == "Ada Author <ada@example.com>" and len(told["versions"][0]["commit"]) == 40
    assert (told["before"], told["after"], told["supersedes"], told["superseded_by"]) == ([], [], [], [])


def test_a_story_names_supersession_both_ways_and_scrubs_titles(repo):
    key = "AKIA" + "ABCDEFGHIJKLMNOP"
    commit(
        repo,
        {
            "docs/adr/0001-a.md": adr_text(f"Keep {key} in the vault", extra="superseded-by: [ADR-0002]"),
            "docs/adr/0002-b.md": adr_text("Use a secrets manager", extra="supersedes: [ADR-0001]"),
        },
    )
    one = log.story(Workspace.discover(repo), "ADR-1").to_json()
    assert one["superseded_by"] == ["ADR-0002"] and key not in json.dumps(one)
    two = log.story(Workspace.discover(repo), "2").to_json()
    assert two["supersedes"] == ["ADR-0001"] and [r["id"] for r in two["before"]] == ["ADR-0001"]
    assert key not in json.dumps(two)


def test_what_is_written_as_an_id_is_never_searched(repo):
    """`adr 7`, `#7` and `ADR-0042` name a decision: one that is not there is an error, never
    the nearest answer to a question."""
    import pytest

    from adr_memory.errors import RecordNotFound

    commit(repo, {"docs/adr/0001-a.md": adr_text("Use PostgreSQL")})
    for written in ("42", "adr 42", "ADR-42", "#42", " ADR-0042 "):
        assert log._names_an_id(written), written
        with pytest.raises(RecordNotFound):
            log.story(Workspace.discover(repo), written)
    for question in ("why postgres", "adr for the database", "42 reasons"):
        assert not log._names_an_id(question), question


def test_the_log_of_a_record_never_committed_is_one_draft(repo):
    commit(repo, {"docs/adr/0001-a.md": adr_text("Use PostgreSQL")})
    (repo / "docs/adr/0002-b.md").write_text(adr_text("Pool connections"))
    logged = log.run(Workspace.discover(repo), "2")
    assert logged.outside is None
    (only,) = logged.to_json()["versions"]
    assert only["draft"] is True and only["commit"] in (None, "")


def test_the_timeline_keeps_events_on_or_after_the_day(repo):
    head = commit(repo, {"docs/adr/0001-a.md": adr_text("A")}, "one")
    ws = Workspace.discover(repo)
    events = log.timeline(ws).to_json()["events"]
    assert len(events) == 1 and events[0]["date"].endswith("Z") and len(events[0]["date"]) == 20
    day = events[0]["date"][:10]
    assert log.timeline(ws, since=day).to_json()["events"] == events
    assert events[0] == {
        "commit": head,
        "date": events[0]["date"],
        "author": "Ada Author <ada@example.com>",
        "written_in": None,
        "id": "ADR-0001",
        "title": "A",
        "kind": "new",
        "detail": events[0]["detail"],
    }


def test_a_story_says_who_changed_the_status_and_why(repo, monkeypatch):
    """The agent's timeline named the versions alone: a decision accepted later read as
    `proposed`, and who accepted it appeared nowhere."""
    commit(repo, {"docs/adr/0001-a.md": adr_text("Use PostgreSQL", status="proposed")}, "propose")
    monkeypatch.setenv("GIT_AUTHOR_NAME", "Bob Builder")
    monkeypatch.setenv("GIT_AUTHOR_EMAIL", "bob@example.com")
    commit(
        repo, {"docs/adr/0001-a.md": adr_text("Use PostgreSQL", extra="status-reason: the load test held")}, "accept"
    )
    (version,) = log.story(Workspace.discover(repo), "1").to_json()["versions"]
    (change,) = version["transitions"]
    assert (change["from"], change["to"], change["reason"]) == ("proposed", "accepted", "the load test held")
    assert change["author"].startswith("Bob Builder") and version["author"].startswith("Ada Author")
