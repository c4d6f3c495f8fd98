"""A decision's standing: whether it is in force, and what says so, worked out once for a set of
records and rendered by every surface (ADR-0101).

The file's status word is what the record says; the standing is what it means among the other
records: a record marked superseded whose successor is only proposed still binds, an accepted one
that an accepted successor claims to replace no longer does, and a source's decision that a local
record supersedes is this repository's recorded exception. Surfaces print `Standing.describe()`
and read `in_force`; the verdicts (staleness, conflicts) judge `judged(records)`, the records as
their standing reads them; none of them works this out again.

`adr new -s 5` (as adr-tools' `-s` does) may write "Superseded by ADR-6" into ADR-0005 while
ADR-0006 is only proposed: read literally, the code ADR-0005 governs would have no decision in
force until ADR-0006 is accepted. A decision marked superseded whose every successor this folder
holds is not in force (proposed, rejected) stays in force, and says what is pending.
"""

from __future__ import annotations

import dataclasses
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from adr_memory.records.record import Record

IN_FORCE = "in-force"
SUCCESSOR_PROPOSED = "successor-proposed"  # in force; a successor waits for acceptance
PROPOSED = "proposed"  # not yet in force
RETIRED = "retired"  # superseded by a successor in force, rejected or deprecated
EXCEPTION = "exception"  # a source's decision this repository recorded an exception to
UNKNOWN = "unknown"  # a status no one can read, or a source that could not be read

STATES = (IN_FORCE, SUCCESSOR_PROPOSED, PROPOSED, RETIRED, EXCEPTION, UNKNOWN)


@dataclass(frozen=True)
class Standing:
    state: str  # one of STATES
    status: str  # the status word it is judged by (`accepted` for a pending supersession)
    retired_by: tuple[str, ...] = ()  # successors in force (or the local exception) that retire it
    proposed: tuple[str, ...] = ()  # successors proposed, not yet in force
    reason: str = ""  # a source that could not be read, or why the status could not be read

    @property
    def in_force(self) -> bool:
        return self.state in (IN_FORCE, SUCCESSOR_PROPOSED)

    def describe(self) -> str:
        """One line people read: "in force; successor proposed: ADR-0003", "superseded by ADR-0003"."""
        if self.state == IN_FORCE:
            return "in force"
        if self.state == SUCCESSOR_PROPOSED:
            return "in force; successor proposed: " + ", ".join(self.proposed)
        if self.state == EXCEPTION:
            return "not in force here: exception recorded in " + ", ".join(self.retired_by)
        if self.state == RETIRED and self.retired_by:
            return f"{self.status} by " + ", ".join(self.retired_by)
        if self.state == UNKNOWN:
            return "unknown" + (f": {self.reason}" if self.reason else "")
        return self.status

    def label(self, shown: str) -> str:
        """A table cell: the status as `shown` while nothing else is pending, else what matters."""
        if self.state == SUCCESSOR_PROPOSED:  # a cell stays short: `show` names them all
            return f"accepted; {self.proposed[0] if len(self.proposed) == 1 else len(self.proposed)} proposed"
        if self.state in (RETIRED, EXCEPTION) and self.retired_by:
            return ("exception: " if self.state == EXCEPTION else f"{self.status} by ") + ", ".join(self.retired_by)
        return shown if self.status == shown.split(" ")[0] else self.status

    def to_json(self) -> dict[str, Any]:
        return {
            "state": self.state,
            "status": self.status,
            "in_force": self.in_force,
            "retired_by": list(self.retired_by),
            "proposed_successors": list(self.proposed),
            "text": self.describe(),
            "label": self.label(self.status),
            "reason": self.reason,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Standing:
        return cls(
            data["state"],
            data["status"],
            tuple(data["retired_by"]),
            tuple(data["proposed_successors"]),
            data.get("reason", ""),
        )


def of(records: Iterable[Record]) -> dict[str, Standing]:
    """record path -> its standing among `records` (this folder's, with its sources' if read)."""
    records = list(records)
    replacing = successors(records)
    return {rec.path: _one(rec, replacing.get(rec.path, [])) for rec in records}


def successors(records: Sequence[Record]) -> dict[str, list[Record]]:
    """record path -> the records that replace it: those it names as superseding it, and those
    that name it as superseded, each once."""
    by_id: dict[str, list[Record]] = defaultdict(list)
    for rec in records:
        by_id[rec.id].append(rec)
    claimed: dict[str, list[Record]] = defaultdict(list)
    for rec in records:
        for old in rec.supersedes:
            claimed[old].append(rec)
    out: dict[str, list[Record]] = {}
    for rec in records:
        found = [s for ident in rec.superseded_by for s in by_id.get(ident, [])] + claimed.get(rec.id, [])
        unique = list({s.path: s for s in found if s.path != rec.path}.values())
        if unique:
            out[rec.path] = unique
    return out


def _pending(rec: Record, replacing: Sequence[Record]) -> bool:
    """Whether `rec` is marked superseded but none of its successors has come into force yet:
    each is proposed or was rejected. One that was in force and is retired since (superseded in
    turn, deprecated) replaced it all the same."""
    return (
        rec.status == "superseded" and bool(replacing) and all(s.status in ("proposed", "rejected") for s in replacing)
    )


def judged(records: Iterable[Record], standings: Mapping[str, Standing] | None = None) -> list[Record]:
    """The records as the verdicts read them, each with the status its standing judges it by:
    `accepted` while in force (one marked superseded whose successors are only proposed, its
    `status_text` saying what is pending), `superseded` once a successor in force retires it
    (whatever its own file says). A view for judging, never for editing: files are untouched."""
    records = list(records)
    standings = standings if standings is not None else of(records)
    out = []
    for rec in records:
        held = standings[rec.path]
        if held.status != rec.status and held.state != UNKNOWN:
            rec = dataclasses.replace(rec, status=held.status, status_text=held.describe())
        out.append(rec)
    return out


def _one(rec: Record, after: Sequence[Record]) -> Standing:
    in_force_after = tuple(s.id for s in after if s.status == "accepted")
    waiting = tuple(s.id for s in after if s.status == "proposed")
    if rec.status in ("accepted", "superseded") and in_force_after:
        # a local record superseding a source's decision is this repository's exception to it
        local = rec.source and all(not s.source for s in after if s.id in in_force_after)
        return Standing(EXCEPTION if local else RETIRED, "superseded", in_force_after, waiting)
    if rec.status == "accepted" or _pending(rec, after):
        return Standing(SUCCESSOR_PROPOSED if waiting else IN_FORCE, "accepted", (), waiting)
    if rec.status == "proposed":
        return Standing(PROPOSED, "proposed", (), waiting)
    if rec.status == "unknown":
        return Standing(UNKNOWN, "unknown", reason=f"status {rec.status_text!r} cannot be read")
    return Standing(RETIRED, rec.status, tuple(rec.superseded_by) if rec.status == "superseded" else ())


def unreadable(problem: str) -> Standing:
    """What governs a path when a source's decisions could not be read: not known, never nothing."""
    return Standing(UNKNOWN, "unknown", reason=problem)


def in_force(records: Iterable[Record], standings: Mapping[str, Standing] | None = None) -> list[Record]:
    """The records in force, in their order."""
    records = list(records)
    standings = standings if standings is not None else of(records)
    return [r for r in records if standings[r.path].in_force]


def contested(records: Iterable[Record]) -> dict[str, list[Record]]:
    """record path -> its proposed successors, where more than one is proposed for it: whichever
    is accepted first decides, and the other would then replace a retired record."""
    records = list(records)
    out = {}
    for path, after in successors(records).items():
        waiting = [s for s in after if s.status == "proposed"]
        if len(waiting) > 1:
            out[path] = waiting
    return out
