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


MADR = """---
status: proposed
# a YAML comment is no heading
---
# Use X

## Context and Problem Statement

{Describe the context}

## Decision Drivers

* {driver 1}

## Considered Options

* {title of option 1}

## Decision Outcome

Chosen option: "{title of option 1}", because {justification}.

<!-- This is an optional element. Feel free to remove. -->
### Consequences

* Good, because {positive consequence}

<!-- This is an optional element. Feel free to remove. -->
## Pros and Cons of the Options
"""


def test_madr_s_sections_are_filled_and_its_notes_and_drivers_stay():
    reasons = content.Reasons(
        context="Jobs pile up.", options=("Redis", " RabbitMQ "), decision="Use Redis.", consequences="Fast."
    )
    assert content.fill(MADR, reasons) == (
        MADR.replace("{Describe the context}", "Jobs pile up.")
        .replace("* {title of option 1}", "* Redis\n* RabbitMQ")
        .replace('Chosen option: "{title of option 1}", because {justification}.', "Use Redis.")
        .replace("* Good, because {positive consequence}", "Fast.")
    )


def test_sections_a_bare_record_lacks_are_added_in_the_usual_order():
    filled = content.fill("# T\n", content.Reasons(decision="D", context="C"))
    assert filled == "# T\n\n## Context\n\nC\n\n## Decision\n\nD\n"


def test_restructured_text_sections_are_filled_and_added_in_its_own_underline():
    record = "Use X\n=====\n\nContext\n-------\n\n.. what\n\nDecision\n--------\n\n.. we will\n"
    filled = content.fill(record, content.Reasons(context="C.", consequences="Q."), rst_text=True)
    assert filled == (
        "Use X\n=====\n\nContext\n-------\n\nC.\n\nDecision\n--------\n\n.. we will\n\nConsequences\n------------\n\nQ.\n"
    )


@pytest.mark.parametrize(
    ("names", "headings", "found"),
    [
        (("decision outcome", "decision"), ["Decision Drivers", "Decision Outcome"], 1),  # the first name first
        (("decision outcome", "decision"), ["Decision Drivers"], 0),  # else a title that starts with one
        (("context",), ["**Context:**"], 0),
        (("context",), ["Background"], None),
    ],
)
def test_a_section_is_found_by_its_names_in_order(names, headings, found):
    from adr_memory.records import rst

    heads = [rst.Heading(n, n, n + 1, 2, h) for n, h in enumerate(headings)]
    assert content._find(heads, names) == found


def test_a_level_one_heading_is_never_a_section_to_fill():
    filled = content.fill("# Context\n\nThe title.\n", content.Reasons(context="C"))
    assert filled == "# Context\n\nThe title.\n\n## Context\n\nC\n"


@pytest.mark.parametrize(
    ("text", "body", "rst_text", "result"),
    [
        ("# T\n\nDate: x\n", "\n\nBody\n\n\n", False, "# T\n\nDate: x\n\nBody\n"),  # no sections: added below
        (
            "Use X\n=====\n\nContext\n-------\n\n.. what\n",
            "New\n---\n\nb",
            True,
            "Use X\n=====\n\nNew\n---\n\nb\n",
        ),
        (  # a Status section after the first other one is cut with it
            "# T\n\n## Context\n\nc\n\n## Status\n\nAccepted\n",
            "## Decision\n\nd",
            False,
            "# T\n\n## Decision\n\nd\n",
        ),
    ],
)
def test_a_body_given_whole(text, body, rst_text, result):
    assert content.with_body(text, body, rst_text) == result


def test_a_status_section_that_already_says_something_below_is_left_alone():
    nested = "# T\n\n## Status\n\n<!-- x -->\n\n### Sub\n\nz\n\n## Context\n\nc\n"
    assert content.state_in_section(nested, "Accepted") is None
    rst_record = "Use X\n=====\n\nStatus\n------\n\n.. what\n\nDecision\n--------\n\n.. we will\n"
    assert content.state_in_section(rst_record, "Accepted", rst_text=True) == (
        "Use X\n=====\n\nStatus\n------\n\nAccepted\n\nDecision\n--------\n\n.. we will\n"
    )


@pytest.mark.parametrize(
    ("text", "empty"),
    [
        ("<!-- a --> <!-- b -->", True),
        ("<!-- a -->\n\n* Good, because\n", True),
        ("<!-- x --> real text", False),
        ('Chosen option: "Redis", because it is fast.', False),
        ("", False),  # nothing at all is no placeholder either
        ("   ", False),
    ],
)
def test_more_placeholder_text(text, empty):
    assert content.says_nothing(text) is empty


def test_reasons_are_given_when_any_one_is():
    assert content.Reasons(options=("a",)) and content.Reasons(consequences="x") and content.Reasons(decision="d")
    assert not content.Reasons(context="")


CRLF = NYGARD.replace("\n", "\r\n")  # a template kept with Windows line endings


def test_a_crlf_template_is_filled_in_its_own_line_endings():
    filled = content.fill(CRLF, content.Reasons(context="Jobs.\r\nMore.", consequences="Fast."))
    assert filled == content.fill(NYGARD, content.Reasons(context="Jobs.\nMore.", consequences="Fast.")).replace(
        "\n", "\r\n"
    )
    assert "\n" not in filled.replace("\r\n", "")


def test_a_crlf_record_gets_its_status_and_body_in_its_own_line_endings():
    stated = content.state_in_section(CRLF, "Proposed")
    assert stated == content.state_in_section(NYGARD, "Proposed").replace("\n", "\r\n")
    body = "## Context\r\n\r\nBecause.\n"  # a body file's endings give way to the record's
    assert content.with_body(CRLF, body) == content.with_body(NYGARD, "## Context\n\nBecause.\n").replace("\n", "\r\n")
    assert content.with_body(NYGARD, body) == content.with_body(NYGARD, "## Context\n\nBecause.\n")
