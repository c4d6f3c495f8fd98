"""Writing records: `adr new`, `adr accept|reject|deprecate`, `adr supersede`, `adr link`.

Every edit goes through `record.set_keys` or a one-line replacement, so only the keys (or the
status line) a command owns change; everything else in the file stays byte for byte.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from adr_memory import record
from adr_memory.errors import InvalidRecord, UsageError
from adr_memory.files import write_text_atomic
from adr_memory.globs import problem as glob_problem
from adr_memory.record import Record
from adr_memory.workspace import Workspace

# rel as typed (lowercased) -> the frontmatter key it is stored under; others go to `links`.
_REL_KEYS = {"supersedes": "supersedes", "superseded by": "superseded-by",
             "relates to": "relates-to", "depends on": "depends-on"}


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
            raise UsageError(f"cannot read link {text!r}",
                             hint='write it as "TARGET:Link:Reverse link", e.g. "5:Amends:Amended by"')
        return cls(*(p.strip() for p in parts))


def slugify(title: str) -> str:
    slug = re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")
    return slug[:60].rstrip("-") or "decision"


def today() -> str:
    return dt.date.today().isoformat()


# ---------------------------------------------------------------------------- adr new


def template_text(ws: Workspace, name: str | None = None) -> str:
    """The user's `<adr_dir>/templates/template.md` if present, else the bundled one."""
    own = ws.adr_path / "templates" / "template.md"
    if name is None and own.is_file():
        return own.read_text(encoding="utf-8")
    chosen = name or ws.config.template
    return resources.files("adr_memory.templates").joinpath(f"{chosen}.md").read_text("utf-8")


def render_template(template: str, *, number: int, title: str, status: str, date: str) -> str:
    values = {"number": str(number), "title": title, "status": status,
              "Status": status.capitalize(), "date": date}
    text = template
    for key, value in values.items():
        text = text.replace("{" + key + "}", value)
    # adr-tools templates use bare upper-case words.
    for key in ("NUMBER", "TITLE", "DATE", "STATUS"):
        text = re.sub(rf"\b{key}\b", values[key.lower()] if key != "STATUS" else status.capitalize(),
                      text)
    return text


def _file_name(ws: Workspace, number: int, title: str) -> str:
    """Follow the folder's own naming (`0007-`, `007-`, `adr-007-`) so new files sit in line."""
    names = [r.path.rsplit("/", 1)[-1] for r in ws.catalog if r.number is not None]
    prefix, width = "", 4
    if names:
        sample = names[-1]
        match = re.match(r"^((?:adr[-_])?)(\d+)", sample, re.IGNORECASE)
        if match:
            prefix, width = match.group(1), len(match.group(2))
    return f"{prefix}{number:0{width}d}-{slugify(title)}.md"


def create(ws: Workspace, title: str, *, supersedes: Sequence[str] = (),
           links: Sequence[LinkSpec] = (), governs: Sequence[str] = (), tags: Sequence[str] = (),
           status: str = "proposed", template: str | None = None) -> Path:
    """Write a new record and the reverse links on the records it names; return its path."""
    if not title.strip():
        raise UsageError("a decision needs a title", hint='adr new "Use PostgreSQL for storage"')
    if status not in record.STATUSES:
        raise UsageError(f"unknown status {status!r}", hint="one of: " + ", ".join(record.STATUSES))
    for glob in governs:
        why = glob_problem(glob)
        if why:
            raise UsageError(f"governs glob {glob!r} {why}", hint='e.g. --governs "src/db/**"')
    old = [ws.catalog.get(i) for i in supersedes]
    targets = [(spec, ws.catalog.get(spec.target)) for spec in links]
    number = ws.catalog.next_number()
    path = ws.adr_path / _file_name(ws, number, title)
    text = render_template(template_text(ws, template), number=number, title=title.strip(),
                           status=status, date=today())
    text = _with_keys(text, governs=list(governs), tags=list(tags))
    ws.adr_path.mkdir(parents=True, exist_ok=True)
    write_text_atomic(path, text)
    new = _reload(ws, path)
    for prev in old:
        add_link(ws, new, "supersedes", prev)
        add_link(ws, _reload(ws, ws.root / prev.path), "superseded by", new, status="superseded")
        new = _reload(ws, path)
    for spec, target in targets:
        add_link(ws, new, spec.rel, target)
        add_link(ws, _reload(ws, ws.root / target.path), spec.reverse, new)
        new = _reload(ws, path)
    return path


def _with_keys(text: str, **values: list[str]) -> str:
    """Fill list keys the template declares (or add them when asked and not declared)."""
    parsed = record.parse(text, "new.md")
    updates = {k: v for k, v in values.items() if v or k in parsed.meta}
    return record.set_keys(text, updates) if updates else text


def _reload(ws: Workspace, path: Path) -> Record:
    ws.reload()
    return ws.catalog.get(path.relative_to(ws.root).as_posix())


# ---------------------------------------------------------------------------- status and links


def set_status(ws: Workspace, ident: str, status: str) -> Record:
    """`adr accept|reject|deprecate ID`: change the status, and only the status."""
    rec = ws.catalog.get(ident)
    text = _read(ws, rec)
    _write(ws, rec, _status_edit(text, rec, status))
    return _reload(ws, ws.root / rec.path)


def _status_edit(text: str, rec: Record, status: str, line_text: str | None = None) -> str:
    if rec.meta or not rec.status_line:
        return record.set_keys(text, {"status": status})
    current = record.split_lines(text.removeprefix("\ufeff"))[rec.status_line - 1]
    list_field = re.match(r"^(\s*[*-]\s+Status\s*:\s*)", current, re.IGNORECASE)
    if list_field:  # MADR 2/3 `* Status: accepted`
        return record.replace_line(text, rec.status_line, list_field.group(1) + (line_text or status))
    return record.replace_line(text, rec.status_line, line_text or status.capitalize())


def supersede(ws: Workspace, old_id: str, new_id: str) -> tuple[Record, Record]:
    """`adr supersede OLD --by NEW`: both sides, so the pair stays consistent."""
    old, new = ws.catalog.get(old_id), ws.catalog.get(new_id)
    if old.id == new.id:
        raise UsageError("a decision cannot supersede itself")
    add_link(ws, new, "supersedes", old)
    add_link(ws, _reload(ws, ws.root / old.path), "superseded by", new, status="superseded")
    return _reload(ws, ws.root / old.path), _reload(ws, ws.root / new.path)


def link(ws: Workspace, source: str, rel: str, target: str, reverse: str | None = None) -> None:
    """`adr link SRC LINK TGT [REVERSE]` (adr-tools): record a relation, and its reverse if given."""
    src, tgt = ws.catalog.get(source), ws.catalog.get(target)
    add_link(ws, src, rel, tgt)
    if reverse:
        add_link(ws, _reload(ws, ws.root / tgt.path), reverse, src)


def add_link(ws: Workspace, rec: Record, rel: str, target: Record, *,
             status: str | None = None) -> None:
    """Record `rec --rel--> target` in the record's own style (frontmatter or a status line)."""
    text = _read(ws, rec)
    key = _REL_KEYS.get(rel.strip().lower())
    if rec.meta or not rec.status_line:
        _write(ws, rec, _frontmatter_link(text, rec, rel, key, target, status))
        return
    line = f"{rel.strip().capitalize()} [{target.number}. {target.title}]({_relative(rec, target)})"
    if status is not None and key == "superseded-by":
        text = _status_edit(text, rec, status, line_text=line)  # adr-tools replaces the status
    elif line not in text:  # adr-tools style: a blank line, then the link line
        text = record.insert_line_after(text, rec.status_line, line)
        text = record.insert_line_after(text, rec.status_line, "")
    _write(ws, rec, text)


def _frontmatter_link(text: str, rec: Record, rel: str, key: str | None, target: Record,
                      status: str | None) -> str:
    updates: dict[str, object] = {}
    if key is not None:
        current = list(rec.linked(key))
        updates[key] = current + [target.id] if target.id not in current else current
    else:
        links = [dict(x) for x in rec.meta.get("links") or [] if isinstance(x, dict)]
        entry = {"rel": rel.strip().lower(), "id": target.id}
        updates["links"] = links + [entry] if entry not in links else links
    if status is not None:
        updates["status"] = status
    return record.set_keys(text, updates)


def _relative(rec: Record, target: Record) -> str:
    import posixpath

    return posixpath.relpath(target.path, posixpath.dirname(rec.path))


def _read(ws: Workspace, rec: Record) -> str:
    if any(p.kind in ("yaml", "encoding", "binary", "too-large", "symlink") for p in rec.problems):
        raise InvalidRecord(f"{rec.path} cannot be edited safely: {rec.problems[0].message}",
                            hint=rec.problems[0].hint or "fix the file first (`adr check`)")
    # newline="" keeps CRLF and lone CR exactly as they are.
    with open(ws.root / rec.path, encoding="utf-8", newline="") as handle:
        return handle.read()


def _write(ws: Workspace, rec: Record, text: str) -> None:
    write_text_atomic(ws.root / rec.path, text)


def affirm(ws: Workspace, ident: str, *, note: str | None = None) -> Record:
    """`adr affirm ID`: write `reviewed: {commit, date, note}`, and only that key."""
    rec = ws.catalog.get(ident)
    head = ws.repo.head()
    reviewed: dict[str, object] = {"commit": head[:12] if head else None,
                                   "date": dt.date.today()}
    if note:
        reviewed["note"] = " ".join(note.split())
    _write(ws, rec, record.set_keys(_read(ws, rec), {"reviewed": reviewed}))
    return _reload(ws, ws.root / rec.path)
