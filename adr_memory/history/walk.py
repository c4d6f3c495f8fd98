"""The walk of HEAD's first-parent history, and the one cache every reader of history shares.

A commit's step (its first parent, the records it changed, where a new record came from) is a
function of the commit alone, so it is kept in `.adr-cache/steps.json` for good and a later
walk reads only the commits it has not seen. The rest (the newest whole walk's answer, commit
details, record summaries) is kept in `.adr-cache/history.json`, a fifth of the size: a run at
an unchanged HEAD reads only that. Only the record folders are diffed: a commit whose
folders' subtree ids equal its parent's is passed without reading anything below them, so the
cost follows the records' history, not the repository's. The same file keeps, per governed
path, the first-parent commits that changed it (`touching`), extended as HEAD moves on.
"""

from __future__ import annotations

import itertools
import json
import posixpath
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from adr_memory import records
from adr_memory.base import cache as cachedir
from adr_memory.base import ensure as ensure_cache
from adr_memory.base import globs, locked, write_atomic
from adr_memory.errors import AdrError, GitError
from adr_memory.history.folder import Folder
from adr_memory.history.gitwalk import Quiet, open_for
from adr_memory.history.objects import CommitInfo
from adr_memory.history.renames import is_record_path, sources
from adr_memory.history.repo import Repo
from adr_memory.records import catalog

CACHE_SCHEMA = 9  # 9: identical records moved together pair in path order; 8: the steps in a file of their own; 7: a status reason leaves out the records it names


@dataclass(frozen=True)
class Touch:
    """A first-parent commit in which a record's file changed (created, edited, moved)."""

    commit: CommitInfo
    path: str
    blob: str


@dataclass
class History:
    head: str | None
    touches: dict[str, list[Touch]] = field(default_factory=dict)  # HEAD path -> newest first
    truncated: bool = False  # a shallow clone ended the walk before every record's start
    stopped: bool = False  # the caller had what it needed; older commits were not read
    following: set[str] = field(default_factory=set)  # HEAD paths whose start was not reached
    cache: _Cache | None = field(default=None, repr=False, compare=False)
    git: Quiet | None = field(default=None, repr=False, compare=False)  # what git told a first walk
    # The chain, or how to get it: an answer read back builds it only when a caller asks.
    lazy_chain: list[str] | Callable[[], list[str]] = field(default_factory=list, repr=False, compare=False)

    @property
    def chain(self) -> list[str]:
        """First-parent shas from HEAD, as far as walked."""
        if callable(self.lazy_chain):
            self.lazy_chain = self.lazy_chain()
        return self.lazy_chain

    def position(self) -> dict[str, int]:
        """sha -> its distance from HEAD along the chain."""
        return {sha: i for i, sha in enumerate(self.chain)}


class Uncached(AdrError):
    """The walk would read more commits than its budget: the history is not cached yet."""

    def __init__(self, what: str) -> None:
        super().__init__(
            f"this clone's history is not read yet ({what} to go)",
            hint="`adr list --history` reads them once, in seconds, for every later run",
        )


# A step: (first parent, [[path, old blob, new blob], ...] of records, {new path: [old path, old blob]},
# index of the folder set it covered).
Step = tuple[str | None, list[list[Any]], dict[str, list[str]], int]


class _Cache:
    """What history says, keyed by object ids and so true for good: each commit's step, the
    commits that touched a governed prefix, the commits that touched a record (who, when, why)
    and what each record blob holds (`versions.summary`). A corrupt or foreign file is ignored
    and rewritten; an entry of the wrong shape is worked out again."""

    def __init__(self, folder: Folder) -> None:
        self.path = cachedir.entry(folder.cache_path, "history.json")
        self.steps_path = cachedir.entry(folder.cache_path, "steps.json")
        self.dirty = False  # history.json has news
        self.steps_dirty = False  # steps.json has news
        self._commits: dict[str, Any] | None = None  # read on first use: most runs never need them
        self._folder_sets: list[list[str]] = []
        self.counts: dict[str, Any] = {}
        self.info: dict[str, Any] = {}  # sha -> [tree, parents, author, timestamp, message]
        self.blobs: dict[str, Any] = {}  # "blob:path" -> a record's summary
        self.diffs: dict[str, Any] = {}  # "old tree new tree prefixes" -> paths that differ (for HEAD's tree only)
        self.ancestry: dict[str, Any] = {}  # "a b" -> whether commit a is an ancestor of commit b
        self.walks: dict[str, Any] = {}  # the newest whole walk's answer, keyed by what it depends on
        loaded = _read(self.path)
        if all(isinstance(loaded.get(k), dict) for k in ("counts", "info", "blobs", "diffs", "ancestry", "walks")):
            self.counts, self.info, self.blobs = loaded["counts"], loaded["info"], loaded["blobs"]
            self.diffs, self.ancestry, self.walks = loaded["diffs"], loaded["ancestry"], loaded["walks"]

    @property
    def commits(self) -> dict[str, Any]:
        """Each commit's step, by sha (see `Step`), read from disk on first use."""
        if self._commits is None:
            loaded = _read(self.steps_path)
            good = isinstance(loaded.get("commits"), dict) and _strings_lists(loaded.get("folders"))
            self._commits = loaded["commits"] if good else {}
            self._folder_sets = loaded["folders"] if good else []
        return self._commits

    @property
    def folder_sets(self) -> list[list[str]]:
        """The folder sets the steps were worked out for: a step names one by its index."""
        _ = self.commits
        return self._folder_sets

    def get(self, sha: str) -> Step | None:
        """A commit's cached step, or None when absent or of the wrong shape (then re-read)."""
        hit = self.commits.get(sha)
        if not (
            isinstance(hit, list)
            and len(hit) == 4
            and (hit[0] is None or isinstance(hit[0], str))
            and isinstance(hit[1], list)
            and all(_is_change(c) for c in hit[1])
            and isinstance(hit[2], dict)
            and all(_strings_lists([v]) and len(v) == 2 for v in hit[2].values())
            and isinstance(hit[3], int)
            and 0 <= hit[3] < len(self.folder_sets)
        ):
            return None
        return hit[0], hit[1], hit[2], hit[3]

    def put(
        self, sha: str, parent: str | None, changes: list[list[Any]], renames: dict[str, list[str]], folders: list[str]
    ) -> None:
        if folders not in self.folder_sets:
            self.folder_sets.append(folders)
        self.commits[sha] = [parent, changes, renames, self.folder_sets.index(folders)]
        self.steps_dirty = True

    def save(self) -> None:
        if not (self.dirty or self.steps_dirty):
            return
        try:
            ensure_cache(self.path.parent)
            with locked(cachedir.entry(self.path.parent, "history.lock")):
                if self.steps_dirty:
                    _write(self.steps_path, {"folders": self.folder_sets, "commits": self.commits})
                if self.dirty:
                    kept = ("counts", "info", "blobs", "diffs", "ancestry", "walks")
                    _write(self.path, {k: getattr(self, k) for k in kept})
            self.dirty = self.steps_dirty = False
        except (OSError, AdrError):
            pass  # a cache that cannot be written is only slower next time: the answer stands


def _read(path: Path) -> dict[str, Any]:
    """A cache file's content, or {} when it is missing, corrupt, foreign or of another schema."""
    try:
        loaded = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):  # a cache deep in nesting heals too
        return {}
    return loaded if isinstance(loaded, dict) and loaded.get("schema") == CACHE_SCHEMA else {}


def _write(path: Path, data: dict[str, Any]) -> None:
    write_atomic(path, json.dumps({"schema": CACHE_SCHEMA, **data}, separators=(",", ":")).encode())


def cache_of(folder: Folder) -> _Cache:
    """The history cache of the repository a command opened: read from disk once, shared by
    every reader of history in the command."""
    cache = memo(folder.repo)
    if cache is None:
        cache = folder.repo.kept["walk"] = _Cache(folder)
    return cache


def memo(repo: Repo) -> _Cache | None:
    """The cache a walk of this repository opened, if any."""
    found = repo.kept.get("walk")
    return found if isinstance(found, _Cache) else None


def keep(repo: Repo) -> None:
    """Write what this command learnt of the repository's history (summaries worked out after
    the walk saved, such as the versions `adr log` shows) for the next one."""
    cache = memo(repo)
    if cache is not None:
        cache.save()


def changed_paths(repo: Repo, cache: _Cache | None, old_tree: str, new_tree: str, prefixes: list[str]) -> set[str]:
    """`Repo.changed_paths`, remembered: staleness asks the same question of HEAD's tree on
    every run until HEAD moves. Only answers about the newest tree asked are kept."""
    if cache is None:
        return repo.changed_paths(old_tree, new_tree, prefixes)
    key = " ".join([old_tree, new_tree, *sorted(prefixes)])
    hit: Any = cache.diffs.get(key)
    if _strings_lists([hit]):
        return set(hit)
    found = repo.changed_paths(old_tree, new_tree, prefixes)
    if cache.diffs and next(iter(cache.diffs)).split(" ")[1:2] != [new_tree]:
        cache.diffs.clear()  # HEAD moved: what was said of its old tree is not asked again
    cache.diffs[key] = sorted(found)
    cache.dirty = True
    return found


def is_ancestor(repo: Repo, ancestor: str, descendant: str) -> bool:
    """`Repo.is_ancestor`, remembered: two commits' ancestry never changes, and anchors ask it
    of every review along a record's history."""
    cache = memo(repo)
    key = f"{ancestor} {descendant}"
    hit = cache.ancestry.get(key) if cache is not None else None
    if isinstance(hit, bool):
        return hit
    found = repo.is_ancestor(ancestor, descendant)
    if cache is not None:
        cache.ancestry[key], cache.dirty = found, True
    return found


def commit_info(repo: Repo, cache: _Cache, sha: str) -> CommitInfo:
    """A commit's author, date and message, from the cache when a run before read them."""
    hit = cache.info.get(sha)
    if (
        isinstance(hit, list)
        and len(hit) == 5
        and isinstance(hit[0], str)
        and _strings_lists([hit[1]])
        and isinstance(hit[2], str)
        and isinstance(hit[3], int)
        and isinstance(hit[4], str)
    ):
        return CommitInfo(sha, tuple(hit[1]), hit[0], hit[2], hit[3], hit[4])
    info = repo.commit(sha)
    cache.info[sha] = [info.tree, list(info.parents), info.author, info.timestamp, info.message]
    cache.dirty = True
    return info


def _strings_lists(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(v, list) and all(isinstance(s, str) for s in v) for v in value)


def _is_change(c: Any) -> bool:
    return (
        isinstance(c, list)
        and len(c) == 3
        and isinstance(c[0], str)
        and all(b is None or isinstance(b, str) for b in c[1:])
    )


def _candidate_dirs(folder: Folder) -> list[str]:
    here = catalog.git_folder(folder.adr_dir)
    return [here] if not here else list(dict.fromkeys([here, *records.CONVENTIONAL_DIRS]))


def _folders(base: list[str], tracked: Iterable[str]) -> list[str]:
    """The folders a step must diff: the record folders, and the folder of any record followed
    to outside them (one moved in from elsewhere)."""
    if "" in base:
        return [""]
    inside = tuple(d + "/" for d in base)
    return sorted(set(base) | {posixpath.dirname(p) for p in tracked if not p.startswith(inside)})


def _step(repo: Repo, cache: _Cache, sha: str, folders: list[str], quiet: Quiet | None = None) -> Step:
    """A commit's step, from the cache when it was worked out for these folders (or more); one
    git says changes nothing there, without reading it (history/gitwalk.py)."""
    hit = cache.get(sha)
    if hit is not None and set(folders) <= set(cache.folder_sets[hit[3]]):
        return hit
    if hit is not None:  # worked out for fewer folders: once more, for all of them
        folders = sorted(set(folders) | set(cache.folder_sets[hit[3]]))
    if quiet is not None and (passed := quiet.passed(sha, folders)) is not None:
        cache.put(sha, passed[0], [], {}, folders)
        return passed[0], [], {}, cache.folder_sets.index(folders)
    tree, parents = repo.skeleton(sha)
    parent = parents[0] if parents else None
    changes: list[list[Any]] = []
    renames: dict[str, list[str]] = {}
    if parent is not None:  # the root commit: what it holds is listed where needed
        before = repo.skeleton(parent)[0]
        told = quiet.changes(sha, folders) if quiet is not None else None
        found = repo.tree_changes(before, tree, folders) if told is None else told
        changes = [list(c) for c in found if is_record_path(c[0])]
        removed = None if quiet is None else (lambda: quiet.removed(sha, folders))
        renames = sources(repo, changes, before, tree, removed)
    cache.put(sha, parent, changes, renames, folders)
    return parent, changes, renames, cache.folder_sets.index(folders)


def walk(
    folder: Folder,
    *,
    stop_at: str | None = None,
    enough: Callable[[History], bool] | None = None,
    budget: int | None = None,
) -> History:
    """Every committed record's touches along HEAD's first-parent history, following renames
    and folder moves. Each commit's step is read once and then cached by its sha.

    The walk ends at the root, a shallow boundary or a missing object (`truncated`), or early
    (`stopped`): at the commit `stop_at`, or once `enough(history)` says the caller has what
    it needs. Where it ends, the oldest commit reached stands in for every older touch. With a
    `budget`, reading more than that many commits not in the cache raises Uncached.
    """
    repo = folder.repo
    head = repo.head()
    cache = cache_of(folder)
    history = History(head, cache=cache)
    if head is None:
        return history
    shallow = repo.shallow()
    base = _candidate_dirs(folder)
    head_tree = repo.skeleton(head)[0]
    blobs = {p: b for d in base for p, b in repo.files(head_tree, d, submodules=False) if is_record_path(p)}
    tracked = {p: p for p in blobs}  # path in the commit being looked at -> path at HEAD
    history.touches = {p: [] for p in blobs}
    whole = stop_at is None and enough is None
    key = " ".join([head, *base, *sorted(shallow)])  # all a whole walk's answer depends on
    # A whole walk's answer holds every touch, so it serves a caller that needs fewer too (`adr
    # stale` after `adr list`: no replay of thousands of cached steps to find the anchors).
    if stop_at is None and (known := _recall(folder, cache, key, set(blobs))) is not None:
        return known
    try:
        walked = _walk_from(folder, cache, history, head, stop_at, enough, budget, shallow, tracked, blobs, base)
    except KeyboardInterrupt:  # Ctrl-C on a long first read: what was read is kept for the next run
        cache.save()
        raise
    finally:
        if history.git is not None:  # what git was asked ahead and the walk never read: stopped
            history.git.settle()
    _sha, missing, fresh = walked
    if whole and not missing:
        _remember(cache, key, history)
    cache.save()
    if folder.progress and fresh:  # the end of what was read (a bar that never showed stays silent)
        folder.progress(fresh, fresh)
    return history


def _walk_from(
    folder: Folder,
    cache: _Cache,
    history: History,
    sha: str | None,
    stop_at: str | None,
    enough: Callable[[History], bool] | None,
    budget: int | None,
    shallow: set[str],
    tracked: dict[str, str],
    blobs: dict[str, str],
    base: list[str],
) -> tuple[str | None, bool, int]:
    """The walk's loop: (where it ended, whether a missing object ended it, commits read fresh)."""
    repo = folder.repo
    missing = False
    fresh = 0
    moved = shifted = True
    # git answers a long first read at once; a walk of cached steps needs none of it
    quiet = open_for(repo.git_dir(), sha) if sha is not None and sha not in cache.commits else None
    if quiet is not None:  # git read every commit's header: dulwich need not read them again
        quiet.prefetch(_folders(base, tracked))
        repo.know({c: s for c, s in quiet.skeletons().items() if c not in shallow})
        history.git = quiet
    changes: list[list[Any]]
    renames: dict[str, list[str]]
    folders = _folders(base, tracked)
    while sha is not None:
        history.chain.append(sha)
        if sha not in cache.commits:
            fresh += 1
            if budget is not None and fresh > budget:
                cache.save()  # what was read is kept: each run gets further
                raise Uncached(f"more than {budget:,} commits")
            if folder.progress and fresh % 250 == 0:
                folder.progress(fresh, None)
        if shifted:  # a record reached its start or its earlier path: what to follow changed
            history.following, folders = set(tracked.values()), _folders(base, tracked)
        if sha == stop_at or (enough is not None and moved and enough(history)):
            history.stopped, parent, changes, renames = True, None, [], {}
        elif sha in shallow:
            history.truncated, parent, changes, renames = True, None, [], {}
        else:
            try:
                parent, changes, renames, _ = _step(repo, cache, sha, folders, quiet)
            except GitError:  # a missing object ends the history here
                history.truncated, parent, changes, renames, missing = True, None, [], {}, True
        if parent is None:
            for path, head_path in tracked.items():  # the oldest commit reached holds them
                history.touches[head_path].append(Touch(commit_info(repo, cache, sha), path, blobs[path]))
            break
        moved, shifted = _follow(repo, cache, history, sha, changes, renames, tracked, blobs)
        sha = parent
    return sha, missing, fresh


def _remember(cache: _Cache, key: str, history: History) -> None:
    """Keep a whole walk's answer for the next run at the same HEAD: replaying thousands of
    cached steps costs more than reading the answer back. Only the newest is kept."""
    touches = {p: [[t.commit.sha, t.path, t.blob] for t in ts] for p, ts in history.touches.items()}
    cache.walks = {key: [touches, sorted(history.following), history.truncated, len(history.chain)]}
    cache.dirty = True


def _recall(folder: Folder, cache: _Cache, key: str, paths: set[str]) -> History | None:
    """A whole walk's answer kept by `_remember`, or None when absent or of the wrong shape.
    The chain is rebuilt from the cached steps' first parents when a caller first asks for it
    (showing a record's versions never does)."""
    hit = cache.walks.get(key)
    if not (isinstance(hit, list) and len(hit) == 4 and isinstance(hit[0], dict) and set(hit[0]) == paths):
        return None
    touches, following, truncated, length = hit
    if not (
        all(isinstance(ts, list) and all(_is_touch(t) for t in ts) for ts in touches.values())
        and all(isinstance(p, str) for p in following)
        and isinstance(truncated, bool)
        and isinstance(length, int)
        and length > 0
    ):
        return None
    head = key.split(" ", 1)[0]

    def chain() -> list[str]:
        rebuilt = _chain(cache, head, length)
        if rebuilt is None:  # a step it stood on is gone: walk again, and keep the new answer
            cache.walks.clear()
            rebuilt = walk(folder).chain
        return rebuilt

    history = History(head, truncated=truncated, following=set(following), cache=cache, lazy_chain=chain)
    history.touches = {
        p: [Touch(commit_info(folder.repo, cache, sha), path, blob) for sha, path, blob in ts]
        for p, ts in touches.items()
    }
    return history


def _chain(cache: _Cache, head: str, length: int) -> list[str] | None:
    """The first `length` commits of HEAD's first-parent chain, from the cached steps; None
    when one of them is gone."""
    chain: list[str] = []
    sha: Any = head
    while len(chain) < length:
        chain.append(sha)
        step = cache.commits.get(sha)
        sha = step[0] if isinstance(step, list) and step else None
        if not isinstance(sha, str) and len(chain) < length:
            return None
    return chain


def _is_touch(t: Any) -> bool:
    return isinstance(t, list) and len(t) == 3 and all(isinstance(s, str) for s in t)


def _follow(
    repo: Repo,
    cache: _Cache,
    history: History,
    sha: str,
    changes: list[list[Any]],
    renames: dict[str, list[str]],
    tracked: dict[str, str],
    blobs: dict[str, str],
) -> tuple[bool, bool]:
    """Move tracked records from a commit to its parent, noting where their file changed:
    whether any was touched, and whether any was created or moved here (the paths followed
    changed)."""
    here = [c for c in changes if c[0] in tracked]
    shifted = False
    for path, old, _new in here:
        head_path, blob = tracked.pop(path), blobs.pop(path)
        source = renames.get(path) if old is None else [path, old]
        if source is None or source[1] != blob:  # created, edited, or moved with an edit
            history.touches[head_path].append(Touch(commit_info(repo, cache, sha), path, blob))
        if source is not None:
            tracked[source[0]], blobs[source[0]] = head_path, source[1]
        shifted = shifted or source is None or source[0] != path
    return bool(here), shifted


# ---------------------------------------------------------------------------- governed paths


def touching(repo: Repo, history: History, limits: dict[str, int]) -> dict[str, dict[int, list[str]]]:
    """For each governed prefix, the commits among the newest `limit` of the chain that changed
    files under it against their first parent: prefix -> {position: those files}.

    One pass over the chain answers every prefix, and a commit whose subtrees at the prefixes
    equal its parent's is passed after reading its root tree. What was learnt is kept, per
    prefix, and extended when HEAD moves on (a chain that no longer holds it is read again).
    """
    position = history.position()
    counts = history.cache.counts if history.cache is not None else {}
    hits: dict[str, dict[str, list[str]]] = {}
    todo: dict[str, list[range]] = {}  # prefix -> the ranges of positions still to read
    for prefix, limit in limits.items():
        entry: Any = counts.get(prefix)
        if _is_count(entry) and entry[0] in position:
            top, done = position[entry[0]], position[entry[0]] + entry[1]
            hits[prefix], todo[prefix] = dict(entry[2]), [range(top), range(done, limit)]
        else:
            hits[prefix], todo[prefix] = {}, [range(limit)]
    bounds = sorted({end for ranges in todo.values() for r in ranges for end in (r.start, r.stop)})
    for low, high in itertools.pairwise(bounds):  # the prefixes wanted are the same all along a segment
        wanted = [p for p, ranges in todo.items() if any(r.start <= low < r.stop for r in ranges)]
        asked = set(wanted)
        for sha in history.chain[low:high] if wanted else ():
            tree, parents = repo.skeleton(sha)
            for path, _, _ in repo.tree_changes(repo.skeleton(parents[0])[0], tree, wanted) if parents else ():
                # The prefixes a path lies under are its own folders (and itself, and ""): looked
                # up, not tried one by one (20,000 globs and 2,000 changed files were 40 million tests).
                for prefix in globs.under(path) & asked:
                    hits[prefix].setdefault(sha, []).append(path)
    for prefix, ranges in todo.items():
        if history.cache is not None and history.chain and any(ranges):
            counts[prefix] = [history.chain[0], max(ranges[-1].stop, limits[prefix]), hits[prefix]]
            history.cache.dirty = True
    return {
        prefix: {
            position[sha]: paths for sha, paths in found.items() if position.get(sha, limits[prefix]) < limits[prefix]
        }
        for prefix, found in hits.items()
    }


def _is_count(entry: Any) -> bool:
    return (
        isinstance(entry, list)
        and len(entry) == 3
        and isinstance(entry[0], str)
        and isinstance(entry[1], int)
        and isinstance(entry[2], dict)
        and _strings_lists(list(entry[2].values()))
    )
