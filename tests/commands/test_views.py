"""The read-side views: a decision's excerpt, its backlinks, the diff between two versions,
and `guard`'s answer for paths in and out of the repository."""

from __future__ import annotations

from adr_memory.commands import views
from adr_memory.history.workspace import Workspace
from adr_memory.records import catalog
from tests.helpers import adr_text, commit, write


def test_an_excerpt_is_the_decision_not_the_context_and_never_placeholders(tmp_path):
    write(
        tmp_path,
        {
            "docs/adr/0001-a.md": "# 1. A\n\n## Context\n\nWhy.\n\n## Decision\n\nWe use Redis for jobs.\n",
            "docs/adr/0002-b.md": '# 2. B\n\n## Decision Outcome\n\nChosen option: "", because .\n',
        },
    )
    cat = catalog.read_worktree(tmp_path, "docs/adr")
    assert views.excerpt(cat.get("1")) == "We use Redis for jobs."
    assert views.excerpt(cat.get("2")) == ""
    long = catalog.read_worktree(tmp_path, "docs/adr").get("1")
    assert len(views.excerpt(long, limit=10)) <= 10


def test_backlinks_name_who_links_here_and_how(tmp_path):
    write(
        tmp_path,
        {
            "docs/adr/0001-a.md": adr_text("A"),
            "docs/adr/0002-b.md": adr_text("B", extra='supersedes: ["ADR-0001"]'),
            "docs/adr/0003-c.md": adr_text("C", extra='depends-on: ["ADR-0001"]'),
        },
    )
    cat = catalog.read_worktree(tmp_path, "docs/adr")
    assert views.backlinks(cat, "ADR-0001") == [
        {"rel": "supersedes", "id": "ADR-0002"},
        {"rel": "depends-on", "id": "ADR-0003"},
    ]


def test_the_diff_between_versions_names_field_changes_and_the_body(repo):
    path = "docs/adr/0001-db.md"
    commit(repo, {path: adr_text("Use a db", status="proposed", body="Postgres.")}, "one")
    commit(repo, {path: adr_text("Use a db", body="Postgres 16.")}, "two")
    text = views.diff_text(Workspace.discover(repo), "1", None, None)
    assert '~ status: "proposed" -> "accepted"' in text
    assert "-Postgres.\n+Postgres 16." in text


def test_guard_answers_for_paths_inside_and_never_claims_one_outside(repo):
    commit(repo, {"docs/adr/0001-db.md": adr_text("Use a db", governs=["**"]), "src/a.py": "1"})
    answer = views.guard(Workspace.discover(repo), ["src/a.py", "/etc/passwd"])
    inside, outside = answer["paths"]
    assert [d["id"] for d in inside["decisions"]] == ["ADR-0001"] and inside["decisions"][0]["state"] == "fresh"
    assert outside["outside"] and outside["decisions"] == []


# ---------------------------------------------------------------------------- the session digest


def test_the_digest_groups_decisions_in_force_by_area_and_names_the_stale_and_conflicting(repo):
    key = "conflict-key: project.queue\nvalue: {}"
    commit(
        repo,
        {
            "docs/adr/0001-pg.md": adr_text("Use PostgreSQL", governs=["src/db/**"], extra="tags: [storage, db]"),
            "docs/adr/0002-k.md": adr_text("Queue on Kafka", governs=["jobs/**"], extra=key.format("Kafka")),
            "docs/adr/0003-r.md": adr_text("Queue on Redis", extra=key.format("Redis")),
            "docs/adr/0004-p.md": adr_text("Maybe GraphQL", status="proposed", extra="tags: [api]"),
            "src/db/a.py": "1",
            "jobs/b.py": "1",
        },
        "decide",
    )
    commit(repo, {"jobs/b.py": "2"}, "jobs move on")
    lines = views.digest(Workspace.discover(repo)).splitlines()
    assert lines[:4] == [
        "Architecture decisions in force here (3; `adr show ID` or MCP `get` for one):",
        "- general: ADR-0003 Queue on Redis",  # no tag and no governed code
        "- jobs: ADR-0002 Queue on Kafka",  # the top folder of the code it governs
        "- storage: ADR-0001 Use PostgreSQL",  # its first tag
    ]
    assert (
        lines[4] == "Stale (code changed since last reviewed): ADR-0002 (1 governed file(s) changed since the anchor)"
    )
    assert lines[5].startswith("Conflicting: ") and "ADR-0002" in lines[5] and "ADR-0003" in lines[5]
    assert "Maybe GraphQL" not in "\n".join(lines)  # proposed: not in force


def test_the_digest_is_empty_when_nothing_is_in_force_and_cut_when_long(repo):
    commit(repo, {"docs/adr/0001-a.md": adr_text("Only an idea", status="proposed")})
    assert views.digest(Workspace.discover(repo)) == ""
    long = {f"docs/adr/{n:04d}-x.md": adr_text(f"Decision number {n} about a long subject") for n in range(2, 80)}
    commit(repo, long)
    text = views.digest(Workspace.discover(repo))
    assert len(text) <= views.DIGEST_CHARS
    assert text.endswith("\n… (`adr list` has the rest)")
    assert text.startswith("Architecture decisions in force here (78;")


def test_the_digest_never_carries_a_credential(repo):
    key = "AKIA" + "ABCDEFGHIJKLMNOP"
    commit(repo, {"docs/adr/0001-a.md": adr_text(f"Rotate {key} monthly")})
    text = views.digest(Workspace.discover(repo))
    assert text.startswith("Architecture decisions in force here (1;") and key not in text


# ---------------------------------------------------------------------------- diffs, rules, standing


def test_a_diff_redacts_every_line_of_a_key_block_either_version_held(tmp_path):
    from adr_memory.records import parse

    block = "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA7\nabcdefghijklmnop\n-----END RSA PRIVATE KEY-----"
    a = parse(adr_text("Keys", body=f"Old text.\n\n{block}\n"), "docs/adr/0001-k.md")
    b = parse(
        adr_text("Keys", body=f"New text.\n\n{block.replace('abcdefghijklmnop', 'qrstuvwxyz012345')}\n"),
        "docs/adr/0001-k.md",
    )
    text = views.render_diff(a, b, "v1", "v2")
    assert "-Old text." in text and "+New text." in text
    for secret in ("MIIEowIBAAKCAQEA7", "abcdefghijklmnop", "qrstuvwxyz012345"):
        assert secret not in text
    assert "-[REDACTED]" in text and "+[REDACTED]" in text


def test_a_diff_names_each_changed_field_once_and_equal_versions_have_none():
    from adr_memory.records import parse

    a = parse(adr_text("A", extra="tags: [db]"), "docs/adr/0001-a.md")
    b = parse(adr_text("A", extra='tags: [db, storage]\ngoverns: ["src/**"]'), "docs/adr/0001-a.md")
    assert views.render_diff(a, b, "v1", "v2").splitlines() == [
        '~ governs: null -> ["src/**"]',
        '~ tags: ["db"] -> ["db", "storage"]',
    ]
    assert views.render_diff(a, a, "v1", "v1") == "no differences"


def test_a_body_stated_status_change_is_named_when_no_frontmatter_states_it():
    from adr_memory.records import parse

    a = parse("# 1. Use Redis\n\n## Status\n\nProposed\n\n## Decision\n\nRedis.\n", "docs/adr/0001-r.md")
    b = parse("# 1. Use Redis\n\n## Status\n\nAccepted\n\n## Decision\n\nRedis.\n", "docs/adr/0001-r.md")
    text = views.render_diff(a, b, "v1", "v2")
    assert text.splitlines()[0] == "~ status: 'Proposed' -> 'Accepted'"


def test_rule_objects_carry_what_show_json_documents(tmp_path):
    rule = 'rules:\n  - {forbid: "import boto3", in: ["src/**"], except: ["src/aws/**"], message: "events go on Kafka"}'
    write(tmp_path, {"docs/adr/0001-k.md": adr_text("Kafka", extra=rule)})
    (only,) = views.rule_objects(catalog.read_worktree(tmp_path, "docs/adr").get("1"))
    assert set(only) == {"rule_id", "description", "type", "value", "regex", "message", "in", "except"}
    assert (only["type"], only["value"], only["in"], only["except"], only["message"]) == (
        "forbid",
        "import boto3",
        ["src/**"],
        ["src/aws/**"],
        "events go on Kafka",
    )
    assert only["rule_id"].startswith("ADR-0001:FORBID:")


def test_with_standing_judges_each_record_among_the_folder_and_keeps_the_extras(repo):
    commit(
        repo,
        {
            "docs/adr/0001-a.md": adr_text("Use MongoDB"),
            "docs/adr/0002-b.md": adr_text("Use PostgreSQL", status="proposed", extra="supersedes: [ADR-0001]"),
        },
    )
    ws = Workspace.discover(repo)
    old = ws.catalog.get("1")
    held = views.with_standing(ws, [old], {old.path: {"version_id": "v1"}})
    assert held[old.path]["version_id"] == "v1"
    assert held[old.path]["standing"]["state"] == "successor-proposed"
    assert held[old.path]["standing"]["in_force"] is True
    assert held[old.path]["standing"]["proposed_successors"] == ["ADR-0002"]


def test_extras_say_nothing_for_a_catalog_at_a_commit_or_no_records(repo):
    commit(repo, {"docs/adr/0001-a.md": adr_text("A")})
    ws = Workspace.discover(repo)
    assert views.extras(ws, [], at=None) == {}
    assert views.extras(ws, list(ws.catalog), at="HEAD") == {}
    (facts,) = views.extras(ws, list(ws.catalog)).values()
    assert set(facts) == {"version_id", "first_date", "stale", "stale_text", "disputed"}
    assert (facts["stale"], facts["stale_text"], facts["disputed"]) == (False, "fresh: governs no code", [])


def test_guard_names_a_path_by_its_repository_path_and_an_excerpt_of_rst(repo):
    commit(
        repo,
        {
            "docs/adr/0001-a.rst": "1. Use Redis\n============\n\nStatus\n------\n\nAccepted\n\nDecision\n--------\n\nUse Redis for jobs.\n",
            "docs/adr/0002-b.md": adr_text("Jobs", governs=["src/**"]),
            "src/a.py": "1",
        },
    )
    ws = Workspace.discover(repo)
    (path,) = views.guard(ws, [str(repo / "src/a.py")])["paths"]
    assert path["path"] == "src/a.py" and not path["outside"]
    assert views.excerpt(ws.catalog.get("1")) == "Use Redis for jobs."
    (climbing,) = views.guard(ws, ["../elsewhere.py"])["paths"]
    assert climbing["outside"] and climbing["decisions"] == [] and climbing["rules"] == []


def test_guard_judges_a_source_s_decision_against_this_repository_s_code(repo, tmp_path, capsys):
    """A source's decision governs this repository's paths too: fresh until this repository's
    code changes, then stale; one not in force here is named as such, never as binding."""
    from tests.helpers import git, run

    central = tmp_path / "central"
    central.mkdir()
    git(central, "init", "-q", "-b", "main")
    commit(
        central,
        {
            "docs/adr/0001-k.md": adr_text("Publish events on Kafka", governs=["src/events/**"]),
            "docs/adr/0002-p.md": adr_text("Maybe gRPC", status="proposed", governs=["src/**"]),
        },
    )
    commit(repo, {"docs/adr/0001-a.md": adr_text("Local"), "src/events/a.py": "1"})
    run(capsys, "sources", "add", "platform", str(central))
    run(capsys, "sources", "update")
    commit(repo, {}, "pin the platform's decisions")

    def decisions():
        (path,) = views.guard(Workspace.discover(repo), ["src/events/a.py"])["paths"]
        return {d["id"]: d for d in path["decisions"]}

    held = decisions()
    assert set(held) == {"platform:ADR-0001", "platform:ADR-0002"}
    kafka, grpc = held["platform:ADR-0001"], held["platform:ADR-0002"]
    assert (kafka["state"], kafka["source"], kafka["in_force"]) == ("fresh", "platform", True)
    assert kafka["path"] == "platform:docs/adr/0001-k.md"
    assert (grpc["state"], grpc["in_force"]) == ("not-accepted", False)
    assert grpc["reason"] == (
        "source platform's decision, not in force here (superseded by this repository, or its status)"
    )
    commit(repo, {"src/events/a.py": "2"}, "the events code moves")
    kafka = decisions()["platform:ADR-0001"]
    assert kafka["state"] == "stale"
    assert kafka["reason"] == "1 governed file(s) changed since this repository last reviewed it"


def test_the_standing_says_when_by_whom_and_in_which_commit_it_came_to_stand(repo, capsys, monkeypatch):
    """Bob accepts the successor on a branch, Alice merges it with a merge commit: the retired
    decision's standing names Bob's commit and Bob, not the merge; one a successor retired
    without its own file saying so names the successor's acceptance."""
    import json

    from tests.helpers import git, run

    commit(
        repo,
        {
            "docs/adr/0001-a.md": adr_text("Use MongoDB"),
            "docs/adr/0002-b.md": adr_text("Use PostgreSQL", status="proposed", extra="supersedes: [ADR-0001]"),
        },
        "propose",
    )
    git(repo, "checkout", "-q", "-b", "bob")
    monkeypatch.setenv("GIT_AUTHOR_NAME", "Bob")
    monkeypatch.setenv("GIT_COMMITTER_NAME", "Bob")
    run(capsys, "accept", "2")
    bobs = commit(repo, {}, "accept the successor")
    git(repo, "checkout", "-q", "main")
    monkeypatch.setenv("GIT_AUTHOR_NAME", "Alice")
    monkeypatch.setenv("GIT_COMMITTER_NAME", "Alice")
    git(repo, "merge", "-q", "--no-ff", "bob", "-m", "Merge Bob's branch")
    retired = json.loads(run(capsys, "show", "1", "--json").out)["standing"]
    assert retired["state"] == "retired" and retired["retired_by"] == ["ADR-0002"]
    changed = retired["changed"]
    assert (changed["id"], changed["to"], changed["written_in"]) == ("ADR-0001", "superseded", bobs)
    assert changed["author"].startswith("Bob")
    accepted = json.loads(run(capsys, "show", "2", "--json").out)["standing"]["changed"]
    assert (accepted["to"], accepted["written_in"]) == ("accepted", bobs) and accepted["author"].startswith("Bob")


def test_who_made_a_decision_stand_so_is_unknown_until_the_change_is_committed(repo, capsys):
    from tests.helpers import run

    commit(repo, {"docs/adr/0001-a.md": adr_text("A", status="proposed")})
    rec = Workspace.discover(repo).catalog.get("1")
    committed = views.standing_changed(Workspace.discover(repo), rec, {"retired_by": []})
    assert committed is not None and (committed["id"], committed["to"]) == ("ADR-0001", "proposed")
    run(capsys, "accept", "1")  # in the work tree only
    ws = Workspace.discover(repo)
    assert views.standing_changed(ws, ws.catalog.get("1"), {"retired_by": []}) is None
    assert run(capsys, "show", "1", "--json").json["standing"]["changed"] is None
    assert "since" not in run(capsys, "show", "1").out.split("\n\n")[0]  # no "by  ()"
