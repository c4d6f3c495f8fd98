"""The git index and the work tree: where a linked work tree lives, and what changed in it
(read with dulwich, with the errors an unreadable index raises named)."""

from __future__ import annotations

import os
import stat
import struct
from pathlib import Path
from typing import Any

from dulwich.errors import ChecksumMismatch
from dulwich.repo import Repo as _DulwichRepo

from adr_memory.errors import GitError


def configured_work_tree(git_dir: Path) -> Path | None:
    """`core.worktree` of the git dir's own config, resolved against the git dir (git's rule),
    or None when unset or unreadable."""
    from dulwich.config import ConfigFile

    try:
        value = ConfigFile.from_path(str(git_dir / "config")).get((b"core",), b"worktree")
    except (OSError, KeyError, ValueError):
        return None
    return (git_dir / value.decode("utf-8", "surrogateescape")).resolve() if value else None


class _Repository(_DulwichRepo):
    """dulwich's repository, reading the index as git writes it. dulwich's own reader stops at
    an extension named in lower case, which git uses for the ones a reader must understand:
    a split index (`core.splitIndex`: `link`, most entries in a shared file beside it) and a
    sparse index (`index.sparse`, cone-mode sparse checkouts: `sdir`, a directory outside the
    cone held as one entry naming its tree). Those two are read here; nothing is written."""

    def open_index(self, config: Any = None) -> Any:
        return self.index_at(None, config)

    def index_at(self, path: str | None, config: Any = None) -> Any:
        """The index at `path` (None: the repository's own)."""
        from dulwich.index import Index

        try:
            if path is None:
                return super().open_index(config)
            return Index(path, object_format=self.object_format)
        except _UNREAD:
            pass  # an extension (or a version) dulwich does not read: read it below, or say why not
        where = path or self.index_path()
        try:
            return _index_as_git_wrote(self, where)
        except _UNREAD_OR_GONE as exc:
            raise GitError(
                f"cannot read the git index {where}: {exc}",
                hint="if `git status` reads it, please report this with your index "
                "settings (`git config --get-regexp '^index\\.|splitindex'`)",
            ) from None


def _unread_errors() -> tuple[type[Exception], ...]:
    from dulwich.index import UnsupportedIndexFormat

    return ChecksumMismatch, UnsupportedIndexFormat, ValueError, AssertionError, struct.error


_UNREAD = _unread_errors()  # what dulwich raises for an index it cannot read
_UNREAD_OR_GONE: tuple[type[Exception], ...] = (*_UNREAD, OSError, KeyError, IndexError)


def _index_as_git_wrote(repo: Any, path: str) -> Any:
    """An index with a split (`link`) or sparse (`sdir`) extension, as a dulwich Index in memory,
    every sparse directory expanded to the files of its tree (marked skip-worktree, as git
    marks them: they are not in the work tree)."""
    from dulwich.index import ConflictedIndexEntry, Index, IndexEntry, Stage

    entries, extensions = _index_file(path, repo)
    if b"link" in extensions:
        entries = _with_shared(repo, path, entries, extensions.pop(b"link"))
    unknown = [name for name in extensions if name[:1].islower() and name != b"sdir"]
    if unknown:
        raise ValueError(
            f"it needs the {unknown[0].decode('ascii', 'replace')!r} extension, which adr-memory does not read"
        )
    index = Index(path, read=False, object_format=repo.object_format)
    conflicts: dict[bytes, Any] = {}
    slots = {
        Stage.MERGE_CONFLICT_ANCESTOR: "ancestor",
        Stage.MERGE_CONFLICT_THIS: "this",
        Stage.MERGE_CONFLICT_OTHER: "other",
    }
    for entry in sorted(entries, key=lambda e: (e.name, e.stage().value)):
        if entry.mode == stat.S_IFDIR and entry.name.endswith(b"/"):
            _expand(index, repo, entry)
        elif entry.stage() == Stage.NORMAL:
            index[entry.name] = IndexEntry.from_serialized(entry)
        else:  # a merge conflict: the ancestor's, ours and theirs, as dulwich keeps them
            conflict = conflicts.setdefault(entry.name, ConflictedIndexEntry())
            setattr(conflict, slots[entry.stage()], IndexEntry.from_serialized(entry))
    for name, conflict in conflicts.items():
        index[name] = conflict
    return index


def _expand(index: Any, repo: Any, entry: Any) -> None:
    """A sparse directory's entry as the files of its tree."""
    import dataclasses

    from dulwich.index import IndexEntry
    from dulwich.object_store import iter_tree_contents

    template = IndexEntry.from_serialized(entry)
    for item in iter_tree_contents(repo.object_store, entry.sha):
        index[entry.name + item.path] = dataclasses.replace(template, mode=item.mode, sha=item.sha)


def _index_file(path: str, repo: Any) -> tuple[list[Any], dict[bytes, bytes]]:
    """(entries in file order, extensions by name) of one index file, its checksum checked
    (a file written with `index.skipHash` has zeros there)."""
    import hashlib
    from io import BytesIO

    from dulwich.index import read_cache_entry

    size = repo.object_format.oid_length  # 20 bytes, 32 in a sha256 repository
    data = Path(path).read_bytes()
    if len(data) < 12 + size or data[:4] != b"DIRC":
        raise ValueError("it is not an index file")
    body, trailer = data[:-size], data[-size:]
    digest = hashlib.sha256 if size == 32 else hashlib.sha1
    if any(trailer) and digest(body).digest() != trailer:
        raise ValueError("its checksum does not match")
    stream = BytesIO(body)
    version, count = struct.unpack(">II", body[4:12])
    if version not in (2, 3, 4):
        raise ValueError(f"its version {version} is not one git writes (2, 3 or 4)")
    stream.seek(12)
    entries, previous = [], b""
    for _ in range(count):
        entry = read_cache_entry(stream, version, previous, repo.object_format)
        entries.append(entry)
        previous = entry.name
    extensions: dict[bytes, bytes] = {}
    while stream.tell() + 8 <= len(body):
        name, length = struct.unpack(">4sI", stream.read(8))
        extensions[name] = stream.read(length)
    return entries, extensions


def _with_shared(repo: Any, path: str, entries: list[Any], link: bytes) -> list[Any]:
    """A split index's entries: its shared index's, less those the delete bitmap names, with
    those the replace bitmap names replaced by this file's first entries (in order; an empty
    name keeps the shared entry's), then this file's remaining entries added."""
    import dataclasses

    size = repo.object_format.oid_length
    shared_id, rest = link[:size].hex(), link[size:]
    if not shared_id.strip("0"):
        return entries
    delete, rest = _ewah(rest)
    replace, _ = _ewah(rest)
    folders = (os.path.dirname(path), repo.controldir(), repo.commondir())
    shared_path = next(
        (p for p in (os.path.join(f, f"sharedindex.{shared_id}") for f in folders) if os.path.exists(p)), None
    )
    if shared_path is None:
        raise ValueError(f"its shared index sharedindex.{shared_id} is missing")
    shared, _ = _index_file(shared_path, repo)
    replaced = sorted(replace)
    if len(replaced) > len(entries) or any(n >= len(shared) for n in (*replaced, *delete)):
        raise ValueError("it does not match its shared index")
    for n, entry in zip(replaced, entries):
        shared[n] = entry if entry.name else dataclasses.replace(entry, name=shared[n].name)
    return [e for n, e in enumerate(shared) if n not in delete] + entries[len(replaced) :]


def _ewah(data: bytes) -> tuple[set[int], bytes]:
    """One EWAH bitmap's set bits (dulwich decodes them), and the bytes after it (bit count,
    word count, the words, the last run-length word's position)."""
    from dulwich.bitmap import EWAHBitmap

    if len(data) < 8:
        return set(), b""
    words = struct.unpack(">I", data[4:8])[0]
    end = 8 + 8 * words + 4
    if len(data) < end:
        raise ValueError("its split-index bitmap is cut short")
    return set(EWAHBitmap(data[:end]).bits), data[end:]
