"""`adr hooks install|uninstall`: our git hooks, or the coding-agent guard, in and out."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from adr_memory.history import Workspace
from adr_memory.history import hooks as git_hooks


def install(
    ws: Workspace,
    hooks: Sequence[str],
    claude: bool,
    *,
    strict: bool = False,
    read: bool = False,
    recalls: Sequence[str] = (),
) -> list[Any]:
    """Install our git hooks (a foreign hook is kept as <hook>.legacy and run first), and the
    coding-agent guard into .claude/settings.json (other settings kept) with the recalls asked for."""
    actions = git_hooks.install(ws, tuple(hooks)) if hooks else []
    if claude:
        actions.append(git_hooks.install_claude(ws, strict=strict, read=read, recalls=tuple(recalls)))
    return actions


def uninstall(ws: Workspace, hooks: Sequence[str], claude: bool) -> list[Any]:
    """Remove only our hooks and put any legacy hook back; for claude-code, only ours."""
    actions = git_hooks.uninstall(ws, tuple(hooks)) if hooks else []
    if claude:
        actions.append(git_hooks.uninstall_claude(ws))
    return actions


def lint(ws: Workspace, only: Sequence[str]) -> Any:
    """What the pre-commit hook judges: the lint findings of these records alone (no rules, no
    history: it runs on every commit)."""
    from adr_memory.commands.check import Checked
    from adr_memory.policy import check

    return Checked(check.lint(ws.catalog, only=only, require_status=ws.config.require_status == "true"))


def made_stale(ws: Workspace, touched: set[str]) -> list[Any]:
    """The decisions stale because of these paths (a commit's, or what a merge brought in)."""
    from adr_memory.history import staleness

    if not any(staleness.governing(list(ws.catalog), p) for p in touched):
        return []  # the common case: nothing governed changed, no history walk needed
    return [v for v in staleness.report(ws) if v.state == "stale" and set(v.changed) & touched]
