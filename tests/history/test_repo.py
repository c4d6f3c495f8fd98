"""The repository as dulwich reads it, answer by answer against what git says: HEAD, the
paths a commit, the index and the work tree change, ancestry, and blobs read only as far as a
limit allows."""

from __future__ import annotations

import pytest

from adr_memory.errors import GitError, NotARepository, TooLarge
from adr_memory.history.repo import Repo
from tests.helpers import commit, git


def test_head_is_none_before_the_first_commit_and_a_loop_is_named(repo):
    assert Repo.open(repo).head() is None
    sha = commit(repo, {"a.txt": "a"}, "one")
    assert Repo.open(repo).head() == sha
    (repo / ".git/HEAD").write_text("ref: refs/heads/loop\n")
    (repo / ".git/refs/heads/loop").write_text("ref: HEAD\n")
    with pytest.raises(GitError, match="loop"):
        Repo.open(repo).head()


def test_a_dot_git_file_that_names_nothing_is_not_a_repository(tmp_path):
    (tmp_path / ".git").write_text("not a pointer\n")
    with pytest.raises(NotARepository, match="does not say `gitdir: <path>`"):
        Repo.open(tmp_path)
    (tmp_path / ".git").write_text(f"gitdir: {tmp_path / 'gone'}\n")
    with pytest.raises(NotARepository):
        Repo.open(tmp_path)


def test_the_paths_head_the_index_and_the_work_tree_change_are_git_s(repo):
    commit(repo, {"a.txt": "a", "b.txt": "b", ".gitignore": "*.log\n"}, "root")
    assert Repo.open(repo).head_changes() == {"a.txt", "b.txt", ".gitignore"}
    commit(repo, {"a.txt": "a2", "c.txt": "c"}, "two")
    assert Repo.open(repo).head_changes() == {"a.txt", "c.txt"}
    (repo / "b.txt").write_text("edited")
    (repo / "new.txt").write_text("new")
    (repo / "noise.log").write_text("ignored")
    (repo / "d.txt").write_text("d")
    git(repo, "add", "d.txt")
    opened = Repo.open(repo)
    assert opened.staged_paths() == {"d.txt"}
    assert opened.worktree_changes() == {"b.txt", "new.txt", "d.txt"}
    assert sorted(opened.tracked_paths()) == git(repo, "ls-files").splitlines()


def test_ancestry_and_the_merge_base_are_the_ones_git_finds(repo):
    root = commit(repo, {"a.txt": "a"}, "root")
    git(repo, "checkout", "-q", "-b", "topic")
    topic = commit(repo, {"t.txt": "t"}, "topic")
    git(repo, "checkout", "-q", "main")
    main = commit(repo, {"m.txt": "m"}, "main")
    opened = Repo.open(repo)
    assert opened.merge_base(topic, main) == git(repo, "merge-base", topic, main) == root
    assert opened.is_ancestor(root, topic) and not opened.is_ancestor(topic, main)
    assert not opened.is_ancestor("0" * 40, main)
    git(repo, "merge", "-q", "--no-edit", "topic")
    assert Repo.open(repo).orig_head() == main
    assert Repo.open(repo).config_value("core", "bare") == "false"
    assert Repo.open(repo).config_value("core", "no-such-key") is None


def test_the_merge_base_is_read_from_the_commits_not_the_commit_graph_file(repo, monkeypatch):
    """git's commit-graph file is parsed whole, in Python, before dulwich's first answer: a merge
    base a few commits back reads the commits instead, and still agrees with git, across merges."""
    from dulwich.object_store import DiskObjectStore

    root = commit(repo, {"a.txt": "a"}, "root")
    git(repo, "checkout", "-q", "-b", "topic")
    topic = commit(repo, {"t.txt": "t"}, "topic")
    git(repo, "checkout", "-q", "main")
    commit(repo, {"m.txt": "m"}, "main")
    git(repo, "merge", "-q", "--no-edit", "topic")
    git(repo, "checkout", "-q", "topic")
    later = commit(repo, {"t.txt": "t2"}, "topic again")
    git(repo, "checkout", "-q", "main")
    head = commit(repo, {"m.txt": "m2"}, "main again")
    git(repo, "commit-graph", "write", "--reachable")

    def unread(self):
        raise AssertionError("the commit-graph file was read")

    monkeypatch.setattr(DiskObjectStore, "get_commit_graph", unread)
    opened = Repo.open(repo)
    assert opened.merge_base(later, head) == git(repo, "merge-base", later, head) == topic
    assert opened.is_ancestor(root, head) and opened.is_ancestor(topic, head) and not opened.is_ancestor(later, head)


def test_a_blob_past_its_limit_is_refused_before_it_is_read_and_a_submodule_reads_as_its_line(repo, tmp_path):
    sha = commit(repo, {"big.md": "x" * 10_000, "small.md": "y"}, "blobs")
    opened = Repo.open(repo)
    assert opened.read(sha, "small.md", limit=10) == b"y"
    with pytest.raises(TooLarge):
        opened.read(sha, "big.md", limit=9_999)
    assert opened.read(sha, "big.md") == b"x" * 10_000
    assert opened.read(sha, "absent.md") is None
    lib = tmp_path / "lib"
    lib.mkdir()
    git(lib, "init", "-q")
    inner = commit(lib, {"README": "lib"}, "lib")
    git(repo, "update-index", "--add", "--cacheinfo", f"160000,{inner},vendor/lib")
    git(repo, "commit", "-q", "-m", "a submodule")
    assert Repo.open(repo).read(git(repo, "rev-parse", "HEAD"), "vendor/lib") == f"Subproject commit {inner}\n".encode()
