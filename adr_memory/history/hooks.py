"""`adr hooks install | uninstall`: plain git hooks that respect what is already there.

Our scripts carry a marker line; a foreign hook is kept as `<hook>.legacy` and run first;
uninstall removes only what we wrote and puts the legacy hook back.
"""

from __future__ import annotations

import contextlib
import os
import sys
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from adr_memory.base import kept_file, read_capped, write_atomic
from adr_memory.errors import AdrError, ConfigError, TooLarge, why_unreadable
from adr_memory.history.workspace import Workspace

MARKER = "# managed-by: adr-memory"
HOOKS = ("pre-commit", "post-commit", "post-merge")
# post-merge runs the same advisory script as post-commit: it calls `adr-hook <its own name>`.
_SCRIPT_OF = {"post-merge": "post-commit"}


@dataclass(frozen=True)
class HookAction:
    hook: str
    action: str  # installed, updated, kept-legacy, removed, restored-legacy, absent


def hooks_dir(ws: Workspace) -> Path:
    """The folder git runs hooks from: `core.hooksPath` when set (husky and friends; relative
    to the work tree root), else the hooks of the common git dir, which every linked worktree
    shares (a worktree's own git dir has a hooks folder git never runs)."""
    hooks_path = ws.repo.config_value("core", "hooksPath")
    if not hooks_path:
        return ws.repo.common_dir() / "hooks"
    named = Path(os.path.normpath(ws.root / os.path.expanduser(hooks_path)))
    real = named.resolve()
    # A folder named inside the work tree is the repository's to shape: a clone can commit
    # `.husky/_` as a link to ~/.local/bin, and installing would write (and move aside) a
    # `pre-commit` there. A folder the config names outside it is the user's own choice.
    if named.is_relative_to(ws.root) and not real.is_relative_to(ws.root.resolve()):
        raise ConfigError(
            f"core.hooksPath {hooks_path!r} leads out of the repository through a link it holds",
            hint="replace the link with a folder, or name the folder you mean in core.hooksPath",
        )
    return real


def is_ours(path: Path) -> bool:
    try:
        return MARKER in path.read_text(encoding="utf-8", errors="replace").split("\n", 3)[1]
    except (OSError, IndexError):
        return False


def script(name: str, python: str | None = None) -> str:
    source = _SCRIPT_OF.get(name, name)
    text = resources.files("adr_memory.hook_scripts").joinpath(source).read_text(encoding="utf-8")
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
                raise AdrError(
                    f"{path} exists and so does {legacy.name}; not overwriting either",
                    hint=f"merge them by hand, or remove {legacy}",
                )
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


# ---------------------------------------------------------------------------- Claude Code

CLAUDE_SETTINGS = ".claude/settings.json"
CLAUDE_COMMAND = "adr-hook agent-guard"
CLAUDE_MATCHER = "Edit|Write|MultiEdit|NotebookEdit|Bash"
MAX_SETTINGS = 1_000_000


_CLAUDE_MODULE = "-m adr_memory.hook agent-guard"


def claude_command(strict: bool = False, python: str | None = None, verb: str = "agent-guard") -> str:
    """What the agent's shell runs: the Python that installed adr-memory while it is still
    there (an agent's shell seldom has the venv on PATH), else `adr-hook` on PATH, which is
    what a teammate sharing the settings file has."""
    import shlex

    py = shlex.quote(python or sys.executable)
    verb += " --strict" if strict else ""
    return f"if [ -x {py} ]; then exec {py} -m adr_memory.hook {verb}; else exec adr-hook {verb}; fi"


# The opt-in recalls (issue 58): Claude Code event -> our verb. Each is installed only when asked.
RECALLS = {"SessionStart": "session-start", "UserPromptSubmit": "prompt"}


def _is_our_claude_hook(hook: Any) -> bool:
    command = str(hook.get("command", "")) if isinstance(hook, dict) else ""
    return (
        command.startswith(CLAUDE_COMMAND)
        or _CLAUDE_MODULE in command
        or any(f"-m adr_memory.hook {verb}" in command for verb in RECALLS.values())
    )


def _read_settings(path: Path) -> dict[str, Any]:
    import json

    if not path.exists():
        return {}
    try:
        data = json.loads(read_capped(path, MAX_SETTINGS).decode("utf-8"))
    except TooLarge as exc:
        raise AdrError(
            f"cannot read {CLAUDE_SETTINGS}: it is {exc.size:,} bytes", hint="fix it, then run this again"
        ) from None
    except (OSError, UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise AdrError(
            f"cannot read {CLAUDE_SETTINGS}: {why_unreadable(exc)}", hint="fix the JSON, then run this again"
        ) from None
    if not isinstance(data, dict):
        raise AdrError(f"{CLAUDE_SETTINGS} is not a JSON object", hint="fix it, then run this again")
    return data


def _write_settings(path: Path, data: dict[str, Any]) -> None:
    import json

    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(path, (json.dumps(data, indent=2, ensure_ascii=False) + "\n").encode("utf-8"))


def install_claude(
    ws: Workspace, *, strict: bool = False, read: bool = False, recalls: tuple[str, ...] = ()
) -> HookAction:
    """Merge our hooks into `.claude/settings.json`, keeping every other key and hook; running it
    again replaces only ours. The guard before edits always; before reads with `read`; and the
    recalls named (`SessionStart`, `UserPromptSubmit`: see RECALLS)."""
    path = kept_file(ws.root, CLAUDE_SETTINGS)
    data = _read_settings(path)
    hooks = data.setdefault("hooks", {})
    if not isinstance(hooks, dict):
        raise AdrError(f"hooks in {CLAUDE_SETTINGS} is not an object", hint="fix it by hand")
    existed = False
    for event in ("PreToolUse", *RECALLS):
        groups = hooks.get(event)
        if groups is not None and not isinstance(groups, list):
            raise AdrError(f"hooks.{event} in {CLAUDE_SETTINGS} is not a list", hint="fix it by hand")
        if isinstance(groups, list):
            existed = _drop_ours(groups) or existed
            if not groups:
                del hooks[event]
    matcher = CLAUDE_MATCHER + ("|Read" if read else "")
    guard = {"type": "command", "command": claude_command(strict)}
    hooks.setdefault("PreToolUse", []).append({"matcher": matcher, "hooks": [guard]})
    for event in recalls:
        command = {"type": "command", "command": claude_command(verb=RECALLS[event])}
        hooks.setdefault(event, []).append({"hooks": [command]})
    _write_settings(path, data)
    return HookAction("claude-code", "updated" if existed else "installed")


def uninstall_claude(ws: Workspace) -> HookAction:
    path = kept_file(ws.root, CLAUDE_SETTINGS)
    data = _read_settings(path)
    hooks = data.get("hooks") if isinstance(data.get("hooks"), dict) else None
    found = False
    for event in ("PreToolUse", *RECALLS):
        groups = hooks.get(event) if hooks is not None else None
        if isinstance(groups, list) and _drop_ours(groups):
            found = True
            if not groups:
                del hooks[event]  # type: ignore[union-attr]
    if not found:
        return HookAction("claude-code", "absent")
    if hooks is not None and not hooks:
        del data["hooks"]
    if data:
        _write_settings(path, data)
    else:  # nothing but ours was there: leave no `{}` behind, as if never installed
        path.unlink()
        with contextlib.suppress(OSError):
            path.parent.rmdir()  # `.claude/`, only when empty
    return HookAction("claude-code", "removed")


def _drop_ours(groups: list[Any]) -> bool:
    """Remove our hook from every matcher group (and groups left empty); whether any was there."""
    found = False
    for group in list(groups):
        hooks = group.get("hooks") if isinstance(group, dict) else None
        if not isinstance(hooks, list):
            continue
        kept = [h for h in hooks if not _is_our_claude_hook(h)]
        if len(kept) != len(hooks):
            found = True
            if kept:
                group["hooks"] = kept
            else:
                groups.remove(group)
    return found
