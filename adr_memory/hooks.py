"""`adr hooks install | uninstall`: plain git hooks that respect what is already there.

Our scripts carry a marker line; a foreign hook is kept as `<hook>.legacy` and run first;
uninstall removes only what we wrote and puts the legacy hook back.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from adr_memory.errors import AdrError
from adr_memory.files import write_atomic
from adr_memory.workspace import Workspace

MARKER = "# managed-by: adr-memory"
HOOKS = ("pre-commit", "post-commit")


@dataclass(frozen=True)
class HookAction:
    hook: str
    action: str  # installed, updated, kept-legacy, removed, restored-legacy, absent


def hooks_dir(ws: Workspace) -> Path:
    """The folder git runs hooks from: `core.hooksPath` when set (husky and friends; relative
    to the work tree root), else the hooks of the common git dir, which every linked worktree
    shares (a worktree's own git dir has a hooks folder git never runs)."""
    hooks_path = ws.repo.config_value("core", "hooksPath")
    if hooks_path:
        return (ws.root / os.path.expanduser(hooks_path)).resolve()
    return ws.repo.common_dir() / "hooks"


def is_ours(path: Path) -> bool:
    try:
        return MARKER in path.read_text(encoding="utf-8", errors="replace").split("\n", 3)[1]
    except (OSError, IndexError):
        return False


def script(name: str, python: str | None = None) -> str:
    text = resources.files("adr_memory.hook_scripts").joinpath(name).read_text(encoding="utf-8")
    return text.replace("@PYTHON@", python or sys.executable)


def install(ws: Workspace, names: tuple[str, ...] = HOOKS) -> list[HookAction]:
    folder = hooks_dir(ws)
    folder.mkdir(parents=True, exist_ok=True)
    actions = []
    for name in names:
        path = folder / name
        action = "installed"
        if path.exists() and is_ours(path):
            action = "updated"
        elif path.exists():
            legacy = path.with_name(name + ".legacy")
            if legacy.exists():
                raise AdrError(f"{path} exists and so does {legacy.name}; not overwriting either",
                               hint=f"merge them by hand, or remove {legacy}")
            os.replace(path, legacy)
            action = "kept-legacy"
        write_atomic(path, script(name).encode("utf-8"))
        path.chmod(0o755)
        actions.append(HookAction(name, action))
    return actions


def uninstall(ws: Workspace, names: tuple[str, ...] = HOOKS) -> list[HookAction]:
    folder = hooks_dir(ws)
    actions = []
    for name in names:
        path = folder / name
        legacy = path.with_name(name + ".legacy")
        if not path.exists() or not is_ours(path):
            actions.append(HookAction(name, "absent"))
            continue
        path.unlink()
        if legacy.exists():
            os.replace(legacy, path)
            actions.append(HookAction(name, "restored-legacy"))
        else:
            actions.append(HookAction(name, "removed"))
    return actions
