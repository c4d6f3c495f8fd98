"""surfaces.mcp_server: an agent's wrong arguments come back as `{"error", "hint"}`, through the
SDK's own client connected to the real servers (a repository's and the hub's)."""

from __future__ import annotations

import asyncio
import json

from adr_memory.history import Workspace
from adr_memory.surfaces import mcp, mcp_server
from tests.helpers import adr_text, commit


def _calls(server, calls):
    from mcp import Client

    async def go():
        async with Client(server) as client:
            return [await client.call_tool(name, arguments) for name, arguments in calls]

    return asyncio.run(go())


def test_wrong_and_missing_arguments_are_told_as_every_error_is(repo):
    commit(repo, {"docs/adr/0001-a.md": adr_text("Use Kafka")})
    server = mcp.build(lambda: Workspace.discover(repo))
    wrong, missing, unknown_id, right = _calls(
        server,
        [
            ("list", {"status": 7}),  # a number where a list of words goes
            ("show", {}),  # the id left out
            ("show", {"id": "ADR-0042"}),  # an AdrError: the same shape
            ("show", {"id": "1"}),
        ],
    )
    for result in (wrong, missing, unknown_id):
        assert result.is_error
        told = json.loads(result.content[0].text)
        assert set(told) == {"error", "hint"}, told
    said = json.loads(wrong.content[0].text)
    assert said["error"].startswith("list: status:") and "pydantic" not in said["error"]
    assert "status: array of string (optional)" in said["hint"], said
    said = json.loads(missing.content[0].text)
    assert said["error"] == "show: id is required" and said["hint"].startswith(
        "show takes id: string, version: string (optional)"
    )
    assert not right.is_error and json.loads(right.content[0].text)["id"] == "ADR-0001"


def test_the_words_name_each_argument_and_never_its_value():
    errors = [
        {"loc": ("limit",), "type": "int_parsing", "msg": "Input should be a valid integer."},
        {"loc": ("query",), "type": "missing", "msg": "Field required"},
    ]
    said = mcp_server.wrong_arguments("search", errors)
    assert said == "search: limit: input should be a valid integer; query is required"


def test_a_tool_the_server_has_not_is_told_as_every_error_is(repo):
    """An unknown tool came back as the SDK's plain text, with an INFO line on stderr."""
    commit(repo, {"docs/adr/0001-a.md": adr_text("Use Kafka")})
    (unknown,) = _calls(mcp.build(lambda: Workspace.discover(repo)), [("serach", {"query": "kafka"})])
    assert unknown.is_error
    told = json.loads(unknown.content[0].text)
    assert told["error"] == "no tool 'serach'" and told["hint"].startswith("the tools: ")
    assert "search" in told["hint"].removeprefix("the tools: ").split(", ")
