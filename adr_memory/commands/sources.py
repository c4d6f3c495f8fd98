"""`adr sources add|update|list`: other repositories' decision folders, pinned in git
(history/sources.py, ADR-0097)."""

from __future__ import annotations

import json
from typing import Any

from adr_memory.base import CONFIG_FILE, SOURCE_NAME, kept_file, write_atomic
from adr_memory.errors import UsageError
from adr_memory.history import Workspace, sources
from adr_memory.records import redact_url


def add(ws: Workspace, name: str, url: str, ref: str = "main", dir: str = "") -> dict[str, Any]:
    """Name another repository's decision folder in `.adr-memory.toml` (a `[sources.NAME]`
    table appended, every other byte kept); `adr sources update` then fetches and pins it."""
    if not SOURCE_NAME.fullmatch(name):
        raise UsageError(f"source name {name!r} is not a short lowercase name", hint="e.g. platform")
    if any(s.name == name for s in ws.config.sources):
        raise UsageError(f"source {name} is already in {CONFIG_FILE}", hint=f"adr sources update {name}")
    path = kept_file(ws.root, CONFIG_FILE)
    before = path.read_bytes().decode("utf-8") if path.exists() else ""  # bytes: its line endings stay
    end = "\r\n" if "\r\n" in before else "\n"
    table = [f"[sources.{name}]", f"url = {json.dumps(url)}", f"ref = {json.dumps(ref or 'main')}"]
    table += [f"dir = {json.dumps(dir)}"] if dir else []
    joiner = "" if not before or before.endswith(end * 2) else (end if before.endswith(end) else end * 2)
    write_atomic(path, (before + joiner + end.join(table) + end).encode("utf-8"))
    return {"added": name, "url": redact_url(url), "config": CONFIG_FILE}


def update(ws: Workspace, names: list[str] | None = None) -> dict[str, Any]:
    """Fetch the named sources (all, without names) and pin each to the commit its ref names
    now, in `adr-sources.lock`: commit that file to move what every check here reads."""
    done = sources.update(ws, names)
    return {
        "lock": sources.LOCK,
        "sources": [
            {
                "name": u.pin.name,
                **u.pin.to_json(),
                "before": u.before,
                "moved": u.before != u.pin.commit,
                "note": u.note,
            }
            for u in done
        ],
    }


def listing(ws: Workspace) -> dict[str, Any]:
    """Each source: its URL (credentials never shown), ref, pinned commit and date, how many
    decisions it holds there, and whether its copy is here (else the problem, in one line)."""
    out = []
    for folder in ws.sources:
        pin = folder.pin
        out.append(
            {
                "name": folder.spec.name,
                "url": redact_url(folder.spec.url),
                "ref": folder.spec.ref,
                "commit": pin.commit if pin else None,
                "date": pin.date if pin else None,
                "dir": pin.dir if pin else folder.spec.dir or None,
                "records": len(folder.records),
                "fetched": folder.catalog is not None,
                "problem": folder.problem,
            }
        )
    return {"sources": out}
