"""`adr export`: every record as data (json, jsonl) or one markdown document.

Field names are stable (README: Export) so a search cluster can ingest many repositories'
decisions; sections holding credentials are redacted as everywhere else.
"""

from __future__ import annotations

import json
import time
from typing import Any

from adr_memory import credentials, staleness, versions
from adr_memory.errors import AdrError
from adr_memory.record import Record
from adr_memory.workspace import Workspace

FORMATS = ("json", "jsonl", "md")


def documents(ws: Workspace) -> list[dict[str, Any]]:
    """One flat document per record."""
    records = list(ws.catalog)
    try:
        history = versions.walk(ws)
        verdicts = {v.id: v for v in staleness.report(ws, history=history)}
    except AdrError:
        history, verdicts = None, {}
    stamp = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    return [_document(ws, rec, history, verdicts.get(rec.id), stamp) for rec in records]


def _document(ws: Workspace, raw: Record, history: Any, verdict: Any, stamp: str) -> dict[str, Any]:
    rec = credentials.redacted(raw)
    listed = versions.versions(ws, raw, history) if history is not None else []
    return {
        "repository": ws.root.name, "id": rec.id, "number": rec.number, "title": rec.title,
        "status": rec.status, "status_text": rec.status_text, "path": rec.path,
        "date": rec.date, "first_recorded": versions.first_recorded(raw, history) if history else rec.date,
        "version_id": listed[0].version_id if listed else None,
        "digest": versions.digest(raw), "versions": len([v for v in listed if not v.draft]),
        "governs": list(rec.governs), "tags": list(rec.tags),
        "supersedes": list(rec.supersedes), "superseded_by": list(rec.superseded_by),
        "depends_on": list(rec.depends_on), "relates_to": list(rec.linked("relates-to")),
        "sections": [{"heading": s.heading, "text": s.text} for s in rec.sections],
        "text": "\n\n".join(f"{s.heading}\n{s.text}" for s in rec.sections),
        "stale": verdict.stale if verdict else None,
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
        parts += [f"## {d['id']}: {d['title']}", "",
                  f"*{d['status']}* · version {d['version_id']} · first recorded {d['first_recorded']}"
                  + (f" · stale ({d['staleness_reason']})" if d["stale"] else ""), ""]
        for section in d["sections"]:
            parts += [f"### {section['heading']}", "", section["text"], ""]
    return "\n".join(parts)
