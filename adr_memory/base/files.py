"""Small file-system helpers: reads with a size cap, and atomic writes and a lock, so a crash never
leaves half a file."""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import tempfile
from collections.abc import Iterator
from pathlib import Path

from adr_memory.errors import AdrError, TooLarge


def read_capped(path: Path, limit: int) -> bytes:
    """A file's bytes when it is a regular file of at most `limit` bytes; TooLarge past it,
    before anything is read. A repository's files are untrusted: a checked-out file may be
    gigabytes, and a FIFO or a device would block a read or never end (OSError)."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)  # O_NONBLOCK: opening a FIFO must not wait
    with os.fdopen(fd, "rb") as handle:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise OSError(errno.EINVAL, "not a regular file")
        if info.st_size > limit:
            raise TooLarge(info.st_size)
        data = handle.read(limit + 1)  # the file may have grown since fstat
    if len(data) > limit:
        raise TooLarge(len(data))
    return data


def _umask_mode() -> int:
    """The mode a plain `open(path, "w")` would give a new file (0666 less the umask)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return 0o666 & ~mask


def create_exclusive(path: Path, data: bytes) -> None:
    """Create `path` holding `data`; FileExistsError if it exists (never replaces a file).

    Written to a temp file first and linked into place, so a reader never sees half a record.
    """
    try:
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(data)
            os.chmod(tmp, _umask_mode())
            os.link(tmp, path)  # fails with FileExistsError where os.replace would overwrite
        finally:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
    except FileExistsError:
        raise
    except OSError as exc:  # a read-only checkout, a full disk
        raise unwritable(path, exc) from None


def write_atomic(path: Path, data: bytes, mode: int | None = None) -> None:
    """Write `data` to `path` through a temp file and a rename, keeping the file's mode (a new
    file gets the mode the umask allows, as with any editor), or giving it `mode`."""
    try:
        if mode is None:
            mode = path.stat().st_mode & 0o7777 if path.exists() else _umask_mode()
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
        replaced = False
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(data)
            os.chmod(tmp, mode)
            os.replace(tmp, path)
            replaced = True
        finally:  # whatever stopped the write (Ctrl-C too), no temp file is left behind
            if not replaced:
                with contextlib.suppress(OSError):
                    os.unlink(tmp)
    except OSError as exc:
        raise unwritable(path, exc) from None


def unwritable(path: Path, exc: OSError) -> AdrError:
    """The error that says `path` could not be written, and why."""
    if isinstance(exc, PermissionError):
        return AdrError(f"cannot write {path}: permission denied", hint="check the file and folder permissions")
    import errno

    hints = {
        errno.ENOENT: "its folder does not exist: create it, or name another path",
        errno.ENOTDIR: "a part of the path is a file, not a folder",
        errno.EISDIR: "that is a folder: name a file inside it",
        errno.ENOSPC: "the disk is full: free some space and run it again",
        errno.EROFS: "the filesystem is read-only: name a path elsewhere",
        errno.EDQUOT: "your disk quota is used up: free some space and run it again",
        errno.ENAMETOOLONG: "the name is too long for this filesystem: name a shorter path",
    }
    return AdrError(
        f"cannot write {path}: {exc.strerror or exc}",
        hint=hints.get(exc.errno or 0, "check the path, and that there is room to write it"),
    )


def write_text_atomic(path: Path, text: str) -> None:
    # newline="" semantics: the text already carries the file's own line endings.
    write_atomic(path, text.encode("utf-8"))


@contextlib.contextmanager
def locked(path: Path) -> Iterator[None]:
    """An exclusive advisory lock on `path` (created if missing), released on exit."""
    import fcntl

    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "a+b") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def confine(root: Path, rel: str, what: str, *, hint: str | None = None) -> str:
    """`rel` (from the repository: config, `.adr-dir`) as a repo-relative posix path, after
    checking that it resolves, symlinks followed, inside the repository root. A symlink inside
    the repository is followed to the path git tracks (`docs/adr -> ../decisions` gives
    `decisions`), so history is read where the files really are."""
    from adr_memory.errors import ConfigError

    shown = repr(rel) if len(rel) <= 80 else repr(rel[:60]) + "…"
    if (
        any(ord(c) < 32 for c in rel.strip())
        or len(rel.encode("utf-8", "surrogateescape")) > 1024
        or any(len(part) > 255 for part in rel.split("/"))
    ):
        raise ConfigError(
            f"{what} {shown} is not a folder's path", hint="write one relative path on one line, e.g. docs/adr"
        )
    text = rel.strip().replace("\\", "/").strip("/") if not os.path.isabs(rel.strip()) else rel
    real_root = root.resolve()
    try:
        target = (root / text).resolve()
    except (OSError, RuntimeError, ValueError):  # a symlink loop; a name the system refuses
        target = None
    if os.path.isabs(text) or target is None or not target.is_relative_to(real_root):
        raise ConfigError(
            f"{what} {shown} points outside the repository",
            hint=hint or "paths in the repository's settings are relative to its root and stay inside it",
        )
    return target.relative_to(real_root).as_posix()


def is_git_dir(path: Path) -> bool:
    """What git asks of a git dir: a HEAD, and objects (a linked worktree's reach them via
    commondir)."""
    return (path / "HEAD").is_file() and any((path / n).exists() for n in ("objects", "commondir"))


def kept_file(root: Path, rel: str) -> Path:
    """The real path of a file the repository keeps at `rel` (`.gitignore`, an agent's
    settings), which a command reads and rewrites: a ConfigError when it, or a folder above it,
    is a symlink out of the repository. A clone must not make a command copy a file of the
    user's into the repository, or rewrite one."""
    return root / confine(root, rel, "the file", hint="replace the link with the file itself")
