"""commands.serving: what `adr mcp` and `adr hub serve` offer, settled and refused before a
server starts (real repositories, a real hub folder, real sockets)."""

from __future__ import annotations

import socket

import pytest

from adr_memory.commands import hub, registry, serving
from adr_memory.errors import UsageError
from tests.helpers import adr_text, commit


def test_a_repository_s_tools_are_the_read_tools_unless_writes_are_allowed(repo):
    commit(repo, {"docs/adr/0001-a.md": adr_text("A")})
    read = serving.mcp(repo)
    assert read.root == repo.resolve() and read.hub is None and not read.allow_write
    assert set(read.names) == set(registry.MCP) - registry.MCP_WRITES
    both = serving.mcp(repo, allow_write=True)
    assert set(both.names) == set(registry.MCP) and both.allow_write


def test_the_hub_s_tools_are_read_only_and_a_write_flag_is_refused(tmp_path):
    tools = serving.mcp(hub=str(tmp_path / "hub"))
    assert tools.root is None and tools.hub == str(tmp_path / "hub") and tools.names == tuple(registry.MCP_HUB)
    with pytest.raises(UsageError, match="read-only") as refused:
        serving.mcp(hub=str(tmp_path / "hub"), allow_write=True)
    assert refused.value.hint == "drop --allow-write, or serve a repository"


def test_outside_a_repository_mcp_is_refused_before_an_agent_connects(tmp_path, monkeypatch):
    from adr_memory.errors import AdrError

    monkeypatch.chdir(tmp_path)
    with pytest.raises(AdrError):
        serving.mcp(tmp_path)


def test_a_hub_folder_is_read_once_and_served_as_asked(tmp_path):
    url = str(tmp_path / "hub")
    hub.init(url)
    served = serving.hub(url, host="127.0.0.1", port=0, public=True, workers=1)
    assert served == serving.Serving(url, "127.0.0.1", 0, True, 1)


def test_a_hub_folder_with_workers_is_refused(tmp_path):
    url = str(tmp_path / "hub")
    hub.init(url)
    with pytest.raises(UsageError, match="served by one worker") as refused:
        serving.hub(url, host="127.0.0.1", port=0, public=False, workers=2)
    assert "PostgreSQL" in (refused.value.hint or "")


def test_a_hub_that_cannot_be_read_is_said_at_once(tmp_path):
    with pytest.raises(UsageError):
        serving.hub(str(tmp_path / "no-hub-here"), host="127.0.0.1", port=0, public=False, workers=1)


def test_a_port_another_process_holds_is_one_line_naming_it(tmp_path):
    url = str(tmp_path / "hub")
    hub.init(url)
    with socket.socket() as held:
        held.bind(("127.0.0.1", 0))
        held.listen()
        port = held.getsockname()[1]
        with pytest.raises(UsageError, match=f"cannot listen on 127.0.0.1:{port}") as refused:
            serving.hub(url, host="127.0.0.1", port=port, public=False, workers=1)
    assert refused.value.hint == "another process holds it: pick another --port"


def test_an_address_not_of_this_machine_is_refused_with_the_host_hint(tmp_path):
    url = str(tmp_path / "hub")
    hub.init(url)
    with pytest.raises(UsageError, match=r"cannot listen on 192\.0\.2\.1:") as refused:
        serving.hub(url, host="192.0.2.1", port=8080, public=False, workers=1)
    assert refused.value.hint == "check --host: an address of this machine"
