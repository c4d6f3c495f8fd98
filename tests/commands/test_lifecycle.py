"""commands.lifecycle: status changes, supersession, links and reviews, each saying what it did."""

from __future__ import annotations

import pytest

from adr_memory.commands import lifecycle
from adr_memory.history import Workspace
from tests.helpers import adr_text, commit


def test_each_says_what_it_did(repo):
    commit(repo, {"docs/adr/0001-a.md": adr_text("A", status="proposed"), "docs/adr/0002-b.md": adr_text("B")})
    ws = Workspace.discover(repo)
    assert lifecycle.accept(ws, "1")["changed"] is True
    assert lifecycle.accept(Workspace.discover(repo), "1")["changed"] is False  # already
    done = lifecycle.supersede(Workspace.discover(repo), "1", "2")
    assert (done["superseded"], done["by"], done["completed"]) == ("ADR-0001", "ADR-0002", True)
    assert done["standing"]["retired_by"] == ["ADR-0002"]
    linked = lifecycle.link(Workspace.discover(repo), "2", "Led to", "1", "Caused by")
    assert (linked["rel"], linked["reverse"]) == ("led to", "caused by")
    assert lifecycle.affirm(Workspace.discover(repo), "2", "holds")["affirmed"] == "ADR-0002"


def test_accept_by_records_the_decision_makers_in_the_folders_own_field(repo, capsys, monkeypatch):
    from tests.helpers import run

    commit(
        repo,
        {
            "docs/adr/0001-a.md": adr_text("A", status="proposed", extra="deciders: Zoe"),
            "docs/adr/0002-b.md": adr_text("B", status="proposed"),
            "docs/adr/0003-c.md": adr_text("C", status="proposed", extra="deciders: [Yan]"),
            "docs/adr/0004-d.md": "# 4. D\n\nDate: 2024-01-01\n\n## Status\n\nProposed\n\n## Decision\n\nWe do.\n",
        },
    )
    monkeypatch.chdir(repo)
    done = run(capsys, "accept", "1", "--by", "Alice", "--by", "Bob Smith", "--json").json
    assert (done["changed"], done["decision_makers"]) == (True, ["Zoe", "Alice", "Bob Smith"])
    assert "deciders: Zoe, Alice, Bob Smith\n" in (repo / "docs/adr/0001-a.md").read_text()
    # a record without the field takes the one the folder already uses (MADR 3's `deciders`)
    run(capsys, "accept", "2", "--by", "Alice")
    assert "deciders: Alice\n" in (repo / "docs/adr/0002-b.md").read_text()
    # a YAML list stays a list; a name already there is not written twice, and nothing changes
    run(capsys, "accept", "3", "--by", "Xi")
    text = (repo / "docs/adr/0003-c.md").read_text()
    assert "deciders: [Yan, Xi]\n" in text
    again = run(capsys, "accept", "3", "--by", "Xi", "--json").json
    assert again["changed"] is False and (repo / "docs/adr/0003-c.md").read_text() == text
    # an adr-tools record has no field for it: refused, nothing written
    before = (repo / "docs/adr/0004-d.md").read_bytes()
    failed = run(capsys, "accept", "4", "--by", "Alice", code=2)
    assert failed.err.startswith("error: ADR-0004 keeps no frontmatter")
    assert (repo / "docs/adr/0004-d.md").read_bytes() == before
    # a secret as a name is refused too
    run(capsys, "accept", "2", "--by", "DB_PASSWORD=Hunter2Secret99", code=2)
    assert "Hunter2" not in (repo / "docs/adr/0002-b.md").read_text()


def test_accepting_a_record_whose_decision_is_empty_says_so(repo, capsys, monkeypatch):
    """Only template comments were seen: an empty Decision and Consequences drew no word."""
    from tests.helpers import run

    empty = "---\nstatus: proposed\n---\n# Use Redis\n\n## Context\n\nWe cache.\n\n## Decision\n\n## Consequences\n\n"
    commit(repo, {"docs/adr/0001-redis.md": empty, "docs/adr/0002-b.md": adr_text("B", status="proposed")})
    monkeypatch.chdir(repo)
    told = run(capsys, "accept", "1")
    assert told.err == (
        "warning: ADR-0001: section 'Decision' is empty (line 10)\n"
        "warning: ADR-0001: section 'Consequences' is empty (line 12)\n"
    )
    checked = run(capsys, "check", "--json").json
    assert [(f["kind"], f["line"]) for f in checked["findings"]] == [("placeholder", 10), ("placeholder", 12)]
    assert run(capsys, "accept", "2").err == ""  # a decision written: nothing to say


def test_a_decision_its_successor_in_force_retired_is_not_accepted_again(repo, capsys, monkeypatch):
    """`adr accept 2` wrote `status: accepted` beside `superseded-by: [ADR-0003]`, and no one said a word."""
    from tests.helpers import run

    commit(
        repo,
        {
            "docs/adr/0002-a.md": adr_text("A", status="superseded", extra="superseded-by: [ADR-0003]"),
            "docs/adr/0003-b.md": adr_text("B", extra="supersedes: [ADR-0002]"),
        },
    )
    monkeypatch.chdir(repo)
    before = (repo / "docs/adr/0002-a.md").read_bytes()
    told = run(capsys, "accept", "2", code=2)
    assert told.err.startswith("error: ADR-0002 is superseded by ADR-0003, which is in force")
    assert "adr deprecate ADR-0003" in told.err and (repo / "docs/adr/0002-a.md").read_bytes() == before
    # a file that says both is a finding
    (repo / "docs/adr/0002-a.md").write_bytes(before.replace(b"status: superseded", b"status: accepted"))
    said = run(capsys, "check", "--json", code=0).json["findings"]
    assert [(f["id"], f["kind"], f["line"]) for f in said if "says it is accepted" in f["message"]] == [
        ("ADR-0002", "supersession", 2)
    ]


def test_a_decision_an_accepted_successor_retired_is_not_affirmed(repo):
    """`adr stale` judges ADR-0001 `not-accepted: status is superseded` (its successor in force
    says it supersedes it); affirming it would write "this decision still holds" into it."""
    from adr_memory.errors import UsageError

    commit(
        repo,
        {
            "docs/adr/0001-a.md": adr_text("Use MongoDB", governs=["src/**"]),
            "docs/adr/0002-b.md": adr_text("Use PostgreSQL", governs=["src/**"], extra="supersedes: [ADR-0001]"),
        },
    )
    before = (repo / "docs/adr/0001-a.md").read_bytes()
    with pytest.raises(UsageError, match="only an accepted decision is affirmed") as told:
        lifecycle.affirm(Workspace.discover(repo), "1")
    assert "ADR-0002" in (told.value.hint or "")
    assert (repo / "docs/adr/0001-a.md").read_bytes() == before
