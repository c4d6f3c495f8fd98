"""The checking commands as a user runs them: `stale` and its exit codes, `affirm`,
`feedback`, `why`/`guard`, `check` and `hooks install`/`uninstall`, each refusing bad input
with one error and a hint."""

from __future__ import annotations

import json

import pytest

from tests.helpers import adr_text, commit, git, run, sealed_env

A = "docs/adr/0001-use-postgres.md"


def _stale_repo(repo):
    commit(repo, {A: adr_text("Use Postgres", governs=["src/db/**"]), "src/db/a.py": "1"}, "decide")
    commit(repo, {"src/db/a.py": "2"}, "code")


def test_stale_exits_1_only_with_fail_and_its_json_names_what_changed(repo, capsys):
    _stale_repo(repo)
    run(capsys, "stale", code=0)
    run(capsys, "stale", "--fail", code=1)
    (decision,) = json.loads(run(capsys, "stale", "--json").out)["decisions"]
    assert (decision["id"], decision["state"], decision["changed"]) == ("ADR-0001", "stale", ["src/db/a.py"])
    (repo / "src/db/a.py").write_text("3")
    assert "src/db/a.py" in run(capsys, "stale", "--worktree", code=0).out


def test_affirm_moves_the_anchor_once_committed(repo, capsys):
    _stale_repo(repo)
    assert run(capsys, "affirm", "1", "--note", "still holds").out == (
        f"ADR-0001 affirmed in {A}; commit it to move the anchor\n"
    )
    run(capsys, "stale", "--fail", code=1)  # not yet committed
    commit(repo, {}, "affirm")
    run(capsys, "stale", "--fail", code=0)


def test_feedback_takes_exactly_one_verdict_and_a_wrong_one_disputes(repo, capsys):
    commit(repo, {A: adr_text("Use Postgres", governs=["src/db/**"]), "src/db/a.py": "1"}, "decide")
    err = run(capsys, "feedback", "1", code=2).err
    assert err.startswith("error: say one of --used, --not-applicable or --wrong\nhint: ")
    run(capsys, "feedback", "1", "--used", "--wrong", code=2)
    assert run(capsys, "feedback", "1", "--wrong", "--note", "we moved").out == "ADR-0001: wrong noted (local cache)\n"
    (decision,) = json.loads(run(capsys, "stale", "--json").out)["decisions"]
    assert decision["disputed"]


def test_why_and_guard_name_the_governing_decision(repo, capsys):
    _stale_repo(repo)
    assert "ADR-0001 Use Postgres  [accepted, stale]" in run(capsys, "why", "src/db/a.py").out
    (path,) = json.loads(run(capsys, "guard", "src/db/a.py", "--json").out)["paths"]
    assert [d["id"] for d in path["decisions"]] == ["ADR-0001"]


def test_check_passes_a_good_folder_and_fails_a_bad_record(repo, capsys):
    commit(repo, {A: adr_text("Use Postgres")}, "decide")
    run(capsys, "check", code=0)
    (repo / "docs/adr/0002-broken.md").write_text("---\nstatus: [unclosed\n---\n# Broken\n")
    data = json.loads(run(capsys, "check", "--format", "json", code=1).out)
    assert data["ok"] is False and any(f["path"] == "docs/adr/0002-broken.md" for f in data["findings"])
    assert run(capsys, "check", "--format", "nope", code=2).err.startswith("error: ")


def test_hooks_install_and_uninstall_leave_a_foreign_hook_alone(repo, capsys):
    commit(repo, {A: adr_text("Use Postgres")}, "decide")
    foreign = repo / ".git/hooks/post-merge"
    foreign.write_text("#!/bin/sh\necho mine\n")
    run(capsys, "hooks", "install", "pre-commit", "post-commit", code=0)
    assert "adr" in (repo / ".git/hooks/pre-commit").read_text()
    run(capsys, "hooks", "uninstall")
    assert not (repo / ".git/hooks/pre-commit").exists() and not (repo / ".git/hooks/post-commit").exists()
    assert foreign.read_text() == "#!/bin/sh\necho mine\n"
    assert run(capsys, "hooks", "install", "pre-push", code=2).err.startswith("error: unknown hook 'pre-push'")


# ---------------------------------------------------------------------------- one folder, read many ways

RULE = 'rules:\n  - {forbid: "import pymongo", in: ["src/**"], message: "we use PostgreSQL"}'


@pytest.fixture(scope="module")
def judged(tmp_path_factory):
    """Read only: ADR-0002 (accepted, with a rule) supersedes ADR-0001 and the code both govern
    moved on since; ADR-0003 governs nothing; ADR-0004 is proposed."""
    root = tmp_path_factory.mktemp("judged")
    with sealed_env(root / "home"):
        git(root, "init", "-q", "-b", "main")
        commit(
            root,
            {
                "docs/adr/0001-a.md": adr_text("Use MongoDB", governs=["src/**"]),
                "docs/adr/0002-b.md": adr_text(
                    "Use PostgreSQL", governs=["src/**"], extra=RULE + "\nsupersedes: [ADR-0001]", body="Orders in PG."
                ),
                "docs/adr/0003-c.md": adr_text("Run on Kubernetes"),
                "docs/adr/0004-d.md": adr_text("Pool connections", status="proposed"),
                "src/a.py": "1",
                "README.md": "hello",
            },
            "four decisions",
        )
        commit(root, {"src/a.py": "2"}, "the code moves")
    return root


@pytest.fixture
def here(judged, monkeypatch):
    monkeypatch.chdir(judged)
    return judged


def _table_rows(out):
    return {line.split()[0]: line.split() for line in out.splitlines() if line.strip().startswith("ADR-")}


def test_stale_lists_only_what_needs_review_and_all_lists_every_verdict(here, capsys):
    rows = _table_rows(run(capsys, "stale").out)
    assert list(rows) == ["ADR-0002"]
    assert rows["ADR-0002"][:5] == ["ADR-0002", "stale", "Use", "PostgreSQL", "src/a.py"]
    every = _table_rows(run(capsys, "stale", "--all").out)
    assert {k: v[1] for k, v in every.items()} == {
        "ADR-0001": "not-accepted",
        "ADR-0002": "stale",
        "ADR-0003": "fresh",
        "ADR-0004": "not-accepted",
    }


def test_stale_json_has_the_documented_shape_for_every_decision(here, capsys):
    decisions = run(capsys, "stale", "--json").json["decisions"]
    keys = {
        "id",
        "title",
        "path",
        "state",
        "anchor",
        "changed",
        "commits_since",
        "commits_since_complete",
        "newest_commit",
        "days_since_anchor",
        "reason",
        "disputed",
        "dispute_notes",
        "standing",
    }
    assert all(set(d) == keys for d in decisions)
    (stale,) = [d for d in decisions if d["state"] == "stale"]
    assert (stale["id"], stale["changed"], stale["commits_since"], stale["commits_since_complete"]) == (
        "ADR-0002",
        ["src/a.py"],
        1,
        True,
    )
    assert set(stale["newest_commit"]) == {"sha", "date", "subject"} and stale["newest_commit"]["subject"] == (
        "the code moves"
    )
    assert stale["newest_commit"]["sha"] == git(here, "rev-parse", "HEAD") and stale["newest_commit"]["date"].endswith(
        "Z"
    )
    assert (stale["disputed"], stale["dispute_notes"]) == (0, [])
    fresh = next(d for d in decisions if d["id"] == "ADR-0003")
    assert (fresh["state"], fresh["reason"], fresh["newest_commit"]) == ("fresh", "governs no code", None)


def test_stale_fail_exits_1_and_allow_unknown_still_fails_on_what_is_stale(here, capsys):
    run(capsys, "stale", "--fail", code=1)
    run(capsys, "stale", "--fail", "--allow-unknown", code=1)
    run(capsys, "stale", "--json", "--fail", code=1)


def test_why_names_rules_and_each_decision_with_its_standing_and_excerpt(here, capsys):
    assert run(capsys, "why", "src/a.py").out.splitlines() == [
        "src/a.py",
        f"  rule {_rule_id(capsys)}: forbid 'import pymongo' in src/**",
        "  ADR-0001 Use MongoDB  [superseded by ADR-0002, not-accepted]",
        f"    since: accepted in ADR-0002 {_today()} by Ada Author ({git(here, 'rev-parse', 'HEAD~1')[:10]})",
        "    We decided.",
        "  ADR-0002 Use PostgreSQL  [accepted, stale]",
        "    Orders in PG.",
    ]
    assert run(capsys, "why", "README.md").out == "README.md\n  no decision governs this path\n"


def _today():
    import datetime

    return datetime.datetime.now(datetime.UTC).date().isoformat()


def _rule_id(capsys):
    return run(capsys, "show", "2", "--json").json["rules"][0]["rule_id"]


def test_guard_json_has_the_documented_shape(here, capsys):
    (path,) = run(capsys, "guard", "src/a.py", "--json").json["paths"]
    assert set(path) == {"path", "outside", "decisions", "rules", "conflicts", "unreadable_sources"}
    assert (path["path"], path["outside"], path["conflicts"], path["unreadable_sources"]) == ("src/a.py", False, [], [])
    shape = {
        "id",
        "title",
        "status",
        "state",
        "reason",
        "excerpt",
        "path",
        "superseded_by",
        "in_force",
        "standing",
        "source",
    }
    assert all(shape <= set(d) for d in path["decisions"])
    old, new = path["decisions"]
    assert (old["id"], old["in_force"], old["standing"]["retired_by"]) == ("ADR-0001", False, ["ADR-0002"])
    assert (new["id"], new["in_force"], new["state"], new["excerpt"]) == ("ADR-0002", True, "stale", "Orders in PG.")
    assert path["rules"] == [
        {
            "id": "ADR-0002",
            "rule_id": _rule_id(capsys),
            "description": "forbid 'import pymongo' in src/**",
            "message": "we use PostgreSQL",
        }
    ]
    assert run(capsys, "why", "src/a.py", "--json").json == run(capsys, "guard", "src/a.py", "--json").json


def test_guard_takes_several_paths_in_their_order(here, capsys):
    paths = run(capsys, "guard", "README.md", "src/a.py", "--json").json["paths"]
    assert [(p["path"], len(p["decisions"])) for p in paths] == [("README.md", 0), ("src/a.py", 2)]


def test_check_fail_on_chooses_what_fails_the_run(here, capsys):
    """A warning fails nothing by default; named in --fail-on it does; `none` passes anything."""
    run(capsys, "check", code=0)
    run(capsys, "check", "--fail-on", "supersession", code=1)
    run(capsys, "check", "--fail-on", "any", code=1)
    run(capsys, "check", "--fail-on", "none", code=0)
    told = run(capsys, "check", "--fail-on", "error,stael", code=2)
    assert told.out == "" and told.err.startswith("error: unknown kind 'stael'\nhint: choose from: any, none, error,")


def test_check_of_named_files_reports_only_on_them(here, capsys):
    assert run(capsys, "check", "docs/adr/0003-c.md").err == "adr check: no problems\n"
    told = run(capsys, "check", "docs/adr/0001-a.md", "--json").json
    assert {f["path"] for f in told["findings"]} == {"docs/adr/0001-a.md"}


def test_review_json_has_the_documented_shape_and_markdown_is_the_default(here, capsys):
    report = run(capsys, "review", "--base", "HEAD~1", "--format", "json").json
    assert {
        "base",
        "merge_base",
        "head",
        "added",
        "new_versions",
        "status_changes",
        "deleted",
        "governing",
        "made_stale",
        "disputed",
        "sources_moved",
        "findings",
        "untouched",
    } <= set(report)
    assert report["head"] == git(here, "rev-parse", "HEAD") and report["merge_base"] == git(here, "rev-parse", "HEAD~1")
    (made,) = report["made_stale"]
    assert made["id"] == "ADR-0002" and made["advice"] and made["state"] == "stale"
    assert run(capsys, "review", "--base", "HEAD~1", "--json").json == report
    markdown = run(capsys, "review", "--base", "HEAD~1").out
    assert markdown.startswith("## Architecture decisions in this change (vs `HEAD~1`)")
    assert "### Decisions this change makes stale" in markdown
    told = run(capsys, "review", "--base", "HEAD~1", "--format", "github", code=2)
    assert told.err.startswith("error: ") and "\nhint: " in told.err


def test_review_needs_a_base_and_a_base_git_can_read(here, capsys):
    told = run(capsys, "review", code=2)
    assert told.err.startswith("error: missing option '--base'") and told.out == ""
    told = run(capsys, "review", "--base", "no-such-branch", code=2)
    assert told.err.startswith("error: ") and told.err.count("\n") == 2 and told.out == ""


def test_options_of_search_and_eval_are_checked_before_any_work(here, capsys):
    told = run(capsys, "search", "which", "database", "--status", "bogus", code=2)
    assert told.err == (
        "error: unknown status 'bogus'\nhint: choose from: proposed, accepted, rejected, deprecated, superseded, all\n"
    )
    told = run(capsys, "eval", "--queries", "q.json", "--mode", "bogus", code=2)
    assert told.err == "error: unknown mode 'bogus'\nhint: choose from: all, keyword, semantic, hybrid\n"
    assert not (here / ".adr-cache" / "index").exists()


# ---------------------------------------------------------------------------- commands that write


def test_affirm_refuses_a_proposed_decision_and_an_unknown_one_naming_the_nearest(repo, capsys):
    commit(repo, {A: adr_text("Use Postgres"), "docs/adr/0002-b.md": adr_text("Pool", status="proposed")})
    before = (repo / "docs/adr/0002-b.md").read_bytes()
    told = run(capsys, "affirm", "2", code=2)
    assert told.err == (
        "error: ADR-0002 is proposed: only an accepted decision is affirmed\nhint: accept it first: adr accept ADR-0002\n"
    )
    assert (repo / "docs/adr/0002-b.md").read_bytes() == before
    told = run(capsys, "affirm", "9", code=2)
    assert told.err.startswith("error: no decision '9' in docs/adr\nhint: the nearest: ")


def test_affirm_writes_only_the_reviewed_key(repo, capsys):
    commit(repo, {A: adr_text("Use Postgres", governs=["src/**"])})
    before = (repo / A).read_text()
    run(capsys, "affirm", "ADR-1", "--note", "still right")
    after = (repo / A).read_text()
    added = [line for line in after.splitlines() if line not in before.splitlines()]
    assert added[0].startswith("reviewed:") and "still right" in after
    assert after.replace("\n".join(added) + "\n", "") == before


def test_feedback_of_an_unknown_decision_is_refused_and_nothing_is_noted(repo, capsys):
    commit(repo, {A: adr_text("Use Postgres", governs=["src/**"]), "src/a.py": "1"})
    told = run(capsys, "feedback", "9", "--wrong", code=2)
    assert told.err.startswith("error: no decision '9' in docs/adr\nhint: ")
    (only,) = run(capsys, "stale", "--json").json["decisions"]
    assert (only["disputed"], only["dispute_notes"]) == (0, [])


def test_hooks_install_and_uninstall_say_what_each_did(repo, capsys):
    commit(repo, {A: adr_text("Use Postgres")})
    assert run(capsys, "hooks", "install").out.splitlines() == [
        "pre-commit: installed",
        "post-commit: installed",
        "post-merge: installed",
    ]
    assert run(capsys, "hooks", "uninstall", "post-merge").out == "post-merge: removed\n"
    assert (repo / ".git/hooks/pre-commit").exists() and not (repo / ".git/hooks/post-merge").exists()
    assert run(capsys, "hooks", "install", "claude-code", "--strict").out == "claude-code: installed\n"
    settings = json.loads((repo / ".claude/settings.json").read_text())
    assert "agent-guard --strict" in json.dumps(settings["hooks"]["PreToolUse"])


def test_sources_list_add_and_remove_say_what_to_commit(repo, capsys, tmp_path):
    commit(repo, {A: adr_text("Use Postgres")})
    assert run(capsys, "sources", "list").out == "No sources: adr sources add NAME URL\n"
    assert run(capsys, "sources", "list", "--json").json == {"sources": []}
    central = tmp_path / "central"
    central.mkdir()
    git(central, "init", "-q", "-b", "main")
    commit(central, {"docs/adr/0001-k.md": adr_text("Publish events on Kafka")})
    said = run(capsys, "sources", "add", "platform", str(central)).out
    assert said == f"source platform ({central}) added to .adr-memory.toml; now: adr sources update platform\n"
    updated = run(capsys, "sources", "update", "--json").json
    (row,) = updated["sources"]
    assert (row["name"], row["commit"], row["dir"]) == ("platform", git(central, "rev-parse", "HEAD"), "docs/adr")
    (listed,) = run(capsys, "sources", "list", "--json").json["sources"]
    assert (listed["name"], listed["records"], listed["commit"]) == ("platform", 1, row["commit"])
    text = run(capsys, "sources", "list").out
    assert text.startswith(f"platform: {central} main at {row['commit'][:10]} (") and text.endswith("; 1 decision\n")
    said = run(capsys, "sources", "remove", "platform").out
    assert said == "source platform removed from .adr-memory.toml and adr-sources.lock: commit them\n"
    assert run(capsys, "sources", "list", "--json").json == {"sources": []}


def test_a_credential_in_a_source_url_is_never_written_and_the_user_is_told(repo, capsys, tmp_path):
    commit(repo, {A: adr_text("Use Postgres")})
    told = run(capsys, "sources", "add", "platform", "https://ci:s3cr3tT0ken@git.example.org/acme/arch.git")
    assert "s3cr3tT0ken" not in told.out + told.err + (repo / ".adr-memory.toml").read_text()
    assert told.err.startswith("warning: the credential in the URL was ")


def test_mcp_refuses_write_tools_for_the_hub_and_a_folder_that_is_no_repository(tmp_path, capsys, monkeypatch):
    refused = run(capsys, "mcp", "--hub", str(tmp_path / "hub"), "--allow-write", code=2)
    assert refused.err.splitlines() == [
        "error: the hub's tools are read-only",
        "hint: drop --allow-write, or serve a repository",
    ]
    monkeypatch.chdir(tmp_path)
    outside = run(capsys, "mcp", "--repo", str(tmp_path), code=2)
    assert outside.err.startswith("error: ") and outside.out == ""
