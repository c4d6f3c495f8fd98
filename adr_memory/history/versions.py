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
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from adr_memory import records
from adr_memory.base import ensure as ensure_cache
from adr_memory.base import locked, write_atomic
from adr_memory.errors import AdrError, GitError, TooLarge
from adr_memory.history.objects import CommitInfo
from adr_memory.history.repo import Repo
from adr_memory.history.workspace import Workspace
from adr_memory.records import Problem, Record, catalog, languages, rst

CACHE_SCHEMA = 2


# ---------------------------------------------------------------------------- identity


def content_lines(body: str) -> list[str]:
    """The body without what lifecycle commands write in body-status records (adr-tools,
    MADR 2/3, Tendermint): the `## Status` section with its link lines, a `## Status: x`
    heading, and the status and date a record states before its first section
    (`record.without_lifecycle`). What is left is the decision's content."""
    lines = body.split("\n")
    # `## x` lines wherever they are (fenced code included, as digests have always read them),
    # and setext section titles (`Status` over `------`).
    heads = {i: heading for i, line in enumerate(lines) if (heading := _section_heading(line))}
    if _SETEXT_RULE.search(body):
        heads.update(
            {h.first: (h.level, h.text) for h in records.md_headings(lines) if h.end - h.first == 2 and h.level > 1}
        )
    first = min(heads, default=len(lines))
    out = records.without_lifecycle(lines[:first])
    skipping_level = 0  # inside a status section of this heading level
    fields = False  # inside a Metadata section: its status and date lines are lifecycle too
    for i, line in enumerate(lines[first:], start=first):
        heading = heads.get(i)
        if heading:
            level, text = heading
            if skipping_level and level > skipping_level:
                continue
            skipping_level = level if languages.is_status_heading(text) else 0
            fields = records.is_metadata_heading(text)
            if skipping_level or records.heading_status(text):
                continue
        elif skipping_level or (fields and not records.without_lifecycle([line])):
            continue
        out.append(line.rstrip())
    return out


_RST_LIFECYCLE = re.compile(r":(?:status|date):", re.IGNORECASE)  # a field list's, as `Status:` lines are


def rst_content_lines(body: str) -> list[str]:
    """`content_lines` for a reStructuredText record: the same parts left out, its section
    titles found as reStructuredText writes them."""
    lines = body.split("\n")
    _title, sections = rst.split_title(rst.headings(lines))
    before = lines[: sections[0].first] if sections else lines
    out = records.without_lifecycle([line for line in before if not _RST_LIFECYCLE.match(line)])
    skipping_level = 0
    for n, head in enumerate(sections):
        if skipping_level and head.level > skipping_level:
            continue
        skipping_level = head.level if languages.is_status_heading(head.text) else 0
        if skipping_level:
            continue
        end = sections[n + 1].first if n + 1 < len(sections) else len(lines)
        # A `Status: x` title is lifecycle, its section's text content, as in markdown.
        start = head.end if records.heading_status(head.text) else head.first
        out.extend(line.rstrip() for line in lines[start:end])
    return out


_SETEXT_RULE = re.compile(r"^ {0,3}(?:-{3,}|={3,})[ \t]*$", re.MULTILINE)


def _section_heading(line: str) -> tuple[int, str] | None:
    heading = records.atx_heading(line) if line.lstrip(" ")[:1] == "#" else None
    return heading if heading and heading[0] > 1 else None


def digest(rec: Record) -> str:
    """sha256 of the canonical content: title, governs, rules, body.

    Lifecycle fields (status, superseded-by, reviewed, date) are not content in any format:
    accepting, deprecating or linking a decision is not a new version. Line endings and
    trailing whitespace are normalised.
    """
    body = "\n".join((rst_content_lines if records.is_rst(rec.path) else content_lines)(rec.body)).strip("\n")
    canonical = json.dumps(
        {"title": rec.title, "governs": list(rec.governs), "rules": list(rec.rules), "body": body},
        sort_keys=True,
        ensure_ascii=False,
        default=str,
    )
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
    stopped: bool = False  # the caller had what it needed; older commits were not read
    following: set[str] = field(default_factory=set)  # HEAD paths whose start was not reached
    chain: list[str] = field(default_factory=list)  # first-parent shas from HEAD, as far as walked
    changes: dict[str, list[str]] = field(default_factory=dict)  # sha -> paths changed vs parent


class _Cache:
    """Per-commit facts (first parent, files changed against it): immutable, so cached by sha.
    A corrupt or foreign file is ignored and rewritten."""

    def __init__(self, ws: Workspace) -> None:
        self.path = ws.cache_path / "history.json"
        self.dirty = False
        self.commits: dict[str, Any] = {}
        try:
            loaded = json.loads(self.path.read_text(encoding="utf-8"))
            if loaded.get("schema") == CACHE_SCHEMA and isinstance(loaded.get("commits"), dict):
                self.commits = loaded["commits"]
        except (OSError, ValueError, AttributeError, RecursionError):  # a cache deep in nesting heals too
            pass

    def get(self, sha: str) -> tuple[str | None, list[list[Any]]] | None:
        """A commit's cached facts, or None when absent or of the wrong shape (then re-read)."""
        hit = self.commits.get(sha)
        if not (
            isinstance(hit, list)
            and len(hit) == 2
            and (hit[0] is None or isinstance(hit[0], str))
            and isinstance(hit[1], list)
            and all(
                isinstance(c, list)
                and len(c) == 3
                and isinstance(c[0], str)
                and all(b is None or isinstance(b, str) for b in c[1:])
                for c in hit[1]
            )
        ):
            return None
        return hit[0], hit[1]

    def save(self) -> None:
        if not self.dirty:
            return
        try:
            ensure_cache(self.path.parent)
            with locked(self.path.with_suffix(".lock")):
                data = {"schema": CACHE_SCHEMA, "commits": self.commits}
                write_atomic(self.path, json.dumps(data, separators=(",", ":")).encode())
        except (OSError, AdrError):
            pass  # a cache that cannot be written is only slower next time: the answer stands


def _candidate_dirs(ws: Workspace) -> list[str]:
    here = catalog.git_folder(ws.adr_dir)
    return [here] if not here else list(dict.fromkeys([here, *records.CONVENTIONAL_DIRS]))


def _is_record_path(path: str) -> bool:
    return catalog.may_be_record(records.record_name(path)) and "/templates/" not in f"/{path}"


def _step(repo: Repo, cache: _Cache, sha: str) -> tuple[str | None, list[list[Any]]]:
    """(first parent, [[path, old blob, new blob], ...]) for a commit; from the cache if known."""
    hit = cache.get(sha)
    if hit is not None:
        return hit
    info = repo.commit(sha)
    parent = info.parents[0] if info.parents else None
    if parent is None:
        changes: list[list[Any]] = []  # the root commit: what it holds is listed where needed
    else:
        changes = [list(c) for c in repo.tree_changes(repo.commit(parent).tree, info.tree)]
    cache.commits[sha] = [parent, changes]
    cache.dirty = True
    return parent, changes


def walk(ws: Workspace, *, stop_at: str | None = None, enough: Callable[[History], bool] | None = None) -> History:
    """Every committed record's touches along HEAD's first-parent history, following renames
    and folder moves. Each commit's changes are read once and then cached by its sha.

    The walk ends at the root, a shallow boundary or a missing object (`truncated`), or early
    (`stopped`): at the commit `stop_at`, or once `enough(history)` says the caller has what
    it needs. Where it ends, the oldest commit reached stands in for every older touch.
    """
    repo = ws.repo
    head = repo.head()
    history = History(head)
    if head is None:
        return history
    cache = _Cache(ws)
    changes: list[list[Any]]
    shallow = repo.shallow()
    head_tree = repo.commit(head).tree
    blobs = {
        p: b for d in _candidate_dirs(ws) for p, b in repo.files(head_tree, d, submodules=False) if _is_record_path(p)
    }
    tracked = {p: p for p in blobs}  # path in the commit being looked at -> path at HEAD
    history.touches = {p: [] for p in blobs}
    sha: str | None = head
    fresh = 0  # commits read from git rather than the cache: only those are slow
    while sha is not None:
        history.chain.append(sha)
        if ws.progress and sha not in cache.commits:
            fresh += 1
            if fresh % 250 == 0:
                ws.progress(fresh, None)
        history.following = set(tracked.values())
        if sha == stop_at or (enough is not None and enough(history)):
            history.stopped, parent, changes = True, None, []
        elif sha in shallow:
            history.truncated, parent, changes = True, None, []
        else:
            try:
                parent, changes = _step(repo, cache, sha)
            except GitError:  # a missing object ends the history here
                history.truncated, parent, changes = True, None, []
        history.changes[sha] = [c[0] for c in changes]
        if parent is None:
            for path, head_path in tracked.items():  # the oldest commit reached holds them
                history.touches[head_path].append(Touch(repo.commit(sha), path, blobs[path]))
            break
        if tracked:
            _follow(repo, history, sha, changes, tracked, blobs)
        sha = parent
    cache.save()
    if ws.progress and fresh >= 250:
        ws.progress(fresh, fresh)
    return history


def _follow(
    repo: Repo, history: History, sha: str, changes: list[list[Any]], tracked: dict[str, str], blobs: dict[str, str]
) -> None:
    """Move tracked records from a commit to its parent, noting where their file changed."""
    by_path = {c[0]: (c[1], c[2]) for c in changes if _is_record_path(c[0])}
    if not by_path:
        return
    gone = [p for p, (old, new) in by_path.items() if new is None and old is not None]
    claimed: set[str] = set()
    for path in [p for p in tracked if p in by_path]:
        head_path = tracked.pop(path)
        old, _new = by_path[path]
        blob = blobs.pop(path)
        if old is not None:  # modified here; same path in the parent
            history.touches[head_path].append(Touch(repo.commit(sha), path, blob))
            tracked[path], blobs[path] = head_path, old
            continue
        source = _rename_source(repo, blob, gone, by_path, claimed)
        if source is None or by_path[source][0] != blob:
            history.touches[head_path].append(Touch(repo.commit(sha), path, blob))
        if source is not None:
            claimed.add(source)
            tracked[source], blobs[source] = head_path, by_path[source][0]


def _rename_source(
    repo: Repo, blob: str, gone: list[str], by_path: dict[str, tuple[Any, Any]], claimed: set[str]
) -> str | None:
    """Where a file came from when its path is new: same content, else the most similar."""
    candidates = [p for p in gone if p not in claimed]
    for candidate in candidates:
        if by_path[candidate][0] == blob:
            return candidate
    if not candidates:
        return None
    text = _text(repo, blob)
    best, best_ratio = None, 0.0
    for candidate in candidates:
        other = _text(repo, by_path[candidate][0])
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
    author: str = ""  # who committed the change ("" for an uncommitted one)
    reason: str = ""  # why, as the record says it (`status-reason`, or the status text)


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
                previous = _with_transition(previous, touch, old)
                out[-1] = previous
            continue
        vid = version_id(rec.id, d, previous.version_id if previous else None)
        previous = Version(
            vid,
            d,
            touch.commit.sha,
            touch.commit.author,
            touch.commit.timestamp,
            touch.commit.subject,
            old.status,
            touch.path,
        )
        out.append(previous)
    current = digest(rec)
    if previous is None or current != previous.digest:
        vid = version_id(rec.id, current, previous.version_id if previous else None)
        out.append(Version(vid, current, None, None, None, None, rec.status, rec.path, draft=True))
    elif rec.status != _latest_status(previous):
        out[-1] = _with_transition(previous, None, rec)
    return list(reversed(out))


def _latest_status(version: Version) -> str:
    return version.transitions[-1].after if version.transitions else version.status


def _with_transition(version: Version, touch: Touch | None, rec: Record) -> Version:
    last = _latest_status(version)
    step = Transition(
        touch.commit.sha if touch else "",
        touch.commit.timestamp if touch else 0,
        last,
        rec.status,
        touch.commit.author if touch else "",
        rec.status_reason,
    )
    return replace(version, transitions=version.transitions + (step,))


def _parse_blob(repo: Repo, touch: Touch) -> Record:
    return catalog.parse_bytes(touch.path, _record_bytes(repo, touch.blob))


def _record_bytes(repo: Repo, blob: str) -> bytes | Problem:
    """A record's bytes from git; a blob over a record's size is a problem, left uninflated."""
    try:
        return repo.blob(blob, limit=catalog.MAX_BYTES)
    except TooLarge as exc:
        return catalog.too_large(exc.size)


def _text(repo: Repo, blob: str) -> str:
    """A candidate rename source's text; "" when it has none to compare (too large, or not in
    the store: a submodule's commit lives in another repository)."""
    try:
        data = _record_bytes(repo, blob)
    except GitError:
        return ""
    return data.decode("utf-8", "replace") if isinstance(data, bytes) else ""


def version_ref(ws: Workspace, rec: Record, ref: str, history: History) -> Version:
    """A version by version id (`v1a2b...`), by number from the oldest (`v1`), or by commit."""
    listed = versions(ws, rec, history)
    oldest_first = list(reversed(listed))
    if re.fullmatch(r"v\d{1,4}", ref):
        index = int(ref[1:]) - 1
        if 0 <= index < len(oldest_first):
            return oldest_first[index]
    for version in listed:
        if version.version_id == ref or (version.version_id.startswith(ref) and len(ref) >= 5):
            return version
    from adr_memory.errors import UsageError

    if re.fullmatch(r"v[0-9a-f]{1,12}", ref):  # looks like a version, not a commit
        raise UsageError(f"{rec.id} has no version {ref!r}", hint=f"`adr log {rec.id}` lists them")
    sha = ws.repo.resolve(ref)
    for version in oldest_first[::-1]:
        if version.commit and ws.repo.is_ancestor(version.commit, sha):
            return version
    raise UsageError(f"{rec.id} has no version {ref!r}", hint=f"`adr log {rec.id}` lists them")


def content_at(ws: Workspace, version: Version) -> Record:
    if version.commit is None:
        return ws.catalog.get(version.path)
    try:
        data: bytes | Problem = ws.repo.read(version.commit, version.path, limit=catalog.MAX_BYTES) or b""
    except TooLarge as exc:
        data = catalog.too_large(exc.size)
    return catalog.parse_bytes(version.path, data)


def catalog_at(ws: Workspace, ref: str) -> catalog.Catalog:
    """The catalog as it was at a commit (`--at REF`)."""
    repo = ws.repo
    tree = repo.commit(repo.resolve(ref)).tree
    files = (
        (path, _record_bytes(repo, blob))
        for path, blob in repo.files(tree, catalog.git_folder(ws.adr_dir), submodules=False)
        if catalog.may_hold(ws.adr_dir, path)
    )
    return catalog.from_files(ws.adr_dir, files)
