"""commands.generate: the folder's decisions for `adr generate toc|graph`, each with its
standing worked out once, and their links, each drawn once; through the CLI's `--json`."""

from __future__ import annotations

import json

from adr_memory.commands import generate
from adr_memory.history import Workspace
from tests.helpers import adr_text, commit, run


def _folder(repo):
    commit(
        repo,
        {
            "docs/adr/0001-a.md": adr_text("Use MongoDB", status="superseded", extra="superseded-by: [ADR-0002]"),
            "docs/adr/0002-b.md": adr_text("Use PostgreSQL", extra="supersedes: [ADR-0001]\ndepends-on: [ADR-0003]"),
            "docs/adr/0003-c.md": adr_text("Queue with Redis"),
            "docs/adr/0004-d.md": adr_text("Queue with Kafka", status="proposed", extra="supersedes: [ADR-0003]"),
        },
    )


def test_each_decision_comes_with_its_standing_and_each_link_once(repo):
    _folder(repo)
    drawn = generate.run(Workspace.discover(repo))
    states = {n["id"]: (n["status"], n["standing"]["state"]) for n in drawn.nodes()}
    assert states == {
        "ADR-0001": ("superseded", "retired"),
        "ADR-0002": ("accepted", "in-force"),
        "ADR-0003": ("accepted", "successor-proposed"),  # its file says accepted, and holds: Kafka is only proposed
        "ADR-0004": ("proposed", "proposed"),
    }
    assert drawn.to_json()["edges"] == [
        {"from": "ADR-0002", "to": "ADR-0001", "relation": "supersedes"},
        {"from": "ADR-0002", "to": "ADR-0003", "relation": "depends on"},
        {"from": "ADR-0004", "to": "ADR-0003", "relation": "supersedes"},
    ]


def test_the_cli_s_json_carries_the_standing_and_at_reads_an_earlier_commit(repo, capsys):
    _folder(repo)
    first = commit(repo, {"docs/adr/0005-e.md": adr_text("Later")}, "later")
    toc = json.loads(run(capsys, "generate", "toc", "--json", code=0).out)
    assert [(r["id"], r["standing"]["label"]) for r in toc][:3] == [
        ("ADR-0001", "superseded by ADR-0002"),
        ("ADR-0002", "accepted"),
        ("ADR-0003", "accepted; ADR-0004 proposed"),
    ]
    graph = json.loads(run(capsys, "generate", "graph", "--json", code=0).out)
    assert {n["id"] for n in graph["nodes"]} == {"ADR-0001", "ADR-0002", "ADR-0003", "ADR-0004", "ADR-0005"}
    earlier = json.loads(run(capsys, "generate", "toc", "--json", "--at", f"{first}~1", code=0).out)
    assert [r["id"] for r in earlier] == ["ADR-0001", "ADR-0002", "ADR-0003", "ADR-0004"]
    said = run(capsys, "generate", "toc", code=0).out
    assert "* [ADR-0003: Queue with Redis](0003-c.md) (in force; successor proposed: ADR-0004)" in said
