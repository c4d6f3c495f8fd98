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
