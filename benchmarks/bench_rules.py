"""`adr check --rules-only` on a 20,000-file tree beside `git grep` for the same patterns.

python benchmarks/bench_rules.py [--files 20000] [--rules 10]
"""

from __future__ import annotations

import argparse
import subprocess
import time
from pathlib import Path

from common import adr, forget_caches, machine, repo, timed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--files", type=int, default=20_000)
    parser.add_argument("--rules", type=int, default=10)
    parser.add_argument("--dir", type=Path, default=Path("/tmp/adr-bench-rules"))
    args = parser.parse_args()
    root = repo(args.dir, files=args.files, commits=2, adrs=0)
    patterns = [f"VALUE = {i}" for i in range(args.rules - 2)] + [r"^# module 1[0-9] file", "import os"]
    lines = ["---", "status: accepted", "rules:"]
    for i, pattern in enumerate(patterns):
        regex = ", regex: true" if pattern.startswith("^") else ""
        lines.append(f'  - {{forbid: \'{pattern}\'{regex}, in: ["src/**"], message: "rule {i}"}}')
    lines += ["---", "# Benchmark rules", ""]
    (root / "docs/adr").mkdir(parents=True, exist_ok=True)
    (root / "docs/adr/0001-bench-rules.md").write_text("\n".join(lines))
    subprocess.run(["git", "add", "-A"], cwd=root, check=True)
    forget_caches(root)
    ours, out = timed(adr("check", "--rules-only", "--format", "json"), root)
    start = time.perf_counter()
    hits = 0
    for pattern in patterns:
        flag = "-E" if pattern.startswith("^") else "-F"
        result = subprocess.run(
            ["git", "grep", "-n", flag, "-e", pattern, "--", "src"], cwd=root, capture_output=True, text=True
        )
        hits += len(result.stdout.splitlines())
    git_time = time.perf_counter() - start
    import json

    found = sum(f["kind"] == "rule" for f in json.loads(out)["findings"])
    print(f"machine: {machine()}")
    print(f"tree: {args.files} files; {len(patterns)} rules ({len(patterns) * args.files:,} rule x file pairs)")
    print(f"adr check --rules-only: {ours:.2f} s ({found} violations)")
    print(f"git grep, one run per pattern: {git_time:.2f} s ({hits} matching lines)")
    print(f"ratio adr/git grep: {ours / git_time:.2f}; same violations: {found == hits}")


if __name__ == "__main__":
    main()
