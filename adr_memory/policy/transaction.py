"""Edits to several records as one: a repository lock, every file written atomically or none,
and the kinds of record that cannot be edited safely."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from pathlib import Path

from adr_memory import records
from adr_memory.base import create_exclusive, locked, unwritable, write_text_atomic
from adr_memory.errors import AdrError, InvalidRecord
from adr_memory.history import Workspace
from adr_memory.policy.linking import link_text
from adr_memory.records import Record


def _reload(ws: Workspace, path: Path) -> Record:
    ws.reload()
    return ws.catalog.get(path.relative_to(ws.root).as_posix())


# ---------------------------------------------------------------------------- writing safely


@contextlib.contextmanager
def repo_lock(git_dir: Path) -> Iterator[None]:
    """Serialise edits to the ADR folder across processes (a lock file in the git dir). Where
    the git dir cannot be written, edits still refuse to overwrite what changed under them."""
    with contextlib.ExitStack() as stack:
        # Only taking the lock may fail so: what the edits raise is theirs to tell.
        with contextlib.suppress(OSError):
            stack.enter_context(locked(git_dir / "adr-memory.lock"))
        yield


class Transaction:
    """Edits to several records, validated in memory first, then written all or none.

    Each file is re-read just before it is replaced: if it changed since this command read it,
    nothing more is written, what was written is put back, and the command fails.
    """

    def __init__(self, ws: Workspace) -> None:
        self.ws = ws
        self.original: dict[str, str | None] = {}  # repo path -> text as read (None: new file)
        self.text: dict[str, str] = {}

    def add_new(self, path: Path, text: str) -> str:
        rel = path.relative_to(self.ws.root).as_posix()
        self.original[rel], self.text[rel] = None, text
        return rel

    def read(self, rel: str) -> str:
        if rel not in self.text:
            rec = self.ws.catalog.get(rel)
            self.original[rel] = self.text[rel] = _read(self.ws.root, rec)
        return self.text[rel]

    def record(self, rel: str) -> Record:
        return self.ws.catalog.as_read_here(records.parse(self.read(rel), rel))

    def edit(self, rel: str, fn: Callable[[str, Record], str]) -> None:
        self.text[rel] = fn(self.read(rel), self.record(rel))

    def link(self, rel: str, kind: str, target_rel: str, *, status: str | None = None) -> None:
        target = self.record(target_rel) if target_rel in self.text else self.ws.catalog.get(target_rel)
        self.edit(rel, lambda text, rec: link_text(text, rec, kind, target, status=status))

    def commit(self) -> None:
        done: list[str] = []
        finished = False
        try:
            for rel, text in self.text.items():
                if text == self.original[rel]:
                    continue
                self._write(rel, text)
                done.append(rel)
            finished = True
        finally:  # all or none: whatever stopped the writes (Ctrl-C too), undo the ones made
            if not finished:
                for rel in reversed(done):
                    self._undo(rel)

    def _write(self, rel: str, text: str) -> None:
        path = self.ws.root / rel
        if self.original[rel] is None:
            try:
                path.parent.mkdir(parents=True, exist_ok=True)  # a record's own folder, or a new ADR folder
            except OSError as exc:
                raise unwritable(path.parent, exc) from None
            create_exclusive(path, text.encode("utf-8"))
            return
        if _read_path(path) != self.original[rel]:
            raise InvalidRecord(
                f"{rel} changed while this command was editing it; nothing written", hint="run the command again"
            )
        write_text_atomic(path, text)

    def _undo(self, rel: str) -> None:
        path = self.ws.root / rel
        with contextlib.suppress(OSError, AdrError):
            if self.original[rel] is None:
                path.unlink()
                if path.parent != self.ws.adr_path:  # the record's own folder, made for it
                    path.parent.rmdir()
            else:
                write_text_atomic(path, self.original[rel] or "")


# A record with one of these cannot be edited key by key: its keys cannot be read, or which
# side of a merge conflict an edit belongs to cannot be told.
_UNEDITABLE = ("merge-conflict", *records.FRONTMATTER_KINDS, "encoding", "binary", "too-large", "symlink")


def _read(root: Path, rec: Record) -> str:
    blocking = [p for p in rec.problems if p.kind in _UNEDITABLE]
    if blocking:
        raise InvalidRecord(
            f"{rec.path} cannot be edited safely: {blocking[0].message}",
            hint=blocking[0].hint or "fix the file first (`adr check`)",
        )
    text = _read_path(root / rec.path)
    if text is None:
        raise InvalidRecord(f"{rec.path} disappeared while this command was reading it", hint="run the command again")
    return text


def _read_path(path: Path) -> str | None:
    # newline="" keeps CRLF and lone CR exactly as they are.
    try:
        with open(path, encoding="utf-8", newline="") as handle:
            return handle.read()
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as exc:
        raise InvalidRecord(f"cannot read {path.name}: {exc}") from None
