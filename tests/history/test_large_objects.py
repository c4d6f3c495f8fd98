"""What a clone's large objects do (ADR-0028): a few hundred KB of git object can inflate to
hundreds of MB, and every command reads the records' blobs. A blob past a record's size is
measured from its header and never inflated; a checked-out file is read no further than the
cap, and a FIFO is never opened for a blocking read."""

from __future__ import annotations

import os
import subprocess
import sys
import tracemalloc
from pathlib import Path

import pytest

from adr_memory.history import folder_at
from adr_memory.history.repo import Repo
from adr_memory.history.workspace import Workspace
from adr_memory.surfaces.cli import main
from tests.helpers import adr_text, commit, git

BIG = 150_000_000  # zeros: git stores them in ~150 KB
MAX_HELD = 30_000_000  # reading a few small records holds a few MB


def _sizes_agree(root: Path) -> int:
    """Every object's size through Repo.size against git's own answer; how many were checked."""
    listing = git(root, "cat-file", "--batch-all-objects", "--batch-check=%(objectname) %(objectsize)")
    repo = Repo.open(root)
    pairs = [line.split() for line in listing.splitlines()]
    assert [repo.size(sha) for sha, _ in pairs] == [int(size) for _, size in pairs]
    return len(pairs)


def _pack_types(root: Path) -> set[str]:
    out = subprocess.run(
        ["git", "verify-pack", "-v", *map(str, (root / ".git/objects/pack").glob("*.idx"))],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return {line.split()[1] for line in out.splitlines() if len(line.split()) >= 7}


def test_object_sizes_are_read_from_headers_as_git_reads_them(tmp_path):
    """Loose objects, packed ones, deltas against an offset and against an id, and objects in
    an alternate store (`git clone --shared`)."""
    root = tmp_path / "origin"
    root.mkdir()
    git(root, "init", "-q", "-b", "main")
    for n in range(12):  # similar versions of a few files: git stores most as deltas
        lines = "\n".join(f"line {i} of the decision, revision {n // 3}" for i in range(400 + n))
        commit(root, {f"docs/adr/000{n % 4}-a.md": lines, "src/app.py": f"x = {n}\n" * (50 + n)})
    git(root, "gc", "-q", "--aggressive")
    commit(root, {"docs/adr/0009-loose.md": "# 9. Loose\n"})
    assert _sizes_agree(root) > 40

    by_id = tmp_path / "by-id"
    git(tmp_path, "clone", "-q", "--no-local", str(root), str(by_id))
    git(by_id, "-c", "repack.useDeltaBaseOffset=false", "repack", "-adfq")
    assert _sizes_agree(by_id) > 40

    shared = tmp_path / "shared"
    git(tmp_path, "clone", "-q", "--shared", str(root), str(shared))
    commit(shared, {"docs/adr/0010-here.md": "# 10. Here\n"})
    assert _sizes_agree(shared) > 40

    linked = tmp_path / "linked"  # a linked worktree reads the main repository's objects
    git(root, "worktree", "add", "-q", str(linked))
    commit(linked, {"docs/adr/0011-linked.md": "# 11. Linked\n"})
    assert _sizes_agree(linked) > 40


def _peak(capsys, *args: str) -> int:
    """Run `adr ARGS` in-process; the most memory Python held at once while it ran, in bytes."""
    tracemalloc.start()
    try:
        code = main(list(args))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    out = capsys.readouterr()
    assert code in (0, 1) and "Traceback" not in out.err, (args, out.err)
    return peak


@pytest.mark.parametrize("stored", ["loose", "packed"])
def test_a_record_blob_that_inflates_past_a_record_is_never_inflated(repo, capsys, stored):
    commit(repo, {"docs/adr/0001-first.md": adr_text("First")})
    commit(repo, {"docs/adr/0002-big.md": b"\0" * BIG}, "a big file")
    commit(repo, {"docs/adr/0002-big.md": adr_text("Second")}, "replaced")
    if stored == "packed":
        git(repo, "gc", "-q")
    for args in (
        ["log", "2"],
        ["list", "--at", "HEAD~1", "--json"],
        ["check", "--base", "HEAD~1"],
        ["review", "--base", "HEAD~1"],
        ["show", "2", "--at", "HEAD~1"],
    ):
        assert _peak(capsys, *args) < MAX_HELD, args
    then = folder_at(Workspace.discover(repo), "HEAD~1").catalog.get("2")
    assert [(p.kind, p.message) for p in then.problems] == [
        ("too-large", "file is 150,000,000 bytes; a record is prose")
    ]


def test_a_checked_out_record_past_the_cap_is_not_read_whole(repo, capsys):
    commit(repo, {"docs/adr/0001-first.md": adr_text("First"), "docs/adr/0002-big.md": b"\0" * BIG})
    for args in (["list"], ["check"], ["search", "--mode", "keyword", "first"]):
        assert _peak(capsys, *args) < MAX_HELD, args
    assert main(["check"]) == 1
    assert "file is 150,000,000 bytes" in capsys.readouterr().out


def test_a_fifo_among_the_records_or_the_governed_code_blocks_nothing(repo):
    rule = 'rules:\n  - {forbid: "import os", in: ["src/**"]}\n'
    commit(
        repo, {"docs/adr/0001-first.md": adr_text("First", governs=["src/**"], extra=rule), "src/app.py": "import os\n"}
    )
    os.mkfifo(repo / "docs/adr/0002-pipe.md")
    os.mkfifo(repo / "src/pipe.py")
    done = subprocess.run(
        [sys.executable, "-m", "adr_memory", "check"], cwd=repo, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 1, done.stderr
    assert "0002-pipe.md:1: error: unreadable: cannot read the file: not a regular file" in done.stdout
    assert "src/app.py:1" in done.stdout  # the rule still ran over the real file
