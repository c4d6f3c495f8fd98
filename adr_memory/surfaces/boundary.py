"""The one error boundary, shared by `adr`, `adr-hook` and the MCP server.

`AdrError` becomes `error: ...` and `hint: ...` on stderr and its exit code (2 unless it says
otherwise); Ctrl-C exits 130; anything else is a bug: one line saying so, exit 3, and the
traceback only with ADR_DEBUG=1. Messages pass through credential redaction and lose control
characters, since they may quote record text. No rich, no typer: the hooks use it too.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Sequence
from typing import TextIO, TypeVar

from adr_memory.base import safe
from adr_memory.errors import AdrError, UsageError
from adr_memory.records import scrub

T = TypeVar("T")

INTERNAL = 3
INTERRUPTED = 130


def _line(text: str) -> str:
    return safe.one_line(scrub(text))


def report(exc: AdrError, stream: TextIO | None = None) -> None:
    """`error: ...` and `hint: ...`, one line each."""
    stream = stream or sys.stderr
    stream.write(f"error: {_line(exc.message)}\n")
    if exc.hint:
        stream.write(f"hint: {_line(exc.hint)}\n")


def describe_bug(exc: BaseException) -> str:
    return _line(f"internal error: {type(exc).__name__}: {exc}")


def check_arguments(argv: Sequence[str]) -> None:
    """Refuse arguments that are not valid text (the shell passed undecodable bytes), before
    they can reach a record or a YAML file."""
    for number, arg in enumerate(argv, start=1):
        try:
            arg.encode("utf-8")
        except UnicodeEncodeError:
            raise UsageError(
                f"argument {number} is not valid UTF-8 text", hint="pass text in UTF-8 (check the terminal's locale)"
            ) from None


BUG_HINT = "this is a bug in adr-memory"  # what `guarded` tells of a bug, so a caller can tell it apart


def guarded(fn: Callable[[], T], told: Callable[[AdrError], T]) -> T:
    """For a server that must outlive a bad call (the MCP server): what `fn` gives, or `told`
    of its AdrError; a bug is told as one too (never a dead server), its traceback only with
    ADR_DEBUG=1."""
    try:
        return fn()
    except AdrError as exc:
        return told(exc)
    except Exception as exc:  # the boundary for bugs, as in `run`
        if os.environ.get("ADR_DEBUG"):
            raise
        return told(AdrError(describe_bug(exc), hint=BUG_HINT))


def run(fn: Callable[[], int], argv: Sequence[str]) -> int:
    """Call `fn` and turn whatever it raises into an exit code, as documented in the README."""
    try:
        check_arguments(argv)
        for stream in (sys.stdout, sys.stderr):
            safe.replace_unencodable(stream)
        return fn()
    except AdrError as exc:
        report(exc)
        return exc.exit_code
    except KeyboardInterrupt:
        return INTERRUPTED
    except BrokenPipeError:  # `adr list | head`: the reader left; nothing more to say
        return 0
    except Exception as exc:  # the boundary for bugs: a short message, details on request
        if os.environ.get("ADR_DEBUG"):
            raise
        sys.stderr.write(
            f"error: {describe_bug(exc)}\n"
            "hint: this is a bug in adr-memory; rerun with ADR_DEBUG=1 "
            "for the traceback and report it\n"
        )
        return INTERNAL
