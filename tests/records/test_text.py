"""records.text: markdown as records write it: headings outside code, conflict markers, tables."""

from __future__ import annotations

import pytest

from adr_memory.records import text
from adr_memory.records.model import Section


def test_atx_headings_and_what_is_not_one():
    assert text.atx_heading("## Status") == (2, "Status")
    assert text.atx_heading("   # Indented a little") == (1, "Indented a little")
    assert text.atx_heading("    # indented code") is None
    assert text.atx_heading("#hashtag") is None


def test_headings_inside_fenced_code_are_not_headings():
    found = text.md_headings(["# A", "```sh", "# a shell comment", "```", "## B"])
    assert [(h.level, h.text, h.text_at) for h in found] == [(1, "A", 0), (2, "B", 4)]


def test_merge_conflict_markers_are_counted():
    assert text.merge_conflict(["a", "<<<<<<< HEAD", "b", "=======", "c", ">>>>>>> topic"]) == 2
    assert text.merge_conflict(["Title", "======="]) == 0  # a setext underline alone is no conflict


def test_table_rows_cells_and_rules():
    assert text.table_cells("| Status | Accepted |") == ["Status", "Accepted"]
    assert text.is_rule(["---", ":-:"]) and not text.is_rule(["Status"])


def test_a_heading_that_states_the_status():
    assert text.heading_status("Status: Accepted") == "Accepted"
    assert text.heading_status("Context") is None


@pytest.mark.parametrize(
    ("line", "heading"),
    [
        ("## Context ##", (2, "Context")),  # a closing run of `#` goes
        ("  ## Two  ###  ", (2, "Two")),
        ("#\tTab", (1, "Tab")),
        ("# ", (1, "")),
        ("# C# is a language", (1, "C# is a language")),
        ("## Title #hash", (2, "Title #hash")),  # `#hash` is no closing run: no blank before it
        ("###### Six", (6, "Six")),
        ("####### seven", None),  # markdown has six levels
        ("#", None),
        ("\t# tab-indented", None),
    ],
)
def test_more_atx_headings(line, heading):
    assert text.atx_heading(line) == heading


def test_a_heading_of_thousands_of_blanks_is_read_at_once():
    assert text.atx_heading("# a" + " " * 50_000 + "b" + " " * 50_000 + "#") == (1, "a" + " " * 50_000 + "b")


def _headings(lines):
    return [(h.level, h.text, h.first, h.end) for h in text.md_headings(lines)]


@pytest.mark.parametrize(
    ("lines", "found"),
    [
        (["Title", "=====", "", "Sub", "---", "text"], [(1, "Title", 0, 2), (2, "Sub", 3, 5)]),
        (["Title", "=="], []),  # a rule of three or more
        (["- item", "---"], []),  # a list item over a rule is no title
        (["text", "", "---"], []),  # a rule after a blank line is a thematic break
        (["para", "more", "---"], []),  # only a one-line paragraph is read as a title
        (["# A", "B", "---"], [(1, "A", 0, 1), (2, "B", 1, 3)]),  # a title right under a heading
        (["    code", "---"], []),
        (["~~~", "# x", "```", "# y", "~~~", "# z"], [(1, "z", 5, 6)]),  # a fence closes with its own mark
        (["```", "Title", "===", "```"], []),
    ],
)
def test_markdown_headings_as_github_renders_them(lines, found):
    assert _headings(lines) == found


def test_a_longer_fence_is_closed_only_by_one_as_long():
    # a record showing a markdown example with code in it: four backticks around three
    lines = ["````md", "```yaml", "a: 1", "```", "## Not a section", "````", "## Consequences"]
    assert _headings(lines) == [(2, "Consequences", 6, 7)]
    assert _headings(["~~~~", "~~~", "# in", "~~~~~", "# out"]) == [(1, "out", 4, 5)]
    conflict = ["````", "```", "<<<<<<< ours", "=======", ">>>>>>> theirs", "````"]
    assert text.merge_conflict(conflict) == 0


@pytest.mark.parametrize(
    ("lines", "start"),
    [
        (["```", "<<<<<<< a", "=======", ">>>>>>> b", "```"], 0),  # in code: an example
        (["<<<<<<< a", ">>>>>>> b"], 0),  # no middle
        (["<<<<<<<<< a", "=======", ">>>>>>> b"], 0),  # nine `<` are no marker
        (["x", "<<<<<<<", "=======", ">>>>>>>"], 2),
        (["<<<<<<< a\r\n", "=======\r\n", ">>>>>>> b\r\n"], 1),
        (["=======", ">>>>>>> b"], 0),
        (["<<<<<<< a", "=======", "<<<<<<< c", "=======", ">>>>>>> d"], 3),  # the opener that is closed
    ],
)
def test_more_conflicts(lines, start):
    assert text.merge_conflict(lines) == start


@pytest.mark.parametrize(
    ("line", "cells"),
    [
        ("|a|b|", ["a", "b"]),
        ("a | b", []),  # no outer pipes: not read as a row
        ("| **Status** | _x_ |", ["Status", "x"]),
        ("  | a |  ", ["a"]),
        ("||", []),
        ("| a || b |", ["a", "", "b"]),
    ],
)
def test_table_cells_as_written(line, cells):
    assert text.table_cells(line) == cells


@pytest.mark.parametrize(
    ("cells", "rule"),
    [([":---:", "---"], True), (["- -"], True), (["-", ""], False), ([], False), (["--x"], False)],
)
def test_a_table_rule_is_dashes_colons_and_blanks(cells, rule):
    assert text.is_rule(cells) is rule


@pytest.mark.parametrize(
    ("value", "tags"),
    [
        ("a, b; c", ("a", "b", "c")),
        ('[a, "b", `c`]', ("a", "b", "c")),
        ("{x}", ("x",)),
        ("[space and/or comma separated list of tags] <!-- optional -->", ()),  # a template's blank
        ("data store, a very long sentence about tags", ("data store",)),
        ("", ()),
    ],
)
def test_a_field_lists_tags(value, tags):
    assert text._field_list({"tags": (value, 3)}, "tags") == tags


def test_a_field_list_missing_its_key_names_none():
    assert text._field_list({}, "tags") == ()


@pytest.mark.parametrize(
    ("value", "kept"),
    [
        ("2026-08-29<br>", "2026-08-29"),
        (" x <br/> <BR /> ", "x"),
        ("a<br>b", "a<br>b"),  # a break inside the value is the value's
        ("<br>", ""),
    ],
)
def test_a_fields_value_without_the_breaks_html_forces_after_it(value, kept):
    assert text._value(value) == kept


def test_fifty_thousand_breaks_are_read_back_in_one_pass():
    assert text._value("x" + "<br>" * 50_000) == "x"


@pytest.mark.parametrize(
    ("line", "undressed"),
    [("> * **Status**: x", "Status: x"), ("__Date__: y", "Date: y"), (">> - Status: z", "Status: z"), ("+ a", "a")],
)
def test_a_line_undressed(line, undressed):
    assert text._undressed(line) == undressed


@pytest.mark.parametrize(
    ("value", "fields"),
    [
        (
            "Accepted | Date: 2026-03-07 | **Deciders**: A",
            [("Status", "Accepted"), ("Date", "2026-03-07")],  # only the lifecycle fields after the first
        ),
        ("{proposed | accepted}", [("Status", "{proposed | accepted}")]),  # an unfilled template's choice
        ("Accepted \u00b7 Date: 2024", [("Status", "Accepted"), ("Date", "2024")]),
        ("Accepted", [("Status", "Accepted")]),
    ],
)
def test_the_fields_one_header_line_holds(value, fields):
    assert text._fields_in_line("Status", value) == fields


@pytest.mark.parametrize(
    ("line", "lifecycle"),
    [
        ("Status: x", True),
        ("* Date: y", True),
        ("- statut: z", True),  # a status in French
        ("  status :", True),
        ("Stato: a", True),
        ("Statuses are listed below", False),
        ("The status: fine", False),
    ],
)
def test_what_a_lifecycle_line_is(line, lifecycle):
    assert bool(text.LIFECYCLE_LINE.match(line)) is lifecycle


@pytest.mark.parametrize(
    ("heading", "status"),
    [("**Status**: Accepted", "Accepted"), ("Status:", None), ("status : draft ", "draft"), ("Statuses: x", None)],
)
def test_more_headings_that_state_a_status(heading, status):
    assert text.heading_status(heading) == status


def test_the_status_section_is_the_first_at_the_records_top_level():
    design, inner, own = Section("Design", 2, 1, ""), Section("Status", 3, 2, "x"), Section("Status", 2, 3, "y")
    assert text.status_section([design, inner, own]) is own
    assert text.status_section([design, inner]) is None  # an interface's status inside a design
    assert text.status_section([]) is None


@pytest.mark.parametrize(
    ("heading", "metadata"),
    [("Metadata", True), ("1. Metadata", True), ("**Metadata**", True), ("Metadata and more", False), ("Meta", False)],
)
def test_a_metadata_section(heading, metadata):
    assert text.is_metadata_heading(heading) is metadata


def test_metadata_lines_are_numbered_where_the_file_has_them():
    sections = (
        Section("Context", 2, 3, "Why.", 5),
        Section("Metadata", 2, 7, "- **Status**: Accepted\n- **Date**: 2024-01-02", 9),
        Section("Status", 2, 12, "| Status | Date |\n|---|---|\n| Accepted | 2024 |", 14),
    )
    assert text.metadata_lines(sections) == [
        (9, "- **Status**: Accepted"),
        (10, "- **Date**: 2024-01-02"),
        (14, "| Status | Date |"),
        (15, "|---|---|"),
        (16, "| Accepted | 2024 |"),
    ]
    assert text.metadata_lines((Section("Status", 2, 1, "Accepted", 3),)) == []  # prose: not a table
