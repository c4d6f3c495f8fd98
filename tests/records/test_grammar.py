"""records.grammar: a free-text status read as one of our five words, whatever a folder writes."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from adr_memory.records import grammar
from adr_memory.records.model import STATUSES


@pytest.mark.parametrize(
    ("written", "status"),
    [
        ("Accepted", "accepted"),
        ("accepted on 2024-01-02", "accepted"),
        ("Proposed → Accepted", "accepted"),  # a chain of statuses: the last
        ("Proposed, then Rejected", "rejected"),
        ("~~Proposed~~ **Accepted**", "accepted"),  # what it strikes out does not count
        ("Not yet approved", "proposed"),
        ("Not accepted", "rejected"),
        ("Won't do", "rejected"),
        ("In effect", "accepted"),  # two words read together
        ("In review", "proposed"),
        ("Obsoleted by ADR-9", "superseded"),
        ("Superseded -> ADR-5", "superseded"),  # an arrow to a record is no chain of statuses
        ("<span style='color:red'>Rejected</span>", "rejected"),
        ("The proposal was not accepted.", "rejected"),  # a sentence: its first participle
        ("Akzeptiert", "accepted"),
        ("Accepté", "accepted"),
        ("{Deprecated|Proposed|Accepted}", "unknown"),  # an unfilled template
        ("[change when approved]", "unknown"),
        ("[ ] Proposed", "unknown"),  # a checklist with nothing ticked
        ("Nobody knows", "unknown"),
        ("", "unknown"),
    ],
)
def test_a_written_status_reads_as_ours(written, status):
    assert grammar.normalise_status(written) == status


@given(st.text(max_size=80))
def test_any_text_reads_as_one_of_our_words_or_unknown(text):
    assert grammar.normalise_status(text) in (*STATUSES, "unknown")


def test_a_chain_gives_the_mark_before_the_status_it_went_to():
    assert grammar.transition("Proposed → Accepted") == (" → ", "Accepted")
    assert grammar.transition("Proposed -> Accepted") == (" -> ", "Accepted")
    assert grammar.transition("Superseded -> ADR-5") is None
    assert grammar.transition("Accepted") is None


def test_struck_text_is_dropped_or_blanked_in_place():
    assert grammar.marked("~~Proposed~~ | **Accepted** | ~~Deprecated~~") == "**Accepted**"
    assert grammar.marked("Accepted") == "Accepted"
    assert grammar.unstruck("a ~~b~~ c") == "a       c"  # every other character where it was


def test_html_tags_are_read_as_the_text_they_wrap():
    assert grammar.html_text("<b>Accepted</b> <i>now</i>") == "Accepted now"
    assert grammar.html_text("a < b") == "a < b"


def test_a_status_is_written_in_the_language_of_the_one_it_replaces():
    assert grammar.written("Akzeptiert", "rejected") == "Abgelehnt"
    assert grammar.written("Accepted", "rejected") is None  # English: our own word
