"""All git access, through dulwich. The only module that imports it; bytes become str here.

Functions return plain types (str shas, posix paths, small dataclasses) so features and tests
never see dulwich objects.
"""

from __future__ import annotations

import os
import re
import stat
import struct
import zlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, cast

from dulwich.errors import ChecksumMismatch, FileFormatException, NotGitRepository
from dulwich.objects import Commit
from dulwich.refs import SymrefLoop
from dulwich.repo import InvalidWorktreeConfiguration, ParentsProvider
from dulwich.repo import Repo as _DulwichRepo

from adr_memory.base import is_git_dir
from adr_memory.errors import GitError, NotARepository, TooLarge
from adr_memory.history.gitindex import _Repository
from adr_memory.history.objects import CommitInfo, Sha, _signature, _Sizes, _text
from adr_memory.history.trees import TreeReads, _is_gitlink, _path


def _names_git_dir(dot_git: Path) -> bool:
    try:
        with dot_git.open("rb") as handle:
            return handle.read(8) == b"gitdir: "
    except OSError:
        return False


_DAMAGE = (FileFormatException, ChecksumMismatch, zlib.error)  # bytes that do not read as git wrote them
_FSCK_HINT = "`git fsck` lists what is damaged; git fetch --refetch (or clone again) restores it"


class _Timeless(Exception):
    """dulwich's graph walk met a committer line without a time it can read."""


@contextmanager
def _dulwich_walk(where: str, *, by_time: bool = False) -> Iterator[None]:
    """dulwich's own walks read objects without `Repo._load`: a damaged one is a GitError here
    too. A walk `by_time` (dulwich orders commits by committer time, and asserts it reads one)
    over a hand-made committer line without an email raises _Timeless: the caller walks the
    parents itself."""
    try:
        yield
    except _DAMAGE as exc:
        raise GitError(f"a git object {where} is damaged ({type(exc).__name__})", hint=_FSCK_HINT) from None
    except AssertionError:
        if not by_time:
            raise
        raise _Timeless() from None


class _ParentsFromCommits(ParentsProvider):
    """Parents read from the commits themselves, never from git's commit-graph file: dulwich
    parses that file whole, in Python, before its first answer (0.15 s for 24,000 commits, and
    it grows with the history), while the merge base of a pull request lies a few dozen commits
    back. Grafts and shallow commits are honoured as dulwich's own provider does."""

    def __init__(self, repo: _DulwichRepo) -> None:
        self.store = repo.object_store
        self.grafts = dict(getattr(repo, "_graftpoints", {}) or {})
        self.shallows = set(repo.get_shallow())
        self.commit_graph = None


class _GraphFree:
    """The repository as dulwich's graph functions use it (its object store and a parents
    provider), with parents read from the commits."""

    def __init__(self, repo: _DulwichRepo) -> None:
        self.object_store = repo.object_store
        self._repo = repo

    def parents_provider(self) -> ParentsProvider:
        return _ParentsFromCommits(self._repo)


class Repo(TreeReads):
    """A git repository, opened once per command (its trees read through `TreeReads`)."""

    def __init__(self, repo: _DulwichRepo) -> None:
        self._repo = repo
        self._store = repo.object_store
        self._commits: dict[Sha, CommitInfo] = {}
        self._skeletons: dict[Sha, tuple[Sha, tuple[Sha, ...]]] = {}
        self._graph: Any = None  # git's commit-graph: None until opened, False when there is none
        self._graph_misses = 0
        self._trees: dict[Sha, dict[bytes, tuple[int, bytes]]] = {}
        self.missing: set[Sha] = set()  # objects asked for and not found, for a warning afterwards
        self.damaged: set[Sha] = set()  # objects whose bytes did not read, likewise
        self._sizes = _Sizes(self._store)
        self._short: dict[str, Sha | GitError] = {}  # a sha named in records -> its commit
        self.pinned: Sha | None = None  # a source's copy reads as if HEAD were its pinned commit
        # What readers of history worked out from its objects (the walk's cache, blobs parsed),
        # by reader: it dies with this object, and a source's copy never shares an answer.
        self.kept: dict[str, Any] = {}

    @classmethod
    def open(cls, root: Path, *, git_dir: Path | None = None) -> Repo:
        """The repository whose work tree is `root`; its git dir is `root/.git` unless named."""
        dot_git = root / ".git"
        try:
            if git_dir is not None:
                opened = _Repository(str(root), controldir=str(git_dir), worktree=str(root))
            else:
                opened = _Repository(str(root))
        except InvalidWorktreeConfiguration as exc:  # git refuses it too ("invalid config")
            raise NotARepository(
                f"the repository's config cannot name a work tree: {exc}",
                hint="`git config core.bare false`, or unset core.worktree",
            ) from None
        except NotGitRepository:
            raise NotARepository(f"{root} is not a git repository", hint="run `git init` first") from None
        except (ValueError, UnicodeDecodeError) as exc:  # dulwich reads .git (a file) and the config
            if git_dir is None and dot_git.is_file() and not _names_git_dir(dot_git):
                raise NotARepository(
                    f"{dot_git} is a file that does not say `gitdir: <path>`",
                    hint="a submodule or worktree's .git file: `git submodule update "
                    "--init` or `git worktree repair` rewrites it",
                ) from None
            raise NotARepository(
                f"the repository's config does not read: {exc}",
                hint="`git config --list` names the bad line in .git/config",
            ) from None
        if not is_git_dir(Path(opened.controldir())):  # dulwich opens a .git file's target unchecked
            raise NotARepository(
                f"{dot_git} names {opened.controldir()}, which is no git directory",
                hint="its repository moved or was removed: `git worktree repair` (or "
                "`git submodule update --init`) in that repository rewrites it",
            )
        return cls(opened)

    # ------------------------------------------------------------------ refs and commits

    def head(self) -> Sha | None:
        """HEAD's commit, or None in a repository with no commits yet (a source's copy: the
        commit it is pinned at)."""
        if self.pinned is not None:
            return self.pinned
        try:
            head = self._repo.head().decode("ascii", "replace")
        except KeyError:
            return None
        except SymrefLoop:
            raise GitError(
                "HEAD cannot be read: its symbolic refs form a loop",
                hint="`git status` says what git makes of it; repair .git/HEAD",
            ) from None
        except FileFormatException as exc:
            raise GitError(
                f"HEAD cannot be read: .git/packed-refs does not parse ({exc})",
                hint="`git status` says what git makes of it; repair .git/packed-refs",
            ) from None
        if not re.fullmatch(r"[0-9a-f]{40}|[0-9a-f]{64}", head):
            raise GitError(
                f"HEAD names no commit: {head[:60]!r}", hint="`git status` says what git makes of it; repair .git/HEAD"
            ) from None
        return head

    def resolve(self, ref: str) -> Sha:
        """A commit sha for a branch, tag, remote ref, full or short sha, or HEAD, followed by
        any of `~N`, `^N`, `^{}` and `^{commit}`; `@{u}` names what a branch follows."""
        import re

        if not re.fullmatch(r"[0-9a-f]{7,40}", ref):
            return self._resolve(ref)
        if ref not in self._short:  # an object id names one commit for good: look it up once
            try:
                self._short[ref] = self._resolve(ref)
            except GitError as exc:
                self._short[ref] = exc
        found = self._short[ref]
        if isinstance(found, GitError):
            raise found
        return found

    def _resolve(self, ref: str) -> Sha:
        import re

        from dulwich.objectspec import parse_commit

        match = re.fullmatch(r"(.+?)((?:\^\{(?:commit)?\}|[~^]\d*)*)", ref.strip())
        base, steps = (match.group(1), match.group(2)) if match else (ref, "")
        upstream = re.fullmatch(r"(.*)@\{(?:u|upstream)\}", base, re.IGNORECASE)
        if upstream:
            base = self._upstream(upstream.group(1))
        try:
            with _dulwich_walk(f"at {ref}"):
                sha = parse_commit(self._repo, base.encode()).id.decode()  # a tag is peeled here
            for step in re.findall(r"\^\{(?:commit)?\}|[~^]\d*", steps):
                count = int(step[1:]) if step[1:].isdigit() else (0 if step.startswith("^{") else 1)
                if step.startswith("~"):  # HEAD~2: first parents back
                    for _ in range(count):
                        sha = self.commit(sha).parents[0]
                elif count:  # main^2: the second parent of a merge (^0 and ^{} are the commit)
                    sha = self.commit(sha).parents[count - 1]
            return sha
        except (KeyError, ValueError, TypeError, IndexError, AssertionError) as exc:  # a ref naming no object
            raise GitError(
                f"unknown revision {ref!r}",
                hint="name a branch, tag or commit; in CI fetch the full history "
                "(actions/checkout with fetch-depth: 0)",
            ) from exc

    def _upstream(self, branch: str) -> str:
        """What `main@{u}` (or `@{u}`, for the branch checked out) names: the ref the branch
        follows, from its `branch.<name>.remote` and `.merge` settings, as git reads them."""
        if branch in ("", "HEAD"):
            self.head()  # a HEAD that loops or does not parse is named there
            names, _ = self._repo.refs.follow(cast(Any, b"HEAD"))
            if len(names) < 2 or not names[-1].startswith(b"refs/heads/"):
                raise GitError(
                    "HEAD is detached, so it follows no upstream branch",
                    hint="name the base itself, e.g. --base origin/main",
                )
            branch = names[-1].decode("utf-8", "replace").removeprefix("refs/heads/")
        config = self._repo.get_config_stack()
        try:
            remote = config.get((b"branch", branch.encode()), b"remote").decode("utf-8", "replace")
            merge = config.get((b"branch", branch.encode()), b"merge").decode("utf-8", "replace")
        except KeyError:
            raise GitError(
                f"branch {branch!r} follows no upstream branch",
                hint="git branch --set-upstream-to origin/main; or name the base, e.g. --base origin/main",
            ) from None
        name = merge.removeprefix("refs/heads/")
        return f"refs/heads/{name}" if remote == "." else f"refs/remotes/{remote}/{name}"

    def commit(self, sha: Sha) -> CommitInfo:
        info = self._commits.get(sha)
        if info is None:
            try:
                obj = self._load(sha.encode())
            except KeyError:
                raise GitError(
                    f"commit {sha[:12]} is missing from the object store",
                    hint="the clone may be shallow or damaged: git fetch --unshallow",
                ) from None
            if not isinstance(obj, Commit):
                raise GitError(f"{sha[:12]} is not a commit")
            author, when = _signature(obj)
            info = CommitInfo(
                sha,
                tuple(p.decode() for p in obj.parents),
                obj.tree.decode(),
                author,
                when,
                _text(obj.message or b"", obj.encoding).strip(),
            )
            self._commits[sha] = info
        return info

    def committed_at(self, sha: Sha) -> int:
        """When the commit was made where it stands (its committer's time, seconds since the
        epoch): a rebase or a cherry-pick makes it anew, whatever the author time says."""
        obj = self._load(sha.encode())
        when = obj.commit_time if isinstance(obj, Commit) and obj.committer else None
        return int(when) if when is not None else self.commit(sha).timestamp

    def skeleton(self, sha: Sha) -> tuple[Sha, tuple[Sha, ...]]:
        """A commit's tree and parents, read from its header alone: what a walk needs of the
        thousands of commits it passes, without parsing their authors and messages."""
        hit = self._skeletons.get(sha)
        if hit is None:
            info = self._commits.get(sha)
            graphed = self._graphed(sha) if info is None else None
            if info is not None:
                hit = (info.tree, info.parents)
            elif graphed is not None:
                hit = graphed
            else:
                try:
                    kind, raw = self._store.get_raw(cast(Any, sha.encode()))
                except KeyError:
                    return self.commit(sha).tree, self.commit(sha).parents  # names the missing commit
                except _DAMAGE:
                    self.commit(sha)  # names the damage as every read does
                    raise
                header = raw.split(b"\n\n", 1)[0].split(b"\n")
                if kind != Commit.type_num or not header[0].startswith(b"tree "):
                    return self.commit(sha).tree, self.commit(sha).parents
                parents = tuple(line[7:].decode() for line in header[1:] if line.startswith(b"parent "))
                hit = (header[0][5:].decode(), parents)
            self._skeletons[sha] = hit
        return hit

    def know(self, skeletons: dict[Sha, tuple[Sha, tuple[Sha, ...]]]) -> None:
        """Commits' trees and parents as git read them (history/gitwalk.py), so that a walk
        reads none of their headers; what was read already stays."""
        self._skeletons = skeletons | self._skeletons

    def _graphed(self, sha: Sha) -> tuple[Sha, tuple[Sha, ...]] | None:
        """A commit's tree and parents from git's commit-graph file (which `git gc` and `git
        maintenance` write), once a walk has read enough commits to pay for opening it."""
        self._graph_misses += 1
        if self._graph is None and self._graph_misses == 64:
            try:
                self._graph = self._store.get_commit_graph() or False
            except (OSError, ValueError, struct.error, IndexError):  # a damaged file: read the commits
                self._graph = False
        if not self._graph:
            return None
        try:
            entry = self._graph.get_entry_by_oid(cast(Any, sha.encode()))
        except (ValueError, struct.error, IndexError):
            return None
        if entry is None:
            return None
        return entry.tree_id.decode(), tuple(p.decode() for p in entry.parents)

    def _load(self, sha: bytes, read: Callable[[Any, bytes], Any] | None = None) -> Any:
        """An object from the store (`read(store, id)`: its own reading of it). One whose bytes do not
        read as git wrote them (a truncated file, a flipped bit, a header no git writes) is a GitError."""
        try:
            return read(self._store, sha) if read else self._store[cast(Any, sha)]
        except _DAMAGE as exc:
            self.damaged.add(sha.decode())
            raise GitError(
                f"object {sha.decode()[:12]} is damaged: it does not read as git wrote it ({type(exc).__name__})",
                hint=_FSCK_HINT,
            ) from None

    def _object(self, sha: bytes, read: Callable[[Any, bytes], Any] | None = None) -> Any:
        """An object from the store; a missing one is a GitError naming it, never a KeyError."""
        try:
            return self._load(sha, read)
        except KeyError:
            self.missing.add(sha.decode())
            if self.partial():
                raise GitError(
                    f"object {sha.decode()[:12]} is not in this partial clone (made with --filter); "
                    "adr-memory reads git objects and never fetches them",
                    hint="`git log -p -- <the ADR folder> >/dev/null` (for check --base, also "
                    "`git diff <base> >/dev/null`) has git fetch what it lacks; or clone "
                    "without --filter",
                ) from None
            raise GitError(
                f"object {sha.decode()[:12]} is missing: damaged or partial clone",
                hint="git fetch --refetch (or clone again) restores missing objects",
            ) from None

    def partial(self) -> bool:
        """Whether this is a partial clone (`git clone --filter`): git marks the packs it
        fetched from a remote that may hold back objects with a `.promisor` file."""
        return any((self.common_dir() / "objects" / "pack").glob("*.promisor"))

    def git_dir(self) -> Path:
        """The `.git` folder (or a worktree's git dir)."""
        return Path(self._repo.controldir())

    def orig_head(self) -> Sha | None:
        """Where HEAD was before the last merge, pull or reset (git's `ORIG_HEAD` file)."""
        try:
            text = (self.git_dir() / "ORIG_HEAD").read_text(encoding="ascii").strip()
        except (OSError, UnicodeDecodeError):
            return None
        return text if len(text) in (40, 64) and all(c in "0123456789abcdef" for c in text) else None

    def common_dir(self) -> Path:
        """The git dir every worktree shares (hooks, config, objects)."""
        return Path(self._repo.commondir())

    def config_value(self, section: str, name: str) -> str | None:
        try:
            value = self._repo.get_config_stack().get((section.encode(),), name.encode())
        except KeyError:
            return None
        return value.decode("utf-8", "replace") if value else None

    def head_changes(self) -> set[str]:
        """Paths HEAD changed against its first parent (all of them for a root commit)."""
        head = self.head()
        if head is None:
            return set()
        info = self.commit(head)
        if not info.parents:
            return {p for p, _ in self.files(info.tree)}
        return self.changed_paths(self.commit(info.parents[0]).tree, info.tree, [""])

    def tracked_paths(self) -> list[str]:
        """Paths in the git index (what `git ls-files` lists): ignored files are never here."""
        return [_path(p) for p in self._repo.open_index().paths()]

    def staged_paths(self) -> set[str]:
        """Paths the commit being made changes against HEAD. Read from `GIT_INDEX_FILE` when
        git sets it: `git commit -a` and `git commit PATH` stage into a temporary index, and
        the real `.git/index` does not hold what is being committed."""
        from dulwich import porcelain

        index_file = os.environ.get("GIT_INDEX_FILE")
        index = cast(_Repository, self._repo).index_at(os.path.abspath(index_file) if index_file else None)
        with _dulwich_walk("between HEAD and the index"):
            changes = porcelain.get_tree_changes(self._repo, index=index)
        return {_path(p) if isinstance(p, bytes) else p for group in changes.values() for p in group}

    def shallow(self) -> set[Sha]:
        return {s.decode() for s in self._repo.get_shallow()}

    def merge_base(self, a: Sha, b: Sha) -> Sha | None:
        from dulwich.graph import find_merge_base

        try:
            with _dulwich_walk(f"between {a[:12]} and {b[:12]}", by_time=True):
                bases = find_merge_base(
                    cast(Any, _GraphFree(self._repo)), [cast(Any, a.encode()), cast(Any, b.encode())]
                )
        except _Timeless:
            return self._merge_base_by_parents(a, b)
        return bases[0].decode() if bases else None

    def is_ancestor(self, ancestor: Sha, descendant: Sha) -> bool:
        from dulwich.graph import can_fast_forward

        try:
            with _dulwich_walk(f"between {ancestor[:12]} and {descendant[:12]}", by_time=True):
                return bool(
                    can_fast_forward(
                        cast(Any, _GraphFree(self._repo)), cast(Any, ancestor.encode()), cast(Any, descendant.encode())
                    )
                )
        except _Timeless:
            return ancestor in self._ancestors([descendant])
        except KeyError:
            return False

    def _merge_base_by_parents(self, a: Sha, b: Sha) -> Sha | None:
        """The merge base without committer times: the common ancestors no other common
        ancestor descends from; of several (criss-cross merges), the latest by date, then by id
        (git, too, picks one). Reads the whole history of both."""
        common = self._ancestors([a]) & self._ancestors([b])
        ends = self.shallow()
        below = self._ancestors([p for c in common - ends for p in self.commit(c).parents])
        best = common - below
        return max(best, key=lambda sha: (self.commit(sha).timestamp, sha)) if best else None

    def _ancestors(self, starts: list[Sha]) -> set[Sha]:
        """Every commit reachable from `starts`, themselves included; a shallow clone's history
        ends at its shallow commits, as git's does."""
        ends, seen = self.shallow(), set()
        todo = list(starts)
        while todo:
            sha = todo.pop()
            if sha not in seen:
                seen.add(sha)
                todo.extend(() if sha in ends else self.commit(sha).parents)
        return seen

    def remote_url(self, name: str) -> str | None:
        """A remote's URL from the repository's config, or None."""
        try:
            value = self._repo.get_config().get((b"remote", name.encode()), b"url")
        except (KeyError, ValueError):
            return None
        return value.decode("utf-8", "replace") if isinstance(value, bytes) else None

    def has_commit(self, sha: Sha) -> bool:
        """Whether the store holds this commit."""
        try:
            return self.commit(sha) is not None
        except GitError:
            return False

    # ------------------------------------------------------------------ blobs

    def blob(self, sha: Sha, limit: int | None = None) -> bytes:
        """A blob's bytes. With `limit`, a blob git records as larger raises TooLarge before
        it is inflated: a few KB of a clone can inflate to gigabytes (ADR-0028)."""
        if limit is not None:
            size = self.size(sha)
            if size is not None and size > limit:
                raise TooLarge(size)
        raw: bytes = self._object(sha.encode()).as_raw_string()
        return raw

    def size(self, sha: Sha) -> int | None:
        """An object's size as its header records it, inflating nothing past the header; None
        when it is in none of the store's loose objects or packs (dulwich has no such read)."""
        return self._sizes(sha)

    def read(self, commit: Sha, path: str, limit: int | None = None) -> bytes | None:
        """A file's content at a commit, or None when it does not exist there (TooLarge past
        `limit`). A submodule reads as the line `git diff` shows for it: its commit id."""
        found = self.lookup(self.commit(commit).tree, path)
        if found is None or stat.S_ISDIR(found[0]):
            return None
        if _is_gitlink(found[0]):
            return f"Subproject commit {found[1]}\n".encode()
        return self.blob(found[1], limit)

    def worktree_changes(self) -> set[str]:
        """Staged, unstaged and untracked paths (repo-relative) in the work tree."""
        from dulwich import porcelain

        # optional_locks=False: a command that reads never rewrites the user's .git/index
        # (dulwich's status otherwise saves refreshed file times, dropping what it cannot write).
        status = porcelain.status(self._repo, untracked_files="all", optional_locks=False)
        paths: set[str] = set()
        for group in status.staged.values():
            paths |= {_path(p) if isinstance(p, bytes) else p for p in group}
        paths |= {_path(p) if isinstance(p, bytes) else p for p in status.unstaged}
        paths |= {_path(p) if isinstance(p, bytes) else p for p in status.untracked}
        return paths


def open_bare(store: Path, pinned: Sha | None = None) -> Repo:
    """A bare repository adr-memory fetched into (a source's copy in the cache), read as if its
    HEAD were `pinned`."""
    try:
        repo = Repo(_DulwichRepo(str(store), bare=True))
        repo.pinned = pinned
        return repo
    except (NotGitRepository, OSError, ValueError) as exc:
        raise GitError(
            f"the fetched copy at {store} does not open: {exc}", hint="`adr sources update` fetches it again"
        ) from None
