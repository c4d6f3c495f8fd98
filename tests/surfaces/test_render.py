"""What reaches a terminal, a pipe or a CI log: record text never read as markup or escape
sequences, credentials redacted in JSON keys and values, paths quoted as git quotes them, no
line a CI log reads as a workflow command unless we wrote it, and a progress bar only for a
watcher."""

from __future__ import annotations

import json
from types import SimpleNamespace

from rich.text import Text

from adr_memory.surfaces import render

KEY = "AKIAZ7Q4XK2M9P3LR8TW"


def test_record_text_loses_escape_sequences_and_is_never_markup(capsys):
    render.out.print(Text("[bold]Use\x1b[31m Redis\x07[/bold]"))
    render.line("title\x1b]0;owned\x07 here")
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\x07" not in out
    assert "[bold]Use" in out and "here" in out


def test_json_and_warnings_redact_credentials_in_keys_and_values(capsys):
    render.emit_json({KEY: [f"key {KEY}"], "plain": "text"})
    render.warn(f"leaked {KEY}\nsecond line")
    captured = capsys.readouterr()
    assert KEY not in captured.out and KEY not in captured.err
    assert json.loads(captured.out)["plain"] == "text"
    assert captured.err.startswith("warning: leaked ") and captured.err.count("\n") == 1


def test_paths_are_quoted_as_git_quotes_them_or_ended_by_nul(capsysbinary):
    render.paths(["docs/adr/0001-a.md", "docs/adr/two\nlines.md"])
    assert capsysbinary.readouterr().out == b'docs/adr/0001-a.md\n"docs/adr/two\\nlines.md"\n'
    render.paths(["a.md", "two\nlines.md"], zero=True)
    assert capsysbinary.readouterr().out == b"a.md\0two\nlines.md\0"


def test_in_ci_no_record_line_starts_a_workflow_command_but_ours_do(capsys, monkeypatch):
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    render.line("::error::forged by a record")
    finding = SimpleNamespace(
        severity="error",
        message="bad",
        hint="fix it",
        path="docs/adr/0001-a.md",
        line=3,
        col=0,
        kind="schema",
        id="ADR-0001",
    )
    render.findings([finding], "github")
    forged, ours = capsys.readouterr().out.splitlines()
    assert not forged.startswith("::")
    assert ours == "::error file=docs/adr/0001-a.md,line=3,title=schema ADR-0001::bad (hint: fix it)"


def test_dates_are_days_in_utc_and_no_date_is_empty():
    assert render.day(1_700_000_000) == "2023-11-14"
    assert render.day(0) == render.day(None) == ""


def test_a_progress_bar_shows_only_to_a_terminal(capsys):
    with render.progress("Reading") as tick:
        for done in range(3):
            tick(done, 3)
        tick(3, 3)
    assert capsys.readouterr().err == ""  # stderr is no terminal here: nothing drawn


def test_off_a_terminal_long_work_says_how_far_it_got_every_few_seconds(capsys):
    """CI, a pipe and an MCP client see no bar: a plain line every few seconds instead, none
    for work that ends within the first two."""
    from adr_memory.surfaces import render

    now = [0.0]
    quick = render.progress("Embedding sections", clock=lambda: now[0])
    for done in range(11):
        now[0] = done * 0.1
        quick.tick(done, 10)
    assert capsys.readouterr().err == ""
    slow = render.progress("Embedding sections", clock=lambda: now[0])
    for done in range(101):
        now[0] = done * 0.25  # 25 seconds in all
        slow.tick(done, 100)
    lines = capsys.readouterr().err.splitlines()
    assert lines[0] == "Embedding sections: 8/100" and lines[-1] == "Embedding sections: 100/100 done"
    assert 4 <= len(lines) <= 7


def test_no_color_means_no_escape_at_all_on_a_real_terminal(repo):
    """NO_COLOR=1 left bold and dim escapes in tables: a reader who set it gets plain text."""
    import os
    import pty
    import subprocess
    import sys

    from tests.helpers import adr_text, commit

    commit(repo, {"docs/adr/0001-a.md": adr_text("Use PostgreSQL")})

    def on_a_terminal(**env: str) -> bytes:
        leader, follower = pty.openpty()
        full = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "COLUMNS")} | {"COLUMNS": "100", **env}
        done = subprocess.run(
            [sys.executable, "-m", "adr_memory", "list"], cwd=repo, stdout=follower, stderr=follower, env=full
        )
        os.close(follower)
        chunks = []
        while True:
            try:
                chunk = os.read(leader, 65536)
            except OSError:
                break
            if not chunk:
                break
            chunks.append(chunk)
        os.close(leader)
        assert done.returncode == 0
        return b"".join(chunks)

    assert b"\x1b[" in on_a_terminal()  # a terminal gets styles
    plain = on_a_terminal(NO_COLOR="1")
    assert b"\x1b[" not in plain and b"Use PostgreSQL" in plain


def test_show_off_a_terminal_prints_the_body_as_written_never_cut(repo, capsys, monkeypatch):
    """Piped, `adr show` cut list items at 80 columns (`... reviving jenkins` came out `... reviving `)."""
    from tests.helpers import adr_text, commit, run

    item = "* a list item long enough to pass eighty columns when it is printed by show, reviving jenkins"
    commit(repo, {"docs/adr/0001-a.md": adr_text("A", body=f"We decided.\n\n{item}\n")})
    monkeypatch.chdir(repo)
    for columns in ("80", "50"):
        monkeypatch.setenv("COLUMNS", columns)
        assert item in run(capsys, "show", "1").out.splitlines()
