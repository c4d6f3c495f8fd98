"""A folder of records in a git repository, read at one moment (ADR-0099).

Three places hold records a command reads: this repository's work tree (the command's own
`Workspace`), a tree at a commit (`check --base`, `list --at`), and another repository's
decision folder at the commit this repository pinned it to (a source). What reads history (the
walk, versions, anchors, staleness) takes a `Folder` and nothing more: the repository to read,
the folder in it, its records, and where what was learnt of that history is kept. So a
command's context stops at the layer that needs it, and a source decision's versions are read
from its own git by the same code as a local one's.
"""

from __future__ import annotations

import stat
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from adr_memory.history.renames import record_bytes
from adr_memory.history.repo import Repo
from adr_memory.records import Catalog, Parses, Problem, catalog

Progress = Callable[[int, int | None], None]  # progress(done, total or None) during long work


class Folder(Protocol):
    """What history reads of a folder of records."""

    @property
    def repo(self) -> Repo:
        """The repository, whose HEAD is the moment read (a source's copy: its pinned commit)."""
        ...

    @property
    def adr_dir(self) -> str:
        """The folder, repository-relative posix."""
        ...

    @property
    def catalog(self) -> Catalog:
        """Its records at that moment."""
        ...

    @property
    def parses(self) -> Parses:
        """Records parsed already, by path and bytes: a file that did not change is not parsed again."""
        ...

    @property
    def cache_path(self) -> Path:
        """Where what was learnt of the repository's history is kept between commands."""
        ...

    @property
    def progress(self) -> Progress | None: ...


@dataclass
class AtCommit:
    """The folder as the tree of `commit` holds it, read from git objects alone: no checkout,
    no hook, no filter (a source is anyone's content). Its records are read on first use."""

    repo: Repo
    adr_dir: str
    commit: str
    cache_path: Path
    parses: Parses = field(default_factory=lambda: Parses({}))
    progress: Progress | None = None
    _catalog: Catalog | None = field(default=None, repr=False)

    @property
    def catalog(self) -> Catalog:
        if self._catalog is None:
            self._catalog = read_at(self.repo, self.commit, self.adr_dir, self.parses)
        return self._catalog


def read_at(repo: Repo, commit: str, adr_dir: str, parses: Parses | None = None) -> Catalog:
    """The records in `adr_dir` at `commit` (a sha): each blob read capped, as a clone's file."""
    tree = repo.commit(commit).tree
    files = (
        (path, _LINKED if stat.S_ISLNK(mode) else record_bytes(repo, blob))
        for path, blob, mode in repo.entries(tree, catalog.git_folder(adr_dir), submodules=False)
        if catalog.may_hold(adr_dir, path)
    )
    return catalog.from_files(adr_dir, files, parses)


# A symlink in a tree holds a path, not a record; where it points is another file's business (or
# outside the repository): named, never read as a decision, as a work tree's link outside is.
_LINKED = Problem("symlink", "a symlink in git; not read", 1, "replace the link with the file itself")


def folder_at(folder: Folder, ref: str) -> AtCommit:
    """The same folder at another commit of its repository (`--at REF`, a branch's base): the
    records parsed for the work tree serve it, since most files are the same bytes."""
    return AtCommit(folder.repo, folder.adr_dir, folder.repo.resolve(ref), folder.cache_path, folder.parses)
