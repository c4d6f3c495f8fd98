"""commands.hub: the hub's verbs, as the CLI and the MCP server call them, on a real folder store."""

from __future__ import annotations

import pytest

from adr_memory.commands import hub
from adr_memory.errors import UsageError
from adr_memory.history import Workspace
from tests.helpers import adr_text, git, service, versioned


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


def test_a_published_decision_diffs_between_any_two_of_its_versions(tmp_path, model_cache):
    root = versioned(tmp_path / "shop")
    url = str(tmp_path / "hub")
    hub.init(url)
    hub.publish(Workspace.discover(root), url)
    said = hub.version_diff(url, "shop", "1")
    assert "-Orders live in MySQL 8." in said["diff"] and "+Orders live in PostgreSQL 16." in said["diff"]
    newest, oldest = (v["version_id"] for v in hub.shown(url, "shop", "1")["versions"])
    assert (said["from"], said["to"]) == (oldest, newest)
    first = git(root, "rev-list", "--max-parents=0", "HEAD").strip()
    backwards = hub.version_diff(url, "shop", "ADR-0001", newest, first[:8])  # by id, and by a commit's prefix
    assert "+Orders live in MySQL 8." in backwards["diff"] and backwards["to"] == oldest
    assert hub.version_diff(url, "shop", "1", oldest, oldest)["diff"] == "no differences"
    with pytest.raises(UsageError, match="is no version of ADR-0001") as told:
        hub.version_diff(url, "shop", "1", "nope")
    assert newest in (told.value.hint or "")
    with pytest.raises(UsageError, match="no decision"):
        hub.version_diff(url, "shop", "9")


def test_a_hub_published_to_before_versions_carried_their_text_says_to_publish_again(tmp_path):
    from adr_memory.hub import Snapshot

    url = str(tmp_path / "hub")
    hub.init(url)
    versions = [{"version_id": "ADR-0001@b", "commit": "b" * 40}, {"version_id": "ADR-0001@a", "commit": "a" * 40}]
    hub.open_hub(url).publish(Snapshot("old", None, None, [{"id": "ADR-0001", "versions": versions}], [], None))
    with pytest.raises(UsageError, match="holds no text of ADR-0001's version ADR-0001@a") as told:
        hub.version_diff(url, "old", "1")
    assert "publish old again" in (told.value.hint or "")


def test_the_operator_s_small_edges(tmp_path, model_cache):
    """A decision of a repository the hub does not hold names the nearest repository; a token
    scope is a repository's name; a publish token never goes over plain http to another machine."""
    root = versioned(tmp_path / "shop")
    url = str(tmp_path / "hub")
    hub.init(url)
    hub.publish(Workspace.discover(root), url)
    with pytest.raises(UsageError, match="no repository 'shpo' in the hub") as told:
        hub.shown(url, "shpo", "1")
    assert told.value.hint == "the nearest: shop"
    with pytest.raises(UsageError, match=r"'\.\./\.\./etc' is no repository name"):
        hub.token_add(url, "ci", publish=["../../etc"])
    with pytest.raises(UsageError, match="a publish token goes only over https"):
        hub.publish(Workspace.discover(root), "http://hub.example.org", token="adrh_x")
