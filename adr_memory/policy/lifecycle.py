"""Writing records: `adr new`, `adr accept|reject|deprecate`, `adr supersede`, `adr link`.

Every edit goes through `record.set_keys` or a one-line replacement, so only the keys (or the
status line) a command owns change; everything else in the file stays byte for byte.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from adr_memory import records
from adr_memory.base import safe
from adr_memory.errors import UsageError
from adr_memory.history import Workspace, sources
from adr_memory.policy.statuses import _restated, _status_edit, _status_line
from adr_memory.policy.transaction import Transaction, _reload, repo_lock
from adr_memory.records import Catalog, Record, credentials, standing

# ---------------------------------------------------------------------------- status and links


def set_status(
    ws: Workspace, ident: str, status: str, *, reason: str | None = None, by: Sequence[str] = ()
) -> tuple[Record, str]:
    """`adr accept|reject|deprecate ID [--reason TEXT] [--by NAME]...`: change the status (and its
    reason, and who made the decision), and only that; returns the record and the status it had.
    A record that already has the status, with nothing new to record, is left byte for byte."""
    sources.read_only(ws, ident)
    credentials.refuse_in(reason, "reason")
    for name in by:
        credentials.refuse_in(name, "--by")
    with repo_lock(ws.git_dir):
        ws.reload()
        rec = ws.catalog.get(ident)
        if status == "accepted":
            _refuse_retired(ws.catalog, rec)
            _refuse_replaced_twice(ws.catalog, rec)
            _refuse_key_held(ws, rec)
        makers = _makers_key(ws.catalog, rec) if by else None
        if rec.status == status and rec.status_stated and not reason and not by:
            return rec, rec.status
        edits = Transaction(ws)
        edits.edit(rec.path, lambda text, current: _status_edit(text, current, status, reason=reason, in_body=True))
        if makers is not None:
            edits.edit(rec.path, lambda text, current: _makers_edit(text, current, makers, by))
        if status == "accepted":
            _complete(ws.catalog, edits, rec)
        edits.commit()
    return _reload(ws, ws.root / rec.path), rec.status


def _refuse_replaced_twice(kept: Catalog, rec: Record) -> None:
    """A successor accepted for a decision another successor in force already replaced would
    leave two decisions in force for one, neither knowing of the other: it replaces that one."""
    held = standing.of(kept)
    for ident in rec.supersedes:
        old = kept.find(ident)
        others = [i for i in held[old.path].retired_by if i != rec.id] if old is not None else []
        if old is not None and others:
            raise UsageError(
                f"{old.id} was already replaced by {', '.join(others)}, which is in force: "
                f"{rec.id} would replace it a second time",
                hint=f"make {rec.id} replace {others[0]} instead (adr supersede {others[0]} --by {rec.id}), "
                f"then accept it; or reject {rec.id}",
            )


def _refuse_key_held(ws: Workspace, rec: Record) -> None:
    """Accepting a decision whose single-valued key another decision in force holds (this
    folder's, or a source's) would put two answers in force: refused as `adr new --key` is,
    by the same check (a source that cannot be read fails it closed)."""
    from adr_memory.policy import conflicts, new

    key = conflicts.key_of(rec)
    if key is not None:
        ways_out = (f"adr supersede {{id}} --by {rec.id}", "declare `cardinality: multi`")
        new._refuse_held(ws, new.Key(key[0], key[1], spelled=ways_out), rec.supersedes)


def _refuse_retired(kept: Catalog, rec: Record) -> None:
    """A decision a successor in force replaced is not accepted again beside it: the file would
    say accepted and superseded at once, and every surface would read it as retired."""
    held = standing.of(kept)[rec.path]
    if held.state == standing.RETIRED and held.retired_by:
        successor = held.retired_by[0]
        raise UsageError(
            f"{rec.id} is superseded by {', '.join(held.retired_by)}, which is in force: it is not accepted again",
            hint=f"to bring it back, record it anew (adr new TITLE -s {successor}), "
            f"or retire {successor} first (adr deprecate {successor})",
        )


# MADR 4 names the people who made a decision `decision-makers`; MADR 2 and 3 `deciders`.
MAKERS_KEYS = ("decision-makers", "deciders")


def _makers_key(kept: Catalog, rec: Record) -> str:
    """The field this folder records its decision-makers in: the record's own, else the one its
    other records use, else MADR 4's. A record with no frontmatter has no such field (adr-tools'
    format names none): refused, so that its style is kept."""
    if rec.format != "frontmatter":
        raise UsageError(
            f"{rec.id} keeps no frontmatter, so it has no field for decision-makers",
            hint=f"name them in the reason instead: adr accept {rec.id} --reason 'decided by ...'",
        )
    for key in MAKERS_KEYS:
        if key in rec.meta:
            return key
    used = {key: sum(key in other.meta for other in kept) for key in MAKERS_KEYS}
    return max(MAKERS_KEYS, key=lambda key: used[key])  # the most used; MADR 4's on a tie


def _makers_edit(text: str, rec: Record, key: str, by: Sequence[str]) -> str:
    """Add the names not yet listed, keeping the field's own form (a list, or names in a line)."""
    held = rec.meta.get(key)
    names = (
        [str(n).strip() for n in held]
        if isinstance(held, list)
        else [n.strip() for n in str(held or "").split(",") if n.strip()]
    )
    added = [safe.one_line(n).strip() for n in by if safe.one_line(n).strip() not in names]
    if not added:
        return text
    value: object = names + added if isinstance(held, list) else ", ".join(names + added)
    return records.set_keys(text, {key: value}, rec.path)


def _complete(kept: Catalog, edits: Transaction, successor: Record) -> None:
    """Accepting a successor completes the supersessions it proposed: each record it names as
    replaced, and not yet marked so, becomes superseded by it, in the same write (ADR-0101)."""
    for ident in successor.supersedes:
        old = kept.find(ident)
        if old is None or old.path == successor.path:
            continue  # a source's decision (read-only here: the exception is recorded) or one not here
        if successor.id in old.superseded_by and old.status == "superseded":
            continue
        edits.link(old.path, "superseded by", successor.path, status="superseded")


def supersede(ws: Workspace, old_id: str, new_id: str, *, reason: str | None = None) -> tuple[Record, Record]:
    """`adr supersede OLD --by NEW [--reason TEXT]`: both sides, so the pair stays consistent."""
    sources.read_only(ws, old_id)
    sources.read_only(ws, new_id)
    credentials.refuse_in(reason, "reason")
    with repo_lock(ws.git_dir):
        ws.reload()
        old, new = ws.catalog.get(old_id), ws.catalog.get(new_id)
        if old.id == new.id:
            raise UsageError(
                f"a decision cannot supersede itself ({old.id} --by {new.id})",
                hint=f"name the decision that replaces it: adr supersede {old.id} --by NEW",
            )
        if standing.of(ws.catalog)[new.path].state == standing.RETIRED:
            raise UsageError(
                f"{new.id} is {new.status}: a decision no longer in force replaces nothing",
                hint=f"name one proposed or in force: adr supersede {old.id} --by NEW (adr new -s {old.id} writes one)",
            )
        edits = Transaction(ws)
        edits.link(new.path, "supersedes", old.path)
        # The replaced record is marked once its successor is in force; a proposed successor
        # names what it would replace, and accepting it completes the pair (ADR-0101).
        if standing.of(ws.catalog)[new.path].in_force:
            edits.link(old.path, "superseded by", new.path, status="superseded")
            if reason:
                edits.edit(old.path, lambda text, rec: _reason_edit(text, rec, reason))
        elif reason:
            raise UsageError(
                f"{new.id} is {new.status}: {old.id} stays in force until it is accepted, so there is no "
                "retirement to give a reason for yet",
                hint=f"adr supersede {old.id} --by {new.id}, then adr accept {new.id} --reason TEXT",
            )
        edits.commit()
    return _reload(ws, ws.root / old.path), _reload(ws, ws.root / new.path)


def _reason_edit(text: str, rec: Record, reason: str) -> str:
    """Add why to a status already written: frontmatter `status-reason:`, else after the
    status line's text."""
    reason = safe.one_line(reason)
    if not rec.status_line:
        return records.set_keys(text, {"status-reason": reason}, rec.path)
    current = _status_line(text, rec)
    stated = rec.status_text if rec.status_text and rec.status_text in current else current.strip()
    return records.replace_line(text, rec.status_line, _restated(current, stated, f"{stated} ({reason})"))


def link(ws: Workspace, source: str, rel: str, target: str, reverse: str | None = None) -> tuple[Record, Record]:
    """`adr link SRC LINK TGT [REVERSE]` (adr-tools): record a relation, and its reverse if
    given; returns the two records linked."""
    sources.read_only(ws, source)
    sources.read_only(ws, target)
    with repo_lock(ws.git_dir):
        ws.reload()
        src, tgt = ws.catalog.get(source), ws.catalog.get(target)
        if src.path == tgt.path:
            raise UsageError(
                f"a decision cannot be linked to itself ({src.id} {rel} {tgt.id})",
                hint=f"name the other decision: adr link {src.id} {rel!r} OTHER",
            )
        edits = Transaction(ws)
        edits.link(src.path, rel, tgt.path)
        if reverse:
            edits.link(tgt.path, reverse, src.path)
        edits.commit()
    return src, tgt


def _refuse_unheld(kept: Catalog, rec: Record) -> None:
    """Affirming says a decision still holds: only an accepted one does. (A loop over `adr stale`
    rows would otherwise write "this decision holds" into superseded records.) Judged by its
    standing (ADR-0101): one an accepted successor retired is not affirmed, whatever its own
    file says; one whose successors are only proposed still holds."""
    held = standing.of(kept.records)[rec.path]
    if held.in_force:
        return
    if rec.superseded_by or held.retired_by:  # the end of the chain its file names, else what retired it
        last = _last_successor(kept, rec).id if rec.superseded_by else held.retired_by[0]
        hint = f"affirm what replaced it instead: adr affirm {last}"
    elif rec.status == "proposed":
        hint = f"accept it first: adr accept {rec.id}"
    else:
        hint = f"it no longer holds; adr show {rec.id} says why"
    raise UsageError(f"{rec.id} is {held.status}: only an accepted decision is affirmed", hint=hint)


def _last_successor(kept: Catalog, rec: Record) -> Record:
    """The end of a record's chain of successors (a loop ends where it comes round)."""
    seen = {rec.path}
    while rec.superseded_by and (after := kept.find(rec.superseded_by[0])) is not None and after.path not in seen:
        rec = after
        seen.add(rec.path)
    return rec


def affirm(ws: Workspace, ident: str, *, note: str | None = None) -> Record:
    """`adr affirm ID`: write `reviewed: {commit, date, note}`, and only that key."""
    credentials.refuse_in(note, "note")
    head = ws.repo.head()
    reviewed: dict[str, object] = {"commit": head[:12] if head else None, "date": dt.date.today()}
    if note:
        reviewed["note"] = safe.one_line(note)
    with repo_lock(ws.git_dir):
        ws.reload()
        rec = ws.catalog.get(ident)
        _refuse_unheld(ws.catalog, rec)
        edits = Transaction(ws)
        edits.edit(rec.path, lambda text, _rec: records.set_keys(text, {"reviewed": reviewed}, rec.path))
        edits.commit()
    return _reload(ws, ws.root / rec.path)
