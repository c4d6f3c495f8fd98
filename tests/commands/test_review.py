"""commands.review: the pull-request report as data, each decision with its standing."""

from __future__ import annotations

from adr_memory.commands import review
from adr_memory.history import Workspace
from tests.helpers import adr_text, commit, git


def test_the_report_says_what_a_branch_did_to_the_decisions(repo):
    commit(repo, {"docs/adr/0001-a.md": adr_text("Use MongoDB", governs=["src/**"]), "src/a.py": "1"}, "start")
    git(repo, "checkout", "-q", "-b", "topic")
    commit(
        repo,
        {
            "docs/adr/0002-b.md": adr_text("Move to PostgreSQL", status="proposed", extra="supersedes: [ADR-0001]"),
            "src/a.py": "2",
        },
        "propose a successor, touch the code",
    )
    data = review.report(Workspace.discover(repo), "main")
    assert [(r["id"], r["supersedes"]) for r in data["added"]] == [("ADR-0002", ["ADR-0001"])]
    from adr_memory.surfaces import review as shown

    assert "| proposed; would replace ADR-0001 |" in shown.markdown(data)  # a reviewer sees what it retires
    (governing,) = data["governing"]
    assert governing["id"] == "ADR-0001" and governing["standing"]["text"] == "in force; successor proposed: ADR-0002"
    assert [(v["id"], v["standing"]["state"]) for v in data["made_stale"]] == [("ADR-0001", "successor-proposed")]
