"""Helpers shared by the benchmark scripts."""

from __future__ import annotations

import os
import platform
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
from genrepo import generate


def machine() -> str:
    return f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"


def repo(path: Path, *, files: int, commits: int, adrs: int, recent: int = 0) -> Path:
    """The generated repository (reused when it already exists with the same shape)."""
    stamp = path / ".git" / "bench-shape"  # inside .git: the work tree stays clean
    shape = f"{files} {commits} {adrs} {recent}"
    if not (stamp.exists() and stamp.read_text() == shape):
        shutil.rmtree(path, ignore_errors=True)
        generate(path, files=files, commits=commits, adrs=adrs, recent=recent)
        stamp.write_text(shape)
    return path


def forget_caches(root: Path) -> None:
    """A cold start, as a fresh clone has it: no cache folder, and no parsed records kept in the
    git dir (ADR-0092)."""
    shutil.rmtree(root / ".adr-cache", ignore_errors=True)
    shutil.rmtree(root / ".git" / "adr-memory-cache", ignore_errors=True)


def best(cmd: list[str], cwd: Path, runs: int = 3, before: Any = None) -> float:
    """The median wall time of `runs` whole processes (`before()` runs ahead of each: e.g.
    deleting the cache for a cold run)."""
    times = []
    for _ in range(runs):
        if before is not None:
            before()
        times.append(timed(cmd, cwd)[0])
    return sorted(times)[len(times) // 2]


def paired(ours: Callable[[], float], theirs: Callable[[], float], runs: int = 3) -> tuple[float, float]:
    """The median times of two jobs run in turn (ours, theirs, ours, ...): a machine that slows
    down midway slows both, and the ratio holds."""
    a: list[float] = []
    b: list[float] = []
    for _ in range(runs):
        a.append(ours())
        b.append(theirs())
    return sorted(a)[len(a) // 2], sorted(b)[len(b) // 2]


def process(
    cmd: list[str], cwd: Path, before: Callable[[], None] | None = None, env: dict[str, str] | None = None
) -> Callable[[], float]:
    """A job for `paired`: `before()` (e.g. deleting the caches, for a cold run), then the
    whole process `cmd`, timed (`env`: variables added to its environment)."""

    def job() -> float:
        if before is not None:
            before()
        return timed(cmd, cwd, env)[0]

    return job


def timed(cmd: list[str], cwd: Path, env: dict[str, str] | None = None) -> tuple[float, str]:
    start = time.perf_counter()
    out = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, check=False, env={**os.environ, **(env or {})})
    if out.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(cmd)} failed: {out.stderr}")
    return time.perf_counter() - start, out.stdout


def adr(*args: str) -> list[str]:
    # -P: never the adr_memory of the folder measured (a clone of this repository holds one)
    return [sys.executable, "-P", "-m", "adr_memory", *args]


def accepted_decisions(root: Path) -> Any:
    """(record id, anchor sha per `git log -1`, governs globs, their folder prefixes) for each
    accepted decision that governs code: what a shell loop over the git CLI would use."""
    from adr_memory import records
    from adr_memory.base import globs

    for path in sorted((root / "docs/adr").glob("*.md")):
        rel = f"docs/adr/{path.name}"
        rec = records.parse(path.read_text(), rel)
        if rec.status != "accepted" or not rec.governs:
            continue
        anchor = subprocess.run(
            ["git", "log", "--first-parent", "-1", "--format=%H", "--", rel], cwd=root, capture_output=True, text=True
        ).stdout.strip()
        prefixes = sorted({globs.literal_prefix(g) or "." for g in rec.governs})
        yield rec.id, anchor, rec.governs, prefixes


def generated_repo_args(description: str, *, adrs: int, recent: int, folder: str) -> Any:
    """The options every benchmark on a generated repository takes, parsed."""
    import argparse

    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--files", type=int, default=20_000)
    parser.add_argument("--commits", type=int, default=20_000)
    parser.add_argument("--adrs", type=int, default=adrs)
    parser.add_argument("--recent", type=int, default=recent)
    parser.add_argument("--dir", type=Path, default=Path(folder))
    return parser.parse_args()
