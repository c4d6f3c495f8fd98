"""`governs` globs: `**`, `*`, `?`, `[...]`, and `dir/` meaning everything under it."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import Any

from adr_memory.base import safe

_MAGIC = re.compile(r"[*?\[]")


MAX_GLOB = 4096  # the longest path a file system holds (Linux PATH_MAX)


def problem(glob: str) -> str | None:
    """Why a glob cannot be used, or None when it is fine."""
    if not glob.strip():
        return "is empty"
    if len(glob) > MAX_GLOB:  # and every lookup by folder would walk its thousands of levels
        return f"is longer than any path ({len(glob):,} characters; at most {MAX_GLOB:,})"
    if glob.startswith("/") or re.match(r"^[A-Za-z]:[\\/]", glob):
        return "is absolute; globs are relative to the repository root"
    if ".." in glob.split("/"):
        return "climbs out with '..'"
    if "\\" in glob:
        return "uses a backslash; write paths with '/'"
    if "[" in glob:  # only a character class can make the translated regex invalid
        try:
            compile_glob(glob)
        except ValueError as exc:
            return f"is not a valid pattern ({exc})"
    if glob.count("[") != glob.count("]"):
        return "has an unbalanced '['"
    return None


def _plain(glob: str) -> str:
    """The glob as matched: `./src/db/*.py` is `src/db/*.py`."""
    glob = glob.strip()
    while glob.startswith("./"):
        glob = glob[2:]
    return glob


def under(path: str) -> set[str]:
    """The prefixes `path` lies under: itself, every folder above it, and "" (everything)."""
    parts = path.split("/")
    return {""} | {"/".join(parts[:n]) for n in range(1, len(parts) + 1)}


def literal_prefix(glob: str) -> str:
    """The directory part before the first wildcard: `src/db/**/*.py` -> `src/db`."""
    glob = _plain(glob)
    match = _MAGIC.search(glob)
    head = glob if match is None else glob[: match.start()]
    if match is None and not glob.endswith("/"):
        return glob.strip("/")  # a plain path: the file or folder itself
    return head.rsplit("/", 1)[0].strip("/") if "/" in head else ""


def name_ends(glob: str) -> tuple[str, str] | None:
    """What the name of every path the glob matches starts and ends with: the literal text of
    its last segment before the first wildcard and after the last (`**/test_*.py` -> ("test_",
    ".py")); None when any name may match (a literal path or `dir/` covers all under it, or
    the last segment is `**`)."""
    glob = _plain(glob)
    name = glob.rsplit("/", 1)[-1]
    if _MAGIC.search(glob) is None or not name or name == "**":
        return None
    first = _MAGIC.search(name)
    if first is None:
        return name, name
    last = max(name.rfind(c) for c in "*?]")
    return name[: first.start()], name[last + 1 :]


def compile_glob(glob: str) -> Any:
    """A regex for a glob. A literal path or `dir/` also matches everything under it. Globs
    come from records: RE2 matches them in linear time (`*a*a*a*a*a*a*a*a*a*a*b` against a
    long path took Python's engine minutes), and raises ValueError on an invalid class."""
    return safe.linear(_regex(glob))


@lru_cache(maxsize=4096)
def _regex(glob: str) -> str:
    """The regex text of a glob. Remembered: decisions name the same files (this repository's
    88 decisions list 573 globs, 72 distinct), and `adr list` judges every one."""
    glob = _plain(glob)
    out: list[str] = []
    i = 0
    while i < len(glob):
        c = glob[i]
        if glob.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
        elif glob.startswith("**", i):
            out.append(".*")
            i += 2
        elif c == "*":
            out.append("[^/]*")
            i += 1
        elif c == "?":
            out.append("[^/]")
            i += 1
        elif c == "[":
            end = glob.find("]", i + 2 if glob[i + 1 : i + 2] in ("!", "]") else i + 1)
            if end < 0:
                out.append(re.escape(c))
                i += 1
                continue
            inner = glob[i + 1 : end]
            if inner.startswith("!"):
                inner = "^" + inner[1:]
            out.append("[" + inner.replace("\\", "\\\\") + "]")
            i = end + 1
        else:
            out.append(re.escape(c))
            i += 1
    pattern = "".join(out).rstrip("/")
    return f"^{pattern}(?:/.*)?$"


def matches(glob: str, path: str) -> bool:
    """Whether the glob matches the path. A glob that is not a valid pattern matches nothing:
    `adr check` reports it (`problem`); staleness, `why` and the hooks go on without it."""
    pattern = _valid(glob)
    return pattern is not None and pattern.match(_readable(path)) is not None


@lru_cache(maxsize=4096)
def _valid(glob: str) -> Any | None:
    try:
        return compile_glob(glob)
    except ValueError:
        return None


def _readable(path: str) -> str:
    """The path as RE2 can read it: a name from git that is not UTF-8 keeps its bytes as
    surrogates (repo._path), which RE2 cannot encode; they match as U+FFFD, as `*` would."""
    return path if path.isascii() else path.encode("utf-8", "surrogateescape").decode("utf-8", "replace")


def any_match(globs: Sequence[str], path: str) -> bool:
    return glob_set(tuple(globs)).any(path)


def governed(globs: Sequence[str], paths: Iterable[str]) -> list[str]:
    """The paths any of the globs match, sorted."""
    if not globs:
        return []
    match = glob_set(tuple(globs)).any
    return sorted(p for p in paths if match(p))


class GlobSet:
    """Many globs matched against a path together. A record may list thousands (its text
    allows 1 MB): glob by glob, `adr stale` matched every glob against every changed path
    (20,000 globs x 300 paths: 4 s). RE2 sets take each path in one pass per few hundred
    globs (`safe.linear_sets`)."""

    def __init__(self, globs: tuple[str, ...]) -> None:
        # A glob that is no pattern joins no set: it matches nothing (see `matches`).
        self._sets = safe.linear_sets([(n, _regex(g)) for n, g in enumerate(globs)])

    def matching(self, path: str) -> list[int]:
        """The indices of the globs that match `path`, in order."""
        text = _readable(path)
        return sorted(n for found, members in self._sets for n in _members(found, members, text))

    def any(self, path: str) -> bool:
        text = _readable(path)
        return any(_members(found, members, text) for found, members in self._sets)


def _members(found: Any, members: list[int], text: str) -> list[int]:
    return [members[i] for i in found.Match(text) or ()]


@lru_cache(maxsize=1024)
def glob_set(globs: tuple[str, ...]) -> GlobSet:
    return GlobSet(globs)
