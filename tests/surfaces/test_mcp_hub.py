"""`adr mcp --hub URL`: an agent searches the organisation's decisions, read-only."""

from __future__ import annotations

import asyncio
import json
import sys

from tests.helpers import adr_text, commit, run


async def _calls(cwd, url, calls):
    from mcp.client.session import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    params = StdioServerParameters(command=sys.executable, args=["-m", "adr_memory", "mcp", "--hub", url], cwd=str(cwd))
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        tools = [t.name for t in (await session.list_tools()).tools]
        answers = []
        for name, arguments in calls:
            result = await session.call_tool(name, arguments)
            text = "".join(c.text for c in result.content if hasattr(c, "text"))
            answers.append(json.loads(text))
        return tools, answers


def test_an_agent_asks_the_organisation(repo, capsys, tmp_path, model_cache):
    commit(
        repo,
        {
            "docs/adr/0001-kafka.md": adr_text(
                "Publish domain events on Kafka", body="Every service publishes on the shared Kafka cluster."
            )
        },
    )
    hub = str(tmp_path / "hub")
    run(capsys, "hub", "init", "--to", hub)
    run(capsys, "hub", "publish", "--to", hub, "--name", "platform")
    with capsys.disabled():
        tools, (found, listed, shown, events, missing, changes, excepted, nul) = asyncio.run(
            _calls(
                repo,
                hub,
                [
                    ("search", {"query": "have we decided on a message queue"}),
                    ("list", {}),
                    ("show", {"repository": "platform", "id": "1"}),
                    ("timeline", {}),
                    ("show", {"repository": "platform", "id": "7"}),
                    ("diff", {"repository": "platform", "id": "1"}),
                    ("exceptions", {}),
                    ("show", {"repository": "platform", "id": "1\u0000"}),  # PostgreSQL takes no NUL
                ],
            )
        )
    assert set(tools) == {"search", "list", "show", "diff", "timeline", "stale", "conflicts", "exceptions"}  # read-only
    assert shown["sections"][0]["text"].startswith("Every service publishes") and len(shown["versions"]) == 1
    assert [(e["id"], e["kind"]) for e in events["events"]] == [("ADR-0001", "version")]
    assert missing["error"].startswith("no decision '7' of platform")
    assert changes["diff"] == "no differences" and excepted == {"exceptions": []}  # one version; no exception
    assert nul["error"] == "an argument holds a NUL character"
    assert (found["results"][0]["repository"], found["results"][0]["id"]) == ("platform", "ADR-0001")
    assert listed["records"][0]["title"] == "Publish domain events on Kafka"
