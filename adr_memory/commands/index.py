"""`adr index`: the search index built or refreshed, and what it took."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from adr_memory.history import Workspace

WAIT = 3600.0  # seconds `adr index` waits for another process's build


def run(ws: Workspace, rebuild: bool = False, progress: Callable[[int, int], None] | None = None) -> dict[str, Any]:
    """Build or refresh the search index (BM25 and vectors) in the cache."""
    from adr_memory.search import search, swap

    # Asked for by name, the index is worth waiting for: another process's build is used when
    # it ends, never built a second time in memory beside it.
    ctx = search.prepare(ws, rebuild=rebuild, progress=progress, wait=WAIT)
    if not ctx.built:
        swap.sweep(ws.cache_path)  # what a killed build left, kept by nothing
    header = ctx.index.meta.get("vectors") or {}
    return {
        "records": len(ctx.records),
        "sections": ctx.index.doc_count,
        "vectors": header.get("rows", 0),
        # what this run did: an index already current embedded nothing now (the stored build's
        # figures describe that build, not this run)
        "built": ctx.built,
        "embedded": header.get("embedded", 0) if ctx.built else 0,
        "reused": header.get("reused", 0) if ctx.built else header.get("rows", 0),
        "notes": [said for said in (ctx.fallback, ctx.note) if said],
    }
