"""`adr eval`: search scored on question sets, beside the naive dense baseline."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from adr_memory.history import Workspace
from adr_memory.search import search

MODES = search.MODES  # keyword, semantic, hybrid


def run(
    ws: Workspace,
    queries: Sequence[Path],
    folders: Sequence[Path] = (),
    *,
    modes: Sequence[str] = MODES,
    limit: int = 5,
    progress: Callable[[int, int], None] | None = None,
    fitting: Callable[[int, int], None] | None = None,
) -> dict[str, Any]:
    """recall@k, MRR, refusals, how often `high` is right, and every miss, per set and mode;
    with several sets, leave-one-folder-out too."""
    from adr_memory.search import evaluation

    sets = evaluation.question_sets(ws, queries, folders)
    return evaluation.evaluate(sets, modes=modes, limit=limit, progress=progress, fitting=fitting)
