"""`adr export`: every record as data (json, jsonl) or one markdown document.

Field names are stable (README: Export) so a search cluster can ingest many repositories'
decisions; sections holding credentials are redacted as everywhere else.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from adr_memory.base import write_text_atomic
from adr_memory.commands import facts
from adr_memory.errors import AdrError
from adr_memory.history import Workspace, versions
from adr_memory.records import Record, iso_date, standing


def documents(ws: Workspace) -> list[dict[str, Any]]:
    """One flat document per record."""
    stamp = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    records = list(ws.catalog)
    held = standing.of(records)
    return [_document(ws, raw, f, stamp, held[raw.path]) for raw, f in zip(records, facts.gather(ws, records))]


def _document(ws: Workspace, raw: Record, f: facts.Facts, stamp: str, held: standing.Standing) -> dict[str, Any]:
    rec = f.record
    verdict = f.verdict
    return {
        "repository": ws.root.name,
        "id": rec.id,
        "number": rec.number,
        "title": rec.title,
        "status": rec.status,
        "status_text": rec.status_text,
        "path": rec.path,
        "date": iso_date(rec.date),
        "date_text": rec.date,
        "first_recorded": iso_date(f.first_recorded),
        "version_id": f.version_id,
        "digest": versions.digest(raw),
        "versions": f.versions,
        "governs": list(rec.governs),
        "tags": list(rec.tags),
        "supersedes": list(rec.supersedes),
        "superseded_by": list(rec.superseded_by),
        "depends_on": list(rec.depends_on),
        "relates_to": list(rec.linked("relates-to")),
        # every relation the record states, as it names it (`amends`, `refers to`...)
        "links": [{"rel": link.rel, "id": link.target} for link in rec.links],
        "standing": held.to_json(),
        "sections": [{"heading": s.heading, "text": s.text} for s in rec.parts],
        "text": "\n\n".join(f"{s.heading}\n{s.text}" for s in rec.parts),
        "stale": f.stale,
        "staleness": verdict.state if verdict else None,
        "staleness_reason": verdict.reason if verdict else None,
        "exported_at": stamp,
    }


def render(docs: list[dict[str, Any]], fmt: str) -> str:
    if fmt == "json":
        return json.dumps(docs, indent=2, ensure_ascii=False) + "\n"
    if fmt == "jsonl":
        return "".join(json.dumps(d, ensure_ascii=False, separators=(",", ":")) + "\n" for d in docs)
    parts = ["# Architecture decisions", ""]
    for d in docs:
        parts += [
            f"## {d['id']}: {d['title']}",
            "",
            f"*{d['standing']['label']}* · version {d['version_id']} · first recorded {d['first_recorded']}"
            + (f" · stale ({d['staleness_reason']})" if d["stale"] else ""),
            "",
        ]
        if d["links"]:
            parts += ["; ".join(f"{link['rel']} {link['id']}" for link in d["links"]), ""]
        for section in d["sections"]:
            parts += [f"### {section['heading']}", "", section["text"], ""]
    return "\n".join(parts)


def write(path: Path, text: str) -> None:
    """The export written to `path` whole or not at all; where it cannot be, one error and a hint."""
    try:
        write_text_atomic(path, text)
    except AdrError as exc:
        raise AdrError(exc.message, hint=exc.hint or "name a file in a folder that exists, with --output") from None
