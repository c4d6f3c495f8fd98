"""search.rows: the decision in force ahead of the one it replaced, as a unit of logic (the
ranking itself is tested with the real model in test_search.py)."""

from __future__ import annotations

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
