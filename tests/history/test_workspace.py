"""Where a command runs: the work tree found from any folder in it or from git's environment,
the git dir behind a worktree's `.git` file, and a cache folder that never mixes with the
repository's own files."""

from __future__ import annotations

import pytest

from adr_memory.errors import ConfigError, NotARepository
from adr_memory.history.workspace import Workspace, find_root, from_environment
from tests.helpers import adr_text, commit, git


def test_the_root_is_found_from_any_folder_inside_and_refused_outside(repo, tmp_path):
    (repo / "src/deep/er").mkdir(parents=True)
    assert find_root(repo / "src/deep/er") == repo.resolve()
    (tmp_path / "loose").mkdir()
    with pytest.raises(NotARepository, match="not inside a git repository"):
        find_root(tmp_path / "loose")


def test_a_bare_repository_is_named_as_one_with_no_work_tree(tmp_path):
    git(tmp_path, "init", "-q", "--bare", "server.git")
    with pytest.raises(NotARepository, match="bare git repository") as told:
        find_root(tmp_path / "server.git")
    assert "git clone" in told.value.hint


def test_git_s_environment_names_the_repository_and_its_work_tree(repo, tmp_path, monkeypatch):
    assert from_environment() is None
    files = tmp_path / "files"
    files.mkdir()
    monkeypatch.setenv("GIT_DIR", str(repo / ".git"))
    monkeypatch.setenv("GIT_WORK_TREE", str(files))
    assert from_environment() == (files.resolve(), (repo / ".git").resolve())
    monkeypatch.delenv("GIT_WORK_TREE")
    git(repo, "config", "core.worktree", str(files))
    assert from_environment() == (files.resolve(), (repo / ".git").resolve())
    monkeypatch.setenv("GIT_DIR", str(tmp_path / "nothing"))
    with pytest.raises(NotARepository, match=r"GIT_DIR=.* is not a git directory"):
        from_environment()


def test_a_linked_worktree_reads_the_git_dir_its_dot_git_file_names(repo, tmp_path):
    commit(repo, {"docs/adr/0001-a.md": adr_text("A")}, "one")
    git(repo, "worktree", "add", "-q", str(tmp_path / "other"))
    ws = Workspace.discover(tmp_path / "other")
    assert ws.root == (tmp_path / "other").resolve()
    assert ws.git_dir == (repo / ".git/worktrees/other").resolve()
    assert [r.title for r in ws.catalog] == ["A"]


@pytest.mark.parametrize("cache_dir", [".", "docs/adr", ".git", ".git/adr"])
def test_a_cache_folder_over_the_repository_s_own_files_is_refused(repo, cache_dir):
    commit(repo, {"docs/adr/0001-a.md": adr_text("A"), ".adr-memory.toml": f'cache-dir = "{cache_dir}"\n'}, "one")
    with pytest.raises(ConfigError, match="would mix the cache"):
        _ = Workspace.discover(repo).cache_path


def test_a_committed_cache_is_passed_over_for_one_in_the_git_dir(repo):
    commit(repo, {"docs/adr/0001-a.md": adr_text("A"), ".adr-cache/history.json": "{}"}, "a cache in a commit")
    assert Workspace.discover(repo).cache_path == repo / ".git/adr-memory-cache"
    commit(repo, {".adr-cache/history.json": None}, "cache out")
    assert Workspace.discover(repo).cache_path == repo / ".adr-cache"


def test_a_typed_path_becomes_repo_relative_from_wherever_it_is_typed(repo, monkeypatch):
    commit(repo, {"docs/adr/0001-a.md": adr_text("A")}, "one")
    ws = Workspace.discover(repo)
    monkeypatch.chdir(repo / "docs")
    assert ws.relpath("adr/0001-a.md") == "docs/adr/0001-a.md"
    assert ws.relpath(repo / "src/x.py") == "src/x.py"


def test_a_cache_folder_in_the_git_dir_that_links_out_is_never_written_through(repo, tmp_path):
    commit(repo, {"docs/adr/0001-a.md": adr_text("A"), ".adr-cache/history.json": "{}"}, "a cache in a commit")
    (tmp_path / "elsewhere").mkdir()
    (repo / ".git/adr-memory-cache").symlink_to(tmp_path / "elsewhere")
    with pytest.raises(ConfigError, match=r"adr-memory-cache is a link out of the git dir$") as refused:
        _ = Workspace.discover(repo).cache_path
    assert refused.value.hint == "delete it: adr-memory makes it again as a folder"
    assert Workspace.discover(repo)._parse_cache is None  # nor are parses kept through it


def test_a_path_outside_the_repository_is_kept_as_typed(repo, tmp_path, monkeypatch):
    commit(repo, {"docs/adr/0001-a.md": adr_text("A")}, "one")
    ws = Workspace.discover(repo)
    assert ws.relpath(tmp_path / "elsewhere" / "x.py") == (tmp_path / "elsewhere" / "x.py").as_posix()
    monkeypatch.chdir(tmp_path)
    assert ws.relpath("../outside.py") == "../outside.py"


def test_the_folder_is_the_one_the_config_names_else_the_one_that_holds_records(repo):
    commit(repo, {"docs/decisions/0001-a.md": adr_text("A"), "architecture/0001-b.md": adr_text("B")}, "two folders")
    assert Workspace.discover(repo).adr_dir == "docs/decisions"  # a conventional folder, found
    assert Workspace.discover(repo, adr_dir="architecture").adr_dir == "architecture"
    commit(repo, {".adr-memory.toml": 'adr-dir = "architecture"\n'}, "say which")
    ws = Workspace.discover(repo)
    assert (ws.adr_dir, [r.title for r in ws.catalog]) == ("architecture", ["B"])
    assert ws.adr_path == repo / "architecture"
