"""The `adr` command line: the entry point, and the one shape a bad argument is told in.

The commands live in `commands_records` (reading and editing records) and `commands_checks`
(staleness, search, checks, review, hooks); importing them registers them on `app`. Heavy
modules (search index, embeddings, git history) are imported inside the commands that need
them, so `adr --help` and `adr check` start fast.
"""

from __future__ import annotations

import copy
import functools
import importlib
import os
import sys
from collections.abc import Sequence
from typing import Any, cast

import typer
import typer.main

from adr_memory.errors import UsageError
from adr_memory.surfaces import boundary
from adr_memory.surfaces.app import app

# Importing a command module registers its commands on `app`; `adr --help` lists them in this order.
for _commands in ("commands_records", "commands_checks", "commands_hub"):
    importlib.import_module(f"adr_memory.surfaces.{_commands}")


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point for the `adr` and `adr-memory` scripts; returns the exit code."""
    args = list(argv) if argv is not None else sys.argv[1:]
    _completion_for_the_shell_named(args)

    def typer_app() -> int:
        try:
            code = _command(args)(args=args, prog_name="adr", standalone_mode=False)
        except typer.Abort:  # Ctrl-C while the arguments were read
            return boundary.INTERRUPTED
        except _CLICK_ERROR as exc:  # a bad argument: told like every other error, in two lines
            if type(exc).__name__ == "NoArgsIsHelpError":  # `adr` alone: the help, on stderr, exit 2
                cast(Any, exc).show()
                return 2
            raise _usage_error(exc, args) from None
        except SystemExit as exc:
            return exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
        return code if isinstance(code, int) else 0

    return boundary.run(typer_app, args)


_SHELLS = ("bash", "zsh", "fish", "powershell", "pwsh")


def _completion_for_the_shell_named(args: list[str]) -> None:
    """`adr --show-completion zsh` from bash: the zsh script. Typer's flag takes no value when it
    detects the shell itself (the word after it was dropped and bash's script printed); its
    switch for a named shell is read when the command is built, so it is set first. The flag
    alone, where no shell runs above adr (a script, a CI runner), names the login shell."""
    if args in (["--show-completion"], ["--install-completion"]) and (shell := _login_shell()):
        args.append(shell)
    if len(args) >= 2 and args[0] in ("--show-completion", "--install-completion") and args[1] in _SHELLS:
        os.environ["_TYPER_COMPLETE_TEST_DISABLE_SHELL_DETECTION"] = "1"


def _login_shell() -> str | None:
    """$SHELL's name when typer cannot tell the shell from the processes above adr (it then
    printed "Shell  not supported."); None when it can, or $SHELL names none it knows."""
    try:
        import shellingham  # typer's own means of telling the shell
    except ImportError:
        return None
    try:
        shellingham.detect_shell()
        return None
    except (shellingham.ShellDetectionFailure, OSError):
        name = os.path.basename(os.environ.get("SHELL", ""))
        return name if name in _SHELLS else None


def _command(args: Sequence[str] = ()) -> Any:
    """The click command typer builds from `app`, its placeholders in words people read.

    Typer reads the type hints of every command's function to build it: ~60 ms for the whole
    tree, paid again by every run. A run of one command (`adr list ...`) gets a tree of that
    command alone; `adr`, `adr --help`, an unknown command and shell completion the whole one."""
    command = typer.main.get_command(_only(args[0]) if args and not _completing() else app)
    _plain_placeholders(command)
    return command


def _only(name: str) -> typer.Typer:
    """`app` with the command or group called `name` alone (all of it, when there is none)."""
    commands = [c for c in app.registered_commands if _name_of(c) == name]
    groups = [g for g in app.registered_groups if g.name == name]
    if not commands and not groups:
        return app
    one = copy.copy(app)
    one.registered_commands, one.registered_groups = commands, groups
    return one


def _name_of(info: Any) -> str:
    return str(info.name or typer.main.get_command_name(info.callback.__name__))


def _completing() -> bool:
    """Whether the shell asks for completions (typer's `_ADR_COMPLETE`): they need every command."""
    return any(key.startswith("_") and key.endswith("_COMPLETE") for key in os.environ)


# What an option's value is, where its name does not say it.
_PLACEHOLDERS = {"adr_dir": "DIR", "supersede": "ID", "governs": "GLOB", "link": "ID:LINK:REVERSE"}


def _plain_placeholders(command: Any) -> None:
    """`--status STATUS`, `--dir DIR`, `TITLE...` rather than the Python types typer shows
    (`--status <str>`, `title... <list[str]>`)."""
    for param in command.params:
        if param.metavar is None and not getattr(param, "is_flag", False) and param.name:
            param.metavar = _PLACEHOLDERS.get(param.name, param.name.upper())
        if param.param_type_name == "argument":  # `TITLE...`, `[ID]`: as usage lines are read
            param.display_type_rich = lambda ctx: None
            param._usage_display_name = functools.partial(_usage_name, param)
    for sub in getattr(command, "commands", {}).values():
        _plain_placeholders(sub)


def _usage_name(param: Any) -> str:
    name = str(param.metavar)
    return (name if param.required else f"[{name}]") + ("..." if param.nargs != 1 else "")


# click's own error for bad arguments (typer vendors click, so it is found through typer's)
_CLICK_ERROR: type[Exception] = next(c for c in typer.BadParameter.__mro__ if c.__name__ == "ClickException")


def _usage_error(exc: Exception, args: Sequence[str]) -> UsageError:
    """`error: missing argument 'ID'` / `hint: adr show -h shows the usage`, not click's four
    lines: every error a user sees has one shape."""
    message = str(getattr(exc, "format_message", lambda: str(exc))()).rstrip(".")
    ctx = getattr(exc, "ctx", None)
    first = args[0] if args and not args[0].startswith("-") else ""
    path = ctx.command_path if ctx is not None else f"adr {first}".strip()
    return UsageError(message[:1].lower() + message[1:], hint=f"{path} -h shows the usage")
