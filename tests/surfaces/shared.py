"""A repository built once for a module's tests that only read it: a module-scoped fixture runs
before each test's own `sealed` environment, so it seals its own while it builds."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path

import pytest


@contextlib.contextmanager
def sealed_env(home: Path) -> Iterator[pytest.MonkeyPatch]:
    """The environment tests/conftest.py's `sealed` gives a test, for the length of a block."""
    with pytest.MonkeyPatch.context() as env:
        for var in ("HOME", "XDG_CACHE_HOME", "XDG_CONFIG_HOME"):
            env.setenv(var, str(home / var.lower()))
        for var in ("GIT_AUTHOR", "GIT_COMMITTER"):
            env.setenv(f"{var}_NAME", "Ada Author")
            env.setenv(f"{var}_EMAIL", "ada@example.com")
        env.setenv("GIT_CONFIG_NOSYSTEM", "1")
        env.setenv("NO_COLOR", "1")
        for var in ("CI", "GITHUB_ACTIONS", "ADR_DEBUG"):
            env.delenv(var, raising=False)
        yield env
