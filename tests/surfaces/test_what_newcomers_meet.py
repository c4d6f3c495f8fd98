"""What a newcomer trips over: messages that say what happened, and text a CI log cannot read
as a command."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.helpers import adr_text, commit, run

P = "docs/adr/0001-use-x.md"
ROOT = Path(__file__).parents[2]


def test_accepting_an_accepted_record_says_so_and_leaves_it_byte_for_byte(repo, capsys):
    commit(repo, {P: adr_text("Use X")})
    before = (repo / P).read_bytes()
    assert run(capsys, "accept", "1").out.startswith("ADR-0001 is already accepted")
    assert (repo / P).read_bytes() == before
    assert run(capsys, "deprecate", "1").out.startswith("ADR-0001 is now deprecated")


def test_superseding_a_record_by_itself_says_what_to_do(repo, capsys):
    commit(repo, {P: adr_text("Use X")})
    failed = run(capsys, "supersede", "1", "--by", "1", code=2)
    first, hint = failed.err.splitlines()
    assert first.startswith("error: a decision cannot supersede itself")
    assert hint == "hint: name the decision that replaces it: adr supersede ADR-0001 --by NEW"


@pytest.mark.parametrize("variable", ["GITHUB_ACTIONS", "CI"])
def test_in_ci_no_text_line_starts_a_workflow_command(repo, capsys, monkeypatch, variable):
    forged = adr_text("Use X", body="::error file=x.py::forged\n  ::set-output name=x::y\nsafe :: here")
    commit(repo, {P: forged})
    monkeypatch.setenv(variable, "true")
    for args in (("show", "1"), ("list",), ("log", "1")):
        out = run(capsys, *args).out
        assert not any(line.lstrip().startswith("::") for line in out.splitlines()), args
    shown = run(capsys, "show", "1").out
    assert ":\u200b:error file=x.py::forged" in shown and "safe :: here" in shown  # readable, unmistakable
    monkeypatch.delenv(variable)
    assert "::error file=x.py::forged" in run(capsys, "show", "1").out  # a terminal shows it as written


def test_the_github_format_still_writes_its_commands_in_ci(repo, capsys, monkeypatch):
    commit(repo, {P: adr_text("Use X", governs=["src/[oops"])})
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    out = run(capsys, "check", "--format", "github", code=1).out
    assert out.splitlines() and all(line.startswith(("::error ", "::warning ")) for line in out.splitlines())


def test_link_says_which_records_it_linked_by_their_ids(repo, capsys):
    commit(repo, {P: adr_text("Use X"), "docs/adr/0002-use-y.md": adr_text("Use Y")})
    assert (
        run(capsys, "link", "2", "Amends", "1", "Amended by").out
        == "ADR-0002 amends ADR-0001 (ADR-0001 amended by ADR-0002)\n"
    )


def test_stale_with_nothing_governed_says_so_and_how_to_govern_code(repo, capsys):
    commit(repo, {P: adr_text("Use X"), "docs/adr/0002-use-y.md": adr_text("Use Y")})
    out = run(capsys, "stale").out
    assert out.startswith("Nothing to check: none of the 2 accepted decision(s) governs code") and "governs" in out
    commit(repo, {"docs/adr/0003-db.md": adr_text("DB", governs=["src/**"]), "src/a.py": "1"})
    assert run(capsys, "stale").out.startswith("Nothing stale: 1 accepted decision(s) still match their code")


def test_list_at_an_earlier_commit_says_why_its_columns_are_empty(repo, capsys):
    commit(repo, {P: adr_text("Use X")})
    commit(repo, {"src/a.py": "1"})
    result = run(capsys, "list", "--at", "HEAD~1")
    assert "ADR-0001" in result.out
    assert result.err.startswith("note: with --at, the records are shown as they were, without versions or staleness")
    assert run(capsys, "list", "--at", "HEAD~1", "--json").err == ""


def test_new_writes_the_status_sign_the_folder_writes(repo, capsys):
    nygard = "# {n}. {t}\n\nDate: 2018-04-09\n\n## Status\n\n{s}\n\n## Context\n\nC.\n"
    commit(
        repo,
        {
            "doc/adr/0001-a.md": nygard.format(n=1, t="A", s="✅ Accepted"),
            "doc/adr/0002-b.md": nygard.format(n=2, t="B", s="🤔 Proposed"),
            "doc/adr/0003-c.md": nygard.format(n=3, t="C", s="🤔 Proposed"),
        },
    )
    run(capsys, "new", "Try", "a", "thing")
    written = (repo / "doc/adr/0004-try-a-thing.md").read_text()
    assert "\n🤔 Proposed\n" in written
    shown = json.loads(run(capsys, "show", "4", "--json").out)
    assert (shown["status"], shown["status_text"]) == ("proposed", "🤔 Proposed")


def test_a_date_line_without_its_colon_is_read(repo, capsys):
    """The Ministry of Justice's records write `Date 09/04/2018`."""
    commit(repo, {"doc/adr/0001-a.md": "# A\n\nDate 09/04/2018\n\n## Status\n\n✅ Accepted\n\n## Context\n\nC.\n"})
    (row,) = json.loads(run(capsys, "list", "--json").out)
    assert (row["date"], row["date_text"]) == ("2018-04-09", "09/04/2018")


def test_an_unknown_setting_s_hint_spells_keys_as_the_file_does(repo, capsys):
    commit(repo, {P: adr_text("Use X"), ".adr-memory.toml": 'adr-dri = "docs/adr"\n'})
    err = run(capsys, "list", code=2).err
    assert "adr-dir" in err and "adr_dir" not in err


def test_init_s_config_points_at_documentation_that_exists(repo, capsys):
    run(capsys, "init")
    comment = (repo / ".adr-memory.toml").read_text().splitlines()[0]
    assert "README: Configuration" not in comment and "reference.md" in comment
    assert "## Configuration" in (ROOT / "docs" / "reference.md").read_text()


def test_off_a_terminal_a_url_is_never_cut_in_two(repo, capsys):
    url = "https://github.com/acme/platform/blob/main/architecture-decision-record/006-use-github.md"
    commit(repo, {P: adr_text("Use X", body=f"See {url} for the reasons we gave then and since.")})
    assert url in run(capsys, "show", "1").out
    assert url in run(capsys, "search", "reasons we gave", "--mode", "keyword").out


HOSTILE_TITLES = ["##[stop-commands]tok", "::error file=x.py::t", "x ##[error]y"]


@pytest.mark.parametrize("title", HOSTILE_TITLES)
def test_in_ci_record_text_starts_no_command_anywhere_in_a_line(repo, capsys, monkeypatch, title):
    """GitHub's runner reads `##[` anywhere in a line and `::` after leading blanks, on stdout
    and stderr alike: no command a CI job runs may print either from a record."""
    commit(
        repo,
        {
            "docs/adr/0001-x.md": adr_text(title, governs=["src/**"]),
            "docs/adr/0002-y.md": adr_text("Other", governs=["src/b/**"], extra=f"id: '{title}'"),
            "src/a.py": "1",
        },
    )
    commit(repo, {"src/a.py": "2", "src/b/c.py": "2"}, "code moves on")
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    runs = [
        ("list",),
        ("list", "--json"),
        ("stale",),
        ("stale", "--fail"),
        ("stale", "--json"),
        ("why", "src/a.py"),
        ("guard", "src/a.py", "--json"),
        ("log", "1"),
        ("log",),
        ("show", "1"),
        ("search", "other", "--mode", "keyword"),
        ("search", "other", "--mode", "keyword", "--json"),
    ]
    for args in runs:
        result = run(capsys, *args, code=None)
        assert result.code == (1 if args == ("stale", "--fail") else 0), (args, result.err)
        for line in (result.out + result.err).splitlines():
            assert "##[" not in line and not line.lstrip().startswith("::"), (args, line)
    listed = json.loads(run(capsys, "list", "--json").out)
    assert title in {row["title"] for row in listed} | {row["id"] for row in listed}  # JSON reads as written


def test_init_in_a_folder_found_by_its_records_pins_it_without_telling_you_to(repo, capsys):
    """In cometbft's layout `adr init` warned "pin it with: echo docs/architecture > .adr-dir"
    and then pinned it itself: the first step said two things at once."""
    commit(
        repo,
        {
            f"docs/architecture/adr-00{n}-{name}.md": f"# ADR 00{n}: {name.title()}\n\n## Context\n\nWhy.\n\n## Decision\n\nThis.\n"
            for n, name in ((1, "logging"), (2, "metrics"), (3, "tracing"))
        },
    )
    assert "pin it with" in run(capsys, "list").err  # found by its records: other commands say so
    done = run(capsys, "init")
    assert done.err == "" and "created .adr-memory.toml (adr-dir = docs/architecture)" in done.out
    assert 'adr-dir = "docs/architecture"' in (repo / ".adr-memory.toml").read_text()
