"""The checking commands as a user runs them: `stale` and its exit codes, `affirm`,
`feedback`, `why`/`guard`, `check` and `hooks install`/`uninstall`, each refusing bad input
with one error and a hint."""

from __future__ import annotations

import json

from tests.helpers import adr_text, commit, run

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
