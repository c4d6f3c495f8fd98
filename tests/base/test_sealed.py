"""Bytes sealed with the user's own key open only for that user (ADR-0092)."""

from __future__ import annotations

import stat

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
