from __future__ import annotations

import json
import subprocess
import sys

from tests.helpers import adr_text, commit, git, run


def _git_env():
    import os

    return dict(os.environ)


def test_install_keeps_a_foreign_hook_as_legacy_runs_it_first_and_uninstall_restores_it(repo, capsys):
    hooks = repo / ".git/hooks"
    hooks.mkdir(exist_ok=True)
    (hooks / "post-commit").write_text("#!/bin/sh\necho legacy-ran\n")
    (hooks / "post-commit").chmod(0o755)
    out = run(capsys, "hooks", "install").out
    assert "post-commit: kept-legacy" in out and "pre-commit: installed" in out
    assert (hooks / "post-commit.legacy").read_text() == "#!/bin/sh\necho legacy-ran\n"
    assert "# managed-by: adr-memory" in (hooks / "post-commit").read_text().split("\n")[1]
    assert sys.executable in (hooks / "post-commit").read_text()
    commit(repo, {"docs/adr/0001-db.md": adr_text("DB", governs=["src/db/**"]), "src/db/a.py": "1"}, "base")
    (repo / "src/db/a.py").write_text("2")
    git(repo, "add", "-A")
    result = subprocess.run(["git", "commit", "-q", "-m", "touch db"], cwd=repo, capture_output=True,
                            text=True)
    assert result.returncode == 0
    output = result.stdout + result.stderr  # git sends hook output to stderr
    assert "legacy-ran" in output
    assert "adr: this commit makes ADR-0001 stale (DB): src/db/a.py" in output
    assert "updated" in run(capsys, "hooks", "install").out
    out = run(capsys, "hooks", "uninstall").out
    assert "post-commit: restored-legacy" in out and "pre-commit: removed" in out
    assert (hooks / "post-commit").read_text() == "#!/bin/sh\necho legacy-ran\n"
    assert not (hooks / "pre-commit").exists()


def test_pre_commit_hook_blocks_a_broken_adr(repo, capsys):
    run(capsys, "hooks", "install", "pre-commit")
    (repo / "docs/adr").mkdir(parents=True)
    (repo / "docs/adr/0001-bad.md").write_text("---\nstatus: [x\n---\n# Bad\n")
    git(repo, "add", "-A")
    result = subprocess.run(["git", "commit", "-q", "-m", "bad"], cwd=repo, capture_output=True, text=True)
    assert result.returncode == 1 and "error: yaml" in result.stdout + result.stderr


BROKEN = "---\nstatus: [x\n---\n# Bad\n"


def _commit_fails(root, *args):
    result = subprocess.run(["git", "commit", "-q", "-m", "bad", *args], cwd=root, capture_output=True,
                            text=True)
    return result.returncode == 1 and "error: yaml" in result.stdout + result.stderr


def test_pre_commit_hook_sees_commit_a_and_commit_path(repo, capsys):
    """Both stage into a temporary index (GIT_INDEX_FILE); the real index holds nothing."""
    run(capsys, "hooks", "install", "pre-commit")
    commit(repo, {"docs/adr/0001-a.md": adr_text("A")}, "base")
    (repo / "docs/adr/0001-a.md").write_text(BROKEN)
    assert _commit_fails(repo, "-a")
    assert _commit_fails(repo, "docs/adr/0001-a.md")
    assert _commit_fails(repo, "--only", "docs/adr/0001-a.md")
    assert git(repo, "log", "--format=%s") == "base"


def test_core_hooks_path_is_honoured_and_a_hook_there_is_chained(repo, capsys):
    git(repo, "config", "core.hooksPath", ".githooks")
    own = repo / ".githooks/pre-commit"
    own.parent.mkdir()
    own.write_text("#!/bin/sh\necho husky-ran >&2\n")
    own.chmod(0o755)
    assert "pre-commit: kept-legacy" in run(capsys, "hooks", "install", "pre-commit").out
    (repo / "docs/adr").mkdir(parents=True)
    (repo / "docs/adr/0001-bad.md").write_text(BROKEN)
    git(repo, "add", "-A")
    result = subprocess.run(["git", "commit", "-q", "-m", "bad"], cwd=repo, capture_output=True, text=True)
    output = result.stdout + result.stderr
    assert result.returncode == 1 and "husky-ran" in output and "error: yaml" in output
    assert "pre-commit: restored-legacy" in run(capsys, "hooks", "uninstall", "pre-commit").out
    assert own.read_text() == "#!/bin/sh\necho husky-ran >&2\n"


def test_hooks_installed_from_a_linked_worktree_run_there(repo, tmp_path, capsys, monkeypatch):
    commit(repo, {"docs/adr/0001-a.md": adr_text("A")}, "base")
    tree = tmp_path / "wt"
    git(repo, "worktree", "add", "-q", str(tree), "-b", "feature")
    monkeypatch.chdir(tree)
    run(capsys, "hooks", "install", "pre-commit")
    assert (repo / ".git/hooks/pre-commit").is_file()
    (tree / "docs/adr/0002-bad.md").write_text(BROKEN)
    git(tree, "add", "-A")
    assert _commit_fails(tree)


def test_hook_script_explains_when_adr_memory_is_missing(repo, tmp_path):
    from adr_memory import hooks

    script = tmp_path / "post-commit"
    script.write_text(hooks.script("post-commit", python="/nonexistent/python"))
    script.chmod(0o755)
    result = subprocess.run([str(script)], cwd=repo, capture_output=True, text=True,
                            env={"PATH": "/usr/bin:/bin"})
    assert result.returncode == 0 and "adr-memory: not found" in result.stderr


def test_agent_guard_prints_stale_decisions_and_fails_open(repo, monkeypatch):
    commit(repo, {"docs/adr/0001-db.md": adr_text("DB", governs=["src/db/**"]), "src/db/a.py": "1"}, "base")
    commit(repo, {"src/db/a.py": "2"}, "change")
    call = json.dumps({"tool_name": "Edit", "tool_input": {"file_path": str(repo / "src/db/a.py")}})
    cmd = [sys.executable, "-m", "adr_memory.hook", "agent-guard"]
    out = subprocess.run(cmd, cwd=repo, input=call, capture_output=True, text=True)
    assert out.returncode == 0 and out.stdout.startswith("ADR-0001 DB governs")
    broken = subprocess.run(cmd, cwd=repo, input="{not json", capture_output=True, text=True)
    assert broken.returncode == 0 and broken.stdout == "" and broken.stderr == ""
    off = subprocess.run(cmd, cwd=repo, input=call, capture_output=True, text=True,
                         env={**_git_env(), "ADR_GUARD": "0"})
    assert off.stdout == ""
