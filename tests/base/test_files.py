"""Reads with a cap, writes that are whole or not at all, and paths a repository names kept
inside it."""

from __future__ import annotations

import os
import stat
import threading

import pytest

from adr_memory.base import files
from adr_memory.errors import AdrError, ConfigError, TooLarge


def test_a_read_is_refused_past_its_cap_and_for_what_is_no_regular_file(tmp_path):
    small = tmp_path / "a.md"
    small.write_bytes(b"12345")
    assert files.read_capped(small, 5) == b"12345"
    with pytest.raises(TooLarge) as cut:
        files.read_capped(small, 4)
    assert cut.value.size == 5
    fifo = tmp_path / "pipe.md"
    os.mkfifo(fifo)
    with pytest.raises(OSError):  # and does not block waiting for a writer
        files.read_capped(fifo, 100)
    with pytest.raises(OSError):
        files.read_capped(tmp_path, 100)


def test_an_atomic_write_keeps_the_mode_and_leaves_no_temp_file(tmp_path):
    path = tmp_path / "record.md"
    path.write_text("old")
    path.chmod(0o640)
    files.write_atomic(path, b"new")
    assert path.read_bytes() == b"new" and stat.S_IMODE(path.stat().st_mode) == 0o640
    assert [p.name for p in tmp_path.iterdir()] == ["record.md"]


def test_a_write_that_cannot_happen_is_one_error_and_changes_nothing(tmp_path):
    (tmp_path / "a.md").write_text("kept")
    with pytest.raises(AdrError, match=r"cannot write .*a\.md/b\.md"):  # its folder is a file
        files.write_atomic(tmp_path / "a.md" / "b.md", b"lost")
    assert (tmp_path / "a.md").read_text() == "kept" and [p.name for p in tmp_path.iterdir()] == ["a.md"]


def test_create_exclusive_never_replaces_a_file(tmp_path):
    path = tmp_path / "0001-a.md"
    files.create_exclusive(path, b"first")
    with pytest.raises(FileExistsError):
        files.create_exclusive(path, b"second")
    assert path.read_bytes() == b"first" and [p.name for p in tmp_path.iterdir()] == ["0001-a.md"]


def test_a_lock_is_held_by_one_holder_at_a_time(tmp_path):
    lock, order = tmp_path / "x.lock", []

    def hold(name: str) -> None:
        with files.locked(lock):
            order.append(f"{name} in")
            order.append(f"{name} out")

    threads = [threading.Thread(target=hold, args=(n,)) for n in "ab"]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert order in (["a in", "a out", "b in", "b out"], ["b in", "b out", "a in", "a out"])


def test_confine_keeps_a_repository_path_inside_and_follows_links_that_stay_in(tmp_path):
    root = tmp_path / "repo"
    (root / "decisions").mkdir(parents=True)
    (root / "docs").mkdir()
    (root / "docs" / "adr").symlink_to("../decisions")
    assert files.confine(root, "docs/adr", "adr-dir") == "decisions"
    assert files.confine(root, "docs\\adr/", "adr-dir") == "decisions"
    for outside in ("..", "../x", "/etc", "docs/../../x"):
        with pytest.raises(ConfigError, match="points outside the repository"):
            files.confine(root, outside, "adr-dir")
    with pytest.raises(ConfigError, match="is not a folder's path"):
        files.confine(root, "docs\nadr", "adr-dir")
    (root / ".claude").symlink_to(tmp_path)
    with pytest.raises(ConfigError, match="points outside the repository") as refused:
        files.kept_file(root, ".claude/settings.json")
    assert refused.value.hint == "replace the link with the file itself"


def test_a_read_up_to_the_cap_and_of_an_empty_file_is_whole(tmp_path):
    path = tmp_path / "a.md"
    path.write_bytes(b"")
    assert files.read_capped(path, 0) == b""
    path.write_bytes(b"\xef\xbb\xbf---\r\n\x00\xff")  # bytes as they are, whatever they are
    assert files.read_capped(path, 10) == b"\xef\xbb\xbf---\r\n\x00\xff"
    with pytest.raises(TooLarge) as cut:
        files.read_capped(path, 0)
    assert cut.value.size == 10


def test_a_read_of_a_missing_file_is_the_systems_error(tmp_path):
    with pytest.raises(FileNotFoundError):
        files.read_capped(tmp_path / "gone.md", 10)


def test_an_atomic_write_of_a_new_file_gets_the_mode_the_umask_allows(tmp_path):
    old = os.umask(0o027)
    try:
        files.write_atomic(tmp_path / "new.md", b"x")
        files.create_exclusive(tmp_path / "created.md", b"y")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "new.md").stat().st_mode) == 0o640
    assert stat.S_IMODE((tmp_path / "created.md").stat().st_mode) == 0o640


def test_an_atomic_write_given_a_mode_uses_it_over_the_files_own(tmp_path):
    path = tmp_path / "hook"
    path.write_text("old")
    path.chmod(0o600)
    files.write_atomic(path, b"#!/bin/sh\n", mode=0o755)
    assert stat.S_IMODE(path.stat().st_mode) == 0o755 and path.read_bytes() == b"#!/bin/sh\n"


def test_text_is_written_as_utf8_with_its_own_line_endings(tmp_path):
    path = tmp_path / "0001-x.md"
    files.write_text_atomic(path, "\ufeff---\r\ntitle: Caf\u00e9\r\n---\r")
    assert path.read_bytes() == b"\xef\xbb\xbf---\r\ntitle: Caf\xc3\xa9\r\n---\r"


def test_a_write_that_cannot_happen_names_the_path_and_why(tmp_path):
    import errno

    denied = files.unwritable(tmp_path / "a.md", PermissionError(errno.EACCES, "Permission denied"))
    assert (denied.message, denied.hint) == (
        f"cannot write {tmp_path / 'a.md'}: permission denied",
        "check the file and folder permissions",
    )
    full = files.unwritable(tmp_path / "a.md", OSError(errno.ENOSPC, "No space left on device"))
    assert (full.message, full.hint) == (
        f"cannot write {tmp_path / 'a.md'}: No space left on device",
        "the disk is full: free some space and run it again",
    )
    odd = files.unwritable(tmp_path / "a.md", OSError(errno.EIO, "Input/output error"))
    assert odd.hint == "check the path, and that there is room to write it"  # every write failure has a hint
    with pytest.raises(AdrError, match=r"^cannot write .*missing/0001-a\.md: No such file or directory$") as gone:
        files.create_exclusive(tmp_path / "missing" / "0001-a.md", b"x")
    assert gone.value.hint == "its folder does not exist: create it, or name another path"
    assert not (tmp_path / "missing").exists()


def test_a_lock_creates_its_folders_and_file_and_can_be_taken_again(tmp_path):
    lock = tmp_path / "deep" / "er" / "x.lock"
    with files.locked(lock):
        assert lock.is_file()
    with files.locked(lock):  # released on exit
        pass
    with pytest.raises(RuntimeError), files.locked(lock):
        raise RuntimeError("inside")
    with files.locked(lock):  # released on an error too
        pass


@pytest.mark.parametrize(
    ("rel", "message"),
    [
        ("docs\tadr", "the adr-dir 'docs\\tadr' is not a folder's path"),
        ("a" * 256, "the adr-dir " + repr("a" * 60) + "… is not a folder's path"),  # a name no system holds
        ("a/" * 600, "the adr-dir " + repr("a/" * 30) + "… is not a folder's path"),  # past 1024 bytes
        ("/etc", "the adr-dir '/etc' points outside the repository"),
        ("docs/../..", "the adr-dir 'docs/../..' points outside the repository"),
    ],
)
def test_confine_names_what_it_refuses_shortened(tmp_path, rel, message):
    with pytest.raises(ConfigError) as refused:
        files.confine(tmp_path, rel, "the adr-dir")
    assert refused.value.message == message


@pytest.mark.parametrize(
    ("rel", "inside"),
    [
        ("docs/adr", "docs/adr"),  # need not exist yet
        ("  docs/adr/  ", "docs/adr"),
        ("./docs/./adr", "docs/adr"),
        ("docs/x/../adr", "docs/adr"),
        ("docs//adr", "docs/adr"),
        ("", "."),  # the root itself
    ],
)
def test_confine_gives_the_repo_relative_posix_path(tmp_path, rel, inside):
    assert files.confine(tmp_path, rel, "adr-dir") == inside


def test_a_symlink_loop_is_outside_the_repository(tmp_path):
    (tmp_path / "loop").symlink_to("loop")
    with pytest.raises(ConfigError, match="points outside the repository") as refused:
        files.confine(tmp_path, "loop/adr", "adr-dir", hint="use a real folder")
    assert refused.value.hint == "use a real folder"


def test_a_git_dir_has_a_head_and_objects_or_a_common_dir(tmp_path):
    assert not files.is_git_dir(tmp_path)
    (tmp_path / "HEAD").write_text("ref: refs/heads/main\n")
    assert not files.is_git_dir(tmp_path)  # a HEAD alone is any file
    (tmp_path / "commondir").write_text("../..\n")
    assert files.is_git_dir(tmp_path)  # a linked worktree's
    (tmp_path / "commondir").unlink()
    (tmp_path / "objects").mkdir()
    assert files.is_git_dir(tmp_path)
    (tmp_path / "HEAD").unlink()
    (tmp_path / "HEAD").mkdir()
    assert not files.is_git_dir(tmp_path)  # HEAD must be a file


def test_a_kept_file_is_its_real_path_inside(tmp_path):
    (tmp_path / "real").mkdir()
    (tmp_path / "link").symlink_to("real")
    assert files.kept_file(tmp_path, "link/.gitignore") == tmp_path / "real" / ".gitignore"
    assert files.kept_file(tmp_path, ".gitignore") == tmp_path / ".gitignore"
