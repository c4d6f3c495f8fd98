"""`adr stale --json` beside the git CLI computing the same answer, on a generated repository.

    python benchmarks/bench_stale.py [--files 20000 --commits 20000 --adrs 1000] [--dir PATH]

Prints cold (no cache) and warm times, the git loop's time, the ratio, and whether the two
answers agree exactly (same decisions stale, same changed files).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import time
from pathlib import Path

from common import accepted_decisions, adr, forget_caches, machine, repo, timed

from adr_memory.base import globs


def git_oracle(root: Path) -> dict[str, list[str]]:
    """For each accepted decision: governed files changed between its anchor and HEAD."""
    answer: dict[str, list[str]] = {}
    for ident, anchor, governs, prefixes in accepted_decisions(root):
        names = subprocess.run(
            ["git", "diff", "--name-only", anchor, "HEAD", "--", *prefixes], cwd=root, capture_output=True, text=True
        ).stdout.split()
        answer[ident] = sorted(n for n in names if globs.any_match(governs, n))
    return answer


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--files", type=int, default=20_000)
    parser.add_argument("--commits", type=int, default=20_000)
    parser.add_argument("--adrs", type=int, default=1_000)
    parser.add_argument("--dir", type=Path, default=Path("/tmp/adr-bench-stale"))
    args = parser.parse_args()
    root = repo(args.dir, files=args.files, commits=args.commits, adrs=args.adrs)
    forget_caches(root)
    cold, out = timed(adr("stale", "--json"), root)
    warm, out = timed(adr("stale", "--json"), root)
    ours = {d["id"]: sorted(d["changed"]) for d in json.loads(out)["decisions"]}
    start = time.perf_counter()
    oracle = git_oracle(root)
    git_time = time.perf_counter() - start
    ours = {k: v for k, v in ours.items() if k in oracle}
    agree = sum(ours.get(k) == v for k, v in oracle.items())
    stale = sum(bool(v) for v in oracle.values())
    print(f"machine: {machine()}")
    print(f"repo: {args.files} files, {args.commits} commits, {args.adrs} decisions ({stale} stale per git)")
    print(f"adr stale --json: cold {cold:.2f} s, warm {warm:.2f} s")
    print(f"git CLI loop (log -1 + diff --name-only per decision): {git_time:.2f} s")
    print(f"ratio adr/git: cold {cold / git_time:.2f}, warm {warm / git_time:.2f}")
    print(f"answers agree: {agree}/{len(oracle)} decisions")


if __name__ == "__main__":
    main()
