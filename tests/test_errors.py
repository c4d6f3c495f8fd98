"""The one family of errors a user sees: each says what went wrong and what to do, and the
command ends with the documented exit code (2: cannot run), never a traceback."""

from __future__ import annotations

import pytest

from adr_memory import errors
from tests.helpers import run


@pytest.mark.parametrize(
    "kind",
    [
        errors.NotARepository,
        errors.ConfigError,
        errors.RecordNotFound,
        errors.InvalidRecord,
        errors.UsageError,
        errors.GitError,
    ],
)
def test_every_user_error_carries_its_message_and_hint_and_exits_2(kind):
    exc = kind("it broke", hint="do this")
    assert (exc.message, exc.hint, exc.exit_code, str(exc)) == ("it broke", "do this", 2, "it broke")
    assert isinstance(exc, errors.AdrError)


def test_too_large_is_for_its_reader_to_explain():
    exc = errors.TooLarge(1_234_567)
    assert not isinstance(exc, errors.AdrError) and exc.size == 1_234_567 and str(exc) == "1,234,567 bytes"


def test_why_unreadable_says_what_recursion_means():
    assert errors.why_unreadable(RecursionError("maximum recursion depth exceeded")) == "it nests too deep to read"
    assert errors.why_unreadable(ValueError("bad json")) == "bad json"


def test_a_user_error_reaches_the_terminal_as_two_lines(repo, capsys):
    result = run(capsys, "show", "99", code=2)
    lines = result.err.strip().splitlines()
    assert len(lines) == 2 and lines[0].startswith("error: ") and lines[1].startswith("hint: ")
    assert "Traceback" not in result.err
