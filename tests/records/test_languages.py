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


@pytest.mark.parametrize(
    ("first_word", "status", "said"),
    [
        ("akzeptiert", "rejected", "Abgelehnt"),  # the first word of a status is the one written
        ("accept\u00e9", "deprecated", "Obsol\u00e8te"),
        ("aceptado", "by", "Reemplazado por"),  # "superseded by", whole
        ("aceito", "replaces", "Substitui"),
        ("vorgeschlagen", "accepted", "Akzeptiert"),
        ("proposto", "accepted", "Aceito"),  # in two languages: the first that has it (Portuguese)
        ("en", "accepted", None),  # "En revisión", "En cours": a word that says no language
        ("accepted", "rejected", None),  # English: our own words
    ],
)
def test_a_status_is_said_in_the_language_of_its_first_word(first_word, status, said):
    assert languages.written(first_word, status) == said


@pytest.mark.parametrize(
    ("heading", "is_status"),
    [
        ("Situa\u00e7\u00e3o", True),
        ("Stato", True),
        ("Current status", True),
        ("ADR status", True),
        ("Status of the record", True),
        ("## **Estado:**", True),
        ("Status quo", False),
        ("Statement", False),
        ("Status and next steps", False),
        ("Statusbericht", False),
    ],
)
def test_more_status_headings(heading, is_status):
    assert languages.is_status_heading(heading) is is_status


@pytest.mark.parametrize(
    ("old", "word", "written"),
    [("", "x", "X"), ("123", "x", "X"), ("\u00e9T\u00e9", "Word", "word"), ("\u2705", "word", "Word")],
)
def test_a_status_with_no_letter_to_follow_is_capitalised(old, word, written):
    assert languages.cased_as(old, word) == written


def test_every_language_says_each_status_and_both_relations():
    for language, said in languages.SAID.items():
        assert set(said) == {"proposed", "accepted", "rejected", "deprecated", "superseded", "by", "replaces"}, language
    assert sorted(languages.REPLACES) == ["ersetzt", "reemplaza a", "remplace", "sostituisce", "substitui", "vervangt"]
    assert languages.STATUS_WORDS["abgelehnt"] == "rejected" and languages.STATUS_WORDS["vervangen"] == "superseded"
