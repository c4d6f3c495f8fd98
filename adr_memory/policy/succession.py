"""The findings about who replaces whom: a supersession said on one side only, a successor
rejected after it retired a record, two successors proposed for one record (ADR-0101)."""

from __future__ import annotations

from collections.abc import Iterator

from adr_memory.records import WARNING, Catalog, Finding, Record, standing


def findings(catalog: Catalog) -> Iterator[Finding]:
    yield from _one_sided(catalog)
    yield from _contested(catalog)


def _finding(rec: Record, kind: str, message: str, line: int, hint: str, severity: str = WARNING) -> Finding:
    return Finding(rec.path, line, kind, severity, rec.id, message, hint)


def _one_sided(catalog: Catalog) -> Iterator[Finding]:
    """A supersession said on one side only. A warning: which decision is current is still
    unambiguous, and many real folders write only one side (cloud-platform's ADR-0021)."""
    by_id = {r.id: r for r in catalog}
    held = standing.of(catalog)
    for rec in catalog:
        for old_id in rec.supersedes:
            old = by_id.get(old_id)
            # A proposed successor names what it would replace; the other side is written when
            # it is accepted (ADR-0101), so only one in force leaves the pair half-said.
            if old is not None and rec.id not in old.superseded_by and held[rec.path].in_force:
                yield _finding(
                    old,
                    "supersession",
                    f"{rec.id} supersedes {old.id}, but {old.id} does not say it is superseded by {rec.id}",
                    old.line_of("superseded-by"),
                    f"adr supersede {old.id} --by {rec.id}",
                    severity=WARNING,
                )
        named = [by_id[i] for i in rec.superseded_by if i in by_id]
        if rec.status == "superseded" and named and all(s.status in ("rejected", "deprecated") for s in named):
            yield _finding(
                rec,
                "supersession",
                f"{rec.id} says it is superseded by {', '.join(s.id for s in named)}, which "
                f"{'is' if len(named) == 1 else 'are'} {' or '.join(dict.fromkeys(s.status for s in named))}: "
                f"{rec.id} is read as in force again",
                rec.line_of("status"),
                f"say so in the record: adr accept {rec.id}, or deprecate it (adr deprecate {rec.id})",
                severity=WARNING,
            )
        in_force = [s for s in named if held[s.path].in_force]
        if rec.status == "accepted" and rec.status_stated and in_force:
            yield _finding(
                rec,
                "supersession",
                f"{rec.id} says it is accepted, and superseded by {', '.join(s.id for s in in_force)}, which is "
                "in force: it is read as superseded",
                rec.line_of("status"),
                f"say which holds: adr supersede {rec.id} --by {in_force[0].id} writes its status, "
                f"or retire {in_force[0].id} (adr deprecate {in_force[0].id})",
                severity=WARNING,
            )
        for new_id in rec.superseded_by:
            new = by_id.get(new_id)
            if new is not None and rec.id not in new.supersedes:
                yield _finding(
                    new,
                    "supersession",
                    f"{rec.id} says it is superseded by {new.id}, but {new.id} does not say it supersedes {rec.id}",
                    new.line_of("supersedes"),
                    f"adr supersede {rec.id} --by {new.id}",
                    severity=WARNING,
                )


def _contested(catalog: Catalog) -> Iterator[Finding]:
    """Two successors proposed for one decision: whichever is accepted first retires it, and the
    other would then replace a retired record. A warning, on the record both name."""
    by_path = {r.path: r for r in catalog}
    for path, waiting in standing.contested(catalog).items():
        rec = by_path[path]
        names = ", ".join(s.id for s in waiting)
        yield _finding(
            rec,
            "supersession",
            f"{len(waiting)} successors are proposed for {rec.id}: {names}",
            rec.line_of("status"),
            f"reject all but one (adr reject {waiting[-1].id}), or merge them into one record",
            severity=WARNING,
        )
