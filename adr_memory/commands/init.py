"""`adr init`: the ADR folder, a first record and the config, in a folder's own style."""

from __future__ import annotations

from typing import Any

from adr_memory.errors import UsageError
from adr_memory.history import Workspace
from adr_memory.policy import init as policy_init


def run(ws: Workspace, template: str | None = None) -> Any:
    """Create the ADR folder, a first record and `.adr-memory.toml`; ignore the cache in git."""
    if template not in (None, "madr", "nygard"):
        raise UsageError(f"unknown template {template!r}", hint="use --template madr or nygard")
    return policy_init(ws, template=template)
