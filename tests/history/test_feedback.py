"""Feedback from people and agents turns a misleading decision into a disputed one."""

from __future__ import annotations

import asyncio
import json

from adr_memory.history import feedback
from tests.helpers import adr_text, commit, git, run
from tests.surfaces.test_mcp import _session_calls


def test_wrong_feedback_shows_a_decision_disputed_beside_its_verdict_until_it_is_affirmed(repo, capsys):
    """The verdict CI reads is the commit's alone: a report kept in this clone's cache is shown
    beside it (`disputed`, the notes, the table's state) and never changes `state` or `--fail`."""
    commit(repo, {"docs/adr/0001-db.md": adr_text("Use PostgreSQL", governs=["src/db/**"]), "src/db/a.py": "1"}, "base")
    run(capsys, "feedback", "1", "--used")
    assert json.loads(run(capsys, "stale", "--json").out)["decisions"][0]["state"] == "fresh"
    run(capsys, "feedback", "1", "--wrong", "--note", "we moved orders to DynamoDB")
    decision = json.loads(run(capsys, "stale", "--json").out)["decisions"][0]
    assert (decision["state"], decision["disputed"], decision["dispute_notes"]) == (
        "fresh",
        1,
        ["we moved orders to DynamoDB"],
    )
    assert "fresh, disputed" in run(capsys, "stale").out
    run(capsys, "stale", "--fail")  # exit 0: what another clone (or CI) says of this commit too
    git(repo, "checkout", "-q", "-b", "pr")
    commit(repo, {"src/db/b.py": "1"}, "touch db")
    review = run(capsys, "review", "--base", "main").out
    assert "### Disputed decisions" in review and "we moved orders to DynamoDB" in review
    assert json.loads(run(capsys, "search", "Use PostgreSQL", "--mode", "keyword", "--json").out)["results"]
    run(capsys, "affirm", "1", "--note", "checked: orders still in PostgreSQL")
    commit(repo, {}, "affirm")
    assert json.loads(run(capsys, "stale", "--json").out)["decisions"][0]["state"] == "fresh"
    assert (repo / ".adr-cache/feedback.jsonl").read_text() != ""  # kept, local, uncommitted
    assert ".adr-cache" not in git(repo, "status", "--porcelain", "--untracked-files=all")


def test_feedback_validates_and_survives_a_damaged_file(repo, capsys):
    commit(repo, {"docs/adr/0001-db.md": adr_text("DB")}, "base")
    assert run(capsys, "feedback", "1", code=2).err.startswith("error: say one of")
    assert run(capsys, "feedback", "9", "--wrong", code=2).err.startswith("error: no decision")
    run(capsys, "feedback", "1", "--wrong")
    with open(repo / ".adr-cache/feedback.jsonl", "a") as handle:
        handle.write("{not json\n[1, 2]\n")
    assert [v.verdict for v in feedback.read(repo / ".adr-cache")] == ["wrong"]
    refused = run(capsys, "feedback", "1", "--wrong", "--note", "DB_PASSWORD=Hunter2Secret99", code=2)
    assert refused.err.startswith("error: the note holds a password: nothing written")
    assert [v.verdict for v in feedback.read(repo / ".adr-cache")] == ["wrong"]  # kept on disk: never


def test_an_agent_gives_feedback_over_mcp(repo):
    commit(repo, {"docs/adr/0001-db.md": adr_text("DB", governs=["src/**"]), "src/a.py": "1"}, "base")
    calls = [
        ("feedback", {"id": "ADR-0001", "verdict": "wrong", "note": "the code uses SQLite"}),
        ("feedback", {"id": "ADR-0001", "verdict": "maybe"}),
        ("stale", {}),
    ]
    tools, answers = asyncio.run(_session_calls(repo, calls))
    assert "feedback" in tools and json.loads(answers[0])["stored"] == "local cache"
    assert "unknown verdict" in json.loads(answers[1])["error"]
    assert json.loads(answers[2])["decisions"][0]["disputed"] == 1


def test_a_disputed_decision_says_so_wherever_it_is_read(repo, capsys):
    """Beside `stale` and `review`: guard, search, show and list too; never in a verdict."""
    import json

    from tests.helpers import adr_text, commit, run

    commit(repo, {"docs/adr/0001-a.md": adr_text("Use queues", governs=["src/**"]), "src/a.py": "1"})
    run(capsys, "feedback", "1", "--wrong", "--note", "we moved to streams")
    (path,) = json.loads(run(capsys, "guard", "src/a.py", "--json").out)["paths"]
    assert path["decisions"][0]["disputed"] == ["we moved to streams"]
    assert json.loads(run(capsys, "show", "1", "--json").out)["disputed"] == ["we moved to streams"]
    assert "1 report(s) here that it misled" in run(capsys, "show", "1").out
    row = json.loads(run(capsys, "search", "queues", "--mode", "keyword", "--json").out)["results"][0]
    assert row["disputed"] is True
    assert json.loads(run(capsys, "stale", "--json").out)["decisions"][0]["state"] == "fresh"  # the verdict stands
    assert run(capsys, "stale", "--fail", code=0)
