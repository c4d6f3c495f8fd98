"""records.badges: a shields.io status badge read, and rewritten keeping its label and colour."""

from __future__ import annotations

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
