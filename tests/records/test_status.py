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
