"""commands.sources: add keeps every byte of the config; list says each source's state."""

from __future__ import annotations

import pytest

from adr_memory.commands import sources
from adr_memory.errors import UsageError
from adr_memory.history import Workspace
from tests.helpers import adr_text, commit, git


def test_add_appends_a_table_and_keeps_the_rest_byte_for_byte(repo):
    commit(repo, {"docs/adr/0001-a.md": adr_text("A"), ".adr-memory.toml": 'adr-dir = "docs/adr"  # ours\r\n'})
    done = sources.add(Workspace.discover(repo), "platform", "https://tok@example.org/arch.git", "trunk")
    text = (repo / ".adr-memory.toml").read_bytes().decode()
    assert (
        text.startswith('adr-dir = "docs/adr"  # ours\r\n')
        and '[sources.platform]\r\nurl = "https://tok@example.org/arch.git"' in text
    )
    assert done["url"] == "https://example.org/arch.git"
    assert [s.name for s in Workspace.discover(repo).config.sources] == ["platform"]
    with pytest.raises(UsageError, match="already"):
        sources.add(Workspace.discover(repo), "platform", "x")
    with pytest.raises(UsageError, match="short lowercase"):
        sources.add(Workspace.discover(repo), "Platform!", "x")


def test_list_says_what_is_pinned_and_what_cannot_be_read(repo, tmp_path):
    central = tmp_path / "central"
    central.mkdir()
    git(central, "init", "-q", "-b", "main")
    commit(central, {"docs/adr/0001-x.md": adr_text("X")})
    commit(repo, {"docs/adr/0001-a.md": adr_text("A")})
    sources.add(Workspace.discover(repo), "platform", str(central))
    (row,) = sources.listing(Workspace.discover(repo))["sources"]
    assert (row["commit"], row["fetched"]) == (None, False) and "not pinned yet" in row["problem"]
    sources.update(Workspace.discover(repo))
    (row,) = sources.listing(Workspace.discover(repo))["sources"]
    assert (row["records"], row["fetched"], row["problem"]) == (1, True, None)
