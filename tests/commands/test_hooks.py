"""commands.hooks: our git hooks and the agent guard in and out, another's hook kept."""

from __future__ import annotations

from adr_memory.commands import hooks
from adr_memory.history import Workspace
from tests.helpers import adr_text, commit


def test_install_then_uninstall_leaves_the_repository_as_it_was(repo):
    commit(repo, {"docs/adr/0001-a.md": adr_text("A")})
    done = hooks.install(Workspace.discover(repo), ("post-commit",), True)
    assert [a.hook for a in done] == ["post-commit", "claude-code"]
    assert (repo / ".git/hooks/post-commit").exists() and (repo / ".claude/settings.json").exists()
    undone = hooks.uninstall(Workspace.discover(repo), ("post-commit",), True)
    assert [a.hook for a in undone] == ["post-commit", "claude-code"]
    assert not (repo / ".git/hooks/post-commit").exists()
    assert not (repo / ".claude").exists()  # no `{}` left behind: the settings held only ours


def test_the_pre_commit_lint_and_what_a_commit_makes_stale(repo):
    from tests.helpers import commit

    commit(repo, {"docs/adr/0001-a.md": adr_text("A", governs=["src/**"]), "src/a.py": "1"})
    (repo / "docs/adr/0002-b.md").write_text("---\nstatus: acceptd\n---\n# B\n")
    checked = hooks.lint(Workspace.discover(repo), ["docs/adr/0002-b.md"])
    assert [f.kind for f in checked.findings] == ["status"] and {f.path for f in checked.findings} == {
        "docs/adr/0002-b.md"
    }
    (repo / "docs/adr/0002-b.md").unlink()
    commit(repo, {"src/a.py": "2"}, "change the governed code")
    assert [v.id for v in hooks.made_stale(Workspace.discover(repo), {"src/a.py"})] == ["ADR-0001"]
    assert hooks.made_stale(Workspace.discover(repo), {"README.md"}) == []


def test_pre_commit_splits_what_is_staged_into_records_and_code(repo):
    from tests.helpers import git

    commit(repo, {"docs/adr/0001-a.md": adr_text("A", governs=["src/**"]), "docs/adr/0002-b.md": adr_text("B")})
    (repo / "docs/adr/0003-c.md").write_text(adr_text("C"))
    (repo / "src").mkdir()
    (repo / "src/a.py").write_text("1")
    (repo / "docs/notes.txt").write_text("not a record")
    git(repo, "add", "docs/adr/0003-c.md", "src/a.py", "docs/notes.txt")
    git(repo, "rm", "-q", "docs/adr/0002-b.md")
    staged = hooks.pre_commit(Workspace.discover(repo))
    assert staged.records == ["docs/adr/0003-c.md"]  # a deleted record is not linted
    assert sorted(staged.code) == ["docs/notes.txt", "src/a.py"]


def test_records_among_and_code_among_part_the_files_a_framework_passes(repo, monkeypatch):
    commit(repo, {"docs/adr/0001-a.md": adr_text("A"), "README.md": "# r"})
    monkeypatch.chdir(repo / "docs")
    ws = Workspace.discover(repo)
    assert hooks.records_among(ws, ["adr/0001-a.md", "../README.md"]) == ["docs/adr/0001-a.md"]
    assert hooks.code_among(ws, ["adr/0001-a.md", "../README.md"]) == ["../README.md"]


def test_post_commit_and_post_merge_name_what_made_a_decision_stale(repo):
    from tests.helpers import git

    commit(repo, {"docs/adr/0001-a.md": adr_text("A", governs=["src/**"]), "src/a.py": "1", "x.txt": "1"})
    assert hooks.post_merge(Workspace.discover(repo)) == []  # no ORIG_HEAD: nothing merged
    git(repo, "checkout", "-q", "-b", "topic")
    commit(repo, {"src/a.py": "2", "x.txt": "2"}, "change the governed code")
    made = hooks.post_commit(Workspace.discover(repo))
    assert made == [hooks.MadeStale("ADR-0001", "A", ["src/a.py"])]
    git(repo, "checkout", "-q", "main")
    git(repo, "merge", "-q", "--no-ff", "-m", "merge topic", "topic")
    assert hooks.post_merge(Workspace.discover(repo)) == [hooks.MadeStale("ADR-0001", "A", ["src/a.py"])]
    commit(repo, {"x.txt": "3"}, "ungoverned")
    assert hooks.post_commit(Workspace.discover(repo)) == []
