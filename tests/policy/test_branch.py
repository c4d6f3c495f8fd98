"""A scripted pull request: main moves on after the branch point; the branch adds an ADR,
edits an accepted one, touches governed code and reverts another change."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from tests.helpers import adr_text, commit, git, run

ROOT = Path(__file__).parents[2]


@pytest.fixture
def pr(repo):
    commit(
        repo,
        {
            "docs/adr/0001-db.md": adr_text("Use Postgres", governs=["src/db/**"], body="PostgreSQL."),
            "docs/adr/0002-api.md": adr_text("REST API", governs=["src/api/**"], body="REST."),
            "docs/adr/0004-cache.md": adr_text("Cache", governs=["src/cache/**"], body="LRU."),
            "src/db/a.py": "1",
            "src/api/x.py": "1",
            "src/cache/c.py": "1",
        },
        "base",
    )
    commit(repo, {"src/cache/c.py": "tmp"}, "experiment on main")
    git(repo, "checkout", "-q", "-b", "feature")
    commit(
        repo,
        {
            "docs/adr/0003-redis.md": adr_text("Use Redis", status="proposed"),
            "docs/adr/0001-db.md": adr_text("Use Postgres", governs=["src/db/**"], body="PostgreSQL 16."),
            "src/cache/c.py": "branch experiment",
        },
        "add and edit",
    )
    commit(repo, {"src/api/x.py": "2", "src/cache/c.py": "tmp"}, "touch api, revert the cache experiment")
    git(repo, "checkout", "-q", "main")
    commit(repo, {"docs/adr/0003-kafka.md": adr_text("Use Kafka", status="proposed")}, "main moves on")
    git(repo, "checkout", "-q", "feature")
    return repo


def test_check_base_findings_against_the_merge_base(pr, capsys):
    data = json.loads(run(capsys, "check", "--base", "main", "--format", "json", code=1).out)
    kinds = {(f["kind"], f["id"]) for f in data["findings"]}
    assert kinds == {("accepted-edit", "ADR-0001"), ("collision", "ADR-0003"), ("stale", "ADR-0002")}
    assert data["ok"] is False


def test_check_base_formats(pr, capsys):
    text = run(capsys, "check", "--base", "main", code=1).out
    assert "docs/adr/0001-db.md:1: error: accepted-edit:" in text
    github = run(capsys, "check", "--base", "main", "--format", "github", code=1).out
    assert "::error file=docs/adr/0003-redis.md,line=1,title=collision ADR-0003::" in github
    markdown = run(capsys, "check", "--base", "main", "--format", "markdown", code=1).out
    assert "| ❌ | `docs/adr/0001-db.md:1` | accepted-edit |" in markdown


def test_fail_on_and_accepted_edit_policy(pr, capsys):
    run(capsys, "check", "--base", "main", "--fail-on", "none", code=0)
    run(capsys, "check", "--base", "main", "--fail-on", "stale", code=1)
    (pr / ".adr-memory.toml").write_text('accepted-edits = "warn"\n')
    out = run(capsys, "check", "--base", "main", "--fail-on", "accepted-edit", code=1).out
    assert "warning: accepted-edit" in out


def test_review_markdown_and_json(pr, capsys):
    md = run(capsys, "review", "--base", "main").out
    assert "### New decisions" in md and "Use Redis" in md
    assert "<details><summary><b>ADR-0001</b>" in md and "+PostgreSQL 16." in md
    assert "### Decisions governing the code this change touches" in md and "`src/api/x.py`" in md
    assert "ADR-0004" not in md  # the reverted cache change leaves it untouched
    data = json.loads(run(capsys, "review", "--base", "main", "--format", "json").out)
    assert [r["id"] for r in data["made_stale"]] == ["ADR-0002"]


def test_deleted_renumbered_and_backwards(repo, capsys):
    commit(
        repo,
        {
            "docs/adr/0001-a.md": adr_text("A", body="alpha"),
            "docs/adr/0002-b.md": adr_text("B", body="beta"),
            "docs/adr/0003-c.md": adr_text("C", body="gamma"),
        },
        "base",
    )
    git(repo, "checkout", "-q", "-b", "bad")
    git(repo, "rm", "-q", "docs/adr/0001-a.md")
    git(repo, "mv", "docs/adr/0002-b.md", "docs/adr/0009-b.md")
    commit(repo, {"docs/adr/0003-c.md": adr_text("C", status="proposed", body="gamma")}, "bad things")
    data = json.loads(run(capsys, "check", "--base", "main", "--format", "json", code=1).out)
    kinds = {(f["kind"], f["id"]) for f in data["findings"]}
    assert {("deleted", "ADR-0001"), ("renumbered", "ADR-0009"), ("status-backwards", "ADR-0003")} <= kinds


def test_unknown_base_and_shallow_hint(repo, capsys):
    commit(repo, {"docs/adr/0001-a.md": adr_text("A")}, "base")
    result = run(capsys, "check", "--base", "origin/nope", code=2)
    assert result.err.startswith("error: unknown revision 'origin/nope'") and "fetch-depth: 0" in result.err


def test_unrelated_histories_say_so_rather_than_blame_the_clone(repo, capsys):
    """An orphan branch (a docs site, a fresh import) shares no commit with main: a full clone
    is no fix, so the hint does not say fetch the history."""
    commit(repo, {"docs/adr/0001-db.md": adr_text("DB")}, "main")
    git(repo, "checkout", "-q", "--orphan", "site")
    commit(repo, {"docs/adr/0002-api.md": adr_text("API")}, "orphan")
    for args in (("check", "--base", "main"), ("review", "--base", "main")):
        err = run(capsys, *args, code=2).err
        assert err.startswith("error: main and HEAD share no history") and "fetch-depth" not in err


def test_workflow_file_parses_and_is_the_one_the_ci_guide_shows():
    workflow = (ROOT / ".github/workflows/adr.yml").read_text()
    data = yaml.safe_load(workflow)
    steps = data["jobs"]["decisions"]["steps"]
    assert steps[0]["with"]["fetch-depth"] == 0
    assert any("adr check --base" in s.get("run", "") and "--format github" in s["run"] for s in steps)
    assert workflow.strip() in (ROOT / "docs/ci.md").read_text()


TOOLS_OLD = (
    "# 16. Use the old way\n\nDate: 2020-01-01\n\n## Status\n\n✅ Accepted\n\n## Context\n\nc\n\n## Decision\n\nd\n"
)
TOOLS_NEW = "# 17. Use the new way\n\nDate: 2021-01-01\n\n## Status\n\nAccepted\n\n## Context\n\nc\n"


@pytest.mark.parametrize(
    "args", [("deprecate", "16"), ("supersede", "16", "--by", "17"), ("link", "17", "Amends", "16", "Amended by")]
)
def test_lifecycle_commands_on_adr_tools_records_pass_check_base(repo, capsys, args):
    """Status and link lines are not content: no new version, no accepted-edit, CI stays green."""
    commit(repo, {"docs/adr/0016-old.md": TOOLS_OLD, "docs/adr/0017-new.md": TOOLS_NEW}, "base")
    git(repo, "checkout", "-q", "-b", "pr")
    run(capsys, *args)
    commit(repo, {}, " ".join(args))
    data = json.loads(run(capsys, "check", "--base", "main", "--format", "json").out)
    assert data["ok"] is True and data["findings"] == []
    for ident in ("16", "17"):
        versions = json.loads(run(capsys, "log", ident, "--json").out)["versions"]
        assert len(versions) == 1 and not versions[0]["draft"]


def test_check_base_reports_what_the_branch_did_and_one_line_for_the_rest(repo, capsys):
    legacy = adr_text("Legacy", extra="relates-to: [ADR-0099]")  # a link to nothing: a warning
    commit(
        repo,
        {f"docs/adr/{n:04d}-legacy.md": legacy for n in range(1, 4)}
        | {
            "docs/adr/0004-target.md": adr_text("Target"),
            "docs/adr/0005-linker.md": adr_text("Linker", extra="relates-to: [ADR-0006]"),
            "docs/adr/0006-linked.md": adr_text("Linked"),
        },
        "base",
    )
    git(repo, "checkout", "-q", "-b", "pr")
    commit(
        repo,
        {
            "docs/adr/0004-target.md": adr_text("Target", extra="relates-to: [ADR-0098]"),
            "docs/adr/0006-linked.md": None,
        },
        "edit one, delete one",
    )
    data = json.loads(run(capsys, "check", "--base", "main", "--format", "json", code=1).out)
    found = {(f["kind"], f["id"]) for f in data["findings"]}
    assert found == {("unknown-link", "ADR-0004"), ("unknown-link", "ADR-0005"), ("deleted", "ADR-0006")}
    assert data["untouched"].startswith("3 warning(s) in untouched records")
    text = run(capsys, "check", "--base", "main", code=1)
    assert "0001-legacy" not in text.out and "3 warning(s) in untouched records" in text.err
    assert "3 warning(s) in untouched records" in run(capsys, "review", "--base", "main").out
    assert "0001-legacy" in run(capsys, "check", code=0).out  # plain `adr check` still lists them


def test_a_review_in_the_pull_request_that_misses_what_main_changed_is_flagged(repo, capsys):
    """GitHub checks a pull request out as its merge into the base: a decision reviewed on the
    branch, while main changed code it governs, is stale there; `check --base` says why."""
    commit(
        repo,
        {
            "docs/adr/0001-db.md": adr_text("Use Postgres", governs=["src/db/**"]),
            "docs/adr/0002-api.md": adr_text("REST API", governs=["src/api/**"]),
            "src/db/a.py": "1",
            "src/db/b.py": "1",
            "src/api/x.py": "1",
        },
        "base",
    )
    commit(repo, {"src/api/x.py": "2"}, "main changes the API without a review")
    git(repo, "checkout", "-q", "-b", "topic")
    commit(repo, {"notes.txt": "start"}, "start")
    (repo / "src/db/a.py").write_text("2")
    run(capsys, "affirm", "1", "--note", "reviewed with the change")
    git(repo, "commit", "-qam", "change db and affirm")
    run(capsys, "link", "2", "Relates to", "1")  # a link is not a review
    git(repo, "commit", "-qam", "link only")
    git(repo, "checkout", "-q", "main")
    commit(repo, {"src/db/b.py": "2"}, "main changes db")
    git(repo, "checkout", "-q", "--detach", "main")
    git(repo, "merge", "--no-ff", "-q", "-m", "Merge topic into main", "topic")
    data = json.loads(run(capsys, "check", "--base", "main", "--format", "json").out)
    stale = {f["id"]: f for f in data["findings"] if f["kind"] == "stale"}
    assert "is reviewed in this change, but not with what main changed" in stale["ADR-0001"]["message"]
    assert "src/db/b.py" in stale["ADR-0001"]["message"]
    assert "ADR-0002" not in stale  # stale on main already; this change did not review it
    review = json.loads(run(capsys, "review", "--base", "main", "--format", "json").out)
    assert [v["id"] for v in review["made_stale"]] == ["ADR-0001"]
    # The report advises what the finding does: affirming again before the branch has main's
    # change would review without it once more.
    assert review["made_stale"][0]["advice"] == stale["ADR-0001"]["hint"]
    assert "merge or rebase onto main, review ADR-0001 again" in run(capsys, "review", "--base", "main").out


def test_a_record_written_but_not_committed_is_the_branch_s_to_answer_for(repo, capsys):
    """MCP `check {base}` before a commit said ok for the agent's own new record whose governs
    glob matched nothing: uncommitted records counted as untouched."""
    import asyncio
    import json

    from tests.helpers import adr_text, commit, git, run
    from tests.surfaces.test_mcp import _session_calls

    commit(repo, {"docs/adr/0001-a.md": adr_text("A"), "src/a.py": "1"}, "start")
    git(repo, "checkout", "-q", "-b", "agent")
    (repo / "docs/adr/0002-cache.md").write_text(adr_text("Cache with Redis", governs=["src/cahce/**"]))
    found = json.loads(run(capsys, "check", "--base", "main", "--format", "json", code=1).out)
    (missing,) = [f for f in found["findings"] if f["kind"] == "scope-missing"]
    assert missing["path"] == "docs/adr/0002-cache.md" and missing["severity"] == "error"
    with capsys.disabled():
        _tools, (answer,) = asyncio.run(_session_calls(repo, [("check", {"base": "main"})]))
    told = json.loads(answer)
    assert told["ok"] is False and any(f["kind"] == "scope-missing" for f in told["findings"])
