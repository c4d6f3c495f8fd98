"""records.text: markdown as records write it: headings outside code, conflict markers, tables."""

from __future__ import annotations

from adr_memory.records import text


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
