"""One record parsed from its text: the title without its number, sections outside fenced
code, the status stated or not, the date from the file's name, and every fault a problem
rather than an exception."""

from __future__ import annotations

import pytest

from adr_memory.records.parse import copied_template, parse


@pytest.mark.parametrize(
    ("heading", "title"),
    [
        ("# ADR-7: Use Redis", "Use Redis"),
        ("# [ADR-0007] Use Redis", "Use Redis"),
        ("# ADR #7 – Use Redis", "Use Redis"),
        ("# 7. Use Redis", "Use Redis"),
        ("# 0007 - Use Redis", "Use Redis"),
        ("# 7) Use Redis", "Use Redis"),
        ("# 2024 roadmap", "2024 roadmap"),  # a year is no record number
        ("# 3-tier web", "3-tier web"),
    ],
)
def test_the_title_is_the_heading_without_the_record_s_number(heading, title):
    assert parse(f"{heading}\n\nText.\n", "docs/adr/0007-x.md").title == title


def test_a_record_with_no_heading_is_titled_by_its_file_name():
    assert parse("Just text.\n", "docs/adr/0012-keep-logs-for-a-year.md").title == "Keep logs for a year"


def test_sections_are_headings_outside_fenced_code_with_their_lines():
    text = "# T\n\n## Context\n\nWhy.\n\n```md\n## Not a section\n```\n\nSetext\n------\n\nBody.\n"
    rec = parse(text, "docs/adr/0001-t.md")
    assert [(s.heading, s.level, s.line) for s in rec.sections] == [("Context", 2, 3), ("Setext", 2, 11)]
    assert rec.sections[0].text.startswith("Why.") and "## Not a section" in rec.sections[0].text


@pytest.mark.parametrize(
    ("text", "status", "stated"),
    [
        ("# T\n", "accepted", False),  # MADR: no status is in force
        ("---\nstatus: Proposed\n---\n# T\n", "proposed", True),
        ("---\nstatus: {current: x}\n---\n# T\n", "unknown", True),
        ("# T\n\n## Status\n\nSuperseded by [2. X](0002-x.md)\n", "superseded", True),
    ],
)
def test_the_status_is_what_the_record_states_else_in_force(text, status, stated):
    rec = parse(text, "docs/adr/0001-t.md")
    assert (rec.status, rec.status_stated) == (status, stated)


def test_faults_are_problems_and_the_rest_is_still_read():
    text = "\ufeff---\nstatus: accepted\nreviewed: yesterday\n---\n# T\n<<<<<<< HEAD\na\n=======\nb\n>>>>>>> x\n"
    rec = parse(text, "docs/adr/0001-t.md")
    kinds = [p.kind for p in rec.problems]
    assert kinds[0] == "merge-conflict" and "schema" in kinds
    assert (rec.title, rec.status, rec.reviewed) == ("T", "accepted", None)


def test_the_date_comes_from_the_record_else_its_file_name():
    assert parse("---\ndate: 2023-04-05\n---\n# T\n", "docs/adr/0001-t.md").date == "2023-04-05"
    assert parse("# T\n\nDate: 2022-01-02\n", "docs/adr/0001-t.md").date == "2022-01-02"
    assert parse("# T\n", "docs/decisions/2021-06-07-t.md").date == "2021-06-07"


def test_a_copied_template_s_heading_gives_way_to_the_record_s_own():
    assert copied_template("Decision record template by Michael Nygard", "Use Redis")
    assert not copied_template("Decision record template by Michael Nygard", "Context")
    assert not copied_template("Use Redis", "Context")
    text = "# Decision record template by Michael Nygard\n\nThis is the template.\n\n# Use Redis\n\n## Status\n\nAccepted\n"
    assert parse(text, "docs/adr/0001-x.md").title == "Use Redis"
