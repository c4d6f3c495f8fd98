"""The cache folder is confined to the repository, marked as ours, and the only place we delete."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from adr_memory.base import cache
from adr_memory.errors import ConfigError
from tests.helpers import adr_text, commit, read_only, run, run_mounted, tiny_disk, unshare_works, write


def _victim(tmp_path):
    """Files beside the repository that a hostile config aims at."""
    victim = tmp_path / "victim"
    for rel in ("index/current/keep.txt", "index/build-1/keep.txt", "keep.txt"):
        (victim / rel).parent.mkdir(parents=True, exist_ok=True)
        (victim / rel).write_text("precious")
    return victim


def _files(folder):
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file())


@pytest.mark.parametrize(
    "setting", ['cache-dir = "../victim"', 'cache-dir = "/tmp"', 'cache-dir = "docs/../../victim"']
)
def test_a_cache_dir_outside_the_repository_is_refused_and_nothing_is_deleted(repo, tmp_path, capsys, setting):
    victim = _victim(tmp_path)
    before = _files(victim)
    commit(repo, {".adr-memory.toml": setting + "\n", "docs/adr/0001-a.md": adr_text("A")})
    result = run(capsys, "search", "anything", "--mode", "keyword", code=2)
    assert result.err.startswith("error: cache-dir") and "outside the repository" in result.err
    assert "\nhint: " in result.err and "Traceback" not in result.err
    assert _files(victim) == before


@pytest.mark.parametrize(
    "setting", ['cache-dir = "."', 'cache-dir = "docs/adr"', 'cache-dir = "docs"', 'cache-dir = ".git"']
)
def test_a_cache_dir_over_the_repositorys_own_files_is_refused(repo, capsys, setting):
    commit(
        repo,
        {
            ".adr-memory.toml": setting + "\n",
            "docs/adr/0001-a.md": adr_text("A"),
            "index/current/tracked.txt": "tracked",
        },
    )
    result = run(capsys, "search", "anything", "--mode", "keyword", code=2)
    assert "cache-dir" in result.err and "hint: " in result.err
    assert (repo / "index/current/tracked.txt").read_text() == "tracked"


def test_a_folder_of_strangers_is_never_adopted_as_the_cache(repo, capsys):
    commit(repo, {".adr-memory.toml": 'cache-dir = "notes"\n', "docs/adr/0001-a.md": adr_text("A")})
    write(repo, {"notes/mine.txt": "mine"})  # untracked: a committed folder is never the cache at all
    result = run(capsys, "search", "anything", "--mode", "keyword", code=2)
    assert "did not write" in result.err
    assert _files(repo / "notes") == ["mine.txt"]


def test_a_folder_of_only_our_files_without_its_tag_is_adopted_and_marked_again(tmp_path):
    """A cache whose tag was lost (or one written before folders were marked) holds only files
    we write, the models' digest stamps among them: it is ours again."""
    folder = tmp_path / ".adr-cache"
    folder.mkdir()
    for name in ("history.json", "model-verified.json", "model-digest.json", "records.pickle"):
        (folder / name).write_text("[]")
    assert not cache.owned(folder)
    assert cache.ensure(folder) == folder and cache.owned(folder)


@pytest.mark.parametrize("where", ['adr-dir = "../x"', ".adr-dir"])
def test_an_adr_folder_outside_the_repository_is_refused_for_reads_and_writes(repo, tmp_path, capsys, where):
    outside = tmp_path / "x"
    outside.mkdir()
    (outside / "0001-secret.md").write_text(adr_text("Outside"))
    if where == ".adr-dir":
        write(repo, {".adr-dir": "../x\n"})
    else:
        write(repo, {".adr-memory.toml": where + "\n"})
    for args in (("list",), ("new", "Planted"), ("show", "1")):
        result = run(capsys, *args, code=2)
        assert "outside the repository" in result.err, args
    assert sorted(p.name for p in outside.iterdir()) == ["0001-secret.md"]


@pytest.mark.parametrize("where", [".adr-dir", "link"])
def test_an_adr_folder_inside_the_git_dir_is_refused(repo, capsys, where):
    """A clone's `.adr-dir` of `.git/hooks` (or a folder linked there) sent `adr new` into the
    git dir: nothing there is versioned, and hooks live there."""
    if where == ".adr-dir":
        commit(repo, {".adr-dir": ".git/hooks\n"})
    else:
        (repo / "docs").mkdir()
        (repo / "docs" / "adr").symlink_to(repo / ".git" / "hooks")
    before = sorted(p.name for p in (repo / ".git" / "hooks").iterdir())
    for args in (("list",), ("new", "Pre commit")):
        err = run(capsys, *args, code=2).err
        assert "is inside .git, where nothing is versioned" in err, args
    assert sorted(p.name for p in (repo / ".git" / "hooks").iterdir()) == before


def test_an_adr_folder_symlinked_out_of_the_repository_is_refused(repo, tmp_path, capsys):
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (repo / "docs").mkdir()
    os.symlink(outside, repo / "docs/adr")
    write(repo, {".adr-memory.toml": 'adr-dir = "docs/adr"\n'})
    assert "outside the repository" in run(capsys, "new", "Planted", code=2).err
    assert list(outside.iterdir()) == []


def test_the_cache_is_marked_and_ignored_without_adr_init(repo, capsys):
    commit(repo, {"docs/adr/0001-a.md": adr_text("A")})
    run(capsys, "search", "anything", "--mode", "keyword")
    folder = repo / ".adr-cache"
    assert cache.owned(folder)
    assert (folder / "CACHEDIR.TAG").read_text().startswith(cache.SIGNATURE)
    assert (folder / ".gitignore").read_text() == "*\n"
    status = subprocess.run(
        ["git", "status", "--porcelain", "--untracked-files=all"], cwd=repo, capture_output=True, text=True, check=True
    ).stdout
    assert ".adr-cache" not in status


def test_remove_deletes_only_inside_a_marked_cache(tmp_path):
    unmarked = tmp_path / "plain"
    (unmarked / "x").mkdir(parents=True)
    cache.remove(unmarked, unmarked / "x")
    assert (unmarked / "x").is_dir()
    marked = cache.ensure(tmp_path / "ours")
    (marked / "index/current").mkdir(parents=True)
    (tmp_path / "beside").mkdir()
    cache.remove(marked, marked / ".." / "beside")
    cache.remove(marked, marked)
    assert (tmp_path / "beside").is_dir() and marked.is_dir()
    cache.remove(marked, marked / "index/current")
    assert not (marked / "index/current").exists()


def test_the_model_is_read_in_place_never_linked_into_the_cache(repo, capsys, model_cache):
    """Truncating anything in the cache can never reach the installed package's model."""
    from adr_memory.search import embed

    commit(repo, {"docs/adr/0001-a.md": adr_text("Use PostgreSQL")})
    # Separate processes: an index this process had open is memory-mapped, and truncating a
    # mapped file under a live reader is a SIGBUS, not the case under test.
    subprocess.run(
        [sys.executable, "-m", "adr_memory", "search", "which database", "--mode", "semantic"],
        cwd=repo,
        check=True,
        capture_output=True,
    )
    onnx, _ = embed.bundled_files()
    inode = os.stat(onnx).st_ino
    for path in (repo / ".adr-cache").rglob("*"):
        assert not path.is_symlink()
        if path.is_file():
            assert os.stat(path).st_ino != inode, path
            with open(path, "r+b") as handle:  # damage every cache file
                handle.truncate(0)
    assert os.path.getsize(onnx) > 20_000_000
    done = subprocess.run(
        [sys.executable, "-m", "adr_memory", "search", "Use PostgreSQL", "--json"],
        cwd=repo,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert answer["mode"] == "hybrid" and answer["fallback"] is None
    assert answer["results"][0]["id"] == "ADR-0001"


def test_a_cache_path_that_is_a_file_still_answers_in_memory(repo, capsys):
    commit(repo, {"docs/adr/0001-a.md": adr_text("Use PostgreSQL")})
    (repo / ".adr-cache").write_text("not a folder")
    result = run(capsys, "search", "postgresql", "--mode", "keyword", "--json")
    answer = json.loads(result.out)
    assert answer["results"][0]["id"] == "ADR-0001"
    assert "in memory" in answer["index"]["note"] and "warning: index built in memory" in result.err
    assert (repo / ".adr-cache").read_text() == "not a folder"


def test_a_lock_that_is_a_folder_still_answers_in_memory(repo, capsys):
    commit(repo, {"docs/adr/0001-a.md": adr_text("Use PostgreSQL")})
    (repo / ".adr-cache/index.lock").mkdir(parents=True)
    answer = json.loads(run(capsys, "search", "postgresql", "--mode", "keyword", "--json").out)
    assert answer["results"][0]["id"] == "ADR-0001" and "in memory" in answer["index"]["note"]


@pytest.mark.skipif(not unshare_works(), reason="needs unshare for a read-only bind mount")
@pytest.mark.parametrize("state", ["fresh", "outdated"])
def test_search_on_a_read_only_mount(repo, capsys, model_cache, state):
    """A real read-only mount (a private mount namespace): the existing index answers, and an
    outdated one is refreshed in memory, reusing its vectors."""
    commit(
        repo,
        {"docs/adr/0001-a.md": adr_text("Use PostgreSQL"), "docs/adr/0002-b.md": adr_text("Deploy with Kubernetes")},
    )
    run(capsys, "index")
    if state == "outdated":
        write(repo, {"docs/adr/0003-c.md": adr_text("Queue jobs with Redis")})
    done = run_mounted(repo, read_only(repo), "search", "Use PostgreSQL", "--json")
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert answer["mode"] == "hybrid" and answer["fallback"] is None
    assert answer["results"][0]["id"] == "ADR-0001"
    assert "in memory" in (answer["index"]["note"] or "")
    assert "Traceback" not in done.stderr


@pytest.mark.skipif(not unshare_works(), reason="needs unshare for a tmpfs mount")
@pytest.mark.parametrize("size", ["8k", "64k", "256k"])
def test_search_with_a_full_cache_disk(repo, model_cache, size):
    """Full at once, or part way through a build (a checkpoint, the index, the history): the
    answer comes from memory and says so, as docs/security.md promises."""
    commit(
        repo,
        {"docs/adr/0001-a.md": adr_text("Use PostgreSQL"), "docs/adr/0002-b.md": adr_text("Deploy with Kubernetes")},
    )
    (repo / ".adr-cache").mkdir()
    done = run_mounted(repo, tiny_disk(repo / ".adr-cache", size), "search", "Use PostgreSQL", "--json")
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert answer["results"][0]["id"] == "ADR-0001"
    # What fit was written; what did not is built in memory, and the answer says so.
    assert answer["index"]["note"] is None or "in memory" in answer["index"]["note"]
    assert "Traceback" not in done.stderr and "internal error" not in done.stderr


def test_a_cache_a_commit_carries_is_not_trusted(repo, tmp_path, monkeypatch, capsys):
    """A pull request can commit `.adr-cache/history.json` (past its `*` .gitignore, with `git
    add -f`) claiming that its change to governed code changed nothing: a clone's CI then read
    the decision as fresh. A cache in HEAD's tree is repository content; ours lives in the git
    dir instead, where no checkout writes."""
    from tests.helpers import git

    commit(repo, {"docs/adr/0001-db.md": adr_text("DB", governs=["src/**"]), "src/a.py": "1"}, "one")
    commit(repo, {"src/a.py": "2"}, "the change a pull request would hide")
    assert json.loads(run(capsys, "stale", "--json").out)["decisions"][0]["state"] == "stale"
    history, steps = repo / ".adr-cache" / "history.json", repo / ".adr-cache" / "steps.json"
    history.write_text("{}")  # no answer kept: the walk replays the steps
    data = json.loads(steps.read_text())
    data["commits"][git(repo, "rev-parse", "HEAD")][1] = []  # "changed nothing"
    steps.write_text(json.dumps(data))
    git(repo, "add", "-f", ".adr-cache")
    git(repo, "commit", "-q", "-m", "an innocent-looking cache")
    clone = tmp_path / "ci"
    git(tmp_path, "clone", "-q", str(repo), str(clone))
    for where in (repo, clone):
        monkeypatch.chdir(where)
        assert json.loads(run(capsys, "stale", "--json").out)["decisions"][0]["state"] == "stale"
        run(capsys, "stale", "--fail", code=1)
    assert (clone / ".git" / "adr-memory-cache" / "history.json").is_file()
    assert json.loads((clone / ".adr-cache" / "steps.json").read_text()) == data  # left as committed


EVERY_WRITER = [
    ("index",),
    ("search", "queues", "--json"),
    ("list",),
    ("stale",),
    ("log", "1"),
    ("show", "1"),
    ("feedback", "1", "--used"),
    ("site",),
    ("index", "--rebuild"),
]


def test_every_file_a_command_writes_in_the_cache_is_one_it_lists_and_a_lost_tag_heals(repo, capsys, model_cache):
    """A folder of only our files is adopted when its tag is lost: that needs the list of our
    files to be whole (steps.json and site-*.lock were missing, and a lost tag never healed)."""
    from adr_memory.base import cache

    commit(repo, {"docs/adr/0001-a.md": adr_text("Use queues", governs=["src/**"]), "src/a.py": "1"})
    for args in EVERY_WRITER:
        run(capsys, *args)
    written = sorted(p.name for p in (repo / ".adr-cache").iterdir())
    assert [name for name in written if not cache.listed(name)] == []
    assert {"steps.json", "history.json", "index", "feedback.jsonl"} <= set(written)
    (repo / ".adr-cache" / cache.TAG).write_text("")  # the tag lost
    (repo / "docs/adr/0001-a.md").write_text(adr_text("Use queues", governs=["src/**"], body="Edited."))
    for args in EVERY_WRITER:
        run(capsys, *args)  # every one answers: exit 0
    assert cache.owned(repo / ".adr-cache")


def test_a_writer_cannot_name_a_file_the_list_lacks(tmp_path):
    from adr_memory.base import cache

    with pytest.raises(ValueError, match="not listed"):
        cache.entry(tmp_path, "new-thing.json")
    assert cache.entry(tmp_path, "site-0123abcd.lock") == tmp_path / "site-0123abcd.lock"


def test_a_target_that_climbs_out_by_dot_dot_is_never_removed(tmp_path):
    """`cache/..` lies in the cache by its parent's path, and is the repository: rmtree emptied it."""
    repo_root = tmp_path / "repo"
    (repo_root / "src").mkdir(parents=True)
    (repo_root / "src" / "a.py").write_text("kept\n")
    marked = cache.ensure(repo_root / ".adr-cache")
    (marked / "index").mkdir()
    cache.remove(marked, marked / "..")
    cache.remove(marked, marked / "index" / ".." / "..")
    cache.remove(marked, marked / "index" / "..")  # the cache itself
    assert (repo_root / "src" / "a.py").read_text() == "kept\n"
    assert cache.owned(marked) and (marked / "index").is_dir()


def test_a_link_inside_the_cache_is_removed_and_what_it_points_at_is_not(tmp_path):
    marked = cache.ensure(tmp_path / "ours")
    (tmp_path / "precious").mkdir()
    (tmp_path / "precious" / "f").write_text("x")
    (marked / "index").symlink_to(tmp_path / "precious")
    cache.remove(marked, marked / "index")
    assert not (marked / "index").exists() and (tmp_path / "precious" / "f").read_text() == "x"
    (marked / "history.json").write_text("{}")
    cache.remove(marked, marked / "history.json")
    cache.remove(marked, marked / "steps.json")  # not there: nothing to do, nothing raised
    assert not (marked / "history.json").exists()


@pytest.mark.parametrize(
    ("name", "ours"),
    [("index", True), ("steps.json", True), ("site-abc.lock", True), ("site.lock", False), ("notes.md", False)],
)
def test_the_names_a_cache_folder_may_hold(name, ours):
    assert cache.listed(name) is ours


def test_a_writer_gets_its_path_only_for_a_listed_name(tmp_path):
    assert cache.entry(tmp_path, "history.json") == tmp_path / "history.json"
    with pytest.raises(ValueError, match=r"^'x\.json' is not listed in cache\.FILES: add it there before writing it$"):
        cache.entry(tmp_path, "x.json")


def test_a_folder_is_ours_by_its_tags_signature_alone(tmp_path):
    assert not cache.owned(tmp_path)
    (tmp_path / cache.TAG).write_text("Signature: 8a477f597d28d172789f06886806bc5")  # one character short
    assert not cache.owned(tmp_path)
    (tmp_path / cache.TAG).write_bytes(b"\xff\xfe")
    assert not cache.owned(tmp_path)
    (tmp_path / cache.TAG).write_text(cache.SIGNATURE + "\nanything after\n")
    assert cache.owned(tmp_path)


def test_a_new_cache_is_tagged_and_ignored_by_git(tmp_path):
    folder = cache.ensure(tmp_path / "deep" / ".adr-cache")
    assert (folder / ".gitignore").read_text() == "*\n"
    assert (folder / cache.TAG).read_text().startswith(cache.SIGNATURE + "\n")
    assert cache.ensure(folder) == folder  # marked: taken as it is


def test_a_cache_path_that_cannot_be_a_cache_is_refused_with_why(tmp_path):
    (tmp_path / "file").write_text("")
    with pytest.raises(cache.CacheUnavailable) as refused:
        cache.ensure(tmp_path / "file")
    assert (refused.value.message, refused.value.hint) == (
        f"the cache path {tmp_path / 'file'} is a file, not a folder",
        "delete it, or set cache-dir in .adr-memory.toml",
    )
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "b.md").write_text("")
    (tmp_path / "docs" / "a.md").write_text("")
    with pytest.raises(ConfigError) as strangers:
        cache.ensure(tmp_path / "docs")
    assert (
        strangers.value.message
        == f"the cache folder {tmp_path / 'docs'} holds files adr-memory did not write (a.md, …)"
    )
    assert not (tmp_path / "docs" / cache.TAG).exists()


def test_only_a_folder_marked_as_ours_is_removed_elsewhere(tmp_path):
    site = tmp_path / "site"
    (site / "x").mkdir(parents=True)
    cache.remove_marked(site, "MARKER")
    assert (site / "x").is_dir()  # no marker: a folder a user named is never emptied
    (site / "MARKER").write_text("")
    (tmp_path / "link").symlink_to(site)
    cache.remove_marked(tmp_path / "link", "MARKER")
    assert (site / "x").is_dir()  # never through a link
    cache.remove_marked(site, "MARKER")
    assert not site.exists()
