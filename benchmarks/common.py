"""Helpers shared by the benchmark scripts."""

from __future__ import annotations

import os
import platform
import shutil
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from genrepo import generate  # noqa: E402


def machine() -> str:
    return f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"


def repo(path: Path, *, files: int, commits: int, adrs: int) -> Path:
    """The generated repository (reused when it already exists with the same shape)."""
    stamp = path / ".bench-shape"
    shape = f"{files} {commits} {adrs}"
    if not (stamp.exists() and stamp.read_text() == shape):
        shutil.rmtree(path, ignore_errors=True)
        generate(path, files=files, commits=commits, adrs=adrs)
        stamp.write_text(shape)
    return path


def timed(cmd: list[str], cwd: Path) -> tuple[float, str]:
    start = time.perf_counter()
    out = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, check=False)
    if out.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(cmd)} failed: {out.stderr}")
    return time.perf_counter() - start, out.stdout


def adr(*args: str) -> list[str]:
    return [sys.executable, "-m", "adr_memory", *args]
