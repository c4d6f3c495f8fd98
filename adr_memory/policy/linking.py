"""`adr link` and supersession: the relation written into both records, in frontmatter or as
the body already states its links."""

from __future__ import annotations

import re
from dataclasses import dataclass

from adr_memory import records
from adr_memory.base import safe
from adr_memory.errors import InvalidRecord, UsageError
from adr_memory.policy.statuses import _body_too, _checklist, _in_table, _status_edit, _status_line
from adr_memory.records import Record, badges, rst

# rel as typed (lowercased) -> the frontmatter key it is stored under; others go to `links`.
_REL_KEYS = {
    "supersedes": "supersedes",
    "superseded by": "superseded-by",
    "relates to": "relates-to",
    "depends on": "depends-on",
}


@dataclass(frozen=True)
class LinkSpec:
    """`-l "5:Amends:Amended by"` (adr-tools): this record amends 5; 5 is amended by this one."""

    target: str
    rel: str
    reverse: str

    @classmethod
    def parse(cls, text: str) -> LinkSpec:
        parts = text.split(":")
        if len(parts) != 3 or not all(p.strip() for p in parts):
            raise UsageError(
                f"cannot read link {text!r}", hint='write it as "TARGET:Link:Reverse link", e.g. "5:Amends:Amended by"'
            )
        return cls(*(p.strip() for p in parts))


def link_text(text: str, rec: Record, rel: str, target: Record, *, status: str | None = None) -> str:
    """`rec --rel--> target` written in the record's own style: where it states its status
    (frontmatter, or a status line: a Jekyll page's `layout:` frontmatter does not make its
    Status section stale text)."""
    key = _REL_KEYS.get(rel.strip().lower())
    if _said(rec, rel, target) and status in (None, rec.status):
        return text  # said already, in the record's own words (prose under its title, too)
    if not rec.status_line and records.is_rst(rec.path) and status is not None and "status" not in rec.meta:
        return _status_edit(text, rec, status, line_text=_link_line(rec, rel, target))  # a Status section
    if not rec.status_line:
        return _frontmatter_link(text, rec, rel, key, target, status)
    if _in_table(text, rec) or badges.status_badge(_status_line(text, rec)):
        # the status changes in its cell or badge; the link goes where they have no room
        text = _status_edit(text, rec, status) if status is not None else text
        return _frontmatter_link(text, rec, rel, key, target, None)
    line = _link_line(rec, rel, target)
    if status is not None and key == "superseded-by":
        return _status_edit(text, rec, status, line_text=line)  # adr-tools replaces the status
    if line in text:
        return text
    stated = _status_line(text, rec)
    item = _LIST_ITEM.match(stated)
    if item and not records.TASK.match(stated):  # MADR 2's header list: an item of its own, in the list
        return records.insert_line_after(text, rec.status_line, item.group(0) + line)
    # adr-tools style: a blank line, then the link line (below a checklist, not in it)
    below = (
        _checklist([t.rstrip("\r\n") for t in records.split_lines(text.removeprefix("\ufeff"))], rec.status_line)[1]
        if records.TASK.match(stated)
        else rec.status_line
    )
    return records.insert_lines_after(text, below, ["", line])


_LIST_ITEM = re.compile(r"^[ \t]*[-*+][ \t]+")


def _said(rec: Record, rel: str, target: Record) -> bool:
    """Whether the record already links the target so, in its own words
    (`Supersedes [Pipeline](0001-pipeline.md)`): a second line would say it twice."""
    wanted = _REL_KEYS.get(rel.strip().lower(), rel.strip().lower())
    return any(link.rel == wanted and link.target == target.id for link in rec.links)


def _link_line(rec: Record, rel: str, target: Record) -> str:
    """`Superseded by [3. Title](0003-title.md)`, as adr-tools writes it: in reStructuredText's
    link syntax for such a record, and `Ersetzt durch` in a record whose status is German."""
    label = safe.one_line(target.title)
    if target.number is not None:  # adr-tools writes `[3. Title]`; a record named by date has no number
        label = f"{target.number}. {label}"
    relative = _relative(rec, target)
    key = _REL_KEYS.get(rel.strip().lower())
    said = (
        records.written(rec.status_text, {"superseded-by": "by", "supersedes": "replaces"}[key])
        if key in ("superseded-by", "supersedes")
        else None
    )
    return f"{said or rel.strip().capitalize()} " + (
        rst.link(label, relative) if records.is_rst(rec.path) else f"[{label}]({relative})"
    )


def _frontmatter_link(text: str, rec: Record, rel: str, key: str | None, target: Record, status: str | None) -> str:
    updates: dict[str, object] = {}
    if key is not None:
        current = list(rec.linked(key))
        updates[key] = current + [target.id] if target.id not in current else current
    else:
        written = rec.meta.get("links") or []
        if not isinstance(written, list):  # rewriting it would lose what the author wrote
            raise InvalidRecord(
                f"{rec.path}: `links` is not a list, so no link can join it",
                hint="write it as links: [{rel: amends, id: ADR-0003}] first (`adr check`)",
            )
        links = [dict(x) for x in written if isinstance(x, dict)]
        entry = {"rel": rel.strip().lower(), "id": target.id}
        updates["links"] = links + [entry] if entry not in links else links
    if status is not None:
        updates["status"] = status
        text = _body_too(text, rec, status)
    return records.set_keys(text, updates, rec.path)


def _relative(rec: Record, target: Record) -> str:
    import posixpath

    return posixpath.relpath(target.path, posixpath.dirname(rec.path))
