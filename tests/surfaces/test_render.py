"""What reaches a terminal, a pipe or a CI log: record text never read as markup or escape
sequences, credentials redacted in JSON keys and values, paths quoted as git quotes them, no
line a CI log reads as a workflow command unless we wrote it, and a progress bar only for a
watcher."""

from __future__ import annotations

import json
from types import SimpleNamespace

import pytest
from rich.text import Text

from adr_memory.surfaces import render
from tests.helpers import adr_text, commit, git, run, sealed_env

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


# ---------------------------------------------------------------------------- records as a person reads them

RULE = 'rules:\n  - {forbid: "import pymongo", in: ["src/**"], message: "we use PostgreSQL"}'


@pytest.fixture(scope="module")
def decided(tmp_path_factory):
    """Four decisions, read only: ADR-0002 supersedes ADR-0001, depends on ADR-0003 and carries
    a rule; ADR-0004 (proposed) amends ADR-0002; the code ADR-0002 governs moved on since."""
    root = tmp_path_factory.mktemp("decided")
    with sealed_env(root / "home"):
        git(root, "init", "-q", "-b", "main")
        commit(
            root,
            {
                "docs/adr/0001-a.md": adr_text("Use MongoDB", governs=["src/**"], extra="tags: [db, storage]"),
                "docs/adr/0002-b.md": adr_text(
                    "Use PostgreSQL",
                    governs=["src/**"],
                    extra=RULE + "\nsupersedes: [ADR-0001]\ndepends-on: [ADR-0003]",
                ),
                "docs/adr/0003-c.md": adr_text("Run on Kubernetes"),
                "docs/adr/0004-d.md": adr_text("Pool connections", status="proposed", extra="amends: [ADR-0002]"),
                "src/a.py": "1",
            },
            "four decisions",
        )
        commit(root, {"src/a.py": "2"}, "the code moves")
    return root


def _facts(out: str) -> dict[str, str]:
    """`adr show`'s facts grid: the lines between the title and the first blank line, key -> value."""
    import re

    head = out.split("\n\n", 1)[0].splitlines()[1:]
    return dict(re.split(r"\s{2,}", line.strip(), maxsplit=1) for line in head if not line.startswith("rule "))


def test_list_shows_each_decision_s_standing_version_and_staleness(decided, capsys, monkeypatch):
    monkeypatch.chdir(decided)
    rows = {line.split()[0]: line for line in run(capsys, "list").out.splitlines() if line.strip().startswith("ADR-")}
    listed = {r["id"]: r for r in run(capsys, "list", "--json").json}
    assert set(rows) == {"ADR-0001", "ADR-0002", "ADR-0003", "ADR-0004"}
    assert rows["ADR-0001"].split()[1:3] == ["superseded", "by"]  # its standing, never "accepted" alone
    assert rows["ADR-0002"].split()[-1] == "stale" and rows["ADR-0003"].split()[-1] == "no"
    for ident, row in rows.items():
        assert listed[ident]["version_id"] in row.split() and listed[ident]["first_date"] in row.split()
    assert listed["ADR-0001"]["standing"]["label"] == "superseded by ADR-0002"
    assert listed["ADR-0001"]["status"] == "accepted"  # what the file says stays what it says


def test_show_names_relations_from_both_sides_and_the_rules(decided, capsys, monkeypatch):
    monkeypatch.chdir(decided)
    two = run(capsys, "show", "2").out
    assert two.startswith("ADR-0002: Use PostgreSQL\n")
    facts = _facts(two)
    assert facts["supersedes"] == "ADR-0001" and facts["depends-on"] == "ADR-0003"
    assert facts["amended by"] == "ADR-0004"  # said by ADR-0004, read from this side
    assert facts["stale"] == "stale: 1 governed file(s) changed since the anchor"
    (rule,) = [line for line in two.splitlines() if line.startswith("rule ")]
    rule_id = run(capsys, "show", "2", "--json").json["rules"][0]["rule_id"]
    assert rule == f"rule {rule_id}  forbid 'import pymongo' in src/**"
    assert _facts(run(capsys, "show", "3").out)["needed by"] == "ADR-0002"
    one = _facts(run(capsys, "show", "1").out)
    assert one["standing"] == "superseded by ADR-0002" and one["tags"] == "db, storage"
    assert "supersedes" not in one  # a successor is named once, by the standing


def test_a_table_with_no_dates_has_no_date_column_and_an_empty_list_says_so(repo, capsys):
    commit(repo, {"docs/adr/0001-a.md": adr_text("Use MongoDB")})
    (repo / "docs/adr/0002-b.md").write_text(adr_text("Use PostgreSQL"))  # not committed: no first date
    render.records_table([], {})
    assert capsys.readouterr().out == "No decisions found.\n"
    from adr_memory.history import Workspace

    records = list(Workspace.discover(repo).catalog)
    render.records_table(records, {})
    header = next(line for line in capsys.readouterr().out.splitlines() if "ID" in line)
    assert header.split() == ["ID", "Status", "Title", "Version", "Stale"]


def test_a_stale_cell_says_stale_no_or_why_git_cannot_tell_never_no_for_unknown():
    assert render._stale_cell(True, None).plain == "stale"
    assert render._stale_cell(False, "fresh: governs no code") == "no"
    assert render._stale_cell(None, "unknown: the anchor is not in this shallow clone").plain == "unknown"
    assert render._stale_cell(None, None) == ""


def test_check_findings_in_each_format(decided, capsys, monkeypatch):
    """Text: a line per finding and a count on stderr; markdown: a table under a heading;
    github: one workflow command each; json: the documented shape."""
    monkeypatch.chdir(decided)
    text = run(capsys, "check")
    assert text.out.startswith("docs/adr/0001-a.md:2: warning: supersession: ADR-0002 supersedes ADR-0001")
    assert text.err == "adr check: 0 error(s), 1 warning(s)\n"
    markdown = run(capsys, "check", "--format", "markdown").out.splitlines()
    assert markdown[:4] == ["### adr check", "", "| | file | kind | message |", "|---|---|---|---|"]
    assert markdown[4].startswith("| ⚠️ | `docs/adr/0001-a.md:2` | supersession | ADR-0002 supersedes ADR-0001")
    (annotation,) = run(capsys, "check", "--format", "github").out.splitlines()
    assert annotation.startswith("::warning file=docs/adr/0001-a.md,line=2,title=supersession ADR-0001::")
    assert annotation.endswith("(hint: adr supersede ADR-0001 --by ADR-0002)")
    data = run(capsys, "check", "--json").json
    assert set(data) == {"ok", "findings", "untouched"} and data["ok"] is True and data["untouched"] is None
    (finding,) = data["findings"]
    assert {"kind", "severity", "id", "path", "line", "message", "hint", "col", "rule_id"} <= set(finding)
    assert (finding["kind"], finding["severity"], finding["id"]) == ("supersession", "warning", "ADR-0001")


def test_no_findings_read_as_no_problems_in_every_format(repo, capsys):
    render.findings([], "text")
    assert capsys.readouterr() == ("", "adr check: no problems\n")
    render.findings([], "markdown")
    assert capsys.readouterr().out == "### adr check\n\nNo problems found.\n"
    render.findings([], "json")
    assert json.loads(capsys.readouterr().out) == {"ok": True, "findings": [], "untouched": None}
    render.findings([], "github", untouched="2 warning(s) in untouched records")
    assert capsys.readouterr().out == "::notice title=adr check::2 warning(s) in untouched records\n"
    render.findings([], "text", untouched="2 warning(s) in untouched records")
    assert capsys.readouterr().err == "adr check: no problems; 2 warning(s) in untouched records\n"


def test_an_error_finding_fails_ok_and_its_column_is_annotated(capsys):
    finding = SimpleNamespace(
        severity="error",
        message="bad",
        hint="",
        path="docs/adr/0001-a.md",
        line=3,
        col=7,
        kind="yaml",
        id="ADR-0001",
        to_json=lambda: {"severity": "error"},
    )
    render.findings([finding], "github")
    assert capsys.readouterr().out == "::error file=docs/adr/0001-a.md,line=3,col=7,title=yaml ADR-0001::bad\n"
    render.findings([finding], "json")
    assert json.loads(capsys.readouterr().out)["ok"] is False


def test_a_note_and_a_warning_are_one_line_each_on_stderr(capsys):
    render.note("read 2,000 commits\nonce")
    render.warn("a shallow clone")
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == "note: read 2,000 commits once\nwarning: a shallow clone\n"


def test_in_ci_json_and_notes_carry_no_workflow_command(capsys, monkeypatch):
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    render.emit_json({"title": "##[error]forged"})
    out = capsys.readouterr().out
    assert "##[" not in out and json.loads(out) == {"title": "##[error]forged"}  # the same string to a reader
    render.warn("a record says\n::error::forged")  # its own line in the log would be read as a command
    assert capsys.readouterr().err == "warning: a record says ::error::forged\n"


def test_migration_says_what_moved_what_was_left_and_counts(capsys):
    moved = SimpleNamespace(id="ADR-0001", moved=["status", "date"], refused="", path="a.md", before="a\n", after="b\n")
    left = SimpleNamespace(id="ADR-0002", moved=[], refused="its Status section says more", path="b.md")
    idle = SimpleNamespace(id="ADR-0003", moved=[], refused="", path="c.md")
    render.migration([moved, left, idle], dry_run=False)
    assert capsys.readouterr().out.splitlines() == [
        "ADR-0001: moved status, date into frontmatter",
        "ADR-0002: left as it is: its Status section says more",
        "migrated 1 record(s); 1 left as they are; 1 had nothing to move",
    ]
    render.migration([moved], dry_run=True)
    assert capsys.readouterr().out.splitlines() == [
        "--- a.md",
        "+++ a.md",
        "@@ -1 +1 @@",
        "-a",
        "+b",
        "ADR-0001: moved status, date into frontmatter",
        "would migrate 1 record(s); 0 left as they are; 0 had nothing to move",
    ]


def test_off_a_terminal_work_of_unknown_length_counts_without_a_total(capsys):
    now = [0.0]
    counting = render.progress("Reading git history (commits)", clock=lambda: now[0])
    for done in range(0, 4000, 500):
        now[0] = done / 100  # 35 seconds in all
        counting.tick(done, None)
    lines = capsys.readouterr().err.splitlines()
    assert lines and all(line.startswith("Reading git history (commits): ") for line in lines)
    assert all("/" not in line.split(": ", 1)[1] and "done" not in line for line in lines)


@pytest.mark.parametrize("width", (30, 60))
def test_show_never_cuts_an_id_or_a_path_at_a_narrow_width(repo, capsys, monkeypatch, width):
    """`adr show` cut `docs/adr/20210715-adopt-kubernetes-for-every-servi…` at 60 columns and the
    id of the record that amends it at 30: the facts wrap, every character kept."""
    long_id = "20210715-adopt-kubernetes-for-every-service"
    commit(
        repo,
        {
            "docs/adr/0002-b.md": adr_text("Use PostgreSQL", governs=["src/payments/ledger/**"]),
            f"docs/adr/{long_id}.md": adr_text("Pool connections", extra="amends: [ADR-0002]"),
        },
    )
    monkeypatch.setattr(render.out, "width", width)
    monkeypatch.setattr(render.out, "_force_terminal", True)  # a terminal that narrow
    for ident, whole in (
        (long_id, f"docs/adr/{long_id}.md"),
        ("2", long_id),  # named under `amended by`
        ("2", "src/payments/ledger/**"),
    ):
        out = run(capsys, "show", ident).out
        facts = out.split("\n\n", 1)[0].splitlines()[1:]
        assert "…" not in "".join(facts)
        assert all(len(line.rstrip()) <= width for line in facts)
        joined = "".join(line[line.index("  ") :].strip() if "  " in line else line.strip() for line in facts)
        assert whole in joined.replace(" ", ""), (ident, out)


def test_show_off_a_terminal_prints_each_fact_on_one_line_whatever_the_width(repo, capsys, monkeypatch):
    """Piped, `adr show` folded its facts at 80 columns (COLUMNS=50: at 50), a path split in two
    with blanks padding each line: text off a terminal is never cut or folded."""
    long_id = "20210715-adopt-event-sourcing-for-the-order-management-bounded-context"
    commit(repo, {f"docs/adr/{long_id}.md": adr_text("Adopt event sourcing for the order management context")})
    monkeypatch.setattr(render.out, "width", 50)
    out = run(capsys, "show", long_id).out
    head = out.split("\n\n", 1)[0].splitlines()
    assert head[0] == "ADR-" + long_id + ": Adopt event sourcing for the order management context" or head[0].endswith(
        ": Adopt event sourcing for the order management context"
    )
    (path,) = [line for line in head if line.startswith("path")]
    assert path.split() == ["path", f"docs/adr/{long_id}.md"] and path == path.rstrip()


def test_show_says_a_pair_of_links_once_each_way_and_an_unknown_relation_from_its_side(repo, capsys, monkeypatch):
    """`adr link 4 "Refers to" 1 "Referred by"` then `adr show 4` printed `referred by (said by)
    ADR-0001`, and `adr show 3` after `link 4 Amends 3 "Amended by"` said `amended by` twice."""
    commit(repo, {f"docs/adr/000{n}-{t.lower()}.md": adr_text(t) for n, t in ((1, "A"), (3, "C"), (4, "D"), (5, "E"))})
    monkeypatch.chdir(repo)
    run(capsys, "link", "4", "Refers to", "1", "Referred by")
    run(capsys, "link", "4", "Amends", "3", "Amended by")
    four = _facts(run(capsys, "show", "4").out)
    assert (four["refers to"], four["amends"]) == ("ADR-0001", "ADR-0003") and "linked from" not in four
    assert _facts(run(capsys, "show", "1").out)["referred by"] == "ADR-0004"
    three = run(capsys, "show", "3").out
    assert three.count("amended by") == 1 and _facts(three)["amended by"] == "ADR-0004"
    # A relation only the other record states, with no known inverse: said from its side.
    path = repo / "docs/adr/0005-e.md"
    path.write_text(path.read_text().replace("---\n", "---\nlinks: [{rel: refers to, id: ADR-0001}]\n", 1))
    assert "linked from  ADR-0005 (refers to)" in run(capsys, "show", "1").out


def test_a_count_reads_as_a_person_writes_it():
    assert [render.counted(n, "decision") for n in (0, 1, 2, 12_345)] == [
        "0 decisions",
        "1 decision",
        "2 decisions",
        "12,345 decisions",
    ]
    assert render.counted(1, "repository", "repositories") == "1 repository"
    assert render.counted(3, "repository", "repositories") == "3 repositories"
