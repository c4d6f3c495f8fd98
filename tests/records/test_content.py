"""A decision's reasons written into its template, a body given whole, a status written into
an empty Status section, and the test that a section says nothing but placeholders."""

from __future__ import annotations

import pytest

from adr_memory.records import content

NYGARD = "# 1. X\n\nDate: 2024-01-01\n\n## Status\n\n<!-- {Proposed|Accepted} -->\n\n## Context\n\n<!-- forces -->\n\n## Decision\n\n<!-- we will -->\n"


def test_reasons_fill_their_sections_and_a_missing_one_is_added_in_order():
    filled = content.fill(NYGARD, content.Reasons(context="Jobs pile up.", options=("Redis", "RabbitMQ")))
    assert "## Context\n\nJobs pile up.\n" in filled
    assert filled.index("## Context") < filled.index("## Considered Options") < filled.index("## Decision")
    assert "## Considered Options\n\n* Redis\n* RabbitMQ\n" in filled
    assert "<!-- we will -->" in filled  # what was not given stays as the template wrote it
    assert content.fill(NYGARD, content.Reasons()) == NYGARD and not content.Reasons()


def test_a_body_given_whole_replaces_the_sections_and_keeps_title_date_and_status():
    body = "## Context\n\nBecause.\n\n## Decision\n\nWe will.\n"
    assert content.with_body(NYGARD, body) == (
        "# 1. X\n\nDate: 2024-01-01\n\n## Status\n\n<!-- {Proposed|Accepted} -->\n\n" + body
    )


def test_a_status_goes_into_a_status_section_that_says_nothing_yet():
    stated = content.state_in_section(NYGARD, "Proposed")
    assert stated is not None and "## Status\n\nProposed\n\n## Context" in stated
    assert content.state_in_section(stated, "Accepted") is None  # it says something now
    assert content.state_in_section("# 1. X\n\n## Context\n\nc\n", "Proposed") is None


@pytest.mark.parametrize(
    ("text", "empty"),
    [
        ('Chosen option: "", because .', True),
        ("* Good, because\n* Bad, because", True),
        ("<!-- the forces at play -->", True),
        ("-", False),  # left empty on purpose, no placeholder
        ("We use Redis, because it is there.", False),
        ("Because we must.", False),
    ],
)
def test_placeholder_text_says_nothing_and_a_sentence_does(text, empty):
    assert content.says_nothing(text) is empty


def test_restructured_text_comments_are_placeholders_too():
    assert content.says_nothing(".. What is the issue?", rst_text=True)
    assert not content.says_nothing("We decided.", rst_text=True)
