"""commands.hub: the hub's verbs, as the CLI and the MCP server call them, on a real folder store."""

from __future__ import annotations

from adr_memory.commands import hub
from adr_memory.history import Workspace
from tests.helpers import adr_text, service


def test_publish_then_read_what_was_published(tmp_path, model_cache):
    root = service(
        tmp_path / "payments",
        "payments",
        {
            "docs/adr/0001-pg.md": adr_text(
                "Keep orders in PostgreSQL", extra="conflict-key: org.db\nvalue: PostgreSQL"
            ),
            "docs/adr/0002-old.md": adr_text(
                "Keep orders in MySQL", status="superseded", extra="superseded-by: [ADR-0001]"
            ),
        },
    )
    url = str(tmp_path / "hub")
    assert hub.init(url)["hub"] == url
    done = hub.publish(Workspace.discover(root), url)
    assert (done["repository"], done["records"], done["changed"]) == ("payments", 2, True)
    assert hub.publish(Workspace.discover(root), url)["changed"] is False
    listed = {d["id"]: d for d in hub.listing(url)}
    assert listed["ADR-0002"]["standing"]["retired_by"] == ["ADR-0001"]  # published with its standing
    assert hub.shown(url, "payments", "2")["title"] == "Keep orders in MySQL"
    assert hub.conflicts(url) == {"conflicts": []} and hub.stale(url) == {"decisions": []}
    assert {e["id"] for e in hub.timeline(url)["events"]} == {"ADR-0001", "ADR-0002"}
