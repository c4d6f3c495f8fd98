"""Helpers shared by the benchmark scripts."""

from __future__ import annotations

import os
import platform
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
from genrepo import generate  # noqa: E402


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


def best(cmd: list[str], cwd: Path, runs: int = 3, before: Any = None) -> float:
    """The median wall time of `runs` whole processes (`before()` runs ahead of each: e.g.
    deleting the cache for a cold run)."""
    times = []
    for _ in range(runs):
        if before is not None:
            before()
        times.append(timed(cmd, cwd)[0])
    return sorted(times)[len(times) // 2]


def timed(cmd: list[str], cwd: Path) -> tuple[float, str]:
    start = time.perf_counter()
    out = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, check=False)
    if out.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(cmd)} failed: {out.stderr}")
    return time.perf_counter() - start, out.stdout


def adr(*args: str) -> list[str]:
    return [sys.executable, "-m", "adr_memory", *args]
