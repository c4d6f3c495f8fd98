"""The one family of errors a user may see; `cli.command` is the only place that reports them."""

from __future__ import annotations


class AdrError(Exception):
    """A problem the user can act on: shown as `error: ...` plus a `hint: ...`, never a traceback."""

    exit_code = 2

    def __init__(self, message: str, *, hint: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint


class NotARepository(AdrError):
    """The current directory is not inside a git work tree."""


class ConfigError(AdrError):
    """The config file is unreadable, or names an unknown key or a wrong type."""


class RecordNotFound(AdrError):
    """No record has the id the user asked for."""


class InvalidRecord(AdrError):
    """A record cannot be edited safely (unparseable frontmatter, unreadable bytes)."""


class UsageError(AdrError):
    """The arguments do not make sense together."""


class ReadOnlyHub(AdrError):
    """The hub's store takes no writes from this user (a served hub's reader may be one)."""


class GitError(AdrError):
    """Git cannot answer (unknown revision, missing object, shallow history)."""


class TooLarge(Exception):
    """A file or blob larger than its reader takes. Raised before it is read: a clone can hold
    a few KB of git object that inflate to gigabytes (ADR-0028). Not an AdrError: each reader
    says what a too-large file means to it."""

    def __init__(self, size: int) -> None:
        super().__init__(f"{size:,} bytes")
        self.size = size


def why_unreadable(exc: BaseException) -> str:
    """Why a settings file could not be read, for `cannot read X: ...`. A file nested past
    Python's recursion limit says so (the RecursionError itself says nothing useful)."""
    return "it nests too deep to read" if isinstance(exc, RecursionError) else str(exc)
