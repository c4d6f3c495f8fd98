"""Bytes only this user's adr-memory wrote: a keyed BLAKE2b digest (a MAC) in front of the
payload, its key in the user's own cache folder, never the repository's (ADR-0092).

A cache file that comes with a clone (committed, or in an archive) cannot carry a digest made
with a key it never saw, so what passes `unseal` was written here and may be trusted: even
unpickled. Without a key (no home, a read-only one) nothing is sealed and nothing opens.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import os
from pathlib import Path

from adr_memory.base.files import write_atomic
from adr_memory.errors import AdrError

KEY_BYTES = 32
MAC_BYTES = 32


def seal(payload: bytes) -> bytes | None:
    """`payload` with its digest in front, or None when there is no key to make one with."""
    key = _key()
    return None if key is None else _digest(key, payload) + payload


def unseal(data: bytes) -> bytes | None:
    """The payload `seal` wrapped, or None: no key, or not sealed with this user's key."""
    key = _key()
    if key is None or len(data) < MAC_BYTES:
        return None
    digest, payload = data[:MAC_BYTES], data[MAC_BYTES:]
    return payload if hmac.compare_digest(digest, _digest(key, payload)) else None


def _digest(key: bytes, payload: bytes) -> bytes:
    return hashlib.blake2b(payload, key=key, digest_size=MAC_BYTES).digest()


def key_path() -> Path | None:
    """Where this user's key is kept: the user's cache folder (XDG_CACHE_HOME, else ~/.cache)."""
    try:
        base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    except RuntimeError:  # no HOME and no password entry to find one in
        return None
    return Path(base) / "adr-memory" / "seal.key"


def _key() -> bytes | None:
    path = key_path()
    return None if path is None else _key_at(path)


@functools.cache
def _key_at(path: Path) -> bytes | None:
    """The key kept at `path`, made there, readable by this user alone, on first use; one cut
    short or unreadable is replaced (what it sealed then opens no more, and is made again)."""
    try:
        key = path.read_bytes()
    except OSError:  # none yet, or one this user cannot read
        key = b""
    if len(key) == KEY_BYTES:
        return key if _trusted(path) else None
    key = os.urandom(KEY_BYTES)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(path, key, mode=0o600)
    except (OSError, AdrError):  # a read-only home: nothing is sealed, nothing opens
        return None
    return key


def _trusted(path: Path) -> bool:
    """Whether the key file is this user's alone, as ssh asks of a private key: owned by this
    user and neither readable nor writable by anyone else. Anyone who can read the key can seal
    a pickle this user's adr-memory would then run; a key that fails is not used (nothing is
    sealed, nothing opens) and the reason is said once."""
    try:
        st = path.stat()
    except OSError:
        return False
    mine = not hasattr(os, "getuid") or st.st_uid == os.getuid()
    private = not (st.st_mode & 0o077)
    if not (mine and private):
        why = "is another user's" if not mine else f"can be read or written by others (mode {st.st_mode & 0o777:o})"
        _DISTRUST.append(f"the seal key {path} {why}: kept files are not trusted; delete it or chmod 600 it")
    return mine and private


_DISTRUST: list[str] = []


def distrusted() -> str | None:
    """Why the seal key was not used in this process (once), for a command to say; None if it was."""
    return _DISTRUST.pop() if _DISTRUST else None
