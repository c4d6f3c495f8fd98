"""A decision's standing among the other records (records/standing.py), as a unit of logic."""

from __future__ import annotations

import dataclasses

from adr_memory.records import parse, standing
from tests.helpers import adr_text


def _rec(number: int, title: str, status: str = "accepted", extra: str = "", source: str = ""):
    rec = parse(adr_text(title, status=status, extra=extra), f"docs/adr/{number:04d}-x.md")
    if source:  # as a source's records are read: qualified ids
        rec = dataclasses.replace(rec, id=f"{source}:{rec.id}", source=source, path=f"{source}:{rec.path}")
    return rec


def _states(*recs):
    held = standing.of(recs)
    return {r.id: (held[r.path].state, held[r.path].describe()) for r in recs}


def test_each_state_and_how_it_reads():
    old = _rec(1, "Use MongoDB", "superseded", "superseded-by: [ADR-0002]")
    new = _rec(2, "Use PostgreSQL", extra="supersedes: [ADR-0001]")
    waiting = _rec(3, "Queue with Redis")
    proposal = _rec(4, "Queue with Kafka", "proposed", "supersedes: [ADR-0003]")
    gone = _rec(5, "Use XML", "deprecated")
    odd = _rec(6, "Odd", "unknown")
    assert _states(old, new, waiting, proposal, gone, odd) == {
        "ADR-0001": ("retired", "superseded by ADR-0002"),
        "ADR-0002": ("in-force", "in force"),
        "ADR-0003": ("successor-proposed", "in force; successor proposed: ADR-0004"),
        "ADR-0004": ("proposed", "proposed"),
        "ADR-0005": ("retired", "deprecated"),
        "ADR-0006": ("unknown", "unknown: status 'unknown' cannot be read"),
    }


def test_an_accepted_successor_retires_a_record_that_does_not_say_so_yet():
    old = _rec(1, "Use MongoDB")
    new = _rec(2, "Use PostgreSQL", extra="supersedes: [ADR-0001]")
    assert _states(old, new)["ADR-0001"] == ("retired", "superseded by ADR-0002")


def test_a_rejected_successor_retires_nothing():
    old = _rec(1, "Use MongoDB", "superseded", "superseded-by: [ADR-0002]")
    new = _rec(2, "Use PostgreSQL", "rejected", "supersedes: [ADR-0001]")
    assert _states(old, new)["ADR-0001"] == ("in-force", "in force")


def test_a_local_record_superseding_a_sources_decision_is_an_exception_to_it():
    theirs = _rec(1, "Events go through Kafka", source="platform")
    ours = _rec(7, "Events go through SQS here", extra="supersedes: [platform:ADR-0001]")
    assert _states(theirs, ours)["platform:ADR-0001"] == (
        "exception",
        "not in force here: exception recorded in ADR-0007",
    )
    assert [r.id for r in standing.in_force([theirs, ours])] == ["ADR-0007"]


def test_contested_names_each_record_with_more_than_one_proposed_successor():
    old = _rec(1, "Use MongoDB")
    one = _rec(2, "Use PostgreSQL", "proposed", "supersedes: [ADR-0001]")
    two = _rec(3, "Use MySQL", "proposed", "supersedes: [ADR-0001]")
    assert {p: [s.id for s in w] for p, w in standing.contested([old, one, two]).items()} == {
        old.path: ["ADR-0002", "ADR-0003"]
    }
    assert standing.contested([old, one]) == {}


def test_the_json_round_trips_and_the_label_stays_short():
    held = standing.Standing(standing.SUCCESSOR_PROPOSED, "accepted", (), ("ADR-0003", "ADR-0004"))
    assert standing.Standing.from_json(held.to_json()) == held
    assert held.label("accepted") == "accepted; 2 proposed"
    assert standing.unreadable("source platform cannot be read").describe() == (
        "unknown: source platform cannot be read"
    )
