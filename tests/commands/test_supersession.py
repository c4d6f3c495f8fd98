"""A supersession completes when the successor is accepted (ADR-0101): until then the decision it
would replace stays in force, its file untouched, and every surface says a successor is proposed."""

from __future__ import annotations

import asyncio
import json

from tests.helpers import adr_text, commit, run

MONGO = "docs/adr/0002-use-mongodb.md"


def _folder(repo):
    commit(
        repo,
        {
            "docs/adr/0001-record.md": adr_text("Record architecture decisions"),
            MONGO: adr_text("Use MongoDB", governs=["src/db/**"], body="We store documents in MongoDB."),
            "src/db/store.py": "import pymongo\n",
        },
    )


def _by_id(capsys, *args):
    return {r["id"]: r for r in json.loads(run(capsys, *args, "--json").out)}


def test_a_proposed_successor_leaves_the_decision_in_force_until_it_is_accepted(repo, capsys):
    _folder(repo)
    before = (repo / MONGO).read_bytes()
    run(capsys, "new", "-s", "2", "Move", "to", "PostgreSQL")
    assert (repo / MONGO).read_bytes() == before  # nothing written into the decision in force
    listed = _by_id(capsys, "list")
    assert listed["ADR-0002"]["status"] == "accepted"
    assert listed["ADR-0002"]["standing"]["state"] == "successor-proposed"
    assert listed["ADR-0002"]["standing"]["proposed_successors"] == ["ADR-0003"]
    assert listed["ADR-0003"]["supersedes"] == ["ADR-0002"]
    listed = run(capsys, "list").out  # the status cell wraps in its column
    (line,) = [line for line in listed.splitlines() if "ADR-0002" in line]
    assert line.split()[:2] == ["ADR-0002", "accepted;"]  # the cell wraps on: "ADR-0003", "proposed"
    assert run(capsys, "list", "--json").json[1]["standing"]["label"] == "accepted; ADR-0003 proposed"
    shown = run(capsys, "show", "2").out
    assert "in force; successor proposed: ADR-0003" in shown

    guarded = json.loads(run(capsys, "guard", "src/db/store.py", "--json").out)["paths"][0]["decisions"]
    assert [(d["id"], d["in_force"], d["standing"]["text"]) for d in guarded] == [
        ("ADR-0002", True, "in force; successor proposed: ADR-0003")
    ]
    # `check` does not ask for the other side of a supersession that is not complete yet
    assert "does not say it is superseded" not in run(capsys, "check").out

    said = run(capsys, "accept", "3").out
    assert "ADR-0002 superseded by ADR-0003" in said
    listed = _by_id(capsys, "list")
    assert listed["ADR-0002"]["status"] == "superseded" and listed["ADR-0002"]["superseded_by"] == ["ADR-0003"]
    assert listed["ADR-0002"]["standing"]["state"] == "retired"
    assert listed["ADR-0002"]["standing"]["retired_by"] == ["ADR-0003"]
    guarded = json.loads(run(capsys, "guard", "src/db/store.py", "--json").out)["paths"][0]["decisions"]
    assert not next(d for d in guarded if d["id"] == "ADR-0002")["in_force"]


def test_rejecting_the_successor_leaves_the_old_decision_untouched(repo, capsys):
    _folder(repo)
    before = (repo / MONGO).read_bytes()
    run(capsys, "new", "-s", "2", "Move", "to", "PostgreSQL")
    run(capsys, "reject", "3")
    assert (repo / MONGO).read_bytes() == before
    assert _by_id(capsys, "list")["ADR-0002"]["standing"]["state"] == "in-force"


def test_supersede_by_a_proposed_record_writes_the_successor_side_only(repo, capsys):
    _folder(repo)
    commit(repo, {"docs/adr/0003-pg.md": adr_text("Use PostgreSQL", status="proposed")})
    before = (repo / MONGO).read_bytes()
    said = run(capsys, "supersede", "2", "--by", "3").out
    assert "ADR-0002 stays in force until ADR-0003 is accepted" in said
    assert (repo / MONGO).read_bytes() == before
    assert "supersedes: [ADR-0002]" in (repo / "docs/adr/0003-pg.md").read_text()
    run(capsys, "accept", "3")
    assert "status: superseded" in (repo / MONGO).read_text()
    assert run(capsys, "check").err.strip() == "adr check: no problems"


def test_supersede_by_an_accepted_record_writes_both_sides_at_once(repo, capsys):
    _folder(repo)
    commit(repo, {"docs/adr/0003-pg.md": adr_text("Use PostgreSQL")})
    assert "ADR-0003 supersedes ADR-0002" in run(capsys, "supersede", "2", "--by", "3").out
    assert _by_id(capsys, "list")["ADR-0002"]["standing"]["state"] == "retired"


def test_two_proposed_successors_are_a_check_warning(repo, capsys):
    _folder(repo)
    run(capsys, "new", "-s", "2", "Move", "to", "PostgreSQL")
    run(capsys, "new", "-s", "2", "Move", "to", "MySQL")
    found = json.loads(run(capsys, "check", "--format", "json").out)["findings"]
    contested = [f for f in found if "successors are proposed" in f["message"]]
    assert [(f["id"], f["severity"]) for f in contested] == [("ADR-0002", "warning")]
    assert "ADR-0003, ADR-0004" in contested[0]["message"]
    assert _by_id(capsys, "list")["ADR-0002"]["standing"]["proposed_successors"] == ["ADR-0003", "ADR-0004"]


def test_in_an_adr_tools_folder_accepting_writes_adr_tools_lines(repo, capsys):
    nygard = (
        "# {n}. {title}\n\nDate: 2024-01-02\n\n## Status\n\n{status}\n\n## Context\n\nWhy.\n\n## Decision\n\nWhat.\n"
    )
    commit(
        repo,
        {
            "doc/adr/0001-record.md": nygard.format(n=1, title="Record architecture decisions", status="Accepted"),
            "doc/adr/0002-use-mongodb.md": nygard.format(n=2, title="Use MongoDB", status="Accepted"),
        },
    )
    before = (repo / "doc/adr/0002-use-mongodb.md").read_bytes()
    run(capsys, "new", "-s", "2", "Use", "PostgreSQL")
    assert (repo / "doc/adr/0002-use-mongodb.md").read_bytes() == before
    new = next((repo / "doc/adr").glob("0003-*.md"))
    assert "Supersedes [2. Use MongoDB](0002-use-mongodb.md)" in new.read_text()
    run(capsys, "accept", "3")
    old = (repo / "doc/adr/0002-use-mongodb.md").read_text()
    assert "Superseded by [3. Use PostgreSQL](0003-use-postgresql.md)" in old
    assert not old.startswith("---")  # the folder's own style, no frontmatter added
    assert _by_id(capsys, "list")["ADR-0002"]["standing"]["state"] == "retired"


def test_a_folder_already_marked_superseded_by_a_proposal_is_read_as_it_is(repo, capsys):
    """Files written before (by adr-tools' `-s`, or by an earlier version) say superseded while the
    successor is proposed: read as in force, the file left alone."""
    _folder(repo)
    commit(
        repo,
        {
            MONGO: adr_text(
                "Use MongoDB", status="superseded", governs=["src/db/**"], extra="superseded-by: [ADR-0003]"
            ),
            "docs/adr/0003-pg.md": adr_text("Use PostgreSQL", status="proposed", extra="supersedes: [ADR-0002]"),
        },
    )
    held = _by_id(capsys, "list")["ADR-0002"]
    assert held["status"] == "superseded" and held["standing"]["in_force"]
    assert held["standing"]["text"] == "in force; successor proposed: ADR-0003"


def test_mcp_new_with_supersedes_proposes_and_leaves_the_old_decision_in_force(repo):
    from tests.surfaces.test_mcp import _session_calls

    _folder(repo)
    before = (repo / MONGO).read_bytes()
    calls = [
        ("new", {"title": "Move to PostgreSQL", "supersedes": ["2"]}),
        ("guard", {"paths": ["src/db/store.py"]}),
    ]
    _tools, answers = asyncio.run(_session_calls(repo, calls, allow_write=True))
    assert (repo / MONGO).read_bytes() == before
    decisions = json.loads(answers[1])["paths"][0]["decisions"]
    assert decisions[0]["in_force"] and decisions[0]["standing"]["proposed_successors"] == ["ADR-0003"]


def test_the_agent_guard_hook_says_the_decision_still_binds(repo, capsys, monkeypatch):
    import io

    from adr_memory.surfaces import hook

    _folder(repo)
    run(capsys, "new", "-s", "2", "Move", "to", "PostgreSQL")
    call = {"tool_name": "Edit", "tool_input": {"file_path": str(repo / "src/db/store.py")}}
    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps(call)))
    capsys.readouterr()
    hook.main(["agent-guard"])
    context = json.loads(capsys.readouterr().out)["hookSpecificOutput"]["additionalContext"]
    assert "ADR-0002 (accepted; ADR-0003 proposed; fresh)" in context
    assert "ADR-0002 still binds: in force; successor proposed: ADR-0003, not accepted yet." in context
    assert "superseded by" not in context


def test_a_successor_rejected_after_its_acceptance_leaves_the_old_one_in_force_and_check_says_so(repo, capsys):
    _folder(repo)
    run(capsys, "new", "-s", "2", "Move", "to", "PostgreSQL")
    run(capsys, "accept", "3")
    run(capsys, "reject", "3")
    assert _by_id(capsys, "list")["ADR-0002"]["standing"]["in_force"]
    found = json.loads(run(capsys, "check", "--format", "json").out)["findings"]
    (said,) = [f for f in found if f["id"] == "ADR-0002" and f["kind"] == "supersession"]
    assert "which is rejected: ADR-0002 is read as in force again" in said["message"]
    assert said["line"] == 2  # the status key's line
