"""Bytes sealed with the user's own key open only for that user (ADR-0092)."""

from __future__ import annotations

import stat

from hypothesis import given
from hypothesis import strategies as st

from adr_memory.base import sealed


def test_what_is_sealed_opens_and_nothing_else_does():
    payload = b"the records as last parsed"
    data = sealed.seal(payload)
    assert data is not None and data.endswith(payload)
    assert sealed.unseal(data) == payload
    flipped = data[:-1] + bytes([data[-1] ^ 1])
    assert sealed.unseal(flipped) is None  # one bit of the payload changed
    assert sealed.unseal(payload) is None  # never sealed
    assert sealed.unseal(b"") is None


def test_the_key_is_in_the_users_cache_folder_and_readable_by_them_alone(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    sealed.seal(b"x")
    path = sealed.key_path()
    assert path == tmp_path / "cache" / "adr-memory" / "seal.key"
    assert len(path.read_bytes()) == sealed.KEY_BYTES
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_another_users_seal_does_not_open(tmp_path, monkeypatch):
    """A cache a clone carries was sealed, if at all, with a key this user never had."""
    theirs = sealed.seal(b"a record that says accepted")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "another-user"))
    assert sealed.unseal(theirs) is None
    ours = sealed.seal(b"a record that says accepted")
    assert ours != theirs and sealed.unseal(ours) == b"a record that says accepted"


def test_a_key_cut_short_is_replaced(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    path = sealed.key_path()
    path.parent.mkdir(parents=True)
    path.write_bytes(b"short")
    data = sealed.seal(b"payload")
    assert data is not None and len(path.read_bytes()) == sealed.KEY_BYTES
    assert sealed.unseal(data) == b"payload"


def test_where_no_key_can_be_kept_nothing_is_sealed_and_nothing_opens(monkeypatch, tmp_path):
    """A cache folder that cannot be made (here a file is in the way, as a read-only home would
    refuse it): commands go on, with nothing kept."""
    (tmp_path / "a-file").write_text("")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "a-file"))
    assert sealed.seal(b"payload") is None
    assert sealed.unseal(b"\0" * 64) is None


def test_a_key_others_can_read_or_another_user_owns_is_not_trusted(tmp_path, monkeypatch):
    """As ssh treats a private key: anyone who can read the seal key can seal a pickle this
    user's adr-memory would run, so such a key seals and opens nothing, and says why once."""
    import os

    import pytest

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    data = sealed.seal(b"payload")
    path = sealed.key_path()
    sealed._key_at.cache_clear()
    path.chmod(0o644)
    assert sealed.unseal(data) is None and sealed.seal(b"payload") is None
    assert "can be read or written by others (mode 644)" in sealed.distrusted()
    assert sealed.distrusted() is None  # said once
    sealed._key_at.cache_clear()
    path.chmod(0o600)
    assert sealed.unseal(data) == b"payload"
    if os.getuid() != 0:
        pytest.skip("only root can hand the key to another user here")
    sealed._key_at.cache_clear()
    os.chown(path, 1, 1)
    assert sealed.unseal(data) is None and "is another user's" in sealed.distrusted()
    sealed._key_at.cache_clear()


def test_a_git_dir_cache_that_links_out_of_the_repository_is_not_used(repo, tmp_path, capsys):
    from adr_memory.history import Workspace
    from tests.helpers import adr_text, commit, run

    commit(repo, {"docs/adr/0001-a.md": adr_text("A")}, "one")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (repo / ".git" / "adr-memory-cache").symlink_to(elsewhere)
    run(capsys, "index")  # makes a work-tree cache, which would turn on the parse cache
    run(capsys, "list")
    assert list(elsewhere.iterdir()) == []
    assert Workspace.discover(repo)._parse_cache is None


@given(st.binary(max_size=200))
def test_any_payload_round_trips_behind_its_digest(payload):
    data = sealed.seal(payload)
    assert data is not None and len(data) == sealed.MAC_BYTES + len(payload)
    assert data[sealed.MAC_BYTES :] == payload  # the payload as it was, after the digest
    assert sealed.unseal(data) == payload


@given(st.binary(min_size=1, max_size=64), st.data())
def test_any_byte_changed_in_the_digest_or_payload_opens_nothing(payload, data):
    sealed_bytes = sealed.seal(payload)
    at = data.draw(st.integers(min_value=0, max_value=len(sealed_bytes) - 1))
    bit = data.draw(st.integers(min_value=0, max_value=7))
    changed = sealed_bytes[:at] + bytes([sealed_bytes[at] ^ (1 << bit)]) + sealed_bytes[at + 1 :]
    assert sealed.unseal(changed) is None


def test_data_shorter_than_a_digest_opens_nothing_and_an_empty_payload_does():
    assert sealed.unseal(b"\0" * (sealed.MAC_BYTES - 1)) is None
    empty = sealed.seal(b"")
    assert empty is not None and len(empty) == sealed.MAC_BYTES and sealed.unseal(empty) == b""
    assert sealed.unseal(empty + b"x") is None  # bytes appended to a sealed payload


def test_the_key_is_under_the_home_cache_without_xdg(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_CACHE_HOME", "")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert sealed.key_path() == tmp_path / "home" / ".cache" / "adr-memory" / "seal.key"


def test_a_key_that_is_kept_is_reused_not_replaced(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    path = sealed.key_path()
    path.parent.mkdir(parents=True)
    path.write_bytes(b"k" * sealed.KEY_BYTES)
    path.chmod(0o600)
    data = sealed.seal(b"payload")
    assert path.read_bytes() == b"k" * sealed.KEY_BYTES
    import hashlib

    assert data[: sealed.MAC_BYTES] == hashlib.blake2b(b"payload", key=b"k" * 32, digest_size=32).digest()
    assert sealed.distrusted() is None
