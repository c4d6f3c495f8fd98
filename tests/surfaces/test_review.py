"""`adr review --base REF`: a report a reviewer reads as a pull request comment: what the branch
added, changed and made stale, the rule violations `check --base` fails on, short when nothing
relevant changed, inside GitHub's size limit, and mentioning no one."""

from __future__ import annotations

import json
from pathlib import Path

from tests.helpers import adr_text, commit, git, run

ROOT = Path(__file__).parents[2]


def test_review_fits_a_pull_request_comment(repo, capsys):
    spec = "\n\n".join(f"Paragraph {i} of a long specification, as written at first." for i in range(2_000))
    commit(
        repo,
        {
            "docs/adr/0001-spec.md": adr_text("A long specification", body=spec),
            "docs/adr/0002-small.md": adr_text("A small decision", body="Use tabs."),
        },
        "base",
    )
    git(repo, "checkout", "-q", "-b", "rewrite")
    commit(
        repo,
        {
            "docs/adr/0001-spec.md": adr_text("A long specification", body=spec.replace("at first", "now")),
            "docs/adr/0002-small.md": adr_text("A small decision", body="Use spaces."),
        },
        "rewrite",
    )
    md = run(capsys, "review", "--base", "main").out
    assert len(md) <= 65_536  # GitHub refuses a longer comment
    assert "+Use spaces." in md  # the short diff stays
    assert "too long for this comment; `adr diff ADR-0001` shows them" in md
    whole = json.loads(run(capsys, "review", "--base", "main", "--format", "json").out)
    assert "+Paragraph 1999 of a long specification, as written now." in whole["new_versions"][0]["diff"]

    commit(
        repo,
        {f"docs/adr/{n:04d}-x.md": adr_text("Many words in a title " * 20, status="proposed") for n in range(3, 400)},
        "many",
    )
    md = run(capsys, "review", "--base", "main").out
    assert len(md) <= 65_536 and md.count("```") % 2 == 0 and "<details>" not in md
    assert md.endswith("`adr review --format json` has all of it.\n")


def test_review_is_short_when_nothing_relevant_changed(repo, capsys):
    commit(repo, {"docs/adr/0001-db.md": adr_text("DB", governs=["src/db/**"])}, "base")
    git(repo, "checkout", "-q", "-b", "docs")
    commit(repo, {"README.md": "hello"}, "docs only")
    md = run(capsys, "review", "--base", "main").out
    assert md.count("\n") <= 3 and "No decision records changed" in md


def test_review_lists_the_rule_violations_check_base_fails_on(repo, capsys):
    rule = 'rules:\n  - {forbid: "import pymongo", message: "we use PostgreSQL"}'
    commit(repo, {"docs/adr/0001-db.md": adr_text("Use Postgres", extra=rule), "src/a.py": "x = 1\n"}, "base")
    git(repo, "checkout", "-q", "-b", "pr")
    commit(repo, {"src/a.py": "x = 1\nimport pymongo\n"}, "violate")
    checked = json.loads(run(capsys, "check", "--base", "main", "--format", "json", code=1).out)
    reviewed = json.loads(run(capsys, "review", "--base", "main", "--format", "json").out)
    assert (
        [f for f in checked["findings"] if f["kind"] == "rule"]
        == [f for f in reviewed["findings"] if f["kind"] == "rule"]
        != []
    )
    assert "we use PostgreSQL" in run(capsys, "review", "--base", "main").out


def test_review_mentions_no_one_a_record_names(repo, capsys):
    """The report is posted by a bot: `@octocat` or `@org/team` in a record's title or decision
    must not notify them (an address, `ops@example.org`, is left as written)."""
    commit(repo, {"docs/adr/0001-db.md": adr_text("DB")}, "base")
    git(repo, "checkout", "-q", "-b", "pr")
    commit(
        repo,
        {
            "docs/adr/0002-ping.md": adr_text(
                "Ping @octocat", governs=["src/**"], body="We ask @org/team, or ops@example.org."
            ),
            "src/a.py": "1",
        },
        "pr",
    )
    report = run(capsys, "review", "--base", "main").out
    assert "@octocat" not in report and "@org/team" not in report and "@&#8203;octocat" in report
    assert "ops@example.org" in report


def test_a_title_s_backticks_read_as_written_in_the_collapsed_diff(repo, capsys):
    """GitHub reads no markdown inside `<summary>`: a markdown escape there shows its backslash
    (`Use \\`uv\\``); HTML's escapes hold the text without one, and no tag gets through."""
    commit(repo, {"docs/adr/0001-uv.md": adr_text("Use `uv` & <b>pip</b>", body="One.")}, "base")
    git(repo, "checkout", "-q", "-b", "pr")
    commit(repo, {"docs/adr/0001-uv.md": adr_text("Use `uv` & <b>pip</b>", body="Two.")}, "pr")
    report = run(capsys, "review", "--base", "main").out
    summary = next(line for line in report.splitlines() if line.startswith("<details><summary>"))
    assert "Use `uv` &amp; &lt;b&gt;pip&lt;/b&gt;" in summary and "\\" not in summary
