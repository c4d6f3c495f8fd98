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


def _found(catalog):
    return [(f.path, f.line, f.kind, f.severity, f.message, f.hint) for f in succession.findings(catalog)]


def test_a_supersession_said_on_the_old_side_only_is_said_on_the_new_one_with_the_fix():
    found = _found(_catalog((1, "A", "superseded", "superseded-by: [ADR-0002]"), (2, "B", "accepted", "")))
    assert found == [
        (
            "docs/adr/0002-x.md",
            2,  # B writes no `supersedes:`: its status, where writing it changes B
            "supersession",
            "warning",
            "ADR-0001 says it is superseded by ADR-0002, but ADR-0002 does not say it supersedes ADR-0001",
            "adr supersede ADR-0001 --by ADR-0002",
        )
    ]


def test_a_supersession_said_on_both_sides_or_naming_no_record_here_is_nothing():
    both = _catalog((1, "A", "superseded", "superseded-by: [ADR-0002]"), (2, "B", "accepted", "supersedes: [ADR-0001]"))
    assert _found(both) == []
    assert _found(_catalog((2, "B", "accepted", "supersedes: [ADR-0009]"))) == []  # checked as an unknown link


def test_a_record_that_says_accepted_and_superseded_by_one_in_force_is_read_as_superseded():
    found = _found(
        _catalog((1, "A", "accepted", "superseded-by: [ADR-0002]"), (2, "B", "accepted", "supersedes: [ADR-0001]"))
    )
    assert found == [
        (
            "docs/adr/0001-x.md",
            2,  # its status line
            "supersession",
            "warning",
            "ADR-0001 says it is accepted, and superseded by ADR-0002, which is in force: it is read as superseded",
            "say which holds: adr supersede ADR-0001 --by ADR-0002 writes its status, "
            "or retire ADR-0002 (adr deprecate ADR-0002)",
        )
    ]


def test_successors_all_retired_since_leave_the_record_in_force_and_say_each_status():
    found = _found(
        _catalog(
            (1, "A", "superseded", "superseded-by: [ADR-0002, ADR-0003]"),
            (2, "B", "rejected", "supersedes: [ADR-0001]"),
            (3, "C", "deprecated", "supersedes: [ADR-0001]"),
        )
    )
    assert [(path, line, message, hint) for path, line, _k, _s, message, hint in found] == [
        (
            "docs/adr/0001-x.md",
            2,
            "ADR-0001 says it is superseded by ADR-0002, ADR-0003, which are rejected or deprecated: "
            "ADR-0001 is read as in force again",
            "say so in the record: adr accept ADR-0001, or deprecate it (adr deprecate ADR-0001)",
        )
    ]
    one_still_in_force = _catalog(
        (1, "A", "superseded", "superseded-by: [ADR-0002, ADR-0003]"),
        (2, "B", "rejected", "supersedes: [ADR-0001]"),
        (3, "C", "accepted", "supersedes: [ADR-0001]"),
    )
    assert _found(one_still_in_force) == []


def test_the_last_of_several_proposed_successors_is_the_one_the_hint_rejects():
    found = _found(
        _catalog(
            (1, "A", "accepted", ""),
            (2, "B", "proposed", "supersedes: [ADR-0001]"),
            (3, "C", "proposed", "supersedes: [ADR-0001]"),
            (4, "D", "proposed", "supersedes: [ADR-0001]"),
        )
    )
    assert found == [
        (
            "docs/adr/0001-x.md",
            2,
            "supersession",
            "warning",
            "3 successors are proposed for ADR-0001: ADR-0002, ADR-0003, ADR-0004",
            "reject all but one (adr reject ADR-0004), or merge them into one record",
        )
    ]
