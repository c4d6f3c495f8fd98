"""One command layer: the CLI's `--json` and the MCP server give the same answer to the same
question, for every command both offer (issue 58); every tool's schema is its command's."""

from __future__ import annotations

import asyncio
import json

import pytest

from tests.helpers import adr_text, commit, run
from tests.surfaces.test_mcp import _session_calls

DROP = {"server", "index", "warning"}  # what the MCP envelope adds around a command's answer


def _folder(repo):
    commit(
        repo,
        {
            "docs/adr/0001-db.md": adr_text(
                "Use PostgreSQL", governs=["src/db/**"], extra="tags: [storage]", body="Orders live in PostgreSQL."
            ),
            "docs/adr/0002-jobs.md": adr_text("Queue jobs with Redis", status="proposed", governs=["src/jobs/**"]),
            "src/db/a.py": "1",
            "src/jobs/b.py": "1",
        },
        "base",
    )
    commit(repo, {"src/db/a.py": "2"}, "the code moves on")


QUESTIONS = [
    (("list", "--json"), ("list", {}), lambda a: a["records"]),
    (("list", "--status", "proposed", "--json"), ("list", {"status": ["proposed"]}), lambda a: a["records"]),
    (("show", "1", "--json"), ("show", {"id": "1"}), None),
    (("log", "1", "--json"), ("log", {"id": "1"}), None),
    (("guard", "src/db/a.py", "--json"), ("guard", {"paths": ["src/db/a.py"]}), None),
    (("check", "--format", "json"), ("check", {}), None),
]


ASKED = "where do orders live"


def _ranked(answer):
    """What a search answer says, on either surface (MCP's rows are compact)."""
    rows = [(r["id"], r["status"], r["score"]) for r in answer["results"] + answer["best_weak"]]
    return answer["confidence"], answer["no_strong_match"], rows


def test_the_cli_and_the_mcp_server_give_the_same_answers(repo, capsys):
    _folder(repo)
    cli = [json.loads(run(capsys, *args, code=0).out) for args, _tool, _pick in QUESTIONS]
    searched = json.loads(run(capsys, "search", ASKED, "--json").out)
    calls = [tool for _args, tool, _pick in QUESTIONS] + [("search", {"query": ASKED})]
    with capsys.disabled():  # the server's stdio needs the real streams
        _tools, answers = asyncio.run(_session_calls(repo, calls))
    for (args, _tool, pick), theirs, ours in zip(QUESTIONS, cli, answers, strict=False):
        told = {k: v for k, v in json.loads(ours).items() if k not in DROP}
        assert (pick(told) if pick else told) == theirs, args
    assert _ranked(json.loads(answers[-1])) == _ranked(searched) and _ranked(searched)[2][0][0] == "ADR-0001"
    stale_cli = json.loads(run(capsys, "stale", "--json").out)["decisions"]
    with capsys.disabled():
        _tools, (stale_mcp,) = asyncio.run(_session_calls(repo, [("stale", {})]))
    needing = [(d["id"], d["state"], d["reason"]) for d in stale_cli if d["state"] not in ("fresh", "not-accepted")]
    assert needing and needing == [(d["id"], d["state"], d["reason"]) for d in json.loads(stale_mcp)["decisions"]]


LINK = ["1:Narrows:Narrowed by"]


def test_the_write_tools_do_what_the_cli_does(repo, capsys):
    _folder(repo)
    calls = [
        ("accept", {"id": "2", "reason": "load tests passed"}),
        ("link", {"source": "2", "rel": "Led to", "target": "1", "reverse": "Caused by"}),
        ("affirm", {"id": "1", "note": "still right"}),
        ("new", {"title": "Use Kafka", "tags": ["queues"], "supersedes": ["2"]}),
        ("new", {"title": "No ORM", "governs": ["src/**"], "rules": [{"forbid": "import sqlalchemy"}], "links": LINK}),
    ]
    flags: list[bool] = []
    with capsys.disabled():
        _tools, answers = asyncio.run(_session_calls(repo, calls, allow_write=True, flags=flags))
    assert flags == [False] * 5, answers
    typed = ("--governs", "src/**", "--rule", "forbid: import sqlalchemy", "-l", LINK[0])
    by_hand = run(capsys, "new", "No ORM", *typed).out.strip()
    assert (repo / by_hand).read_text() == (repo / json.loads(answers[4])["created"]).read_text()
    shown = json.loads(run(capsys, "show", "2", "--json").out)
    # ADR-0002 stays in force: its successor is only proposed
    assert shown["status"] == "accepted" and ("led to", "ADR-0001") in {(x["rel"], x["id"]) for x in shown["links"]}
    assert shown["standing"]["proposed_successors"] == ["ADR-0003"]
    assert json.loads(run(capsys, "show", "3", "--json").out)["tags"] == ["queues"]
    assert "still right" in (repo / "docs/adr/0001-db.md").read_text()


def test_without_allow_write_no_tool_writes(repo):
    _folder(repo)
    tools, _answers = asyncio.run(_session_calls(repo, []))
    assert {"search", "get", "show", "list", "log", "guard", "stale", "check", "timeline", "feedback"} <= set(tools)
    assert not {"new", "accept", "reject", "deprecate", "supersede", "link", "affirm"} & set(tools)


@pytest.mark.parametrize("name", ["show", "list", "check", "accept", "link", "new"])
def test_every_tool_schema_is_its_command_s_signature(repo, name):
    """The parameters an agent sees are the command's, minus what the server supplies."""
    import inspect

    from adr_memory import commands
    from adr_memory.surfaces import mcp

    mcp._tools()
    fn = {**mcp._READ, **mcp._WRITE}[name]
    command = inspect.unwrap(fn)
    expected = [p for p in inspect.signature(command).parameters if p not in mcp._SURFACE_ONLY]
    server = mcp.build(lambda: None, allow_write=True)
    (tool,) = [t for t in asyncio.run(server.list_tools()) if t.name == name]
    assert list(tool.input_schema["properties"]) == expected
    assert tool.description == inspect.getdoc(command)
    assert commands  # the layer the tools stand on
