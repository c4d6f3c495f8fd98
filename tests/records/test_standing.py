"""A decision's standing among the other records (records/standing.py), as a unit of logic, and
through the surfaces that judge by it: a decision is retired when a successor is in force, not
when one is proposed, and staleness, guard and list agree on it."""

from __future__ import annotations

import dataclasses
import json

import pytest

from adr_memory.records import parse, standing
from tests.helpers import adr_text, commit, run


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


def _superseded_by_a_proposal(repo, capsys):
    commit(repo, {"docs/adr/0005-use-x.md": adr_text("Use X", governs=["src/**"]), "src/a.py": "1"}, "x")
    run(capsys, "new", "Use", "Y", "-s", "5")
    commit(repo, {}, "propose Y")


def test_a_proposed_successor_retires_nothing_yet(repo, capsys):
    _superseded_by_a_proposal(repo, capsys)
    (path,) = json.loads(run(capsys, "guard", "src/a.py", "--json").out)["paths"]
    (decision,) = [d for d in path["decisions"] if d["id"] == "ADR-0005"]
    assert decision["in_force"] is True and decision["state"] == "fresh"
    assert decision["standing"]["text"] == "in force; successor proposed: ADR-0006"
    commit(repo, {"src/a.py": "2"}, "the code moves on")
    (verdict,) = [v for v in json.loads(run(capsys, "stale", "--json").out)["decisions"] if v["id"] == "ADR-0005"]
    assert verdict["state"] == "stale"  # still judged: it is what holds


def test_the_successor_in_force_retires_it(repo, capsys):
    _superseded_by_a_proposal(repo, capsys)
    run(capsys, "accept", "6")
    commit(repo, {}, "accept Y")
    (path,) = json.loads(run(capsys, "guard", "src/a.py", "--json").out)["paths"]
    (decision,) = [d for d in path["decisions"] if d["id"] == "ADR-0005"]
    assert decision["in_force"] is False and decision["state"] == "not-accepted"


def test_a_decision_that_stands_on_a_retired_one_is_at_risk(repo, capsys):
    commit(
        repo,
        {
            "docs/adr/0001-a.md": adr_text("Use A", status="deprecated"),
            "docs/adr/0002-b.md": adr_text("Build on A", governs=["src/**"], extra='depends-on: ["ADR-0001"]'),
            "docs/adr/0003-c.md": adr_text("Use C", status="superseded", extra='superseded-by: ["ADR-0004"]'),
            "docs/adr/0004-d.md": adr_text("Use D", extra='supersedes: ["ADR-0003"]'),
            "docs/adr/0005-e.md": adr_text("Build on C", governs=["src/**"], extra='depends-on: ["ADR-0003"]'),
            "src/a.py": "1",
        },
    )
    verdicts = {v["id"]: v for v in json.loads(run(capsys, "stale", "--json").out)["decisions"]}
    assert (verdicts["ADR-0002"]["state"], verdicts["ADR-0002"]["reason"]) == (
        "at-risk",
        "depends on ADR-0001, which is deprecated",
    )
    assert (verdicts["ADR-0005"]["state"], verdicts["ADR-0005"]["reason"]) == (
        "at-risk",
        "depends on ADR-0003, which is superseded by ADR-0004",
    )


def test_an_accepted_record_an_accepted_successor_replaced_is_judged_by_no_surface(repo, capsys):
    """Both files say accepted (the old one never edited): the successor in force retires it,
    and staleness no longer judges it while guard and list call it retired: one answer."""
    commit(
        repo,
        {
            "docs/adr/0001-mongo.md": adr_text("Use MongoDB", governs=["src/**"]),
            "docs/adr/0002-pg.md": adr_text("Use PostgreSQL", governs=["src/**"], extra="supersedes: [ADR-0001]"),
            "src/a.py": "1",
        },
    )
    commit(repo, {"src/a.py": "2"}, "the code moves on")
    verdicts = {v["id"]: v for v in json.loads(run(capsys, "stale", "--json").out)["decisions"]}
    assert verdicts["ADR-0001"]["state"] == "not-accepted" and verdicts["ADR-0002"]["state"] == "stale"
    (path,) = json.loads(run(capsys, "guard", "src/a.py", "--json").out)["paths"]
    assert {d["id"]: d["in_force"] for d in path["decisions"]} == {"ADR-0001": False, "ADR-0002": True}
    listed = {r["id"]: r["standing"] for r in json.loads(run(capsys, "list", "--json").out)}
    assert listed["ADR-0001"]["retired_by"] == ["ADR-0002"] and listed["ADR-0001"]["in_force"] is False


def test_the_verdicts_view_rewrites_only_what_the_standing_changes():
    old = _rec(1, "Use MongoDB")  # its file still says accepted
    new = _rec(2, "Use PostgreSQL", extra="supersedes: [ADR-0001]")
    pending = _rec(3, "Queue with Redis", "superseded", "superseded-by: [ADR-0004]")
    proposal = _rec(4, "Queue with Kafka", "proposed")
    judged = {r.id: r for r in standing.judged([old, new, pending, proposal])}
    assert (judged["ADR-0001"].status, judged["ADR-0001"].status_text) == ("superseded", "superseded by ADR-0002")
    assert judged["ADR-0002"] is new and judged["ADR-0004"] is proposal
    assert (judged["ADR-0003"].status, judged["ADR-0003"].status_text) == (
        "accepted",
        "in force; successor proposed: ADR-0004",
    )


S = standing.Standing


@pytest.mark.parametrize(
    ("held", "shown", "label", "text", "in_force"),
    [
        (S(standing.IN_FORCE, "accepted"), "accepted", "accepted", "in force", True),
        (S(standing.IN_FORCE, "accepted"), "accepted (unstated)", "accepted (unstated)", "in force", True),
        (  # the file says superseded; its successor waits: in force, and the cell says so
            S(standing.SUCCESSOR_PROPOSED, "accepted", (), ("ADR-0003",)),
            "superseded",
            "accepted; ADR-0003 proposed",
            "in force; successor proposed: ADR-0003",
            True,
        ),
        (
            S(standing.SUCCESSOR_PROPOSED, "accepted", (), ("ADR-0003", "ADR-0004")),
            "superseded",
            "accepted; 2 proposed",  # a cell stays short
            "in force; successor proposed: ADR-0003, ADR-0004",
            True,
        ),
        (
            S(standing.RETIRED, "superseded", ("ADR-0002",)),
            "accepted",
            "superseded by ADR-0002",
            "superseded by ADR-0002",
            False,
        ),
        (
            S(standing.EXCEPTION, "superseded", ("ADR-0007",)),
            "accepted",
            "exception: ADR-0007",
            "not in force here: exception recorded in ADR-0007",
            False,
        ),
        (S(standing.RETIRED, "deprecated"), "deprecated", "deprecated", "deprecated", False),
        (S(standing.RETIRED, "superseded"), "superseded", "superseded", "superseded", False),  # by no record here
        (S(standing.UNKNOWN, "unknown", reason="x"), "unknown", "unknown", "unknown: x", False),
        (S(standing.PROPOSED, "proposed"), "proposed (unstated)", "proposed (unstated)", "proposed", False),
    ],
)
def test_each_standing_as_a_cell_and_a_line(held, shown, label, text, in_force):
    assert (held.label(shown), held.describe(), held.in_force) == (label, text, in_force)
    assert S.from_json(json.loads(json.dumps(held.to_json()))) == held


def test_a_source_that_could_not_be_read_governs_as_unknown():
    held = standing.unreadable("source platform could not be read")
    assert (held.state, held.in_force, held.describe()) == (
        "unknown",
        False,
        "unknown: source platform could not be read",
    )


def test_successors_are_each_named_once_from_either_side():
    old = _rec(1, "Use MongoDB", "superseded", "superseded-by: [ADR-0002]")
    new = _rec(2, "Use PostgreSQL", extra="supersedes: [ADR-0001]")  # says it too: still one
    other = _rec(3, "Use MySQL", "proposed", "supersedes: [ADR-0001]")
    found = standing.successors([old, new, other])
    assert {path: [s.id for s in after] for path, after in found.items()} == {old.path: ["ADR-0002", "ADR-0003"]}
    assert standing.successors([_rec(4, "Self", extra="supersedes: [ADR-0004]")]) == {}  # no record replaces itself


def test_in_force_keeps_the_records_order():
    recs = [_rec(3, "C"), _rec(1, "A", "rejected"), _rec(2, "B", "proposed"), _rec(4, "D")]
    assert [r.id for r in standing.in_force(recs)] == ["ADR-0003", "ADR-0004"]


def test_a_successor_retired_in_turn_still_replaced_what_it_superseded():
    """ADR-0002 was in force once and was replaced in turn: ADR-0001 stays retired (it read as
    in force, "pending", because its one successor was not accepted). A successor rejected
    never came into force: what it would have replaced still holds."""
    first = _rec(1, "Use MongoDB", "superseded", "superseded-by: [ADR-0002]")
    second = _rec(2, "Use PostgreSQL", "superseded", "superseded-by: [ADR-0003]")
    third = _rec(3, "Use CockroachDB")
    kept = _rec(4, "Queue with Redis", "superseded", "superseded-by: [ADR-0005]")
    refused = _rec(5, "Queue with Kafka", "rejected", "supersedes: [ADR-0004]")
    states = _states(first, second, third, kept, refused)
    assert states["ADR-0001"] == ("retired", "superseded by ADR-0002")
    assert states["ADR-0002"] == ("retired", "superseded by ADR-0003")
    assert states["ADR-0004"][0] == "in-force"
    assert [r.id for r in standing.in_force([first, second, third, kept, refused])] == ["ADR-0003", "ADR-0004"]
