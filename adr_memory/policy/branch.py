"""What a branch changed, against the merge-base of REF and HEAD (never REF's tip): the
findings of `adr check --base` and the facts `adr review` reports."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from adr_memory.base import globs
from adr_memory.errors import AdrError, TooLarge
from adr_memory.history import Workspace, branch_range, folder_at, staleness, versions
from adr_memory.records import ERROR, MAX_BYTES, WARNING, Catalog, Finding, Record, first_few

# How far along its life a status is; moving to a lower rank is moving backwards.
_RANK = {"proposed": 0, "accepted": 1, "rejected": 1, "deprecated": 2, "superseded": 2}


@dataclass
class BranchChange:
    ref: str
    base: str  # merge-base sha
    head: str
    before: Catalog  # at the merge-base
    after: Catalog  # the work tree (in CI: HEAD)
    theirs: Catalog  # REF's tip, for collisions
    changed_files: set[str]  # files this branch changed (merge-base tree vs HEAD tree)
    verdicts: dict[str, staleness.Verdict] = field(default_factory=dict)  # by record file (ADR-0051)
    anchored_here: set[str] = field(default_factory=set)  # stale records' files this change reviewed or edited

    def added(self) -> list[Record]:
        ids = self.before.ids()
        return [r for r in self.after if r.id not in ids]

    def pairs(self) -> Iterator[tuple[Record, Record]]:
        """(before, after) for records on both sides."""
        for rec in self.after:
            old = self.before.find(rec.id)
            if old is not None:
                yield old, rec

    def new_versions(self) -> list[tuple[Record, Record]]:
        return [(a, b) for a, b in self.pairs() if versions.digest(a) != versions.digest(b)]

    def status_changes(self) -> list[tuple[Record, Record]]:
        return [(a, b) for a, b in self.pairs() if a.status != b.status]

    def deleted(self) -> list[Record]:
        ids = self.after.ids()
        return [r for r in self.before if r.id not in ids]

    def governing_changed(self) -> list[tuple[Record, list[str]]]:
        """Decisions (as of after) whose governed files this branch changed."""
        out = []
        for rec in self.after:
            touched = globs.governed(rec.governs, self.changed_files)
            if touched:
                out.append((rec, touched))
        return out

    def made_stale(self) -> list[staleness.Verdict]:
        """Decisions stale at HEAD because of files this branch changed, or that this branch
        reviewed and left stale (its review did not see what REF changed meanwhile)."""
        return [
            v
            for v in self.verdicts.values()
            if v.state == "stale" and (set(v.changed) & self.changed_files or v.path in self.anchored_here)
        ]


def compare(ws: Workspace, ref: str) -> BranchChange:
    repo = ws.repo
    span = branch_range(repo, ref)
    tip, base, head = span.tip, span.base, span.head
    before = folder_at(ws, base).catalog.named_like(ws.catalog)
    theirs = folder_at(ws, tip).catalog.named_like(ws.catalog)
    changed = repo.changed_paths(repo.commit(base).tree, repo.commit(head).tree, [""]) | _unsaved(ws, head)
    change = BranchChange(ref, base, head, before, ws.catalog, theirs, changed)
    # Only the commits between the merge-base and HEAD are read: a decision whose anchor is
    # older is judged against the merge-base, which is what "this change made it stale" means.
    change.verdicts = {v.path: v for v in staleness.report(ws, stop_at=base)}
    if ws.config.sources:  # source decisions, judged against this repository's code, as local ones
        from adr_memory.history import sources

        change.verdicts |= {v.path: v for v in sources.verdicts(ws)}
    change.anchored_here = {
        v.path
        for v in change.verdicts.values()
        if v.state == "stale" and v.anchor and v.anchor != base and repo.is_ancestor(base, v.anchor)
    }
    return change


def _unsaved(ws: Workspace, head: str) -> set[str]:
    """Records whose work-tree bytes are not HEAD's (new, edited, not committed yet): the
    branch answers for them, so an agent checking before it commits sees its own record
    judged, never counted among the untouched."""
    out = set()
    for rec in ws.catalog:
        try:
            if (ws.root / rec.path).read_bytes() != ws.repo.read(head, rec.path, MAX_BYTES):
                out.add(rec.path)
        except (OSError, AdrError, TooLarge):
            out.add(rec.path)
    return out


def findings(ws: Workspace, change: BranchChange) -> list[Finding]:
    """Immutability, collisions, deletions, backwards statuses and staleness this branch made."""
    out = [
        *_accepted_edits(ws.config.accepted_edits, change),
        *_collisions(change),
        *_deleted(change),
        *_backwards(change),
        *_stale(change),
        *_unknown(change),
    ]
    return sorted(set(out))


def _accepted_edits(policy: str, change: BranchChange) -> Iterator[Finding]:
    if policy == "allow":
        return
    for old, new in change.new_versions():
        if old.status == "accepted":
            yield Finding(
                new.path,
                1,
                "accepted-edit",
                ERROR if policy == "error" else WARNING,
                new.id,
                f"{new.id} was accepted at the merge-base and its content changed",
                f'write a superseding decision instead: adr new -s {new.id} "..." '
                "(or set accepted-edits in the config)",
            )


def _collisions(change: BranchChange) -> Iterator[Finding]:
    base_ids = change.before.ids()
    theirs = {r.id: r for r in change.theirs if r.id not in base_ids}
    for rec in change.added():
        other = theirs.get(rec.id)
        if other is not None and other.path != rec.path:
            yield Finding(
                rec.path,
                1,
                "collision",
                ERROR,
                rec.id,
                f"{rec.id} was also added on {change.ref} ({other.path})",
                "renumber yours: git mv to the next free number, then fix links",
            )


def _deleted(change: BranchChange) -> Iterator[Finding]:
    after_by_digest = {versions.digest(r): r for r in change.after}
    for rec in change.deleted():
        moved = after_by_digest.get(versions.digest(rec))
        if moved is not None:
            how = "renumbered" if rec.number is not None else "renamed"  # a name that is its id
            yield Finding(
                moved.path,
                1,
                "renumbered",
                ERROR,
                moved.id,
                f"{rec.id} was {how} to {moved.id}; ids must not change",
                f"move it back to {rec.path}",
            )
        else:
            yield Finding(
                rec.path,
                1,
                "deleted",
                ERROR,
                rec.id,
                f"{rec.id} was deleted",
                f"keep the record; mark it: adr deprecate {rec.id} (or supersede it)",
            )


def _backwards(change: BranchChange) -> Iterator[Finding]:
    for old, new in change.status_changes():
        if _RANK.get(new.status, 0) < _RANK.get(old.status, 0):
            yield Finding(
                new.path,
                new.status_line or 1,
                "status-backwards",
                ERROR,
                new.id,
                f"{new.id} moved from {old.status} back to {new.status}",
                "write a new decision rather than reopening this one",
            )


def _stale(change: BranchChange) -> Iterator[Finding]:
    for verdict in change.made_stale():
        yield Finding(verdict.path, 1, "stale", WARNING, verdict.id, *stale_advice(change, verdict))


def stale_advice(change: BranchChange, verdict: staleness.Verdict) -> tuple[str, str]:
    """(what this change did to a decision it makes stale, what to do about it): the check's
    finding and the review report say the same."""
    touched = sorted(set(verdict.changed) & change.changed_files)
    if touched:
        return (
            f"this change touches code {verdict.id} governs: " + first_few(touched),
            f"review {verdict.id}; if it still holds: adr affirm {verdict.id}",
        )
    return (
        f"{verdict.id} is reviewed in this change, but not with what {change.ref} changed since "
        "the branch left it: " + first_few(list(verdict.changed)),
        f"merge or rebase onto {change.ref}, review {verdict.id} again, then adr affirm {verdict.id}",
    )


def _unknown(change: BranchChange) -> Iterator[Finding]:
    """Decisions governing what this change touched that git cannot judge: a failure unless
    `--allow-unknown`, so a shallow or damaged clone never passes for a clean one."""
    touched = {rec.path for rec, _files in change.governing_changed()}
    for verdict in change.verdicts.values():
        if verdict.path in touched and verdict.state == "unknown":
            yield Finding(
                verdict.path,
                1,
                "unknown",
                ERROR,
                verdict.id,
                f"cannot tell whether {verdict.id} still holds: {verdict.reason}",
                verdict.remedy or "fetch the full history (actions/checkout with fetch-depth: 0)",
            )
