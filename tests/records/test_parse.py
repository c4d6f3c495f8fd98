"""One record parsed from its text: the title without its number, sections outside fenced
code, the status stated or not, the date from the file's name, and every fault a problem
rather than an exception."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

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


@pytest.mark.parametrize(
    ("heading", "number", "title"),
    [
        ("**ADR-0002** Use annotations", 2, "Use annotations"),  # a number set in bold
        ("**Use annotations**", None, "Use annotations"),
        ("ADR: Use X", 5, "Use X"),
        ("Decision 5: Use X", 5, "Use X"),
        ("Architecture Decision 7: Use X", 7, "Use X"),
        ("Decision record - Use X", 5, "Use X"),
        ("Title: Use X", 5, "Use X"),  # a template's label, filled in after it
        ("[5] Use X", 5, "Use X"),
        ("Decision-making process", 5, "Decision-making process"),  # a hyphen without blanks is the title's
        ("Use X (ADR-0005)", 5, "Use X"),  # its own id after it
        ("Use X [ADR 5]", 5, "Use X"),
        ("Use X (ADR-0006)", 5, "Use X (ADR-0006)"),  # another record's id stays
        ("23 Logging", 23, "Logging"),
        ("23 Logging", 24, "23 Logging"),  # not its own number: part of the title
        ("ADR-7", 7, "ADR-7"),  # nothing left after the number: the heading as written
    ],
)
def test_a_heading_without_what_the_record_s_number_adds(heading, number, title):
    from adr_memory.records.parse import _strip_title

    assert _strip_title(heading, number) == title


@pytest.mark.parametrize(
    ("filename", "title"),
    [
        ("0012-keep-logs.md", "Keep logs"),
        ("2021-06-01-release-process.md", "Release process"),  # its date is no part of it
        ("XXXX-use-kafka.md", "Use kafka"),
        ("adr-0003_use_x.mdx", "Use x"),
        ("notes.md", "Notes"),
        ("0012.md", "0012.md"),  # nothing but a number: the file's name
    ],
)
def test_a_record_without_a_heading_is_titled_from_its_name(filename, title):
    assert parse("No heading here.\n", f"docs/adr/{filename}").title == title


@pytest.mark.parametrize(
    ("text", "title"),
    [
        ("---\ntitle: |\n  Use\n  Redis\n---\n# X\n", "Use Redis"),  # a block title on one line
        ("---\ntitle: 'ADR-0005: Use Redis'\n---\n# X\n", "Use Redis"),
        ("---\ntitle: ''\n---\n# H\n", "H"),  # an empty title gives way to the heading
        ("---\ntitle: 42\n---\n", "42"),
        ("Use X\n=====\n\nBody\n", "Use X"),  # a setext title
        ("# \n\n## Context\n", "Use x"),  # an empty heading: the file's name
    ],
)
def test_where_the_title_comes_from(text, title):
    assert parse(text, "docs/adr/0005-use-x.md").title == title


@pytest.mark.parametrize(
    ("meta", "numbered", "unnumbered"),
    [
        ({"id": "ADR-0007"}, "ADR-0007", "ADR-0007"),
        ({"id": 7}, "ADR-0007", "ADR-0007"),
        ({"id": " 0042 "}, "ADR-0042", "ADR-0042"),
        ({"id": "SEC-12"}, "SEC-12", "SEC-12"),  # a scheme of its own names the decision
        ({"id": "Some Title"}, "Some Title", "Some Title"),
        ({"id": "adrs-adr002"}, "ADR-0003", "notes"),  # a docs site's page id: the file's
        ({"id": "ai-skill"}, "ADR-0003", "notes"),
        ({"id": [1]}, "ADR-0003", "notes"),
        ({"id": None}, "ADR-0003", "notes"),
        ({}, "ADR-0003", "notes"),
    ],
)
def test_the_decision_s_id_from_frontmatter_else_its_file(meta, numbered, unnumbered):
    from adr_memory.records.parse import _decision_id

    assert _decision_id(meta, "0003-x.md") == numbered
    assert _decision_id(meta, "notes.md") == unnumbered


@pytest.mark.parametrize(
    ("text", "date"),
    [
        ("---\ndate: 2024-01-02 10:00:00\n---\n", "2024-01-02"),  # a timestamp's day
        ("---\ncreated: 2023-05-06\n---\n", "2023-05-06"),
        ("---\ndate: TBD\n---\n", None),  # no digit: a blank left unfilled
        ("---\ndate: ''\n---\n", None),
        ("# T\n\nDate: ???\n", None),
        ("# T\n\nDate 09/04/2018\n", "09/04/2018"),  # as written; iso_date reads it
        ("# T\n\nRecorded: 2019-01-01\n", "2019-01-01"),
        ("# T\n\n| Created | Status |\n|---|---|\n| 2020-01-02 | Accepted |\n", "2020-01-02"),
    ],
)
def test_more_dates(text, date):
    assert parse(text, "docs/adr/0005-use-x.md").date == date


@pytest.mark.parametrize(
    ("text", "read", "problems"),
    [
        ("---\nrules: [{forbid: x}]\n---\n", ((), ({"forbid": "x"},), None), []),
        ("---\nrules: x\n---\n", ((), (), None), [("schema", "`rules` must be a list", 2)]),
        (
            "---\nreviewed: [a]\n---\n",
            ((), (), None),
            [("schema", "`reviewed` must be a mapping {commit, date}", 2)],
        ),
        ("---\ntags: a, b\n---\n", (("a", "b"), (), None), []),  # text apart by commas
        ("---\ntags: 7\n---\n", (("7",), (), None), []),
        ("# T\n\n- Tags: a, b\n", (("a", "b"), (), None), []),  # log4brains' field
        ("---\ngoverns: [src/**, 7]\n---\n", ((), (), None), []),
    ],
)
def test_tags_rules_and_reviews_read_or_reported(text, read, problems):
    rec = parse(text, "docs/adr/0005-use-x.md")
    assert (rec.tags, rec.rules, rec.reviewed) == read
    assert [(p.kind, p.message, p.line) for p in rec.problems] == problems


def test_a_review_is_read_as_its_mapping():
    import datetime as dt

    rec = parse("---\nreviewed: {commit: abc, date: 2024-01-02}\n---\n", "docs/adr/0005-use-x.md")
    assert rec.reviewed == {"commit": "abc", "date": dt.date(2024, 1, 2)}
    assert parse("---\ngoverns: [src/**, 7]\n---\n", "docs/adr/0005-x.md").governs == ("src/**", "7")


@pytest.mark.parametrize(
    ("preamble", "content"),
    [
        (
            [
                "Date: 2020",
                "* Status: accepted",
                "**Status:** x",
                "Intro text  ",
                "",
                "**Date:** 2020",  # a dressed date is content, as it always was
                "![s](https://img.shields.io/badge/status-Accepted-green)",
            ],
            ["Intro text", "", "**Date:** 2020"],
        ),
        (  # a metadata table's status cell is blanked
            ["| Status | Date |", "|---|---|", "| Accepted | 2020 |"],
            ["| Status | Date |", "|---|---|", "||2020|"],
        ),
        (["| Status | Accepted |", "| Owner | me |"], ["| Owner | me |"]),  # a row per key
        (  # a history of statuses, a row per change, goes whole
            ["| Date | Status |", "|---|---|", "| 2020 | Proposed |", "| 2021 | Accepted |", "", "After"],
            ["| Date | Status |", "|---|---|", "", "After"],
        ),
        (["**Status**", "", "Accepted", "", "Then prose"], ["", "", "Then prose"]),  # a label over its value
    ],
)
def test_the_preamble_without_what_lifecycle_commands_write(preamble, content):
    from adr_memory.records.parse import without_lifecycle

    assert without_lifecycle(preamble) == content


def test_a_restructured_text_record_reads_its_comment_line_and_title():
    text = '.. adr-memory: {"status": "proposed", "tags": ["db"]}\n\nUse X\n=====\n\nContext\n-------\n\nWhy.\n'
    rec = parse(text, "docs/decisions/0004-use-x.rst")
    assert (rec.id, rec.title, rec.status, rec.tags, rec.format) == (
        "ADR-0004",
        "Use X",
        "proposed",
        ("db",),
        "frontmatter",
    )
    assert [(s.heading, s.level, s.line, s.text, s.text_line) for s in rec.sections] == [("Context", 2, 6, "Why.", 9)]


def test_a_restructured_text_comment_line_that_is_no_mapping_is_a_problem_on_line_one():
    rec = parse(".. adr-memory: [1, 2]\n\nUse X\n=====\n", "docs/decisions/0004-use-x.rst")
    assert [(p.kind, p.message, p.line, p.hint) for p in rec.problems] == [
        (
            "yaml",
            "the `.. adr-memory:` line is not a mapping of keys to values",
            1,
            "fix the YAML after `.. adr-memory:`, or delete the line",
        )
    ]
    assert rec.meta == {} and rec.title == "Use X"


@pytest.mark.parametrize(
    ("text", "body_line", "body"),
    [
        ("---\nstatus: a\n---\n# T\n", 4, "# T\n"),
        ("# T\r\n\r\nx\r", 1, "# T\n\nx\n"),  # every line ending read as one
        ("\ufeff---\nstatus: a\n---\n# T\n", 4, "# T\n"),
        ("", 1, ""),
    ],
)
def test_the_body_starts_after_the_frontmatter_in_unix_newlines(text, body_line, body):
    rec = parse(text, "docs/adr/0001-t.md")
    assert (rec.body_line, rec.body) == (body_line, body)


@given(st.text(max_size=200))
def test_any_text_parses_without_raising(text):
    rec = parse(text, "docs/adr/0001-t.md")
    assert rec.title and rec.id == "ADR-0001"
    assert rec.status in ("proposed", "accepted", "rejected", "deprecated", "superseded", "unknown")


@given(
    st.lists(
        st.sampled_from(
            [
                "---",
                "status: a",
                "# T",
                "## Status",
                "Accepted",
                "",
                "<<<<<<< x",
                "=======",
                ">>>>>>> y",
                "```",
                "| a | b |",
                "- [x] Done",
            ]
        ),
        max_size=15,
    )
)
def test_any_arrangement_of_record_lines_parses_with_problems_on_real_lines(lines):
    text = "\n".join(lines) + "\n"
    rec = parse(text, "docs/adr/0001-t.md")
    count = len(lines)
    assert all(0 <= p.line <= max(count, 1) for p in rec.problems)
    assert all(1 <= s.line <= count for s in rec.sections)


@pytest.mark.parametrize(
    ("written", "problem"),
    [
        ("notadate", "`date` 'notadate' is not a date"),
        ("2020-13-45", "`date` '2020-13-45' is not a date"),
        ("{YYYY-MM-DD when the decision was last updated}", None),  # MADR's template, left to fill
        ("TBD", None),
        ("2020-06-17", None),
        ("17 June 2020", None),
    ],
)
def test_a_frontmatter_date_that_is_not_one_is_said_on_its_line(written, problem):
    rec = parse(f"---\nstatus: accepted\ndate: '{written}'\n---\n# A\n", "docs/adr/0001-a.md")
    said = [(p.message, p.line, p.hint) for p in rec.problems if p.kind == "date"]
    assert said == ([(problem, 3, "write it as YYYY-MM-DD")] if problem else [])
