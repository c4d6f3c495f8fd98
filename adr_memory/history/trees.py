"""Reading trees: lookups, listings and pruned diffs. Part of `Repo` (the only reader of git
objects); equal subtree ids are passed unread, so a diff costs what changed, not the tree."""

from __future__ import annotations

import functools
import stat
from collections.abc import Callable, Iterator
from typing import Any

from dulwich.errors import ObjectFormatException
from dulwich.objects import Tree, parse_tree

from adr_memory.history.objects import Sha

_Trie = dict[bytes, Any] | None  # name -> the names below it; None: everything there


class TreeReads:
    """The tree half of `Repo`: it supplies `_object` (an object by id, or a GitError)."""

    _trees: dict[Sha, dict[bytes, tuple[int, bytes]]]

    def _object(self, sha: bytes, read: Callable[[Any, bytes], Any] | None = None) -> Any:
        raise NotImplementedError

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
        for path, sha, _mode in self.entries(tree, prefix, submodules=submodules):
            yield path, sha

    def entries(self, tree: Sha, prefix: str = "", *, submodules: bool = True) -> Iterator[tuple[str, Sha, int]]:
        """`files`, each with its mode (a symlink's, 0o120000, says its content is a path)."""
        found = self.lookup(tree, prefix)
        if found is None:
            return
        mode, sha = found
        if not stat.S_ISDIR(mode):
            if submodules or not _is_gitlink(mode):
                yield prefix, sha, mode
            return
        yield from self._walk(self._object(sha.encode()), prefix, submodules)

    def _walk(self, tree: Tree, prefix: str, submodules: bool) -> Iterator[tuple[str, Sha, int]]:
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
                yield path, entry.sha.decode(), entry.mode

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
            # The names whose entries differ, found by set operations (in C): a folder of
            # hundreds of entries usually differs in one.
            for name in {name for name, _ in left.items() ^ right.items()}:
                la, rb = left.get(name), right.get(name)
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
            hit = self._object(sha.encode(), _read_tree)
            if len(self._trees) > 32768:  # forget the older half: a walk reads each tree once or twice, close together
                for old in list(self._trees)[:16384]:
                    del self._trees[old]
            self._trees[sha] = hit
        return hit


def _read_tree(store: Any, sha: bytes) -> dict[bytes, tuple[int, bytes]]:
    """name -> (mode, id) of a tree, parsed straight from its bytes: a walk reads thousands of
    trees, and building dulwich's Tree object for each took three times the parse. Not a tree:
    no entries."""
    kind, data = store.get_raw(sha)
    if kind != Tree.type_num:
        return {}
    try:
        return {name: (mode, oid) for name, mode, oid in parse_tree(data, len(sha) // 2)}
    except ValueError as exc:  # as dulwich reads it: a tree whose bytes do not parse is damaged
        raise ObjectFormatException(exc) from exc


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
