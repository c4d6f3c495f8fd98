"""Git objects read through dulwich: blobs within a size bound, commit headers and the author,
date and message a command shows (`CommitInfo`)."""

from __future__ import annotations

import mmap
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dulwich.objects import Commit
from dulwich.pack import PackFileDisappeared

Sha = str


@dataclass(frozen=True, slots=True)
class CommitInfo:
    sha: Sha
    parents: tuple[Sha, ...]
    tree: Sha
    author: str
    timestamp: int  # author time, seconds since the epoch
    message: str

    @property
    def subject(self) -> str:
        return self.message.split("\n", 1)[0]


# The seconds a calendar date can say (0001-01-01 to 9999-12-31 UTC).
_FIRST_SECOND, _LAST_SECOND = -62135596800, 253402300799


def _signature(obj: Commit) -> tuple[str, int]:
    """Who made the commit and when (author, else committer), whatever a hand-made commit says:
    a missing author, a missing email (dulwich then reads no time), a time no calendar holds
    (0: no date, as for a commit without one)."""
    raw, when = obj.author or obj.committer or b"", obj.author_time if obj.author else obj.commit_time
    if when is None:  # "name seconds zone": split from the right, as git does
        name, stamp, _zone = raw.rsplit(b" ", 2) if raw.count(b" ") >= 2 else (raw, b"", b"")
        if stamp.lstrip(b"-").isdigit():
            raw, when = name.rstrip(b" "), int(stamp)
    if not isinstance(when, int) or not _FIRST_SECOND <= when <= _LAST_SECOND:
        when = 0
    return _text(raw, obj.encoding), when


def _text(raw: bytes, encoding: bytes | None) -> str:
    """Commit text in the encoding its header names (git's `encoding` line), else UTF-8; a name
    that is no text encoding (or none Python knows) reads as UTF-8."""
    try:
        return raw.decode(encoding.decode("ascii") if encoding else "utf-8", "replace")
    except (LookupError, UnicodeDecodeError, TypeError):
        return raw.decode("utf-8", "replace")


_OFS_DELTA, _REF_DELTA = 6, 7  # pack object types whose data is a delta against a base


class _Sizes:
    """Objects' sizes from their headers, for one command. Packs are looked in first (a clone
    keeps nearly every object there), each mapped once; the pack list is read once too: an
    object in a pack that appears later is simply read whole, as before."""

    def __init__(self, store: Any) -> None:
        self._stores = [store, *getattr(store, "alternates", [])]
        self._packs: list[tuple[Any, int]] | None = None
        self._maps: dict[str, mmap.mmap | None] = {}

    def __call__(self, sha: Sha) -> int | None:
        raw = sha.encode()
        for pack, id_length in self._all_packs():
            try:
                offset = pack.index.object_offset(raw)
            except (KeyError, PackFileDisappeared):  # a `git gc` running meanwhile renamed or removed it
                continue
            data = self._map(str(pack.data.path))
            return _packed_size(data, offset, id_length) if data is not None else None
        for where in self._stores:
            root = getattr(where, "path", None)
            size = _loose_size(Path(root) / sha[:2] / sha[2:]) if root is not None else None
            if size is not None:
                return size
        return None

    def _all_packs(self) -> list[tuple[Any, int]]:
        if self._packs is None:
            self._packs = [
                (pack, getattr(getattr(where, "object_format", None), "oid_length", 20))
                for where in self._stores
                for pack in getattr(where, "packs", ())
            ]
        return self._packs  # (pack, id length: 20 for sha1, as before dulwich 1.0 knew others)

    def _map(self, path: str) -> mmap.mmap | None:
        if path not in self._maps:
            try:
                with open(path, "rb") as handle:
                    self._maps[path] = mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ)
            except (OSError, ValueError):
                self._maps[path] = None
        return self._maps[path]


def _loose_size(path: Path) -> int | None:
    """A loose object's size from its header (`blob 123\\0`); None when there is none."""
    try:
        with open(path, "rb") as handle:
            head = zlib.decompressobj().decompress(handle.read(512), 64)
        return int(head.split(b" ", 1)[1].split(b"\0", 1)[0])
    except (OSError, zlib.error, ValueError, IndexError):
        return None


def _packed_size(data: mmap.mmap, offset: int, id_length: int) -> int | None:
    """A packed entry's size; a delta's is its result's, the second number of its own header."""
    try:
        head = data[offset : offset + 4096]
        kind = (head[0] >> 4) & 7
        size, pos = _varint(head, 0, first_bits=4)
        if kind not in (_OFS_DELTA, _REF_DELTA):
            return size
        if kind == _OFS_DELTA:
            _, pos = _varint(head, pos, first_bits=7)  # the base's distance back
        else:
            pos += id_length  # the base's id
        delta = zlib.decompressobj().decompress(head[pos:], 32)
        _, pos = _varint(delta, 0, first_bits=7)  # the base's size
        return _varint(delta, pos, first_bits=7)[0]
    except (zlib.error, IndexError):
        return None


def _varint(data: bytes, pos: int, first_bits: int) -> tuple[int, int]:
    """A little-endian base-128 number starting at `pos` (a pack entry's first byte keeps
    only 4 bits of it, under the type), and the position after it."""
    value, shift = data[pos] & ((1 << first_bits) - 1), first_bits
    while data[pos] & 0x80:
        pos += 1
        value |= (data[pos] & 0x7F) << shift
        shift += 7
    return value, pos + 1
