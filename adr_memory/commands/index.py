"""`adr index`: the search index built or refreshed, and what it took."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from adr_memory.history import Workspace


def run(ws: Workspace, rebuild: bool = False, progress: Callable[[int, int], None] | None = None) -> dict[str, Any]:
    """Build or refresh the search index (BM25 and vectors) in the cache."""
    from adr_memory.search import search

    ctx = search.prepare(ws, rebuild=rebuild, progress=progress)
    header = ctx.index.meta.get("vectors") or {}
    return {
        "records": len(ctx.records),
        "sections": ctx.index.doc_count,
        "vectors": header.get("rows", 0),
        "embedded": header.get("embedded", 0),
        "reused": header.get("reused", 0),
        "notes": [said for said in (ctx.fallback, ctx.note) if said],
    }
