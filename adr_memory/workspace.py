"""Everything a command needs about where it runs: repo root, config, ADR folder, catalog.

Built once per command. Opening git (dulwich) is deferred until a feature asks for `repo`, so
`adr check` and the pre-commit hooks pay only for what they use.
"""

from __future__ import annotations

import functools
import os
from dataclasses import dataclass, field
from pathlib import Path
from collections.abc import Callable
from typing import TYPE_CHECKING

from adr_memory import catalog, config
from adr_memory.catalog import Catalog
from adr_memory.errors import ConfigError, NotARepository
from adr_memory.files import confine

if TYPE_CHECKING:
    from adr_memory.repo import Repo


def find_root(start: Path) -> Path:
    """The top of the git work tree containing `start` (a `.git` dir or file marks it)."""
    here = start.resolve()
    for candidate in (here, *here.parents):
        if (candidate / ".git").exists():
            return candidate
    raise NotARepository(f"{start} is not inside a git repository",
                         hint="run `git init` first, or cd into your repository")


@dataclass
class Workspace:
    root: Path
    config: config.Config
    adr_dir: str  # repo-relative posix
    adr_dir_source: str
    _catalog: Catalog | None = field(default=None, repr=False)
    # Called as progress(done, total or None) during long work (a cold history walk).
    progress: Callable[[int, int | None], None] | None = field(default=None, repr=False)

    @classmethod
    def discover(cls, start: Path | None = None, *, adr_dir: str | None = None) -> Workspace:
        root = find_root(start or Path(os.getcwd()))
        cfg = config.load(root)
        where, source = catalog.locate(root, adr_dir or cfg.adr_dir)
        return cls(root, cfg, where, source)

    @property
    def adr_path(self) -> Path:
        return self.root / self.adr_dir

    @functools.cached_property
    def cache_path(self) -> Path:
        """The cache folder: inside the repository, and never the root or the ADR folder."""
        rel = confine(self.root, self.config.cache_dir, "cache-dir")
        folder = (self.root / rel).resolve()
        real_root = self.root.resolve()
        protected = (real_root, (real_root / ".git"), self.adr_path.resolve())
        if any(folder == p or p.is_relative_to(folder) for p in protected) \
                or folder.is_relative_to(real_root / ".git"):
            raise ConfigError(f"cache-dir {self.config.cache_dir!r} would mix the cache with "
                              "the repository's own files",
                              hint='give the cache a folder of its own, e.g. cache-dir = ".adr-cache"')
        return self.root / rel

    @property
    def catalog(self) -> Catalog:
        if self._catalog is None:
            self._catalog = catalog.read_worktree(self.root, self.adr_dir)
        return self._catalog

    def reload(self) -> Catalog:
        self._catalog = None
        return self.catalog

    @property
    def git_dir(self) -> Path:
        """The repository's git dir (`.git`, or where a worktree's `.git` file points)."""
        dot = self.root / ".git"
        if dot.is_file():
            text = dot.read_text(encoding="utf-8", errors="replace").strip()
            if text.startswith("gitdir:"):
                return (self.root / text.removeprefix("gitdir:").strip()).resolve()
        return dot

    @functools.cached_property
    def repo(self) -> Repo:
        from adr_memory.repo import Repo

        return Repo.open(self.root)

    def relpath(self, path: str | Path) -> str:
        """A user-typed path as a repo-relative posix path."""
        full = (Path(os.getcwd()) / path).resolve() if not Path(path).is_absolute() else Path(path)
        try:
            return full.resolve().relative_to(self.root).as_posix()
        except ValueError:
            return Path(path).as_posix()
