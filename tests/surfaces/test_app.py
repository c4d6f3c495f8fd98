"""What every command shares: option values checked against their choices, ids completed from
the folder, one refusal when there is no ADR folder, and the one place a command's AdrError
becomes `error:`/`hint:` and its exit code."""

from __future__ import annotations

import pytest
import typer
from typer.testing import CliRunner

from adr_memory.errors import NotARepository, UsageError
from adr_memory.surfaces import app
from tests.helpers import adr_text, commit


def test_enumerated_values_are_read_comma_separated_and_a_typo_is_refused():
    assert app._choice(["Accepted, proposed", "rejected"], ("accepted", "proposed", "rejected"), "status") == [
        "accepted",
        "proposed",
        "rejected",
    ]
    with pytest.raises(UsageError, match="unknown status 'acepted'") as told:
        app._statuses(["acepted"])
    assert "accepted" in told.value.hint and "all" in told.value.hint


def test_ids_complete_from_the_folder_and_nothing_outside_a_repository(repo, tmp_path, monkeypatch):
    commit(repo, {"docs/adr/0001-a.md": adr_text("A"), "docs/adr/0012-b.md": adr_text("B")}, "two")
    assert app.complete_ids("ADR-00") == ["ADR-0001", "ADR-0012"]
    assert app.complete_ids("ADR-001") == ["ADR-0012"]
    monkeypatch.chdir(tmp_path)
    assert app.complete_ids("") == []


def test_no_adr_folder_is_one_refusal_that_says_where_it_looked(repo, capsys):
    with pytest.raises(UsageError, match="no ADR folder: docs/adr does not exist") as told:
        app.workspace()
    assert "adr init" in told.value.hint
    (repo / ".adr-dir").write_text("decisions\n")
    with pytest.raises(UsageError, match=r"decisions, named in \.adr-dir, does not exist"):
        app.workspace()
    assert app.workspace(need_folder=False).adr_dir == "decisions"


def test_a_discovered_folder_is_used_and_the_way_to_pin_it_is_said(repo, capsys):
    text = "# {n}. T\n\n## Status\n\nAccepted\n\n## Context\n\nWhy.\n"
    commit(repo, {f"architecture/records/000{n}-t.md": text.format(n=n) for n in (1, 2)}, "records")
    capsys.readouterr()
    assert app.workspace().adr_dir == "architecture/records"
    assert "echo architecture/records > .adr-dir" in capsys.readouterr().err


def test_a_command_s_error_is_one_error_and_hint_and_its_exit_code(repo):
    cli = typer.Typer()

    @app.command(cli, name="fails")
    def fails() -> None:
        raise NotARepository("nothing here", hint="git init")

    @app.command(cli, name="pipe")
    def pipe() -> None:
        raise BrokenPipeError

    result = CliRunner().invoke(cli, ["fails"])
    assert (result.exit_code, result.output) == (2, "error: nothing here\nhint: git init\n")
    assert CliRunner().invoke(cli, ["pipe"]).exit_code == 0
