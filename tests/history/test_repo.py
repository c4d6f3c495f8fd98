"""The repository as dulwich reads it, answer by answer against what git says: HEAD, the
paths a commit, the index and the work tree change, ancestry, and blobs read only as far as a
limit allows."""

from __future__ import annotations

import pytest

from adr_memory.errors import GitError, NotARepository, TooLarge
from adr_memory.history.repo import Repo, open_bare
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


# ------------------------------------------------------------------ one history, read many ways


def _seal(mp: pytest.MonkeyPatch, home) -> None:
    """What the suite's `sealed` fixture sets, for a history built once per module (module
    fixtures run before it)."""
    for var in ("HOME", "XDG_CACHE_HOME", "XDG_CONFIG_HOME"):
        mp.setenv(var, str(home / var.lower()))
    mp.setenv("GIT_CONFIG_NOSYSTEM", "1")
    for role in ("AUTHOR", "COMMITTER"):
        mp.setenv(f"GIT_{role}_NAME", "Ada Author")
        mp.setenv(f"GIT_{role}_EMAIL", "ada@example.com")


def _as(mp: pytest.MonkeyPatch, name: str, email: str, day: int) -> None:
    """The next commits by `name`, made on 2024-01-`day` at noon UTC."""
    for role in ("AUTHOR", "COMMITTER"):
        mp.setenv(f"GIT_{role}_NAME", name)
        mp.setenv(f"GIT_{role}_EMAIL", email)
        mp.setenv(f"GIT_{role}_DATE", f"2024-01-{day:02d}T12:00:00Z")


NOON = 1704110400  # 2024-01-01T12:00:00Z


@pytest.fixture(scope="module")
def shared(tmp_path_factory):
    """root (Ada) -> on main: an edit (Ada); on topic: a file by Bob; merged --no-ff by Carol;
    then a deletion of Bob's file. An annotated tag names the root."""
    root = tmp_path_factory.mktemp("shared") / "repo"
    root.mkdir()
    with pytest.MonkeyPatch.context() as mp:
        _seal(mp, tmp_path_factory.mktemp("home"))
        git(root, "init", "-q", "-b", "main")
        _as(mp, "Ada Author", "ada@example.com", 1)
        first = commit(root, {"src/a.py": "a1\n", "docs/adr/0001-a.md": "# A\n"}, "First commit\n\nWith a body line.")
        git(root, "tag", "-a", "v1", "-m", "the first release")
        git(root, "checkout", "-q", "-b", "topic")
        _as(mp, "Bob Builder", "bob@example.com", 2)
        topic = commit(root, {"src/b.py": "b\n"}, "Bob's file")
        git(root, "checkout", "-q", "main")
        _as(mp, "Ada Author", "ada@example.com", 3)
        edit = commit(root, {"src/a.py": "a2\n"}, "Edit a")
        _as(mp, "Carol Merger", "carol@example.com", 4)
        git(root, "merge", "-q", "--no-ff", "topic", "-m", "Merge topic")
        merge = git(root, "rev-parse", "HEAD")
        _as(mp, "Ada Author", "ada@example.com", 5)
        gone = commit(root, {"src/b.py": None}, "Remove b")
    return root, {"first": first, "topic": topic, "edit": edit, "merge": merge, "gone": gone}


def test_each_commit_reads_its_author_time_message_and_parents_as_git_logs_them(shared):
    root, shas = shared
    opened = Repo.open(root)
    for sha in git(root, "rev-list", "--all").split():
        info = opened.commit(sha)
        name, stamp, parents, tree = git(root, "log", "-1", "--format=%an <%ae>%n%at%n%P%n%T", sha).split("\n")
        assert (info.author, info.timestamp, info.parents, info.tree) == (
            name,
            int(stamp),
            tuple(parents.split()),
            tree,
        )
        assert info.message == git(root, "log", "-1", "--format=%B", sha).strip()
        assert opened.skeleton(sha) == (info.tree, info.parents)
    merge = opened.commit(shas["merge"])
    assert merge.author == "Carol Merger <carol@example.com>" and merge.timestamp == NOON + 3 * 86400
    assert merge.parents == (shas["edit"], shas["topic"])  # the first parent is the line merged into
    first = opened.commit(shas["first"])
    assert first.subject == "First commit" and first.message == "First commit\n\nWith a body line."
    assert first.parents == () and first.timestamp == NOON


def test_a_skeleton_read_from_the_header_alone_matches_a_commit_not_yet_parsed(shared):
    root, shas = shared
    cold = Repo.open(root)
    assert cold.skeleton(shas["merge"]) == (git(root, "rev-parse", "HEAD~1^{tree}"), (shas["edit"], shas["topic"]))
    assert shas["merge"] not in cold._commits  # the header was enough: no author or message parsed
    told = Repo.open(root)
    told.know({shas["gone"]: ("f" * 40, ())})
    assert told.skeleton(shas["gone"]) == ("f" * 40, ())  # what git said is believed, unread
    told.know({shas["gone"]: ("e" * 40, ())})
    assert told.skeleton(shas["gone"]) == ("f" * 40, ())  # and what was read already stays


def test_an_object_that_is_no_commit_or_is_not_there_is_a_named_git_error(shared):
    root, shas = shared
    opened = Repo.open(root)
    tree = opened.commit(shas["first"]).tree
    with pytest.raises(GitError, match=f"^{tree[:12]} is not a commit$"):
        opened.commit(tree)
    with pytest.raises(GitError, match=r"^commit 000000000000 is missing from the object store$") as missing:
        opened.commit("0" * 40)
    assert missing.value.hint == "the clone may be shallow or damaged: git fetch --unshallow"
    assert opened.has_commit(shas["topic"]) and not opened.has_commit("0" * 40) and not opened.has_commit(tree)


def test_a_tag_is_peeled_to_its_commit_and_a_short_sha_is_looked_up_once(shared, monkeypatch):
    root, shas = shared
    opened = Repo.open(root)
    assert opened.resolve("v1") == shas["first"] != git(root, "rev-parse", "v1")  # the tag object is not a commit
    assert opened.resolve("topic") == opened.resolve("refs/heads/topic") == shas["topic"]
    short = shas["edit"][:7]
    assert opened.resolve(short) == shas["edit"]
    with pytest.raises(GitError, match=r"^unknown revision 'no-such-branch'$") as unknown:
        opened.resolve("no-such-branch")
    assert "fetch-depth: 0" in unknown.value.hint
    with pytest.raises(GitError, match=r"^unknown revision 'deadbeef'$"):
        opened.resolve("deadbeef")
    import dulwich.objectspec

    monkeypatch.setattr(dulwich.objectspec, "parse_commit", lambda *_a: pytest.fail("looked up again"))
    assert opened.resolve(short) == shas["edit"]  # an object id names one commit for good
    with pytest.raises(GitError, match=r"^unknown revision 'deadbeef'$"):
        opened.resolve("deadbeef")  # and one naming nothing stays unknown, unread


def test_head_changes_are_a_deletion_s_path_and_a_merge_s_against_its_first_parent(shared, tmp_path):
    root, shas = shared
    assert Repo.open(root).head_changes() == {"src/b.py"}
    merged = tmp_path / "merged"
    git(tmp_path, "clone", "-q", "--no-local", str(root), str(merged))
    git(merged, "checkout", "-q", "--detach", shas["merge"])
    # what the branch brought, as `git diff HEAD^1 HEAD` lists it: not what main did meanwhile
    assert Repo.open(merged).head_changes() == {"src/b.py"} == set(git(merged, "diff", "--name-only", "HEAD^1").split())
    git(merged, "checkout", "-q", "--detach", shas["first"])
    assert Repo.open(merged).head_changes() == {"src/a.py", "docs/adr/0001-a.md"}  # a root commit: all it holds


def test_a_file_is_read_as_each_commit_holds_it_and_a_folder_or_a_deleted_file_is_none(shared):
    root, shas = shared
    opened = Repo.open(root)
    assert opened.read(shas["first"], "src/a.py") == b"a1\n"
    assert opened.read(shas["gone"], "src/a.py") == b"a2\n"
    assert opened.read(shas["merge"], "src/b.py") == b"b\n"
    assert opened.read(shas["gone"], "src/b.py") is None
    assert opened.read(shas["gone"], "src") is None  # a folder holds no bytes of its own
    assert opened.read(shas["gone"], "src/a.py/deeper") is None


def test_a_remote_is_named_by_its_url_and_a_missing_one_is_none(shared, tmp_path):
    root, _shas = shared
    assert Repo.open(root).remote_url("origin") is None
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", str(root), str(clone))
    opened = Repo.open(clone)
    assert opened.remote_url("origin") == str(root)
    assert opened.remote_url("upstream") is None
    assert opened.config_value("remote", "url") is None  # a subsection is not the section


def test_a_shallow_clone_names_its_boundary_and_ancestry_ends_there(shared, tmp_path):
    root, shas = shared
    clone = tmp_path / "shallow"
    git(tmp_path, "clone", "-q", "--depth", "2", f"file://{root}", str(clone))
    opened = Repo.open(clone)
    boundary = set((clone / ".git" / "shallow").read_text().split())
    assert opened.shallow() == boundary and shas["first"] not in boundary
    assert opened.head() == shas["gone"]
    assert boundary == {shas["merge"]}  # two commits deep: HEAD and its parent, whose parents are not here
    assert opened._ancestors([shas["gone"]]) == {shas["gone"], shas["merge"]}  # history ends where git's does
    assert not opened.is_ancestor(shas["first"], shas["gone"])  # the root is not in the clone: no claim
    assert not opened.has_commit(shas["first"])
    assert Repo.open(root).shallow() == set()


def test_a_partial_clone_says_so_when_an_object_is_missing(shared, tmp_path):
    root, _shas = shared
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", "--no-local", str(root), str(clone))
    opened = Repo.open(clone)
    assert not opened.partial()
    with pytest.raises(GitError, match=r"^object ffffffffffff is missing: damaged or partial clone$"):
        opened.blob("f" * 40)
    pack = next((clone / ".git/objects/pack").glob("*.pack"))
    pack.with_suffix(".promisor").write_text("")
    assert opened.partial()
    with pytest.raises(GitError, match="is not in this partial clone") as partial:
        opened.blob("f" * 40)
    assert "clone without --filter" in partial.value.hint
    assert {"f" * 40} == opened.missing


def test_a_linked_worktree_has_its_own_head_and_git_dir_and_shares_the_common_one(shared, tmp_path):
    root, shas = shared
    clone = tmp_path / "main"
    git(tmp_path, "clone", "-q", "--no-local", str(root), str(clone))
    linked = tmp_path / "linked"
    git(clone, "worktree", "add", "-q", "--detach", str(linked), shas["topic"])
    opened = Repo.open(linked)
    assert opened.head() == shas["topic"] and Repo.open(clone).head() == shas["gone"]
    assert opened.git_dir() == clone / ".git" / "worktrees" / "linked"
    assert opened.common_dir().resolve() == (clone / ".git").resolve()
    assert opened.remote_url("origin") == str(root)  # the config is the common one
    assert opened.read(opened.head(), "src/b.py") == b"b\n"


def test_head_naming_no_commit_and_configs_git_refuses_are_named_with_a_hint(repo):
    commit(repo, {"a.txt": "a"}, "one")
    (repo / ".git/HEAD").write_text("0123abc\n")
    with pytest.raises(GitError, match=r"^HEAD names no commit: '0123abc'$") as named:
        Repo.open(repo).head()
    assert named.value.hint == "`git status` says what git makes of it; repair .git/HEAD"
    (repo / ".git/HEAD").write_text("ref: refs/heads/main\n")
    git(repo, "config", "core.bare", "true")
    git(repo, "config", "core.worktree", str(repo))
    with pytest.raises(NotARepository, match=r"^the repository's config cannot name a work tree") as worktree:
        Repo.open(repo)
    assert worktree.value.hint == "`git config core.bare false`, or unset core.worktree"
    (repo / ".git/config").write_text("[core\nbroken")
    with pytest.raises(NotARepository, match=r"^the repository's config does not read") as config:
        Repo.open(repo)
    assert config.value.hint == "`git config --list` names the bad line in .git/config"


def test_a_dot_git_file_naming_a_folder_that_is_no_repository_says_how_to_repair_it(tmp_path):
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / ".git").write_text(f"gitdir: {tmp_path / 'elsewhere'}\n")
    with pytest.raises(NotARepository, match="which is no git directory") as named:
        Repo.open(tmp_path / "sub")
    assert str(tmp_path / "elsewhere") in named.value.message
    assert "git worktree repair" in named.value.hint
    with pytest.raises(NotARepository, match=r"is not a git repository$") as none:
        Repo.open(tmp_path / "elsewhere")
    assert none.value.hint == "run `git init` first"


def test_orig_head_is_a_commit_id_or_nothing(repo):
    first = commit(repo, {"a.txt": "a"}, "one")
    commit(repo, {"a.txt": "b"}, "two")
    assert Repo.open(repo).orig_head() is None
    git(repo, "reset", "-q", "--hard", first)
    assert Repo.open(repo).orig_head() == git(repo, "rev-parse", "ORIG_HEAD") != first
    (repo / ".git/ORIG_HEAD").write_text("not a sha\n")
    assert Repo.open(repo).orig_head() is None


def test_staged_paths_read_the_index_git_commit_names_in_git_index_file(repo, monkeypatch, tmp_path):
    commit(repo, {"a.txt": "a", "b.txt": "b"}, "one")
    (repo / "a.txt").write_text("a2")
    (repo / "c.txt").write_text("c")
    other = tmp_path / "commit-index"
    env = {"GIT_INDEX_FILE": str(other)}
    import os
    import subprocess

    for args in (["read-tree", "HEAD"], ["add", "a.txt"], ["rm", "-q", "--cached", "b.txt"]):
        subprocess.run(["git", *args], cwd=repo, env={**os.environ, **env}, check=True)
    assert Repo.open(repo).staged_paths() == set()  # the real index holds nothing staged
    monkeypatch.setenv("GIT_INDEX_FILE", str(other))
    assert Repo.open(repo).staged_paths() == {"a.txt", "b.txt"}


def test_the_work_tree_s_changes_hold_deletions_and_names_that_are_not_utf8(repo):
    commit(repo, {"keep.txt": "k", "gone.txt": "g"}, "one")
    (repo / "gone.txt").unlink()
    odd = b"caf\xe9.md".decode("utf-8", "surrogateescape")
    (repo / odd).write_bytes(b"x")
    changes = Repo.open(repo).worktree_changes()
    assert changes == {"gone.txt", odd}
    assert (repo / next(c for c in changes if c != "gone.txt")).read_bytes() == b"x"  # the bytes git has


def test_a_fetched_copy_that_does_not_open_says_to_fetch_it_again(tmp_path, shared):
    (tmp_path / "copy").write_text("not a folder")
    with pytest.raises(GitError, match=r"^the fetched copy at .* does not open") as failed:
        open_bare(tmp_path / "copy")
    assert failed.value.hint == "`adr sources update` fetches it again"
    root, shas = shared
    bare = tmp_path / "bare.git"
    git(tmp_path, "clone", "-q", "--bare", str(root), str(bare))
    pinned = open_bare(bare, shas["topic"])
    assert pinned.head() == shas["topic"] != git(bare, "rev-parse", "HEAD")  # read as if HEAD were the pin
    assert pinned.read(pinned.head(), "src/b.py") == b"b\n"
