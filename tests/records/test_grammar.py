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


@pytest.mark.parametrize(
    ("written", "status"),
    [
        ("Aceptada", "accepted"),
        ("Rejeitado", "rejected"),
        ("Vervangen door ADR-5", "superseded"),
        ("Substitu\u00eddo por ADR-3", "superseded"),
        ("Respinto", "rejected"),
        ("Sostituito da ADR-2", "superseded"),
        ("Goedgekeurd", "accepted"),
        ("En revisi\u00f3n", "proposed"),
        ("En cours", "proposed"),
        ("Pendiente", "proposed"),
        ("Nicht akzeptiert", "rejected"),
        ("No aceptado", "rejected"),
        ("N\u00e3o aceito", "rejected"),
        ("Remplac\u00e9e par ADR-4", "superseded"),
        ("\u00dcberholt", "deprecated"),
        ("Not deprecated", "unknown"),  # turned around, it says nothing plain
        ("Never accepted", "rejected"),
        ("non accepted", "rejected"),
        ("Ready for review", "proposed"),
        ("Work in progress", "proposed"),
        ("On hold", "proposed"),
        ("Under review", "proposed"),
        ("In production", "accepted"),
        ("Partially implemented", "accepted"),
        ("Done \u2705", "accepted"),
        ("\u2705 Accepted", "accepted"),
        ("**Accepted**", "accepted"),
        ("ACCEPTED", "accepted"),
        ("accepted.", "accepted"),
        ("The change was implemented last year", "accepted"),
        ("It was not approved; we moved on", "rejected"),
        ("WIP", "proposed"),
        ("Won't fix", "rejected"),
        ("Superseeded", "superseded"),  # as folders misspell it
        ("Proposed then Accepted then Deprecated", "deprecated"),
        ("Accepted \u21d2 Superseded", "superseded"),
        ("Proposed => Rejected", "rejected"),
        ("Proposed \u2192 Accepted \u2192 Superseded by ADR-3", "superseded"),
        ("Then accepted", "accepted"),  # `then` with no status before it is no chain
        ("- [x] Deprecated", "deprecated"),
    ],
)
def test_more_written_statuses(written, status):
    assert grammar.normalise_status(written) == status


@pytest.mark.parametrize(
    ("text", "chain"),
    [
        ("Proposed then Accepted then Deprecated", (" then ", "Deprecated")),
        ("Accepted \u21d2 Superseded", (" \u21d2 ", "Superseded")),
        ("Draft -> review", (" -> ", "review")),
        ("Proposed, then Accepted", (", then ", "Accepted")),  # the comma is part of the mark
        ("Proposed\u2192Accepted", ("\u2192", "Accepted")),
        ("a -> b", None),  # no status on either side
        ("Accepted -> ", None),  # nothing after the last
        ("Then accepted", None),
    ],
)
def test_more_chains(text, chain):
    assert grammar.transition(text) == chain


@given(
    st.sampled_from(["Proposed", "Accepted", "Rejected", "Deprecated"]),
    st.sampled_from([" -> ", " \u2192 ", ", then "]),
)
def test_a_chain_rewritten_with_its_own_mark_keeps_the_text(first, mark):
    text = f"{first}{mark}Accepted"
    found = grammar.transition(text)
    assert found == (mark, "Accepted")
    assert first + found[0] + found[1] == text


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ("~~Proposed~~ Accepted", "Accepted"),
        ("~~a~~ | ~~b~~", ""),
        ("~~Proposed~~", ""),
        ("~~a~~ x | y", "x | y"),  # two choices left: both kept, apart as written
        ("no strikes", "no strikes"),
    ],
)
def test_marked_keeps_what_is_not_struck(text, kept):
    assert grammar.marked(text) == kept


@pytest.mark.parametrize(
    ("line", "blanked"),
    [
        ("~~~~", "    "),
        ("~~x~~ ~~y~~ z", "            z"),
        ("a ~~b\nc~~ d", "a ~~b\nc~~ d"),  # a strike does not span lines
        ("plain", "plain"),
    ],
)
def test_unstruck_blanks_struck_text_in_place(line, blanked):
    assert grammar.unstruck(line) == blanked


@pytest.mark.parametrize(
    ("line", "groups"),
    [
        ("- [x] Accepted", ("x", "Accepted")),
        ("* [X] Rejected   ", ("X", "Rejected")),  # trailing blanks are no part of the item
        ("- [ ] Proposed", (" ", "Proposed")),
        ("  + [x]   ", ("x", "")),
        ("-[x] no", None),  # a bullet needs its blank
    ],
)
def test_a_checklist_item(line, groups):
    match = grammar.TASK.match(line)
    assert (match.groups() if match else None) == groups


def test_a_long_unticked_item_is_read_at_once():
    assert grammar.TASK.match("- [ ] x" + " " * 100_000 + "y").group(2) == "x" + " " * 100_000 + "y"


@pytest.mark.parametrize(
    ("lines", "ticked"),
    [
        (["- [ ] A", "- [ ] B"], (0, "[ ] A")),  # nothing ticked: no status chosen yet
        (["- [ ] A", "- [x] B"], (1, "B")),
        (["text", "- [x] B"], None),  # under a status written out, a checklist is progress
        (["", "- [x] B", "text", "- [x] C"], (1, "B")),  # the list ends at the first other line
        ([], None),
    ],
)
def test_the_item_a_checklist_of_statuses_ticks(lines, ticked):
    assert grammar._ticked(lines) == ticked


@pytest.mark.parametrize(
    ("line", "bullet", "apart", "status"),
    [
        ("2018-10-16 proposed", "", " ", "proposed"),
        ("- 2018-10-20: Accepted", "- ", ": ", "Accepted"),
        ("* 2024-1-2 \u2013 Rejected", "* ", " \u2013 ", "Rejected"),
        ("  - 2020-01-01 \u2014 Deprecated", "  - ", " \u2014 ", "Deprecated"),
    ],
)
def test_a_status_log_entry_parts_its_date_from_its_status(line, bullet, apart, status):
    match = grammar.STATUS_LOG.match(line)
    assert match is not None and match.groups() == (bullet, apart) and line[match.end() :] == status


@pytest.mark.parametrize("line", ["2018-10-16", "2018-10-16 2019", "Accepted 2018-10-16", "18-10-16 proposed"])
def test_what_is_no_status_log_entry(line):
    assert grammar.STATUS_LOG.match(line) is None


def test_html_is_read_as_its_text_on_one_line():
    assert grammar.html_text("<p>\n<b>Accepted</b>\n</p>") == "Accepted"
    assert grammar.html_text("<br>") == ""
    assert grammar.html_text("x<y") == "x<y"


@pytest.mark.parametrize(
    ("status_text", "status", "said"),
    [
        ("Aceptado", "rejected", "Rechazado"),
        ("Remplac\u00e9", "by", "Remplac\u00e9 par"),
        ("~~Propuesto~~ Aceptado", "deprecated", "Obsoleto"),  # the struck word says nothing
        ("", "accepted", None),
    ],
)
def test_more_statuses_written_in_the_records_language(status_text, status, said):
    assert grammar.written(status_text, status) == said
