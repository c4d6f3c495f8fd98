"""records.frontmatter: where frontmatter starts and ends, YAML or TOML, and comments set aside."""

from __future__ import annotations

import pytest

from adr_memory.records import frontmatter


def test_lines_keep_their_own_endings():
    assert frontmatter.split_lines("a\r\nb\rc\nd") == ["a\r\n", "b\r", "c\n", "d"]
    assert "".join(frontmatter.split_lines("x\n\n\ry")) == "x\n\n\ry"


@pytest.mark.parametrize(
    ("text", "span"),
    [
        ("---\nstatus: accepted\n---\n# X\n", 2),  # the index of the closing line
        ("---\nstatus: accepted\n...\n# X\n", 2),  # YAML's own document end
        ("+++\nstatus = 'accepted'\n+++\n", 2),  # Hugo's TOML
        ("# X\n---\nstatus: accepted\n---\n", None),  # not at the top: a rule in the body
        ("---\nstatus: accepted\n# X\n", None),  # never closed
    ],
)
def test_the_span_of_a_frontmatter_block(text, span):
    assert frontmatter.frontmatter_span(frontmatter.split_lines(text)) == span


def test_html_comments_are_set_aside_and_an_unclosed_one_stays():
    assert frontmatter.without_comments("a <!-- b --> c") == "a  c"
    assert frontmatter.without_comments("a <!-- b\nc --> d <!-- e") == "a  d <!-- e"


def test_an_unclosed_comment_repeated_is_read_in_one_pass():
    text = "<!--" * 200_000
    assert frontmatter.without_comments(text) == text


def test_a_problem_with_a_key_is_reported_on_the_line_that_writes_it():
    from adr_memory.records.catalog import parse_bytes

    text = "---\nstatus: accepted\ntitle: X\nreviewed: x\nSupersedes: {a: 1}\nrules: 5\n---\n# 1. X\n"
    found = {(p.kind, p.line) for p in parse_bytes("docs/adr/0001-x.md", text.encode()).problems}
    assert found == {("schema", 4), ("schema", 5), ("schema", 6)}


def test_an_impossible_date_is_one_problem_on_its_line_and_hides_no_other():
    from adr_memory.records.catalog import parse_bytes

    text = "---\nstatus: proposed\ndate: 2024-02-30\nsupersedes: {a: 1}\ntags: [db]\n---\n# 1. X\n"
    rec = parse_bytes("docs/adr/0001-x.md", text.encode())
    assert [(p.line, p.message.split(":")[0]) for p in rec.problems] == [
        (3, "`date` is not a date any calendar has"),
        (4, "`supersedes` must be a list of text values"),
    ]
    assert (rec.status, rec.tags, rec.meta["date"]) == ("proposed", ("db",), "2024-02-30")  # the rest is read
