"""history.fetch: a source's commits fetched into a bare copy, with a credential that is never
part of the URL."""

from __future__ import annotations

import pytest

from adr_memory.base import SourceSpec
from adr_memory.errors import GitError
from adr_memory.history import sources
from adr_memory.history.fetch import fetch_ref, stored_credential
from adr_memory.history.repo import open_bare
from tests.helpers import adr_text, commit, git


def test_fetch_pins_what_a_ref_names_and_says_when_it_names_nothing(tmp_path):
    central = tmp_path / "central"
    central.mkdir()
    git(central, "init", "-q", "-b", "main")
    head = commit(central, {"docs/adr/0001-a.md": adr_text("A")})
    sha, refs = fetch_ref(str(central), tmp_path / "copy", "main")
    assert sha == head and "refs/heads/main" in refs
    assert open_bare(tmp_path / "copy").has_commit(head)
    with pytest.raises(GitError, match="no ref 'trunk'"):
        fetch_ref(str(central), tmp_path / "copy", "trunk")


def test_a_token_comes_from_the_environment_else_git_s_credential_store(monkeypatch, tmp_path):
    spec = SourceSpec("platform-x", "https://git.example.org/acme/arch.git")
    assert sources.token_variable("platform-x") == "ADR_SOURCE_TOKEN_PLATFORM_X"
    monkeypatch.setenv("ADR_SOURCE_TOKEN_PLATFORM_X", "glpat-123")
    assert sources.credential(spec) == ("git", "glpat-123")
    monkeypatch.setenv("ADR_SOURCE_USER_PLATFORM_X", "ci-bot")
    assert sources.credential(spec) == ("ci-bot", "glpat-123")
    monkeypatch.delenv("ADR_SOURCE_TOKEN_PLATFORM_X")
    stored = tmp_path / ".git-credentials"
    stored.write_text("https://robot:s3cret@git.example.org\n")
    import dulwich.client

    monkeypatch.setattr(dulwich.client, "DEFAULT_GIT_CREDENTIALS_PATHS", [str(stored)])
    real = dulwich.client.get_credentials_from_store
    monkeypatch.setattr(
        dulwich.client,
        "get_credentials_from_store",
        lambda scheme, host, **kw: real(scheme, host, fnames=[str(stored)]),
    )
    assert stored_credential("https://git.example.org/acme/arch.git") == ("robot", "s3cret")
    assert stored_credential("git@git.example.org:acme/arch.git") is None  # SSH: the user's keys
