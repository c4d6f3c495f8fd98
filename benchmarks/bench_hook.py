"""The plain git pre-commit hook (`adr-hook pre-commit`) on a large repository, with the git
index in each form git writes: plain, version 4, split (`core.splitIndex`) and sparse
(`git sparse-checkout --sparse-index`). One ADR edit and one governed file edit are staged.
Beside each, `git diff --cached --name-only` on the same index: the git CLI's own read of it.

    python benchmarks/bench_hook.py [--files 20000 --commits 20000 --adrs 29 --recent 60] [--dir PATH]
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
from pathlib import Path

from common import generated_repo_args, machine, repo

HOOK = [sys.executable, "-m", "adr_memory.hook", "pre-commit"]
GIT_DIFF = ["git", "diff", "--cached", "--name-only"]


def _median(cmd: list[str], root: Path, runs: int = 5) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        out = subprocess.run(cmd, cwd=root, capture_output=True, text=True)
        times.append(time.perf_counter() - start)
        if out.returncode != 0:
            raise SystemExit(f"{' '.join(cmd)} failed ({out.returncode}): {out.stderr[-500:]}")
    return statistics.median(times)


def _git(root: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=root, check=True, capture_output=True)


def _shape(root: Path) -> str:
    """The index file's version and the extensions that make it split or sparse."""
    data = (root / ".git/index").read_bytes()
    marks = [name for name in ("link", "sdir") if name.encode() in data]  # no such path here
    return f"v{int.from_bytes(data[4:8], 'big')}" + "".join(f", {m}" for m in marks)


FORMS = {  # form -> git commands that turn the plain index into it
    "plain": [],
    "version 4": [["update-index", "--index-version", "4"]],
    "split": [["update-index", "--index-version", "2"], ["update-index", "--split-index"]],
    "sparse": [
        ["update-index", "--no-split-index"],
        ["sparse-checkout", "set", "--cone", "--sparse-index", "docs", "src/m001"],
    ],
}


def main() -> None:
    args = generated_repo_args(__doc__, adrs=29, recent=60, folder="/tmp/adr-bench-ci")
    root = repo(args.dir, files=args.files, commits=args.commits, adrs=args.adrs, recent=args.recent)
    adr = sorted((root / "docs/adr").glob("0001-*.md"))[0]
    code = root / "src/m001/f01.py"
    original = adr.read_bytes(), code.read_bytes()
    try:
        adr.write_bytes(original[0] + b"\nOne more line.\n")
        code.write_bytes(original[1] + b"\n# edited\n")
        _git(root, "add", str(adr), str(code))
        subprocess.run(HOOK, cwd=root, capture_output=True)  # the history cache, as after a first commit
        print(f"machine: {machine()}")
        print(
            f"repository: {args.files:,} files, {args.commits:,} commits, {args.adrs} decisions; "
            "staged: one ADR, one governed file"
        )
        plain = None
        for form, steps in FORMS.items():
            for step in steps:
                _git(root, *step)
            hook, git = _median(HOOK, root), _median(GIT_DIFF, root)
            plain = plain or hook
            print(
                f"{form:>10} ({_shape(root)}): hook {hook:.2f} s ({hook / plain:.2f}x the plain "
                f"index's), git diff --cached {git:.3f} s"
            )
    finally:
        _git(root, "sparse-checkout", "disable")
        _git(root, "update-index", "--no-split-index", "--index-version", "2")
        _git(root, "reset", "-q")
        adr.write_bytes(original[0])
        code.write_bytes(original[1])


if __name__ == "__main__":
    main()
