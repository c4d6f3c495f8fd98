"""All git access, through dulwich. The only module that imports it; bytes become str here.

Functions return plain types (str shas, posix paths, small dataclasses) so features and tests
never see dulwich objects.
"""

from __future__ import annotations

import functools
import os
import re
import stat
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, cast

from dulwich.errors import ChecksumMismatch, FileFormatException, NotGitRepository
from dulwich.objects import Commit, Tree
from dulwich.refs import SymrefLoop
from dulwich.repo import InvalidWorktreeConfiguration
from dulwich.repo import Repo as _DulwichRepo

from adr_memory.base import is_git_dir
from adr_memory.errors import GitError, NotARepository, TooLarge
from adr_memory.history.gitindex import _entries, _Repository
from adr_memory.history.objects import CommitInfo, Sha, _signature, _Sizes, _text

_Trie = dict[bytes, Any] | None  # name -> the names below it; None: everything there


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


class Repo:
    """A git repository, opened once per command."""

    def __init__(self, repo: _DulwichRepo) -> None:
        self._repo = repo
        self._store = repo.object_store
        self._commits: dict[Sha, CommitInfo] = {}
        self._skeletons: dict[Sha, tuple[Sha, tuple[Sha, ...]]] = {}
        self._trees: dict[Sha, dict[bytes, tuple[int, bytes]]] = {}
        self.missing: set[Sha] = set()  # objects asked for and not found, for a warning afterwards
        self.damaged: set[Sha] = set()  # objects whose bytes did not read, likewise
        self._sizes = _Sizes(self._store)
        self._short: dict[str, Sha | GitError] = {}  # a sha named in records -> its commit

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
        """HEAD's commit, or None in a repository with no commits yet."""
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

    def skeleton(self, sha: Sha) -> tuple[Sha, tuple[Sha, ...]]:
        """A commit's tree and parents, read from its header alone: what a walk needs of the
        thousands of commits it passes, without parsing their authors and messages."""
        hit = self._skeletons.get(sha)
        if hit is None:
            info = self._commits.get(sha)
            if info is not None:
                hit = (info.tree, info.parents)
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

    def _load(self, sha: bytes) -> Any:
        """An object from the store. One whose bytes do not read as git wrote them (a truncated
        file, a flipped bit, a header no git writes) is a GitError naming it."""
        try:
            return self._store[cast(Any, sha)]
        except _DAMAGE as exc:
            self.damaged.add(sha.decode())
            raise GitError(
                f"object {sha.decode()[:12]} is damaged: it does not read as git wrote it ({type(exc).__name__})",
                hint=_FSCK_HINT,
            ) from None

    def _object(self, sha: bytes) -> Any:
        """An object from the store; a missing one is a GitError naming it, never a KeyError."""
        try:
            return self._load(sha)
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
                bases = find_merge_base(self._repo, [cast(Any, a.encode()), cast(Any, b.encode())])
        except _Timeless:
            return self._merge_base_by_parents(a, b)
        return bases[0].decode() if bases else None

    def is_ancestor(self, ancestor: Sha, descendant: Sha) -> bool:
        from dulwich.graph import can_fast_forward

        try:
            with _dulwich_walk(f"between {ancestor[:12]} and {descendant[:12]}", by_time=True):
                return bool(can_fast_forward(self._repo, cast(Any, ancestor.encode()), cast(Any, descendant.encode())))
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

    # ------------------------------------------------------------------ trees and blobs

    def lookup(self, tree: Sha, path: str) -> tuple[int, Sha] | None:
        """(mode, id) of the entry at `path` inside `tree`, or None. A path into a submodule
        is None: its content lives in another repository."""
        return self._descend(tree, path)[0]

    def submodule_above(self, tree: Sha, path: str) -> str | None:
        """The submodule (a gitlink) in `tree` that `path` lies inside, if any: its content,
        history included, lives in another repository."""
        return self._descend(tree, path)[1]

    def _descend(self, tree: Sha, path: str) -> tuple[tuple[int, Sha] | None, str | None]:
        """The entry at `path` in `tree` (None when there is none), and the submodule the path
        runs into on the way (None when it runs into none)."""
        found: tuple[int, Sha] = (stat.S_IFDIR, tree)
        names = path.split("/") if path else []
        for depth, name in enumerate(names):
            if not stat.S_ISDIR(found[0]):  # a file, or a submodule: nothing lies inside it here
                return None, "/".join(names[:depth]) if _is_gitlink(found[0]) else None
            entry = self._tree_entries(found[1]).get(_raw(name))
            if entry is None:
                return None, None
            found = (entry[0], entry[1].decode())
        return found, None

    def files(self, tree: Sha, prefix: str = "", *, submodules: bool = True) -> Iterator[tuple[str, Sha]]:
        """(path, id) for every file under `prefix` in `tree`, recursively. A submodule is a
        file whose id is its commit (ARCHITECTURE.md §3); nothing inside it is read. Without
        `submodules`, only files with content here (a submodule named like a record is none)."""
        found = self.lookup(tree, prefix)
        if found is None:
            return
        mode, sha = found
        if not stat.S_ISDIR(mode):
            if submodules or not _is_gitlink(mode):
                yield prefix, sha
            return
        yield from self._walk(self._object(sha.encode()), prefix, submodules)

    def _walk(self, tree: Tree, prefix: str, submodules: bool) -> Iterator[tuple[str, Sha]]:
        """Depth first, in tree order, on a stack of its own: a repository may nest folders
        deeper than Python's recursion limit (a path may hold ~2,000 of them)."""
        stack = [(iter(tree.iteritems()), prefix)]
        while stack:
            entries, folder = stack[-1]
            entry = next(entries, None)
            if entry is None:
                stack.pop()
                continue
            path = f"{folder}/{_path(entry.path)}" if folder else _path(entry.path)
            if stat.S_ISDIR(entry.mode):
                stack.append((iter(self._object(entry.sha).iteritems()), path))
            elif submodules or not _is_gitlink(entry.mode):
                yield path, entry.sha.decode()

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

    def changed_paths(self, old_tree: Sha, new_tree: Sha, prefixes: list[str]) -> set[str]:
        """Paths under `prefixes` that differ between two trees (added, removed or modified)."""
        return {path for path, _, _ in self.tree_changes(old_tree, new_tree, prefixes)}

    def tree_changes(
        self, old_tree: Sha | None, new_tree: Sha, prefixes: list[str] | None = None
    ) -> list[tuple[str, Sha | None, Sha | None]]:
        """(path, old blob, new blob) for every file under `prefixes` (anywhere, without them)
        that differs; None where it is absent.

        Equal subtree ids are skipped without reading them, so the cost follows the size of the
        change, not of the repository.
        """
        if prefixes is None:
            return self._diff(old_tree, new_tree, "", True, True)
        out: list[tuple[str, Sha | None, Sha | None]] = []
        # (entry in the old tree, in the new, the folder they are at, the prefixes below it as a trie)
        Entry = tuple[int, Sha] | None
        start: Entry = (stat.S_IFDIR, old_tree) if old_tree else None
        stack: list[tuple[Entry, Entry, str, _Trie]] = [(start, (stat.S_IFDIR, new_tree), "", _trie(tuple(prefixes)))]
        while stack:
            a, b, where, below = stack.pop()
            if a == b:
                continue  # the same subtree id: nothing under it differs
            a_dir, b_dir = a is not None and stat.S_ISDIR(a[0]), b is not None and stat.S_ISDIR(b[0])
            if below is None:  # a prefix ends here: everything under it
                out += self._diff(a[1] if a else None, b[1] if b else None, where, a_dir, b_dir)
                continue
            left = self._tree_entries(a[1]) if a and a_dir else {}
            right = self._tree_entries(b[1]) if b and b_dir else {}
            for name, deeper in below.items():
                la, rb = left.get(name), right.get(name)
                if la != rb:
                    child = f"{where}/{_path(name)}" if where else _path(name)
                    stack.append(
                        (
                            (la[0], la[1].decode()) if la else None,
                            (rb[0], rb[1].decode()) if rb else None,
                            child,
                            deeper,
                        )
                    )
        return out

    def _diff(
        self, a: Sha | None, b: Sha | None, prefix: str, a_dir: bool, b_dir: bool
    ) -> list[tuple[str, Sha | None, Sha | None]]:
        """The files that differ below two entries. Whether a side is a folder comes from its
        entry's mode, so blobs are never read, and parsed trees are reused from one commit to
        the next. A stack of its own, not recursion: folders may nest ~2,000 deep."""
        out: list[tuple[str, Sha | None, Sha | None]] = []
        stack = [(a, b, prefix, a_dir, b_dir)]
        while stack:
            a, b, prefix, a_dir, b_dir = stack.pop()
            if a and not a_dir and b and not b_dir:
                out.append((prefix, a, b))
                continue
            if a and not a_dir:
                out.append((prefix, a, None))  # a file became a folder (or was removed)
            if b and not b_dir:
                out.append((prefix, None, b))  # a folder became a file (or it was added)
            left = self._tree_entries(a) if a and a_dir else {}
            right = self._tree_entries(b) if b and b_dir else {}
            for name in left.keys() | right.keys():
                la, rb = left.get(name), right.get(name)
                if la != rb:
                    path = f"{prefix}/{_path(name)}" if prefix else _path(name)
                    stack.append(
                        (
                            la[1].decode() if la else None,
                            rb[1].decode() if rb else None,
                            path,
                            la is not None and stat.S_ISDIR(la[0]),
                            rb is not None and stat.S_ISDIR(rb[0]),
                        )
                    )
        return out

    def _tree_entries(self, sha: Sha) -> dict[bytes, tuple[int, bytes]]:
        """name -> (mode, id) of a tree, from a small cache: in a first-parent walk a commit's
        parent trees are its child's trees of the step before."""
        hit = self._trees.get(sha)
        if hit is None:
            hit = _entries(self._object(sha.encode()))
            if len(self._trees) > 32768:  # forget the older half: a walk reads each tree once or twice, close together
                for old in list(self._trees)[:16384]:
                    del self._trees[old]
            self._trees[sha] = hit
        return hit

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


def _path(name: bytes) -> str:
    """A path from git as text. Git stores any bytes; a name that is not UTF-8 keeps its bytes
    as surrogates, as os.walk and os.listdir give it for the same file on disk."""
    return name.decode("utf-8", "surrogateescape")


def _raw(name: str) -> bytes:
    return name.encode("utf-8", "surrogateescape")


def _is_gitlink(mode: int) -> bool:
    return (mode & 0o170000) == 0o160000


@functools.lru_cache(maxsize=64)
def _trie(prefixes: tuple[str, ...]) -> _Trie:
    """The prefixes as a tree of names: a walk passes many commits with the same ones. A
    prefix nested in another (`src/db` in `src`) is covered by it; `""` is everything."""
    root: dict[bytes, Any] = {}
    for prefix in sorted(set(prefixes), key=len):
        if not prefix:
            return None
        node, parts = root, [_raw(part) for part in prefix.split("/")]
        for part in parts[:-1]:
            node = node.setdefault(part, {})
            if node is None:
                break
        else:
            if node is not None:
                node[parts[-1]] = None  # everything under it
    return root
