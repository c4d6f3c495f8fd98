"""search.rows: the decision in force ahead of the one it replaced, as a unit of logic (the
ranking itself is tested with the real model in test_search.py)."""

from __future__ import annotations

import pytest

from adr_memory.records import parse
from adr_memory.search import rows
from tests.helpers import adr_text


def _records(*specs):
    out = {}
    for number, title, status, extra in specs:
        rec = parse(adr_text(title, status=status, extra=extra), f"docs/adr/{number:04d}-x.md")
        out[rec.path] = rec
    return out


RECORDS = _records(
    (1, "Use MongoDB", "superseded", "superseded-by: [ADR-0003]"),
    (2, "Serve HTTP with FastAPI", "accepted", ""),
    (3, "Move to PostgreSQL", "accepted", "supersedes: [ADR-0001]"),
    (4, "Use MySQL", "proposed", "supersedes: [ADR-0003]"),
)
P = {rec.id: path for path, rec in RECORDS.items()}


def _order(*ids):
    return [(P[i], 1.0 - n / 10) for n, i in enumerate(ids)]


def test_the_successor_in_force_takes_the_retired_one_s_place_when_it_matches():
    moved = rows.in_force_first(RECORDS, _order("ADR-0001", "ADR-0002", "ADR-0003"), lambda key: True)
    assert [RECORDS[k].id for k, _ in moved] == ["ADR-0003", "ADR-0001", "ADR-0002"]
    assert dict(moved)[P["ADR-0003"]] == 0.8  # its own score, kept


def test_a_successor_that_does_not_match_or_is_only_proposed_moves_nothing():
    order = _order("ADR-0001", "ADR-0002", "ADR-0003")
    assert rows.in_force_first(RECORDS, order, lambda key: key != P["ADR-0003"]) == order
    proposed_first = _order("ADR-0003", "ADR-0004")  # ADR-0004 is proposed: ADR-0003 still holds
    assert rows.in_force_first(RECORDS, proposed_first, lambda key: True) == proposed_first


def test_a_snippet_is_cut_around_the_question_s_words_at_whole_words():
    text = "word " * 80 + "PostgreSQL gives us transactions and joins. " + "tail " * 80
    cut = rows.snippet(text, ["postgresql"], width=60)
    assert cut.startswith("…") and cut.endswith("…") and "PostgreSQL gives us" in cut
    assert rows.OPTIONS.search("Considered Options") and not rows.OPTIONS.search("Decision Outcome")


def test_a_retired_record_whose_successor_is_not_in_the_results_stays_where_it_is():
    order = _order("ADR-0001", "ADR-0002")
    assert rows.in_force_first(RECORDS, order, lambda key: True) == order


def test_a_successor_already_above_the_retired_record_stays_where_it_is():
    order = _order("ADR-0002", "ADR-0003", "ADR-0001")
    assert rows.in_force_first(RECORDS, order, lambda key: True) == order


def test_only_the_successor_moves_the_rest_keep_their_order_and_scores():
    order = _order("ADR-0002", "ADR-0001", "ADR-0004", "ADR-0003")
    moved = rows.in_force_first(RECORDS, order, lambda key: True)
    assert [RECORDS[k].id for k, _ in moved] == ["ADR-0002", "ADR-0003", "ADR-0001", "ADR-0004"]
    assert sorted(moved) == sorted(order)  # the same (record, score) pairs, reordered


def _fake_index(sections, floor):
    from types import SimpleNamespace

    chunks = [{"section": name} for name in sections]
    return SimpleNamespace(
        floor=floor, meta={"vectors": {"chunks": chunks}}, chunk_runs=[("other.md", 0, 1), ("r.md", 1, len(sections))]
    )


def test_a_snippet_from_the_options_gives_way_to_the_decision_when_it_is_close_enough():
    from adr_memory.search import refusal

    index = _fake_index(["Decision", "Considered Options", "Decision Outcome", "Consequences"], refusal.Floor(0.2, 0))
    cosines = [0.99, 0.50, 0.30, 0.45]
    assert rows.the_decision_instead(index, "r.md", 1, cosines) == 2  # its own record's decision only
    assert rows.the_decision_instead(index, "r.md", 1, [0.99, 0.50, 0.19, 0.45]) == 1  # below the floor: kept
    assert rows.the_decision_instead(index, "gone.md", 1, cosines) == 1
    assert (
        rows.the_decision_instead(_fake_index(["x", "Options", "Context"], refusal.Floor(0, 0)), "r.md", 1, cosines)
        == 1
    )
    assert rows.the_decision_instead(_fake_index(["x", "Options", "Decision"], None), "r.md", 1, cosines) == 1


@pytest.mark.parametrize(
    ("heading", "options", "decision"),
    [
        ("Considered Options", True, False),
        ("Option 2: Kafka", True, False),
        ("Alternatives considered", True, False),
        ("Pros and Cons of the Options", True, False),
        ("Decision Outcome", False, True),
        ("What we decided", False, True),
        ("Optional extras", False, False),  # a whole word only
        ("Decisions log", False, False),
        ("Context", False, False),
    ],
)
def test_the_sections_that_weigh_options_and_those_that_decide(heading, options, decision):
    assert bool(rows.OPTIONS.search(heading)) is options
    assert bool(rows._DECISION.search(heading)) is decision


@pytest.mark.parametrize(
    ("text", "words", "width", "shown"),
    [
        ("short text", ["nothing"], 220, "short text"),  # no word found: the start, whole
        ("", ["a"], 220, ""),
        ("**Decision.** We chose [PostgreSQL](https://x.y/z).", ["postgresql"], 220, "Decision. We chose PostgreSQL."),
        ("a " * 200, [], 20, "a a a a a a a a a a a…"),  # cut at the first space past the width
        ("alpha beta gamma", ["zzz", "gamma"], 5, "…gamma"),  # the first word found leads
        ("Kafka first then " + "x " * 300, ["kafka"], 30, "Kafka first then x x x x x x x…"),
        (
            "intro " * 50 + "https://example.com/very/long/url Kafka is chosen here " + "tail " * 100,
            ["kafka"],
            40,
            "…https://example.com/very/long/url Kafka is…",  # a URL is never cut at its start
        ),
        ("We keep deploying on Fridays " + "z " * 300, ["deployment"], 10, "…keep deploying…"),  # a shared stem
    ],
)
def test_a_snippet_is_a_window_of_whole_words_around_the_first_word_found(text, words, width, shown):
    assert rows.snippet(text, words, width=width) == shown


def test_a_snippet_starts_at_the_earliest_of_the_question_s_words():
    text = "one " * 100 + "Redis here " + "two " * 100 + "Kafka there " + "three " * 100
    cut = rows.snippet(text, ["kafka", "redis"], width=60)
    assert "Redis here" in cut and "Kafka" not in cut
