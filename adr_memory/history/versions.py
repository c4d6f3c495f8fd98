"""Versions: one per distinct content digest along a record's first-parent history (the
walk in `walk` finds where a record's file changed; here those touches become versions)."""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, replace

from adr_memory import records
from adr_memory.errors import AdrError, GitError, TooLarge
from adr_memory.history.folder import Folder
from adr_memory.history.objects import CommitInfo
from adr_memory.history.renames import record_bytes
from adr_memory.history.repo import Repo
from adr_memory.history.walk import History, Touch, Uncached, memo, walk
from adr_memory.records import Problem, Record, catalog, languages, rst

__all__ = ["History", "Touch", "Transition", "Version", "digest", "version_ref", "versions", "walk"]


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


# ---------------------------------------------------------------------------- versions


@dataclass(frozen=True)
class Transition:
    commit: str
    date: int
    before: str
    after: str
    author: str = ""  # who made the change ("" for an uncommitted one): a merged branch's author
    reason: str = ""  # why, as the record says it (`status-reason`, or the status text)
    written_in: str | None = None  # a merged branch's commit that made it (`commit`: the merge)


MISSING = "missing:"  # a digest for a version whose blob this clone lacks: then its blob id


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
    # A version that reached the main line in a merge: the commit on the merged branch that
    # wrote it, whose author and date the version carries (`commit` stays the merge).
    written_in: str | None = None
    reviews: tuple[Review, ...] = ()  # `adr affirm`s committed while this version held, oldest first

    @property
    def unknown(self) -> bool:
        """Whether this clone lacks the version's content (its blob missing or damaged)."""
        return self.digest.startswith(MISSING)


@dataclass(frozen=True)
class Review:
    """A review committed (`adr affirm`): who, when, and the note it left."""

    commit: str
    date: int
    author: str
    note: str
    written_in: str | None = None  # a merged branch's commit that made it (`commit`: the merge)


MAX_BRANCH = 1_000  # commits of a merged branch searched for the one that wrote a version


def written_in(repo: Repo, history: History, touch: Touch) -> CommitInfo:
    """The commit that wrote what `touch` brought: itself, or, when it is a merge, the newest
    commit along the merged branch whose file already held these bytes while its parent's did
    not (as `git log --follow` without `--first-parent` credits it). Remembered by blob."""
    return made_in(repo, history, touch, "blob")


def made_in(repo: Repo, history: History, touch: Touch, aspect: str) -> CommitInfo:
    """The commit that made what `touch` brought to one `aspect` of the record (`status`,
    `reviewed`, `links`, `digest`): itself, or, when it is a merge, the newest commit along the
    merged branch that held this value while its parent did not. A merge bringing a branch's
    acceptance, review and link at once credits each to the commit that made it (ADR-0101)."""
    merge = touch.commit
    if len(merge.parents) < 2:
        return merge
    cache = history.cache
    key = f"made:{aspect}:{merge.sha}:{touch.path}:{touch.blob}"
    hit = cache.blobs.get(key) if cache is not None else None
    if not isinstance(hit, str):
        try:
            hit = _maker_on_branch(repo, history, merge, touch, aspect) or merge.sha
        except GitError:  # the branch's commits are not in this clone (shallow, partial): the merge it is
            hit = merge.sha
        if cache is not None:
            cache.blobs[key], cache.dirty = hit, True
    try:
        return repo.commit(hit)
    except AdrError:
        return merge


def _aspect(repo: Repo, touch: Touch, aspect: str) -> str:
    if aspect == "blob":
        return touch.blob
    if aspect == "links":
        return json.dumps(sorted(f"{link.rel} {link.target}" for link in _parse_blob(repo, touch).links))
    return str(getattr(summary(repo, touch), aspect))


def _maker_on_branch(repo: Repo, history: History, merge: CommitInfo, touch: Touch, aspect: str) -> str | None:
    wanted = _aspect(repo, touch, aspect)

    def value(tree: str) -> str | None:
        found = repo.lookup(tree, touch.path)
        return of(None if found is None else found[1])

    def of(blob: str | None) -> str | None:
        return None if blob is None else _aspect(repo, replace(touch, blob=blob), aspect)

    sha: str | None = merge.parents[1]
    # git told a first walk what each merge changes against its branch: the tip's blob, unread
    told = history.git.at_second_parent(merge.sha, touch.path, touch.blob) if history.git is not None else None
    if told is not None and of(told[0]) != wanted:
        return None
    for _ in range(MAX_BRANCH):
        if sha is None:
            return None
        tree, parents = repo.skeleton(sha)
        if (told is None or sha != merge.parents[1]) and value(tree) != wanted:
            return None  # the branch never held it: the merge made it
        if not parents or value(repo.skeleton(parents[0])[0]) != wanted:
            return sha
        sha = parents[0]
    return None


def versions(folder: Folder, rec: Record, history: History | None = None) -> list[Version]:
    """The record's versions, newest first; a draft on top when the work tree differs."""
    history = history if history is not None else walk(folder)
    touches = list(reversed(history.touches.get(rec.path, [])))  # oldest first
    out: list[Version] = []
    previous: Version | None = None
    reviewed = "null"
    for touch in touches:
        old = summary(folder.repo, touch)
        if previous is not None and old.digest == previous.digest:
            # Credit goes to the commit that made the change, along the branch a merge brought in
            # (the merge's author only pressed the button), as it does for versions.
            if old.status != _latest_status(previous):
                writer = made_in(folder.repo, history, touch, "status")
                previous = _with_transition(previous, touch, old.status, old.status_reason, writer)
            if old.reviewed != reviewed and old.has_review:
                writer = made_in(folder.repo, history, touch, "reviewed")
                previous = replace(previous, reviews=(*previous.reviews, _review(touch, old.reviewed, writer)))
            reviewed, out[-1] = old.reviewed, previous
            continue
        reviewed = old.reviewed
        vid = _chained(rec.id, old.digest, previous)
        writer = written_in(folder.repo, history, touch)
        previous = Version(
            vid,
            old.digest,
            touch.commit.sha,
            writer.author,
            writer.timestamp,
            touch.commit.subject,
            old.status,
            touch.path,
            written_in=writer.sha if writer.sha != touch.commit.sha else None,
        )
        out.append(previous)
    current = digest(rec)
    if previous is None or current != previous.digest:
        vid = _chained(rec.id, current, previous)
        out.append(Version(vid, current, None, None, None, None, rec.status, rec.path, draft=True))
    elif rec.status != _latest_status(previous):
        out[-1] = _with_transition(previous, None, rec.status, rec.status_reason)
    return list(reversed(out))


def _chained(ident: str, content_digest: str, previous: Version | None) -> str:
    """A version's id, chained on the one before; "" (unknown) from a version whose blob this
    clone lacks onwards: an id people cite is never one worked out from a guess."""
    if content_digest.startswith(MISSING) or (previous is not None and not previous.version_id):
        return ""
    return version_id(ident, content_digest, previous.version_id if previous else None)


def _review(touch: Touch, reviewed: str, writer: CommitInfo) -> Review:
    try:
        note = json.loads(reviewed).get("note") or ""
    except (ValueError, AttributeError):
        note = ""
    return Review(touch.commit.sha, writer.timestamp, writer.author, str(note), _merged_from(touch, writer))


def _merged_from(touch: Touch, writer: CommitInfo) -> str | None:
    return writer.sha if writer.sha != touch.commit.sha else None


def _latest_status(version: Version) -> str:
    return version.transitions[-1].after if version.transitions else version.status


def _with_transition(
    version: Version, touch: Touch | None, status: str, reason: str, writer: CommitInfo | None = None
) -> Version:
    last = _latest_status(version)
    step = Transition(
        touch.commit.sha if touch else "",
        writer.timestamp if writer else 0,
        last,
        status,
        writer.author if writer else "",
        reason,
        _merged_from(touch, writer) if touch and writer else None,
    )
    return replace(version, transitions=version.transitions + (step,))


@dataclass(frozen=True)
class Summary:
    """What versions and anchors need of a committed record: kept in the history cache by blob
    id, so a warm run reads no record from git."""

    digest: str
    status: str
    status_reason: str
    reviewed: str  # the `reviewed:` value as canonical JSON ("null" when absent): compared, never read
    review_commit: str  # the commit a review names ("" when none)
    has_review: bool  # whether `reviewed:` holds a review (a non-empty mapping)

    def review(self) -> dict[str, str] | None:
        return {"commit": self.review_commit} if self.has_review else None


def summary(repo: Repo, touch: Touch) -> Summary:
    """A committed record's summary, from the history cache when a run before worked it out."""
    cache = memo(repo)
    store = cache.blobs if cache is not None else repo.kept.setdefault("summaries", {})
    key = f"{touch.blob}:{touch.path}"
    hit = store.get(key)
    if (
        isinstance(hit, list)
        and len(hit) == 6
        and all(isinstance(v, str) for v in hit[:5])
        and isinstance(hit[5], bool)
    ):
        return Summary(*hit)
    rec = _parse_blob(repo, touch)
    if any(p.kind == "unreadable" for p in rec.problems):  # its blob is not in this clone: kept apart,
        return Summary(f"{MISSING}{touch.blob}", "unknown", "", "null", "", False)  # never cached
    review = rec.reviewed if isinstance(rec.reviewed, dict) and rec.reviewed else None
    made = Summary(
        digest(rec),
        rec.status,
        rec.status_reason,
        json.dumps(rec.reviewed, sort_keys=True, default=str),
        str(review.get("commit") or "") if review else "",
        review is not None,
    )
    store[key] = [made.digest, made.status, made.status_reason, made.reviewed, made.review_commit, made.has_review]
    if cache is not None:
        cache.dirty = True
    return made


def prime(repo: Repo, history: History, limit: int) -> None:
    """Work out at most `limit` of the summaries the records' versions need and the cache
    lacks; raise Uncached when more are left (what was worked out is kept: each run gets
    further)."""
    cache = history.cache
    store = cache.blobs if cache is not None else {}
    todo = [t for touches in history.touches.values() for t in touches if f"{t.blob}:{t.path}" not in store]
    for touch in todo[:limit]:
        summary(repo, touch)
    if len(todo) > limit:
        if cache is not None:
            cache.save()
        raise Uncached(f"{len(todo) - limit:,} record versions")


def _parse_blob(repo: Repo, touch: Touch) -> Record:
    """A committed record, parsed once per repository opened: a blob id names its bytes for
    good, and versions, anchors and the timeline all read the same ones."""
    parsed: dict[tuple[str, str], Record] = repo.kept.setdefault("parsed", {})
    key = (touch.path, touch.blob)
    if key not in parsed:
        try:
            data = record_bytes(repo, touch.blob)
        except GitError:  # a version this clone lacks (partial, damaged): that version unknown, not all
            data = Problem("unreadable", f"object {touch.blob[:12]} is not in this clone", 1, "git fetch --refetch")
        parsed[key] = catalog.parse_bytes(touch.path, data)
    return parsed[key]


def version_ref(folder: Folder, rec: Record, ref: str, history: History) -> Version:
    """A version by version id (`v1a2b...`), by number from the oldest (`v1`), or by commit."""
    listed = versions(folder, rec, history)
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
    sha = folder.repo.resolve(ref)
    for version in oldest_first[::-1]:
        if version.commit and folder.repo.is_ancestor(version.commit, sha):
            return version
    raise UsageError(f"{rec.id} has no version {ref!r}", hint=f"`adr log {rec.id}` lists them")


def content_at(folder: Folder, version: Version) -> Record:
    if version.commit is None:
        return folder.catalog.get(version.path)
    try:
        data: bytes | Problem = folder.repo.read(version.commit, version.path, limit=catalog.MAX_BYTES) or b""
    except TooLarge as exc:
        data = catalog.too_large(exc.size)
    return catalog.parse_bytes(version.path, data)
