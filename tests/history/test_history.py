"""Git as users have it: shallow clones and damaged object stores give `unknown` and named
errors, never a false fresh, an empty answer or a traceback."""

from __future__ import annotations

import json
import os
import re
import shutil
import zlib

import pytest

from tests.helpers import adr_text, commit, git, run


@pytest.fixture
def shallow(repo, tmp_path, monkeypatch, capsys):
    """A history whose anchors all lie beyond a depth-1 clone's boundary."""
    commit(
        repo,
        {
            "docs/adr/0001-db.md": adr_text("DB", governs=["src/**"]),
            "docs/adr/0002-api.md": adr_text("API", governs=["src/**"]),
            "src/a.py": "1",
        },
        "one",
    )
    run(capsys, "affirm", "2")
    commit(repo, {}, "affirm 2")
    for n in range(2, 5):
        commit(repo, {"src/a.py": str(n)}, f"change {n}")
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", "--depth", "1", f"file://{repo}", str(clone))
    monkeypatch.chdir(clone)
    return clone


def test_a_shallow_clone_says_unknown_everywhere(shallow, capsys):
    rows = json.loads(run(capsys, "list", "--json").out)
    assert [(r["id"], r["stale"]) for r in rows] == [("ADR-0001", None), ("ADR-0002", None)]
    assert all(r["stale_text"].startswith("unknown: shallow clone") for r in rows)
    listed = run(capsys, "list")
    assert listed.out.count("unknown") == 2 and " no " not in listed.out
    assert listed.err.count("warning: shallow clone") == 1 and "fetch-depth: 0" in listed.err
    verdicts = json.loads(run(capsys, "stale", "--json").out)["decisions"]
    assert [v["state"] for v in verdicts] == ["unknown", "unknown"]  # the reviewed one too: git cannot show its anchor
    shown = " ".join(run(capsys, "show", "2").out.split())
    assert "stale unknown: shallow clone" in shown
    guard = json.loads(run(capsys, "guard", "src/a.py", "--json").out)
    assert {d["state"] for d in guard["paths"][0]["decisions"]} == {"unknown"}


def test_fail_modes_fail_on_a_shallow_clone_unless_told(shallow, capsys):
    run(capsys, "stale", "--fail", code=1)
    run(capsys, "stale", "--fail", "--allow-unknown", code=0)


def test_check_base_beyond_the_boundary_is_an_error_with_the_hint(shallow, capsys):
    result = run(capsys, "check", "--base", "HEAD~2", code=2)
    assert result.err.startswith("error: ") and "fetch-depth: 0" in result.err


def _object_path(root, sha):
    return root / ".git/objects" / sha[:2] / sha[2:]


def test_a_missing_blob_of_an_older_version_leaves_that_version_unknown_and_the_rest_shown(repo, capsys):
    """One missing blob made `adr log` and `adr stale` exit 2 and blanked every version in
    `adr list`: it degrades as a missing tree does, that version unknown, the rest as they are."""
    commit(repo, {"docs/adr/0001-db.md": adr_text("DB", body="First.", governs=["src/**"]), "src/a.py": "1"}, "one")
    old_blob = git(repo, "rev-parse", "HEAD:docs/adr/0001-db.md")
    commit(repo, {"docs/adr/0001-db.md": adr_text("DB", body="Second.", governs=["src/**"])}, "two")
    commit(repo, {"docs/adr/0002-other.md": adr_text("Other")}, "three")
    expected_list = json.loads(run(capsys, "list", "--json").out)
    expected_stale = json.loads(run(capsys, "stale", "--json").out)["decisions"]
    os.unlink(_object_path(repo, old_blob))
    for kept in (repo / ".adr-cache", repo / ".git" / "adr-memory-cache"):  # a clone as it comes
        shutil.rmtree(kept, ignore_errors=True)
    logged = run(capsys, "log", "1", "--json")
    versions = json.loads(logged.out)["versions"]
    assert [(v["message"], v["status"], v["version_id"]) for v in versions] == [
        ("two", "accepted", None),
        ("one", "unknown", None),
    ]
    assert logged.err.startswith("warning: 1 git object(s) are not in this clone: what needs them is not shown")
    listed = {r["id"]: r for r in json.loads(run(capsys, "list", "--json").out)}
    before = {r["id"]: r for r in expected_list}
    assert listed["ADR-0002"] == before["ADR-0002"]  # a record the missing object is not of: as before
    one, was = listed["ADR-0001"], before["ADR-0001"]
    # Its id chains on the version this clone lacks, and when it came to stand so is that
    # version's to say: both unknown (null), never worked out from a guess; the rest as before.
    assert (one["version_id"], one["standing"]["changed"]) == (None, None)
    assert {k: v for k, v in one.items() if k not in ("version_id", "standing")} == {
        k: v for k, v in was.items() if k not in ("version_id", "standing")
    }
    assert json.loads(run(capsys, "stale", "--json").out)["decisions"] == expected_stale


def test_a_partial_clone_names_what_it_lacks_and_how_to_fetch_it(repo, tmp_path, monkeypatch, capsys):
    """`git clone --filter=blob:none` leaves out the blobs of past versions; git fetches them
    when it needs them, adr-memory never does."""
    commit(repo, {"docs/adr/0001-db.md": adr_text("DB", governs=["src/**"]), "src/a.py": "1"}, "one")
    commit(repo, {"docs/adr/0001-db.md": adr_text("DB", governs=["src/**"], body="Reworded.")}, "two")
    commit(repo, {"src/a.py": "2"}, "three")
    expected = json.loads(run(capsys, "stale", "--json").out)["decisions"]
    git(repo, "config", "uploadpack.allowFilter", "true")
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", "--filter=blob:none", f"file://{repo}", str(clone))
    monkeypatch.chdir(clone)

    degraded = run(capsys, "stale", "--json")  # the past version git left out: unknown, not guessed
    assert json.loads(degraded.out)["decisions"] == expected
    assert degraded.err.startswith("warning: 1 git object(s) are not in this clone: what needs them is not shown")
    assert "`git log -p -- <the ADR folder> >/dev/null` fetches them" in degraded.err
    logged = json.loads(run(capsys, "log", "1", "--json").out)["versions"]
    assert [v["status"] for v in logged] == ["accepted", "unknown"]

    git(clone, "log", "-p", "--", "docs/adr")  # the hint's way: git fetches what it lacks
    assert json.loads(run(capsys, "stale", "--json").out)["decisions"] == expected
    assert run(capsys, "list").err == ""


def test_a_missing_tree_fails_loudly(repo, capsys):
    commit(repo, {"docs/adr/0001-db.md": adr_text("DB", governs=["src/**"]), "src/a.py": "1"}, "one")
    old_tree = git(repo, "rev-parse", "HEAD^{tree}")
    commit(repo, {"src/a.py": "2"}, "two")
    commit(repo, {"src/b.py": "3"}, "three")
    os.unlink(_object_path(repo, old_tree))
    result = run(capsys, "list", "--at", "HEAD~2", code=2)
    assert "is missing: damaged or partial clone" in result.err and result.out == ""
    run(capsys, "stale", "--fail", code=1)
    states = [d["state"] for d in json.loads(run(capsys, "stale", "--json").out)["decisions"]]
    assert states == ["unknown"]


def _damage(path, how):
    os.chmod(path, 0o644)  # git writes objects read-only
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2] if how == "truncated" else zlib.compress(b"blob x\0") + b"!")


@pytest.mark.parametrize("how", ["truncated", "rewritten"])
def test_a_damaged_object_is_said_and_what_needs_it_unknown(repo, capsys, how):
    """A truncated file or one holding another object's bytes: git fsck's corrupt object."""
    commit(repo, {"docs/adr/0001-db.md": adr_text("DB", body="First.", governs=["src/**"]), "src/a.py": "1"}, "one")
    old_blob, old_tree = git(repo, "rev-parse", "HEAD:docs/adr/0001-db.md", "HEAD^{tree}").split()
    commit(repo, {"docs/adr/0001-db.md": adr_text("DB", body="Second.", governs=["src/**"])}, "two")
    commit(repo, {"src/a.py": "2"}, "three")
    _damage(_object_path(repo, old_blob), how)
    result = run(capsys, "log", "1", "--json")  # that version unknown, the rest shown, and why said
    assert [v["status"] for v in json.loads(result.out)["versions"]] == ["accepted", "unknown"]
    assert result.err.startswith("warning: 1 git object(s) are damaged") and "`git fsck` lists them" in result.err
    _damage(_object_path(repo, old_tree), how)
    result = run(capsys, "list", "--at", "HEAD~2", code=2)
    assert result.err.startswith(f"error: object {old_tree[:12]} is damaged") and result.out == ""


def test_a_damaged_packed_tree_ends_the_history_with_a_warning(repo, capsys):
    commit(repo, {"docs/adr/0001-db.md": adr_text("DB", governs=["src/**"]), "src/a.py": "0"}, "one")
    for n in range(1, 4):
        commit(
            repo,
            {"docs/adr/0001-db.md": adr_text("DB", governs=["src/**"], body=f"Take {n}."), "src/a.py": str(n)},
            f"take {n}",
        )
    commit(repo, {"src/a.py": "changed"}, "code")
    old_tree = git(repo, "rev-parse", "HEAD~3^{tree}")
    git(repo, "gc", "-q")
    pack = next((repo / ".git/objects/pack").glob("*.pack"))
    row = next(
        line.split()
        for line in git(repo, "verify-pack", "-v", str(pack.with_suffix(".idx"))).splitlines()
        if line.startswith(old_tree)
    )
    size, offset = int(row[3]), int(row[4])  # sha type size size-in-pack offset
    os.chmod(pack, 0o644)
    data = bytearray(pack.read_bytes())
    data[offset + size - 2] ^= 0xFF  # inside its compressed bytes: zlib's checksum fails
    pack.write_bytes(bytes(data))
    result = run(capsys, "log", "1", "--json")
    assert len(json.loads(result.out)["versions"]) < 4
    assert "warning: 1 git object(s) are damaged" in result.err and "git fsck" in result.err
    assert json.loads(run(capsys, "stale", "--json").out)["decisions"][0]["state"] == "stale"


def test_a_symlinked_adr_folder_is_followed_to_the_tracked_path(repo, capsys):
    (repo / "docs").mkdir()
    os.symlink("../decisions", repo / "docs/adr")
    commit(repo, {"decisions/0001-db.md": adr_text("DB", governs=["src/**"]), "src/a.py": "1"}, "one")
    commit(repo, {"decisions/0001-db.md": adr_text("DB", governs=["src/**"], body="Edited.")}, "two")
    commit(repo, {"src/a.py": "2"}, "code")
    verdicts = json.loads(run(capsys, "stale", "--json").out)["decisions"]
    assert [(v["path"], v["state"]) for v in verdicts] == [("decisions/0001-db.md", "stale")]
    versions = json.loads(run(capsys, "log", "1", "--json").out)["versions"]
    assert [v["draft"] for v in versions] == [False, False]


def _hand_made_commit(root, *header: str, message: bytes = b"affirm \xe9t\xe9\n") -> str:
    """A commit git would never write but a clone can carry (git accepts it unless fsck is on):
    the same tree and parent as HEAD's change, with the signature lines given."""
    git(root, "add", "-A")
    body = (
        "\n".join([f"tree {git(root, 'write-tree')}", f"parent {git(root, 'rev-parse', 'HEAD')}", *header]).encode()
        + b"\n\n"
        + message
    )
    raw = root / "raw-commit"
    raw.write_bytes(body)
    sha = git(root, "hash-object", "-t", "commit", "--literally", "-w", str(raw))
    raw.unlink()
    git(root, "update-ref", "refs/heads/main", sha)
    return sha


@pytest.mark.parametrize(
    "header, day, author",
    [
        (("author Ann 1700000000 +0000", "committer Ann 1700000000 +0000"), "2023-11-14", "Ann"),  # no email
        (("committer Bob <b@x> 1700000000 +0000",), "2023-11-14", "Bob <b@x>"),  # no author
        (
            ("author Ann <a@x> 99999999999999 +0000", "committer Ann <a@x> 99999999999999 +0000"),
            None,
            "Ann <a@x>",
        ),  # a year past 9999
        (
            ("author Ann <a@x> 1700000000 +99999", "committer Ann <a@x> 1700000000 +99999"),
            "2023-11-14",
            "Ann <a@x>",
        ),  # a zone no clock has
    ],
)
def test_a_hand_made_commit_is_read_as_far_as_it_says(repo, capsys, header, day, author):
    """Every command reads it, review and check --base too."""
    commit(repo, {"docs/adr/0001-db.md": adr_text("DB", governs=["src/**"]), "src/a.py": "1"}, "one")
    (repo / "src" / "a.py").write_text("2")
    (repo / "docs" / "adr" / "0001-db.md").write_text(adr_text("DB", governs=["src/**"], body="Again."))
    sha = _hand_made_commit(repo, *header)
    versions = json.loads(run(capsys, "log", "1", "--json").out)["versions"]
    moment = versions[0]["date"]  # a commit's time, as the reference promises
    assert (versions[0]["commit"], moment and moment[:10], versions[0]["author"]) == (sha, day, author)
    assert moment is None or re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", moment)
    stale = json.loads(run(capsys, "stale", "--json").out)["decisions"][0]
    assert stale["state"] == "fresh" and (stale["days_since_anchor"] is None) == (day is None)
    assert json.loads(run(capsys, "list", "--json").out)[0]["id"] == "ADR-0001"
    for args in (("show", "1"), ("export",), ("why", "src/a.py"), ("check",)):
        run(capsys, *args)
    # dulwich's walk of common history asserts a committer time; without one, the parents are
    # walked instead.
    review = json.loads(run(capsys, "review", "--base", "HEAD~1", "--format", "json").out)
    assert review["merge_base"] == git(repo, "rev-parse", "HEAD~1")
    assert [v["id"] for v in review["new_versions"]] == ["ADR-0001"], review
    check = json.loads(run(capsys, "check", "--base", "HEAD~1", "--format", "json", code=1).out)
    assert [f["kind"] for f in check["findings"]] == ["accepted-edit"]  # its body changed


def test_the_merge_base_walked_by_parents_is_the_one_git_finds(repo, tmp_path):
    """The walk review and check --base fall back on when a commit has no committer time:
    across merges (a criss-cross has two bases, and git names one of them), ancestry, and a
    shallow clone's history, which ends at its shallow commits."""
    from adr_memory.history.repo import Repo

    base = commit(repo, {"a": "0"}, "base")
    git(repo, "checkout", "-q", "-b", "side")
    side = commit(repo, {"b": "1"}, "side")
    git(repo, "checkout", "-q", "main")
    main = commit(repo, {"c": "1"}, "main")
    git(repo, "merge", "-q", "--no-edit", "side")  # main takes side
    git(repo, "checkout", "-q", "side")
    git(repo, "merge", "-q", "--no-edit", main)  # side takes main: a criss-cross
    git(repo, "checkout", "-q", "main")
    ahead_main, ahead_side = commit(repo, {"d": "1"}, "main on"), git(repo, "rev-parse", "side")
    ours = Repo.open(repo)
    assert len(git(repo, "merge-base", "--all", ahead_main, ahead_side).split()) == 2
    for a, b in ((ahead_main, ahead_side), (main, side), (ahead_main, base), (side, ahead_main)):
        bases = git(repo, "merge-base", "--all", a, b).split()
        assert ours._merge_base_by_parents(a, b) in bases
        assert (ours._merge_base_by_parents(a, b) == a) == (a in bases)
    assert ours._ancestors([ahead_main]) == set(git(repo, "rev-list", ahead_main).split())
    shallow = tmp_path / "shallow"
    git(tmp_path, "clone", "-q", "--depth", "2", "--no-single-branch", f"file://{repo}", str(shallow))
    clone = Repo.open(shallow)
    assert clone._ancestors([ahead_main]) == set(git(shallow, "rev-list", ahead_main).split())


def test_a_commit_message_is_read_in_the_encoding_its_header_names(repo, capsys):
    commit(repo, {"docs/adr/0001-db.md": adr_text("DB")}, "one")
    (repo / "docs" / "adr" / "0001-db.md").write_text(adr_text("DB", body="Again."))
    stamp = "Ann <a@x> 1700000000 +0000"
    _hand_made_commit(repo, f"author {stamp}", f"committer {stamp}", "encoding ISO-8859-1")
    assert json.loads(run(capsys, "log", "1", "--json").out)["versions"][0]["message"] == "affirm été"
    (repo / "docs" / "adr" / "0001-db.md").write_text(adr_text("DB", body="Once more."))
    _hand_made_commit(
        repo, f"author {stamp}", f"committer {stamp}", "encoding zlib_codec", message="caf\u00e9".encode()
    )  # no text encoding: read as UTF-8
    assert json.loads(run(capsys, "log", "1", "--json").out)["versions"][0]["message"] == "café"


@pytest.mark.parametrize(
    "damage, said",
    [
        (
            {".git/refs/heads/main": "ref: refs/heads/other\n", ".git/refs/heads/other": "ref: refs/heads/main\n"},
            "HEAD cannot be read: its symbolic refs form a loop",
        ),
        ({".git/HEAD": "garbage\n"}, "HEAD names no commit: 'garbage'"),
        ({".git/packed-refs": "zzzz\n"}, "HEAD cannot be read: .git/packed-refs does not parse"),
        ({".git/config": "[core\n"}, "the repository's config does not read"),
    ],
)
def test_unreadable_refs_or_config_are_named_and_records_still_listed(repo, capsys, damage, said):
    commit(repo, {"docs/adr/0001-db.md": adr_text("DB", governs=["src/**"])}, "one")
    git(repo, "pack-refs", "--all")
    for rel, text in damage.items():
        path = repo / rel
        path.write_text((path.read_text() if rel.endswith("packed-refs") else "") + text)
    result = run(capsys, "stale", code=2)
    assert result.err.startswith(f"error: {said}") and "hint: " in result.err
    listed = run(capsys, "list", "--json")
    assert [r["id"] for r in json.loads(listed.out)] == ["ADR-0001"]
    assert json.loads(listed.out)[0]["version_id"] is None
    assert listed.err.startswith(f"warning: {said}") and "versions and staleness are not shown" in listed.err
    run(capsys, "check")


@pytest.mark.parametrize(
    "break_it, said",
    [
        (lambda main, tree: shutil.rmtree(main / ".git" / "worktrees"), "which is no git directory"),
        (lambda main, tree: (tree / ".git").write_bytes(b"\xff\xfe not a pointer"), "does not say `gitdir: <path>`"),
    ],
    ids=["repository-gone", "garbled"],
)
def test_a_worktree_whose_git_dir_is_gone_says_so(repo, tmp_path, monkeypatch, capsys, break_it, said):
    """A linked worktree whose repository moved, or a `.git` file that names nothing: git says
    "not a git repository"; we never read it as a repository without commits."""
    commit(repo, {"docs/adr/0001-db.md": adr_text("DB", governs=["src/**"]), "src/a.py": "1"}, "one")
    tree = tmp_path / "tree"
    git(repo, "worktree", "add", "-q", str(tree), "-b", "side")
    break_it(repo, tree)
    monkeypatch.chdir(tree)
    failed = run(capsys, "stale", code=2)
    assert failed.err.startswith(f"error: {tree / '.git'}") and said in failed.err
    listed = run(capsys, "list", "--json")
    assert json.loads(listed.out)[0]["version_id"] is None and said in listed.err


def test_a_bare_repository_is_named_as_one(repo, tmp_path, monkeypatch, capsys):
    commit(repo, {"docs/adr/0001-db.md": adr_text("DB")}, "one")
    bare = tmp_path / "mirror.git"
    git(tmp_path, "clone", "-q", "--bare", str(repo), str(bare))
    monkeypatch.chdir(bare / "refs")
    err = run(capsys, "list", code=2).err
    assert err.startswith(f"error: {bare / 'refs'} is inside a bare git repository") and "git clone" in err


def test_a_repack_while_a_command_reads_is_no_error(repo):
    """`git gc --auto` may repack while a hook or an IDE runs adr: a pack listed at the start
    is gone when its index is first opened. Its objects are read from the new pack."""
    from adr_memory.history.repo import Repo

    commit(repo, {"docs/adr/0001-db.md": adr_text("DB", body="One.")}, "one")
    git(repo, "repack", "-q", "-a", "-d")
    commit(repo, {"docs/adr/0001-db.md": adr_text("DB", body="Two.")}, "two")
    blob = git(repo, "rev-parse", "HEAD~1:docs/adr/0001-db.md")
    opened = Repo.open(repo)
    opened._sizes._all_packs()  # the pack list, read once per command; no index opened yet
    git(repo, "repack", "-q", "-a", "-d")  # a new pack replaces the old one
    assert opened.size(blob) is None  # the listed pack is gone: no size, so read whole
    assert b"One." in opened.blob(blob, limit=1_000_000)


def test_revisions_name_the_commits_git_names(repo):
    """`main^2` is a merge's second parent (it was read as `main~2`, a commit of the other line
    of history, with no word); `^0`, `^{}` and `^{commit}` are the commit a tag names."""
    from adr_memory.errors import GitError
    from adr_memory.history.repo import Repo

    commit(repo, {"f": "1"}, "one")
    commit(repo, {"f": "2"}, "two")
    git(repo, "checkout", "-q", "-b", "side")
    commit(repo, {"s": "1"}, "side")
    git(repo, "checkout", "-q", "main")
    commit(repo, {"f": "3"}, "three")
    git(repo, "merge", "-q", "--no-edit", "side")
    git(repo, "tag", "-a", "v1", "-m", "v1", "HEAD~1")
    ours = Repo.open(repo)
    for ref in (
        "HEAD^",
        "HEAD^1",
        "HEAD^2",
        "HEAD^0",
        "HEAD~1",
        "HEAD^2~1",
        "HEAD~1^",
        "main^2^",
        "v1^{}",
        "v1^{commit}",
        "v1~1",
        "HEAD^{}~2",
    ):
        assert ours.resolve(ref) == git(repo, "rev-parse", f"{ref}^{{commit}}"), ref
    with pytest.raises(GitError, match="unknown revision 'HEAD\\^3'"):
        ours.resolve("HEAD^3")


def test_upstream_revisions_name_what_the_branch_follows(repo, tmp_path, capsys, monkeypatch):
    """`adr review --base @{u}`: what a developer asks before pushing, read from the branch's
    settings as git reads them; a detached HEAD or a branch that follows nothing is a named error."""
    from adr_memory.history.repo import Repo

    commit(repo, {"docs/adr/0001-db.md": adr_text("DB", governs=["src/**"]), "src/a.py": "1"}, "one")
    commit(repo, {"src/a.py": "2"}, "two")
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", f"file://{repo}", str(clone))
    commit(clone, {"src/a.py": "3"}, "three")
    ours = Repo.open(clone)
    for ref in ("@{u}", "@{upstream}", "main@{u}", "@{U}~1", "HEAD@{u}"):
        assert ours.resolve(ref) == git(clone, "rev-parse", ref), ref
    monkeypatch.chdir(clone)
    review = json.loads(run(capsys, "review", "--base", "@{u}", "--format", "json").out)
    assert review["merge_base"] == git(clone, "rev-parse", "origin/main")
    git(clone, "checkout", "-q", "-b", "alone")
    assert run(capsys, "review", "--base", "@{u}", code=2).err.startswith(
        "error: branch 'alone' follows no upstream branch"
    )
    git(clone, "checkout", "-q", "--detach")
    assert run(capsys, "review", "--base", "@{u}", code=2).err.startswith("error: HEAD is detached")
