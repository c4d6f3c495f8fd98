"""Every command once: the name people and agents call it by, and the function of this package
that answers it (as pip's `commands_dict`). The CLI's commands, the MCP servers' tools and the
hooks are each entered here; `tests/commands/test_registry.py` holds each surface to it, so a
command is never answered two ways."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

# `adr NAME` (a group's commands as "GROUP NAME") -> "module:function" of adr_memory.commands.
CLI: dict[str, str] = {
    "init": "init:run",
    "new": "new:run",
    "list": "listing:run",
    "show": "show:run",
    "log": "log:run",
    "diff": "views:diff_text",
    "accept": "lifecycle:set_status",
    "reject": "lifecycle:set_status",
    "deprecate": "lifecycle:set_status",
    "supersede": "lifecycle:supersede",
    "link": "lifecycle:link",
    "migrate": "migrate:run",
    "export": "export:documents",
    "site": "site:gather",
    "stale": "stale:run",
    "affirm": "lifecycle:affirm",
    "feedback": "feedback:run",
    "why": "guard:run",
    "guard": "guard:run",
    "index": "index:run",
    "search": "search:run",
    "eval": "evaluate:run",
    "mcp": "serving:mcp",  # settles the tools below; surfaces/mcp.py serves them
    "check": "check:run",
    "review": "review:report",
    "generate toc": "generate:run",  # drawn by surfaces/generate.py
    "generate graph": "generate:run",
    "hooks install": "hooks:install",
    "hooks uninstall": "hooks:uninstall",
    "sources add": "sources:add",
    "sources remove": "sources:remove",
    "sources update": "sources:update",
    "sources list": "sources:listing",
    "hub init": "hub:init",
    "hub publish": "hub:publish",
    "hub search": "hub:search",
    "hub list": "hub:listing",
    "hub stale": "hub:stale",
    "hub conflicts": "hub:conflicts",
    "hub exceptions": "hub:excepted",
    "hub show": "hub:shown",
    "hub diff": "hub:version_diff",
    "hub timeline": "hub:timeline",
    "hub site": "hub:listing",
    "hub serve": "serving:hub",  # checked here; surfaces/server.py serves the reads over HTTP
    "hub token add": "hub:token_add",
    "hub token list": "hub:token_list",
    "hub token revoke": "hub:token_revoke",
    "hub remove": "hub:remove",
    "hub rename": "hub:rename",
}

# `adr mcp`'s tools (the write tools only with --allow-write).
MCP: dict[str, str] = {
    "search": "search:run",
    "get": "show:get",
    "timeline": "log:story",
    "guard": "guard:run",
    "stale": "stale:run",
    "feedback": "feedback:run",
    "list": "listing:run",
    "show": "show:run",
    "log": "log:run",
    "check": "check:run",
    "new": "new:run",
    "affirm": "lifecycle:affirm",
    "accept": "lifecycle:accept",
    "reject": "lifecycle:reject",
    "deprecate": "lifecycle:deprecate",
    "supersede": "lifecycle:supersede",
    "link": "lifecycle:link",
}
MCP_WRITES = frozenset({"new", "affirm", "accept", "reject", "deprecate", "supersede", "link"})

# `adr mcp --hub URL`'s tools: the organisation's hub, read-only.
MCP_HUB: dict[str, str] = {
    "search": "hub:search",
    "list": "hub:listing",
    "show": "hub:shown",
    "diff": "hub:version_diff",
    "timeline": "hub:timeline",
    "stale": "hub:stale",
    "conflicts": "hub:conflicts",
    "exceptions": "hub:excepted",
}

# The git and agent hooks (`adr-hook NAME`; pre-commit's hooks and `adr hooks install` run them).
HOOKS: dict[str, str] = {
    "lint": "hooks:lint",
    "guard": "guard:run",
    "pre-commit": "hooks:pre_commit",  # then hooks:lint on its records, guard:run on its code
    "post-commit": "hooks:post_commit",
    "post-merge": "hooks:post_merge",
    "agent-guard": "guard:run",
    "session-start": "views:digest",
    "prompt": "search:run",
}


def get(target: str) -> Callable[..., Any]:
    """The function `target` ("module:function") names, its module imported on first use."""
    module, _, function = target.partition(":")
    found: Callable[..., Any] = getattr(importlib.import_module(f"adr_memory.commands.{module}"), function)
    return found


def tool(name: str) -> Callable[..., Any]:
    """The command behind `adr mcp`'s tool `name`."""
    return get(MCP[name])
