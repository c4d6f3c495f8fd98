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
        and '[sources.platform]\r\nurl = "https://example.org/arch.git"' in text  # the token is never written
    )
    assert "tok" not in text and "ADR_SOURCE_TOKEN_PLATFORM" in done["credential"]
    assert "ADR_SOURCE_USER_" not in done["credential"]  # `token@`: the token alone, no user to name
    assert done["url"] == "https://example.org/arch.git"
    assert [s.name for s in Workspace.discover(repo).config.sources] == ["platform"]
    with pytest.raises(UsageError, match="already"):
        sources.add(Workspace.discover(repo), "platform", "x")
    with pytest.raises(UsageError, match="short lowercase"):
        sources.add(Workspace.discover(repo), "Platform!", "x")


@pytest.mark.parametrize(
    ("url", "user_too"),
    [
        ("https://alice:tok@example.org/arch.git", True),
        ("https://oauth2:tok@gitlab.example.org/arch.git", False),  # the host's user for any token
        ("https://example.org/arch.git?private_token=tok", False),
    ],
)
def test_a_credential_typed_in_the_url_says_where_each_part_goes_instead(repo, url, user_too):
    commit(repo, {"docs/adr/0001-a.md": adr_text("A")})
    done = sources.add(Workspace.discover(repo), "platform", url)
    assert done["credential"].startswith("not written: set ADR_SOURCE_TOKEN_PLATFORM")
    assert ("(and ADR_SOURCE_USER_PLATFORM)" in done["credential"]) == user_too
    assert "tok" not in (repo / ".adr-memory.toml").read_text() and "alice" not in done["url"]


def _pinned(repo, tmp_path):
    """The organisation's repository (one decision), and `repo` (one of its own) reading it as `platform`."""
    central = tmp_path / "central"
    central.mkdir()
    git(central, "init", "-q", "-b", "main")
    commit(central, {"docs/adr/0001-x.md": adr_text("X")})
    commit(repo, {"docs/adr/0001-a.md": adr_text("A")})
    sources.add(Workspace.discover(repo), "platform", str(central))
    return central


def test_list_says_what_is_pinned_and_what_cannot_be_read(repo, tmp_path):
    _pinned(repo, tmp_path)
    (row,) = sources.listing(Workspace.discover(repo))["sources"]
    assert (row["commit"], row["fetched"]) == (None, False) and "not pinned yet" in row["problem"]
    sources.update(Workspace.discover(repo))
    (row,) = sources.listing(Workspace.discover(repo))["sources"]
    assert (row["records"], row["fetched"], row["problem"]) == (1, True, None)


def test_one_name_per_repository_and_a_token_in_the_query_is_not_written_either(repo):
    commit(repo, {"docs/adr/0001-a.md": adr_text("A")})
    sources.add(Workspace.discover(repo), "platform", "https://github.com/acme/arch?private_token=glpat-x&ref=1")
    assert 'url = "https://github.com/acme/arch?ref=1"' in (repo / ".adr-memory.toml").read_text()
    for again in (
        "https://GitHub.com/acme/arch.git/",
        "git@github.com:acme/arch.git",
        "ssh://git@github.com/acme/arch",
    ):
        with pytest.raises(UsageError, match="already reads"):
            sources.add(Workspace.discover(repo), "arch", again)
    (repo / ".adr-memory.toml").write_text(
        (repo / ".adr-memory.toml").read_text() + '\n[sources.twin]\nurl = "https://user:pw@github.com/acme/arch.git"\n'
    )
    from adr_memory.errors import ConfigError

    with pytest.raises(ConfigError, match="names the repository"):
        Workspace.discover(repo).config  # noqa: B018 (reading it is the test)


def test_remove_takes_the_table_and_the_pin_out_and_keeps_every_other_byte(repo, tmp_path):
    central = tmp_path / "central"
    central.mkdir()
    git(central, "init", "-q", "-b", "main")
    commit(central, {"docs/adr/0001-x.md": adr_text("X")})
    before = 'adr-dir = "docs/adr"  # ours\r\n\r\n[sources.keep]\r\nurl = "https://example.org/keep"\r\n'
    commit(repo, {"docs/adr/0001-a.md": adr_text("A"), ".adr-memory.toml": before})
    sources.add(Workspace.discover(repo), "platform", str(central))
    sources.update(Workspace.discover(repo), ["platform"])
    assert "platform" in (repo / "adr-sources.lock").read_text()
    sources.remove(Workspace.discover(repo), "platform")
    assert (repo / ".adr-memory.toml").read_bytes().decode() == before
    assert "platform" not in (repo / "adr-sources.lock").read_text()
    with pytest.raises(UsageError, match="no source 'platform'"):
        sources.remove(Workspace.discover(repo), "platform")


def test_a_folder_named_again_by_file_url_or_its_git_folder_is_the_same_repository(repo, tmp_path):
    central = _pinned(repo, tmp_path)
    for again in (f"file://{central}", f"{central}/.git", f"{central}/"):
        with pytest.raises(UsageError, match="already reads"):
            sources.add(Workspace.discover(repo), "plat2", again)
    assert "plat2" not in (repo / ".adr-memory.toml").read_text()
