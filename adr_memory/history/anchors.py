"""Anchors: the commit that last affirmed each decision, and the events (status changes,
affirmations) the timeline shows."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from adr_memory.errors import GitError
from adr_memory.history.folder import Folder
from adr_memory.history.repo import Repo
from adr_memory.history.versions import _parse_blob, digest, made_in, summary
from adr_memory.history.walk import History, Touch, is_ancestor
from adr_memory.records import Record


class Anchors:
    """Finds anchors: the newest commit that changed a record's version, its status or its
    `reviewed:` key (ARCHITECTURE.md §3). A commit that only adds a link, fixes whitespace or
    edits other metadata does not re-anchor: nobody reviewed the decision in it. Nor does a
    commit that puts back an earlier review (a revert of an affirmation): the review in force
    anchors where it was first committed, so code changed since then is stale again."""

    def __init__(self, repo: Repo) -> None:
        self.repo = repo
        self._keys: dict[str, tuple[str, str, str]] = {}
        self._reviews: dict[str, dict[str, Any] | None] = {}

    def _key(self, touch: Touch) -> tuple[str, str, str]:
        if touch.blob not in self._keys:
            old = summary(self.repo, touch)
            self._keys[touch.blob] = (old.digest, old.status, old.reviewed)
            self._reviews[touch.blob] = old.review()
        return self._keys[touch.blob]

    def _changed(self, touches: list[Touch]) -> Touch | None:
        in_force = self._key(touches[0])[2] if touches else ""
        for newer, older in itertools.pairwise(touches):
            new, old = self._key(newer), self._key(older)
            if new[:2] != old[:2]:
                return newer  # a new version or status: a decision act, whatever the review
            if new[2] != old[2] and new[2] == in_force and self.reviews(newer, older):
                return newer
        return None

    def review_brought(self, rec: Record, history: History) -> dict[str, Any] | None:
        """The review the record's anchor brought in force, when the anchor is the commit that
        brought it (not a later version or status change)."""
        touches = history.touches.get(rec.path, [])
        anchor = self.of(rec, history)
        if anchor is None or anchor not in touches:
            return None
        at = touches.index(anchor)
        older = touches[at + 1] if at + 1 < len(touches) else None
        if older is not None and self._key(anchor)[2] == self._key(older)[2]:
            return None
        return self._reviews.get(anchor.blob)

    def review_at(self, commit: str, path: str) -> Any:
        """The `reviewed:` value of the record at `path` in `commit`, as canonical JSON (None
        when the record is not there)."""
        entry = self.repo.lookup(self.repo.commit(commit).tree, path)
        if entry is None:
            return None
        return self._key(Touch(self.repo.commit(commit), path, entry[1]))[2]

    def landing(self, path: str, tip: str, made_at: str, limit: int = 1_000) -> str:
        """Where the review the record holds at `tip` was committed on `tip`'s first-parent
        line: the oldest commit after `made_at` (where it was made) that holds it."""
        review, landed, here = self.review_at(tip, path), tip, tip
        for _ in range(limit):
            parents = self.repo.commit(here).parents
            if not parents or parents[0] == made_at or self.review_at(parents[0], path) != review:
                break
            landed = here = parents[0]
        return landed

    def reviews(self, newer: Touch, older: Touch) -> bool:
        """Whether `newer` brings a review made since `older`: not when it removes the review,
        nor when it restores one made before `older` was committed (its reviewed commit is an
        ancestor of `older`'s: a revert). A review naming no commit, or one this clone lacks, is
        a review that landed here (a squashed branch's)."""
        self._key(newer)
        review = self._reviews.get(newer.blob)
        if not review:
            return False
        try:
            made = self.repo.resolve(str(review.get("commit") or ""))
        except GitError:
            return True
        return made == older.commit.sha or not is_ancestor(self.repo, made, older.commit.sha)

    def of(self, rec: Record, history: History) -> Touch | None:
        """The record's anchor; None when it is not committed yet (anchored at HEAD)."""
        touches = history.touches.get(rec.path, [])  # newest first
        return self._changed(touches) or (touches[-1] if touches else None)

    def found(self, paths: Iterable[str]) -> Callable[[History], bool]:
        """A `walk(enough=...)` test: every one of these records' anchors is known, either
        because a commit changed what anchors it or because its creation was reached."""
        wanted = set(paths)

        def enough(history: History) -> bool:
            return all(p not in history.following or self._changed(history.touches.get(p, [])) for p in wanted)

        return enough


@dataclass(frozen=True)
class Event:
    """One thing that happened to a decision in one commit (`adr log` without an id)."""

    commit: str
    date: int
    author: str
    id: str
    title: str
    kind: str  # new, version, status, affirm, link, edit
    detail: str
    written_in: str | None = None  # a merged branch's commit that made it (`commit`: the merge)


_ASPECT = {"status": "status", "affirm": "reviewed", "unaffirm": "reviewed", "link": "links"}


def events(folder: Folder, history: History) -> list[Event]:
    """Every decision event along HEAD's first-parent history, newest first: a record's
    creation, new versions, status changes (with the reason), affirmations and link changes."""
    out: list[Event] = []
    finder = Anchors(folder.repo)
    for rec in folder.catalog:
        previous: tuple[Touch, Record] | None = None
        for touch in reversed(history.touches.get(rec.path, [])):  # oldest first
            current = _parse_blob(folder.repo, touch)
            reviewed = previous is not None and finder.reviews(touch, previous[0])
            for kind, detail in _what_changed(previous[1] if previous else None, current, reviewed):
                # who made it: the merged branch's commit, never the merge's author (ADR-0101)
                writer = made_in(folder.repo, history, touch, _ASPECT.get(kind, "digest"))
                merged = writer.sha if writer.sha != touch.commit.sha else None
                out.append(
                    Event(touch.commit.sha, writer.timestamp, writer.author, rec.id, rec.title, kind, detail, merged)
                )
            previous = (touch, current)
    position = {sha: i for i, sha in enumerate(history.chain)}
    return sorted(out, key=lambda e: (position.get(e.commit, len(position)), e.id))


def _what_changed(before: Record | None, after: Record, reviewed: bool) -> list[tuple[str, str]]:
    """What a commit did to a record; `reviewed`: whether a changed `reviewed:` key is a review
    made since the record's previous commit (Anchors.reviews), not one removed or put back."""
    if before is None:
        return [("new", after.status)]
    changes = []
    if digest(before) != digest(after):
        changes.append(("version", ""))
    if before.status != after.status:
        why = f": {after.status_reason}" if after.status_reason else ""
        changes.append(("status", f"{before.status} → {after.status}{why}"))
    if before.reviewed != after.reviewed:
        note = (after.reviewed or {}).get("note") if isinstance(after.reviewed, dict) else None
        if reviewed:
            changes.append(("affirm", str(note or "")))
        else:  # not a review: the anchor does not move for it either
            changes.append(("unaffirm", f"back to an earlier review: {note}" if note else "review removed"))
    if set(before.links) != set(after.links):
        said = {f"{link.rel} {link.target}" for link in after.links}
        added = sorted(said - {f"{link.rel} {link.target}" for link in before.links})
        changes.append(("link", ", ".join(added)))
    return changes or [("edit", "")]


def first_recorded(rec: Record, history: History) -> str | None:
    """The date the decision was first recorded: its own `date`, else its first commit's date."""
    if rec.date:
        return rec.date
    touches = history.touches.get(rec.path)
    if not touches or not touches[-1].commit.timestamp:  # 0: the commit gives no date
        return None
    import datetime as dt

    return dt.datetime.fromtimestamp(touches[-1].commit.timestamp, dt.UTC).date().isoformat()
