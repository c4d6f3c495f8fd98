"""Everything a command needs about where it runs: repo root, config, ADR folder, catalog.

Built once per command. Opening git (dulwich) is deferred until a feature asks for `repo`, so
`adr check` and the pre-commit hooks pay only for what they use.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from adr_memory import records
from adr_memory.base import cache, config, confine, is_git_dir
from adr_memory.errors import AdrError, ConfigError, NotARepository
from adr_memory.records import Catalog, Parses, Record, catalog

if TYPE_CHECKING:
    from adr_memory.history.repo import Repo


def from_environment() -> tuple[Path, Path] | None:
    """(work tree, git dir) when `GIT_DIR` names the repository, as git reads it: git sets it
    for hooks in linked worktrees, and a repository kept apart from its files (`git
    --git-dir=~/.dotfiles --work-tree=~`) is only found through it. The work tree is
    `GIT_WORK_TREE`, else the git dir's `core.worktree`, else the current folder."""
    named = os.environ.get("GIT_DIR")
    if not named:
        return None
    here = Path(os.getcwd())
    git_dir = (here / named).resolve()
    if not is_git_dir(git_dir):
        raise NotARepository(
            f"GIT_DIR={named} is not a git directory", hint="unset GIT_DIR, or point it at a repository's .git folder"
        )
    tree = os.environ.get("GIT_WORK_TREE")
    if tree:
        return (here / tree).resolve(), git_dir
    if not (git_dir / "config").is_file():  # a linked worktree's git dir: nothing to read
        return here.resolve(), git_dir
    from adr_memory.history.gitindex import configured_work_tree

    return configured_work_tree(git_dir) or here.resolve(), git_dir


def find_root(start: Path) -> Path:
    """The top of the git work tree containing `start` (a `.git` dir or file marks it)."""
    here = start.resolve()
    for candidate in (here, *here.parents):
        if (candidate / ".git").exists():
            return candidate
    if any(
        is_git_dir(folder) and (folder / "refs").is_dir() for folder in (here, *here.parents)
    ):  # a bare repository (a server's, a mirror)
        raise NotARepository(
            f"{start} is inside a bare git repository, which has no work tree",
            hint="run adr in a clone of it (git clone PATH), where the records are files",
        )
    raise NotARepository(
        f"{start} is not inside a git repository", hint="run `git init` first, or cd into your repository"
    )


@dataclass
class Workspace:
    root: Path
    config: config.Config
    adr_dir: str  # repo-relative posix
    adr_dir_source: str
    _catalog: Catalog | None = field(default=None, repr=False)
    # Called as progress(done, total or None) during long work (a cold history walk).
    progress: Callable[[int, int | None], None] | None = field(default=None, repr=False)
    # The git dir when it is not found from the work tree (GIT_DIR); None: `.git` decides.
    named_git_dir: Path | None = field(default=None, repr=False)
    # Why git's facts (versions, staleness) were left out of an answer that still shows records.
    unread: AdrError | None = field(default=None, repr=False)

    @classmethod
    def discover(cls, start: Path | None = None, *, adr_dir: str | None = None) -> Workspace:
        """The workspace at `start`, else where git's environment or the current folder says."""
        located = from_environment() if start is None else None
        root, git_dir = located or (find_root(start or Path(os.getcwd())), None)
        cfg = config.load(root)
        where, source = records.locate(root, adr_dir or cfg.adr_dir)
        return cls(root, cfg, where, source, named_git_dir=git_dir)

    @property
    def adr_path(self) -> Path:
        return self.root / self.adr_dir

    @functools.cached_property
    def cache_path(self) -> Path:
        """The cache folder: inside the repository, and never the root or the ADR folder."""
        rel = confine(self.root, self.config.cache_dir, "cache-dir")
        folder = (self.root / rel).resolve()
        real_root, real_git = self.root.resolve(), self.git_dir.resolve()
        protected = (real_root, real_root / ".git", real_git, self.adr_path.resolve())
        if (
            any(folder == p or p.is_relative_to(folder) for p in protected)
            or folder.is_relative_to(real_root / ".git")
            or folder.is_relative_to(real_git)
        ):
            raise ConfigError(
                f"cache-dir {self.config.cache_dir!r} would mix the cache with the repository's own files",
                hint='give the cache a folder of its own, e.g. cache-dir = ".adr-cache"',
            )
        if self._committed(rel):  # a clone's copy is anyone's text, not facts we derived: use our own
            kept = self._git_cache()
            if kept is None:
                raise ConfigError(
                    f"{self.git_dir / 'adr-memory-cache'} is a link out of the git dir",
                    hint="delete it: adr-memory makes it again as a folder",
                )
            return kept
        return self.root / rel

    def _git_cache(self) -> Path | None:
        """The cache folder in the git dir; None when it is a symlink (or resolves out of the
        git dir): the seal guards what is unpickled, not where it is written, so a link there
        would have commands write, and trust, another place."""
        kept = self.git_dir / "adr-memory-cache"
        try:
            if kept.is_symlink() or (kept.exists() and not kept.resolve().is_relative_to(self.git_dir.resolve())):
                return None
        except (OSError, RuntimeError):
            return None
        return kept

    def _committed(self, rel: str) -> bool:
        """Whether HEAD's tree holds `rel`: a cache a commit carries (history.json claiming a
        commit changed nothing, an index) would let a pull request hide what it makes stale."""
        try:
            head = self.repo.head()
            return head is not None and self.repo.lookup(self.repo.commit(head).tree, rel) is not None
        except AdrError:  # no history to hold it
            return False

    @property
    def catalog(self) -> Catalog:
        if self._catalog is None:
            self._catalog = self._read_catalog()
        return self._catalog

    def _read_catalog(self) -> Catalog:
        """The records on disk; those whose bytes a command here read before come parsed from
        the cache folder (history/parsed.py), when some command made one."""
        read = catalog.read_worktree(self.root, self.adr_dir, self.parses)
        if self._parse_cache is not None:
            from adr_memory.history import parsed

            parsed.save(self._parse_cache, self.parses)
        return read

    @functools.cached_property
    def parses(self) -> Parses:
        """Records parsed in this process, or kept from the last command, by path and bytes: the
        catalog at another commit (`check --base`) parses only the files that differ."""
        if self._parse_cache is None:
            return Parses({})
        from adr_memory.history import parsed

        return parsed.load(self._parse_cache)

    @functools.cached_property
    def _parse_cache(self) -> Path | None:
        """Where the parsed records are kept: the cache folder in the git dir, which no commit
        carries and no checkout writes (a cache folder in the work tree may be a clone's, and
        is then left as committed), once a command here has made a cache folder at all: in a
        repository where none keeps one, `adr check` writes nothing (history/parsed.py)."""
        if not is_git_dir(self.git_dir):  # a folder of records that is no clone (`adr eval`'s copies)
            return None
        kept = self._git_cache()
        if kept is None:
            return None
        if cache.owned(kept):
            return kept
        try:
            rel = confine(self.root, self.config.cache_dir, "cache-dir")
            return cache.ensure(kept) if cache.owned(self.root / rel) else None
        except AdrError:  # a cache-dir out of bounds, a git dir that cannot be written
            return None

    def reload(self) -> Catalog:
        self._catalog = None
        return self.catalog

    @property
    def git_dir(self) -> Path:
        """The repository's git dir (GIT_DIR, `.git`, or where a worktree's `.git` file points)."""
        if self.named_git_dir is not None:
            return self.named_git_dir
        dot = self.root / ".git"
        if dot.is_file():
            text = dot.read_text(encoding="utf-8", errors="replace").strip()
            if text.startswith("gitdir:"):
                return (self.root / text.removeprefix("gitdir:").strip()).resolve()
        return dot

    @functools.cached_property
    def sources(self) -> list[Any]:
        """Each configured source's decisions at its pinned commit (history/sources.py): read
        once per command, only when a command asks."""
        if not self.config.sources:
            return []
        from adr_memory.history import sources

        if self._parse_cache is None:
            return sources.read(self, Parses({}))
        from adr_memory.history import parsed

        kept = parsed.load(self._parse_cache, parsed.SOURCES)  # parsed by their bytes, as ours are
        read = sources.read(self, kept)
        parsed.save(self._parse_cache, kept, parsed.SOURCES)
        return read

    @property
    def decisions(self) -> list[Record]:
        """This repository's records and those of every source that could be read and that
        applies here (`applies-to`, when a source decision names the repositories it binds)."""
        out = list(self.catalog)
        if self.config.sources:
            from adr_memory.history import sources

            here = sources.repository_name(self)
            out += [rec for folder in self.sources for rec in folder.records if sources.applies(rec, here)]
        return out

    @functools.cached_property
    def repo(self) -> Repo:
        from adr_memory.history.repo import Repo

        return Repo.open(self.root, git_dir=self.named_git_dir)

    def relpath(self, path: str | Path) -> str:
        """A user-typed path as a repo-relative posix path."""
        full = (Path(os.getcwd()) / path).resolve() if not Path(path).is_absolute() else Path(path)
        try:
            return full.resolve().relative_to(self.root).as_posix()
        except ValueError:
            return Path(path).as_posix()
