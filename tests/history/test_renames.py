"""Rename sources of a record: identical content first, then git's half-similar rule, and only
record paths are candidates."""

from __future__ import annotations

import pytest

from adr_memory.history import renames
from adr_memory.history.repo import Repo
from tests.helpers import commit, git

BODY = "".join(f"line {n} of the decision\n" for n in range(40))


def _blobs(opened: Repo) -> dict[str, str]:
    return dict(opened.files(opened.commit(opened.head()).tree))


def test_similarity_is_the_share_of_the_larger_file_both_hold(repo):
    commit(repo, {"a.md": "same\n" * 60 + "tail\n" * 40, "b.md": "same\n" * 60 + "other\n" * 40, "c.md": "x\n"})
    opened = Repo.open(repo)
    blob = _blobs(opened)
    assert renames.similarity(opened, blob["a.md"], blob["b.md"]) == pytest.approx(300 / 540)
    assert renames.similarity(opened, blob["a.md"], blob["c.md"]) == 0.0  # sizes alone rule it out


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        ("docs/adr/0001-use-x.md", True),
        ("docs/adr/templates/template.md", False),
        ("docs/adr/picture.png", False),
    ],
)
def test_only_record_paths_are_candidates(path, expected):
    assert renames.is_record_path(path) is expected


def test_a_moved_record_is_found_by_content_and_an_unlike_one_is_not(repo):
    commit(repo, {"docs/adr/0001-a.md": BODY, "docs/adr/0002-b.md": "short\n"}, "v1")
    opened = Repo.open(repo)
    before = opened.commit(opened.head()).tree
    old = _blobs(opened)
    git(repo, "rm", "-q", "docs/adr/0001-a.md", "docs/adr/0002-b.md")
    edited = BODY.replace("line 3 of", "line three of")
    commit(repo, {"docs/decisions/0001-a.md": edited, "docs/adr/0003-c.md": "something else entirely\n" * 9}, "move")
    after = opened.commit(opened.head()).tree
    moved = {"docs/decisions/0001-a.md": ["docs/adr/0001-a.md", old["docs/adr/0001-a.md"]]}
    for folders in (["docs/adr", "docs/decisions"], ["docs/decisions"]):  # the second finds it outside
        changes = [list(c) for c in opened.tree_changes(before, after, folders) if renames.is_record_path(c[0])]
        assert renames.sources(opened, changes, before, after) == moved  # 0003 is not 0002 moved


def test_identical_copies_go_one_to_each_new_path_and_exact_beats_similar(repo):
    """Two records with the same bytes removed and two added: each new path takes one, in path
    order; a record with the very bytes of a removed one is matched before one only like it."""
    near = BODY.replace("line 1 of", "line one of")
    commit(repo, {"docs/adr/0001-a.md": BODY, "docs/adr/0002-b.md": BODY, "docs/adr/0003-c.md": near}, "v1")
    opened = Repo.open(repo)
    before, old = opened.commit(opened.head()).tree, _blobs(opened)
    git(repo, "rm", "-q", "docs/adr/0001-a.md", "docs/adr/0002-b.md", "docs/adr/0003-c.md")
    commit(repo, {"docs/new/0011-a.md": BODY, "docs/new/0012-b.md": BODY, "docs/new/0013-c.md": near}, "move")
    after = opened.commit(opened.head()).tree
    changes = [list(c) for c in opened.tree_changes(before, after, ["docs"]) if renames.is_record_path(c[0])]
    expected = {
        "docs/new/0011-a.md": ["docs/adr/0001-a.md", old["docs/adr/0001-a.md"]],
        "docs/new/0012-b.md": ["docs/adr/0002-b.md", old["docs/adr/0002-b.md"]],
        "docs/new/0013-c.md": ["docs/adr/0003-c.md", old["docs/adr/0003-c.md"]],
    }
    # whatever order the tree diff gave (a set's: it changes with the process), as git pairs them
    assert renames.sources(opened, sorted(changes), before, after) == expected
    assert renames.sources(opened, sorted(changes, reverse=True), before, after) == expected


def test_what_git_said_was_removed_is_believed_and_a_commit_adding_nothing_asks_nothing(repo):
    commit(repo, {"old/0001-a.md": BODY, "docs/adr/0002-b.md": "b\n"}, "v1")
    opened = Repo.open(repo)
    before, old = opened.commit(opened.head()).tree, _blobs(opened)
    git(repo, "mv", "old/0001-a.md", "docs/adr/0001-a.md")
    commit(repo, {}, "move in")
    after = opened.commit(opened.head()).tree
    changes = [list(c) for c in opened.tree_changes(before, after, ["docs/adr"])]
    told = [("old/0001-a.md", old["old/0001-a.md"], None)]
    asked: list[str] = []
    assert renames.sources(opened, changes, before, after, lambda: asked.append("asked") or told) == {
        "docs/adr/0001-a.md": ["old/0001-a.md", old["old/0001-a.md"]]
    }
    assert asked == ["asked"]  # once, for the path no removal in the folder explains
    assert renames.sources(opened, changes, before, after, list) == {}  # git said nothing went: a new record
    edit = [["docs/adr/0002-b.md", old["docs/adr/0002-b.md"], old["old/0001-a.md"]]]
    assert renames.sources(opened, edit, before, after, lambda: pytest.fail("asked")) == {}
