"""The coding-agent guard on a long history: `adr-hook agent-guard` answering a Claude Code
PreToolUse call for a governed file, as a whole process, beside `python -c pass`.

    python benchmarks/bench_guard.py [--files 20000 --commits 20000 --adrs 29 --recent 60] [--dir PATH]

It reads no search index and loads no model; the history cache is warm after the first call.
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

from common import forget_caches, generated_repo_args, machine, repo


def _once(root: Path, payload: str) -> tuple[float, str]:
    start = time.perf_counter()
    out = subprocess.run(
        [sys.executable, "-m", "adr_memory.hook", "agent-guard"],
        cwd=root,
        input=payload,
        capture_output=True,
        text=True,
    )
    return time.perf_counter() - start, out.stdout


def main() -> None:
    args = generated_repo_args(__doc__, adrs=29, recent=60, folder="/tmp/adr-bench-ci")
    root = repo(args.dir, files=args.files, commits=args.commits, adrs=args.adrs, recent=args.recent)
    governed = "src/m001/f01.py"
    payload = json.dumps({"tool_name": "Edit", "tool_input": {"file_path": str(root / governed)}})
    forget_caches(root)
    cold, out = _once(root, payload)
    warm = statistics.median(_once(root, payload)[0] for _ in range(5))
    base = statistics.median(_time_pass() for _ in range(5))
    named = json.loads(out)["hookSpecificOutput"]["additionalContext"].count(" governs ") if out else 0
    print(f"machine: {machine()}")
    print(
        f"agent-guard on {governed} ({named} governing decision(s)): cold {cold:.2f} s, "
        f"warm {warm:.2f} s (median of 5); python -c pass {base:.2f} s"
    )


def _time_pass() -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", "pass"], check=True)
    return time.perf_counter() - start


if __name__ == "__main__":
    main()
