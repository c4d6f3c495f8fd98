"""records.force: a decision is retired when a successor is in force, not when one is proposed."""

from __future__ import annotations

import json

from tests.helpers import adr_text, commit, run


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
