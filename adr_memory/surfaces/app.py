"""What every `adr` command shares: the typer app and its groups, the common options, the
registration that makes an AdrError one `error:`/`hint:` pair, and the workspace a command opens."""

from __future__ import annotations

import functools
import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Annotated, Any, TypeVar

import typer

from adr_memory import __version__
from adr_memory.errors import AdrError, UsageError
from adr_memory.history import Workspace
from adr_memory.surfaces import boundary, coercion, render

coercion.install()  # text arguments without pydantic: ~0.13 s off every command (ADR-0084)

app = typer.Typer(
    name="adr",
    help="A git-native memory of architecture decisions.",
    no_args_is_help=True,
    add_completion=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
)
generate_app = typer.Typer(help="Derived views: a table of contents, a graph.", no_args_is_help=True)
app.add_typer(generate_app, name="generate")
hooks_app = typer.Typer(help="Plain git hooks: install or uninstall.", no_args_is_help=True)
app.add_typer(hooks_app, name="hooks")
sources_app = typer.Typer(
    help="Other repositories' decision folders, pinned in git (adr-sources.lock).", no_args_is_help=True
)
app.add_typer(sources_app, name="sources")

F = TypeVar("F", bound=Callable[..., Any])

JsonFlag = Annotated[bool, typer.Option("--json", help="Print JSON (shapes in docs/reference.md).")]
DirOption = Annotated[str | None, typer.Option("--dir", help="ADR folder (overrides config).")]


def command(target: typer.Typer = app, name: str | None = None) -> Callable[[F], F]:
    """Register a command; the one place AdrError becomes `error:`/`hint:` and an exit code."""

    def wrap(fn: F) -> F:
        @functools.wraps(fn)
        def run(*args: Any, **kwargs: Any) -> Any:
            failed = left = False
            try:
                return fn(*args, **kwargs)
            except (typer.Exit, typer.Abort):
                raise
            except AdrError as exc:
                failed = True
                boundary.report(exc)
                raise typer.Exit(exc.exit_code) from None
            except KeyboardInterrupt:
                raise typer.Exit(boundary.INTERRUPTED) from None
            except BrokenPipeError:
                left = True
                raise typer.Exit(0) from None
            finally:
                _after_git(failed=failed, say=not left)

        target.command(name=name)(run)
        return fn

    return wrap


def _show(data: Any, as_json: bool, human: Callable[[Any], None], machine: Callable[[Any], Any] = lambda d: d) -> None:
    """One shape for every data command: JSON for machines, rich output for people."""
    if as_json:
        render.emit_json(machine(data))
    else:
        human(data)


def _csv(values: Sequence[str]) -> list[str]:
    """Repeated and comma-separated option values: `--status a,b --status c`."""
    return [v.strip().lower() for item in values for v in item.split(",") if v.strip()]


_opened: list[Workspace] = []


def _choice(values: Sequence[str], allowed: Sequence[str], what: str) -> list[str]:
    """Comma-separated values of an enumerated option, each checked: a typo in a workflow
    (`--fail-on stael`) must stop the run, not pass it."""
    chosen = _csv(values)
    for value in chosen:
        if value not in allowed:
            raise UsageError(f"unknown {what} {value!r}", hint="choose from: " + ", ".join(allowed))
    return chosen


def _statuses(values: Sequence[str]) -> list[str]:
    from adr_memory.records import STATUSES

    return _choice(values, (*STATUSES, "all"), "status")


def complete_ids(incomplete: str) -> list[str]:
    """What a shell completes a decision's id with: the folder's ids that start with what was
    typed (`ADR-00` offers every one). Nothing when there is no folder: completion never
    prints an error into a prompt."""
    try:
        ids = [rec.id for rec in Workspace.discover().catalog]
    except (AdrError, OSError):
        return []
    return [i for i in ids if i.startswith(incomplete)]


def workspace(adr_dir: str | None = None, *, need_folder: bool = True, pins: bool = False) -> Workspace:
    """The workspace of the current directory. Every command that reads records refuses the
    same way when there is no ADR folder; `init` and `new` create one (`init` also `pins` the
    folder it found, so it is not told to)."""
    ws = Workspace.discover(adr_dir=adr_dir)
    if need_folder and not ws.adr_path.is_dir():
        if ws.adr_dir_source in ("configured", "found", "discovered", "default"):
            raise UsageError(
                f"no ADR folder: {ws.adr_dir} does not exist and no folder of ADRs was found",
                hint="run `adr init`, or name the folder: echo path/to/adrs > .adr-dir",
            )
        raise UsageError(
            f"no ADR folder: {ws.adr_dir}, named in {ws.adr_dir_source}, does not exist",
            hint=f"run `adr init` to create it, or correct {ws.adr_dir_source}",
        )
    if ws.adr_dir_source == "discovered" and not pins:
        where = "the repository's root" if ws.adr_dir == "." else ws.adr_dir
        render.warn(f"using {where}, the folder whose files look like ADRs; pin it with: echo {ws.adr_dir} > .adr-dir")
    # A cold history walk on a large repository takes seconds: show it (stderr, transient).
    ws.progress = _history_read
    _opened.append(ws)
    return ws


def _after_git(failed: bool, say: bool = True) -> None:
    """Once per command that read git: keep what it learnt of the history, and say what git
    could not give it, and how to fix that (not when the reader left: `adr show 1 2>&1 | head`
    would fail on the closed pipe, and click calls that exit 1)."""
    opened = list(_opened)
    _opened.clear()
    if not opened:
        return
    from adr_memory.commands import facts

    for ws in opened:
        facts.keep(ws)

    note = next((n for ws in opened if (n := facts.incomplete(ws, after_error=failed))), None)
    if note and say:
        render.warn(note)
    from adr_memory.base import sealed

    if (distrust := sealed.distrusted()) and say:
        render.warn(distrust)
    for ws in opened:  # a source that could not be read is said, once per command that read sources
        for folder in ws.__dict__.get("sources") or ():
            if folder.problem and say:
                render.warn(f"{folder.problem} (hint: adr sources update {folder.spec.name})")


_history_bar = render.progress("Reading git history (commits)")
LONG_READ = 2_000  # commits read from git in one run: said once it is done, as a cost paid once


def _history_read(done: int, total: int | None) -> None:
    _history_bar.tick(done, total)
    if total is not None and done >= total >= LONG_READ:
        render.note(f"read {done:,} commits of git history once; later runs reuse them (.adr-cache)")


def _version(value: bool) -> None:
    if value:
        render.line(f"adr-memory {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Show the version and exit.")
    ] = False,
) -> None:
    """A git-native memory of architecture decisions.

    Decisions are markdown files under docs/adr, committed like code; versions, staleness and
    the search index are derived from git.
    """


def _shown(path: Path) -> str:
    try:
        return os.path.relpath(path, Path.cwd())
    except ValueError:
        return str(path)


def _extras(
    ws: Workspace, records: Sequence[Any], *, at: str | None = None, budget: int | None = None
) -> dict[str, dict[str, Any]]:
    """Derived facts per record from git: current version id, first date, staleness."""
    from adr_memory.commands import views

    return views.extras(ws, records, at=at, budget=budget)


# `list` and `show` read a history they have not seen whole, once, and keep it: a run that read
# part of it and left the rest made every run on a long clone pay for a cold walk while never
# showing its versions (issue 56). The flag that asked for the whole read stays for the scripts
# that pass it, and changes nothing.
HistoryFlag = Annotated[
    bool,
    typer.Option(
        "--history",
        hidden=True,
        help="Kept for scripts: the whole history is read on first use and kept.",
    ),
]


AtOption = Annotated[str | None, typer.Option("--at", metavar="REF", help="The catalog as it was at a commit.")]


# ---------------------------------------------------------------------------- lifecycle


ReasonOption = Annotated[str | None, typer.Option("--reason", help="Why: kept in the record, shown by `adr log`.")]


HookNames = Annotated[
    list[str] | None,
    typer.Argument(
        help="pre-commit, post-commit, post-merge (default: all three), or claude-code (.claude/settings.json)."
    ),
]


def _hook_names(names: list[str] | None) -> tuple[tuple[str, ...], bool]:
    """(git hooks, whether claude-code was named)."""
    from adr_memory.commands import hooks

    chosen = tuple(names or hooks.GIT_HOOKS)
    _choice(list(chosen), (*hooks.GIT_HOOKS, "claude-code"), "hook")
    return tuple(n for n in chosen if n in hooks.GIT_HOOKS), "claude-code" in chosen
