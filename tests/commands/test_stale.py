"""commands.stale: a verdict per decision, and whether `--fail` fails."""

from __future__ import annotations

from adr_memory.commands import stale
from adr_memory.history import Workspace
from tests.helpers import adr_text, commit


def test_a_changed_governed_file_makes_it_stale_and_fail(repo):
    commit(repo, {"docs/adr/0001-a.md": adr_text("A", governs=["src/**"]), "src/a.py": "1"})
    assert not stale.run(Workspace.discover(repo)).fails()
    commit(repo, {"src/a.py": "2"})
    judged = stale.run(Workspace.discover(repo))
    assert judged.to_json()["decisions"][0]["state"] == "stale" and judged.fails()


def test_each_verdict_carries_the_decision_s_standing(repo, capsys):
    import json

    from tests.helpers import adr_text, commit, run

    commit(
        repo,
        {
            "docs/adr/0001-a.md": adr_text("Use MongoDB", governs=["src/**"]),
            "docs/adr/0002-b.md": adr_text("Use PostgreSQL", status="proposed", extra="supersedes: [ADR-0001]"),
            "src/a.py": "1",
        },
    )
    rows = {d["id"]: d for d in json.loads(run(capsys, "stale", "--json", code=0).out)["decisions"]}
    assert rows["ADR-0001"]["standing"]["text"] == "in force; successor proposed: ADR-0002"
    assert rows["ADR-0002"]["standing"]["state"] == "proposed"
