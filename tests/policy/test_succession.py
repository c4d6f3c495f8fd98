"""policy.succession: the findings about who replaces whom, as a unit of logic."""

from __future__ import annotations

from adr_memory.policy import succession
from adr_memory.records import Catalog, parse
from tests.helpers import adr_text


def _catalog(*specs):
    return Catalog(
        "docs/adr",
        tuple(
            parse(adr_text(title, status=status, extra=extra), f"docs/adr/{n:04d}-x.md")
            for n, title, status, extra in specs
        ),
    )


def _said(catalog):
    return sorted((f.id, f.message) for f in succession.findings(catalog))


def test_a_proposed_successor_asks_nothing_of_the_record_it_would_replace():
    assert _said(_catalog((1, "A", "accepted", ""), (2, "B", "proposed", "supersedes: [ADR-0001]"))) == []


def test_an_accepted_successor_the_other_side_does_not_name_is_said():
    (said,) = _said(_catalog((1, "A", "accepted", ""), (2, "B", "accepted", "supersedes: [ADR-0001]")))
    assert said == ("ADR-0001", "ADR-0002 supersedes ADR-0001, but ADR-0001 does not say it is superseded by ADR-0002")


def test_two_proposals_and_a_rejected_successor_are_said():
    two = _catalog(
        (1, "A", "accepted", ""),
        (2, "B", "proposed", "supersedes: [ADR-0001]"),
        (3, "C", "proposed", "supersedes: [ADR-0001]"),
    )
    assert _said(two) == [("ADR-0001", "2 successors are proposed for ADR-0001: ADR-0002, ADR-0003")]
    rejected = _catalog(
        (1, "A", "superseded", "superseded-by: [ADR-0002]"), (2, "B", "rejected", "supersedes: [ADR-0001]")
    )
    assert [m for _i, m in _said(rejected)] == [
        "ADR-0001 says it is superseded by ADR-0002, which is rejected: ADR-0001 is read as in force again"
    ]
