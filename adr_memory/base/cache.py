"""The cache folder (`.adr-cache/`): created and marked by us, and the only place we delete.

A folder is ours when it holds a `CACHEDIR.TAG` with the signature of the Cache Directory
Tagging spec (https://bford.info/cachedir/), which we write when we create it, beside a
`.gitignore` holding `*` so the cache is never committed, `adr init` or not. Nothing outside a
folder we marked is ever removed: a config that points the cache at `..` or at tracked files
meets a refusal, not an `rm -rf`.
"""

from __future__ import annotations

import contextlib
import os
import shutil
from pathlib import Path

from adr_memory.errors import AdrError, ConfigError

TAG = "CACHEDIR.TAG"
SIGNATURE = "Signature: 8a477f597d28d172789f06886806bc55"
_TAG_TEXT = (
    f"{SIGNATURE}\n# This folder is a cache made by adr-memory; it is safe to delete.\n"
    "# For information about cache directory tags see https://bford.info/cachedir/\n"
)
# Every name adr-memory writes at the top of a cache folder, in one place. A folder holding
# nothing else is ours even when its tag is lost or damaged (adopted and marked again). Writers
# take their path from `entry()`, which refuses a name not listed here: the list cannot fall
# behind the code (a lost tag once never healed because `steps.json` was missing from it).
FILES = frozenset(
    {
        TAG,
        ".gitignore",
        "index",  # the search index: current/, and build-*/old-* while one is built
        "index.lock",
        "index.starting",  # search/swap.py: a background build on its way, before it holds the lock
        "history.json",  # history/walk.py
        "steps.json",
        "history.lock",
        "feedback.jsonl",  # history/feedback.py
        "feedback.lock",
        "model-verified.json",  # search/embed.py: the bundled model's digest, by inode, size, mtime
        "model-digest.json",  # the same for a model of the user's own
        "records.pickle",  # history/parsed.py, in the git dir's cache folder
        "sources.pickle",  # the same for the sources' records
        "records.lock",
        "sources",  # history/sources.py: a bare copy of each source repository
        "sources.lock",
        # Written by earlier releases, still ours when found.
        "models",
        "site",
    }
)
PATTERNS = ("site-*.lock",)  # surfaces/site/build.py: one per output folder


def listed(name: str) -> bool:
    """Whether `name` is one adr-memory writes at the top of its cache folder."""
    import fnmatch

    return name in FILES or any(fnmatch.fnmatchcase(name, p) for p in PATTERNS)


def entry(folder: Path, name: str) -> Path:
    """`folder / name`, for a name listed in FILES or PATTERNS (a writer's only way to its path)."""
    if not listed(name):
        raise ValueError(f"{name!r} is not listed in cache.FILES: add it there before writing it")
    return folder / name


class CacheUnavailable(AdrError):
    """The cache folder cannot be used (not ours, or not writable)."""


def owned(folder: Path) -> bool:
    """Whether `folder` is a cache we created and marked."""
    try:
        with open(folder / TAG, encoding="utf-8") as handle:
            return handle.read(len(SIGNATURE)) == SIGNATURE
    except (OSError, UnicodeDecodeError):
        return False


def ensure(folder: Path) -> Path:
    """The cache folder, created and marked if need be; refuses a folder that is not ours.

    Raises CacheUnavailable when it cannot be created or written (read-only mount, a file in
    the way): callers then answer without a cache and say so.
    """
    if owned(folder):
        return folder
    try:
        if folder.exists() and not folder.is_dir():
            raise CacheUnavailable(
                f"the cache path {folder} is a file, not a folder",
                hint="delete it, or set cache-dir in .adr-memory.toml",
            )
        folder.mkdir(parents=True, exist_ok=True)
        strangers = sorted(p.name for p in folder.iterdir() if not listed(p.name))
        if strangers:
            raise ConfigError(
                f"the cache folder {folder} holds files adr-memory did not write ({strangers[0]}, …)",
                hint="point cache-dir at a folder of its own, e.g. .adr-cache",
            )
        (folder / ".gitignore").write_text("*\n", encoding="utf-8")
        (folder / TAG).write_text(_TAG_TEXT, encoding="utf-8")
    except OSError as exc:
        raise CacheUnavailable(
            f"the cache folder {folder} cannot be written: {exc.strerror}",
            hint="answers come without a cache; check the folder's permissions",
        ) from None
    return folder


def remove(cache_root: Path, target: Path) -> None:
    """Delete `target` (a file or folder) only when it lies inside a cache folder we marked."""
    if not owned(cache_root):
        return
    root = cache_root.resolve()
    try:
        # `..` is no name inside: `cache/..` lies in the cache by its parent, and is the repository
        inside = target.name != ".." and target.parent.resolve().is_relative_to(root) and target.resolve() != root
    except OSError:
        return
    if not inside:
        return
    if target.is_dir() and not target.is_symlink():
        # shutil.rmtree recurses once per folder on Python 3.11: a cache folder committed to a
        # repository may nest deeper than that, and then stays, rather than crash the command.
        with contextlib.suppress(RecursionError):
            shutil.rmtree(target, ignore_errors=True)
    else:
        with contextlib.suppress(OSError):
            os.unlink(target)


def remove_marked(folder: Path, marker: str) -> None:
    """Delete a folder we wrote elsewhere and marked with the file `marker` (a built site), and
    nothing that lacks it: a path a user named is never emptied on a guess."""
    if folder.is_symlink() or not (folder / marker).is_file():
        return
    with contextlib.suppress(RecursionError):
        shutil.rmtree(folder, ignore_errors=True)
