"""`adr show ID`: one decision, now or as it was, with its sections, rules and links both ways."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from adr_memory.commands import facts, views
from adr_memory.commands.listing import record_json
from adr_memory.errors import UsageError
from adr_memory.history import Workspace
from adr_memory.records import Record, iso_date, redacted, standing

MAX_TEXT = 40_000  # characters of section text `get` answers with, shared among the records


@dataclass(frozen=True)
class Shown:
    record: Record
    extra: Mapping[str, Any]

    def to_json(self) -> dict[str, Any]:
        return record_detail_json(self.record, self.extra)


def run(ws: Workspace, id: str, version: str | None = None, at: str | None = None) -> Shown:
    """One decision by its id (7, 0007, ADR-7, ADR-0007); `version` an earlier version (vN, a
    version id or a commit), `at` the decision as it was at a commit."""
    rec, extra = views.shown(ws, id, version=version, at=at)
    return Shown(rec, extra)


def record_detail_json(rec: Record, extra: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The `adr show --json` object: the list object plus sections, rules and links."""
    rec = redacted(rec)
    data = record_json(rec, extra)
    data["sections"] = [{"heading": s.heading, "text": s.text} for s in rec.parts]
    data["rules"] = list(extra.get("rules", rec.rules) if extra else rec.rules)
    data["links"] = [{"rel": link.rel, "id": link.target} for link in rec.links]
    data["backlinks"] = list(extra.get("backlinks", [])) if extra else []
    data["heading"] = rec.heading
    data["format"] = rec.format
    return data


def get(ws: Workspace, ids: list[str]) -> list[dict[str, Any]]:
    """Full records (at most 20 ids): frontmatter, sections, considered options, rules,
    links, current version id, staleness with reasons. An id that names no decision is an error naming the
    nearest ones, never another decision."""
    if len(ids) > 20:
        raise UsageError("at most 20 ids per call", hint="split the request")
    from adr_memory.history import sources

    theirs = {ident: rec for ident in ids if ws.config.sources and (rec := sources.find(ws, ident)) is not None}
    named = {ident: ws.catalog.named(ident) for ident in ids if ident not in theirs}  # both files when two claim one id
    unknown = [ident for ident, recs in named.items() if not recs]
    if unknown:  # never another decision in its place: the agent must know it asked wrong
        raise UsageError(
            f"no decision {', '.join(repr(i) for i in unknown)} in {ws.catalog.adr_dir}",
            hint=ws.catalog.nearest_hint(unknown[0]),
        )
    known = iter(facts.gather(ws, [rec for recs in named.values() for rec in recs]))
    held = standing.of(ws.decisions)  # what holds, as `adr show` says it, with who made it so
    out: list[dict[str, Any]] = []
    for ident in ids:
        if ident in theirs:  # a source's decision, as pinned: its facts are its repository's
            out.append({**_from_source(theirs[ident])})
            continue
        for f in (next(known) for _ in named[ident]):
            said = held[f.record.path].to_json() if f.record.path in held else None
            if said is not None:
                said["changed"] = views.standing_changed(ws, f.record, said)
            out.append({**_full(f), "standing": said})
    _within([r for r in out if "sections" in r], MAX_TEXT)
    return out


def _full(f: facts.Facts) -> dict[str, Any]:
    """What `get` says of one record."""
    rec = f.record
    options = rec.section("considered options", "options")
    return {
        "id": rec.id,
        "title": rec.title,
        "status": rec.status,
        "path": rec.path,
        "frontmatter": {k: v for k, v in rec.meta.items() if k not in ("rules",)},
        "version_id": f.version_id,
        "date": iso_date(rec.date),
        "date_text": rec.date,
        "first_recorded": iso_date(f.first_recorded) or f.first_recorded,
        "considered_options": [
            o.strip("*- ").strip() for o in options.text.split("\n") if o.strip().startswith(("*", "-"))
        ]
        if options
        else [],
        "sections": [
            {"heading": s.heading, "text": s.text}
            for s in rec.parts
            if s.heading.lower() not in ("status", "changelog")
        ],
        "rules": list(rec.rules),
        "links": [{"rel": link.rel, "id": link.target} for link in rec.links],
        "staleness": f.staleness_json(),
    }


def _from_source(rec: Record) -> dict[str, Any]:
    shown = record_detail_json(rec)
    return {k: shown[k] for k in ("id", "title", "status", "path", "source", "sections", "rules", "links")}


def _within(records: list[dict[str, Any]], budget: int) -> None:
    """Cut the records' section texts to `budget` characters in all: short records stay whole,
    the long ones share what is left equally. A cut record keeps every heading and says how
    much it shows and which file has the rest (an agent can read it)."""
    sizes = sorted((sum(len(s["text"]) for s in r["sections"]), i) for i, r in enumerate(records))
    left = budget
    for done, (size, i) in enumerate(sizes):
        share = left // (len(sizes) - done)
        if size > share:
            _shorten(records[i], share, size)
        left -= min(size, share)


def _shorten(record: dict[str, Any], share: int, size: int) -> None:
    keep = share
    for section in record["sections"]:
        text = section["text"]
        if len(text) > keep:
            section["text"] = (text[:keep].rsplit(None, 1)[0] + " …") if keep else ""
            section["cut"] = True
        keep = max(0, keep - len(text))
    record["cut"] = {"shown_chars": share, "total_chars": size, "read": record["path"]}
