"""The git index as git writes it: split and sparse indexes read to the same paths `git
ls-files` lists, a damaged one named, and a work tree found from `core.worktree`."""

from __future__ import annotations

import pytest

from adr_memory.errors import GitError
from adr_memory.history.gitindex import _Repository, configured_work_tree
from tests.helpers import commit, git

FILES = {f"docs/adr/000{n}-r.md": f"# R{n}\n" for n in range(1, 5)} | {
    "src/a.py": "a\n",
    "src/deep/b.py": "b\n",
    "lib/c.py": "c\n",
}


def _paths(root) -> set[str]:
    return {name.decode() for name in _Repository(str(root)).open_index()}


def test_core_worktree_is_read_against_the_git_dir_and_an_unreadable_config_is_none(repo, tmp_path):
    assert configured_work_tree(repo / ".git") is None
    git(repo, "config", "core.worktree", "../elsewhere")
    assert configured_work_tree(repo / ".git") == (repo / "elsewhere").resolve()
    (repo / ".git/config").write_bytes(b"[core\n\xff")
    assert configured_work_tree(repo / ".git") is None
    assert configured_work_tree(tmp_path / "none") is None


def test_a_split_index_reads_as_the_files_git_lists(repo):
    commit(repo, FILES, "files")
    git(repo, "update-index", "--split-index")
    commit(repo, {"src/new.py": "n\n", "lib/c.py": None}, "after the split")
    assert list((repo / ".git").glob("sharedindex.*"))
    assert _paths(repo) == set(git(repo, "ls-files").splitlines())


def test_a_sparse_index_reads_every_file_of_a_folder_outside_the_cone(repo):
    commit(repo, FILES, "files")
    git(repo, "sparse-checkout", "set", "--cone", "--sparse-index", "docs")
    assert "src/" in git(repo, "ls-files", "--sparse").splitlines()  # git keeps the folder as one entry
    assert _paths(repo) == set(git(repo, "ls-files").splitlines())


def test_a_damaged_index_is_a_git_error_that_says_where(repo):
    commit(repo, FILES, "files")
    index = repo / ".git/index"
    index.write_bytes(index.read_bytes()[:-7] + b"garbage")
    with pytest.raises(GitError, match="cannot read the git index") as told:
        _Repository(str(repo)).open_index()
    assert "git status" in told.value.hint
