"""Versions: one per distinct content digest along a record's first-parent history.

The walk compares the ADR folders' subtree ids between each commit and its first parent and
only reads the commits where they differ. What it learns is immutable (keyed by commit, tree
and blob ids), so it is cached in `.adr-cache/history.json` and a later run reads only new
commits.
"""

from __future__ import annotations

import difflib
import hashlib
import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from adr_memory import catalog, record
from adr_memory.files import locked, write_atomic
from adr_memory.record import Record
from adr_memory.repo import CommitInfo, Repo
from adr_memory.workspace import Workspace

CACHE_SCHEMA = 1


# ---------------------------------------------------------------------------- identity


def digest(rec: Record) -> str:
    """sha256 of the canonical content: title, governs, rules, body.

    Lifecycle fields (status, superseded-by, reviewed, date) are not content: accepting a
    decision is not a new version. Line endings and trailing whitespace are normalised.
    """
    body = "\n".join(line.rstrip() for line in rec.body.split("\n")).strip("\n")
    canonical = json.dumps({"title": rec.title, "governs": list(rec.governs),
                            "rules": list(rec.rules), "body": body},
                           sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def version_id(decision_id: str, content_digest: str, previous: str | None) -> str:
    seed = f"{decision_id}\0{content_digest}\0{previous or ''}"
    return "v" + hashlib.sha256(seed.encode("utf-8")).hexdigest()[:12]


# ---------------------------------------------------------------------------- the walk


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


class _Cache:
    """Immutable facts keyed by git object ids; a corrupt file is simply ignored."""

    def __init__(self, ws: Workspace) -> None:
        self.path = ws.cache_path / "history.json"
        self.dirty = False
        self.data: dict[str, Any] = {"schema": CACHE_SCHEMA, "keys": {}, "sets": {}, "digests": {}}
        try:
            loaded = json.loads(self.path.read_text(encoding="utf-8"))
            if loaded.get("schema") == CACHE_SCHEMA:
                self.data = loaded
        except (OSError, ValueError, AttributeError):
            pass

    def save(self) -> None:
        if not self.dirty:
            return
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with locked(self.path.with_suffix(".lock")):
                write_atomic(self.path, json.dumps(self.data, separators=(",", ":")).encode())
        except Exception:  # noqa: BLE001 - the cache is an optimisation; never fail a command
            pass


def _candidate_dirs(ws: Workspace) -> list[str]:
    dirs = [ws.adr_dir, *catalog.CONVENTIONAL_DIRS]
    return list(dict.fromkeys(d for d in dirs if d))


def _key(repo: Repo, cache: _Cache, info: CommitInfo, dirs: list[str]) -> list[str | None]:
    """The subtree ids of the candidate ADR folders at a commit (cached per commit)."""
    cached = cache.data["keys"].get(info.sha)
    if cached is not None and len(cached) == len(dirs):
        return list(cached)
    key = [repo.subtree(info.tree, d) for d in dirs]
    cache.data["keys"][info.sha] = key
    cache.dirty = True
    return key


def _record_set(repo: Repo, cache: _Cache, key: list[str | None], dirs: list[str]) -> dict[str, str]:
    """path -> blob id of every record file in the folders named by `key`."""
    files: dict[str, str] = {}
    for subtree, folder in zip(key, dirs):
        if subtree is None:
            continue
        listed = cache.data["sets"].get(subtree)
        if listed is None:
            listed = dict(_relative_files(repo, subtree))
            cache.data["sets"][subtree] = listed
            cache.dirty = True
        for rel, blob in listed.items():
            files.setdefault(f"{folder}/{rel}", blob)
    return files


def _relative_files(repo: Repo, tree: str) -> Iterable[tuple[str, str]]:
    for path, blob in repo.tree_files(tree):
        name = path.rsplit("/", 1)[-1]
        if catalog.is_record_name(name) and "/templates/" not in f"/{path}":
            yield path, blob


def walk(ws: Workspace) -> History:
    """Every committed record's touches along HEAD's first-parent history, following renames."""
    repo = ws.repo
    head = repo.head()
    history = History(head)
    if head is None:
        return history
    cache = _Cache(ws)
    dirs = _candidate_dirs(ws)
    shallow = repo.shallow()
    commits = repo.first_parents(head)
    child = next(commits)
    child_key = _key(repo, cache, child, dirs)
    child_set = _record_set(repo, cache, child_key, dirs)
    tracked = {p: p for p in child_set}  # path in the commit being looked at -> path at HEAD
    for path in tracked:
        history.touches[path] = []
    while tracked:
        parent = _next(commits, child, shallow)
        if parent is None:
            if child.parents:  # the walk stopped at a shallow boundary, not at the root
                history.truncated = True
            for path, head_path in tracked.items():
                history.touches[head_path].append(Touch(child, path, child_set[path]))
            break
        parent_key = _key(repo, cache, parent, dirs)
        if parent_key != child_key:
            parent_set = _record_set(repo, cache, parent_key, dirs)
            tracked = _step(repo, history, child, child_set, parent_set, tracked)
            child_set = parent_set
        child, child_key = parent, parent_key
    cache.save()
    return history


def _next(commits: Iterable[CommitInfo], child: CommitInfo, shallow: set[str]) -> CommitInfo | None:
    if not child.parents or child.sha in shallow:
        return None
    try:
        return next(iter(commits))
    except StopIteration:
        return None
    except Exception:  # noqa: BLE001 - a missing parent object: history ends here
        return None


def _step(repo: Repo, history: History, child: CommitInfo, child_set: dict[str, str],
          parent_set: dict[str, str], tracked: dict[str, str]) -> dict[str, str]:
    """Move the tracked records from a commit to its parent, noting where they changed."""
    still: dict[str, str] = {}
    gone = [p for p in parent_set if p not in child_set]
    claimed: set[str] = set()
    for path, head_path in tracked.items():
        blob = child_set[path]
        source = path if path in parent_set else _rename_source(repo, path, blob, gone, parent_set,
                                                                 claimed)
        if source is None or parent_set[source] != blob:
            history.touches[head_path].append(Touch(child, path, blob))
        if source is not None:
            claimed.add(source)
            still[source] = head_path
    return still


def _rename_source(repo: Repo, path: str, blob: str, gone: list[str], parent_set: dict[str, str],
                   claimed: set[str]) -> str | None:
    """Where a file came from when its path is new: same content, else the most similar."""
    candidates = [p for p in gone if p not in claimed]
    for candidate in candidates:
        if parent_set[candidate] == blob:
            return candidate
    if not candidates:
        return None
    text = repo.blob(blob).decode("utf-8", "replace")
    best, best_ratio = None, 0.0
    for candidate in candidates:
        other = repo.blob(parent_set[candidate]).decode("utf-8", "replace")
        ratio = difflib.SequenceMatcher(None, text, other, autojunk=False).quick_ratio()
        if ratio > best_ratio:
            best, best_ratio = candidate, ratio
    return best if best_ratio >= 0.6 else None


# ---------------------------------------------------------------------------- versions


@dataclass(frozen=True)
class Transition:
    commit: str
    date: int
    before: str
    after: str


@dataclass(frozen=True)
class Version:
    version_id: str
    digest: str
    commit: str | None  # None for the uncommitted draft
    author: str | None
    date: int | None
    message: str | None
    status: str
    path: str
    draft: bool = False
    transitions: tuple[Transition, ...] = ()


def versions(ws: Workspace, rec: Record, history: History | None = None) -> list[Version]:
    """The record's versions, newest first; a draft on top when the work tree differs."""
    history = history if history is not None else walk(ws)
    touches = list(reversed(history.touches.get(rec.path, [])))  # oldest first
    out: list[Version] = []
    previous: Version | None = None
    cache: dict[str, Record] = {}
    for touch in touches:
        old = cache.get(touch.blob) or _parse_blob(ws.repo, touch)
        cache[touch.blob] = old
        d = digest(old)
        if previous is not None and d == previous.digest:
            if old.status != _latest_status(previous):
                previous = _with_transition(previous, touch, old.status)
                out[-1] = previous
            continue
        vid = version_id(rec.id, d, previous.version_id if previous else None)
        previous = Version(vid, d, touch.commit.sha, touch.commit.author, touch.commit.timestamp,
                           touch.commit.subject, old.status, touch.path)
        out.append(previous)
    current = digest(rec)
    if previous is None or current != previous.digest:
        vid = version_id(rec.id, current, previous.version_id if previous else None)
        out.append(Version(vid, current, None, None, None, None, rec.status, rec.path, draft=True))
    elif rec.status != _latest_status(previous):
        out[-1] = _with_transition(previous, None, rec.status)
    return list(reversed(out))


def _latest_status(version: Version) -> str:
    return version.transitions[-1].after if version.transitions else version.status


def _with_transition(version: Version, touch: Touch | None, status: str) -> Version:
    last = _latest_status(version)
    step = Transition(touch.commit.sha if touch else "", touch.commit.timestamp if touch else 0,
                      last, status)
    from dataclasses import replace

    return replace(version, transitions=version.transitions + (step,))


def _parse_blob(repo: Repo, touch: Touch) -> Record:
    return catalog.parse_bytes(touch.path, repo.blob(touch.blob))


def current_version_id(ws: Workspace, rec: Record, history: History) -> str:
    return versions(ws, rec, history)[0].version_id


def first_recorded(rec: Record, history: History) -> str | None:
    """The date the decision was first recorded: its own `date`, else its first commit's date."""
    if rec.date:
        return rec.date
    touches = history.touches.get(rec.path)
    if not touches:
        return None
    import datetime as dt

    return dt.datetime.fromtimestamp(touches[-1].commit.timestamp, dt.timezone.utc).date().isoformat()


def version_ref(ws: Workspace, rec: Record, ref: str, history: History) -> Version:
    """A version by version id (`v1a2b...`), by number from the oldest (`v1`), or by commit."""
    listed = versions(ws, rec, history)
    oldest_first = list(reversed(listed))
    if re.fullmatch(r"v\d{1,4}", ref):
        index = int(ref[1:]) - 1
        if 0 <= index < len(oldest_first):
            return oldest_first[index]
    for version in listed:
        if version.version_id == ref or version.version_id.startswith(ref) and len(ref) >= 5:
            return version
    sha = ws.repo.resolve(ref)
    for version in oldest_first[::-1]:
        if version.commit and ws.repo.is_ancestor(version.commit, sha):
            return version
    from adr_memory.errors import UsageError

    raise UsageError(f"{rec.id} has no version {ref!r}", hint=f"`adr log {rec.id}` lists them")


def content_at(ws: Workspace, version: Version) -> Record:
    if version.commit is None:
        return ws.catalog.get(version.path)
    data = ws.repo.read(version.commit, version.path)
    return catalog.parse_bytes(version.path, data or b"")


def catalog_at(ws: Workspace, ref: str) -> catalog.Catalog:
    """The catalog as it was at a commit (`--at REF`)."""
    repo = ws.repo
    tree = repo.commit(repo.resolve(ref)).tree
    files = ((path, repo.blob(blob)) for path, blob in repo.files(tree, ws.adr_dir)
             if catalog.is_record_name(path.rsplit("/", 1)[-1]) and "/templates/" not in path)
    return catalog.from_files(ws.adr_dir, files)
