"""`adr search`: the JSON contract of ARCHITECTURE.md §5."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from adr_memory.history import Workspace
from adr_memory.search import search as search_mod


def run(
    ws: Workspace,
    query: str,
    mode: str = "hybrid",
    status: str = "all",
    limit: int = 5,
    queries: list[str] | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> dict[str, Any]:
    """Find decisions by words and meaning (`mode`: keyword, semantic or hybrid); `status`
    filters (comma-separated, or all); `queries` are up to four other phrasings, whose finds
    come apart in `by_rephrasing`."""
    statuses = [s.strip().lower() for s in status.split(",") if s.strip()] or list(search_mod.DEFAULT_STATUSES)
    return search_mod.search(
        ws, query, mode=mode, statuses=statuses, limit=limit, progress=progress, alternatives=queries or ()
    )
