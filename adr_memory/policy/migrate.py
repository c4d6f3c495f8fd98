"""`adr migrate`: move what a record states in its body into frontmatter, when asked
(ARCHITECTURE.md §1, ADR-0030).

What moves is what the content digest already leaves out: the record's own Status section
(its status and the adr-tools link lines under it) and `Status:` / `Date:` lines before the
first section. Exactly those lines go, so the digest, and with it every version and anchor,
stays as it was; the result is parsed again and compared with the original before anything is
written. A record whose body says more than that where it would be removed is left alone.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from adr_memory import records
from adr_memory.base import safe
from adr_memory.errors import InvalidRecord
from adr_memory.history import Workspace, digest
from adr_memory.policy import transaction
from adr_memory.records import Record, languages

_RELATION_WORDS = frozenset(["by", "to", "on", "and", "of", "see", "also", "the", "adr"])


@dataclass(frozen=True)
class Outcome:
    id: str
    path: str
    moved: tuple[str, ...] = ()  # frontmatter keys written; empty: nothing to move
    refused: str | None = None  # why it was left alone
    before: str = ""
    after: str = ""


def migrate(ws: Workspace, idents: Sequence[str], *, dry_run: bool = False) -> list[Outcome]:
    """Migrate the records named (every record when none is), all or none of them."""
    with transaction.repo_lock(ws.git_dir):
        ws.reload()
        records = [ws.catalog.get(ident) for ident in idents] if idents else list(ws.catalog)
        edits = transaction.Transaction(ws)
        outcomes = [_one(edits, rec) for rec in {rec.path: rec for rec in records}.values()]
        if not dry_run:
            edits.commit()
    return outcomes


def _one(edits: transaction.Transaction, rec: Record) -> Outcome:
    try:
        text = edits.read(rec.path)
    except InvalidRecord as exc:
        return Outcome(rec.id, rec.path, refused=exc.message)
    after, moved, refused = migrated(text, rec.path)
    if refused is None and moved:
        edits.edit(rec.path, lambda _text, _rec: after)
    return Outcome(rec.id, rec.path, moved, refused, text, after)


def migrated(text: str, path: str) -> tuple[str, tuple[str, ...], str | None]:
    """(new text, keys moved, why not): the record with its body's lifecycle lines moved into
    frontmatter. Unchanged text and no keys when there is nothing to move or it is refused."""
    rec = records.parse(text, path)
    if records.is_rst(path):
        return (
            text,
            (),
            ("a reStructuredText record has no frontmatter: its status stays where its readers see it")
            if rec.status_line
            else None,
        )
    lines = records.split_lines(text.removeprefix("\ufeff"))
    section, fields = _status_lines(rec, lines), _field_lines(rec, lines)
    if not section and not fields:
        # A status read from elsewhere in the body (a table, a heading, a bold label) stays.
        where = f"its status is in {_where(rec, lines)}, which migrate leaves as it is"
        return text, (), where if rec.status_line else None
    refused = _says_more(rec, lines, section, fields)
    if refused:
        return text, (), refused
    gone = set(section) | set(fields)
    bom = "\ufeff" if text.startswith("\ufeff") else ""
    stripped = bom + "".join(line for n, line in enumerate(lines, 1) if n not in gone)
    rest = records.parse(stripped, path)
    if rest.status_line:
        where = _where(rest, records.split_lines(stripped.removeprefix("\ufeff")))
        return text, (), f"its status is also written where migrate does not move it ({where})"
    updates = {**_status(rec, rest), **_date(rec, rest), **_links(rec, rest)}
    after = records.set_keys(stripped, updates, path)
    changed = _changed(rec, records.parse(after, path))
    if changed:
        return text, (), f"moving it would change its {changed}"
    return after, tuple(updates), None


def _status_lines(rec: Record, lines: list[str]) -> range:
    """File lines (1-based) of the record's own Status section: its heading up to the next
    section at its level or above (the digest leaves out the same span)."""
    section = records.status_section(rec.sections)
    if section is None:
        return range(0)
    after = [s.line for s in rec.sections if s.line > section.line and s.level <= section.level]
    return range(section.line, after[0] if after else len(lines) + 1)


def _where(rec: Record, lines: list[str]) -> str:
    """What holds a status migrate does not move: a metadata table, a heading (`## Status:
    x`), or a dressed line (`**Status:** x`)."""
    line = lines[rec.status_line - 1].strip()
    return (
        "a metadata table"
        if line.startswith("|")
        else "a heading"
        if line.startswith("#")
        else "a line of its own style (`" + safe.one_line(line)[:60] + "`)"
    )


def _field_lines(rec: Record, lines: list[str]) -> dict[int, str]:
    """`Status:` and `Date:` lines before the first section (line -> which), as the digest
    reads them."""
    first = next((s.line for s in rec.sections if s.level > 1), len(lines) + 1)
    found = ((n, records.LIFECYCLE_LINE.match(lines[n - 1])) for n in range(rec.body_line, first))
    return {n: languages.field_name(match.group(1)) for n, match in found if match}


def _says_more(rec: Record, lines: list[str], section: range, fields: dict[int, str]) -> str | None:
    """Why removing these lines would lose something the record says, or None."""
    if rec.status_line and records.STATUS_LOG.match(lines[rec.status_line - 1]):
        return "its Status section logs each status with its date"
    named = list(fields.values())
    for field in ("status", "date"):
        if named.count(field) > 1:
            return f"it has {named.count(field)} {field.capitalize()}: lines"
    if ("date" in rec.meta and "date" in named) or ("status" in rec.meta and ("status" in named or section)):
        return "its frontmatter and its body both state a status or a date"
    said = [n for n in section if n not in (section.start, rec.status_line)]
    rest = records.without_comments("".join(lines[n - 1] for n in said))
    for text in rest.splitlines():
        if text.strip() and not _is_link_line(text.strip()):
            return "its Status section says more than a status and its links"
    return None


def _is_link_line(text: str) -> bool:
    """`Superseded by [3. Title](0003-title.md)`: relation words around links to records."""
    links = list(records.MD_LINK.finditer(text))
    if not links or not all(records.file_id(m.group(2).rsplit("/", 1)[-1]) is not None for m in links):
        return False
    words = re.findall(r"[a-z]+", records.MD_LINK.sub(" ", text).lower())
    return len(words) <= 4


def _status(rec: Record, rest: Record) -> dict[str, Any]:
    if not rec.status_stated or rest.status_stated or "status" in rec.meta:
        return {}
    if rec.status == "unknown":  # a word we do not know: keep it as written
        return {"status": records.MD_LINK.sub("", rec.status_text).strip()}
    reason = _reason(rec)
    return {"status": rec.status, **({"status-reason": reason} if reason else {})}


def _reason(rec: Record) -> str:
    """What the status text says after its word, without the links migrate moves to keys."""
    text = records.MD_LINK.sub(" ", rec.status_text)
    for _rel, pattern in records.STATUS_LINKS:
        text = pattern.sub(" ", text)
    first = re.match(r"\W*(\w+)", text)  # the status word, unless the relation took it ("Superseded by")
    rest = text[first.end() :] if first and records.normalise_status(first.group(1)) != "unknown" else text
    words = re.findall(r"\w+", rest.lower())
    if all(w in _RELATION_WORDS or w.isdigit() for w in words):
        return ""
    return " ".join(rest.split()).strip(" .,;:()[]-–—")


def _date(rec: Record, rest: Record) -> dict[str, Any]:
    if rec.date is None or rest.date == rec.date:
        return {}
    try:
        return {"date": dt.date.fromisoformat(rec.date)}
    except ValueError:
        return {"date": rec.date}


# The relations migrate writes as a key of their own; the others go to `links:` entries.
_OWN_KEYS = ("supersedes", "superseded-by", "relates-to", "depends-on")


def _links(rec: Record, rest: Record) -> dict[str, Any]:
    """The links only the removed lines stated, added to the frontmatter's own lists."""
    kept = {(link.rel, link.target) for link in rest.links}
    moved = [link for link in rec.links if (link.rel, link.target) not in kept]
    updates: dict[str, Any] = {}
    for link in dict.fromkeys((link.rel, link.target) for link in moved):
        rel, target = link
        if rel in _OWN_KEYS:
            current = updates.setdefault(rel, _listed(rest.meta.get(rel)))
            current.append(target)
        else:
            entries = updates.setdefault("links", _listed(rest.meta.get("links")))
            entries.append({"rel": rel, "id": target})
    return updates


def _listed(value: Any) -> list[Any]:
    return list(value) if isinstance(value, list) else []


def _changed(before: Record, after: Record) -> str | None:
    """The first thing a reader or a version would see differently, or None."""
    checks = (
        ("content (its version)", digest(before), digest(after)),
        ("status", before.status, after.status),
        ("date", before.date, after.date),
        ("links", {(x.rel, x.target) for x in before.links}, {(x.rel, x.target) for x in after.links}),
        ("title", before.title, after.title),
        ("id", before.id, after.id),
        ("tags", before.tags, after.tags),
        ("problems", {p.kind for p in before.problems}, {p.kind for p in after.problems}),
    )
    return next((name for name, a, b in checks if a != b), None)


def as_json(outcomes: Sequence[Outcome], *, dry_run: bool) -> dict[str, Any]:
    return {
        "dry_run": dry_run,
        "migrated": [{"id": o.id, "path": o.path, "moved": list(o.moved)} for o in outcomes if o.moved],
        "left": [{"id": o.id, "path": o.path, "reason": o.refused} for o in outcomes if o.refused],
        "nothing_to_move": [o.id for o in outcomes if not o.moved and not o.refused],
    }
