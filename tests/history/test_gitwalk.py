"""history.gitwalk: git names the first-parent commits that change the record folders, and the
walk passes the rest without reading them; the answer is dulwich's own, commit for commit."""

from __future__ import annotations

import shutil

import pytest

from adr_memory.history import gitwalk, versions
from adr_memory.history.repo import Repo
from adr_memory.history.workspace import Workspace
from tests.helpers import adr_text, commit, git, sealed_env

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
    monkeypatch.setattr(gitwalk._Running, "result", lambda _self: None)  # no answer: a damaged repository, a timeout
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


# ------------------------------------------------------------------ one history, asked of git and of dulwich

FOLDERS = ["docs/adr", "docs/decisions"]
ODD = b"docs/decisions/0003-caf\xe9.md".decode("utf-8", "surrogateescape")


def _as(mp: pytest.MonkeyPatch, name: str, day: int) -> None:
    for role in ("AUTHOR", "COMMITTER"):
        mp.setenv(f"GIT_{role}_NAME", name)
        mp.setenv(f"GIT_{role}_EMAIL", f"{name.split()[0].lower()}@example.com")
        mp.setenv(f"GIT_{role}_DATE", f"2024-02-{day:02d}T09:00:00Z")


@pytest.fixture(scope="module")
def people(tmp_path_factory):
    """A history people make: Ada records two decisions; Bob edits one on a branch that Carol
    merges --no-ff while main moved on; Ada deletes the other, then writes it anew, moves the
    folder to docs/decisions, adds a record whose name is not UTF-8 and a submodule beside the
    records, amid commits that touch only code."""
    root = tmp_path_factory.mktemp("people") / "repo"
    root.mkdir()
    c: dict[str, str] = {}
    with sealed_env(tmp_path_factory.mktemp("home")) as mp:
        git(root, "init", "-q", "-b", "main")
        _as(mp, "Ada Author", 1)
        c["record"] = commit(
            root,
            {
                "docs/adr/0001-use-x.md": adr_text("Use X", body="one"),
                "docs/adr/0002-use-y.md": adr_text("Use Y", body="first Y"),
                "src/a.py": "0",
            },
            "Record X and Y",
        )
        c["code"] = commit(root, {"src/a.py": "1"}, "code only")
        git(root, "checkout", "-q", "-b", "topic")
        _as(mp, "Bob Builder", 2)
        c["bob"] = commit(root, {"docs/adr/0001-use-x.md": adr_text("Use X", body="two")}, "Bob edits X")
        git(root, "checkout", "-q", "main")
        _as(mp, "Ada Author", 3)
        c["meanwhile"] = commit(root, {"src/b.py": "b"}, "main moves on")
        _as(mp, "Carol Merger", 4)
        git(root, "merge", "-q", "--no-ff", "topic", "-m", "Merge Bob's edit")
        c["merge"] = git(root, "rev-parse", "HEAD")
        _as(mp, "Ada Author", 5)
        c["delete"] = commit(root, {"docs/adr/0002-use-y.md": None}, "Drop Y")
        c["readd"] = commit(root, {"docs/adr/0002-use-y.md": adr_text("Use Y", body="Y again, decided anew")}, "Y anew")
        git(root, "mv", "docs/adr", "docs/decisions")
        c["move"] = commit(root, {}, "Move the folder")
        (root / ODD).write_bytes(adr_text("Use Z").encode())
        c["odd"] = commit(root, {}, "A name that is not UTF-8")
        git(root, "update-index", "--add", "--cacheinfo", f"160000,{c['code']},docs/decisions/vendor")
        git(root, "commit", "-q", "-m", "A submodule beside the records")
        c["submodule"] = git(root, "rev-parse", "HEAD")
        (root / "src/c.py").write_text("c")
        git(root, "add", "src/c.py")  # `add -A` would drop the submodule, which has no folder here
        git(root, "commit", "-q", "-m", "late code")
        c["late"] = git(root, "rev-parse", "HEAD")
    return root, c


def _quiet(root) -> gitwalk.Quiet:
    return gitwalk.Quiet(root / ".git", git(root, "rev-parse", "HEAD"))


def test_git_names_each_first_parent_commit_s_tree_and_parents_as_dulwich_reads_them(people):
    root, c = people
    skeletons = _quiet(root).skeletons()
    assert list(skeletons) == git(root, "rev-list", "--first-parent", "HEAD").split()
    assert c["bob"] not in skeletons  # the merged branch's own commits are not on the line
    opened = Repo.open(root)
    assert all(opened.skeleton(sha) == told for sha, told in skeletons.items())
    assert skeletons[c["merge"]][1] == (c["meanwhile"], c["bob"])
    assert skeletons[c["record"]][1] == ()


def test_a_commit_that_changes_nothing_in_the_folders_is_passed_to_its_first_parent(people):
    root, c = people
    quiet = _quiet(root)
    assert quiet.passed(c["late"], FOLDERS) == (c["submodule"],)
    assert quiet.passed(c["meanwhile"], FOLDERS) == (c["code"],)
    assert quiet.passed(c["code"], FOLDERS) == (c["record"],)
    for touching in ("merge", "delete", "readd", "move", "odd", "submodule", "record"):
        assert quiet.passed(c[touching], FOLDERS) is None, touching
    assert quiet.passed(c["bob"], FOLDERS) is None  # off the line: git was not asked, dulwich reads it
    assert quiet.passed(c["late"], [""]) is None  # the whole tree: every commit changes something


def test_what_git_says_a_commit_changes_is_dulwich_s_tree_diff(people):
    root, c = people
    quiet, opened = _quiet(root), Repo.open(root)
    for sha in git(root, "rev-list", "--first-parent", "HEAD").split():
        tree, parents = opened.skeleton(sha)
        told = quiet.changes(sha, FOLDERS)
        if not parents:
            continue
        expected = opened.tree_changes(opened.skeleton(parents[0])[0], tree, FOLDERS)
        assert sorted(told or []) == sorted(expected), sha
    assert quiet.changes(c["submodule"], FOLDERS) == [("docs/decisions/vendor", None, c["code"])]
    assert [p for p, _old, _new in quiet.changes(c["odd"], FOLDERS)] == [ODD]
    assert quiet.changes(c["late"], FOLDERS) is None  # nothing there
    assert quiet.changes(c["late"], [""]) is None


def test_where_an_added_record_may_have_come_from_is_every_file_its_commit_removes(people):
    root, c = people
    quiet, opened = _quiet(root), Repo.open(root)
    # asked from the newest commit down, as the walk asks: git lists the commits below the first asked
    assert quiet.removed(c["odd"], ["docs/decisions"]) == []  # it adds, and removes nothing anywhere
    removed = quiet.removed(c["move"], ["docs/decisions"])
    before = opened.skeleton(c["odd"])[0]
    assert sorted(p for p, _old, new in removed if new is None) == ["docs/adr/0001-use-x.md", "docs/adr/0002-use-y.md"]
    assert (
        opened.lookup(before, "docs/decisions/0001-use-x.md")[1]
        == {p: o for p, o, _n in removed}["docs/adr/0001-use-x.md"]
    )  # the same bytes, under the new name
    assert quiet.removed(c["delete"], ["docs/decisions"]) is None  # it changed nothing in the folder asked


def test_git_names_the_merged_branch_s_blob_of_a_record_a_merge_changed(people):
    root, c = people
    quiet, opened = _quiet(root), Repo.open(root)
    quiet.changes(c["merge"], ["docs/adr"])  # the walk asks of the folders first
    merged = opened.lookup(opened.skeleton(c["merge"])[0], "docs/adr/0001-use-x.md")[1]
    assert merged == opened.lookup(opened.skeleton(c["bob"])[0], "docs/adr/0001-use-x.md")[1]
    assert quiet.at_second_parent(c["merge"], "docs/adr/0001-use-x.md", merged) == (merged,)  # as on the branch
    assert quiet.at_second_parent(c["merge"], "src/b.py", "x") is None  # outside the folders asked: unsaid
    assert quiet.at_second_parent(c["late"], "docs/adr/0001-use-x.md", merged) is None  # not a merge


def test_what_diff_tree_writes_is_read_and_anything_else_is_no_answer():
    a, b, zero = "a" * 40, "b" * 40, "0" * 40
    raw = f"{a}\0:100644 100644 {b} {b.replace('b', 'c')} M\0docs/adr/x.md\0:000000 100644 {zero} {b} A\0".encode()
    raw += b"docs/adr/caf\xe9.md\0"
    found = gitwalk._parse_raw(raw, {a: []})
    assert found == {
        a: [
            ("docs/adr/x.md", b, "c" * 40),
            (b"docs/adr/caf\xe9.md".decode("utf-8", "surrogateescape"), None, b),
        ]
    }
    assert gitwalk._parse_raw(f"{a}\0:100644 M\0x\0".encode(), {a: []}) is None  # too few fields
    assert gitwalk._parse_raw(f"{b}\0".encode(), {a: []}) is None  # a commit nobody asked about
    assert gitwalk._parse_raw(f":100644 100644 {b} {b} M\0x\0".encode(), {a: []}) is None  # a change before its commit
    assert gitwalk._parse_raw(b"", {a: []}) == {a: []}


def test_git_is_not_run_when_told_not_to_or_not_installed_and_a_failure_is_no_answer(people, monkeypatch, tmp_path):
    root, c = people
    monkeypatch.setenv(gitwalk.DISABLE, "1")
    assert gitwalk.open_for(root / ".git", c["late"]) is None
    monkeypatch.delenv(gitwalk.DISABLE)
    assert isinstance(gitwalk.open_for(root / ".git", c["late"]), gitwalk.Quiet)
    with monkeypatch.context() as mp:
        mp.setenv("PATH", str(tmp_path))  # no git on it
        assert gitwalk.open_for(root / ".git", c["late"]) is None
        assert gitwalk._git(root / ".git", "rev-parse", "HEAD") is None
    assert gitwalk._git(root / ".git", "rev-parse", "HEAD") == (c["late"] + "\n").encode()
    assert gitwalk._git(root / ".git", "rev-parse", "no-such-ref") is None  # a non-zero exit
    assert gitwalk._git(tmp_path, "rev-parse", "HEAD") is None  # no repository there
    quiet = gitwalk.Quiet(root / ".git", "0" * 40)
    assert quiet.skeletons() == {} and not quiet.usable and quiet.changes(c["late"], FOLDERS) is None


def test_git_s_environment_in_a_hook_does_not_redirect_the_walk(people, monkeypatch, tmp_path):
    """A hook (a server's, a quarantined push) runs with GIT_DIR and GIT_OBJECT_DIRECTORY set for
    its own repository: git is asked of the git dir named and its objects, as dulwich reads them."""
    root, c = people
    other = tmp_path / "other"
    other.mkdir()
    git(other, "init", "-q")
    commit(other, {"x": "x"}, "another repository")
    monkeypatch.setenv("GIT_DIR", str(other / ".git"))
    monkeypatch.setenv("GIT_WORK_TREE", str(other))
    monkeypatch.setenv("GIT_OBJECT_DIRECTORY", str(other / ".git" / "objects"))
    quiet = _quiet_at(root, c["late"])
    assert next(iter(quiet.skeletons())) == c["late"]
    assert quiet.passed(c["late"], FOLDERS) == (c["submodule"],)


def _quiet_at(root, head):
    return gitwalk.Quiet(root / ".git", head)


def _answer(root, monkeypatch, *, with_git: bool, folder=None):
    """The walk's touches, version by version (commit, path, author, date), with git or without."""
    shutil.rmtree(root / ".adr-cache", ignore_errors=True)
    shutil.rmtree(root / ".git" / "adr-memory-cache", ignore_errors=True)
    if with_git:
        monkeypatch.delenv(gitwalk.DISABLE, raising=False)
    else:
        monkeypatch.setenv(gitwalk.DISABLE, "1")
    ws = Workspace.discover(root)
    history = versions.walk(ws)
    listed = {
        rec.path: [(v.commit, v.path, v.author, v.date, v.written_in) for v in versions.versions(ws, rec, history)]
        for rec in ws.catalog
    }
    touches = {p: [(t.commit.sha, t.path, t.blob) for t in ts] for p, ts in history.touches.items()}
    return touches, listed, history.chain, history.truncated


def test_the_versions_people_made_are_the_same_with_git_and_without(people, monkeypatch):
    root, c = people
    monkeypatch.chdir(root)
    accelerated = _answer(root, monkeypatch, with_git=True)
    assert accelerated == _answer(root, monkeypatch, with_git=False)
    _touches, listed, chain, truncated = accelerated
    assert chain == git(root, "rev-list", "--first-parent", "HEAD").split() and not truncated
    x = "docs/decisions/0001-use-x.md"
    feb = 1706778000  # 2024-02-01T09:00:00Z
    assert listed[x] == [
        (c["merge"], "docs/adr/0001-use-x.md", "Bob Builder <bob@example.com>", feb + 86400, c["bob"]),
        (c["record"], "docs/adr/0001-use-x.md", "Ada Author <ada@example.com>", feb, None),
    ]  # followed out of the moved folder; the merge credits Bob, who wrote it
    assert listed["docs/decisions/0002-use-y.md"] == [
        (c["readd"], "docs/adr/0002-use-y.md", "Ada Author <ada@example.com>", feb + 4 * 86400, None)
    ]  # written anew after its deletion: a history of its own, not the deleted record's
    assert listed[ODD] == [(c["odd"], ODD, "Ada Author <ada@example.com>", feb + 4 * 86400, None)]
    assert "docs/decisions/vendor" not in listed


def test_a_shallow_clone_and_a_linked_worktree_walk_the_same_with_git_and_without(people, monkeypatch, tmp_path):
    root, c = people
    shallow = tmp_path / "shallow"
    git(tmp_path, "clone", "-q", "--depth", "3", f"file://{root}", str(shallow))
    monkeypatch.chdir(shallow)
    accelerated = _answer(shallow, monkeypatch, with_git=True)
    assert accelerated == _answer(shallow, monkeypatch, with_git=False)
    touches, _listed, chain, truncated = accelerated
    assert truncated and chain == [c["late"], c["submodule"], c["odd"]]
    assert touches["docs/decisions/0001-use-x.md"] == [
        (c["odd"], "docs/decisions/0001-use-x.md", touches["docs/decisions/0001-use-x.md"][0][2])
    ]  # the oldest commit the clone has stands in for every older touch
    linked = tmp_path / "linked"
    git(root, "worktree", "add", "-q", "--detach", str(linked), c["readd"])
    try:
        monkeypatch.chdir(linked)
        accelerated = _answer(linked, monkeypatch, with_git=True)
        assert accelerated == _answer(linked, monkeypatch, with_git=False)
        assert accelerated[2][0] == c["readd"] and set(accelerated[0]) == {
            "docs/adr/0001-use-x.md",
            "docs/adr/0002-use-y.md",
        }
    finally:
        monkeypatch.chdir(tmp_path)
        git(root, "worktree", "remove", "--force", str(linked))


def test_a_replaced_commit_is_read_as_it_is_by_git_as_by_dulwich(people, monkeypatch, tmp_path):
    """`git replace` makes git's own log show another commit; dulwich reads the objects as they
    are, so git is asked with replace refs off, and the two walks agree."""
    root, c = people
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", "--no-local", str(root), str(clone))
    git(clone, "replace", c["readd"], c["record"])
    assert git(clone, "log", "-1", "--format=%s", c["readd"]) == "Record X and Y"  # git's log is fooled
    monkeypatch.chdir(clone)
    accelerated = _answer(clone, monkeypatch, with_git=True)
    assert accelerated == _answer(clone, monkeypatch, with_git=False)
    assert accelerated[2] == git(root, "rev-list", "--first-parent", "HEAD").split()  # the commits as they are


def test_identical_records_moved_together_keep_their_own_histories_with_git_and_without(repo, monkeypatch):
    """Two records whose bytes became the same, moved in one commit: each new path follows the
    record of its own name, as git pairs them (a tree diff's order, a set's, once crossed them
    in some processes and not in others)."""
    one, two = adr_text("Same", body="first draft of one"), adr_text("Same", body="first draft of two")
    a = commit(repo, {"old/0001-same.md": one}, "one")
    b = commit(repo, {"old/0002-same.md": two}, "two")
    commit(repo, {"old/0001-same.md": adr_text("Same"), "old/0002-same.md": adr_text("Same")}, "now alike")
    (repo / "docs").mkdir()
    git(repo, "mv", "old", "docs/adr")
    commit(repo, {}, "move both")
    accelerated = _walked(repo, monkeypatch, with_git=True)
    assert accelerated == _walked(repo, monkeypatch, with_git=False)
    touches = accelerated[0]
    assert touches["docs/adr/0001-same.md"][-1][:2] == (a, "old/0001-same.md")
    assert touches["docs/adr/0002-same.md"][-1][:2] == (b, "old/0002-same.md")


def test_what_is_asked_ahead_runs_side_by_side_and_is_read_once_or_stopped(repo):
    _history(repo)
    head = git(repo, "rev-parse", "HEAD").strip()
    quiet = gitwalk.Quiet(repo / ".git", head)
    quiet.prefetch(["docs/adr"])
    running = list(quiet._started.values())
    assert len(running) == 2 and all(r.process is not None for r in running)  # both started, neither read
    assert quiet.skeletons() == gitwalk.Quiet(repo / ".git", head).skeletons()  # the same answer, read once
    assert len(quiet._started) == 1
    quiet.settle()  # the walk ended before it read the other: stopped, nothing left running
    assert quiet._started == {} and all(r.process.poll() is not None for r in running)
    whole = gitwalk.Quiet(repo / ".git", head)
    whole.prefetch([""])  # the whole tree: every commit changes something, git is not asked
    assert whole._started == {}
