"""records.badges: a shields.io status badge read, and rewritten keeping its label and colour."""

from __future__ import annotations

import pytest

from adr_memory.records import badges

LINE = "![Status](https://img.shields.io/badge/status-Accepted-brightgreen)"


def test_a_status_badge_gives_its_message():
    badge = badges.status_badge(LINE)
    assert badge is not None and badges.message(badge) == "Accepted"


def test_other_badges_are_not_status():
    assert badges.status_badge("![build](https://img.shields.io/badge/build-passing-green)") is None
    assert badges.status_badge("Status: Accepted") is None


def test_shields_escapes_are_read_and_written():
    line = '<img src="https://img.shields.io/badge/Status-In__review--now_x-grey">'
    badge = badges.status_badge(line)
    assert badge is not None and badges.message(badge) == "In_review-now x"
    rewritten = badges.with_message(line, badge, "Superseded by-x")
    assert "Status-Superseded_by--x-grey" in rewritten


def test_rewriting_keeps_the_label_colour_and_the_alt_texts_case():
    line = "![accepted](https://img.shields.io/badge/status-accepted-green) and more"
    badge = badges.status_badge(line)
    assert badge is not None
    assert badges.with_message(line, badge, "deprecated") == (
        "![deprecated](https://img.shields.io/badge/status-deprecated-green) and more"
    )


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("![s](https://img.shields.io/badge/Status-Accepted-green?style=flat)", "Accepted"),  # the query is no part
        ("![s](http://IMG.SHIELDS.IO/badge/status-Draft-grey)", "Draft"),
        ("![s](https://img.shields.io/badge/status-Accepted%20now-green)", "Accepted now"),  # percent-encoding
        ("![s](https://img.shields.io/badge/%20Status%20-x-green)", "x"),
        (  # the first status badge of the line, after any other
            "![b](https://img.shields.io/badge/build-ok-green) ![s](https://img.shields.io/badge/status-Rejected-red)",
            "Rejected",
        ),
        ("![s](https://img.shields.io/badge/status-Accepted)", None),  # no colour: no static badge
        ("![s](https://img.shields.io/badge/status-a-b-c)", None),  # four parts
        ("![s](https://example.com/badge/status-Accepted-green)", None),  # not shields.io
    ],
)
def test_which_badges_state_a_status(line, message):
    badge = badges.status_badge(line)
    assert (badges.message(badge) if badge else None) == message


def test_a_huge_badge_is_read_in_one_pass():
    line = "![s](https://img.shields.io/badge/status-" + "a" * 200_000 + "-green)"
    badge = badges.status_badge(line)
    assert badge is not None and badges.message(badge) == "a" * 200_000


@pytest.mark.parametrize(
    ("line", "word", "rewritten"),
    [
        (  # an HTML badge's alt text follows; the text after it is not the badge's
            '<img alt="Accepted" src="https://img.shields.io/badge/status-Accepted-brightgreen"> Accepted',
            "superseded",
            '<img alt="Superseded" src="https://img.shields.io/badge/status-superseded-brightgreen"> Accepted',
        ),
        (
            "![ACCEPTED](https://img.shields.io/badge/status-accepted-green)",
            "rejected",
            "![REJECTED](https://img.shields.io/badge/status-rejected-green)",
        ),
        (  # an alt text that names the label, not the status, stays
            "![Status](https://img.shields.io/badge/status-accepted-green)",
            "rejected",
            "![Status](https://img.shields.io/badge/status-rejected-green)",
        ),
        (  # shields' escapes written; the query kept
            "![s](https://img.shields.io/badge/status-Accepted-green?style=flat)",
            "won_t do",
            "![s](https://img.shields.io/badge/status-won__t_do-green?style=flat)",
        ),
    ],
)
def test_a_badge_is_rewritten_in_place(line, word, rewritten):
    badge = badges.status_badge(line)
    assert badge is not None
    assert badges.with_message(line, badge, word) == rewritten


@pytest.mark.parametrize("word", ["Accepted", "Superseded by ADR-0002", "won_t-do", "a__b--c", "x_-_y"])
def test_a_word_written_into_a_badge_reads_back_as_itself(word):
    line = "![s](https://img.shields.io/badge/status-Proposed-blue)"
    rewritten = badges.with_message(line, badges.status_badge(line), word)
    assert badges.message(badges.status_badge(rewritten)) == word
