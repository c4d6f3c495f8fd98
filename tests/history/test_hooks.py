from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys

import pytest

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
    result = subprocess.run(["git", "commit", "-q", "-m", "touch db"], cwd=repo, capture_output=True, text=True)
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
    result = subprocess.run(["git", "commit", "-q", "-m", "bad", *args], cwd=root, capture_output=True, text=True)
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


def test_a_hooks_path_a_clone_links_out_of_the_repository_is_refused(repo, tmp_path, capsys):
    """husky points core.hooksPath at `.husky/_`; a clone can commit that folder as a link to
    ~/.local/bin, where installing would write a `pre-commit` and move the real one aside. A
    folder the user's config names outside the repository is still theirs to use."""
    bin_dir = tmp_path / "local-bin"
    bin_dir.mkdir()
    (bin_dir / "pre-commit").write_text("#!/bin/sh\necho the real pre-commit\n")
    (repo / ".husky").mkdir()
    (repo / ".husky" / "_").symlink_to(bin_dir)
    commit(repo, {"docs/adr/0001-db.md": adr_text("DB")}, "a clone's link")
    git(repo, "config", "core.hooksPath", ".husky/_")
    err = run(capsys, "hooks", "install", code=2).err
    assert err.startswith("error: core.hooksPath '.husky/_' leads out of the repository through a link")
    assert sorted(p.name for p in bin_dir.iterdir()) == ["pre-commit"]
    assert (bin_dir / "pre-commit").read_text() == "#!/bin/sh\necho the real pre-commit\n"
    git(repo, "config", "core.hooksPath", str(tmp_path / "my-hooks"))  # the user's own folder
    assert "pre-commit: installed" in run(capsys, "hooks", "install", "pre-commit").out
    assert (tmp_path / "my-hooks" / "pre-commit").is_file()


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
    from adr_memory.history import hooks

    script = tmp_path / "post-commit"
    script.write_text(hooks.script("post-commit", python="/nonexistent/python"))
    script.chmod(0o755)
    result = subprocess.run([str(script)], cwd=repo, capture_output=True, text=True, env={"PATH": "/usr/bin:/bin"})
    assert result.returncode == 0 and "adr-memory: not found" in result.stderr


def _guard(repo, call, *flags, env=None):
    cmd = [sys.executable, "-m", "adr_memory.hook", "agent-guard", *flags]
    data = call if isinstance(call, str) else json.dumps(call)
    return subprocess.run(cmd, cwd=repo, input=data, capture_output=True, text=True, env=env)


RULE = 'rules:\n  - {forbid: "import pymongo", in: ["src/db/**"], message: "we use PostgreSQL"}'


def test_agent_guard_answers_in_the_hook_protocol_with_the_decision_and_its_rules(repo):
    commit(
        repo,
        {
            "docs/adr/0001-db.md": adr_text(
                "Use PostgreSQL", governs=["src/db/**"], extra=RULE, body="Orders live in PostgreSQL 16."
            ),
            "src/db/a.py": "1",
            "src/ui/b.py": "1",
        },
        "base",
    )
    edit = {"tool_name": "Edit", "tool_input": {"file_path": str(repo / "src/db/a.py")}}
    out = _guard(repo, edit)
    answer = json.loads(out.stdout)["hookSpecificOutput"]
    assert out.returncode == 0 and answer["hookEventName"] == "PreToolUse"
    context = answer["additionalContext"]
    assert context.startswith("ADR-0001 (accepted; fresh) governs src/db/a.py: Use PostgreSQL.")
    assert "Orders live in PostgreSQL 16." in context and "we use PostgreSQL" in context
    assert "permissionDecision" not in answer
    bash = {"tool_name": "Bash", "tool_input": {"command": "sed -i s/x/y/ src/db/a.py"}}
    assert "ADR-0001" in json.loads(_guard(repo, bash).stdout)["hookSpecificOutput"]["additionalContext"]
    quiet = _guard(repo, {"tool_name": "Write", "tool_input": {"file_path": str(repo / "src/ui/b.py")}})
    assert quiet.returncode == 0 and quiet.stdout == ""


def test_agent_guard_strict_asks_before_editing_code_of_a_stale_decision(repo):
    commit(repo, {"docs/adr/0001-db.md": adr_text("DB", governs=["src/db/**"]), "src/db/a.py": "1"}, "base")
    commit(repo, {"src/db/a.py": "2"}, "change")
    edit = {"tool_name": "MultiEdit", "tool_input": {"file_path": "src/db/a.py"}}
    relaxed = json.loads(_guard(repo, edit).stdout)["hookSpecificOutput"]
    assert "ADR-0001 is stale" in relaxed["additionalContext"] and "permissionDecision" not in relaxed
    strict = json.loads(_guard(repo, edit, "--strict").stdout)["hookSpecificOutput"]
    assert strict["permissionDecision"] == "ask" and "ADR-0001 is stale" in strict["permissionDecisionReason"]


def test_agent_guard_fails_open(repo):
    commit(repo, {"docs/adr/0001-db.md": adr_text("DB", governs=["src/db/**"]), "src/db/a.py": "1"}, "base")
    for garbage in ("{not json", "[]", '{"tool_name": "Edit", "tool_input": "x"}', ""):
        broken = _guard(repo, garbage)
        assert broken.returncode == 0 and broken.stdout == "" and broken.stderr == ""
    off = _guard(
        repo, {"tool_name": "Edit", "tool_input": {"file_path": "src/db/a.py"}}, env={**_git_env(), "ADR_GUARD": "0"}
    )
    assert off.stdout == ""


def test_install_claude_code_merges_settings_and_uninstall_removes_only_ours(repo, capsys):
    settings = repo / ".claude/settings.json"
    settings.parent.mkdir()
    theirs = {
        "model": "opus",
        "permissions": {"allow": ["Bash(ls)"]},
        "hooks": {
            "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "lint.sh"}]}],
            "Stop": [{"hooks": [{"type": "command", "command": "notify.sh"}]}],
        },
    }
    settings.write_text(json.dumps(theirs))
    assert "claude-code: installed" in run(capsys, "hooks", "install", "claude-code").out
    assert "claude-code: updated" in run(capsys, "hooks", "install", "claude-code", "--strict").out
    data = json.loads(settings.read_text())
    ours = [h for g in data["hooks"]["PreToolUse"] for h in g["hooks"] if "adr-hook" in h["command"]]
    py = shlex.quote(sys.executable)
    assert ours == [
        {
            "type": "command",
            "command": f"if [ -x {py} ]; then exec {py} -m adr_memory.hook agent-guard --strict; "
            "else exec adr-hook agent-guard --strict; fi",
        }
    ]
    assert data["model"] == "opus" and data["hooks"]["Stop"] == theirs["hooks"]["Stop"]
    assert data["hooks"]["PreToolUse"][0] == theirs["hooks"]["PreToolUse"][0]
    assert "claude-code: removed" in run(capsys, "hooks", "uninstall", "claude-code").out
    assert json.loads(settings.read_text()) == theirs
    assert "claude-code: absent" in run(capsys, "hooks", "uninstall", "claude-code").out
    settings.write_text("{broken")
    assert run(capsys, "hooks", "install", "claude-code", code=2).err.startswith("error: cannot read")
    assert settings.read_text() == "{broken"


def test_the_installed_claude_code_command_runs_from_a_shell_without_the_venv_on_path(repo, capsys):
    """An agent's shell seldom has the venv adr-memory lives in on PATH: the command names the
    interpreter, and falls back to `adr-hook` on PATH when that interpreter is gone."""
    commit(repo, {"docs/adr/0001-db.md": adr_text("Use PostgreSQL", governs=["src/db/**"])}, "db")
    run(capsys, "hooks", "install", "claude-code")
    command = json.loads((repo / ".claude/settings.json").read_text())["hooks"]["PreToolUse"][0]["hooks"][0]["command"]
    call = json.dumps({"tool_name": "Edit", "tool_input": {"file_path": "src/db/a.py"}})
    bare = {**_git_env(), "PATH": "/usr/bin:/bin"}  # no adr-hook, no venv
    done = subprocess.run(["sh", "-c", command], cwd=repo, input=call, capture_output=True, text=True, env=bare)
    assert "ADR-0001 (accepted" in json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"]
    from adr_memory.history import hooks

    gone = hooks.claude_command(python="/no/such/python")
    fallback = subprocess.run(["sh", "-c", gone], cwd=repo, input=call, capture_output=True, text=True, env=bare)
    assert "adr-hook" in fallback.stderr  # the shell says what it could not find


@pytest.mark.parametrize("link", [".claude", ".claude/settings.json"])
def test_settings_linked_out_of_a_clone_are_neither_read_nor_rewritten(repo, tmp_path, capsys, link):
    """A repository can ship `.claude` (or its settings file) as a link to the user's own
    `~/.claude`: installing would merge the user's settings into the repository, or rewrite them."""
    home = tmp_path / "home-claude"
    home.mkdir()
    (home / "settings.json").write_text('{"apiKeyHelper": "mine"}')
    if "/" in link:
        (repo / ".claude").mkdir()
    (repo / link).symlink_to(home if link == ".claude" else home / "settings.json")
    commit(repo, {"docs/adr/0001-db.md": adr_text("DB")}, "a clone's links")
    for verb in ("install", "uninstall"):
        err = run(capsys, "hooks", verb, "claude-code", code=2).err
        assert err.startswith("error: the file '.claude/settings.json' points outside the repository")
    assert (home / "settings.json").read_text() == '{"apiKeyHelper": "mine"}' and os.listdir(home) == ["settings.json"]


def test_post_merge_names_the_decisions_a_pull_made_stale(repo, tmp_path, capsys):
    commit(repo, {"docs/adr/0001-db.md": adr_text("DB", governs=["src/db/**"]), "src/db/a.py": "1"}, "base")
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", str(repo), str(clone))
    commit(repo, {"src/db/a.py": "2"}, "upstream changes the db")
    import os

    os.chdir(clone)
    assert "post-merge: installed" in run(capsys, "hooks", "install").out
    pulled = subprocess.run(
        ["git", "pull", "-q", "--no-rebase", "origin", "main"], cwd=clone, capture_output=True, text=True
    )
    assert pulled.returncode == 0
    assert "adr: what this merge brought in makes ADR-0001 stale (DB): src/db/a.py" in pulled.stdout + pulled.stderr


def _git_status_paths(root):
    out = git(root, "status", "--porcelain", "-uall", "--no-renames")
    return {line[3:] for line in out.splitlines()}


def test_pre_commit_hook_reads_a_split_index(repo, capsys):
    """`core.splitIndex`: most entries live in a shared index beside `.git/index`, which names
    them with a `link` extension dulwich's reader stops at (the hook failed with an internal
    error, and every commit with it)."""
    from adr_memory.history.repo import Repo

    run(capsys, "hooks", "install", "pre-commit")
    commit(repo, {"docs/adr/0001-a.md": adr_text("A", governs=["src/**"]), "src/a.py": "1", "src/b.py": "1"}, "base")
    git(repo, "config", "core.splitIndex", "true")
    git(repo, "update-index", "--split-index")
    commit(repo, {"src/a.py": "2", "src/b.py": None}, "split")  # entries replaced and deleted
    assert b"link" in (repo / ".git/index").read_bytes()
    (repo / "src/c.py").write_text("new")
    git(repo, "add", "src/c.py")
    assert Repo.open(repo).staged_paths() == {"src/c.py"}
    assert set(Repo.open(repo).tracked_paths()) == set(git(repo, "ls-files").split())
    (repo / "docs/adr/0002-bad.md").write_text(BROKEN)
    git(repo, "add", "-A")
    assert _commit_fails(repo)
    (repo / "docs/adr/0002-bad.md").write_text(adr_text("B"))
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "good")
    assert git(repo, "log", "-1", "--format=%s") == "good"


def test_a_sparse_index_is_read_with_its_directories_expanded(repo, capsys):
    """`git sparse-checkout set --sparse-index`: a folder outside the cone is one index entry
    naming its tree (`sdir`). Staged, tracked and changed paths match git's own."""
    from adr_memory.history.repo import Repo

    commit(
        repo,
        {
            "docs/adr/0001-a.md": adr_text("A", governs=["src/**"]),
            "src/a.py": "1",
            "lib/deep/b.py": "1",
            "lib/c.py": "1",
        },
        "base",
    )
    git(repo, "sparse-checkout", "set", "--cone", "--sparse-index", "docs", "src")
    assert b"sdir" in (repo / ".git/index").read_bytes() and not (repo / "lib").exists()
    (repo / "src/a.py").write_text("2")
    (repo / "docs/adr/0002-b.md").write_text(adr_text("B"))
    git(repo, "add", "docs")
    (repo / "src/new.py").write_text("untracked")
    opened = Repo.open(repo)
    assert opened.staged_paths() == {"docs/adr/0002-b.md"}
    assert set(opened.tracked_paths()) == set(git(repo, "ls-files").split())
    assert opened.worktree_changes() == _git_status_paths(repo)
    out = run(capsys, "stale", "--worktree", code=None).out
    assert "ADR-0001" in out and "src/a.py" in out


def test_stale_worktree_never_rewrites_the_git_index(repo, capsys):
    """dulwich's status saves refreshed file times into .git/index, and drops the extensions
    it cannot write (git's cache tree): a command that reads must not write."""
    import os
    import time

    commit(repo, {"docs/adr/0001-a.md": adr_text("A", governs=["src/**"]), "src/a.py": "1"}, "base")
    git(repo, "status")  # git writes its cache tree
    before = (repo / ".git/index").read_bytes()
    later = time.time() + 5
    os.utime(repo / "src/a.py", (later, later))  # the stat data no longer matches the index
    run(capsys, "stale", "--worktree")
    assert (repo / ".git/index").read_bytes() == before


def test_an_index_no_reader_knows_is_a_clear_error(repo, capsys):
    commit(repo, {"docs/adr/0001-a.md": adr_text("A", governs=["src/**"]), "src/a.py": "1"}, "base")
    (repo / ".git/index").write_bytes(b"DIRC\0\0\0\x05\0\0\0\0" + bytes(20))
    result = run(capsys, "stale", "--worktree", code=2)
    assert result.err.startswith("error: cannot read the git index") and "version 5" in result.err
    assert "hint:" in result.err and "Traceback" not in result.err


def test_a_split_index_in_the_middle_of_a_merge_conflict(repo, capsys):
    from adr_memory.history.repo import Repo

    commit(repo, {"docs/adr/0001-a.md": adr_text("A", governs=["src/**"]), "src/a.py": "1"}, "base")
    git(repo, "checkout", "-q", "-b", "side")
    commit(repo, {"src/a.py": "side"}, "side")
    git(repo, "checkout", "-q", "-")
    commit(repo, {"src/a.py": "main"}, "main")
    subprocess.run(["git", "merge", "-q", "side"], cwd=repo, capture_output=True)  # conflicts
    git(repo, "config", "core.splitIndex", "true")
    git(repo, "update-index", "--split-index")
    assert b"link" in (repo / ".git/index").read_bytes()
    assert Repo.open(repo).worktree_changes() == _git_status_paths(repo)
    assert "src/a.py" in run(capsys, "stale", "--worktree").out


def test_a_repository_kept_apart_from_its_files_is_found_through_git_dir(tmp_path, capsys, monkeypatch):
    """`git --git-dir=~/.dotfiles --work-tree=~`: no `.git` in the work tree. git hands hooks
    GIT_DIR (and GIT_WORK_TREE); adr-memory looked for `.git` from the current folder only, so
    every command, and the hook on every commit, said "not inside a git repository"."""
    store, home = tmp_path / "dotfiles", tmp_path / "home"
    home.mkdir()
    git(tmp_path, "init", "-q", "--bare", str(store))
    apart = ["--git-dir", str(store), "--work-tree", str(home)]
    commit_files = {"docs/adr/0001-db.md": adr_text("Use Postgres", governs=["src/db/**"]), "src/db/a.py": "1"}
    from tests.helpers import write

    write(home, commit_files)
    git(home, *apart, "add", "-A")
    git(home, *apart, "commit", "-q", "-m", "one")
    write(home, {"src/db/a.py": "2"})
    git(home, *apart, "commit", "-q", "-am", "two")
    monkeypatch.chdir(home)
    monkeypatch.setenv("GIT_DIR", str(store))
    monkeypatch.setenv("GIT_WORK_TREE", ".")
    assert "ADR-0001" in run(capsys, "stale", "--fail", code=1).out
    run(capsys, "hooks", "install", "pre-commit")
    assert (store / "hooks/pre-commit").is_file()
    monkeypatch.delenv("GIT_WORK_TREE")
    git(store, "config", "core.worktree", str(home))  # git's other way to name the work tree
    err = run(capsys, "stale", code=2).err  # git refuses it in a bare repository too
    assert "core.bare" in err and "hint:" in err and "internal error" not in err
    git(store, "config", "core.bare", "false")
    assert "ADR-0001" in run(capsys, "stale", "--fail", code=1).out
    monkeypatch.delenv("GIT_DIR")
    (home / "docs/adr/0002-bad.md").write_text(BROKEN)
    git(home, *apart, "add", "-A")
    result = subprocess.run(["git", *apart, "commit", "-q", "-m", "bad"], cwd=tmp_path, capture_output=True, text=True)
    assert result.returncode == 1 and "error: yaml" in result.stdout + result.stderr
    for wrong in (tmp_path / "nowhere", tmp_path, home):  # nothing; a folder; the work tree itself
        monkeypatch.setenv("GIT_DIR", str(wrong))  # (a folder above the cache was "cache-dir would mix")
        err = run(capsys, "stale", code=2).err
        assert err.startswith("error: GIT_DIR=") and "not a git directory" in err and "hint:" in err


def test_a_repository_of_decisions_at_its_root_has_history_hooks_and_checks(repo, capsys):
    """A shared decisions repository keeps its records at the root (`.adr-dir` holding `.`):
    every record was a draft (no date, no anchor, fresh for ever), the pre-commit hook linted
    none of them, and every record counted as code."""
    commit(
        repo,
        {".adr-dir": ".\n", "0001-db.md": adr_text("Use Postgres", governs=["src/db/**"]), "src/db/a.py": "1"},
        "decisions",
    )
    listed = json.loads(run(capsys, "list", "--json").out)
    assert [(r["path"], r["first_date"] is not None) for r in listed] == [("0001-db.md", True)]
    commit(repo, {"src/db/a.py": "2"}, "change the database code")
    assert json.loads(run(capsys, "stale", "--json").out)["decisions"][0]["state"] == "stale"
    run(capsys, "hooks", "install", "pre-commit")
    (repo / "0002-bad.md").write_text(BROKEN)
    git(repo, "add", "-A")
    assert _commit_fails(repo)
    data = json.loads(run(capsys, "check", "--base", "HEAD", "--format", "json", code=1).out)
    assert {f["path"] for f in data["findings"]} == {"0002-bad.md"}


def test_agent_guard_says_each_rule_once_naming_the_paths_it_applies_to(repo):
    rule = 'rules:\n  - {forbid: "import pymongo", in: ["src/**"], message: "we use PostgreSQL"}'
    commit(
        repo,
        {
            "docs/adr/0001-db.md": adr_text("Use PostgreSQL", governs=["src/db/**"], extra=rule),
            "src/db/a.py": "1",
            "src/db/b.py": "1",
            "src/ui/c.py": "1",
        },
        "base",
    )
    bash = {"tool_name": "Bash", "tool_input": {"command": "sed -i s/x/y/ src/db/a.py src/db/b.py src/ui/c.py"}}
    context = json.loads(_guard(repo, bash).stdout)["hookSpecificOutput"]["additionalContext"]
    rule_lines = [line for line in context.splitlines() if line.startswith("Rule from")]
    assert rule_lines == [
        "Rule from ADR-0001: forbid 'import pymongo' in src/** (we use PostgreSQL), for src/db/a.py, src/db/b.py, src/ui/c.py."
    ]


def _hook(repo, verb, data):
    cmd = [sys.executable, "-m", "adr_memory.hook", verb]
    return subprocess.run(cmd, cwd=repo, input=json.dumps(data), capture_output=True, text=True)


def test_the_opt_in_recalls_install_and_answer_in_the_hook_protocol(repo, capsys, model_cache):
    """Session start: the decisions in force by area, the stale ones. Each prompt: the decisions
    that answer it, only when search is sure, nothing otherwise. Read: guarded when asked."""
    from tests.helpers import run

    commit(
        repo,
        {
            "docs/adr/0001-db.md": adr_text(
                "Use PostgreSQL for the primary store",
                governs=["src/db/**"],
                extra="tags: [storage]",
                body="Orders and customers live in PostgreSQL 16; no other database.",
            ),
            "docs/adr/0002-jobs.md": adr_text("Queue background jobs with Redis streams", governs=["src/jobs/**"]),
            "src/db/a.py": "1",
            "src/jobs/b.py": "1",
        },
        "base",
    )
    commit(repo, {"src/jobs/b.py": "2"}, "jobs move on")
    run(capsys, "hooks", "install", "claude-code", "--session-start", "--prompt", "--read")
    settings = json.loads((repo / ".claude/settings.json").read_text())["hooks"]
    assert set(settings) == {"PreToolUse", "SessionStart", "UserPromptSubmit"}
    assert settings["PreToolUse"][0]["matcher"].endswith("|Read")
    start = json.loads(_hook(repo, "session-start", {}).stdout)["hookSpecificOutput"]
    assert start["hookEventName"] == "SessionStart"
    assert "- storage: ADR-0001 Use PostgreSQL for the primary store" in start["additionalContext"]
    assert "Stale (code changed since last reviewed): ADR-0002" in start["additionalContext"]
    run(capsys, "index")
    sure = _hook(repo, "prompt", {"prompt": "Use PostgreSQL for the primary store"})
    assert "ADR-0001" in json.loads(sure.stdout)["hookSpecificOutput"]["additionalContext"]
    unsure = _hook(repo, "prompt", {"prompt": "how should we price the enterprise plan for schools"})
    assert unsure.returncode == 0 and unsure.stdout == ""
    read = _guard(repo, {"tool_name": "Read", "tool_input": {"file_path": str(repo / "src/db/a.py")}})
    assert "ADR-0001" in json.loads(read.stdout)["hookSpecificOutput"]["additionalContext"]
    run(capsys, "hooks", "uninstall", "claude-code")
    assert not (repo / ".claude").exists()  # it held only ours: no `{}` left behind
