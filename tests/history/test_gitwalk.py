"""history.gitwalk: git names the first-parent commits that change the record folders, and the
walk passes the rest without reading them; the answer is dulwich's own, commit for commit."""

from __future__ import annotations

import shutil

import pytest

from adr_memory.history import gitwalk, versions
from adr_memory.history.repo import Repo
from adr_memory.history.workspace import Workspace
from tests.helpers import adr_text, commit, git

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed here")


def _history(repo) -> None:
    """Records written in a folder nobody names, moved to docs/adr, renamed, edited on branches
    merged with merge commits, amid commits that touch only code."""
    commit(repo, {"architecture/0001-use-x.md": adr_text("Use X", body="one"), "src/a.py": "0"}, "v1")
    for n in range(6):
        commit(repo, {f"src/{n}.py": str(n)}, f"code {n}")
    commit(repo, {"architecture/0001-use-x.md": adr_text("Use X", body="two")}, "v2")
    (repo / "docs").mkdir()
    git(repo, "mv", "architecture", "docs/adr")
    commit(repo, {"docs/adr/0002-use-y.md": adr_text("Use Y")}, "move, and a second record")
    git(repo, "checkout", "-q", "-b", "topic")
    commit(repo, {"docs/adr/0002-use-y.md": adr_text("Use Y", body="said on a branch")}, "edit on a branch")
    git(repo, "mv", "docs/adr/0001-use-x.md", "docs/adr/0001-use-x-everywhere.md")
    commit(repo, {}, "rename on the branch")
    git(repo, "checkout", "-q", "main")
    commit(repo, {"src/b.py": "b"}, "code on main meanwhile")
    git(repo, "merge", "-q", "--no-ff", "topic", "-m", "merge the topic")
    for n in range(4):
        commit(repo, {f"src/late{n}.py": str(n)}, f"late code {n}")


def _walked(repo, monkeypatch, *, with_git: bool):
    shutil.rmtree(repo / ".adr-cache", ignore_errors=True)
    if with_git:
        monkeypatch.delenv(gitwalk.DISABLE, raising=False)
    else:
        monkeypatch.setenv(gitwalk.DISABLE, "1")
    history = versions.walk(Workspace.discover(repo))
    return (
        {path: [(t.commit.sha, t.path, t.blob) for t in touches] for path, touches in history.touches.items()},
        history.chain,
        history.truncated,
    )


def test_the_walk_with_git_is_the_walk_without_it_and_reads_only_the_commits_that_matter(repo, monkeypatch):
    _history(repo)
    read: list[str] = []
    real = Repo.skeleton

    def counted(self, sha):
        read.append(sha)
        return real(self, sha)

    monkeypatch.setattr(Repo, "skeleton", counted)
    accelerated = _walked(repo, monkeypatch, with_git=True)
    read_with_git = len(set(read))
    read.clear()
    alone = _walked(repo, monkeypatch, with_git=False)
    assert accelerated == alone
    touches = accelerated[0]
    # followed through the rename on the branch and the move out of a folder nobody names, to v1
    assert [p for _sha, p, _blob in touches["docs/adr/0001-use-x-everywhere.md"]] == ["architecture/0001-use-x.md"] * 2
    assert len(touches["docs/adr/0002-use-y.md"]) == 2  # written, then edited on the merged branch
    assert read_with_git < len(set(read)) / 2, (read_with_git, len(set(read)))  # code commits unread


def test_git_that_cannot_answer_leaves_the_walk_to_dulwich(repo, monkeypatch):
    _history(repo)
    alone = _walked(repo, monkeypatch, with_git=False)
    monkeypatch.setattr(gitwalk, "_git", lambda *_a: None)  # no answer: a damaged repository, a timeout
    assert _walked(repo, monkeypatch, with_git=True) == alone
    quiet = gitwalk.Quiet(repo / ".git", git(repo, "rev-parse", "HEAD").strip())
    assert quiet.passed("0" * 40, ["docs/adr"]) is None and not quiet.usable
