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


def _odd_history(repo) -> None:
    """A record folder whose name git would read as a pattern, a file name that is not UTF-8,
    records moved in by a merge from a folder nobody names, and a branch that wrote a record."""
    commit(repo, {".adr-dir": "decisions[*]\n", "decisions[*]/0001-use-x.md": adr_text("Use X")}, "first")
    commit(repo, {"decisionsA/0009-decoy.md": adr_text("Matches the pattern, not the name")}, "a decoy")
    (repo / "decisions[*]" / b"0002-caf\xe9.md".decode("utf-8", "surrogateescape")).write_bytes(
        adr_text("Use Y").encode()
    )
    commit(repo, {"old/0003-use-z.md": adr_text("Use Z", body="kept elsewhere")}, "non-UTF-8 name, a record elsewhere")
    git(repo, "checkout", "-q", "-b", "move")
    git(repo, "mv", "old/0003-use-z.md", "decisions[*]/0003-use-z.md")
    commit(repo, {"decisions[*]/0001-use-x.md": adr_text("Use X", body="said on the branch")}, "move it in, edit X")
    commit(repo, {"src/a.py": "a"}, "code on the branch")
    git(repo, "checkout", "-q", "main")
    commit(repo, {"src/b.py": "b"}, "code on main")
    git(repo, "merge", "-q", "--no-ff", "move", "-m", "merge the move")


def test_a_folder_named_like_a_pattern_and_a_name_not_in_utf8_read_the_same_with_git(repo, monkeypatch):
    _odd_history(repo)
    accelerated, alone = _walked(repo, monkeypatch, with_git=True), _walked(repo, monkeypatch, with_git=False)
    assert accelerated == alone
    touches = accelerated[0]
    assert "decisionsA/0009-decoy.md" not in touches
    assert [p for _sha, p, _blob in touches["decisions[*]/0003-use-z.md"]] == ["old/0003-use-z.md"]  # followed out
    assert any("\udce9" in path for path in touches)


def test_credit_along_a_merged_branch_is_the_same_with_git_which_names_the_tips_blob(repo, monkeypatch):
    _odd_history(repo)

    def credits(with_git: bool) -> dict[str, list[str]]:
        history = versions.walk(_fresh(repo, monkeypatch, with_git))
        return {
            path: [versions.written_in(Workspace.discover(repo).repo, history, t).message for t in touches]
            for path, touches in history.touches.items()
        }

    looked: list[str] = []
    real = Repo.lookup
    monkeypatch.setattr(Repo, "lookup", lambda self, tree, path: looked.append(path) or real(self, tree, path))
    with_git = credits(True)
    read_with_git = [p for p in looked if p.endswith(".md")]
    looked.clear()
    assert with_git == credits(False)
    assert len(read_with_git) < len([p for p in looked if p.endswith(".md")])  # the tip's blob came from git
    assert with_git["decisions[*]/0001-use-x.md"][0] == "move it in, edit X"  # the branch's commit, not the merge


def _fresh(repo, monkeypatch, with_git: bool) -> Workspace:
    shutil.rmtree(repo / ".adr-cache", ignore_errors=True)
    shutil.rmtree(repo / ".git" / "adr-memory-cache", ignore_errors=True)
    if with_git:
        monkeypatch.delenv(gitwalk.DISABLE, raising=False)
    else:
        monkeypatch.setenv(gitwalk.DISABLE, "1")
    return Workspace.discover(repo)
