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
    """Find decisions by words and meaning, whatever their status (each row says it; a
    superseded one names its successor). `mode`: keyword, semantic or hybrid. `status` filters:
    comma-separated proposed, accepted, rejected, deprecated, superseded or all. Returns
    no_strong_match=true when the records do not answer the question; otherwise confidence is
    high, or low when the answer is barely closer than unrelated questions come or misses the
    question's topic words: read a low-confidence record before acting on it. `queries` (up to
    4) are other phrasings of the same question: the results stay the question's; records only
    a phrasing reached come apart in `by_rephrasing`, each naming it (they answer that
    phrasing, not you)."""
    statuses = [s.strip().lower() for s in status.split(",") if s.strip()] or list(search_mod.DEFAULT_STATUSES)
    return search_mod.search(
        ws, query, mode=mode, statuses=statuses, limit=limit, progress=progress, alternatives=queries or ()
    )
