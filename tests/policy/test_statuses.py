"""Status edits in the record's own style: a sign beside the word (`✅ Accepted`), the word's
case, a dated log's next entry, a table's next row; every other byte kept."""

from __future__ import annotations

import pytest

from adr_memory import records
from adr_memory.policy import statuses


def _changed(text: str, status: str) -> str:
    rec = records.parse(text, "docs/adr/0001-a.md")
    return statuses._status_edit(text, rec, status)


NYGARD = "# 1. A\n\n## Status\n\n{}\n\n## Context\n\nc\n"


@pytest.mark.parametrize(
    ("before", "status", "after"),
    [
        ("✅ Accepted", "deprecated", "⚠️ Deprecated"),
        ("🚧 Proposed", "accepted", "✅ Accepted"),
        ("✅ accepted", "rejected", "❌ rejected"),
        ("⚠️ Deprecated", "accepted", "✅ Accepted"),
        ("+ Proposed", "accepted", "+ Accepted"),  # a plus is no sign of a status
        ("Accepted", "deprecated", "Deprecated"),
        ("ACCEPTED", "deprecated", "DEPRECATED"),
        ("accepted", "rejected", "rejected"),
    ],
)
def test_a_status_keeps_the_folders_sign_and_case(before, status, after):
    assert _changed(NYGARD.format(before), status) == NYGARD.format(after)


def test_a_dated_status_log_gets_a_new_entry_and_keeps_the_old_ones():
    text = NYGARD.format("- 2020-01-01: Proposed")
    changed = _changed(text, "accepted")
    assert changed.startswith("# 1. A\n\n## Status\n\n- 2020-01-01: Proposed\n- ") and changed.count("Accepted") == 1
    assert changed.endswith("\n\n## Context\n\nc\n")
