"""Where a repository keeps its decisions: the configured folder, the conventional ones
(`docs/adr`, `doc/architecture/decisions`, ...) or a folder found by what its files say."""

from __future__ import annotations

import os
import posixpath
import re
from pathlib import Path

from adr_memory.base import confine
from adr_memory.errors import ConfigError
from adr_memory.records import othertools
from adr_memory.records.catalog import is_record_name, may_be_record
from adr_memory.records.names import (
    record_file,
)

# The folders adr-tools, MADR and log4brains users keep records in, in the order we look.
CONVENTIONAL_DIRS = (
    "docs/adr",
    "doc/adr",
    "docs/decisions",
    "docs/architecture/decisions",
    "doc/architecture/decisions",
)


def _adr_folder(root: Path, text: str, what: str) -> str:
    """`confine`d, and never the git dir: nothing there is versioned, and a clone's `.adr-dir`
    must not send `adr new` into `.git/hooks`."""
    rel = confine(root, text, what)
    if rel == ".git" or rel.startswith(".git/"):
        shown = repr(text) if len(text) <= 80 else repr(text[:60]) + "…"
        raise ConfigError(
            f"{what} {shown} is inside .git, where nothing is versioned",
            hint="name a folder of the work tree, e.g. docs/adr",
        )
    return rel


def locate(root: Path, configured: str | None) -> tuple[str, str]:
    """The ADR folder (repo-relative, posix) and what decided it.

    Order: `--dir` or `adr_dir` in the config (passed in as `configured`), a `.adr-dir` file
    (adr-tools), the folder another ADR tool's settings name (`othertools`: log4brains, adrgen,
    pyadr, adrs, ADR-J), the first conventional folder that exists, the folder whose numbered markdown
    (or reStructuredText) files look most like ADRs ("discovered"), else `docs/adr` ("default",
    not there yet).
    """
    if configured:
        return _adr_folder(root, configured, "the ADR folder"), "configured"
    marker = root / ".adr-dir"
    if marker.is_file():
        text = _marker_text(marker)
        if text:
            return _adr_folder(root, text, "the ADR folder in .adr-dir"), ".adr-dir"
    named = othertools.folder(root)
    if named is not None:
        text, settings = named
        return _adr_folder(root, text, f"the ADR folder in {settings}"), settings
    for candidate in CONVENTIONAL_DIRS:
        if (root / candidate).is_dir():
            return _adr_folder(root, candidate, "the ADR folder"), "found"
    found = discover(root)
    if found is not None:
        return found, "discovered"
    return CONVENTIONAL_DIRS[0], "default"


# Folders never searched for records: dependencies, build output, caches.
_SKIP_DIRS = {
    "node_modules",
    "vendor",
    "third_party",
    "dist",
    "build",
    "target",
    "venv",
    "site-packages",
    "__pycache__",
}
# [ \t], not \s: a blank line is not the start of a word, and \s* from every line start over a
# file of blank lines is quadratic.
_ADR_WORDS = re.compile(r"(?im)^[ \t]*(?:#+[ \t]*|\*[ \t]*|\|[ \t]*)?(status|context|decision|consequences)\b")
_DISCOVER_DEPTH = 4


def _marker_text(marker: Path) -> str:
    """What `.adr-dir` names. No path is longer than 4,096 bytes, and `confine` refuses one
    past 1,024, so no more is read: the file comes with the repository."""
    try:
        with open(marker, "rb") as handle:
            return handle.read(4097).decode("utf-8", errors="replace").strip()
    except OSError as exc:
        raise ConfigError(f"cannot read .adr-dir: {exc.strerror}", hint="fix or delete .adr-dir") from None


def discover(root: Path) -> str | None:
    """The folder (at most four levels down) holding the most numbered markdown (or
    reStructuredText) files that read like ADRs: a numbered name (`0007-x.md`, `adr-012-x.md`,
    `ADR-12.md`, `0001-x.rst`) and at least two of
    the words ADRs are made of (status, context, decision, consequences) at the start of a line.
    A folder needs two such files of its own; its subfolders' count with it (records are read
    from nested folders too), and a folder named like ADRs wins a tie. The root, which every
    folder's files would count for, is the answer only when no folder below it is: a
    repository of decisions keeps them there. Where no numbered file reads so, a folder named
    like ADRs (`architecture/decision-log`) whose files, named by title, read so is the answer:
    a folder that names its records so (`use-postgres.md`)."""
    numbered: dict[str, int] = {}
    titled: dict[str, int] = {}
    base = len(root.parts)
    for dirpath, dirnames, filenames in os.walk(root):
        depth = len(Path(dirpath).parts) - base
        dirnames[:] = sorted(
            d for d in dirnames if not d.startswith(".") and d not in _SKIP_DIRS and depth < _DISCOVER_DEPTH
        )
        here = Path(dirpath).relative_to(root).as_posix()
        for name in filenames:
            # A record in a folder of its own (`20240524-x/index.md`) counts for the folder above.
            path = record_file(f"{here}/{name}")
            rel = posixpath.dirname(path)
            if is_record_name(path.rpartition("/")[2]) and _reads_like_adr(Path(dirpath) / name):
                numbered[rel] = numbered.get(rel, 0) + 1
            elif (
                not numbered
                and _ADR_FOLDER.search(here)
                and may_be_record(name)
                and _reads_like_adr(Path(dirpath) / name)
            ):
                titled[rel] = titled.get(rel, 0) + 1
    chosen = _most(numbered)
    if chosen is None and numbered.get(".", 0) >= 2:
        return "."
    return chosen if chosen is not None or numbered else _most(titled)


_ADR_FOLDER = re.compile(r"adr|decision|architecture", re.IGNORECASE)


def _most(counts: dict[str, int]) -> str | None:
    """The folder below the root with the most ADR files (its subfolders' counted with it; two
    of its own at least), a folder named like ADRs first on a tie, then the shallower."""
    best: tuple[int, int, int] | None = None
    chosen = None
    for rel, own in counts.items():
        if own < 2 or rel == ".":
            continue
        family = sum(n for other, n in counts.items() if other == rel or other.startswith(rel + "/"))
        score = (family, int(bool(_ADR_FOLDER.search(rel))), -rel.count("/"))
        if best is None or score > best:
            best, chosen = score, rel
    return chosen


def _reads_like_adr(path: Path) -> bool:
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            head = handle.read(20_000)
    except OSError:
        return False
    return len({m.lower() for m in _ADR_WORDS.findall(head)}) >= 2
