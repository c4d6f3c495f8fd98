"""Which decisions are in force: a decision is retired when a successor is in force, not when a
successor is only proposed.

`adr new -s 5` (as adr-tools' `-s` does) writes "Superseded by ADR-6" into ADR-0005 at once, while
ADR-0006 may only be proposed. Read literally, the code ADR-0005 governs would have no decision in
force until ADR-0006 is accepted: `guard` found none, staleness stopped. A decision marked
superseded whose every successor this folder holds is not in force (proposed, rejected) stays in
force, and says what is pending.
"""

from __future__ import annotations

import dataclasses
from collections import defaultdict
from collections.abc import Iterable, Sequence

from adr_memory.records.record import Record


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


def pending(rec: Record, replacing: Sequence[Record]) -> bool:
    """Whether `rec` is marked superseded but none of its successors is in force yet."""
    return rec.status == "superseded" and bool(replacing) and all(s.status != "accepted" for s in replacing)


def as_in_force(records: Iterable[Record]) -> list[Record]:
    """The records as the verdicts read them: one whose successors are all pending reads as
    accepted (its text and file are untouched; this view is for judging, never for editing),
    with `status_text` saying what is pending."""
    records = list(records)
    replacing = successors(records)
    out = []
    for rec in records:
        after = replacing.get(rec.path, [])
        if pending(rec, after):
            names = ", ".join(f"{s.id} ({s.status})" for s in after)
            rec = dataclasses.replace(rec, status="accepted", status_text=f"superseded by {names}: in force until then")
        out.append(rec)
    return out


def retired_by(rec: Record, replacing: Sequence[Record]) -> list[Record]:
    """The successors in force that retire `rec` (empty: it is not retired by one)."""
    return [s for s in replacing if s.status == "accepted"]
