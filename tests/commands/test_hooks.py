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
