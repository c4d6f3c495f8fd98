"""`adr guard PATH...` / `adr why PATH...`: the decisions governing files, whether they hold,
the rules that apply and any conflict (README: JSON output)."""

from __future__ import annotations

from typing import Any

from adr_memory.commands import views
from adr_memory.history import Workspace


def run(ws: Workspace, paths: list[str]) -> dict[str, Any]:
    """For each path (repo-relative or absolute), the decisions governing it and whether they
    hold, the rules that apply to it and the conflicts among its decisions."""
    return views.guard(ws, paths)
