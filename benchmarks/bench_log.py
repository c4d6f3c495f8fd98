"""Versions of every record (what `adr log` shows) beside `git log --follow` per file.

    python benchmarks/bench_log.py [--files 2000 --commits 20000 --adrs 1000] [--sample N]

Prints: one history walk plus the versions of every record, cold (no cache) and warm; one
`adr log ID` process cold and warm; and `git log --follow` for each record file (or a sample,
extrapolated), with the ratios.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import time
from pathlib import Path

from common import adr, forget_caches, machine, repo, timed

from adr_memory.history import versions
from adr_memory.history.workspace import Workspace


def all_versions(root: Path) -> tuple[float, int]:
    start = time.perf_counter()
    ws = Workspace.discover(root)
    history = versions.walk(ws)
    count = sum(len(versions.versions(ws, rec, history)) for rec in ws.catalog)
    if history.cache is not None:
        history.cache.save()  # as every command does when it ends
    return time.perf_counter() - start, count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--files", type=int, default=2_000)
    parser.add_argument("--commits", type=int, default=20_000)
    parser.add_argument("--adrs", type=int, default=1_000)
    parser.add_argument("--sample", type=int, default=0, help="git log --follow on N files only")
    parser.add_argument("--dir", type=Path, default=Path("/tmp/adr-bench-log"))
    args = parser.parse_args()
    root = repo(args.dir, files=args.files, commits=args.commits, adrs=args.adrs)
    os.chdir(root)
    forget_caches(root)
    cold, count = all_versions(root)
    warm, _ = all_versions(root)
    forget_caches(root)
    one_cold, _ = timed(adr("log", "1", "--json"), root)
    one_warm, _ = timed(adr("log", "1", "--json"), root)
    files = sorted(p.relative_to(root).as_posix() for p in (root / "docs/adr").glob("*.md"))
    sample = files[: args.sample] if args.sample else files
    start = time.perf_counter()
    for rel in sample:
        subprocess.run(["git", "log", "--follow", "--format=%H", "--", rel], cwd=root, capture_output=True, check=True)
    git_time = (time.perf_counter() - start) * len(files) / len(sample)
    note = f" (extrapolated from {len(sample)})" if len(sample) < len(files) else ""
    print(f"machine: {machine()}")
    print(f"repo: {args.files} files, {args.commits} commits, {len(files)} records, {count} versions")
    print(f"adr: walk + versions of every record: cold {cold:.2f} s, warm {warm:.2f} s")
    print(f"adr log 1 --json (one process): cold {one_cold:.2f} s, warm {one_warm:.2f} s")
    print(f"git log --follow per record file: {git_time:.2f} s{note}")
    print(f"ratio adr/git (every record): cold {cold / git_time:.3f}, warm {warm / git_time:.3f}")


if __name__ == "__main__":
    main()
