"""records.languages: statuses and headings in the languages folders are written in."""

from __future__ import annotations

import pytest

from adr_memory.records import languages


@pytest.mark.parametrize(
    ("old", "word", "written"),
    [
        ("accepted", "Deprecated", "deprecated"),
        ("Accepted", "deprecated", "Deprecated"),
        ("✅ Accepted", "deprecated", "Deprecated"),
        ("ACCEPTED", "deprecated", "DEPRECATED"),  # a folder that writes statuses in capitals
        ("A", "deprecated", "Deprecated"),
    ],
)
def test_a_new_status_is_cased_as_the_one_it_replaces(old, word, written):
    assert languages.cased_as(old, word) == written


def test_status_headings_however_dressed():
    for heading in (
        "Status",
        "Statut",
        "Estado",
        "1. Status",
        "📌 Status",
        "Decision status",
        "Status of this decision",
    ):
        assert languages.is_status_heading(heading), heading
    for heading in ("Context", "Statistics", "State of the art"):
        assert not languages.is_status_heading(heading), heading


def test_field_names_and_heading_cores():
    assert languages.field_name(" Statut ") == "status"
    assert languages.field_name("Owner") == "owner"
    assert languages.heading_core("**2) Status:**") == "Status"
    assert languages.heading_core("---") == ""
