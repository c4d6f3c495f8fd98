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
