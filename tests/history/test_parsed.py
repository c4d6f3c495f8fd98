"""Records whose bytes have not changed come parsed from the cache folder, exactly as a parse
gives them, and only from a file this user's adr-memory sealed (ADR-0092)."""

from __future__ import annotations

import dataclasses
import json
import os
import pickle
import shutil
from pathlib import Path

import pytest

from adr_memory.base import Config, cache, sealed
from adr_memory.history import folder_at, parsed
from adr_memory.history.workspace import Workspace
from adr_memory.records import catalog
from tests.helpers import CORPORA, FOLDERS, adr_text, commit, git, read_only, run, run_mounted, unshare_works

RECORDS = {
    "docs/adr/0001-use-postgres.md": adr_text("Use Postgres"),
    "docs/adr/0002-use-kafka.md": adr_text("Use Kafka", status="proposed"),
    "docs/adr/0003-use-redis.md": adr_text("Use Redis", extra="date: 2024-03-01"),
}
RECORDS_PATH = sorted(RECORDS)
KEPT = ".git/adr-memory-cache"  # where parsed records are kept: no commit carries it


@pytest.fixture
def kept(repo):
    """A repository with three records and a cache folder a command made."""
    commit(repo, RECORDS)
    cache.ensure(repo / ".adr-cache")
    return repo


@pytest.fixture
def parses_counted(monkeypatch):
    """How many files `parse_bytes` parses from here on."""
    seen: list[str] = []
    real = catalog.parse_bytes

    def counting(path, data):
        seen.append(path)
        return real(path, data)

    monkeypatch.setattr(catalog, "parse_bytes", counting)
    return seen


def test_a_record_whose_bytes_are_unchanged_is_not_parsed_again(kept, parses_counted):
    first = _read(kept)
    assert len(parses_counted) == 3 and (kept / KEPT / parsed.FILE).is_file()
    parses_counted.clear()
    again = _read(kept)
    assert parses_counted == [] and again == first == catalog.read_worktree(kept, "docs/adr")


def test_a_workspace_that_lives_on_writes_again_only_when_a_record_changed(kept):
    """The MCP server reloads its catalog after every write."""
    ws = Workspace.discover(kept)
    assert len(ws.catalog) == 3
    kept_file = kept / KEPT / parsed.FILE
    written = kept_file.stat().st_ino  # each write is a new file renamed into place
    ws.reload()
    assert kept_file.stat().st_ino == written
    (kept / RECORDS_PATH[0]).write_text(adr_text("Use Postgres", body="With replicas."))
    ws.reload()
    assert kept_file.stat().st_ino != written


def test_a_changed_record_is_parsed_and_a_removed_one_forgotten(kept, parses_counted):
    _read(kept)
    (kept / RECORDS_PATH[1]).write_text(adr_text("Use Kafka", status="accepted"))
    (kept / RECORDS_PATH[2]).unlink()
    parses_counted.clear()
    now = _read(kept)
    assert parses_counted == [RECORDS_PATH[1]]
    assert [r.status for r in now] == ["accepted", "accepted"]
    assert sorted(path for path, _ in parsed.load(kept / KEPT).known) == RECORDS_PATH[:2]


def test_a_kept_file_sealed_by_anyone_else_is_not_believed(kept, tmp_path, monkeypatch):
    """A kept file that came with the repository (an archive of it, `.git` included) says the
    records were rejected: sealed with another user's key, or not sealed at all, it is not
    read; the files are."""
    _read(kept)
    forged = {key: dataclasses.replace(rec, status="rejected") for key, rec in parsed.load(kept / KEPT).known.items()}
    payload = pickle.dumps({"code": parsed.fingerprint(), "records": forged})
    ours = os.environ["XDG_CACHE_HOME"]
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "someone-else"))
    theirs = sealed.seal(payload)
    monkeypatch.setenv("XDG_CACHE_HOME", ours)
    for planted in (theirs, payload):
        (kept / KEPT / parsed.FILE).write_bytes(planted)
        assert [r.status for r in _read(kept)] == ["accepted", "proposed", "accepted"]
    assert parsed.load(kept / KEPT).known  # written again, under this user's seal


def test_the_catalog_at_another_commit_parses_only_the_files_that_differ(kept, parses_counted):
    """`adr check --base` reads the folder at the merge base too: in a fresh clone, with nothing
    kept yet, the records the branch left alone are the work tree's parses."""
    commit(kept, {RECORDS_PATH[0]: adr_text("Use Postgres", body="Now with replicas.")})
    ws = Workspace.discover(kept)
    assert len(ws.catalog) == 3
    parses_counted.clear()
    before = folder_at(ws, "HEAD~1").catalog
    assert parses_counted == [RECORDS_PATH[0]]
    assert before == catalog.from_files("docs/adr", [(p, RECORDS[p].encode()) for p in RECORDS_PATH])


@pytest.mark.skipif(not unshare_works(), reason="needs an unprivileged mount namespace")
def test_a_read_only_git_dir_or_home_costs_the_kept_parses_and_nothing_else(kept):
    """Commands read and answer as before; nothing is kept, nothing is said about it."""
    _read(kept)
    first = (kept / KEPT / parsed.FILE).read_bytes()
    (kept / RECORDS_PATH[0]).write_text(adr_text("Use Postgres", body="With replicas."))
    home = Path(os.environ["XDG_CACHE_HOME"])
    sealed.key_path().unlink()  # a home where no key can be made: nothing is sealed
    for where in (home, kept / ".git"):
        done = run_mounted(kept, read_only(where), "list", "--json")
        assert done.returncode == 0 and done.stderr == "", done.stderr
        assert [r["status"] for r in json.loads(done.stdout)] == ["accepted", "proposed", "accepted"]
    assert (kept / KEPT / parsed.FILE).read_bytes() == first


def test_a_cache_folder_a_clone_carries_is_left_as_committed(kept):
    git(kept, "add", "-f", ".adr-cache")
    git(kept, "commit", "-q", "-m", "a cache folder, committed")
    for _ in range(2):
        assert len(_read(kept)) == 3
    assert git(kept, "status", "--porcelain", "--ignored") == "" and (kept / KEPT / parsed.FILE).is_file()


def test_a_file_kept_by_another_version_is_not_read(kept, monkeypatch, parses_counted):
    _read(kept)
    monkeypatch.setattr(parsed, "fingerprint", lambda: "another version of adr-memory")
    parses_counted.clear()
    _read(kept)
    assert len(parses_counted) == 3


def test_a_damaged_file_reads_as_nothing_kept(kept, parses_counted):
    _read(kept)
    path = kept / KEPT / parsed.FILE
    data = sealed.seal(b"not a pickle")
    assert data is not None
    for damage in (data, path.read_bytes()[:-9], b""):
        path.write_bytes(damage)
        parses_counted.clear()
        assert len(_read(kept)) == 3 and len(parses_counted) == 3


def test_a_folder_of_records_that_is_no_clone_gets_no_git_dir(tmp_path):
    """`adr eval` reads copies of folders in its cache: nothing is kept for them, and no `.git`
    appears beside them."""
    root = tmp_path / "copy"
    (root / "adrs").mkdir(parents=True)
    (root / "adrs" / "0001-use-postgres.md").write_text(RECORDS[RECORDS_PATH[0]])
    cache.ensure(root / ".adr-cache")
    assert len(Workspace(root, Config(), "adrs", "eval").catalog) == 1
    assert not (root / ".git").exists()


def test_where_no_command_made_a_cache_folder_nothing_is_written(repo, capsys):
    """`adr check` from pre-commit, in a repository where no command keeps a cache."""
    commit(repo, RECORDS)
    run(capsys, "check")
    assert not (repo / ".adr-cache").exists()


@pytest.mark.parametrize(
    "folder",
    [
        CORPORA / "cloud-platform",
        CORPORA / "cometbft",
        CORPORA / "tdr",
        *sorted(p for p in FOLDERS.iterdir() if p.is_dir()),
    ],
    ids=lambda p: p.name,
)
def test_records_come_back_from_the_file_as_a_parse_gives_them(folder, tmp_path, monkeypatch):
    """Through the real file, on every fixture folder: pickled records equal parsed ones."""
    shutil.copytree(folder, tmp_path / "adrs")
    kept_in = cache.ensure(tmp_path / "cache")
    fresh = catalog.Parses({})
    first = catalog.read_worktree(tmp_path, "adrs", fresh)
    parsed.save(kept_in, fresh)
    monkeypatch.setattr(catalog, "parse_bytes", _never)
    assert catalog.read_worktree(tmp_path, "adrs", parsed.load(kept_in)) == first


def test_every_yaml_value_comes_back_as_it_was(tmp_path, monkeypatch):
    """Dates, times with their offset, sets, bytes, keys that are not strings, nesting."""
    (tmp_path / "adrs").mkdir()
    (tmp_path / "adrs" / "0001-yaml.md").write_text(
        "---\nstatus: accepted\ndate: 2024-02-29\nreviewed: {commit: abc, date: 2024-03-01T10:00:00+02:00}\n"
        "tags: !!set {a: null, b: null}\nblob: !!binary aGVsbG8=\n1: one\nnested: [[1, 2.5], {x: null}]\n---\n"
        "# YAML\n\n## Decision\n\nKept.\n"
    )
    kept_in = cache.ensure(tmp_path / "cache")
    fresh = catalog.Parses({})
    first = catalog.read_worktree(tmp_path, "adrs", fresh)
    parsed.save(kept_in, fresh)
    monkeypatch.setattr(catalog, "parse_bytes", _never)
    again = catalog.read_worktree(tmp_path, "adrs", parsed.load(kept_in))
    assert again == first and again.records[0].meta == first.records[0].meta


def _never(path, data):
    raise AssertionError(f"{path} was parsed again")


def _read(root: Path) -> catalog.Catalog:
    """The catalog as a command reads it (kept records written back when they changed)."""
    return Workspace.discover(root).catalog
