"""Everyday commands on a long, merge-heavy history, each beside the git CLI doing the same job.

    python benchmarks/bench_history.py [--commits 12000 --records 72] [--dir PATH]
    python benchmarks/bench_history.py --files 30000 --broad 6   # a big tree; some globs span it
    python benchmarks/bench_history.py --repo PATH     # a clone you have, as it is

The generated repository has the shape of a real project (`genhistory.py`): 12,000 first-parent
commits, nearly all merges, some adding or deleting 300 large markdown files, records moved
between folders and renamed. Prints each command's median time (cold: no cache; warm: the
cache of the run before) against `adr --help` and the git CLI, the two run in turn so that a
machine slowing down midway slows both, and checks the answers: every
decision's staleness against `git diff` from its anchor, every record's first commit against
`git log --follow`.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from common import adr, forget_caches, machine, paired, process, timed
from genhistory import generate

from adr_memory.base import globs


def git(root: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=root, capture_output=True, text=True, check=True).stdout


def records(root: Path) -> list[dict[str, object]]:
    listed: list[dict[str, object]] = json.loads(timed(adr("list", "--json"), root)[1])
    return listed


def decisions(root: Path, listed: list[dict[str, object]]) -> Iterator[tuple[str, str, str, list[str]]]:
    """(id, path, anchor per `git log -1`, governs) for each accepted decision that governs code."""
    for rec in listed:
        if rec["status"] == "accepted" and rec.get("governs"):
            path = str(rec["path"])
            anchor = git(root, "log", "--first-parent", "-1", "--format=%H", "--", path).strip()
            yield str(rec["id"]), path, anchor, [str(g) for g in rec["governs"]]  # type: ignore[attr-defined]


def git_script(root: Path, listed: list[dict[str, object]]) -> tuple[float, dict[str, bool]]:
    """What a shell loop does: `git log -1` and `git diff --quiet` per decision."""
    start, stale = time.perf_counter(), {}
    for ident, _path, anchor, governs in decisions(root, listed):
        prefixes = sorted({globs.literal_prefix(g) or "." for g in governs})
        quiet = subprocess.run(["git", "diff", "--quiet", anchor, "HEAD", "--", *prefixes], cwd=root, check=False)
        stale[ident] = quiet.returncode == 1
    return time.perf_counter() - start, stale


def stale_only(root: Path) -> Callable[[], float]:
    """`adr stale` warm where only `adr stale` has run (no whole walk cached by `adr list`)."""

    def once() -> float:
        forget_caches(root)
        subprocess.run(adr("stale"), cwd=root, capture_output=True, check=False)
        return timed(adr("stale"), root)[0]

    return once


def agreement(root: Path, listed: list[dict[str, object]]) -> tuple[int, int, int, int]:
    """(staleness agreeing with git diff, decisions; first commits agreeing with git log --follow,
    records). Each decision's changed files are checked against `git diff` from its own anchor
    (which is not always `git log -1`'s commit: a pure move or a link line does not re-anchor)."""
    ours = {d["id"]: d for d in json.loads(timed(adr("stale", "--json"), root)[1])["decisions"]}
    stale_ok = total = 0
    for ident, _path, _anchor, governs in decisions(root, listed):
        prefixes = sorted({globs.literal_prefix(g) or "." for g in governs})
        names = git(root, "diff", "--name-only", ours[ident]["anchor"], "HEAD", "--", *prefixes).split()
        expected = sorted(n for n in names if globs.any_match(governs, n))
        total += 1
        stale_ok += sorted(ours[ident]["changed"]) == expected
    first_ok = 0
    for rec in listed:
        follow = git(root, "log", "--follow", "--first-parent", "--format=%H", "--", str(rec["path"])).split()
        logged = json.loads(timed(adr("log", str(rec["id"]), "--json"), root)[1])["versions"]
        commits = [v["commit"] for v in logged if v["commit"]]
        first_ok += bool(follow) and bool(commits) and commits[-1] == follow[-1]
    return stale_ok, total, first_ok, len(listed)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--commits", type=int, default=12_000)
    parser.add_argument("--records", type=int, default=72)
    parser.add_argument("--files", type=int, default=4_000, help="source files at the start (100 a folder)")
    parser.add_argument("--broad", type=int, default=0, help="every Nth decision governs a glob across src/")
    parser.add_argument("--dir", type=Path, default=Path("/tmp/adr-bench-history"))
    parser.add_argument("--repo", type=Path, help="an existing clone, used as it is")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    root = args.repo or args.dir
    if args.repo is None:
        stamp = root / ".git" / "bench-shape"
        shape = f"{args.commits} {args.records} {args.files} {args.broad}"
        if not (stamp.exists() and stamp.read_text() == shape):
            shutil.rmtree(root, ignore_errors=True)
            generate(root, commits=args.commits, records=args.records, files=args.files, broad=args.broad)
            stamp.write_text(shape)

    def cold() -> None:
        forget_caches(root)

    listed = records(root)
    one = listed[0]
    first_parent = git(root, "rev-list", "--first-parent", "--count", "HEAD").strip()
    every = git(root, "rev-list", "--count", "HEAD").strip()
    helps = process(adr("--help"), root)
    # git answering what a first `adr list` asks: the commits that touched the record folders,
    # with their changes (every folder the records lived in).
    folders = [
        f
        for f in ("docs/decisions", "docs/adr", "architecture/decisions")
        if git(root, "log", "-1", "--format=%H", "--", f).strip()
    ]
    walk = process(["git", "log", "--first-parent", "--name-status", "-M", "--", *folders], root)
    follow = process(["git", "log", "--follow", "--first-parent", "--format=%H", "--", str(one["path"])], root)
    base = git(root, "rev-parse", "HEAD~20").strip()
    # Each row's two jobs run in turn (common.paired); a warm row starts from a run before it.
    plan: list[tuple[str, Callable[[], float], str, Callable[[], float]]] = [
        ("adr list, first run (reads it all)", process(adr("list"), root, cold), "adr --help", helps),
        ("adr list, first run, beside git's walk", process(adr("list"), root, cold), "git log (the walk)", walk),
        ("adr list, first run, no git", process(adr("list"), root, cold, env={"ADR_NO_GIT": "1"}), "git log", walk),
        ("adr list, second run", process(adr("list"), root), "adr --help", helps),
        ("adr show 1, warm", process(adr("show", str(one["id"])), root), "git log --follow", follow),
        ("adr log 1, warm", process(adr("log", str(one["id"])), root), "git log --follow", follow),
        # The least any Python reader of git objects costs: the interpreter and dulwich's import.
        (
            "python -c 'import dulwich.repo'",
            process([sys.executable, "-c", "import dulwich.repo"], root),
            "git log --follow",
            follow,
        ),
        ("adr stale, cold", process(adr("stale"), root, cold), "git script", lambda: git_script(root, listed)[0]),
        ("adr stale, warm", process(adr("stale"), root), "git script", lambda: git_script(root, listed)[0]),
        # The first command on a fresh clone is stale, not list: its own walk, then its own warm run.
        ("adr stale, after stale only", stale_only(root), "git script", lambda: git_script(root, listed)[0]),
        # Both cold, as in a pull request's fresh clone: what the base costs beside the check itself.
        (
            "adr check --base HEAD~20, cold",
            process(adr("check", "--base", base), root, cold),
            "adr check, cold",
            process(adr("check"), root, cold),
        ),
    ]
    rows: list[tuple[str, float, str, float]] = []
    for name, ours, against, theirs in plan:
        if name.endswith("warm"):
            ours()  # what a warm run finds: the cache the run before it left
        mine, other = paired(ours, theirs, args.runs)
        rows.append((name, mine, against, other))
    stale_ok, total, first_ok, count = agreement(root, listed)
    print(f"machine: {machine()}")
    print(f"repo: {root} ({first_parent} first-parent commits, {every} in all, {count} records)")
    for name, ours, against, theirs in rows:
        print(f"{name:36} {ours:6.2f} s   {against:18} {theirs:6.2f} s   ratio {ours / theirs:5.2f}")
    first, bare, gitwalk = rows[0][1], rows[0][3], rows[1][3]
    print(
        f"first adr list {first:.2f} s against adr --help + 3x git's walk = {bare:.2f} + 3 x {gitwalk:.2f} "
        f"= {bare + 3 * gitwalk:.2f} s: {'within' if first <= bare + 3 * gitwalk else 'over'} the goal"
    )
    print(f"staleness agrees with git diff: {stale_ok}/{total} decisions")
    print(f"first commit agrees with git log --follow: {first_ok}/{count} records")


if __name__ == "__main__":
    main()
