"""git's own walk, where git is installed: which first-parent commits change anything under the
record folders (ADR-0104). A fresh clone's first walk otherwise reads every commit and its root
tree through dulwich, ~70 µs an object in Python, where git answers the same question in C. The
walk passes every other commit without reading it; anything git cannot answer (no git, a damaged
repository, replace refs, a timeout) is None, and the walk reads each commit with dulwich, to
the same answer (tests/history/test_gitwalk.py compares the two on every history they build)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

DISABLE = "ADR_NO_GIT"  # set (to anything): never run git, dulwich reads every commit
TIMEOUT = 60.0  # seconds: a git that hangs (a lock, a network filesystem) is not waited on longer


class Quiet:
    """The first-parent commits from `head` that change nothing under a set of folders, each
    with its first parent, asked of git once per set of folders and starting commit."""

    def __init__(self, git_dir: Path, head: str) -> None:
        self.git_dir, self.head = git_dir, head
        self._parents: dict[str, str | None] | None = None
        self._touching: dict[tuple[str, ...], set[str] | None] = {}
        self._from: dict[tuple[str, ...], str] = {}
        self.usable = True

    def passed(self, sha: str, folders: list[str]) -> tuple[str | None] | None:
        """(first parent,) when git says `sha` changes nothing under `folders`; None when it
        does, or git cannot say (then the commit is read)."""
        if not self.usable or "" in folders:  # the whole tree: every commit changes something
            return None
        parents = self._first_parents()
        if parents is None or sha not in parents:
            return None
        key = tuple(sorted(folders))
        if key not in self._touching:
            # Asked from where the walk is: a record followed to another folder asks again, below.
            self._touching[key] = self._rev_list(sha, "--", *key)
            self._from[key] = sha
        touching = self._touching[key]
        if touching is None or sha in touching:
            return None
        return (parents[sha],)

    def _first_parents(self) -> dict[str, str | None] | None:
        if self._parents is None:
            lines = _git(self.git_dir, "rev-list", "--first-parent", "--parents", self.head)
            if lines is None:
                self.usable = False
                return None
            self._parents = {}
            for line in lines:
                shas = line.split()
                if shas:
                    self._parents[shas[0]] = shas[1] if len(shas) > 1 else None
        return self._parents

    def _rev_list(self, start: str, *paths: str) -> set[str] | None:
        lines = _git(self.git_dir, "rev-list", "--first-parent", start, *paths)
        return None if lines is None else {line.strip() for line in lines if line.strip()}


def open_for(git_dir: Path, head: str) -> Quiet | None:
    """The accelerator for a walk from `head`, or None where git is not to be used."""
    if os.environ.get(DISABLE) or shutil.which("git") is None:
        return None
    return Quiet(git_dir, head)


def _git(git_dir: Path, *args: str) -> list[str] | None:
    """git's output lines, or None when it did not answer cleanly. Replace refs and grafts are
    switched off: dulwich reads the objects as they are, and so must git."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env |= {"LC_ALL": "C", "GIT_NO_REPLACE_OBJECTS": "1", "GIT_CONFIG_NOSYSTEM": "1", "GIT_TERMINAL_PROMPT": "0"}
    try:
        done = subprocess.run(
            ["git", "--git-dir", str(git_dir), *args],
            capture_output=True,
            text=True,
            env=env,
            timeout=TIMEOUT,
            stdin=subprocess.DEVNULL,
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    return done.stdout.splitlines() if done.returncode == 0 else None
