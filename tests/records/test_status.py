"""Where a record states its status, read as its readers read it: a Status section's first
line, a heading that says it, a field under the title, a dated log's last entry, the prose
that says it was superseded; and a template's question is no status."""

from __future__ import annotations

import pytest

from adr_memory import records
from adr_memory.records.status import last_logged


def _status(text: str) -> tuple[str, str, bool]:
    rec = records.parse(text, "docs/adr/0001-a.md")
    return rec.status, rec.status_text, rec.status_stated


@pytest.mark.parametrize(
    ("text", "status", "said"),
    [
        ("# 1. A\n\n## Status\n\nAccepted\n\n## Context\n\nc\n", "accepted", "Accepted"),
        ("# 1. A\n\n## Status: Rejected\n\n## Context\n\nc\n", "rejected", "Rejected"),
        ("# 1. A\n\n**Status:** Deprecated\n\n## Context\n\nc\n", "deprecated", "Deprecated"),
        (
            "# 1. A\n\n## Status\n\n- 2020-01-01: Proposed\n- 2020-02-01: Accepted\n",
            "accepted",
            "- 2020-02-01: Accepted",
        ),
        (
            "# 1. A\n\nThis decision has been superseded by decision: [2. B](0002-b.md)\n\n## Context\n\nc\n",
            "superseded",
            "superseded by decision: [2. B](0002-b.md)",
        ),
    ],
)
def test_a_status_is_read_where_the_record_states_it(text, status, said):
    assert _status(text) == (status, said, True)


def test_a_template_question_or_no_status_at_all_is_in_force_unstated():
    asked = "# 1. A\n\n## Status\n\nWhat is the status, such as proposed, accepted, rejected?\n\n## Context\n\nc\n"
    assert _status(asked)[0::2] == ("accepted", False)
    assert _status("# 1. A\n\n## Context\n\nc\n") == ("accepted", "", False)


def test_the_last_logged_entry_is_found():
    assert last_logged(["- 2020-01-01: Proposed", "- 2020-02-01: Accepted", "", "Later prose"]) == 1


# (text as each tool writes it, status, status as written, its file line, stated)
WRITTEN = [
    (  # adr-tools (Nygard)
        "# 1. Record architecture decisions\n\nDate: 2016-02-12\n\n## Status\n\nAccepted\n\n## Context\n\nc\n",
        "accepted",
        "Accepted",
        7,
    ),
    (  # adr-tools after `adr new -s 2`: the link line below the status is no status
        "# 3. Use Y\n\nDate: 2016-02-12\n\n## Status\n\nAccepted\n\nSupersedes [2. Use X](0002-use-x.md)\n",
        "accepted",
        "Accepted",
        7,
    ),
    (  # one edited with the relation above the status
        "# 3. Use Y\n\n## Status\n\nAmends [2. Use X](0002-use-x.md)\n\nAccepted\n",
        "accepted",
        "Accepted",
        7,
    ),
    (  # MADR 2
        "# Use Markdown\n\n* Status: accepted\n* Deciders: Oliver\n* Date: 2017-12-18\n\n## Context and Problem Statement\n",
        "accepted",
        "accepted",
        3,
    ),
    (
        "# Use X\n\n* Status: proposed\n* Date: 2020-01-01\n\nTechnical Story: x\n\n## Context\n",
        "proposed",
        "proposed",
        3,
    ),
    ('---\nstatus: "accepted"\ndate: 2024-01-02\n---\n# Use X\n\n## Context\n', "accepted", "accepted", 0),  # MADR 4
    ("# Use Log4brains\n\n- Status: draft\n- Date: 2020-10-07\n- Tags: doc\n\n## Context\n", "proposed", "draft", 3),
    (  # Tendermint: a changelog of dated lines is no status log
        "# ADR 012: PeerTransport\n\n## Changelog\n\n- 2018-05-20: first\n\n## Status\n\nProposed\n\n## Context\n",
        "proposed",
        "Proposed",
        9,
    ),
    ("# T\n\n> Status: Rejected\n\n## Context\n", "rejected", "Rejected", 3),
    ("# T\n\n| Status | Implemented |\n|---|---|\n\n## Context\n", "accepted", "Implemented", 3),
    ("# T\n\n| Status | Date |\n|---|---|\n| Deprecated | 2020-01-01 |\n\n## Context\n", "deprecated", "Deprecated", 5),
    (  # a table of changes, oldest first: the last row's
        "# T\n\n| Date | Status |\n|---|---|\n| 2020-01-01 | Proposed |\n| 2020-02-01 | Accepted |\n\n## Context\n",
        "accepted",
        "Accepted",
        6,
    ),
    ("# T\n\n## Status\n\n2018-10-16 proposed\n2018-10-20 accepted\n", "accepted", "2018-10-20 accepted", 6),
    ("# T\n\n## Status\n\n- [ ] Proposed\n- [x] Accepted\n- [ ] Deprecated\n", "accepted", "Accepted", 6),
    ("# T\n\n![Status](https://img.shields.io/badge/status-Rejected-red)\n\n## Context\n", "rejected", "Rejected", 3),
    ("# T\n\n**Status**\n\nDeprecated\n\n## Context\n", "deprecated", "Deprecated", 5),  # a label over its value
    (
        "# T\n\n## Status\n\n> A decision may be proposed, accepted or rejected.\n\nAccepted\n",
        "accepted",
        "Accepted",
        7,
    ),
    ("# T\n\n## Status\n\n> Rejected\n", "rejected", "Rejected", 5),  # quoted, but a status alone
    ("# T\n\n## Status\n\n<!-- Proposed, Accepted\nor Rejected -->\nProposed\n", "proposed", "Proposed", 7),
    ("# T\n\n## Status\n\nStatus: accepted\n", "accepted", "accepted", 5),  # adrgen's label inside the section
    ("# T\n\n## Statut\n\nAccept\u00e9e\n", "accepted", "Accept\u00e9e", 5),
    ("# 1. T\r\n\r\nDate: 2016-02-12\r\n\r\n## Status\r\n\r\nAccepted\r\n", "accepted", "Accepted", 7),
    ("\ufeff# 1. T\n\n## Status\n\nDeprecated\n", "deprecated", "Deprecated", 5),
    ("---\nstatus: [accepted]\n---\n# T\n", "accepted", "accepted", 0),  # a form's one-choice list
    ("# T\n\n## Status\n\n- Accepted\n", "accepted", "Accepted", 5),  # a bullet is no part of it
]


@pytest.mark.parametrize(("text", "status", "said", "line"), WRITTEN)
def test_each_tool_s_status_is_read_with_the_line_an_edit_rewrites(text, status, said, line):
    rec = records.parse(text, "docs/adr/0009-a.md")
    assert (rec.status, rec.status_text, rec.status_line, rec.status_stated) == (status, said, line, True)
    assert [p for p in rec.problems if p.kind == "status"] == []


@pytest.mark.parametrize(
    "text",
    [
        "# T\n\n## Status\n\n{Proposed | Accepted | Rejected}\n",  # the template's menu
        "# T\n\n## Status\n\n[Proposed | Accepted]\n",
        "# T\n\n## Status\n\n> Proposed, Accepted, Rejected\n",  # a quoted menu
        "# T\n\n## Status\n\n<!-- Accepted -->\n",  # a commented-out choice
        "# T\n\n## Status\n\n",
        "# T\n\n## Status\n\n_What is the status?_\n",
        "# T\n\nJust prose mentioning superseded by nothing.\n",
        "",
    ],
)
def test_a_template_left_unfilled_states_no_status(text):
    rec = records.parse(text, "docs/adr/0009-a.md")
    assert (rec.status, rec.status_text, rec.status_line, rec.status_stated) == ("accepted", "", 0, False)
    assert rec.status_shown == "accepted (unstated)"


def test_a_status_written_as_a_mapping_is_unknown_and_a_problem_on_its_line():
    rec = records.parse("---\ntitle: T\nstatus: {a: 1}\n---\n# T\n", "docs/adr/0009-a.md")
    assert (rec.status, rec.status_stated, rec.status_shown) == ("unknown", True, "unknown")
    assert [(p.kind, p.message, p.line) for p in rec.problems] == [("schema", "`status` must be text, not a dict", 3)]


@pytest.mark.parametrize(
    ("text", "problems"),
    [
        (
            "---\nstatus: accepted\n---\n# T\n\n## Status\n\nRejected\n",
            [("status", "the frontmatter says accepted, the body says 'Rejected'", 8)],
        ),
        (
            "---\nstatus: proposed\n---\n# T\n\n* Status: Accepted\n",
            [("status", "the frontmatter says proposed, the body says 'Accepted'", 6)],
        ),
        ("---\nstatus: accepted\n---\n# T\n\n## Status\n\nAccepted\n", []),  # they agree
        ("---\nstatus: Approved\n---\n# T\n\n## Status\n\nAccepted\n", []),  # in other words
        ("---\nstatus: accepted\n---\n# T\n\n## Status\n\nWhat is it?\n", []),  # the body states none
    ],
)
def test_a_body_contradicting_the_frontmatter_is_a_problem_on_the_bodys_line(text, problems):
    rec = records.parse(text, "docs/adr/0009-a.md")
    assert [(p.kind, p.message, p.line) for p in rec.problems] == problems
    if problems:
        assert rec.problems[0].hint == "keep the status in one place: the frontmatter's is the one read"


@pytest.mark.parametrize(
    ("lines", "index"),
    [
        (["- 2020-01-01: Proposed", "- 2020-02-01: Accepted", "", "Later prose"], 1),
        (["2018-10-16 proposed", "2018-10-20 accepted"], 1),
        (["* 2024-1-2 \u2013 Rejected"], 0),
        (["- 2024-05-01: Accepted", "- 2024-06-01: discussed with the team"], 0),  # a note is no entry
        (["Accepted"], None),
        (["2024-05-01"], None),
        ([], None),
    ],
)
def test_the_last_dated_line_that_states_a_status(lines, index):
    assert last_logged(lines) == index


def test_a_superseded_prose_line_must_link_a_record_file():
    linked = records.parse("# T\n\nReplaced by [the new one](0010-new.md#why) in 2024.\n", "docs/adr/0009-a.md")
    assert (linked.status, linked.status_text) == ("superseded", "Replaced by [the new one](0010-new.md#why) in 2024.")
    page = records.parse("# T\n\nSuperseded by [the wiki](https://wiki/x)\n", "docs/adr/0009-a.md")
    assert (page.status, page.status_stated) == ("accepted", False)
