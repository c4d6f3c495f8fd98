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


def test_an_interrupted_command_exits_130_and_a_finished_one_keeps_its_exit_code(repo):
    cli = typer.Typer()

    @app.command(cli, name="interrupted")
    def interrupted() -> None:
        raise KeyboardInterrupt

    @app.command(cli, name="exits")
    def exits() -> None:
        raise typer.Exit(1)

    assert CliRunner().invoke(cli, ["interrupted"]).exit_code == 130
    assert CliRunner().invoke(cli, ["exits"]).exit_code == 1


def test_option_values_repeat_or_come_comma_separated_lowercased():
    assert app._csv(["Accepted,  Proposed", "", " , rejected"]) == ["accepted", "proposed", "rejected"]
    assert app._csv([]) == []
    assert app._statuses(["all"]) == ["all"]


def test_hook_names_default_to_the_three_git_hooks_and_claude_code_is_apart():
    assert app._hook_names(None) == (("pre-commit", "post-commit", "post-merge"), False)
    assert app._hook_names(["claude-code"]) == ((), True)
    assert app._hook_names(["post-merge", "claude-code"]) == (("post-merge",), True)
    with pytest.raises(UsageError, match="unknown hook 'pre-push'") as told:
        app._hook_names(["pre-push"])
    assert told.value.hint == "choose from: pre-commit, post-commit, post-merge, claude-code"


def test_a_long_history_read_is_said_once_it_is_done_and_a_short_one_is_not(capsys):
    app._history_read(1_999, 1_999)
    app._history_read(500, None)
    assert capsys.readouterr().err == ""
    app._history_read(2_000, 2_000)
    assert capsys.readouterr().err == (
        "note: read 2,000 commits of git history once; later runs reuse them (.adr-cache)\n"
    )


def test_records_at_the_root_are_said_as_the_repository_s_root(repo, capsys):
    text = "# {n}. T\n\n## Status\n\nAccepted\n\n## Context\n\nWhy.\n"
    commit(repo, {f"000{n}-t.md": text.format(n=n) for n in (1, 2)}, "records")
    capsys.readouterr()
    assert app.workspace().adr_dir == "."
    assert capsys.readouterr().err == (
        "warning: using the repository's root, the folder whose files look like ADRs; pin it with: echo . > .adr-dir\n"
    )


def test_a_source_that_cannot_be_read_is_warned_once_per_command_naming_the_fix(repo, capsys):
    from tests.helpers import run

    commit(
        repo,
        {
            "docs/adr/0001-a.md": adr_text("A"),
            ".adr-memory.toml": '[sources.platform]\nurl = "/nowhere/at/all"\n',
        },
    )
    told = run(capsys, "why", "src/x.py")
    assert told.out == (
        "src/x.py\n  unknown: source platform is not pinned yet: run `adr sources update platform`; "
        "its decisions may govern this path\n"
    )
    assert told.err == (
        "warning: source platform is not pinned yet: run `adr sources update platform` "
        "(hint: adr sources update platform)\n"
    )
    (path,) = run(capsys, "guard", "src/x.py", "--json").json["paths"]
    (unread,) = path["unreadable_sources"]
    assert set(unread) == {"source", "problem", "standing"} and unread["source"] == "platform"
    assert unread["standing"]["state"] == "unknown"


def test_the_version_is_printed_and_nothing_else_runs(repo, capsys):
    from adr_memory import __version__
    from tests.helpers import run

    told = run(capsys, "--version")
    assert (told.out, told.err) == (f"adr-memory {__version__}\n", "")
