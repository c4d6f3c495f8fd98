"""git's own walk, where git is installed (ADR-0104): which first-parent commits change anything
under the record folders, what each of them changes there, and every commit's tree and parents.
A fresh clone's first walk otherwise reads every commit, its root tree and the trees down to
the folders through dulwich, ~70 µs an object in Python, where git answers in C.

A few git processes answer a whole first walk: `rev-list --format` (each first-parent commit's
tree and parents), `rev-list -- FOLDERS` (the commits that touch them), `diff-tree --stdin`
(what each of those changes against its first parent) and, where a commit adds a record, once
more for what it removes anywhere (where the record may have come from). All are plumbing, so no user setting
of `git log` or `git diff` changes their output. Anything git cannot answer (no git, a damaged
repository, replace refs, a timeout) is None, and the walk reads each commit with dulwich, to
the same answer (tests/history/test_gitwalk.py compares the two on every history they build)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

DISABLE = "ADR_NO_GIT"  # set (to anything): never run git, dulwich reads every commit
TIMEOUT = 60.0  # seconds: a git that hangs (a lock, a network filesystem) is not waited on longer
_ZERO = "0" * 40

Change = tuple[str, str | None, str | None]  # (path, old blob, new blob), None where absent
Skeleton = tuple[str, tuple[str, ...]]  # a commit's (tree, parents)


class Quiet:
    """What git says of the first-parent commits from `head`, asked once per set of folders and
    starting commit."""

    def __init__(self, git_dir: Path, head: str) -> None:
        self.git_dir, self.head = git_dir, head
        self._skeletons: dict[str, Skeleton] | None = None
        self._touching: dict[tuple[str, ...], dict[str, list[Change]] | None] = {}
        self._removed: dict[tuple[str, ...], dict[str, list[Change]] | None] = {}
        self._merged: dict[str, dict[str, str | None]] | None = None
        self._merged_in: list[str] = []
        self._started: dict[tuple[str, ...], _Running] = {}  # asked ahead, answered when read
        self.usable = True

    def prefetch(self, folders: list[str]) -> None:
        """Ask git now, at once, for what the walk asks first: every commit's tree and parents,
        and the commits that touch `folders` from HEAD. The two run side by side (two cores:
        one walk's wait for git is their longer, not their sum)."""
        if not self.usable or "" in folders or self._started:
            return
        self._started[("skeletons",)] = _Running(
            self.git_dir, "rev-list", "--first-parent", "--format=%H %T %P", self.head
        )
        key = tuple(sorted(folders))
        self._started[(self.head, *key)] = _Running(self.git_dir, "rev-list", "--first-parent", self.head, "--", *key)

    def settle(self) -> None:
        """Stop what was asked ahead and never read (a walk that ended first)."""
        for running in self._started.values():
            running.stop()
        self._started.clear()

    def skeletons(self) -> dict[str, Skeleton]:
        """Each first-parent commit's tree and parents (all of them), as git read them; empty
        when git cannot say."""
        if self._skeletons is None:
            self._skeletons = {}
            asked = self._started.pop(("skeletons",), None)
            out = (
                asked.result()
                if asked
                else _git(self.git_dir, "rev-list", "--first-parent", "--format=%H %T %P", self.head)
            )
            if out is None:
                self.usable = False
                return {}
            for line in out.decode("ascii", "replace").splitlines():
                shas = line.split()
                if len(shas) >= 2 and shas[0] != "commit":
                    self._skeletons[shas[0]] = (shas[1], tuple(shas[2:]))
        return self._skeletons

    def passed(self, sha: str, folders: list[str]) -> tuple[str | None] | None:
        """(first parent,) when git says `sha` changes nothing under `folders`; None when it
        does, or git cannot say (then the commit is read)."""
        touching = self._changes(sha, folders)
        if touching is None or sha in touching:
            return None
        return ((self.skeletons()[sha][1][:1] or (None,))[0],)

    def changes(self, sha: str, folders: list[str]) -> list[Change] | None:
        """What `sha` changes under `folders` against its first parent, as dulwich's tree diff
        gives it (files, symlinks and submodules; a mode change too), or None when git cannot say."""
        touching = self._changes(sha, folders)
        return None if touching is None else touching.get(sha)

    def removed(self, sha: str, folders: list[str]) -> list[Change] | None:
        """The files `sha` removes anywhere in its tree, asked once for every commit that adds
        something under `folders` (where an added record may have come from); None when git
        cannot say."""
        touching = self._changes(sha, folders)
        if touching is None or sha not in touching:
            return None
        key = tuple(sorted(folders))
        if key not in self._removed:
            adding: dict[str, list[Change]] = {
                c: [] for c, changes in touching.items() if any(old is None for _p, old, _n in changes)
            }
            self._removed[key] = self._diff_tree(adding, "--diff-filter=D")
        found = self._removed[key]
        return None if found is None else found.get(sha, [])

    def at_second_parent(self, merge: str, path: str, blob: str | None) -> tuple[str | None] | None:
        """(the blob at `path` in the merged branch's tip, None where it has none,) for a merge
        the walk found changing the folders, where the merge holds `blob`; None when git cannot
        say. Asked once for every such merge: what each changes against its second parent."""
        if self._merged is None:
            skeletons, folders = self.skeletons(), sorted({f for key in self._touching for f in key})
            merges: dict[str, list[Change]] = {
                sha: []
                for changes in self._touching.values()
                for sha in changes or ()
                if sha in skeletons and len(skeletons[sha][1]) > 1
            }
            told = self._diff_tree(merges, "--", *folders, second=True) if merges and folders else {}
            self._merged = {sha: {p: old for p, old, _new in changes} for sha, changes in (told or {}).items()}
            self._merged_in = folders
        if merge not in self._merged or not any(path.startswith(f"{f}/") for f in self._merged_in):
            return None  # outside the folders asked of git: it said nothing of that path
        changed = self._merged[merge]
        return (changed[path],) if path in changed else (blob,)

    def _changes(self, sha: str, folders: list[str]) -> dict[str, list[Change]] | None:
        if not self.usable or "" in folders:  # the whole tree: every commit changes something
            return None
        skeletons = self.skeletons()
        if sha not in skeletons:
            return None
        key = tuple(sorted(folders))
        if key not in self._touching:
            # Asked from where the walk is: a record followed to another folder asks again, below.
            self._touching[key] = self._diffs(sha, key)
        return self._touching[key]

    def _diffs(self, start: str, folders: tuple[str, ...]) -> dict[str, list[Change]] | None:
        asked = self._started.pop((start, *folders), None)
        out = asked.result() if asked else _git(self.git_dir, "rev-list", "--first-parent", start, "--", *folders)
        if out is None:
            return None
        return self._diff_tree({sha: [] for sha in out.decode("ascii", "replace").split()}, "--", *folders)

    def _diff_tree(
        self, found: dict[str, list[Change]], *args: str, second: bool = False
    ) -> dict[str, list[Change]] | None:
        """`found` filled with what each commit changes against its first parent (its second:
        `second`; `args`: a filter, the folders), from one `git diff-tree --stdin`."""
        skeletons, n = self.skeletons(), 1 if second else 0
        pairs = [f"{sha} {skeletons[sha][1][n]}\n" for sha in found if sha in skeletons and len(skeletons[sha][1]) > n]
        if not pairs:
            return found
        raw = _git(
            self.git_dir,
            "diff-tree", "--stdin", "-r", "-z", "--raw", "--no-renames", "--no-abbrev", "--ignore-submodules=none",
            *args,
            stdin="".join(pairs).encode(),
        )  # fmt: skip
        return None if raw is None else _parse_raw(raw, found)


def _parse_raw(raw: bytes, found: dict[str, list[Change]]) -> dict[str, list[Change]] | None:
    """diff-tree's `-z --raw` answer: a commit's id, then `:modes ids status` and a path for each
    change. A path of any bytes is read as dulwich's tree diff reads it."""
    fields = raw.split(b"\0")
    current: list[Change] | None = None
    i = 0
    while i < len(fields):
        token = fields[i]
        if token.startswith(b":"):
            parts = token[1:].split()
            if current is None or len(parts) < 5 or i + 1 >= len(fields):
                return None  # not what diff-tree writes: dulwich reads these commits instead
            old, new = parts[2].decode(), parts[3].decode()
            path = fields[i + 1].decode("utf-8", "surrogateescape")
            current.append((path, None if old == _ZERO else old, None if new == _ZERO else new))
            i += 2
            continue
        if token.strip():
            current = found.get(token.strip().decode("ascii", "replace"))
            if current is None:
                return None
        i += 1
    return found


def open_for(git_dir: Path, head: str) -> Quiet | None:
    """The accelerator for a walk from `head`, or None where git is not to be used."""
    if os.environ.get(DISABLE) or shutil.which("git") is None:
        return None
    return Quiet(git_dir, head)


def _git(git_dir: Path, *args: str, stdin: bytes | None = None) -> bytes | None:
    """git's output, or None when it did not answer cleanly."""
    return _Running(git_dir, *args, stdin=stdin).result()


class _Running:
    """A git process started now and read when its answer is wanted (None when it did not
    answer cleanly). Replace refs are switched off (dulwich reads the objects as they are, and
    so must git), and a folder's name is a path, never a pattern."""

    def __init__(self, git_dir: Path, *args: str, stdin: bytes | None = None) -> None:
        env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
        env |= {
            "LC_ALL": "C",
            "GIT_NO_REPLACE_OBJECTS": "1",
            "GIT_CONFIG_NOSYSTEM": "1",
            "GIT_TERMINAL_PROMPT": "0",
            "GIT_LITERAL_PATHSPECS": "1",
        }
        self.stdin = stdin
        try:
            self.process: subprocess.Popen[bytes] | None = subprocess.Popen(
                ["git", "--git-dir", str(git_dir), *args],
                stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                env=env,
            )
        except OSError:
            self.process = None

    def result(self) -> bytes | None:
        if self.process is None:
            return None
        try:
            out, _err = self.process.communicate(self.stdin, timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.communicate()
            return None
        return out if self.process.returncode == 0 else None

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
        if self.process is not None:
            self.process.communicate()
