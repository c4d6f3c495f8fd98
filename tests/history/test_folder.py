"""history.folder: one way to read a folder of records (the work tree, a commit, another
repository's copy at a pinned commit), and history's caches kept on the repository object."""

from __future__ import annotations

import gc
import weakref

from adr_memory.history import AtCommit, Workspace, folder_at, staleness, versions, walk
from adr_memory.history.folder import read_at
from adr_memory.history.repo import Repo, open_bare
from tests.helpers import adr_text, commit, git


def _two_commits(repo):
    first = commit(repo, {"docs/adr/0001-db.md": adr_text("Use Postgres")}, "first")
    commit(
        repo,
        {"docs/adr/0001-db.md": adr_text("Use PostgreSQL 16"), "docs/adr/0002-jobs.md": adr_text("Queue jobs")},
        "second",
    )
    return first


def test_the_work_tree_a_commit_and_a_pinned_copy_read_the_same_way(repo, tmp_path):
    first = _two_commits(repo)
    ws = Workspace.discover(repo)
    then = folder_at(ws, "HEAD~1")
    assert then.commit == first and [r.title for r in then.catalog] == ["Use Postgres"]
    assert [r.title for r in ws.catalog] == ["Use PostgreSQL 16", "Queue jobs"]
    # Another repository's copy (a source's, fetched bare), read as if HEAD were the pin.
    copy = tmp_path / "copy.git"
    git(tmp_path, "clone", "-q", "--bare", str(repo), str(copy))
    pinned = AtCommit(open_bare(copy, pinned=first), "docs/adr", first, tmp_path / "kept")
    assert [r.title for r in pinned.catalog] == ["Use Postgres"]
    # Versions are read by the same code from each: the pinned copy knows nothing after its pin.
    assert [v.message for v in versions.versions(ws, ws.catalog.get("1"))] == ["second", "first"]
    assert [v.message for v in versions.versions(pinned, pinned.catalog.get("1"))] == ["first"]
    assert (tmp_path / "kept" / "history.json").is_file()  # its walk kept where the folder says


def test_a_catalog_at_a_commit_reuses_the_work_tree_s_parses(repo):
    _two_commits(repo)
    ws = Workspace.discover(repo)
    jobs = ws.catalog.get("2")
    at_head = read_at(ws.repo, ws.repo.head() or "", ws.adr_dir, ws.parses)
    assert at_head.get("2") is jobs  # the same bytes: the record parsed for the work tree


def test_history_s_caches_live_and_die_with_the_repository_object(repo):
    _two_commits(repo)
    ws = Workspace.discover(repo)
    staleness.report(ws)
    versions.versions(ws, ws.catalog.get("1"))
    assert walk.memo(ws.repo) is not None and {"walk", "parsed"} <= set(ws.repo.kept)
    other = Repo.open(repo)  # another repository object (a second command in one process)
    assert walk.memo(other) is None and other.kept == {}
    gone = weakref.ref(ws.repo)
    del ws
    gc.collect()
    assert gone() is None  # no module holds on to a repository, or to what was read of it


def test_a_symlink_or_an_oversized_file_at_a_commit_is_listed_with_its_problem_never_read(repo):
    import os

    (repo / "docs/adr").mkdir(parents=True)
    os.symlink("../../outside.md", repo / "docs/adr/0002-linked.md")
    sha = commit(
        repo,
        {
            "outside.md": adr_text("Not a decision of this folder"),
            "docs/adr/0001-db.md": adr_text("Use Postgres"),
            "docs/adr/0003-huge.md": "x" * 1_000_001,
        },
        "a link and a huge file",
    )
    at = AtCommit(Repo.open(repo), "docs/adr", sha, repo / ".adr-cache")
    by_path = {r.path: r for r in at.catalog}
    assert set(by_path) == {"docs/adr/0001-db.md", "docs/adr/0002-linked.md", "docs/adr/0003-huge.md"}
    assert by_path["docs/adr/0001-db.md"].title == "Use Postgres"
    linked = [(p.kind, p.message, p.hint) for p in by_path["docs/adr/0002-linked.md"].problems]
    assert linked == [("symlink", "a symlink in git; not read", "replace the link with the file itself")]
    huge = [(p.kind, p.message) for p in by_path["docs/adr/0003-huge.md"].problems]
    assert huge == [("too-large", "file is 1,000,001 bytes; a record is prose")]
    assert by_path["docs/adr/0002-linked.md"].title != "Not a decision of this folder"


def test_the_folder_at_a_ref_is_read_at_the_commit_the_ref_names_then(repo):
    first = _two_commits(repo)
    git(repo, "tag", "before", first)
    ws = Workspace.discover(repo)
    then = folder_at(ws, "before")
    assert (then.commit, then.adr_dir, then.cache_path) == (first, ws.adr_dir, ws.cache_path)
    assert then.repo is ws.repo and then.parses is ws.parses
    commit(repo, {"docs/adr/0003-more.md": adr_text("More")}, "third")
    assert [r.id for r in folder_at(ws, "before").catalog] == ["ADR-0001"]
