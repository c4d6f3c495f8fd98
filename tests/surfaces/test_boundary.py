"""surfaces.boundary: the one place errors become exit codes and one line each on stderr."""

from __future__ import annotations

import pytest

from adr_memory.errors import AdrError, UsageError
from adr_memory.surfaces import boundary


def _raise(exc: BaseException):
    def fn() -> int:
        raise exc

    return fn


def test_a_user_error_is_an_error_line_a_hint_line_and_its_code(capsys):
    assert boundary.run(_raise(UsageError("no such record ADR-0009", hint="adr list shows them")), ["adr"]) == 2
    assert capsys.readouterr().err == "error: no such record ADR-0009\nhint: adr list shows them\n"


def test_a_bug_is_one_line_and_exit_3_its_traceback_only_on_request(capsys, monkeypatch):
    assert boundary.run(_raise(KeyError("x")), ["adr"]) == boundary.INTERNAL
    err = capsys.readouterr().err
    assert err.startswith("error: internal error: KeyError") and "Traceback" not in err
    assert err.splitlines()[1].startswith("hint: this is a bug in adr-memory")
    monkeypatch.setenv("ADR_DEBUG", "1")
    with pytest.raises(KeyError):
        boundary.run(_raise(KeyError("x")), ["adr"])


def test_interrupts_and_a_reader_that_left(capsys):
    assert boundary.run(_raise(KeyboardInterrupt()), ["adr"]) == boundary.INTERRUPTED
    assert boundary.run(_raise(BrokenPipeError()), ["adr"]) == 0
    assert capsys.readouterr().err == ""


def test_messages_lose_control_characters_and_credentials(capsys):
    message = "bad \x1b[31mtitle\nsecond line ghp_" + "a" * 36
    boundary.run(_raise(AdrError(message)), ["adr"])
    first, *rest = capsys.readouterr().err.splitlines()
    assert not rest and "\x1b" not in first and "ghp_" + "a" * 36 not in first


def test_arguments_that_are_not_text_are_refused_before_anything_runs(capsys):
    ran = []
    assert boundary.run(lambda: ran.append(1) or 0, ["show", "\udcff"]) == 2
    assert not ran and "argument 2 is not valid UTF-8" in capsys.readouterr().err


def test_a_server_outlives_a_bad_call():
    told = boundary.guarded(_raise(ValueError("boom")), lambda exc: exc.message)
    assert told.startswith("internal error: ValueError: boom")
    assert boundary.guarded(lambda: "answer", lambda exc: exc.message) == "answer"
