"""history.ranges: what a branch changed is judged from its merge-base, as a pull request is."""

from __future__ import annotations

import pytest

from adr_memory.errors import GitError
from adr_memory.history.ranges import branch_range
from adr_memory.history.repo import Repo
from tests.helpers import commit, git


def test_the_range_starts_at_the_merge_base_not_at_the_base_branchs_tip(repo):
    base = commit(repo, {"a.txt": "1"})
    git(repo, "checkout", "-q", "-b", "topic")
    head = commit(repo, {"b.txt": "2"})
    git(repo, "checkout", "-q", "main")
    main_tip = commit(repo, {"c.txt": "3"})  # main moved on after the branch left it
    git(repo, "checkout", "-q", "topic")
    found = branch_range(Repo.open(repo), "main")
    assert (found.ref, found.tip, found.base, found.head) == ("main", main_tip, base, head)


def test_unrelated_histories_and_empty_repositories_are_named_errors(repo):
    with pytest.raises(GitError, match="no commits yet"):
        branch_range(Repo.open(repo), "main")
    commit(repo, {"a.txt": "1"})
    git(repo, "checkout", "-q", "--orphan", "other")
    commit(repo, {"b.txt": "2"})
    with pytest.raises(GitError, match="share no history") as told:
        branch_range(Repo.open(repo), "main")
    assert told.value.hint == "compare against the branch this one grew from"


def test_a_ref_that_names_nothing_is_a_git_error(repo):
    commit(repo, {"a.txt": "1"})
    with pytest.raises(GitError):
        branch_range(Repo.open(repo), "no-such-branch")


def test_a_shallow_clone_whose_history_stops_before_the_merge_base_says_to_fetch_it(repo, tmp_path):
    base = commit(repo, {"a.txt": "1"}, "base")
    git(repo, "checkout", "-q", "-b", "topic")
    for n in range(3):
        commit(repo, {"b.txt": str(n)}, f"topic {n}")
    git(repo, "checkout", "-q", "main")
    commit(repo, {"c.txt": "main"}, "main moves on")
    clone = tmp_path / "ci"
    git(tmp_path, "clone", "-q", "--depth", "1", "--no-single-branch", f"file://{repo}", str(clone))
    git(clone, "checkout", "-q", "topic")
    opened = Repo.open(clone)
    with pytest.raises(
        GitError, match=r"^no merge-base between origin/main and HEAD \(this clone is shallow\)$"
    ) as cut:
        branch_range(opened, "origin/main")
    assert cut.value.hint == "fetch the full history: actions/checkout with fetch-depth: 0"
    git(clone, "fetch", "-q", "--unshallow")
    assert branch_range(Repo.open(clone), "origin/main").base == base
