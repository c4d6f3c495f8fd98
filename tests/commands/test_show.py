"""commands.show: one decision with its sections, rules and links both ways."""

from __future__ import annotations

import pytest

from adr_memory.commands import show
from adr_memory.errors import RecordNotFound
from adr_memory.history import Workspace
from tests.helpers import adr_text, commit


def test_one_decision_with_its_links_both_ways(repo):
    commit(
        repo,
        {
            "docs/adr/0001-a.md": adr_text("A", body="Use it."),
            "docs/adr/0002-b.md": adr_text("B", extra='depends-on: ["ADR-0001"]'),
        },
    )
    shown = show.run(Workspace.discover(repo), "1").to_json()
    assert shown["sections"] == [{"heading": "Decision", "text": "Use it."}]
    assert shown["backlinks"] == [{"rel": "depends-on", "id": "ADR-0002"}]


def test_an_unknown_id_is_an_error_naming_the_nearest(repo):
    commit(repo, {"docs/adr/0001-a.md": adr_text("A"), "docs/adr/0002-b.md": adr_text("B")})
    with pytest.raises(RecordNotFound) as told:
        show.run(Workspace.discover(repo), "9")
    assert "ADR-0002" in told.value.hint


def test_get_answers_whole_records_with_rules_and_links_within_a_budget(repo):
    from adr_memory.errors import UsageError

    rule = '{forbid: "import pymongo"}'
    commit(
        repo,
        {
            "docs/adr/0001-a.md": adr_text("A", body="x " * 30_000, extra=f"rules: [{rule}]"),
            "docs/adr/0002-b.md": adr_text("B", body="Short.", extra="links: [{rel: amends, id: ADR-0001}]"),
        },
    )
    ws = Workspace.discover(repo)
    long, short = show.get(ws, ["1", "ADR-0002"])
    assert long["rules"] == [{"forbid": "import pymongo"}] and short["links"] == [{"rel": "amends", "id": "ADR-0001"}]
    assert short["sections"][0]["text"] == "Short." and "cut" not in short  # the short one stays whole
    assert long["cut"]["total_chars"] > show.MAX_TEXT and long["cut"]["shown_chars"] < show.MAX_TEXT
    with pytest.raises(UsageError, match="no decision '7'"):
        show.get(ws, ["1", "7"])
    with pytest.raises(UsageError, match="at most 20"):
        show.get(ws, ["1"] * 21)


def test_get_says_what_holds_and_who_made_it_so(repo, monkeypatch):
    """An agent's `get` of a decision whose successor in force replaced it said `accepted`, what
    its file says, and nothing of the successor: it carries the standing `adr show` prints."""
    commit(repo, {"docs/adr/0001-a.md": adr_text("Use MongoDB")}, "decide")
    monkeypatch.setenv("GIT_AUTHOR_NAME", "Bob")
    later = commit(repo, {"docs/adr/0002-b.md": adr_text("Use PostgreSQL", extra="supersedes: [ADR-0001]")}, "replace")
    (old,) = show.get(Workspace.discover(repo), ["1"])
    assert old["status"] == "accepted" and old["standing"]["label"] == "superseded by ADR-0002"
    changed = old["standing"]["changed"]
    assert (changed["id"], changed["to"], changed["commit"]) == ("ADR-0002", "accepted", later)
    assert changed["author"].startswith("Bob")
