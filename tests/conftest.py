from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import git


@pytest.fixture(autouse=True)
def sealed(tmp_path_factory, monkeypatch):
    """No test touches the real HOME, git config or clock-dependent identity."""
    home = tmp_path_factory.mktemp("home")
    for var in ("HOME", "XDG_CACHE_HOME", "XDG_CONFIG_HOME"):
        monkeypatch.setenv(var, str(home / var.lower()))
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    monkeypatch.setenv("GIT_AUTHOR_NAME", "Ada Author")
    monkeypatch.setenv("GIT_AUTHOR_EMAIL", "ada@example.com")
    monkeypatch.setenv("GIT_COMMITTER_NAME", "Ada Author")
    monkeypatch.setenv("GIT_COMMITTER_EMAIL", "ada@example.com")
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("COLUMNS", "200")
    monkeypatch.delenv("ADR_DEBUG", raising=False)


@pytest.fixture
def repo(tmp_path, monkeypatch) -> Path:
    """An empty git repository as the current directory."""
    root = tmp_path / "repo"
    root.mkdir()
    git(root, "init", "-q", "-b", "main")
    monkeypatch.chdir(root)
    return root
