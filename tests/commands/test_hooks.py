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
